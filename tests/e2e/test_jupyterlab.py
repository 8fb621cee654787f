"""The notebook output and widgets live in JupyterLab (from PyPI), driven by Playwright.

A JupyterLab server on a free port of 127.0.0.1 (no token, a temporary root, bytepair
from this checkout through PYTHONPATH) opens a notebook; Chromium runs its cells:
``bytepair.show`` draws coloured tokens (ids as tiktoken), the ``Train`` widget's merges
appear while the kernel trains and its Stop button stops it, the ``Tokenize`` widget
re-tokenizes what is typed (count as tiktoken). No request goes to another host. Skips
without jupyterlab/anywidget (fails under CI=true).
"""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.e2e.helpers import require_modules, tiktoken_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOWN = "hello <script>x</script> আমি"
# many distinct pairs (numbers), so training runs long enough to be stopped
CORPUS = "' '.join(str(i * 7919 % 100003) for i in range(60000))"
CELLS = [
    f"import bytepair\nbytepair.show('cl100k_base', {SHOWN!r})",
    f"from bytepair.widgets import Train\nw = Train({CORPUS}, vocab_size=50000, pattern='none')\nw",
    "from bytepair.widgets import Tokenize\nTokenize('hello world', tokenizer='cl100k_base')",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_modules("jupyterlab", "anywidget", "ipykernel", "nbformat")
    import nbformat

    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nbformat.write(nb, root / "t.ipynb")
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "py"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ip=127.0.0.1",
            "--ServerApp.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                if urllib.request.urlopen(url + "/api", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.5)  # a starting server has no event to wait on: its API is polled
        else:
            pytest.fail("JupyterLab did not start")
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.slow  # about 35 s on 2 cores (JupyterLab's start and a kernel)
def test_notebook_output_and_widgets_in_jupyterlab(lab, page):
    page.set_default_timeout(90_000)
    page.goto(lab + "/lab/tree/t.ipynb")
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    # the kernel is up (status bar), then Run > Run All Cells
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator("[data-command='runmenu:run-all']").click()

    # bytepair.show: coloured tokens, ids as tiktoken, the <script> token as text
    enc = tiktoken_for("cl100k_base")
    chips = page.locator(".jp-OutputArea .bytepair-tokens .bytepair-token")
    chips.first.wait_for()
    assert [int(x) for x in chips.evaluate_all("els => els.map(e => e.dataset.id)")] == enc.encode(SHOWN)
    assert "".join(chips.all_text_contents()).startswith("hello <script>x</script>")
    assert chips.first.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 227, 227)"

    # Train: merges appear while the kernel trains, Stop stops it
    train = page.locator(".bytepair-train")
    train.get_by_role("button", name="Train").click()
    page.wait_for_function(
        """() => {
            const s = document.querySelector(".bytepair-train [data-testid=train-status]").textContent;
            const m = /^Training: ([\\d,]+) merges/.exec(s);
            return m && Number(m[1].replace(/,/g, "")) > 0
                && document.querySelectorAll(".bytepair-train [data-testid=merge-row]").length > 0;
        }""",
        polling=250,  # (requestAnimationFrame polling stalls while JupyterLab redraws)
    )
    train.get_by_role("button", name="Stop").click()
    status = train.get_by_test_id("train-status")
    page.wait_for_function(
        "() => document.querySelector('.bytepair-train [data-testid=train-status]').textContent.startsWith('Stopped')",
        polling=250,
    )
    n = int(status.text_content().split(": ")[1].split(" ")[0].replace(",", ""))
    assert 0 < n < 50000 - 256

    # Tokenize: typing re-tokenizes in the kernel
    box = page.locator(".bytepair-tokenize")
    text = "tokenizers split text into pieces"
    box.get_by_label("Text to tokenize").fill(text)
    expected = f"{len(enc.encode(text))} tokens, {len(text)} characters"
    page.wait_for_function(
        "(want) => document.querySelector('.bytepair-tokenize [data-testid=token-count]').textContent === want",
        arg=expected,
        polling=250,
    )
    assert [int(x) for x in box.locator(".bytepair-token").evaluate_all("els => els.map(e => e.dataset.id)")] == (
        enc.encode(text)
    )
    assert not [u for u in page.requested_urls if not u.startswith((lab, "data:", "blob:", "about:"))]
