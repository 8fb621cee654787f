"""Tokenization results for notebooks: coloured tokens in Jupyter, Colab, VS Code and marimo.

:func:`show` encodes a text and returns a :class:`TokenView`. A notebook displays it
through ``_repr_html_`` as the playground draws tokens: one coloured chip per token
(the page's six light token colours, cycled), the id and bytes of each token in its
hover title, invisible characters by name (``⟨ZWJ⟩``, in a dashed box, their Unicode
name on hover), fragments of a character as hex (``<e0a6>``). Everything shown comes
from bytepair's display helpers (:func:`bytepair.token_to_display_parts`,
:func:`bytepair.token_note`, :func:`bytepair.charnames.invisible_marks`); this module
only lays them out. The HTML is self-contained: inline styles, no script, no request to
any host; every text is HTML-escaped. Elsewhere (a terminal, a plain-text output) the
view prints as text: ``repr()``.

Needs nothing beyond bytepair (the live widgets, :mod:`bytepair.widgets`, need
``anywidget``: ``pip install "bytepair[notebook]"``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .charnames import INVISIBLE_CLOSE, INVISIBLE_OPEN, invisible_marks
from .decoding import token_note, token_to_display_parts, token_to_label
from .errors import ArgumentError, ArgumentTypeError
from .tokenizer import TokenSpan

__all__ = ["TOKEN_COLORS", "TokenView", "show", "token_parts", "token_title"]

#: The playground's light token colours, cycled by token index (``web/styles.css``
#: ``--tok-0`` .. ``--tok-5``; ``web/src/tokenlist.js`` ``COLORS``). Text on them is
#: drawn black, so a dark notebook theme keeps it readable.
TOKEN_COLORS: tuple[str, ...] = ("#ffe3e3", "#d3f9d8", "#d0ebff", "#fff3bf", "#e5dbff", "#c5f6fa")

#: Tokens drawn by default (a long text's view lists the rest as a count).
DEFAULT_LIMIT = 5000

_BOX = (
    "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; line-height: 1.9; "
    "white-space: pre-wrap; overflow-wrap: anywhere; padding: 0.4em 0;"
)
_CHIP = (
    "color: #000; border-radius: 3px; padding: 0.1em 0; margin-right: 1px; box-shadow: inset 0 -2px 0 rgba(0,0,0,0.08);"
)
_SPECIAL = " outline: 1.5px dashed #1c7ed6; outline-offset: -1px; font-weight: 700;"
_NOTE = " text-decoration: underline dotted #555; text-underline-offset: 3px;"
_INVIS = (
    "font-size: 0.7em; font-weight: 700; color: #444; border: 1px dashed #666; border-radius: 3px; "
    "padding: 0 0.15em; margin: 0 0.05em; white-space: nowrap;"
)
_HEX = "color: #5c3d99;"
_ID = "font-size: 0.7em; color: #555; vertical-align: sub; margin-left: 0.15em; white-space: nowrap;"
_HEAD = "font-family: system-ui, sans-serif; font-size: 0.85em; opacity: 0.8;"


def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _tokenizer_name(tok: Any) -> str:
    for attr in ("name", "label"):
        value = getattr(tok, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(tok).__name__


@dataclass(frozen=True)
class TokenView:
    """A text and its tokens, shown as coloured tokens in a notebook.

    ``text``: the input (*characters*); ``spans``: one :class:`bytepair.TokenSpan`
    per token (id, bytes, ``[start, end)`` in characters, special); ``tokenizer``:
    the tokenizer's name; ``limit``: how many tokens the HTML draws (the header
    counts all); ``show_ids``: draw each id after its token (it is always in the
    hover title).
    """

    text: str
    spans: tuple[TokenSpan, ...]
    tokenizer: str
    limit: int = DEFAULT_LIMIT
    show_ids: bool = False

    @property
    def ids(self) -> list[int]:
        """The token ids, in order."""
        return [s.id for s in self.spans]

    @property
    def tokens(self) -> list[bytes]:
        """The tokens' bytes, in order."""
        return [s.token for s in self.spans]

    def __len__(self) -> int:
        return len(self.spans)

    def summary(self) -> str:
        """``"cl100k_base: 2 tokens, 11 characters, 11 bytes"``."""
        n_bytes = len(self.text.encode("utf-8", "surrogatepass"))
        return (
            f"{self.tokenizer}: {len(self.spans):,} token{'s' if len(self.spans) != 1 else ''}, "
            f"{len(self.text):,} character{'s' if len(self.text) != 1 else ''}, {n_bytes:,} bytes"
        )

    def __repr__(self) -> str:
        """Plain-text form: the summary, the ids, then the tokens as :func:`bytepair.token_to_label`
        shows them, separated by ``|`` (at most ``limit`` of them)."""
        shown = self.spans[: self.limit]
        more = len(self.spans) - len(shown)
        tail = f" ... ({more:,} more)" if more else ""
        return (
            f"{self.summary()}\n"
            f"ids: {[s.id for s in shown]}{tail}\n"
            f"{'|'.join(token_to_label(s.token) for s in shown)}{tail}"
        )

    def _repr_html_(self) -> str:
        """The coloured tokens as one self-contained ``<div>`` (inline styles, no script)."""
        out = [
            f'<div class="bytepair-tokens" data-tokenizer="{_esc(self.tokenizer)}">',
            f'<div class="bytepair-summary" style="{_HEAD}">{_esc(self.summary())}</div>',
            f'<div style="{_BOX}">',
        ]
        for i, span in enumerate(self.spans[: self.limit]):
            out.append(_chip(span, i, show_id=self.show_ids))
        out.append("</div>")
        more = len(self.spans) - min(len(self.spans), self.limit)
        if more:
            out.append(f'<div style="{_HEAD}">... {more:,} more tokens (show(..., limit=N) draws more)</div>')
        out.append("</div>")
        return "".join(out)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """``{"text/html": ..., "text/plain": ...}`` for Jupyter's display system."""
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}


def token_title(span: TokenSpan) -> str:
    """A token's hover title: ``"id 15339 · 5 bytes: 68 65 6c 6c 6f"``, then ``" · special token"``
    and :func:`bytepair.token_note` when there is one (fragments, named characters)."""
    b = span.token
    title = f"id {span.id} · {len(b)} byte{'s' if len(b) != 1 else ''}: {b.hex(' ')}"
    if span.special:
        title += " · special token"
    note = token_note(b)
    if note:
        title += " · " + note
    return title


def token_parts(b: bytes) -> list[tuple[str, str, str]]:
    """What a token chip holds, in order, as ``(kind, text, title)`` triples (*characters*).

    ``kind``: ``"text"`` (plain text, ``title`` empty); ``"hex"`` (a run of fragment bytes,
    ``"<e0a6>"``, from :func:`bytepair.token_to_display_parts`); ``"name"`` (an invisible or
    control character as ``"⟨ZWJ⟩"``, ``title`` its code point and name, from
    :func:`bytepair.charnames.invisible_marks`); ``"base"`` (a combining mark that begins the
    token, on a dotted circle: ``"◌\u0301"``). The texts joined are
    :func:`bytepair.token_to_label` of ``b``.

    Raises:
        TypeError: ``b`` is not bytes-like.
    """
    out: list[tuple[str, str, str]] = []
    for i, (is_text, s) in enumerate(token_to_display_parts(b)):
        if not is_text:
            out.append(("hex", "<" + s + ">", ""))
            continue
        marks = invisible_marks(s, token_starts=(0,) if i == 0 else ())
        pos = 0
        for start, end, label, title, base in zip(
            marks["start"], marks["end"], marks["label"], marks["title"], marks["base"]
        ):
            if start > pos:
                out.append(("text", s[pos:start], ""))
            if base:  # the mark itself, drawn on the circle
                out.append(("base", label + s[start:end], title))
            else:
                out.append(("name", INVISIBLE_OPEN + label + INVISIBLE_CLOSE, title))
            pos = end
        if pos < len(s):
            out.append(("text", s[pos:], ""))
    return out


_PART_HTML = {
    "text": "{text}",
    "hex": '<span class="bytepair-hex" style="' + _HEX + '">{text}</span>',
    "name": '<span class="bytepair-invisible" title="{title}" style="' + _INVIS + '">{text}</span>',
    "base": '<span title="{title}">{text}</span>',
}


def _chip(span: TokenSpan, index: int, *, show_id: bool) -> str:
    """One token's ``<span>`` (:func:`token_parts`, :func:`token_title`), every text escaped."""
    style = f"background: {TOKEN_COLORS[index % len(TOKEN_COLORS)]}; {_CHIP}"
    if span.special:
        style += _SPECIAL
    if token_note(span.token):
        style += _NOTE
    body = "".join(
        _PART_HTML[kind].format(text=_esc(text), title=_esc(title)) for kind, text, title in token_parts(span.token)
    )
    ident = f'<span class="bytepair-id" style="{_ID}">{span.id}</span>' if show_id else ""
    return (
        f'<span class="bytepair-token" data-id="{span.id}" title="{_esc(token_title(span))}" style="{style}">'
        f"{body}{ident}</span>"
    )


def show(
    tokenizer: Any,
    text: str,
    *,
    limit: int = DEFAULT_LIMIT,
    show_ids: bool = False,
    **encode_options: Any,
) -> TokenView:
    """Encode ``text`` and return it as a :class:`TokenView`, which a notebook displays
    as coloured tokens (a terminal prints it as text).

    Args:
        tokenizer: a :class:`bytepair.Tokenizer` (an encoding, a trained tokenizer), an open
            model's tokenizer (:class:`bytepair.HFTokenizer`, :class:`bytepair.TekkenTokenizer`:
            anything with ``encode_with_spans``), or the name of an encoding
            (``"cl100k_base"``: :func:`bytepair.get_encoding`).
        text: the text to encode (*characters*).
        limit: how many tokens the HTML draws (*tokens*, at least 1; the summary counts all).
        show_ids: also draw each token's id after it (always in its hover title).
        **encode_options: passed to ``encode_with_spans`` (``allowed_special="all"``,
            ``add_special_tokens=True``...).

    Returns:
        :class:`TokenView` (``.ids`` are those of ``tokenizer.encode(text, **encode_options)``).

    Raises:
        ArgumentTypeError: ``text`` is not a ``str``, ``limit`` not an ``int``, or ``tokenizer``
            has no ``encode_with_spans``.
        ArgumentError: ``limit`` below 1.
        UnknownNameError: an unknown encoding name.
        Errors of ``encode_with_spans`` (e.g. a disallowed special token).
    """
    if isinstance(tokenizer, str):
        from .registry import get_encoding

        tokenizer = get_encoding(tokenizer)
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be a str, got {type(text).__name__}", field="text")
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise ArgumentTypeError(f"limit must be an int, got {type(limit).__name__}", field="limit")
    if limit < 1:
        raise ArgumentError(f"limit must be at least 1, got {limit}", field="limit")
    encode = getattr(tokenizer, "encode_with_spans", None)
    if encode is None:
        raise ArgumentTypeError(
            f"tokenizer must be a bytepair tokenizer or an encoding name, got {type(tokenizer).__name__}",
            field="tokenizer",
        )
    spans: Sequence[TokenSpan] = encode(text, **encode_options)
    return TokenView(text, tuple(spans), _tokenizer_name(tokenizer), limit=limit, show_ids=bool(show_ids))
