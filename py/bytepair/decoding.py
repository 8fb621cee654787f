"""Turning token bytes into text: streaming UTF-8 decoding and display helpers.

* :class:`StreamDecoder` - decode tokens one at a time without ever showing a
  broken character: bytes of an incomplete UTF-8 sequence are held back until
  the character is complete.
* :func:`token_to_display` - a token as text, with the bytes that are not
  complete UTF-8 characters shown as hex (``b"a\\xe0\\xa6"`` -> ``"a<e0a6>"``).
* :func:`token_to_label` - the same, with invisible and control characters
  named (``"\u200d"`` -> ``"⟨ZWJ⟩"``, see :mod:`bytepair.charnames`);
  :func:`token_note` - a sentence that explains fragments and named characters.
* :func:`bytes_to_unicode`, :func:`gpt2_view`, :func:`gpt2_unview` - GPT-2's
  reversible byte-to-character view (``b" hi"`` -> ``"Ġhi"``), the spelling
  used in GPT-2's ``encoder.json``/``vocab.bpe`` and Hugging Face's ByteLevel.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from typing import Any

from .charnames import INVISIBLE_CLOSE, INVISIBLE_OPEN, char_label, char_title, text_label
from .errors import ArgumentError

__all__ = [
    "StreamDecoder",
    "token_to_display",
    "token_to_display_parts",
    "token_to_label",
    "token_note",
    "token_note_parts",
    "parse_token_ids",
    "token_pieces",
    "bytes_to_unicode",
    "gpt2_view",
    "gpt2_unview",
]

_BytesLike = (bytes, bytearray, memoryview)
_ESCAPED_RUN = re.compile("([^\\udc80-\\udcff]+)|([\\udc80-\\udcff]+)")


class StreamDecoder:
    """Incremental UTF-8 decoder for a stream of tokens.

    ``feed`` returns the text completed by the new bytes; bytes that start a
    character whose remaining bytes have not arrived yet are held back
    (:attr:`pending`), so the output never contains a split character. Bytes
    that can never become valid UTF-8 become U+FFFD at once (Python's
    ``codecs.getincrementaldecoder("utf-8")(errors="replace")``, which follows
    the Unicode "maximal subpart" practice). Concatenating every ``feed``
    result and the final :meth:`flush` equals
    ``b"".join(chunks).decode("utf-8", errors="replace")``.

    Args:
        token_bytes: optional ``id -> bytes`` callable (e.g. a tokenizer's
            ``decode_single_token_bytes``) that lets :meth:`feed_ids` and
            ``feed(list_of_ids)`` accept token ids.

    Example::

        d = StreamDecoder()
        d.feed(b"\\xe0\\xa6")   # -> ""  (first 2 of the 3 bytes of "আ")
        d.feed(b"\\x86!")       # -> "আ!"
        d.flush()               # -> ""
    """

    def __init__(self, token_bytes: Callable[[int], bytes] | None = None) -> None:
        self._token_bytes = token_bytes
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    @property
    def pending(self) -> bytes:
        """Bytes held back: the start of a character not yet complete (0-3 bytes)."""
        return self._decoder.getstate()[0]

    def feed(self, data: bytes | bytearray | memoryview | int | Iterable[int]) -> str:
        """Add bytes (or token ids) and return the newly completed text (*characters*).

        ``data`` is either bytes-like (token bytes), or an ``int`` / iterable of
        ``int`` token ids, which needs ``token_bytes`` (see :meth:`feed_ids`).

        Raises:
            TypeError: ids given but no ``token_bytes`` callable, or a value
                that is neither bytes nor ids.
        """
        if isinstance(data, _BytesLike):
            return self._decoder.decode(bytes(data))
        if isinstance(data, int) and not isinstance(data, bool):
            return self.feed_ids([data])
        if isinstance(data, (str, bool)):
            raise TypeError(f"StreamDecoder.feed takes bytes or token ids, not {type(data).__name__}")
        return self.feed_ids(data)

    def feed_ids(self, ids: Iterable[int]) -> str:
        """Add the bytes of tokens ``ids`` and return the newly completed text.

        Raises:
            TypeError: the decoder was made without ``token_bytes``, or an id
                is not an int.
            Whatever ``token_bytes`` raises for an unknown id (``KeyError`` /
            ``ValueError`` from a tokenizer); the decoder state is unchanged then.
        """
        if self._token_bytes is None:
            raise TypeError(
                "this StreamDecoder has no token_bytes; create it with "
                "StreamDecoder(token_bytes=enc.decode_single_token_bytes) or feed bytes"
            )
        parts = []
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int):
                raise TypeError(f"token id {i!r} is not an int")
            parts.append(self._token_bytes(i))
        return self._decoder.decode(b"".join(parts))

    def flush(self) -> str:
        """End the stream: return U+FFFD for a held-back incomplete character
        (one per maximal invalid subpart, as ``bytes.decode(errors="replace")``),
        or ``""``; the decoder is then reset and can be reused."""
        out = self._decoder.decode(b"", final=True)
        self._decoder.reset()
        return out

    def reset(self) -> None:
        """Drop any held-back bytes without emitting them."""
        self._decoder.reset()


def token_to_display(b: bytes) -> str:
    """Show a token's bytes as text, with fragments of characters as hex.

    The valid UTF-8 parts are shown as their text (unchanged: spaces, newlines
    and control characters included); every maximal run of bytes that are not
    part of a complete, valid UTF-8 character is shown as one ``<...>`` group of
    two lowercase hex digits per byte, no separators. So a token that is valid
    UTF-8 is shown as plain text, a pure fragment as hex only, and a mix keeps
    the order of the bytes::

        token_to_display(b"hello")         -> "hello"
        token_to_display(b"\\xe0\\xa6")      -> "<e0a6>"       (2 of 3 bytes of "আ")
        token_to_display(b"a\\xe0\\xa6")     -> "a<e0a6>"
        token_to_display(b"\\xa6\\x86 x")    -> "<a686> x"

    UTF-8 validity is Python's strict codec (encoded surrogates and overlong
    forms are fragments). A valid token whose text looks like ``<e0>`` is not
    escaped; a UI that must tell them apart should style the hex groups, e.g.
    from :func:`token_to_display_parts`.

    Args:
        b: token *bytes*.

    Returns:
        ``str`` (*characters*).
    """
    return "".join(text if is_text else "<" + text + ">" for is_text, text in token_to_display_parts(b))


def token_to_display_parts(b: bytes) -> list[tuple[bool, str]]:
    """Split token bytes into ``(is_text, s)`` parts for display.

    ``is_text`` is True for decoded valid UTF-8 (``s`` is the text) and False
    for a maximal run of fragment bytes (``s`` is their lowercase hex, e.g.
    ``"e0a6"``). Parts alternate; ``b""`` gives ``[]``.

    Raises:
        TypeError: ``b`` is not bytes-like.
    """
    if not isinstance(b, _BytesLike):
        raise TypeError(f"token_to_display expects bytes, got {type(b).__name__}")
    # surrogateescape turns each byte that is not part of a valid character
    # into a lone surrogate U+DC80..U+DCFF (valid UTF-8 never decodes to one).
    decoded = bytes(b).decode("utf-8", errors="surrogateescape")
    parts: list[tuple[bool, str]] = []
    for m in _ESCAPED_RUN.finditer(decoded):
        if m.group(1) is not None:
            parts.append((True, m.group(1)))
        else:
            parts.append((False, bytes(ord(c) - 0xDC00 for c in m.group(2)).hex()))
    return parts


def token_to_label(b: bytes) -> str:
    """:func:`token_to_display` with invisible and control characters named:
    ``b"\xe2\x80\x8d"`` (U+200D) -> ``"⟨ZWJ⟩"``, ``b"\x1b["`` -> ``"⟨ESC⟩["``,
    ``b"a\xe0\xa6"`` -> ``"a<e0a6>"`` (fragments as hex, as :func:`token_to_display`).
    Tab and newline are left as they are (see :func:`bytepair.charnames.char_label`).

    Args:
        b: token *bytes*.

    Returns:
        ``str`` (*characters*) that never renders empty for a non-empty token.

    Raises:
        TypeError: ``b`` is not bytes-like.
    """
    return "".join(text_label(text) if is_text else "<" + text + ">" for is_text, text in token_to_display_parts(b))


def token_label_head(b: bytes, max_bytes: int) -> tuple[str, bool]:
    """The :func:`token_to_label` of the first ``max_bytes`` bytes of a token, cut before a
    character that would not fit whole (a UTF-8 sequence is never split, so a long token's head
    shows no ``<e0a6>``-style fragment that the whole token does not have).

    Late in a training run without a pre-tokenizer every merge makes a token tens of KB long;
    labelling it whole took most of the run's time (issue 19), and views draw its start only.

    Args:
        b: token *bytes*.
        max_bytes: at most this many bytes are labelled (>= 4, so a character always fits).

    Returns:
        ``(label, cut)``: the label (*characters*) and whether bytes were left out.

    Raises:
        TypeError: ``b`` is not bytes-like.
        ValueError: ``max_bytes`` is below 4.
    """
    if max_bytes < 4:
        raise ValueError(f"max_bytes must be 4 or more, got {max_bytes}")
    view = memoryview(b)  # (TypeError for str; no copy of a long token)
    if view.nbytes <= max_bytes:
        return token_to_label(view.tobytes()), False
    b = view[: max_bytes + 1].tobytes()
    end = max_bytes
    if 0x80 <= b[end] <= 0xBF:  # the first byte left out continues a character: leave that character out
        i = end - 1
        while i > end - 4 and 0x80 <= b[i] <= 0xBF:
            i -= 1
        if _utf8_length(b[i]) > end - i:
            end = i
    return token_to_label(b[:end]), True


def _utf8_length(lead: int) -> int:
    """Bytes in a UTF-8 sequence starting with ``lead`` (RFC 3629), 0 for a byte that cannot start one."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _fragment_parts(run: bytes) -> list[dict[str, Any]]:
    """The facts about one run of bytes that are not whole characters (see :func:`token_note_parts`)."""
    shown = run.hex()
    out: list[dict[str, Any]] = []
    i = 0
    tail = 0
    while i < len(run) and 0x80 <= run[i] <= 0xBF:
        i += 1
        tail += 1
    if tail:
        out.append({"kind": "tail" if i == len(run) else "tail_then", "hex": shown, "n": tail})
    while i < len(run):
        need = _utf8_length(run[i])
        j = i + 1
        while j < len(run) and j - i < max(need, 1) and 0x80 <= run[j] <= 0xBF:
            j += 1
        if need:
            part = run[i:j].hex() if (i, j) != (0, len(run)) else shown
            out.append({"kind": "lead", "hex": part, "n": j - i, "need": need})
        else:
            out.append({"kind": "bad", "hex": run[i:j].hex()})
        i = j
    return out


def _note_sentence(p: dict[str, Any]) -> str:
    """One part of :func:`token_note_parts` as an English sentence (without the full stop)."""
    kind = p["kind"]
    if kind == "char":
        return f"{p['shown']} = {p['title']}"
    shown = f"<{p['hex']}>"
    if kind == "bad":
        return f"{shown} is not valid UTF-8 here"
    if kind == "lead":
        return f"{shown}: the first {p['n']} of the {p['need']} UTF-8 bytes of one character; the token after holds the rest"
    s = "s" if p["n"] > 1 else ""
    if kind == "tail":
        return f"{shown}: the last {p['n']} byte{s} of a character whose first bytes are in the token before (UTF-8 continuation bytes)"
    return f"{shown} starts with the last {p['n']} byte{s} of a character begun in the token before"


def token_note_parts(b: bytes) -> list[dict[str, Any]]:
    """What :func:`token_note` says, as data a page can word in any language: one dict per
    sentence, in order.

    * ``{"kind": "lead", "hex", "n", "need"}``: ``hex`` (lowercase, e.g. ``"e0a6"``) are the
      first ``n`` of the ``need`` UTF-8 bytes of one character (``need`` from the lead byte,
      RFC 3629); the token after holds the rest;
    * ``{"kind": "tail", "hex", "n"}``: the token is only the last ``n`` bytes of a character
      begun in the token before; ``"tail_then"``: it starts with them;
    * ``{"kind": "bad", "hex"}``: bytes that are not valid UTF-8 there;
    * ``{"kind": "char", "label", "shown", "title"}``: a named character
      (:func:`bytepair.charnames.char_label` / :func:`~bytepair.charnames.char_title`), once each;
      ``shown``: the label as the notes write it (``"⟨ZWJ⟩"``).

    Args:
        b: token *bytes*.

    Returns:
        ``list[dict]``, empty when the token is plain visible text.
    """
    parts: list[dict[str, Any]] = []
    seen: set[str] = set()
    for is_text, text in token_to_display_parts(b):
        if not is_text:
            parts.extend(_fragment_parts(bytes.fromhex(text)))
            continue
        for ch in text:
            label = char_label(ch)
            if label is not None and label not in seen:
                seen.add(label)
                shown = f"{INVISIBLE_OPEN}{label}{INVISIBLE_CLOSE}"
                parts.append({"kind": "char", "label": label, "shown": shown, "title": char_title(ch)})
    return parts


def token_note(b: bytes) -> str:
    """A sentence explaining what a reader cannot see in a token, or ``""``.

    * fragments of characters (shown as ``<e0a6>`` by :func:`token_to_display`):
      ``b"\xe0\xa6"`` -> ``"<e0a6>: the first 2 of the 3 UTF-8 bytes of one
      character; the token after holds the rest."`` (the length comes from the
      lead byte, RFC 3629); continuation bytes that end a character begun in
      the token before, and bytes that are never valid UTF-8, are said so;
    * named characters (:mod:`bytepair.charnames`): ``"⟨ZWJ⟩ = U+200D ZERO WIDTH JOINER."``

    Args:
        b: token *bytes*.

    Returns:
        ``str``: sentences separated by spaces, each ending with ``"."``; ``""`` when
        the token is plain visible text.

    Raises:
        TypeError: ``b`` is not bytes-like.
    """
    return " ".join(_note_sentence(p) + "." for p in token_note_parts(b))


_ID_SPLIT = re.compile(r"[\s,]+")


def parse_token_ids(s: str) -> list[int]:
    """Token ids typed or pasted by a person: ``"15339 1917"``, ``"15339, 1917"`` or a JSON
    list ``"[15339, 1917]"`` -> ``[15339, 1917]``; blank text -> ``[]``.

    Raises:
        ArgumentError (``field="ids"``): something that is not a whole number >= 0
            (the message quotes it and says what to paste; ``reason="not_an_id"``,
            ``token``: its first 40 characters), or an empty item between
            commas (``"1,2,,3"``: the message names its position, 3; a comma at the
            start or the end is an empty item too, as in JSON; ``reason="empty_item"``,
            ``item``: 1-based, ``items``: how many).
        TypeError: ``s`` is not a ``str``.
    """
    if not isinstance(s, str):
        raise TypeError(f"parse_token_ids expects str, got {type(s).__name__}")
    body = s.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    if "," in body:
        items = body.split(",")
        for k, item in enumerate(items, 1):
            if not item.strip():
                raise ArgumentError(
                    f"Item {k} of the {len(items)} comma-separated items is empty: "
                    "remove the extra comma, or write the missing id there.",
                    field="ids",
                    reason="empty_item",
                    values={"item": k, "items": len(items)},
                )
    out = []
    for word in _ID_SPLIT.split(body):
        if not word:
            continue
        if not word.isascii() or not word.isdigit():
            raise ArgumentError(
                f"“{word[:40]}” is not a token id: paste whole numbers such as 15339 1917, "
                "or a JSON list such as [15339, 1917].",
                field="ids",
                reason="not_an_id",
                values={"token": word[:40]},
            )
        out.append(int(word))
    return out


def token_pieces(ids: Iterable[int], token_bytes: Callable[[int], bytes], *, n_vocab: int | None = None) -> list[bytes]:
    """The bytes of each token id, by ``token_bytes`` (e.g. ``Tokenizer.decode_single_token_bytes``).

    Args:
        ids: token ids. token_bytes: one id -> its bytes.
        n_vocab: the tokenizer's largest id + 1 (``tok.n_vocab``), when known: an unknown id's
            error then says whether it lies past the last id or in an unused gap.

    Raises:
        ArgumentError (``field="ids"``): an id that ``token_bytes`` does not know
            (``KeyError``/``ValueError``); the message names the id and says why. With
            ``n_vocab``: ``reason="unknown_id"`` (past the last id, or negative) or
            ``"unused_id"`` (between 0 and the last id), ``id`` and ``max_id`` (``n_vocab - 1``).
    """
    out = []
    for i in ids:
        try:
            out.append(token_bytes(i))
        except (KeyError, ValueError) as e:
            why = e.args[0] if e.args else ""
            code = None if n_vocab is None else "unused_id" if 0 <= i < n_vocab else "unknown_id"
            raise ArgumentError(
                f"{i} is not a token id of this tokenizer ({why}).",
                field="ids",
                reason=code,
                values={"id": i, "max_id": n_vocab - 1} if n_vocab is not None else None,
            ) from e
    return out


def _build_bytes_to_unicode() -> dict[int, str]:
    # GPT-2's table (openai/gpt-2, src/encoder.py, `bytes_to_unicode`): the 188
    # bytes that are printable, non-space Latin-1 characters - '!'..'~'
    # (0x21-0x7E), '¡'..'¬' (0xA1-0xAC), '®'..'ÿ' (0xAE-0xFF) - map to
    # themselves; the other 68 bytes, in increasing order, map to U+0100,
    # U+0101, ... (so 0x00 -> 'Ā', 0x0A -> 'Ċ', 0x20 -> 'Ġ').
    keep = set(range(0x21, 0x7F)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    table: dict[int, str] = {}
    shifted = 0
    for byte in range(256):
        if byte in keep:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(0x100 + shifted)
            shifted += 1
    return table


_B2U = _build_bytes_to_unicode()
_U2B = {ch: byte for byte, ch in _B2U.items()}
_VIEW_TABLE = [_B2U[i] for i in range(256)]


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte-to-unicode table: ``{byte value 0..255: one character}``.

    Source: ``bytes_to_unicode`` in openai/gpt-2 ``src/encoder.py``
    (https://github.com/openai/gpt-2/blob/master/src/encoder.py). Printable,
    non-space Latin-1 bytes map to themselves; the other 68 bytes map in
    increasing order to U+0100.. U+0143 (``0x00`` -> ``"Ā"``, ``0x0A`` -> ``"Ċ"``,
    ``0x20`` -> ``"Ġ"``). A bijection, so the view is reversible.

    Returns:
        a new ``dict[int, str]`` with 256 entries.
    """
    return dict(_B2U)


def gpt2_view(b: bytes) -> str:
    """Spell token bytes GPT-2 style: one character per *byte* (``b" hi"`` -> ``"Ġhi"``).

    Returns:
        ``str`` with ``len(b)`` characters; inverse: :func:`gpt2_unview`.

    Raises:
        TypeError: ``b`` is not bytes-like.
    """
    if not isinstance(b, _BytesLike):
        raise TypeError(f"gpt2_view expects bytes, got {type(b).__name__}")
    table = _VIEW_TABLE
    return "".join([table[x] for x in bytes(b)])


def gpt2_unview(s: str) -> bytes:
    """Inverse of :func:`gpt2_view`: ``"Ġhi"`` -> ``b" hi"`` (one *byte* per character).

    Raises:
        TypeError: ``s`` is not a str.
        ValueError: a character is not in GPT-2's table; the message gives it
            and its index.
    """
    if not isinstance(s, str):
        raise TypeError(f"gpt2_unview expects str, got {type(s).__name__}")
    out = bytearray()
    for i, ch in enumerate(s):
        try:
            out.append(_U2B[ch])
        except KeyError:
            raise ValueError(
                f"character {ch!r} (U+{ord(ch):04X}) at index {i} is not in GPT-2's "
                "byte-to-unicode table; only its 256 characters can be unviewed"
            ) from None
    return bytes(out)
