"""No untranslated string (issue 21): the playground in the pseudo-locale ``qps``.

``?lang=qps`` is taken only by a page told before it loads that it runs under test
(``globalThis.bytepairPseudoLocale``, set here by an init script); its catalog is en.json
with every message wrapped in ⟦…⟧ (web/src/i18n.js). So a visible text or a visible
element's title / aria-label / placeholder / alt with a letter outside ⟦…⟧ did not come
from the catalog: an untranslated string.

Allowed as data, by origin: a subtree marked ``data-i18n-skip`` (a user's own text,
tokenizer names), ``code``/``kbd``/``samp``, the text of form fields, and per view the
regions that show the user's text or its tokens (VIEWS below). Text without a letter
(numbers, ids, punctuation) is not a string to translate.

To cover another view, add an entry to VIEWS: its hash, the regions of data it shows, and
a function that triggers one of its errors; a view shown on another view's page (the gallery,
a token story) names that page in HASH.
"""

from __future__ import annotations

import pathlib
import re
import xml.etree.ElementTree as ET

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e

#: Subtrees whose text is data everywhere (user text, tokens, names as their makers write them).
ALWAYS_DATA = ["[data-i18n-skip]", "code", "kbd", "samp", "script", "style", "noscript", "textarea"]

#: The untranslated strings in ``root``: [selector-ish, text] of each visible text node or
#: attribute with a letter outside ⟦…⟧. ``data``: selectors of subtrees to leave out.
SCAN = """([root, data]) => {
  const skip = (el) => el.closest(data.join(','));
  const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const unwrap = (s) => { for (let r = s.replace(/⟦[^⟦⟧]*⟧/gu, ''); ; r = r.replace(/⟦[^⟦⟧]*⟧/gu, '')) {
    if (r === s) return r; s = r; } };  // (inner first: a message inside another's placeholder)
  const bare = (s) => /\\p{L}/u.test(unwrap(s));
  const where = (el) => el.tagName.toLowerCase() + (el.dataset.testid ? `[${el.dataset.testid}]` : '') +
    (el.id ? `#${el.id}` : '');
  const out = [];
  const scope = document.querySelector(root);
  // an element's own text nodes together: a message may hold data (a name, a citation) in a
  // child element marked data-i18n-skip, which splits its ⟦…⟧ over several text nodes
  const own = new Map();
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !visible(el)) continue;
    own.set(el, (own.get(el) ?? '') + n.data);
  }
  for (const [el, text] of own) if (bare(text)) out.push([where(el), text.trim()]);
  for (const el of [scope, ...scope.querySelectorAll('*')]) {
    if (skip(el) || !visible(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v && bare(v)) out.push([where(el) + `@${a}`, v]);
    }
  }
  return out;
}"""


@pytest.fixture
def pseudo_page(page):
    """The test's page, told before any page script runs that it may take ``?lang=qps``."""
    page.add_init_script("globalThis.bytepairPseudoLocale = true;")
    return page


def _tokenize_error(page):
    # an id gpt2 does not have: a structured error from Python, worded by its type
    page.click('[data-testid="decode-card"] summary')
    page.fill('[data-testid="decode-ids"]', "99999999")
    page.click('[data-testid="decode-button"]')
    page.locator('[data-testid="decode-error"]').wait_for(state="visible")


def _tokenize_ready(page):
    page.wait_for_selector('#view-tokenize[data-encoded]:not([data-encoded=""])')
    # "About this tokenizer", opened
    page.click('[data-testid="tokenizer-info"] summary')
    page.wait_for_selector('[data-testid="tokenizer-info-list"] dd')
    return []


def _compare_ready(page):
    page.wait_for_selector('#view-compare[data-compared]:not([data-compared=""])', timeout=60_000)
    page.wait_for_selector('[data-testid="compare-chart"][data-drawn="true"]')
    # the chart's words live on the canvas: read them from chart.js's config
    titles = page.evaluate(
        """() => { const c = Chart.getChart(document.querySelector('[data-testid="compare-chart"]'));
                   return [c.options.scales.y.title.text, c.options.scales.x.title.text, ...c.data.labels]; }"""
    )
    return titles + [f"{where}: {text}" for where, text in _compare_exports(page)]


def _svg_texts(page, testid: str) -> list[str]:
    """The texts written into the SVG picture the button `testid` downloads (<text>, <title>)."""
    with page.expect_download() as info:
        page.click(f'[data-testid="{testid}"]')
    root = ET.fromstring(pathlib.Path(info.value.path()).read_text(encoding="utf-8"))
    return ["".join(el.itertext()) for el in root.iter() if str(el.tag).rsplit("}", 1)[-1] in ("text", "title", "desc")]


def _compare_exports(page):
    """Compare's chart and table as SVG: every word from the catalog or a name shown as data."""
    names = page.eval_on_selector_all("#view-compare [data-i18n-skip]", "(els) => els.map((e) => e.textContent)")
    names = sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True)
    found = []
    for testid in ("compare-chart-picture-svg", "compare-table-picture-svg"):
        texts = _svg_texts(page, testid)
        assert any("⟦" in text for text in texts), (testid, texts[:5])  # its title, from the catalog
        for text in texts:
            rest = text
            while (shorter := re.sub(r"⟦[^⟦⟧]*⟧", "", rest)) != rest:
                rest = shorter
            for name in names:
                rest = rest.replace(name, "")
            if re.search(r"[^\W\d_]", rest):
                found.append([testid, text])
    return found


def _chat_ready(page):
    page.wait_for_selector('[data-testid="chat-total"]:not(:empty)')
    # counted: the tokens drawn and the source line final (a scan of the "Counting…" state passed
    # by luck: a slow CI run scanned the counted view and found the tokens and model names)
    page.wait_for_selector('[data-testid="chat-token"]')
    page.wait_for_selector('[data-testid="chat-source"]:not(:empty)')
    # the sample conversation is the catalog's (the reader's language)
    sample = page.eval_on_selector_all('[data-testid="chat-content"]', "(els) => els.map((e) => e.value)")
    return [f"sample: {text}" for text in sample if not _is_wrapped(text)] + ([] if len(sample) == 4 else ["sample"])


def _chat_error(page):
    # tool definitions that are not a JSON array: a structured error (type "tools")
    page.fill('[data-testid="chat-tools"]', '{"type": "function"}')
    page.locator('[data-testid="chat-tools-error"]').wait_for(state="visible")


def _compare_error(page):
    page.check('[data-testid="compare-source-custom"]')
    page.fill('[data-testid="compare-custom"]', "English | just one line")
    page.click('[data-testid="compare-button"]')
    page.locator('[data-testid="compare-error"]').wait_for(state="visible")


def _train_ready(page):
    # a short run on a sample: the progress line, the merges table, the saved tokenizer
    page.click('[data-sample="eng"]')
    page.fill('[data-testid="train-vocab"]', "300")
    page.fill('[data-testid="train-name"]', "pseudo-bpe")
    page.click('[data-testid="train-button"]')
    page.wait_for_selector('body[data-training="done"]:not([data-train-saving="true"])', timeout=60_000)
    page.wait_for_selector('[data-tokenizer="pseudo-bpe"]')
    # Tokenize's menu lists it in the page's own group ("Trained here"), a label from the catalog
    group = page.eval_on_selector(
        '[data-testid="tokenize-tokenizer"] option[value="pseudo-bpe"]', "(o) => o.parentElement.label"
    )
    return [f"Tokenize's group: {group}" if not _is_wrapped(group) else group]


def _train_error(page):
    # an empty tokenizer name (api.nameIssue "empty")
    page.fill('[data-testid="train-name"]', "")
    page.click('[data-testid="train-button"]')
    page.locator('[data-testid="train-name-error"]').wait_for(state="visible")


def _steps_ready(page):
    page.wait_for_selector('#view-steps[data-learned]:not([data-learned=""])')
    page.click('[data-testid="steps-next"]')
    page.wait_for_selector('#view-steps[data-shown$=":1"]')
    return []


def _steps_error(page):
    # a step past the last one
    page.fill('[data-testid="steps-jump"]', "99999")
    page.press('[data-testid="steps-jump"]', "Enter")
    page.locator('[data-testid="steps-jump-error"]').wait_for(state="visible")


def _report_ready(page):
    # the default report (cl100k_base on the UDHR samples), then one example token's story
    page.wait_for_selector('[data-testid="report-baseline"] option', state="attached")
    page.click('[data-testid="report-button"]')
    page.wait_for_selector('#view-report[data-reported]:not([data-reported=""])', timeout=60_000)
    page.locator('[data-testid="report-token"][data-category="longest"]').first.click()
    page.wait_for_selector('[data-testid="report-story"][data-state="ready"]', timeout=60_000)
    # the chart's words: its SVG (legend, aria-label, bar titles) as the export writes it
    with page.expect_download() as info:
        page.click('[data-testid="report-export-svg"]')
    root = ET.fromstring(pathlib.Path(info.value.path()).read_text(encoding="utf-8"))
    return [root.get("aria-label", "")] + [
        "".join(el.itertext())
        for el in root.iter()
        if str(el.tag).rsplit("}", 1)[-1] == "text" and "Petrov" in "".join(el.itertext())
    ]


def _report_error(page):
    page.check('[data-testid="report-source-custom"]')
    page.fill('[data-testid="report-custom"]', "English | just one line")
    page.click('[data-testid="report-button"]')
    page.locator('[data-testid="report-error"]').wait_for(state="visible")


def _gallery_ready(page):
    page.click('[data-testid="gallery-slot"] summary')
    page.locator('[data-testid="gallery-example"][data-id="language-premium"]').click()
    page.locator('[data-testid="gallery-explanation"]').wait_for()
    page.wait_for_selector('[data-testid="sbs-row-summary"] >> nth=2')
    return []


def _lessons_ready(page):
    page.click('[data-testid="lessons"] > summary')
    page.wait_for_selector('[data-testid="lesson"][data-id="pipeline-stages"]', timeout=120_000)
    for box in page.query_selector_all('[data-testid="lesson"] details > summary'):
        box.click()  # the embed snippets' labels too
    return []


def _story_ready(page):
    page.wait_for_selector('#view-tokenize[data-encoded]:not([data-encoded=""])')
    page.locator('[data-testid="token"]').first.click()
    page.locator('[data-testid="token-story"][data-state="ready"]').wait_for(timeout=60_000)
    return []


#: A view of VIEWS shown on another view's page (the gallery, a token story): that page's hash.
HASH = {"gallery": "tokenize", "lessons": "tokenize", "story": "tokenize"}

#: view -> (regions of data shown there, a function that triggers one of its errors, a readiness wait)
VIEWS = {
    "tokenize": (
        # the tokens of the user's text, the tokenizer names
        ['[data-testid="token-list"]', ".tokens", ".tok", "select option", "optgroup"],
        _tokenize_error,
        _tokenize_ready,
    ),
    "chat": (
        # the messages' roles and the chat formats' names (model names), the rendered prompt's tokens
        ['[data-testid="chat-role"] option', '[data-testid="chat-format"] option', '[data-testid="chat-tokens"]'],
        _chat_error,
        _chat_ready,
    ),
    "compare": (
        [],
        _compare_error,
        _compare_ready,
    ),
    "train": (
        # the sample's text, the merges (tokens) and the saved tokenizer's name
        ['[data-testid="merges-body"]', "[data-tokenizer]"],
        _train_error,
        _train_ready,
    ),
    "steps": (
        # the words, symbols and pairs of the example corpus
        [".sym", ".corpus", '[data-testid="steps-pairs-body"]'],
        _steps_error,
        _steps_ready,
    ),
    "report": (
        # the example tokens (buttons and codes), the story's token texts (each in a <bdi>)
        ['[data-testid="report-token"]', ".report-token", '[data-testid="report-story"] bdi'],
        _report_error,
        _report_ready,
    ),
    "gallery": (
        # the example's texts and their tokens (also side by side), the tokenizer names
        ['[data-testid="token-list"]', ".tokens", ".tok", "select option", "optgroup", ".sbs-cell"],
        _tokenize_error,
        _gallery_ready,
    ),
    "lessons": (
        # as Tokenize (the lesson cards' words are all the catalog's; their facts are in ⟦…⟧)
        ['[data-testid="token-list"]', ".tokens", ".tok", "select option", "optgroup"],
        _tokenize_error,
        _lessons_ready,
    ),
    "story": (
        # as Tokenize, and the token texts of the story and the detail line (each in a <bdi>)
        ['[data-testid="token-list"]', ".tokens", ".tok", "select option", "optgroup", "bdi"],
        _tokenize_error,
        _story_ready,
    ),
}


def _bare(page, root, data):
    return page.evaluate(SCAN, [root, ALWAYS_DATA + data])


def _is_wrapped(text: str) -> bool:
    return not text or (text.startswith("⟦") and text.endswith("⟧"))


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_every_visible_string_comes_from_the_catalog(pseudo_page, site_url, view):
    page = pseudo_page
    data, error, ready = VIEWS[view]
    page.goto(f"{site_url}?lang=qps#{HASH.get(view, view)}")
    h.wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "qps"
    extra = ready(page) or []
    found = _bare(page, "body", data)
    found += [["chart", s] for s in extra if isinstance(s, str) and not _is_wrapped(s)]
    # its dialogs (Share, Embed), each opened over the view
    for button, dialog in (("share-button", "share-dialog"), ("embed-button", "embed-dialog")):
        page.click(f'[data-testid="{button}"]')
        page.locator(f'[data-testid="{dialog}"]').wait_for(state="visible")
        page.wait_for_selector(f'[data-testid="{dialog}"] [aria-live]:not(:empty), [data-testid="{dialog}"] h2')
        found += _bare(page, f'[data-testid="{dialog}"]', data)
        page.keyboard.press("Escape")
        page.locator(f'[data-testid="{dialog}"]').wait_for(state="hidden")
    # one error, worded from its type
    error(page)
    found += _bare(page, f"#view-{HASH.get(view, view)}", data)
    found = list(dict.fromkeys(tuple(f) for f in found))  # (the view is scanned twice: once per state)
    assert found == [], found
    # the pseudo-locale is never offered in the language menu
    assert "qps" not in page.eval_on_selector_all(
        '[data-testid="lang-picker"] option', "(os) => os.map((o) => o.value)"
    )


def test_the_pseudo_locale_needs_the_test_flag(page, site_url):
    """Without the init script's flag ``?lang=qps`` is an unknown language: the page stays in English."""
    page.goto(f"{site_url}?lang=qps#compare")
    h.wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.text_content('#view-compare [data-i18n="compare.title"]') == "Compare languages"


def test_tokenize_legend_of_special_tokens_comes_from_the_catalog(pseudo_page, site_url):
    """Tester's finding: Tokenize's legend items for special tokens (one typed in the text, one the
    tokenizer adds itself) were English in every locale. Llama 3 adds <|begin_of_text|> and counts a
    typed <|end_of_text|> as one token, so both items show: their words come from the catalog, the
    tokens in them are data (data-i18n-skip), as the tokenizer spells them."""
    from tests import hf_models

    ref = hf_models.reference(hf_models.SITE_KEYS["llama3"])
    eot = ref.id_to_token(128001)
    text = f"Hello{eot} world"
    bos = ref.encode(text, add_special_tokens=True).tokens[0]
    page = pseudo_page
    page.goto(f"{site_url}?lang=qps#tokenize")
    h.wait_ready(page)
    h.encode_in_page(page, text, "llama3")
    items = []
    for testid in ("legend-special", "legend-added"):
        items.append(page.locator(f'[data-testid="tokens-legend"] [data-testid="{testid}"]'))
        items[-1].wait_for(state="visible")
    assert _bare(page, '[data-testid="tokens-legend"]', []) == []
    for item, token in zip(items, (eot, bos), strict=True):
        assert item.locator("[data-i18n-skip]").all_text_contents() == [token]
        assert item.text_content().startswith("⟦"), item.text_content()


#: Every text the status lines of copy ids and of the chunk form are given, as it is set (a
#: passing "Cutting…" too), kept in window.statusTexts.
RECORD_STATUS = """() => {
  window.statusTexts = [];
  for (const testid of ['copy-ids-status', 'chunk-status', 'chunk-error']) {
    const el = document.querySelector(`[data-testid="${testid}"]`);
    new MutationObserver(() => { if (el.textContent) window.statusTexts.push([testid, el.textContent]); })
      .observe(el, { childList: true, characterData: true, subtree: true });
  }
}"""


def test_copy_ids_and_chunk_messages_come_from_the_catalog(pseudo_page, site_url):
    """Tester's finding: the copy-ids status ("Copied 4 ids (JSON).", the clipboard's refusal) and
    the chunk form's messages (an empty text, "Cutting…", each field's problem, the saved file)
    were English in every locale. Each is triggered here and scanned: the words come from the
    catalog."""
    page = pseudo_page
    page.goto(f"{site_url}?lang=qps#tokenize")
    h.wait_ready(page)
    h.encode_in_page(page, "Some text to cut.", "cl100k_base")
    page.evaluate(RECORD_STATUS)
    found = []
    # copy ids: the clipboard takes them (JSON, then space-separated), then refuses them
    for clipboard, button in (("resolve", "json"), ("resolve", "space"), ("reject", "json")):
        page.evaluate(f"() => {{ navigator.clipboard.writeText = () => Promise.{clipboard}(); }}")
        page.evaluate("() => { document.querySelector('[data-testid=\"copy-ids-status\"]').textContent = ''; }")
        page.click(f'[data-testid="copy-ids-{button}"]')
        page.wait_for_selector('[data-testid="copy-ids-status"]:not(:empty)')
        found += _bare(page, '[data-testid="copy-ids"]', [])
    assert page.locator('[data-testid="copy-ids-box"]').is_visible()  # the refusal: the ids shown selected
    # the chunk form: each field's problem, then an empty text, then a text cut and saved
    for max_tokens, overlap in (("0", "0"), ("99999999999999999999", "0"), ("10", ""), ("10", "20")):
        page.fill('[data-testid="chunk-max"]', max_tokens)
        page.fill('[data-testid="chunk-overlap"]', overlap)
        page.click('[data-testid="chunk-download"]')
        page.locator('[data-testid="chunk-error"]').wait_for(state="visible")
        found += _bare(page, '[data-testid="chunk-form"]', [])
    page.fill('[data-testid="chunk-max"]', "4")
    page.fill('[data-testid="chunk-overlap"]', "0")
    h.set_text(page, "tokenize-text", "")
    page.click('[data-testid="chunk-download"]')
    page.wait_for_selector('[data-testid="chunk-status"]:not(:empty)')
    found += _bare(page, '[data-testid="chunk-form"]', [])
    h.set_text(page, "tokenize-text", "Some text to cut, and some more text to cut after it.")
    with page.expect_download() as info:
        page.click('[data-testid="chunk-download"]')
    file = info.value.suggested_filename
    page.wait_for_function(
        "(file) => document.querySelector('[data-testid=\"chunk-status\"]').textContent.includes(file)", arg=file
    )
    found += _bare(page, '[data-testid="chunk-form"]', [])
    texts = page.evaluate("() => window.statusTexts")
    seen = {testid for testid, _ in texts}
    assert seen == {"copy-ids-status", "chunk-status", "chunk-error"}, texts
    found += [[testid, text] for testid, text in texts if not _is_wrapped(text.strip())]
    assert len(texts) >= 10, texts
    found = list(dict.fromkeys(tuple(f) for f in found))
    assert found == [], found


def test_a_damaged_chat_link_says_so_from_the_catalog(pseudo_page, site_url):
    """Chat's link notes (a damaged conversation, damaged tool definitions) were English in every
    locale: a link whose t= and tl= are not lz-packed text says both, in the catalog's words."""
    page = pseudo_page
    page.goto(f"{site_url}?lang=qps#chat?t=%21%21%21&tl=%21%21%21")
    h.wait_ready(page)
    page.wait_for_selector('[data-testid="link-note"]:not([hidden])')
    note = page.text_content('[data-testid="link-note-text"]')
    assert note.count("⟦") >= 2, note
    assert _bare(page, '[data-testid="link-note"]', []) == []
