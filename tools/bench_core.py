"""The part of the benchmark that runs anywhere: CPython and Pyodide alike.

Only bytepair itself is timed here (no tiktoken / tokenizers, which cannot run
in Pyodide), so ``tools/bench.py`` can print the same figures from CPython and
from Pyodide under Node.js (``tools/bench_pyodide.mjs``) side by side.

Texts: the King James Bible and a UDHR mix from ``tools/corpora.py`` (inside
Pyodide the Bible comes from ``.cache/kjv.txt``, which ``tools/bench.py``
writes first), both cut to ``n_bytes``.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def texts(n_bytes: int) -> dict[str, str]:
    """The benchmark texts cut to ``n_bytes``: KJV and a UDHR round-robin mix (``tools/corpora.py``)."""
    from tools.corpora import load_kjv, udhr_round_robin

    return {"KJV": load_kjv()[:n_bytes], "UDHR mix": udhr_round_robin(n_bytes)}


def cpu_clock():
    """The process's CPU seconds (every thread): ``time.process_time`` on CPython;
    in Pyodide under Node.js, Node's ``process.cpuUsage()`` (Pyodide's
    ``process_time`` counts wall time). Figures on a loaded machine compare
    better in CPU time than in wall time."""
    if sys.platform == "emscripten":
        try:
            import js

            usage = js.process.cpuUsage

            def clock() -> float:
                u = usage()
                return (u.user + u.system) / 1e6

            return clock
        except (ImportError, AttributeError):
            return time.perf_counter
    return time.process_time


def train_stages(text: str, vocab_size: int, repeat: int) -> dict[str, float]:
    """CPU seconds of each training stage, fastest of ``repeat`` runs:
    ``split`` (pattern split + piece counting), ``index`` (layout, pair index
    and heap, up to the first merge) and ``loop`` (every merge after it)."""
    from bytepair.split.pretokenize import resolve_pattern
    from bytepair.trainer import _pieces, _train

    clock = cpu_clock()
    pattern = resolve_pattern("cl100k_base")
    best = {"split": float("inf"), "index": float("inf"), "loop": float("inf")}
    for _ in range(repeat):
        t0 = clock()
        counts = _pieces(text, pattern, ())
        t1 = clock()
        events = _train(counts, vocab_size - 256, 1)
        next(events, None)
        t2 = clock()
        for _ in events:
            pass
        t3 = clock()
        for key, t in (("split", t1 - t0), ("index", t2 - t1), ("loop", t3 - t2)):
            best[key] = min(best[key], t)
    return best


def interpreter_baseline(repeat: int) -> float:
    """CPU seconds (fastest of ``repeat``) of a fixed pure-Python loop with no bytepair in it:
    list indexing, dict get/set and int arithmetic, the operations a merge loop is made of.
    Its Pyodide ÷ CPython ratio is how much slower the interpreter itself runs there: the
    yardstick for the bytepair ratios next to it (issue 12: Pyodide training within 1.5x)."""
    clock = cpu_clock()

    def work() -> int:
        table = list(range(100_000))
        counts: dict[int, int] = {}
        total = 0
        for i in range(1_000_000):
            j = table[(i * 7919) % 100_000]
            k = j & 4095
            counts[k] = counts.get(k, 0) + 1
            total += j ^ i
        return total + len(counts)

    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        work()
        best = min(best, clock() - t0)
    return best


def best_of(repeat: int, fn) -> tuple[float, object]:
    """``(fastest wall time in seconds over repeat calls, the last call's result)``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run(n_bytes: int, vocab_size: int, repeat: int) -> list[dict]:
    """Encode (cold / warm piece cache) and train figures for each text."""
    import bytepair
    from bytepair.registry import encoding_info, load_ranks
    from bytepair.trainer import _pieces

    info = encoding_info("cl100k_base")
    ranks = load_ranks("cl100k_base")
    out = []
    for corpus, text in texts(n_bytes).items():
        mb = len(text.encode("utf-8")) / 1e6

        def fresh():
            return bytepair.Tokenizer.from_ranks(ranks, pattern=info["pattern"], special_tokens=info["special_tokens"])

        cold = float("inf")
        for _ in range(repeat):
            enc = fresh()
            t0 = time.perf_counter()
            enc.encode_ordinary(text)
            cold = min(cold, time.perf_counter() - t0)
        warm, _ = best_of(repeat, lambda enc=enc, text=text: enc.encode_ordinary(text))
        # stages: the split alone (both encode figures include it), and the
        # piece counting that training starts with (included in train_*_s)
        split, pieces = best_of(repeat, lambda enc=enc, text=text: enc._split(text))
        count, _ = best_of(repeat, lambda text=text: _pieces(text, info["pattern"], ()))
        train, _ = best_of(
            max(1, repeat - 1),
            lambda text=text: sum(1 for _ in bytepair.train_iter(text, vocab_size, pattern="cl100k_base")),
        )
        stages = train_stages(text, vocab_size, max(1, repeat - 1))
        out.append(
            {
                "corpus": corpus,
                "MB": round(mb, 2),
                "distinct_pieces": len(set(pieces)),
                "encode_cold_MBps": round(mb / cold, 2),
                "encode_warm_MBps": round(mb / warm, 2),
                "encode_split_s": round(split, 3),
                f"train_v{vocab_size}_s": round(train, 2),
                "train_count_s": round(count, 2),
                # CPU time per stage (the figures above are wall time)
                "train_cpu_split_s": round(stages["split"], 2),
                "train_cpu_index_s": round(stages["index"], 2),
                "train_cpu_loop_s": round(stages["loop"], 2),
            }
        )
    kjv150 = texts(150_000)["KJV"]
    t_none, _ = best_of(repeat, lambda: sum(1 for _ in bytepair.train_iter(kjv150, 456, pattern="none")))
    out.append({"corpus": "KJV 150 KB", "train_none_200_merges_s": round(t_none, 3)})
    out.append({"corpus": "plain Python (no bytepair)", "interpreter_cpu_s": round(interpreter_baseline(repeat), 3)})
    return out


if __name__ == "__main__":
    n, v, r = (int(a) for a in sys.argv[1:4])
    print(json.dumps(run(n, v, r)))
