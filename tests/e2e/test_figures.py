"""Figures for the playground, measured in Chromium (printed; run with -s to see them).

These are measurements, not timed tests: each test asserts only that the work
it timed was right (counts equal tiktoken's, the trained tokenizer has every
merge) and prints the time it took:

* navigation to Ready, with a cold and a warm HTTP cache;
* encode throughput on 1 MB of English (KJV) with cl100k_base;
* time to train on that 1 MB at vocab 4096, and until the first merge is shown.

Marked slow: deselect with ``-m "not slow"``.
"""

from __future__ import annotations

import time

import pytest

from tests.corpora import load_kjv
from tests.e2e.test_playground import READY_TIMEOUT, set_text, tiktoken_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MB = 1_000_000


def english_mb() -> str:
    text = load_kjv()  # skips (or fails under CI=true) without Debian bible-kjv
    data = text.encode("utf-8")[:MB]
    return data.decode("utf-8", errors="ignore")


def wait_ready(page) -> None:
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=READY_TIMEOUT)


def test_figure_time_to_ready_cold_and_warm(page, site_url):
    t0 = time.perf_counter()
    page.goto(site_url)
    wait_ready(page)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    page.reload()
    wait_ready(page)
    warm = time.perf_counter() - t0
    print(f"\nFIGURE navigation to Ready: cold cache {cold:.2f} s, warm cache {warm:.2f} s")
    assert page.text_content('[data-testid="status-text"]') == "Ready"


def test_figure_encode_throughput_1mb_english(page, site_url):
    text = english_mb()
    page.goto(site_url)
    wait_ready(page)
    page.evaluate("() => window.bytepair.count('warm up: loads the vocabulary', 'cl100k_base')")
    result = page.evaluate(
        """async (text) => {
            const t0 = performance.now();
            const n = await window.bytepair.count(text, 'cl100k_base');
            return [n, performance.now() - t0];
        }""",
        text,
    )
    n, ms = result
    nbytes = len(text.encode("utf-8"))
    print(f"\nFIGURE encode cl100k_base in the browser: {nbytes / MB:.2f} MB, {n} tokens in {ms / 1000:.2f} s "
          f"= {nbytes / MB / (ms / 1000):.2f} MB/s")
    assert n == len(tiktoken_for("cl100k_base").encode_ordinary(text))


def test_figure_train_1mb_at_vocab_4096(page, site_url):
    text = english_mb()
    page.goto(site_url)
    wait_ready(page)
    set_text(page, "train-text", text)
    page.fill('[data-testid="train-vocab"]', "4096")
    page.select_option('[data-testid="train-pattern"]', "cl100k_base")
    page.fill('[data-testid="train-name"]', "kjv-4096")
    # time stamps taken in the page: the click, the first merge row, the end
    page.evaluate(
        """() => {
            window.__fig = {};
            const body = document.querySelector('[data-testid="merges-body"]');
            new MutationObserver((_, obs) => {
                if (body.rows.length) { window.__fig.first = performance.now(); obs.disconnect(); }
            }).observe(body, { childList: true });
            document.querySelector('[data-action="train"]').addEventListener('click', () => { window.__fig.click = performance.now(); }, { capture: true });
        }"""
    )
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function("() => document.body.dataset.training === 'done'", timeout=600_000)
    fig = page.evaluate("() => ({...window.__fig, end: performance.now()})")
    meta = page.evaluate("() => window.bytepair.trainedTokenizers().find((t) => t.name === 'kjv-4096').meta")
    first = (fig["first"] - fig["click"]) / 1000
    total = (fig["end"] - fig["click"]) / 1000
    print(f"\nFIGURE train {len(text.encode()) / MB:.2f} MB at vocab 4096 in the browser: {total:.1f} s; "
          f"first merge shown {first:.2f} s after pressing Train")
    assert meta["n_merges"] == 4096 - 256
