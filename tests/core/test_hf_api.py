"""The ``tokenizers.Tokenizer`` reading API and transformers' ``apply_chat_template``
as methods of ``HFTokenizer``, against ``tokenizers`` / ``transformers`` on the
shipped open-model files (``tests/hf_models.py``; transformers' chat outputs
recorded in ``chat_reference.json`` by ``tests/reference/chat_transformers.py``)."""

from __future__ import annotations

import json
import pathlib

import pytest

from bytepair.errors import ArgumentError
from bytepair.hf.compact import from_compact
from bytepair.hf.tokenizer import Encoding
from tests import hf_models

HERE = pathlib.Path(__file__).resolve().parent
KEYS = ("llama3_1", "qwen3", "gemma3", "deepseek_v3", "gptoss")
TEXTS = [
    "Hello, world! 你好 👋🏽",
    "  leading spaces\n\ttabs and ünïcödé — dashes",
    "<|im_start|>user special text <end_of_turn> <|eot_id|>",
    "",
]


@pytest.mark.parametrize("key", KEYS)
def test_encode_batch_and_encoding_fields_equal_tokenizers(key):
    ours, ref = hf_models.ours(key), hf_models.reference(key)
    for add in (True, False):
        got = ours.encode_batch(TEXTS, add_special_tokens=add)
        want = ref.encode_batch(TEXTS, add_special_tokens=add)
        for text, g, w in zip(TEXTS, got, want):
            assert isinstance(g, Encoding)
            assert g.ids == w.ids, text
            assert g.tokens == w.tokens, text
            assert g.special_tokens_mask == w.special_tokens_mask, text
            assert g.attention_mask == w.attention_mask and g.type_ids == w.type_ids
            assert len(g) == len(w)
            # offsets: ASCII/whole-character tokens as tokenizers; tokens inside one
            # character (byte-level fragments) get that whole character's span
            for (gs, ge), (ws, we), tok in zip(g.offsets, w.offsets, w.tokens):
                if ws != we or gs != ge:
                    assert gs <= ws and we <= ge, (text, tok)
    # the plain call keeps returning ids; the keyword gives one Encoding
    assert ours.encode(TEXTS[0]) == ref.encode(TEXTS[0]).ids
    one = ours.encode(TEXTS[0], return_encoding=True)
    assert one.ids == ref.encode(TEXTS[0]).ids and one.offsets == ours.encode_batch(TEXTS[:1])[0].offsets


def test_offsets_equal_tokenizers_on_whole_character_tokens():
    """Where no token is a piece of a character, offsets are tokenizers' own."""
    text = "The quick brown fox, jumps over 12345 lazy dogs."
    for key in KEYS:
        assert (
            hf_models.ours(key).encode(text, return_encoding=True).offsets
            == hf_models.reference(key).encode(text).offsets
        ), key


@pytest.mark.parametrize("key", KEYS)
def test_vocab_lookups_equal_tokenizers(key):
    ours, ref = hf_models.ours(key), hf_models.reference(key)
    for added in (True, False):
        assert ours.get_vocab(with_added_tokens=added) == ref.get_vocab(with_added_tokens=added)
        assert ours.get_vocab_size(with_added_tokens=added) == ref.get_vocab_size(with_added_tokens=added)
    ids = ref.encode(TEXTS[0] + TEXTS[2]).ids + [0, 1, ref.get_vocab_size() - 1, 10**9]
    for i in ids:
        assert ours.id_to_token(i) == ref.id_to_token(i), i
    for t in ref.encode(TEXTS[1] + TEXTS[2]).tokens + ["no such token ∅∅", "<|eot_id|>", "<end_of_turn>"]:
        assert ours.token_to_id(t) == ref.token_to_id(t), t
    seqs = [e.ids for e in ref.encode_batch(TEXTS)]
    for skip in (False, True):
        assert ours.decode_batch(seqs, skip_special_tokens=skip) == ref.decode_batch(seqs, skip_special_tokens=skip)


def test_lookups_on_a_compact_model_fill_its_tables():
    """The site's lazily filled model answers the same (llama3_1)."""
    lazy = from_compact(hf_models.compact("llama3_1"))
    ref = hf_models.reference("llama3_1")
    assert lazy.token_to_id("Ġhello") == ref.token_to_id("Ġhello")
    lazy = from_compact(hf_models.compact("llama3_1"))
    assert lazy.get_vocab_size() == ref.get_vocab_size()


def test_encode_batch_refuses_one_str():
    with pytest.raises(TypeError):
        hf_models.ours("qwen3").encode_batch("one text")


def _fixture():
    return json.loads((HERE / "chat_reference.json").read_text(encoding="utf-8"))


def _chat_params():
    from tests.reference.chat_transformers import CASES

    fx = _fixture()
    return [(m, c) for m in sorted(fx["models"]) for c in CASES if "ids" in fx["models"][m]["cases"][c]]


@pytest.mark.parametrize(("model", "case"), _chat_params())
def test_apply_chat_template_method_equals_transformers(model, case):
    pytest.importorskip("jinja2")
    from tests.reference.chat_transformers import CASES

    tok = hf_models.ours(model)
    messages, options = CASES[case]
    opts = dict(options)
    gen, tools = opts.pop("add_generation_prompt", False), opts.pop("tools", None)
    want = _fixture()["models"][model]["cases"][case]
    assert (
        tok.apply_chat_template(messages, tools=tools, add_generation_prompt=gen, tokenize=False, **opts)
        == (want["text"])
    )
    assert tok.apply_chat_template(messages, tools=tools, add_generation_prompt=gen, **opts) == want["ids"]


def test_apply_chat_template_method_refuses_tensors():
    with pytest.raises(ArgumentError) as e:
        hf_models.ours("qwen3").apply_chat_template([{"role": "user", "content": "x"}], return_tensors="pt")
    assert e.value.field == "return_tensors"
