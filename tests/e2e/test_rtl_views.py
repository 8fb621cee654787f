"""Right-to-left display of Step through, the gallery's side-by-side rows, code boxes, Chat's
token boxes, Tokenize's token view and its "Counted with" line (fresh tester's findings, Urdu and
Persian pages at a desktop and a phone size).

What is checked is where things land on screen (getBoundingClientRect of chips, cells and
characters), not only the attributes that put them there: a Latin word's symbols run left to
right and an Urdu word's right to left in any page; "t</w>" and "ی</w>" keep their marker whole
at the word's end; Step through's arrows and arrow keys point the way the page reads; code reads
left to right; a token box never breaks inside, and a very long one stays inside the list; each
line of Tokenize's token view reads in its own direction; a token's name inside an Urdu or Persian
sentence keeps its own order, and the sentence's clauses read right to left.
Expected token texts come from tiktoken, expected counts from the tokenizers library.
"""

from __future__ import annotations

import json

import pytest

from tests import hf_models
from tests.e2e.helpers import encode_in_page, in_digits, lz_compress, messages, set_text, tiktoken_for, wait_ready

pytestmark = pytest.mark.e2e

SIZES = [(1280, 800), (390, 844)]
# word counts: Latin and Urdu words, so merges make "t</w>", "st</w>" and an Urdu "ی</w>" (ties: first seen)
COUNTS = "lowest 5\nsplit 3\nبات 4\nکوئی 8\nکی 9\nبھی 7\nnewest 6\nlow 7\n"


def _arabic(s: str) -> bool:
    return any("\u0600" <= c <= "\u06ff" for c in s)


def _latin(s: str) -> bool:
    return all(c.isascii() for c in s) and any(c.isalpha() for c in s)


def _wait_step(page, k: int, timeout: int = 120_000) -> None:
    page.wait_for_function(
        "(k) => { const r = document.querySelector('#view-steps');"
        " return r.dataset.learned && r.dataset.step === String(k) && (r.dataset.shown || '').endsWith(':' + k); }",
        arg=k,
        timeout=timeout,
    )


# each chip: its symbol, box, and for a chip ending in the marker the boxes of its head text and of
# the marker's characters one by one (a Range per character gives where that glyph is drawn)
READ_CHIPS = """(chips) => chips.map((c) => {
  const r = c.getBoundingClientRect();
  const eow = c.querySelector('.eow');
  let head = null, marks = null;
  if (eow) {
    const range = document.createRange();
    const node = eow.firstChild;
    marks = [...node.textContent].map((_, i) => { range.setStart(node, i); range.setEnd(node, i + 1);
      return range.getBoundingClientRect().left; });
    const t = [...c.childNodes].find((n) => n.nodeType === 3 && n.textContent);
    if (t) { range.selectNodeContents(t); const b = range.getBoundingClientRect(); head = [b.left, b.right]; }
    const e = eow.getBoundingClientRect();
    return {sym: c.dataset.sym ?? c.textContent, left: r.left, right: r.right, head, eow: [e.left, e.right], marks,
            dir: getComputedStyle(c).direction};
  }
  return {sym: c.dataset.sym ?? c.textContent, left: r.left, right: r.right, head, eow: null, marks,
          dir: getComputedStyle(c).direction};
})"""


def _check_chip(chip) -> None:
    """A chip "t</w>" reads t then </w> left to right, "ی</w>" has its marker on the left; "</w>" never "<w/>"."""
    if chip["marks"] is None:
        return
    xs = chip["marks"]
    assert xs == sorted(xs), f"marker drawn out of order in {chip}"
    if chip["head"]:
        head_l, head_r = chip["head"]
        eow_l, eow_r = chip["eow"]
        if _arabic(chip["sym"]):
            assert eow_r <= head_l + 1, chip
        else:
            assert eow_l >= head_r - 1, chip


def _check_order(chips, text: str, what) -> None:
    lefts = [c["left"] for c in chips]
    if _arabic(text):
        assert lefts == sorted(lefts, reverse=True), (what, chips)
    elif _latin(text):
        assert lefts == sorted(lefts), (what, chips)
    for c in chips:
        _check_chip(c)


@pytest.mark.parametrize("code", ["ur", "fa"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_step_through_symbols_read_in_their_words_direction(page, site_url, tmp_path, code, width, height):
    page.set_viewport_size({"width": width, "height": height})
    lz = lz_compress(COUNTS)
    page.goto(f"{site_url}?lang={code}#steps?mode=textbook&in=counts&t={lz}&n=10&s=10&w=lowest")
    wait_ready(page)
    _wait_step(page, 10)
    assert page.evaluate("() => getComputedStyle(document.documentElement).direction") == "rtl"

    # the words after merge 10: each row's chips in its word's direction
    words = page.locator(".words-table tbody tr").evaluate_all("(trs) => trs.map((tr) => tr.dataset.word)")
    assert set(words) >= {"lowest", "split", "بات", "کوئی"}, words
    seen = {"t</w>": False, "arabic</w>": False}
    for i, word in enumerate(words):
        chips = page.locator(".words-table tbody tr").nth(i).locator("td.syms .sym").evaluate_all(READ_CHIPS)
        assert "".join(c["sym"] for c in chips) == word + "</w>"
        _check_order(chips, word, word)
        for c in chips:
            seen["t</w>"] |= c["sym"] == "t</w>"
            seen["arabic</w>"] |= _arabic(c["sym"]) and c["sym"].endswith("</w>")
    assert all(seen.values()), seen  # merged end-of-word symbols of both scripts were drawn and checked

    # the pair counts: a Latin pair reads left, right left to right; an Urdu pair right to left
    pairs = page.locator("tr[data-left][data-right]")
    checked = 0
    for i in range(pairs.count()):
        row = pairs.nth(i)
        left, right = row.get_attribute("data-left"), row.get_attribute("data-right")
        chips = row.locator(".pair .sym").evaluate_all(READ_CHIPS)
        assert [c["sym"] for c in chips] == [left, right]
        _check_order(chips, left + right, (left, right))
        checked += _latin(left + right) or _arabic(left + right)
    assert checked >= 3, checked

    # the arrow key that points at Next (drawn pointing left) moves on; the other goes back
    page.keyboard.press("ArrowRight")
    _wait_step(page, 9, 10_000)
    page.keyboard.press("ArrowLeft")
    _wait_step(page, 10, 10_000)
    flips = page.locator(
        '.player-controls .mirror-rtl, .player-options kbd .mirror-rtl, [data-testid="steps-merge"] .arrow'
    )
    transforms = flips.evaluate_all(
        "(els) => els.filter((e) => e.getClientRects().length).map((e) => getComputedStyle(e).transform)"
    )
    # ⇤ ← → ⇥ (a phone hides these), the two arrow keys of the hint, the merge's arrow
    assert len(transforms) == (7 if width > 600 else 3), transforms
    assert set(transforms) == {"matrix(-1, 0, 0, 1, 0, 0)"}, transforms
    # Previous, Play and Next draw three different signs (Next and Previous turn round, Play does not:
    # with triangles, a right-to-left Previous looked like Play, a fresh tester found)
    signs = [
        page.text_content(f'[data-testid="steps-{name}"] [aria-hidden="true"]').strip()
        for name in ("prev", "play", "next")
    ]
    assert len(set(signs)) == 3, signs
    assert "←" in page.get_attribute('[data-testid="steps-next"]', "title")
    assert "→" in page.get_attribute('[data-testid="steps-prev"]', "title")

    # the merge line and the encoded word: pair, then an arrow pointing at the new symbol
    merge = page.locator('[data-testid="steps-merge"]').evaluate(
        """(el) => ['.pair', '.arrow', '.sym.merged'].map((s) => { const r = el.querySelector(s).getBoundingClientRect();
           return [r.left, r.right]; })"""
    )
    (pair_l, _), (arrow_l, arrow_r), (_, merged_r) = merge
    assert pair_l >= arrow_r - 1 and arrow_l >= merged_r - 1, merge
    page.press('[data-testid="steps-word"]', "Enter")
    page.wait_for_selector('[data-testid="steps-encode-list"] li[data-merge-index]')
    items = page.locator('[data-testid="steps-encode-list"] li')
    for i in range(items.count()):
        chips = items.nth(i).locator(":scope > .syms .sym").evaluate_all(READ_CHIPS)
        assert "".join(c["sym"] for c in chips) == "lowest</w>"
        _check_order(chips, "lowest", ("encode", i))
    page.screenshot(path=str(tmp_path / f"steps-{code}-{width}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_gallery_side_by_side_rows_read_strawberry_left_to_right_in_persian(page, site_url, tmp_path, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang=fa#tokenize?g=counting-letters")
    wait_ready(page)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"sbs-row-summary\"]').length === 3", timeout=180_000
    )
    text = page.locator('[data-testid="tokenize-text"]').input_value()
    names = page.locator('[data-testid="sbs-row-summary"]').evaluate_all("(els) => els.map((e) => e.dataset.name)")
    cells = page.locator(".sbs-cell").evaluate_all(
        """(els) => els.map((e) => ({row: Number(e.dataset.row), start: Number(e.dataset.start),
            end: Number(e.dataset.end), left: e.getBoundingClientRect().left, top: e.getBoundingClientRect().top}))"""
    )
    for ri, name in enumerate(names):
        enc = tiktoken_for(name)
        mine = [c for c in cells if c["row"] == ri]
        # on screen, line by line from the top and left to right on each line
        shown = sorted(mine, key=lambda c: (round(c["top"]), c["left"]))
        assert "".join(text[c["start"] : c["end"]] for c in shown) == text, (name, shown)
        # every cell ends where one of tiktoken's tokens ends
        ends, pos = set(), 0
        for i in enc.encode(text):
            pos += len(enc.decode([i]))
            ends.add(pos)
        assert {c["end"] for c in mine} <= ends, (name, mine)
    page.locator('[data-testid="sbs-rows"]').screenshot(path=str(tmp_path / f"gallery-fa-{width}.png"))
    # the letter counts listed in Persian's own way (Intl.ListFormat): a middle dot beside ۲ read as ۲۰
    letters = page.locator('[data-testid="gallery-letters"] li').all_text_contents()
    assert letters and all("·" not in x and "\u060c" in x for x in letters), letters
    # the example's link and embed code read left to right
    page.locator(".gallery-share > summary").click()
    for sel in ('[data-testid="gallery-link"]', '[data-testid="gallery-embed"]'):
        style = page.locator(sel).evaluate("(e) => [getComputedStyle(e).direction, getComputedStyle(e).textAlign]")
        assert style[0] == "ltr" and style[1] in ("left", "start"), (sel, style)


_QUOTED = """(el, word) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walk.nextNode()) && !node.data.includes(word));
    const box = (i, n) => {
        const r = document.createRange();
        r.setStart(node, i);
        r.setEnd(node, i + n);
        const b = r.getBoundingClientRect();
        return {left: b.left, right: b.right};
    };
    const at = node.data.indexOf(word);
    const open = Math.max(node.data.lastIndexOf('“', at), node.data.lastIndexOf('«', at));
    const close = node.data.slice(at).search(/[”»]/) + at;
    return {word: box(at, word.length), open: box(open, 1), close: box(close, 1), between: node.data.slice(open, close + 1)};
}"""


def _hugs_its_quotes(got: dict, word: str) -> None:
    """Right to left: the opening quote just right of the word, the closing one just left of it."""
    w, opening, closing = got["word"], got["open"], got["close"]
    assert word in got["between"] and len(got["between"]) <= len(word) + 4, got
    assert opening["left"] >= w["right"] - 1 and opening["left"] - w["right"] < 12, got
    assert closing["right"] <= w["left"] + 1 and w["left"] - closing["right"] < 12, got


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_a_quoted_english_word_in_a_right_to_left_explanation_stands_between_its_quotes(page, site_url, code):
    """Urdu's gallery opens with “strawberry” o200k_base میں …: the closing quote joined the English
    run after it, so on screen the quotes stood around "strawberry” o200k_base" (a tester). In a
    right-to-left line the opening quote is just right of the word and the closing one just left;
    the same in the letters-per-token list under it."""
    page.goto(f"{site_url}?lang={code}#tokenize?g=counting-letters")
    wait_ready(page)
    page.wait_for_selector('[data-testid="gallery-explanation"]')
    _hugs_its_quotes(page.locator('[data-testid="gallery-explanation"]').evaluate(_QUOTED, "strawberry"), "strawberry")
    # the letters per token under it: "GPT-2 (gpt2): “st” 2، “raw” 3، اور “berry” 5" (a tester saw
    # the English runs join across the quotes: 'berry” 5“ اور، GPT-2 (gpt2): “st” 2')
    items = page.locator('[data-testid="gallery-letters"] li')
    assert items.count() >= 2
    for i in range(items.count()):
        for word in ("raw", "berry"):
            if word in items.nth(i).text_content():
                _hugs_its_quotes(items.nth(i).evaluate(_QUOTED, word), word)


@pytest.mark.parametrize("code", ["ur", "fa"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_code_boxes_read_left_to_right(page, site_url, tmp_path, code, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang={code}#tokenize")
    wait_ready(page)
    page.click('[data-testid="embed-button"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"embed-snippet\"]').value.includes('<iframe')")
    read = """(els) => els.map((e) => ({id: e.id || e.className || e.tagName, dir: getComputedStyle(e).direction,
        align: getComputedStyle(e).textAlign}))"""
    boxes = page.locator(
        "pre, textarea[readonly], #embed-snippet, #embed-widget-snippet, #share-link, #chat-tools, #decode-ids"
    ).evaluate_all(read)
    assert len(boxes) >= 7, boxes
    for b in boxes:
        assert b["dir"] == "ltr" and b["align"] in ("left", "start"), b
    page.locator(".share-dialog[open], dialog[open]").first.screenshot(path=str(tmp_path / f"embed-{code}-{width}.png"))


@pytest.mark.parametrize("code", ["fa", "ur"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_chat_token_boxes_never_break_inside(page, site_url, tmp_path, code, width, height):
    enc = tiktoken_for("o200k_base")
    long_run = "=" * 80
    assert len(enc.encode(long_run)) == 1  # one token wider than a phone
    messages = [
        ["system", "You are a concise assistant. Answer in the user's language, briefly and kindly, please."],
        ["user", "توکن چیست؟ What does a tokenizer do with assistant text and long words like internationalization?"],
        ["assistant", f"A tokenizer cuts text into tokens: {long_run} and so on, for every message in turn."],
    ]
    lz = lz_compress(json.dumps(messages))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang={code}#chat?fmt=chatml-o200k&t={lz}")
    wait_ready(page)
    page.wait_for_function("() => !!document.querySelector('#view-chat').dataset.counted", timeout=120_000)
    out = page.locator('[data-testid="chat-tokens"]')
    boxes = out.evaluate(
        """(out) => { const o = out.getBoundingClientRect();
          return {out: [o.left, o.right], boxes: [...out.querySelectorAll('.tok-group')].map((b) => ({
            text: b.textContent, rects: b.getClientRects().length, left: b.getBoundingClientRect().left,
            right: b.getBoundingClientRect().right, brk: b.classList.contains('has-break')}))}; }"""
    )
    texts = [b["text"] for b in boxes["boxes"]]
    longest = max((enc.decode([i]) for i in enc.encode(messages[2][1])), key=len)
    assert len(longest) >= 60 and longest in texts, (longest, texts)  # some 550 px of monospace
    assert "<|im_start|>" in texts
    for b in boxes["boxes"]:
        if not b["brk"]:
            assert b["rects"] == 1, b  # an inline box broken over two lines has two rects
        assert boxes["out"][0] - 1 <= b["left"] and b["right"] <= boxes["out"][1] + 1, b
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    # the closed format picker shows its label's start ("ChatML — …"), cut at its end if at all
    assert page.locator('[data-testid="chat-format"]').evaluate("(e) => getComputedStyle(e).direction") == "ltr"
    out.screenshot(path=str(tmp_path / f"chat-{code}-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_vocab_range_stays_on_one_line_in_persian(page, site_url, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang=fa#train")
    wait_ready(page)
    page.wait_for_function("() => document.querySelector('#train-vocab-hint').textContent.includes('–')")
    rng = page.locator("#train-vocab-hint .nowrap")
    assert rng.count() == 1
    # (a right-to-left line draws the digits and the dash as several bidi runs: one rect each, on one line)
    tops = rng.evaluate("(e) => [...e.getClientRects()].map((r) => Math.round(r.top))")
    assert tops and len(set(tops)) == 1, tops
    assert "–" in rng.text_content()


def test_arrow_keys_on_the_view_tabs_follow_the_tabs_on_screen_in_urdu(page, site_url):
    """The view tabs run right to left in Urdu: ArrowRight moves to the tab drawn on the right, as
    WAI-ARIA's tab pattern asks (fresh tester 4: it moved to the tab on the left)."""
    page.goto(f"{site_url}?lang=ur#steps")
    page.wait_for_selector('html[dir="rtl"]:not([data-i18n-pending])')
    tab = page.locator('[role="tab"][data-view="steps"]')
    tab.focus()
    where = "() => document.activeElement.getBoundingClientRect().x"
    for key, further in (("ArrowRight", lambda new, old: new > old), ("ArrowLeft", lambda new, old: new < old)):
        before = page.evaluate(where)
        page.keyboard.press(key)
        after = page.evaluate(where)
        assert further(after, before), (key, before, after)
        page.keyboard.press("ArrowLeft" if key == "ArrowRight" else "ArrowRight")  # back to Step through


# Tokenize's token view: each chip's text (without its id), ids, first line box (a chip holding a line
# break may have a second, empty one after the break) and the block it is laid out in (its bidi
# paragraph: the nearest ancestor that is not inline), with that block's direction
READ_TOKENS = """(els) => { const blocks = [];
  return els.map((e) => {
    let p = e.parentElement;
    while (getComputedStyle(p).display.startsWith('inline')) p = p.parentElement;
    if (!blocks.includes(p)) blocks.push(p);
    const r = e.getClientRects()[0], b = p.getBoundingClientRect();
    const text = [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('tok-id')))
      .map((n) => n.textContent).join('');
    return {text, ids: e.dataset.ids, left: r.left, right: r.right, top: r.top, block: blocks.indexOf(p),
            dir: getComputedStyle(p).direction, ltr: p.matches(':dir(ltr)'), blockLeft: b.left, blockRight: b.right};
  }); }"""

# Urdu, an Urdu line of the Urdu course (../shared/seeds) that opens with English terms, Bangla, English
MIXED = "یہ ایک جملہ ہے۔\ntraining loop چار steps کو repeat کرتا ہے:\nএটি একটি বাক্য।\nHello world."


@pytest.mark.parametrize("code", ["ur", "en"])
def test_each_line_of_the_token_view_reads_in_its_own_direction(page, site_url, tmp_path, code):
    """Tester's finding (Urdu page, a text of Urdu, Bangla and English lines): the token view took
    one direction for the whole text from its first line, so the Bangla line read from the right edge
    and the English line came out as ".Hello world". Each line is now a bidi paragraph of its own
    (tokenlist.js lineRanges) in the direction most of its words read in (lineDirection: the Urdu
    course's lines that open with English terms read right to left, which the first strong letter,
    dir="auto", got wrong: a second tester's finding); a token holding a line break ("।\n") stays
    one box, at the end of its line."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_url}?lang={code}#tokenize")
    wait_ready(page)
    enc = tiktoken_for("o200k_base")
    ids = enc.encode(MIXED)
    assert "।\n".encode() in [enc.decode_single_token_bytes(i) for i in ids]  # a token across the line break
    encode_in_page(page, MIXED, "o200k_base")
    chips = page.locator('[data-testid="tokens"] [data-testid="token"]').evaluate_all(READ_TOKENS)
    page.locator('[data-testid="tokens"]').screenshot(path=str(tmp_path / f"lines-{code}.png"))
    assert "".join(c["text"] for c in chips) == MIXED
    assert [int(i) for c in chips for i in c["ids"].split(",")] == ids
    assert "।\n" in [c["text"] for c in chips]

    lines = [[c for c in chips if c["block"] == k] for k in range(max(c["block"] for c in chips) + 1)]
    assert ["".join(c["text"] for c in line) for line in lines] == MIXED.splitlines(keepends=True), chips
    assert [(line[0]["dir"], line[0]["ltr"]) for line in lines] == [
        ("rtl", False),
        ("rtl", False),
        ("ltr", True),
        ("ltr", True),
    ]
    urdu, mixed, bangla, english = lines
    # half its words Urdu: the line reads right to left (lineDirection), its English words a run of
    # their own: "training loop" from its right edge, the ":" that ends it leftmost
    training = next(c for c in mixed if c["text"] == "training")
    assert training["right"] >= training["blockRight"] - 120, mixed
    assert mixed[-1]["left"] <= min(c["left"] for c in mixed[:-1]) + 1, mixed
    for line in lines:  # each on one line on screen (a box holding a line break sits 2 px lower: it is inline)
        tops = [c["top"] for c in line]
        assert max(tops) - min(tops) < 8, line
    # the Urdu line starts at the right edge and reads to the left, its "۔" leftmost
    assert urdu[0]["right"] >= urdu[0]["blockRight"] - 20, urdu[0]
    lefts = [c["left"] for c in urdu]
    assert lefts == sorted(lefts, reverse=True), urdu
    # the Bangla and English lines start at the left edge and read to the right: the danda ends the
    # Bangla line on the right of its words, the full stop the English one
    for line in (bangla, english):
        assert line[0]["left"] <= line[0]["blockLeft"] + 20, line[0]
        lefts = [c["left"] for c in line]
        assert lefts == sorted(lefts), line
    assert bangla[-1]["text"] == "।\n" and bangla[-1]["left"] >= max(c["right"] for c in bangla[:-1]) - 1
    assert [c["text"] for c in english] == ["Hello", " world", "."]
    assert page.console_errors == []


def _message(words: dict, key: str, n: int | None = None) -> str:
    text = words[key]["text"]
    if isinstance(text, dict):  # a plural message (Intl.PluralRules: 1 is "one" in every locale here)
        text = text.get("one" if n == 1 else "other", text["other"])
    return text


@pytest.mark.parametrize("code", ["ur", "fa", "en"])
def test_counted_line_keeps_token_names_whole_and_its_clauses_in_the_pages_direction(page, site_url, tmp_path, code):
    """Tester's finding (Urdu page): "Counted with …" for a tokenizer that adds a special token put the
    token's name at the wrong end of its clause: t() isolated every value as a name, also a clause
    worded from the catalog ("1 special tokens شامل کیے گئے (<|begin_of_text|>)"), and a clause that
    opens with an English term took the left-to-right direction of its first letter. Now names and
    tokens are isolated (U+2068 … U+2069: they keep their own order, "<" left of ">") and a clause goes
    into its sentence as it is (i18n.js t); an English page isolates nothing."""
    rtl = code in ("ur", "fa")

    def iso(name: str) -> str:  # a name as a right-to-left sentence holds it
        return f"\u2068{name}\u2069" if rtl else name

    from playwright.sync_api import expect

    text = "Hello world"
    ref = hf_models.reference(hf_models.SITE_KEYS["llama3"])
    with_bos = ref.encode(text, add_special_tokens=True)
    added = len(with_bos.ids) - len(ref.encode(text, add_special_tokens=False).ids)
    assert added == 1
    bos = with_bos.tokens[0]  # <|begin_of_text|>
    # the special token the page names as an example (bytepair.app.models.special_token_facts): the
    # lowest-id one that is not the BOS token nor a padding or unknown token
    specials = sorted((i, t.content) for i, t in ref.get_added_tokens_decoder().items() if t.special)
    example = next(s for _, s in specials if s != bos and "pad" not in s.lower() and "unk" not in s.lower())

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_url}?lang={code}#tokenize")
    wait_ready(page)
    encode_in_page(page, text, "llama3")
    page.wait_for_selector(f'#view-tokenize[data-encoded="llama3:{len(with_bos.ids)}"]')
    words = messages(code)
    label = page.evaluate("() => window.bytepair.label('llama3')")
    clause = _message(words, "counted.added", 1).replace("{n}", in_digits(1, code)).replace("{what}", iso(bos))
    such = _message(words, "counted.such").replace("{example}", iso(example))
    typed = _message(words, "counted.typedone").replace("{such}", such)
    want = _message(words, "counted.full").replace("{label}", iso(label))
    want = want.replace("{added}", clause).replace("{typed}", typed)
    line = page.locator('[data-testid="count-what"]')
    expect(line).to_have_text(want, timeout=30_000)
    switch = page.locator('[data-testid="special-what"]')
    expect(switch).to_have_text(_message(words, "tok.addSpecial.post").replace("{tokens}", iso(bos)))
    if not rtl:
        assert not any(c in line.text_content() for c in "\u2066\u2067\u2068\u2069")

    # on screen: the token's name reads left to right ("<" left of ">"); its clause reads the page's
    # way, so the count that opens the clause is right of the name in Urdu and Persian, left in English
    where = page.evaluate(
        """([bos, digit, label]) => {
          const el = document.querySelector('[data-testid="count-what"]'), node = el.firstChild, s = node.textContent;
          const range = document.createRange();
          const box = (i, n) => { range.setStart(node, i); range.setEnd(node, i + n); const r = range.getBoundingClientRect();
                                  return {left: r.left, right: r.right, top: r.top}; };
          const at = s.indexOf(bos);
          return {first: box(at, 1), last: box(at + bos.length - 1, 1), name: box(at, bos.length),
                  digit: box(s.indexOf(digit, s.indexOf(label) + label.length), digit.length), nodes: el.childNodes.length}; }""",
        [bos, in_digits(1, code), label],
    )
    line.screenshot(path=str(tmp_path / f"counted-{code}.png"))
    assert where["nodes"] == 1, where
    assert where["first"]["right"] <= where["last"]["left"] + 0.5, where
    assert abs(where["digit"]["top"] - where["name"]["top"]) < 2, where  # one line on screen
    if rtl:
        assert where["digit"]["left"] >= where["name"]["right"] - 0.5, where
    else:
        assert where["digit"]["right"] <= where["name"]["left"] + 0.5, where
    assert page.console_errors == []


# Llama 3 adds <|begin_of_text|> at the start of the text; an Urdu line that opens with English terms
COURSE_LINE = "training loop چار steps کو repeat کرتا ہے:"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_an_added_special_token_starts_its_right_to_left_line(page, site_url, tmp_path, width, height):
    """Tester's finding (Urdu page, Llama 3): in a right-to-left line that opens with English words,
    the <|begin_of_text|> box the tokenizer adds at the start of the text joined the English run
    ("training loop") and was drawn just left of it, not at the line's start (its right edge). A box
    with no text of its own is neutral now (tokenlist.js isolateRuns): it sits where it is, in the line's
    direction. The legend under the list names it in Urdu (it was English), and the "Counted with" line
    says "1 special token" (it said "1 special tokens")."""
    from playwright.sync_api import expect

    ref = hf_models.reference(hf_models.SITE_KEYS["llama3"])
    enc = ref.encode(COURSE_LINE, add_special_tokens=True)
    bos = enc.tokens[0]
    assert enc.offsets[0] == (0, 0) and enc.tokens[1] == "training"  # added, no text of its own
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang=ur#tokenize")
    wait_ready(page)
    encode_in_page(page, COURSE_LINE, "llama3")
    page.wait_for_selector(f'#view-tokenize[data-encoded="llama3:{len(enc.ids)}"]')
    chips = page.locator('[data-testid="tokens"] [data-testid="token"]').evaluate_all(READ_TOKENS)
    page.locator('[data-testid="tokens"]').screenshot(path=str(tmp_path / f"bos-ur-{width}.png"))
    assert [int(i) for c in chips for i in c["ids"].split(",")] == enc.ids
    assert "".join(c["text"] for c in chips[1:]) == COURSE_LINE
    first, rest = chips[0], chips[1:]
    assert first["text"] == bos
    assert {c["block"] for c in chips} == {0} and first["dir"] == "rtl", chips  # one line, right to left
    # the line's start: the box is at the right edge of the line's first row, rightmost of its row (its
    # smaller monospace text sits a few px lower)
    assert first["top"] <= min(c["top"] for c in chips) + 8, chips
    assert first["right"] >= first["blockRight"] - 20, first
    row = [c for c in rest if abs(c["top"] - first["top"]) < 8]
    assert all(c["right"] <= first["left"] + 0.5 for c in row), (first, row)
    # "training loop" reads left to right, just left of it
    training, loop = rest[0], rest[1]
    assert (training["text"], loop["text"]) == ("training", " loop")
    assert training["right"] <= loop["left"] + 0.5 and loop["right"] <= first["left"] + 0.5, (training, loop, first)
    assert loop["right"] >= max(c["right"] for c in row) - 0.5, row  # nothing else between them

    words = messages("ur")
    legend = page.locator('[data-testid="legend-added"]')
    want = words["legend.special.added"]["text"].replace("{token}", bos)
    expect(legend).to_have_text(want.replace("{switch}", words["tok.addSpecial"]["text"]))
    assert legend.locator("[data-i18n-skip]").text_content() == bos  # the token is data
    counted = page.text_content('[data-testid="count-what"]')
    assert "1 special token " in counted and "1 special tokens" not in counted, counted
    page.locator('[data-testid="tokens-legend"]').screenshot(path=str(tmp_path / f"legend-ur-{width}.png"))
    assert page.console_errors == []


# the positions of each angle-bracketed code ("<iframe>", "<s>", "<0xXX>") of `text` drawn on one line
# of a right-to-left block: its "<" and ">" (each one character) and what is between them
READ_BRACKETS = """([code, text]) => {
  const box = document.createElement('div');
  box.dir = 'rtl';
  box.lang = code;
  box.style.whiteSpace = 'nowrap';
  box.style.position = 'absolute';
  box.textContent = text;
  document.body.append(box);
  const node = box.firstChild, range = document.createRange();
  const rect = (a, b) => { range.setStart(node, a); range.setEnd(node, b); const r = range.getBoundingClientRect();
                           return {left: r.left, right: r.right, top: r.top}; };
  const out = [...text.matchAll(/<[^<>{}\\s]+>/g)].map((m) => ({code: m[0], open: rect(m.index, m.index + 1),
    inner: rect(m.index + 1, m.index + m[0].length - 1), close: rect(m.index + m[0].length - 1, m.index + m[0].length)}));
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_angle_bracketed_code_in_a_right_to_left_message_reads_whole(page, site_url, code):
    """Tester's finding: the Urdu title of the Embed button, "course page کے لیے <iframe> snippet",
    drew its "<" at the far end of "iframe> snippet": between an Urdu word and a Latin one the bracket
    took the sentence's direction (and was mirrored). Each message of the right-to-left catalogs that
    writes code in angle brackets draws it whole on a right-to-left line: a bracket right beside each end
    of the code. (A bracket resolved right to left is drawn mirrored on the other side, so the one on the
    left reads "<" either way; "<" left alone of the code while ">" is not beside it is the fault.)"""
    page.goto(f"{site_url}?lang={code}#tokenize")
    page.wait_for_selector(f'html[lang="{code}"][dir="rtl"]:not([data-i18n-pending])')
    words = messages(code)
    # the title the page gives the button is the catalog's
    assert page.get_attribute('[data-testid="embed-button"]', "title") == words["embed.button.title"]["text"]
    checked = []
    for key, entry in words.items():
        forms = entry["text"].values() if isinstance(entry["text"], dict) else [entry["text"]]
        for text in forms:
            for found in page.evaluate(READ_BRACKETS, [code, text]):
                left, right = sorted([found["open"], found["close"]], key=lambda r: r["left"])
                inner = found["inner"]
                assert abs(left["right"] - inner["left"]) < 1.5 and abs(right["left"] - inner["right"]) < 1.5, (
                    key,
                    text,
                    found,
                )
                assert abs(left["top"] - inner["top"]) < 2 and abs(right["top"] - inner["top"]) < 2, (key, found)
                checked.append((key, found["code"]))
    assert ("embed.button.title", "<iframe>") in checked, checked


@pytest.mark.parametrize("code", ["ur", "bn"])
def test_the_share_and_embed_buttons_keep_their_margin_at_the_start_edge(page, site_url, code):
    """On a phone the Share link / Embed buttons open their row with the same margin as in a
    left-to-right page: in Urdu and Persian "Link شیئر کریں" sat flush against the screen's right
    edge (a tester; the row's padding was on the left whatever the direction)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}?lang={code}#tokenize")
    page.wait_for_selector('[data-testid="share-button"]')
    rtl = page.evaluate("() => getComputedStyle(document.documentElement).direction") == "rtl"
    edges = page.locator('[data-testid="page-actions"] button').evaluate_all(
        "(els) => els.map((e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().right])"
    )
    width = page.evaluate("() => document.documentElement.clientWidth")
    start_gap = width - max(r for _, r in edges) if rtl else min(left for left, _ in edges)
    assert start_gap >= 8, (code, edges, width)


def test_a_wrapped_urdu_merges_header_keeps_its_lines_apart(page, site_url):
    """On a phone the merges table's headers wrap ("Pair کی گنتی" on two lines); in Urdu each
    line keeps Nastaliq's height: at the phone layout's line height of 1.2 the lines were drawn
    over each other (a tester). Measured per line of each header: the step from one line to the
    next against the height of a line's text box (Range.getClientRects), which for Nastaliq is
    about 2.5 em."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}?lang=ur#train")
    wait_ready(page)
    set_text(page, "train-text", "سلام دنیا، یہ ایک مثال ہے۔ " * 20)
    page.fill('[data-testid="train-vocab"]', "260")
    page.evaluate("() => document.querySelector('[data-testid=train-form]').requestSubmit()")
    page.wait_for_selector('[data-testid="merges-body"] tr')
    heads = page.locator('[data-testid="merges-table"] thead th').evaluate_all(
        """(ths) => ths.map((th) => { const r = document.createRange(); r.selectNodeContents(th);
             return {text: th.textContent, rects: [...r.getClientRects()].map((x) => [x.top, x.height])}; })"""
    )
    wrapped = 0
    for head in heads:
        tops = sorted({round(top) for top, _ in head["rects"]})
        height = max(h for _, h in head["rects"])
        steps = [b - a for a, b in zip(tops, tops[1:])]
        wrapped += bool(steps)
        assert all(step >= 0.8 * height for step in steps), (head, steps, height)
    assert wrapped, heads  # at 390 px at least one header wraps (else the check above saw nothing)


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_the_gallery_and_lessons_summaries_are_never_cut_inside_a_word(page, site_url, code):
    """On a phone a right-to-left page gives the gallery's and the lessons' summaries a line each;
    Urdu's ended inside an English word ("…ick" for "click", a tester). At 390 px each fits on
    its line; at 360 px one may wrap but none is cut (scrollWidth within the box)."""
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{site_url}?lang={code}#tokenize")
        page.wait_for_selector('[data-testid="lessons"] > summary')
        found = page.locator('[data-testid="gallery"] > summary, [data-testid="lessons"] > summary').evaluate_all(
            """(els) => els.map((s) => { const r = document.createRange(); r.selectNodeContents(s);
                 return {text: s.textContent, scroll: s.scrollWidth, client: s.clientWidth,
                         lines: new Set([...r.getClientRects()].map((x) => Math.round(x.bottom))).size}; })"""
        )
        assert len(found) == 2, found
        for s in found:
            assert s["scroll"] <= s["client"] + 1, (width, s)
            if width == 390:
                assert s["lines"] == 1, s


SPACE_MARK_SIDES = """(codes) => codes.map((c) => {
  const n = c.firstChild;
  if (!n || n.nodeType !== 3 || !n.textContent.startsWith('·') || n.textContent.length < 2) return null;
  const r = document.createRange(); r.setStart(n, 0); r.setEnd(n, 1); const dot = r.getBoundingClientRect();
  r.setStart(n, 1); r.setEnd(n, 2); const first = r.getBoundingClientRect();
  const box = c.getBoundingClientRect();
  return {text: n.textContent, dot: [dot.left, dot.right], first: [first.left, first.right], box: [box.left, box.right]};
}).filter(Boolean)"""


def test_merges_table_tokens_read_in_their_own_direction_in_urdu(page, site_url):
    """A token of the merges table reads in the direction of its first letter: in an Urdu page
    "·Journal" keeps its space marker before the word (it showed "Journal·", read as a trailing
    space) and its start in view when cut short (it showed "…rnal·"); "·مثال" keeps the marker
    at its right, where an Urdu word starts (a tester)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}?lang=ur#train")
    wait_ready(page)
    text = "the journal of the day, سلام دنیا، یہ ایک مثال ہے۔ " * 30 + " Journalism Journalism Journalism"
    set_text(page, "train-text", text)
    page.fill('[data-testid="train-vocab"]', "320")
    page.evaluate("() => document.querySelector('[data-testid=train-form]').requestSubmit()")
    page.wait_for_selector('body[data-training="done"]')
    tokens = page.locator('[data-testid="merges-body"] td.tok-cell code.tok').evaluate_all(SPACE_MARK_SIDES)
    latin = [t for t in tokens if t["text"][1].isascii() and t["text"][1].isalpha()]
    urdu = [t for t in tokens if _arabic(t["text"][1])]
    assert latin and urdu, tokens
    for tok in latin:  # the marker left of the word's first letter, and that letter inside the box
        assert tok["dot"][1] <= tok["first"][0] + 1, tok
        assert tok["box"][0] - 1 <= tok["dot"][0], tok
    for tok in urdu:
        assert tok["dot"][0] >= tok["first"][1] - 1, tok
    assert any(t["text"].startswith("·Journal") for t in latin), latin
