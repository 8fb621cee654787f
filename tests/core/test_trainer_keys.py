"""The trainer's pair ids: the pair of bytes ``(x, y)`` is ``1 + 256 * x + y``.

The trainer used to number pairs through a dict of packed keys
``left << shift | right``; on 32-bit Pyodide an int hashes to itself modulo
``2**31 - 1``, so a fixed ``shift = 32`` made thousands of keys share a hash
(this file then checked the key layout against that). Now no pair key is hashed:
the initial pairs index a table of ``BYTE_PAIRS`` (65,536) slots, and pairs
made by merges get ids after it in the order they appear. A wrong slot (a
swapped or shifted byte, the table's first or last slot) would pair the wrong
tokens or merge the wrong counts, so these tests train on texts whose pairs
cover the table's corners and spread over its slots, and compare every merge
with the slow minbpe oracle (``tests/reference/slow_bpe.py``).
"""

from __future__ import annotations

import random
import re

import pytest

import bytepair
from bytepair.trainer import BYTE_PAIRS
from tests.reference.slow_bpe import slow_train_steps


def _steps(events) -> list[tuple]:
    return [(e.pair, e.id, e.token, e.count, e.n_tokens) for e in events]


def _oracle(text: str, n_merges: int, **kw) -> list[tuple]:
    return [(s.pair, s.new_id, s.token, s.count, s.n_tokens) for s in slow_train_steps(text, n_merges, **kw)]


def test_the_table_holds_every_pair_of_bytes():
    assert BYTE_PAIRS == 256 * 256


#: Characters whose UTF-8 bytes reach the table's ends and the boundaries of
#: its rows: NUL (slot 1 with itself), DEL, U+0080 (C2 80), U+07FF (DF BF),
#: U+0800 (E0 A0 80), U+FFFF (EF BF BF), U+10000 (F0 90 80 80) and U+10FFFF
#: (F4 8F BF BF: 0xF4 is the largest byte UTF-8 uses).
CORNERS = "\x00\x7f\x80\u07ff\u0800\uffff\U00010000\U0010ffff a"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_corner_bytes_train_like_the_oracle(seed):
    rng = random.Random(seed)
    text = "".join(rng.choice(CORNERS) for _ in range(3000))
    want = _oracle(text, 200)
    assert len(want) == 200
    assert _steps(bytepair.train_iter(text, 256 + 200, pattern="none")) == want


@pytest.mark.parametrize("seed", [0, 1])
def test_pairs_spread_over_the_table_train_like_the_oracle(seed):
    """Characters from every UTF-8 length: thousands of distinct byte pairs in
    many rows of the table; with a pattern, repeated pieces are counted with
    their weights."""
    rng = random.Random(seed)
    ranges = [(0x20, 0x7E), (0xA0, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF)]
    alphabet = [chr(rng.randint(*r)) for r in ranges for _ in range(12)]
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(300)]
    text = " ".join(rng.choice(words) for _ in range(2500))
    for pattern, split in (("none", None), (r" ?\S+|\s+", re.compile(r" ?\S+|\s+").findall)):
        want = _oracle(text, 150, split=split)
        assert len(want) == 150
        assert _steps(bytepair.train_iter(text, 256 + 150, pattern=pattern)) == want, pattern


def test_special_tokens_are_cut_out_before_the_table_is_filled():
    text = "\x00\x00<|end|>\x00\U0010ffff<|end|>\U0010ffff\U0010ffff\x00\x00"
    want = _oracle(text, 20, special_tokens=["<|end|>"])
    got = _steps(bytepair.train_iter(text, 256 + 20 + 1, pattern="none", special_tokens=["<|end|>"]))
    assert got == want
    tok = bytepair.train(text, 256 + 20 + 1, pattern="none", special_tokens=["<|end|>"])
    assert tok.encode("<|end|>", allowed_special="all") == [256 + len(want)]
