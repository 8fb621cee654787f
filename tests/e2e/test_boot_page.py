"""Issue 12, Navigation -> Ready: the page boots Python from the site's memory
snapshot (tools/snapshot.py, web/src/pyboot.js), falls back to a normal start
when the snapshot is unusable, starts one worker early (boot.js) and keeps the
content-named snapshot in the HTTP cache for a second visit. Counts are checked
against tiktoken. Timings are in tools/bench_browser.py (boot), not here.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import CHROMIUM, CHROMIUM_ARGS, DEFAULT_TIMEOUT_MS, open_ready, tiktoken_for, wait_ready
from tools.buildutil import DIST

TEXT = "Byte-pair encoding, restored from a snapshot: naïve café 東京 🙂 1234567"


def _manifest() -> dict:
    """web/dist's wheels/manifest.json (the site_url fixture has built it)."""
    return json.loads((DIST / "wheels" / "manifest.json").read_text(encoding="utf-8"))


def _count(page, name="cl100k_base") -> int:
    return page.evaluate("([t, n]) => window.bytepair.count(t, n)", [TEXT, name])


def test_boots_from_the_snapshot_with_one_early_worker(page, site_url):
    snapshot = _manifest()["snapshot"]
    assert snapshot and snapshot["file"].startswith("snapshot/python-")
    open_ready(page, site_url, "tokenize")
    info = page.evaluate("async () => { const i = await window.bytepair.ready; return {boot: i.boot}; }")
    assert info["boot"] == "snapshot"
    assert len(page.workers) == 1  # rpc.js adopted boot.js's worker instead of starting a second Python
    assert any(u.endswith(snapshot["file"]) for u in page.requested_urls)
    assert not any("/wheels/bytepair-" in u for u in page.requested_urls)  # imported in the snapshot
    assert _count(page) == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
    assert page.console_errors == []


def test_a_broken_snapshot_falls_back_to_a_normal_start(page, site_url):
    # gzip magic, then garbage: DecompressionStream fails, the worker starts Python normally
    page.route("**/snapshot/*", lambda route: route.fulfill(status=200, body=b"\x1f\x8b\x08\x00broken"))
    open_ready(page, site_url, "tokenize")
    boot = page.evaluate("async () => (await window.bytepair.ready).boot")
    assert boot == "fresh"
    assert any("/wheels/bytepair-" in u for u in page.requested_urls)
    assert _count(page) == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
    assert page.console_errors == []


def test_a_second_visit_takes_the_snapshot_from_the_http_cache(browser, site_url, tmp_path):
    snapshot = _manifest()["snapshot"]
    # a browser profile with a disk cache, as a user's (an incognito context's memory cache is small)
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    try:
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        open_ready(page, site_url, "tokenize")
        first = page.evaluate("async () => (await window.bytepair.ready).transfer")
        page.reload()
        wait_ready(page)
        # Resource Timing in the worker: transferSize = body + headers; 0 = from the cache without asking the server
        again = page.evaluate("async () => (await window.bytepair.ready).transfer")
        assert first["snap.gz"] >= snapshot["bytes"] and again["snap.gz"] == 0, (first, again)
        # first: over the network (9.6 MB, 2.8 MB as the brotli copy build.py serve sends); again: a 304
        assert first["pyodide.asm.wasm"] > 2_000_000 and again["pyodide.asm.wasm"] < 1000, (first, again)
        assert page.evaluate("async () => (await window.bytepair.ready).boot") == "snapshot"
        assert _count(page) == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
    finally:
        context.close()


@pytest.mark.slow  # ~50 s on a busy 2-core machine: 5 MB at 2 Mbit/s and a normal start
def test_a_slow_link_starts_python_without_the_snapshot(page, site_url):
    """Issue 20: below pyboot.js SNAPSHOT_MIN_MBPS (measured on the standard library's download)
    the worker skips the ~7 MB snapshot and installs the wheels; the count is still exact."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    # 2 Mbit/s: below the 4 Mbit/s threshold, fast enough to keep the test short
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 2e6 / 8, "uploadThroughput": 1e6 / 8},
    )
    open_ready(page, site_url, "tokenize")
    assert page.evaluate("async () => (await window.bytepair.ready).boot") == "fresh"
    assert not any("/snapshot/" in u for u in page.requested_urls)
    assert any("/wheels/bytepair-" in u for u in page.requested_urls)
    assert _count(page) == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
    assert page.console_errors == []
