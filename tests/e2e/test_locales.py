"""The playground in its six locales (issue 21): catalogs complete and consistent,
the shell and Tokenize worded from the locale's catalog (no English left on the
marked elements), right to left for Urdu and Persian, counts in the locale's
digits while token ids stay ASCII, and axe-core finding no serious or critical
violation on Tokenize in en, ur and bn.

The reference numbers are tiktoken's (the count) written in each script's
Unicode decimal digits (``unicodedata``); the catalog files are read from
``web/src/locales`` and the list of locales from ``web/src/i18n.js``.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

import bytepair
from bytepair.decoding import token_note_parts
from tests.e2e import helpers as h


def _locales() -> dict[str, str]:
    """{code: dir} as web/src/i18n.js's LOCALES lists them."""
    src = (h.ROOT / "web" / "src" / "i18n.js").read_text(encoding="utf-8")
    return dict(re.findall(r'\{ code: "([\w-]+)", name: "[^"]+", dir: "(ltr|rtl)" \}', src))


LOCALES = _locales()
TEXT = "Hello, world! سلام دنیا। হ্যালো"  # under 1000 tokens, characters, bytes: no grouping


def test_catalogs_cover_every_key_with_the_same_english_source():
    assert set(LOCALES) == {"en", "ur", "fa", "bn", "hi", "hi-Latn"}
    assert {p.stem for p in h.LOCALES_DIR.glob("*.json")} == set(LOCALES)
    en = h.catalog("en")
    for code in LOCALES:
        c = h.catalog(code)
        assert c["locale"] == code
        assert c["messages"].keys() == en["messages"].keys(), code
        assert c["glossary"].keys() == en["glossary"].keys(), code
        for key, entry in c["messages"].items():
            assert entry["en"] == en["messages"][key]["text"], (code, key)
            text, source = entry["text"], entry["en"]
            # plural forms (an object of Intl.PluralRules categories) need "other"; a language
            # whose sentence does not change with the count may give one string
            forms = list(text.values()) if isinstance(text, dict) else [text]
            if isinstance(text, dict):
                assert "other" in text, (code, key)
            # a translation that is the English source says so ("keep": the brand, a term kept)
            if code != "en" and text == source:
                assert entry.get("keep") is True, (code, key)
            placeholders = set(re.findall(r"\{(\w+)\}", json.dumps(source)))
            for form in forms:
                assert set(re.findall(r"\{(\w+)\}", form)) <= placeholders | {"n"}, (code, key)


# a plural noun right after a count ("{n} other pairs" too: Urdu's اور, Hinglish's aur): the English
# terms Urdu and Hinglish keep, and Urdu's plural of حرف
PLURAL_AFTER_N = re.compile(
    r"\{n\}\s+(?:special\s+|aur\s+|اور\s+)?(?:tokens|bytes|characters|merges|tokenizers|texts|pairs|ids|chunks)\b"
    r"|\{n\}\s+حروف"
)


def test_a_count_of_one_reads_in_the_singular():
    """Tester's finding: Tokenize's "Counted with" line said "1 special tokens" (Urdu, Hinglish). Each
    message whose English source has plural forms reads in the singular for 1 in every catalog (the
    form Intl.PluralRules picks for 1, "one" in all six locales, puts no plural noun after the count),
    and "counted.added" is plural forms in every catalog (Hindi's verb agrees with one token)."""
    plural = [k for k, e in h.messages("en").items() if isinstance(e["text"], dict)]
    found = []
    for code in LOCALES:
        words = h.messages(code)
        assert isinstance(words["counted.added"]["text"], dict), code
        for key in plural:
            text = words[key]["text"]
            one = text.get("one", text["other"]) if isinstance(text, dict) else text
            if PLURAL_AFTER_N.search(one):
                found.append((code, key, one))
    assert found == []
    hi = h.messages("hi")
    assert "जोड़ा गया" in hi["counted.added"]["text"]["one"]
    # Hindi's verbs agree with one: a character "is not ... was dropped", a merge "was learned"
    for key, verb in (
        ("dropped", "नहीं है और छोड़ दिया गया"),
        ("teach.compression.merges", "सीखा गया"),
        ("teach.compression.merges_bytes", "सीखा गया"),
    ):
        assert verb in hi[key]["text"]["one"], key


# each locale's word for "characters" (as its catalog writes it elsewhere, e.g. side.clipped)
CHARACTERS = {"en": "characters", "fa": "نویسه", "ur": "حروف", "bn": "অক্ষর", "hi": "अक्षर", "hi-Latn": "characters"}


def test_sample_and_count_wording_a_learner_reads_the_same_way_everywhere():
    """Fresh tester, Persian: the UDHR samples had three names (UDHR, اعلامیهٔ حقوق بشر,
    اعلامیه‌ی جهانی حقوق بشر) across Train, Compare and Report; every locale names them with
    the acronym the English labels use, in each label that names them. And a large text's
    summary counts characters (its UTF-16 code units), not bare "UTF-16 units"."""
    en = h.catalog("en")["messages"]
    labels = [k for k, e in en.items() if isinstance(e["text"], str) and "UDHR" in e["text"]]
    assert {"train.sample.udhr", "compare.source.udhr", "report.corpus.udhr", "compare.picture.udhr"} <= set(labels)
    for code in LOCALES:
        messages = h.catalog(code)["messages"]
        for key in labels:
            assert "UDHR" in messages[key]["text"], (code, key)
        for key in ("largetext.tokenize", "largetext.train"):
            text = messages[key]["text"]
            assert "UTF-16" in text and CHARACTERS[code] in text.split("{units}", 1)[1][:12], (code, key, text)


def _open(page, site_url, code, text=TEXT):
    """Tokenize in locale ``code`` with ``text`` typed, once its cl100k_base count is on screen;
    returns tiktoken's ids of ``text`` (the reference the count was waited for)."""
    page.goto(f"{site_url}?lang={code}#tokenize")
    h.wait_ready(page)
    h.set_text(page, "tokenize-text", text)
    enc = h.tiktoken_for("cl100k_base")
    ids = enc.encode_ordinary(text)
    page.wait_for_function(
        "(n) => document.querySelector('#view-tokenize').dataset.encoded === `cl100k_base:${n}`",
        arg=len(ids),
        timeout=60_000,
    )
    return ids


def _token_boxes(page) -> list[dict]:
    """Tokenize's token boxes in list order: their text and where they are drawn (CSS px)."""
    return page.locator('#view-tokenize [data-testid="token"]').evaluate_all(
        """(els) => els.map((e) => { const r = e.getBoundingClientRect();
              return {text: e.textContent, left: r.left, right: r.right, top: r.top}; })"""
    )


@pytest.mark.parametrize("code", sorted(LOCALES))
def test_tokenize_in_each_locale(page, site_url, code):
    ids = _open(page, site_url, code)
    html = page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")
    assert html == [code, LOCALES[code]]
    assert page.input_value('[data-testid="lang-picker"]') == code
    messages = h.catalog(code)["messages"]
    # every marked element of the shell and Tokenize says the locale's text, not the English source
    shown = page.evaluate(
        """() => [...document.querySelectorAll('header [data-i18n], .tabbar [data-i18n], footer [data-i18n], #view-tokenize [data-i18n]')].map((el) => [el.dataset.i18n, el.textContent.trim()])"""
    )
    assert len(shown) >= 30
    for key, text in shown:
        assert text == messages[key]["text"], (key, text)
        if code != "en" and not messages[key].get("keep"):
            assert text != messages[key]["en"], key
    labels = page.evaluate(
        """() => [...document.querySelectorAll('[data-i18n-attr]')].flatMap((el) =>
              el.dataset.i18nAttr.split(';').map((p) => p.split(':')).map(([a, k]) => [k, el.getAttribute(a)]))"""
    )
    for key, value in labels:
        assert value == messages[key]["text"], key
    # counts in the locale's digits, from tiktoken's count; ids stay ASCII
    assert page.text_content('[data-testid="count-tokens"]') == h.in_digits(len(ids), code)
    assert page.text_content('[data-testid="count-chars"]') == h.in_digits(len(TEXT), code)
    page.check('[data-testid="toggle-ids"]')
    page.wait_for_selector(".tok-id")
    # (a box of tokens sharing one character lists their ids space-separated)
    shown_ids = " ".join(page.locator(".tok-id").all_text_contents()).split()
    assert shown_ids == [str(i) for i in ids]
    # the status line and the count note come from the catalog too
    if code != "en":
        assert page.text_content('[data-testid="status-text"]') == messages["status.ready"]["text"]
    assert page.console_errors == []


def test_language_menu_switches_without_reload_and_is_remembered(page, site_url):
    _open(page, site_url, "en")
    page.evaluate("() => { window.sameDocument = true; }")
    h.settle(page)
    before = len(page.requested_urls)
    page.select_option('[data-testid="lang-picker"]', "fa")
    page.wait_for_function("() => document.documentElement.lang === 'fa'")
    assert page.evaluate("() => window.sameDocument") is True  # no reload
    # the switch costs one catalog fetch and nothing else: Python is not restarted, nothing reloaded
    h.settle(page)
    fetched = [u.split("?")[0] for u in page.requested_urls[before:]]
    assert [u.rsplit("/", 2)[-2:] for u in fetched if "/locales/" in u] == [["locales", "fa.json"]], fetched
    assert [u for u in fetched if any(w in u for w in ("pyodide", "worker", ".whl", ".html"))] == [], fetched
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert page.text_content("#tab-tokenize").strip() == h.catalog("fa")["messages"]["tab.tokenize"]["text"]
    assert (
        page.text_content('[data-testid="count-tokens"]')[0]
        in "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9"
    )
    # a share link carries the language
    page.click('[data-testid="share-button"]')
    assert "lang=fa" in page.input_value('[data-testid="share-link"]')
    page.goto(site_url + "#tokenize")
    h.wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "fa"


def test_a_language_chosen_in_the_menu_wins_over_the_links_lang(page, site_url):
    """Tester finding: `?lang=ur`, then বাংলা in the menu: a reload showed Urdu again."""
    _open(page, site_url, "ur")
    page.select_option('[data-testid="lang-picker"]', "bn")
    page.wait_for_function("() => document.documentElement.lang === 'bn'")
    assert "lang=bn" in page.url and "lang=ur" not in page.url, page.url
    assert page.url.endswith("#tokenize"), page.url  # the view stays in the address
    page.reload()
    h.wait_ready(page)
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["bn", "ltr"]


@pytest.mark.parametrize("code", ["en", "ur", "bn"])
def test_axe_on_tokenize(csp_free_page, site_url, code):
    page = csp_free_page
    _open(page, site_url, code)
    bad = h.axe_violations(page, "#view-tokenize")
    # in right to left nothing sticks out sideways (the page scrolls only down)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    if code == "ur":  # for a person to look at: build/screenshots/ (git-ignored)
        page.screenshot(path=str(h.ROOT / "build" / "screenshots" / "tokenize-ur.png"), full_page=True)
    assert bad == [], bad


SCRIPT = {"ben": "BENGALI", "urd": "ARABIC", "pes_1": "ARABIC"}


@pytest.mark.parametrize(("code", "lang"), [("ben", "bn"), ("urd", "ur"), ("pes_1", "fa")])
def test_train_offers_the_course_languages_as_samples(page, site_url, code, lang):
    h.open_ready(page, site_url, "train")
    button = page.locator(f'[data-sample="{code}"]')
    assert button.get_attribute("lang") == lang
    button.click()
    page.wait_for_function("() => document.querySelector('[data-testid=\"train-text\"]').value.length > 200")
    text = page.input_value('[data-testid="train-text"]')
    # the built sample of that language (UDHR preamble and Article 1), in that language's script
    samples = json.loads((h.DIST / "samples" / "udhr.json").read_text(encoding="utf-8"))["languages"]
    assert text == next(s["text"] for s in samples if s["code"] == code)
    letters = [c for c in text if c.isalpha()]
    assert sum(SCRIPT[code] in unicodedata.name(c, "") for c in letters) > 0.95 * len(letters)


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_rtl_tokenize_fits_a_phone(page, site_url, code):
    page.set_viewport_size({"width": 390, "height": 844})
    _open(page, site_url, code)
    # nothing sticks out sideways: the page scrolls only down
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#view-tokenize *, header *')]
              .filter((el) => el.offsetParent && !el.closest('.tabs, .table-wrap'))
              .filter((el) => { const r = el.getBoundingClientRect(); return r.width && (r.left < -1 || r.right > 391); })
              .map((el) => el.tagName + '.' + el.className + '[' + (el.dataset.testid || '') + ']')"""
    )
    assert wide == []
    page.screenshot(path=str(h.ROOT / "build" / "screenshots" / f"tokenize-{code}-phone.png"), full_page=True)


@pytest.mark.parametrize("code", ["en", "ur", "fa", "bn"])
def test_a_phone_shows_the_text_and_its_token_count_on_the_first_screen(browser, site_url, code):
    """Issue 20: a learner who opens Tokenize on a phone sees the text box and the Tokens count
    without scrolling (they sat about one screen down, under the header, the tab rows and the options)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{site_url}?lang={code}#tokenize")
        h.wait_ready(page)
        page.wait_for_selector("#view-tokenize[data-encoded^='cl100k_base:']", timeout=60_000)
        text = page.input_value('[data-testid="tokenize-text"]')
        n = len(h.tiktoken_for("cl100k_base").encode_ordinary(text))
        count = page.locator('[data-testid="count-tokens"]')
        assert h.read_count(count.inner_text(), code) == n
        box = page.evaluate(
            """() => ({ scrolled: window.scrollY, height: window.innerHeight,
                  text: document.querySelector('[data-testid="tokenize-text"]').getBoundingClientRect().top,
                  count: document.querySelector('[data-testid="count-tokens"]').getBoundingClientRect().bottom })"""
        )
        assert box["scrolled"] == 0 and box["height"] == 844, box
        assert box["text"] < box["count"] <= box["height"], box
    finally:
        context.close()


def test_errors_are_worded_from_their_type_in_the_locale(page, site_url):
    page.goto(f"{site_url}?lang=bn#tokenize")
    h.wait_ready(page)
    # a real error from Python (an id gpt2 does not have), shown under Tokenize's Ids → text
    page.click('[data-testid="decode-card"] summary')
    page.fill('[data-testid="decode-ids"]', "99999999")
    page.click('[data-testid="decode-button"]')
    shown = page.locator('[data-testid="decode-error"]')
    shown.wait_for(state="visible")
    err = page.evaluate(
        """async () => { try { await window.bytepair.decodeIds('99999999', 'gpt2'); return null; }
                         catch (e) { return [e.type, e.field, e.message]; } }"""
    )
    assert err is not None and err[0] == "argument" and err[1] == "ids"
    # worded from its reason (an id past the tokenizer's last), the ids in ASCII digits
    name = page.input_value('[data-testid="tokenize-tokenizer"]')
    last = str(bytepair.get_encoding(name).n_vocab - 1)
    sentence = h.messages("bn")["error.argument.unknown_id"]["text"]
    assert shown.text_content() == sentence.replace("{id}", "99999999").replace("{max_id}", last)
    # a broken tokenizer.json: worded from the error's reason and values (line, column as the json
    # module finds them), with the file's name; and the loader's status line
    broken = '{"model": {"type": "BPE",\n  "vocab": {"a": 0,, "b": 1}}}'
    try:
        json.loads(broken)
    except json.JSONDecodeError as e:
        ref = e
    shown = h.load_file_error(page, "bad.json", broken.encode())
    sentence = h.catalog("bn")["messages"]["error.tokenizer_file.json_syntax"]["text"]
    sentence = sentence.replace("{line}", h.in_digits(ref.lineno, "bn")).replace(
        "{column}", h.in_digits(ref.colno, "bn")
    )
    assert shown == f"bad.json: {sentence}"
    # Chat's formats: labels worded from Python's parts (chat_formats.LABEL_FORMS), not Python's English
    from bytepair.app import chat_formats

    page.click('[role="tab"][data-view="chat"]')
    page.wait_for_selector('[data-testid="chat-format"] option[value="chatml-o200k"]', state="attached")
    f = chat_formats.find_format("chatml-o200k")
    want = h.catalog("bn")["messages"]["chat.label.chatml"]["text"]
    want = want.replace("{models}", f["label_models"]).replace("{encoding}", f["label_encoding"])
    assert page.text_content('[data-testid="chat-format"] option[value="chatml-o200k"]') == want
    assert page.console_errors == []


#: Three or more Latin-letter words in a row: an English sentence (the Urdu catalog keeps single
#: English terms, "chunk", "token id", "Unicode property", never a clause)
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}")


def _fill(sentence: str, **values) -> str:
    for k, v in values.items():
        sentence = sentence.replace("{" + k + "}", v)
    assert "{" not in sentence.replace("\\p{", ""), sentence
    return sentence


def _unisolated(text: str) -> str:
    return text.replace("\u2068", "").replace("\u2069", "")


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_a_chunk_size_too_small_is_said_in_the_locale(page, site_url, code):
    """Fresh tester (ur, fa): Tokenize's chunk form with too small a size showed Python's English
    "max_tokens=2 is too small for this text: ..." inside the Urdu sentence. Now the catalog's
    sentence, filled from the error's values in the locale's digits: the size asked for, where no
    chunk fits (counted from 1) and the minimum, the tokens of the shortest piece from there
    (tiktoken's count)."""
    page.goto(f"{site_url}?lang={code}#tokenize")
    h.wait_ready(page)
    text = "Hi 🦜🦜 there"
    h.encode_in_page(page, text, "cl100k_base")
    page.fill('[data-testid="chunk-max"]', "2")
    page.click('[data-testid="chunk-download"]')
    shown = _unisolated(h.visible_error(page, "chunk-error"))
    start = text.index(" 🦜")  # "Hi" is one chunk; from there the shortest piece is " 🦜"
    needed = len(h.tiktoken_for("cl100k_base").encode(" 🦜"))
    sentence = h.messages(code)["error.argument.chunk_too_small"]["text"]
    digits = {"max": 2, "character": start + 1, "needed": needed}
    assert shown == _fill(sentence, **{k: h.in_digits(v, code) for k, v in digits.items()})
    assert not ENGLISH_RUN.search(shown), shown
    assert page.get_attribute('[data-testid="chunk-max"]', "aria-invalid") == "true"
    assert page.console_errors == []


def test_ids_that_are_no_token_ids_are_said_in_the_locale(page, site_url):
    """Fresh tester (ur): Tokenize's ids → text said "“abc” is not a token id: paste whole numbers
    ..." in English inside the Urdu sentence; an id the tokenizer lacks quoted Python's KeyError.
    Now each is the catalog's sentence from the error's reason and values: the text typed, the
    empty item's place, the id and the tokenizer's last id (cl100k_base: n_vocab - 1 = 100276;
    100256 is one of its unused ids), ids in ASCII digits."""
    page.goto(f"{site_url}?lang=ur#tokenize")
    h.wait_ready(page)
    h.encode_in_page(page, "Hello", "cl100k_base")
    page.click('[data-testid="decode-card"] summary')
    words = h.messages("ur")
    last = str(h.tiktoken_for("cl100k_base").n_vocab - 1)
    cases = [
        ("12 abc", _fill(words["error.argument.not_an_id"]["text"], token="abc")),
        ("1,2,,3", _fill(words["error.argument.empty_item"]["text"], item="3", items="4")),
        ("9906 99999999", _fill(words["error.argument.unknown_id"]["text"], id="99999999", max_id=last)),
        ("100256", _fill(words["error.argument.unused_id"]["text"], id="100256", max_id=last)),
    ]
    assert last == "100276"
    for ids, want in cases:
        page.fill('[data-testid="decode-ids"]', ids)
        page.click('[data-testid="decode-button"]')
        shown = h.wait_text(page.locator('[data-testid="decode-error"]'), [want])
        assert shown == want and not ENGLISH_RUN.search(shown), shown
    assert page.console_errors == []


@pytest.mark.parametrize("code", ["ur", "fa"])
def test_an_unknown_unicode_property_is_named_in_the_locale(page, site_url, code):
    """Fresh tester (ur, fa): a custom split regex with an unknown \\p{..} property showed a sentence
    that listed ~200 English property names. Now the catalog's sentence names the unknown property
    and where it is, and says what to write instead (a close known name when there is one, else
    examples); the whole list goes to the console, in English."""
    infos = []
    page.on("console", lambda m: infos.append(m.text) if m.type == "info" else None)
    page.goto(f"{site_url}?lang={code}#train")
    h.wait_ready(page)
    h.set_text(page, "train-text", "ab ab ab abab cd cd")
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-vocab"]', "260")
    words = h.messages(code)
    for regex, name, key, extra in (
        (r" ?\p{Foo}+|\s+", "Foo", "error.pattern.unknown_property", {}),
        (r" ?\p{Arabik}+|\s+", "Arabik", "error.pattern.unknown_property.suggest", {"suggestion": r"\p{Arabic}"}),
    ):
        page.fill('[data-testid="train-regex"]', regex)
        page.click('[data-testid="train-button"]')
        page.wait_for_function(
            "(name) => document.querySelector('[data-testid=\"train-regex-error\"]').textContent.includes(name)",
            arg=name,
        )
        shown = _unisolated(page.text_content('[data-testid="train-regex-error"]'))
        pos = page.evaluate(
            "async (p) => { try { await window.bytepair.checkPattern(p); } catch (e) { return e.detail.pos; } }",
            regex,
        )
        fill = {"construct": rf"\p{{{name}}}", "pos": h.in_digits(pos + 1, code), **extra}
        fill |= {"letters": r"\p{L}", "numbers": r"\p{N}", "script": r"\p{Arabic}"}
        assert shown == _fill(words[key]["text"], **fill)
        assert "Adlam" not in shown and len(shown) < 300 and not ENGLISH_RUN.search(shown), shown
    listed = [m for m in infos if "Unicode properties known here" in m]
    assert listed and "Adlam" in listed[-1] and "Arabic" in listed[-1], infos
    assert page.console_errors == []


def test_rtl_numbers_context_line_counts_and_regex_read_in_order(page, site_url):
    """Fresh tester's findings 1, 2, 6 and 12 (ur, phone), one page load. 1: a number cut into
    several tokens ("12345" as 123|45 by cl100k_base, from tiktoken) read reversed in a
    right-to-left list; its boxes now sit left to right. 6: the context-window line isolates
    its numbers, and a seven-digit count stays inside its card. 2: the custom regex field is
    left to right and its error is worded from the error's pos and reason. 12: an empty
    dir="auto" field shows its placeholder right to left."""
    code = "ur"
    page.set_viewport_size({"width": 390, "height": 844})
    text = "اردو زبان 12345 اور 2024 میں"
    enc = h.tiktoken_for("cl100k_base")
    ids = enc.encode_ordinary(text)
    pieces = [enc.decode_single_token_bytes(i).decode("utf-8", "replace") for i in ids]
    runs = [(a, b) for a, b in zip(pieces, pieces[1:], strict=False) if a.isdigit() and b.isdigit()]
    assert ("123", "45") in runs and ("202", "4") in runs  # the reference splits both numbers
    _open(page, site_url, code, text)
    boxes = _token_boxes(page)
    at = {b["text"]: b for b in boxes}
    direction = "(sel) => getComputedStyle(document.querySelector(sel)).direction"
    for a, b in runs:
        assert at[a]["top"] == at[b]["top"] and at[a]["right"] <= at[b]["left"] + 0.5, (a, b, boxes)
    assert boxes[0]["left"] > at["45"]["right"]  # the list itself still reads right to left
    # 13: a picker label keeps its own direction (a Latin label was cut from its start)
    llama = page.locator('[data-testid="view-tokenize"] option[value="llama3"]')
    assert llama.evaluate("(o) => getComputedStyle(o).direction") == "ltr"
    # 7: a box of character fragments explains them in the locale (the facts: token_note_parts of
    # tiktoken's bytes), and the detail line reads right to left
    page.locator("#view-tokenize .tok-group.has-note").first.click()
    box_ids = page.locator("#view-tokenize .tok-group.has-note").first.get_attribute("data-ids")
    words = h.catalog(code)["messages"]

    def worded(part):
        if part["kind"] == "char":
            return words["detail.note.char"]["text"].format(label=f"\u2068{part['shown']}\u2069", title=part["title"])
        text = words[f"detail.note.{part['kind']}"]["text"]
        if isinstance(text, dict):  # plural forms, by n (Intl.PluralRules: 1 is "one" in Urdu)
            text = text.get("one" if part.get("n", 0) == 1 else "other", text["other"])
        return text.format(
            hex=f"\u2068<{part['hex']}>\u2069",
            n=h.in_digits(part.get("n", 0), code),
            need=h.in_digits(part.get("need", 0), code),
        )

    notes = [
        " ".join(worded(p) for p in token_note_parts(enc.decode_single_token_bytes(int(i)))) for i in box_ids.split(",")
    ]
    assert page.text_content('[data-testid="token-note"]') == " " + " ".join(n for n in notes if n)
    assert page.evaluate(direction, '[data-testid="token-detail"]') == "rtl"
    # 13: the click opened the token's story; its merge table fits the phone (the rank was cut)
    page.wait_for_selector(".story-steps")
    fit = page.evaluate(
        "() => { const w = document.querySelector('.story-steps').parentElement; return [w.scrollWidth, w.clientWidth]; }"
    )
    assert fit[0] <= fit[1] + 1, fit
    # the context-window line: its counts are isolates (tiktoken's count in the locale's digits)
    line = page.locator('[data-testid="context-line"]')
    line.wait_for(state="visible")
    assert f"\u2068{h.in_digits(len(ids), code)}\u2069" in line.text_content()
    # a seven-digit count fits its card on a phone (was cut at the card's edge)
    fits = page.evaluate(
        """() => [...document.querySelectorAll('#view-tokenize .counts dd')].map((dd) => {
              dd.textContent = new Intl.NumberFormat(document.documentElement.lang).format(1680000);
              const c = dd.parentElement.getBoundingClientRect(), r = dd.getBoundingClientRect();
              return dd.scrollWidth <= dd.clientWidth + 1 && r.left >= c.left - 0.5 && r.right <= c.right + 0.5; })"""
    )
    assert fits and all(fits), fits
    # Train: the custom regex reads left to right; its error is worded from pos and reason
    page.evaluate("() => { location.hash = '#train'; }")
    page.wait_for_selector('[data-testid="train-pattern"]', state="visible")
    h.set_text(page, "train-text", "")
    assert page.evaluate(direction, '[data-testid="train-text"]') == "rtl"  # the placeholder's
    h.set_text(page, "train-text", "ab ab ab abab cd cd")
    assert page.evaluate(direction, '[data-testid="train-text"]') == "ltr"  # dir="auto": the text's
    page.select_option('[data-testid="train-pattern"]', "custom")
    assert page.evaluate(direction, '[data-testid="train-regex"]') == "ltr"
    bad = "(?<=a+)b["
    page.fill('[data-testid="train-regex"]', bad)
    page.fill('[data-testid="train-vocab"]', "260")
    page.click('[data-testid="train-button"]')
    shown = h.visible_error(page, "train-regex-error")
    err = page.evaluate(
        """async (p) => { try { await window.bytepair.checkPattern(p); return null; }
                          catch (e) { return [e.type, e.detail.pos, e.detail.reason]; } }""",
        bad,
    )
    assert err is not None and err[0] == "pattern" and err[1] is not None and err[2]
    want = h.catalog(code)["messages"]["error.pattern.at"]["text"]
    want = want.replace("{pos}", h.in_digits(err[1] + 1, code)).replace("{reason}", f"\u2068{err[2]}\u2069")
    assert shown == want
    assert page.console_errors == []


@pytest.mark.parametrize("code", ["ur", "bn"])
def test_the_embed_bar_speaks_the_snippets_language(page, site_url, code):
    """Tester finding: an embed's "Share" and "Open ↗" stayed English in every language."""
    page.goto(f"{site_url}?embed=1&lang={code}#tokenize")
    h.wait_ready(page)
    bar = page.locator('[data-testid="embed-bar"]')
    assert bar.is_visible()
    words = h.messages(code)
    assert page.text_content('[data-testid="share-button-embedded"]').strip() == words["embed.bar.share"]["text"]
    assert page.text_content('[data-testid="open-full"]').strip() == words["embed.bar.open"]["text"]


def test_an_urdu_word_reads_right_to_left_in_a_text_that_opens_in_english(page, site_url):
    """Fresh tester's finding (ur, phone): the Urdu course's paragraphs often open with an English
    term ("BPE Tokenizer بنائیں ..."), so the token list takes the left-to-right direction of its
    first letter; an Urdu word cut into several boxes then read spelled backwards, its first token
    leftmost. Now each run of right-to-left boxes is one dir="rtl" span: within a word the first
    box sits right of the next (tokenlist.js isolateRuns). A later tester: such a line, mostly Urdu,
    reads right to left as a whole (tokenlist.js lineDirection), its English opening at its right
    edge, in its own left-to-right order."""
    page.set_viewport_size({"width": 390, "height": 844})
    text = "BPE Tokenizer بنائیں اور سیکھیں کہ ٹوکنائزیشن کیسے کام کرتی ہے"
    _open(page, site_url, "ur", text)
    boxes = _token_boxes(page)
    urdu = re.compile(r"[\u0600-\u06ff]")
    pairs = [
        (a, b)
        for a, b in zip(boxes, boxes[1:], strict=False)
        if urdu.search(a["text"]) and urdu.search(b["text"]) and not b["text"].startswith(" ") and a["top"] == b["top"]
    ]
    assert len(pairs) >= 3, boxes  # cl100k_base cuts these Urdu words into several boxes
    for a, b in pairs:
        assert a["left"] >= b["right"] - 0.5, (a, b)
    first_line = [b for b in boxes if b["top"] == boxes[0]["top"]]
    english = [b for b in first_line if not urdu.search(b["text"]) and b["text"].strip()]
    assert boxes[0]["text"].startswith("B") and boxes[0] in english, boxes
    rightmost = max(first_line, key=lambda b: b["right"])
    assert rightmost in english, (rightmost, first_line)  # the English opening at the right edge
    assert [b["left"] for b in english] == sorted(b["left"] for b in english)  # "BPE Tokenizer" in its order
    assert page.console_errors == []


def test_a_large_texts_summary_writes_its_figures_in_the_locales_digits(page, site_url):
    """Fresh tester 4 (Bangla): the summary of a large paste said "3.47 MB … 1,999,976" in Latin
    digits right above counts in Bangla digits; both figures are the locale's own now."""
    page.goto(f"{site_url}?lang=bn#tokenize")
    page.wait_for_selector("html:not([data-i18n-pending])")
    text = "ক" * 600_000  # over largetext.js's LARGE_TEXT_CHARS; 3 UTF-8 bytes each
    h.paste(page, "tokenize-text", text)
    info = page.locator('[data-testid="tokenize-big-text-info"]')
    info.wait_for()
    shown = info.text_content()
    assert not re.search(r"[0-9]", shown.replace("UTF-16", "")), shown
    latin = shown.translate(str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")).replace(",", "")
    assert "600000" in latin, shown
    assert f"{len(text.encode()) / 1024 / 1024:.2f} MB" in latin, shown
