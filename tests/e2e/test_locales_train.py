"""Train and Step through in the course languages (issue 21): in Urdu and Bangla, Train trains
the course's own sample end to end and Step through steps, at 1280×800 and 390×844, every
marked element worded from the locale's catalog and no sentence of their English sources left
on either view; counts in the locale's digits, checked against slow oracles (minbpe training,
tests/reference/slow_bpe.py; textbook pair counting written out below); Urdu (right to left)
sticks out sideways nowhere; switching language words the views again without reloading
Python; axe-core finds no serious or critical violation on Train and Step in en, ur and bn.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from tests.e2e import helpers as h

SAMPLE = {"ur": "urd", "bn": "ben"}  # each course's language among Train's samples (UDHR)
VOCAB = 300  # 44 merges
COUNTS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}  # Step through's default textbook input


def form(entry: dict, n: int) -> str:
    """A catalog text for count n: its plural form ("one" only for exactly 1 in these locales)."""
    text = entry["text"]
    return text if isinstance(text, str) else text["one" if n == 1 and "one" in text else "other"]


def plain(text: str | None) -> str:
    """Shown text without the bidi isolates (U+2068, U+2069) i18n.js puts around string
    parameters in a right-to-left sentence."""
    return (text or "").replace("\u2068", "").replace("\u2069", "")


def fill(text: str, **params: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], text)


def textbook_first_merge(counts: dict[str, int]) -> tuple[tuple[str, str], int, int]:
    """Textbook BPE's first merge (Sennrich et al.): every word as its characters and the symbol </w>, pairs
    counted inside words weighted by the word's count, the most frequent pair first, ties to the
    pair met first reading the words in order. Returns (pair, count, number of other tied pairs)."""
    pairs: Counter[tuple[str, str]] = Counter()
    order: list[tuple[str, str]] = []
    for word, n in counts.items():
        syms = [*word, "</w>"]
        for p in zip(syms, syms[1:]):
            if p not in pairs:
                order.append(p)
            pairs[p] += n
    best = max(pairs.values())
    tied = [p for p in order if pairs[p] == best]
    return tied[0], best, len(tied) - 1


def english_left(page, view: str, code: str) -> list[str]:
    """Sentences of the catalog's English sources (train./steps. keys a locale translates) that
    show on the view's visible text, outside user text (inputs, code, elements with a lang)."""
    shown = page.evaluate(
        """(view) => {
          const root = document.querySelector(view);
          const out = [];
          const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const el = n.parentElement;
            if (!el.checkVisibility() || el.closest('textarea, select, code, [lang]:not(html), .sym, .corpus')) continue;
            out.push(n.textContent);
          }
          return out.join(' ').replace(/\\s+/g, ' ');
        }""",
        view,
    )
    left = []
    for key, entry in h.messages(code).items():
        if not key.startswith(("train.", "steps.")) or entry.get("keep"):
            continue
        forms = entry["en"].values() if isinstance(entry["en"], dict) else [entry["en"]]
        for en in forms:
            for part in re.split(r"\{\w+\}", en):
                part = part.strip(" .,:;()")
                if len(part) >= 12 and " " in part and part in shown:
                    left.append(f"{key}: {part}")
    return left


def marked_in_catalog(page, view: str, code: str) -> int:
    """Check that every data-i18n element and data-i18n-attr attribute under ``view`` shows the
    locale's text; returns how many were checked."""
    messages = h.messages(code)
    shown = page.evaluate(
        """(view) => [...document.querySelectorAll(`${view} [data-i18n]`)].map((el) => [el.dataset.i18n, el.textContent.trim()])""",
        view,
    )
    attrs = page.evaluate(
        """(view) => [...document.querySelectorAll(`${view} [data-i18n-attr]`)].flatMap((el) =>
              el.dataset.i18nAttr.split(';').map((p) => p.split(':')).map(([a, k]) => [k, el.getAttribute(a)]))""",
        view,
    )
    for key, text in shown + attrs:
        assert text == messages[key]["text"], (key, text)
        assert messages[key].get("keep") or text != messages[key]["en"], key
    return len(shown) + len(attrs)


def fits(page, code: str, width: int) -> None:
    """Nothing on the shown view sticks out sideways (the page scrolls only down)."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, code
    wide = page.evaluate(
        """(w) => [...document.querySelectorAll('.view:not([hidden]) *, header *')]
              .filter((el) => el.offsetParent && !el.closest('.tabs, .table-wrap, .corpus'))
              .filter((el) => { const r = el.getBoundingClientRect(); return r.width && (r.left < -1 || r.right > w + 1); })
              .map((el) => el.tagName + '.' + el.className + '[' + (el.dataset.testid || '') + ']')""",
        width,
    )
    assert wide == [], (code, width, wide)


@pytest.mark.parametrize("code", ["ur", "bn"])
def test_train_and_steps_in_the_course_language(page, site_url, code):
    from tests.reference import tiktoken_pattern
    from tests.reference.slow_bpe import slow_train_steps

    regex = pytest.importorskip("regex")
    messages = h.messages(code)
    page.goto(f"{site_url}?lang={code}")
    h.wait_ready(page)

    # --- Train: the course language's sample, end to end -------------------------------
    page.click(f'[data-sample="{SAMPLE[code]}"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"train-text\"]').value.length > 200")
    text = page.input_value('[data-testid="train-text"]')
    page.fill('[data-testid="train-vocab"]', str(VOCAB))
    page.select_option('[data-testid="train-pattern"]', "cl100k_base")
    page.fill('[data-testid="train-name"]', f"course-{code}")
    page.click('[data-testid="train-button"]')
    h.wait_training_over(page)
    h.settle(page)
    pattern = regex.compile(tiktoken_pattern("cl100k_base"))
    steps = list(slow_train_steps(text, VOCAB - 256, split=pattern.findall))
    n = len(steps)
    assert n == VOCAB - 256
    progress = plain(page.text_content('[data-testid="train-progress-text"]'))
    done = re.escape(form(messages["train.progress.done"], n))
    done = done.replace(re.escape("{n}"), h.in_digits(n, code)).replace(re.escape("{time}"), ".+?")
    assert re.match(done, progress), (done, progress)
    bpt = len(text.encode("utf-8")) / steps[-1].n_tokens
    ratio = fill(messages["train.progress.ratio"]["text"], bpt=h.in_digits(f"{bpt:.2f}", code))
    assert ratio in progress, (ratio, progress)
    assert fill(messages["train.progress.saved"]["text"], name=f"course-{code}") in progress.replace(
        "\u2068", ""
    ).replace("\u2069", "")
    # the newest merge first; its pair count in the locale's digits, its id in ASCII
    first_row = page.locator('[data-testid="merges-body"] tr').first
    assert first_row.locator("td").first.text_content() == str(steps[-1].new_id)
    assert first_row.locator("td").last.text_content() == h.in_digits(f"{steps[-1].count:,}", code)
    note = plain(page.text_content('[data-testid="merges-note"]'))
    assert note == fill(messages["train.note.all"]["text"], n=h.in_digits(n, code))
    saved = page.locator(f'[data-tokenizer="course-{code}"]')
    assert (
        saved.locator(".hint")
        .text_content()
        .startswith(fill(form(messages["train.saved.merges"], n), n=h.in_digits(n, code)))
    )
    assert saved.locator('[data-action="delete"]').text_content() == messages["train.delete"]["text"]
    assert marked_in_catalog(page, "#view-train", code) >= 30
    assert english_left(page, "#view-train", code) == []

    # --- Step through: textbook BPE on its default words, one step ------------------------
    page.click("#tab-steps")
    page.wait_for_selector('#view-steps[data-learned]:not([data-learned=""])')
    page.click('[data-testid="steps-next"]')
    page.wait_for_selector('#view-steps[data-shown$=":1"]')
    h.settle(page)
    (left, right), count, ties = textbook_first_merge(COUNTS)
    line = page.locator('[data-testid="steps-merge"]')
    assert json.loads(line.get_attribute("data-pair")) == [left, right]
    said = plain(line.text_content())
    assert said.startswith(fill(messages["steps.merge.head"]["text"], n=h.in_digits(1, code))), said
    assert fill(form(messages["steps.merge.count"], count), n=h.in_digits(count, code)) in said, said
    assert fill(form(messages["steps.merge.tie.first"], ties), n=h.in_digits(ties, code)) in said, said
    position = plain(page.text_content('[data-testid="steps-position"]'))
    n_steps = page.evaluate("() => Number(document.querySelector('#view-steps').dataset.learned.split(':')[1])")
    assert position == fill(messages["steps.position"]["text"], step=h.in_digits(1, code), n=h.in_digits(n_steps, code))
    chosen = page.locator('[data-testid="steps-pairs-body"] tr.chosen td.num')
    assert chosen.text_content() == h.in_digits(count, code)
    assert marked_in_catalog(page, "#view-steps", code) >= 40
    assert english_left(page, "#view-steps", code) == []
    if code == "ur":
        fits(page, code, 1280)

    # --- a phone: both views, still worded, nothing sticking out sideways -------------------
    page.set_viewport_size({"width": 390, "height": 844})
    h.settle(page)
    assert english_left(page, "#view-steps", code) == []
    if code == "ur":
        fits(page, code, 390)
        page.screenshot(path=str(h.ROOT / "build" / "screenshots" / "steps-ur-phone.png"), full_page=True)
    page.click("#tab-train")
    h.settle(page)
    assert english_left(page, "#view-train", code) == []
    if code == "ur":
        fits(page, code, 390)
        page.screenshot(path=str(h.ROOT / "build" / "screenshots" / "train-ur-phone.png"), full_page=True)

    # --- another language: worded again at once, Python not reloaded ------------------------
    page.evaluate("() => { window.sameDocument = true; }")
    page.select_option('[data-testid="lang-picker"]', "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.evaluate("() => window.sameDocument") is True
    english = h.messages("en")
    progress = page.text_content('[data-testid="train-progress-text"]')
    assert progress.startswith(f"Done: {n} merges in "), progress
    assert page.text_content('[data-testid="train-samples"] .hint') == english["train.sample.lead"]["text"]
    assert len(english_left(page, "#view-train", code)) >= 10  # (the check above sees English when it is there)
    assert page.console_errors == []


@pytest.mark.parametrize("code", ["en", "ur", "bn"])
def test_axe_on_train_and_steps(csp_free_page, site_url, code):
    page = csp_free_page
    page.goto(f"{site_url}?lang={code}")
    h.wait_ready(page)
    page.click('[data-sample="eng"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"train-text\"]').value.length > 200")
    page.fill('[data-testid="train-vocab"]', "280")
    page.click('[data-testid="train-button"]')
    h.wait_training_over(page)
    h.settle(page)
    bad_train = h.axe_violations(page, "#view-train")
    page.click("#tab-steps")
    page.wait_for_selector('#view-steps[data-learned]:not([data-learned=""])')
    page.click('[data-testid="steps-next"]')
    page.wait_for_selector('#view-steps[data-shown$=":1"]')
    h.settle(page)
    bad_steps = h.axe_violations(page, "#view-steps")
    assert (bad_train, bad_steps) == ([], []), (bad_train, bad_steps)


#: IndexedDB refuses the tokenizer as a full disk does (QuotaExceededError from put on the
#: ``tokenizers`` store, web/src/storage.js); texts and everything else are stored as usual
FULL_STORAGE = """(() => {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    if (this.name === "tokenizers") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return put.apply(this, args);
  };
})()"""


@pytest.mark.parametrize("code", ["en", "ur"])
def test_a_tokenizer_the_browser_cannot_keep_is_said_in_the_readers_words(page, site_url, code):
    """Storage full: the trained tokenizer works for the visit, and the page says so, and what to
    do, in the reader's language (it showed "Could not save in browser storage: …" in English)."""
    page.add_init_script(FULL_STORAGE)
    page.goto(f"{site_url}?lang={code}#train")
    h.wait_ready(page)
    h.set_text(page, "train-text", "low lower lowest newer newest wider widest " * 20)
    page.fill('[data-testid="train-vocab"]', "264")
    page.click('[data-testid="train-button"]')
    h.wait_training_over(page)
    error = page.locator('[data-testid="train-error"]')
    error.wait_for(state="visible")
    want = fill(h.catalog(code)["messages"]["train.save.failed"]["text"], detail="The quota has been exceeded.")
    assert plain(error.text_content()) == plain(want)
    # the run's tokenizer is usable in this visit all the same
    assert page.evaluate("() => window.bytepair.trainedTokenizers().length") >= 1
