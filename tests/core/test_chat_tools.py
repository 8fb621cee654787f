"""Tool definitions counted (bytepair.chat.tools and the chat formats' ``tools=``).

References:

* harmony (gpt-oss): PyPI ``openai-harmony`` (``DeveloperContent.with_function_tools``,
  run offline as in test_openai_chat.py);
* open models: transformers' ``apply_chat_template(..., tools=...)``, recorded in
  ``chat_reference.json`` (case ``tools_gen``) and checked live here for a second tool set;
* OpenAI ChatML: no exact reference exists; the API's measured ``prompt_tokens`` published
  in hmarr/openai-chat-tokens' tests (``tests/token-counts.test.ts``, gpt-3.5-turbo, cl100k_base),
  which bytepair's estimate exceeds by one token (two where parameters nest objects).
"""

from __future__ import annotations

import json
import pathlib

import pytest

from bytepair import chat
from bytepair.app import chat_formats
from bytepair.chat import openai as openai_chat
from bytepair.chat import tools as chat_tools
from bytepair.errors import ToolsError
from bytepair.formats.jsonguard import MAX_NESTING
from tests import hf_models
from tests.reference.openai_chat_refs import harmony_encoding

HERE = pathlib.Path(__file__).resolve().parent

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather at a place, in °C",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. Zürich"},
                "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
                "days": {"type": "integer", "default": 1},
            },
            "required": ["city"],
        },
    },
}
RICH = {
    "name": "search",
    "description": "Search the web.\nReturns the top results.",
    "parameters": {
        "type": "object",
        "description": "Search options",
        "properties": {
            "query": {"type": "string", "title": "Query", "examples": ["cats", "dogs"]},
            "limit": {"type": ["integer", "null"]},
            "filters": {
                "type": "object",
                "properties": {
                    "site": {"type": "string", "nullable": True},
                    "lang": {"type": "string", "default": "en"},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                    "any": {"type": "array"},
                },
                "required": ["site"],
            },
            "mode": {
                "description": "How to search",
                "default": "fast",
                "oneOf": [
                    {"type": "string", "enum": ["fast"], "description": "quick"},
                    {"type": "number", "description": "depth", "default": 3, "nullable": True},
                ],
            },
            "when": {"oneOf": [{"type": "string", "description": "ISO date"}, {"type": "boolean"}]},
            "flag": {"type": "boolean", "default": False},
            "blob": {},
        },
    },
}
NO_PARAMS = {"type": "function", "function": {"name": "now", "description": "Current time"}}
EMPTY_PARAMS = {"type": "function", "function": {"name": "ping", "parameters": {}}}
TOOL_SETS = {"weather": [WEATHER], "rich": [RICH, NO_PARAMS], "all": [WEATHER, RICH, NO_PARAMS, EMPTY_PARAMS]}
CONVERSATIONS = {
    "user_only": [{"role": "user", "content": "Weather in Zürich?"}],
    "system_user": [
        {"role": "system", "content": "Reasoning: low"},
        {"role": "user", "content": "Weather in Zürich?"},
    ],
    "developer": [
        {"role": "system", "content": "Reasoning: high"},
        {"role": "developer", "content": "# Instructions\n\nAnswer in French."},
        {"role": "user", "content": "Привет 👋🏽"},
    ],
    "system_only": [{"role": "system", "content": "Reasoning: low"}],
}


# --------------------------------------------------------------------------- harmony


@pytest.fixture(scope="module")
def harmony(tmp_path_factory):
    return harmony_encoding(tmp_path_factory.mktemp("tiktoken"))


def _oh_tool(oh, t):
    f = chat_tools.function_of(t)
    return oh.ToolDescription.new(f["name"], f.get("description") or "", parameters=f.get("parameters"))


def _oh_conversation(oh, msgs, tools):
    out, dev_done = [], False
    dev = oh.DeveloperContent.new().with_function_tools([_oh_tool(oh, t) for t in tools])
    for i, m in enumerate(msgs):
        role = oh.Role(m["role"])
        if role == oh.Role.DEVELOPER:
            instructions = m["content"].removeprefix("# Instructions\n\n")
            out.append(oh.Message.from_role_and_content(role, dev.with_instructions(instructions)))
            dev_done = True
            continue
        if not dev_done and role != oh.Role.SYSTEM and not any(x["role"] == "developer" for x in msgs[i:]):
            out.append(oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev))
            dev_done = True
        out.append(oh.Message.from_role_and_content(role, m["content"]))
    if not dev_done:
        out.append(oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev))
    return oh.Conversation.from_messages(out)


@pytest.mark.parametrize("tools", sorted(TOOL_SETS))
@pytest.mark.parametrize("conv", sorted(CONVERSATIONS))
def test_harmony_tools_equal_openai_harmony(harmony, tools, conv):
    oh, enc = harmony
    msgs, ts = CONVERSATIONS[conv], TOOL_SETS[tools]
    expected = list(enc.render_conversation_for_completion(_oh_conversation(oh, msgs, ts), oh.Role.ASSISTANT))
    assert openai_chat.encode_harmony(msgs, tools=ts) == expected
    b = chat_formats.breakdown("harmony", msgs, tools=ts)
    assert b.ids == expected and b.text == enc.decode_utf8(expected)
    assert not b.estimate
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens + b.tools_tokens == b.total
    # the tools' tokens: the rendered section's, give or take the one that joins it to the instructions
    section = chat_tools.tools_section(ts)
    assert section in b.text[b.tools_spans[-1][0] : b.tools_spans[-1][1]]
    own = len(enc.encode(section, allowed_special=set()))
    assert own <= b.tools_tokens <= own + 5


def test_tools_section_equals_openai_harmony_text(harmony):
    oh, enc = harmony
    for ts in TOOL_SETS.values():
        dev = oh.DeveloperContent.new().with_function_tools([_oh_tool(oh, t) for t in ts])
        conv = oh.Conversation.from_messages([oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev)])
        text = enc.decode_utf8(enc.render_conversation(conv))
        assert text == f"<|start|>developer<|message|>{chat_tools.tools_section(ts)}<|end|>"


# --------------------------------------------------------------------------- ChatML (estimate)

# hmarr/openai-chat-tokens tests/token-counts.test.ts: (messages, functions, the API's prompt_tokens)
_FOO = {"name": "foo", "parameters": {"type": "object", "properties": {}}}
_DO = {"name": "do_stuff", "parameters": {"type": "object", "properties": {}}}
_BING = {"name": "bing_bong", "description": "Do a bing bong"}
MEASURED = [
    ([{"role": "user", "content": "hello"}], [_FOO], 31),
    ([{"role": "user", "content": "hello"}], [{**_FOO, "description": "Do a foo"}], 36),
    (
        [{"role": "user", "content": "hello"}],
        [{**_BING, "parameters": {"type": "object", "properties": {"foo": {"type": "string"}}}}],
        49,
    ),
    (
        [{"role": "user", "content": "hello"}],
        [
            {
                **_BING,
                "parameters": {
                    "type": "object",
                    "properties": {"foo": {"type": "string"}, "bar": {"type": "number", "description": "A number"}},
                },
            }
        ],
        57,
    ),
    ([{"role": "system", "content": "Hello"}, {"role": "user", "content": "Hi there"}], [_DO], 35),
    ([{"role": "system", "content": "Hello:"}, {"role": "user", "content": "Hi there"}], [_DO], 35),
    (
        [
            {"role": "system", "content": "Hello:"},
            {"role": "system", "content": "Hello"},
            {"role": "user", "content": "Hi there"},
        ],
        [_DO],
        40,
    ),
]


_RECIPE = {
    "name": "get_recipe",
    "parameters": {
        "type": "object",
        "required": ["ingredients", "instructions", "time_to_cook"],
        "properties": {
            "ingredients": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "unit", "amount"],
                    "properties": {
                        "name": {"type": "string"},
                        "unit": {"enum": ["grams", "ml", "cups", "pieces", "teaspoons"], "type": "string"},
                        "amount": {"type": "number"},
                    },
                },
            },
            "instructions": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Steps to prepare the recipe (no numbering)",
            },
            "time_to_cook": {"type": "number", "description": "Total time to prepare the recipe in minutes"},
        },
    },
}
#: parameters with nested objects: harmony's nested layout costs one more token than the API's
MEASURED_NESTED = [
    (
        [{"role": "user", "content": "hello"}],
        [
            {
                **_BING,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "foo": {
                            "type": "object",
                            "properties": {
                                "bar": {"type": "string", "enum": ["a", "b", "c"]},
                                "baz": {"type": "boolean"},
                            },
                        }
                    },
                },
            }
        ],
        68,
    ),
    ([{"role": "user", "content": "hello"}], [_RECIPE], 106),
]


@pytest.mark.parametrize("case", range(len(MEASURED) + len(MEASURED_NESTED)))
def test_chatml_tools_estimate_against_measured_counts(case):
    nested = case >= len(MEASURED)
    msgs, functions, measured = (MEASURED + MEASURED_NESTED)[case]
    b = chat_formats.breakdown("chatml-cl100k", msgs, tools=[{"type": "function", "function": f} for f in functions])
    assert b.estimate is True
    assert b.total == measured + (2 if nested else 1)
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens + b.tools_tokens == b.total
    # without tools: no estimate, and the counts hmarr's tests measured for plain messages
    plain = chat_formats.breakdown("chatml-cl100k", msgs)
    assert plain.estimate is False and plain.tools_tokens == 0


def test_chatml_plain_counts_equal_measured():
    """Same source, messages without functions: the ChatML layout equals the API's counts."""
    for msgs, measured in (
        ([{"role": "user", "content": "hello"}], 8),
        ([{"role": "user", "content": "hello world"}], 9),
        ([{"role": "system", "content": "hello:"}], 9),
        (
            [
                {"role": "system", "content": "# Important: you're the best robot"},
                {"role": "user", "content": "hello robot"},
                {"role": "assistant", "content": "hello world"},
            ],
            27,
        ),
    ):
        assert chat_formats.breakdown("chatml-cl100k", msgs).total == measured


# --------------------------------------------------------------------------- open models


def _fixture():
    return json.loads((HERE / "chat_reference.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("model", ["llama3_1", "qwen3", "gemma3", "deepseek_v3"])
def test_template_tools_equal_transformers_and_are_their_own_line(model):
    pytest.importorskip("jinja2")
    from tests.reference.chat_transformers import CASES

    messages, options = CASES["tools_gen"]
    want = _fixture()["models"][model]["cases"]["tools_gen"]
    tok = hf_models.ours(model)
    b = chat.chat_breakdown(tok, messages, add_generation_prompt=True, tools=options["tools"])
    assert b.ids == want["ids"] and b.text == want["text"]
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens + b.tools_tokens == b.total
    bare = chat.apply_chat_template(tok, messages, add_generation_prompt=True)
    if bare == b.ids:  # a template that ignores tools (Gemma 3's)
        assert b.tools_tokens == 0
    else:
        assert b.tools_tokens > 0
        joined = "".join(b.text[a:e] for a, e in b.tools_spans)
        assert "get_weather" in joined
        assert all(m.content_found for m in b.messages)


def test_template_tools_live_transformers():
    """A second tool set through transformers itself (Qwen 3 and Llama 3 templates)."""
    pytest.importorskip("transformers")
    from tests.reference.chat_transformers import load_transformers

    msgs = CONVERSATIONS["system_user"]
    tools = TOOL_SETS["all"]
    for model in ("qwen3",):
        ref = load_transformers(model)
        want = list(
            ref.apply_chat_template(msgs, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False)
        )
        tok = hf_models.ours(model)
        assert tok.apply_chat_template(msgs, tools=tools, add_generation_prompt=True) == want
        b = chat_formats.breakdown("template:" + model, msgs, tools=tools, get_tokenizer=lambda _name, tok=tok: tok)
        assert b.ids == want and b.tools_tokens > 0


# --------------------------------------------------------------------------- the JSON a user types


def test_parse_tools_json_reports_the_location():
    text = '[\n  {"type": "function",\n   "function": {"name": "x",}}\n]'
    with pytest.raises(ToolsError) as e:
        chat_tools.parse_tools_json(text)
    err = e.value.to_dict()
    # the stray "," on line 3 (column 28; Python 3.13+'s json) or the "}" after it (29; 3.11/3.12)
    assert (err["type"], err["field"], err["line"]) == ("tools", "tools", 3)
    assert err["column"] in (28, 29)
    assert text[err["pos"]] == ",}"[err["column"] - 28]
    assert err["pos"] == len("[\n") + len('  {"type": "function",\n') + err["column"] - 1


@pytest.mark.parametrize(
    ("text", "index", "path", "reason"),
    [
        ('{"name": "x"}', None, "", "not_list"),
        ('[{"name": "x"}, 3]', 1, "[1]", "not_object"),
        ('[{"type": "function", "function": 3}]', 0, "[0].function", "function_not_object"),
        ('[{"type": "function", "function": {"description": "d"}}]', 0, "[0].function.name", "needs_name"),
        ('[{"name": "x", "parameters": []}]', 0, "[0].parameters", "parameters_not_object"),
        ('[{"name": "x", "description": 5}]', 0, "[0].description", "description_not_text"),
    ],
)
def test_parse_tools_json_refuses_bad_shapes(text, index, path, reason):
    with pytest.raises(ToolsError) as e:
        chat_tools.parse_tools_json(text)
    assert e.value.tool_index == index and e.value.path == path and e.value.line is None
    # the reason a page words in its reader's language, with the tool's name where it has one
    err = e.value.to_dict()
    assert err["reason"] == reason
    assert err.get("name") == ("x" if reason.endswith(("_not_text", "parameters_not_object")) else None)


def test_tools_json_faults_carry_reasons():
    with pytest.raises(ToolsError) as e:
        chat_tools.parse_tools_json("[1,")
    assert e.value.to_dict()["reason"] == "json_syntax"
    with pytest.raises(ToolsError) as e:
        chat_tools.parse_tools_json("[" * 10_000 + "]" * 10_000)
    assert e.value.to_dict()["reason"] == "nesting" and e.value.to_dict()["limit"] == MAX_NESTING


def test_blank_tools_json_is_no_tools():
    assert chat_tools.parse_tools_json("  \n") is None
    assert chat_tools.parse_tools_json("[]") == []


def test_deep_tools_json_is_refused_before_parsing():
    with pytest.raises(ToolsError):
        chat_tools.parse_tools_json("[" * 100 + "]" * 100)


@pytest.mark.parametrize(
    ("fmt", "model", "template"),
    [
        ("template:llama3", "llama3_1", None),  # the file's own template: Llama 3.0's
        ("template:llama3@llama3.2", "llama3_1", "llama3.2"),
        ("template:qwen3", "qwen3", None),
        ("template:gemma3", "gemma3", None),
        ("template:deepseek_v3", "deepseek_v3", None),
    ],
)
def test_tools_ignored_when_transformers_leaves_them_out(fmt, model, template):
    """Tester bug 4 (12:50): tools a template ignores were shown as "Tool definitions 0" with no
    note. Reference: transformers renders the template with the tools; tools_ignored is true
    exactly when the tool's name is not in its prompt."""
    pytest.importorskip("transformers")
    from tests.reference.chat_transformers import load_transformers

    msgs = CONVERSATIONS["system_user"]
    tools = [WEATHER]
    ref = load_transformers(model)
    kw = {"chat_template": chat_formats.published_template(template)} if template else {}
    text = ref.apply_chat_template(msgs, tools=tools, add_generation_prompt=True, tokenize=False, **kw)
    tok = hf_models.ours(model)
    b = chat_formats.breakdown(fmt, msgs, tools=tools, get_tokenizer=lambda _name: tok)
    ignored = "get_weather" not in text
    assert b.tools_ignored is ignored and b.to_dict()["tools_ignored"] is ignored
    assert (b.tools_tokens == 0) is ignored
    assert chat_formats.breakdown(fmt, msgs, get_tokenizer=lambda _name: tok).tools_ignored is False
