"""Load times of the open-model tokenizer files inside Pyodide (the browser's Python).

Run through the Pyodide test runner (pytest collects this file when it is named
on the command line), after ``tests/pyodide/hf_fixture.py`` copied the files
to ``.cache/pyodide-fixtures/hf-models``::

    python tests/pyodide/hf_fixture.py
    node tests/pyodide/run_core_tests.mjs -- tools/bench_hf_pyodide.py -q -s

Prints, per model: seconds to read the file, to load it (``from_tokenizer_json``
/ ``from_tekken``), and to the first count (the merge table is built then), from
the JSON file and from its :func:`bytepair.hf.compact.to_compact` form. The
playground's target is the first count within 1.5 s of choosing a model.
"""

from __future__ import annotations

import pathlib
import sys
import time

import bytepair
from bytepair.hf.compact import from_compact, to_compact

DIR = pathlib.Path(__file__).resolve().parents[1] / ".cache" / "pyodide-fixtures" / "hf-models"
FIRST = "Zqxjv bytepair unbekanntes Wörterbuch 未知の単語"
KEYS = ("llama3_1", "qwen3", "gemma3", "deepseek_v3", "gptoss")


def _time(load, data: bytes) -> tuple[float, float]:
    t0 = time.perf_counter()
    tok = load(data)
    t1 = time.perf_counter()
    tok.encode(FIRST)
    return t1 - t0, time.perf_counter() - t1


def test_print_load_times():
    print(f"\nPython {sys.version.split()[0]} on {sys.platform}")
    print(
        f"{'model':<15}{'MB':>6}{'load s':>8}{'1st s':>7}{'total s':>9}{'compact MB':>12}{'load s':>8}{'1st s':>7}{'total s':>9}"
    )
    for key in (*KEYS, "tekken_240718"):
        path = DIR / f"{key}.json" if key.startswith("tekken") else DIR / key / "tokenizer.json"
        if not path.is_file():
            print(f"{key:<15} missing: run python tests/pyodide/hf_fixture.py")
            continue
        data = path.read_bytes()
        load = bytepair.from_tekken if key.startswith("tekken") else bytepair.from_tokenizer_json
        a, b = _time(load, data)
        row = f"{key:<15}{len(data) / 1e6:>6.1f}{a:>8.2f}{b:>7.2f}{a + b:>9.2f}"
        if not key.startswith("tekken"):
            blob = to_compact(bytepair.from_tokenizer_json(data))
            c, d = _time(from_compact, blob)
            row += f"{len(blob) / 1e6:>12.1f}{c:>8.2f}{d:>7.2f}{c + d:>9.2f}"
        print(row)
