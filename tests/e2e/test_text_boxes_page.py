"""The text boxes of Train and Tokenize in Chromium: a large text (set, typed,
dropped or pasted) goes to the summary (web/src/largetext.js), is counted, kept and
cleared, and a large text the user chose to show is not copied out of the textarea on
every render; right-to-left text is right-aligned in every text box (``dir="auto"``).

Regression tests of testers' findings (issue 11).
"""

from __future__ import annotations

import pytest

from tests.e2e import helpers as h

BIG = 2_500_000  # UTF-16 units: over largetext.js's LARGE_TEXT_CHARS (500,000)
VIEWS = [("train", "train-text", "train-big-text"), ("tokenize", "tokenize-text", "tokenize-big-text")]


def _big_text() -> str:
    line = "The quick brown fox jumps over the lazy dog, 12345 times.\n"
    return (line * (BIG // len(line) + 1))[:BIG]


def _summarized(page, testid: str, bigid: str, n: int) -> None:
    """The summary is shown with n characters (UTF-16 code units), and the textarea is hidden and empty."""
    page.locator(f'[data-testid="{bigid}"]').wait_for(state="visible", timeout=30_000)
    info = page.text_content(f'[data-testid="{bigid}-info"]')
    # (a count a learner reads: characters, as JavaScript counts them; fresh tester: "UTF-16 units")
    assert f"{n:,} characters (UTF-16 code units)" in info, info
    box = page.locator(f'[data-testid="{testid}"]')
    assert box.is_hidden() and box.evaluate("(el) => el.value.length") == 0


@pytest.mark.parametrize("view,testid,bigid", VIEWS, ids=[v[0] for v in VIEWS])
def test_a_large_text_set_or_dropped_goes_to_the_summary(page, site_url, view, testid, bigid):
    text = _big_text()
    h.open_ready(page, site_url, view)
    # typed / set: the value and an input event (as the browser does after a drop it inserted)
    h.set_text(page, testid, text)
    _summarized(page, testid, bigid, len(text))
    if view == "tokenize":  # the count covers the whole text (ASCII: characters = units = bytes)
        page.wait_for_function(
            "(n) => document.querySelector('[data-testid=\"count-chars\"]').textContent.replace(/,/g, '') === String(n)",
            arg=len(text),
        )
    page.click(f'[data-testid="{bigid}"] [data-action="clear-big-text"]')
    page.locator(f'[data-testid="{testid}"]').wait_for(state="visible")
    # dropped text: a drop event with text/plain on the box
    page.locator(f'[data-testid="{testid}"]').evaluate(
        """(el, text) => {
            const data = new DataTransfer();
            data.setData('text/plain', text);
            el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        text,
    )
    _summarized(page, testid, bigid, len(text))
    page.click(f'[data-testid="{bigid}"] [data-action="clear-big-text"]')
    # a dropped text file
    page.locator(f'[data-testid="{testid}"]').evaluate(
        """(el, text) => {
            const data = new DataTransfer();
            data.items.add(new File([text], 'corpus.txt', { type: 'text/plain' }));
            el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        text[:-7],
    )
    _summarized(page, testid, bigid, len(text) - 7)
    assert not page.locator('[data-error-for="loadfile"]').text_content()  # not taken for a tokenizer file
    # a small text typed stays in the box
    page.click(f'[data-testid="{bigid}"] [data-action="clear-big-text"]')
    h.set_text(page, testid, "small text")
    assert page.locator(f'[data-testid="{bigid}"]').is_hidden()
    assert page.input_value(f'[data-testid="{testid}"]') == "small text"
    assert not page.console_errors


# counts reads of a textarea's value that copy a large text (over 100,000 units)
COUNT_READS = """
(() => {
  const d = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
  window.__bigReads = 0;
  Object.defineProperty(HTMLTextAreaElement.prototype, 'value', {
    configurable: true,
    get() { if (this.textLength > 100000) window.__bigReads++; return d.get.call(this); },
    set(v) { d.set.call(this, v); },
  });
})();
"""


def test_a_shown_large_text_is_not_copied_on_every_render(page, site_url):
    # the tester: 20 tab clicks took 10.9-13.7 s with 5 MB shown in the box. Tokenize's render
    # read textarea.value (a copy of the whole text) and recounted it on every store change.
    page.add_init_script(COUNT_READS)
    h.open_ready(page, site_url, "tokenize")
    h.paste(page, "tokenize-text", "x" * 1_000_000)
    page.locator('[data-testid="tokenize-big-text"]').wait_for(state="visible")
    page.click('[data-testid="tokenize-big-text"] [data-action="show-big-text"]')
    page.locator('[data-testid="tokenize-text"]').wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded", timeout=120_000
    )  # counted
    h.settle(page)
    page.evaluate("() => { window.__bigReads = 0; }")
    for _ in range(5):
        page.click("#tab-train")
        h.settle(page)
        page.click("#tab-tokenize")
        h.settle(page)
    # nothing to wait on when nothing is due: past the view's debounces (encode 200 ms, save 400 ms),
    # a read one of them made would be counted
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__bigReads") == 0
    # the shown text can be edited: a keystroke keeps it in the box and the count follows
    page.locator('[data-testid="tokenize-text"]').press("End")
    page.keyboard.type("yz")
    h.settle(page)
    assert page.locator('[data-testid="tokenize-big-text"]').is_hidden()
    page.wait_for_function("() => document.querySelector('[data-testid=\"count-chars\"]').textContent === '1,000,002'")
    assert not page.console_errors


def test_typing_after_a_large_paste_goes_into_the_text(page, site_url):
    """A large paste is summarized and the box hidden (largetext.js); the keys typed next went
    nowhere (the hidden box lost the focus). Now the summary takes the focus and what is typed
    (characters, Backspace) goes into the text where the paste ended; Show puts the caret there."""
    h.open_ready(page, site_url, "tokenize")
    h.set_text(page, "tokenize-text", "start end")
    page.locator('[data-testid="tokenize-text"]').evaluate(
        """(el) => {
            el.focus();
            el.setSelectionRange(6, 6);
            const data = new DataTransfer();
            data.setData('text/plain', 'x'.repeat(600000));
            el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        }"""
    )
    page.locator('[data-testid="tokenize-big-text"]').wait_for(state="visible")
    page.keyboard.type("yz")
    page.keyboard.press("Backspace")
    page.keyboard.type(" ")
    page.wait_for_function("() => document.querySelector('[data-testid=\"count-chars\"]').textContent === '600,011'")
    page.click('[data-testid="tokenize-big-text"] [data-action="show-big-text"]')
    box = page.locator('[data-testid="tokenize-text"]')
    box.wait_for(state="visible")
    value, caret = box.evaluate("(el) => [el.value, el.selectionStart]")
    assert value == "start " + "x" * 600_000 + "y end" and caret == 600_008
    assert not page.console_errors


ARABIC = "مرحبا بالعالم، هذا نص عربي"


def test_right_to_left_text_is_right_to_left_in_every_text_box(page, site_url):
    h.open_ready(page, site_url, "train")
    boxes = {
        "train": ["train-text", "train-name"],
        "tokenize": ["tokenize-text"],
        "compare": ["compare-custom"],
        "steps": ["steps-text", "steps-word"],
        "chat": ["chat-content"],
    }
    for view, testids in boxes.items():
        page.click(f"#tab-{view}")
        for testid in testids:
            box = page.locator(f'[data-testid="{testid}"]').first
            box.evaluate(
                "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", ARABIC
            )
            h.settle(page)
            assert box.evaluate("(el) => getComputedStyle(el).direction") == "rtl", testid


def _wait_count(page, tokenizer: str, n: int) -> None:
    page.wait_for_function(
        "(want) => document.querySelector('#view-tokenize').dataset.encoded === want",
        arg=f"{tokenizer}:{n}",
        timeout=300_000,
    )


def test_a_large_paste_in_tokenize_is_counted_kept_and_cleared(page, site_url):
    """Issue 11 "Large pastes": with MBs in the Tokenize textarea every tab click and keystroke
    took seconds. A ~1 MB paste must be held outside the textarea (a summary with its size shows
    instead), counted like tiktoken counts it, carried by the share link, kept across a reload,
    and Clear gives the empty box back."""
    h.open_ready(page, site_url, "tokenize")
    page.wait_for_function("() => (document.querySelector('#view-tokenize').dataset.encoded || '').length")
    d = h.load_udhr()
    base = "\n".join(d[c].text for c in sorted(d))
    text = (base * (1_000_000 // len(base) + 1))[:1_000_000]
    n = len(h.tiktoken_for("cl100k_base").encode_ordinary(text))
    size = len(text.encode("utf-8"))
    h.paste(page, "tokenize-text", text)

    def check_big() -> None:
        page.wait_for_selector('[data-testid="tokenize-big-text"]:not([hidden])')
        assert page.locator('[data-testid="tokenize-text"]').is_hidden()
        assert page.evaluate("() => document.querySelector('[data-testid=\"tokenize-text\"]').value") == ""
        assert page.text_content('[data-testid="tokenize-big-text-info"]').startswith(f"{size / 1024 / 1024:.2f} MB")
        _wait_count(page, "cl100k_base", n)
        assert page.text_content('[data-testid="count-tokens"]') == f"{n:,}"
        assert page.text_content('[data-testid="count-chars"]') == f"{len(text):,}"
        assert page.text_content('[data-testid="count-bytes"]') == f"{size:,}"
        # only the first tokens are drawn (issue 11: "render tokens only for what is on screen"); the count is whole
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('#view-tokenize [data-testid=\"token\"]')]"
            ".reduce((k, e) => k + e.dataset.ids.split(',').length, 0)"
        )
        assert 0 < drawn <= 5000 < n, (drawn, n)
        assert page.text_content('[data-testid="tokens-note"]') == f"Showing the first {drawn:,} of {n:,} tokens."

    check_big()
    # the share link carries the text as it did when the textarea held it (under links.MAX_LINK_TEXT)
    page.click('[data-testid="share-button"]')
    link = page.input_value('[data-testid="share-link"]')
    page.keyboard.press("Escape")
    packed = link.split("&t=", 1)[1].split("&", 1)[0] if "&t=" in link else link.split("?t=", 1)[1].split("&", 1)[0]
    assert page.evaluate("(p) => LZString.decompressFromEncodedURIComponent(p)", packed) == text
    # a reload keeps it (saves are debounced)
    h.wait_saved(page, "tokenize", text)
    page.reload()
    h.wait_ready(page)
    check_big()
    # Clear gives the box back
    page.click('[data-testid="tokenize-big-text"] [data-action="clear-big-text"]')
    assert page.locator('[data-testid="tokenize-text"]').is_visible()
    assert page.locator('[data-testid="tokenize-big-text"]').is_hidden()
    assert page.text_content('[data-testid="count-chars"]') == "0"
    page.locator('[data-testid="tokenize-text"]').press_sequentially("hello world")
    _wait_count(page, "cl100k_base", len(h.tiktoken_for("cl100k_base").encode_ordinary("hello world")))


@pytest.mark.parametrize(("view", "testid"), [("tokenize", "tokenize-text"), ("train", "train-text")])
def test_a_reload_right_after_typing_keeps_what_was_typed(page, site_url, view, testid):
    """The text boxes save on a pause in typing (debounced, 400 ms); a learner who reloads or
    leaves sooner than that lost the last words. The page saves what is pending when it is
    hidden (pagehide / visibilitychange), so a reload at once keeps them."""
    h.open_ready(page, site_url, view)
    box = page.locator(f'[data-testid="{testid}"]')
    box.fill("")
    box.press_sequentially("সব মানুষ স্বাধীন")  # (Bangla: the first words of UDHR article 1)
    page.reload()  # at once: within the save's 400 ms pause
    h.wait_ready(page)
    page.wait_for_selector(f'[data-testid="{testid}"]:not(:placeholder-shown)')
    assert page.input_value(f'[data-testid="{testid}"]') == "সব মানুষ স্বাধীন"


@pytest.mark.parametrize(("view", "testid"), [("tokenize", "tokenize-text"), ("train", "train-text")])
def test_text_typed_before_the_pages_script_arrives_is_kept(page, site_url, view, testid):
    """On a slow phone the text boxes show seconds before the page's script has arrived; what a
    learner typed then was kept on screen but never saved, so the reload that came with the
    connection back lost it (a tester, in Urdu, under "your typed text is kept"). Here the
    script is held until the text is typed."""
    held = []
    page.route("**/src/main.js", lambda route: held.append(route))
    page.goto(f"{site_url}#{view}", wait_until="commit")
    page.wait_for_selector(f'[data-testid="{testid}"]', state="attached")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page's script was not routed"
    typed = "میرا اپنا لکھا ہوا متن 123"  # (Urdu: "my own written text")
    page.evaluate(
        "([sel, text]) => { document.querySelector(sel).value = text; }",  # (typed: no script listens yet)
        [f'[data-testid="{testid}"]', typed],
    )
    held[0].continue_()
    page.unroute("**/src/main.js")
    h.wait_ready(page)
    # (saved after a short debounce: a loaded CI page had not written it yet at the reload)
    h.wait_saved(page, view, typed)
    page.reload()
    h.wait_ready(page)
    page.wait_for_selector(f'[data-testid="{testid}"]:not(:placeholder-shown)')
    assert page.input_value(f'[data-testid="{testid}"]') == typed
