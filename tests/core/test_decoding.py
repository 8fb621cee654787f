"""Streaming UTF-8 decoding and token display helpers.

References: Python's UTF-8 codec on the whole byte string (what streaming must
reproduce); GPT-2's published byte-to-unicode table (openai/gpt-2
src/encoder.py; e.g. space is 'Ġ' in GPT-2's vocab.bpe) and tiktoken's own
reading of that table in `tiktoken.load.data_gym_to_mergeable_bpe_ranks`.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bytepair.decoding import (
    StreamDecoder,
    bytes_to_unicode,
    gpt2_unview,
    gpt2_view,
    parse_token_ids,
    token_label_head,
    token_to_display,
    token_to_display_parts,
    token_to_label,
)
from bytepair.errors import ArgumentError
from tests.hypothesis_profiles import examples

# ---------------------------------------------------------------- StreamDecoder


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_stream_split_at_every_byte_never_shows_replacement(text):
    data = text.encode("utf-8")
    d = StreamDecoder()
    pieces = [d.feed(data[i : i + 1]) for i in range(len(data))]
    pieces.append(d.flush())
    assert "".join(pieces) == text
    if "\ufffd" not in text:
        assert not any("\ufffd" in p for p in pieces)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(), st.data())
def test_stream_any_chunking_equals_whole_decode(text, data):
    raw = text.encode("utf-8")
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=10)))
    bounds = [0, *cuts, len(raw)]
    d = StreamDecoder()
    out = "".join(d.feed(raw[a:b]) for a, b in zip(bounds, bounds[1:])) + d.flush()
    assert out == text


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.binary(max_size=6), max_size=12))
def test_stream_arbitrary_bytes_equals_replace_decode(chunks):
    d = StreamDecoder()
    out = "".join(d.feed(c) for c in chunks) + d.flush()
    assert out == b"".join(chunks).decode("utf-8", errors="replace")


def test_stream_holds_back_incomplete_character():
    d = StreamDecoder()
    assert d.feed(b"a\xe0\xa6") == "a"  # "আ" is e0 a6 86
    assert d.pending == b"\xe0\xa6"
    assert d.feed(b"\x86!") == "\u0986!"
    assert d.pending == b""
    assert d.flush() == ""


def test_flush_emits_replacement_for_truncated_tail_and_resets():
    d = StreamDecoder()
    assert d.feed(b"ok\xf0\x9f") == "ok"
    assert d.flush() == "\ufffd"
    assert d.feed(b"\x98\x80") == "\ufffd\ufffd"  # continuation bytes without a start
    assert d.feed("😀".encode()) == "😀"


def test_feed_ids_uses_token_bytes():
    vocab = {0: b"h", 1: b"\xe0\xa6", 2: b"\x86", 3: b"i"}
    d = StreamDecoder(token_bytes=vocab.__getitem__)
    assert d.feed_ids([0, 1]) == "h"
    assert d.feed(2) == "\u0986"
    assert d.feed([3]) == "i"


def test_feed_ids_without_token_bytes_is_type_error():
    with pytest.raises(TypeError, match="token_bytes"):
        StreamDecoder().feed_ids([1])
    with pytest.raises(TypeError, match="not str"):
        StreamDecoder().feed("text")


def test_feed_ids_unknown_id_keeps_state():
    d = StreamDecoder(token_bytes={0: b"\xe0"}.__getitem__)
    d.feed_ids([0])
    with pytest.raises(KeyError):
        d.feed_ids([5])
    assert d.pending == b"\xe0"


# ------------------------------------------------------------- token_to_display

DISPLAY = [
    ("ascii", b"hello", "hello"),
    ("space-prefixed", b" world", " world"),
    ("complete-bengali", "আ".encode(), "আ"),
    ("fragment-2-of-3", b"\xe0\xa6", "<e0a6>"),
    ("text-then-fragment", b"a\xe0\xa6", "a<e0a6>"),
    ("fragment-then-text", b"\xa6\x86 x", "<a686> x"),
    ("fragment-text-fragment", b"\x86a\xe0", "<86>a<e0>"),
    ("lone-continuation", b"\x80", "<80>"),
    ("never-valid-byte", b"\xff", "<ff>"),
    ("encoded-surrogate", b"\xed\xa0\x80", "<eda080>"),
    ("overlong-slash", b"\xc0\xaf", "<c0af>"),
    ("emoji-tail", "😀".encode()[1:], "<9f9880>"),
    ("newline", b"\n", "\n"),
    ("empty", b"", ""),
]


@pytest.mark.parametrize("b,expected", [c[1:] for c in DISPLAY], ids=[c[0] for c in DISPLAY])
def test_token_to_display(b, expected):
    assert token_to_display(b) == expected


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=24))
def test_display_parts_rebuild_the_bytes(b):
    parts = token_to_display_parts(b)
    rebuilt = b"".join(s.encode("utf-8") if is_text else bytes.fromhex(s) for is_text, s in parts)
    assert rebuilt == b
    # valid UTF-8 is shown as its text, unchanged
    try:
        text = b.decode("utf-8")
    except UnicodeDecodeError:
        assert any(not is_text for is_text, _ in parts)
    else:
        assert token_to_display(b) == text


def test_display_rejects_str():
    with pytest.raises(TypeError):
        token_to_display("abc")


# --------------------------------------------------------- GPT-2 byte view

# Published: GPT-2's vocab.bpe/encoder.json spell space 'Ġ' (U+0120), newline 'Ċ'
# (U+010A), tab 'ĉ' (U+0109), NUL 'Ā' (U+0100); printable ASCII stays itself.
PUBLISHED = [(32, "Ġ"), (10, "Ċ"), (9, "ĉ"), (0, "Ā"), (33, "!"), (ord("a"), "a"), (ord("~"), "~")]


@pytest.mark.parametrize("byte,char", PUBLISHED, ids=[f"byte-{b}" for b, _ in PUBLISHED])
def test_gpt2_table_published_values(byte, char):
    assert bytes_to_unicode()[byte] == char


def test_gpt2_view_examples():
    assert gpt2_view(b" hi") == "Ġhi"
    assert gpt2_view(b"a\nb") == "aĊb"
    assert gpt2_unview("Ġhi") == b" hi"


def test_gpt2_table_is_a_bijection():
    table = bytes_to_unicode()
    assert sorted(table) == list(range(256))
    assert len(set(table.values())) == 256


def test_gpt2_table_matches_tiktoken(monkeypatch):
    """tiktoken converts GPT-2's data-gym files with its own copy of the table:
    feed it an encoder.json written with ours (no merges) and it must decode
    every character back to the byte we started from."""
    tiktoken_load = pytest.importorskip("tiktoken.load")
    encoder = {gpt2_view(bytes([b])): b for b in range(256)}
    files = {"vocab.bpe": b"#version: 0.2\n", "encoder.json": json.dumps(encoder).encode()}
    monkeypatch.setattr(tiktoken_load, "read_file_cached", lambda path, expected_hash=None: files[path])
    ranks = tiktoken_load.data_gym_to_mergeable_bpe_ranks("vocab.bpe", "encoder.json", clobber_one_byte_tokens=True)
    assert ranks == {bytes([b]): b for b in range(256)}


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=64))
def test_gpt2_round_trip(b):
    view = gpt2_view(b)
    assert len(view) == len(b)
    assert gpt2_unview(view) == b


@pytest.mark.parametrize("s", [" ", "a b", "\x7f", "\u0144"], ids=["space", "inner-space", "del", "U+0144"])
def test_gpt2_unview_rejects_chars_outside_table(s):
    with pytest.raises(ValueError, match=r"at index \d"):
        gpt2_unview(s)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(min_size=0, max_size=60), st.integers(min_value=4, max_value=80))
def test_label_head_is_the_label_of_the_whole_characters_that_fit(text, max_bytes):
    # reference: Python's UTF-8 codec keeps the characters whose bytes all fit in the first max_bytes
    b = text.encode("utf-8")
    kept = b[:max_bytes].decode("utf-8", errors="ignore").encode("utf-8")
    assert token_label_head(b, max_bytes) == (token_to_label(kept), len(b) > max_bytes)


def test_label_head_rejects_a_limit_below_one_character():
    with pytest.raises(ValueError):
        token_label_head(b"abc", 3)


@pytest.mark.parametrize("text,item,n", [("1,2,,3", 3, 4), ("1,2,", 3, 3), (",1", 1, 2), ("[1, , 2]", 2, 3)])
def test_empty_id_item_is_refused_by_position(text, item, n):
    with pytest.raises(ArgumentError, match=f"Item {item} of the {n} comma-separated items is empty") as e:
        parse_token_ids(text)
    assert e.value.field == "ids"


@pytest.mark.parametrize("text,want", [("1,2, 3", [1, 2, 3]), ("[1, 2]", [1, 2]), ("1 2", [1, 2]), ("", [])])
def test_ids_that_parse(text, want):
    assert parse_token_ids(text) == want


@pytest.mark.parametrize(
    ("text", "reason", "values"),
    [
        ("12 abc", "not_an_id", {"token": "abc"}),
        ("1 " + "x" * 50, "not_an_id", {"token": "x" * 40}),
        ("1,2,,3", "empty_item", {"item": 3, "items": 4}),
    ],
)
def test_ids_refused_carry_their_reason_and_values(text, reason, values):
    """Fresh tester (ur, fa): "abc is not a token id" was English inside the page's sentence. The
    error carries ``reason`` and the values a page words it from; the English message is as before."""
    with pytest.raises(ArgumentError) as e:
        parse_token_ids(text)
    d = e.value.to_dict()
    assert d["field"] == "ids" and d["reason"] == reason
    assert {k: d[k] for k in values} == values
    if reason == "not_an_id":
        assert d["message"].startswith(f"“{values['token']}” is not a token id: paste whole numbers")


@pytest.mark.parametrize(("token_id", "reason"), [(99_999_999, "unknown_id"), (100_256, "unused_id")])
def test_an_id_the_tokenizer_lacks_carries_its_reason_and_range(token_id, reason):
    """An id past cl100k_base's last (100276), or one of its unused ids (100256): ``reason``, ``id``,
    ``max_id`` (n_vocab - 1) with ``n_vocab``; without it no reason (the message as before)."""
    import bytepair
    from bytepair.decoding import token_pieces

    enc = bytepair.get_encoding("cl100k_base")
    with pytest.raises(ArgumentError) as e:
        token_pieces([9906, token_id], enc.decode_single_token_bytes, n_vocab=enc.n_vocab)
    d = e.value.to_dict()
    assert (d["field"], d["reason"], d["id"], d["max_id"]) == ("ids", reason, token_id, 100_276)
    assert d["message"].startswith(f"{token_id} is not a token id of this tokenizer (token id {token_id} is not in")
    with pytest.raises(ArgumentError) as e:
        token_pieces([token_id], enc.decode_single_token_bytes)
    assert "reason" not in e.value.to_dict()
