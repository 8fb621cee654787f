"""Embeds on a course page of another site (issue 19, part 1): the course page is served on
``localhost``, the playground on ``127.0.0.1`` (two sites), and the page embeds Train (with the
author's Bangla text and settings in the link), Compare (Bangla and Urdu, two tokenizers) and
Step through (the textbook example) as ``?embed=1`` iframes, with ``embed.js`` resizing them.

Third-party storage blocked: Playwright's ``browser.new_context()`` is an off-the-record
(Incognito-like) profile, where Chromium blocks third-party cookies and storage by default
(as Incognito, Brave, Safari, and Chrome with third-party cookies off do; Playwright also turns
off ``ThirdPartyStoragePartitioning``, so the frame gets no partitioned storage either; the same
happens with ``--test-third-party-cookie-phaseout``). There the frames are refused a
SharedWorker and IndexedDB (checked below), and each must start a dedicated worker as a first
start ("Ready", not "restarted") and work end to end. Storage allowed: a persistent profile with
the preference ``profile.cookie_controls_mode = 0`` (third-party cookies allowed); there the three
frames share ONE runtime: the server sees ``pyodide.asm.wasm`` fetched once.

Values come from references: the merges of the slow minbpe trainer (tests/reference), tiktoken's
counts, and a slow count of the textbook example's pairs written here.
"""

from __future__ import annotations

import collections
import json
import urllib.parse

import pytest
import regex

from tests.e2e.helpers import (
    DEFAULT_TIMEOUT_MS,
    READY_TIMEOUT,
    cross_site,
    lz_compress,
    set_text,
    storage_allowed_context,
    tiktoken_for,
    wait_frame_fits,
    wait_ready,
)
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import slow_train, slow_train_steps
from tools.buildutil import pyodide_site_dir
from tools.udhr import load_udhr

TRAIN_VOCAB = 300  # 44 merges
COUNTS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}  # Sennrich et al. (2016), Fig. 1


def _bangla() -> str:
    return load_udhr()["ben"].text[:3000]


def _parallel() -> str:
    d = load_udhr()
    first = lambda code: d[code].text.split("\n")[2]  # noqa: E731 (the preamble's first paragraph)
    return f"Bangla | {first('ben')}\nUrdu | {first('urd')}"


def _course_html(site: str) -> str:
    def q(params: dict) -> str:
        return "&".join(f"{k}={urllib.parse.quote(str(v), safe='')}" for k, v in params.items())

    train = q({"t": lz_compress(_bangla()), "v": TRAIN_VOCAB, "p": "gpt2", "name": "bangla-lesson"})
    compare = q({"src": "custom", "t": lz_compress(_parallel()), "tok": "gpt2,o200k_base", "metric": "tokens"})
    counts = "\n".join(f"{w} {c}" for w, c in COUNTS.items())
    steps = q({"mode": "textbook", "in": "counts", "tie": "first", "n": 5, "t": lz_compress(counts)})
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson on tokenizers</title></head>
<body>
  <h1>Bangla and Urdu in a tokenizer</h1>
  <iframe id="train" src="{site}?embed=1#train?{train}" title="Train" style="width:900px" height="400"></iframe>
  <iframe id="compare" src="{site}?embed=1#compare?{compare}" title="Compare" style="width:900px" height="400"></iframe>
  <iframe id="steps" src="{site}?embed=1#steps?{steps}" title="Step through" style="width:900px" height="400"></iframe>
  <script src="{site}embed.js"></script>
</body></html>"""


@pytest.fixture(scope="module")
def sites(site_url):
    """(playground server with request counts, course page URL); site_url builds web/dist first."""
    with cross_site(_course_html) as pair:
        yield pair


def _wasm_fetches(server) -> int:
    return server.hits[f"/{pyodide_site_dir()}/pyodide.asm.wasm"]


def _frame(page, fid: str):
    return page.locator(f"#{fid}").element_handle().content_frame()


def _wait_ready(frame) -> None:
    # polling by interval: a cross-site frame out of view gets no animation frames, so the default
    # requestAnimationFrame polling can wait forever on a frame that is ready (as in every wait here)
    wait_ready(frame, polling=200)
    status = frame.text_content('[data-testid="status-text"]')
    assert status == "Ready", status  # a first start: no "worker was restarted", no error


def _textbook_first_pair() -> tuple[tuple[str, str], int]:
    """Step 1 of textbook BPE on COUNTS, counted slowly: the first pair (in order of first
    occurrence) with the top count, words as symbols ending in </w>."""
    pairs: dict[tuple[str, str], int] = collections.defaultdict(int)
    for word, count in COUNTS.items():
        symbols = [*word, "</w>"]
        for a, b in zip(symbols, symbols[1:]):
            pairs[a, b] += count
    best = max(pairs, key=pairs.get)
    return best, pairs[best]


def _visible(text: str) -> str:
    """format.js visibleWhitespace, as the page draws a token's label: · space, ↵ before a newline."""
    return text.replace(" ", "·").replace("\n", "↵\n")


def _long_tokens_are_drawn_short(train) -> None:
    """Train without a pre-tokenizer on a repeated verse: tokens of several lines appear, drawn as
    their first 24 characters and "… (N bytes)" (N from the slow minbpe trainer), whole on a click."""
    text = "In the beginning God created the heaven and the earth.\nAnd the earth was without form.\n" * 64
    n = 60
    steps = list(slow_train_steps(text, n))
    long = [s for s in steps if len(_visible(s.token.decode())) > 40 or s.token.count(b"\n") >= 2]
    assert long  # (the check below can fail)
    set_text(train, "train-text", text)
    train.fill('[data-testid="train-vocab"]', str(256 + n))
    train.select_option('[data-testid="train-pattern"]', "none")
    train.fill('[data-testid="train-name"]', "verse")
    train.get_by_role("button", name="Train", exact=True).click()
    train.wait_for_function(
        "() => document.body.dataset.training === 'done' && document.body.dataset.trainSaving !== 'true'",
        timeout=READY_TIMEOUT,
        polling=200,
    )
    for s in long:
        cell = train.locator(f'[data-testid="merges-body"] tr[data-id="{s.new_id}"] td.tok-cell').nth(2)
        shown = _visible(s.token.decode())
        want = "".join(list(shown)[:24]).replace("\n", "") + f"… ({len(s.token):,} bytes)"
        assert cell.text_content() == want, s.new_id
        assert cell.evaluate("(td) => td.closest('tr').getBoundingClientRect().height") < 80
    cell = train.locator(f'[data-testid="merges-body"] tr[data-id="{long[-1].new_id}"] [data-testid="long-token"]').last
    cell.click()
    assert cell.get_attribute("aria-expanded") == "true"
    assert cell.locator("code").text_content() == _visible(long[-1].token.decode())


def test_cross_site_embeds_with_third_party_storage_blocked(browser, sites):
    pytest.importorskip("tiktoken")
    server, course = sites
    context = browser.new_context(viewport={"width": 1000, "height": 800}, has_touch=True)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(course)

        # a touch on the Compare embed while it is still loading (on a phone: any swipe that starts on it)
        compare = _frame(page, "compare")
        compare.wait_for_function("() => document.body?.dataset.pyodide === 'loading'", polling=200)
        box = page.locator("#compare").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] - 4, box["y"] + box["height"] - 4)
        assert compare.evaluate("() => document.body.dataset.pyodide") == "loading"

        frames = {fid: _frame(page, fid) for fid in ("train", "compare", "steps")}
        for frame in frames.values():
            _wait_ready(frame)
            # the precondition: this frame is refused third-party storage, hence a SharedWorker
            refused = frame.evaluate("""() => new Promise((resolve) => {
                const req = indexedDB.open('probe');
                req.onsuccess = () => resolve(false);
                req.onerror = () => resolve(true); })""")
            assert refused, "third-party storage is not blocked in this context"
            runtime = frame.evaluate("async () => (await window.bytepair.ready).runtime")
            assert runtime["shared"] is False

        # Train: the author's text and settings from the link, trained, equal to minbpe's merges
        train = frames["train"]
        text = _bangla()
        assert train.input_value('[data-testid="train-text"]') == text
        assert train.input_value('[data-testid="train-vocab"]') == str(TRAIN_VOCAB)
        assert train.input_value('[data-testid="train-pattern"]') == "gpt2"
        train.get_by_role("button", name="Train", exact=True).click()
        train.wait_for_function(
            "() => ['done', 'stopped', 'error'].includes(document.body.dataset.training)"
            " && document.body.dataset.trainSaving !== 'true'",
            timeout=READY_TIMEOUT,
            polling=200,
        )
        assert train.evaluate("() => document.body.dataset.training") == "done", train.text_content(
            '[data-testid="train-progress-text"]'
        )
        saved = json.loads(train.evaluate("() => window.bytepair.tokenizerJson('bangla-lesson')"))
        expected = slow_train(text, 20, split=regex.compile(tiktoken_pattern("gpt2")).findall)
        assert [tuple(m[:2]) for m in saved["merges"][:20]] == [p for p, _i, _c in expected]
        assert len(saved["merges"]) == TRAIN_VOCAB - 256
        # no storage: no false "too large to keep" note, no "Saved"; the text stays for this visit
        assert "Kept as “bangla-lesson” until this page closes" in train.text_content(
            '[data-testid="train-progress-text"]'
        )
        assert train.locator('[data-error-for="text"]').text_content() == ""
        assert train.input_value('[data-testid="train-text"]') == text
        # a link that leaves the Train view opens the full playground in a new tab
        link = train.locator('[data-testid="train-steps-link"]')
        assert link.get_attribute("target") == "_blank" and link.get_attribute("rel") == "noopener"
        assert "embed=1" not in link.get_attribute("href") and link.get_attribute("href").endswith("#steps")
        with context.expect_page() as opened:
            link.click()
        assert opened.value.url.endswith("/#steps") and "embed=1" not in opened.value.url
        opened.value.close()
        assert "embed=1#train?" in train.url  # the embed stayed where the author put it
        assert train.locator("#view-train").is_visible()

        # long tokens (no pre-tokenizer: merges of whole lines): drawn shortened with their length
        _long_tokens_are_drawn_short(train)

        # Compare: tokenizer boxes drawn, the counts equal tiktoken's (scrolled to, as a reader would:
        # Chromium does not render cross-site frames out of view, and the views draw on animation frames)
        page.locator("#compare").scroll_into_view_if_needed()
        compare.wait_for_function("() => document.querySelector('#view-compare').dataset.compared === '4'", polling=200)
        for name in ("gpt2", "o200k_base"):
            shown = compare.evaluate(
                """(t) => [...document.querySelectorAll(`td[data-metric="tokens"][data-tokenizer="${t}"]`)]
                          .map((td) => Number(td.dataset.value))""",
                name,
            )
            enc = tiktoken_for(name)
            want = [len(enc.encode_ordinary(line.split(" | ", 1)[1])) for line in _parallel().split("\n")]
            assert sorted(shown) == sorted(want), name
        assert compare.locator('[data-testid="compare-tokenizers"] input').count() >= 4

        # Step through: steps
        steps = frames["steps"]
        page.locator("#steps").scroll_into_view_if_needed()
        steps.wait_for_function(
            "() => document.querySelector('#view-steps').dataset.learned?.endsWith(':5')", polling=200
        )
        steps.click('[data-testid="steps-next"]')
        steps.wait_for_function("() => document.querySelector('#view-steps').dataset.step === '1'", polling=200)
        line = steps.locator('[data-testid="steps-merge"]')
        line.wait_for()
        pair, count = _textbook_first_pair()
        steps.wait_for_function(
            "() => document.querySelector('[data-testid=\"steps-merge\"]').dataset.pair", polling=200
        )
        assert tuple(json.loads(line.get_attribute("data-pair"))) == pair
        assert int(line.get_attribute("data-count")) == count
        # its link (as the Embed snippet) leaves out the default word (w=lowest)
        steps.click('[data-testid="share-button-embedded"]')
        shared = steps.input_value('[data-testid="share-link"]')
        assert "#steps?" in shared and "s=1" in shared and "w=" not in shared, shared
        steps.click('[data-testid="share-dialog"] [data-close-dialog]')

        # heights follow the content after it grew (the touch did not freeze Compare's)
        for fid in ("compare", "train", "steps"):
            page.locator(f"#{fid}").scroll_into_view_if_needed()
            wait_frame_fits(page.locator(f"#{fid}"))
        assert page.locator("#compare").evaluate("(el) => el.clientHeight") > 600
    finally:
        context.close()
    assert errors == []


def test_cross_site_embeds_with_storage_allowed_share_one_runtime(browser, sites, tmp_path):
    server, course = sites
    before = _wasm_fetches(server)
    context = storage_allowed_context(browser, tmp_path / "profile")
    try:
        page = context.new_page()
        page.goto(course)
        runtimes = []
        for fid in ("train", "compare", "steps"):
            frame = _frame(page, fid)
            _wait_ready(frame)
            runtimes.append(frame.evaluate("async () => (await window.bytepair.ready).runtime"))
        assert all(r["shared"] for r in runtimes), runtimes
        assert len({r["id"] for r in runtimes}) == 1, runtimes
        compare = _frame(page, "compare")
        page.locator("#compare").scroll_into_view_if_needed()
        compare.wait_for_function("() => document.querySelector('#view-compare').dataset.compared === '4'", polling=200)
        assert _wasm_fetches(server) - before == 1  # one runtime: the wasm fetched once (was 3)
    finally:
        context.close()
