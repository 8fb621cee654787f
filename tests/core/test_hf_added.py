"""Added tokens stored as columns in compact files (``bytepair.hf.added``).

Reference: Hugging Face ``tokenizers`` on the same ``tokenizer.json`` (its added tokens and
ids); a list the columns cannot give back exactly stays JSON in the file.
"""

from __future__ import annotations

import json

import pytest

import bytepair
from bytepair.formats.vocab_file import read_vocab_file
from bytepair.hf import added as hf_added
from bytepair.hf.compact import from_compact, to_compact

tokenizers = pytest.importorskip("tokenizers")


def _added(i: int, content: str, **flags) -> dict:
    d = {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False}
    d |= {"normalized": False, "special": True} | flags
    return d


def _tokenizer_json(added: list) -> str:
    vocab = {c: i for i, c in enumerate(["a", "b", "c", "ab", "abc", " ", "<x>"])}
    return json.dumps(
        {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": added,
            "normalizer": {"type": "Lowercase"},
            "pre_tokenizer": {"type": "WhitespaceSplit"},
            "post_processor": None,
            "decoder": None,
            "model": {"type": "BPE", "vocab": vocab, "merges": ["a b", "ab c"]},
        }
    )


ADDED = [
    _added(7, "<s>"),
    _added(8, "\n\n", special=False, lstrip=True, rstrip=True),  # the text separator's own character
    _added(9, "Hey", special=False, normalized=True, single_word=True),
    _added(6, "<x>"),  # a vocabulary token: its id stays 6
    _added(10, "<s>"),  # the same content again: tokenizers keeps the first id
]
TEXTS = ["abc <s> hey HEY ab\n\nc <x>", "<s><s>hey abc", "", "heyabc Hey"]


@pytest.mark.parametrize("cut", [1, 3, len(ADDED)])
def test_columns_give_tokenizers_added_tokens_and_ids(cut):
    s = _tokenizer_json(ADDED[:cut])
    ref = tokenizers.Tokenizer.from_str(s)
    blob = to_compact(bytepair.from_tokenizer_json(s))
    f = read_vocab_file(blob, kind="hf")
    assert "added_tokens" not in f.meta["data"] and f.sections["added_content"] == [d["content"] for d in ADDED[:cut]]
    tok = from_compact(blob)
    for text in TEXTS:
        assert tok.encode(text) == ref.encode(text).ids
    want = ref.get_added_tokens_decoder()
    assert {t["id"]: (t["content"], t["special"], t["normalized"]) for t in tok.added_tokens} == {
        i: (t.content, t.special, t.normalized) for i, t in want.items()
    }
    assert to_compact(tok) == blob  # the columns are written again as they were read


@pytest.mark.parametrize(
    "added",
    [
        [{"id": 7, "content": "<s>", "special": True}],  # fields left out (tokenizers' defaults apply)
        [_added(7, "<s>") | {"extra": 1}],  # a field columns do not hold
        [_added(7, "<s>", special=1)],  # a flag that is not a bool
    ],
)
def test_lists_columns_cannot_give_back_stay_json(added):
    assert hf_added.to_columns(added) is None
    s = _tokenizer_json(added)
    blob = to_compact(bytepair.from_tokenizer_json(s))
    f = read_vocab_file(blob, kind="hf")
    assert f.meta["data"]["added_tokens"] == added and "added_content" not in f.sections
    ref = bytepair.from_tokenizer_json(s)  # the JSON path (tokenizers refuses some of these lists)
    tok = from_compact(blob)
    assert tok.added_tokens == ref.added_tokens
    for text in TEXTS:
        assert tok.encode(text) == ref.encode(text)


def test_the_configs_decoder_is_stored_only_when_it_is_the_columns_again():
    s = _tokenizer_json(ADDED[:2])
    same = {"bos_token": "<s>", "added_tokens_decoder": hf_added.decoder(*hf_added.to_columns(ADDED[:2]).values())}
    other = {"bos_token": "<s>", "added_tokens_decoder": {"7": {"content": "<t>", "special": True}}}
    for config, stored in ((same, False), (other, True)):
        blob = to_compact(bytepair.from_tokenizer_json(s, config=json.dumps(config)))
        meta = read_vocab_file(blob, kind="hf").meta
        assert ("added_tokens_decoder" in meta["config"]) is stored
        assert from_compact(blob).config == config
