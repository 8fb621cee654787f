"""Issue 20 part 3: offline after one visit, and isolated on a host without COOP/COEP headers.

One service worker (the build's sw.js, code in web/src/sw-core.js) precaches the runtime, the site
and the default vocabulary in a cache per build id, and adds COOP/COEP where the host cannot. After
a first visit, Playwright takes the browser offline and reloads: Tokenize's cl100k count must equal
tiktoken's, Train must train (checked against the slow reference trainer), and an open model never
downloaded must say in words that the device is offline (not the browser's "Failed to fetch").
Offline, every tokenizer not downloaded is named by its label (bytepair's registry) with what to do,
Compare counts the others and gives each missing one its own line, and the menus mark them.
Also: a host without the headers reloads once on the first visit and never after; a course page
with embeds works offline after one visit; a new build's worker switches caches whole.
"""

from __future__ import annotations

import json

import pytest
import regex

from tests.e2e.helpers import (
    DEFAULT_TIMEOUT_MS,
    READY_TIMEOUT,
    catalog,
    open_ready,
    set_text,
    tiktoken_for,
    train,
    wait_ready,
    wait_text,
)
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import slow_train

TEXT = "Offline after one visit: naïve café 東京 🙂 1234567, the count still exact."
TRAIN_TEXT = "low lower lowest newer newest wider widest " * 20


def _context(browser):
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context


def _wait_offline_ready(page) -> None:
    page.wait_for_function(
        "() => ['true', 'failed'].includes(document.documentElement.dataset.offlineReady)", timeout=READY_TIMEOUT
    )
    assert page.evaluate("() => document.documentElement.dataset.offlineReady") == "true", page.evaluate(
        "() => window.bytepairOffline"
    )


def _count_on_screen(page, name: str) -> int:
    page.select_option('[data-testid="tokenize-tokenizer"]', name)
    page.wait_for_function(
        "(n) => (document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded || '').startsWith(n + ':')",
        arg=name,
        timeout=READY_TIMEOUT,
    )
    return int(page.text_content('[data-testid="count-tokens"]').replace(",", ""))


def test_after_one_visit_the_playground_works_offline(browser, site_url):
    context = _context(browser)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_ready(page, site_url, "tokenize")
        _wait_offline_ready(page)

        context.set_offline(True)
        page.reload()
        wait_ready(page)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        set_text(page, "tokenize-text", TEXT)
        assert _count_on_screen(page, "cl100k_base") == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))

        # an open model never downloaded: words that say what to do, not "Failed to fetch"
        model = _an_open_model(page)
        page.select_option('[data-testid="tokenize-tokenizer"]', model)
        error = page.locator('[data-testid="tokenize-error"]')
        error.wait_for(state="visible", timeout=60_000)
        message = error.text_content()
        assert "has not been downloaded yet" in message and "this device is offline" in message, message
        assert "Failed to fetch" not in message
        detail = page.evaluate(
            "([t, n]) => window.bytepair.count(t, n).then(() => null,"
            " (e) => ({type: e.type, message: e.message, name: e.detail?.name}))",
            [TEXT, model],
        )
        assert detail["type"] == "offline" and detail["name"] == model, detail
        # in Persian: the sentence names the tokenizer (tester: "this file was never loaded", which file?)
        page.select_option('[data-testid="lang-picker"]', "fa")
        page.wait_for_selector('html[lang="fa"]', state="attached")
        page.select_option('[data-testid="tokenize-tokenizer"]', "cl100k_base")
        page.select_option('[data-testid="tokenize-tokenizer"]', model)
        label = page.evaluate("(n) => window.bytepair.label(n)", model)  # (the open model's, from bytepair.app.models)
        want = catalog("fa")["messages"]["error.offline.named"]["text"].replace("{name}", label)
        wait_text(error, [want])  # the refused load of the model, worded
        page.select_option('[data-testid="lang-picker"]', "en")

        page.click('[data-view="train"]')
        train(page, TRAIN_TEXT, 256 + 8, pattern="cl100k_base", name="offline-bpe")
        assert page.evaluate("() => document.body.dataset.training") == "done"
        saved = json.loads(page.evaluate("(n) => window.bytepair.tokenizerJson(n)", "offline-bpe"))
        pytest.importorskip("tiktoken")
        expected = slow_train(TRAIN_TEXT, 8, split=regex.compile(tiktoken_pattern("cl100k_base")).findall)
        assert [tuple(m[:2]) for m in saved["merges"]] == [p for p, _i, _c in expected]
        assert errors == []
    finally:
        context.close()


def _cut_once(context, pattern: str) -> list[str]:
    """Abort the first request matching ``pattern`` as a dropped link does (the page's, its workers'
    and the service worker's requests); later ones go through. Returns the list of cut URLs."""
    cut: list[str] = []

    def drop_once(route):
        if not cut:
            cut.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    context.route(pattern, drop_once)
    return cut


def test_caching_for_offline_use_cut_off_by_the_link_goes_on_when_it_is_back(browser, site_url):
    """A learner's connection drops while the site is being saved for offline use ("[offline] not
    cached: Failed to fetch", a tester): it is saved once the connection is back, without a reload."""
    context = _context(browser)
    try:
        cut = _cut_once(context, "**/embed.js")  # precached, never fetched by the page itself
        page = context.new_page()
        open_ready(page, site_url, "train")
        page.wait_for_selector("html[data-offline-ready='failed']", state="attached", timeout=READY_TIMEOUT)
        assert cut, "the service worker's precache request was not routed"
        context.set_offline(True)
        context.set_offline(False)  # the browser's "online" event
        page.wait_for_selector("html[data-offline-ready='true']", state="attached", timeout=READY_TIMEOUT)
        assert page.evaluate("() => caches.match('embed.js').then((r) => !!r)")
    finally:
        context.close()


_SITE_CACHE_SIZE = """async () => {
    const name = (await caches.keys()).find((n) => n.startsWith('bytepair-site-'));
    return name ? (await (await caches.open(name)).keys()).length : 0;
}"""


def test_the_precache_waits_while_a_chosen_model_downloads_and_saves_the_site_after(browser, site_url):
    """On a first visit the precache for offline use starts at the first count, just when a reader
    picks another tokenizer: hashing and storing its megabytes made Gemma 3's first count about twice
    as slow (``bench_browser.py models``). While the chosen model's file is on its way the service
    worker stores nothing (its file is held here, as a slow link would); once the model has counted,
    the site is saved for offline use."""
    context = _context(browser)
    held = []
    context.route("**/models/llama3.bpv*", lambda route: held.append(route))
    try:
        page = context.new_page()
        open_ready(page, site_url, "tokenize")
        page.wait_for_selector('#view-tokenize[data-encoded^="cl100k_base:"]', state="attached")
        page.select_option('[data-testid="tokenize-tokenizer"]', "llama3")  # at once, as a reader might
        page.wait_for_selector('[data-testid="model-progress"]:not([hidden])')
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the model's request was not routed"
        page.wait_for_timeout(500)  # (the requests under way when the page asked are given up)
        stored = page.evaluate(_SITE_CACHE_SIZE)
        page.wait_for_timeout(3000)  # unchecked, the precache stores the site in about a second here
        assert page.evaluate(_SITE_CACHE_SIZE) == stored, "the precache stored files while the model downloaded"
        assert page.evaluate("() => document.documentElement.dataset.offlineReady") != "true"
        held[0].continue_()
        page.wait_for_selector('#view-tokenize[data-encoded^="llama3:"]', state="attached", timeout=READY_TIMEOUT)
        _wait_offline_ready(page)
    finally:
        context.close()


# after one visit the default vocabulary (cl100k_base) is cached; these defaults of Compare are not
NOT_CACHED = ["gpt2", "p50k_base", "o200k_base"]


def _label(name: str) -> str:
    """The tokenizer's label, as bytepair's registry defines it (the menus' label)."""
    from bytepair import registry

    return registry.encoding_info(name)["label"]


def test_offline_each_tokenizer_not_downloaded_says_so_by_its_label_and_the_others_count(browser, site_url):
    """Tester 3, s5: offline, Compare showed one error (gpt2's, by its id, "choose it again") and
    counted nothing; Chat's default format named "o200k_base"; the menus did not say what works."""
    context = _context(browser)
    try:
        page = context.new_page()
        open_ready(page, site_url, "tokenize")  # (Compare would download its defaults)
        _wait_offline_ready(page)
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        en = catalog("en")["messages"]
        said = {n: en["error.offline.named"]["text"].replace("{name}", _label(n)) for n in NOT_CACHED}
        # on a phone, the error of a tokenizer picked from the menu is scrolled into sight (fresh
        # tester 4: it stood below the fold, and the tap seemed to do nothing)
        size = page.viewport_size
        page.set_viewport_size({"width": 390, "height": 844})
        page.select_option('[data-testid="tokenize-tokenizer"]', "gpt2")
        error = page.locator('[data-testid="tokenize-error"]')
        wait_text(error, [said["gpt2"]], timeout=60_000)
        box = error.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844, box
        page.select_option('[data-testid="tokenize-tokenizer"]', "cl100k_base")
        page.set_viewport_size(size)
        page.click('[data-view="compare"]')
        marked = {n: en["tokenizer.not_downloaded"]["text"].replace("{label}", _label(n)) for n in NOT_CACHED}

        # the menus mark what is not here, and only that
        page.wait_for_function(
            "(want) => want.every(([n, text]) => document.querySelector("
            '`[data-testid="compare-tokenizers"] input[value="${n}"]`)?.nextElementSibling?.textContent === text)',
            arg=list(marked.items()),
        )
        shown = page.eval_on_selector(
            '[data-testid="compare-tokenizers"] input[value="cl100k_base"] + span', "s => s.textContent"
        )
        assert shown == _label("cl100k_base")
        options = page.eval_on_selector_all(
            '[data-testid="tokenize-tokenizer"] option',
            "os => Object.fromEntries(os.map((o) => [o.value, o.textContent]))",
        )
        assert {n: options[n] for n in NOT_CACHED} == marked and options["cl100k_base"] == _label("cl100k_base")

        # Compare: one sentence naming every tokenizer not downloaded, in the menu's order (fresh
        # tester 4: one line each made a wall of near-identical sentences), and cl100k_base still counted
        page.click('[data-testid="compare-button"]')
        item = page.locator('[data-testid="compare-missing-item"]')
        item.wait_for()
        asked = page.eval_on_selector_all(
            '[data-testid="compare-tokenizers"] input:checked', "is => is.map((i) => i.value)"
        )
        missing = [n for n in asked if n in NOT_CACHED]
        assert sorted(missing) == sorted(NOT_CACHED), asked
        # (the list in English as the browser's Intl.ListFormat joins it: "A, B, and C")
        names = page.evaluate(
            "(labels) => new Intl.ListFormat('en', {type: 'conjunction'}).format(labels)", [_label(n) for n in missing]
        )
        assert item.count() == 1
        assert item.get_attribute("data-tokenizers") == " ".join(missing)
        wait_text(item, [en["error.offline.many"]["text"].replace("{names}", names)])
        page.wait_for_function("() => document.querySelector('#view-compare').dataset.compared > 0")
        heads = page.eval_on_selector_all(
            '[data-testid="compare-table"] th.group[colspan]', "ths => ths.map((t) => t.textContent)"
        )
        assert heads == [_label("cl100k_base")]
        res = page.evaluate(
            "([t, names]) => window.bytepair.compare([{key: 'x', text: t}], names, {partial: true})"
            ".then((r) => ({counts: r.counts, failed: Object.fromEntries(Object.entries(r.failed)"
            ".map(([n, e]) => [n, [e.type, e.detail.name]]))}))",
            [TEXT, ["gpt2", "cl100k_base"]],
        )
        assert res["counts"] == {
            "cl100k_base": {"x": [len(tiktoken_for("cl100k_base").encode(TEXT)), len(TEXT.encode())]}
        }
        assert res["failed"] == {"gpt2": ["offline", "gpt2"]}

        # Chat's default format (ChatML on o200k_base), marked in the menu, and the error under the
        # menu naming the format as the menu does (fresh tester 4: on a phone the error stood screens
        # below the menu, and gpt-oss's harmony format was named "GPT-4o", the file it reads)
        page.click('[data-view="chat"]')
        suffix = marked["o200k_base"].removeprefix(_label("o200k_base"))
        for value in ("chatml-o200k", "harmony"):
            page.select_option('[data-testid="chat-format"]', value)
            option = page.eval_on_selector('[data-testid="chat-format"] option:checked', "o => o.textContent")
            assert option.endswith(suffix), option
            want = en["error.offline.named"]["text"].replace("{name}", option.removesuffix(suffix))
            wait_text(page.locator('[data-error-for="chat-format"]'), [want], timeout=60_000)
            assert page.is_hidden('[data-error-for="chat"]')

        # online again: no mark, and no choice was ever disabled
        context.set_offline(False)
        page.wait_for_function(
            '(want) => document.querySelector(\'[data-testid="tokenize-tokenizer"] option[value="gpt2"]\')'
            ".textContent === want",
            arg=_label("gpt2"),
        )
        assert (
            page.eval_on_selector_all(
                "option:disabled, [data-testid=compare-tokenizers] input:disabled", "e => e.length"
            )
            == 0
        )
    finally:
        context.close()


def _an_open_model(page) -> str:
    """The first open model in Tokenize's list (any model's file is not downloaded yet)."""
    return page.eval_on_selector(
        '[data-testid="tokenize-tokenizer"] optgroup:not([label="OpenAI"]) option', "o => o.value"
    )


def _navigations(page) -> list[str]:
    """The URLs of the page's top-level document requests (navigations and reloads), as they come."""
    seen = []
    page.on(
        "request",
        lambda req: req.is_navigation_request() and req.frame.parent_frame is None and seen.append(req.url),
    )
    return seen


def test_a_host_without_headers_reloads_at_most_once_on_the_first_visit(browser):
    """GitHub Pages cannot send COOP/COEP: the service worker adds them. The first visit reloads
    once (when the worker first controls the page), the second not at all."""
    from tests.site_server import served_site

    context = _context(browser)
    try:
        with served_site(isolate=False) as (url, _dist):
            page = context.new_page()
            loads = _navigations(page)
            page.goto(url + "#tokenize")
            page.wait_for_function("() => window.crossOriginIsolated === true", timeout=READY_TIMEOUT)
            wait_ready(page)
            _wait_offline_ready(page)
            assert page.evaluate("async () => (await window.bytepair.ready).isolated") is True
            # the navigation and one reload (isolation needs one: the first load had no worker)
            assert len(loads) == 2, loads

            second = context.new_page()
            loads2 = _navigations(second)
            second.goto(url + "#tokenize")
            wait_ready(second)
            assert second.evaluate("() => window.crossOriginIsolated") is True
            assert second.evaluate("async () => (await window.bytepair.ready).isolated") is True
            assert len(loads2) == 1, loads2
    finally:
        context.close()


def _frame(page, testid: str):
    return page.locator(f'iframe[data-testid="{testid}"]').element_handle().content_frame()


def _compared(frame) -> None:
    frame.wait_for_function("() => document.querySelector('#view-compare').dataset.compared > 0", timeout=READY_TIMEOUT)


def test_a_course_page_with_embeds_works_offline_after_one_visit(browser, site_url):
    """The embeds register the same worker: one cache for the origin. What the first visit fetched
    before the worker served anything (the course page, Compare's vocabularies and samples) is
    taken into it from the HTTP cache, so the course page reloads offline."""
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(site_url + "examples/course.html")
        compare, steps = _frame(page, "compare-frame"), _frame(page, "steps-frame")
        for frame in (compare, steps):
            wait_ready(frame)
        _compared(compare)
        # ask once more now that Compare has fetched its files (a page asks when it is ready)
        assert (
            compare.evaluate(
                "() => navigator.serviceWorker.ready.then((r) => new Promise((resolve) => {"
                "  navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data.type), {once: true});"
                "  r.active.postMessage({type: 'precache'}); }))"
            )
            == "precached"
        )

        context.set_offline(True)
        page.reload()
        compare, steps = _frame(page, "compare-frame"), _frame(page, "steps-frame")
        for frame in (compare, steps):
            wait_ready(frame)
            assert frame.evaluate("() => navigator.serviceWorker.controller !== null")
        _compared(compare)
        steps.wait_for_function("() => (document.querySelector('#view-steps').dataset.learned || '').endsWith(':10')")
    finally:
        context.close()


def test_a_new_build_switches_caches_whole_and_deletes_the_old_one(browser, site_url, tmp_path):
    """A new build's sw.js (here: the same files under another build id) installs beside the old
    worker, waits while a page of the old build is open, which then offers "Reload" (issue 20);
    the reload activates it, and it leaves one cache: its own."""
    import os
    import re
    import shutil
    import threading

    from tests.e2e.helpers import DIST
    from tools.serve import make_server, server_url

    site = tmp_path / "site"  # web/dist, built by the site_url fixture
    shutil.copytree(DIST, site, copy_function=os.link)  # hard links: the sw.js is replaced, not edited
    server = make_server("127.0.0.1", 0, directory=site, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = _context(browser)
    caches = "() => caches.keys().then((k) => k.filter((n) => n.startsWith('bytepair-site-')).sort())"
    try:
        url = server_url(server)
        page = context.new_page()
        open_ready(page, url, "tokenize")
        _wait_offline_ready(page)
        page.reload()  # a second visit: now the page of the old build is served by its worker
        wait_ready(page)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        old_id = re.search(r'"build_id":"([0-9a-f]+)"', (site / "sw.js").read_text(encoding="utf-8")).group(1)
        assert page.evaluate(caches) == [f"bytepair-site-{old_id}"]

        new_id = "0123456789abcdef"
        text = (site / "sw.js").read_text(encoding="utf-8").replace(old_id, new_id)
        for name in ("sw.js", "sw.js.br", "sw.js.gz"):
            (site / name).unlink(missing_ok=True)
        (site / "sw.js").write_text(text, encoding="utf-8")
        # the old build's page is open: the new worker precaches, then waits
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_function(
            "() => navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)", timeout=READY_TIMEOUT
        )
        # both caches (read until they show: under load on CI, the page once read the old one alone
        # just after the new worker was waiting; passed 5 of 5 runs alone)
        both = ",".join(sorted([f"bytepair-site-{old_id}", f"bytepair-site-{new_id}"]))
        page.wait_for_function(f"() => ({caches})().then((k) => k.join() === {both!r})", timeout=READY_TIMEOUT)
        # the open page says a new version is ready; Reload lets the new worker take over and
        # reloads the page whole (never a page of one build served by the other's worker)
        page.wait_for_selector('[data-testid="update-prompt"]', state="visible")
        assert page.evaluate("() => document.documentElement.dataset.update") == "ready"
        with page.expect_navigation():
            page.click('[data-testid="update-reload"]')
        page.wait_for_function(
            "(c) => caches.keys().then((k) => k.filter((n) => n.startsWith('bytepair-site-')).join() === c)",
            arg=f"bytepair-site-{new_id}",
            timeout=READY_TIMEOUT,
        )
        wait_ready(page)
        set_text(page, "tokenize-text", TEXT)
        assert _count_on_screen(page, "cl100k_base") == len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
    finally:
        context.close()
        server.shutdown()
        server.server_close()


# how a browser can go without service workers: Playwright's "block" (register() resolves with no
# registration), a register() that rejects (a privacy setting), no navigator.serviceWorker at all
NO_WORKER = {
    "blocked": ({"service_workers": "block"}, None, "unavailable"),
    "refused": (
        {},
        "ServiceWorkerContainer.prototype.register = () => Promise.reject(new DOMException('denied', 'SecurityError'));",
        "unavailable",
    ),
    "missing": (
        {},
        "Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: () => undefined });",
        "unsupported",
    ),
}


@pytest.mark.parametrize("how", sorted(NO_WORKER))
def test_without_service_workers_the_page_works_and_says_offline_use_is_unavailable(browser, site_url, how):
    """Service workers blocked, refused or missing (fresh tester: sw-register.js threw an uncaught
    TypeError on a blocked register()): no uncaught error, Tokenize counts as tiktoken does, and the
    footer says in the page's language (Persian) that offline use is unavailable."""
    options, script, state = NO_WORKER[how]
    context = browser.new_context(**options)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    if script:
        context.add_init_script(script)
    page = context.new_page()
    uncaught = []
    page.on("pageerror", lambda exc: uncaught.append(str(exc)))
    try:
        page.goto(f"{site_url}?lang=fa#tokenize")
        wait_ready(page)
        page.wait_for_function("(s) => document.documentElement.dataset.offlineReady === s", arg=state)
        want = catalog("fa")["messages"]["offline.unavailable"]["text"]
        wait_text(page.locator('[data-testid="offline-save-status"]'), [want])
        assert page.locator('[data-testid="offline-save-row"]').is_visible()
        assert page.locator('[data-testid="offline-save"]').is_hidden()
        set_text(page, "tokenize-text", TEXT)
        n = len(tiktoken_for("cl100k_base").encode_ordinary(TEXT))
        page.wait_for_function(
            "(n) => document.querySelector('#view-tokenize').dataset.encoded === `cl100k_base:${n}`",
            arg=n,
            timeout=READY_TIMEOUT,
        )
        assert uncaught == []
    finally:
        context.close()


@pytest.mark.parametrize("code", ["en", "ur"])
def test_a_start_cut_off_by_the_link_says_so_and_starts_when_the_link_is_back(browser, site_url, code):
    """A phone's connection drops while Python downloads (a tester: the status line turned red with
    "Could not install the Python wheels: … Failed to fetch" in English, and nothing ever retried):
    the status line says in the reader's language what happened and what to do, offers Try again,
    and Python starts by itself once the browser is back online, with the text that was typed."""
    context = _context(browser)
    try:
        cut = _cut_once(context, "**/pyodide.asm.wasm")  # the Python runtime: nothing starts without it
        page = context.new_page()
        uncaught = []
        page.on("pageerror", lambda e: uncaught.append(str(e)))
        page.goto(f"{site_url}?lang={code}#tokenize")
        page.wait_for_selector("body[data-pyodide='error']", state="attached", timeout=READY_TIMEOUT)
        assert cut, "the start's download was not routed"
        want = catalog(code)["messages"]["status.error.start"]["text"]
        assert page.text_content('[data-testid="status-text"]') == want
        # the text is not at fault: no error under it, not marked invalid (a tester saw it outlined red)
        assert page.locator('[data-testid="tokenize-error"]').is_hidden()
        assert page.get_attribute('[data-testid="tokenize-text"]', "aria-invalid") is None
        retry = page.locator('[data-testid="status-retry"]')
        assert retry.is_visible() and retry.text_content().strip() == catalog(code)["messages"]["status.retry"]["text"]
        set_text(page, "tokenize-text", TEXT)
        context.set_offline(True)
        context.set_offline(False)  # the browser's "online" event: the page starts Python again
        wait_ready(page)
        assert page.input_value('[data-testid="tokenize-text"]') == TEXT
        page.wait_for_selector("#view-tokenize[data-encoded^='cl100k_base:']", state="attached", timeout=READY_TIMEOUT)
        assert not page.locator('[data-testid="status-retry"]').is_visible()
        assert uncaught == []  # (the failed download is said once, in words: not also thrown)
    finally:
        context.close()
