"""The Report view: a report card of tokenizers on a parallel corpus, in steps
(``bytepair.report.card.ReportJob``; every figure is computed there)."""

from __future__ import annotations

import json

from bytepair.report.card import ReportJob

from .convert import dumps, exposed
from .state import get_tokenizer


class ReportSession:
    """``ReportJob`` over the page's tokenizers by name: the worker steps it and lets its other
    calls run in between. ``texts_json``: ``[{key, text}]``; ``names_json``: ``[name]``.
    ``step(budget_ms)`` -> JSON ``{done, position, length}`` (units: one language of one tokenizer,
    or one vocabulary); ``result()`` -> JSON ``ReportJob.result()``."""

    @exposed
    def __init__(
        self, texts_json: str, names_json: str, baseline: str, corpus: str = "", word_metrics: bool = True
    ) -> None:
        texts = {t["key"]: t["text"] for t in json.loads(texts_json)}
        toks = {name: get_tokenizer(name) for name in json.loads(names_json)}
        self.job = ReportJob(toks, texts, baseline=baseline, corpus=corpus, word_metrics=word_metrics)

    @exposed
    def step(self, budget_ms: float = 50.0) -> str:
        job = self.job
        job.step(budget_ms)
        return dumps({"done": job.done, "position": job.position, "length": job.length})

    @exposed
    def result(self) -> str:
        return dumps(self.job.result())
