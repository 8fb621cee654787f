"""A notebook with bytepair output and a Train widget, executed by nbclient, its saved output in Chromium.

The notebook runs in a real Jupyter kernel (``python3`` of this environment, bytepair from
this checkout through PYTHONPATH); nbclient saves the outputs and the widgets' state as
Jupyter does. Then, in Chromium with every request but about:/data:/blob: refused: the
saved ``text/html`` output of ``bytepair.show`` shows the coloured tokens (ids equal to
tiktoken's, a ``<script>`` token as text, ``<e0a6>`` fragments), and the Train and
Tokenize widgets' own ES modules (and Compare's, its counts equal to tiktoken's), taken from the saved widget state, draw the saved
merges and tokens on a minimal anywidget model (and send what a click or typing asks).
No request leaves the page. (The widgets inside a running JupyterLab are not tested here.) Skips without nbclient/ipykernel/anywidget (fails under CI=true).
"""

from __future__ import annotations

import os
import pathlib

import pytest

from tests.e2e.helpers import require_modules, tiktoken_for, unavailable

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = "hello <script>alert(1)</script> আমি \x1b[0m 😀"
COMPARE_TEXTS = {
    "Bangla": "সকল মানুষ স্বাধীনভাবে সমান মর্যাদা নিয়ে জন্মগ্রহণ করে।",
    "Urdu": "تمام انسان آزاد پیدا ہوئے ہیں۔",
    "<b>mixed</b>": TEXT,
}

CELLS = [
    "import bytepair\nbytepair.show('cl100k_base', " + repr(TEXT) + ")",
    "from bytepair.widgets import Train\n"
    "w = Train('the cat sat on the mat. ' * 50 + 'আমি বাংলায় গান গাই ' * 20, vocab_size=300, pattern='gpt2')\n"
    "w.start()\nw.wait(60)\nw",
    "print(w.status, w.n_merges, w.tokenizer.encode('the cat'))",
    "from bytepair.widgets import Tokenize\nTokenize(" + repr(TEXT) + ", tokenizer='cl100k_base')",
    "from bytepair.widgets import Compare\nCompare(" + repr(COMPARE_TEXTS) + ", tokenizers=['gpt2', 'o200k_base'])",
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    require_modules("nbclient", "nbformat", "ipykernel", "anywidget")
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from nbclient import NotebookClient

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        unavailable("no python3 Jupyter kernel: pip install ipykernel")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT / "py")] + ([old] if old else []))
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    path = tmp_path_factory.mktemp("nb") / "bytepair.ipynb"
    nbformat.write(nb, path)
    return nbformat.read(path, as_version=4)


def offline(page):
    """Refuse every request but about:, data: and blob:; the refused URLs are collected."""
    refused: list[str] = []

    def handle(route):
        url = route.request.url
        if url.startswith(("about:", "data:", "blob:")):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    page.context.route("**/*", handle)
    return refused


def test_saved_notebook_shows_coloured_tokens_offline(executed, page):
    shown = executed.cells[0].outputs[0]
    assert shown.output_type == "execute_result"
    markup = shown.data["text/html"]
    assert shown.data["text/plain"].startswith("cl100k_base: ")
    refused = offline(page)
    page.set_content(f"<!doctype html><meta charset='utf-8'><body>{markup}</body>")
    chips = page.locator(".bytepair-token")
    enc = tiktoken_for("cl100k_base")
    expected = enc.encode(TEXT)
    assert chips.count() == len(expected)
    info = page.evaluate(
        """() => [...document.querySelectorAll('.bytepair-token')].map((el) => ({
            id: Number(el.dataset.id), text: el.textContent, title: el.title,
            bg: getComputedStyle(el).backgroundColor, w: el.getBoundingClientRect().width }))"""
    )
    assert [t["id"] for t in info] == expected
    # coloured (the six token colours, cycled) and drawn
    assert {t["bg"] for t in info} >= {"rgb(255, 227, 227)", "rgb(211, 249, 216)", "rgb(208, 235, 255)"}
    assert all(t["w"] > 0 for t in info)
    texts = [t["text"] for t in info]
    assert "".join(texts).startswith("hello <script>alert(1)</script>")  # the tokens, as text
    for t, text in zip(expected, texts):  # tiktoken's bytes, where they are whole characters
        b = enc.decode_single_token_bytes(t)
        if b.isascii() and b.decode().isprintable():
            assert text == b.decode()
    assert page.locator("script").count() == 0
    fragments = [enc.decode_single_token_bytes(t) for t in expected]
    assert "<" + fragments[texts.index("<e0a6>")].hex() + ">" == "<e0a6>"
    assert "\u27e8ESC\u27e9[" in "".join(texts)  # U+001B, named as NameAliases.txt abbreviates it
    assert all(t["title"].startswith(f"id {t['id']} · ") for t in info)
    assert refused == [] and page.requested_urls == []


#: A minimal anywidget model over a saved state: get/on/off, and what the view sets and sends.
FAKE_MODEL = """(state) => {
  const handlers = {};
  const model = {
    sets: [], sent: [],
    get: (k) => state[k],
    set(k, v) { this.sets.push([k, v]); },
    save_changes() {},
    on(ev, fn) { (handlers[ev] ??= []).push(fn); },
    off() {},
    send(msg) { this.sent.push(msg); },
  };
  return model;
}"""


def widget_state(executed, cell: int) -> dict:
    view = executed.cells[cell].outputs[-1].data
    model_id = view["application/vnd.jupyter.widget-view+json"]["model_id"]
    states = executed.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return states[model_id]["state"]


def mount(page, state: dict) -> None:
    """Run the widget's own ES module (from the saved state) on a fake model; window.model keeps it."""
    page.set_content("<!doctype html><meta charset='utf-8'><body><div id=host></div></body>")
    page.evaluate(
        """async ([esm, state, fake]) => {
            const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
            const mod = (await import(url)).default;
            window.model = eval(fake)(state);
            mod.render({ model: window.model, el: document.getElementById("host") });
        }""",
        [state["_esm"], state, FAKE_MODEL],
    )


def test_saved_tokenize_widget_draws_its_tokens_offline(executed, page):
    state = widget_state(executed, 3)
    enc = tiktoken_for("cl100k_base")
    assert [r[0] for r in state["tokens"]] == enc.encode(TEXT)
    refused = offline(page)
    mount(page, state)
    info = page.evaluate(
        """() => [...document.querySelectorAll('.bytepair-token')].map((el) => ({
            id: Number(el.dataset.id), text: el.textContent, bg: getComputedStyle(el).backgroundColor }))"""
    )
    assert [t["id"] for t in info] == enc.encode(TEXT)
    assert "".join(t["text"] for t in info).startswith("hello <script>alert(1)</script>")
    assert page.locator("#host script").count() == 0
    assert "<e0a6>" in [t["text"] for t in info] and info[0]["bg"] == "rgb(255, 227, 227)"
    assert page.get_by_test_id("token-count").text_content().startswith(f"{len(info)} tokens")
    # typing reaches the model (debounced), the tokenizer list is the listed encodings
    page.get_by_label("Text to tokenize").fill("hi")
    page.wait_for_function("() => window.model.sets.some(([k, v]) => k === 'text' && v === 'hi')")
    page.get_by_label("Tokenizer").select_option("o200k_base")
    assert ["encoding", "o200k_base"] in page.evaluate("() => window.model.sets")
    assert refused == []


def test_saved_notebook_keeps_the_train_widget_and_its_merges(executed, page):
    out = executed.cells[2].outputs[0]
    status, n, _ids = out.text.split(" ", 2)
    assert status == "done" and int(n) > 0
    state = widget_state(executed, 1)
    assert state["status"] == "done" and state["n_merges"] == int(n)
    assert len(state["merges"]) == min(200, int(n))  # the newest (bytepair.widgets.SHOWN_MERGES)
    refused = offline(page)
    mount(page, state)
    drawn = page.evaluate(
        """() => ({
            rows: document.querySelectorAll("[data-testid=merge-row]").length,
            status: document.querySelector("[data-testid=train-status]").textContent,
            first: document.querySelector("[data-testid=merge-row] td:nth-child(3)").textContent,
            curve: document.querySelector("svg path").getAttribute("d").length,
        })"""
    )
    assert drawn["rows"] == min(200, int(n))
    assert drawn["status"].startswith(f"Done: {int(n)} merges")
    assert drawn["first"] == state["merges"][-1][3]  # newest first
    assert drawn["curve"] > 0
    # Train asks the kernel to train; Stop is off while nothing runs
    assert page.get_by_role("button", name="Stop").is_disabled()
    page.get_by_role("button", name="Train").click()
    assert page.evaluate("() => window.model.sent") == [{"type": "train"}]
    assert refused == [] and [u for u in page.requested_urls if not u.startswith("blob:")] == []


def test_saved_compare_widget_counts_as_tiktoken_does(executed, page):
    """Compare's counts, made by bytepair in the kernel, equal tiktoken's; its module draws them offline."""
    state = widget_state(executed, 4)
    encs = {name: tiktoken_for(name) for name in ("gpt2", "o200k_base")}
    want = {
        name: [len(encs[t].encode_ordinary(text)) for t in ("gpt2", "o200k_base")]
        for name, text in COMPARE_TEXTS.items()
    }
    assert state["tokenizers"] == ["gpt2", "o200k_base"]
    assert {r[0]: r[3] for r in state["rows"]} == want
    assert {r[0]: r[2] for r in state["rows"]} == {n: len(t.encode()) for n, t in COMPARE_TEXTS.items()}
    refused = offline(page)
    mount(page, state)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=compare-table] tbody tr')].map((tr) =>
            [tr.querySelector('th').textContent, [...tr.querySelectorAll('td[data-tokenizer]')].map((td) => Number(td.dataset.value))])"""
    )
    assert dict(shown) == want
    assert page.locator("#host b").count() == 0  # a row's name is text, never markup
    assert refused == []
