"""A tokenizer's report card on a parallel corpus: premiums, fertility, Rényi efficiency.

For any tokenizer bytepair loads or trains (``bytepair.get_encoding``, open
models, ``tokenizer.json`` / Tekken files, a trained :class:`bytepair.Tokenizer`)
and a parallel corpus ``{language: text}`` (:mod:`bytepair.report.corpora`),
:func:`corpus_report` measures each language. Every figure is defined in
:data:`METRICS`, with its unit and published source, and travels with the
results (``CorpusReport.to_dict()["metrics"]``).

Texts are encoded whole with ``encode_ordinary`` (no special tokens, no BOS),
as Petrov et al. encoded each language's FLORES text as one string.

Words (for fertility and continued words) are maximal runs of non-whitespace
characters (``str.split()``). That is only meaningful where the writing system
puts spaces between words; :func:`dominant_script` names the script of a text
(the script with most letters, from bytepair's Unicode tables) and
:data:`NOT_SPACE_DELIMITED` lists the scripts written without spaces between
words, for which the two word metrics are ``None`` (``space_delimited=False``).

The sub-package's other modules build on this one: :mod:`bytepair.report.vocab` (a vocabulary's
anatomy), :mod:`bytepair.report.corpora` (corpora from disk), :mod:`bytepair.report.card` (the
Report view's job), :mod:`bytepair.report.published` (Petrov et al.'s figures); this module
imports none of them.
"""

from __future__ import annotations

import bisect
import collections
import dataclasses
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import ArgumentError
from ..split import _unicode_tables as _tables

__all__ = [
    "METRICS",
    "NOT_SPACE_DELIMITED",
    "CorpusReport",
    "LanguageReport",
    "Metric",
    "char_script",
    "corpus_report",
    "dominant_script",
    "measure_language",
    "rebase",
    "renyi_efficiency",
    "word_stats",
]


@dataclasses.dataclass(frozen=True)
class Metric:
    """A figure's ``name``, ``definition``, ``unit`` and ``source`` (the publication it comes from)."""

    name: str
    definition: str
    unit: str
    source: str

    def to_dict(self) -> dict[str, str]:
        """``{name, definition, unit, source}``."""
        return dataclasses.asdict(self)


_PETROV = (
    "Petrov, La Malfa, Torr, Bibi (2023), Language Model Tokenizers Introduce Unfairness Between "
    "Languages, NeurIPS 2023, https://arxiv.org/abs/2305.15425"
)
_RUST = (
    "Rust, Pfeiffer, Vulić, Ruder, Gurevych (2021), How Good is Your Tokenizer? On the Monolingual "
    "Performance of Multilingual Language Models, ACL 2021, https://aclanthology.org/2021.acl-long.243"
)

#: The corpus figures: name -> :class:`Metric`.
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "tokens", "number of tokens the language's text encodes to (encode_ordinary, whole text)", "tokens", _PETROV
        ),
        Metric("bytes", "UTF-8 length of the language's text", "bytes", "UTF-8, RFC 3629"),
        Metric("chars", "length of the language's text", "characters (code points)", "Python str length"),
        Metric(
            "premium",
            "tokens(language) / tokens(baseline) on parallel text",
            "ratio",
            _PETROV,
        ),
        Metric(
            "byte_premium",
            "UTF-8 bytes(language) / UTF-8 bytes(baseline) on parallel text",
            "ratio",
            "Arnett, Chang, Bergen (2024), A Bit of a Problem: Measurement Disparities in Dataset Sizes "
            "Across Languages, https://arxiv.org/abs/2403.00686",
        ),
        Metric(
            "bytes_per_token",
            "UTF-8 bytes of the text / tokens",
            "bytes per token",
            "compression rate, as in Zouhar et al. (2023) and Petrov et al. (2023)",
        ),
        Metric(
            "words",
            "maximal runs of non-whitespace characters (None where the script is not space-delimited)",
            "words",
            _RUST,
        ),
        Metric(
            "fertility",
            "tokens per word: for each word, the tokens whose character span overlaps it, summed over "
            "words, divided by words",
            "tokens per word",
            _RUST,
        ),
        Metric(
            "continued_words",
            "proportion of words covered by two or more tokens",
            "fraction of words",
            _RUST,
        ),
        Metric(
            "renyi_efficiency",
            "H_alpha(p) / log2 |V|: Rényi entropy (alpha = 2.5) of the unigram distribution p of the token "
            "sequence, H_alpha = log2(sum p^alpha) / (1 - alpha), over log2 of the number of distinct "
            "tokens in the sequence (as PyPI tokenization-scorer's default)",
            "ratio in [0, 1]",
            "Zouhar, Meister, Gastaldi, Du, Sachan, Cotterell (2023), Tokenization and the Noiseless "
            "Channel, ACL 2023, https://aclanthology.org/2023.acl-long.284; PyPI tokenization-scorer",
        ),
    )
}

#: Scripts written without spaces between words (fertility and continued words are ``None`` for them):
#: Chinese, Japanese, Thai, Lao, Khmer, Burmese, Tibetan (syllables, tsheg-separated), and the
#: Javanese/Balinese scripts (scriptio continua). Source: the Unicode Standard 16.0, ch. 16-18
#: (line breaking "without spaces between words" for these scripts).
NOT_SPACE_DELIMITED = frozenset(
    {"Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan", "Javanese", "Balinese"}
)

#: The script names in bytepair's Unicode tables (generated from ``regex``), in table order.
_SCRIPTS = (
    "Latin Greek Cyrillic Armenian Hebrew Arabic Syriac Thaana Nko Devanagari Bengali Gurmukhi Gujarati "
    "Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar Georgian Hangul Ethiopic "
    "Cherokee Canadian_Aboriginal Ogham Runic Khmer Mongolian Hiragana Katakana Bopomofo Han Yi Tifinagh "
    "Vai Javanese Balinese Sundanese Tagalog Coptic Gothic Braille Ol_Chiki Adlam"
).split()


@functools.cache
def _script_table() -> tuple[list[int], list[int], list[str]]:
    rows = []
    for name in _SCRIPTS:
        for item in _tables.RANGES[name].split():
            lo, _, hi = item.partition("-")
            rows.append((int(lo, 16), int(hi or lo, 16), name))
    rows.sort()
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def char_script(ch: str) -> str | None:
    """The Unicode script of one character among the scripts in bytepair's tables, else ``None``
    (Common, Inherited, and scripts the tables do not list)."""
    starts, ends, names = _script_table()
    cp = ord(ch)
    i = bisect.bisect_right(starts, cp) - 1
    if i >= 0 and cp <= ends[i]:
        return names[i]
    return None


def dominant_script(text: str) -> str | None:
    """The script of most characters of ``text`` (:func:`char_script`), or ``None`` if none has one.
    Japanese kana count as ``Han`` here, so mixed kanji and kana text reads as not space-delimited."""
    counts: collections.Counter[str] = collections.Counter()
    for ch in text:
        s = char_script(ch)
        if s is not None:
            counts["Han" if s in ("Hiragana", "Katakana") else s] += 1
    return counts.most_common(1)[0][0] if counts else None


def renyi_efficiency(ids: Iterable[int], *, alpha: float = 2.5, vocab_size: int | None = None) -> float | None:
    """Rényi efficiency of a token sequence (Zouhar et al. 2023; :data:`METRICS` ``renyi_efficiency``).

    Args:
        ids: the token sequence (any hashable token labels).
        alpha: the Rényi order (> 0, != 1); 2.5 is the value Zouhar et al. found to
            correlate best with BLEU.
        vocab_size: |V| in the denominator; default: the number of distinct tokens in
            ``ids`` (as ``tokenization-scorer`` without its ``vocab`` option).

    Returns:
        ``H_alpha(p) / log2 |V|``, or ``None`` for fewer than two distinct tokens (log2 |V| = 0).

    Raises:
        ArgumentError: (``field="alpha"``) ``alpha`` <= 0 or == 1.
    """
    if not alpha > 0 or alpha == 1:
        raise ArgumentError(f"alpha must be positive and not 1 (got {alpha!r})", field="alpha")
    counts = collections.Counter(ids)
    total = sum(counts.values())
    v = vocab_size if vocab_size is not None else len(counts)
    if total == 0 or v < 2:
        return None
    s = math.fsum((c / total) ** alpha for c in counts.values())
    return math.log2(s) / (1 - alpha) / math.log2(v)


def word_stats(text: str, spans: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """``(words, token_word_overlaps, continued_words)`` of ``text`` given its tokens' character spans.

    Words are maximal runs of non-whitespace characters; a token overlaps a word when
    their ``[start, end)`` character ranges intersect. ``token_word_overlaps / words``
    is the fertility, ``continued_words / words`` the proportion of continued words.
    """
    words = []
    start = None
    for i, ch in enumerate(text):
        if ch.isspace():
            if start is not None:
                words.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        words.append((start, len(text)))
    per_word = [0] * len(words)
    word_starts = [w[0] for w in words]
    for s, e in spans:
        if e <= s:
            continue
        j = max(bisect.bisect_right(word_starts, s) - 1, 0)
        while j < len(words) and words[j][0] < e:
            if words[j][1] > s:
                per_word[j] += 1
            j += 1
    return len(words), sum(per_word), sum(1 for n in per_word if n >= 2)


@dataclasses.dataclass(frozen=True)
class LanguageReport:
    """One language's figures (:data:`METRICS` defines each; ``None``: not defined here)."""

    lang: str
    tokens: int
    bytes: int
    chars: int
    script: str | None
    space_delimited: bool
    premium: float | None
    byte_premium: float | None
    bytes_per_token: float | None
    words: int | None
    fertility: float | None
    continued_words: float | None
    renyi_efficiency: float | None

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-friendly dict."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class CorpusReport:
    """A tokenizer on a parallel corpus: ``languages`` in corpus order; ``baseline`` the premiums' denominator."""

    tokenizer: str
    corpus: str
    baseline: str
    alpha: float
    languages: tuple[LanguageReport, ...]
    #: every token id the corpus encoded to (for :func:`bytepair.report.vocab.vocab_report`'s ``produced``)
    produced: frozenset[int] = dataclasses.field(default=frozenset(), repr=False, compare=False)

    def language(self, lang: str) -> LanguageReport:
        """The row of ``lang``. Raises KeyError if the corpus has no such language."""
        for row in self.languages:
            if row.lang == lang:
                return row
        raise KeyError(lang)

    def to_dict(self) -> dict[str, Any]:
        """``{tokenizer, corpus, baseline, alpha, languages: [...], metrics: {name: {definition, unit, source}}}``."""
        return {
            "tokenizer": self.tokenizer,
            "corpus": self.corpus,
            "baseline": self.baseline,
            "alpha": self.alpha,
            "languages": [r.to_dict() for r in self.languages],
            "metrics": {k: m.to_dict() for k, m in METRICS.items()},
        }


def _spans(tok: Any, text: str) -> list[tuple[int, int]]:
    if tok.special_tokens_in_text == "switch":  # tiktoken's allowed_special: all as plain text
        got = tok.encode_with_spans(text, allowed_special=(), disallowed_special=())
    else:
        got = tok.encode_with_spans(text)
    return [(s.start, s.end) for s in got]


def corpus_report(
    tok: Any,
    texts: Mapping[str, str],
    *,
    baseline: str,
    alpha: float = 2.5,
    corpus: str = "",
    word_metrics: bool = True,
) -> CorpusReport:
    """Measure ``tok`` on the parallel ``texts`` (``{language: text}``, characters).

    Args:
        tok: a :class:`bytepair.Tokenizer`, :class:`bytepair.HFTokenizer` or Tekken tokenizer
            (anything with ``encode_ordinary`` and ``encode_with_spans``).
        texts: parallel texts by language code.
        baseline: the language premiums are measured against (a key of ``texts``).
        alpha: Rényi order for ``renyi_efficiency``.
        corpus: a name for the corpus, kept in the report.
        word_metrics: compute fertility and continued words (one more encode with spans per
            space-delimited language).

    Returns:
        a :class:`CorpusReport`.

    Raises:
        ArgumentError: (``field="baseline"``) ``baseline`` is not a language of ``texts``, or its
            text encodes to no tokens / no bytes; (``field="alpha"``) a bad ``alpha``.
    """
    if baseline not in texts:
        raise ArgumentError(
            f"baseline {baseline!r} is not a language of the corpus ({', '.join(sorted(texts)[:8])}, ...)",
            field="baseline",
        )
    measured = [
        measure_language(tok, lang, text, alpha=alpha, word_metrics=word_metrics) for lang, text in texts.items()
    ]
    rows = rebase([row for row, _ in measured], baseline)
    produced = frozenset().union(*(ids for _, ids in measured))
    return CorpusReport(getattr(tok, "name", type(tok).__name__), corpus, baseline, alpha, rows, produced)


def measure_language(
    tok: Any, lang: str, text: str, *, alpha: float = 2.5, word_metrics: bool = True
) -> tuple[LanguageReport, list[int]]:
    """One language of :func:`corpus_report`: its row without premiums (``premium`` and
    ``byte_premium`` ``None``: :func:`rebase` fills them) and the token ids of ``text``.

    Lets a caller measure a corpus one language at a time (the playground's Report view
    counts long corpora in steps); arguments as :func:`corpus_report`.
    """
    ids = tok.encode_ordinary(text)
    n, nb = len(ids), len(text.encode("utf-8", "surrogatepass"))
    script = dominant_script(text)
    spaced = script not in NOT_SPACE_DELIMITED
    words = fertility = continued = None
    if spaced and word_metrics:
        w, overlaps, cont = word_stats(text, _spans(tok, text))
        if w:
            words, fertility, continued = w, overlaps / w, cont / w
    row = LanguageReport(
        lang=lang,
        tokens=n,
        bytes=nb,
        chars=len(text),
        script=script,
        space_delimited=spaced,
        premium=None,
        byte_premium=None,
        bytes_per_token=nb / n if n else None,
        words=words,
        fertility=fertility,
        continued_words=continued,
        renyi_efficiency=renyi_efficiency(ids, alpha=alpha),
    )
    return row, ids


def rebase(rows: Sequence[LanguageReport], baseline: str) -> tuple[LanguageReport, ...]:
    """``rows`` with ``premium`` and ``byte_premium`` measured against the row of ``baseline``.

    Raises:
        ArgumentError: (``field="baseline"``) no row for ``baseline``, or its text encodes to no
            tokens / has no bytes.
    """
    base = next((r for r in rows if r.lang == baseline), None)
    if base is None:
        raise ArgumentError(f"baseline {baseline!r} is not a language of the corpus", field="baseline")
    if base.tokens == 0 or base.bytes == 0:
        raise ArgumentError(f"baseline {baseline!r} has an empty text", field="baseline")
    return tuple(
        dataclasses.replace(r, premium=r.tokens / base.tokens, byte_premium=r.bytes / base.bytes) for r in rows
    )
