"""``bytepair.split.re_forms``: the faster form of o200k's split pattern finds the same pieces.

Reference: the ``regex`` module running tiktoken's o200k pattern (``bytepair.split.patterns``,
checked against tiktoken in test_patterns.py). The form is compared with it on
``regex`` itself (so the form is equivalent as a pattern, whatever the back-end), and
the ``re`` back-end (which runs the form) with ``regex`` on the original. Without
``regex`` (Pyodide) the ``re`` back-end is compared with ``re`` running the plain
translation of the original.
"""

from __future__ import annotations

import functools
import re

import pytest

from bytepair.split.patterns import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN
from bytepair.split.pretokenize import compile_pattern
from bytepair.split.re_forms import O200K_RE_FORM, re_form
from bytepair.split.retranslate import to_stdlib_re
from tests import corpora
from tests.hypothesis_profiles import examples

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

#: Texts at the edges of the front alternatives' conditions: a letter or mark after
#: punctuation, marks first, capitals before non-ASCII lower case, title case, caseless
#: letters, digits of other scripts, contractions in every case, "/" and newlines after
#: punctuation, whitespace other than spaces.
EDGES = {
    "contractions": "The LORD's house, I'LL go; he'd we've they're 'S 'tis ma'am x'Sſ y'ſ",
    "punct-then-letter": ',The .the (a) [B] "Quote" ¿Qué? —dash «mot» ,é .É ,ǅ ,中 ,ʰ',
    "punct-then-mark": ",\u0301a .\u0301 !\u0903x ?\u20dd $\u0301\u0301",
    "space-then-mark": " \u0301a \u0301 x \u0301A \u0301\u0301b",
    "marks-first": "\u0301abc \u0301ABC \u0301\u0301 \u093fक",
    "caps": "LORD GOD ABCdef ABCd AbC aBC ÀBC Àb ÀÉ Éa Ab'S AB'S",
    "title-case": "ǅemal ǅ ǈubljana ᾈ ǅA Aǅ aǅ",
    "caseless": "中文A 中a a中 A中 ʰa aʰ Aʰb ʰA xʰʰ ܐܒ अब्क हिंदी",
    "digits": "1:1 2024 12345 ١٢٣ ²³ Ⅷ 1a a1 ,1 (1) 1,000.5",
    "slash-newline": "a/b ./\n ,/ \n\n x.\r\n y;\n\n z//\n",
    "whitespace": "a\tb \xa0c\u3000d \u2028 e\x0b\x0cf  g   \n  h \r\n",
    "symbols": "$5 +x =y ~z ^w `v | u @t #s %r &q *p <o> {n}",
    "astral": "\U00010400\U00010428 \U0001d7d8 😀a ,😀 \U000e0100a a\U000e0100 \U00010400b",
}

#: Representatives of every class the pattern and the form tell apart.
ALPHABET = (
    "aeszAESZ'\u017f\u212a"  # ASCII letters, the contraction letters and their case variants
    "\u00e9\u00c0\u01c5\u02b0\u4e2d\u0915\u0710"  # Ll, Lu, Lt, Lm, Lo (Han, Devanagari, Syriac)
    "\u0301\u093f\u0903\u20dd"  # Mn, Mn, Mc, Me
    "09\u0663\u00b2\u2167"  # Nd, Nd (Arabic-Indic), No, Nl
    ',.!?/()"$+-\u2014\u00bf'  # punctuation and symbols
    " \t\n\r\x0b\x85\xa0\u2028\u3000"  # white space
    "\U00010400\U00010428\U0001d7d8\U0001f600\U000e0100"  # astral Lu, Ll, Nd, So, Mn
)


@functools.cache
def _regex(pattern: str):
    regex = pytest.importorskip("regex")
    return regex.compile(pattern)


@functools.cache
def _plain_re(pattern: str):
    """``re`` running the plain translation of ``pattern`` (no form)."""
    return re.compile(to_stdlib_re(pattern))


def _check(text: str) -> None:
    """The form equals the original on ``regex`` (when installed); the ``re`` back-end equals
    ``regex`` on the original, or (without ``regex``) ``re`` on the plain translation."""
    got = compile_pattern(O200K_PATTERN, backend="re").findall(text)
    try:
        import regex  # noqa: F401
    except ImportError:
        assert got == _plain_re(O200K_PATTERN).findall(text)
        return
    want = _regex(O200K_PATTERN).findall(text)
    assert _regex(O200K_RE_FORM).findall(text) == want
    assert got == want


def test_form_is_used_for_o200k_only():
    assert re_form(O200K_PATTERN) == O200K_RE_FORM != O200K_PATTERN
    assert O200K_RE_FORM.endswith("|" + O200K_PATTERN)  # the original alternatives, unchanged, last
    for other in (CL100K_PATTERN, GPT2_PATTERN, r"\w+|\s+"):
        assert re_form(other) is other
    split = compile_pattern(O200K_PATTERN, backend="re")
    assert split.pattern == O200K_PATTERN  # errors and the proxies still see the original


@pytest.mark.parametrize("name", list(EDGES))
def test_edges(name):
    _check(EDGES[name])


def test_edges_known_pieces():
    """Hand-worked pieces from the original pattern's definition (A1 takes the punctuation
    before a word; A4 takes punctuation not followed by a letter or mark, with "/" and newlines)."""
    split = compile_pattern(O200K_PATTERN, backend="re").findall
    assert split(",The LORD's") == [",The", " LORD's"]
    assert split("a/b ./\n") == ["a", "/b", " ./\n"]
    assert split(",\u0301a") == [",\u0301a"]
    assert split("ABCdef") == ["ABCdef"]
    assert split("1234 (1)") == ["123", "4", " (", "1", ")"]


def test_a_wrong_form_is_caught():
    """The checks can fail: alternative 6 without its look-ahead takes "," off ",The"."""
    regex = pytest.importorskip("regex")
    wrong = O200K_RE_FORM.replace(r"(?![\p{L}\p{M}])", "")
    assert wrong != O200K_RE_FORM
    text = EDGES["punct-then-letter"]
    assert regex.findall(wrong, text) != regex.findall(O200K_PATTERN, text)


@pytest.mark.parametrize("corpus", corpora.params(corpora.quick() + [corpora.KJV]))
def test_corpora(corpus):
    _check(corpus.text())


if given is not None:

    @settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=st.text(st.sampled_from(ALPHABET), max_size=30))
    def test_hypothesis(text):
        _check(text)
