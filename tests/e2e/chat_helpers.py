"""The Chat view's test steps, shared by the e2e files that count conversations
(test_chat_page, test_limits_page): the gpt-tokenizer reference under Node.js,
building a conversation through the UI, and waiting for the view's count."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.e2e.helpers import unavailable


def encode_chat(cases):
    """gpt-tokenizer's encodeChat for [{model, messages, options?}] -> [ids | {error}]."""
    from tests.reference.chat_transformers import ROOT, node_modules

    node = shutil.which("node")
    nm = node_modules()
    if node is None or not (nm / "gpt-tokenizer" / "package.json").is_file():
        unavailable("needs Node.js and node_modules/gpt-tokenizer")
    script = ROOT / "tests" / "reference" / "gpt_tokenizer_chat.mjs"
    proc = subprocess.run(
        [node, str(script), str(nm)], input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=True
    )
    return json.loads(proc.stdout)


def counted(page, timeout=60_000) -> tuple[str, int]:
    """Wait until the view shows a count for the conversation as it is now; (format, total)."""
    page.wait_for_function("() => !!document.querySelector('#view-chat').dataset.counted", timeout=timeout)
    fmt, total = page.evaluate("() => document.querySelector('#view-chat').dataset.counted").rsplit(":", 1)
    return fmt, int(total)


def build_conversation(page, messages) -> None:
    """Remove every message with the ✕ buttons, then add `messages` one by one through the UI."""
    while page.locator('[data-testid="chat-message"]').count():
        page.locator('[data-testid="chat-remove"]').first.click()
    for i, m in enumerate(messages):
        page.click('[data-testid="chat-add"]')
        item = page.locator('[data-testid="chat-message"]').nth(i)
        item.locator('[data-testid="chat-role"]').select_option(m["role"])
        item.locator('[data-testid="chat-content"]').fill(m["content"])


def shown_conversation(page):
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid="chat-message"]')].map((li) => ({
        role: li.querySelector('[data-testid="chat-role"]').value,
        content: li.querySelector('[data-testid="chat-content"]').value }))""")


def wait_total(page, fmt, total, timeout=60_000):
    page.wait_for_function(
        "([want]) => document.querySelector('#view-chat').dataset.counted === want",
        arg=[f"{fmt}:{total}"],
        timeout=timeout,
    )
