"""Links in Chromium: the Share dialog true for the link it made, and links whose
parameters the page cannot use.

* The Share dialog with a text too large for a link (over ``MAX_LINK_TEXT``, 2
  million characters): its first sentence said the link reopens the text while
  the warning under it said the link holds the settings only.
* Link parameters with wrong names (``#compare?toks=``) were ignored silently; bad
  values of known parameters (``metric=``, ``ids=``) too, in places.

Expected values are the page's own input (the text pasted, the parameters of the
link typed here), never the page's output. Predicates are arrow functions (the
page's Content-Security-Policy forbids eval).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e


def _visible_text(page) -> str:
    """The text a reader sees (innerText leaves out display:none, hidden views and closed dialogs)."""
    return page.evaluate("() => document.body.innerText")


# --- touch wording ------------------------------------------------------------------


# --- the Share dialog says one true thing --------------------------------------------


def _share(page) -> dict:
    page.click('[data-testid="share-button"]')
    page.locator('[data-testid="share-dialog"]').wait_for(state="visible")
    out = {
        "intro": page.locator('[data-testid="share-intro"]').inner_text(),
        "note": page.locator('[data-testid="share-note"]').inner_text()
        if page.locator('[data-testid="share-note"]').is_visible()
        else "",
        "link": page.input_value('[data-testid="share-link"]'),
        "text": page.locator('[data-testid="share-dialog"]').inner_text(),
    }
    page.keyboard.press("Escape")
    return out


def test_share_dialog_with_a_text_too_large_for_a_link_says_settings_only(page, site_url):
    h.open_ready(page, site_url, "train")
    big = "the quick brown fox jumps over the lazy dog " * 50_000  # 2,250,000 characters > 2 million
    h.paste(page, "train-text", big)
    page.locator('[data-testid="train-big-text"]').wait_for(state="visible")
    page.fill('[data-testid="train-vocab"]', "300")
    shared = _share(page)
    fragment = unquote(shared["link"].split("#", 1)[1])
    assert not re.search(r"[?&]t=", fragment), fragment
    assert re.search(r"[?&]v=300(&|$)", fragment), fragment
    # one message: the settings only, the text to paste again; nothing says the text comes back
    assert "settings only" in shared["intro"] and f"{len(big) / 1e6:.1f} million characters" in shared["intro"], shared
    assert "paste the training text again" in shared["intro"], shared
    assert "reopens the view as it is now" not in shared["text"], shared
    assert "never reaches a server" not in shared["text"], shared
    assert shared["text"].count("too large for a link") == 1, shared
    # a text that fits: the first sentence says the text comes back, and it is in the link
    page.click('#view-train [data-action="clear-big-text"]')
    h.set_text(page, "train-text", "low lower lowest newer wider")
    shared = _share(page)
    assert re.search(r"[?&]t=", shared["link"]), shared["link"]
    assert "reopens the view as it is now: the training text and the settings" in shared["intro"], shared
    assert "too large" not in shared["text"] and "settings only" not in shared["text"], shared
    assert page.console_errors == []


# --- link parameters the page cannot use ----------------------------------------------


def _note(page) -> str:
    note = page.locator('[data-testid="link-note"]')
    note.wait_for(state="visible", timeout=30_000)
    return page.locator('[data-testid="link-note-text"]').inner_text()


def test_unknown_link_parameters_and_bad_values_get_a_dismissable_note(page, site_url):
    page.goto(site_url + "#compare?toks=gpt2,o200k_base&metric=bytes")
    h.wait_ready(page)
    text = _note(page)
    assert "“toks”" in text and "src, t, tok, metric" in text, text
    assert "metric=“bytes”" in text and "premium, tokens, or bpt" in text, text
    page.click('[data-testid="link-note-close"]')
    assert page.locator('[data-testid="link-note"]').is_hidden()
    # another view: its own known names, several unknown ones named at once, a bad flag value
    page.goto(site_url + "#tokenize?tokk=gpt2&idz=1&ids=yes")
    page.reload()
    h.wait_ready(page)
    text = _note(page)
    assert "“tokk”, “idz”" in text and "#tokenize links know t, tok, ids, ws, sp, st, sbs, g, gt" in text, text
    assert "ids=“yes”" in text, text
    assert "tokk" not in _visible_text(page).replace(text, "")  # said once
    # an unknown view name
    page.goto(site_url + "#compar?tok=gpt2")
    text = _note(page)
    assert "“compar”" in text and "train, tokenize, compare, steps, chat" in text, text
    assert "showing #tokenize" in text and page.evaluate("() => document.body.dataset.view") == "tokenize", text
    # the note belongs to the linked view: another tab takes it away
    page.click("#tab-chat")
    page.wait_for_function("() => document.querySelector('[data-testid=\"link-note\"]').hidden")
    # a link the page wrote itself (Share) has only known names and values: no note
    page.goto(site_url + "#tokenize")
    page.reload()
    h.wait_ready(page)
    page.check('[data-testid="toggle-ids"]')
    page.check('[data-testid="toggle-whitespace"]')
    link = _share(page)["link"]
    page.goto(link)
    page.reload()
    h.wait_ready(page)
    h.settle(page)
    page.wait_for_function("() => document.querySelector('#view-tokenize').dataset.encoded")
    assert page.locator('[data-testid="link-note"]').is_hidden(), page.locator('[data-testid="link-note"]').inner_text()
    assert page.is_checked('[data-testid="toggle-ids"]') and page.is_checked('[data-testid="toggle-whitespace"]')
    # the skip link's "#main" is no view: the page stays on Tokenize
    page.evaluate("() => { location.hash = '#main'; }")
    h.settle(page)
    assert page.evaluate("() => document.body.dataset.view") == "tokenize"
    assert page.console_errors == []


# --- issue 11 item 8: messages in plain words, never a raw developer message ---------
