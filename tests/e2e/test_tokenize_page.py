"""The Tokenize view in Chromium: ids of newline tokens on their token's line,
invisible characters shown by name (chips, detail, decode, merges), UTF-8 fragments
explained in place, right-to-left tokens isolated, the phone layout (tabs, merges
table, touch hints, the special-token label, the token detail wrapping between
words) and the desktop's keyboard hints, the special-token switch's wording
(p50k_base, Mistral's Tekken files, DeepSeek V3's tokenizer.json), ids -> text and
copying ids, a lone combining mark on a dotted circle, and tokenizer files refused or
named (a deeply nested JSON, a ``.tiktoken`` file loaded as a tokenizer.json).

Regression tests of issue 11 and of testers' findings, each failing without its fix.
Expected ids and texts come from tiktoken (built offline from the rank files),
tokenizers / mistral-common and Python's ``unicodedata``; layout checks measure the
page's boxes. The page's Content-Security-Policy forbids eval: predicates are arrow
functions.
"""

from __future__ import annotations

import json
import pathlib
import unicodedata

import pytest

import bytepair
from tests import hf_models
from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e

FAMILY = "👨\u200d👩\u200d👧"  # issue 11: the ZWJ inside is o200k token 2524


def chip_ids(page) -> list[int]:
    return [
        int(i)
        for g in page.locator('[data-testid="token"]').evaluate_all("(els) => els.map((e) => e.dataset.ids)")
        for i in g.split(",")
    ]


# --- item 4: ids of newline tokens stay on their line -----------------------------


def test_newline_token_ids_stay_on_the_line_of_their_token(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    page.check('[data-testid="toggle-ids"]')
    text = "alpha beta\ngamma delta\n\nepsilon\n"
    h.encode_in_page(page, text, "cl100k_base")
    assert chip_ids(page) == h.tiktoken_for("cl100k_base").encode(text)
    for ws in (False, True):
        page.set_checked('[data-testid="toggle-whitespace"]', ws)
        h.settle(page)
        boxes = page.evaluate("""() => [...document.querySelectorAll('[data-testid="token"]')].map((el) => {
            const id = el.querySelector('.tok-id').getBoundingClientRect();
            const first = el.getClientRects()[0];
            const own = [...el.childNodes].filter((n) => !(n.classList && n.classList.contains('tok-id'))).map((n) => n.textContent).join('');
            return {ends: /\\n$/.test(own), idTop: id.top, idBottom: id.bottom, top: first.top, bottom: first.bottom,
                    lineStart: el.previousElementSibling === null ? true : null};
        })""")
        newline_chips = [b for b in boxes if b["ends"]]
        assert len(newline_chips) >= 3
        for b in newline_chips:
            # the id label sits on the first line of its own chip, not at the start of the next line
            assert b["idTop"] < b["bottom"] and b["idBottom"] > b["top"], (ws, b)


# --- item 5: invisible characters by name ------------------------------------------


def test_invisible_characters_show_by_name_in_chips_detail_decode_and_merges(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    enc = h.tiktoken_for("o200k_base")
    h.encode_in_page(page, FAMILY + " a\x1bb", "o200k_base")
    assert chip_ids(page) == enc.encode(FAMILY + " a\x1bb")
    assert 2524 in chip_ids(page)
    for ws in (False, True):
        page.set_checked('[data-testid="toggle-whitespace"]', ws)
        h.settle(page)
        marks = page.locator(
            '[data-testid="invisible-char"]'
        ).evaluate_all("""(els) => els.map((e) => ({
            text: e.textContent, title: e.title, drawn: getComputedStyle(e, '::before').content, width: e.getBoundingClientRect().width}))""")
        # the label is drawn on screen, the character itself stays in the text (copying keeps it)
        assert [m["drawn"] for m in marks] == ['"ZWJ"', '"ZWJ"', '"ESC"']
        assert [m["text"] for m in marks] == ["\u200d", "\u200d", "\x1b"]
        assert all(unicodedata.lookup(m["drawn"].strip('"')) == m["text"] for m in marks)
        assert marks[0]["title"] == "U+200D " + unicodedata.name("\u200d")
        assert all(m["width"] > 8 for m in marks)  # not an empty box
    chip = page.locator('[data-testid="token"][data-ids="2524"]').first
    chip.hover()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"token-detail\"]').textContent.includes('2524')"
    )
    detail = page.text_content('[data-testid="token-detail"]')
    assert "“⟨ZWJ⟩”" in detail and "U+200D ZERO WIDTH JOINER" in detail and "“\u200d”" not in detail
    assert page.locator('[data-testid="legend-invisible"]').is_visible()

    # ids -> text: the decoded tokens name the ZWJ too
    page.locator('[data-testid="decode-card"] summary').click()
    page.fill('[data-testid="decode-ids"]', " ".join(map(str, enc.encode(FAMILY))))
    page.click('[data-testid="decode-button"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"decode-text\"]').dataset.decoded")
    assert page.text_content('[data-testid="decode-text"]') == FAMILY
    assert page.locator('[data-testid="decoded-token"]').all_text_contents().count("⟨ZWJ⟩") == 2

    # the merges table of a training run names it as well
    page.click("#tab-train")
    h.train(page, "\u200d" * 100, 258, name="zwj", pattern="none")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"merges-body\"] code')].some((c) => c.textContent === '⟨ZWJ⟩')",
        timeout=30_000,
    )


# --- partial UTF-8 explained, right-to-left isolated -------------------------------


def test_fragments_are_explained_in_place_and_rtl_tokens_are_isolated(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    text = "বাংলা ভাষা مرحبا بالعالم"
    enc = h.tiktoken_for("cl100k_base")
    h.encode_in_page(page, text, "cl100k_base")
    ids = enc.encode(text)
    assert chip_ids(page) == ids
    split = [i for i in ids if not _is_utf8(enc.decode_single_token_bytes(i))]
    assert split, "cl100k splits Bengali characters across tokens"
    notes = page.locator('[data-testid="token"].has-note').evaluate_all("(els) => els.map((e) => e.title)")
    assert notes and all("UTF-8 bytes" in n for n in notes)
    lead = next(enc.decode_single_token_bytes(i) for i in ids if _lead_fragment(enc.decode_single_token_bytes(i)))
    want = f"the first {len(lead)} of the 3 UTF-8 bytes"  # Bengali letters are 3 bytes in UTF-8
    assert any(want in n for n in notes), notes
    assert page.locator('[data-testid="legend-fragment"]').is_visible()
    page.locator('[data-testid="token"].has-note').first.hover()
    page.wait_for_selector('[data-testid="token-note"]')
    assert "UTF-8 bytes" in page.text_content('[data-testid="token-note"]')
    iso = page.locator('[data-testid="token"]').evaluate_all("(els) => els.map((e) => getComputedStyle(e).unicodeBidi)")
    assert set(iso) == {"isolate"}
    assert page.locator('[data-testid="token-detail"] bdi').count() >= 1


def _is_utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _lead_fragment(b: bytes) -> bool:
    return len(b) < 3 and 0xE0 <= b[0] <= 0xEF


# --- item 7: the Compare table scrolls with the language pinned and says so --------


# --- phones ---------------------------------------------------------------------


def test_phone_tabs_merges_table_and_touch_hints(phone_page, site_url):
    page = phone_page
    h.open_ready(page, site_url, "train")
    # every tab is on screen (the bar wraps instead of cutting "Step t…")
    tabs = page.locator('[role="tab"]').evaluate_all("(els) => els.map((e) => e.getBoundingClientRect().right)")
    assert len(tabs) >= 4 and max(tabs) <= 390, tabs
    # the merges table's New token and Pair count columns are inside the card
    h.train(page, "the cat sat on the mat with the hat " * 20, 300, name="phone")
    geo = page.evaluate("""() => {
        const wrap = document.querySelector('.merges-wrap').getBoundingClientRect();
        const ths = [...document.querySelectorAll('[data-testid="merges-table"] thead th')].map((t) => t.getBoundingClientRect());
        return {right: wrap.right, heads: ths.map((r) => r.right)};
    }""")
    assert max(geo["heads"]) <= geo["right"] + 1, geo
    # touch screens get no keyboard hints
    assert page.evaluate("() => matchMedia('(hover: none)').matches || matchMedia('(pointer: coarse)').matches")
    page.click("#tab-steps")
    assert page.locator("#view-steps .keys").is_hidden()
    page.click("#tab-tokenize")
    assert (
        page.locator("#tokens-help .pointer-hint").is_hidden() and page.locator("#tokens-help .touch-hint").is_visible()
    )
    assert (
        "Tap a token" in page.locator("#tokens-help").inner_text()
        and "arrow keys" not in page.locator("#tokens-help").inner_text()
    )
    # webfix2 5: the legend says "Tap" too (a Bengali letter is split into byte fragments by cl100k_base)
    page.select_option('[data-testid="tokenize-tokenizer"]', "cl100k_base")
    h.set_text(page, "tokenize-text", "আমি বাংলায় গান গাই")
    legend = page.locator('[data-testid="legend-fragment"]')
    legend.wait_for(state="visible")
    assert "Tap a token" in legend.inner_text() and "Hover" not in legend.inner_text()


def test_desktop_keeps_the_keyboard_hints(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    h.open_ready(page, site_url, "steps")
    assert page.locator("#view-steps .keys").is_visible()


# --- course page: stable embed height, runtime loads ---------------------------------


# --- Tokenize extras -------------------------------------------------------------


def test_p50k_special_token_switch_copy_and_decode(browser, site_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(site_url + "#tokenize")
        h.wait_ready(page)
        names = page.locator('[data-testid="tokenize-tokenizer"] option').evaluate_all(
            "(els) => els.map((e) => e.value)"
        )
        assert "p50k_base" in names
        code = "def f(x):\n        return x  # eight spaces\n"
        h.encode_in_page(page, code, "p50k_base")
        assert chip_ids(page) == h.tiktoken_for("p50k_base").encode(code)

        enc = h.tiktoken_for("cl100k_base")
        text = "Hello<|endoftext|>world"
        h.encode_in_page(page, text, "cl100k_base")
        as_text = enc.encode(text, disallowed_special=())
        assert chip_ids(page) == as_text and page.text_content('[data-testid="count-tokens"]') == str(len(as_text))
        page.check('[data-testid="toggle-specials"]')
        as_special = enc.encode(text, allowed_special="all")
        page.wait_for_function(
            "(n) => document.querySelector('#view-tokenize').dataset.encoded === 'cl100k_base:' + n",
            arg=len(as_special),
        )
        h.settle(page)
        assert chip_ids(page) == as_special
        assert page.locator('[data-testid="token"].special').get_attribute("data-ids") == "100257"

        page.click('[data-testid="copy-ids-json"]')
        page.wait_for_function("() => document.querySelector('[data-testid=\"copy-ids-status\"]').textContent")
        assert json.loads(page.evaluate("() => navigator.clipboard.readText()")) == as_special
        page.click('[data-testid="copy-ids-space"]')
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"copy-ids-status\"]').textContent.includes('space')"
        )
        assert page.evaluate("() => navigator.clipboard.readText()") == " ".join(map(str, as_special))

        page.locator('[data-testid="decode-card"] summary').click()
        ids = enc.encode("Decoding: ids → text, café ☕")
        page.fill('[data-testid="decode-ids"]', json.dumps(ids))
        page.click('[data-testid="decode-button"]')
        page.wait_for_function("() => document.querySelector('[data-testid=\"decode-text\"]').dataset.decoded")
        assert page.text_content('[data-testid="decode-text"]') == enc.decode(ids)
        page.fill('[data-testid="decode-ids"]', "12 abc")
        page.click('[data-testid="decode-button"]')
        assert "“abc” is not a token id" in h.visible_error(page, "decode-error")
    finally:
        context.close()


# --- large pastes: Tokenize keeps a big text out of its textarea, as Train does ---


def test_persian_tokens_read_right_to_left_and_stay_isolated(page, site_url):
    """Tester bug 3: the list read left to right, so a Persian word's tokens came out letter-reversed."""
    h.open_ready(page, site_url, "tokenize")
    text = "توکنسازهای ساده و آموزشی"
    enc = h.tiktoken_for("cl100k_base")
    h.encode_in_page(page, text, "cl100k_base")
    ids = enc.encode(text)
    assert chip_ids(page) == ids and len(ids) >= 2
    boxes = page.locator('[data-testid="token"]').evaluate_all(
        "(els) => els.slice(0, 2).map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top]; })"
    )
    (l0, r0, t0), (l1, r1, t1) = boxes
    assert t0 == t1, "the first two chips share a line"
    assert l0 >= r1 - 1, f"the first token's chip is right of the second: {boxes}"
    assert page.get_attribute('[data-testid="tokens"]', "dir") == "rtl"
    iso = page.locator('[data-testid="token"]').evaluate_all("(els) => els.map((e) => getComputedStyle(e).unicodeBidi)")
    assert set(iso) == {"isolate"}
    # an English text in the same list reads left to right again
    h.encode_in_page(page, "Hello world", "o200k_base")
    boxes = page.locator('[data-testid="token"]').evaluate_all(
        "(els) => els.map((e) => e.getBoundingClientRect().left)"
    )
    assert boxes[0] < boxes[1]


DEEP = ("[" * 100_000 + "]" * 100_000).encode()  # /tmp/tester/bad/deep.json


def test_deeply_nested_json_is_refused_without_a_crash(page, site_url):
    crashes = []
    page.on("console", lambda m: "fatal error" in m.text and crashes.append(m.text))
    h.open_ready(page, site_url, "tokenize")
    message = h.load_file_error(page, "deep.json", DEEP)
    assert "deep.json" in message and "nested too deeply" in message, message
    assert "RangeError" not in message
    assert "restarted" not in page.text_content('[data-testid="status-text"]')
    assert not crashes, crashes


def test_a_lone_combining_mark_is_drawn_on_a_dotted_circle(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    page.select_option('[data-testid="tokenize-tokenizer"]', "gpt2")
    text = "cafe\u0301 naive \u0301alone"
    h.set_text(page, "tokenize-text", text)
    enc = h.tiktoken_for("gpt2")
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"gpt2:{len(enc.encode(text))}",
    )
    bases = page.locator('[data-testid="tokens"] .mark-base')
    assert bases.count() == 2  # both accents begin a token (GPT-2: two byte tokens each)
    for k in range(2):
        el = bases.nth(k)
        assert el.text_content() == "\u0301"  # the real text, for copying
        assert el.evaluate("(e) => getComputedStyle(e, '::before').content") == '"\u25cc"'
        assert el.evaluate("(e) => e.getBoundingClientRect().width") > 4  # it takes room: not invisible


def test_mistral_switch_words_a_tekken_file_as_one(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    page.select_option('[data-testid="tokenize-tokenizer"]', "mistral-nemo")
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded || '').startsWith('mistral-nemo:')",
        timeout=120_000,
    )
    # (the switch's words come with describe(), asked for once the count is on screen)
    page.wait_for_selector('[data-testid="special-what"]:has-text("Tekken file")')
    words = page.text_content('[data-testid="special-what"]')
    assert "tokenizer.json" not in words, words


def test_special_tokens_label_wraps_as_text_on_a_phone(phone_page, site_url):
    page = phone_page
    h.open_ready(page, site_url, "tokenize")
    # the words after the <code> wrap back to the left edge of the words before it (one text
    # block), not into a column of their own right of the code
    lefts = page.evaluate(
        """() => {
            const label = document.querySelector('[data-testid="specials-switch"]');
            const code = label.querySelector('code');
            const range = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r; };
            // the words are the spans around the <code> (each a catalog entry since issue 21)
            const before = range(code.previousElementSibling).getClientRects()[0].left;
            const after = [...range(code.nextElementSibling).getClientRects()].map((r) => r.left);
            return { before, after, code: code.getBoundingClientRect().right };
        }"""
    )
    assert min(lefts["after"]) <= lefts["before"] + 1, lefts


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
    # (the switch's words come with describe(), asked for once the count is on screen)
    page.wait_for_selector('[data-testid="special-toggle"]:has-text("none in this tokenizer.json\'s post-processor")')
    switch = page.text_content('[data-testid="special-toggle"]')
    assert "as the model's tokenizer does" not in switch and "none for this tokenizer" not in switch
    page.click('[data-testid="tokenizer-info"] summary')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"tokenizer-info\"]').dataset.tokenizer === 'deepseek_v3'"
    )
    info = page.text_content('[data-testid="tokenizer-info-list"]')
    assert "transformers 4.x" in info and "add_bos_token" in info, info


def test_a_tiktoken_file_loaded_as_tokenizer_json_is_named(page, site_url):
    from bytepair.formats.tiktoken_file import read_tiktoken_bytes

    data = read_tiktoken_bytes(pathlib.Path(bytepair.__file__).parent / "data" / "r50k_base.tiktoken.gz")
    h.open_ready(page, site_url, "tokenize")
    message = h.load_file_error(page, "r50k_base.tiktoken", data, "application/octet-stream")
    assert "tiktoken rank file" in message and "not valid JSON" not in message, message


def test_token_detail_wraps_between_words_on_a_phone(phone_page, site_url):
    page = phone_page
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
