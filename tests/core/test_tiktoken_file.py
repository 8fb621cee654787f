"""`.tiktoken` rank files: parsing, validation with line numbers, writing.

References: tiktoken's own reader (`tiktoken.load.load_tiktoken_bpe`) for
round trips; OpenAI's real files are checked in test_vocab_files.py.
"""

from __future__ import annotations

import base64
import gzip
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bytepair.formats.tiktoken_file import dump_tiktoken_bpe, load_tiktoken_bpe, parse_tiktoken_bpe, read_tiktoken_bytes
from tests.hypothesis_profiles import examples

# The first lines of OpenAI's cl100k_base.tiktoken: b"!" rank 0, b'"' rank 1, b"#" rank 2.
GOOD = b"IQ== 0\nIg== 1\nIw== 2\n"


def test_parse_known_lines():
    assert parse_tiktoken_bpe(GOOD) == {b"!": 0, b'"': 1, b"#": 2}


def test_parse_skips_empty_lines_and_accepts_crlf():
    assert parse_tiktoken_bpe(b"\nIQ== 0\r\nIg== 1\n\n") == {b"!": 0, b'"': 1}


def test_parse_empty_file():
    assert parse_tiktoken_bpe(b"") == {}


MALFORMED = [
    # (id, data, line number, words the message must contain)
    ("one-field", b"IQ== 0\nIg==\n", 2, "2 fields"),
    ("three-fields", b"IQ== 0\nIg== 1\nIw== 2 3\n", 3, "2 fields"),
    ("bad-base64-char", b"IQ== 0\nI@== 1\n", 2, "not valid base64"),
    ("bad-base64-padding", b"IQ 0\n", 1, "not valid base64"),
    ("rank-not-int", b"IQ== 0\nIg== one\n", 2, "not an integer"),
    ("rank-float", b"IQ== 0.5\n", 1, "not an integer"),
    ("rank-negative", b"IQ== 0\nIg== -7\n", 2, "negative"),
    ("duplicate-token", b"IQ== 0\nIg== 1\nIQ== 2\n", 3, "duplicate token"),
    ("duplicate-rank", b"IQ== 0\nIg== 1\nIw== 1\n", 3, "duplicate rank"),
    ("error-after-blank-line", b"IQ== 0\n\nIg== x\n", 3, "not an integer"),
]


@pytest.mark.parametrize("data,lineno,words", [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_parse_malformed_names_line(data, lineno, words):
    with pytest.raises(ValueError) as info:
        parse_tiktoken_bpe(data)
    message = str(info.value)
    assert re.match(rf"line {lineno}:", message), message
    assert words in message


def test_duplicate_names_first_line():
    with pytest.raises(ValueError, match=r"line 3: duplicate rank 1, first used on line 2"):
        parse_tiktoken_bpe(b"IQ== 0\nIg== 1\nIw== 1\n")
    with pytest.raises(ValueError, match=r"first seen on line 1"):
        parse_tiktoken_bpe(b"IQ== 0\nIg== 1\nIQ== 2\n")


def test_parse_rejects_str():
    with pytest.raises(TypeError, match="bytes"):
        parse_tiktoken_bpe(GOOD.decode())


def test_dump_sorted_by_rank():
    assert dump_tiktoken_bpe({b"#": 2, b"!": 0, b'"': 1}) == GOOD


@pytest.mark.parametrize(
    "ranks,error",
    [
        ({b"a": -1}, ValueError),
        ({b"a": 1, b"b": 1}, ValueError),
        ({b"": 0}, ValueError),
        ({"a": 0}, TypeError),
        ({b"a": 1.0}, TypeError),
        ({b"a": True}, TypeError),
    ],
    ids=["negative-rank", "duplicate-rank", "empty-token", "str-token", "float-rank", "bool-rank"],
)
def test_dump_rejects(ranks, error):
    with pytest.raises(error):
        dump_tiktoken_bpe(ranks)


rank_tables = st.dictionaries(
    st.binary(min_size=1, max_size=12),
    st.integers(min_value=0, max_value=10**6),
    max_size=40,
).filter(lambda d: len(set(d.values())) == len(d))


@settings(max_examples=examples(200), deadline=None)
@given(rank_tables)
def test_round_trip(ranks):
    text = dump_tiktoken_bpe(ranks)
    assert parse_tiktoken_bpe(text) == ranks
    assert dump_tiktoken_bpe(parse_tiktoken_bpe(text)) == text


@settings(max_examples=examples(50), deadline=None)
@given(rank_tables)
def test_tiktoken_reads_our_output(tmp_path_factory, ranks):
    tiktoken_load = pytest.importorskip("tiktoken.load")
    path = tmp_path_factory.mktemp("tk") / "x.tiktoken"
    path.write_bytes(dump_tiktoken_bpe(ranks))
    # A local path is read directly; an empty cache dir disables tiktoken's cache.
    import os

    saved = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    try:
        assert tiktoken_load.load_tiktoken_bpe(str(path)) == ranks
    finally:
        if saved is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = saved


def test_base64_is_standard_alphabet():
    # Tokens with bytes that give '+' and '/' in standard base64 (not '-' and '_').
    ranks = {b"\xfb\xff": 0, b"\xff\xfe": 1}
    text = dump_tiktoken_bpe(ranks)
    assert text == base64.b64encode(b"\xfb\xff") + b" 0\n" + base64.b64encode(b"\xff\xfe") + b" 1\n"
    assert b"+" in text and b"/" in text
    assert parse_tiktoken_bpe(text) == ranks


def test_load_plain_and_gzip(tmp_path):
    plain = tmp_path / "a.tiktoken"
    plain.write_bytes(GOOD)
    gz = tmp_path / "a.tiktoken.gz"
    gz.write_bytes(gzip.compress(GOOD, mtime=0))
    expected = {b"!": 0, b'"': 1, b"#": 2}
    assert load_tiktoken_bpe(plain) == expected
    assert load_tiktoken_bpe(str(gz)) == expected
    assert read_tiktoken_bytes(gz) == GOOD


def test_load_error_names_path_and_line(tmp_path):
    bad = tmp_path / "bad.tiktoken.gz"
    bad.write_bytes(gzip.compress(b"IQ== 0\nIg== 0\n"))
    with pytest.raises(ValueError, match=r"bad\.tiktoken\.gz: line 2: duplicate rank 0"):
        load_tiktoken_bpe(bad)


def test_load_corrupt_gzip(tmp_path):
    bad = tmp_path / "c.tiktoken.gz"
    bad.write_bytes(gzip.compress(GOOD)[:-6])
    with pytest.raises(ValueError, match="gzip"):
        load_tiktoken_bpe(bad)


def test_load_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_tiktoken_bpe(tmp_path / "nope.tiktoken")
