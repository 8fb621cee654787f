"""Benchmark: a long text's count with an open model, by stage, bytepair vs ``tokenizers``.

For each model (``tests/hf_models.py``), on one long text (default: the UDHR mix), CPU seconds of:

* ``tokenizers``: ``len(Tokenizer.encode(text).ids)``;
* bytepair ``encode`` (all ids) and ``chunked.CountJob`` (the playground's count, in 50 ms steps;
  its largest step is printed too), and o200k's ``CountJob`` on the same text for scale;
* the Tokenize view's first tokens: ``encode_with_spans`` of the whole text (the path before
  ``bytepair.hf.chunked``) vs ``chunked.first_spans(text, 5000)``.

Every count is checked against ``tokenizers``'. Each model is loaded from its site form
(``to_compact``) with its whole tables read first, so load time is not in the figures.

    python tools/bench_hf_count.py [--bytes 5000000] [--models llama3_1,gemma3] [--text FILE]
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (ROOT / "py", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def _cpu(fn):
    t = time.process_time()
    r = fn()
    return r, time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bytes", type=int, default=5_000_000, help="characters of the text used")
    ap.add_argument("--models", default="llama3_1,gemma3")
    ap.add_argument("--text", default=None, help="a UTF-8 text file (default: the UDHR mix)")
    args = ap.parse_args(argv)
    import bytepair
    from bytepair.app import chunked
    from bytepair.hf.compact import from_compact
    from tests import hf_models

    if args.text:
        text = pathlib.Path(args.text).read_text(encoding="utf-8")[: args.bytes]
    else:
        from tools.corpora import udhr_round_robin

        text = udhr_round_robin(args.bytes)
    print(f"{len(text):,} characters; CPU seconds (ratio: / tokenizers)")
    o200k = bytepair.get_encoding("o200k_base")
    n, s = _cpu(lambda: chunked.CountJob(o200k, text).run())
    print(f"  o200k_base CountJob: {n:,} tokens, {s:.2f} s")
    for key in [k for k in args.models.split(",") if k]:
        ref = hf_models.reference(key)
        want, s_ref = _cpu(lambda ref=ref: len(ref.encode(text).ids))

        def fresh(key=key):
            tok = from_compact(hf_models.compact(key))
            tok.load_all_tables()
            return tok

        tok = fresh()
        n_enc, s_enc = _cpu(lambda tok=tok: len(tok.encode(text)))
        tok = fresh()
        job = chunked.CountJob(tok, text)
        t0, longest = time.process_time(), 0.0
        while True:
            t = time.process_time()
            done = job.step(50)
            longest = max(longest, time.process_time() - t)
            if done:
                break
        s_job = time.process_time() - t0
        tok = fresh()
        n_all, s_all = _cpu(lambda tok=tok: len(tok.encode_with_spans(text, add_special_tokens=True, units="utf16")))
        tok = fresh()
        first, s_first = _cpu(lambda tok=tok: chunked.first_spans(tok, text, 5000))
        assert n_enc == job.count == n_all == want, (key, n_enc, job.count, n_all, want)
        print(
            f"  {key}: {want:,} tokens | tokenizers {s_ref:.2f} s | encode {s_enc:.2f} s ({s_enc / s_ref:.1f}x)"
            f" | CountJob {s_job:.2f} s ({s_job / s_ref:.1f}x, longest step {longest * 1000:.0f} ms)"
            f" | spans of all {s_all:.2f} s vs first_spans(5000) {s_first:.2f} s"
            f"{'' if first else ' (not applicable: whole encode)'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
