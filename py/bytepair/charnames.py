"""Naming the characters a reader cannot see: invisible, format and control characters.

A token that is a zero-width joiner (U+200D) or an escape (U+001B) looks like an
empty box on screen. These helpers give such characters a short visible label
(the Unicode abbreviation alias where one exists, ``ZWJ``, ``ESC``, ``NBSP``...,
else the code point ``U+E0061``) and a longer title (code point and Unicode
name), so a page shows ``ZWJ`` instead of nothing.

Which characters are named (:func:`char_label` is not ``None``):

* general category ``Cc`` (controls) except TAB (U+0009) and LF (U+000A),
  which lay out as whitespace; CR (U+000D) *is* named;
* ``Cf`` (format: ZWJ, ZWNJ, LRM, RLM, BOM, soft hyphen, bidi controls, tags...),
  ``Zl``/``Zp`` (line and paragraph separators), ``Co`` (private use),
  ``Cn`` (unassigned), ``Cs`` (lone surrogates);
* variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF: ``VS1``..``VS256``),
  the combining grapheme joiner and Mongolian free variation selectors, and the
  Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which draw nothing.

Spaces (``Zs``, e.g. U+00A0) are *not* named: they show as space.

A token that *begins* with a combining mark (general category ``Mn``/``Mc``/``Me``,
e.g. U+0301 COMBINING ACUTE ACCENT after GPT-2 split "e" from its accent) has
nothing to draw the mark on: it shows on a dotted circle U+25CC (:data:`DOTTED_CIRCLE`),
as the Unicode code charts show marks (:func:`needs_base`; :func:`text_label` and
:func:`invisible_marks` with ``token_starts``). The text itself is not changed.

Sources: the abbreviation aliases are those of Unicode's NameAliases.txt
(type ``abbreviation``); Python's ``unicodedata.lookup`` resolves every label
given here back to its character. Names come from ``unicodedata.name``.
Units: *characters* (code points) unless ``units="utf16"``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = [
    "char_label",
    "char_title",
    "invisible_marks",
    "needs_base",
    "on_base",
    "text_label",
    "DOTTED_CIRCLE",
    "INVISIBLE_OPEN",
    "INVISIBLE_CLOSE",
]

#: The base a combining mark at the start of a token is shown on (U+25CC DOTTED CIRCLE).
DOTTED_CIRCLE = "\u25cc"

#: Brackets around a label inside a plain string (:func:`text_label`): "⟨ZWJ⟩".
INVISIBLE_OPEN, INVISIBLE_CLOSE = "\u27e8", "\u27e9"

# Abbreviation aliases from Unicode NameAliases.txt (type "abbreviation").
_C0 = (
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split()
_ABBREV: dict[int, str] = {i: a for i, a in enumerate(_C0)}
_ABBREV.update(
    {
        0x7F: "DEL",
        0x80: "PAD",
        0x81: "HOP",
        0x82: "BPH",
        0x83: "NBH",
        0x84: "IND",
        0x85: "NEL",
        0x86: "SSA",
        0x87: "ESA",
        0x88: "HTS",
        0x89: "HTJ",
        0x8A: "VTS",
        0x8B: "PLD",
        0x8C: "PLU",
        0x8D: "RI",
        0x8E: "SS2",
        0x8F: "SS3",
        0x90: "DCS",
        0x91: "PU1",
        0x92: "PU2",
        0x93: "STS",
        0x94: "CCH",
        0x95: "MW",
        0x96: "SPA",
        0x97: "EPA",
        0x98: "SOS",
        0x99: "SGC",
        0x9A: "SCI",
        0x9B: "CSI",
        0x9C: "ST",
        0x9D: "OSC",
        0x9E: "PM",
        0x9F: "APC",
        0xAD: "SHY",
        0x34F: "CGJ",
        0x61C: "ALM",
        0x180B: "FVS1",
        0x180C: "FVS2",
        0x180D: "FVS3",
        0x180E: "MVS",
        0x180F: "FVS4",
        0x200B: "ZWSP",
        0x200C: "ZWNJ",
        0x200D: "ZWJ",
        0x200E: "LRM",
        0x200F: "RLM",
        0x202A: "LRE",
        0x202B: "RLE",
        0x202C: "PDF",
        0x202D: "LRO",
        0x202E: "RLO",
        0x2060: "WJ",
        0x2066: "LRI",
        0x2067: "RLI",
        0x2068: "FSI",
        0x2069: "PDI",
        0xFEFF: "BOM",
    }
)
_C0_NAMES = {
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x00: "NULL",
    0x7F: "DELETE",
}
_NAMED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"})
_EXTRA = frozenset({0x34F, 0x180B, 0x180C, 0x180D, 0x180F, 0x115F, 0x1160, 0x3164, 0xFFA0})
_LAYOUT = frozenset({0x09, 0x0A})  # tab and newline lay out as whitespace: not named


def _vs_number(cp: int) -> int | None:
    if 0xFE00 <= cp <= 0xFE0F:
        return cp - 0xFE00 + 1
    if 0xE0100 <= cp <= 0xE01EF:
        return cp - 0xE0100 + 17
    return None


def char_label(ch: str) -> str | None:
    """A short visible label for an invisible or control character, else ``None``.

    ``"\\u200d"`` -> ``"ZWJ"``, ``"\\x1b"`` -> ``"ESC"``, ``"\\ufe0f"`` -> ``"VS16"``,
    ``"\\U000e0061"`` -> ``"U+E0061"``, ``"a"`` / ``" "`` / ``"\\n"`` -> ``None``
    (which characters are named: see the module docstring).

    Args:
        ch: one character (a ``str`` of length 1).

    Raises:
        TypeError: ``ch`` is not a one-character ``str``.
    """
    if not isinstance(ch, str) or len(ch) != 1:
        raise TypeError(f"char_label expects one character, got {ch!r}")
    cp = ord(ch)
    if cp in _LAYOUT:
        return None
    vs = _vs_number(cp)
    if vs is not None:
        return f"VS{vs}"
    if cp in _EXTRA or unicodedata.category(ch) in _NAMED_CATEGORIES:
        return _ABBREV.get(cp, f"U+{cp:04X}")
    return None


def needs_base(ch: str) -> bool:
    """Whether ``ch``, at the start of a token, needs :data:`DOTTED_CIRCLE` drawn before it:
    a combining mark (``Mn``, ``Mc``, ``Me``) that is not named by :func:`char_label`
    (variation selectors and CGJ are marks too, but are shown by name). ``"\u0301"`` -> True,
    ``"\u093f"`` (DEVANAGARI VOWEL SIGN I) -> True, ``"e"`` / ``"\ufe0f"`` -> False.

    Raises:
        TypeError: ``ch`` is not a one-character ``str``.
    """
    if not isinstance(ch, str) or len(ch) != 1:
        raise TypeError(f"needs_base expects one character, got {ch!r}")
    return unicodedata.category(ch)[0] == "M" and char_label(ch) is None


def on_base(text: str) -> str:
    """``text`` with :data:`DOTTED_CIRCLE` before it when it begins with a combining mark
    (:func:`needs_base`): ``"\\u0301"`` -> ``"◌\\u0301"``, ``"e\\u0301"`` unchanged. For a token's
    display text (the token story); the token itself is not changed. Raises TypeError for a non-``str``."""
    if not isinstance(text, str):
        raise TypeError(f"on_base expects str, got {type(text).__name__}")
    return DOTTED_CIRCLE + text if text and needs_base(text[0]) else text


def char_title(ch: str) -> str:
    """Code point and Unicode name of one character: ``"U+200D ZERO WIDTH JOINER"``;
    controls, which have no name, get their alias or ``"<control>"``
    (``"U+001B ESCAPE"``, ``"U+0081 <control>"``); unassigned ones ``"<unassigned>"``.

    Raises:
        TypeError: ``ch`` is not a one-character ``str``.
    """
    if not isinstance(ch, str) or len(ch) != 1:
        raise TypeError(f"char_title expects one character, got {ch!r}")
    cp = ord(ch)
    name = unicodedata.name(ch, None) or _C0_NAMES.get(cp)
    if name is None:
        cat = unicodedata.category(ch)
        name = {"Cc": "<control>", "Cn": "<unassigned>", "Cs": "<surrogate>", "Co": "<private use>"}.get(cat, "")
    return f"U+{cp:04X} {name}".rstrip()


def invisible_marks(text: str, *, units: str = "chars", token_starts: Iterable[int] = ()) -> dict[str, list]:
    """Where ``text`` has characters to name, as columns
    ``{"start": [...], "end": [...], "label": [...], "title": [...], "name": [...], "base": [...]}``.

    ``[start, end)`` is in *characters* (``units="chars"``) or UTF-16 code units
    (``units="utf16"``, JavaScript string indices: a character above U+FFFF
    counts 2). ``label``/``title`` are :func:`char_label` / :func:`char_title`,
    ``base`` is ``False`` for those. A combining mark at one of ``token_starts``
    (same units; :func:`needs_base`) gets an entry with ``base`` ``True`` and label
    :data:`DOTTED_CIRCLE`: the page draws the circle before the mark (the text keeps the
    mark alone; its ``title`` adds that in English, ``name`` is :func:`char_title` alone, for a
    page that words the rest in its own language). Time: one pass over ``text``.

    Raises:
        TypeError: ``text`` is not a ``str``.
        ValueError: ``units`` is neither ``"chars"`` nor ``"utf16"``.
    """
    if not isinstance(text, str):
        raise TypeError(f"invisible_marks expects str, got {type(text).__name__}")
    if units not in ("chars", "utf16"):
        raise ValueError(f"units must be 'chars' or 'utf16', got {units!r}")
    cols: dict[str, list] = {"start": [], "end": [], "label": [], "title": [], "name": [], "base": []}
    starts = set(token_starts)
    wide = units == "utf16"
    pos = 0
    for ch in text:
        width = 2 if wide and ord(ch) > 0xFFFF else 1
        label = None
        if not ch.isprintable() or ord(ch) in _EXTRA or _vs_number(ord(ch)) is not None:
            label = char_label(ch)
        base = label is None and pos in starts and needs_base(ch)
        if label is not None or base:
            cols["start"].append(pos)
            cols["end"].append(pos + width)
            cols["label"].append(DOTTED_CIRCLE if base else label)
            cols["title"].append(char_title(ch) + (", a combining mark shown on a dotted circle" if base else ""))
            cols["name"].append(char_title(ch))
            cols["base"].append(base)
        pos += width
    return cols


def text_label(text: str) -> str:
    """``text`` with each named character replaced by ``⟨label⟩``: ``"a\\u200db"`` -> ``"a⟨ZWJ⟩b"``
    (for places that show plain strings: table cells, a detail line), and a leading combining
    mark put on :data:`DOTTED_CIRCLE`: ``"\\u0301"`` -> ``"◌\\u0301"``. Other characters
    are unchanged. Raises TypeError when ``text`` is not a ``str``."""
    if not isinstance(text, str):
        raise TypeError(f"text_label expects str, got {type(text).__name__}")
    out = [DOTTED_CIRCLE] if text and needs_base(text[0]) else []  # (as on_base)
    for ch in text:
        label = None
        if not ch.isprintable() or ord(ch) in _EXTRA or _vs_number(ord(ch)) is not None:
            label = char_label(ch)
        out.append(ch if label is None else INVISIBLE_OPEN + label + INVISIBLE_CLOSE)
    return "".join(out)
