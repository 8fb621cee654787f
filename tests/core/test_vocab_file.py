"""bytepair's one compact vocabulary format ``.bpv`` (``bytepair.formats.vocab_file``).

Reference: OpenAI's rank files shipped in ``py/bytepair/data`` (their sha256
equals tiktoken's ``expected_hash``, see test_vocab_files.py) parsed by the
``.tiktoken`` reader, and tiktoken itself on the loaded ranks.
"""

from __future__ import annotations

import gzip
import json
import struct

import pytest

from bytepair import registry
from bytepair.formats.tiktoken_file import dump_tiktoken_bpe, load_tiktoken_bpe, parse_tiktoken_bpe
from bytepair.formats.vocab_file import _BYTE_SEPS as SEPS
from bytepair.formats.vocab_file import (
    MAGIC,
    VERSION,
    dump_vocab,
    load_vocab,
    read_vocab,
    read_vocab_file,
    write_vocab_file,
)

FILES = ["r50k_base", "p50k_base", "cl100k_base", "o200k_base"]


@pytest.mark.parametrize("name", FILES)
def test_round_trip_of_openai_files(name):
    path = registry.DATA_DIR / f"{name}.tiktoken.gz"
    if not path.exists():
        pytest.skip(f"{path} not present")
    ranks = load_tiktoken_bpe(path)
    data = read_vocab(gzip.compress(dump_vocab(ranks), mtime=0))
    assert data.ranks == ranks and data.merges == []
    assert list(data.ranks.values()) == sorted(ranks.values())  # id order
    # the original file text comes back byte for byte (its sha256 is tiktoken's expected_hash)
    assert dump_tiktoken_bpe(data.ranks) == gzip.decompress(path.read_bytes())


def test_holes_long_tokens_and_merges():
    ranks = {b"a": 0, b"b": 1, b"x" * 300: 7, b"ab": 3}
    data = read_vocab(dump_vocab(ranks, merges=[(0, 1)]))
    assert data.ranks == ranks and data.merges == [(0, 1)]
    assert list(data.ranks) == [b"a", b"b", b"ab", b"x" * 300]


def _file(header: dict, *sections: bytes) -> bytes:
    """A .bpv file written by hand from the layout in the module docstring."""
    h = json.dumps(header).encode("ascii")
    return MAGIC + bytes([VERSION]) + struct.pack("<I", len(h)) + h + b"".join(sections)


def _tokens(count: int, size: int, **how) -> dict:
    return {"name": "tokens", "type": "bytes", "count": count, "size": size, **how}


def test_layout_is_the_documented_one():
    data = dump_vocab({b"hi": 0, b"!": 1})
    assert data[:7] == b"BPVOCAB" and data[7] == 3 == VERSION
    (hlen,) = struct.unpack_from("<I", data, 8)
    assert json.loads(data[12 : 12 + hlen]) == {
        "kind": "ranks",
        "sections": [{"name": "tokens", "type": "bytes", "sep": "fffe", "count": 2, "size": 5}],
        "meta": {},
    }
    assert data[12 + hlen :] == b"hi\xff\xfe!"
    # a file written by hand from the documented layout reads back: lengths, ids and merges sections
    hand = _file(
        {
            "kind": "ranks",
            "sections": [
                _tokens(2, 5, lengths="u8"),
                {"name": "ids", "type": "u32", "count": 2, "size": 8},
                {"name": "merges", "type": "u32", "count": 2, "size": 8},
            ],
            "meta": {},
        },
        b"\x02\x01hi!",
        struct.pack("<II", 7, 3),
        struct.pack("<II", 3, 7),
    )
    assert read_vocab(hand) == ({b"hi": 7, b"!": 3}, [(3, 7)])


def test_a_separator_inside_tokens_falls_back_to_lengths():
    # every two-byte separator candidate occurs in some token: the lengths layout is used
    ranks = {b"a" + sep + b"b": i for i, sep in enumerate(SEPS)}
    data = dump_vocab(ranks)
    (hlen,) = struct.unpack_from("<I", data, 8)
    assert json.loads(data[12 : 12 + hlen])["sections"][0]["lengths"] == "u8"
    assert read_vocab(data).ranks == ranks


def test_text_sections_round_trip():
    items = ["a b", "", "\n", "\ud800", "日本"]
    f = read_vocab_file(write_vocab_file({"s": items, "n": [1, 2**32 - 1]}, kind="x", meta={"k": [1]}))
    assert f.kind == "x" and f.sections["s"] == items and list(f.sections["n"]) == [1, 2**32 - 1]
    assert f.meta == {"k": [1]}
    with pytest.raises(ValueError, match="not 'ranks'"):
        read_vocab_file(write_vocab_file({}, kind="x"), kind="ranks")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"IQ== 0\n", "not a .bpv"),
        (dump_vocab({b"a": 0, b"b": 1})[:-1], "truncated"),
        (b"BPVOCAB1" + struct.pack("<IIII", 1, 0, 0, 1) + b"\x01a", "version"),  # the format before version 2
        (b"BPVOCAB\x02" + dump_vocab({b"a": 0})[8:], "rebuild the file"),  # before added-token columns (3)
        (_file({"kind": "ranks", "sections": [_tokens(2, 3, sep="2c")], "meta": {}}, b"a,a"), "repeated tokens"),
        (_file({"kind": "ranks", "sections": [_tokens(2, 3, sep="2c")], "meta": {}}, b"a,b" + b"x"), "promises"),
        (_file({"kind": "ranks", "sections": [_tokens(3, 3, sep="2c")], "meta": {}}, b"a,b"), "promises 3"),
        (_file({"kind": "ranks", "sections": [_tokens(2, 4, lengths="u8")], "meta": {}}, b"\x02\x00ab"), "empty"),
        (_file({"kind": "ranks", "sections": [_tokens(2, 4, lengths="u8")], "meta": {}}, b"\x03\x00ab"), "add up"),
        (
            _file(
                {
                    "kind": "ranks",
                    "sections": [_tokens(2, 3, sep="2c"), {"name": "ids", "type": "u32", "count": 2, "size": 8}],
                    "meta": {},
                },
                b"a,b",
                struct.pack("<II", 5, 5),
            ),
            "repeated ids",
        ),
        (MAGIC + bytes([VERSION]) + struct.pack("<I", 3) + b"{x}", "damaged header"),
    ],
)
def test_bad_files_raise_value_error(data, message):
    with pytest.raises(ValueError, match=message):
        read_vocab(data)


def test_dump_rejects_bad_input():
    with pytest.raises(ValueError, match="empty token"):
        dump_vocab({b"": 0})
    with pytest.raises(TypeError):
        dump_vocab({"a": 0})
    with pytest.raises(ValueError, match="share one id"):
        dump_vocab({b"a": 0, b"b": 0})


def test_registry_reads_the_compact_file_first(tmp_path, monkeypatch):
    # a compact file that differs from the package's rank file proves which one was read
    (tmp_path / "p50k_base.bpv.gz").write_bytes(gzip.compress(dump_vocab({b"!": 0, b'"': 1}), mtime=0))
    (tmp_path / "p50k_base.tiktoken.gz").write_bytes(gzip.compress(b"IQ== 5\n", mtime=0))
    monkeypatch.setenv("BYTEPAIR_DATA_DIR", str(tmp_path))
    assert registry.data_path("p50k_base") == tmp_path / "p50k_base.bpv.gz"
    assert registry.load_ranks("p50k_base") == {b"!": 0, b'"': 1}
    assert load_vocab(tmp_path / "p50k_base.bpv.gz").ranks == {b"!": 0, b'"': 1}


def test_missing_file_names_the_compact_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTEPAIR_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(registry, "DATA_DIR", tmp_path / "pkg")
    assert registry.missing_file("o200k_base") == "o200k_base.bpv.gz"
    assert registry.missing_file("nope") is None


@pytest.mark.parametrize(
    "text",
    [b"IQ== 0\r\nIg== 1\r\n", b"IQ==\t0\nIg== 1", b"IQ== 0\n\nIg== 1\n", b"IQ== 0\nIg== 01\n"],
)
def test_tiktoken_parser_fast_and_careful_paths_agree(text):
    # tiktoken's own loader (tiktoken/load.py) splits each line on whitespace, skips empty lines
    expected = {b"!": 0, b'"': 1}
    assert parse_tiktoken_bpe(text) == expected
    assert parse_tiktoken_bpe(b"IQ== 0\nIg== 1\n") == expected


@pytest.mark.parametrize("text", [b"IQ== 0 Ig==\n1\n", b"IQ== 0\nIQ== 1\n", b"IQ== 0\nIg== 0\n", b"IQ= 0\n"])
def test_tiktoken_parser_still_rejects(text):
    with pytest.raises(ValueError, match="line"):
        parse_tiktoken_bpe(text)


# --------------------------------------------------------------------------- deflated sections

_SECTIONS = {
    "words": [f"w{i}-{'é' * (i % 5)}" for i in range(300)],
    "blobs": [bytes([i % 256]) * (1 + i % 7) for i in range(200)],
    "nums": list(range(0, 4000, 3)),
    "empty": [],
}


def test_deflated_sections_read_as_the_plain_ones():
    plain = read_vocab_file(write_vocab_file(_SECTIONS, kind="t"))
    cuts = {"words": [10, 500, 501, 100_000], "blobs": (), "nums": [4 * 100, 4 * 1000], "empty": ()}
    data = write_vocab_file(_SECTIONS, kind="t", deflate=cuts)
    got = read_vocab_file(data)
    assert got.sections == plain.sections and got.sections["words"] == _SECTIONS["words"]
    header = json.loads(data[12 : 12 + struct.unpack_from("<I", data, 8)[0]])
    assert all(s["deflate"] for s in header["sections"])


def test_blocks_inflate_only_what_a_slice_reads():
    """Raw deflate blocks as the module docstring lays them out, read lazily."""
    import zlib

    from bytepair.formats.vocab_file import Blocks

    raw = bytes(range(256)) * 40  # 10,240 bytes
    data = write_vocab_file({"b": [raw]}, kind="t", deflate={"b": [1000, 5000]})
    f = read_vocab_file(data, raw=("b",))
    blocks = f.sections["b"]
    assert isinstance(blocks, Blocks) and len(blocks) == len(raw)
    assert blocks.kept_blocks == frozenset()
    assert blocks[1200:4000] == raw[1200:4000] and blocks.kept_blocks == {1}
    assert blocks[990:1010] == raw[990:1010] and blocks.kept_blocks == {1}  # a bulk read keeps nothing
    assert blocks[10:20] == raw[10:20] and blocks.kept_blocks == {0, 1}
    assert blocks[7000:] == raw[7000:] and blocks[5:5] == b"" and blocks.tobytes() == raw
    # the layout, read by hand: block count, raw ends, stored ends, then zlib raw-deflate blocks
    hlen = struct.unpack_from("<I", data, 8)[0]
    sec = data[12 + hlen :]
    n, *ends = struct.unpack_from("<7I", sec)
    assert n == 3 and ends[:3] == [1000, 5000, len(raw)]
    body = sec[4 + 8 * n :]
    assert zlib.decompress(body[ends[3] : ends[4]], -12) == raw[1000:5000]  # 4,000 bytes: a 4 KB window


def test_damaged_deflated_sections_raise_value_error():
    data = bytearray(write_vocab_file({"n": list(range(500))}, kind="t", deflate={"n": [800]}))
    hlen = struct.unpack_from("<I", data, 8)[0]
    at = 12 + hlen
    bad_block = bytearray(data)
    bad_block[at + 4 + 16 + 3] ^= 0xFF  # inside the first compressed block
    bad_table = bytearray(data)
    bad_table[at + 4 + 4] ^= 0x01  # the last block's raw end
    for bad in (bad_block, bad_table):
        with pytest.raises(ValueError):
            read_vocab_file(bytes(bad))
    with pytest.raises(ValueError, match="the file does not have"):
        write_vocab_file({"n": [1]}, kind="t", deflate={"m": ()})
