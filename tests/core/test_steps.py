"""Byte-level step-through (bytepair.teach.steps) vs bytepair.train_iter and a slow oracle.

* ``train_iter`` (the fast trainer, itself checked against the minbpe oracle in
  test_train_parity.py) must learn the same merges in the same order: pair ids,
  new id, count, token bytes and tokens after each merge.
* The oracle below recomputes every step from the definition, on every piece
  occurrence of the text (no de-duplication): pairs counted with their first
  position ``(piece index, index)``, the table sorted by ``(-count, first
  position)``, merges replaced left to right by an explicit scan. Values the
  module shows (displayed tokens, tables, ties, segmentation, merged positions,
  vocabulary, lengths) must equal the oracle's.
* Hand-checked cases from the definition and UTF-8 (``é`` is ``c3 a9``).

The pre-tokenizer is bytepair's own ``compile_pattern`` in both (its split is
checked against ``regex``/tiktoken in test_patterns.py); stdlib only, so these
tests run inside Pyodide too.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import bytepair
from bytepair.split.pretokenize import compile_pattern, resolve_pattern
from bytepair.teach import steps as steps_mod
from bytepair.teach.steps import byte_initial_state, byte_steps
from tests.hypothesis_profiles import examples

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

SAMPLE = (
    "Byte pair encoding (BPE) is a simple form of data compression in which the most common pair "
    "of consecutive bytes of data is replaced with a byte that does not occur within that data.\n"
    "The the THE they're we'll 2016 2016 2016 -- café café naïve 日本語 🙂🙂 \t\n\n  end"
)


# ---------------------------------------------------------------- the oracle


def oracle_pieces(text, pattern):
    regex = resolve_pattern(pattern)
    pieces = compile_pattern(regex).findall(text) if regex is not None else [text]
    return [p.encode("utf-8") for p in pieces if p]


def oracle_steps(text, n_merges, pattern, max_rows):
    seqs = [list(p) for p in oracle_pieces(text, pattern)]
    token = {i: bytes([i]) for i in range(256)}
    show = bytepair.token_to_display
    out = []
    for k in range(n_merges):
        counts, first = {}, {}
        for pi, seq in enumerate(seqs):
            for i in range(len(seq) - 1):
                pair = (seq[i], seq[i + 1])
                counts[pair] = counts.get(pair, 0) + 1
                if pair not in first:
                    first[pair] = (pi, i)
        if not counts:
            break
        table = sorted(counts, key=lambda p: (-counts[p], first[p]))
        best = table[0]
        ties = [p for p in table[1:] if counts[p] == counts[best]]
        new = 256 + k
        token[new] = token[best[0]] + token[best[1]]
        changed = []
        for pi, seq in enumerate(seqs):
            # merged here, not with bytepair.teach.textbook._merge: the oracle stays independent
            merged, positions, i = [], [], 0
            while i < len(seq):
                if seq[i : i + 2] == list(best):
                    positions.append(len(merged))
                    merged.append(new)
                    i += 2
                else:
                    merged.append(seq[i])
                    i += 1
            seqs[pi] = merged
            if positions:
                changed.append({"piece_index": pi, "positions": positions})
        out.append(
            {
                "index": k,
                "id": new,
                "pair": [show(token[best[0]]), show(token[best[1]])],
                "pair_ids": list(best),
                "merged": show(token[new]),
                "count": counts[best],
                "ties": [[show(token[x]), show(token[y])] for x, y in ties[:max_rows]],
                "n_ties": len(ties),
                "pair_counts": [
                    {
                        "pair": [show(token[x]), show(token[y])],
                        "ids": [x, y],
                        "count": counts[(x, y)],
                        "tie": (x, y) in ties,
                    }
                    for x, y in table[:max_rows]
                ],
                "n_pairs": len(table),
                "segmentation": [[show(token[t]) for t in seq] for seq in seqs],
                "changed_pieces": changed,
                "vocab": [show(token[i]) for i in range(256, new + 1)],
                "n_vocab": new + 1,
                "n_symbols": sum(len(seq) for seq in seqs),
                "n_bytes": len(text.encode("utf-8")),
            }
        )
    return out


# ---------------------------------------------------------------- hand-checked


def test_hand_checked_aaab():
    first, second, third = byte_steps("aaab", 5, pattern="none")
    # a a a b: (a, a) occurs twice (overlapping), merged left to right -> aa a b
    assert (first["pair"], first["count"], first["ties"], first["merged"]) == (["a", "a"], 2, [], "aa")
    assert first["pair_counts"] == [
        {"pair": ["a", "a"], "ids": [97, 97], "count": 2, "tie": False},
        {"pair": ["a", "b"], "ids": [97, 98], "count": 1, "tie": False},
    ]
    assert first["segmentation"] == [["aa", "a", "b"]] and first["n_symbols"] == 3
    assert first["changed_pieces"] == [{"piece_index": 0, "positions": [0]}]
    # aa a b: (aa, a) and (a, b) both once; (aa, a) occurs first
    assert (second["pair"], second["pair_ids"], second["count"]) == (["aa", "a"], [256, 97], 1)
    assert second["ties"] == [["a", "b"]] and second["n_ties"] == 1
    assert [r["tie"] for r in second["pair_counts"]] == [False, True]
    assert (third["merged"], third["segmentation"], third["n_symbols"]) == ("aaab", [["aaab"]], 1)
    assert third["vocab"] == ["aa", "aaa", "aaab"] and third["n_vocab"] == 259


def test_fragments_of_characters_are_shown_as_hex():
    first = byte_steps("ééé", 1, pattern="none")[0]
    # é = c3 a9: the pairs are (c3, a9) x3 and (a9, c3) x2
    assert (first["pair"], first["pair_ids"], first["count"]) == (["<c3>", "<a9>"], [0xC3, 0xA9], 3)
    assert first["merged"] == "é"
    assert first["pair_counts"][1] == {"pair": ["<a9>", "<c3>"], "ids": [0xA9, 0xC3], "count": 2, "tie": False}
    assert first["segmentation"] == [["é", "é", "é"]]
    assert byte_initial_state("é", pattern="none")["segmentation"] == [["<c3>", "<a9>"]]


def test_pieces_keep_merges_inside_words():
    # gpt2 splits "ab ab" into "ab", " ab": the pair (b, " ") is never counted
    first = byte_steps("ab ab", 3, pattern="gpt2")[0]
    assert ["b", " "] not in [r["pair"] for r in first["pair_counts"]]
    assert (first["pair"], first["count"]) == (["a", "b"], 2)
    assert first["segmentation"] == [["ab"], [" ", "ab"]]
    assert first["changed_pieces"] == [{"piece_index": 0, "positions": [0]}, {"piece_index": 1, "positions": [1]}]


def test_oracle_agrees_with_hand_checked_case():
    # the oracle must itself know the hand-checked answer, or it proves nothing
    assert oracle_steps("aaab", 5, "none", 50) == byte_steps("aaab", 5, pattern="none")
    assert [s["pair"] for s in oracle_steps("aaab", 5, "none", 50)] == [["a", "a"], ["aa", "a"], ["aaa", "b"]]


# ---------------------------------------------------------------- vs train_iter and the oracle


def assert_same_merges_as_trainer(text, pattern, n_merges):
    got = byte_steps(text, n_merges, pattern=pattern)
    events = list(bytepair.train_iter(text, 256 + n_merges, pattern=pattern))
    assert len(got) == len(events)
    assert [(s["id"], tuple(s["pair_ids"]), s["count"], s["n_symbols"]) for s in got] == [
        (e.id, e.pair, e.count, e.n_tokens) for e in events
    ]
    assert [s["merged"] for s in got] == [bytepair.token_to_display(e.token) for e in events]
    assert all(s["n_bytes"] == e.n_bytes for s, e in zip(got, events))
    return got


@pytest.mark.parametrize("pattern", ["none", "gpt2", "cl100k_base", "o200k_base", r"[a-z]+|[^a-z]"])
def test_same_merges_as_train_iter(pattern):
    assert_same_merges_as_trainer(SAMPLE, pattern, 200)


def _random_words(n_bytes: int, seed: int = 4) -> str:
    """Seeded pseudo-random words, at most ``n_bytes`` of UTF-8 (many distinct pieces)."""
    rng = random.Random(seed)
    text, size = [], -1
    while True:
        word = "".join(rng.choice("etaoinshrdlucmfé") for _ in range(rng.randint(1, 9)))
        if size + 1 + len(word.encode("utf-8")) > n_bytes:
            return " ".join(text)
        text.append(word)
        size += 1 + len(word.encode("utf-8"))


@pytest.mark.parametrize("pattern", ["gpt2", "none"])
def test_same_merges_as_train_iter_at_the_limits(pattern):
    text = _random_words(steps_mod.MAX_TEXT_BYTES)
    assert steps_mod.MAX_TEXT_BYTES - 100 < len(text.encode("utf-8")) <= steps_mod.MAX_TEXT_BYTES
    got = assert_same_merges_as_trainer(text, pattern, steps_mod.MAX_MERGES)
    assert len(got) == steps_mod.MAX_MERGES


@pytest.mark.parametrize("pattern", ["none", "gpt2", "cl100k_base"])
@pytest.mark.parametrize("max_rows", [1, 5, 50])
def test_matches_oracle(pattern, max_rows):
    assert byte_steps(SAMPLE, 120, pattern=pattern, max_pairs_shown=max_rows) == oracle_steps(
        SAMPLE, 120, pattern, max_rows
    )


def test_runs_out_of_pairs():
    got = byte_steps("ab ab ab", 100, pattern="gpt2")
    # pieces "ab", " ab" x2: a b, then " " ab; then nothing is left
    assert [s["merged"] for s in got] == ["ab", " ab"]
    assert byte_steps("", 10) == [] and byte_steps("x", 10, pattern="none") == []
    assert byte_steps(SAMPLE, 0) == []


def test_initial_state():
    state = byte_initial_state("hi there", pattern="gpt2")
    assert state == {
        "segmentation": [["h", "i"], [" ", "t", "h", "e", "r", "e"]],
        "vocab": [],
        "n_vocab": 256,
        "n_symbols": 8,
        "n_bytes": 8,
    }


def test_json_and_truncation():
    got = byte_steps(SAMPLE, 30, pattern="gpt2", max_pairs_shown=3)
    assert json.loads(json.dumps(got)) == got
    for s in got:
        assert len(s["pair_counts"]) == min(3, s["n_pairs"])
        assert len(s["ties"]) == min(3, s["n_ties"])
        assert s["pair_counts"][0]["pair"] == s["pair"] and s["pair_counts"][0]["count"] == s["count"]


def test_lone_surrogate_is_replaced_as_in_training():
    text = "ab\ud800ab\ud800"
    assert_same_merges_as_trainer(text, "none", 10)
    assert byte_initial_state(text, pattern="none")["segmentation"][0][2] == "<ef>"  # U+FFFD = ef bf bd


if given is not None:

    @settings(max_examples=examples(120), deadline=None)
    @given(
        st.text(alphabet="ab é🙂\n.'", max_size=40),
        st.integers(0, 25),
        st.sampled_from(["none", "gpt2", "cl100k_base"]),
        st.integers(1, 8),
    )
    def test_matches_oracle_and_trainer_random(text, n_merges, pattern, max_rows):
        got = byte_steps(text, n_merges, pattern=pattern, max_pairs_shown=max_rows)
        assert got == oracle_steps(text, n_merges, pattern, max_rows)
        events = list(bytepair.train_iter(text, 256 + n_merges, pattern=pattern))
        assert [tuple(s["pair_ids"]) for s in got] == [e.pair for e in events]


# ---------------------------------------------------------------- errors


def test_size_limits():
    limit = steps_mod.MAX_TEXT_BYTES
    assert byte_steps("x" * limit, 1, pattern="none")[0]["count"] == limit - 1
    with pytest.raises(ValueError, match=re.escape(f"at most {limit} bytes")):
        byte_steps("x" * (limit + 1), 1)
    with pytest.raises(ValueError, match=re.escape(f"is {limit + 2} bytes")):
        byte_steps("é" * (limit // 2 + 1), 1)  # fewer characters than the limit, but more bytes
    with pytest.raises(ValueError, match="at most"):
        byte_initial_state("x" * (limit + 1))


@pytest.mark.parametrize(
    "args, kwargs, error, fragment",
    [
        (("abc", 501), {}, ValueError, "between 0 and 500"),
        (("abc", -1), {}, ValueError, "between 0 and 500"),
        (("abc", "5"), {}, TypeError, "n_merges"),
        (("abc", True), {}, TypeError, "n_merges"),
        (("abc", 5), {"max_pairs_shown": 0}, ValueError, "max_pairs_shown"),
        (("abc", 5), {"max_pairs_shown": 2.5}, TypeError, "max_pairs_shown"),
        ((b"abc", 5), {}, TypeError, "str"),
        (("abc", 5), {"pattern": "("}, ValueError, "not a valid regex"),
        (("abc", 5), {"pattern": 5}, TypeError, "pattern"),
    ],
)
def test_errors(args, kwargs, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)):
        byte_steps(*args, **kwargs)
