"""axe-core on every view (issue 21): WCAG 2.x A/AA, no serious or critical violation in en, ur and
bn, light and dark. One page per locale and theme visits Train after training, Tokenize (with its
gallery and an example's side-by-side rows), Compare after counting, Step through, Chat and the Share
and Embed dialogs. On the way it checks that a training sample in another language than the page's
carries its ``lang`` and that Compare's bars take each tokenizer's own colour from
web/src/palette.js (the colours themselves are checked in tests/core/test_chart_palette.py).

The rules are axe-core's own (node_modules/axe-core, injected into a context without the CSP).
"""

from __future__ import annotations

import pytest

from tests.e2e import helpers as h

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: The training sample in another language than the page's: {page locale: (sample key, its lang)}.
SAMPLE = {"en": ("urd", "ur"), "ur": ("ben", "bn"), "bn": ("urd", "ur")}


#: Moderate rules that once failed here and are held at zero too: content outside landmarks (the tab
#: bar was outside them) and empty table headers (Compare's group row).
ALSO = {"region", "empty-table-header"}


def _axe(page, where: str) -> list[dict]:
    """Serious and critical violations, and those of ALSO, on the page as shown now:
    [{where, id, impact, nodes}]."""
    h.settle(page)
    return [{"where": where, **v} for v in h.axe_violations(page, tags=TAGS, also=ALSO)]


def _tab(page, view: str) -> None:
    page.click(f'[role="tab"][data-view="{view}"]')
    page.wait_for_selector(f"#view-{view}:not([hidden])")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("code", ["en", "ur", "bn"])
def test_axe_finds_nothing_serious_on_any_view(csp_free_page, site_url, code, theme):
    page = csp_free_page
    page.goto(f"{site_url}?lang={code}&theme={theme}#train")
    h.wait_ready(page)
    bad: list[dict] = []
    # Train, after a run (the merges table and the chart), on a sample in another language
    key, lang = SAMPLE[code]
    page.click(f'[data-sample="{key}"]')
    page.wait_for_selector(f'[data-testid="train-text"][lang="{lang}"]', state="attached")
    page.fill('[data-testid="train-vocab"]', "300")
    page.fill('[data-testid="train-name"]', "axe-bpe")
    page.click('[data-testid="train-button"]')
    h.wait_training_over(page)
    page.wait_for_selector('[data-testid="merges-body"] tr')
    bad += _axe(page, "train")
    # Tokenize: tokens (with whitespace-only ones), the gallery
    _tab(page, "tokenize")
    h.set_text(page, "tokenize-text", "Hello  world\n\tকেমন আছেন؟ سلام")
    page.wait_for_selector('[data-testid="tokens"] [role="option"]')
    bad += _axe(page, "tokenize")
    # the gallery, open, with its first example chosen (the side-by-side rows)
    page.click('[data-testid="gallery-slot"] summary')
    page.locator('[data-testid="gallery-example"]').first.click()
    page.wait_for_selector('[data-testid="gallery-panel"]:not([hidden])')
    page.wait_for_selector('[data-testid="sbs-row-summary"]')
    bad += _axe(page, "gallery")
    # Compare, after counting
    _tab(page, "compare")
    page.click('[data-testid="compare-button"]')
    page.wait_for_selector('[data-testid="compare-row"]')
    page.wait_for_selector('[data-testid="compare-chart"][data-drawn="true"]')
    bars = page.evaluate(
        """async () => {
          const { seriesColour } = await import(new URL('src/palette.js', document.baseURI).href);
          const mode = getComputedStyle(document.documentElement).colorScheme === 'dark' ? 'dark' : 'light';
          const sets = Chart.getChart(document.querySelector('[data-testid="compare-chart"]')).data.datasets;
          return sets.map((d) => [d.key, d.backgroundColor, seriesColour(d.key, mode), mode]);
        }"""
    )
    assert len(bars) >= 4 and {b[3] for b in bars} == {theme}
    assert [b[1] for b in bars] == [b[2] for b in bars], bars
    assert len({b[1] for b in bars}) == len(bars)
    bad += _axe(page, "compare")
    # Step through, Chat
    _tab(page, "steps")
    bad += _axe(page, "steps")
    _tab(page, "chat")
    bad += _axe(page, "chat")
    # the Share dialog, open
    page.click('[data-testid="share-button"]')
    page.wait_for_selector('[data-testid="share-dialog"][open]')
    bad += _axe(page, "share dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector('[data-testid="share-dialog"]:not([open])', state="attached")
    page.click('[data-testid="embed-button"]')
    page.wait_for_selector('[data-testid="embed-dialog"][open]')
    bad += _axe(page, "embed dialog")
    assert bad == [], bad
