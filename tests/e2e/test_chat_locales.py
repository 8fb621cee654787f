"""Chat in Urdu and Bangla (and axe-core in en, ur, bn) (issue 21): a conversation in the course's language built through
the page's editor, counted as gpt-tokenizer's encodeChat counts it (the reference under
Node.js), the total shown in the locale's digits, the labels from the locale's catalog, at a
desktop and a phone size, nothing wider than the page in right to left.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from tests.e2e import helpers as h
from tests.e2e.chat_helpers import build_conversation, encode_chat, wait_total

pytestmark = pytest.mark.e2e

LOCALES_DIR = h.ROOT / "web" / "src" / "locales"
DIGITS = {"en": "DIGIT", "ur": "DIGIT", "bn": "BENGALI DIGIT"}
AXE = h.ROOT / "node_modules" / "axe-core" / "axe.min.js"
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


def read_count(shown: str, code: str) -> int:
    digits = [c for c in shown if unicodedata.category(c) == "Nd"]
    assert digits and all(unicodedata.name(c).startswith(DIGITS[code]) for c in digits), shown
    return int("".join(str(unicodedata.decimal(c)) for c in digits))


@pytest.fixture
def axe_page(browser):
    """A page whose context bypasses the CSP, so axe-core can be injected as a script tag."""
    context = browser.new_context(bypass_csp=True)
    pg = context.new_page()
    pg.console_errors = []
    pg.on("pageerror", lambda exc: pg.console_errors.append(f"uncaught: {exc}"))
    yield pg
    context.close()


@pytest.mark.parametrize(
    ("code", "width", "height"), [("ur", 390, 844), ("ur", 1280, 800), ("bn", 1280, 800), ("en", 1280, 800)]
)
def test_chat_in_the_locale(axe_page, site_url, code, width, height):
    page = axe_page
    convo = CONVERSATION[code]
    [ref] = encode_chat([{"model": "gpt-4o", "messages": convo}])
    messages = json.loads((LOCALES_DIR / f"{code}.json").read_text(encoding="utf-8"))["messages"]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang={code}#chat")
    h.wait_ready(page)
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    build_conversation(page, convo)
    wait_total(page, "chatml-o200k", len(ref))
    assert read_count(page.text_content('[data-testid="chat-total"]'), code) == len(ref)
    assert page.text_content('#view-chat [data-i18n="chat.total"]') == messages["chat.total"]["text"]
    # the editor's buttons named in the locale ("Move up (Message 1)"; bidi isolates dropped)
    title = page.get_attribute('[data-testid="chat-up"] >> nth=0', "title")
    label = messages["chat.message"]["text"].replace("{n}", unicodedata.lookup(f"{DIGITS[code]} ONE"))
    want = messages["chat.action.title"]["text"].replace("{action}", messages["chat.up"]["text"])
    assert title.replace("\u2068", "").replace("\u2069", "") == want.replace("{label}", label)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    if width == 1280:  # axe-core: no serious or critical WCAG 2.x A/AA violation on Chat
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            """async () => (await axe.run(document.querySelector('#view-chat'), {
                 runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }))
               .violations.filter((v) => ['serious', 'critical'].includes(v.impact))
               .map((v) => [v.id, v.nodes.map((n) => n.target.join(' ')).slice(0, 3)])"""
        )
        assert found == [], found
    assert page.console_errors == []
