"""Fixtures for the Playwright end-to-end tests of the playground (tests/e2e).

* ``site_url`` (session): builds web/dist once with ``build.py`` and serves it
  with build.py's server on a free port of 127.0.0.1 in a background thread;
  the base URL ends with ``/``.
* ``browser`` (session): Debian's Chromium at /usr/bin/chromium, driven by
  Playwright through ``executable_path`` (browser downloads are impossible
  here), headless, with CHROMIUM_ARGS.
* ``page`` (function): a new browser context and page; ``page.console_errors``
  collects console messages of type error and uncaught page errors (worker
  messages included), ``page.requested_urls`` every URL the context requested
  (worker fetches included), in order.
* ``csp_free_page`` (function): a page (1280×800) whose context bypasses the page's
  Content-Security-Policy, so axe-core can be injected as a script tag
  (``helpers.axe_violations``); ``console_errors`` collects uncaught page errors.

Helpers and constants the tests share are in ``tests/e2e/helpers.py``.
Every test in this directory is marked ``e2e``.  Without Chromium or the
playwright package the tests skip, saying why; under CI=true they fail instead.
"""

from __future__ import annotations

import pathlib

import pytest

from tests.e2e.helpers import CHROMIUM, DEFAULT_TIMEOUT_MS
from tests.e2e.helpers import unavailable as _unavailable
from tests.site_server import served_site
from tools.buildutil import launch_chromium


def pytest_collection_modifyitems(config, items):
    here = pathlib.Path(__file__).resolve().parent
    for item in items:
        if here in pathlib.Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def site_url():
    with served_site() as (url, _dist):
        yield url


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing: install it with `sudo apt-get install chromium`")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright Python package is missing: pip install -e '.[test]'")
    with launch_chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    pg = context.new_page()
    pg.console_errors = []
    pg.requested_urls = []

    def on_console(msg):
        if msg.type == "error":
            pg.console_errors.append(msg.text)

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: pg.console_errors.append(f"uncaught: {exc}"))
    # the page's and its workers' requests; not the service worker's own (its precache for
    # offline use, once the page is ready: web/src/sw-core.js)
    context.on("request", lambda req: req.service_worker is None and pg.requested_urls.append(req.url))
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def phone_page(browser):
    """A page in a phone's context: 390×844 CSS px, mobile, a touch screen (no hover)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def csp_free_page(browser):
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    pg = context.new_page()
    pg.console_errors = []
    pg.on("pageerror", lambda exc: pg.console_errors.append(f"uncaught: {exc}"))
    try:
        yield pg
    finally:
        context.close()
