"""bytepair.widgets.Train in the kernel (no browser): training in a thread, Stop, batching, errors.

The worked example (README, minbpe's rules): "aaabdaaabac", 3 merges, encodes as
[258, 100, 258, 97, 99]: 11 bytes in 5 tokens, 2.2 bytes per token.
tests/e2e/test_notebook_output.py runs the widget in a real kernel and draws it in Chromium.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("anywidget")

import bytepair
from bytepair import widgets
from bytepair.errors import ArgumentError, PatternError


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_module_imports_without_building_the_widget():
    code = "import sys, bytepair.widgets; print(sorted(m for m in ('anywidget', 'traitlets') if m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(pathlib.Path(bytepair.__file__).parents[1])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"  # anywidget is imported when a widget class is first used
    assert widgets.Train.__name__ == "Train" and widgets.Train is widgets.Train  # built once
    with pytest.raises(AttributeError):
        widgets.Nothing  # noqa: B018


def test_worked_example():
    w = widgets.Train("aaabdaaabac", vocab_size=259, pattern="none")
    assert w.status == "idle" and w.n_bytes == 11
    w.start()
    assert w.wait(30)
    assert w.status == "done"
    assert [row[:3] for row in w.merges] == [[256, 97, 97], [257, 256, 97], [258, 257, 98]]
    assert [row[3] for row in w.merges] == ["aa", "aaa", "aaab"]
    assert w.tokenizer.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert w.ratio == pytest.approx(11 / 5)
    assert w.curve[-1] == [3, 2.2]


def test_train_message_starts_and_stop_message_stops():
    text = "".join(chr(0x980 + (i * 7) % 80) for i in range(40_000))
    w = widgets.Train(text, vocab_size=20_000, pattern="none")
    w.handle_message({"type": "train"})
    assert w.status == "training"
    w.handle_message({"type": "stop"})
    assert w.wait(30)
    assert w.status == "stopped"
    assert 0 < w.n_merges == len(w.all_merges) < 20_000 - 256
    assert w.merges == w.all_merges[-widgets.SHOWN_MERGES :]  # the page gets the newest only
    # what was learned is a tokenizer: its merges are the rows, in order
    assert w.tokenizer.merges == {(a, b): i for i, a, b, *_ in w.all_merges}


def test_long_tokens_are_cut_with_their_length():
    w = widgets.Train("abcdefghijklmnopqrstuvwxyz" * 4 * 30, vocab_size=400, pattern="none", autostart=True)
    assert w.wait(60) and w.status == "done"
    longest = max(w.all_merges, key=lambda r: r[4])
    assert longest[4] > widgets.LABEL_CHARS
    assert len(longest[3]) == widgets.LABEL_CHARS and longest[3].endswith("…")
    token = w.tokenizer.decode_single_token_bytes(longest[0])
    assert len(token) == longest[4] and token.decode().startswith(longest[3][:-1])


def test_bad_options_raise_or_report_structured_errors():
    with pytest.raises(ArgumentError) as e:
        widgets.Train("x", vocab_size=10)
    assert e.value.field == "vocab_size"
    with pytest.raises(PatternError) as e:
        widgets.Train("x", pattern="((")
    assert e.value.field == "pattern"
    with pytest.raises(ArgumentError) as e:
        widgets.Train(b"x")
    assert e.value.field == "text"
    w = widgets.Train("abc abc", vocab_size=300)
    w.pattern = "(("  # changed from the page: reported, not raised in the thread
    w.start()
    assert w.wait(30)
    assert w.status == "error" and w.error["field"] == "pattern" and w.error["type"] == "pattern"


def test_matches_bytepair_train():
    text = "the cat sat on the mat. " * 40 + "আমি বাংলায় গান গাই " * 10
    w = widgets.Train(text, vocab_size=320, pattern="gpt2", autostart=True)
    assert w.wait(60)
    assert w.tokenizer.merges == bytepair.train(text, 320, pattern="gpt2").merges


@pytest.mark.parametrize("interval, syncs", [(0.0, "each merge"), (1e9, "once")])
def test_merges_reach_the_page_while_training_in_batches(monkeypatch, interval, syncs):
    monkeypatch.setattr(widgets, "BATCH_SECONDS", interval)
    text = "the cat sat on the mat. " * 40
    w = widgets.Train(text, vocab_size=300, pattern="none")
    seen: list[tuple[int, str]] = []
    w.observe(lambda change: seen.append((change["new"], w.status)), names="n_merges")
    w.start()
    assert w.wait(60) and w.status == "done"
    n = w.n_merges
    assert n == len(w.all_merges) > 5
    if syncs == "each merge":  # the table grows while the thread trains
        during = [k for k, status in seen if status == "training"]
        assert during[: n - 1] == list(range(1, n))
    else:  # one sync at the end, not one message per merge
        assert [k for k, _ in seen] == [n]


def test_tokenize_rows_equal_tiktoken_and_follow_the_text():
    from tests.reference import tiktoken_encoding

    pytest.importorskip("tiktoken")
    w = widgets.Tokenize("hello <|endoftext|> আমি", tokenizer="cl100k_base")
    enc = tiktoken_encoding("cl100k_base", bytepair.registry.load_ranks("cl100k_base"))
    # special-token text is encoded as ordinary text (tiktoken: disallowed_special=())
    assert [r[0] for r in w.tokens] == enc.encode("hello <|endoftext|> আমি", disallowed_special=())
    assert w.count == len(w.tokens) and "cl100k_base" in [c[0] for c in w.encodings]
    w.encoding = "o200k_base"
    enc2 = tiktoken_encoding("o200k_base", bytepair.registry.load_ranks("o200k_base"))
    assert [r[0] for r in w.tokens] == enc2.encode("hello <|endoftext|> আমি", disallowed_special=())
    w.text = "a\u200db"
    assert [r[0] for r in w.tokens] == enc2.encode("a\u200db")
    # each row: [id, title, special, parts]; the parts read as bytepair names the token
    for tid, title, special, parts in w.tokens:
        b = enc2.decode_single_token_bytes(tid)
        assert title.startswith(f"id {tid} · {len(b)} byte") and special is False
        assert "".join(p[1] for p in parts) == bytepair.token_to_label(b)
    assert ["name", "\u27e8ZWJ\u27e9", "U+200D ZERO WIDTH JOINER"] in [p for r in w.tokens for p in r[3]]


def test_tokenize_with_a_trained_tokenizer_and_a_limit():
    tok = bytepair.train("aaabdaaabac", 259, pattern="none")
    w = widgets.Tokenize("aaabdaaabac" * 3, tokenizer=tok, limit=4)
    assert w.encodings == [] and w.encoding == "trained"
    assert w.count == 15 and [r[0] for r in w.tokens] == [258, 100, 258, 97]
    with pytest.raises(KeyError):
        widgets.Tokenize("x", tokenizer="no-such-encoding")


def test_lone_surrogates_become_u_fffd_before_they_reach_the_page():
    import json

    t = widgets.Tokenize("a\ud800b \ud83d\ude00")
    assert t.text == "a\ufffdb 😀"
    json.dumps(t.text, ensure_ascii=False).encode("utf-8")  # what the comm sends
    w = widgets.Train("x\udc80y", vocab_size=257, pattern="none")
    assert w.text == "x\ufffdy" and w.n_bytes == 5
