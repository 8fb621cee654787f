"""Tester's problems 1 and 6, in Chromium: a long open-model count runs in exact steps
(``bytepair.hf.chunked``), so other views answer meanwhile, and its "working" line reads as
progress ("Counting… 49%"), not as a stall.

Expected counts come from ``tokenizers`` (Llama 3's tokenizer.json) and gpt-tokenizer (Chat).
"""

from __future__ import annotations

import re

import pytest

from tests import hf_models
from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e


def test_chat_answers_during_a_long_llama3_count(page, site_url):
    """Llama 3, 3 M characters in Tokenize: the first tokens are drawn, a Chat count sent then
    answers (gpt-tokenizer's ids) while Tokenize still counts (it waited 72 s for a 5 MB count:
    open models were counted in one step), the working line shows "Counting… N%" with a Cancel
    button, and the total is ``tokenizers``' (BOS included, the page's default)."""
    ref = hf_models.reference("llama3_1")
    h.open_ready(page, site_url, "tokenize?tok=llama3")
    text = h.udhr_mix(3_000_000)
    n = len(ref.encode(text).ids)
    h.paste(page, "tokenize-text", text)
    page.wait_for_selector('[data-testid="tokenize-big-text"]:not([hidden])')
    t0 = page.evaluate("() => performance.now()")
    page.wait_for_selector('[data-testid="token"]', timeout=180_000)
    chat = h.chat_while_counting(page, "Hello while Tokenize counts with Llama 3")
    assert chat["ids"] == chat["want_ids"]
    assert chat["counting"], chat  # answered before the big count ended
    assert chat["shown"].startswith("…"), chat
    # the working line, once shown (after 3 s), reads as progress while the count moves
    page.wait_for_function(
        """() => { const el = document.querySelector('[data-testid="tokenize-working"]');
                   return (!el.hidden && el.dataset.state === 'progress')
                     || !!document.querySelector('#view-tokenize').dataset.encoded; }""",
        timeout=120_000,
    )
    notice = page.locator('[data-testid="tokenize-working"]')
    if notice.is_visible():
        said = notice.inner_text()
        assert re.search(r"Counting… \d+%", said), said
        assert "taking a while" not in said, said
        assert notice.locator("button").inner_text().strip() == "Cancel"
        shown_progress = True
    else:
        shown_progress = False  # the count ended before the line's 3 s delay (a quiet machine)
    h.wait_counted(page, "llama3", n)
    ms = page.evaluate("() => performance.now()") - t0
    assert page.locator('[data-testid="tokenize-working"]').is_hidden()
    print(
        f"Llama 3, 3 M chars: count {ms / 1000:.1f} s after the paste; a Chat count during it "
        f"answered in {chat['ms']:.0f} ms (progress then: {chat['shown']}); progress line seen: {shown_progress}"
    )


def test_qwen3_first_tokens_come_at_once_from_a_text_nfc_changes(page, site_url):
    """Issue 22 part 5: Qwen 3 (an NFC normalizer) drew a long text's tokens only after encoding all
    of it (12.8 s for 1 MB here, no progress); its first tokens now come from a checked prefix
    (``n_tokens`` null: the count follows in steps) even where NFC changes the text (the UDHR's
    Hindi and Vietnamese), ids and count as ``tokenizers``'."""
    ref = hf_models.reference("qwen3")
    h.open_ready(page, site_url, "tokenize?tok=qwen3")
    text = h.udhr_mix(1_000_000)
    got = page.evaluate(
        """async (text) => {
        const first = await window.bytepair.encodeSpans(text, "qwen3", 5000, { total: false });
        const n = await window.bytepair.count(text, "qwen3");
        return { ids: first.ids, n_tokens: first.n_tokens, n };
    }""",
        text,
    )
    want = ref.encode(text).ids
    assert got["n_tokens"] is None  # the shortcut applied: the whole text was not encoded
    assert got["ids"] == want[:5000] and got["n"] == len(want)
