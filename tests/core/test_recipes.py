"""The course-page recipes' own code (web/examples, docs/EMBED.md): the Sphinx directive and the
Quarto shortcode take every view and every attribute ``<bytepair-widget>`` reads (web/widget.js:
the views and share-link parameters of ``LINK_PARAMS`` in web/src/links.js, and ``WIDGET_ATTRS``),
so a snippet the Embed dialog writes for them is never refused."""

from __future__ import annotations

import re

from tests.web_source import ROOT, link_params, widget_attrs

EXAMPLES = ROOT / "web" / "examples"


def _sphinx_ext() -> tuple[set[str], set[str]]:
    """VIEWS and OPTIONS of the Sphinx example's extension (read from its source: importing it needs Sphinx)."""
    source = (EXAMPLES / "sphinx" / "_ext" / "bytepair_widget.py").read_text(encoding="utf-8")
    views = re.search(r"^VIEWS = \((.*?)\)", source, re.S | re.M).group(1)
    options = re.search(r"^OPTIONS = \((.*?)\)", source, re.S | re.M).group(1)
    return set(re.findall(r'"(\w+)"', views)), set(re.findall(r'"(\w+)"', options))


def test_the_sphinx_directive_takes_every_view_and_attribute():
    views, options = _sphinx_ext()
    params = link_params()
    assert views == set(params)
    wanted = {p for names in params.values() for p in names} | set(widget_attrs()) | {"height"}
    assert sorted(wanted - {"view"} - options) == []  # (the view is the directive's argument)


def test_the_quarto_shortcode_takes_every_view():
    lua = (EXAMPLES / "quarto" / "_extensions" / "bytepair" / "bytepair.lua").read_text(encoding="utf-8")
    views = re.search(r"local VIEWS = \{(.*?)\}", lua).group(1)
    assert set(re.findall(r"(\w+) = true", views)) == set(link_params())
    # every key="value" becomes an attribute: no list of names to fall behind
    assert "for name, _ in pairs(kwargs)" in lua
