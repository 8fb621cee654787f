"""Issue 11, what the page says, in Chromium: words true for the device, the Share
dialog true for the link it made, and links whose parameters the page cannot use.

* Touch wording: on a touch screen (Playwright ``is_mobile``/``has_touch``, 390×844)
  no visible text says "hover" (Chat's help line, the token detail line, the
  legend of invisible characters all said it); with a mouse the hover words stay.
* The Share dialog with a text too large for a link (over ``MAX_LINK_TEXT``, 2
  million characters): its first sentence said the link reopens the text while
  the warning under it said the link holds the settings only.
* Link parameters with wrong names (``#compare?toks=``) were ignored silently; bad
  values of known parameters (``metric=``, ``ids=``) too, in places.

Expected values are the page's own input (the text pasted, the parameters of the
link typed here), never the page's output. Predicates are arrow functions (the
page's Content-Security-Policy forbids eval).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e

#: a zero-width joiner (a named invisible character) and Bengali letters that
#: cl100k_base splits into byte fragments: both legend items show
LEGEND_TEXT = "👨\u200d👩\u200d👧 আমি বাংলায় গান গাই"
VIEWS = ["train", "tokenize", "compare", "steps", "chat"]


def _tokenize(page, text: str, tokenizer: str = "cl100k_base") -> None:
    h.set_text(page, "tokenize-text", text)
    page.select_option('[data-testid="tokenize-tokenizer"]', tokenizer)
    page.wait_for_function(
        "([tok, text]) => (document.querySelector('#view-tokenize').dataset.encoded || '').startsWith(tok + ':')"
        " && document.querySelector('[data-testid=\"tokenize-text\"]').value === text"
        " && document.querySelector('[data-testid=\"token\"]')",
        arg=[tokenizer, text],
        timeout=h.READY_TIMEOUT,
    )
    h.settle(page)


def _visible_text(page) -> str:
    """The text a reader sees (innerText leaves out display:none, hidden views and closed dialogs)."""
    return page.evaluate("() => document.body.innerText")


# --- touch wording ------------------------------------------------------------------


def test_touch_screens_never_read_hover(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        h.open_ready(page, site_url, "tokenize")
        assert page.evaluate("() => matchMedia('(hover: none)').matches || matchMedia('(pointer: coarse)').matches")
        _tokenize(page, LEGEND_TEXT)
        page.locator('[data-testid="legend-invisible"]').wait_for(state="visible")
        page.locator('[data-testid="legend-fragment"]').wait_for(state="visible")
        detail = page.locator('[data-testid="token-detail"]')
        assert detail.inner_text().strip() == "Tap a token."
        assert "tap its token" in page.locator('[data-testid="legend-invisible"]').inner_text()
        seen = {}
        for view in VIEWS:
            page.click(f"#tab-{view}")
            if view == "chat":
                page.locator('[data-testid="chat-tokens"] [data-testid="chat-token"]').first.wait_for(
                    timeout=h.READY_TIMEOUT
                )
            h.settle(page)
            seen[view] = _visible_text(page)
        # where the clipboard is refused, the fallback says how to copy on this device
        page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
        page.click("#tab-tokenize")
        page.click('[data-testid="copy-ids-json"]')
        page.wait_for_function("() => /selected/.test(document.querySelector('#view-tokenize').innerText)")
        seen["copy ids"] = _visible_text(page)
        assert "touch and hold them to copy" in seen["copy ids"]
        page.click('[data-testid="share-button"]')
        status = page.locator('[data-testid="share-status"]')
        page.wait_for_function("() => document.querySelector('[data-testid=\"share-status\"]').innerText")
        assert status.inner_text() == "Link selected: touch and hold it to copy it."
        seen["share"] = _visible_text(page)
        assert "Ctrl" not in seen["share"] and "Ctrl" not in seen["copy ids"]
        page.keyboard.press("Escape")
        hits = {v: re.findall(r"[^.\n]*\bhover[^.\n]*", t, flags=re.I) for v, t in seen.items()}
        assert not any(hits.values()), hits
        assert "Tap a token to see its id and message." in seen["chat"]
        # what the words promise holds: a tap shows the token (the ZWJ's name included)
        page.click("#tab-tokenize")
        page.locator('#view-tokenize [data-testid="token"]:has([data-testid="invisible-char"])').first.tap()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"token-detail\"]').innerText.includes('ZERO WIDTH JOINER')",
            timeout=10_000,
        )
    finally:
        context.close()


def test_a_mouse_keeps_the_hover_words(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    h.open_ready(page, site_url, "tokenize")
    assert not page.evaluate("() => matchMedia('(hover: none)').matches")
    _tokenize(page, LEGEND_TEXT)
    page.locator('[data-testid="legend-invisible"]').wait_for(state="visible")
    assert page.locator('[data-testid="token-detail"]').inner_text().strip() == "Hover or focus a token."
    assert "hover over it for its name" in page.locator('[data-testid="legend-invisible"]').inner_text()
    assert "Tap" not in page.locator('[data-testid="tokens-legend"]').inner_text()
    page.click("#tab-chat")
    help_line = page.locator("#chat-tokens-help").inner_text()
    assert "Hover a token" in help_line and "Tap" not in help_line
    assert page.locator('[data-testid="chat-token-detail"]').inner_text().strip() == "Hover or focus a token."
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
    page.click('[data-testid="share-button"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"share-status\"]').innerText")
    assert (
        page.locator('[data-testid="share-status"]').inner_text()
        == "Link selected: press Ctrl+C (⌘C on a Mac) to copy it."
    )
    assert page.console_errors == []


# --- the Share dialog says one true thing --------------------------------------------


def _share(page) -> dict:
    page.click('[data-testid="share-button"]')
    page.locator('[data-testid="share-dialog"]').wait_for(state="visible")
    out = {
        "intro": page.locator('[data-testid="share-intro"]').inner_text(),
        "note": page.locator('[data-testid="share-note"]').inner_text()
        if page.locator('[data-testid="share-note"]').is_visible()
        else "",
        "link": page.input_value('[data-testid="share-link"]'),
        "text": page.locator('[data-testid="share-dialog"]').inner_text(),
    }
    page.keyboard.press("Escape")
    return out


def test_share_dialog_with_a_text_too_large_for_a_link_says_settings_only(page, site_url):
    h.open_ready(page, site_url, "train")
    big = "the quick brown fox jumps over the lazy dog " * 50_000  # 2,250,000 characters > 2 million
    h.paste(page, "train-text", big)
    page.locator('[data-testid="train-big-text"]').wait_for(state="visible")
    page.fill('[data-testid="train-vocab"]', "300")
    shared = _share(page)
    fragment = unquote(shared["link"].split("#", 1)[1])
    assert not re.search(r"[?&]t=", fragment), fragment
    assert re.search(r"[?&]v=300(&|$)", fragment), fragment
    # one message: the settings only, the text to paste again; nothing says the text comes back
    assert "settings only" in shared["intro"] and f"{len(big) / 1e6:.1f} million characters" in shared["intro"], shared
    assert "paste the training text again" in shared["intro"], shared
    assert "reopens the view as it is now" not in shared["text"], shared
    assert "never reaches a server" not in shared["text"], shared
    assert shared["text"].count("too large for a link") == 1, shared
    # a text that fits: the first sentence says the text comes back, and it is in the link
    page.click('#view-train [data-action="clear-big-text"]')
    h.set_text(page, "train-text", "low lower lowest newer wider")
    shared = _share(page)
    assert re.search(r"[?&]t=", shared["link"]), shared["link"]
    assert "reopens the view as it is now: the training text and the settings" in shared["intro"], shared
    assert "too large" not in shared["text"] and "settings only" not in shared["text"], shared
    assert page.console_errors == []


# --- link parameters the page cannot use ----------------------------------------------


def _note(page) -> str:
    note = page.locator('[data-testid="link-note"]')
    note.wait_for(state="visible", timeout=30_000)
    return page.locator('[data-testid="link-note-text"]').inner_text()


def test_unknown_link_parameters_and_bad_values_get_a_dismissable_note(page, site_url):
    page.goto(site_url + "#compare?toks=gpt2,o200k_base&metric=bytes")
    h.wait_ready(page)
    text = _note(page)
    assert "“toks”" in text and "src, t, tok, metric" in text, text
    assert "metric=“bytes”" in text and "premium, tokens, or bpt" in text, text
    page.click('[data-testid="link-note-close"]')
    assert page.locator('[data-testid="link-note"]').is_hidden()
    # another view: its own known names, several unknown ones named at once, a bad flag value
    page.goto(site_url + "#tokenize?tokk=gpt2&idz=1&ids=yes")
    page.reload()
    h.wait_ready(page)
    text = _note(page)
    assert "“tokk”, “idz”" in text and "#tokenize links know t, tok, ids, ws, sp, st, sbs, g, gt" in text, text
    assert "ids=“yes”" in text, text
    assert "tokk" not in _visible_text(page).replace(text, "")  # said once
    # an unknown view name
    page.goto(site_url + "#compar?tok=gpt2")
    text = _note(page)
    assert "“compar”" in text and "train, tokenize, compare, steps, chat" in text, text
    assert "showing #tokenize" in text and page.evaluate("() => document.body.dataset.view") == "tokenize", text
    # the note belongs to the linked view: another tab takes it away
    page.click("#tab-chat")
    page.wait_for_function("() => document.querySelector('[data-testid=\"link-note\"]').hidden")
    # a link the page wrote itself (Share) has only known names and values: no note
    page.goto(site_url + "#tokenize")
    page.reload()
    h.wait_ready(page)
    page.check('[data-testid="toggle-ids"]')
    page.check('[data-testid="toggle-whitespace"]')
    link = _share(page)["link"]
    page.goto(link)
    page.reload()
    h.wait_ready(page)
    h.settle(page)
    page.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded")
    assert page.locator('[data-testid="link-note"]').is_hidden(), page.locator('[data-testid="link-note"]').inner_text()
    assert page.is_checked('[data-testid="toggle-ids"]') and page.is_checked('[data-testid="toggle-whitespace"]')
    # the skip link's "#main" is no view: the page stays on Tokenize
    page.evaluate("() => { location.hash = '#main'; }")
    h.settle(page)
    assert page.evaluate("() => document.body.dataset.view") == "tokenize"
    assert page.console_errors == []


# --- issue 11 item 8: messages in plain words, never a raw developer message ---------

#: words of a developer's message that must never reach a reader (issue 11 item 8 quoted
#: "split text with count_words", "as a regex it would keep only that word" and a raw
#: `Unexpected token 'a', "aaaaaaaaaa"... is not valid JSON`)
DEVELOPER_WORDS = re.compile(
    r"count_words|parse_word_counts|keep only that word|is not valid JSON|Unexpected token|Traceback|"
    r"\bError:|TypeError|ValueError|undefined|\[object",
)


def test_errors_speak_plain_words(page, site_url):
    h.open_ready(page, site_url)
    # a pre-tokenizer name typed as a custom regex (a misspelt name)
    h.set_text(page, "train-text", "some text to train on, some text")
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', "cl100k")
    page.get_by_role("button", name="Train", exact=True).click()
    message = h.visible_error(page, "train-regex-error")
    assert "(?:cl100k)" in message and "pick a pre-tokenizer" in message.lower(), message
    assert not DEVELOPER_WORDS.search(message), message
    # textbook BPE encodes one word: two words get a sentence that says so, not an API name
    page.get_by_role("tab", name="Step through").click()
    page.wait_for_function(
        "() => /Step \\d+ of \\d+/.test(document.querySelector('[data-testid=\"steps-position\"]').textContent)"
    )
    page.fill('[data-testid="steps-word"]', "low er")
    page.press('[data-testid="steps-word"]', "Enter")
    message = h.visible_error(page, "steps-word-error")
    assert "single word" in message, message
    assert not DEVELOPER_WORDS.search(message), message
    assert page.console_errors == []


def test_a_burst_of_bad_step_inputs_shows_only_plain_messages(page, site_url):
    h.open_ready(page, site_url, "steps")
    page.wait_for_function(
        "() => /Step \\d+ of \\d+/.test(document.querySelector('[data-testid=\"steps-position\"]').textContent)"
    )
    # every text any message of the view or the status line shows, as it changes
    page.evaluate("""() => {
        window.__seen = [];
        const watch = [...document.querySelectorAll('#view-steps .error, [data-testid="status-text"], [data-testid="link-note"]')];
        const note = () => { for (const el of watch) if (!el.hidden && el.textContent) window.__seen.push(el.textContent); };
        new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
    }""")
    bad_texts = [
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "low x",
        "{",
        '"aaaaaaaaaa"',
        "low 5\nlow 3",
        "",
        "a 0",
        "low -2",
        "[1, 2]",
        "aaaaaaaaaa 99999999999999999999999",
        "low\t5 extra",
        "null",
    ]
    for text in bad_texts:  # faster than the view's debounce: calls overlap
        h.set_text(page, "steps-text", text)
        page.wait_for_timeout(60)
    for n in ["0", "-1", "1e9", "2.5", "99999"]:
        page.fill('[data-testid="steps-merges"]', n)
        page.wait_for_timeout(60)
    page.fill('[data-testid="steps-merges"]', "3")
    h.set_text(page, "steps-text", "low 5\nlower 2\nnewest 6")
    page.wait_for_function(
        "() => /Step \\d+ of 3/.test(document.querySelector('[data-testid=\"steps-position\"]').textContent)",
        timeout=60_000,
    )
    h.settle(page)
    seen = page.evaluate("() => window.__seen")
    assert seen, "the burst showed no message at all"
    leaks = sorted({s for s in seen if DEVELOPER_WORDS.search(s)})
    assert not leaks, leaks
    assert page.locator("#view-steps .error:not([hidden])").count() == 0  # the last, good input clears them
    assert page.evaluate("() => document.body.dataset.pyodide") == "ready"
    assert page.console_errors == []
