"""What the page says, in Chromium: words true for the device, errors in plain words.

* Touch wording: on a touch screen (Playwright ``is_mobile``/``has_touch``, 390×844)
  no visible text says "hover" (Chat's help line, the token detail line, the
  legend of invisible characters all said it); with a mouse the hover words stay.
* Errors speak plain words: no developer words (exception names, field names) reach the
  page, even after a burst of bad Step-through inputs.

Expected values are the page's own input, never the page's output. Predicates are
arrow functions (the page's Content-Security-Policy forbids eval).
"""

from __future__ import annotations

import re

from tests.e2e import helpers as h

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


DEVELOPER_WORDS = re.compile(
    r"count_words|parse_word_counts|keep only that word|is not valid JSON|Unexpected token|Traceback|"
    r"\bError:|TypeError|ValueError|undefined|\[object",
)


def test_touch_screens_never_read_hover(phone_page, site_url):
    page = phone_page
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
    for text in bad_texts:
        h.set_text(page, "steps-text", text)
        page.wait_for_timeout(60)  # a pace, not a wait: faster than the view's debounce, so calls overlap
    for n in ["0", "-1", "1e9", "2.5", "99999"]:
        page.fill('[data-testid="steps-merges"]', n)
        page.wait_for_timeout(60)  # (the same pace)
    # The good input ends on 4 steps, which no earlier input can show ("low 5\nlow 3" learns 3 steps
    # and the long "aaaaaaaaaa" line 5, when a loaded machine paces them past the debounce): a wait
    # for "of 3" once passed on the stale 3 steps, before the last learn ran and cleared the messages.
    page.fill('[data-testid="steps-merges"]', "4")
    h.set_text(page, "steps-text", "low 5\nlower 2\nnewest 6")
    page.wait_for_function(
        "() => /Step \\d+ of 4/.test(document.querySelector('[data-testid=\"steps-position\"]').textContent)",
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
