"""The Tokenize and Compare views: counts, ids, token spans as named columns, pasted ids
decoded, a tokenizer's description. Counting follows ``bytepair.app.models.count_tokens``
(OpenAI and trained tokenizers: special-token strings as plain text; open models: the
page's "Add special tokens" switch as ``add_special``)."""

from __future__ import annotations

import json

import bytepair
from bytepair import charnames, decoding
from bytepair.app import chunked, limits, models
from bytepair.surrogates import utf8

from .convert import dumps, exposed
from .state import get_tokenizer


@exposed
def count(text: str, name: str, add_special: bool = True) -> int:
    """Number of tokens of ``text`` (``bytepair.app.models.count_tokens``)."""
    return models.count_tokens(get_tokenizer(name), text, add_special_tokens=add_special)


class CountSession:
    """:func:`count` in time-boxed steps (``bytepair.app.chunked.CountJob``): the worker steps it and
    lets its other calls run in between. ``step(budget_ms)`` -> JSON ``{done, count, position,
    length}`` (``position``/``length`` in characters: the progress)."""

    @exposed
    def __init__(self, text: str, name: str, add_special: bool = True) -> None:
        self.job = chunked.CountJob(get_tokenizer(name), text, add_special_tokens=add_special)

    @exposed
    def step(self, budget_ms: float = 50.0) -> str:
        job = self.job
        job.step(budget_ms)
        return dumps({"done": job.done, "count": job.count, "position": job.position, "length": job.length})


@exposed
def encode(text: str, name: str, add_special: bool = True) -> str:
    """JSON list of the token ids of ``text`` (counted as :func:`count` counts)."""
    return dumps(models.encode_ids(get_tokenizer(name), text, add_special_tokens=add_special))


@exposed
def encode_spans(
    text: str,
    name: str,
    units: str = "utf16",
    limit: int | None = None,
    add_special: bool = True,
    specials: bool = False,
    total: bool = True,
) -> str:
    """JSON columns ``{n_tokens, ids, display, vocab, special, hex, note, start, end}`` over the first
    ``limit`` tokens (all when ``None``), plus ``marks`` (``bytepair.charnames.invisible_marks`` of
    ``text``, with the shown tokens' starts: a leading combining mark gets its dotted circle); spans in ``units``; ``n_tokens`` counts every token; ``n_added``: tokens the
    post-processor added (BOS ...: special, empty span); ``vocab``: the vocabulary's spelling
    (``Ġhello``, ``▁hello``, ``<0xE0>``); ``display``: ``bytepair.token_to_label`` (invisible
    characters named); ``note``: ``bytepair.token_note`` (``note_parts``: the same as data,
    ``bytepair.decoding.token_note_parts``, which the page words in the reader's language); ``dropped``: ``[start, end]`` of characters
    that became no token (``bytepair.app.models.dropped_characters``). ``specials``: special-token strings
    (``<|endoftext|>``) become their special token (``allowed_special="all"``), else plain text.
    ``total=False`` with a ``limit``: only the first ``limit`` tokens are encoded where
    ``bytepair.app.chunked.first_spans`` applies; ``n_tokens`` is then ``null`` (the page counts with
    :class:`CountSession`), and ``marks`` / ``dropped`` cover the text the shown tokens cover."""
    tok = get_tokenizer(name)
    first = (
        chunked.first_spans(tok, text, limit, units=units, add_special_tokens=add_special)
        if not total and limit is not None and not specials
        else None
    )
    if first is None:
        spans = models.view_spans(tok, text, add_special_tokens=add_special, units=units, specials=specials)
        n_tokens = len(spans)
    else:
        (spans, covered), n_tokens = first, None
        text = text[:covered]  # (marks and dropped characters: of the part shown)
    shown = spans if limit is None else spans[:limit]
    return dumps(
        {
            "n_tokens": n_tokens,
            "n_added": sum(1 for s in spans if s.special and s.start == s.end),
            "ids": [s.id for s in shown],
            "display": [bytepair.token_to_label(s.token) for s in shown],
            "vocab": [tok.token_string(s.id) for s in shown],
            "special": [s.special for s in shown],
            "hex": [s.token.hex(" ") for s in shown],
            "note": [bytepair.token_note(s.token) for s in shown],
            "note_parts": [decoding.token_note_parts(s.token) for s in shown],
            "start": [s.start for s in shown],
            "end": [s.end for s in shown],
            "marks": charnames.invisible_marks(
                text, units="chars" if units == "chars" else "utf16", token_starts=[s.start for s in shown]
            ),
            "dropped": models.dropped_characters(tok, text, units=units),
        }
    )


@exposed
def chunk_jsonl(
    text: str, name: str, max_tokens: int, overlap: int = 0, boundary: str = "token", add_special: bool = False
) -> str:
    """``bytepair.chunk`` of ``text`` as JSON lines ``{"index", "text", "tokens", "start", "end"}``
    (offsets in characters), as ``bytepair chunk`` writes them; errors: ``ArgumentError`` naming
    ``max_tokens`` / ``overlap`` / ``boundary``."""
    chunks = limits.chunk(
        get_tokenizer(name), text, max_tokens, overlap=overlap, boundary=boundary, add_special_tokens=add_special
    )
    return "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks)


@exposed
def decode_ids(ids_text: str, name: str) -> str:
    """Pasted ids (``bytepair.decoding.parse_token_ids``: ``"1 2"``, ``"[1, 2]"``) -> JSON
    ``{ids, text, display, note, note_parts}``: the decoded text (bad UTF-8 as U+FFFD) and, per id,
    ``bytepair.token_to_label`` / ``token_note`` / ``decoding.token_note_parts``. ArgumentError (``field="ids"``) for bad input."""
    ids = decoding.parse_token_ids(ids_text)
    tok = get_tokenizer(name)
    parts = decoding.token_pieces(ids, tok.decode_single_token_bytes, n_vocab=tok.n_vocab)
    return dumps(
        {
            "ids": ids,
            "text": b"".join(parts).decode("utf-8", errors="replace"),
            "display": [bytepair.token_to_label(b) for b in parts],
            "note": [bytepair.token_note(b) for b in parts],
            "note_parts": [decoding.token_note_parts(b) for b in parts],
        }
    )


@exposed
def compare(texts_json: str, names_json: str, add_special: bool = True) -> str:
    """``[{key, text}]`` x ``[name]`` -> JSON ``{name: {key: [tokens, utf8_bytes]}}`` (counted as :func:`count`)."""
    texts = json.loads(texts_json)
    out = {}
    for name in json.loads(names_json):
        tok = get_tokenizer(name)
        out[name] = {
            t["key"]: [models.count_tokens(tok, t["text"], add_special_tokens=add_special), len(utf8(t["text"]))]
            for t in texts
        }
    return dumps(out)


@exposed
def describe(name: str) -> str:
    """JSON of the tokenizer's ``describe()`` plus ``adds_special_tokens`` (takes the page's switch)
    and ``special`` (``bytepair.app.models.special_token_facts``: the token to name, what typed ones count as)."""
    tok = get_tokenizer(name)
    return dumps(
        {
            **tok.describe(),
            "adds_special_tokens": models.adds_special_tokens(tok),
            "special": models.special_token_facts(tok),
        }
    )
