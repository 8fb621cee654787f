"""Streaming piece counts and training from counts equal training on the whole text.

Reference: ``bytepair.train`` / ``train_iter`` on the whole text at once
(minbpe semantics, checked against minbpe-style slow oracles in
``test_train_parity.py``), and a slow oracle here that counts pieces with
``regex.findall`` on the whole text.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bytepair
from bytepair import corpus
from bytepair.errors import BytepairError, TokenizerFileError
from tests.hypothesis_profiles import examples

regex = pytest.importorskip("regex")  # the oracle (tests/reference/corpus_oracle.py); not in Pyodide

from tests.reference.corpus_oracle import AWKWARD, oracle_counts  # noqa: E402


class Trickle(io.RawIOBase):
    """A binary stream that returns at most ``n`` bytes per read (cuts inside UTF-8 characters)."""

    def __init__(self, data: bytes, n: int) -> None:
        self._d, self._n, self._i = data, n, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        out = self._d[self._i : self._i + self._n]
        self._i += len(out)
        return out


PATTERNS = ["cl100k_base", "gpt2", "o200k_base", r"\w+|\s", r"(?i:the)|\w+$|^\s+|\s|[^\w\s]"]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 50, 333])
def test_awkward_cuts_equal_whole_text(pattern, chunk):
    text = AWKWARD * 4
    got = corpus.count_pieces([text], pattern=pattern, chunk_chars=chunk, workers=1)
    want = oracle_counts(text, pattern)
    assert list(got.items()) == list(want.items())


def test_cut_between_cr_and_lf_and_inside_piece():
    # chunk_chars lands exactly between "\r" and "\n", and inside "wordword"
    text = "a" * 9 + "\r\n" + "wordword " * 3 + "  \r\n  x"
    for cut in range(1, len(text)):
        got = corpus.count_pieces([text], pattern="cl100k_base", chunk_chars=cut, workers=1)
        assert list(got.items()) == list(oracle_counts(text, "cl100k_base").items()), cut


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_reads_cut_inside_utf8_characters(n):
    text = "é中😀x" * 50 + "\r\n" * 3
    got = "".join(corpus.read_text([Trickle(text.encode(), n)]))
    assert got == text


def test_long_pieces_past_the_lookahead():
    # a whitespace run and a word longer than LOOKAHEAD_CHARS, cut in the middle
    text = "a " + " " * 10000 + "b" + "x" * 9000 + " end\n"
    for pattern in ("cl100k_base", "gpt2"):
        got = corpus.count_pieces([text], pattern=pattern, chunk_chars=3000, workers=1)
        assert list(got.items()) == list(oracle_counts(text, pattern).items())


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_normalization_and_specials(form):
    specials = ["<|endoftext|>", "<|e|>"]
    text = ("Cafe\u0301 ﬁne ①<|endoftext|>x<|e|>y Ｈｅｌｌｏ\r\n" * 20) + "<|endoftext|>"
    for chunk in (3, 10, 17, 100):
        got = corpus.count_pieces(
            [text], pattern="cl100k_base", special_tokens=specials, normalization=form, chunk_chars=chunk, workers=1
        )
        assert list(got.items()) == list(oracle_counts(text, "cl100k_base", specials, form).items()), chunk


def test_pattern_none_counts_segments():
    text = "ab ab<|x|>cd cd<|x|>ab ab"
    got = corpus.count_pieces([text[:4], text[4:]], pattern="none", special_tokens=["<|x|>"], workers=1)
    assert list(got.items()) == [("ab ab", 2), ("cd cd", 1)]


def test_parallel_workers_equal():
    text = AWKWARD * 40
    got = corpus.count_pieces([text], pattern="cl100k_base", chunk_chars=997, workers=2)
    assert list(got.items()) == list(oracle_counts(text, "cl100k_base").items())


@settings(max_examples=examples(60), deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab AB1 2\r\n\t.'sé中😀\u0301")), min_size=0, max_size=300),
    chunk=st.integers(1, 40),
    pattern=st.sampled_from(PATTERNS),
)
def test_hypothesis_counts(text, chunk, pattern):
    got = corpus.count_pieces([text], pattern=pattern, chunk_chars=chunk, workers=1)
    assert list(got.items()) == list(oracle_counts(text, pattern).items())


@pytest.mark.parametrize("pattern", ["cl100k_base", "none"])
def test_train_from_counts_equals_train(pattern):
    text = AWKWARD * 10
    counts = corpus.count_pieces([text], pattern=pattern, chunk_chars=64, workers=1, special_tokens=["<|endoftext|>"])
    a = corpus.train_from_counts(counts, 400, pattern=pattern, special_tokens=["<|endoftext|>"])
    b = bytepair.train(text, 400, pattern=pattern, special_tokens=["<|endoftext|>"])
    assert list(a.merges.items()) == list(b.merges.items())
    assert a.special_tokens == b.special_tokens


def test_tie_rule_needs_first_appearance_order():
    # "cd" and "ab" both occur twice; "cd" appears first in the text, so it is merged first
    text = "cd ab ab cd"
    counts = corpus.count_pieces([text], pattern=r"\w+", workers=1, chunk_chars=2)
    tok = corpus.train_from_counts(counts, 257, pattern=r"\w+")
    assert list(tok.merges) == [(99, 100)]
    reordered = dict(reversed(list(counts.items())))
    assert list(corpus.train_from_counts(reordered, 257, pattern=r"\w+").merges) == [(97, 98)]


@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_counts_file_round_trip(fmt, tmp_path):
    counts = {"a\tb": 3, "back\\slash": 1, "new\nline\r": 2, " x": 5, "中": 1}
    path = tmp_path / f"c.{fmt}"
    with open(path, "w", encoding="utf-8", newline="") as f:
        corpus.write_counts(counts, f, fmt=fmt)
    assert list(corpus.read_counts(str(path)).items()) == list(counts.items())


def test_counts_file_errors(tmp_path):
    p = tmp_path / "c.tsv"
    p.write_text("3\tab\nx\tcd\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError) as e:
        corpus.read_counts(str(p))
    assert e.value.where == "line 2"
    p.write_text("3\tab\n2\tab\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="twice"):
        corpus.read_counts(str(p))
    j = tmp_path / "c.json"
    j.write_text(json.dumps([["ab", 0]]), encoding="utf-8")
    with pytest.raises(TokenizerFileError):
        corpus.read_counts(str(j))


def test_invalid_utf8_names_file_line_and_offset(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes(b"line one\nline two \xff here\n")
    with pytest.raises(corpus.InputDecodeError) as e:
        list(corpus.read_text([str(p)]))
    assert (e.value.line, e.value.byte_offset) == (2, 18)
    assert "--errors replace" in str(e.value)
    assert "".join(corpus.read_text([str(p)], errors="replace")) == "line one\nline two \ufffd here\n"


FRAGMENTS = [
    "<|e|>",
    "<|endoftext|>",
    "<|",
    "|>",
    "e",
    "\u0301",
    "ﬁ",
    "Ｈ",
    "\r",
    "\n",
    " ",
    "  ",
    "ab",
    "'s",
    "12",
    "中",
    "😀",
    ".",
]


@settings(max_examples=examples(80), deadline=None)
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), max_size=60),
    chunk=st.integers(1, 30),
    form=st.sampled_from([None, "NFC", "NFKC"]),
    pattern=st.sampled_from(["cl100k_base", "o200k_base", r"\w+|\s|[^\w\s]+"]),
)
def test_hypothesis_specials_and_normalization(parts, chunk, form, pattern):
    text = "".join(parts)
    specials = ["<|e|>", "<|endoftext|>"]
    got = corpus.count_pieces(
        [text], pattern=pattern, special_tokens=specials, normalization=form, chunk_chars=chunk, workers=1
    )
    assert list(got.items()) == list(oracle_counts(text, pattern, specials, form).items())


@pytest.mark.parametrize("n", [1, 3, 7])
def test_bytes_cut_anywhere_end_to_end(n):
    """Reads cut inside UTF-8 characters and chunks cut inside pieces, together."""
    text = AWKWARD * 3
    got = corpus.count_pieces(
        corpus.read_text([Trickle(text.encode(), n)]), pattern="cl100k_base", chunk_chars=11, workers=1
    )
    assert list(got.items()) == list(oracle_counts(text, "cl100k_base").items())


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"normalization": "NFX"}, "normalization"),
        ({"name": 5}, "name"),
        ({"pattern": "(unclosed"}, "pattern"),
        ({"min_frequency": 0}, "min_frequency"),
        ({"special_tokens": ["<s>", "<s>"]}, "special_tokens"),
    ],
)
def test_train_from_counts_checks_options_before_learning(options, field):
    # the same checks as bytepair.train (one function), made before any merge is learned:
    # a misspelt normalization or name used to surface only after the whole run
    learned = []
    with pytest.raises(BytepairError) as caught:
        corpus.train_from_counts({"abab": 3, "cdcd": 2}, 300, on_merge=learned.append, **options)
    assert caught.value.field == field
    assert learned == []
    with pytest.raises(BytepairError) as caught_train:
        bytepair.train("abab cdcd", 300, **options)
    assert caught_train.value.field == field
    assert type(caught_train.value) is type(caught.value)
