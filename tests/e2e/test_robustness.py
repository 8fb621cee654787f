"""End-to-end regression tests for problems a tester found in the playground.

Special-token strings typed by the user, a custom split pattern that
backtracks for ever (the worker watchdog, "Working…" and Cancel), lone
surrogates, the JavaScript API's argument checks, and smaller UI problems
(messages, labels, layout, file types).

Expected values come from references computed here on CPython: tiktoken
(built offline from rank files, or from a tiny rank table written out here),
the slow minbpe trainer in tests/reference, UTF-8 lengths from Python itself.
Fixtures: tests/e2e/conftest.py; helpers: tests/e2e/helpers.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as h
from tests.reference.slow_bpe import slow_train

pytestmark = pytest.mark.e2e

EVIL_PATTERN = "ab|(x+x+)+y"  # catastrophic backtracking on a run of x not followed by y
EVIL_TEXT = "ab " + "x" * 40


def encoded(page, name: str, n: int, timeout: int = 60_000):
    page.wait_for_function(
        "([name, n]) => document.querySelector('#view-tokenize').dataset.encoded === `${name}:${n}`",
        arg=[name, n],
        timeout=timeout,
    )


def shown_ids(page) -> list[int]:
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid="token"]')]
        .flatMap((el) => el.dataset.ids.split(',').map(Number))""")


def evil_reference():
    """tiktoken with the evil pattern and the one merge training learns: (a, b) -> 256."""
    tiktoken = pytest.importorskip("tiktoken")
    ranks = {bytes([i]): i for i in range(256)}
    ranks[b"ab"] = 256
    return tiktoken.Encoding("evil", pat_str=EVIL_PATTERN, mergeable_ranks=ranks, special_tokens={})


# --- 1. special-token strings are plain text ------------------------------------


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_tokenize_encodes_special_token_strings_as_plain_text(page, site_url, name):
    h.open_ready(page, site_url, "tokenize")
    page.select_option('[data-testid="tokenize-tokenizer"]', name)
    enc = h.tiktoken_for(name)
    h.set_text(page, "tokenize-text", "before")
    encoded(page, name, len(enc.encode_ordinary("before")))
    text = "hi <|endoftext|> there <|fim_prefix|>x<|endofprompt|>"
    ids = enc.encode_ordinary(text)
    h.set_text(page, "tokenize-text", text)
    encoded(page, name, len(ids))
    assert page.locator('[data-testid="tokenize-error"]').is_hidden()
    assert page.text_content('[data-testid="count-tokens"]') == f"{len(ids):,}"
    assert shown_ids(page) == ids
    assert page.text_content('[data-testid="tokens"]') == text
    # the API agrees with the view
    assert page.evaluate("([t, n]) => window.bytepair.encodeSpans(t, n).then((r) => r.ids)", [text, name]) == ids
    assert page.console_errors == []


# --- 2. the watchdog, Working… and Cancel ----------------------------------------


def test_watchdog_restarts_a_worker_stuck_in_a_backtracking_pattern(page, site_url):
    h.open_ready(page, site_url)
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', EVIL_PATTERN)
    h.train(page, "ab ab ab abab cd cd", 257, name="evil", pattern="custom")
    assert page.locator('[data-testid="saved-item"][data-tokenizer="evil"]').count() == 1
    ref = evil_reference()
    page.evaluate("() => { window.bytepair.callLimitMs = 8000; }")

    page.click('[data-view="tokenize"]')
    page.select_option('[data-testid="tokenize-tokenizer"]', "evil")
    h.set_text(page, "tokenize-text", "ab cd ab")
    encoded(page, "evil", len(ref.encode_ordinary("ab cd ab")))
    assert page.locator('[data-testid="token"]').count() > 0

    h.set_text(page, "tokenize-text", EVIL_TEXT)
    # after ~3 s the view says it is working, with a way out
    working = page.locator('[data-testid="tokenize-working"]')
    expect(working).to_be_visible(timeout=10_000)
    expect(working.get_by_role("button")).to_be_visible()
    # after the limit the worker is restarted and the view says why
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"tokenize-error\"]').textContent.includes('restarted')",
        timeout=30_000,
    )
    message = page.text_content('[data-testid="tokenize-error"]')
    assert "took longer than 8 s" in message
    assert "split pattern" in message and "restarted" in message
    expect(working).to_be_hidden()
    # the user's text stays; the old tokens and count do not
    assert page.input_value('[data-testid="tokenize-text"]') == EVIL_TEXT
    assert page.locator('[data-testid="token"]').count() == 0
    assert page.text_content('[data-testid="count-tokens"]') == "–"
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    assert "restarted" in page.text_content('[data-testid="status-text"]')

    # the new worker serves the trained tokenizer again
    text = "ab xy ab ab"  # 3 tokens: not the count shown before the restart
    h.set_text(page, "tokenize-text", text)
    encoded(page, "evil", len(ref.encode_ordinary(text)))
    assert shown_ids(page) == ref.encode_ordinary(text)
    assert page.locator('[data-testid="tokenize-error"]').is_hidden()

    # Cancel ends a long call at once (no limit this time)
    page.evaluate("() => { window.bytepair.callLimitMs = 0; }")
    h.set_text(page, "tokenize-text", EVIL_TEXT + " again")
    expect(working).to_be_visible(timeout=10_000)
    working.get_by_role("button").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"tokenize-error\"]').textContent.includes('Cancelled')",
        timeout=10_000,
    )
    expect(working).to_be_hidden()
    assert page.input_value('[data-testid="tokenize-text"]') == EVIL_TEXT + " again"
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    assert page.evaluate("() => window.bytepair.encode('ab ab', 'evil')") == ref.encode_ordinary("ab ab")


def test_compare_offers_cancel_for_a_long_call(page, site_url):
    h.open_ready(page, site_url)
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', EVIL_PATTERN)
    h.train(page, "ab ab ab abab cd cd", 257, name="evil", pattern="custom")
    page.evaluate("() => { window.bytepair.callLimitMs = 0; }")
    page.click('[data-view="compare"]')
    page.wait_for_function("() => document.querySelector('#view-compare').dataset.compared", timeout=120_000)
    page.check('[data-testid="compare-source-custom"]')
    h.set_text(page, "compare-custom", f"English\tab ab\nX\t{EVIL_TEXT}")
    page.click('[data-action="compare"]')
    working = page.locator('[data-testid="compare-working"]')
    expect(working).to_be_visible(timeout=30_000)  # (Compare's line shows after 12 s: a normal run takes ~8 s)
    working.get_by_role("button").click()
    assert "Cancelled" in h.visible_error(page, "compare-error")
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    assert page.input_value('[data-testid="compare-custom"]') == f"English\tab ab\nX\t{EVIL_TEXT}"


# --- 3. lone surrogates ------------------------------------------------------------


def test_training_and_compare_accept_lone_surrogates(page, site_url):
    h.open_ready(page, site_url)
    got = page.evaluate("""async () => {
        const merges = [];
        const res = await window.bytepair.train('hello hello a\\ud800b', {vocabSize: 270, pattern: 'none', name: 'x'},
                                                (m) => merges.push([m.left, m.right, m.id, m.count]));
        return {merges, n: res.n_merges};
    }""")
    # bytepair treats a lone surrogate as U+FFFD
    expected = [[p[0], p[1], i, c] for p, i, c in slow_train("hello hello a\ufffdb", 270 - 256)]
    assert got["merges"] == expected
    assert got["n"] == len(expected)
    counts = page.evaluate("() => window.bytepair.compare([{key: 'a', text: 'a\\ud800b'}], ['gpt2'])")
    assert counts["gpt2"]["a"] == [
        len(h.tiktoken_for("gpt2").encode_ordinary("a\ufffdb")),
        len("a\ufffdb".encode("utf-8")),
    ]
    assert page.console_errors == []


# --- 4. the JavaScript API's arguments --------------------------------------------


def api_error(page, js: str) -> str:
    return page.evaluate(
        f"async () => {{ try {{ await ({js}); return 'no error'; }} catch (e) {{ return e.message; }} }}"
    )


def test_js_api_argument_checks_and_defaults(page, site_url):
    h.open_ready(page, site_url)
    enc = h.tiktoken_for("cl100k_base")
    # the tokenizer defaults to cl100k_base
    assert page.evaluate("() => window.bytepair.encode('hi there')") == enc.encode_ordinary("hi there")
    assert page.evaluate("() => window.bytepair.count('hi there')") == len(enc.encode_ordinary("hi there"))
    msg = api_error(page, "window.bytepair.train('x')")
    assert "vocabSize" in msg and "257" in msg and "Cannot read" not in msg
    msg = api_error(page, "window.bytepair.train('x', {vocabSize: 12})")
    assert "vocabSize" in msg and "257" in msg
    msg = api_error(page, "window.bytepair.train(42, {vocabSize: 300})")
    assert "text" in msg and "string" in msg
    msg = api_error(page, "window.bytepair.encode(42)")
    assert "text" in msg and "string" in msg
    msg = api_error(page, "window.bytepair.encode('hi', 'nope')")
    assert "nope" in msg and "cl100k_base" in msg and "None" not in msg
    msg = api_error(page, "window.bytepair.compare('hi')")
    assert "{key, text}" in msg
    msg = api_error(page, "window.bytepair.stepsLearn()")
    assert "text" in msg and "Cannot read" not in msg
    # a training run with defaults for the pattern and the name still works
    res = page.evaluate("() => window.bytepair.train('ab ab ab', {vocabSize: 257})")
    assert res["n_merges"] == 1 and res["name"] == "my-bpe"
    assert page.console_errors == []


# --- polish -------------------------------------------------------------------------


def test_train_messages_progress_and_labels(page, site_url):
    h.open_ready(page, site_url)
    label = page.locator('[data-testid="train-pattern"] option[value="none"]').text_content()
    assert "bytes only" not in label and "cross spaces" in label
    h.train(page, "ab ab ab", 257, name="one", pattern="none")
    progress = page.locator('[data-testid="train-progress-text"]')
    assert progress.text_content().startswith("Done: 1 merge in ")
    assert "1 merge ·" in page.locator('[data-testid="saved-item"][data-tokenizer="one"] .hint').text_content()
    # a validation error: the finished run's line goes
    page.fill('[data-testid="train-vocab"]', "12")
    page.get_by_role("button", name="Train", exact=True).click()
    assert "257" in h.visible_error(page, "train-vocab-error")
    h.settle(page)
    assert "Done" not in progress.text_content() and "Saved" not in progress.text_content()
    # a pattern that leaves no pair: the reason is given
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', "z+")
    h.train(page, "ab ab ab", 260, name="none-here", pattern="custom")
    text = progress.text_content()
    assert "no adjacent pair" in text and "2 or more bytes" in text
    # regex errors are short and say where
    page.fill('[data-testid="train-regex"]', "cl100k")
    page.get_by_role("button", name="Train", exact=True).click()
    msg = h.visible_error(page, "train-regex-error")
    assert "(?:cl100k)" in msg and "gpt4o" not in msg
    page.fill('[data-testid="train-regex"]', "(unclosed")
    page.get_by_role("button", name="Train", exact=True).click()
    msg = h.visible_error(page, "train-regex-error")
    assert "missing" in msg and "character 1" in msg  # the "(" at the start is never closed
    assert "pass one of" not in msg and "gpt4o" not in msg
    page.fill('[data-testid="train-regex"]', r"\p{Foo}+")
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"train-regex-error\"]').textContent.includes('Foo')"
    )
    msg = page.text_content('[data-testid="train-regex-error"]')
    assert "not a known Unicode property" in msg and r"\p{L}" in msg and len(msg) < 300


def test_delete_asks_first(page, site_url):
    h.open_ready(page, site_url)
    h.train(page, "ab ab ab", 257, name="keepme", pattern="none")
    item = page.locator('[data-testid="saved-item"][data-tokenizer="keepme"]')
    item.get_by_role("button", name="Delete keepme").click()
    h.settle(page)
    assert item.count() == 1
    item.get_by_role("button", name="Cancel").click()
    assert item.count() == 1
    assert page.evaluate("() => window.bytepair.tokenizers().includes('keepme')")
    item.get_by_role("button", name="Delete keepme").click()
    item.get_by_role("button", name="Yes, delete keepme").click()
    page.wait_for_selector('[data-testid="saved-empty"]', state="visible")
    assert not page.evaluate("() => window.bytepair.tokenizers().includes('keepme')")


def test_compare_says_when_a_text_is_empty(page, site_url):
    h.open_ready(page, site_url, "compare")
    page.check('[data-testid="compare-source-custom"]')
    h.set_text(page, "compare-custom", "English\t\nDeutsch\tHallo")
    page.click('[data-action="compare"]')
    msg = h.visible_error(page, "compare-error")
    assert "Line 1" in msg and "empty" in msg and "English" in msg


def test_merges_table_keeps_the_count_column_visible(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    h.open_ready(page, site_url)
    word = "abcdefghijklmnopqrstuvwxyz0123456789"
    h.train(page, (word * 3 + " ") * 40, 256 + 80, name="long", pattern="none")
    info = page.evaluate("""() => {
        const wrap = document.querySelector('.merges-wrap');
        const cells = [...document.querySelectorAll('[data-testid="merges-body"] tr td:last-child')];
        const right = wrap.getBoundingClientRect().left + wrap.clientWidth;
        const codes = [...document.querySelectorAll('[data-testid="merges-body"] code')];
        return {
            overflow: wrap.scrollWidth - wrap.clientWidth,
            hidden: cells.filter((td) => td.getBoundingClientRect().right > right + 1).length,
            longest: Math.max(...codes.map((c) => c.title.length)),
            titled: codes.every((c) => c.title.length > 0),
        };
    }""")
    assert info["longest"] > 40  # the run made long tokens
    assert info["titled"]
    assert info["hidden"] == 0 and info["overflow"] <= 1


def test_file_input_focus_and_utf16_files(page, site_url):
    h.open_ready(page, site_url)
    page.focus('[data-testid="train-text"]')
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "train-file"
    styles = page.evaluate("""() => {
        const input = document.querySelector('[data-testid="train-file"]');
        return {hint: getComputedStyle(input.nextElementSibling).outlineStyle,
                label: getComputedStyle(document.querySelector('label[for="train-file"]')).outlineStyle};
    }""")
    assert styles == {"hint": "none", "label": "solid"}
    h.set_text(page, "train-text", "kept")
    page.set_input_files(
        '[data-testid="train-file"]',
        files=[{"name": "bom.txt", "mimeType": "text/plain", "buffer": "héllo wörld\n".encode("utf-16")}],
    )
    msg = h.visible_error(page, "train-text-error")
    assert "UTF-16" in msg and "UTF-8" in msg and "binary" not in msg
    page.set_input_files(
        '[data-testid="train-file"]',
        files=[{"name": "le.txt", "mimeType": "text/plain", "buffer": "plain text, no BOM\n".encode("utf-16-le")}],
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"train-text-error\"]').textContent.includes('le.txt')"
    )
    assert "UTF-16" in page.text_content('[data-testid="train-text-error"]')
    assert page.input_value('[data-testid="train-text"]') == "kept"
    # real binary files are still called binary
    page.set_input_files(
        '[data-testid="train-file"]',
        files=[{"name": "x.bin", "mimeType": "text/plain", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}],
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"train-text-error\"]').textContent.includes('x.bin')"
    )
    assert "binary" in page.text_content('[data-testid="train-text-error"]')
