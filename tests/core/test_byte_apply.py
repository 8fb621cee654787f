"""Applying learned merges byte by byte (``bytepair.teach.steps``' apply, and the textbook
mode's) vs a slow oracle; one step type for both modes; merge events and merges
recovered from ranks. (The structured errors of these calls: test_api_errors.py.)

The byte-level apply is checked against ``tests/reference/slow_bpe.py``'s
``slow_encode_merges`` (minbpe's rule written out plainly) on merges learned by
the slow trainer, and against the paper's worked example in textbook mode.
Stdlib only (runs inside Pyodide too).
"""

from __future__ import annotations

import json
import random

import pytest

import bytepair
from bytepair import errors
from bytepair.split.pretokenize import compile_pattern, resolve_pattern
from bytepair.teach import steps, textbook
from tests.reference.slow_bpe import slow_encode_merges, slow_train

TRAIN = (
    "low lower lowest newer newest wider widest the cat sat on the mat; the end. "
    "café naïve 日本語 🙂🙂 2016 2017 it's we'll"
) * 3


def _pieces(text, pattern):
    regex = resolve_pattern(pattern)
    pieces = compile_pattern(regex).findall(text) if regex is not None else [text]
    return [p.encode("utf-8") for p in pieces if p]


@pytest.mark.parametrize("pattern", ["gpt2", "none", "cl100k_base"])
@pytest.mark.parametrize("new_text", ["the newest cat", "lowest café 🙂", "zzz", "日本 it's 2016"])
def test_byte_apply_ends_where_the_slow_oracle_does(pattern, new_text):
    regex = resolve_pattern(pattern)
    split = compile_pattern(regex).findall if regex is not None else None
    merges = {pair: new_id for pair, new_id, _ in slow_train(TRAIN, 60, split=split)}
    expected = slow_encode_merges(_pieces(new_text, pattern), merges)
    fired = steps.apply(new_text, list(merges), pattern=pattern)
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), z in merges.items():
        vocab[z] = vocab[a] + vocab[b]
    shown = [bytepair.token_to_display(vocab[t]) for t in expected]
    final = list(fired[-1].symbols) if fired else steps.apply_start(new_text, pattern=pattern)
    assert final == shown
    # rules fire in learned order, each at least once, and every position holds its merged token
    assert [f.index for f in fired] == sorted({f.index for f in fired})
    for f in fired:
        assert f.positions and all(f.symbols[p] == f.merged for p in f.positions)


def slow_learned(text, n, pattern):
    regex = resolve_pattern(pattern)
    split = compile_pattern(regex).findall if regex is not None else None
    return [pair for pair, _, _ in slow_train(text, n, split=split)]


def test_byte_apply_step_by_step_matches_merging_one_rule_at_a_time():
    rng = random.Random(7)
    learned = slow_learned(TRAIN, 40, "gpt2")
    for _ in range(20):
        words = TRAIN.split()
        text = " ".join(rng.choice(words) for _ in range(5))
        seqs = [list(p) for p in _pieces(text, "gpt2")]
        fired = {f.index: f for f in steps.apply(text, learned, pattern="gpt2")}
        for k, (a, b) in enumerate(learned):
            before = [list(s) for s in seqs]
            for s in seqs:
                i = 0
                while i < len(s) - 1:
                    if s[i] == a and s[i + 1] == b:
                        s[i : i + 2] = [256 + k]
                    i += 1
            assert (seqs != before) == (k in fired)
            if k in fired:
                assert len(fired[k].symbols) == sum(map(len, seqs))


def test_byte_apply_agrees_with_the_tokenizer_from_the_same_merges():
    events = list(bytepair.train_iter(TRAIN, 320, pattern="gpt2"))
    tok = bytepair.Tokenizer.from_merges({e.pair: e.id for e in events}, pattern="gpt2")
    text = "the lowest newest café"
    fired = steps.apply(text, [e.pair for e in events], pattern="gpt2")
    assert list(fired[-1].symbols) == [
        bytepair.token_to_display(tok.decode_single_token_bytes(t)) for t in tok.encode(text)
    ]


def test_byte_apply_errors_name_their_field():
    with pytest.raises(errors.ArgumentError) as e:
        steps.apply("", [(97, 98)])
    assert e.value.to_dict()["field"] == "text"
    with pytest.raises(ValueError) as e:
        steps.apply("x" * (steps.APPLY_MAX_BYTES + 1), [])
    assert e.value.field == "text" and str(steps.APPLY_MAX_BYTES) in str(e.value)
    with pytest.raises(errors.ArgumentError) as e:
        steps.apply("ab", [(97, 98), (300, 97)])
    assert e.value.field == "merges" and "merges[1]" in str(e.value)
    with pytest.raises(TypeError):
        steps.apply("ab", [("a", "b")])


PAPER = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def test_one_step_type_for_both_modes():
    text = "\n".join(f"{w} {c}" for w, c in PAPER.items())
    tb = steps.learn_steps("textbook", text, 10)
    by = steps.learn_steps("bytes", "low lower newest widest " * 4, 10, pattern="gpt2")
    for session in (tb, by):
        views = [session.step(i) for i in range(session.n_steps + 1)]
        assert all(type(v) is steps.StepView for v in views)
        assert views[0].merge is None and views[0].n_symbols == session.n_symbols_start
        assert set(views[0].to_dict()) == set(views[-1].to_dict())
        for k, v in enumerate(views[1:], start=1):
            assert v.merge.index == k - 1 and v.pair_counts[0].pair == v.merge.pair
            json.dumps(v.to_dict())
    # the paper's first merges (Sennrich et al. 2016, Algorithm 1 output)
    assert [m.pair for m in tb.merges[:4]] == [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o")]
    assert tb.merges[0].id is None and tb.merges[0].ids is None
    assert by.merges[0].id == 256 and by.merges[0].ids is not None
    # byte-level merges equal the trainer's, pair for pair
    events = list(bytepair.train_iter("low lower newest widest " * 4, 266, pattern="gpt2"))
    assert [m.ids for m in by.merges] == [e.pair for e in events]
    # textbook apply on a new word: the paper's segmentation of "lowest"
    assert tb.apply("lowest")[-1].symbols == ("low", "est</w>")
    assert tb.start_symbols("lowest") == ["l", "o", "w", "e", "s", "t", "</w>"]


def test_merge_event_merge_index_and_deprecated_rank():
    events = list(bytepair.train_iter("aaabdaaabac", 259, pattern="none"))  # minbpe's Wikipedia example
    assert [e.merge_index for e in events] == [0, 1, 2]
    assert [e.rank for e in events] == [e.merge_index for e in events]


def test_recover_merges_gives_back_trained_merges():
    events = list(bytepair.train_iter(TRAIN, 300, pattern="gpt2"))
    tok = bytepair.Tokenizer.from_merges({e.pair: e.id for e in events}, pattern="gpt2")
    from bytepair.bpe import recover_merges

    assert recover_merges(tok.mergeable_ranks()) == tok.merges


def test_textbook_and_byte_apply_share_one_apply_step_type():
    assert steps.ApplyStep is textbook.ApplyStep
