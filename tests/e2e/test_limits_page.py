"""Issue 22 part 4 in Chromium: Tokenize's context-window line (within and over the limit) and
the chunks downloaded as JSONL (bytepair.chunk through the worker).

References: tiktoken (counts, built offline from the rank files); the context windows as their
makers publish them (GPT-2's config ``n_ctx`` 1024; OpenAI's model page: GPT-4o 128,000).
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e


def test_context_line_within_and_over_the_window(page, site_url):
    h.open_ready(page, site_url, "tokenize")
    line = page.locator('[data-testid="context-line"]')
    text = "Hello there, how many tokens is this?"
    h.encode_in_page(page, text, "o200k_base")
    n = len(h.tiktoken_for("o200k_base").encode(text))
    assert line.is_visible()
    assert line.text_content() == f"{n:,} of 128,000 tokens (GPT-4o)"
    assert line.get_attribute("data-over") == "false"
    long_text = "The quick brown fox jumps over the lazy dog. " * 120  # ~1,200 GPT-2 tokens
    h.encode_in_page(page, long_text, "gpt2")
    n = len(h.tiktoken_for("gpt2").encode(long_text))
    assert n > 1024
    assert line.text_content() == f"{n:,} of 1,024 tokens (GPT-2): {n - 1024:,} over its context window"
    assert line.get_attribute("data-over") == "true"
    assert "n_ctx 1024" in line.get_attribute("title")


def test_chunks_download_as_jsonl_within_the_limit(page, site_url, tmp_path):
    h.open_ready(page, site_url, "tokenize")
    text = (
        "First sentence of the text. A second one follows! Does a third ask?\n\n"
        "日本語の文も一つ。 Emoji 👨\u200d👩\u200d👧 inside a sentence. "
    ) * 6
    h.encode_in_page(page, text, "cl100k_base")
    page.fill('[data-testid="chunk-max"]', "20")
    page.fill('[data-testid="chunk-overlap"]', "0")
    page.select_option('[data-testid="chunk-boundary"]', "sentence")
    with page.expect_download() as info:
        page.click('[data-testid="chunk-download"]')
    path = tmp_path / "chunks.jsonl"
    info.value.save_as(path)
    assert info.value.suggested_filename == "chunks-cl100k_base.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    ref = h.tiktoken_for("cl100k_base")
    assert len(rows) > 5 and "".join(r["text"] for r in rows) == text
    for i, r in enumerate(rows):
        assert list(r) == ["index", "text", "tokens", "start", "end"] and r["index"] == i
        assert text[r["start"] : r["end"]] == r["text"]
        assert r["tokens"] == len(ref.encode(r["text"])) <= 20
    assert page.locator('[data-testid="chunk-status"]').text_content().startswith(f"{len(rows)} chunks")
    # too small a limit: the error names the field, no download
    page.fill('[data-testid="chunk-max"]', "0")
    page.click('[data-testid="chunk-download"]')
    assert h.visible_error(page, "chunk-error") == MAX_WORDS
    assert page.get_attribute('[data-testid="chunk-max"]', "aria-invalid") == "true"


MAX_WORDS = "Tokens per chunk: enter a whole number, 1 or more (for example 512)."


@pytest.mark.parametrize(
    ("max_tokens", "overlap", "field", "message"),
    [
        ("", "0", "chunk-max", MAX_WORDS),
        ("0", "0", "chunk-max", MAX_WORDS),
        ("-1", "0", "chunk-max", MAX_WORDS),
        ("2.5", "0", "chunk-max", MAX_WORDS),
        ("99999999999999999999", "0", "chunk-max", "Tokens per chunk: enter at most 9,007,199,254,740,991."),
        ("10", "", "chunk-overlap", "Overlap: enter a whole number of tokens, 0 or more."),
        ("10", "20", "chunk-overlap", "Overlap: enter fewer tokens than a chunk holds (20 is not less than 10)."),
    ],
)
def test_chunk_form_speaks_in_its_own_words(page, site_url, max_tokens, overlap, field, message):
    """Tester bug 7: no "max_tokens", nan or 1e+20 in the form's errors, and nothing is downloaded."""
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    h.open_ready(page, site_url, "tokenize")
    h.encode_in_page(page, "Some text to cut.", "cl100k_base")
    page.fill('[data-testid="chunk-max"]', max_tokens)
    page.fill('[data-testid="chunk-overlap"]', overlap)
    page.click('[data-testid="chunk-download"]')
    assert h.visible_error(page, "chunk-error") == message
    assert page.get_attribute(f'[data-testid="{field}"]', "aria-invalid") == "true"
    page.fill('[data-testid="chunk-max"]', "512")
    page.fill('[data-testid="chunk-overlap"]', "0")
    with page.expect_download():
        page.click('[data-testid="chunk-download"]')
    assert page.locator('[data-testid="chunk-error"]').is_hidden()
    assert len(downloads) == 1


def test_empty_text_is_not_chunked(page, site_url):
    """Tester bug 8: an empty text downloaded an empty file."""
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    h.open_ready(page, site_url, "tokenize")
    h.set_text(page, "tokenize-text", "")
    page.click('[data-testid="chunk-download"]')
    status = page.locator('[data-testid="chunk-status"]')
    status.filter(has_text="Nothing to chunk").wait_for()
    assert status.text_content() == "Nothing to chunk: the text is empty."
    # a text to cut: its download is the only one (one the empty text started would come first)
    h.set_text(page, "tokenize-text", "Some text to cut.")
    with page.expect_download() as cut:
        page.click('[data-testid="chunk-download"]')
    assert [d.url for d in downloads] == [cut.value.url]


def test_chat_context_line_within_and_over_the_window(page, site_url):
    from tests.e2e.chat_helpers import build_conversation, encode_chat, wait_total

    short = [{"role": "user", "content": "How long may a prompt be?"}]
    long = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Count these words. " * 5000}]
    ref = encode_chat([{"model": "gpt-4o", "messages": short}, {"model": "gpt-3.5-turbo", "messages": long}])
    h.open_ready(page, site_url, "chat")
    line = page.locator('[data-testid="chat-context-line"]')
    page.select_option('[data-testid="chat-format"]', "chatml-o200k")
    build_conversation(page, short)
    wait_total(page, "chatml-o200k", len(ref[0]))
    h.settle(page)
    assert line.text_content() == f"{len(ref[0]):,} of 128,000 tokens (GPT-4o)"
    page.select_option('[data-testid="chat-format"]', "chatml-gpt-3.5")
    build_conversation(page, long)
    n = len(ref[1])
    assert n > 16_385
    wait_total(page, "chatml-gpt-3.5", n, timeout=120_000)
    h.settle(page)
    assert line.text_content() == f"{n:,} of 16,385 tokens (GPT-3.5 Turbo): {n - 16_385:,} over its context window"
    assert line.get_attribute("data-over") == "true"


def test_chunk_form_fits_a_phone(phone_page, site_url):
    page = phone_page
    h.open_ready(page, site_url, "tokenize")
    geo = page.locator('[data-testid="chunk-form"]').evaluate("""(el) => {
        const right = Math.max(...[...el.querySelectorAll('input, select, button')]
            .map((c) => c.getBoundingClientRect().right));
        return { right, page: document.documentElement.scrollWidth };
    }""")
    assert geo["right"] <= 390 and geo["page"] <= 390, geo
