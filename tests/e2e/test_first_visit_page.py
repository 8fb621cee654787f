"""A first visit fetches only what the view on screen needs (issue 20, "nothing fetched before it
is needed"): Tokenize shows cl100k_base, so neither o200k_base's vocabulary (the hidden Chat's
default format, chatml-o200k) nor chart.js (no chart on Tokenize) crosses the wire; both come
when the view that needs them is shown. Also: the site is served with Content-Encoding, as
tools/serve.py sends the build's precompressed copies."""

from __future__ import annotations

from tests.e2e import helpers as h


def _fetched(page, part: str) -> list[str]:
    return [u for u in page.requested_urls if part in u]


def _slow_link(page) -> None:
    """A 2 Mbit/s link (CDP): below pyboot.js SNAPSHOT_MIN_MBPS, so Python starts without the
    memory snapshot and its start takes seconds after its downloads."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 2e6 / 8, "uploadThroughput": 1e6 / 8},
    )


def test_a_first_visit_to_tokenize_fetches_no_other_vocabulary_and_no_chart_library(page, site_url):
    encodings = {}
    page.on("response", lambda r: encodings.setdefault(r.url.removeprefix(site_url), r.headers.get("content-encoding")))
    h.open_ready(page, site_url, "tokenize")
    page.wait_for_selector("#view-tokenize[data-encoded]")
    assert page.get_attribute("#view-tokenize", "data-encoded").startswith("cl100k_base:")
    # the ready handlers of every view ran before this count (the worker answers in order): a
    # hidden view that counted at boot would have asked for its vocabulary by now
    h.settle(page)
    assert _fetched(page, "cl100k_base.bpv") != []
    assert _fetched(page, "o200k_base") == []
    assert _fetched(page, "chart.umd") == []
    # the runtime came compressed (Chromium accepts br): what `build.py serve` sends is what hosts send
    wasm = [u for u in encodings if u.endswith("pyodide.asm.wasm")]
    assert wasm and encodings[wasm[0]] == "br"

    # shown, Chat counts its conversation (o200k_base), and Train draws its chart once trained
    page.click("#tab-chat")
    page.wait_for_function("() => /\\d/.test(document.querySelector('[data-testid=\"chat-total\"]').textContent)")
    assert _fetched(page, "o200k_base.bpv") != []
    page.click("#tab-train")
    h.train(page, "low lower lowest newer newest " * 40, 270, name="first-visit")
    page.wait_for_selector('[data-testid="compression-chart"][data-drawn="true"]')
    assert len(_fetched(page, "chart.umd.min.js")) == 1
    assert page.console_errors == []


def test_the_vocabulary_on_screen_downloads_while_python_starts(page, site_url):
    """Issue 20: the link is free while Python starts (seconds on a slow phone), so Tokenize's
    tokenizer has its vocabulary requested then (worker.js warmVocab, hinted by the view), before
    Ready, and only once: the first count does not wait for a download after Ready. Both times are
    the browser's own clocks (epoch ms): when the request started, and when the page turned ready.
    On a 2 Mbit/s link (below pyboot.js SNAPSHOT_MIN_MBPS: a start without the memory snapshot, as
    on a phone) Python's own start takes seconds after its downloads, so the order does not hang on
    a few milliseconds of a busy machine (with the snapshot, restored in ~0.3 s, it once did)."""
    _slow_link(page)
    page.add_init_script(
        """new MutationObserver((_, observer) => {
          if (document.body?.dataset.pyodide !== "ready") return;
          observer.disconnect();
          window.__readyEpochMs = performance.timeOrigin + performance.now();
        }).observe(document, { subtree: true, childList: true, attributes: true });"""
    )
    vocab = []
    page.context.on(
        "requestfinished",
        lambda r: "cl100k_base.bpv" in r.url and r.service_worker is None and vocab.append(r.timing["startTime"]),
    )
    h.open_ready(page, site_url, "tokenize")
    page.wait_for_selector("#view-tokenize[data-encoded]")
    assert page.get_attribute("#view-tokenize", "data-encoded").startswith("cl100k_base:")
    ready_ms = page.evaluate("() => window.__readyEpochMs")
    assert page.evaluate("async () => (await window.bytepair.ready).boot") == "fresh"
    assert len(vocab) == 1 and ready_ms, (vocab, ready_ms)
    assert vocab[0] < ready_ms, f"the vocabulary was requested {vocab[0] - ready_ms:.0f} ms after Ready"
    assert len(_fetched(page, "cl100k_base.bpv")) == 1
    assert page.console_errors == []


def test_the_menus_are_filled_before_python_is_ready(page, site_url):
    """Issue 20 ("controls usable before Python is ready"): the build writes the adapter's facts()
    to facts.json (tools/site_build.py step_facts), so Tokenize's tokenizer menu and Train's
    pre-tokenizer menu are filled from it while Python still starts (on the 2 Mbit/s link of the
    test above: seconds); the worker's ready reply then brings the same facts."""
    _slow_link(page)
    page.add_init_script(
        """window.__seen = {};
        new MutationObserver(() => {
          const seen = window.__seen;
          const now = performance.now();
          const filled = (sel) => (document.querySelector(sel)?.options.length ?? 0) > 1;
          if (seen.tokenize == null && filled('[data-testid="tokenize-tokenizer"]')) seen.tokenize = now;
          if (seen.train == null && filled('[data-testid="train-pattern"]')) seen.train = now;
          if (seen.ready == null && document.body?.dataset.pyodide === "ready") seen.ready = now;
        }).observe(document, { subtree: true, childList: true, attributes: true });"""
    )
    h.open_ready(page, site_url, "tokenize")
    seen = page.evaluate("() => window.__seen")
    assert {"tokenize", "train", "ready"} <= set(seen), seen
    assert seen["tokenize"] < seen["ready"] and seen["train"] < seen["ready"], seen
    labels = page.eval_on_selector_all('[data-testid="tokenize-tokenizer"] option', "os => os.map((o) => o.value)")
    assert {"cl100k_base", "o200k_base"} <= set(labels)
    shipped = page.evaluate("async () => (await fetch('facts.json')).json()")
    assert shipped == page.evaluate("() => window.bytepair.facts")
    assert page.console_errors == []
