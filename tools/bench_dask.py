"""Benchmark: piece counting on Dask (1 and 2 local worker processes) vs the single-process path,
and ``bytepair train``'s peak memory vs Hugging Face ``BpeTrainer``, side by side.

    python tools/bench_dask.py [--mb 15] [--vocab-size 32768] [--repeat 1] [--no-train]

The corpus is ``tools/bench_train_large.py``'s (real text found on this machine:
KJV, UDHR, Python sources, man pages, changelogs; cached in ``.cache/bench_corpus/``).

* counting: :func:`bytepair.corpus.count_pieces` with ``workers=1`` (one
  process, the reference) against :func:`bytepair.cluster_count.count_files_dask`
  on a ``LocalCluster`` of 1 and 2 worker processes (one thread each); MB/s of
  each and the ratio to the single process (higher = Dask faster). The cluster's
  start-up is not timed (a cluster is started once and reused); the counts are
  checked equal to the reference.
* training memory: wall time and peak RSS of ``bytepair train`` and of
  ``BpeTrainer`` in separate processes (``bench_train_large.measure``).

Nothing is asserted: speed lives in benchmarks, not tests.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT)]

from bytepair import corpus  # noqa: E402
from tools import bench_train_large  # noqa: E402


def bench_dask_count(mb: float, repeat: int = 1, *, partition_bytes: int = 8 << 20) -> dict:
    """Counting throughput: one process vs Dask with 1 and 2 local workers."""
    from distributed import Client, LocalCluster

    from bytepair import cluster_count

    files = [str(p) for p in bench_train_large.assemble(mb)]
    size = sum(os.path.getsize(p) for p in files)

    def best(fn):
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = fn()
            runs.append((time.perf_counter() - t0, out))
        return min(runs, key=lambda r: r[0])

    t_one, ref = best(lambda: corpus.count_pieces(corpus.read_text(files), workers=1))
    out = {
        "what": f"count pieces cl100k, {size / 1e6:.1f} MB, Dask LocalCluster vs one process",
        "one_process_MBps": round(size / 1e6 / t_one, 2),
    }
    for n in (1, 2):
        with (
            LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
            ) as cluster,
            Client(cluster),
        ):
            t, got = best(lambda: cluster_count.count_files_dask(files, partition_bytes=partition_bytes))
        if list(got.items()) != list(ref.items()):
            raise SystemExit("bench: Dask counts differ from the single-process counts; run the tests")
        out[f"dask_{n}_workers_MBps"] = round(size / 1e6 / t, 2)
        out[f"ratio_{n}_workers"] = round(t_one / t, 2)
    out["distinct_pieces"] = len(ref)
    return out


def bench_train_memory(mb: float, vocab_size: int) -> dict:
    """Wall time and peak RSS of ``bytepair train`` and HF ``BpeTrainer`` on the same files."""
    import bytepair
    from bytepair.formats.hf_export import onig_pattern

    files = bench_train_large.assemble(mb)
    size = sum(p.stat().st_size for p in files)
    hf = bench_train_large.measure(
        [
            sys.executable,
            "-c",
            bench_train_large.HF_SCRIPT,
            json.dumps([str(p) for p in files]),
            str(vocab_size),
            onig_pattern(bytepair.resolve_pattern("cl100k_base")),
        ]
    )
    out_file = bench_train_large.CACHE / "bench_dask_train.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    cmd = [sys.executable, "-m", "bytepair", "train", *map(str, files), "-v", str(vocab_size), "-o", str(out_file)]
    bp = bench_train_large.measure([*cmd, "-q"], env)
    return {
        "what": f"train cl100k vocab {vocab_size}, {size / 1e6:.1f} MB: peak memory vs HF BpeTrainer",
        "hf_s": round(hf[0], 1),
        "bytepair_s": round(bp[0], 1),
        "hf_peak_MB": round(hf[1]),
        "bytepair_peak_MB": round(bp[1]),
        "time_ratio": round(bp[0] / hf[0], 2),
        "memory_ratio": round(bp[1] / hf[1], 2),
        "target": "memory_ratio <= 1.25",
    }


def bench_all(mb: float, vocab_size: int, repeat: int = 1, *, train: bool = True) -> list[dict]:
    """The Dask counting figures (if Dask is installed) and the training memory figures."""
    results: list[dict] = []
    try:
        import distributed  # noqa: F401
    except ImportError:
        results.append({"what": "dask counting", "skipped": 'Dask is not installed (pip install "bytepair[dask]")'})
    else:
        results.append(bench_dask_count(mb, repeat))
    if train:
        results.append(bench_train_memory(mb, vocab_size))
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=15.0)
    ap.add_argument("--vocab-size", type=int, default=32768)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-train", action="store_true", help="only the counting figures")
    args = ap.parse_args()
    for r in bench_all(args.mb, args.vocab_size, args.repeat, train=not args.no_train):
        print(json.dumps(r, ensure_ascii=False))


if __name__ == "__main__":
    main()
