"""Training on long tokens (issue 19): without a pre-tokenizer, late merges make tokens of many
KB; Python sends the page only their start (``playground.train.LABEL_BYTES``), the merges table
draws them shortened with their length and shows them whole on demand, and once every pair left
occurs once the page says so and offers to stop. References: the slow minbpe-style trainer
(tests/reference/slow_bpe.py) for the merges, their counts and the tokens' bytes.
(The timing targets are measured by ``python tools/bench_browser.py train-long``, not here.)"""

from __future__ import annotations

import re

from tests.e2e import helpers as h
from tests.reference.slow_bpe import slow_train_steps
from tools.corpora import udhr_round_robin

PROGRESS = '[data-testid="train-progress-text"]'
ONCE = '[data-testid="train-pairs-once"]'


def _visible(text: str) -> str:
    """format.js visibleWhitespace, as the page draws a token's label: · space, ↵ before a newline."""
    return text.replace(" ", "·").replace("\n", "↵\n")


def test_long_tokens_whole_on_demand_and_the_pairs_once_note_stops(page, site_url):
    h.open_ready(page, site_url)

    # 1. a repeated verse, no pre-tokenizer: every merge in order, tokens over 512 bytes drawn short
    text = ("In the beginning God created the heaven and the earth. " * 3 + "\n") * 40
    n = 200
    steps = list(slow_train_steps(text, n))
    h.train(page, text, 256 + n, name="verse", pattern="none")
    rows = page.evaluate("""() => [...document.querySelectorAll('[data-testid="merges-body"] tr')].map(
        (tr) => [Number(tr.dataset.id), Number(tr.dataset.left), Number(tr.dataset.right), Number(tr.dataset.count)])""")
    assert rows == [[s.new_id, *s.pair, s.count] for s in reversed(steps)]  # newest first, all of them
    longest = max(steps, key=lambda s: len(s.token))
    assert len(longest.token) > 1024  # (longer than what Python streams: the whole comes on demand)
    cell = page.locator(f'[data-testid="merges-body"] tr[data-id="{longest.new_id}"] td.tok-cell').nth(2)
    shown = _visible(longest.token.decode())
    assert cell.text_content() == shown[:24].replace("\n", "") + f"… ({len(longest.token):,} bytes)"
    cell.locator('[data-testid="long-token"]').click()
    page.wait_for_selector(f'tr[data-id="{longest.new_id}"] [data-testid="long-token"][data-whole="true"]')
    assert cell.locator("code").text_content() == shown
    assert page.locator(ONCE).is_hidden()  # (not running)

    # 2. text that repeats little: soon every pair left occurs once; the page says so, "Stop here" stops
    h.train(page, udhr_round_robin(60_000), 60_000, name="once", pattern="none", wait=False)
    page.wait_for_selector(f"{ONCE}:not([hidden])", timeout=120_000)
    page.locator(ONCE).get_by_role("button", name="Stop here").click()
    page.wait_for_selector("body[data-training='stopped']", timeout=60_000)
    m = re.match(r"Stopped after ([\d,]+) merges", page.text_content(PROGRESS))
    assert m, page.text_content(PROGRESS)
    kept = int(m.group(1).replace(",", ""))
    newest = page.locator('[data-testid="merges-body"] tr').first
    assert newest.get_attribute("data-id") == str(255 + kept)
    assert newest.get_attribute("data-count") == "1"
    assert page.locator(ONCE).is_hidden()
    h.wait_training_over(page)
    meta = page.evaluate("() => window.bytepair.trainedTokenizers().find((t) => t.name === 'once').meta")
    assert meta["n_merges"] == kept
    assert page.console_errors == []
