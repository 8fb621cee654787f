"""``Tokenizer.count_ordinary`` (the page's count: no list of ids) and ``models.count_tokens``.

Reference: tiktoken's ``encode_ordinary`` (built offline from the same ranks) for the real
encodings; for a trained tokenizer, the slow minbpe-style oracle in ``tests/reference``.
"""

from __future__ import annotations

import pytest

import bytepair
from bytepair import registry
from bytepair.app import models
from tests import corpora
from tests.reference import tiktoken_encoding

TEXTS = {
    "english": "The LORD's house, I'LL go; he'd we've they're. 1:1 In the beginning (2024)\n\n",
    "mixed": "Всеобщая декларация 人人生而自由 मनुष्य 👩\u200d💻 e\u0301 ,The",
    "long-piece": "x" * 300 + " " + "9" * 50 + " " + "é" * 200,  # pieces over the cache's 128 characters
    "specials-as-text": "a<|endoftext|>b <|fim_prefix|>",
    "lone-surrogate": "a\ud800b \udc00",
    "empty": "",
}


@pytest.fixture(scope="module", params=["cl100k_base", "o200k_base"])
def pair(request):
    pytest.importorskip("tiktoken")
    name = request.param
    return bytepair.get_encoding(name), tiktoken_encoding(name, registry.load_ranks(name))


@pytest.mark.parametrize("key", list(TEXTS))
def test_count_ordinary_equals_tiktoken(pair, key):
    ours, ref = pair
    text = TEXTS[key]
    want = len(ref.encode_ordinary(text))  # tiktoken reads a lone surrogate as U+FFFD, as we do
    # cold (a new tokenizer: piece cache empty) and warm (every piece cached)
    cold = bytepair.Tokenizer.from_ranks(
        registry.load_ranks(ours.name), pattern=ours.pattern, special_tokens=ours.special_tokens, name=ours.name
    )
    assert cold.count_ordinary(text) == want
    assert cold.count_ordinary(text) == want
    assert models.count_tokens(ours, text) == want


def test_count_ordinary_udhr(pair):
    ours, ref = pair
    text = corpora.udhr_mix(chars_each=5000)
    assert ours.count_ordinary(text) == len(ref.encode_ordinary(text))


def test_count_ordinary_trained():
    from tests.reference.slow_bpe import slow_encode_merges

    text = "low lower lowest newer wider " * 20 + corpora.udhr_mix(chars_each=500)
    tok = bytepair.train(text, 300, pattern="gpt2")
    probe = "the lowest newer 人人 x" + "y" * 200
    want = len(slow_encode_merges([p.encode("utf-8") for p in _pieces(probe)], tok.merges))
    assert tok.count_ordinary(probe) == want == models.count_tokens(tok, probe)


def _pieces(text):
    from bytepair.split.patterns import GPT2_PATTERN
    from bytepair.split.pretokenize import compile_pattern

    return compile_pattern(GPT2_PATTERN).findall(text)


def test_count_ordinary_type_error():
    with pytest.raises(TypeError, match="text must be a str"):
        bytepair.get_encoding("cl100k_base").count_ordinary(b"bytes")
