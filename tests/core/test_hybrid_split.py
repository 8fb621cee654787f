"""The ``backend="auto"`` dispatcher on CPython (``pretokenize._HybridSplit``):
long BMP-only texts run on the stdlib ``re`` translation, everything else on
``regex``; the pieces must be ``regex``'s (the reference: tiktoken's patterns
run on ``regex`` are tiktoken's split) whichever engine ran."""

from __future__ import annotations

import re

import pytest

from bytepair.split import pretokenize
from bytepair.split.patterns import PATTERNS
from bytepair.split.pretokenize import compile_pattern
from tests import corpora

regex = pytest.importorskip("regex")
pytestmark = pytest.mark.skipif(pretokenize.BACKEND != "regex", reason="auto is plain re without a checked regex")

LONG = pretokenize._HybridSplit.MIN_CHARS


def _texts():
    english = "The quick brown fox's 123 jumps,  over\r\n\n the lazy dog  .\u00a0\u2028 "
    mixed = "Всеобщая декларация 人人生而自由 ١٢٣ καὶ  \n\t"
    astral = "emoji 😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠀀 "
    return {
        "english-long": english * (LONG // len(english) + 2),
        "mixed-long": mixed * (LONG // len(mixed) + 2),
        "astral-long": (mixed + astral) * (LONG // len(mixed + astral) + 2),
        "short": english + mixed,
        "udhr-mix": corpora.udhr_mix(),
    }


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
@pytest.mark.parametrize("kind", ["english-long", "mixed-long", "astral-long", "short", "udhr-mix"])
def test_auto_split_equals_regex(name, kind):
    text = _texts()[kind]
    auto = compile_pattern(PATTERNS[name])
    assert auto.findall(text) == regex.compile(PATTERNS[name]).findall(text)
    assert [m.span() for m in auto.finditer(text)] == [m.span() for m in regex.compile(PATTERNS[name]).finditer(text)]


def test_dispatch_picks_re_only_for_long_texts():
    split = compile_pattern(PATTERNS["cl100k_base"])
    assert isinstance(split, pretokenize._HybridSplit)
    assert isinstance(split._pick("x" * LONG), re.Pattern)
    assert not isinstance(split._pick("x" * (LONG - 1)), re.Pattern)
    # _pick also serves finditer (bytepair.corpus scans with it): exact engines only
    assert not isinstance(split._pick("x" * LONG + "😀"), re.Pattern)


ASTRAL = [
    "😀 emoji",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math letters",
    "𝐀𝐚 bold",
    "𠀀𠀁 CJK ext B",
    "𑄃𑄧𑄇𑄴 Chakma letters and marks",
    "𝟎𝟏𝟐𝟑 math digits",
    "𐌰𐌱 Gothic",
    "𞤀𞤢 Adlam",
    "󠀁󠀠 tags",
    "􏿽 private",
    "𒐀 cuneiform number",
    "'𝐒 'S",
    "x𝐬",
    "a🏻 b",
]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
@pytest.mark.parametrize("backend", ["auto", "re"])
def test_astral_characters_through_proxies_equal_regex(name, backend):
    # every astral case next to every other, after letters, digits, spaces, apostrophes
    glue = ["", " ", "a", "1", "'", "\n", "Я", "。"]
    text = "".join(a + g + b for a in ASTRAL for g in glue for b in ASTRAL[:5])
    text = text * (LONG // len(text) + 1)
    assert max(text) > "\uffff"  # characters above U+FFFF
    split = compile_pattern(PATTERNS[name], backend=backend)
    reference = regex.compile(PATTERNS[name])
    assert split.findall(text) == reference.findall(text)
    # finditer (Tokenize's spans, bytepair.corpus): the same pieces at the same offsets, also from pos
    want = [(m.span(), m.group()) for m in reference.finditer(text)]
    assert [(m.span(), m.group()) for m in split.finditer(text)] == want
    pos = len(text) // 3
    assert [(m.span(), m.group()) for m in split.finditer(text, pos)] == [
        (m.span(), m.group()) for m in reference.finditer(text, pos)
    ]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_re_finditer_on_astral_text_needs_no_full_translation(name):
    # the full translation compiles several times longer than the BMP one (~0.4 s in Pyodide
    # for o200k_base): one emoji in Tokenize's sample made the first count pay it
    split = pretokenize._StdlibSplit(PATTERNS[name])
    text = "Emoji: 🙂👍🏽 🇺🇳 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"
    spans = [m.span() for m in split.finditer(text)]
    assert split._full is None
    assert spans == [m.span() for m in regex.compile(PATTERNS[name]).finditer(text)]


def test_custom_patterns_stay_on_regex():
    split = compile_pattern(r"\p{L}+|\s+|.")
    assert not isinstance(split, pretokenize._HybridSplit)
