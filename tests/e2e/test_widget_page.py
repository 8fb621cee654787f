"""``<bytepair-widget>`` on a course page of another site (issue 19, part 2): the course page is
served on ``localhost``, the playground on ``127.0.0.1``; the page loads ``widget.js`` once and
holds three widgets (Tokenize with a plain ``text`` attribute, Compare with a packed ``t``, and
Train below a tall spacer).

Checked: the Train widget has no iframe until the reader scrolls near it (a placeholder with the
view's name instead); the attributes reach the views (Tokenize shows the given tokenizer and text,
and its count equals tiktoken's; Compare's counts equal tiktoken's; Train has the vocab size and
pre-tokenizer); each iframe's height equals its content after it grew; the course page receives
``{subject: "lti.frameResize", height}`` (Canvas) and ``{context: "h5p", action: "resize",
scrollHeight}`` (Moodle's H5P resizer), with the page's height. Storage allowed (a persistent
profile that allows third-party cookies, as test_embeds_cross_site does): the three widgets share
ONE runtime, and the server sees ``pyodide.asm.wasm`` fetched once.
"""

from __future__ import annotations

import pytest

from tests.e2e.helpers import (
    DEFAULT_TIMEOUT_MS,
    course_server,
    cross_site,
    lz_compress,
    storage_allowed_context,
    tiktoken_for,
    wait_frame_fits,
    wait_ready,
)
from tools.buildutil import pyodide_site_dir
from tools.udhr import load_udhr

TOKENIZE_TEXT = "Tokenizers split text into pieces: «Ünïcode» and 東京 too, with emoji 🙂."


def _parallel() -> str:
    d = load_udhr()
    first = lambda code: d[code].text.split("\n")[2]  # noqa: E731 (the preamble's first paragraph)
    return f"Bangla | {first('ben')}\nUrdu | {first('urd')}"


def _course_html(site: str) -> str:
    packed = lz_compress(_parallel())
    attr = lambda s: s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")  # noqa: E731
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson with widgets</title>
<script>
  window.lti = []; window.h5p = [];
  addEventListener("message", (e) => {{
    if (e.data && e.data.subject === "lti.frameResize") window.lti.push(e.data.height);
    if (e.data && e.data.context === "h5p") window.h5p.push([e.data.action, e.data.scrollHeight]);
  }});
</script>
<script type="module" src="{site}widget.js"></script>
</head>
<body style="width:900px">
  <h1>Tokenizers</h1>
  <div><bytepair-widget id="tok" view="tokenize" tok="o200k_base" text="{attr(TOKENIZE_TEXT)}"></bytepair-widget></div>
  <div><bytepair-widget id="cmp" view="compare" src="custom" t="{packed}" tok="gpt2,o200k_base"
       metric="tokens"></bytepair-widget></div>
  <div style="height:4000px">A long lesson.</div>
  <div><bytepair-widget id="train" view="train" text="low lower newest widest" v="300" p="gpt2"
       name="lesson"></bytepair-widget></div>
</body></html>"""


@pytest.fixture(scope="module")
def sites(site_url):
    """(playground server with request counts, course page URL); site_url builds web/dist first."""
    with cross_site(_course_html) as pair:
        yield pair


def _frame(page, wid: str):
    return page.locator(f"#{wid} iframe").element_handle().content_frame()


def _ready(frame) -> dict:
    wait_ready(frame, polling=200)
    assert frame.text_content('[data-testid="status-text"]') == "Ready"
    return frame.evaluate("async () => (await window.bytepair.ready).runtime")


def test_three_widgets_on_a_cross_site_course_page(browser, sites, tmp_path):
    server, course = sites
    enc = {name: tiktoken_for(name) for name in ("gpt2", "o200k_base")}
    wasm = f"/{pyodide_site_dir()}/pyodide.asm.wasm"
    before = server.hits[wasm]
    context = storage_allowed_context(browser, tmp_path / "profile", viewport={"width": 1000, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(course)
        page.locator("#tok iframe").wait_for(state="attached")
        page.locator("#cmp iframe").wait_for(state="attached")

        # Train, far below: a placeholder of the embed's size with the view's name, no iframe yet
        train = page.locator("#train")
        assert train.locator("iframe").count() == 0
        assert "train a BPE tokenizer" in train.locator(".placeholder").text_content()
        assert train.evaluate("(el) => el.getBoundingClientRect().height") == 640

        # Tokenize: the tokenizer and the text from the attributes; the count equals tiktoken's
        tok = _frame(page, "tok")
        runtimes = [_ready(tok)]
        assert "embed=1" in tok.url
        assert tok.input_value('[data-testid="tokenize-tokenizer"]') == "o200k_base"
        assert tok.input_value('[data-testid="tokenize-text"]') == TOKENIZE_TEXT
        want = len(enc["o200k_base"].encode_ordinary(TOKENIZE_TEXT))
        tok.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded", polling=200)
        assert tok.evaluate("() => document.querySelector('#view-tokenize').dataset.encoded") == f"o200k_base:{want}"

        # Compare: the packed text and two tokenizers; counts equal tiktoken's
        page.locator("#cmp").scroll_into_view_if_needed()
        cmp = _frame(page, "cmp")
        runtimes.append(_ready(cmp))
        cmp.wait_for_function("() => document.querySelector('#view-compare').dataset.compared === '4'", polling=200)
        for name in ("gpt2", "o200k_base"):
            shown = cmp.evaluate(
                """(t) => [...document.querySelectorAll(`td[data-metric="tokens"][data-tokenizer="${t}"]`)]
                          .map((td) => Number(td.dataset.value))""",
                name,
            )
            want = [len(enc[name].encode_ordinary(line.split(" | ", 1)[1])) for line in _parallel().split("\n")]
            assert sorted(shown) == sorted(want), name
        assert wait_frame_fits(page.locator("#cmp iframe")) > 640  # it grew past the placeholder's height, and followed

        # Train: scrolled near, its iframe appears, with the settings from the attributes
        page.evaluate("() => window.scrollTo(0, document.querySelector('#train').offsetTop - 900)")
        train.locator("iframe").wait_for(state="attached")
        page.locator("#train").scroll_into_view_if_needed()
        trn = _frame(page, "train")
        runtimes.append(_ready(trn))
        assert trn.input_value('[data-testid="train-text"]') == "low lower newest widest"
        assert trn.input_value('[data-testid="train-vocab"]') == "300"
        assert trn.input_value('[data-testid="train-pattern"]') == "gpt2"

        # one runtime for the three widgets (the wasm fetched once)
        assert all(r["shared"] for r in runtimes), runtimes
        assert len({r["id"] for r in runtimes}) == 1, runtimes
        assert server.hits[wasm] - before == 1

        # heights follow the content; the course page heard the page's height in both forms
        for wid in ("tok", "cmp", "train"):
            page.locator(f"#{wid}").scroll_into_view_if_needed()
            wait_frame_fits(page.locator(f"#{wid} iframe"))
        page.wait_for_function(
            "() => window.lti.at(-1) === Math.ceil(Math.max(document.documentElement.scrollHeight,"
            " document.documentElement.getBoundingClientRect().height))",
            polling=200,
        )
        last = page.evaluate("() => [window.lti.at(-1), window.h5p.at(-1)]")
        assert last[1] == ["resize", last[0]]
        assert last[0] > 4000 + 3 * 640
    finally:
        context.close()
    assert errors == []


def test_the_plain_html_example_page(page, site_url):
    """web/examples/widget.html (a strict Content-Security-Policy: scripts, frames and styles of its
    own origin only): the Tokenize widget shows its tokenizer and text, counted as tiktoken does;
    the widgets further down wait as placeholders; nothing is refused or thrown."""
    enc = tiktoken_for("o200k_base")
    page.set_viewport_size({"width": 1000, "height": 700})
    page.goto(site_url + "examples/widget.html")
    page.locator("bytepair-widget[view=tokenize] iframe").wait_for(state="attached")
    text = page.locator("bytepair-widget[view=tokenize]").get_attribute("text")
    frame = page.locator("bytepair-widget[view=tokenize] iframe").element_handle().content_frame()
    _ready(frame)
    assert frame.input_value('[data-testid="tokenize-tokenizer"]') == "o200k_base"
    assert frame.input_value('[data-testid="tokenize-text"]') == text
    frame.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded", polling=200)
    want = f"o200k_base:{len(enc.encode_ordinary(text))}"
    assert frame.evaluate("() => document.querySelector('#view-tokenize').dataset.encoded") == want
    assert page.locator("bytepair-widget[view=train] iframe").count() == 0
    assert page.locator("bytepair-widget[view=train] .placeholder").is_visible()
    assert page.console_errors == []


def test_the_embed_dialogs_element_snippet_works_on_another_site(page, browser, site_url):
    """The Embed dialog's element snippet, pasted as is into a course page on another site, shows
    the view as it was set up: the tokenizer and text, counted as tiktoken does."""
    text = "Byte-pair encoding, as in GPT-2: ünïcode and 🙂."
    enc = tiktoken_for("gpt2")
    page.goto(site_url + f"#tokenize?tok=gpt2&t={lz_compress(text)}")
    wait_ready(page)
    page.click('[data-testid="embed-button"]')
    page.select_option('[data-testid="embed-theme"]', "dark")
    snippet = page.input_value('[data-testid="embed-widget-snippet"]')
    assert snippet.startswith(f'<script type="module" src="{site_url}widget.js"></script>\n<div><bytepair-widget ')
    assert ' view="tokenize"' in snippet and ' tok="gpt2"' in snippet and ' theme="dark"' in snippet
    assert snippet.endswith("></bytepair-widget></div>")
    html = f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title></head><body>{snippet}</body></html>'
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        with course_server(html) as course:
            lesson = context.new_page()
            lesson.goto(course)
            lesson.locator("bytepair-widget iframe").wait_for(state="attached")
            frame = lesson.locator("bytepair-widget iframe").element_handle().content_frame()
            wait_ready(frame)
            assert "theme=dark" in frame.url
            assert frame.input_value('[data-testid="tokenize-tokenizer"]') == "gpt2"
            assert frame.input_value('[data-testid="tokenize-text"]') == text
            frame.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded", polling=200)
            got = frame.evaluate("() => document.querySelector('#view-tokenize').dataset.encoded")
            assert got == f"gpt2:{len(enc.encode_ordinary(text))}"
    finally:
        context.close()


def test_the_embed_dialog_fits_a_phone_in_urdu(phone_page, site_url):
    """A tester, Urdu at 390 px: the long "Course page built with" choice pushed its label into a
    one-word column and ran out of the dialog (442 px of content in 354). Every choice stays inside
    the dialog, and the label keeps its words on one line."""
    page = phone_page
    page.goto(f"{site_url}?lang=ur#train")
    wait_ready(page)
    page.click('[data-testid="embed-button"]')
    for form in ("html", "sphinx", "quarto"):
        page.select_option('[data-testid="embed-form"]', form)
        fit = page.evaluate("""() => {
            const dialog = document.querySelector('[data-testid="embed-dialog"]');
            const box = dialog.getBoundingClientRect();
            const select = document.querySelector('[data-testid="embed-form"]').getBoundingClientRect();
            const label = document.querySelector('label[for="embed-form"]');
            const lines = label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight);
            return { overflow: dialog.scrollWidth - dialog.clientWidth, inside: select.left >= box.left
                     && select.right <= box.right, lines }; }""")
        assert fit["overflow"] <= 0 and fit["inside"] and fit["lines"] < 1.5, (form, fit)
