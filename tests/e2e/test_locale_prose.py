"""Issue 21, item 3: the token story, a gallery entry and a teaching picture worded from the
locale's catalog (Python gives data, the page words it): in Urdu and Bangla no English
sentence of the story.*, gallery.*, side.* or teach.* keys is left on screen or in the SVG;
the story's values are tiktoken's (ids, bytes, the merge ranks replayed); axe-core finds no
serious or critical violation on the story panel in en, ur and bn.

One page load per locale. The catalogs are read from ``web/src/locales``; digits in each
script from ``unicodedata``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from tests.e2e import helpers as h

SVG = "{http://www.w3.org/2000/svg}"
PREFIXES = ("story.", "gallery.", "side.", "teach.")
TEXT = "Pneumonoultramicroscopic strawberries"
# names, not English words: tokenizers, formats, tools, people (kept in every language)
NAMES = re.compile(r"\b(\w*\d\w*|GPT|BPE|UTF|SVG|PNG|UDHR|Python|tiktoken|minbpe|Sennrich|hex|id)\b")


def english_left(shown: str, code: str) -> list[tuple[str, str]]:
    """The English fragments of this view's keys (the text between placeholders) found in `shown`,
    unless the locale's own text for that key has them too (a term the course keeps)."""
    # a glossary term alone (token, merge, vocab...) is the course's own word in bn and ur
    terms = set(h.catalog(code)["glossary"])
    left = []
    for key, entry in h.messages(code).items():
        if not key.startswith(PREFIXES) or entry.get("keep"):
            continue
        own = json.dumps(entry["text"], ensure_ascii=False)
        sources = entry["en"].values() if isinstance(entry["en"], dict) else [entry["en"]]
        for source in sources:
            for frag in re.split(r"\{\w+\}", source):
                frag = frag.strip(" .,:;()“”·—–")
                if not re.search(r"[A-Za-z]{3,}", NAMES.sub("", frag)) or frag in own or frag.lower() in terms:
                    continue
                if re.search(rf"(?<![A-Za-z]){re.escape(frag)}(?![A-Za-z])", shown):
                    left.append((key, frag))
    return left


def _said(page, sel: str) -> str:
    """What a person meets in the elements `sel`: their rendered text, aria-labels and titles."""
    return page.locator(sel).evaluate_all(
        """(els) => els.flatMap((el) => [el.innerText, ...[el, ...el.querySelectorAll('[aria-label], [title]')]
              .flatMap((x) => [x.getAttribute('aria-label'), x.getAttribute('title')])]).filter(Boolean).join('\\n')"""
    )


@pytest.mark.parametrize("code", ["en", "ur", "bn"])
def test_story_gallery_and_picture_in_the_locale(csp_free_page, site_url, code):
    page = csp_free_page
    messages = h.messages(code)
    enc = h.tiktoken_for("cl100k_base")
    ids = enc.encode_ordinary(TEXT)
    page.goto(f"{site_url}?lang={code}#tokenize")
    h.wait_ready(page)
    page.select_option('[data-testid="tokenize-tokenizer"]', "cl100k_base")
    h.set_text(page, "tokenize-text", TEXT)
    page.wait_for_function(
        "(want) => document.querySelector('#view-tokenize').dataset.encoded === want",
        arg=f"cl100k_base:{len(ids)}",
        timeout=60_000,
    )
    h.settle(page)

    # --- the story of the first token of 4+ bytes: its values are tiktoken's
    k = next(i for i, t in enumerate(ids) if len(enc.decode_single_token_bytes(t)) >= 4)
    data = enc.decode_single_token_bytes(ids[k])
    page.locator('[data-testid="token"]').nth(k).click()
    panel = page.locator('[data-testid="token-story"][data-state="ready"]')
    panel.wait_for(timeout=60_000)
    assert panel.locator('[data-testid="story-id"]').text_content() == str(ids[k])  # ASCII
    assert panel.locator('[data-testid="story-hex"]').text_content().replace(" ", "") == data.hex()
    rows = panel.locator('[data-testid="story-step"]').evaluate_all(
        "(rows) => rows.map((r) => [Number(r.dataset.left), Number(r.dataset.right), Number(r.dataset.id),"
        " r.cells[0].textContent, r.cells[2].textContent])"
    )
    parts = [enc.encode_single_token(bytes([b])) for b in data]
    for n, (left, right, merged, step, rank) in enumerate(rows, 1):
        joined = enc.decode_single_token_bytes(left) + enc.decode_single_token_bytes(right)
        assert enc.encode_single_token(joined) == merged  # the rank of the pair's bytes, tiktoken's
        i = next(j for j in range(len(parts) - 1) if parts[j : j + 2] == [left, right])
        parts[i : i + 2] = [merged]
        assert step == h.in_digits(n, code)  # a count: the locale's digits
        # an id: ASCII (in a right-to-left sentence isolated, U+2068 ... U+2069)
        assert rank.strip("\u2068\u2069").replace("\u2068", "").replace("\u2069", "") == messages["story.rank"][
            "text"
        ].replace("{rank}", str(merged))
    assert parts == [ids[k]] and len(rows) == len(data) - 1
    story = _said(page, '[data-testid="token-story"]')
    assert messages["story.stopped"]["text"] in story
    assert messages["story.title"]["text"].split("{")[0] in story
    bad = h.axe_violations(page, '[data-testid="token-story"]')
    assert bad == [], bad
    if code == "en":
        return
    assert english_left(story, code) == []

    # --- a teaching picture of the token view: SVG text and the buttons' titles
    with page.expect_download(timeout=60_000) as d:
        page.locator('[data-testid="tokens-picture-svg"]').click()
    svg = ET.fromstring(open(d.value.path(), "rb").read())
    assert svg.get("{http://www.w3.org/XML/1998/namespace}lang") == code
    drawn = "\n".join((t.text or "") for t in svg.iter() if t.tag in (f"{SVG}text", f"{SVG}title"))
    assert h.in_digits(len(ids), code) in drawn
    assert english_left(drawn + "\n" + _said(page, '[data-testid="tokens-picture"]'), code) == []

    # --- a gallery entry: the language premium, its numbers tiktoken's in the locale's digits
    page.locator('[data-testid="gallery"] summary').click()
    page.locator('[data-testid="gallery-example"][data-id="language-premium"]').click(timeout=180_000)
    explanation = page.locator('[data-testid="gallery-explanation"]')
    explanation.wait_for(timeout=60_000)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"sbs-row-summary\"]').length === 3", timeout=60_000
    )
    english = page.input_value('[data-testid="tokenize-text"]')
    for name in ("cl100k_base", "o200k_base", "gpt2"):
        assert h.in_digits(len(h.tiktoken_for(name).encode_ordinary(english)), code) in explanation.text_content()
    # the words around the texts (the rows themselves show the example's English text)
    shown = _said(
        page, '[data-testid="gallery"], [data-testid="sbs-panel"] :is(.sbs-switch, .field > .label, .hint, table)'
    )
    assert english_left(shown, code) == [], shown
    assert messages["gallery.ex.language-premium.title"]["text"] in shown
