"""bytepair.teach.align: boundaries of several tokenizations, checked against a brute force
that works from the tokens' bytes (not from their spans)."""

from __future__ import annotations

import json

import pytest

import bytepair
from bytepair.errors import ArgumentError
from bytepair.teach.align import compare_segmentations, cuts
from tests import corpora


def brute_cuts(text: str, ids: list[int], tok, units: str) -> tuple[set[int], dict[int, int]]:
    """Cut positions from the token bytes: a cut at a byte offset that starts a
    character is a boundary (at that character's offset in ``units``); any
    other cut is inside the character holding that byte."""
    data = text.encode("utf-8")
    # owner[b] = (offset in units of the character holding byte b, is b its first byte)
    owner = []
    pos = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        owner += [(pos, k == 0) for k in range(n)]
        pos += 2 if (units == "utf16" and ord(ch) > 0xFFFF) else 1
    assert len(owner) == len(data)
    boundaries: set[int] = set()
    inside: dict[int, int] = {}
    off = 0
    for t in ids[:-1]:
        off += len(tok.decode_single_token_bytes(t))
        where, first = owner[off]
        if first:
            boundaries.add(where)
        else:
            inside[where] = inside.get(where, 0) + 1
    return boundaries, inside


def _tokenizers():
    trained = bytepair.train(
        corpora.TEXT_CASES["cjk"] * 3 + corpora.TEXT_CASES["emoji-zwj"] * 3 + "hello world " * 20, 320
    )
    return [bytepair.get_encoding(n) for n in ("gpt2", "cl100k_base", "o200k_base")] + [trained]


TEXTS = [
    "strawberry 12345 naïve",
    corpora.TEXT_CASES["emoji-zwj"],
    corpora.TEXT_CASES["cjk"],
    corpora.TEXT_CASES["astral"],
    corpora.TEXT_CASES["combining"],
    corpora.WHITESPACE_CASES["ws-tabs-code"],
    "",
]


@pytest.mark.parametrize("units", ["chars", "utf16"])
@pytest.mark.parametrize("text", TEXTS, ids=[f"t{i}" for i in range(len(TEXTS))])
def test_against_brute_force(text, units):
    toks = _tokenizers()
    rows = [t.encode_with_spans(text, units=units) for t in toks]
    c = compare_segmentations(text, rows, units=units)
    brute = [brute_cuts(text, t.encode_ordinary(text), t, units) for t in toks]
    for r, (b, ins) in zip(c.rows, brute):
        assert set(r.boundaries) == b and list(r.boundaries) == sorted(b)
        assert dict(r.inside) == ins
    union = set().union(*(b for b, _ in brute))
    assert set(c.boundaries) == union
    assert set(c.shared) == set.intersection(*(b for b, _ in brute))
    assert set(c.differ) == union - set(c.shared)
    for i, (b, _) in enumerate(brute):
        others = set().union(*(bb for j, (bb, _) in enumerate(brute) if j != i))
        assert set(c.rows[i].unique) == b - others
    for p, at in zip(c.boundaries, c.rows_at):
        assert list(at) == [i for i, (b, _) in enumerate(brute) if p in b]
    keys = set().union(*(ins for _, ins in brute))
    assert set(c.inside_differ) == {k for k in keys if len({ins.get(k, 0) for _, ins in brute}) > 1}
    n_bytes = len(text.encode("utf-8"))
    for r, t in zip(c.rows, toks):
        n = len(t.encode_ordinary(text))
        assert r.count == n and r.n_bytes == n_bytes
        assert r.delta == n - len(toks[0].encode_ordinary(text))
        assert r.bytes_per_token == (n_bytes / n if n else 0.0)
    assert c.length == (len(text) if units == "chars" else len(text.encode("utf-16-le")) // 2)
    json.dumps(c.to_dict())


def test_two_rows_differ_is_symmetric_difference_on_udhr():
    text = corpora.udhr(["eng"])[0].text()[:4000]
    a, b = bytepair.get_encoding("gpt2"), bytepair.get_encoding("o200k_base")
    c = compare_segmentations(text, [a.encode_with_spans(text), b.encode_with_spans(text)], names=["gpt2", "o200k"])
    ba, _ = brute_cuts(text, a.encode_ordinary(text), a, "chars")
    bb, _ = brute_cuts(text, b.encode_ordinary(text), b, "chars")
    assert set(c.differ) == ba ^ bb
    assert [r.name for r in c.rows] == ["gpt2", "o200k"]


def test_plain_pairs_and_errors():
    assert cuts([(0, 2), (2, 4), (4, 4)], length=4) == ([2], {})
    # a character split in three: two cuts inside it
    assert cuts([(0, 1), (0, 1), (0, 1)], length=1) == ([], {0: 2})
    c = compare_segmentations("abcd", [[(0, 2), (2, 4)], [(0, 1), (1, 4)]])
    assert c.differ == (1, 2) and c.rows[1].delta == 0 and c.rows[0].n_bytes == 4
    with pytest.raises(ArgumentError):
        compare_segmentations("ab", [])
    with pytest.raises(ArgumentError):
        compare_segmentations("ab", [[(0, 3)]])
    with pytest.raises(ArgumentError):
        compare_segmentations("ab", [[(1, 2), (0, 1)]])
    with pytest.raises(ArgumentError):
        compare_segmentations("ab", [[(0, 2)]], names=["a", "b"])
    with pytest.raises(ArgumentError):
        compare_segmentations("ab", [[(0, 2)]], units="bytes")
