"""End-to-end tests of embedding, links and the step-through (issue 4), in Chromium.

``web/examples/course.html`` (served at ``/examples/course.html``) embeds two
views with ``?embed=1``: the textbook step-through and the language
comparison. The course page is opened once for this module (one browser
context; its two Pyodide frames load side by side) and the tests drive it in
order; pages of their own are opened only for the shared link, the byte-level
mode, the themes and the Embed dialog.

Expected values come from references computed here: a slow textbook BPE
written below from Sennrich et al. (2016), Algorithm 1 (words as
space-separated symbols, merges as regex substitutions; not our module), the
slow minbpe trainer in tests/reference for byte-level BPE, tiktoken for token
counts.

The pages' Content-Security-Policy forbids eval, so every wait_for_function
predicate is an arrow function, never an expression string.
"""

from __future__ import annotations

import collections
import re
import urllib.parse

import pytest

from tests.e2e.helpers import DEFAULT_TIMEOUT_MS, READY_TIMEOUT, lz_compress, wait_ready
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import merge_all as merge
from tests.reference.slow_bpe import slow_train

pytestmark = pytest.mark.e2e

#: the dark palette's --bg (styles.css)
DARK_BG = "rgb(17, 20, 24)"

WORDS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}  # the paper's example, as in course.html
N_MERGES = 10  # as course.html's link (n=10)
EOW = "</w>"

# Records the embedded views' height messages in the course page (top window only).
RECORD_HEIGHTS = """
if (window.top === window) {
  window.__heights = [];
  window.addEventListener("message", (event) => {
    if (!event.data || event.data.type !== "bytepair:height") return;
    const frames = [...document.querySelectorAll("iframe")];
    window.__heights.push({ frame: frames.findIndex((f) => f.contentWindow === event.source), height: event.data.height });
  });
}
"""


# --- the slow reference: Sennrich et al. (2016), Algorithm 1 ----------------------


def slow_textbook(word_counts: dict[str, int], n_merges: int, tie: str = "first") -> list[dict]:
    """Every step of textbook BPE, the paper's way: each word is a string of
    space-separated symbols ending in ``</w>``; pairs are counted over the
    words (weighted by count) in a dict whose order is first occurrence; a
    merge is a regex substitution of ``"a b"`` by ``"ab"`` between symbol
    boundaries. Ties: ``"first"`` is ``max(pairs, key=pairs.get)`` (the first
    pair with the top count), ``"lexicographic"`` the smallest such pair."""
    vocab = {" ".join([*word, EOW]): count for word, count in word_counts.items()}
    steps = []
    for _ in range(n_merges):
        pairs: dict[tuple[str, str], int] = collections.defaultdict(int)
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] += freq
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        top = pairs[best]
        tied = [p for p, c in pairs.items() if c == top]
        if tie == "lexicographic":
            best = min(tied)
        bigram = re.escape(" ".join(best))
        pattern = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
        vocab = {pattern.sub("".join(best), word): freq for word, freq in vocab.items()}
        steps.append(
            {
                "pair": best,
                "count": top,
                "table": dict(pairs),
                "ties": {p for p in tied if p != best},
                "words": [word.split() for word in vocab],
                "length": sum(len(word.split()) * freq for word, freq in vocab.items()),
            }
        )
    return steps


def slow_apply(word: str, merges: list[tuple[str, str]]) -> list[tuple[int, list[str]]]:
    """Encode a new word with learned merges in order: (rule index, symbols after it) for each rule that fires."""
    s = " ".join([*word, EOW])
    fired = []
    for rank, pair in enumerate(merges):
        new = re.sub(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)", "".join(pair), s)
        if new != s:
            fired.append((rank, new.split()))
            s = new
    return fired


# --- helpers ------------------------------------------------------------------------


def frame_of(page, testid: str):
    return page.locator(f'iframe[data-testid="{testid}"]').element_handle().content_frame()


def wait_learned(target, *, other_than: str = "") -> str:
    target.wait_for_function(
        "(old) => { const v = document.querySelector('#view-steps').dataset.learned; return v && v !== old; }",
        arg=other_than,
        timeout=60_000,
    )
    return target.evaluate("() => document.querySelector('#view-steps').dataset.learned")


def wait_shown(target, step: int) -> None:
    target.wait_for_function(
        "(k) => { const r = document.querySelector('#view-steps'); return r.dataset.step === String(k) && r.dataset.shown.endsWith(':' + k); }",
        arg=step,
    )


READ_STEP = """() => {
  const root = document.querySelector('#view-steps');
  const line = root.querySelector('[data-testid="steps-merge"]');
  return {
    step: Number(root.dataset.step),
    pair: line.dataset.pair ? JSON.parse(line.dataset.pair) : null,
    ids: line.dataset.ids || null,
    count: line.dataset.count ? Number(line.dataset.count) : null,
    rows: [...root.querySelectorAll('[data-testid="steps-pairs-body"] tr')].map((tr) =>
      [tr.dataset.left, tr.dataset.right, Number(tr.dataset.count), tr.dataset.chosen === 'true', tr.dataset.tie === 'true', tr.dataset.ids || null]),
    words: [...root.querySelectorAll('.words-table tbody tr')].map((tr) => [tr.dataset.word, tr.querySelector('.syms').dataset.symbols.split(' ')]),
    vocab: [...root.querySelectorAll('[data-testid="steps-vocab"] .sym')].map((e) => e.dataset.sym).filter((s) => s !== undefined),
    length: root.querySelector('[data-testid="steps-length"]').textContent,
    text: root.querySelector('[data-testid="steps-text"]').value,
    tie: root.querySelector('[data-testid="steps-tie"]').value,
  };
}"""


def check_textbook_step(shown: dict, k: int, expected: list[dict]) -> None:
    """The drawn step k (0 = start) equals the slow reference's."""
    assert shown["step"] == k
    initial = sorted({ch for w in WORDS for ch in w} | {EOW})
    if k == 0:
        assert shown["pair"] is None and shown["rows"] == []
        assert shown["words"] == [[w, [*w, EOW]] for w in WORDS]
        assert shown["length"] == str(sum((len(w) + 1) * c for w, c in WORDS.items()))
        assert sorted(shown["vocab"]) == initial
        return
    e = expected[k - 1]
    assert tuple(shown["pair"]) == e["pair"], f"step {k}"
    assert shown["count"] == e["count"]
    # every pair with its count, the merged one first and highlighted, the ties marked
    assert {(left, right): c for left, right, c, *_ in shown["rows"]} == e["table"], f"step {k}"
    assert len(shown["rows"]) == len(e["table"])
    assert [tuple(r[:2]) for r in shown["rows"] if r[3]] == [e["pair"]]
    assert tuple(shown["rows"][0][:2]) == e["pair"]
    assert {tuple(r[:2]) for r in shown["rows"] if r[4]} == e["ties"]
    # the corpus after the merge, its length, the vocabulary so far
    assert shown["words"] == [[w, syms] for w, syms in zip(WORDS, e["words"])], f"step {k}"
    assert shown["length"] == f"{e['length']:,}"
    merged = ["".join(s["pair"]) for s in expected[:k]]
    assert shown["vocab"][len(initial) :] == merged
    assert sorted(shown["vocab"][: len(initial)]) == initial


# --- the course page, opened once -----------------------------------------------------


@pytest.fixture(scope="module")
def course(browser, site_url):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    page.console_errors = []
    page.requested_urls = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.console_errors.append(f"uncaught: {exc}"))
    context.on("request", lambda req: page.requested_urls.append(req.url))
    page.add_init_script(RECORD_HEIGHTS)
    page.goto(site_url + "examples/course.html")
    try:
        yield page
    finally:
        context.close()


def test_course_page_both_embedded_views_reach_ready(course, site_url):
    steps, compare = frame_of(course, "steps-frame"), frame_of(course, "compare-frame")
    for frame in (steps, compare):
        wait_ready(frame)
        # the compact form: no site header, tabs or footer; the status sits in the embed bar
        assert frame.evaluate("() => document.documentElement.dataset.embed") == "1"
        assert frame.locator(".site-header").is_hidden() and frame.locator(".tabbar").is_hidden()
        assert frame.locator('[data-testid="embed-bar"] [data-testid="status-text"]').text_content() == "Ready"
    # each frame opened the view its link names, with the link's settings
    assert steps.locator("#view-steps").is_visible() and steps.locator("#view-train").is_hidden()
    assert compare.locator("#view-compare").is_visible()
    wait_learned(steps)
    assert steps.evaluate("() => document.querySelector('#view-steps').dataset.learned").endswith(f":{N_MERGES}")
    wait_shown(steps, 0)
    assert steps.input_value('[data-testid="steps-text"]') == "\n".join(f"{w} {c}" for w, c in WORDS.items())
    compare.wait_for_function(
        "() => document.querySelector('#view-compare').dataset.compared > 0", timeout=READY_TIMEOUT
    )
    ticked = compare.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"compare-tokenizers\"] input:checked')].map((i) => i.value)"
    )
    assert ticked == ["gpt2", "o200k_base"]
    # everything came from the site itself
    origin = urllib.parse.urlsplit(site_url).netloc
    assert all(urllib.parse.urlsplit(u).netloc == origin for u in course.requested_urls if u.startswith("http"))


def test_stepping_forward_and_back_matches_the_slow_reference(course):
    steps = frame_of(course, "steps-frame")
    wait_ready(steps)
    wait_learned(steps)
    expected = slow_textbook(WORDS, N_MERGES, "first")
    assert len(expected) == N_MERGES
    wait_shown(steps, 0)
    check_textbook_step(steps.evaluate(READ_STEP), 0, expected)
    for k in range(1, N_MERGES + 1):
        steps.click('[data-testid="steps-next"]')
        wait_shown(steps, k)
        check_textbook_step(steps.evaluate(READ_STEP), k, expected)
    assert steps.locator('[data-testid="steps-next"]').is_disabled()
    for k in range(N_MERGES - 1, 4, -1):
        steps.click('[data-testid="steps-prev"]')
        wait_shown(steps, k)
        check_textbook_step(steps.evaluate(READ_STEP), k, expected)
    # keyboard: ← and → (focus is on the Previous button, inside the frame)
    course.keyboard.press("ArrowLeft")
    wait_shown(steps, 4)
    check_textbook_step(steps.evaluate(READ_STEP), 4, expected)
    course.keyboard.press("ArrowRight")
    wait_shown(steps, 5)
    # jump to a step
    steps.fill('[data-testid="steps-jump"]', "2")
    steps.press('[data-testid="steps-jump"]', "Enter")
    wait_shown(steps, 2)
    check_textbook_step(steps.evaluate(READ_STEP), 2, expected)
    # space plays (fastest speed) to the last step, then stops
    steps.select_option('[data-testid="steps-speed"]', "10")
    steps.click('[data-testid="steps-merge"]')  # focus something that is not a control
    course.keyboard.press(" ")
    wait_shown(steps, N_MERGES)
    steps.wait_for_function(
        "() => document.querySelector('[data-testid=\"steps-play\"]').getAttribute('aria-pressed') === 'false'"
    )
    check_textbook_step(steps.evaluate(READ_STEP), N_MERGES, expected)
    # the keys are documented in the view
    assert "←" in steps.text_content(".keys") and "space" in steps.text_content(".keys")


def test_encode_a_new_word_rule_by_rule(course):
    steps = frame_of(course, "steps-frame")
    wait_learned(steps)
    merges = [s["pair"] for s in slow_textbook(WORDS, N_MERGES, "first")]
    for word in ("lowest", "newer", "xyz"):
        steps.fill('[data-testid="steps-word"]', word)
        steps.press('[data-testid="steps-word"]', "Enter")
        expected = slow_apply(word, merges)
        steps.wait_for_function(
            "([w, n]) => document.querySelectorAll('[data-testid=\"steps-encode-list\"] li[data-merge-index]').length === n && document.querySelector('[data-testid=\"steps-encode-list\"] li.start .syms').textContent.replace('</w>', '') === w",
            arg=[word, len(expected)],
        )
        got = steps.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"steps-encode-list\"] li[data-merge-index]')].map((li) => [Number(li.dataset.mergeIndex), li.dataset.symbols.split(' ')])"
        )
        assert [tuple(g) for g in got] == [(rank, syms) for rank, syms in expected], word
    assert slow_apply("lowest", merges)[-1][1] == ["low", "est</w>"]  # the worked example's answer


def test_embedded_views_post_their_height_and_embed_js_resizes_them(course):
    compare = frame_of(course, "compare-frame")
    compare.wait_for_function(
        "() => document.querySelector('#view-compare').dataset.compared > 0", timeout=READY_TIMEOUT
    )
    course.wait_for_function("() => new Set((window.__heights || []).map((m) => m.frame)).size === 2")
    for index, testid in enumerate(["steps-frame", "compare-frame"]):
        frame = frame_of(course, testid)
        # the last height message of this frame is the frame's content height, and embed.js applied it
        course.wait_for_function(
            """([i, sel]) => {
                const last = window.__heights.filter((m) => m.frame === i).at(-1);
                const el = document.querySelector(sel);
                return last && el.style.height === last.height + 'px';
            }""",
            arg=[index, f'iframe[data-testid="{testid}"]'],
        )
        content = frame.evaluate("() => Math.ceil(document.documentElement.getBoundingClientRect().height)")
        box = course.locator(f'iframe[data-testid="{testid}"]').evaluate("(el) => el.clientHeight")
        assert content > 300
        # the height follows the content also after the reader's interactions (issue 19)
        assert abs(box - content) <= 2, (testid, box, content)
    assert all(m["height"] > 0 for m in course.evaluate("() => window.__heights"))


def test_shared_link_from_the_embed_reopens_the_same_state(course, browser):
    steps = frame_of(course, "steps-frame")
    wait_learned(steps)
    steps.fill('[data-testid="steps-jump"]', "4")
    steps.press('[data-testid="steps-jump"]', "Enter")
    wait_shown(steps, 4)
    before = steps.evaluate(READ_STEP)
    steps.click('[data-testid="share-button-embedded"]')
    link = steps.input_value('[data-testid="share-link"]')
    assert "#steps?" in link and "embed=1" not in link and "s=4" in link
    steps.click('[data-testid="share-dialog"] [data-close-dialog]')
    # a new browser, as a student who got the link would have
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(link)
        wait_ready(page)
        assert page.locator("#view-steps").is_visible()
        assert page.get_attribute("#tab-steps", "aria-selected") == "true"
        wait_learned(page)
        wait_shown(page, 4)
        after = page.evaluate(READ_STEP)
        assert after == before
        check_textbook_step(after, 4, slow_textbook(WORDS, N_MERGES, "first"))
        assert page.input_value('[data-testid="steps-word"]') == steps.input_value('[data-testid="steps-word"]')
        assert errors == []
    finally:
        context.close()


def test_lexicographic_tie_rule_matches_the_slow_reference(course):
    steps = frame_of(course, "steps-frame")
    old = wait_learned(steps)
    expected = slow_textbook(WORDS, N_MERGES, "lexicographic")
    first = slow_textbook(WORDS, N_MERGES, "first")
    assert [s["pair"] for s in expected] != [s["pair"] for s in first]  # the rule matters on this corpus
    steps.click('[data-testid="steps-setup"] > summary')  # the settings are folded away in the embed
    steps.select_option('[data-testid="steps-tie"]', "lexicographic")
    assert "smallest" in steps.text_content('[data-testid="steps-tie-hint"]')
    wait_learned(steps, other_than=old)
    steps.fill('[data-testid="steps-jump"]', "0")
    steps.press('[data-testid="steps-jump"]', "Enter")
    wait_shown(steps, 0)
    for k in range(1, N_MERGES + 1):
        steps.click('[data-testid="steps-next"]')
        wait_shown(steps, k)
        check_textbook_step(steps.evaluate(READ_STEP), k, expected)
    assert course.console_errors == []


# --- pages of their own -------------------------------------------------------------------


def test_byte_level_link_restores_and_matches_the_slow_minbpe_trainer(page, site_url):
    import regex

    text = "The cat sat on the mat. The cat ate the rat; that rat sat on the cat's hat! Ça va? 猫が好き。\n" * 3
    lz = lz_compress(text)
    n = 25
    page.goto(site_url + f"#steps?mode=bytes&p=gpt2&n={n}&t={lz}&s=7")
    wait_ready(page)
    wait_learned(page)
    wait_shown(page, 7)
    assert page.input_value('[data-testid="steps-text"]') == text
    assert page.is_checked('[data-testid="steps-mode-bytes"]')
    expected = slow_train(text, n, split=regex.compile(tiktoken_pattern("gpt2")).findall)
    for k in list(range(7, 0, -1)) + list(range(1, n + 1)):
        if page.evaluate("() => Number(document.querySelector('#view-steps').dataset.step)") != k:
            page.fill('[data-testid="steps-jump"]', str(k))
            page.press('[data-testid="steps-jump"]', "Enter")
            wait_shown(page, k)
        shown = page.evaluate(READ_STEP)
        pair, new_id, count = expected[k - 1]
        assert shown["ids"] == f"{pair[0]},{pair[1]}", f"step {k}"
        assert shown["count"] == count
        assert shown["rows"][0][3] and shown["rows"][0][5] == f"{pair[0]},{pair[1]}"
        assert all(r[2] <= count for r in shown["rows"])
        assert {r[5] for r in shown["rows"] if r[4]} == {r[5] for r in shown["rows"] if r[2] == count and not r[3]}
    # the sequence length at the end: the slow trainer's tokens
    chunks = [list(c.encode()) for c in regex.compile(tiktoken_pattern("gpt2")).findall(text)]
    for pair, new_id, _ in expected:
        chunks = [merge(c, pair, new_id) for c in chunks]
    assert page.text_content('[data-testid="steps-length"]') == f"{sum(map(len, chunks)):,}"
    # a restarted Python worker has lost the steps: the view learns them again and keeps going
    page.evaluate("() => window.bytepair.restart('test restart')")
    wait_ready(page)
    page.click('[data-testid="steps-prev"]')
    wait_shown(page, n - 1)
    pair = expected[n - 2][0]
    page.wait_for_function(
        "(ids) => document.querySelector('[data-testid=\"steps-merge\"]').dataset.ids === ids",
        arg=f"{pair[0]},{pair[1]}",
    )
    assert page.console_errors == []


@pytest.mark.parametrize(
    "scheme, query, dark",
    [
        ("light", "?embed=1", False),
        ("dark", "?embed=1", True),
        ("light", "?embed=1&theme=dark", True),
        ("dark", "?embed=1&theme=light", False),
    ],
)
def test_embed_follows_the_host_colour_scheme_or_the_theme_parameter(browser, site_url, scheme, query, dark):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 360, "height": 800})
    try:
        page = context.new_page()
        page.goto(site_url + query + "#steps")
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert (background == DARK_BG) is dark, background
        # compact: nothing wider than the narrow column
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        assert page.locator(".site-header").is_hidden()
    finally:
        context.close()


def test_the_colours_follow_the_readers_preference_when_it_changes(browser, site_url):
    """Without ?theme= the page follows the system's light / dark setting as it changes (an
    open lesson at dusk); ?theme=light stays light whatever the system says."""
    context = browser.new_context(color_scheme="light")
    try:
        page = context.new_page()
        forced = context.new_page()
        page.goto(site_url + "#tokenize")
        forced.goto(site_url + "?theme=light#tokenize")
        body = "() => getComputedStyle(document.body).backgroundColor"
        assert page.evaluate(body) != DARK_BG and forced.evaluate(body) != DARK_BG
        for p in (page, forced):
            p.emulate_media(color_scheme="dark")
        page.wait_for_selector('html[data-theme="dark"]')
        assert page.evaluate(body) == DARK_BG
        assert forced.evaluate(body) != DARK_BG
        page.emulate_media(color_scheme="light")
        page.wait_for_selector('html[data-theme="light"]')
        assert page.evaluate(body) != DARK_BG
    finally:
        context.close()


def test_embed_dialog_snippet_and_long_link_warning(page, site_url):
    page.goto(site_url + "#steps")
    wait_ready(page)
    wait_learned(page)
    page.click('[data-testid="embed-button"]')
    snippet = page.input_value('[data-testid="embed-snippet"]')
    assert snippet.startswith(f'<iframe src="{site_url}?embed=1#steps?mode=textbook')
    assert f'<script src="{site_url}embed.js"' in snippet
    page.select_option('[data-testid="embed-theme"]', "dark")
    assert "?embed=1&amp;theme=dark#steps" in page.input_value('[data-testid="embed-snippet"]')
    page.keyboard.press("Escape")
    # a long text makes a long link: the Share dialog says so
    words = " ".join(f"w{i * 7919 % 100003:x}q{i}" for i in range(2500))
    page.check('[data-testid="steps-input-text"]')
    page.locator('[data-testid="steps-text"]').evaluate(
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", words
    )
    page.click('[data-testid="share-button"]')
    link = page.input_value('[data-testid="share-link"]')
    assert len(link) > 8 * 1024
    assert "long" in page.text_content('[data-testid="share-note"]')
    assert page.locator('[data-testid="share-note"]').is_visible()
    page.keyboard.press("Escape")
    # a damaged link says so, and the page still works
    page.goto(site_url + "#steps?mode=textbook&t=XXXX&s=1")
    page.reload()
    wait_ready(page)
    assert "damaged" in page.text_content('[data-testid="link-note"]')
    wait_learned(page)
    wait_shown(page, 1)
    assert page.console_errors == []


def test_train_tokenize_and_compare_links_reopen_their_state(page, site_url):
    tiktoken = pytest.importorskip("tiktoken")  # noqa: F841
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    page.goto(site_url + "#tokenize")
    wait_ready(page)
    links = {}
    # tokenize: text (with markup, which must stay text), tokenizer, toggles
    text = "héllo <img src=x onerror=alert(1)> wörld 🙂\tend"
    page.locator('[data-testid="tokenize-text"]').evaluate(
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", text
    )
    page.select_option('[data-testid="tokenize-tokenizer"]', "o200k_base")
    page.check('[data-testid="toggle-ids"]')
    page.click('[data-testid="share-button"]')
    links["tokenize"] = page.input_value('[data-testid="share-link"]')
    page.keyboard.press("Escape")
    # train: text, vocab size, custom pre-tokenizer, name
    page.click("#tab-train")
    page.locator('[data-testid="train-text"]').evaluate(
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }",
        "some training text\nline two",
    )
    page.fill('[data-testid="train-vocab"]', "300")
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', r" ?\p{L}+|\s+|.")
    page.fill('[data-testid="train-name"]', "linked")
    page.click('[data-testid="share-button"]')
    links["train"] = page.input_value('[data-testid="share-link"]')
    page.keyboard.press("Escape")
    # compare: own parallel texts, two tokenizers, a metric
    page.click("#tab-compare")
    page.check('[data-testid="compare-source-custom"]')
    parallel = "English | All human beings are born free.\nDeutsch | Alle Menschen sind frei geboren."
    page.locator('[data-testid="compare-custom"]').evaluate(
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", parallel
    )
    page.uncheck('[data-testid="compare-tokenizers"] input[value="cl100k_base"]')
    page.uncheck('[data-testid="compare-tokenizers"] input[value="p50k_base"]')
    page.select_option('[data-testid="compare-metric"]', "tokens")
    page.click('[data-testid="share-button"]')
    links["compare"] = page.input_value('[data-testid="share-link"]')
    page.keyboard.press("Escape")
    assert all(f"#{view}?" in link for view, link in links.items())

    def reopen(view):
        page.goto("about:blank")
        page.goto(links[view])
        wait_ready(page)
        assert page.get_attribute(f"#tab-{view}", "aria-selected") == "true"

    reopen("tokenize")
    assert page.input_value('[data-testid="tokenize-text"]') == text
    assert page.input_value('[data-testid="tokenize-tokenizer"]') == "o200k_base"
    assert page.is_checked('[data-testid="toggle-ids"]') and not page.is_checked('[data-testid="toggle-whitespace"]')
    n = len(tiktoken_encoding("o200k_base", registry.load_ranks("o200k_base")).encode_ordinary(text))
    page.wait_for_function(
        "(n) => document.querySelector('#view-tokenize').dataset.encoded === `o200k_base:${n}`", arg=n
    )
    shown = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"token\"]')].map((el) => el.firstChild.textContent).join('')"
    )
    assert shown == text  # markup stays text
    assert page.locator(".tok-id").count() == n
    assert page.locator('[data-testid="tokens"] img').count() == 0

    reopen("train")
    assert page.input_value('[data-testid="train-text"]') == "some training text\nline two"
    assert page.input_value('[data-testid="train-vocab"]') == "300"
    assert page.input_value('[data-testid="train-pattern"]') == "custom"
    assert page.input_value('[data-testid="train-regex"]') == r" ?\p{L}+|\s+|."
    assert page.input_value('[data-testid="train-name"]') == "linked"

    reopen("compare")
    assert page.is_checked('[data-testid="compare-source-custom"]')
    assert page.input_value('[data-testid="compare-custom"]') == parallel
    assert page.input_value('[data-testid="compare-metric"]') == "tokens"
    page.wait_for_function(
        "() => document.querySelector('#view-compare').dataset.compared === '4'", timeout=READY_TIMEOUT
    )
    ticked = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"compare-tokenizers\"] input:checked')].map((i) => i.value)"
    )
    assert ticked == ["gpt2", "o200k_base"]
    assert page.console_errors == []
