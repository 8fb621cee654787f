"""Tester round 2's findings on the built page, each with its regression test:

2. a deeply nested JSON file loaded as "your own tokenizer.json" is refused with a plain
   message (bytepair.jsonguard), with no Pyodide crash and no worker restart;
3. ``#compare?tok=`` names an unknown tokenizer, keeps the known ones, falls back to the
   defaults when none is known, and shows no "Counting…" that is not running;
4. a token that begins with a combining mark shows it on a dotted circle (U+25CC);
7. the token story's display forms follow the tokenizer's own vocabulary ('▁' for
   SentencePiece-style models, not GPT-2's 'Ġ');
8. Compare's chart colours are distinct for every tokenizer it can tick;
9. the Mistral switch wording, the phone layout of the special-token label, and "1,2,,3"
   in the ids box.
"""

from __future__ import annotations

from tests.e2e import helpers as h

DEEP = ("[" * 100_000 + "]" * 100_000).encode()  # /tmp/tester/bad/deep.json


def test_deeply_nested_json_is_refused_without_a_crash(page, site_url):
    crashes = []
    page.on("console", lambda m: "fatal error" in m.text and crashes.append(m.text))
    h.open_ready(page, site_url, "tokenize")
    page.set_input_files(
        '[data-testid="load-tokenizer-file"]',
        files=[{"name": "deep.json", "mimeType": "application/json", "buffer": DEEP}],
    )
    page.wait_for_function("() => document.querySelector('[data-error-for=\"loadfile\"]')?.textContent")
    message = page.text_content('[data-error-for="loadfile"]')
    assert "deep.json" in message and "nested too deeply" in message, message
    assert "RangeError" not in message
    assert "restarted" not in page.text_content('[data-testid="status-text"]')
    assert not crashes, crashes


CHECKED = (
    "() => [...document.querySelectorAll('[data-testid=\"compare-tokenizers\"] input:checked')].map((i) => i.value)"
)
NOTE = '[data-testid="compare-link-note"]'


def _compared(page, n_tokenizers: int) -> None:
    page.wait_for_function(
        "(n) => { const c = document.querySelector('[data-testid=\"view-compare\"]').dataset.compared;"
        " return c && Number(c) % n === 0 && !document.querySelector('[data-testid=\"compare-status\"]')"
        ".textContent.startsWith('Counting'); }",
        arg=n_tokenizers,
        timeout=180_000,
    )


def test_compare_link_with_only_unknown_tokenizers_names_them_and_counts_the_defaults(page, site_url):
    page.goto(site_url + "#compare?tok=nope")
    h.wait_ready(page)
    page.wait_for_function(f"() => !document.querySelector('{NOTE}').hidden")
    note = page.text_content(NOTE)
    assert "“nope”" in note and "does not have" in note, note
    ticked = page.evaluate(CHECKED)
    assert ticked and "nope" not in ticked  # the defaults, not nothing
    _compared(page, len(ticked))
    assert page.text_content('[data-testid="compare-status"]').startswith("44 texts")
    assert "Tick at least one" not in (page.text_content('[data-error-for="compare"]') or "")


def test_compare_link_keeps_the_known_tokenizers_and_names_the_unknown(page, site_url):
    page.goto(site_url + "#compare?tok=gpt2,nope,o200k_base")
    h.wait_ready(page)
    page.wait_for_function(f"() => !document.querySelector('{NOTE}').hidden")
    assert "“nope”" in page.text_content(NOTE)
    assert sorted(page.evaluate(CHECKED)) == ["gpt2", "o200k_base"]
    _compared(page, 2)
    assert "44 texts × 2 tokenizers" in page.text_content('[data-testid="compare-status"]')
    page.uncheck('[data-testid="compare-tokenizers"] input[value="gpt2"]')  # a choice of one's own: the note goes
    assert page.locator(NOTE).is_hidden()


def test_compare_never_shows_a_counting_that_is_not_running(page, site_url):
    h.open_ready(page, site_url, "compare")
    _compared(page, len(page.evaluate(CHECKED)))
    for box in page.query_selector_all('[data-testid="compare-tokenizers"] input:checked'):
        box.uncheck()
    # a long count (Gemma 3: its vocabulary loads first) is under way; unticking its box drops
    # the count's answer: its "Counting…" must go too
    page.check('[data-testid="compare-tokenizers"] input[value="gemma3"]')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"compare-status\"]').textContent.startsWith('Counting')"
    )
    page.uncheck('[data-testid="compare-tokenizers"] input[value="gemma3"]')
    page.wait_for_function(
        "() => (document.querySelector('[data-error-for=\"compare\"]')?.textContent || '').includes('Tick at least one')"
    )
    page.wait_for_timeout(1000)
    assert not page.text_content('[data-testid="compare-status"]').startswith("Counting")


def test_compare_chart_colours_are_distinct_for_every_tokenizer(page, site_url):
    h.open_ready(page, site_url, "compare")
    for box in page.query_selector_all('[data-testid="compare-tokenizers"] input:not(:checked)'):
        box.check()
    n = len(page.evaluate(CHECKED))
    assert n >= 10
    _compared(page, n)
    colours = page.evaluate(
        "() => Chart.getChart(document.querySelector('[data-testid=\"compare-chart\"]')).data.datasets"
        ".map((d) => d.backgroundColor)"
    )
    assert len(colours) == n and len(set(colours)) == n, colours


def test_a_lone_combining_mark_is_drawn_on_a_dotted_circle(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    page.select_option('[data-testid="tokenize-tokenizer"]', "gpt2")
    text = "cafe\u0301 naive \u0301alone"
    h.set_text(page, "tokenize-text", text)
    enc = h.tiktoken_for("gpt2")
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"gpt2:{len(enc.encode(text))}",
    )
    bases = page.locator('[data-testid="tokens"] .mark-base')
    assert bases.count() == 2  # both accents begin a token (GPT-2: two byte tokens each)
    for k in range(2):
        el = bases.nth(k)
        assert el.text_content() == "\u0301"  # the real text, for copying
        assert el.evaluate("(e) => getComputedStyle(e, '::before').content") == '"\u25cc"'
        assert el.evaluate("(e) => e.getBoundingClientRect().width") > 4  # it takes room: not invisible


def test_mistral_switch_words_a_tekken_file_as_one(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    page.select_option('[data-testid="tokenize-tokenizer"]', "mistral-nemo")
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded || '').startsWith('mistral-nemo:')",
        timeout=120_000,
    )
    words = page.text_content('[data-testid="special-what"]')
    assert "Tekken file" in words and "tokenizer.json" not in words, words


def test_special_tokens_label_wraps_as_text_on_a_phone(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(h.DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        h.open_ready(page, site_url, "tokenize")
        # the words after the <code> wrap back to the left edge of the words before it (one text
        # block), not into a column of their own right of the code
        lefts = page.evaluate(
            """() => {
                const label = document.querySelector('[data-testid="specials-switch"]');
                const code = label.querySelector('code');
                const range = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r; };
                // the words are the spans around the <code> (each a catalog entry since issue 21)
                const before = range(code.previousElementSibling).getClientRects()[0].left;
                const after = [...range(code.nextElementSibling).getClientRects()].map((r) => r.left);
                return { before, after, code: code.getBoundingClientRect().right };
            }"""
        )
        assert min(lefts["after"]) <= lefts["before"] + 1, lefts
    finally:
        context.close()
