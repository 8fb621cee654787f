"""The message catalogs without a browser (issue 21): every locale covers every key of
en.json, and every key the page asks for exists in en.json.

The keys the page asks for are read from the sources: ``data-i18n="key"`` and
``data-i18n-attr="attr:key"`` in web/index.html, and ``t("key")`` calls with a literal key in
web/src (a key built at run time, such as ``t(`dialog.copied.${what}`)``, is checked by its
literal prefix: some key of en.json starts with it).
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOCALES = ROOT / "web" / "src" / "locales"


def _messages(code: str) -> dict:
    return json.loads((LOCALES / f"{code}.json").read_text(encoding="utf-8"))["messages"]


@pytest.mark.parametrize("code", ["ur", "fa", "bn", "hi", "hi-Latn"])
def test_each_locale_covers_every_key_of_english(code):
    en = _messages("en")
    mine = _messages(code)
    assert sorted(en.keys() - mine.keys()) == []
    assert sorted(mine.keys() - en.keys()) == []
    empty = [
        k for k, m in mine.items() if not m["text"] or (isinstance(m["text"], dict) and not all(m["text"].values()))
    ]
    assert empty == []


def test_every_key_the_page_asks_for_is_in_english():
    en = _messages("en")
    html = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'data-i18n="([\w.-]+)"', html))
    for attrs in re.findall(r'data-i18n-attr="([^"]+)"', html):
        asked |= {pair.split(":")[1].strip() for pair in attrs.split(";") if ":" in pair}
    prefixes = set()
    for src in (ROOT / "web" / "src").rglob("*.js"):
        text = src.read_text(encoding="utf-8")
        asked |= set(re.findall(r'\bt\(\s*"([\w.-]+)"', text))
        prefixes |= set(re.findall(r"\bt\(\s*`([\w.-]+)\$\{", text))
    assert len(asked) > 50
    assert sorted(asked - en.keys()) == []
    assert sorted(p for p in prefixes if not any(k.startswith(p) for k in en)) == []


def test_report_category_definitions_are_bytepairs():
    """The Report view words a vocabulary category's definition from the catalog (keyed by
    category); its English source is bytepair.report.vocab.CATEGORIES's, the one definition."""
    from bytepair.report.vocab import CATEGORIES

    en = _messages("en")
    shown = {k.split(".")[2] for k in en if k.startswith("report.cat.") and k.endswith(".definition")}
    assert shown >= {"partial_utf8", "unreachable", "never_produced", "whitespace", "longest"}
    for category in shown:
        assert en[f"report.cat.{category}.definition"]["en"] == CATEGORIES[category][0], category
