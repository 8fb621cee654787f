"""Split patterns and their two back-ends (``regex`` and stdlib ``re``).

References:

* the patterns themselves: tiktoken's ``tiktoken_ext/openai_public.py``
  (``tests.reference.tiktoken_pattern`` runs tiktoken's constructors offline);
* the splits: the ``regex`` module is the reference for the ``re`` back-end
  (tiktoken runs the patterns on Rust's fancy-regex, whose parity with tiktoken
  is checked end to end in ``test_encode_parity.py``);
* the known values below are worked out by hand from the pattern definitions,
  and Unicode's White_Space list (PropList.txt) for ``\\s``.

Tests that need ``regex``/``tiktoken``/``hypothesis`` skip without them
(Pyodide); the ``re``-only known-value and error tests run everywhere.
"""

from __future__ import annotations

import functools
import os
import re

import pytest

from bytepair.split import _unicode_tables as tables
from bytepair.split import pretokenize, retranslate
from bytepair.split.patterns import ALIASES, CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PATTERNS
from bytepair.split.pretokenize import compile_pattern, resolve_pattern
from bytepair.split.retranslate import to_stdlib_re
from tests import corpora
from tests.hypothesis_profiles import examples

try:  # hypothesis is installed in Pyodide too, regex is not
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

REAL = {"gpt2": GPT2_PATTERN, "cl100k_base": CL100K_PATTERN, "o200k_base": O200K_PATTERN}

#: Custom patterns exercising the translation: properties, scripts, POSIX,
#: escapes in negated classes, case-insensitive scopes, \b, verbose mode, $.
CUSTOM = {
    "gpt2-original": r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
    "letters-numbers": r"\p{L}+|\p{N}+|[^\p{L}\p{N}\s]+|\s+",
    "scripts": r"[\p{Han}\p{Hiragana}\p{Katakana}]+|\p{sc=Latn}+|\p{Greek}+|\p{Cyrillic}+|\p{Arabic}+|\P{L}|(?s:.)",
    "negated-escapes": r"[^\S\n]+|\n+|\S+?(?=\s|$)|\S",
    "posix": r"[[:alpha:]]+|[[:digit:]]+|[[:punct:]]+|[[:^alnum:]]",
    "ci-words": r"(?i)[a-zſ]+(?:'(?:s|t|ll|ve|re|m|d))?|[^a-z]",
    "ci-scoped": r"(?i:straße|kelvin|ı|i)|\w+|\W",
    "word-boundary": r"\b\w+\b|\B\W+\B|\s|(?s:.)",
    "verbose-ascii": r"""(?x) \p{Lu} \p{Ll}*   # capitalised word
                         | (?a:\w+) | \d{1,3} | \s++$ | \s+ | (?s:.)""",
    "marks-digits": r"[\p{L}\p{M}]+|\p{Nd}{1,2}|\p{No}|[\p{Z}\t\n\r]+|(?s:.)",
    "anchors": r"(?m)^\s+|\s+$|\s*\Z|[^\s]+|\s",
}
ALL_PATTERNS = {**REAL, **CUSTOM}
#: Patterns whose matches cover every character (pieces join back to the text).
COVERING = set(REAL) | {
    "letters-numbers",
    "negated-escapes",
    "posix",
    "ci-words",
    "ci-scoped",
    "word-boundary",
    "verbose-ascii",
    "marks-digits",
    "scripts",
    "gpt2-original",
}

#: Hard cases from issue 2 beyond tests/corpora.py's lists.
EDGE_CASES = {
    "x1c-x1f-alone": "\x1c\x1d\x1e\x1f",
    "x1c-between-spaces": "a \x1c b \x1d\x1e c\x1f ",
    "nel": "a\x85b \x85",
    "bom": "\ufeff\ufeffx",
    "nbsp": "a\xa0\xa0 b",
    "line-para-sep": "\u2028\u2029 a\u2029",
    "ideographic-space": "日本\u3000語 \u3000 ",
    "crlf-mix": "a\r\n\r\nb\n\r\n c \r\n",
    "spaces-newlines-x": "  \n\n  x",
    "trailing-ws": "x  \n  ",
    "trailing-newline": "x\n",
    "only-newlines": "\n\n\n",
    "arabic-indic-digits": "١٢٣٤٥٦٧ ۱۲۳",
    "devanagari-digits": "१२३४५ २०२४",
    "fullwidth-digits": "１２３４ ＡＢＣ",
    "combining-marks": "e\u0301\u0301 \u0301x n\u0303o \u093f",
    "emoji-zwj": "👩‍💻👨‍👩‍👧 👍🏽 🏳️‍🌈",
    "lone-surrogate": "\ud800",
    "surrogates-around": "\udc00a\ud800 \udbff\udfff",
    "upper-contractions": "I'LL 'S 'T 'RE 'VE 'M 'D 'Ll",
    "apostrophe-s-long-s": "'ſ 'ſt ſ",
    "kelvin-sign": "'\u212a \u212aelvin kelvin KELVIN",
    "turkish-i": "İi ıI 'İ 'ı",
    "sharp-s": "straße STRASSE ẞ",
    "greek-sigma": "ΣΑΣ σας Σσς",
    "titlecase": "ǅemal ǈ ᾈ",
}


def _cases():
    mine = [corpora.Corpus(k, lambda v=v: v) for k, v in EDGE_CASES.items()]
    return corpora.python_source() + corpora.small_cases() + corpora.surrogate_cases() + mine


# --------------------------------------------------------------------------- helpers


@functools.cache
def _full_re(pattern: str):
    """The full translation (astral ranges kept) compiled with ``re``: run on every
    text, not only the ones the dispatcher would give it."""
    return re.compile(to_stdlib_re(pattern))


def _first_difference(a: list[str], b: list[str]) -> str:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"piece {k}: {x!r} != {y!r} (after {a[max(0, k - 3) : k]!r})"
    return f"lengths {len(a)} != {len(b)}; tails {a[len(b) :][:3]!r} / {b[len(a) :][:3]!r}"


def assert_same_split(pattern_id: str, text: str) -> None:
    pattern = ALL_PATTERNS[pattern_id]
    want = compile_pattern(pattern, backend="regex").findall(text)
    got = compile_pattern(pattern, backend="re").findall(text)
    assert got == want, f"re back-end differs from regex: {_first_difference(got, want)}"
    full = _full_re(pattern).findall(text)
    assert full == want, f"full re translation differs from regex: {_first_difference(full, want)}"
    if pattern_id in COVERING:
        assert "".join(want) == text


@functools.lru_cache(maxsize=1)
def _all_chars() -> str:
    """Every code point U+0000..U+10FFFF, lone surrogates included."""
    return "".join(map(chr, range(0x110000)))


def _runs(compiled, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in compiled.finditer(text)]


def _one_or_more(pattern: str) -> str:
    """``(?:X)+`` for a one-character pattern X, its leading inline flags kept in
    front (``regex`` reads ``(?:(?a)\\h)+`` differently from ``(?a)(?:\\h)+``)."""
    flags, body = re.fullmatch(r"((?:\(\?[a-z]+\))*)(.*)", pattern, re.S).groups()
    return f"{flags}(?:{body})+"


# --------------------------------------------------------------------------- the patterns


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base"])
def test_patterns_equal_tiktoken(name):
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_pattern

    assert PATTERNS[name] == tiktoken_pattern(name)


def test_pattern_names():
    assert sorted(PATTERNS) == sorted(["gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base"])
    assert PATTERNS["gpt2"] is GPT2_PATTERN and PATTERNS["r50k_base"] is GPT2_PATTERN
    assert PATTERNS["p50k_base"] is GPT2_PATTERN


@pytest.mark.parametrize(
    "arg, expected",
    [
        (None, None),
        ("none", None),
        ("gpt2", GPT2_PATTERN),
        ("r50k_base", GPT2_PATTERN),
        ("p50k_base", GPT2_PATTERN),
        ("cl100k_base", CL100K_PATTERN),
        ("gpt4", CL100K_PATTERN),
        ("o200k_base", O200K_PATTERN),
        ("gpt4o", O200K_PATTERN),
        (r"\p{L}+|\s+|.", r"\p{L}+|\s+|."),
        ("[a-z]+", "[a-z]+"),
    ],
    ids=lambda v: "None" if v is None else (v if len(v) < 20 else v[:12]),
)
def test_resolve_pattern(arg, expected):
    assert resolve_pattern(arg) == expected


def test_aliases_point_at_known_names():
    assert ALIASES == {"gpt4": "cl100k_base", "gpt4o": "o200k_base"}


@pytest.mark.parametrize("bad", [b"\\s+", 3, ["gpt2"]], ids=["bytes", "int", "list"])
def test_resolve_pattern_type_error(bad):
    with pytest.raises(TypeError, match="pattern must be a str"):
        resolve_pattern(bad)


@pytest.mark.parametrize(
    "bad, reason",
    [("a(b", "missing"), ("[z-a]", "range"), ("*x", "nothing to repeat"), (r"\p{NoSuchProperty}", "property")],
    ids=["unclosed-group", "reversed-range", "nothing-to-repeat", "unknown-property"],
)
def test_resolve_pattern_invalid_regex(bad, reason):
    with pytest.raises(ValueError) as info:
        resolve_pattern(bad)
    msg = str(info.value)
    assert reason in msg and "position" in msg and "cl100k_base" in msg
    assert info.value.__cause__ is not None


# --------------------------------------------------------------------------- re back-end, known values

#: (pattern, text, pieces): worked out by hand from the pattern's alternatives.
KNOWN = [
    ("cl100k_base", "Hello world  123456", ["Hello", " world", " ", " ", "123", "456"]),
    ("cl100k_base", "  \n\n  x", ["  \n\n", " ", " x"]),
    ("cl100k_base", "x  ", ["x", "  "]),
    ("cl100k_base", "I'LL go", ["I", "'LL", " go"]),
    ("cl100k_base", "'S'ſ", ["'S", "'ſ"]),
    ("cl100k_base", "a\x1cb", ["a", "\x1cb"]),
    ("cl100k_base", "١٢٣٤", ["١٢٣", "٤"]),
    ("cl100k_base", "!!\n\nx", ["!!\n\n", "x"]),
    ("gpt2", "I'm here", ["I", "'m", " here"]),
    ("gpt2", "I'LL", ["I", "'", "LL"]),
    ("gpt2", "  \n\n  x", ["  \n\n ", " x"]),
    ("gpt2", "a \x1c", ["a", " \x1c"]),
    ("gpt2", "a\xa0b", ["a", "\xa0", "b"]),
    ("gpt2", "a\u3000b", ["a", "\u3000", "b"]),
    ("gpt2", "x\ufeffy", ["x", "\ufeff", "y"]),
    ("o200k_base", "HelloWorld", ["Hello", "World"]),
    ("o200k_base", "I'LL", ["I'LL"]),
    ("o200k_base", "HTTPServer's", ["HTTPServer's"]),
    ("o200k_base", "1234567", ["123", "456", "7"]),
    ("o200k_base", "a/b//\n", ["a", "/b", "//\n"]),
]


@pytest.mark.parametrize(
    "name, text, pieces", KNOWN, ids=[f"{n}-{t.encode('unicode_escape').decode()[:16]}" for n, t, _ in KNOWN]
)
def test_known_splits_re_backend(name, text, pieces):
    assert compile_pattern(PATTERNS[name], backend="re").findall(text) == pieces


@pytest.mark.parametrize("name, text, pieces", KNOWN, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(KNOWN)])
def test_known_splits_regex_backend(name, text, pieces):
    pytest.importorskip("regex")
    assert compile_pattern(PATTERNS[name], backend="regex").findall(text) == pieces


#: Unicode 17 PropList.txt White_Space, which is what regex's \s matches.
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
NOT_WHITE_SPACE = "\x1c\x1d\x1e\x1f\u200b\u180e\ufeff\u00ad\x00a"


def test_re_backend_whitespace_is_unicode_white_space():
    split = compile_pattern(r"\s", backend="re")
    assert split.findall(WHITE_SPACE) == list(WHITE_SPACE)
    assert split.findall(NOT_WHITE_SPACE) == []
    # ... unlike the standard library's own \s:
    assert re.findall(r"\s", "\x1c\x1d\x1e\x1f") == list("\x1c\x1d\x1e\x1f")


@pytest.mark.parametrize(
    "pattern, text, pieces",
    [
        (r"(?i:'s)", "'s 'S 'ſ", ["'s", "'S", "'ſ"]),
        (r"(?i)k+", "kK\u212a", ["kK\u212a"]),
        (r"(?i)i", "iIİı", ["i", "I", "İ"]),  # regex: (?i)i matches U+0130, not U+0131
        (r"(?i)I", "iIİı", ["i", "I", "ı"]),
        (r"(?ai)k", "kK\u212a", ["k", "K"]),
        (r"a(?i)b|c", "aB C", ["aB", "C"]),  # a mid-pattern flag applies to the rest of the group
        (r"(?:x(?i)y)z|q", "xYz xYZ Q q", ["xYz", "q"]),  # ... and ends with it
        (r"\\p{L}", r"\p{L}", [r"\p{L}"]),  # an escaped backslash, then literal text
        (r"[\\\]]+", "a\\]]b", ["\\]]"]),
        (r"[^\s\p{L}\p{N}]+", "ab, 12!?", [",", "!?"]),
        (r"[^\S\n]+", "a \t\nb", [" \t"]),
        (r"[\P{L}&&]+", "ab1&c", ["1&"]),
        (r"\pL+\PL", "ab1c", ["ab1"]),
        (r"\p{^L}+", "ab12", ["12"]),
        (r"[[:digit:][:upper:]]+", "aB1c٣", ["B1"]),
        (r"\bfo\w*", "fo éfo fooo", ["fo", "fooo"]),
        (r"\x41\u0042\U00000043\N{LATIN SMALL LETTER D}\101", "ABCdA", ["ABCdA"]),
        (r"(?x) a \# b  # comment \p{Nope}", "a#b", ["a#b"]),
        (r"(?<w>a)(?P=w)\1", "aaa", ["aaa"]),
        (r"(?s:.)\Z|(?m:^x)", "a\nx\ny", ["x", "y"]),
        (r"\s++$", "a  \n", ["  \n"]),
        (r"(?i:[sdmt]|ll)", "SſDK", ["S", "ſ", "D"]),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 25 else None,
)
@pytest.mark.parametrize("backend", ["re", "regex"])
def test_translation_known_values(pattern, text, pieces, backend):
    if backend == "regex":
        pytest.importorskip("regex")
    assert compile_pattern(pattern, backend=backend).findall(text) == pieces


def test_translation_is_plain_re():
    out = to_stdlib_re(O200K_PATTERN)
    assert "\\p" not in out and "(?i" not in out
    re.compile(out)


@pytest.mark.parametrize(
    "pattern, needle",
    [
        (r"\X", "grapheme"),
        (r"a\Gb", "\\G"),
        (r"a\Kb", "\\K"),
        (r"\mword\M", "start of word"),
        (r"\R", "line break"),
        (r"(?|(a)|(b))", "branch reset"),
        (r"(a(?R)?b)", "recursive"),
        (r"(a)(?1)", "recursive"),
        (r"(?V1)[[a-z]--[aeiou]]", "V1"),
        (r"(?f)ss", "FULLCASE"),
        (r"(?w)\b", "WORD"),
        (r"(?r)abc", "REVERSE"),
        (r"(?:ab){e<=1}", "fuzzy"),
        (r"(?i)\p{Lu}", "case-insensitive"),
        (r"(?i)(a)\1", "back-references"),
        (r"(?(?=a)a|b)", "conditional"),
    ],
    ids=lambda v: v if len(v) < 25 else None,
)
def test_regex_only_syntax_is_refused(pattern, needle):
    with pytest.raises(ValueError, match="`re` back-end") as info:
        to_stdlib_re(pattern)
    assert needle in str(info.value)


def test_unknown_property_lists_supported():
    with pytest.raises(ValueError) as info:
        to_stdlib_re(r"[\p{Klingon}a]")
    msg = str(info.value)
    assert "'Klingon'" in msg and "position 1" in msg
    for name in ("Lu", "Latin", "Han", "Nd", "White_Space"):
        assert name in msg


@pytest.mark.parametrize(
    "pattern, needle",
    [
        ("a[bc", "missing ']'"),
        ("(ab", "missing ')'"),
        ("ab)", "unbalanced"),
        ("ab\\", "lone backslash"),
        (r"\x4", "hex digits"),
        (r"\N{NO SUCH NAME}", "character name"),
        (r"[[:nope:]]", "POSIX"),
        (r"\q", "bad escape"),
    ],
    ids=["class", "group", "paren", "backslash", "hex", "name", "posix", "escape"],
)
def test_translation_syntax_errors(pattern, needle):
    with pytest.raises(ValueError, match="invalid regex") as info:
        to_stdlib_re(pattern)
    assert needle in str(info.value)


def test_compile_pattern_errors():
    with pytest.raises(TypeError):
        compile_pattern(b"a")
    with pytest.raises(ValueError, match="backend"):
        compile_pattern("a", backend="pcre")
    with pytest.raises(ValueError, match="nothing to repeat at position 4") as info:
        compile_pattern(r"\w+|*", backend="re")
    assert isinstance(info.value.__cause__, re.error)


def test_compile_pattern_cached_and_whole_matches():
    assert compile_pattern(CL100K_PATTERN, backend="re") is compile_pattern(CL100K_PATTERN, backend="re")
    split = compile_pattern(r"(a)|b", backend="re")
    assert split.findall("ab") == ["a", "b"]
    assert [m.span() for m in split.finditer("ab")] == [(0, 1), (1, 2)]


def test_backend_constant():
    try:
        import regex
    except ImportError:
        assert pretokenize.BACKEND == "re"
    else:
        lo, hi = pretokenize.REGEX_VERIFIED
        verified = lo <= tuple(int(x) for x in re.findall(r"\d+", regex.__version__)[:3]) <= hi
        assert pretokenize.BACKEND == ("regex" if verified else "re")


@pytest.mark.parametrize(
    ("version", "verified"),
    [
        ("2025.11.3", True),
        ("2026.5.9", True),
        ("2026.9.10", True),
        ("2026.9.29", False),
        ("2026.11.19", False),
        ("2024.11.6", False),
    ],
)
def test_unchecked_regex_release_falls_back_to_re(monkeypatch, version, verified):
    """regex 2026.9.29+ call U+0558 a letter, tiktoken and our tables do not: such a release must not run the patterns."""

    class FakeRegex:
        __version__ = version

    monkeypatch.setattr(pretokenize, "_regex", FakeRegex)
    if verified:
        assert pretokenize._regex_is_verified()
    else:
        with pytest.warns(RuntimeWarning, match="stdlib re back-end"):
            assert not pretokenize._regex_is_verified()


def test_pyproject_pins_the_checked_regex_releases():
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    lo, hi = pretokenize.REGEX_VERIFIED
    assert f"regex>={'.'.join(map(str, lo))},<2026.9.29" in text
    assert hi < (2026, 9, 29)


def test_unicode_tables_file():
    path = tables.__file__
    with open(path, encoding="utf-8") as f:
        head = f.read(400)
    assert "GENERATED" in head and tables.REGEX_VERSION in head and tables.UNICODE_VERSION in head
    assert os.path.getsize(path) < 300_000


# --------------------------------------------------------------------------- regex vs re: parity


@pytest.mark.parametrize("pattern_id", ["gpt2", "cl100k_base", "o200k_base", "letters-numbers", "ci-words"])
@pytest.mark.parametrize("corpus", corpora.params(corpora.udhr()))
def test_same_split_udhr(corpus, pattern_id):
    pytest.importorskip("regex")
    assert_same_split(pattern_id, corpus.text())


@pytest.mark.parametrize("pattern_id", list(ALL_PATTERNS))
@pytest.mark.parametrize("corpus", corpora.params(_cases()))
def test_same_split_cases(corpus, pattern_id):
    pytest.importorskip("regex")
    assert_same_split(pattern_id, corpus.text())


#: Characters that make splits interesting, mixed into the Hypothesis alphabet.
EDGE_ALPHABET = (
    " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200b\u2028\u2029\u202f\u3000\ufeff"
    "'sStTlLdDmMvVrReEkKiI\u017f\u212a\u0130\u0131\u00df\u1e9e\u01c5aZ09\u0661\u0967\uff11"
    "!?.,/-_\u0301\u200d\U0001f600\ud800\udfff\u00e9\u4e2d\u0915\U00010400\U0001d7d8"
)

if given is not None:

    @pytest.mark.parametrize("pattern_id", list(ALL_PATTERNS))
    @settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=st.text(st.one_of(st.characters(exclude_categories=()), st.sampled_from(EDGE_ALPHABET)), max_size=40))
    def test_same_split_hypothesis(pattern_id, text):
        pytest.importorskip("regex")
        assert_same_split(pattern_id, text)


# --------------------------------------------------------------------------- tables vs regex, every code point


def _class_spellings() -> dict[str, str]:
    """class name -> a regex pattern that matches one character of it."""
    out: dict[str, str] = {}
    for spelling, name in sorted(tables.PROPERTY_NAMES.items()):
        out.setdefault(name, r"\p{%s}" % spelling)
    for key, name in tables.ESCAPES.items():
        out.setdefault(name, ("(?a)" if key.startswith("ascii_") else "") + "\\" + key[-1])
    for key, name in tables.POSIX.items():
        out.setdefault(name, "[[:%s:]]" % key)
    return out


@pytest.mark.parametrize("name", sorted(tables.RANGES))
def test_table_matches_regex(name):
    """Each generated class is what regex matches today (catches a stale table)."""
    regex = pytest.importorskip("regex")
    want = _runs(regex.compile(_one_or_more(_class_spellings()[name])), _all_chars())
    assert [(lo, hi + 1) for lo, hi in retranslate._class_ranges(name)] == want


def test_every_spelling_is_regex_spelling():
    """Every loose property spelling we accept, regex accepts with the same meaning
    (checked at the edges of each range of the class, and a sample)."""
    regex = pytest.importorskip("regex")
    sample = "".join(map(chr, range(0, 0x110000, 997)))
    for spelling, name in tables.PROPERTY_NAMES.items():
        ranges = retranslate._class_ranges(name)
        probe = sample + "".join(chr(c) for lo, hi in ranges for c in (lo - 1, lo, hi, hi + 1) if 0 <= c <= 0x10FFFF)
        got = re.compile(to_stdlib_re(r"\p{%s}" % spelling)).findall(probe)
        assert got == regex.findall(r"\p{%s}" % spelling, probe), spelling


#: Classes as the split patterns use them, incl. negations and IGNORECASE.
CLASS_PATTERNS = [
    r"\s",
    r"\S",
    r"\d",
    r"\D",
    r"\w",
    r"\W",
    r"\h",
    r"(?a)\s",
    r"(?a)\w",
    r"(?a)\d",
    r"\p{L}",
    r"\P{L}",
    r"\p{N}",
    r"\p{Lu}",
    r"\p{Ll}",
    r"\p{Lt}",
    r"\p{Lm}",
    r"\p{Lo}",
    r"\p{M}",
    r"[^\s\p{L}\p{N}]",
    r"[^\r\n\p{L}\p{N}]",
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]",
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]",
    r"[^\S\n]",
    r"[\P{L}\d]",
    r"[^\P{L}x]",
    r"[[:punct:]]",
    r"[[:^alpha:]]",
    r"[\w-]",
    r"(?i)[a-z]",
    r"(?i)[^k]",
    r"(?i)\p{L}",
    r"(?i)[^\p{L}\p{N}]",
    r"(?ai)[a-z]",
    r"(?i)[\u0100-\u017f]",
    r"(?i)[ǅ-ǌ]",
    r"(?i)\w",
    r"(?i)[^\s]",
    r"(?i)[\P{L}x]",
    r"(?i)[^\P{Lu}x]",
    r"(?i)[\p{Lt}x]",
    r"(?i)[\p{M}]",
    r"(?i)\P{M}",
    r"(?i)[\p{M}\p{M}]",
    r"(?i)[^\S\p{Lu}]",
    r"(?a)\p{L}",
    r"(?a)\P{L}",
    r"(?a)[^\p{L}x]",
    r"(?a)[[:alpha:]]",
    r"(?ai)[\p{Lu}x]",
    r"(?ai)[\p{Greek}x]",
]


@pytest.mark.parametrize("pattern", CLASS_PATTERNS)
def test_class_every_code_point(pattern):
    """The re translations match exactly the code points regex matches: the
    BMP-only one on all of U+0000..U+FFFF, the full one at both sides of every
    edge of regex's set and on a sample (running it on all 0x110000 code points
    would take seconds per class: re scans astral ranges one by one)."""
    regex = pytest.importorskip("regex")
    everything = _all_chars()
    runs = _runs(regex.compile(_one_or_more(pattern)), everything)
    bmp = everything[:0x10000]
    want_bmp = [c for lo, hi in runs for c in range(lo, min(hi, 0x10000))]
    got_bmp = [m.start() for m in re.finditer(to_stdlib_re(pattern, bmp_only=True), bmp)]
    assert got_bmp == want_bmp
    probe_points = sorted(
        {c for lo, hi in runs for c in (lo - 1, lo, hi - 1, hi) if 0 <= c <= 0x10FFFF} | set(range(0, 0x110000, 101))
    )
    members = {c for lo, hi in runs for c in range(lo, hi)}
    probe = "".join(map(chr, probe_points))
    full = re.compile(to_stdlib_re(pattern))
    got = [probe_points[m.start()] for m in full.finditer(probe)]
    assert got == [c for c in probe_points if c in members]


def test_case_insensitive_literals():
    """(?i)c for every character with case variants (and the characters around
    them): re translation == regex, probed on all those characters."""
    regex = pytest.importorskip("regex")
    chars = sorted({int(x, 16) for g in tables.CASE_VARIANTS.split(";") for x in g.replace(">", " ").split()})
    probe = "".join(chr(c) for c in chars) + "".join(map(chr, range(0x80)))
    for c in chars + [ord("'"), ord("-")]:
        pat = "(?i:" + regex.escape(chr(c)) + ")"
        got = re.findall(to_stdlib_re(pat), probe)
        assert got == regex.findall(pat, probe), f"U+{c:04X}"
