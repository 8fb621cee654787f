"""Compare in Urdu and Bangla (issue 21): the main flow (the UDHR samples counted by the
default tokenizers, the table and the chart, a malformed own text refused) worded from the
locale's catalog, counts in the locale's digits equal to tiktoken's, at a desktop and a phone
size; nothing wider than the page in right to left; axe-core finds no serious or critical
violation on Compare in en, ur and bn.

References: tiktoken's counts (built offline from bytepair's rank files), each digit read
back with ``unicodedata.decimal``; texts from the catalogs in web/src/locales.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("code", "width", "height"),
    [("ur", 1280, 800), ("ur", 390, 844), ("bn", 1280, 800), ("bn", 390, 844), ("en", 1280, 800)],
)
def test_compare_in_the_locale(csp_free_page, site_url, code, width, height):
    page = csp_free_page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}?lang={code}#compare")
    h.wait_ready(page)
    msg = h.messages(code)
    samples = json.loads((h.DIST / "samples" / "udhr.json").read_text(encoding="utf-8"))["languages"]
    page.wait_for_selector('#view-compare[data-compared]:not([data-compared=""])', timeout=120_000)
    page.wait_for_selector('[data-testid="compare-chart"][data-drawn="true"]')
    # the headings, the column heads and the status line from the catalog
    assert page.text_content('#view-compare [data-i18n="compare.title"]') == msg["compare.title"]["text"]
    heads = page.locator('#view-compare thead button.sort[data-sort="tokens"]').first.inner_text()
    assert heads.strip() == msg["compare.col.tokens"]["text"]
    ticked = page.locator('[data-testid="compare-tokenizers"] input:checked').count()
    done = msg["compare.done"]["text"]
    done = done["other"] if isinstance(done, dict) else done  # (4 tokenizers: "other" in en)
    assert page.text_content('[data-testid="compare-status"]') == done.replace(
        "{texts}", h.in_digits(len(samples), code)
    ).replace("{n}", h.in_digits(ticked, code))
    # counts as shown, in the locale's digits, equal to tiktoken's
    enc = h.tiktoken_for("cl100k_base")
    for sample in samples:
        if sample["code"] not in ("eng", "ben", "urd"):
            continue
        cell = page.locator(f'[data-code="{sample["code"]}"] [data-tokenizer="cl100k_base"][data-metric="tokens"]')
        assert h.read_count(cell.text_content(), code) == len(enc.encode_ordinary(sample["text"])), sample["code"]
    # the chart's axis title in the locale (chart.js draws it on the canvas)
    y_title = page.evaluate(
        """() => { const c = Chart.getChart(document.querySelector('[data-testid="compare-chart"]'));
                   return c.options.indexAxis === 'y' ? c.options.scales.x.title.text : c.options.scales.y.title.text; }"""
    )
    assert y_title == msg["compare.metric.premium"]["text"]
    # the value axis's numbers in the digits the tables use (tester: ASCII 100 and 80 beside ১২৩)
    ticks = page.evaluate(
        """() => { const c = Chart.getChart(document.querySelector('[data-testid="compare-chart"]'));
                   const axis = c.options.indexAxis === 'y' ? c.scales.x : c.scales.y;
                   return axis.ticks.map((t) => t.label).join(' '); }"""
    )
    digits = "0123456789" if code != "bn" else "\u09e6\u09e7\u09e8\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee\u09ef"
    others = set("0123456789\u09e6\u09e7\u09e8\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee\u09ef") - set(digits)
    assert any(c in digits for c in ticks) and not any(c in others for c in ticks), ticks
    # nothing sticks out sideways (the wide table scrolls inside its own box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    if width == 1280:
        bad = h.axe_violations(page, "#view-compare")
        assert bad == [], bad
    # a malformed own text is refused in the locale's words (from the error's type)
    page.check('[data-testid="compare-source-custom"]')
    page.fill('[data-testid="compare-custom"]', "English | just one line")
    page.click('[data-testid="compare-button"]')
    assert h.visible_error(page, "compare-error") == msg["error.parallel.few"]["text"]
    if code == "ur":  # for a person to look at: build/screenshots/ (git-ignored)
        page.screenshot(path=str(h.ROOT / "build" / "screenshots" / f"compare-ur-{width}.png"), full_page=True)
    assert page.console_errors == []
