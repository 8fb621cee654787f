"""Save and load a trained tokenizer as versioned JSON.

Format (``"format": "bytepair", "version": 1``)::

    {
      "format": "bytepair",
      "version": 1,
      "name": "trained",
      "pattern": "<regex source>" | null,     # null = no pre-tokenizer ("none")
      "normalization": null | "NFC" | "NFKC",
      "special_tokens": {"<|endoftext|>": 1000},
      "merges": [[97, 97], [256, 97], ...]     # merge k creates id 256 + k
    }

The vocabulary is not stored: it is derived from the merges (ids 0..255 are
the bytes; merge k joins its two parts), as minbpe does. Each merge is written
on its own line so a file stays diff-able and error messages can name lines.

This module reads and writes the format as plain data (:func:`read_json` returns the fields);
:func:`bytepair.tokenizer.from_json` (``bytepair.from_json``) builds the
:class:`~bytepair.Tokenizer` from them, so this module imports no tokenizer at run time.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from ..errors import TokenizerFileError
from .jsonguard import load_json

__all__ = ["FORMAT", "VERSION", "to_json", "read_json"]

FORMAT = "bytepair"
VERSION = 1


def to_json(tok) -> str:
    """Serialize a trained :class:`~bytepair.Tokenizer` (one built from merges).

    Raises:
        ValueError: ``tok`` is a real encoding (ranks); save those with
            ``to_tiktoken()`` instead.
    """
    if not tok.is_trained:
        raise ValueError(f"{tok.name!r} is a rank-based encoding, not a trained tokenizer; save it with to_tiktoken()")
    head = {
        "format": FORMAT,
        "version": VERSION,
        "name": tok.name,
        "pattern": tok.pattern,
        "normalization": tok.normalization,
        "special_tokens": tok.special_tokens,
    }
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    merges = list(tok.merges)
    lines.append('  "merges": [')
    lines.extend(f"    [{a}, {b}]" + ("," if k < len(merges) - 1 else "") for k, (a, b) in enumerate(merges))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _line_of(text: str, needle: str) -> int | None:
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    return None


def read_json(text: str | bytes) -> dict[str, Any]:
    """Check and read a tokenizer file saved by :func:`to_json`.

    Args:
        text: the JSON text (``str`` or UTF-8 ``bytes``).

    Returns:
        The keyword arguments of :meth:`bytepair.Tokenizer.from_merges`: ``merges``
        (``dict[(left_id, right_id), new_id]``), ``pattern`` (a regex or ``"none"``),
        ``special_tokens`` (``dict[str, int]``), ``normalization`` and ``name``.

    Raises:
        TypeError: ``text`` is neither ``str`` nor ``bytes``.
        TokenizerFileError (a ValueError; ``where``: ``"merges[k]"`` for a bad merge): not JSON (with line and column), not this format, an
            unsupported version, a missing or wrongly typed field, a malformed
            or duplicate merge or an id that does not exist yet (with the merge
            index and its line number), duplicate special-token ids.
    """
    if not isinstance(text, (str, bytes)):
        raise TypeError(
            f"from_json takes the JSON text (str or bytes), got {type(text).__name__}; for a dict, pass json.dumps(d)"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TokenizerFileError(f"tokenizer file is not UTF-8 text (byte {e.start}); is it a JSON file?") from e
    data: Any = load_json(text, what="tokenizer file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TokenizerFileError(f'not a bytepair tokenizer file: expected a JSON object with "format": "{FORMAT}"')
    version = data.get("version")
    if version != VERSION:
        raise TokenizerFileError(
            f"unsupported tokenizer file version {version!r}; this bytepair reads version {VERSION}"
        )
    if "pattern" not in data:
        raise TokenizerFileError(
            'tokenizer file has no "pattern" field; add it ("pattern": null means no pre-tokenizer)'
        )
    if "merges" not in data:
        raise TokenizerFileError(
            'tokenizer file has no "merges" field; add it (a list of [left_id, right_id] pairs, [] for none)'
        )
    pattern = data["pattern"]
    if pattern is not None and not isinstance(pattern, str):
        raise TokenizerFileError(f'"pattern" must be a regex string or null, got {pattern!r}')
    merges_raw = data["merges"]
    if not isinstance(merges_raw, list):
        raise TokenizerFileError('"merges" must be a list of [left_id, right_id] pairs')
    # line numbers only when the file has to_json()'s layout: one merge per line
    lines = text.splitlines()
    merges_line = _line_of(text, '"merges"') or 0
    if not (
        merges_line
        and len(lines) >= merges_line + len(merges_raw)
        and all(lines[merges_line + k].strip().startswith("[") for k in range(min(len(merges_raw), 3)))
    ):
        merges_line = 0
    merges: dict[tuple[int, int], int] = {}
    for k, m in enumerate(merges_raw):
        where = f"merge {k} (line {merges_line + 1 + k})" if merges_line else f"merge {k}"
        if not isinstance(m, list) or len(m) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in m):
            raise TokenizerFileError(
                where=f"merges[{k}]", message=f"{where}: expected [left_id, right_id] with two ints, got {m!r}"
            )
        pair = (m[0], m[1])
        new_id = 256 + k
        if pair in merges:
            raise TokenizerFileError(
                where=f"merges[{k}]",
                message=f"{where}: pair {list(pair)} is already merge {merges[pair] - 256}; each pair is merged once",
            )
        if not (0 <= pair[0] < new_id and 0 <= pair[1] < new_id):
            raise TokenizerFileError(
                where=f"merges[{k}]",
                message=f"{where}: {list(pair)} uses an id that does not exist yet (ids so far are 0..{new_id - 1})",
            )
        merges[pair] = new_id
    specials = data.get("special_tokens") or {}
    if not isinstance(specials, dict):
        raise TokenizerFileError('"special_tokens" must be an object {"token": id}')
    seen: dict[int, str] = {}
    for s, i in specials.items():
        if not isinstance(i, int) or isinstance(i, bool):
            raise TokenizerFileError(f"special token {s!r} has id {i!r}; ids are ints")
        if i < 0:
            raise TokenizerFileError(f"special token {s!r} has id {i}; ids are >= 0 (use ids >= {256 + len(merges)})")
        if i in seen:
            raise TokenizerFileError(f"special tokens {seen[i]!r} and {s!r} share id {i}; give each its own id")
        if i < 256 + len(merges):
            raise TokenizerFileError(
                f"special token {s!r} has id {i}, which a byte or merge already uses; use ids >= {256 + len(merges)}"
            )
        seen[i] = s
    return {
        "merges": merges,
        "pattern": pattern if pattern is not None else "none",
        "special_tokens": specials,
        "normalization": data.get("normalization"),
        "name": str(data.get("name") or "trained"),
    }
