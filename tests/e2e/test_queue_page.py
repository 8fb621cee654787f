"""Issue 11, long calls in the one Python worker, in Chromium.

The worker runs one Python call at a time. These tests check that:

* a call's watchdog (``bytepair.callLimitMs``) measures the time the worker
  spends on that call, not the time it waited behind others (a small call
  queued behind a 5 MB encode used up its 15 s waiting, and its restart killed
  the encode too: a reload with a 5 MB Tokenize text never showed a count);
* a reload with a 5 MB saved Tokenize text shows the right count.

Expected counts come from tiktoken (built offline from the rank files).
"""

from __future__ import annotations

import pytest
import regex

from tests.e2e import helpers as h
from tests.reference import tiktoken_pattern
from tests.reference.openai_chat_refs import gpt_tokenizer_encode_chat
from tests.reference.slow_bpe import slow_encode_merges, slow_train

pytestmark = pytest.mark.e2e

#: A short call limit (the default is 15 s): the long call takes longer than this.
LIMIT_MS = 1000


TRAIN_TEXT = "low lower lowest newer newest wider widest " * 20
SHORT = "lowest newest widest, queued behind a long count"
N_MERGES = 8


def _trained_count(text: str) -> int:
    """Tokens of ``text`` under minbpe trained on TRAIN_TEXT (N_MERGES merges, cl100k split)."""
    split = regex.compile(tiktoken_pattern("cl100k_base")).findall
    merges = {pair: new_id for pair, new_id, _count in slow_train(TRAIN_TEXT, N_MERGES, split=split)}
    return len(slow_encode_merges((p.encode() for p in split(text)), merges))


def _train_small(page) -> None:
    res = page.evaluate(
        "([t, v]) => window.bytepair.train(t, { vocabSize: v, pattern: 'cl100k_base', name: 'small' })",
        [TRAIN_TEXT, 256 + N_MERGES],
    )
    assert res["name"] == "small" and res["n_merges"] == N_MERGES, res


def test_a_short_call_queued_behind_a_long_one_is_not_timed_out(page, site_url):
    """A short limited call (a trained tokenizer: its split pattern could backtrack) sent just
    after a long count gets its answer: its limit counts from when the long call has settled,
    and nothing is restarted. (Before: its timer ran while it waited, and it was "took longer
    than 1 s", the worker restarted under the long count too.)"""
    h.open_ready(page, site_url)
    enc = h.tiktoken_for("cl100k_base")
    text = h.udhr_mix(1_500_000)
    _train_small(page)
    assert page.evaluate("() => window.bytepair.count('warm up', 'cl100k_base')") == 2  # vocabulary fetched
    res = page.evaluate(
        """async ([text, short, limit]) => {
        const b = window.bytepair;
        b.callLimitMs = limit;
        const t0 = performance.now();
        const timed = (p) => p.then((n) => ({ n, ms: performance.now() - t0 }), (e) => ({ error: String(e.message) }));
        const big = timed(b.count(text, "cl100k_base"));
        await new Promise((r) => setTimeout(r, 50)); // the long call is on its way first
        const small = timed(b.count(short, "small"));
        return { big: await big, small: await small };
    }""",
        [text, SHORT, LIMIT_MS],
    )
    assert "error" not in res["big"], res
    assert "error" not in res["small"], res
    # (the test means something only if the long call held the worker longer than the short limit)
    assert res["big"]["ms"] > LIMIT_MS, res
    assert res["big"]["n"] == len(enc.encode_ordinary(text))
    assert res["small"]["n"] == _trained_count(SHORT)
    assert "restarted" not in page.text_content('[data-testid="status-text"]')


def test_the_sites_own_encodings_have_no_time_limit(page, site_url):
    """The site's own encodings have fixed patterns that cannot backtrack: a call with them is
    never ended by the watchdog (a 5-10 MB text, or a first use that downloads the vocabulary,
    may take longer than any fixed limit). A 1 ms limit: the first p50k_base count (its
    vocabulary is fetched and read) still answers, tiktoken's count. (Trained tokenizers keep
    the limit: test_robustness.py's backtracking-pattern test.)

    The 1 ms limit holds for every call of the page, so the test first waits for the calls the
    page sends by itself after Ready (Step-through learns its sample and encodes its word): those
    are limited, and one ended after 1 ms restarts the worker under the count."""
    h.open_ready(page, site_url)
    page.wait_for_selector(
        '[data-testid="steps-encode-result"][data-symbols]:not([data-symbols=""])',
        state="attached",
        timeout=h.READY_TIMEOUT,
    )
    enc = h.tiktoken_for("p50k_base")
    text = "Hello world, counted with an encoding not used before."
    res = page.evaluate(
        """async (text) => {
        const b = window.bytepair;
        b.callLimitMs = 1; // no call answers that fast
        return b.count(text, "p50k_base").catch((e) => ({ error: e.name + ": " + e.message }));
    }""",
        text,
    )
    assert res == len(enc.encode_ordinary(text)), res
    assert "restarted" not in page.text_content('[data-testid="status-text"]')


def test_a_5mb_saved_text_is_counted_after_a_reload(page, site_url):
    """The reload of issue 11: a 5 M-character Tokenize text saved, then a reload: the count
    shown is tiktoken's, with no restart and no error (it was "–" and "took longer than 15 s":
    the Step-through's first call, queued behind the big encode, used up its limit waiting).
    Meanwhile a Chat count answers (it waited ~8 s, for the whole count)."""
    h.open_ready(page, site_url, "tokenize")
    enc = h.tiktoken_for("cl100k_base")
    text = h.udhr_mix(5_000_000)
    n = len(enc.encode_ordinary(text))
    h.paste(page, "tokenize-text", text)
    page.wait_for_selector('[data-testid="tokenize-big-text"]:not([hidden])')
    h.wait_saved(page, "tokenize", text)  # saves are debounced
    page.reload()  # (while the first count may still run: the new page has a worker of its own)
    h.wait_ready(page)
    t0 = page.evaluate("() => performance.now()")
    # the first tokens are drawn at once, and the count runs in steps: a Chat count sent now
    # answers while Tokenize is still counting (it waited for the whole count before)
    page.wait_for_selector('[data-testid="token"]', timeout=120_000)
    chips_ms = page.evaluate("() => performance.now()") - t0
    chat = h.chat_while_counting(page, "Hello while Tokenize counts 5 MB")
    assert chat["ids"] == chat["want_ids"]
    assert chat["counting"], chat  # answered before the big count ended
    assert chat["shown"].startswith("…"), chat
    h.wait_counted(page, "cl100k_base", n)
    ms = page.evaluate("() => performance.now()") - t0
    assert "restarted" not in page.text_content('[data-testid="status-text"]')
    print(
        f"5 MB reload: first tokens {chips_ms / 1000:.1f} s, count {ms / 1000:.1f} s after Ready; "
        f"a Chat count during it answered in {chat['ms']:.0f} ms (progress then: {chat['shown']})"
    )


def test_a_chat_count_answers_while_a_big_count_runs(page, site_url):
    """Issue 11: during a 5 MB count, Chat kept its old total until the count finished (one
    Python call at a time). A big count now runs in ~50 ms steps (bytepair.app.chunked, exact), and
    calls of other views run in between: a Chat breakdown sent during a 2 M-character count
    answers before that count ends, with gpt-tokenizer's ids; the count is tiktoken's; progress
    is reported; a newer count with the same key supersedes the older one."""
    h.open_ready(page, site_url)
    enc = h.tiktoken_for("cl100k_base")
    text = h.udhr_mix(2_000_000)
    messages = [{"role": "user", "content": "How many tokens is this? 你好 👋🏽"}]
    (want_ids,) = gpt_tokenizer_encode_chat([{"model": "gpt-4o", "messages": messages}])
    res = page.evaluate(
        """async ([text, messages]) => {
        const b = window.bytepair;
        await b.count("warm up", "cl100k_base");
        await b.chat([{ role: "user", content: "warm up" }], "chatml-o200k");
        const t0 = performance.now();
        const progress = [];
        let firstStep;
        const stepped = new Promise((r) => (firstStep = r));
        const big = b
          .count(text, "cl100k_base", {
            key: "tokenize",
            onProgress: (p, n) => {
              progress.push([p, n]);
              firstStep();
            },
          })
          .then((n) => ({ n, ms: performance.now() - t0 }));
        await stepped; // the big count is under way
        const sent = performance.now() - t0;
        const chat = await b.chat(messages, "chatml-o200k");
        const chatMs = performance.now() - t0;
        const out = await big;
        // a newer count with the same key ends the older one
        const older = b.count(text, "cl100k_base", { key: "tokenize" }).catch((e) => e.name);
        await new Promise((r) => setTimeout(r, 200));
        const newer = await b.count(text.slice(0, 300000), "cl100k_base", { key: "tokenize" });
        return { big: out, sent, chatMs, chatIds: chat.ids, progress, older: await older, newer };
    }""",
        [text, messages],
    )
    assert res["big"]["n"] == len(enc.encode_ordinary(text))
    assert res["chatIds"] == want_ids
    assert res["chatMs"] < res["big"]["ms"], res  # Chat answered while the big count ran
    assert len(res["progress"]) > 2 and all(n == len(text) for _p, n in res["progress"])
    positions = [p for p, _n in res["progress"]]
    assert positions == sorted(positions) and 0 < positions[0] < len(text)
    assert res["older"] == "Superseded"
    assert res["newer"] == len(enc.encode_ordinary(text[:300000]))
    print(
        f"2 M chars: count {res['big']['ms'] / 1000:.1f} s; Chat sent at {res['sent'] / 1000:.2f} s, "
        f"answered at {res['chatMs'] / 1000:.2f} s ({(res['chatMs'] - res['sent']):.0f} ms)"
    )


def test_a_limited_call_behind_an_async_call_still_has_its_watchdog(page, site_url):
    """The worker's async calls overlap: a chat count that is still fetching its vocabulary lets a
    later call start. A trained tokenizer's split pattern that backtracks (`(a+)+$` on `aaa…a!`)
    then holds the worker, so the chat count cannot settle. The later call's watchdog starts when
    the worker takes the call in, so it still ends the worker with its message. (Before: the
    timer waited for the calls sent before it to settle, and the page hung until Cancel.)"""
    h.open_ready(page, site_url, "tokenize")
    res = page.evaluate(
        """([text]) => window.bytepair.train(text, { vocabSize: 260, pattern: '(a+)+$|[^a]+', name: 'bt' })""",
        ["bbb ccc bbb ccc dd ee dd ee bbb"],
    )
    assert res["name"] == "bt", res
    res = page.evaluate(
        """async ([limit]) => {
        const b = window.bytepair;
        b.callLimitMs = limit;
        const settle = (p) => p.then((r) => ({ ok: true }), (e) => ({ error: String(e.message) }));
        // o200k_base is not loaded yet: the chat count awaits its fetch inside the worker
        const chat = settle(b.chat([{ role: "user", content: "Hi" }], "chatml-o200k"));
        const stuck = settle(b.count("a".repeat(28) + "!", "bt"));
        const never = new Promise((r) => setTimeout(() => r({ error: "no answer in 60 s" }), 60_000));
        return { stuck: await Promise.race([stuck, never]), chat: await Promise.race([chat, never]) };
    }""",
        [2000],
    )
    assert "took longer than 2 s" in res["stuck"].get("error", ""), res
    h.wait_ready(page)
    assert page.evaluate("() => window.bytepair.count('still working', 'gpt2')") == len(
        h.tiktoken_for("gpt2").encode_ordinary("still working")
    )
