"""Issue 19: the trainer's memory stays linear in the text once every pair is unique.

Without a pre-tokenizer, after the last repeated pair each merge joins two tokens that occur once,
and the new tokens grow along the text: the sum of their lengths grows as the square of the merges
(1.7 GB at 56,000 merges of 1.5 MB of the KJV, where the Pyodide heap failed). Holding every token
whole cost that sum; the trainer keeps lengths and reads each token from the text for its event.
"""

from __future__ import annotations

import json
import random
import tracemalloc

import bytepair


def test_trainer_does_not_hold_every_token_whole() -> None:
    rng = random.Random(19)
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(10_000))
    data = text.encode()
    # each token's length and ends (not the whole token: the test's own memory stays small)
    size, ends = {i: 1 for i in range(256)}, {i: (bytes([i]), bytes([i])) for i in range(256)}
    total = 0
    tracemalloc.start()
    try:
        for ev in bytepair.train_iter(text, 256 + 20_000, pattern="none"):
            a, b = ev.pair
            token = ev.token
            # the event's token is its pair's tokens joined, and it is in the text
            assert len(token) == size[a] + size[b]
            assert token.startswith(ends[a][0]) and token.endswith(ends[b][1])
            assert token[size[a] - len(ends[a][1]) : size[a] + len(ends[b][0])] == ends[a][1] + ends[b][0]
            assert token in data
            size[ev.id], ends[ev.id] = len(token), (token[:8], token[-8:])
            total += len(token)
            del ev, token
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total > 20 * 2**20  # the run reached the long tokens (their lengths sum to more than 20 MB)
    assert peak < total / 4, (peak, total)


def test_out_of_memory_reaches_the_page_as_its_own_type(adapter) -> None:
    class Full:
        def step(self) -> str:
            raise MemoryError

    # the worker's one way in: a full heap is a record of type "memory" (the page words it)
    ok, record = adapter.call(Full(), "step")
    assert not ok
    assert json.loads(record)["type"] == "memory" and json.loads(record)["field"] is None


def test_a_run_past_the_token_budget_ends_there_and_keeps_the_merges_that_fit(adapter, monkeypatch) -> None:
    # the Train view's run: the merges that fit go out, the run ends "done" with the memory error's
    # record as its limit, and finish builds the tokenizer of those merges (issue 19: 50,740 merges
    # of 1.5 MB with no pre-tokenizer were lost with the error)
    monkeypatch.setattr(adapter.train, "MAX_TOKEN_BYTES", 20_000)
    rng = random.Random(19)
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(2_000))
    session = adapter.TrainSession(text, 256 + 1_900, "none")
    sizes: list[int] = []
    while True:
        ok, out = adapter.call(session, "step", 1000.0)
        assert ok, out
        batch = json.loads(out)
        sizes += batch["events"]["token_bytes"]
        if batch["done"]:
            break
        assert batch["limit"] is None
    limit = batch["limit"]
    assert (limit["type"], limit["field"], limit["done"], limit["limit"]) == (
        "memory",
        "vocab_size",
        len(sizes),
        20_000,
    )
    assert f"after {len(sizes):,} merges" in limit["message"]
    assert 0 < len(sizes) < 1_900
    assert 256 + sum(sizes) <= 20_000 < limit["needed"]
    # needed: with the next merge's token (from a run of its own)
    following = bytepair.train(text, 256 + len(sizes) + 1, pattern="none").decode_single_token_bytes(256 + len(sizes))
    assert limit["needed"] == 256 + sum(sizes) + len(following)
    ok, out = adapter.call(session, "finish", "kept")
    assert ok, out
    kept = json.loads(out)
    assert kept["n_merges"] == len(sizes)
    assert adapter.state.trained["kept"].merges == bytepair.train(text, 256 + len(sizes), pattern="none").merges
    session.close()
