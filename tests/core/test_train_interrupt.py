"""Stop through Pyodide's interrupt buffer raises KeyboardInterrupt wherever Python is, also
in the middle of a merge (issue 11: Stop within 100 ms). The trainer and the worker adapter
must stay consistent: the merges kept are exactly complete merges, in learned order, and
after Stop the tokenizer holds exactly the merges the page had shown.

The interrupt is simulated on CPython with a trace function that raises KeyboardInterrupt
at the n-th line executed inside ``bytepair.trainer._train`` (as Pyodide raises it at
the next bytecode check after the buffer is set). Merges are checked against the slow
minbpe oracle of ``tests/reference/slow_bpe.py``.
"""

from __future__ import annotations

import inspect
import json
import random
import sys

import pytest

from bytepair import trainer
from bytepair.split.pretokenize import compile_pattern
from tests.reference.slow_bpe import slow_train

TEXT = (
    "the quick brown fox jumps over the lazy dog; low lower lowest newer newest wider widest "
    "Überschrift überall naïve café 東京 東京都 ✓✓ 2024-12-01 aaaa aaaab "
) * 6
N_MERGES = 60


def _merge_loop_lines() -> range:
    """Source lines of ``_train``'s "merge every occurrence" block (a merge half applied)."""
    lines, start = inspect.getsourcelines(trainer._train)
    first = next(i for i, line in enumerate(lines) if "# ---- merge every occurrence" in line)
    last = next(i for i, line in enumerate(lines) if "n_tokens -= merged" in line)
    return range(start + first, start + last)


class _InterruptAt:
    """A trace function raising KeyboardInterrupt at the ``n``-th line run inside ``_train``."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.line: int | None = None  # where it landed

    def __call__(self, frame, event, arg):
        if frame.f_code is not trainer._train.__code__:
            return None
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            self.n -= 1
            if self.n == 0:
                self.line = frame.f_lineno
                raise KeyboardInterrupt
        return self._local


class _CountLines:
    """A trace function counting the lines run inside ``_train``; ``first_in`` is the count at the
    first line of ``lines`` (where the merge loop starts)."""

    def __init__(self, lines: range) -> None:
        self.lines = lines
        self.n = 0
        self.first_in: int | None = None

    def __call__(self, frame, event, arg):
        return self._local if frame.f_code is trainer._train.__code__ else None

    def _local(self, frame, event, arg):
        if event == "line":
            self.n += 1
            if self.first_in is None and frame.f_lineno in self.lines:
                self.first_in = self.n
        return self._local


def _merge_loop_span() -> range:
    """The line counts (as _InterruptAt counts them) from the merge loop's first line to the end of
    an uninterrupted run: how many lines the set-up runs depends on the Python version (3.12+
    inlines comprehensions into ``_train``'s frame, so Pyodide counts their iterations too)."""
    counter = _CountLines(_merge_loop_lines())
    sys.settrace(counter)
    try:
        for _ in trainer.train_iter(TEXT, 256 + N_MERGES, pattern="gpt2"):
            pass
    finally:
        sys.settrace(None)
    assert counter.first_in is not None, "the merge loop never ran"
    return range(counter.first_in, counter.n + 1)


@pytest.fixture(scope="module")
def pg(adapter):
    """The worker adapter package (tests/conftest.py)."""
    return adapter


@pytest.fixture(scope="module")
def oracle():
    split = compile_pattern(trainer.resolve_pattern("gpt2")).findall
    return [(pair, new_id) for pair, new_id, _count in slow_train(TEXT, N_MERGES, split=split)]


def test_an_interrupt_inside_train_iter_leaves_only_complete_merges(oracle):
    merge_lines = _merge_loop_lines()
    landed_mid_merge = 0
    rng = random.Random(11)
    span = _merge_loop_span()
    # a few in the set-up, most from the merge loop's start to the end of the run
    for n in sorted(rng.sample(range(1, span.start), 5) + rng.sample(span, 35)):
        got = []
        tracer = _InterruptAt(n)
        it = trainer.train_iter(TEXT, 256 + N_MERGES, pattern="gpt2")
        sys.settrace(tracer)
        try:
            for ev in it:
                got.append((ev.pair, ev.id))
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        if tracer.line is None:
            assert got == oracle  # ran to the end before the n-th line
            continue
        landed_mid_merge += tracer.line in merge_lines
        assert got == oracle[: len(got)], f"interrupt at line {tracer.line} (n={n})"
        assert next(it, None) is None  # the generator ended where it was interrupted: no half merge later
    assert landed_mid_merge >= 10  # the check above really covered merges cut in half


def test_stop_mid_merge_keeps_exactly_the_merges_shown(pg, oracle):
    """The worker's flow: batches of merges go to the page; Stop interrupts a later step;
    finish(name, shown) builds the tokenizer from exactly the merges the page had."""
    merge_lines = _merge_loop_lines()
    landed_mid_merge = 0
    for n in range(20, 3000, 150):
        session = pg.TrainSession(TEXT, 256 + N_MERGES, "gpt2")
        shown = []
        for _ in range(3):  # three batches reach the page
            batch = json.loads(session.step(0))  # budget 0: one merge per batch
            shown += list(zip(zip(batch["events"]["left"], batch["events"]["right"]), batch["events"]["id"]))
        tracer = _InterruptAt(n)
        sys.settrace(tracer)
        try:
            while not (batch := json.loads(session.step(0)))["done"]:
                pass  # these batches are lost on their way to the page: Stop was pressed
        finally:
            sys.settrace(None)
        if tracer.line is None:  # the run ended first: nothing was interrupted
            assert not batch["interrupted"]
            session.close()
            continue
        assert batch["interrupted"] is True  # step caught it and said so (the worker then stops)
        landed_mid_merge += tracer.line in merge_lines
        result = json.loads(session.finish(f"stopped-{n}", len(shown)))
        assert result["n_merges"] == len(shown) == 3
        tok = pg.get_tokenizer(f"stopped-{n}")
        assert sorted(tok.merges.items(), key=lambda kv: kv[1]) == shown == oracle[:3]
        # all complete merges so far are a prefix of the oracle's (Stop without a limit keeps those)
        kept = sorted(session.merges.items(), key=lambda kv: kv[1])
        assert kept == oracle[: len(kept)] and len(kept) >= 3
        assert session.interrupted is not None  # kept until close(): the trainer's state is freed then
        session.close()
        assert session.interrupted is None
    assert landed_mid_merge >= 3, landed_mid_merge
