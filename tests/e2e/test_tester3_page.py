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
