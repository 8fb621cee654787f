"""Issue 7's seams in the browser: the facts the page shows come from Python
(bytepair.app.facts, computed here on CPython as the reference), and errors arrive
as data with the field they belong to.
"""

from __future__ import annotations

from bytepair.app import facts as py_facts
from tests.e2e import helpers as h


def test_facts_reach_the_page_and_its_lists(page, site_url):
    h.open_ready(page, site_url)
    expected = py_facts.facts()
    got = page.evaluate("() => window.bytepair.facts")
    assert {k: v for k, v in got.items() if k != "version"} == expected
    # the pre-tokenizer list of the train and steps views, in Python's order and labels
    for testid in ("train-pattern", "steps-pattern"):
        options = page.eval_on_selector_all(
            f'[data-testid="{testid}"] option', "(os) => os.map((o) => [o.value, o.textContent])"
        )
        assert options == [[p["value"], p["label"]] for p in expected["pretokenizers"]]
    listed = [t for t in expected["tokenizers"] if t["listed"]]
    options = page.eval_on_selector_all(
        '[data-testid="tokenize-tokenizer"] optgroup:first-child option',
        "(os) => os.map((o) => [o.value, o.textContent])",
    )
    assert options == [[t["name"], t["label"]] for t in listed]
    assert page.get_attribute('[data-testid="train-vocab"]', "max") == str(expected["vocab_size"]["max"])
    assert page.evaluate("() => window.bytepair.tokenizers()")[: len(listed)] == [t["name"] for t in listed]
    assert page.console_errors == []


def test_errors_carry_their_field_across_the_worker(page, site_url):
    h.open_ready(page, site_url)
    err = page.evaluate("""async () => {
        try { await window.bytepair.train('abc', {vocabSize: 12, pattern: 'none'}); return null; }
        catch (e) { return {name: e.name, field: e.field, type: e.type, message: e.message}; }
    }""")
    assert err["name"] == "BytepairError" and err["field"] == "vocab_size" and err["type"] == "argument"
    assert "vocabSize" in err["message"] and str(py_facts.MIN_VOCAB_SIZE) in err["message"]
    err = page.evaluate(r"""async () => {
        try { await window.bytepair.checkPattern('a\\p{Foo}'); return null; }
        catch (e) { return {field: e.field, type: e.type, construct: e.detail.construct, message: e.message}; }
    }""")
    assert err["field"] == "pattern" and err["type"] == "pattern" and err["construct"] == r"\p{Foo}"
    # the view puts a pattern error beside the regex field
    h.set_text(page, "train-text", "some text some text")
    page.select_option('[data-testid="train-pattern"]', "custom")
    page.fill('[data-testid="train-regex"]', "(open")
    page.get_by_role("button", name="Train", exact=True).click()
    assert "character 1" in h.visible_error(page, "train-regex-error")
    assert page.console_errors == []


def test_calls_in_flight_together_keep_their_own_errors(page, site_url):
    """Issue 18: each call's error travels with its own rejection (web/src/pycall.js), so calls
    sent together, failing differently or not at all, each get their own answer."""
    h.open_ready(page, site_url)
    out = page.evaluate(r"""async () => {
        const bp = window.bytepair;
        const settle = (p) => p.then(
          (value) => ({value}),
          (e) => ({name: e.name, type: e.type, field: e.field, construct: e.detail?.construct ?? null}),
        );
        return Promise.all([
          settle(bp.checkPattern('a\\p{Foo}')),
          settle(bp.train('abc', {vocabSize: 12, pattern: 'none'})),
          settle(bp.encode('hello world', 'gpt2')),
          settle(bp.checkPattern('a\\p{Bar}')),
        ]);
    }""")
    assert out[0] == {"name": "BytepairError", "type": "pattern", "field": "pattern", "construct": r"\p{Foo}"}
    assert out[1]["type"] == "argument" and out[1]["field"] == "vocab_size"
    assert out[2] == {"value": [31373, 995]}  # tiktoken gpt2: "hello world"
    assert out[3]["type"] == "pattern" and out[3]["construct"] == r"\p{Bar}"
    assert page.console_errors == []
