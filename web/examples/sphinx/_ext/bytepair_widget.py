"""A ``bytepair-widget`` directive for Sphinx: a ``<bytepair-widget>`` element (docs/EMBED.md).

In ``conf.py``::

    sys.path.insert(0, os.path.abspath("_ext"))
    extensions = ["bytepair_widget"]
    bytepair_widget_js = "https://example.org/bytepair/widget.js"  # where the playground is published

In a page::

    .. bytepair-widget:: train
       :text: low lower newest widest
       :v: 300
       :lang: bn

The argument is the view (train, tokenize, compare, steps, chat, report); every option becomes an attribute
of the element, with the names of the playground's share links (``tok``, ``v``, ``p``, ``t``,
``src``, ``metric``, ...), plus ``text``, ``lang``, ``theme`` and ``height``. A multi-line option
(Compare's ``text``: one ``name | text`` line per language) keeps its line breaks. The page gets
one ``<script type="module">`` for the widget module (only the pages that use the directive).
"""

from __future__ import annotations

import html

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

VIEWS = ("train", "tokenize", "compare", "steps", "chat", "report")
#: Options the element understands (widget.js: view parameters of web/src/links.js and its own).
OPTIONS = (
    "text", "t", "tok", "v", "p", "g", "gt", "src", "metric", "name", "lang", "theme", "height",
    "mode", "in", "tie", "re", "n", "s", "w", "ids", "ws", "sp", "st", "sbs", "fmt", "gen", "base",
)  # fmt: skip


class BytepairWidget(SphinxDirective):
    """``.. bytepair-widget:: VIEW`` with options as attributes; writes raw HTML (HTML builders only)."""

    required_arguments = 1
    option_spec = {name: directives.unchanged for name in OPTIONS}

    def run(self) -> list[nodes.Node]:
        view = self.arguments[0]
        if view not in VIEWS:
            raise self.error(f"bytepair-widget: unknown view {view!r} (one of {', '.join(VIEWS)})")
        attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in self.options.items())
        self.env.metadata[self.env.docname]["bytepair_widget"] = True
        markup = f'<div><bytepair-widget view="{view}"{attrs}></bytepair-widget></div>'
        return [nodes.raw("", markup, format="html")]


def _add_script(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The widget module, once, on each page that holds a widget."""
    if app.env.metadata.get(pagename, {}).get("bytepair_widget"):
        app.add_js_file(app.config.bytepair_widget_js, type="module")


def setup(app: Sphinx) -> dict:
    app.add_config_value("bytepair_widget_js", "https://example.org/bytepair/widget.js", "html")
    app.add_directive("bytepair-widget", BytepairWidget)
    app.connect("html-page-context", _add_script)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
