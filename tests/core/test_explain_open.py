"""Token stories for open models (issue 13): ``bytepair.teach.explain`` on the shipped
``tokenizer.json`` files and Mistral's Tekken.

Every story's id must replay to ``encode(text, add_special_tokens=False)`` and
to the ids of ``tokenizers`` (the reference implementation) / mistral-common;
the merges are checked by replaying them: each step joins two adjacent parts
into the vocabulary token spelled by their concatenation, in ascending merge
rank order as ``tokenizers``' ``Word::merge_all`` applies them (rank from the
file's ``model.merges`` list, read here independently).
"""

from __future__ import annotations

import json

import pytest

import bytepair
from bytepair.errors import ArgumentError
from bytepair.teach.explain import describe, explain_tokens, token_story
from tests import corpora, hf_models

EXTRA = "Emoji 👩‍👩‍👧 🇫🇷 😀, digits 1234567 3.14159 and 2026-12-01.\n\n  tabs\tend "


def _text() -> str:
    return corpora.udhr_mix(chars_each=400) + EXTRA


@pytest.fixture(scope="module")
def text() -> str:
    return _text()


def _file_merges(key: str) -> dict[tuple[str, str], int]:
    data = json.loads((hf_models.require(key) / "tokenizer.json").read_text("utf-8"))
    merges = data["model"]["merges"]
    return {tuple(m.split(" ") if isinstance(m, str) else m): r for r, m in enumerate(merges)}


@pytest.mark.parametrize("key", hf_models.KEYS)
def test_hf_stories_replay_to_encode_and_tokenizers(key, text):
    tok = hf_models.ours(key)
    ex = explain_tokens(tok, text)
    ref = hf_models.reference(key).encode(text, add_special_tokens=False).ids
    assert ex.ids == tok.encode(text, add_special_tokens=False) == ref
    merges = _file_merges(key)
    vocab_r = {
        i: s
        for s, i in json.loads((hf_models.require(key) / "tokenizer.json").read_text("utf-8"))["model"]["vocab"].items()
    }
    for piece in ex.pieces:
        ranks = [s.rank for s in piece.steps]
        for s in piece.steps:  # each step is a merge of the file, joining into the token spelled by it
            a, b, new = vocab_r[s.left_id], vocab_r[s.right_id], vocab_r[s.id]
            assert merges[(a, b)] == s.rank and a + b == new
        # lowest rank first: a later step never has a lower rank than the one before it
        # unless it was only made possible by that step (it uses the part just made)
        for prev, cur in zip(piece.steps, piece.steps[1:]):
            assert (
                cur.rank >= prev.rank
                or cur.byte_start <= prev.byte_start < cur.byte_end
                or cur.byte_start <= prev.byte_end - 1 < cur.byte_end
            ), (piece.text, ranks)
        # the parts after the last step are the piece's tokens
        assert (
            piece.parts_after(len(piece.steps) - 1)
            == [t.id for t in ex.tokens[piece.first_token : piece.first_token + piece.n_tokens]]
            or piece.whole_piece
        )
    for t in ex.tokens:
        assert t.token_string == tok.token_string(t.id)
        assert t.token == tok.token_bytes(t.id)


@pytest.mark.parametrize("key", ["qwen3", "gemma3", "llama3_1"])
def test_hf_token_story_with_bos_indexes_as_encode(key):
    tok = hf_models.ours(key)
    text = "12345 héllo"
    ids = tok.encode(text)
    stories = [token_story(tok, text, i, add_special_tokens=True, units="utf16") for i in range(len(ids))]
    assert [s.id for s in stories] == ids == hf_models.reference(key).encode(text).ids
    for s in stories:
        describe(s)
        json.dumps(s.to_dict())


def test_qwen_digits_are_single_tokens():
    tok = hf_models.ours("qwen3")
    st = token_story(tok, "12345", 2)
    assert (st.text, st.how, st.steps, st.piece_story.text) == ("3", "single_byte", (), "3")


def test_ignore_merges_whole_piece_has_no_steps():
    tok = hf_models.ours("llama3_1")  # ignore_merges: true in the file
    st = token_story(tok, "hello world", 1)
    assert st.how == "whole_piece" and st.steps == () and st.token_string == "Ġworld"
    assert st.id == hf_models.reference("llama3_1").encode("hello world", add_special_tokens=False).ids[1]


@pytest.mark.parametrize("version", ["240718"])
def test_tekken_stories_replay_to_mistral_common(version, text):
    tok = bytepair.from_tekken(hf_models.tekken_path(version))
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    ref = Tekkenizer.from_file(str(hf_models.tekken_path(version))).encode(text, bos=False, eos=False)
    ex = explain_tokens(tok, text)
    assert ex.ids == tok.encode(text, add_special_tokens=False) == ref
    st = token_story(tok, text, 0, add_special_tokens=True)
    assert st.special and st.id == tok.encode(text)[0]


def test_open_model_errors_are_argument_errors():
    tok = hf_models.ours("qwen3")
    with pytest.raises(ArgumentError) as e:
        token_story(tok, "abc", 99)
    assert e.value.field == "token_index"
    with pytest.raises(ArgumentError) as e:
        explain_tokens(tok, "abc", events=[])
    assert e.value.field == "events"


@pytest.mark.parametrize("key", hf_models.KEYS)
def test_hf_stories_of_a_compact_file_are_those_of_the_whole_tables(key, text):
    """A compact file fills its tables as texts need them (bytepair.hf.lazy); the stories read
    merges and tokens straight from those tables, and must still find every step."""
    from bytepair.hf.compact import from_compact

    tok = from_compact(hf_models.compact(key))
    short = text[:600]
    assert explain_tokens(tok, short) == explain_tokens(hf_models.ours(key), short)
    assert not tok.tables_loaded  # the tables were not loaded whole
