"""Issue 20, a learner on a phone (leftovers): the first paint, the status line, Save-Data.

* A link's language and view are right from the first paint: boot.js (a classic script in <head>)
  sets <html lang dir>, selects the view the fragment names and words the page from the catalog
  before the page's modules run. Here main.js is held back, so what is checked is what a reader
  sees before the modules arrive (the phone's first seconds).
* While the runtime downloads, the status line says how much of it is here, in bytes, in the
  locale's digits, and what is left only ever shrinks; its total is what the server sends.
* With Save-Data on (or a slow link) the service worker's precache leaves out the memory
  snapshot's megabytes and the page offers "Save for offline (7.6 MB)" instead.
"""

from __future__ import annotations

import json
import re

from tests.e2e.helpers import DIST, READY_TIMEOUT, wait_ready

LOCALES_DIR = DIST / "src" / "locales"


def _catalog(code: str) -> dict:
    return json.loads((LOCALES_DIR / f"{code}.json").read_text(encoding="utf-8"))["messages"]


def _throttle(page, mbit: float = 2.0) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 40, "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": 1e6 / 8},
    )
    return cdp


def _digits(text: str) -> str:
    """Persian and Bengali digits (and the Persian decimal separator) as ASCII, without the bidi
    isolates (U+2068, U+2069) t() puts around a value in a right-to-left sentence."""
    return text.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹০১২৩৪৫৬৭৮৯٫", "01234567890123456789.", "\u2068\u2069"))


def test_an_urdu_tokenize_link_is_urdu_and_tokenize_before_the_modules_load(page, site_url, tmp_path):
    held = {}
    page.route("**/src/main.js", lambda route: held.setdefault("main", route))
    page.route("**/src/locales/ur.json", lambda route: held.setdefault("catalog", route))
    page.goto(site_url + "?lang=ur#tokenize", wait_until="commit")
    page.wait_for_selector("footer", state="attached")
    page.wait_for_function("() => document.readyState !== 'loading'")
    # the catalog is not here yet: the page is Urdu and right-to-left, and nothing English is visible
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["ur", "rtl"]
    assert page.evaluate("() => getComputedStyle(document.body).visibility") == "hidden"
    # the view the link names is selected already
    assert page.is_hidden("#view-train")
    assert page.get_attribute("#tab-tokenize", "aria-selected") == "true"
    page.wait_for_function("() => 'catalog' in window === false")  # (a round trip: the route handler ran)
    held["catalog"].continue_()
    page.wait_for_function("() => !document.documentElement.hasAttribute('data-i18n-pending')")
    page.screenshot(path=str(tmp_path / "first-paint-ur-tokenize.png"))
    assert page.evaluate("() => getComputedStyle(document.body).visibility") == "visible"
    assert page.is_visible("#view-tokenize") and page.is_hidden("#view-train")
    # every visible worded element says what the Urdu catalog says (no English left over)
    ur = _catalog("ur")
    shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-i18n]')]
            .filter((el) => el.checkVisibility())
            .map((el) => [el.dataset.i18n, el.textContent.trim()])"""
    )
    assert len(shown) > 10
    for key, text in shown:
        assert text == ur[key]["text"].strip(), key
    assert page.text_content('[data-testid="status-text"]') == ur["status.starting"]["text"]
    assert page.locator('[data-testid="lang-picker"] option').all_text_contents() == ["اردو"]
    held["main"].continue_()
    wait_ready(page)
    assert page.is_visible("#view-tokenize") and page.evaluate("() => document.documentElement.dir") == "rtl"
    assert page.console_errors == []


def test_boot_chooses_the_locale_and_direction_i18n_chooses(browser, site_url):
    """boot.js keeps its own copy of the six locales' directions and names (it runs before any
    module): each must match i18n.js LOCALES, read here from the module itself."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/src/main.js", lambda route: route.abort())
        page.route("**/src/worker.js", lambda route: route.abort())
        # (?isolate=0: no service worker, whose requests the routes above would not see)
        page.goto(site_url + "?isolate=0#tokenize")
        locales = page.evaluate(
            "async () => (await import('./src/i18n.js')).LOCALES.map((l) => [l.code, l.dir, l.name])"
        )
        assert len(locales) == 6
        for code, direction, name in locales:
            page.goto(site_url + f"?lang={code}&isolate=0#steps")
            page.wait_for_function("() => !document.documentElement.hasAttribute('data-i18n-pending')")
            assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == [
                code,
                direction,
            ]
            assert page.is_visible("#view-steps") and page.is_hidden("#view-train")
            # the language menu names the locale in itself, not "English"
            assert page.locator('[data-testid="lang-picker"] option').all_text_contents() == [name]
    finally:
        context.close()


def test_the_status_line_says_how_many_bytes_are_left_in_the_locales_digits(page, site_url):
    page.add_init_script(
        """(() => {
          window.statusSeen = [];
          new MutationObserver(() => {
            const el = document.querySelector('[data-testid="status-text"]');
            const text = el && el.textContent;
            if (text && window.statusSeen.at(-1) !== text) window.statusSeen.push(text);
            const what = document.querySelector('[data-testid="count-what"]');
            window.countSeen ??= [];
            if (what && what.textContent && window.countSeen.at(-1) !== what.textContent) window.countSeen.push(what.textContent);
          }).observe(document, { subtree: true, childList: true, characterData: true });
        })()"""
    )
    _throttle(page, 2.0)  # below pyboot.js SNAPSHOT_MIN_MBPS: no snapshot, the wheels
    page.goto(site_url + "?lang=fa#tokenize")
    wait_ready(page)
    template = _catalog("fa")["status.download"]["text"]
    pattern = re.escape(template).replace(r"\{loaded\}", "(.+?)").replace(r"\{total\}", "(.+?)") + "$"
    samples = []
    for text in page.evaluate("() => window.statusSeen"):
        m = re.match(pattern, text)
        if m:
            assert not re.search(r"[0-9]", m.group(1) + m.group(2)), text  # Persian digits, as num() gives
            samples.append((float(_digits(m.group(1))), float(_digits(m.group(2)))))
    assert len(samples) >= 5, page.evaluate("() => window.statusSeen")
    left = [round(total - loaded, 1) for loaded, total in samples]
    assert all(b <= a + 0.1 for a, b in zip(left, left[1:])), samples  # (0.1: each figure is rounded)
    assert left[0] > left[-1] + 1
    # nor does the total grow (it starts from the build's brotli sizes, not the unencoded 18 MB)
    totals = [total for _, total in samples]
    assert all(b <= a for a, b in zip(totals, totals[1:])), totals
    # the total is what the server sent: the compressed runtime and standard library, the wheels
    manifest = json.loads((DIST / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    wire = 0
    for rel, size in manifest["boot_bytes"].items():
        br = DIST / (rel + ".br")
        wire += br.stat().st_size if br.exists() else size
    assert abs(samples[-1][1] - wire / 1e6) <= 0.06, (samples[-1], wire)
    # once every byte is here, the line says Python is starting (the runtime's own start takes
    # seconds on a phone; a fresh tester read "4.3 of 4.3 MB" for 9 s with nothing moving), then
    # each step after it, all in the reader's language: no step name reaches the line in English
    fa = _catalog("fa")
    starting = re.escape(fa["status.step.python"]["text"]).replace(r"\{total\}", "(.+?)") + "$"
    seen = page.evaluate("() => window.statusSeen")
    last_download = max(i for i, text in enumerate(seen) if re.match(pattern, text))
    after = seen[last_download + 1 :]
    assert after and re.match(starting, after[0]), seen
    assert float(_digits(re.match(starting, after[0]).group(1))) == samples[-1][1], (after[0], samples[-1])
    worded = {
        fa[k]["text"]
        for k in (
            "status.step.runtime",
            "status.step.install",
            "status.step.playground",
            "status.ready",
            "status.starting",
        )
    }
    # (the first text may be the page's own "Loading…", before the catalog arrives)
    words = seen[1:] if seen[0] == _catalog("en")["status.starting"]["text"] else seen
    assert all(re.match(pattern, text) or re.match(starting, text) or text in worded for text in words), seen
    assert after[-1] == fa["status.ready"]["text"], seen
    # the count under the text box says the same while it waits (the status line has scrolled away
    # on a phone by then), each step in the line's own words, with the statuses' bidi isolates
    waiting = fa["tok.count.waiting"]["text"]
    said = [text.replace("\u2068", "").replace("\u2069", "") for text in page.evaluate("() => window.countSeen")]
    told = {waiting.replace("{status}", text.replace("\u2068", "").replace("\u2069", "")) for text in seen}
    assert len([text for text in said if text in told]) >= 5, said
    assert not any(waiting.split("{status}")[0] in text for text in [page.text_content('[data-testid="count-what"]')])
    assert page.console_errors == []


def test_save_data_leaves_the_snapshot_out_until_the_reader_asks(page, site_url):
    cdp = _throttle(page, 2.0)  # the worker skips the snapshot too: only the precache could fetch it
    cdp.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    page.goto(site_url + "?lang=bn#tokenize")
    wait_ready(page)
    page.wait_for_function(
        "() => ['partial', 'true', 'failed'].includes(document.documentElement.dataset.offlineReady)",
        timeout=READY_TIMEOUT,
    )
    assert page.evaluate("() => document.documentElement.dataset.offlineReady") == "partial"
    manifest = json.loads((DIST / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    snap = manifest["snapshot"]
    cached = "(f) => caches.match(new URL(f, location.href).href).then((r) => !!r)"
    assert page.evaluate(cached, snap["file"]) is False
    assert not any("/snapshot/" in u for u in page.requested_urls)
    # offered in the reader's language and digits
    bn = _catalog("bn")
    size = f"{snap['bytes'] / 1e6:.1f}".translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))
    button = page.locator('[data-testid="offline-save"]')
    assert button.text_content() == bn["offline.save"]["text"].replace("{size}", size)
    assert page.text_content('[data-testid="offline-save-status"]') == bn["offline.save.hint"]["text"]
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    button.click()
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=READY_TIMEOUT)
    assert page.evaluate(cached, snap["file"]) is True
    assert page.text_content('[data-testid="offline-save-status"]') == bn["offline.saved"]["text"]
    assert page.is_hidden('[data-testid="offline-save"]')
    assert page.console_errors == []
