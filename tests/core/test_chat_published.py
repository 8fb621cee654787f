"""Chat templates bytepair ships apart from the tokenizer files
(``bytepair.app.chat_formats.PUBLISHED_TEMPLATES``: Meta's Llama 3.2 template, whose
dated system preamble Llama 3.1 / 3.2 / 3.3 use), rendered and counted as
``transformers`` renders the same template text on the shipped Llama 3 files
(``tests/reference/chat_transformers.py``, offline)."""

from __future__ import annotations

import pytest

from bytepair.app import chat_formats
from tests import hf_models

pytest.importorskip("jinja2")

DATE = "26 Jul 2024"


@pytest.fixture(scope="module")
def reference():
    pytest.importorskip("transformers")
    from tests.reference.chat_transformers import load_transformers

    return load_transformers("llama3_1")


def _cases():
    from tests.reference.chat_transformers import CASES, WEATHER_TOOL

    out = {name: CASES[name] for name in ("single", "single_gen", "multi", "multi_gen", "no_system_gen", "tools_gen")}
    out["system_tools"] = (
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather in Zürich?"}],
        {"add_generation_prompt": True, "tools": [WEATHER_TOOL]},
    )
    return out


CASES = _cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_llama3_2_template_equals_transformers(reference, case):
    messages, options = CASES[case]
    gen, tools = options.get("add_generation_prompt", False), options.get("tools")
    template = chat_formats.published_template("llama3.2")
    kw = dict(add_generation_prompt=gen, tools=tools, chat_template=template, date_string=DATE)
    want_text = reference.apply_chat_template(messages, tokenize=False, **kw)
    want = list(reference.apply_chat_template(messages, tokenize=True, return_dict=False, **kw))
    tok = hf_models.ours("llama3_1")
    assert tok.apply_chat_template(messages, tokenize=False, **kw) == want_text
    b = chat_formats.breakdown(
        "template:llama3@llama3.2",
        messages,
        add_generation_prompt=gen,
        tools=tools,
        get_tokenizer=lambda _name: tok,
        date_string=DATE,
    )
    assert b.ids == want and b.text == want_text
    assert b.template_name == "llama3.2"
    assert f"Cutting Knowledge Date: December 2023\nToday Date: {DATE}\n\n" in b.text
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens + b.tools_tokens == b.total
    assert (b.tools_tokens > 0) == bool(tools)


def test_default_date_is_today_as_transformers(reference):
    messages = [{"role": "user", "content": "What day is it?"}]
    template = chat_formats.published_template("llama3.2")
    want = list(
        reference.apply_chat_template(
            messages, chat_template=template, add_generation_prompt=True, tokenize=True, return_dict=False
        )
    )
    tok = hf_models.ours("llama3_1")
    b = chat_formats.breakdown("template:llama3@llama3.2", messages, get_tokenizer=lambda _name: tok)
    assert b.ids == want


def test_llama3_0_and_3_2_labels_and_the_preamble_cost():
    """The 3.0 format (the file's template) has no preamble; the 3.1+ one adds it to every conversation."""
    formats = {f["id"]: f for f in chat_formats.chat_formats(chat_formats.open_model_rows())}
    assert formats["template:llama3"]["label"].startswith("Llama 3.0")
    assert formats["template:llama3@llama3.2"]["label"].startswith("Llama 3.1 / 3.2 / 3.3")
    tok = hf_models.ours("llama3_1")
    msgs = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    old = chat_formats.breakdown("template:llama3", msgs, get_tokenizer=lambda _name: tok)
    new = chat_formats.breakdown("template:llama3@llama3.2", msgs, get_tokenizer=lambda _name: tok, date_string=DATE)
    assert "Cutting Knowledge" not in old.text
    preamble = "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
    assert new.total - old.total == len(tok.encode(preamble, add_special_tokens=False))
