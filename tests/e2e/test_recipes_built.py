"""The course-page recipes of docs/EMBED.md built by the real tools (issue 19, part 3): the
MkDocs Material example (web/examples/mkdocs, a Bangla lesson) and the Sphinx example
(web/examples/sphinx, an Urdu lesson, through its tiny ``bytepair-widget`` directive) are built
with ``mkdocs build`` and ``sphinx-build`` into a temp dir, from a copy whose widget address points
at the local playground. The built site is served on ``localhost``, the playground on
``127.0.0.1`` (two sites, as in real use), and each lesson is opened in Chromium (a profile that
allows third-party storage, so widgets may share a runtime).

Checked on each built page: the tool kept the three widgets (Train, Compare, Step through); each
creates its iframe when scrolled to, becomes ready, and its iframe's height equals its content;
the three share ONE runtime and the wasm is fetched once; Train shows the author's text and
settings; Compare shows the configured tokenizers with counts equal to tiktoken's for each line
of the author's text; the widget that sets ``lang`` shows the playground's shell in that language
(``<html lang>`` and the status line worded from that locale's catalog; the Train view itself is
not localized yet). A tool that is not installed skips its test with what to install.

The Quarto example (web/examples/quarto, a Persian lesson) cannot be built by Quarto here (no
package registry has its binary): its shortcode extension runs under pandoc's Lua
(``quarto_shortcode.lua`` stands in for the two Quarto calls it makes), pandoc writes the page
with the shortcodes' HTML in place and the script in its head, and the page gets the same checks.
"""

from __future__ import annotations

import contextlib
import html.parser
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.e2e.helpers import (
    ROOT,
    lz_compress,
    storage_allowed_context,
    tiktoken_for,
    wait_frame_fits,
    wait_ready,
)
from tools.buildutil import pyodide_site_dir

EXAMPLES = ROOT / "web" / "examples"
PLACEHOLDER = "https://example.org/bytepair/"  # the playground's address written in the examples
LOCALES = ROOT / "web" / "src" / "locales"


@contextlib.contextmanager
def _serve(directory, *, isolate: bool):
    """``directory`` served on 127.0.0.1 (a free port); yields the server."""
    from tools.serve import make_server

    server = make_server("127.0.0.1", 0, directory=directory, quiet=True, isolate=isolate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def playground(site_url):
    """The built playground (site_url builds web/dist) on http://127.0.0.1:PORT/, with request counts."""
    from tools.buildutil import DIST
    from tools.serve import server_url

    with _serve(DIST, isolate=True) as server:
        yield server, server_url(server)


def _copy_pointing_at(example: str, tmp_path, url: str, config: str):
    """A copy of web/examples/<example> whose ``config`` file names the playground at ``url``."""
    src = tmp_path / f"{example}-src"
    shutil.copytree(EXAMPLES / example, src, ignore=shutil.ignore_patterns("__pycache__"))
    cfg = src / config
    text = cfg.read_text(encoding="utf-8")
    assert PLACEHOLDER in text, f"{config} of the {example} example no longer names {PLACEHOLDER}"
    cfg.write_text(text.replace(PLACEHOLDER, url), encoding="utf-8")
    return src


def _build(cmd: list[str], what: str) -> float:
    """Run a site build; returns its seconds (printed, for the report)."""
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, f"{what} failed:\n{out.stdout}\n{out.stderr}"
    took = time.monotonic() - start
    print(f"{what}: {took:.1f} s")
    return took


def _need(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{package} is not installed: pip install -e '.[test]' (or pip install {package})")


def _ready(frame) -> dict:
    wait_ready(frame, polling=200)
    return frame.evaluate("async () => (await window.bytepair.ready).runtime")


def _check_lesson(browser, tmp_path, server, lesson_url: str, lang: str) -> None:
    """Open the built lesson and check its three widgets (see the module's docstring)."""
    enc = {name: tiktoken_for(name) for name in ("gpt2", "o200k_base")}
    ready_text = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["messages"]["status.ready"]["text"]
    wasm = f"/{pyodide_site_dir()}/pyodide.asm.wasm"
    before = server.hits[wasm]
    context = storage_allowed_context(browser, tmp_path / "profile", viewport={"width": 1000, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(lesson_url)
        widgets = page.locator("bytepair-widget")
        assert [widgets.nth(i).get_attribute("view") for i in range(widgets.count())] == ["train", "compare", "steps"]
        runtimes = []
        frames = {}
        for i, view in enumerate(("train", "compare", "steps")):
            widget = widgets.nth(i)
            widget.scroll_into_view_if_needed()
            widget.locator("iframe").wait_for(state="attached")
            frames[view] = widget.locator("iframe").element_handle().content_frame()
            runtimes.append(_ready(frames[view]))

        # Train: the author's text and settings; the shell in the lesson's language
        train, text = frames["train"], widgets.nth(0).get_attribute("text")
        assert text and frames["train"].input_value('[data-testid="train-text"]') == text
        assert train.input_value('[data-testid="train-vocab"]') == widgets.nth(0).get_attribute("v")
        assert widgets.nth(0).get_attribute("lang") == lang
        assert train.evaluate("() => document.documentElement.lang") == lang
        assert train.text_content('[data-testid="status-text"]') == ready_text

        # Compare: the configured tokenizers, counting each line of the author's text as tiktoken does
        cmp, lines = frames["compare"], widgets.nth(1).get_attribute("text").split("\n")
        toks = widgets.nth(1).get_attribute("tok").split(",")
        assert len(lines) == 2 and sorted(toks) == ["gpt2", "o200k_base"]
        widgets.nth(1).scroll_into_view_if_needed()  # an off-screen cross-site frame gets no animation frames (draws)
        cmp.wait_for_function("() => document.querySelector('#view-compare').dataset.compared === '4'", polling=200)
        for name in toks:
            shown = cmp.evaluate(
                """(t) => [...document.querySelectorAll(`td[data-metric="tokens"][data-tokenizer="${t}"]`)]
                          .map((td) => Number(td.dataset.value))""",
                name,
            )
            want = [len(enc[name].encode_ordinary(line.split(" | ", 1)[1])) for line in lines]
            assert sorted(shown) == sorted(want), name

        # one runtime for the three widgets, the wasm fetched once; heights follow the content
        assert all(r["shared"] for r in runtimes), runtimes
        assert len({r["id"] for r in runtimes}) == 1, runtimes
        assert server.hits[wasm] - before == 1
        for i in range(3):
            widgets.nth(i).scroll_into_view_if_needed()
            wait_frame_fits(widgets.nth(i).locator("iframe"))
    finally:
        context.close()
    assert errors == []


def test_mkdocs_material_lesson(browser, playground, tmp_path):
    _need("mkdocs", "mkdocs")
    _need("material", "mkdocs-material")
    server, url = playground
    src = _copy_pointing_at("mkdocs", tmp_path, url, "mkdocs.yml")
    out = tmp_path / "mkdocs-site"
    _build([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(src / "mkdocs.yml"), "-d", str(out)], "mkdocs")
    with _serve(out, isolate=False) as course:
        _check_lesson(browser, tmp_path, server, f"http://localhost:{course.server_address[1]}/index.html", "bn")


def test_sphinx_lesson(browser, playground, tmp_path):
    _need("sphinx", "sphinx")
    server, url = playground
    src = _copy_pointing_at("sphinx", tmp_path, url, "conf.py")
    out = tmp_path / "sphinx-site"
    _build([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(out)], "sphinx-build")
    with _serve(out, isolate=False) as course:
        _check_lesson(browser, tmp_path, server, f"http://localhost:{course.server_address[1]}/index.html", "ur")


#: A shortcode on a line of its own, as the Quarto example writes them: {{< name args >}}
SHORTCODE = re.compile(r"^\{\{<\s*([\w-]+)\s*(.*?)\s*>\}\}$", re.M)


def _pandoc() -> str:
    _need("pypandoc", "pypandoc-binary")
    import pypandoc

    return pypandoc.get_pandoc_path()


def _quarto_page(src, out, pandoc: str, *, widgets: int = 3) -> None:
    """index.qmd of the Quarto example ``src`` as ``out``/index.html: its shortcodes run by the
    extension under pandoc's Lua, in place of Quarto (see the module's docstring)."""
    qmd = (src / "index.qmd").read_text(encoding="utf-8")
    config = (src / "_quarto.yml").read_text(encoding="utf-8")
    js = re.search(r"^bytepair-widget-js:\s*(\S+)$", config, re.M).group(1)
    calls = []
    for name, argtext in SHORTCODE.findall(qmd):
        words = shlex.split(argtext)  # (Quarto's own splitting: words, and key="value" in quotes)
        args = [w for w in words if "=" not in w]
        kwargs = dict(w.split("=", 1) for w in words if "=" in w)
        calls.append({"name": name, "args": args, "kwargs": kwargs})
    assert len(calls) == widgets
    spec = out / "calls.json"
    spec.write_text(json.dumps({"meta": {"bytepair-widget-js": js}, "calls": calls}), encoding="utf-8")
    ext = src / "_extensions" / "bytepair" / "bytepair.lua"
    run = subprocess.run(
        [pandoc, "lua", str(ROOT / "tests" / "e2e" / "quarto_shortcode.lua"), str(ext), str(spec)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout)
    assert len(made["header"]) == 1  # one script for the page's widgets
    (out / "header.html").write_text(made["header"][0], encoding="utf-8")
    count = iter(range(len(calls)))
    (out / "page.md").write_text(SHORTCODE.sub(lambda m: f"BYTEPAIRWIDGET{next(count)}", qmd), encoding="utf-8")
    _build(
        [pandoc, str(out / "page.md"), "-s", "-t", "html5", "-H", str(out / "header.html"), "-M", "lang=fa",
         "-M", "dir=rtl", "-o", str(out / "index.html")],
        "pandoc",
    )  # fmt: skip
    page = (out / "index.html").read_text(encoding="utf-8")
    for i, markup in enumerate(made["blocks"]):
        assert page.count(f"<p>BYTEPAIRWIDGET{i}</p>") == 1
        page = page.replace(f"<p>BYTEPAIRWIDGET{i}</p>", markup)
    (out / "index.html").write_text(page, encoding="utf-8")


def test_quarto_shortcode_lesson(browser, playground, tmp_path):
    pandoc = _pandoc()
    server, url = playground
    src = _copy_pointing_at("quarto", tmp_path, url, "_quarto.yml")
    out = tmp_path / "quarto-site"
    out.mkdir()
    _quarto_page(src, out, pandoc)
    with _serve(out, isolate=False) as course:
        _check_lesson(browser, tmp_path, server, f"http://localhost:{course.server_address[1]}/index.html", "fa")


class _Widgets(html.parser.HTMLParser):
    """The attributes of each <bytepair-widget> of a page, and the src of its module scripts."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.widgets: list[dict] = []
        self.scripts: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag == "bytepair-widget":
            self.widgets.append(dict(attrs))
        elif tag == "script" and ("type", "module") in attrs:
            self.scripts.append(dict(attrs)["src"])


def test_the_embed_dialogs_sphinx_and_quarto_forms_make_its_element(page, site_url, tmp_path):
    """The Embed dialog writes the element for a page built with HTML or Markdown, and the directive
    and the shortcode for Sphinx and Quarto: built with Sphinx and with the shortcode under pandoc,
    those two give the same element and script as the first, and the extensions their comments
    point to are served with the site."""
    _need("sphinx", "sphinx")
    pandoc = _pandoc()
    page.goto(f"{site_url}#train?v=300&p=gpt2&name=lesson&t={lz_compress('low lower newest widest')}")
    wait_ready(page)
    page.click('[data-testid="embed-button"]')
    page.select_option('[data-testid="embed-theme"]', "dark")
    forms = {}
    for form in ("html", "sphinx", "quarto"):
        page.select_option('[data-testid="embed-form"]', form)
        forms[form] = page.input_value('[data-testid="embed-widget-snippet"]')
    want = _Widgets(forms["html"])
    assert len(want.widgets) == 1 and want.scripts == [f"{site_url}widget.js"]
    assert {"view": "train", "v": "300", "p": "gpt2", "name": "lesson", "theme": "dark"}.items() <= want.widgets[
        0
    ].items()

    # Sphinx: a project with the example's extension, the snippet as the page's body
    src = tmp_path / "sphinx-src"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(EXAMPLES / 'sphinx' / '_ext')!r})\nextensions = ['bytepair_widget']\n"
        f"bytepair_widget_js = {want.scripts[0]!r}\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text(f"Lesson\n======\n\n{forms['sphinx']}\n", encoding="utf-8")
    out = tmp_path / "sphinx-site"
    _build([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(out)], "sphinx-build")
    built = _Widgets((out / "index.html").read_text(encoding="utf-8"))
    assert built.widgets == want.widgets and want.scripts[0] in built.scripts

    # Quarto: the example's extension, the snippet as the page, the address its comment names
    src = tmp_path / "quarto-src"
    shutil.copytree(EXAMPLES / "quarto" / "_extensions", src / "_extensions")
    js = re.search(r"bytepair-widget-js: (\S+)", forms["quarto"]).group(1)
    (src / "_quarto.yml").write_text(f"bytepair-widget-js: {js}\n", encoding="utf-8")
    (src / "index.qmd").write_text(f"# Lesson\n\n{forms['quarto']}\n", encoding="utf-8")
    out = tmp_path / "quarto-site"
    out.mkdir()
    _quarto_page(src, out, pandoc, widgets=1)
    built = _Widgets((out / "index.html").read_text(encoding="utf-8"))
    assert built.widgets == want.widgets and built.scripts == want.scripts

    # the extensions the comments point to: the site serves them
    served = re.findall(r"(https?://\S+?\.(?:py|yml|lua))\b", forms["sphinx"] + forms["quarto"])
    assert len(served) == 3, served
    for url in served:
        local = EXAMPLES / url.split("/examples/", 1)[1]
        with urllib.request.urlopen(url) as response:
            assert response.read() == local.read_bytes(), url
