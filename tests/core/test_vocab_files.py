"""The shipped vocabularies `py/bytepair/data/<name>.tiktoken.gz` are OpenAI's files.

References: the sha256 values tiktoken pins for OpenAI's downloads
(`expected_hash` in `tiktoken_ext/openai_public.py`), tiktoken's own
`Encoding` constructor (which checks `explicit_n_vocab`), and the npm package
js-tiktoken the files were generated from (`tools/make_vocab.py`).
"""

from __future__ import annotations

import gzip
import hashlib
import pathlib

import pytest

from bytepair.formats.tiktoken_file import dump_tiktoken_bpe, parse_tiktoken_bpe
from tests.reference import tiktoken_encoding

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "py" / "bytepair" / "data"
JS_RANKS = ROOT / "node_modules" / "js-tiktoken" / "dist" / "ranks"
FILES = ["r50k_base", "p50k_base", "cl100k_base", "o200k_base"]

_text_cache: dict[str, bytes] = {}


def vocab_text(name: str) -> bytes:
    if name not in _text_cache:
        path = DATA / f"{name}.tiktoken.gz"
        if not path.exists():
            pytest.skip(f"{path} not present (the Pyodide test tree may leave it out)")
        _text_cache[name] = gzip.decompress(path.read_bytes())
    return _text_cache[name]


@pytest.fixture(scope="module")
def openai_facts():
    pytest.importorskip("tiktoken_ext.openai_public")
    from tools.make_vocab import openai_public_facts

    return openai_public_facts()


@pytest.mark.parametrize("name", FILES)
def test_sha256_equals_tiktoken_expected_hash(name, openai_facts):
    expected = openai_facts[name]["expected_hash"]
    assert expected, f"tiktoken pins no hash for {name}"
    assert hashlib.sha256(vocab_text(name)).hexdigest() == expected


@pytest.mark.parametrize("name", FILES)
def test_gzip_is_deterministic(name):
    path = DATA / f"{name}.tiktoken.gz"
    if not path.exists():
        pytest.skip(f"{path} not present")
    header = path.read_bytes()[:10]
    assert header[:3] == b"\x1f\x8b\x08"  # gzip, deflate
    assert header[3] == 0, "no FNAME/FEXTRA/FCOMMENT flags: the file name is not stored"
    assert header[4:8] == b"\x00\x00\x00\x00", "mtime must be 0"


@pytest.mark.parametrize("name", FILES)
def test_round_trip_is_byte_identical(name):
    text = vocab_text(name)
    assert dump_tiktoken_bpe(parse_tiktoken_bpe(text)) == text


@pytest.mark.parametrize("name", FILES)
def test_sizes_as_tiktoken_states(name, openai_facts):
    """tiktoken.Encoding checks len(ranks) + len(specials) == explicit_n_vocab and
    that the largest id is explicit_n_vocab - 1, where tiktoken states it
    (r50k_base, p50k_base). For the others the file must hold ranks 0..n-1 and
    the special tokens sit after them; tiktoken's n_vocab is 1 + the largest id."""
    pytest.importorskip("tiktoken")
    facts = openai_facts[name]
    ranks = parse_tiktoken_bpe(vocab_text(name))
    enc = tiktoken_encoding(name, ranks)  # tiktoken's own constructor (pattern, specials, explicit_n_vocab)
    specials = facts["special_tokens"]
    if facts["explicit_n_vocab"] is not None:
        assert len(ranks) + len(specials) == facts["explicit_n_vocab"]
        assert enc.n_vocab == facts["explicit_n_vocab"]
    else:
        assert sorted(ranks.values()) == list(range(len(ranks)))
        assert min(specials.values()) >= len(ranks)
        assert enc.n_vocab == max(specials.values()) + 1


def test_gpt2_and_r50k_share_ranks(openai_facts):
    # tiktoken defines both with the same pattern, specials and explicit_n_vocab;
    # the registry reads gpt2 from r50k_base's file.
    for key in ("pat_str", "special_tokens", "explicit_n_vocab"):
        assert openai_facts["gpt2"][key] == openai_facts["r50k_base"][key]


@pytest.mark.parametrize("name", FILES)
def test_file_matches_js_tiktoken(name):
    js = JS_RANKS / f"{name}.js"
    if not js.exists():
        pytest.skip("node_modules/js-tiktoken not installed (run npm ci)")
    from tools.make_vocab import expand_bpe_ranks, read_js_ranks_module

    assert expand_bpe_ranks(read_js_ranks_module(js)["bpe_ranks"]) == parse_tiktoken_bpe(vocab_text(name))
