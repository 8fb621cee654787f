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


def _listed(page) -> int:
    """The merges the progress line counts ("5,715 / 59,744 merges · 1.7 s") during a run."""
    m = re.match(r"([\d,]+) / ", page.text_content(PROGRESS))
    return int(m.group(1).replace(",", "")) if m else -1


def test_the_pairs_once_note_follows_the_merges_listed(page, site_url):
    """The pairs-once note and its "Stop here" go by the merges the table lists, which Stop keeps
    (the table follows every 250 ms), not by the newest merge the page has received: a note drawn
    for merges received but not yet listed stopped with a newest merge of count 2 (CI under load).
    The page's clock is Playwright's, so the frames come when the test says: the table lists the
    first merges, the worker goes on (its batches are taken in without frames) to merges of count 1,
    and the next frame, before the table follows, must not show the note."""
    h.open_ready(page, site_url)
    h.set_text(page, "train-text", udhr_round_robin(60_000))
    page.fill('[data-testid="train-vocab"]', "60000")
    page.select_option('[data-testid="train-pattern"]', "none")
    page.fill('[data-testid="train-name"]', "listed")
    # the count of the newest merge the page has received (the view's onMerge, wrapped)
    page.evaluate("""() => {
        const bp = window.bytepair, train = bp.train;
        window.__newest = { n: 0, count: null };
        bp.train = (text, options, onMerge) => train.call(bp, text, options, (m) => {
            window.__newest.n += 1;
            window.__newest.count = m.count;
            onMerge(m);
        });
    }""")
    page.clock.install()
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)  # no frame, no timer until run_for
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function("() => window.__newest.n > 0", polling=20, timeout=60_000)
    page.clock.run_for(16)  # a frame: the table lists the merges received so far
    listed = _listed(page)
    top = page.locator('[data-testid="merges-body"] tr').first
    assert listed > 0 and int(top.get_attribute("data-count")) > 1, (listed, top.get_attribute("data-count"))
    assert page.locator(ONCE).is_hidden()
    # merges of count 1 received, not listed yet: the next frame leaves the note hidden
    page.wait_for_function("() => window.__newest.count === 1", polling=20, timeout=120_000)
    assert page.evaluate("() => window.bytepair.training")
    page.clock.run_for(16)
    assert _listed(page) == listed  # (the table has not followed: under 250 ms since it last did)
    assert page.locator(ONCE).is_hidden(), (listed, page.evaluate("() => window.__newest"))
    # the table follows: the newest merge listed occurs once, the note says so
    page.clock.run_for(500)  # (frames come on the store's changes and on a 200 ms ticker)
    assert _listed(page) > listed
    assert page.locator(ONCE).is_visible()
    assert top.get_attribute("data-count") == "1"
    assert int(top.get_attribute("data-id")) == 255 + _listed(page)
    # and "Stop here" keeps merges of count 1 at the top
    page.clock.resume()
    page.locator(ONCE).get_by_role("button", name="Stop here").click()
    page.wait_for_selector("body[data-training='stopped']", timeout=60_000)
    m = re.match(r"Stopped after ([\d,]+) merges", page.text_content(PROGRESS))
    assert m, page.text_content(PROGRESS)
    kept = int(m.group(1).replace(",", ""))
    assert top.get_attribute("data-id") == str(255 + kept)
    assert top.get_attribute("data-count") == "1"
    h.wait_training_over(page)
    assert (
        page.evaluate("() => window.bytepair.trainedTokenizers().find((t) => t.name === 'listed').meta")["n_merges"]
        == kept
    )
    assert page.console_errors == []


TABLE = '[data-testid="merges-table"]'
BODY_ROWS = '[data-testid="merges-body"] tr'
_ROWS = """() => [...document.querySelectorAll('[data-testid="merges-body"] tr')].map((tr) => [
    Number(tr.getAttribute('aria-rowindex')), Number(tr.dataset.id), Number(tr.dataset.left),
    Number(tr.dataset.right), Number(tr.dataset.count)])"""
#: rows of the merges table fully inside its scrolled box: [aria-rowindex, id]
_IN_VIEW = """() => {
  const wrap = document.querySelector('.merges-wrap').getBoundingClientRect();
  return [...document.querySelectorAll('[data-testid="merges-body"] tr')].filter((tr) => {
    const r = tr.getBoundingClientRect();
    return r.height > 0 && r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1;
  }).map((tr) => [Number(tr.getAttribute('aria-rowindex')), Number(tr.dataset.id)]);
}"""


def _scroll_table(page, where: str) -> None:
    """Scroll the merges table to its "end" or "top" and wait until the rows there are drawn."""
    page.evaluate(
        "(end) => { const w = document.querySelector('.merges-wrap'); w.scrollTop = end ? w.scrollHeight : 0; }",
        where == "end",
    )
    h.settle(page)
    h.settle(page)


def test_merges_table_is_windowed_and_scrolls_to_every_merge(page, site_url):
    # thousands of merges (no pre-tokenizer; late ones occur once), the slow minbpe-style oracle's
    text = udhr_round_robin(8_000)
    n = 2_000
    steps = list(slow_train_steps(text, n))
    assert len(steps) == n
    want = {s.new_id: [s.new_id, *s.pair, s.count] for s in steps}

    h.open_ready(page, site_url)
    h.train(page, text, 256 + n, name="window", pattern="none")
    h.settle(page)
    # the table holds few rows, and tells assistive technology how many there are
    assert page.get_attribute(TABLE, "aria-rowcount") == str(n + 1)  # (+ the header row)
    rows = page.evaluate(_ROWS)
    assert 0 < len(rows) <= 80, len(rows)
    # newest first: the top row is the last merge, row 2 (after the header)
    assert rows[0] == [2, *want[255 + n]]
    for index, *merge in rows:
        assert merge == want[merge[0]] and index == 2 + (255 + n - merge[0])

    for viewport, lang in (((1280, 900), "en"), ((390, 844), "ur")):
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        if lang != "en":
            page.select_option('[data-testid="lang-picker"]', lang)
            page.wait_for_function("() => document.documentElement.dir === 'rtl'")
        # the end of the table: the first merge, in view and right
        _scroll_table(page, "end")
        seen = page.evaluate(_IN_VIEW)
        assert seen, (lang, seen)
        strides = page.evaluate(
            """() => { const tops = [...document.querySelectorAll('[data-testid="merges-body"] tr')].map(
                          (tr) => tr.getBoundingClientRect().top);
                       return [...new Set(tops.slice(1).map((t, i) => Math.round((t - tops[i]) * 10)))]; }"""
        )
        assert len(strides) == 1, (lang, "rows of one height", strides)
        assert seen[-1] == [n + 1, 256], (lang, seen[-1])
        rows = page.evaluate(_ROWS)
        assert len(rows) <= 80, (lang, len(rows))
        assert rows[-1] == [n + 1, *want[256]]
        for index, *merge in rows:
            assert merge == want[merge[0]] and index == 2 + (255 + n - merge[0])
        # the middle: the rows drawn are those in view
        page.evaluate("() => { const w = document.querySelector('.merges-wrap'); w.scrollTop = w.scrollHeight / 2; }")
        h.settle(page)
        h.settle(page)
        seen = page.evaluate(_IN_VIEW)
        assert seen and all(abs(i - (n + 1) / 2) < 60 for i, _ in seen), (lang, seen)
        for index, id_ in seen:
            assert index == 2 + (255 + n - id_)
        # and back to the top: the newest merge
        _scroll_table(page, "top")
        assert page.evaluate(_IN_VIEW)[0] == [2, 255 + n]

    # merges arriving (a replay adds them at the top) leave a reader scrolled down where they were
    page.select_option('[data-testid="replay-speed"]', "500")
    page.locator('[data-action="replay"]').click()
    # (the replay's first frame empties the table; until then it still holds the run's 2,000 rows: wait
    # for the replay to be drawn, else a busy page is scrolled there and the replay's start undoes it)
    page.wait_for_function(
        """(t) => document.querySelector('[data-action="replay"]').getAttribute('aria-pressed') === 'true'
                 && Number(document.querySelector(t).getAttribute('aria-rowcount')) > 600""",
        arg=TABLE,
    )
    page.evaluate("() => { document.querySelector('.merges-wrap').scrollTop = 8000; }")
    h.settle(page)
    _AT = """(id) => { const tr = document.querySelector(`[data-testid="merges-body"] tr[data-id="${id}"]`);
                       return tr ? tr.getBoundingClientRect().top - document.querySelector('.merges-wrap')
                                   .getBoundingClientRect().top : null; }"""
    watched, top, rowcount = page.evaluate(
        f"""() => {{ const id = ({_IN_VIEW})()[0][1];
                    return [id, ({_AT})(id), Number(document.querySelector('{TABLE}').getAttribute('aria-rowcount'))]; }}"""
    )
    page.wait_for_function(
        "([t, n]) => Number(document.querySelector(t).getAttribute('aria-rowcount')) > n + 100", arg=[TABLE, rowcount]
    )
    h.settle(page)
    assert abs(page.evaluate(_AT, watched) - top) <= 2
    assert page.locator('[data-testid="merges-body"] tr').count() <= 80
    assert page.console_errors == []
