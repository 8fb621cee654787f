"""Ready-made lessons: each course's own worked example as a link to a view of the page.

bytepair was made for four courses on byte-pair encoding, in Bangla, Urdu,
Hinglish and Persian. Each :class:`Lesson` is one of their worked examples: the
course (``course``: its language, the locale the link opens in), the view and
that view's link parameters (``params``, the keys of web/README.md's "Links"
table; a text goes in ``text`` and the page packs it into ``t``), and the facts
its note is worded from. As in :mod:`bytepair.app.gallery`, no number is typed into a
note: :func:`lesson_facts` computes every one by encoding or training, and the
figures the course itself prints are kept apart as quoted data
(``Lesson.quoted``), so the page can show them next to ours honestly. The
tests check both: ours against tiktoken and the slow textbook oracle, the
course's against what reproduces them (or against every real tokenizer, when
none does).

Example::

    >>> [lesson.id for lesson in LESSONS]
    ['bangla-premium', 'counting-rs', 'textbook-merges', 'pipeline-stages']
    >>> lesson("textbook-merges").course
    'hi-Latn'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..errors import lookup

__all__ = [
    "LESSONS",
    "MINI_BPE_CORPUS",
    "PIPELINE_STAGES",
    "Lesson",
    "lesson",
    "lesson_encodings",
    "lesson_facts",
    "lessons_data",
]

Getter = Callable[[str], Any]

#: The Bangla course's training corpus for its 40-line BPE ("mostly English, a little Bangla").
MINI_BPE_CORPUS = (
    "the order is late and the rider is lost . " * 30
    + "where is my order ? the order was paid . " * 30
    + "আমার অর্ডার কোথায় ? " * 3
)
#: Merges of the Bangla course's mini BPE (its ``train_bpe(corpus, merges=60)``).
MINI_BPE_MERGES = 60
#: The two sentences the Bangla course encodes.
BANGLA_EN = "where is my order ?"
BANGLA_BN = "আমার অর্ডার কোথায় ?"

#: The Hinglish course's toy corpus (the paper's: Sennrich et al. 2016), as word counts.
TEXTBOOK_COUNTS = "low 5\nlower 2\nnewest 6\nwidest 3"
#: How many merges the Hinglish course lists for it.
TEXTBOOK_MERGES = 5

#: The Persian course's sentence for its pipeline (a tokenizer in five stages).
PIPELINE_TEXT = "توکن‌ساز، متن را پیش از مدل به توکن‌ها می‌شکند."
#: The stages of a production tokenizer, in order, as the Persian course lists them.
PIPELINE_STAGES = ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")

_OPENAI = ("gpt2", "cl100k_base", "o200k_base")
_SHORT = {"gpt2": "gpt2", "cl100k_base": "cl100k", "o200k_base": "o200k"}


@dataclasses.dataclass(frozen=True)
class Lesson:
    """One course's worked example.

    ``id``: stable key (catalog keys ``lessons.<id>.*``); ``course``: the course's
    language, a page locale (``bn``, ``ur``, ``hi-Latn``, ``fa``), which the link
    opens in; ``view`` and ``params``: the link's view and parameters (strings;
    no ``t``); ``text``: the text the link carries as ``t`` (``None``: none);
    ``encodings``: the tokenizers its facts encode with; ``quoted``: the figures
    the course prints, as it prints them (checked by the tests, never computed);
    ``compute``: ``get_encoding -> {name: value}``.
    """

    id: str
    course: str
    view: str
    params: dict[str, str]
    text: str | None
    encodings: tuple[str, ...]
    quoted: dict[str, Any]
    compute: Callable[[Getter], dict[str, Any]] = dataclasses.field(repr=False)


# --------------------------------------------------------------------------- facts


def _counts(get: Getter, key: str, text: str) -> dict[str, int]:
    return {f"{key}_{_SHORT[n]}_count": len(get(n).encode_ordinary(text)) for n in _OPENAI}


def _premium(get: Getter) -> dict[str, Any]:
    from ..trainer import train

    out: dict[str, Any] = {"text_en": BANGLA_EN, "text_bn": BANGLA_BN}
    out.update(_counts(get, "en", BANGLA_EN))
    out.update(_counts(get, "bn", BANGLA_BN))
    mini = train(MINI_BPE_CORPUS, 256 + MINI_BPE_MERGES, pattern=None)
    out["mini_en_count"] = len(mini.encode(BANGLA_EN))
    out["mini_bn_count"] = len(mini.encode(BANGLA_BN))
    out["merges"] = MINI_BPE_MERGES
    return out


def _shown(get: Getter, name: str, text: str) -> str:
    from ..decoding import token_to_display

    enc = get(name)
    return "".join(f"[{token_to_display(enc.decode_single_token_bytes(i))}]" for i in enc.encode_ordinary(text))


def _strawberry(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {"r_count": "strawberry".count("r"), "letters": len("strawberry")}
    out.update(_counts(get, "strawberry", "strawberry"))
    for name in _OPENAI:
        out[f"strawberry_{_SHORT[name]}_shown"] = _shown(get, name, "strawberry")
    return out


def _merge_text(pair: tuple[str, str]) -> str:
    return f"{pair[0]} {pair[1]} → {pair[0]}{pair[1]}"


def _textbook(get: Getter) -> dict[str, Any]:
    from ..teach.textbook import learn, parse_word_counts

    steps = learn(parse_word_counts(TEXTBOOK_COUNTS), TEXTBOOK_MERGES, tie_break="lexicographic")
    merges = [s.pair for s in steps]
    quoted = [tuple(m) for m in _LESSON_QUOTED["textbook-merges"]["merges"]]
    wrong = next((i for i, (a, b) in enumerate(zip(merges, quoted)) if a != b), None)
    out: dict[str, Any] = {
        "merges": ", ".join(_merge_text(p) for p in merges),
        "course_merges": ", ".join(_merge_text(p) for p in quoted),
        "n_merges": len(merges),
    }
    if wrong is not None:
        # what the course took and what the recount finds at its first wrong row
        counts = dict((tuple(row[0]), row[1]) for row in steps[wrong].pair_counts)
        out["wrong_step"] = wrong + 1
        out["course_pair"] = " ".join(quoted[wrong])
        out["course_pair_count"] = counts.get(quoted[wrong], 0)
        out["recount_pair"] = " ".join(merges[wrong])
        out["recount_pair_count"] = steps[wrong].count
    return out


def _pipeline(get: Getter) -> dict[str, Any]:
    import unicodedata

    from ..split.patterns import O200K_PATTERN
    from ..split.pretokenize import compile_pattern

    enc = get("o200k_base")
    return {
        "text": PIPELINE_TEXT,
        "nfkc_same": unicodedata.normalize("NFKC", PIPELINE_TEXT) == PIPELINE_TEXT,
        "pieces_count": len(compile_pattern(O200K_PATTERN).findall(PIPELINE_TEXT)),
        "o200k_count": len(enc.encode_ordinary(PIPELINE_TEXT)),
        "chars": len(PIPELINE_TEXT),
        "bytes": len(PIPELINE_TEXT.encode("utf-8")),
    }


#: What each course prints, as it prints it (the tests say where each figure comes from).
_LESSON_QUOTED: dict[str, dict[str, Any]] = {
    # Bangla course: its mini BPE's counts, and "where is my order" -> [2940, 374, 856, 2015]
    "bangla-premium": {"en_count": 10, "bn_count": 28, "ids": [2940, 374, 856, 2015], "ids_text": "where is my order"},
    # Urdu course: its own tokenizer (trained on 151,191 bytes of English prose it does not ship) cuts strawberry
    # into 6 tokens; the Bangla course says a model "may see" straw + berry
    "counting-rs": {"own_count": 6, "own_bytes": 151191, "split": ["straw", "berry"]},
    # Hinglish course: "Final learned merges (order mein)"
    "textbook-merges": {"merges": [["e", "s"], ["es", "t"], ["w", "e"], ["l", "o"], ["lo", "w"]]},
    # Persian course: a production tokenizer is a five-stage pipeline
    "pipeline-stages": {"stages": len(PIPELINE_STAGES)},
}

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "bangla-premium",
        "bn",
        "compare",
        {"src": "custom", "tok": ",".join(_OPENAI), "metric": "tokens"},
        f"English | {BANGLA_EN}\nবাংলা | {BANGLA_BN}",
        _OPENAI,
        _LESSON_QUOTED["bangla-premium"],
        _premium,
    ),
    Lesson(
        "counting-rs",
        "ur",
        "tokenize",
        {"g": "counting-letters", "gt": "0"},
        None,
        _OPENAI,
        _LESSON_QUOTED["counting-rs"],
        _strawberry,
    ),
    Lesson(
        "textbook-merges",
        "hi-Latn",
        "steps",
        {
            "mode": "textbook",
            "in": "counts",
            "tie": "lexicographic",
            "n": str(TEXTBOOK_MERGES),
            "s": str(TEXTBOOK_MERGES),
        },
        TEXTBOOK_COUNTS,
        (),
        _LESSON_QUOTED["textbook-merges"],
        _textbook,
    ),
    Lesson(
        "pipeline-stages",
        "fa",
        "tokenize",
        {"tok": "o200k_base"},
        PIPELINE_TEXT,
        ("o200k_base",),
        _LESSON_QUOTED["pipeline-stages"],
        _pipeline,
    ),
)

_BY_ID = {x.id: x for x in LESSONS}


def lesson(lesson_id: str) -> Lesson:
    """The :class:`Lesson` with this id.

    Raises:
        UnknownNameError: no such lesson (``known`` lists the ids).
    """
    return lookup(_BY_ID, lesson_id, what="lesson", field="lesson")


def lesson_encodings() -> list[str]:
    """The real encodings the lessons' facts use (sorted; the page loads their vocabularies first)."""
    return sorted({n for x in LESSONS for n in x.encodings})


def _default_getter() -> Getter:
    from ..registry import get_encoding

    return get_encoding


def lesson_facts(lesson_id: str, *, get_encoding: Getter | None = None) -> dict[str, Any]:
    """Every value a lesson's note is worded from, computed (never the course's figures).

    Args:
        lesson_id: a :attr:`Lesson.id`.
        get_encoding: ``name -> tokenizer`` with ``encode_ordinary(text) -> list[int]`` and
            ``decode_single_token_bytes(id) -> bytes`` (default :func:`bytepair.get_encoding`).

    Returns:
        ``{name: int | str | bool}``; ``*_count`` are tokens (``pieces_count``: pre-tokenizer
        pieces), ``bytes`` UTF-8 bytes, ``chars`` characters.

    Raises:
        UnknownNameError: unknown ``lesson_id``.
    """
    return lesson(lesson_id).compute(get_encoding or _default_getter())


def lessons_data(*, get_encoding: Getter | None = None) -> list[dict[str, Any]]:
    """Everything the page needs for the lesson cards, JSON-friendly.

    Returns:
        One dict per lesson, in order: ``{"id", "course", "view", "params", "text",
        "quoted", "facts", "stages"}``; ``params`` without ``t`` (the page packs ``text``
        into it); ``stages``: :data:`PIPELINE_STAGES` for the pipeline lesson, else ``[]``.
        The page words the title and note from its catalog (``lessons.<id>.title``,
        ``lessons.<id>.text``) with ``facts`` and ``quoted``.
    """
    get = get_encoding or _default_getter()
    return [
        {
            "id": x.id,
            "course": x.course,
            "view": x.view,
            "params": dict(x.params),
            "text": x.text,
            "quoted": x.quoted,
            "facts": lesson_facts(x.id, get_encoding=get),
            "stages": list(PIPELINE_STAGES) if x.id == "pipeline-stages" else [],
        }
        for x in LESSONS
    ]
