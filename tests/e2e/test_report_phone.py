"""The Report view on a phone in a right-to-left locale, dark theme (the fresh tester's findings
3, 5, 9, 14): one page load at 390x844 in ``ur``.

Offline, the FLORES-200 subset (never downloaded) gives the catalog's worded offline error (its
``error.samples.offline`` text naming the file, not the browser's "Failed to fetch"); online again, a report on the UDHR
samples leaves the page no wider than the screen (long example tokens wrap), the chart fills its
card without leaving it, in the theme's text colour, with every language label ending left of
its bars (not under them); the tab bar still takes a tap afterwards.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 390, 844


def test_report_on_a_phone_in_urdu(browser, site_url):
    catalog = json.loads((h.DIST / "src" / "locales" / "ur.json").read_text(encoding="utf-8"))
    # (the file name bidi-isolated in a right-to-left sentence, as i18n.js t() fills it)
    offline_text = catalog["messages"]["error.samples.offline"]["text"].replace(
        "{file}", "\u2068samples/flores200-subset.json\u2069"
    )
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"{site_url}?lang=ur#report")
        h.wait_ready(page)
        page.wait_for_selector('[data-testid="report-baseline"] option[value="eng"]', state="attached")
        # a maker's name ("OpenAI", left to right) sits on the right, the start side, above its boxes
        edges = page.locator(".check-group").first.evaluate(
            """(g) => [g.querySelector('.check-group-title'), g.querySelector('input')].map((el) => {
              const r = el.getRange ? null : document.createRange();
              r.selectNodeContents(el.tagName === 'INPUT' ? el.parentElement : el);
              return r.getBoundingClientRect().right;
            })"""
        )
        assert abs(edges[0] - edges[1]) < 24, edges

        # 14: offline, the FLORES subset's download fails as a worded offline error
        context.set_offline(True)
        page.locator('[data-testid="report-source-flores"]').check()
        page.get_by_test_id("report-button").click()
        error = h.visible_error(page, "report-error")
        assert error == offline_text
        context.set_offline(False)

        # a malformed own text: the catalog's sentence as it is (tester: "something went wrong:" before it)
        page.locator('[data-testid="report-source-custom"]').check()
        page.fill('[data-testid="report-custom"]', "English | just one line")
        page.get_by_test_id("report-button").click()
        assert h.visible_error(page, "report-error") == h.messages("ur")["error.parallel.few"]["text"]

        # 3: a report on the UDHR samples (cl100k_base, the default): nothing wider than the screen
        page.locator('[data-testid="report-source-udhr"]').check()
        page.wait_for_selector('[data-testid="report-baseline"] option[value="eng"]', state="attached")
        # languages named in Urdu from their BCP 47 tags, as Compare names them (tester: "Greek" and
        # "Persian" in English: their UDHR keys ell_monotonic, pes_1 are not tags the browser names;
        # Tibetan stays English: Chromium has no Urdu name for bo)
        named = page.evaluate(
            """() => {
                const names = new Intl.DisplayNames(['ur'], {type: 'language'});
                return ['ell_monotonic', 'pes_1'].map((k) => [
                  document.querySelector(`[data-testid="report-baseline"] option[value="${k}"]`)?.textContent,
                  {ell_monotonic: names.of('el'), pes_1: names.of('fa')}[k]]);
            }"""
        )
        assert all(shown == want and shown for shown, want in named), named
        page.get_by_test_id("report-button").click()
        page.wait_for_selector('#view-report[data-reported="44"]', timeout=120_000)
        page.wait_for_selector('[data-testid="report-token"]', state="attached")
        h.settle(page)
        # each column's head on the side its numbers are (tester: heads right, numbers left in Urdu)
        sides = page.evaluate(
            """() => {
                const table = document.querySelector('[data-testid="report-table"]');
                const heads = [...table.tHead.rows[table.tHead.rows.length - 1].cells].slice(1);
                const cells = [...table.tBodies[0].rows[0].cells].slice(1);
                return heads.map((th, i) => [getComputedStyle(th).textAlign, getComputedStyle(cells[i]).textAlign]);
            }"""
        )
        assert sides and all(a == b for a, b in sides), sides
        assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH

        # 5: the chart fills its card, stays inside it, in the theme's colour, labels left of the bars
        geo = page.locator('[data-testid="report-chart"]').evaluate(
            """(box) => {
              const svg = box.querySelector('svg');
              const b = box.getBoundingClientRect(), s = svg.getBoundingClientRect();
              const rects = (sel) => [...svg.querySelectorAll(sel)].map((el) => el.getBoundingClientRect());
              const barLeft = Math.min(...rects('rect[data-lang]').map((r) => r.left));
              const labelRight = Math.max(...rects('text[text-anchor="end"]').map((r) => r.right));
              return {
                box: [b.left, b.right, box.clientWidth], svg: [s.left, s.right, s.width],
                barLeft, labelRight, units: svg.viewBox.baseVal.width,
                fill: getComputedStyle(svg.querySelector('text')).fill,
                text: getComputedStyle(document.body).color,
              };
            }"""
        )
        left, right, inner = geo["box"]
        assert geo["svg"][0] >= left - 0.5 and geo["svg"][1] <= right + 0.5, geo
        assert geo["svg"][2] >= 0.95 * inner, geo
        assert geo["labelRight"] <= geo["barLeft"] + 0.5, geo  # RTL: the labels end where the bars begin
        assert abs(geo["units"] - geo["svg"][2]) <= 1, geo  # drawn at its width: 11 px text stays 11 px
        assert geo["fill"] == geo["text"], geo  # dark theme: light text on the dark card

        # 9: the tab bar takes a tap after the report
        page.locator('[data-view="tokenize"]').first.tap()
        page.wait_for_selector("#view-tokenize", state="visible")
    finally:
        context.close()
