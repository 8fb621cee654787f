"""Facts the tests read from the page's own JavaScript sources (one parser each)."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def link_params() -> dict[str, list[str]]:
    """``LINK_PARAMS`` of web/src/links.js: each view's share-link parameters, in order."""
    src = (ROOT / "web" / "src" / "links.js").read_text(encoding="utf-8")
    block = re.search(r"LINK_PARAMS = Object\.freeze\(\{(.*?)\}\);", src, re.S).group(1)
    return {v: re.findall(r'"([\w]+)"', keys) for v, keys in re.findall(r"(\w+): \[([^\]]*)\]", block)}


def widget_attrs() -> list[str]:
    """``WIDGET_ATTRS`` of web/src/links.js: the element's names besides the link parameters."""
    src = (ROOT / "web" / "src" / "links.js").read_text(encoding="utf-8")
    return re.findall(r'"(\w+)"', re.search(r"WIDGET_ATTRS = Object\.freeze\(\[(.*?)\]\)", src, re.S).group(1))
