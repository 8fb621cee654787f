"""Mistral NeMo's chat format (bytepair.chat.mistral) against PyPI ``mistral-common``
(``MistralTokenizer.from_file(tekken_240718.json).encode_chat_completion``), run here."""

from __future__ import annotations

import random

import pytest

from bytepair import from_tekken
from bytepair.app import chat_formats
from bytepair.chat import mistral as mistral_chat
from bytepair.errors import MessageError
from tests import hf_models

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather at a place, in °C",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    },
    {"type": "function", "function": {"name": "now", "parameters": {}}},
]
TEXTS = ["hi", "  spaced  ", "Привет 👋🏽 你好", "a\n\nb", "[INST] not special [/INST] </s>", "", "x "]


@pytest.fixture(scope="module")
def tokenizers():
    pytest.importorskip("mistral_common")
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    path = hf_models.tekken_path("240718")
    return MistralTokenizer.from_file(str(path)), from_tekken(path, name="mistral-nemo")


def _reference(mt, msgs, tools):
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    try:
        return mt.encode_chat_completion(ChatCompletionRequest(messages=msgs, tools=tools)).tokens
    except Exception:  # noqa: BLE001 - any refusal; ours must refuse too
        return None


FIXED = {
    "single": [{"role": "user", "content": "Hello, world!"}],
    "system_multi": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Привет 👋🏽"},
        {"role": "assistant", "content": "Hi!  "},
        {"role": "user", "content": "Again"},
    ],
    "systems_everywhere": [
        {"role": "system", "content": "A"},
        {"role": "user", "content": "one"},
        {"role": "system", "content": "B"},
        {"role": "user", "content": "two"},
    ],
    "assistant_first": [{"role": "assistant", "content": "I start."}, {"role": "user", "content": "ok"}],
    "system_only": [{"role": "system", "content": "Only a system prompt."}],
}


@pytest.mark.parametrize("tools", [None, TOOLS], ids=["plain", "tools"])
@pytest.mark.parametrize("name", sorted(FIXED))
def test_equals_mistral_common(tokenizers, name, tools):
    mt, tok = tokenizers
    msgs = FIXED[name]
    want = _reference(mt, msgs, tools)
    b = chat_formats.breakdown("mistral-nemo", msgs, tools=tools, get_tokenizer=lambda _name: tok)
    assert b.ids == want
    assert b.format == "mistral" and not b.estimate
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens + b.tools_tokens == b.total
    assert (b.tools_tokens > 0) == bool(tools)
    for m in b.messages:  # every message's content is found, system text in the last user turn
        content = msgs[m.index]["content"]
        assert "".join(b.text[s:e] for s, e in m.content_spans) == (
            content.rstrip(" ") if msgs[m.index]["role"] == "assistant" else content
        )


def test_random_conversations_equal_mistral_common(tokenizers):
    """Seeded random role/text sequences: the same ids, or both refuse."""
    mt, tok = tokenizers
    rng = random.Random(22)
    for _ in range(150):
        msgs = [
            {"role": rng.choice(["system", "user", "assistant"]), "content": rng.choice(TEXTS)}
            for _ in range(rng.randint(1, 5))
        ]
        tools = TOOLS[:1] if rng.random() < 0.4 else None
        want = _reference(mt, msgs, tools)
        try:
            got = mistral_chat.nemo_breakdown(msgs, tokenizer=tok, tools=tools).ids
        except MessageError:
            got = None
        assert got == want, msgs


def test_refusals_name_the_message(tokenizers):
    _mt, tok = tokenizers
    cases = [
        ([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}], 1),
        ([{"role": "user", "content": "a"}, {"role": "assistant", "content": ""}, {"role": "user", "content": "c"}], 1),
        (
            [
                {"role": "user", "content": "a"},
                {"role": "assistant", "content": "b"},
                {"role": "system", "content": "s"},
            ],
            2,
        ),
        ([{"role": "tool", "content": "{}"}], 0),
    ]
    for msgs, index in cases:
        with pytest.raises(MessageError) as e:
            chat_formats.breakdown("mistral-nemo", msgs, get_tokenizer=lambda _name: tok)
        assert e.value.message_index == index


def test_mistral_format_is_listed():
    ids = [f["id"] for f in chat_formats.chat_formats(chat_formats.open_model_rows())]
    assert "mistral-nemo" in ids
    assert chat_formats.requirements("mistral-nemo") == {"tokenizer": "mistral-nemo", "jinja": False}


def test_tekken_methods(tokenizers):
    """``TekkenTokenizer.apply_chat_template`` (mistral-common's ids and text) and the batch/lookup calls."""
    mt, tok = tokenizers
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    msgs = FIXED["system_multi"]
    r = mt.encode_chat_completion(ChatCompletionRequest(messages=msgs, tools=TOOLS))
    assert tok.apply_chat_template(msgs, tools=TOOLS) == r.tokens
    assert tok.apply_chat_template(msgs, tools=TOOLS, tokenize=False) == mt.decode(
        r.tokens, special_token_policy="keep"
    )
    raw = mt.instruct_tokenizer.tokenizer
    seqs = [raw.encode("Hello wörld", bos=True, eos=False), r.tokens]
    assert tok.decode_batch(seqs) == [raw.decode(s, special_token_policy="keep") for s in seqs]
    assert tok.get_vocab_size() == raw.n_words
    assert [tok.id_to_token(i) for i in (1, 3)] == ["<s>", "[INST]"] and tok.id_to_token(raw.n_words) is None
