"""Issue 13 in the page: why this token (story panel), side by side, pictures, gallery.

Every expected value comes from tiktoken (built offline from the rank files,
``helpers.tiktoken_for``), never from bytepair's own output.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

from tests.e2e.helpers import open_ready, set_text, settle, tiktoken_for

SVG = "{http://www.w3.org/2000/svg}"


def _tokenize(page, text: str, tokenizer: str, n_tokens: int) -> None:
    """Show `text` under `tokenizer` in Tokenize; wait until its `n_tokens` tokens (the reference's count) are drawn."""
    set_text(page, "tokenize-text", text)
    page.select_option('[data-testid="tokenize-tokenizer"]', tokenizer)
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"{tokenizer}:{n_tokens}",
        timeout=60_000,
    )
    settle(page)


def _side_by_side_with(page, name: str) -> None:
    """Turn side by side on in Tokenize with `name` as the only other tokenizer picked."""
    page.locator('[data-testid="sbs-toggle"]').check()
    picks = page.locator('[data-testid="sbs-pick"]')
    picks.first.wait_for()
    for i in range(picks.count()):
        p = picks.nth(i)
        p.set_checked(p.get_attribute("value") == name)


def _story_rows(page) -> tuple[int, list[tuple[int, int, int]]]:
    panel = page.locator('[data-testid="token-story"][data-state="ready"]')
    panel.wait_for(timeout=60_000)
    token_id = int(panel.locator('[data-testid="story-id"]').text_content())
    steps = page.locator('[data-testid="story-step"]').evaluate_all(
        "(rows) => rows.map((r) => [Number(r.dataset.left), Number(r.dataset.right), Number(r.dataset.id)])"
    )
    return token_id, [tuple(s) for s in steps]


def _replays(enc, token_id: int, steps) -> None:
    """The steps, applied to the token's bytes (tiktoken's single-byte tokens), end in the token;
    each merged id is tiktoken's rank of the two parts' bytes joined."""
    data = enc.decode_single_token_bytes(token_id)
    parts = [enc.encode_single_token(bytes([b])) for b in data]
    for left, right, merged in steps:
        assert enc.decode_single_token_bytes(left) + enc.decode_single_token_bytes(
            right
        ) == enc.decode_single_token_bytes(merged)
        assert enc.encode_single_token(enc.decode_single_token_bytes(merged)) == merged  # rank = id
        k = next(i for i in range(len(parts) - 1) if parts[i] == left and parts[i + 1] == right)
        parts[k : k + 2] = [merged]
    assert parts == [token_id]


def test_story_opens_by_keyboard_and_by_click_and_replays_to_the_token(page, site_url):
    enc = tiktoken_for("cl100k_base")
    text = "Pneumonoultramicroscopic strawberries, 12345!"
    ids = enc.encode(text)
    open_ready(page, site_url, "tokenize")
    _tokenize(page, text, "cl100k_base", len(ids))
    # keyboard: focus the list (token 1 is active), arrows to token 3, Enter
    page.locator('[data-testid="tokenize-text"]').focus()
    page.keyboard.press("Tab")  # the next tab stop after the text is the token list
    assert page.evaluate("() => document.activeElement.dataset.testid") == "tokens"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    token_id, steps = _story_rows(page)
    assert token_id == ids[2]
    _replays(enc, token_id, steps)
    # Escape closes it and gives the focus back to the token list
    page.keyboard.press("Escape")
    page.locator('[data-testid="token-story"]').wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "tokens"
    # click: a token with several merges (the first of the word)
    k = max(range(len(ids)), key=lambda i: len(enc.decode_single_token_bytes(ids[i])))
    page.locator('[data-testid="token"]').nth(k).click()
    page.wait_for_function(
        "(k) => document.querySelector('[data-testid=\"token-story\"]').dataset.tokenIndex === String(k)", arg=k
    )
    token_id, steps = _story_rows(page)
    assert token_id == ids[k]
    assert len(steps) == len(enc.decode_single_token_bytes(ids[k])) - 1
    _replays(enc, token_id, steps)
    label = page.locator('[data-testid="story-label"]').text_content()
    assert label  # the pattern alternative's label
    hexes = page.locator('[data-testid="story-hex"]').text_content().replace(" ", "")
    assert hexes == enc.decode_single_token_bytes(ids[k]).hex()


def _boundaries(enc, text: str) -> set[int]:
    """Character offsets where tiktoken's tokens of `text` cut between two characters."""
    ids = enc.encode(text)
    _, offsets = enc.decode_with_offsets(ids)
    return {o for i, o in enumerate(offsets) if i and not 0x80 <= enc.decode_single_token_bytes(ids[i])[0] < 0xC0}


def test_side_by_side_marks_exactly_the_boundaries_that_differ(page, site_url):
    text = "strawberry 12345 SolidGoldMagikarp\n    x = 1 নমস্কার 你好"  # BMP only: UTF-16 = characters
    gpt2, cl100k = tiktoken_for("gpt2"), tiktoken_for("cl100k_base")
    open_ready(page, site_url, "tokenize")
    _tokenize(page, text, "gpt2", len(gpt2.encode(text)))
    # side by side off: no buttons for a picture of rows that are not there (a tester saw them)
    assert page.locator('[data-testid="sbs-picture-svg"]').is_hidden()
    _side_by_side_with(page, "cl100k_base")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"sbs-row-summary\"]').length === 2"
        " && document.querySelectorAll('[data-testid=\"sbs-row-summary\"]')[1].dataset.name === 'cl100k_base'",
        timeout=60_000,
    )
    settle(page)
    counts = [int(c) for c in page.locator('[data-testid="sbs-count"]').all_text_contents()]
    assert counts == [len(gpt2.encode(text)), len(cl100k.encode(text))]
    marked = page.locator(".sbs-cell.cut-differs").evaluate_all("(els) => els.map((e) => Number(e.dataset.cut))")
    expected = _boundaries(gpt2, text) ^ _boundaries(cl100k, text)
    assert expected and set(marked) == expected
    # every row's cells start at that row's boundaries (and 0)
    for row, enc in enumerate((gpt2, cl100k)):
        starts = page.locator(f'.sbs-cell[data-row="{row}"]').evaluate_all(
            "(els) => els.map((e) => Number(e.dataset.start))"
        )
        assert set(starts) == _boundaries(enc, text) | {0}
    # the picture of the rows: a parseable SVG naming both tokenizers and their counts
    svg = ET.fromstring(_download(page, "sbs-picture-svg"))
    said = " ".join(t.text or "" for t in svg.iter(f"{SVG}text"))
    assert f"gpt2): {counts[0]} tokens" in said and f"cl100k_base): {counts[1]} tokens" in said


def _download(page, testid: str) -> bytes:
    with page.expect_download(timeout=60_000) as d:
        page.locator(f'[data-testid="{testid}"]').click()
    return open(d.value.path(), "rb").read()


def test_exported_svg_parses_with_the_token_texts_and_png_has_its_size(page, site_url):
    enc = tiktoken_for("o200k_base")
    text = "Tokenizers split text into pieces: 12345 and strawberry."
    open_ready(page, site_url, "tokenize")
    _tokenize(page, text, "o200k_base", len(enc.encode(text)))
    page.locator('[data-testid="toggle-ids"]').check()
    settle(page)
    svg = ET.fromstring(_download(page, "tokens-picture-svg"))
    assert svg.tag == f"{SVG}svg"
    texts = [t.text or "" for t in svg.iter(f"{SVG}text")]
    for tid in enc.encode(text):
        shown = enc.decode_single_token_bytes(tid).decode("utf-8").replace(" ", "·")
        assert shown in texts
        assert str(tid) in texts  # ids under the tokens
    assert any("o200k_base" in t and f"{len(enc.encode(text))} tokens" in t for t in texts)  # says what it shows
    png = _download(page, "tokens-picture-png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    scale = page.evaluate("() => import('./src/views/pictures.js').then((m) => m.PNG_SCALE)")
    assert (width, height) == (int(svg.get("width")) * scale, int(svg.get("height")) * scale)


def test_gallery_example_numbers_equal_tiktokens(page, site_url):
    gpt2, cl100k, o200k = (tiktoken_for(n) for n in ("gpt2", "cl100k_base", "o200k_base"))
    word = " SolidGoldMagikarp"
    page.goto(site_url + "#tokenize?g=glitch-token")
    explanation = page.locator('[data-testid="gallery-explanation"]')
    explanation.wait_for(timeout=180_000)
    said = explanation.text_content()

    def n_tokens(enc) -> str:
        n = len(enc.encode(word))
        return f"{n} token{'s' if n != 1 else ''}"

    assert f"is {n_tokens(gpt2)} in gpt2 (id {', '.join(map(str, gpt2.encode(word)))})" in said
    for name, enc in (("cl100k_base", cl100k), ("o200k_base", o200k)):
        assert f"{n_tokens(enc)} in {name}" in said
    # the example opened in Tokenize with its tokenizers side by side
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"sbs-row-summary\"]').length === 3", timeout=60_000
    )
    rows = page.locator('[data-testid="sbs-row-summary"]').evaluate_all("(els) => els.map((e) => e.dataset.name)")
    counts = [int(c) for c in page.locator('[data-testid="sbs-count"]').all_text_contents()]
    encs = {"gpt2": gpt2, "cl100k_base": cl100k, "o200k_base": o200k}
    assert counts == [len(encs[r].encode(word)) for r in rows]
    assert page.locator('[data-testid="tokenize-text"]').input_value() == word


def test_story_of_a_token_trained_here_has_its_merge_and_count(page, site_url):
    from tests.e2e.helpers import train
    from tests.reference.slow_bpe import slow_encode_merges, slow_train

    corpus = "the cat sat on the mat. " * 40 + "aaabdaaabac " * 10
    reference = slow_train(corpus, 300 - 256)  # minbpe, no split pattern
    merges = {pair: new_id for pair, new_id, _ in reference}
    count_of = {new_id: count for _, new_id, count in reference}
    open_ready(page, site_url)
    train(page, corpus, 300, name="tiny", pattern="none")
    page.locator("#tab-tokenize").click()
    text = "the cat sat on the mat"
    ids = slow_encode_merges([text.encode()], merges)
    _tokenize(page, text, "tiny", len(ids))
    k = max(range(len(ids)), key=lambda i: ids[i])  # the latest merge among the text's tokens
    page.locator('[data-testid="token"]').nth(k).click()
    token_id, steps = _story_rows(page)
    assert token_id == ids[k] >= 256
    created = page.locator('[data-testid="story-created"]').text_content()
    assert f"merge #{token_id - 256} " in created and f"occurred {count_of[token_id]:,} times" in created
    # the steps rebuild the token from its bytes with the learned merges
    pair_of = {v: k for k, v in merges.items()}
    for left, right, merged in steps:
        assert pair_of[merged] == (left, right)
    # and link into Train's merge list, where that merge's row is
    page.locator('[data-testid="story-goto-merge"]').click()
    row = page.locator(f'[data-testid="merges-body"] tr[data-id="{token_id}"]')
    row.wait_for()
    assert row.get_attribute("data-count") == str(count_of[token_id])
    # trained vs real, side by side
    page.locator("#tab-tokenize").click()
    _side_by_side_with(page, "cl100k_base")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"sbs-row-summary\"]')].map((r) => r.dataset.name).join() === 'tiny,cl100k_base'",
        timeout=60_000,
    )
    counts = [int(c) for c in page.locator('[data-testid="sbs-count"]').all_text_contents()]
    assert counts == [len(ids), len(tiktoken_for("cl100k_base").encode(text))]


def test_compare_chart_table_and_step_pictures_show_what_the_page_shows(page, site_url):
    open_ready(page, site_url, "compare")
    page.wait_for_selector('[data-testid="compare-chart"][data-drawn="true"]', timeout=180_000)
    settle(page)
    cells = page.locator('[data-testid="compare-table"] tr').evaluate_all(
        "(rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim()))"
    )
    table = ET.fromstring(_download(page, "compare-table-picture-svg"))
    texts = [t.text or "" for t in table.iter(f"{SVG}text")]
    assert [c for row in cells for c in row if c] == [
        t for t in texts[2:] if t
    ]  # after title and subtitle, cell by cell
    chart = ET.fromstring(_download(page, "compare-chart-picture-svg"))
    said = [t.text or "" for t in chart.iter(f"{SVG}text")]
    languages = [row[0].replace(" (baseline)", "") for row in cells[2:]]
    assert all(lang in said for lang in languages)
    assert "GPT-2 (gpt2)" in said and len(list(chart.iter(f"{SVG}rect"))) > len(languages)
    # a step of the step-through: the symbols after the merge, the merged ones outlined
    page.locator("#tab-steps").click()
    page.wait_for_selector('[data-testid="steps-corpus"] .sym', timeout=120_000)
    page.locator('[data-testid="steps-next"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"steps-corpus\"] .sym.merged') !== null", timeout=60_000
    )
    settle(page)
    merge = page.locator('[data-testid="steps-merge"]').text_content().strip()
    step = ET.fromstring(_download(page, "step-picture-svg"))
    said = [t.text or "" for t in step.iter(f"{SVG}text")]
    assert said[0] == merge
    merged = page.locator('[data-testid="steps-corpus"] .sym.merged').all_text_contents()
    outlined = [
        g.find(f"{SVG}text").text
        for g in step.iter(f"{SVG}g")
        if g.find(f"{SVG}rect").get("stroke") not in (None, "none")
    ]
    assert outlined == merged[: len(outlined)] and outlined


def test_story_of_an_open_model_token_opens(page, site_url):
    """Qwen 3 splits digits one by one: the story of "3" in "12345" is a single symbol, no merges
    (ids from `tokenizers`, as the page counts them: add_special_tokens=True)."""
    from tests import hf_models

    ids = hf_models.reference("qwen3").encode("12345", add_special_tokens=True).ids
    open_ready(page, site_url, "tokenize")
    _tokenize(page, "12345", "qwen3", len(ids))
    page.locator('[data-testid="token"]').nth(2).click()
    token_id, steps = _story_rows(page)
    assert token_id == ids[2]
    assert steps == []
    assert page.locator('[data-testid="token-story"]').get_attribute("data-state") == "ready"


def test_story_follows_the_add_special_tokens_switch(page, site_url):
    """With "Add special tokens" off, token k of the list is token k of
    `encode(text, add_special_tokens=False)`: the story must describe that token,
    not its neighbour (a fresh tester saw " world" when clicking " foo" in Llama 3)."""
    from tests import hf_models

    text = "hello world foo bar"
    ids = hf_models.reference("llama3_1").encode(text, add_special_tokens=False).ids
    open_ready(page, site_url, "tokenize")
    _tokenize(page, text, "llama3", len(ids) + 1)  # BOS added by default
    page.locator('[data-testid="toggle-special"]').uncheck()
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"llama3:{len(ids)}",
        timeout=60_000,
    )
    settle(page)
    page.locator('[data-testid="token"]').nth(2).click()
    token_id, _ = _story_rows(page)
    assert token_id == ids[2]


def test_right_to_left_merge_rows_read_pair_then_new_token(page, site_url, tmp_path):
    """Issue 11: in the Arabic story a row "“ال” + “م” → “الم”" read out of order (the bidi
    algorithm ran the Arabic parts and the neutral " + " together right to left). Each token
    text is now a direction isolate: the row's parts sit left to right as left, right, new token,
    and each holds its own text. Expected texts: tiktoken's bytes of the merged ids."""
    enc = tiktoken_for("o200k_base")
    text = "مرحبا بالعالم"
    ids = enc.encode(text)
    open_ready(page, site_url, "tokenize")
    _tokenize(page, text, "o200k_base", len(ids))
    page.locator('[data-testid="token"]').nth(2).click()
    token_id, steps = _story_rows(page)
    assert token_id == ids[2]
    _replays(enc, token_id, steps)
    rows = page.locator('[data-testid="story-pair"]').evaluate_all("""(cells) => cells.map((c) => ({
        dir: getComputedStyle(c).direction,
        parts: [...c.querySelectorAll('bdi')].map((b) => {
            const r = b.getBoundingClientRect();
            return {text: b.textContent, left: r.left, right: r.right, bidi: getComputedStyle(b).unicodeBidi};
        }),
    }))""")
    assert len(rows) == len(steps)
    arabic = 0
    for (left, right, merged), row in zip(steps, rows, strict=True):
        assert row["dir"] == "ltr"
        want = [enc.decode_single_token_bytes(t).decode("utf-8", "replace") for t in (left, right, merged)]
        texts = [p["text"] for p in row["parts"]]
        if all("\ufffd" not in w for w in want):
            assert texts == want, (texts, want)
            arabic += any("\u0600" <= c <= "\u06ff" for c in want[0]) and any(
                "\u0600" <= c <= "\u06ff" for c in want[1]
            )
        assert all(p["bidi"] == "isolate" for p in row["parts"])
        # on screen: left part, then right part, then the new token, left to right
        xs = [p["left"] for p in row["parts"]]
        assert xs == sorted(xs) and row["parts"][0]["right"] <= row["parts"][1]["left"] + 0.5, row
    assert arabic >= 2  # rows whose two parts are both Arabic were checked
    # the parts column runs the way the Arabic token row does (fresh tester's finding 10)
    dirs = page.locator(".story-parts").evaluate_all("(cells) => cells.map((c) => getComputedStyle(c).direction)")
    assert dirs and set(dirs) == {"rtl"}, dirs
    page.locator('[data-testid="token-story"]').screenshot(path=str(tmp_path / "story-rtl.png"))


def test_side_by_side_and_story_follow_the_special_token_switches(page, site_url):
    """Issue 13 follow-up: side-by-side rows counted without BOS (4 tokens where the main count
    said 5); the story ignored the OpenAI special-token switch (<|endoftext|> as one token).
    Expected ids: `tokenizers` (Llama 3, BOS as it adds it) and tiktoken (allowed_special="all")."""
    from tests import hf_models

    text = "Hello world foo"
    ref = hf_models.reference("llama3_1")
    cl100k = tiktoken_for("cl100k_base")
    open_ready(page, site_url, "tokenize")
    for add in (True, False):
        want = ref.encode(text, add_special_tokens=add).ids
        if add:
            _tokenize(page, text, "llama3", len(want))
            _side_by_side_with(page, "cl100k_base")
        else:
            page.locator('[data-testid="toggle-special"]').uncheck()
            page.wait_for_function(
                "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
                arg=f"llama3:{len(want)}",
            )
        page.wait_for_function(
            '(n) => { const c = document.querySelector(\'[data-testid="sbs-row-summary"][data-name="llama3"] [data-testid="sbs-count"]\');'
            " return c && c.textContent === String(n); }",
            arg=len(want),
            timeout=60_000,
        )
        assert page.text_content('[data-testid="count-tokens"]') == str(len(want))
        other = page.text_content('[data-testid="sbs-row-summary"][data-name="cl100k_base"] [data-testid="sbs-count"]')
        assert other == str(len(cl100k.encode_ordinary(text)))

    # the OpenAI switch: <|endoftext|> typed in the text is one token, in the list and in the story
    text = "a<|endoftext|>b"
    want = cl100k.encode(text, allowed_special="all")
    assert want[1] == cl100k.encode_single_token("<|endoftext|>")
    _tokenize(page, text, "cl100k_base", len(cl100k.encode_ordinary(text)))
    page.locator('[data-testid="toggle-specials"]').check()
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded === want",
        arg=f"cl100k_base:{len(want)}",
    )
    settle(page)
    page.locator('[data-testid="token"]').nth(1).click()
    token_id, steps = _story_rows(page)
    assert token_id == want[1] and steps == []
    page.wait_for_function(
        '(n) => { const c = document.querySelector(\'[data-testid="sbs-row-summary"][data-name="cl100k_base"] [data-testid="sbs-count"]\');'
        " return c && c.textContent === String(n); }",
        arg=len(want),
        timeout=60_000,
    )
