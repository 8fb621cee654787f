"""End-to-end tests of the playground (web/) in Chromium, against the built site.

Fixtures from tests/e2e/conftest.py: ``site_url`` (the served web/dist/) and
``page`` (a fresh browser context; ``page.console_errors``, ``page.requested_urls``);
helpers from tests/e2e/helpers.py.

Expected values come from references computed here on CPython: tiktoken
(built offline from the rank files), the slow minbpe trainer in
tests/reference, UTF-8 lengths from Python itself.

The page's Content-Security-Policy forbids eval, so every wait_for_function
predicate is an arrow function, never an expression string.
"""

from __future__ import annotations

import json
import pathlib
import re
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as h
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import slow_train
from tools.udhr import load_udhr

pytestmark = pytest.mark.e2e

MULTILINGUAL = (
    "Hello, world! Tokenizers split text into pieces.\n"
    "Bonjour, ça va ? Привет, мир! 你好，世界。 नमस्ते दुनिया مرحبا بالعالم\n"
    "Emoji: 🙂👍🏽 👩‍👩‍👧 🇺🇳\tcode: for (let i = 0; i < 10; i++) {}  \n\n   trailing"
)
XSS = ["<img src=x onerror=alert(1)>", "a<b<c", "<script>alert(2)</script>&amp;"]


# --- tests --------------------------------------------------------------------


def test_ready_without_console_errors_or_foreign_requests(page, site_url):
    h.open_ready(page, site_url)
    assert page.text_content('[data-testid="status-text"]') == "Ready"
    assert page.evaluate("() => typeof window.bytepair.encode") == "function"
    # Pyodide really runs Python: a count through the page's API matches tiktoken.
    n = page.evaluate("() => window.bytepair.count('hello world, hello there', 'cl100k_base')")
    assert n == len(h.tiktoken_for("cl100k_base").encode_ordinary("hello world, hello there"))
    origin = urllib.parse.urlsplit(site_url).netloc
    foreign = [
        u
        for u in page.requested_urls
        if urllib.parse.urlsplit(u).scheme in ("http", "https", "ws", "wss")
        and urllib.parse.urlsplit(u).netloc != origin
    ]
    assert foreign == []
    assert any(u.endswith("pyodide.asm.wasm") for u in page.requested_urls)
    assert page.console_errors == []


def test_csp_forbids_inline_script_and_remote_hosts():
    import html.parser

    class _Csp(html.parser.HTMLParser):
        csp = None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
                self.csp = a.get("content")

    parser = _Csp()
    parser.feed((h.DIST / "index.html").read_text(encoding="utf-8"))
    csp = parser.csp
    assert csp, "index.html has no Content-Security-Policy meta tag"
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["default-src"] == ["'self'"]
    assert set(directives["script-src"]) <= {"'self'", "'wasm-unsafe-eval'"}
    for values in directives.values():
        assert not any(
            v.startswith(("http:", "https:", "*")) or v in ("'unsafe-inline'", "'unsafe-eval'") for v in values
        )


def test_merges_appear_live_and_match_the_slow_trainer(page, site_url):
    h.open_ready(page, site_url)
    text = h.udhr_text(["eng"])
    h.train(page, text, 256 + 60, name="udhr-eng")
    rows = page.locator('[data-testid="merges-body"] tr')
    got = page.evaluate("""() => [...document.querySelectorAll('[data-testid="merges-body"] tr')].map(
        (tr) => [Number(tr.dataset.left), Number(tr.dataset.right), Number(tr.dataset.id), Number(tr.dataset.count)]).reverse()""")
    import regex

    split = regex.compile(tiktoken_pattern("cl100k_base")).findall
    expected = [[p[0], p[1], new_id, count] for p, new_id, count in slow_train(text, 60, split=split)]
    assert rows.count() == 60
    assert got == expected
    # the compression curve of the finished run is drawn
    page.wait_for_selector('[data-testid="compression-chart"][data-drawn="true"]')
    assert "Done: 60 merges" in page.text_content('[data-testid="train-progress-text"]')
    assert page.console_errors == []


def test_merges_show_before_training_ends_and_stop_works(page, site_url):
    h.open_ready(page, site_url)
    d = load_udhr()
    text = "\n".join(d[c].text for c in sorted(d)[:40])  # ~0.5 MB, many scripts
    h.train(page, text, 30_000, name="big", wait=False)
    # merges are listed while the run is still going
    page.wait_for_function(
        """() => document.querySelectorAll('[data-testid="merges-body"] tr').length > 0
                 && document.body.dataset.training === 'running'""",
        timeout=60_000,
    )
    assert page.locator('[data-action="stop"]').is_enabled()
    page.get_by_role("button", name="Stop", exact=True).click()
    page.wait_for_function("() => document.body.dataset.training === 'stopped'", timeout=30_000)
    progress = page.text_content('[data-testid="train-progress-text"]')
    assert progress.startswith("Stopped after")
    m = re.match(r"Stopped after ([\d,]+) merges? ", progress)  # "1 merge" or "1,234 merges"
    assert m, progress
    n = int(m.group(1).replace(",", ""))
    assert 0 < n < 30_000 - 256
    # the partial tokenizer is kept, with exactly the merges shown ("Stopped after" is on screen
    # first, then the tokenizer is written to browser storage and listed)
    page.wait_for_function("() => document.body.dataset.trainSaving === 'false'", timeout=30_000)
    assert page.text_content('[data-testid="train-progress-text"]').endswith("Saved as “big”.")
    assert page.locator('[data-testid="saved-item"][data-tokenizer="big"]').count() == 1
    info = page.evaluate("() => window.bytepair.trainedTokenizers().find((t) => t.name === 'big').meta")
    assert info["n_merges"] == n
    page.wait_for_selector('[data-testid="compression-chart"][data-drawn="true"]')
    assert page.console_errors == []


def test_stop_while_python_is_busy_counting_restarts_the_worker(page, site_url):
    h.open_ready(page, site_url)
    d = load_udhr()
    text = "\n".join(d[c].text for c in sorted(d))  # several MB: the first pass takes a while
    h.train(page, text, 2000, name="busy", wait=False)
    page.get_by_role("button", name="Stop", exact=True).click()
    page.wait_for_function("() => document.body.dataset.training !== 'running'", timeout=60_000)
    assert page.evaluate("() => document.body.dataset.training") == "stopped", page.text_content(
        "[data-testid=train-error]"
    )
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    # the page keeps working, and the text is still there (held out of the box: several MB)
    size = len(text.encode("utf-8"))
    assert page.text_content('[data-testid="train-text-size"]') == f"{size / 1024 / 1024:.2f} MB"
    assert page.evaluate("() => window.bytepair.count('still working', 'gpt2')") == len(
        h.tiktoken_for("gpt2").encode_ordinary("still working")
    )


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_tokenize_counts_equal_tiktoken(page, site_url, name):
    h.open_ready(page, site_url, "tokenize")
    h.set_text(page, "tokenize-text", MULTILINGUAL)
    page.select_option('[data-testid="tokenize-tokenizer"]', name)
    enc = h.tiktoken_for(name)
    ids = enc.encode_ordinary(MULTILINGUAL)
    page.wait_for_function(
        "([name, n]) => document.querySelector('#view-tokenize').dataset.encoded === `${name}:${n}`",
        arg=[name, len(ids)],
        timeout=60_000,
    )
    assert page.text_content('[data-testid="count-tokens"]') == f"{len(ids):,}"
    assert page.text_content('[data-testid="count-chars"]') == f"{len(MULTILINGUAL):,}"
    nbytes = len(MULTILINGUAL.encode("utf-8"))
    assert page.text_content('[data-testid="count-bytes"]') == f"{nbytes:,}"
    assert page.text_content('[data-testid="count-bpt"]') == f"{nbytes / len(ids):.2f}"
    # the coloured spans carry exactly tiktoken's ids, in order, and the whole text
    shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="token"]')].flatMap((el) => el.dataset.ids.split(',').map(Number))"""
    )
    assert shown == ids
    assert (
        page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"token\"]')].map((el) => el.textContent).join('')"
        )
        == MULTILINGUAL
    )
    # emoji split over several tokens stay one readable group
    groups = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"token\"]')].map((el) => el.textContent)"
    )
    assert any("🙂" in g for g in groups)
    assert page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"token\"]')].every((el) => el.textContent.isWellFormed())"
    )
    # keyboard: focus the token list, arrow to the second token, see its id and bytes
    # a debounced re-encode of the same text may still be in flight; its result resets the selection
    expect(page.locator('[data-testid="tokens"]')).to_have_attribute("aria-busy", "false", timeout=30_000)
    page.focus('[data-testid="tokens"]')
    page.keyboard.press("ArrowRight")
    detail = page.locator('[data-testid="token-detail"]')
    expect(detail).to_contain_text(f"id {ids[1]}", timeout=10_000)
    expect(detail).to_contain_text(enc.decode_single_token_bytes(ids[1]).hex(" "))
    assert page.console_errors == []


def test_tokenize_toggles_ids_and_whitespace(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    h.set_text(page, "tokenize-text", "a b\tc\nd")
    ids = h.tiktoken_for("cl100k_base").encode_ordinary("a b\tc\nd")
    # (this text's count, not the sample's: a busy CI page counted the sample after the text was typed)
    h.wait_counted(page, "cl100k_base", len(ids))
    page.check('[data-testid="toggle-whitespace"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"tokens\"]').textContent.includes('·')")
    assert page.text_content('[data-testid="tokens"]') == "a·b→c↵\nd"
    page.check('[data-testid="toggle-ids"]')
    page.wait_for_selector(".tok-id")
    assert page.locator(".tok-id").all_text_contents() == [str(i) for i in ids]


def test_compare_lists_every_language_for_every_tokenizer(page, site_url):
    samples = json.loads((h.DIST / "samples" / "udhr.json").read_text(encoding="utf-8"))
    languages = samples["languages"] if isinstance(samples, dict) else samples
    assert len(languages) >= 30
    h.open_ready(page, site_url, "compare")
    names = ["gpt2", "p50k_base", "cl100k_base", "o200k_base"]
    page.wait_for_function(
        "(n) => document.querySelector('#view-compare').dataset.compared === String(n)",
        arg=len(languages) * len(names),
        timeout=120_000,
    )
    rows = page.locator('[data-testid="compare-row"]')
    assert rows.count() == len(languages)
    cells = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-testid="compare-row"]')].map((tr) =>
        [tr.dataset.code, Object.fromEntries([...tr.querySelectorAll('[data-metric="tokens"]')].map((td) => [td.dataset.tokenizer, Number(td.dataset.value)]))]))""")
    for name in names:
        enc = h.tiktoken_for(name)
        english = len(enc.encode_ordinary(next(x["text"] for x in languages if x["code"] == "eng")))
        for lang in languages:
            n = len(enc.encode_ordinary(lang["text"]))
            assert cells[lang["code"]][name] == n, (lang["code"], name)
        # premium of one language, as shown
        fra = next(x for x in languages if x["code"] != "eng")
        premium = len(enc.encode_ordinary(fra["text"])) / english - 1
        shown = page.locator(
            f'[data-code="{fra["code"]}"] [data-tokenizer="{name}"][data-metric="premium"]'
        ).text_content()
        assert shown == f"{'+' if premium >= 0 else '−'}{abs(premium * 100):.0f}%"
    # sort by language name, then by GPT-4 tokens (descending after a second click)
    page.click('button.sort[data-sort="name"]')
    h.settle(page)
    order = page.locator('[data-testid="compare-row"] th[scope="row"] > span:first-child').all_text_contents()
    assert order == sorted(order, key=str.lower)
    button = page.locator('button.sort[data-sort="tokens"][data-tokenizer="cl100k_base"]')
    button.click()
    h.settle(page)
    button.click()
    h.settle(page)
    values = [
        int(v)
        for v in page.evaluate(
            '() => [...document.querySelectorAll(\'[data-testid="compare-row"] [data-tokenizer="cl100k_base"][data-metric="tokens"]\')].map((td) => td.dataset.value)'
        )
    ]
    assert values == sorted(values, reverse=True)
    assert page.get_attribute('[data-testid="compare-chart"]', "data-drawn") == "true"
    assert page.console_errors == []


def test_compare_own_parallel_texts(page, site_url):
    h.open_ready(page, site_url, "compare")
    page.check('[data-testid="compare-source-custom"]')
    lines = "English | All human beings are born free.\nDeutsch\tAlle Menschen sind frei geboren.\n日本語 | すべての人間は、生まれながらにして自由である。"
    h.set_text(page, "compare-custom", lines)
    page.click('[data-action="compare"]')
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"compare-row\"]').length === 3 && document.querySelector('[data-code=\"custom-2\"]')"
    )
    enc = h.tiktoken_for("o200k_base")
    n = page.locator('[data-code="custom-2"] [data-tokenizer="o200k_base"][data-metric="tokens"]').get_attribute(
        "data-value"
    )
    assert int(n) == len(enc.encode_ordinary("すべての人間は、生まれながらにして自由である。"))
    # a malformed line gets a clear message
    h.set_text(page, "compare-custom", "just one line without a separator")
    page.click('[data-action="compare"]')
    assert "tab" in h.visible_error(page, "compare-error")


def test_xss_strings_render_literally_and_run_nothing(page, site_url):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    h.open_ready(page, site_url, "tokenize")
    text = "\n".join(XSS)
    h.set_text(page, "tokenize-text", text)
    h.wait_counted(page, "cl100k_base", len(h.tiktoken_for("cl100k_base").encode_ordinary(text)))
    assert page.text_content('[data-testid="tokens"]') == text
    assert page.locator('[data-testid="tokens"] img, [data-testid="tokens"] script').count() == 0
    # as training text, merge table cells, and as a tokenizer name
    page.click('[data-view="train"]')
    h.train(page, text * 3, 300, name=XSS[0], pattern="none")
    assert page.locator('[data-testid="merges-body"] img, [data-testid="merges-body"] script').count() == 0
    assert page.locator('[data-testid="saved-item"] .saved-name').all_text_contents() == [XSS[0]]
    cells = " ".join(page.locator('[data-testid="merges-body"] code').all_text_contents())
    assert "<" in cells
    assert page.locator("img[src=x]").count() == 0
    assert dialogs == []
    assert page.console_errors == []


def test_reload_keeps_trained_tokenizer_and_text(page, site_url):
    h.open_ready(page, site_url)
    text = h.udhr_text(["eng", "fra"])
    h.train(page, text, 300, name="kept")
    expected = page.evaluate("() => window.bytepair.encode('Everyone has the right to life', 'kept')")
    # the downloads: the .tiktoken file drives tiktoken itself to the same ids; the JSON loads on CPython
    item = page.locator('[data-testid="saved-item"][data-tokenizer="kept"]')
    item.locator(
        '[data-action="downloads"]'
    ).click()  # the download panel (tests/e2e/test_train_page.py checks all three files)
    with page.expect_download() as dl:
        item.get_by_role("button", name="Download kept as .tiktoken (tiktoken)").click()
    import tiktoken

    import bytepair

    ranks = bytepair.parse_tiktoken_bpe(pathlib.Path(dl.value.path()).read_bytes())
    assert len(ranks) == 300
    enc = tiktoken.Encoding("kept", pat_str=tiktoken_pattern("cl100k_base"), mergeable_ranks=ranks, special_tokens={})
    assert enc.encode_ordinary("Everyone has the right to life") == expected
    with page.expect_download() as dl:
        item.get_by_role("button", name="Download kept as bytepair JSON").click()
    assert (
        bytepair.from_json(pathlib.Path(dl.value.path()).read_text(encoding="utf-8")).encode(
            "Everyone has the right to life"
        )
        == expected
    )
    h.wait_saved(page, "train", text)  # the text is saved after a short debounce
    page.reload()
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    page.wait_for_selector('[data-testid="saved-item"][data-tokenizer="kept"]')
    assert page.input_value('[data-testid="train-text"]') == text
    # the restored tokenizer encodes exactly as before, and Tokenize offers it
    assert page.evaluate("() => window.bytepair.encode('Everyone has the right to life', 'kept')") == expected
    page.click('[data-view="tokenize"]')
    assert page.locator('[data-testid="tokenize-tokenizer"] option[value="kept"]').count() == 1
    page.select_option('[data-testid="tokenize-tokenizer"]', "kept")
    page.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded?.startsWith('kept:')")


def test_rename_and_delete_saved_tokenizer(page, site_url):
    h.open_ready(page, site_url)
    h.train(page, h.udhr_text(["eng"]), 270, name="first")
    item = page.locator('[data-testid="saved-item"][data-tokenizer="first"]')
    item.get_by_role("button", name="Rename first").click()
    page.fill('[data-testid="rename-input"]', "cl100k_base")
    page.click('[data-action="rename-save"]')
    assert "built-in" in h.visible_error(page, "saved-error")
    page.fill('[data-testid="rename-input"]', "renamed")
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-testid="saved-item"][data-tokenizer="renamed"]')
    assert page.evaluate("() => window.bytepair.count('hello', 'renamed')") > 0
    page.reload()
    page.wait_for_selector('[data-testid="saved-item"][data-tokenizer="renamed"]')
    page.get_by_role("button", name="Delete renamed").click()
    page.get_by_role("button", name="Yes, delete renamed").click()
    page.wait_for_selector('[data-testid="saved-empty"]', state="visible")
    page.reload()
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    assert page.locator('[data-testid="saved-item"]').count() == 0


def test_bad_input_shows_errors_and_the_page_keeps_working(page, site_url):
    h.open_ready(page, site_url)
    # empty text
    h.set_text(page, "train-text", "")
    page.get_by_role("button", name="Train", exact=True).click()
    assert "empty" in h.visible_error(page, "train-text-error")
    # a vocab size out of range; the text typed so far stays
    h.set_text(page, "train-text", "some text some text")
    page.fill('[data-testid="train-vocab"]', "12")
    page.get_by_role("button", name="Train", exact=True).click()
    assert "257" in h.visible_error(page, "train-vocab-error")
    assert page.input_value('[data-testid="train-text"]') == "some text some text"
    # a broken custom regex
    page.fill('[data-testid="train-vocab"]', "260")
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', "(unclosed")
    page.get_by_role("button", name="Train", exact=True).click()
    assert "regex" in h.visible_error(page, "train-regex-error").lower()
    # malformed files: binary, then invalid UTF-8; the textarea is left alone
    page.set_input_files(
        '[data-testid="train-file"]',
        files=[{"name": "x.txt", "mimeType": "text/plain", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00\x00"}],
    )
    assert "binary" in h.visible_error(page, "train-text-error")
    page.set_input_files(
        '[data-testid="train-file"]', files=[{"name": "y.txt", "mimeType": "text/plain", "buffer": b"caf\xe9 latin-1"}]
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"train-text-error\"]').textContent.includes('UTF-8')"
    )
    assert page.input_value('[data-testid="train-text"]') == "some text some text"
    # a malformed tokenizer JSON import
    page.set_input_files(
        '[data-testid="import-file"]',
        files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b'{"not": "a tokenizer"'}],
    )
    assert "bad.json" in h.visible_error(page, "saved-error")
    # a good file, then a working training run
    page.set_input_files(
        '[data-testid="train-file"]',
        files=[{"name": "ok.txt", "mimeType": "text/plain", "buffer": "héllo wörld, héllo again\n".encode() * 20}],
    )
    page.wait_for_function("() => document.querySelector('[data-testid=\"train-text\"]').value.startsWith('héllo')")
    assert page.locator('[data-testid="train-text-error"]').is_hidden()
    page.fill('[data-testid="train-regex"]', r" ?\p{L}+|\s+|.")
    h.train(page, page.input_value('[data-testid="train-text"]'), 270, name="ok", pattern="custom")
    assert page.locator('[data-testid="saved-item"][data-tokenizer="ok"]').count() == 1
    assert page.evaluate("() => document.body.dataset.pyodide") == "ready"


def test_restarted_worker_keeps_serving_saved_tokenizers(page, site_url):
    h.open_ready(page, site_url)
    h.train(page, h.udhr_text(["eng"]), 280, name="survivor")
    before = page.evaluate("() => window.bytepair.encode('human rights', 'survivor')")
    page.evaluate("() => window.bytepair.restart('test restart')")
    page.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=h.READY_TIMEOUT)
    assert page.evaluate("() => window.bytepair.encode('human rights', 'survivor')") == before
    assert "restarted" in page.text_content('[data-testid="status-text"]')
