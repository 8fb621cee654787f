"""A split pattern's top-level alternatives and the labels of the pieces they match.

:func:`split_alternatives` cuts a regex at its top-level ``|``; :func:`grouped_alternatives`
compiles it again with each alternative a named group, so that a match says which alternative
matched (the kind of piece: ``"letters"``, ``"1-3 digits"``, ...: known for the patterns of
``gpt2``/``r50k_base``/``p50k_base``, ``cl100k_base`` and ``o200k_base``, ``"custom"`` otherwise);
:func:`label_parts` gives a piece's label as data and :func:`alternative_label` words it in English.
Used by :mod:`bytepair.teach.explain` (token stories).

>>> alternative_label("letters", " world")
'letters with a leading space'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..split.patterns import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN
from ..split.pretokenize import compile_pattern

__all__ = ["alternative_label", "grouped_alternatives", "label_parts", "split_alternatives"]

_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
# back-references and recursion (group numbers would shift), verbose mode (comments may hold "|")
_BACKREF = re.compile(r"\\[1-9]|\\g<|\(\?P=|\(\?P>|\(\?&|\(\?R\)|\(\?[0-9]|\(\?[a-zA-Z]*x")


def split_alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regex (split at ``|`` outside groups and classes).

    Args:
        pattern: regex source (``regex`` syntax).

    Returns:
        The alternatives' source texts, in order (one item when the pattern has
        no top-level ``|``). Leading global flags such as ``(?i)`` stay with
        the first alternative.

    >>> split_alternatives(r"'s|[a-z]+|\\d{1,3}|(?:x|y)")
    ["'s", '[a-z]+', '\\\\d{1,3}', '(?:x|y)']
    """
    out: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":  # a literal ] first in the class
                j += 1
            i = j
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


# Known alternatives of the real encodings' patterns -> kind.
_KINDS: dict[str, str] = {}
for _pat, _kinds in (
    (
        GPT2_PATTERN,
        ["contraction", "letters", "digits", "punctuation", "trailing_whitespace", "whitespace_run", "whitespace_char"],
    ),
    (
        CL100K_PATTERN,
        [
            "contraction",
            "letters",
            "digits_1_3",
            "punctuation",
            "trailing_whitespace",
            "newlines",
            "whitespace_run",
            "whitespace_char",
        ],
    ),
    (
        O200K_PATTERN,
        ["word_lower", "word_upper", "digits_1_3", "punctuation", "newlines", "whitespace_run", "whitespace"],
    ),
):
    _alts = split_alternatives(_pat)
    if len(_alts) != len(_kinds):  # pragma: no cover - guarded by the tests
        raise RuntimeError("the labels of a split pattern's alternatives are out of date")
    _KINDS.update(zip(_alts, _kinds))


def label_parts(kind: str, piece: str) -> dict[str, Any]:
    """The facts a piece's label is worded from, as data (the page words them in its
    locale; :func:`alternative_label` words them in English for the CLI and the Python API).

    Args:
        kind: a :attr:`PieceStory.kind` key.
        piece: the matched text (characters).

    Returns:
        ``{"kind", "lead", "lead_char", "then_newlines"}``: ``lead`` is ``None`` or
        what the piece starts with before its letters, digits or punctuation:
        ``"space"``, ``"tab"``, ``"whitespace"`` (another whitespace character) or
        ``"char"`` (a symbol, given as ``lead_char``); ``then_newlines``: a
        run of other characters that ends in newlines.

    >>> label_parts("letters", " world")
    {'kind': 'letters', 'lead': 'space', 'lead_char': None, 'then_newlines': False}
    """
    lead: str | None = None
    lead_char: str | None = None
    if kind in ("letters", "word_lower", "word_upper") and len(piece) >= 2:
        c = piece[0]
        if unicodedata.category(c)[0] not in "LMN":
            if c == " ":
                lead = "space"
            elif c == "\t":
                lead = "tab"
            elif c.isspace():
                lead = "whitespace"
            else:
                lead, lead_char = "char", c
    elif kind == "digits" and piece.startswith(" "):
        lead = "space"
    elif kind == "punctuation" and piece.startswith(" ") and len(piece) > 1:
        lead = "space"
    newlines = kind == "punctuation" and piece.endswith(("\n", "\r")) and piece.strip("\r\n") != ""
    return {"kind": kind, "lead": lead, "lead_char": lead_char, "then_newlines": newlines}


_LABELS = {
    "contraction": "contraction ('s 't 're 've 'm 'll 'd)",
    "letters": "letters",
    "word_lower": "letters ending in lowercase",
    "word_upper": "capital letters",
    "digits": "digits",
    "digits_1_3": "1-3 digits",
    "punctuation": "other characters (not letters, digits or spaces)",
    "trailing_whitespace": "trailing spaces (end of the text)",
    "newlines": "newlines",
    "whitespace_run": "whitespace run (its last space before a word goes with the word)",
    "whitespace": "whitespace",
    "whitespace_char": "one whitespace character",
    "whole_text": "the whole text (no split pattern)",
    "pre_tokenizer": "a piece of the pre-tokenizer",
    "between_added": "the text between added tokens (no pre-tokenizer)",
}
_LEADS = {
    "space": " with a leading space",
    "tab": " with a leading tab",
    "whitespace": " with a leading whitespace character",
}


def alternative_label(kind: str, piece: str, *, source: str | None = None) -> str:
    """A human label in English for a piece matched by an alternative of kind ``kind``
    (the English wording of :func:`label_parts`, for the CLI and the Python API).

    Args:
        kind: a :attr:`PieceStory.kind` key.
        piece: the matched text (characters); the label mentions a leading
            space or symbol, trailing newlines.
        source: the alternative's regex text (used for ``kind="custom"``).

    Returns:
        The label, e.g. ``"letters with a leading space"``.

    >>> alternative_label("letters", " world")
    'letters with a leading space'
    >>> alternative_label("digits_1_3", "123")
    '1-3 digits'
    """
    if kind not in _LABELS:
        return source if source is not None else kind
    parts = label_parts(kind, piece)
    lead = parts["lead"]
    label = _LABELS[kind]
    if lead == "char":
        label += f" with a leading {parts['lead_char']!r}"
    elif lead is not None:
        label += _LEADS[lead]
    return label + (", then newlines" if parts["then_newlines"] else "")


def grouped_alternatives(pattern: str) -> tuple[Any, list[str], list[str]]:
    """``pattern`` compiled with each top-level alternative a named group ``_bp<k>``, so a match's
    ``lastgroup`` names the alternative that matched.

    Args:
        pattern: a split pattern (``regex`` syntax; compiled with
            :func:`bytepair.split.pretokenize.compile_pattern`).

    Returns:
        ``(grouped, alternatives, kinds)``: the grouped pattern as ``compile_pattern`` gives it
        (``finditer``, ``findall``), the alternatives' source texts and their kinds (a :attr:`bytepair.teach.explain.PieceStory.kind` key; ``"custom"``
        for an alternative of no known pattern); ``(None, [], [])`` when the pattern cannot be
        grouped (back-references, recursion or verbose mode, whose group numbers or comments a
        regrouping would change, or a pattern the back-end refuses).

    >>> grouped, alts, kinds = grouped_alternatives("[a-z]+|[0-9]+")
    >>> alts, kinds, [m.lastgroup for m in grouped.finditer("ab42")]
    (['[a-z]+', '[0-9]+'], ['custom', 'custom'], ['_bp0', '_bp1'])
    """
    prefix = ""
    m = _GLOBAL_FLAGS.match(pattern)
    body = pattern
    if m:
        prefix, body = m.group(), pattern[m.end() :]
    if _BACKREF.search(pattern) is not None:
        return None, [], []
    alts = split_alternatives(body)
    try:
        grouped = compile_pattern(prefix + "|".join(f"(?P<_bp{k}>{a})" for k, a in enumerate(alts)))
    except (ValueError, TypeError, ImportError):
        return None, [], []
    return grouped, alts, [_KINDS.get(a, "custom") for a in alts]
