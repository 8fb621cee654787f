"""The registry of real encodings. Reference values: tiktoken's definitions
(`tiktoken_ext/openai_public.py`, read without downloading) and js-tiktoken's
`dist/ranks/<name>.js` headers."""

from __future__ import annotations

import gzip
import pathlib

import pytest

from bytepair import registry
from bytepair.registry import (
    ENCODING_FILES,
    encoding_info,
    get_encoding,
    list_encoding_names,
    load_ranks,
)
from tests.reference import tiktoken_constructor, tiktoken_encoding

ROOT = pathlib.Path(__file__).resolve().parents[2]
JS_RANKS = ROOT / "node_modules" / "js-tiktoken" / "dist" / "ranks"
NAMES = ["gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base"]


@pytest.fixture(scope="module")
def openai_facts():
    pytest.importorskip("tiktoken_ext.openai_public")
    from tools.make_vocab import openai_public_facts

    return openai_public_facts()


def have_data(name: str) -> bool:
    return (registry.DATA_DIR / ENCODING_FILES[name]).exists()


def test_names_in_contract_order():
    assert list_encoding_names() == NAMES
    assert set(ENCODING_FILES) == set(NAMES)
    assert ENCODING_FILES["gpt2"] == ENCODING_FILES["r50k_base"] == "r50k_base.tiktoken.gz"


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_and_pattern_equal_tiktoken(name, openai_facts):
    info = encoding_info(name)
    assert info["special_tokens"] == openai_facts[name]["special_tokens"]
    assert info["pattern"] == openai_facts[name]["pat_str"]
    if openai_facts[name]["explicit_n_vocab"] is not None:
        assert info["n_vocab"] == openai_facts[name]["explicit_n_vocab"]


@pytest.mark.parametrize("name", NAMES)
def test_facts_equal_js_tiktoken(name):
    js = JS_RANKS / f"{name}.js"
    if not js.exists():
        pytest.skip("node_modules/js-tiktoken not installed (run npm ci)")
    from tools.make_vocab import read_js_ranks_module

    module = read_js_ranks_module(js)
    info = encoding_info(name)
    assert info["special_tokens"] == module["special_tokens"]
    if "explicit_n_vocab" in module:
        assert info["n_vocab"] == module["explicit_n_vocab"]


@pytest.mark.parametrize("name", NAMES)
def test_ranks_sizes_and_n_vocab(name):
    pytest.importorskip("tiktoken")
    if not have_data(name):
        pytest.skip("rank files not present")
    info = encoding_info(name)
    ranks = load_ranks(name)
    assert len(ranks) == info["n_ranks"]
    enc = tiktoken_encoding(name, ranks)  # tiktoken's own constructor (pattern, specials, explicit_n_vocab)
    assert info["n_vocab"] == enc.n_vocab


def test_cl100k_holes():
    # tiktoken's cl100k_base: ranks 0..100255, specials 100257-100260 and 100276.
    if not have_data("cl100k_base"):
        pytest.skip("rank files not present")
    ids = set(load_ranks("cl100k_base").values()) | set(encoding_info("cl100k_base")["special_tokens"].values())
    assert 100256 not in ids
    assert not ids & set(range(100261, 100276))


def test_gpt2_ranks_are_r50k_ranks():
    if not have_data("gpt2"):
        pytest.skip("rank files not present")
    assert load_ranks("gpt2") == load_ranks("r50k_base")


def test_unknown_name_lists_known_names():
    for bad in ("cl100k", "GPT2", "", 3):
        with pytest.raises(KeyError) as info:
            encoding_info(bad)
        for name in NAMES:
            assert name in str(info.value)
    with pytest.raises(KeyError, match="o200k_base"):
        get_encoding("gpt-4")
    with pytest.raises(KeyError, match="cl100k_base"):
        load_ranks("p50k_edit")


def test_info_and_ranks_are_fresh_copies():
    info = encoding_info("cl100k_base")
    info["special_tokens"]["<|x|>"] = 1
    assert "<|x|>" not in encoding_info("cl100k_base")["special_tokens"]
    if have_data("r50k_base"):
        ranks = load_ranks("r50k_base")
        ranks[b"\x00\x00zz"] = 10**6
        assert b"\x00\x00zz" not in load_ranks("r50k_base")
        # get_encoding's tokenizer shares the cached ranks (share_ranks=True): changing a
        # load_ranks copy or the tokenizer's mergeable_ranks() copy reaches neither
        enc = registry.get_encoding("r50k_base")
        enc.mergeable_ranks()[b"\x00\x00zz"] = 10**6
        assert b"\x00\x00zz" not in load_ranks("r50k_base")
        assert enc.encode_ordinary("\x00\x00zz") == [188, 188, 3019]


def test_from_ranks_copies_unless_shared():
    from bytepair import Tokenizer

    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    copied = Tokenizer.from_ranks(ranks, pattern=None)
    shared = Tokenizer.from_ranks(ranks, pattern=None, share_ranks=True)
    assert copied.encode("abc") == shared.encode("abc") == [256, 99]
    ranks[b"bc"] = 257  # the copy does not see a later change
    assert copied.encode("abc") == [256, 99]


def test_env_dir_is_read_at_call_time_and_searched_first(tmp_path, monkeypatch):
    (tmp_path / "p50k_base.tiktoken.gz").write_bytes(gzip.compress(b"IQ== 0\nIg== 1\n", mtime=0))
    monkeypatch.setenv("BYTEPAIR_DATA_DIR", str(tmp_path))
    assert load_ranks("p50k_base") == {b"!": 0, b'"': 1}
    assert registry.data_path("p50k_base") == tmp_path / "p50k_base.tiktoken.gz"
    # a file missing from the env dir falls back to the package data
    if have_data("r50k_base"):
        assert registry.data_path("r50k_base") == registry.DATA_DIR / "r50k_base.tiktoken.gz"
    monkeypatch.delenv("BYTEPAIR_DATA_DIR")
    if have_data("p50k_base"):
        assert len(load_ranks("p50k_base")) == encoding_info("p50k_base")["n_ranks"]


def test_missing_file_says_which_and_where(tmp_path, monkeypatch):
    env_dir = tmp_path / "env"
    env_dir.mkdir()
    monkeypatch.setenv("BYTEPAIR_DATA_DIR", str(env_dir))
    monkeypatch.setattr(registry, "DATA_DIR", tmp_path / "pkg")
    with pytest.raises(FileNotFoundError) as info:
        load_ranks("o200k_base")
    message = str(info.value)
    assert "o200k_base.tiktoken.gz" in message
    assert str(env_dir) in message and str(tmp_path / "pkg") in message
    assert "BYTEPAIR_DATA_DIR" in message


def test_corrupt_file_names_path_and_line(tmp_path, monkeypatch):
    (tmp_path / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(b"IQ== 0\nIQ== 1\n"))
    monkeypatch.setenv("BYTEPAIR_DATA_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"cl100k_base\.tiktoken\.gz: line 2: duplicate token"):
        load_ranks("cl100k_base")


# -------------------------------------------------------------- get_encoding

SAMPLES = [
    "hello world",
    "Hello, world! 12345 6789",
    "  leading spaces\n\n\ttabs and\r\nnewlines   ",
    "I'm sure they'll say we've done it's job",
    "আমার অর্ডার কোথায়? 你好，世界 😀👍🏽",
    "def f(x):\n    return x ** 2  # comment\n",
]


@pytest.mark.parametrize("name", NAMES)
def test_get_encoding_equals_tiktoken(name):
    pytest.importorskip("tiktoken")
    if not have_data(name):
        pytest.skip("rank files not present")
    ref = tiktoken_encoding(name, load_ranks(name))
    enc = get_encoding(name)
    assert enc is get_encoding(name)  # cached per name
    assert enc.name == name
    assert enc.n_vocab == ref.n_vocab
    assert enc.special_tokens == tiktoken_constructor(name)["special_tokens"]
    for text in SAMPLES:
        assert enc.encode(text) == ref.encode(text), text
    eot = "<|endoftext|>"
    assert enc.encode("a" + eot, allowed_special="all") == ref.encode("a" + eot, allowed_special="all")


@pytest.mark.parametrize("name", NAMES)
def test_get_encoding_basics(name):
    # Runs without tiktoken too (Pyodide): caching, name, size, lossless round trip.
    if not have_data(name):
        pytest.skip("rank files not present")
    enc = get_encoding(name)
    assert enc is get_encoding(name)
    assert enc.name == name
    assert enc.n_vocab == encoding_info(name)["n_vocab"]
    assert dict(enc.special_tokens) == encoding_info(name)["special_tokens"]
    for text in SAMPLES:
        assert enc.decode(enc.encode(text)) == text
