"""Shared helpers of the Playwright end-to-end tests (tests/e2e): one module, so
test files never import each other.

Locales: ``LOCALES_DIR``, :func:`catalog` / :func:`messages` (a locale's catalog),
``DIGIT_ZERO``, :func:`in_digits` / :func:`read_count` (counts in a locale's digits);
axe-core: ``AXE``, ``AXE_TAGS``, :func:`axe_violations` (on a ``csp_free_page``,
the fixture of conftest.py).

Constants: ``ROOT``, ``DIST`` (the built ``web/dist``), ``CHROMIUM`` and
``CHROMIUM_ARGS`` (from ``tools/buildutil.py``, shared with the browser
benchmarks), ``DEFAULT_TIMEOUT_MS`` (Playwright's default for actions and
waits), ``READY_TIMEOUT`` (ms until Pyodide is ready).

The page's Content-Security-Policy forbids eval, so every wait_for_function
predicate here is an arrow function, never an expression string.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import subprocess
import threading
import time
import unicodedata

import pytest

from tools.buildutil import CHROMIUM, CHROMIUM_ARGS, DIST, IS_CI, ROOT
from tools.udhr import load_udhr

__all__ = [
    "AXE",
    "AXE_TAGS",
    "DIGIT_ZERO",
    "LOCALES_DIR",
    "axe_violations",
    "catalog",
    "in_digits",
    "messages",
    "read_count",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DEFAULT_TIMEOUT_MS",
    "DIST",
    "IS_CI",
    "READY_TIMEOUT",
    "ROOT",
    "course_server",
    "cross_site",
    "encode_in_page",
    "storage_allowed_context",
    "lz_compress",
    "open_ready",
    "set_text",
    "settle",
    "tiktoken_for",
    "train",
    "udhr_text",
    "unavailable",
    "visible_error",
    "wait_frame_fits",
    "wait_saved",
    "wait_ready",
    "wait_text",
    "wait_training_over",
]

#: Default timeout of Playwright actions and waits in ms (Pyodide needs a few
#: seconds to start; tests pass their own, longer timeouts where they need them).
DEFAULT_TIMEOUT_MS = 60_000
#: How long a page may take to reach Ready (or an error), in ms.
READY_TIMEOUT = 120_000


#: The locale catalogs (web/src/locales/<code>.json).
LOCALES_DIR = ROOT / "web" / "src" / "locales"
#: axe-core, injected into pages whose context bypasses the CSP (``csp_free_page``).
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The WCAG 2.1 A and AA rules of axe-core.
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
#: Zero of each locale's count digits (Intl.NumberFormat defaults as Chromium's CLDR gives them).
DIGIT_ZERO = {"en": "0", "ur": "0", "hi": "0", "hi-Latn": "0", "bn": "\u09e6", "fa": "\u06f0"}


@functools.cache
def _catalog_text(code: str) -> str:
    return (LOCALES_DIR / f"{code}.json").read_text(encoding="utf-8")


def catalog(code: str) -> dict:
    """The locale's whole catalog (``{"locale", "messages", "glossary", ...}``), a fresh copy."""
    return json.loads(_catalog_text(code))


def messages(code: str) -> dict:
    """The locale's messages: ``{key: {"en": source, "text": text or plural forms, ...}}``."""
    return catalog(code)["messages"]


def in_digits(n: int | str, code: str) -> str:
    """``n`` (an int, or ASCII digits with separators, e.g. ``"1,234.5"``) in the locale's count
    digits (:data:`DIGIT_ZERO`; separators kept), each digit checked by Python's ``unicodedata``."""
    zero = ord(DIGIT_ZERO[code])
    out = "".join(chr(zero + int(c)) if c.isdigit() else c for c in str(n))
    assert all(unicodedata.decimal(o) == int(c) for o, c in zip(out, str(n)) if c.isdigit()), (n, code)
    return out


def read_count(shown: str, code: str) -> int:
    """The number a page shows (group separators dropped), its digits checked to be the locale's."""
    digits = [c for c in shown if unicodedata.category(c) == "Nd"]
    assert digits, shown
    zero = ord(DIGIT_ZERO[code])
    assert all(zero <= ord(c) <= zero + 9 for c in digits), (shown, code)
    return int("".join(str(unicodedata.decimal(c)) for c in digits))


def axe_violations(page, root: str | None = None, *, tags=AXE_TAGS, also=frozenset()) -> list[dict]:
    """axe-core's serious and critical violations (and those whose rule id is in ``also``) in the
    element ``root`` (a CSS selector; None: the whole document), as shown now:
    ``[{id, impact, nodes}]`` (``nodes``: up to 5, each its CSS target and the start of its
    failure summary). Injects axe-core once per document; the page's context must bypass the
    CSP (the ``csp_free_page`` fixture). Skips (CI: fails) without ``npm ci``."""
    if not AXE.is_file():
        unavailable(f"{AXE.relative_to(ROOT)} is missing: run `npm ci` (or `python build.py`)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async ([root, tags]) => {
          const r = await axe.run(root ? document.querySelector(root) : document, { runOnly: { type: 'tag', values: tags } });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160)) }));
        }""",
        [root, list(tags)],
    )
    return [v for v in found if v["impact"] in ("serious", "critical") or v["id"] in also]


def unavailable(reason: str) -> None:
    """Skip the test because a prerequisite is missing; under ``CI=true`` fail it instead."""
    if IS_CI:
        pytest.fail(f"{reason} (CI=true: a missing prerequisite is a failure)")
    pytest.skip(reason)


def require_modules(*names: str) -> None:
    """Import each module of ``names`` (e.g. ``"anywidget"``); :func:`unavailable` for the first
    missing one, naming the install command."""
    for name in names:
        try:
            __import__(name)
        except ImportError:
            unavailable(f"{name} is missing: pip install -e '.[test]'")


def wait_ready(target, *, polling: int | str = "raf") -> None:
    """Wait until the page (or frame) ``target`` has booted Pyodide; fail (AssertionError) with the
    status text on an error or after ``READY_TIMEOUT`` ms. ``polling``: Playwright's (ms, or "raf":
    on animation frames); a frame of an embed or widget wants ms, as a cross-site frame out of view
    gets no animation frames."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        target.wait_for_function(
            "() => ['ready', 'error'].includes(document.body?.dataset.pyodide)", timeout=READY_TIMEOUT, polling=polling
        )  # body is null while a reloading page is still in its <head>
    except PlaywrightTimeoutError:
        status = target.evaluate(
            "() => [document.body?.dataset.pyodide, document.querySelector('.status')?.textContent]"
        )
        raise AssertionError(f"{target.url}: not ready: {status}") from None
    assert target.evaluate("() => document.body.dataset.pyodide") == "ready", target.text_content(
        '[data-testid="status-text"]'
    )


def open_ready(page, site_url: str, view: str = "train") -> None:
    """Open the playground at ``#view`` and wait until it is ready."""
    page.goto(site_url + ("" if view == "train" else f"#{view}"))
    wait_ready(page)


def tiktoken_for(name: str):
    """tiktoken's Encoding for ``name``, built offline from bytepair's rank files (skips without tiktoken;
    built once a process: tests.reference.tiktoken_for)."""
    from tests.reference import tiktoken_for as cached

    return cached(name)


def udhr_text(codes) -> str:
    """The UDHR texts of ``codes`` (udhr file codes), newline-joined."""
    d = load_udhr()
    return "\n".join(d[c].text for c in codes)


def udhr_mix(n: int) -> str:
    """The first ``n`` characters of every UDHR text, newline-joined, repeated as needed (5.5 M
    characters before it repeats, mostly distinct words: a cold encode, few cache hits)."""
    d = load_udhr()
    base = "\n".join(d[c].text for c in sorted(d))
    return (base * (n // len(base) + 1))[:n]


def load_file_error(page, name: str, data: bytes, mime: str = "application/json") -> str:
    """Hand Tokenize's "load a tokenizer file" input one file (``name``, its ``data`` *bytes*,
    ``mime``), wait for the error it shows, and return that error's text."""
    page.set_input_files(
        '[data-testid="load-tokenizer-file"]', files=[{"name": name, "mimeType": mime, "buffer": data}]
    )
    page.wait_for_selector('[data-error-for="loadfile"]:not(:empty)')
    return page.text_content('[data-error-for="loadfile"]')


def wait_counted(page, tokenizer: str, n: int, *, timeout: int = 600_000) -> None:
    """Wait until Tokenize has counted its text with ``tokenizer`` (an encoding or model name) to
    ``n`` tokens, or shows an error (after at most ``timeout`` ms); assert that it shows no error
    and the count ``n``."""
    page.wait_for_function(
        """(want) => document.querySelector('#view-tokenize').dataset.encoded === want
          || document.querySelector('[data-testid="tokenize-error"]').textContent.trim() !== ''""",
        arg=f"{tokenizer}:{n}",
        timeout=timeout,
    )
    error = page.text_content('[data-testid="tokenize-error"]').strip()
    assert not error, error
    assert page.text_content('[data-testid="count-tokens"]') == f"{n:,}"


def chat_while_counting(page, content: str) -> dict:
    """Send a one-message Chat count (``chatml-o200k``) while Tokenize counts a large text.

    Returns:
        ``{ids, want_ids, ms, counting, shown}``: the ids the page gave and gpt-tokenizer's
        (the reference), the call's time in ms, whether Tokenize was still counting when the
        answer came (its ``data-encoded`` not yet set) and the count shown then.
    """
    from tests.reference.openai_chat_refs import gpt_tokenizer_encode_chat

    messages = [{"role": "user", "content": content}]
    (want_ids,) = gpt_tokenizer_encode_chat([{"model": "gpt-4o", "messages": messages}])
    got = page.evaluate(
        """async (messages) => {
        const t = performance.now();
        const r = await window.bytepair.chat(messages, "chatml-o200k");
        return { ids: r.ids, ms: performance.now() - t,
                 counting: !document.querySelector('#view-tokenize').dataset.encoded,
                 shown: document.querySelector('[data-testid="count-tokens"]').textContent };
    }""",
        messages,
    )
    return {**got, "want_ids": want_ids}


def set_text(page, testid: str, text: str) -> None:
    """Put text in a textarea as a paste would (page.fill types MBs too slowly)."""
    page.locator(f'[data-testid="{testid}"]').evaluate(
        "(el, text) => { el.value = text; el.dispatchEvent(new Event('input', { bubbles: true })); }", text
    )


def paste(page, testid: str, text: str) -> None:
    """Paste text into a textarea as the browser would (a ClipboardEvent with the text; it
    replaces the selection, i.e. what the box held): views that keep large pastes out of
    their textarea (web/src/largetext.js) see it as a user's paste."""
    page.locator(f'[data-testid="{testid}"]').evaluate(
        """(el, text) => {
            el.focus();
            el.select();
            const data = new DataTransfer();
            data.setData('text/plain', text);
            el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        }""",
        text,
    )


def train(page, text: str, vocab: int, *, name: str = "my-bpe", pattern: str = "cl100k_base", wait: bool = True):
    """Fill the Train view and press Train; wait for the end unless ``wait=False``."""
    set_text(page, "train-text", text)
    page.fill('[data-testid="train-vocab"]', str(vocab))
    page.select_option('[data-testid="train-pattern"]', pattern)
    page.fill('[data-testid="train-name"]', name)
    page.get_by_role("button", name="Train", exact=True).click()
    if wait:
        wait_training_over(page)


def wait_training_over(page, timeout=120_000) -> None:
    """Wait until the training run is done or stopped, and its tokenizer stored (a stopped run
    is on screen before it is written to browser storage)."""
    page.wait_for_function(
        """() => ['done', 'stopped'].includes(document.body.dataset.training)
                 && document.body.dataset.trainSaving !== 'true'""",
        timeout=timeout,
    )


def wait_saved(page, key: str, value: str | None = None, *, contains: str | None = None, timeout=30_000) -> None:
    """Wait until the page's browser storage (IndexedDB ``bytepair-playground``, store ``texts``:
    web/src/storage.js; the views save there after a short debounce) holds ``key``: equal to
    ``value``, or containing ``contains``, or (neither given) any text. The signal to wait on
    before a reload that must find what was typed. Raises AssertionError after ``timeout`` ms.

    Polled from Python with ``page.evaluate`` (which awaits the read): ``wait_for_function``
    does not await a predicate's promise, so an async predicate is truthy at once."""
    deadline = time.monotonic() + timeout / 1000
    got = None
    while True:
        got = page.evaluate(_READ_SAVED_TEXT, key)
        if isinstance(got, str) and (
            got == value if value is not None else contains in got if contains is not None else True
        ):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"storage key {key!r} never held the text waited for; last read: {got!r}")
        page.wait_for_timeout(100)  # IndexedDB tells no other connection of a write: polled


#: Reads one record of the page's IndexedDB store ``texts`` (null when the database or key is missing).
_READ_SAVED_TEXT = """async (key) => {
  const db = await new Promise((resolve) => {
    const r = indexedDB.open('bytepair-playground');
    r.onupgradeneeded = () => r.transaction.abort();  // not created by the page yet: leave it
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => resolve(null);
  });
  if (!db) return null;
  try {
    return await new Promise((resolve) => {
      const q = db.transaction('texts', 'readonly').objectStore('texts').get(key);
      q.onsuccess = () => resolve(q.result ?? null);
      q.onerror = () => resolve(null);
    });
  } catch {
    return null;  // no store 'texts' yet
  } finally {
    db.close();
  }
}"""


def encode_in_page(page, text: str, tokenizer: str) -> None:
    """Type ``text`` into Tokenize, pick ``tokenizer``, wait until its count is shown and its token
    chips are drawn (``text`` not empty)."""
    set_text(page, "tokenize-text", text)
    page.select_option('[data-testid="tokenize-tokenizer"]', tokenizer)
    page.wait_for_function(
        """([tok, text]) => (document.querySelector('#view-tokenize').dataset.encoded || '').startsWith(tok + ':')
             && document.querySelector('[data-testid="tokenize-text"]').value === text
             && document.querySelector('[data-testid="token"]') !== null""",
        arg=[tokenizer, text],
        timeout=READY_TIMEOUT,
    )
    settle(page)


def settle(page) -> None:
    """Wait until the views have rendered (they render on animation frames)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


#: The content height a framed page posts to its embedding page, in CSS px (web/src/embedded.js reportHeight).
_CONTENT_HEIGHT = """() => Math.ceil(Math.max(
  document.documentElement.getBoundingClientRect().height, document.body.getBoundingClientRect().height))"""


def wait_frame_fits(iframe, *, timeout=15_000) -> int:
    """Wait until the ``<iframe>`` at locator ``iframe`` is as tall as its document's content
    (within 2 px: the embedding script applied the height the framed page posted) on two reads in a
    row with the same content height, and return the iframe's height in CSS px. Both heights are
    read again on every poll (every 200 ms), so a content that changes during the wait is followed,
    not compared with a stale reading. Raises AssertionError (the last two heights) when the frame
    does not fit within ``timeout`` ms. Polling by interval, from Python: a cross-site frame out of
    view gets no animation frames, and the two heights live in two documents."""
    frame = iframe.element_handle().content_frame()
    deadline = time.monotonic() + timeout / 1000
    fitted = None  # the content height of the previous read, when the frame fitted it
    while True:
        content = frame.evaluate(_CONTENT_HEIGHT)
        box = iframe.evaluate("(el) => el.clientHeight")
        if abs(box - content) <= 2:
            if fitted == content:
                return box
            fitted = content
        else:
            fitted = None
        if time.monotonic() > deadline:
            raise AssertionError(f"the frame never fitted its content: frame {box} px, content {content} px")
        time.sleep(0.2)  # the poll interval (see the docstring)


def wait_text(locator, wants, *, timeout=30_000) -> str:
    """Wait until the element at ``locator`` shows one of the texts ``wants`` (its textContent without
    the bidi isolates U+2068/U+2069 that wording puts around values) and return it. Raises
    AssertionError (the text shown, the texts wanted) after ``timeout`` ms."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    wants = list(wants)
    try:
        locator.page.wait_for_function(
            "([el, wants]) => wants.includes((el.textContent || '').replace(/[\\u2068\\u2069]/g, ''))",
            arg=[locator.element_handle(), wants],
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        shown = (locator.text_content() or "").replace("\u2068", "").replace("\u2069", "")
        raise AssertionError((shown, wants)) from None
    return (locator.text_content() or "").replace("\u2068", "").replace("\u2069", "")


def visible_error(page, testid: str) -> str:
    """The text of the error element ``testid`` once it is visible."""
    loc = page.locator(f'[data-testid="{testid}"]')
    loc.wait_for(state="visible", timeout=30_000)
    return loc.text_content()


def lz_compress(text: str) -> str:
    """lz-string's compressToEncodedURIComponent, run by the npm package (node_modules) in Node.js."""
    script = (
        "let s = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { s += d; });"
        "process.stdin.on('end', () => process.stdout.write(require('lz-string').compressToEncodedURIComponent(s)));"
    )
    out = subprocess.run(["node", "-e", script], input=text.encode(), capture_output=True, cwd=ROOT, check=True)
    return out.stdout.decode()


@contextlib.contextmanager
def course_server(html: str):
    """Serve ``html`` as a course page at ``http://localhost:PORT/lesson.html``: another site than
    the playground's ``127.0.0.1`` (cross-site embeds, issue 19). Yields that URL."""
    body = html.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_address[1]}/lesson.html"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def cross_site(course_html):
    """The playground (``web/dist``) on ``http://127.0.0.1:PORT/``, served with request counts
    (``server.hits``), and a course page from ``course_html(playground_url)`` on ``localhost``:
    two sites, as a course page and the playground are in real use (issue 19). Yields
    ``(server, course_url)``."""
    from tools.serve import make_server, server_url

    server = make_server("127.0.0.1", 0, directory=DIST, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with course_server(course_html(server_url(server))) as course:
            yield server, course
    finally:
        server.shutdown()
        server.server_close()


def storage_allowed_context(browser, profile, **options):
    """A Chromium context whose profile (the directory ``profile``, made here) allows third-party
    cookies and storage (``profile.cookie_controls_mode = 0``), so cross-site embeds may share one
    runtime (issue 19); Playwright's default context blocks them. ``options`` go to
    ``launch_persistent_context`` (e.g. ``viewport``); the default timeout is ``DEFAULT_TIMEOUT_MS``.
    The caller closes the context."""
    import json

    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(json.dumps({"profile": {"cookie_controls_mode": 0}}))
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True, **options
    )
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context
