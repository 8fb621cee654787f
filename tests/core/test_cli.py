"""The ``bytepair`` command line, run as a real subprocess (``python -m bytepair``).

References: tiktoken (token counts of the real encodings), Hugging Face
``tokenizers`` (loading the tokenizer.json the CLI writes), and bytepair's
in-memory ``train`` (checked against minbpe oracles elsewhere) for the
trained merges.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import time

import pytest

import bytepair
from bytepair.formats import hf_export

pytest.importorskip("click")
pytest.importorskip("rich")

PY = str(pathlib.Path(__file__).resolve().parents[2] / "py")
TEXT = (
    "The quick brown fox jumps over the lazy dog.\r\nIt's 2024; naïve café, 中文, emoji 👍🏽!\n" * 30
    + "hello world hello there\n" * 20
)


def run(*args: str, stdin: bytes | None = None, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=PY, PYTHONIOENCODING="utf-8", COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "bytepair", *args], input=stdin, capture_output=True, env=env, cwd=cwd, timeout=120
    )


@pytest.fixture()
def corpus_file(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_bytes(TEXT.encode("utf-8"))
    return p


def test_train_encode_decode_round_trip(corpus_file, tmp_path):
    out = tmp_path / "tok.json"
    r = run("train", str(corpus_file), "--vocab-size", "400", "--special", "<|endoftext|>", "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr.decode()
    tok = bytepair.from_json(out.read_text(encoding="utf-8"))
    ref = bytepair.train(TEXT, 400, special_tokens=["<|endoftext|>"])
    assert list(tok.merges.items()) == list(ref.merges.items())
    assert tok.special_tokens == ref.special_tokens == {"<|endoftext|>": 256 + len(ref.merges)}
    sample = "The lazy café fox 👍🏽\n"
    r = run("encode", "-t", str(out), "--format", "json", sample)
    ids = json.loads(r.stdout)
    assert ids == ref.encode(sample)
    r = run("decode", "-t", str(out), stdin=json.dumps(ids).encode())
    assert r.stdout.decode("utf-8") == sample
    r = run("decode", "-t", str(out), *map(str, ids))
    assert r.stdout.decode("utf-8") == sample
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(" ".join(map(str, ids)) + "\n", encoding="utf-8")
    r = run("decode", "-t", str(out), "-f", str(ids_file))
    assert r.stdout.decode("utf-8") == sample
    text_file = tmp_path / "sample.txt"
    text_file.write_bytes(sample.encode("utf-8"))
    r = run("encode", "-t", str(out), "-f", str(text_file))
    assert r.stdout.decode().split() == [str(i) for i in ids]


def test_stdin_training_and_encoding(tmp_path):
    out = tmp_path / "stdin.json"
    r = run("train", "-", "-v", "300", "-p", "gpt2", "-o", str(out), "-q", stdin=TEXT.encode())
    assert r.returncode == 0, r.stderr.decode()
    ref = bytepair.train(TEXT, 300, pattern="gpt2")
    assert bytepair.from_json(out.read_text(encoding="utf-8")).merges == ref.merges
    r = run("encode", "-t", str(out), stdin=b"hello world\n")
    assert r.stdout.decode().split() == [str(i) for i in ref.encode("hello world\n")]


def test_globs_and_several_files_are_joined(tmp_path):
    (tmp_path / "a.txt").write_text(TEXT[:500], encoding="utf-8")
    (tmp_path / "b.txt").write_text(TEXT[500:], encoding="utf-8")
    out = tmp_path / "g.json"
    r = run("train", str(tmp_path / "*.txt"), "-v", "300", "-o", str(out), "-q", "--chunk-chars", "1024")
    assert r.returncode == 0, r.stderr.decode()
    assert bytepair.from_json(out.read_text(encoding="utf-8")).merges == bytepair.train(TEXT, 300).merges


def test_outputs_tokenizer_json_and_tiktoken(corpus_file, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    hf_out = tmp_path / "tokenizer.json"
    r = run("train", str(corpus_file), "-v", "350", "-s", "<|endoftext|>", "-o", str(hf_out), "-q")
    assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "tokenizer_config.json").exists()
    ref = bytepair.train(TEXT, 350, special_tokens=["<|endoftext|>"])
    hf = tokenizers.Tokenizer.from_file(str(hf_out))
    assert hf.encode(TEXT + "<|endoftext|>").ids == ref.encode(TEXT + "<|endoftext|>", allowed_special="all")
    tk_out = tmp_path / "t.tiktoken"
    r = run("train", str(corpus_file), "-v", "350", "-o", str(tk_out), "-q")
    assert r.returncode == 0
    r = run("encode", "-t", str(tk_out), "--pattern", "cl100k_base", "hello world")
    assert r.stdout.decode().split() == [str(i) for i in bytepair.train(TEXT, 350).encode("hello world")]


def test_count_and_compare_against_tiktoken(corpus_file, tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    other = tmp_path / "other.txt"
    other.write_text("Some other words, 12345.\n" * 7, encoding="utf-8")
    encs = {
        n: tiktoken.Encoding(**hf_export.tiktoken_encoding_kwargs(bytepair.get_encoding(n)))
        for n in ("cl100k_base", "o200k_base")
    }
    r = run("count", "-e", "cl100k_base", str(corpus_file), str(other), "--format", "json")
    rows = json.loads(r.stdout)
    assert [row["tokens"] for row in rows] == [
        len(encs["cl100k_base"].encode(p.read_text(encoding="utf-8"))) for p in (corpus_file, other)
    ]
    # the table names the files as given: relative names, so that a long temporary directory
    # (pytest-xdist adds popen-gwN/) cannot fold "other.txt" across lines of a 120-column table
    r = run("count", "-e", "cl100k_base", corpus_file.name, other.name, cwd=tmp_path)
    assert r.returncode == 0 and "other.txt" in r.stdout.decode()
    r = run("compare", str(corpus_file), "-t", "cl100k_base", "-t", "o200k_base", "--format", "json")
    rows = json.loads(r.stdout)
    n_cl = len(encs["cl100k_base"].encode(TEXT))
    n_o2 = len(encs["o200k_base"].encode(TEXT))
    assert [row["tokens"] for row in rows] == [n_cl, n_o2]
    assert rows[1]["premium"] == pytest.approx(n_o2 / n_cl - 1, abs=1e-6)
    assert rows[1]["bytes_per_token"] == pytest.approx(len(TEXT.encode()) / n_o2, abs=1e-4)
    r = run("compare", str(corpus_file), "-t", "cl100k_base", "-t", "o200k_base", "--format", "csv")
    assert r.stdout.decode().splitlines()[0] == "file,tokenizer,tokens,bytes,bytes_per_token,premium"


def test_chunk_writes_jsonl_within_the_limit_by_tiktokens_count(corpus_file, tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    ref = tiktoken.Encoding(**hf_export.tiktoken_encoding_kwargs(bytepair.get_encoding("cl100k_base")))
    out = tmp_path / "chunks.jsonl"
    r = run(
        "chunk", str(corpus_file), "-e", "cl100k_base", "--max-tokens", "40", "--boundary", "sentence", "-o", str(out)
    )
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    text = corpus_file.read_bytes().decode("utf-8")  # (the file as written: \r\n kept)
    assert [list(row) for row in rows[:1]] == [["index", "text", "tokens", "start", "end"]]
    assert "".join(row["text"] for row in rows) == text and len(rows) > 10
    for i, row in enumerate(rows):
        assert row["index"] == i and text[row["start"] : row["end"]] == row["text"]
        assert row["tokens"] == len(ref.encode(row["text"])) <= 40
    r = run("chunk", "-e", "cl100k_base", "--max-tokens", "30", "--overlap", "5", stdin=TEXT.encode("utf-8"))
    rows = [json.loads(line) for line in r.stdout.decode("utf-8").splitlines()]
    assert all(a["start"] < b["start"] < a["end"] < b["end"] for a, b in zip(rows, rows[1:]))
    assert all(len(ref.encode(row["text"])) <= 30 for row in rows)


def test_convert(corpus_file, tmp_path):
    src = tmp_path / "c.json"
    assert run("train", str(corpus_file), "-v", "300", "-o", str(src), "-q").returncode == 0
    r = run("convert", str(src), str(tmp_path / "c.tiktoken"))
    assert r.returncode == 0, r.stderr.decode()
    ranks = bytepair.load_tiktoken_bpe(str(tmp_path / "c.tiktoken"))
    assert ranks == bytepair.from_json(src.read_text(encoding="utf-8")).mergeable_ranks()
    r = run("convert", str(src), str(tmp_path / "c.tokenizer.json"))
    assert r.returncode == 0
    assert json.loads((tmp_path / "c.tokenizer.json").read_text(encoding="utf-8"))["model"]["type"] == "BPE"


def test_pieces_then_train_from_counts(corpus_file, tmp_path):
    counts = tmp_path / "counts.tsv"
    r = run("pieces", str(corpus_file), "-o", str(counts))
    assert r.returncode == 0, r.stderr.decode()
    out = tmp_path / "fromcounts.json"
    r = run("train", "--counts", str(counts), "-v", "320", "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr.decode()
    assert bytepair.from_json(out.read_text(encoding="utf-8")).merges == bytepair.train(TEXT, 320).merges


def test_train_on_a_local_dask_cluster(corpus_file, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "dask.json"
    args = ["train", str(corpus_file), str(corpus_file), "-v", "320", "--min-frequency", "3", "-o", str(out), "-q"]
    r = run(*args, "--dask", "local:2", "--partition-bytes", "997")
    assert r.returncode == 0, r.stderr.decode()
    want = bytepair.train(TEXT + TEXT, 320, min_frequency=3).merges
    assert bytepair.from_json(out.read_text(encoding="utf-8")).merges == want
    r = run(*args, "--dask", "local:0")
    assert r.returncode == 2 and "positive N" in r.stderr.decode()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["train", "x.txt", "-o", "o.json"], "--vocab-size"),
        (["train", "{corpus}", "-v", "300", "-o", "out.bin"], "cannot tell the format"),
        (["train", "{corpus}", "-v", "10", "-o", "o.json"], "vocab-size"),
        (["train", "nope.txt", "-v", "300", "-o", "o.json"], "no such file"),
        (["train", "{corpus}", "-v", "300", "-p", "cl100k", "-o", "o.json"], "not a known name"),
        (["train", "{corpus}", "-v", "300", "-p", r"(?m)^\w+|\s+|\W", "-o", "tokenizer.json"], "Oniguruma"),
        (["encode", "-e", "cl100k_base", "-t", "x.json", "hi"], "not both"),
        (["encode", "hi"], "which tokenizer"),
        (["encode", "-e", "cl200k", "hi"], "encoding name"),
        (["encode", "-t", "{tiktoken}", "hi"], "--pattern"),
        (["decode", "-e", "gpt2", "1", "x"], "integers"),
        (["decode", "-e", "gpt2", "99999999"], "not in the vocabulary"),
        (["compare", "{corpus}", "-t", "gpt2", "--baseline", "o200k_base"], "baseline"),
        (["chunk", "{corpus}", "-e", "cl100k_base", "--max-tokens", "0"], "--max-tokens"),
        (["chunk", "{corpus}", "-e", "cl100k_base", "--max-tokens", "9", "--overlap", "9"], "--overlap"),
    ],
)
def test_bad_arguments_exit_2(args, needle, corpus_file, tmp_path):
    tk = tmp_path / "t.tiktoken"
    tk.write_bytes(bytepair.get_encoding("gpt2").to_tiktoken())
    args = [a.format(corpus=corpus_file, tiktoken=tk) for a in args]
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert needle in r.stderr.decode(), r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()


def test_invalid_utf8_says_where(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nsecond \xc3\x28 line\n")
    r = run("train", str(bad), "-v", "260", "-o", str(tmp_path / "o.json"), "-q")
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "bad.txt" in err and "line 2" in err and "byte offset 17" in err and "--errors replace" in err
    r = run("train", str(bad), "-v", "260", "-o", str(tmp_path / "o.json"), "-q", "--errors", "replace")
    assert r.returncode == 0, r.stderr.decode()
    r = run("count", "-e", "gpt2", str(bad))
    assert r.returncode == 2 and "line 2" in r.stderr.decode()


def test_sigint_during_merges_writes_loadable_file(tmp_path):
    random.seed(7)
    piece = "".join(random.choice("abcdefgh") for _ in range(300_000))
    counts = tmp_path / "c.tsv"
    counts.write_text(f"1\t{piece}\n", encoding="utf-8")
    out = tmp_path / "partial.json"
    # a live progress bar on the pipe (rich reads these), so the test can wait for real merges
    env = dict(os.environ, PYTHONPATH=PY, FORCE_COLOR="1", TTY_COMPATIBLE="1", TTY_INTERACTIVE="1")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bytepair",
            "train",
            "--counts",
            str(counts),
            "-v",
            "60000",
            "-p",
            "none",
            "-o",
            str(out),
        ],
        env=env,
        stderr=subprocess.PIPE,
        # a shell's background job starts with SIGINT ignored, and Python keeps it ignored:
        # give the child the default disposition so it sees Ctrl+C however pytest was started
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Ctrl+C once the bar shows merges learned (a fixed sleep raced the start-up on a loaded
    # machine, and the end of the run on a fast one)
    seen = b""
    deadline = time.monotonic() + 120
    while not re.search(rb"merging.*?\b[1-9][0-9]*/[0-9]+", seen.rsplit(b"\r", 1)[-1]):
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk and time.monotonic() < deadline, seen[-500:]
        seen += chunk
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    err = seen + err
    assert proc.returncode == 130, err.decode()
    assert "interrupted" in err.decode()
    tok = bytepair.from_json(out.read_text(encoding="utf-8"))
    n = len(tok.merges)
    assert 0 < n < 60000 - 256
    # the kept merges are the start of the full run: compare the first 50 with a short in-memory run
    short = bytepair.train(piece, 256 + 50, pattern="none")
    k = min(n, 50)
    assert list(tok.merges.items())[:k] == list(short.merges.items())[:k]


def test_missing_extra_message():
    env = dict(os.environ, PYTHONPATH=PY)
    code = "import sys; sys.modules['click'] = None; from bytepair.__main__ import run; run()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=60)
    assert r.returncode == 2
    assert 'pip install "bytepair[cli]"' in r.stderr.decode()


def test_chat_with_tools_equals_openai_harmony(tmp_path):
    """``bytepair chat --tools``: the harmony prompt's ids as openai-harmony renders them;
    a broken tools file fails with its line and column."""
    from tests.reference.openai_chat_refs import harmony_encoding

    oh, enc = harmony_encoding(tmp_path)
    tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
    msgs = [{"role": "user", "content": "Weather in Zürich?"}]
    (tmp_path / "m.json").write_text(json.dumps(msgs), encoding="utf-8")
    (tmp_path / "t.json").write_text(json.dumps([tool]), encoding="utf-8")
    dev = oh.DeveloperContent.new().with_function_tools(
        [oh.ToolDescription.new("get_weather", "Weather", parameters=tool["function"]["parameters"])]
    )
    conv = oh.Conversation.from_messages(
        [
            oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev),
            oh.Message.from_role_and_content(oh.Role.USER, msgs[0]["content"]),
        ]
    )
    want = list(enc.render_conversation_for_completion(conv, oh.Role.ASSISTANT))
    r = run("chat", str(tmp_path / "m.json"), "--format", "harmony", "--tools", str(tmp_path / "t.json"), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ids"] == want and out["tools_tokens"] > 0 and out["estimate"] is False
    r = run("chat", str(tmp_path / "m.json"), "--tools", str(tmp_path / "t.json"))
    assert r.returncode == 0 and "tools (estimate)" in r.stdout.decode()
    (tmp_path / "bad.json").write_text('[\n  {"name": "x",}\n]', encoding="utf-8")
    r = run("chat", str(tmp_path / "m.json"), "--tools", str(tmp_path / "bad.json"))
    assert r.returncode == 2 and re.search(r"line 2, column 1[56]\b", r.stderr.decode())  # 15: Python 3.13+
