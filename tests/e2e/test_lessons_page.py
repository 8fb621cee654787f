"""Lessons from the courses (issue 21 item 6) in a browser: the cards in Tokenize, in the
reader's language, and the view each card's Open link brings up, checked against references
(tiktoken built offline from the shipped ranks; the slow textbook oracle), never against the
page's own output. At 1280×800 and at 390×844, in Bangla and in Urdu (right to left).
"""

from __future__ import annotations

import unicodedata

import pytest

from tests.e2e import helpers as h
from tests.reference.textbook_oracle import PAPER_VOCAB, oracle_learn

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LESSON_TEXT_BN = "আমার অর্ডার কোথায় ?"
LESSON_TEXT_EN = "where is my order ?"


def ascii_digits(s: str) -> str:
    """Any script's decimal digits (০–৯, ۰–۹) as ASCII."""
    return "".join(str(unicodedata.decimal(c)) if unicodedata.decimal(c, None) is not None else c for c in s)


def _open_lessons(page, site_url, code: str, size: str, *, theme: str | None = None) -> None:
    """Tokenize in locale ``code`` at ``size`` (a key of SIZES), its lesson cards opened and drawn."""
    w, hgt = SIZES[size]
    page.set_viewport_size({"width": w, "height": hgt})
    page.goto(f"{site_url}?lang={code}{f'&theme={theme}' if theme else ''}#tokenize")
    h.wait_ready(page)
    page.click('[data-testid="lessons"] > summary')
    page.wait_for_selector('[data-testid="lesson"][data-id="pipeline-stages"]', timeout=120_000)


def _card(page, site_url, code: str, size: str, lesson_id: str) -> str:
    """Open the lesson cards (:func:`_open_lessons`), check that nothing sticks out of the page (also
    right to left on a phone), and return the CSS selector of lesson ``lesson_id``'s card."""
    _open_lessons(page, site_url, code, size)
    over = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="lesson"], [data-testid="lesson"] *')]
        .filter((e) => e.getBoundingClientRect().width > 0)
        .filter((e) => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > innerWidth + 1; })
        .map((e) => e.tagName + '.' + e.className)"""
    )
    assert over == []
    return f'[data-testid="lesson"][data-id="{lesson_id}"]'


def _encoded(page, tokenizer: str, n: int) -> None:
    """Wait until Tokenize shows ``n`` tokens of ``tokenizer`` (its dataset.encoded)."""
    page.wait_for_function(
        "([t, n]) => document.querySelector('#view-tokenize').dataset.encoded === `${t}:${n}`",
        arg=[tokenizer, n],
        timeout=120_000,
    )


def _href(page, lesson_id):
    return page.get_attribute(f'[data-testid="lesson"][data-id="{lesson_id}"] [data-testid="lesson-open"]', "href")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_bangla_lesson_opens_compare_with_tiktokens_counts(page, site_url, size):
    card = _card(page, site_url, "bn", size, "bangla-premium")
    note = page.text_content(f"{card} [data-testid='lesson-note']")
    refs = {n: h.tiktoken_for(n) for n in ("gpt2", "cl100k_base", "o200k_base")}
    want = {
        n: (len(e.encode_ordinary(LESSON_TEXT_EN)), len(e.encode_ordinary(LESSON_TEXT_BN))) for n, e in refs.items()
    }
    # the note is Bangla, with Bangla digits, and names the real counts and the course's ids
    assert "টা merge" in note and "cl100k_base" in note
    digits = ascii_digits(note)
    for en, bn in want.values():
        assert f"{en} আর {bn}" in digits
    assert "2940, 374, 856, 2015" in note  # ids stay ASCII
    assert refs["cl100k_base"].encode_ordinary("where is my order") == [2940, 374, 856, 2015]
    # the embed snippet opens the same state in the course's language
    embed = page.input_value(f"{card} [data-testid='lesson-embed']")
    assert "embed=1" in embed and "lang=bn" in embed and "#compare?" in embed
    page.click(f"{card} [data-testid='lesson-open']")
    cell = '[data-testid="compare-table"] td[data-metric="tokens"]'
    page.wait_for_function(
        '() => document.querySelectorAll(\'[data-testid="compare-table"] td[data-metric="tokens"]\').length === 6',
        timeout=120_000,
    )
    assert page.evaluate("() => document.documentElement.lang") == "bn"
    got = page.eval_on_selector_all(cell, "cs => cs.map((c) => [c.dataset.tokenizer, Number(c.dataset.value)])")
    for name, (en, bn) in want.items():
        assert sorted(v for t, v in got if t == name) == sorted([en, bn]), name


@pytest.mark.parametrize("size", sorted(SIZES))
def test_urdu_lesson_opens_strawberry_with_tiktokens_pieces(page, site_url, size):
    card = _card(page, site_url, "ur", size, "counting-rs")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    note = page.text_content(f"{card} [data-testid='lesson-note']")
    assert "strawberry" in note and "کا اپنا tokenizer" in note
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        enc = h.tiktoken_for(name)
        pieces = "".join(f"[{enc.decode_single_token_bytes(i).decode()}]" for i in enc.encode_ordinary("strawberry"))
        assert pieces in note, name
    assert "lang=ur" in _href(page, "counting-rs")
    page.click(f"{card} [data-testid='lesson-open']")
    # the gallery's strawberry in Tokenize, under gpt2 (the example's first tokenizer)
    want = len(h.tiktoken_for("gpt2").encode_ordinary("strawberry"))
    _encoded(page, "gpt2", want)
    assert page.input_value('[data-testid="tokenize-text"]') == "strawberry"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_textbook_lesson_opens_step_through_at_the_oracles_merges(page, site_url, size):
    card = _card(page, site_url, "bn", size, "textbook-merges")
    steps = oracle_learn(PAPER_VOCAB, 5, "lexicographic")
    merged = [s["merged"] for s in steps]
    note = page.text_content(f"{card} [data-testid='lesson-note']")
    assert "w e → we" in note and "est </w> → est</w>" in note  # the course's row and the recount's
    assert "lang=hi-Latn" in _href(page, "textbook-merges")
    page.click(f"{card} [data-testid='lesson-open']")
    page.wait_for_function(
        "() => document.querySelector('#view-steps')?.dataset.step === '5'"
        " && document.querySelector('[data-testid=\"steps-merge\"]').dataset.pair",
        timeout=120_000,
    )
    vocab = page.eval_on_selector_all('[data-testid="steps-vocab"] .sym', "es => es.map((e) => e.dataset.sym)")
    assert [v for v in vocab if v is not None][-5:] == merged
    pair = page.evaluate("() => JSON.parse(document.querySelector('[data-testid=\"steps-merge\"]').dataset.pair)")
    assert tuple(pair) == steps[-1]["pair"]


def test_pipeline_lesson_lists_the_five_stages_in_persian(page, site_url):
    card = _card(page, site_url, "fa", "phone", "pipeline-stages")
    stages = page.eval_on_selector_all(
        f"{card} [data-testid='lesson-stages'] li", "ls => ls.map((l) => l.dataset.stage)"
    )
    assert stages == ["normalizer", "pre_tokenizer", "model", "post_processor", "decoder"]
    text = "توکن‌ساز، متن را پیش از مدل به توکن‌ها می‌شکند."
    n = len(h.tiktoken_for("o200k_base").encode_ordinary(text))
    model = page.text_content(f"{card} li[data-stage='model']")
    assert str(n) in ascii_digits(model)
    page.click(f"{card} [data-testid='lesson-open']")
    _encoded(page, "o200k_base", n)


def test_tokenize_sample_text_follows_the_language(page, site_url):
    page.goto(f"{site_url}?lang=bn#tokenize")
    h.wait_ready(page)
    bn = h.messages("bn")["tok.sample"]["text"]
    assert "Tokenizer লেখাকে" in bn
    n = len(h.tiktoken_for("cl100k_base").encode_ordinary(bn))
    _encoded(page, "cl100k_base", n)
    assert page.input_value('[data-testid="tokenize-text"]') == bn
    # an unedited sample follows a language switch; the count follows it
    page.select_option('[data-testid="lang-picker"]', "ur")
    ur = h.messages("ur")["tok.sample"]["text"]
    n = len(h.tiktoken_for("cl100k_base").encode_ordinary(ur))
    _encoded(page, "cl100k_base", n)
    assert page.input_value('[data-testid="tokenize-text"]') == ur


def test_train_offers_a_hinglish_sample(page, site_url):
    page.goto(f"{site_url}?lang=hi-Latn")
    h.wait_ready(page)
    button = page.locator('[data-sample="hinglish"]')
    assert button.get_attribute("lang") == "hi-Latn"
    button.click()
    page.wait_for_function("() => document.querySelector('[data-testid=\"train-text\"]').value.length > 200")
    want = (h.ROOT / "web" / "samples" / "hinglish.txt").read_text(encoding="utf-8")
    assert page.input_value('[data-testid="train-text"]') == want
    assert all(c.isascii() for c in want)  # Hindi in Latin letters


@pytest.mark.parametrize(("code", "theme", "size"), [("ur", "dark", "phone"), ("bn", "light", "desktop")])
def test_axe_finds_nothing_serious_in_the_lesson_cards(csp_free_page, site_url, code, theme, size):
    page = csp_free_page
    _open_lessons(page, site_url, code, size, theme=theme)
    for box in page.query_selector_all('[data-testid="lesson"] details > summary'):
        box.click()  # the embed snippets too
    assert h.axe_violations(page, '[data-testid="lessons"]') == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
