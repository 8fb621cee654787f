"""Embeds of one origin share one Python runtime (issue 11, course pages), and Stop in one
embed stops only that embed's run; cross-origin isolation (COOP/COEP) by default.

A host page (served by a Playwright route at the site's origin, with the site's COOP/COEP
headers, as ``web/examples/course.html`` is) holds two ``?embed=1#train`` iframes. Both must
report the same runtime (the worker's id in ``bytepair.ready``, a SharedWorker), the runtime
must download ``pyodide.asm.wasm`` once, both must train, and Stop in one must leave the other
running; each saved tokenizer holds exactly the merges its embed showed. Merges are checked
against the slow minbpe trainer of ``tests/reference`` (not against the page's own output).
Without SharedWorker (Android Chrome) each embed falls back to a worker of its own.
"""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
import regex

from tests.e2e import helpers as h
from tests.e2e.helpers import DIST, READY_TIMEOUT, udhr_text, wait_ready
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import slow_train
from tools.buildutil import pyodide_site_dir
from tools.serve import ISOLATION_HEADERS, make_server, server_url
from tools.udhr import load_udhr

PROGRESS = '[data-testid="train-progress-text"]'
HOST = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>two embeds</title></head>
<body>
  <iframe id="a" src="{base}?embed=1#train" title="A" width="900" height="700"></iframe>
  <iframe id="b" src="{base}?embed=1#train" title="B" width="900" height="700"></iframe>
</body></html>
"""


def _host(page, site_url: str):
    """Open the two-embed host page; returns (frame A, frame B), both ready."""
    page.route(
        site_url + "two-embeds.html",
        lambda route: route.fulfill(
            body=HOST.format(base=site_url), content_type="text/html; charset=utf-8", headers=ISOLATION_HEADERS
        ),
    )
    page.goto(site_url + "two-embeds.html")
    frames = []
    for fid in ("a", "b"):
        frame = page.locator(f"#{fid}").element_handle().content_frame()
        wait_ready(frame)
        frames.append(frame)
    return frames


def _runtime(frame) -> dict:
    return frame.evaluate("async () => (await window.bytepair.ready).runtime")


def _shown(frame) -> int:
    m = re.match(r"([\d,]+) / ", frame.text_content(PROGRESS) or "")
    return int(m.group(1).replace(",", "")) if m else 0


def _fill_train(frame, text: str, vocab: int, name: str) -> None:
    frame.locator('[data-testid="train-text"]').evaluate(
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", text
    )
    frame.fill('[data-testid="train-vocab"]', str(vocab))
    frame.select_option('[data-testid="train-pattern"]', "gpt2")
    frame.fill('[data-testid="train-name"]', name)


def _saved_merges(frame, name: str) -> list:
    saved = json.loads(frame.evaluate("(n) => window.bytepair.tokenizerJson(n)", name))
    return saved["merges"]


@pytest.fixture
def own_server():
    """The built site on a server of this test's own (its request counts start at zero):
    ``(base URL, server)``. (Playwright does not report a SharedWorker's requests, the server does.)"""
    server = make_server("127.0.0.1", 0, directory=DIST, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server_url(server), server
    finally:
        server.shutdown()
        server.server_close()


def test_two_embeds_share_one_runtime_and_stop_only_their_own_run(page, site_url, own_server):
    url, server = own_server
    a, b = _host(page, url)
    ra, rb = _runtime(a), _runtime(b)
    assert ra["shared"] and rb["shared"], (ra, rb)
    assert ra["id"] == rb["id"] and ra["client"] != rb["client"], (ra, rb)
    assert a.evaluate("() => window.crossOriginIsolated") is True  # COOP/COEP by default
    assert server.hits[f"/{pyodide_site_dir()}/pyodide.asm.wasm"] == 1  # one runtime: downloaded once (was 2)
    # the SharedWorker's name carries the build id (build-info.json, tools/site_build.py): after a
    # deploy, new embeds start a runtime of the new build instead of joining an old tab's runtime
    build_id = json.loads((DIST / "build-info.json").read_text(encoding="utf-8"))["build_id"]
    assert len(build_id) == 16 and ra["name"] == rb["name"] == f"bytepair-python-shared-{build_id}", ra

    # both train at once in the one runtime; a long run in A, a long run in B
    # 40 distinct texts each, so neither run can end before its Stop: ~35,000 and ~43,000 merges are
    # possible at most (repeating a text adds no pairs: 8 texts x 6 ran out of pairs at ~11,000, and
    # a run that ended "Done" before the click made this test time out under load)
    codes_a = ["eng", "deu_1996", "fra", "spa", "ita", "por_PT", "nld", "pol", "ces", "swe"]
    codes_b = ["rus", "ukr", "bul", "srp_cyrl", "ell_monotonic", "arb", "heb", "hin"]
    others = [c for c in sorted(load_udhr()) if c not in codes_a + codes_b]
    text_a = udhr_text(codes_a + others[:30])
    text_b = udhr_text(codes_b + others[30:62])
    _fill_train(a, text_a, 20_000, "embed-a")
    _fill_train(b, text_b, 20_000, "embed-b")
    a.get_by_role("button", name="Train", exact=True).click()
    b.get_by_role("button", name="Train", exact=True).click()
    for f in (a, b):
        f.wait_for_function(
            """() => document.body.dataset.training === 'running'
                     && /^[\\d,]+ \\//.test(document.querySelector('[data-testid="train-progress-text"]').textContent)""",
            timeout=READY_TIMEOUT,
        )

    # Stop in A: A keeps what it showed; B goes on learning
    shown_a = a.evaluate("""() => {
        const t = document.querySelector('[data-testid="train-progress-text"]').textContent;
        document.querySelector('[data-testid="stop-button"]').click();
        return Number(t.split(' / ')[0].replace(/,/g, '')); }""")
    a.wait_for_function("() => document.body.dataset.training === 'stopped'", timeout=60_000)
    assert b.evaluate("() => document.body.dataset.training") == "running"
    before = _shown(b)
    b.wait_for_function(
        """(n) => Number(document.querySelector('[data-testid="train-progress-text"]').textContent
                   .split(' / ')[0].replace(/,/g, '')) > n + 20""",
        arg=before,
        timeout=60_000,
    )
    assert b.evaluate("() => document.body.dataset.training") == "running"
    shown_b = b.evaluate("""() => {
        const t = document.querySelector('[data-testid="train-progress-text"]').textContent;
        document.querySelector('[data-testid="stop-button"]').click();
        return Number(t.split(' / ')[0].replace(/,/g, '')); }""")
    b.wait_for_function("() => document.body.dataset.training === 'stopped'", timeout=60_000)

    # each saved tokenizer = the first merges of a slow minbpe run on its own text
    pytest.importorskip("tiktoken")
    split = regex.compile(tiktoken_pattern("gpt2")).findall
    for frame, name, text, shown in ((a, "embed-a", text_a, shown_a), (b, "embed-b", text_b, shown_b)):
        assert frame.text_content(PROGRESS).startswith(f"Stopped after {shown:,} merge"), frame.text_content(PROGRESS)
        merges = _saved_merges(frame, name)
        assert len(merges) == shown
        expected = slow_train(text, min(shown, 40), split=split)
        assert [tuple(m[:2]) for m in merges[: len(expected)]] == [p for p, _i, _c in expected]
    assert page.console_errors == []


def test_without_shared_worker_each_embed_has_its_own_runtime(page, site_url, own_server):
    page.add_init_script("delete window.SharedWorker;")  # as Android Chrome, which has none
    a, b = _host(page, own_server[0])
    ra, rb = _runtime(a), _runtime(b)
    assert not ra["shared"] and not rb["shared"] and ra["id"] != rb["id"]
    for frame in (a, b):
        assert frame.evaluate("() => window.bytepair.count('hello world', 'gpt2')") == 2
    assert page.console_errors == []


@pytest.mark.parametrize("query", ["", "?isolate=0"])
def test_a_host_without_coop_coep_headers_is_isolated_by_the_service_worker(browser, site_url, query):
    """GitHub Pages cannot send COOP/COEP: the site's service worker adds them (one reload); ?isolate=0 opts out."""
    from tests.site_server import served_site

    context = browser.new_context()
    try:
        page = context.new_page()
        with served_site(isolate=False) as (url, _dist):
            page.goto(url + query)
            if query:
                wait_ready(page)
                assert page.evaluate("async () => (await window.bytepair.ready).isolated") is False
                assert page.locator('[data-testid="stop-hint"]').is_visible()
            else:
                page.wait_for_function("() => window.crossOriginIsolated === true", timeout=READY_TIMEOUT)
                wait_ready(page)
                assert page.evaluate("async () => (await window.bytepair.ready).isolated") is True
                assert page.locator('[data-testid="stop-hint"]').is_hidden()
    finally:
        context.close()


def test_step_embed_follows_its_content_on_next_and_settings(browser, site_url):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        started = time.monotonic()
        page.goto(site_url + "examples/course.html")
        frames = {
            t: page.locator(f'iframe[data-testid="{t}"]').element_handle().content_frame()
            for t in ("steps-frame", "compare-frame")
        }
        ready = {}
        for t, f in frames.items():
            h.wait_ready(f)
            ready[t] = time.monotonic() - started
        print(
            f"\ncourse page: ready after {ready['steps-frame']:.1f} s (steps) and {ready['compare-frame']:.1f} s (compare)"
        )
        steps = frames["steps-frame"]
        steps.wait_for_function("() => document.querySelector('#view-steps').dataset.shown", timeout=h.READY_TIMEOUT)
        h.settle(steps)
        iframe = page.locator('iframe[data-testid="steps-frame"]')
        before = h.wait_frame_fits(iframe)
        steps.click('[data-testid="steps-next"]')
        steps.wait_for_function("() => document.querySelector('#view-steps').dataset.step === '1'")
        steps.click('[data-testid="steps-next"]')
        steps.locator('[data-testid="steps-setup"] summary').click()
        h.settle(steps)
        # issue 19: the frame follows its content (no height lock: a locked frame hid what grew
        # in a nested scroll with no cue)
        after = h.wait_frame_fits(iframe)
        assert after > before, (before, after)
    finally:
        context.close()
