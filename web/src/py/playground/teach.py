"""The teaching views (issue 13): why this token, side by side, the gallery of oddities
(``bytepair.explain`` / ``align`` / ``gallery`` as JSON, spans in UTF-16 units)."""

from __future__ import annotations

import json

import bytepair
from bytepair.app import models

from .convert import dumps, exposed, span_columns
from .state import get_tokenizer


class _Event:
    """What ``explain`` reads of a ``MergeEvent``: ``id``, ``pair``, ``count``."""

    __slots__ = ("id", "pair", "count")

    def __init__(self, id_: int, pair: tuple[int, int], count: int) -> None:
        self.id, self.pair, self.count = id_, pair, count


@exposed
def token_story(
    text: str, name: str, index: int, events_json: str = "", add_special: bool = True, specials: bool = False
) -> str:
    """JSON of ``bytepair.token_story(tok, text, index, units="utf16").to_dict()`` plus ``"lines"``
    (``bytepair.explain.describe``) and ``"tokenizer"``. ``events_json``: the training run's merges
    as columns ``{"id", "left", "right", "count"}`` (trained tokenizers; ``""``: none).
    ``add_special``, ``specials``: tokens counted as ``encode_spans`` counts them."""
    events = None
    if events_json:
        c = json.loads(events_json)
        events = [_Event(i, (a, b), n) for i, a, b, n in zip(c["id"], c["left"], c["right"], c["count"])]
    tok = get_tokenizer(name)
    story = bytepair.token_story(
        tok,
        text,
        index,
        units="utf16",
        allowed_special="all" if specials else (),
        disallowed_special=(),
        events=events,
        add_special_tokens=add_special and models.adds_special_tokens(tok),
    )
    return dumps({**story.to_dict(), "lines": bytepair.explain.describe(story), "tokenizer": name})


@exposed
def side_by_side(text: str, names_json: str, add_special: bool = True, specials: bool = False) -> str:
    """JSON of ``bytepair.compare_segmentations(text, rows, names, units="utf16").to_dict()`` plus
    ``"spans"``: per row ``{ids, display, start, end}`` (UTF-16 spans); each row counted as
    ``encode_spans`` counts (``add_special``: BOS etc.; ``specials``: the OpenAI switch)."""
    names = json.loads(names_json)
    rows = [
        models.view_spans(get_tokenizer(n), text, add_special_tokens=add_special, units="utf16", specials=specials)
        for n in names
    ]
    out = bytepair.compare_segmentations(text, rows, names=names, units="utf16").to_dict()
    out["spans"] = [span_columns(r, bytepair.token_to_display) for r in rows]
    return dumps(out)


def gallery_encodings() -> str:
    """JSON list of the encodings the gallery's examples use (the worker fetches their vocabularies first)."""
    return dumps(sorted({name for ex in bytepair.gallery.EXAMPLES for name in ex.encodings}))


@exposed
def gallery_optional_encodings() -> str:
    """JSON list of the open models the gallery also shows once loaded (Qwen 3's digits)."""
    return dumps(sorted({name for ex in bytepair.gallery.EXAMPLES for name in ex.optional}))


@exposed
def gallery(ids_json: str = "") -> str:
    """JSON of ``bytepair.gallery.gallery_data(ids=...)`` (``""``: every example)."""
    return dumps(
        bytepair.gallery.gallery_data(ids=json.loads(ids_json) if ids_json else None, get_encoding=get_tokenizer)
    )


@exposed
def lesson_encodings() -> str:
    """JSON list of the encodings the lessons' facts use (the worker fetches their vocabularies first)."""
    return dumps(bytepair.lessons.lesson_encodings())


@exposed
def lessons() -> str:
    """JSON of ``bytepair.lessons.lessons_data()``: the courses' worked examples as links, with their facts."""
    return dumps(bytepair.lessons.lessons_data(get_encoding=get_tokenizer))
