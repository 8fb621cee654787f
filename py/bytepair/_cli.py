"""The ``bytepair`` command line (``pip install "bytepair[cli]"``; also ``python -m bytepair``).

Commands::

    bytepair train FILE... --vocab-size N [--pattern NAME|REGEX] [--special TOKEN]...
                   [--min-frequency N] [--normalization NFC|NFKC] [--counts FILE]
                   [--dask ADDRESS|local:N] -o OUT
    bytepair encode [TEXT...] [-f FILE]... (--encoding NAME | --tokenizer FILE) [--format json|space]
    bytepair decode [IDS...] (--encoding NAME | --tokenizer FILE)
    bytepair count  [FILE...] [--text TEXT] (--encoding NAME | --tokenizer FILE)
    bytepair chunk  FILE (--encoding NAME | --tokenizer FILE) --max-tokens N [--overlap K]
                    [--boundary token|sentence|paragraph] [-o OUT.jsonl]
    bytepair chat   MESSAGES.json [--format ID | --tokenizer tokenizer.json] [--tools TOOLS.json]
                    [--no-generation-prompt] [--json]
    bytepair compare FILE... --tokenizer A --tokenizer B ... [--format table|csv|json]
    bytepair convert IN OUT
    bytepair report TOKENIZER [--corpus flores200:DIR | udhr | udhr:FILE | DIR] [--baseline LANG] [--json]
    bytepair pieces FILE... [--pattern ...] [--dask ADDRESS|local:N] -o counts.tsv

``OUT``'s name picks the format: ``*.tiktoken`` (rank file), ``tokenizer.json``
or ``*.tokenizer.json`` (Hugging Face; ``tokenizer_config.json`` is written
beside a file named exactly ``tokenizer.json``), any other ``*.json``
(bytepair's own format). ``-`` reads standard input. Bad arguments exit with
status 2 and a message; Ctrl+C during ``train``'s merges writes the merges
learned so far and exits with status 130.

Argument parsing uses click (https://click.palletsprojects.com), progress
bars and tables rich (https://rich.readthedocs.io); both come with the
``cli`` extra, and ``import bytepair`` does not need them.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from . import corpus
from .errors import BytepairError

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _fail(message: str) -> NoReturn:
    raise click.UsageError(message)


# ------------------------------------------------------------------ tokenizers
def load_tokenizer(spec: str, *, pattern: str | None = None):
    """An encoding name or a tokenizer file (bytepair JSON, ``.tiktoken`` with ``pattern``, ``tokenizer.json``).

    Raises:
        click.UsageError: unknown name, unreadable file, ``.tiktoken`` without ``pattern``.
    """
    import bytepair

    if not os.path.exists(spec):
        try:
            return bytepair.get_encoding(spec)
        except KeyError as e:
            _fail(f"{spec!r} is neither a file nor an encoding name ({', '.join(bytepair.list_encoding_names())})")
            raise AssertionError from e  # unreachable
    try:
        with open(spec, "rb") as f:
            data = f.read()
    except OSError as e:
        _fail(f"cannot read {spec}: {e.strerror}")
    name = os.path.basename(spec)
    try:
        if spec.endswith(".tiktoken"):
            if pattern is None:
                _fail(
                    f"{spec} is a .tiktoken rank file, which holds no split pattern: add --pattern "
                    "(an encoding name such as cl100k_base, 'none', or a regex)"
                )
            ranks = bytepair.parse_tiktoken_bpe(data)
            return bytepair.Tokenizer.from_ranks(ranks, pattern=pattern, name=name.removesuffix(".tiktoken"))
        head = data[:4096].decode("utf-8", "replace")
        if '"format": "bytepair"' in head or '"format":"bytepair"' in head:
            return bytepair.from_json(data)
        obj = json.loads(data)
        if isinstance(obj, dict) and ("model" in obj or ("vocab" in obj and "config" in obj)):
            from .app.models import load_tokenizer_file

            return load_tokenizer_file(obj, name=name)  # tokenizer.json or Mistral Tekken
        _fail(f"{spec}: not a tokenizer file bytepair reads (bytepair JSON, .tiktoken, tokenizer.json, Tekken)")
    except (ValueError, KeyError, TypeError) as e:
        _fail(f"{spec}: {e}")


def write_tokenizer(tok, out: str) -> list[str]:
    """Write ``tok`` to ``out`` in the format its name picks; returns the paths written."""
    written = [out]
    base = os.path.basename(out)
    if not tok.writes_files:
        _fail(
            f"{tok.name!r} was read from a Hugging Face tokenizer.json, whose pipeline bytepair runs but "
            "cannot write in another format; convert bytepair JSON or .tiktoken files instead"
        )
    if out.endswith(".tiktoken"):
        payload: bytes = tok.to_tiktoken()
    elif base == "tokenizer.json" or base.endswith(".tokenizer.json"):
        payload = tok.to_tokenizer_json().encode("utf-8")
        if base == "tokenizer.json":
            cfg = os.path.join(os.path.dirname(out), "tokenizer_config.json")
            _atomic_write(cfg, tok.to_tokenizer_config_json().encode("utf-8"))
            written.append(cfg)
    elif out.endswith(".json"):
        payload = tok.to_json().encode("utf-8")
    else:
        _fail(
            f"cannot tell the format of {out!r} from its name: use NAME.json (bytepair), tokenizer.json or "
            "NAME.tokenizer.json (Hugging Face), or NAME.tiktoken"
        )
    _atomic_write(out, payload)
    return written


def _check_out_name(out: str) -> None:
    if not out.endswith((".json", ".tiktoken")):
        _fail(
            f"cannot tell the format of {out!r} from its name: use NAME.json (bytepair), tokenizer.json or "
            "NAME.tokenizer.json (Hugging Face), or NAME.tiktoken"
        )


def _atomic_write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _tokenizer_options(f):
    f = click.option("--pattern", help="Split pattern for a .tiktoken file: an encoding name, 'none' or a regex.")(f)
    f = click.option(
        "--tokenizer",
        "-t",
        "tokenizer_file",
        metavar="FILE",
        help="Tokenizer file: bytepair JSON, .tiktoken (with --pattern), tokenizer.json.",
    )(f)
    f = click.option(
        "--encoding", "-e", metavar="NAME", help="Encoding name: gpt2, p50k_base, cl100k_base, o200k_base."
    )(f)
    return f


def _dask_options(f):
    """``--dask`` and ``--partition-bytes``: counting on a Dask cluster (``train``, ``pieces``)."""
    f = click.option(
        "--partition-bytes",
        type=click.IntRange(1),
        default=32 << 20,
        show_default=True,
        help="With --dask: bytes of the files per partition.",
    )(f)
    f = click.option(
        "--dask",
        "dask_spec",
        metavar="ADDRESS|local:N",
        default=None,
        help="Count on a Dask cluster: a scheduler address, or local:N worker processes (extra [dask]).",
    )(f)
    return f


def _pick_tokenizer(encoding, tokenizer_file, pattern):
    if encoding and tokenizer_file:
        _fail("give --encoding or --tokenizer, not both")
    if not encoding and not tokenizer_file:
        _fail("which tokenizer? give --encoding NAME (e.g. cl100k_base) or --tokenizer FILE")
    return load_tokenizer(encoding or tokenizer_file, pattern=pattern)


def _read_all(sources: Sequence[str], errors: str) -> str:
    try:
        return "".join(corpus.read_text(sources, errors=errors))
    except BytepairError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"cannot read {e.filename}: {e.strerror}")
    return ""


def _encode_all(tok, text: str) -> list[int]:
    """Ids with special-token strings as their ids (a ``Tokenizer``'s ``allowed_special="all"``;
    tokenizers read from ``tokenizer.json`` always do that)."""
    if tok.special_tokens_in_text == "switch":  # tiktoken's allowed_special
        return tok.encode(text, allowed_special="all")
    return tok.encode(text)


def _stderr() -> Console:
    return Console(stderr=True)


class _RateColumn(ProgressColumn):
    """Merges (or MB) per second."""

    def __init__(self, unit: str, scale: float = 1.0) -> None:
        super().__init__()
        self.unit, self.scale = unit, scale

    def render(self, task):
        speed = task.finished_speed or task.speed
        return Text(f"{speed / self.scale:,.1f} {self.unit}/s" if speed else f"? {self.unit}/s")


# ------------------------------------------------------------------ commands
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bytepair", message="bytepair %(version)s")
def main() -> None:
    """bytepair: train, run and export byte-level BPE tokenizers."""


ERRORS = click.Choice(["strict", "replace"])


@main.command()
@click.argument("files", nargs=-1)
@click.option(
    "--vocab-size", "-v", type=click.IntRange(257), required=True, help="256 bytes + merges + special tokens."
)
@click.option("--pattern", "-p", default="cl100k_base", show_default=True, help="Encoding name, 'none' or a regex.")
@click.option("--special", "-s", multiple=True, metavar="TOKEN", help="A special token (repeat for more).")
@click.option("--min-frequency", type=click.IntRange(1), default=1, show_default=True)
@click.option("--normalization", type=click.Choice(["NFC", "NFKC"]), default=None)
@click.option("--counts", "counts_file", metavar="FILE", help="Train from piece counts (TSV/JSON) instead of FILES.")
@click.option(
    "--output", "-o", required=True, metavar="OUT", help="OUT.json, tokenizer.json, OUT.tokenizer.json or OUT.tiktoken."
)
@click.option("--name", default=None, help="Tokenizer name (default: OUT's stem).")
@click.option("--workers", "-j", type=click.IntRange(0), default=None, help="Counting processes (default: all cores).")
@click.option("--chunk-chars", type=click.IntRange(1024), default=corpus.CHUNK_CHARS, show_default=True)
@click.option(
    "--errors", type=ERRORS, default="strict", show_default=True, help="Invalid UTF-8: stop, or read as U+FFFD."
)
@_dask_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bars.")
def train(
    files,
    vocab_size,
    pattern,
    special,
    min_frequency,
    normalization,
    counts_file,
    output,
    name,
    workers,
    chunk_chars,
    errors,
    dask_spec,
    partition_bytes,
    quiet,
):
    """Train a tokenizer on FILES (paths, globs, - for stdin) and write it to OUT."""
    import bytepair

    _check_out_name(output)
    if bool(files) == bool(counts_file):
        _fail("give the training FILES, or --counts FILE, (one of them)")
    if vocab_size < 256 + len(special):
        _fail(f"--vocab-size must be at least 256 + {len(special)} special token(s) = {256 + len(special)}")
    if len(set(special)) != len(special) or any(not s for s in special):
        _fail("special tokens must be non-empty and distinct")
    try:
        bytepair.resolve_pattern(pattern)
    except (ValueError, TypeError) as e:
        _fail(f"--pattern: {e}")
    base = os.path.basename(output)
    if (base == "tokenizer.json" or base.endswith(".tokenizer.json")) and bytepair.resolve_pattern(pattern) is not None:
        from .formats.hf_export import onig_pattern

        try:  # before hours of training, not after
            onig_pattern(bytepair.resolve_pattern(pattern))
        except BytepairError as e:
            _fail(f"--pattern: {e}")
    name = name or base.split(".")[0] or "trained"
    console = _stderr()
    t0 = time.perf_counter()
    if counts_file:
        try:
            counts = corpus.read_counts(counts_file)
        except OSError as e:
            _fail(f"cannot read {counts_file}: {e.strerror}")
        except BytepairError as e:
            _fail(str(e))
    else:
        try:
            sources = corpus.expand_sources(files)
        except BytepairError as e:
            _fail(str(e))
        total = sum(os.path.getsize(s) for s in sources if s != "-") if "-" not in sources else None
        with Progress(
            TextColumn("counting"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            _RateColumn("MB", 1e6),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
            transient=False,
        ) as prog:
            task = prog.add_task("count", total=total)
            try:
                counts = _count_sources(
                    sources,
                    pattern=pattern,
                    special=special,
                    normalization=normalization,
                    errors=errors,
                    workers=workers,
                    chunk_chars=chunk_chars,
                    dask_spec=dask_spec,
                    partition_bytes=partition_bytes,
                    on_bytes=lambda n: prog.advance(task, n),
                )
            except BytepairError as e:
                _fail(str(e))
            except KeyboardInterrupt:
                click.echo("interrupted while counting: no merge learned yet, nothing written", err=True)
                sys.exit(EXIT_INTERRUPTED)
    t_count = time.perf_counter() - t0
    n_merges = vocab_size - 256 - len(special)
    merges: dict = {}
    interrupted = False
    try:
        with Progress(
            TextColumn("merging"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn("merges"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
        ) as prog:
            task = prog.add_task("merge", total=n_merges)
            merges, interrupted = corpus.learn_merges(
                counts,
                vocab_size,
                special_tokens=special,
                min_frequency=min_frequency,
                on_merge=lambda ev: prog.advance(task),
            )
    except KeyboardInterrupt:
        # Ctrl+C while the progress bar starts or stops, outside the merge loop
        # (learn_merges catches it inside): keep what was learned, as there.
        interrupted = True
    tok = bytepair.Tokenizer.from_merges(
        merges, pattern=pattern, special_tokens=list(special), normalization=normalization, name=name
    )
    try:
        written = write_tokenizer(tok, output)
    except BytepairError as e:
        _fail(f"cannot write {output}: {e}")
    t_all = time.perf_counter() - t0
    msg = (
        f"{len(merges)} merges from {len(counts):,} distinct pieces "
        f"(counting {t_count:.1f} s, total {t_all:.1f} s); wrote {', '.join(written)}"
    )
    if output.endswith(".tiktoken"):
        msg += f"\nnote: a .tiktoken file holds only the ranks; load it with --pattern {pattern!r}" + (
            f" and normalize text with {normalization} first" if normalization else ""
        )
    if interrupted:
        click.echo(f"interrupted: kept the first {msg}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if not quiet:
        click.echo(msg, err=True)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--pattern", "-p", default="cl100k_base", show_default=True)
@click.option("--special", "-s", multiple=True, metavar="TOKEN")
@click.option("--normalization", type=click.Choice(["NFC", "NFKC"]), default=None)
@click.option("--output", "-o", default="-", show_default=True, help="counts.tsv or counts.json (- = stdout, TSV).")
@click.option("--workers", "-j", type=click.IntRange(0), default=None)
@click.option("--errors", type=ERRORS, default="strict", show_default=True)
@_dask_options
def pieces(files, pattern, special, normalization, output, workers, errors, dask_spec, partition_bytes):
    """Count the pieces of FILES (the input of `train --counts`)."""
    try:
        sources = corpus.expand_sources(files)
        counts = _count_sources(
            sources,
            pattern=pattern,
            special=special,
            normalization=normalization,
            errors=errors,
            workers=workers,
            dask_spec=dask_spec,
            partition_bytes=partition_bytes,
        )
    except BytepairError as e:
        _fail(str(e))
    fmt = "json" if output.endswith(".json") else "tsv"
    if output == "-":
        out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="")
        corpus.write_counts(counts, out, fmt=fmt)
        out.flush()
        out.detach()
    else:
        with open(output, "w", encoding="utf-8", newline="") as f:
            corpus.write_counts(counts, f, fmt=fmt)


def _count_sources(
    sources: Sequence[str],
    *,
    pattern: str,
    special: Sequence[str],
    normalization: str | None,
    errors: str,
    workers: int | None,
    chunk_chars: int = corpus.CHUNK_CHARS,
    dask_spec: str | None,
    partition_bytes: int,
    on_bytes=None,
) -> dict[str, int]:
    """Piece counts of ``sources`` (paths, ``"-"``: stdin) for `train` and `pieces`: in ``workers``
    local processes (chunks of ``chunk_chars`` characters), or on the Dask cluster ``dask_spec``
    (``local:N`` or a scheduler address) in partitions of ``partition_bytes``. ``on_bytes(n)``:
    after each ``n`` bytes read. Raises BytepairError (bad input); exits with a message on a
    missing Dask or an unreachable cluster."""
    if not dask_spec:
        return corpus.count_pieces(
            corpus.read_text(sources, errors=errors, on_bytes=on_bytes),
            pattern=pattern,
            special_tokens=special,
            normalization=normalization,
            workers=workers,
            chunk_chars=chunk_chars,
        )
    spec = dask_spec
    from . import cluster_count

    try:
        import distributed  # noqa: F401
    except ImportError:
        _fail('--dask needs Dask: pip install "bytepair[dask]"')
    try:
        with cluster_count.dask_client(spec):
            return cluster_count.count_files_dask(
                sources,
                pattern=pattern,
                special_tokens=special,
                normalization=normalization,
                errors=errors,
                partition_bytes=partition_bytes,
                on_partition=on_bytes,
            )
    except (OSError, TimeoutError) as e:
        _fail(f"--dask {spec}: {e}")
    return {}  # not reached: _fail raises


def _input_text(texts, files, errors) -> str:
    if texts and files:
        _fail("give TEXT arguments or --file, not both")
    if texts:
        return " ".join(texts)
    return _read_all(files or ["-"], errors)


@main.command()
@click.argument("texts", nargs=-1)
@click.option("--file", "-f", "files", multiple=True, metavar="FILE", help="Read the text from FILE (- = stdin).")
@_tokenizer_options
@click.option("--format", "fmt", type=click.Choice(["space", "json"]), default="space", show_default=True)
@click.option("--allow-special", is_flag=True, help="Encode special-token strings as their ids.")
@click.option("--errors", type=ERRORS, default="strict", show_default=True)
def encode(texts, files, encoding, tokenizer_file, pattern, fmt, allow_special, errors):
    """Encode TEXT (or --file, or stdin) to token ids."""
    tok = _pick_tokenizer(encoding, tokenizer_file, pattern)
    text = _input_text(texts, files, errors)
    ids = _encode_all(tok, text) if allow_special else tok.encode_ordinary(text)
    click.echo(json.dumps(ids) if fmt == "json" else " ".join(map(str, ids)))


@main.command()
@click.argument("ids", nargs=-1)
@click.option("--file", "-f", "files", multiple=True, metavar="FILE", help="Read the ids from FILE (- = stdin).")
@_tokenizer_options
def decode(ids, files, encoding, tokenizer_file, pattern):
    """Decode token IDS (arguments, --file or stdin: a JSON list or whitespace-separated) to text."""
    tok = _pick_tokenizer(encoding, tokenizer_file, pattern)
    if ids and files:
        _fail("give IDS arguments or --file, not both")
    raw = " ".join(ids) if ids else _read_all(files or ["-"], "strict")
    raw = raw.strip()
    try:
        values = json.loads(raw) if raw.startswith("[") else [int(x) for x in raw.replace(",", " ").split()]
    except ValueError as e:
        _fail(f"token ids must be integers (a JSON list or separated by spaces): {e}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        _fail("token ids must be integers")
    try:
        text = tok.decode(values)
    except KeyError as e:
        _fail(str(e.args[0]) if e.args else str(e))
    sys.stdout.write(text)
    if sys.stdout.isatty():
        sys.stdout.write("\n")


def _file_stats(tok, source: str, errors: str) -> dict:
    text = _read_all([source], errors)
    n_bytes = len(text.encode("utf-8", "surrogatepass"))
    n = len(_encode_all(tok, text))
    return {
        "file": source,
        "tokenizer": tok.name,
        "bytes": n_bytes,
        "chars": len(text),
        "tokens": n,
        "bytes_per_token": round(n_bytes / n, 4) if n else None,
    }


@main.command()
@click.argument("files", nargs=-1)
@click.option("--text", "texts", multiple=True, help="Count this text (repeatable).")
@_tokenizer_options
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--errors", type=ERRORS, default="strict", show_default=True)
def count(files, texts, encoding, tokenizer_file, pattern, fmt, errors):
    """Count the tokens of FILES (or --text, or stdin); many files give a table."""
    tok = _pick_tokenizer(encoding, tokenizer_file, pattern)
    if texts and files:
        _fail("give FILES or --text, not both")
    if texts:
        rows = []
        for t in texts:
            n = len(_encode_all(tok, t))
            rows.append(
                {
                    "file": "<text>",
                    "tokenizer": tok.name,
                    "bytes": len(t.encode()),
                    "chars": len(t),
                    "tokens": n,
                    "bytes_per_token": round(len(t.encode()) / n, 4) if n else None,
                }
            )
    else:
        try:
            sources = corpus.expand_sources(files) if files else ["-"]
        except BytepairError as e:
            _fail(str(e))
        rows = [_file_stats(tok, s, errors) for s in sources]
    if len(rows) == 1 and fmt == "table":
        click.echo(rows[0]["tokens"])
        return
    _emit(rows, fmt, ["file", "bytes", "chars", "tokens", "bytes_per_token"], title=f"tokens ({tok.name})")


@main.command()
@click.argument("file", default="-")
@_tokenizer_options
@click.option("--max-tokens", "-n", type=int, required=True, help="Tokens per chunk, each chunk counted on its own.")
@click.option("--overlap", type=int, default=0, show_default=True, help="Tokens repeated from the previous chunk.")
@click.option(
    "--boundary",
    type=click.Choice(["token", "sentence", "paragraph"]),
    default="token",
    show_default=True,
    help="Preferred cut: the last paragraph or sentence end that fits, else a token boundary.",
)
@click.option("--output", "-o", default="-", show_default=True, help="JSONL file (- = stdout).")
@click.option("--errors", type=ERRORS, default="strict", show_default=True)
def chunk(file, encoding, tokenizer_file, pattern, max_tokens, overlap, boundary, output, errors):
    """Cut FILE (or stdin) into chunks of at most --max-tokens tokens (bytepair.chunk), written as
    JSON lines {"index", "text", "tokens", "start", "end"} (start/end: character offsets)."""
    from .app.limits import chunk as chunk_text

    tok = _pick_tokenizer(encoding, tokenizer_file, pattern)
    text = _read_all([file], errors)
    try:
        chunks = chunk_text(tok, text, max_tokens, overlap=overlap, boundary=boundary)
    except BytepairError as e:
        _fail(f"--{(e.field or 'max-tokens').replace('_', '-')}: {e}")
    lines = "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks)
    if output == "-":
        sys.stdout.write(lines)
    else:
        _atomic_write(output, lines.encode("utf-8"))


def _read_json_file(path: str, what: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        _fail(f"cannot read {what} {path}: {e.strerror}")
    except UnicodeDecodeError as e:
        _fail(f"{what} {path} is not UTF-8 text: {e}")
    return ""


@main.command()
@click.argument("messages_file", metavar="MESSAGES.json")
@click.option(
    "--format",
    "format_id",
    default="chatml-o200k",
    show_default=True,
    help="Chat format id: chatml-o200k, chatml-cl100k, chatml-gpt-3.5, harmony (ignored with --tokenizer).",
)
@click.option(
    "--tokenizer",
    "-t",
    "tokenizer_file",
    metavar="FILE",
    help="An open model's tokenizer.json; its chat template is read from tokenizer_config.json beside it.",
)
@click.option("--tools", "tools_file", metavar="FILE", help="Tool (function) definitions: a JSON array.")
@click.option("--no-generation-prompt", is_flag=True, help="Do not end with the opening of the assistant's reply.")
@click.option("--json", "as_json", is_flag=True, help="The whole breakdown as JSON.")
def chat(messages_file, format_id, tokenizer_file, tools_file, no_generation_prompt, as_json):
    """Count a conversation (a JSON array of {"role", "content"}) as a chat format renders it,
    per message, with tool definitions on a line of their own."""
    from .app import chat_formats
    from .chat import tools as chat_tools

    try:
        messages = json.loads(_read_json_file(messages_file, "messages"))
    except json.JSONDecodeError as e:
        _fail(f"messages {messages_file}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}")
    tools = None
    try:
        if tools_file:
            tools = chat_tools.parse_tools_json(_read_json_file(tools_file, "tools"))
        get = None
        if tokenizer_file:
            import bytepair

            config = os.path.join(os.path.dirname(os.path.abspath(tokenizer_file)), "tokenizer_config.json")
            if not os.path.isfile(config):
                _fail(f"{tokenizer_file}: no tokenizer_config.json beside it (the chat template is there)")
            tok = bytepair.from_tokenizer_json(tokenizer_file, config=config)
            format_id = chat_formats.TEMPLATE_PREFIX + tok.name

            def get(_name, tok=tok):
                return tok

        b = chat_formats.breakdown(
            format_id, messages, add_generation_prompt=not no_generation_prompt, get_tokenizer=get, tools=tools
        )
    except BytepairError as e:
        where = ""
        if getattr(e, "line", None) is not None:
            where = f" ({tools_file})"
        _fail(f"{e}{where}")
    except ImportError as e:
        _fail(f"{e} (chat templates need jinja2: pip install jinja2)")
    if as_json:
        d = b.to_dict()
        d.pop("tokens")
        click.echo(json.dumps(d, ensure_ascii=False, indent=2))
        return
    rows = [
        {
            "part": f"message {m.index + 1} ({m.role})",
            "content": m.content_tokens,
            "overhead": m.overhead_tokens,
            "tokens": m.tokens,
        }
        for m in b.messages
    ]
    if tools:
        rows.append(
            {
                "part": "tools" + (" (estimate)" if b.estimate else ""),
                "content": None,
                "overhead": None,
                "tokens": b.tools_tokens,
            }
        )
    rows.append({"part": "after the last message", "content": None, "overhead": None, "tokens": b.trailing_tokens})
    rows.append({"part": "total" + (" (estimate)" if b.estimate else ""), "tokens": b.total})
    _emit(rows, "table", ["part", "content", "overhead", "tokens"], title=f"{format_id} ({b.tokenizer_name})")


def _emit(rows: list[dict], fmt: str, columns: list[str], *, title: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    elif fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        click.echo(buf.getvalue(), nl=False)
    else:
        table = Table(title=title)
        for c in columns:
            table.add_column(c, justify="left" if c in ("file", "tokenizer", "part") else "right")
        for r in rows:
            table.add_row(
                *["" if r.get(c) is None else (f"{r[c]:+.1%}" if c == "premium" else str(r[c])) for c in columns]
            )
        Console(width=max(100, Console().width)).print(table)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--tokenizer",
    "-t",
    "specs",
    multiple=True,
    required=True,
    metavar="NAME|FILE",
    help="An encoding name or tokenizer file (repeat; the first is the baseline).",
)
@click.option("--baseline", default=None, help="Which --tokenizer is the baseline (default: the first).")
@click.option("--pattern", help="Split pattern for .tiktoken files.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--errors", type=ERRORS, default="strict", show_default=True)
def compare(files, specs, baseline, pattern, fmt, errors):
    """Token counts of FILES under several tokenizers: bytes per token and the premium over the baseline."""
    if len(specs) < 1:
        _fail("give at least one --tokenizer")
    toks = [load_tokenizer(s, pattern=pattern) for s in specs]
    labels = list(specs)
    base = 0
    if baseline is not None:
        if baseline not in labels:
            _fail(f"--baseline {baseline!r} is not one of the --tokenizer values {labels}")
        base = labels.index(baseline)
    try:
        sources = corpus.expand_sources(files)
    except BytepairError as e:
        _fail(str(e))
    rows = []
    for s in sources:
        text = _read_all([s], errors)
        n_bytes = len(text.encode("utf-8"))
        counts = [len(_encode_all(t, text)) for t in toks]
        for label, n in zip(labels, counts):
            rows.append(
                {
                    "file": s,
                    "tokenizer": label,
                    "tokens": n,
                    "bytes": n_bytes,
                    "bytes_per_token": round(n_bytes / n, 4) if n else None,
                    "premium": (n / counts[base] - 1) if counts[base] else None,
                }
            )
    if fmt != "table":
        for r in rows:
            if r["premium"] is not None:
                r["premium"] = round(r["premium"], 6)
    _emit(
        rows,
        fmt,
        ["file", "tokenizer", "tokens", "bytes", "bytes_per_token", "premium"],
        title=f"premium over {labels[base]}",
    )


@main.command()
@click.argument("src", metavar="IN")
@click.argument("dst", metavar="OUT")
@click.option("--pattern", help="Split pattern when IN is a .tiktoken file.")
def convert(src, dst, pattern):
    """Convert a tokenizer file IN to OUT (format from OUT's name)."""
    _check_out_name(dst)
    tok = load_tokenizer(src, pattern=pattern)
    try:
        write_tokenizer(tok, dst)
    except BytepairError as e:
        _fail(f"cannot write {dst}: {e}")
    except ValueError as e:
        _fail(f"cannot write {dst}: {e}")


def _fmt(v, spec: str) -> str:
    return "" if v is None else format(v, spec)


@main.command()
@click.argument("tokenizer_spec", metavar="TOKENIZER")
@click.option(
    "--corpus",
    "corpus_spec",
    default="udhr",
    show_default=True,
    help="flores200:DIR (FLORES-200 dev+devtest, Petrov et al.'s layout), udhr, udhr:FILE, "
    "or a directory of <language>.txt files.",
)
@click.option("--baseline", default=None, help="The premiums' baseline language (default: eng_Latn or eng).")
@click.option("--pattern", help="Split pattern for a .tiktoken file.")
@click.option("--vocab/--no-vocab", "with_vocab", default=True, show_default=True, help="Add the vocabulary anatomy.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the report as JSON (with each metric's definition and source)."
)
def report(tokenizer_spec, corpus_spec, baseline, pattern, with_vocab, as_json):
    """A report card for TOKENIZER (encoding name or file): per-language premium, byte premium,
    fertility, continued words, Rényi efficiency, bytes per token; and the vocabulary's anatomy."""
    from .report import corpus_report
    from .report.corpora import load_corpus
    from .report.vocab import vocab_report

    tok = load_tokenizer(tokenizer_spec, pattern=pattern)
    try:
        corp = load_corpus(corpus_spec)
        base = baseline or corp.baseline
        if base is None:
            _fail(f"{corp.name} has no eng_Latn or eng text: give --baseline LANG")
        rep = corpus_report(tok, corp.texts, baseline=base, corpus=corp.name)
    except BytepairError as e:
        _fail(str(e))
    vrep = vocab_report(tok, produced=rep.produced) if with_vocab else None
    if as_json:
        out = {"corpus": rep.to_dict(), "vocab": vrep.to_dict() if vrep else None}
        click.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    console = Console(width=max(110, Console().width))
    table = Table(title=f"{rep.tokenizer} on {rep.corpus}: premiums over {rep.baseline}")
    cols = ["lang", "script", "tokens", "bytes", "premium", "byte premium", "bytes/token", "fertility",
            "continued", f"Rényi α={rep.alpha:g}"]  # fmt: skip
    for c in cols:
        table.add_column(c, justify="left" if c in ("lang", "script") else "right")
    for r in rep.languages:
        table.add_row(
            r.lang,
            r.script or "",
            str(r.tokens),
            str(r.bytes),
            _fmt(r.premium, ".2f"),
            _fmt(r.byte_premium, ".2f"),
            _fmt(r.bytes_per_token, ".2f"),
            _fmt(r.fertility, ".2f") if r.space_delimited else "n/a*",
            _fmt(r.continued_words, ".1%") if r.space_delimited else "",
            _fmt(r.renyi_efficiency, ".3f"),
        )
    console.print(table)
    if any(not r.space_delimited for r in rep.languages):
        console.print("* n/a: a script written without spaces between words (bytepair.report.NOT_SPACE_DELIMITED)")
    if vrep is not None:
        d = vrep.to_dict(examples=5)
        vt = Table(title=f"vocabulary of {vrep.tokenizer}: {d['ordinary']} ordinary tokens")
        vt.add_column("category")
        vt.add_column("count", justify="right")
        vt.add_column("examples")
        for key in ("partial_utf8", "unreachable", "whitespace", "never_produced"):
            if d[key] is not None:
                vt.add_row(key, str(d[key]["count"]), " ".join(e["display"] for e in d[key]["examples"]))
        for n, v in d["single_token_numbers"].items():
            vt.add_row(f"{n}-digit strings as one token", f"{v['single']}/{v['of']}", "")
        vt.add_row("by script", "", ", ".join(f"{k} {v}" for k, v in list(d["by_script"].items())[:8]))
        vt.add_row("longest", "", " ".join(repr(e["text"])[:40] for e in d["longest"][:3]))
        console.print(vt)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="bytepair")
