"""Chat in Urdu and Bangla (and axe-core in en, ur, bn) (issue 21): a conversation in the course's language built through
the page's editor, counted as gpt-tokenizer's encodeChat counts it (the reference under
Node.js), the total shown in the locale's digits, the labels from the locale's catalog, at a
desktop and a phone size, nothing wider than the page in right to left.
"""

from __future__ import annotations

import pytest

from tests.e2e import helpers as h
from tests.e2e.chat_helpers import build_conversation, encode_chat, wait_total

pytestmark = pytest.mark.e2e

CONVERSATION = {
    "en": [
        {"role": "system", "content": "You are a concise assistant."},
        {"role": "user", "content": "What does a tokenizer do?"},
    ],
    "ur": [
        {"role": "system", "content": "آپ ایک مختصر جواب دینے والے مددگار ہیں۔"},
        {"role": "user", "content": "tokenizer کیا کرتا ہے؟"},
    ],
    "bn": [
        {"role": "system", "content": "তুমি একজন সংক্ষিপ্ত সহকারী।"},
        {"role": "user", "content": "tokenizer কী করে?"},
    ],
}


# the left edges of an element's numbers and of the word "token", in the text's order
LEFTS = """(el) => { const n = el.firstChild, r = document.createRange(), out = [];
  for (const m of n.textContent.matchAll(/[0-9\u06f0-\u06f9\u0660-\u0669]+|tokens?/g)) {
    r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length); out.push(r.getBoundingClientRect().left); }
  return out; }"""


@pytest.mark.parametrize(
    ("code", "width", "height"), [("ur", 390, 844), ("ur", 1280, 800), ("bn", 1280, 800), ("en", 1280, 800)]
)
def test_chat_in_the_locale(csp_free_page, site_url, code, width, height):
    page = csp_free_page
    convo = CONVERSATION[code]
    [ref] = encode_chat([{"model": "gpt-4o", "messages": convo}])
    messages = h.messages(code)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang={code}#chat")
    h.wait_ready(page)
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    build_conversation(page, convo)
    wait_total(page, "chatml-o200k", len(ref))
    assert h.read_count(page.text_content('[data-testid="chat-total"]'), code) == len(ref)
    assert page.text_content('#view-chat [data-i18n="chat.total"]') == messages["chat.total"]["text"]
    # the editor's buttons named in the locale ("Move up (Message 1)"; bidi isolates dropped)
    title = page.get_attribute('[data-testid="chat-up"] >> nth=0', "title")
    label = messages["chat.message"]["text"].replace("{n}", h.in_digits(1, code))
    want = messages["chat.action.title"]["text"].replace("{action}", messages["chat.up"]["text"])
    assert title.replace("\u2068", "").replace("\u2069", "") == want.replace("{label}", label)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    if code == "ur":  # a message's count reads right to left: the total, "tokens", the content count,
        # the overhead; a tester read "tokens: 18 22", the total beside the content count
        total, word, content, overhead = page.locator('[data-testid="chat-message-count"] >> nth=0').evaluate(LEFTS)
        assert total > word > content > overhead, (total, word, content, overhead)
    if width == 1280:  # axe-core: no serious or critical WCAG 2.x A/AA violation on Chat
        found = h.axe_violations(page, "#view-chat")
        assert found == [], found
    assert page.console_errors == []


@pytest.mark.parametrize("code", ["fa", "bn"])
def test_tool_definition_faults_in_the_locales_words(page, site_url, code):
    """Tester finding: Python's English ("invalid JSON at line 1, column 47: Expecting ',' delimiter")
    inside a Persian sentence. The fault is worded from its reason and values (ToolsError.reason)."""
    messages = h.messages(code)
    page.goto(f"{site_url}?lang={code}#chat")
    h.wait_ready(page)
    err = page.locator('[data-testid="chat-tools-error"]')

    def worded(key, **values):
        text = messages[key]["text"]
        for name, n in values.items():
            text = text.replace("{" + name + "}", h.in_digits(n, code))
        return text

    cases = [
        # json's position of the fault in '[{"a": 1,}]': the "}" after "," (column 10), or the ","
        # itself (column 9) in Python 3.13's json
        ('[{"a": 1,}]', {worded("error.tools.json_syntax", line=1, column=c) for c in (9, 10)}),
        (
            '[{"type": "function", "function": {"description": "no name"}}]',
            {worded("error.tools.needs_name", tool=1)},
        ),
        ('{"name": "x"}', {worded("error.tools.not_list")}),
    ]
    for text, wants in cases:
        page.fill('[data-testid="chat-tools"]', text)
        h.wait_text(err, wants, timeout=60_000)  # the count is debounced and runs in the worker


def test_the_tools_example_reads_left_to_right_in_persian_on_a_phone(page, site_url):
    """Tester finding: the JSON example in the Persian tools hint had its brackets at the far ends of
    two lines (an LTR isolate wrapped inside a right-to-left sentence)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}?lang=fa#chat")
    h.wait_ready(page)
    code = page.locator("#chat-tools-help code")
    code.wait_for(state="visible")
    first, last, box = page.evaluate(
        """() => {
            const code = document.querySelector('#chat-tools-help code');
            const text = code.firstChild;
            const at = (i) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
                                return r.getBoundingClientRect(); };
            const b = code.getBoundingClientRect();
            const f = at(0), l = at(text.length - 1);
            return [[f.left, f.top], [l.right, l.top], [b.left, b.right, b.top]];
        }"""
    )
    # "[" starts the first line at the box's left; "]" ends the last line, left to right
    assert abs(first[0] - box[0]) < 2 and abs(first[1] - box[2]) < 2, (first, box)
    assert last[1] >= first[1] and last[0] <= box[1] + 1, (last, box)
