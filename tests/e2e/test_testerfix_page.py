"""A fresh tester's findings on the built page (issue 11 "a fresh tester finds none"),
each with its regression test:

1. a large text that reaches Train's or Tokenize's textarea other than by a paste (typed or
   set: an ``input`` event; dropped: text or a text file) goes to the summary
   (web/src/largetext.js), and a large text the user chose to show is not copied out of
   the textarea on every render;
2. the "Add special tokens" switch says the count follows tokenizer.json's post-processor
   (DeepSeek V3: none; transformers 4.x adds a BOS, said in "About this tokenizer");
3. right-to-left text in the text boxes is right-aligned (``dir="auto"``);
4. a ``.tiktoken`` file loaded as a tokenizer.json is named as such; on a phone the token
   detail wraps between words, inside its box.
"""

from __future__ import annotations

import pathlib

import pytest

import bytepair
from tests import hf_models
from tests.e2e import helpers as h

BIG = 2_500_000  # UTF-16 units: over largetext.js's LARGE_TEXT_CHARS (500,000)
VIEWS = [("train", "train-text", "train-big-text"), ("tokenize", "tokenize-text", "tokenize-big-text")]


def _big_text() -> str:
    line = "The quick brown fox jumps over the lazy dog, 12345 times.\n"
    return (line * (BIG // len(line) + 1))[:BIG]


def _summarized(page, testid: str, bigid: str, n: int) -> None:
    """The summary is shown with n UTF-16 units, and the textarea is hidden and empty."""
    page.locator(f'[data-testid="{bigid}"]').wait_for(state="visible", timeout=30_000)
    info = page.text_content(f'[data-testid="{bigid}-info"]')
    assert f"{n:,} UTF-16 units" in info, info
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
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__bigReads") == 0
    # the shown text can be edited: a keystroke keeps it in the box and the count follows
    page.locator('[data-testid="tokenize-text"]').press("End")
    page.keyboard.type("yz")
    h.settle(page)
    assert page.locator('[data-testid="tokenize-big-text"]').is_hidden()
    page.wait_for_function("() => document.querySelector('[data-testid=\"count-chars\"]').textContent === '1,000,002'")
    assert not page.console_errors


def test_deepseek_switch_says_it_follows_the_tokenizer_json(page, site_url):
    text = "Hello world, 你好"
    ref = hf_models.reference(hf_models.SITE_KEYS["deepseek_v3"])
    # tokenizers, from the same tokenizer.json: its post-processor adds nothing
    n = len(ref.encode(text, add_special_tokens=True).ids)
    assert n == len(ref.encode(text, add_special_tokens=False).ids)
    h.open_ready(page, site_url, "tokenize")
    h.set_text(page, "tokenize-text", text)
    page.select_option('[data-testid="tokenize-tokenizer"]', "deepseek_v3")
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"deepseek_v3:{n}",
        timeout=120_000,
    )
    h.settle(page)
    switch = page.text_content('[data-testid="special-toggle"]')
    assert "none in this tokenizer.json's post-processor" in switch, switch
    assert "as the model's tokenizer does" not in switch and "none for this tokenizer" not in switch
    page.click('[data-testid="tokenizer-info"] summary')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"tokenizer-info\"]').dataset.tokenizer === 'deepseek_v3'"
    )
    info = page.text_content('[data-testid="tokenizer-info-list"]')
    assert "transformers 4.x" in info and "add_bos_token" in info, info


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


def test_a_tiktoken_file_loaded_as_tokenizer_json_is_named(page, site_url):
    from bytepair.tiktoken_file import read_tiktoken_bytes

    data = read_tiktoken_bytes(pathlib.Path(bytepair.__file__).parent / "data" / "r50k_base.tiktoken.gz")
    h.open_ready(page, site_url, "tokenize")
    page.set_input_files(
        '[data-testid="load-tokenizer-file"]',
        files=[{"name": "r50k_base.tiktoken", "mimeType": "application/octet-stream", "buffer": data}],
    )
    page.wait_for_function("() => document.querySelector('[data-error-for=\"loadfile\"]')?.textContent")
    message = page.text_content('[data-error-for="loadfile"]')
    assert "tiktoken rank file" in message and "not valid JSON" not in message, message


def test_token_detail_wraps_between_words_on_a_phone(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        enc = h.tiktoken_for("cl100k_base")
        text = "the fish 😀🎉 the fox jumps over"
        h.open_ready(page, site_url, "tokenize")
        page.select_option('[data-testid="tokenize-tokenizer"]', "cl100k_base")
        h.set_text(page, "tokenize-text", text)
        page.wait_for_function(
            "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
            arg=f"cl100k_base:{len(enc.encode(text))}",
        )
        page.locator('[data-testid="tokens"] .tok-group').nth(3).click()  # 🎉: three byte tokens
        detail = page.locator('[data-testid="token-detail"]')
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"token-detail\"]').textContent.includes('UTF-8 bytes')"
        )
        geo = detail.evaluate("""(el) => {
            const box = el.getBoundingClientRect();
            // every word of letters lies on one line: a range over it has one box
            const split = [];
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                for (const m of n.data.matchAll(/[A-Za-z]{2,}/g)) {
                    const r = document.createRange();
                    r.setStart(n, m.index);
                    r.setEnd(n, m.index + m[0].length);
                    if (r.getClientRects().length > 1) split.push(m[0]);
                }
            }
            return { scroll: el.scrollWidth, client: el.clientWidth, right: box.right, split };
        }""")
        assert geo["scroll"] <= geo["client"] and geo["right"] <= 390, geo
        assert not geo["split"], geo
    finally:
        context.close()
