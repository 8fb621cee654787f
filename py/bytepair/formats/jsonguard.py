"""A cheap nesting check for JSON a user hands in, run *before* ``json.loads``.

``json.loads`` recurses once per nested array or object. CPython 3.11 raises
``RecursionError`` at depth 1,000 (the recursion limit); CPython 3.12+ and
Pyodide's CPython 3.14 check the C stack instead, and in Pyodide that stack is
the JavaScript one: ``json.loads("[" * 6000 + "]" * 6000)`` kills the runtime
with ``RangeError: Maximum call stack size exceeded`` (measured in Node with
pyodide 0.29 / Python 3.14: 5,000 parses, 6,000 crashes; a browser worker's stack
can be smaller). No error reaches Python, so it cannot be caught there.

Real files nest shallowly: a bytepair file 3 deep, the Hugging Face
``tokenizer.json`` files the site ships 6 at most (Gemma 3, Qwen 3, gpt-oss:
``normalizer.normalizers[].pattern`` and the like), Tekken files 4. So
:data:`MAX_NESTING` = 64 leaves a tenfold margin for real files and stays ~100x
below the depth where Pyodide crashes.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Mapping
from typing import Any

from ..errors import TokenizerFileError

__all__ = ["MAX_NESTING", "check_nesting", "load_json", "nesting_depth", "read_json_object"]

#: The deepest nesting of JSON arrays and objects a tokenizer file may have
#: (real files: 3-6; Pyodide's json crashes between 5,000 and 6,000).
MAX_NESTING = 64

_KEEP = b'"[]{}'
_DROP = bytes(b for b in range(256) if b not in _KEEP)
_QUOTED = re.compile(rb'(?:"[^"]*")+')  # a run of strings is one match: a vocab object is one
_PAIR = re.compile(rb"\[\]|\{\}")
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _brackets(text: str) -> bytes:
    """The brackets of JSON ``text`` outside its strings, in order, as bytes. C-level passes
    only: escaped backslashes and quotes are dropped (a run of backslashes pairs up left to
    right, as JSON reads it), then every byte but quotes and brackets, then each run of ``"..."``.
    On a 31 MB ``tokenizer.json`` (Gemma 3) this and the peeling take about half of what
    ``json.loads`` does (``tools/bench_jsonguard.py``)."""
    raw = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    return _QUOTED.sub(b"", raw.translate(None, _DROP))


def nesting_depth(text: str, *, limit: int = MAX_NESTING) -> int:
    """How deeply the arrays and objects of JSON ``text`` nest, counted up to ``limit + 1``.

    Strings and everything but brackets are removed first (C-level passes: see
    :func:`_brackets`), then innermost ``[]`` / ``{}`` pairs are peeled off, at most
    ``limit + 1`` times: each pass removes one level of a well-formed file, so a
    real 30 MB ``tokenizer.json`` takes about 7 passes over its brackets. Text that
    stops shrinking (unbalanced brackets: not valid JSON) gets the peeled levels
    plus the running depth of what is left, so ``"[" * 10**5`` counts as deep too; a
    string left open (``'["abc'``) counts the brackets before its quote, and the
    caller's ``json.loads`` then reports the syntax error with its line and column.

    Returns:
        The depth (``0`` for a scalar), or a number above ``limit`` as soon as it is
        clear the text nests deeper than ``limit``.
    """
    s = _brackets(text)
    for peeled in range(limit + 1):
        if not s:
            return peeled
        t = _PAIR.sub(b"", s)
        if len(t) == len(s):  # unbalanced, or a string left open
            # An unmatched quote opens a string that never ends: what follows it is string text.
            s = s.split(b'"', 1)[0]
            return peeled + max(0, max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, s)), default=0))
        s = t
    return limit + 1


def check_nesting(text: str, *, what: str, limit: int = MAX_NESTING) -> None:
    """Refuse JSON ``text`` whose arrays and objects nest deeper than ``limit``.

    Args:
        text: JSON text (not yet parsed).
        what: the file named in the message (``"tokenizer.json"``, ``"Tekken file"``).
        limit: the deepest nesting allowed (:data:`MAX_NESTING`).

    Raises:
        TokenizerFileError (``where="$"``): the text nests deeper than ``limit``.
    """
    if nesting_depth(text, limit=limit) > limit:
        raise TokenizerFileError(
            f"{what} is JSON nested too deeply: its arrays and objects are nested more than {limit} deep "
            f"(real tokenizer files nest 3 to 6 deep). Is it the right file? Load a tokenizer.json, a "
            f"Tekken file or a bytepair file.",
            where="$",
            reason="nesting",
            values={"limit": limit},
        )


def load_json(text: str, *, what: str) -> Any:
    """``json.loads(text)`` of a file a user hands in, after :func:`check_nesting`.

    Args:
        text: the file's text.
        what: the file named in the messages (``"tokenizer.json"``, a path).

    Returns:
        The parsed value (any JSON type: the caller checks its shape).

    Raises:
        TokenizerFileError: nested too deeply (``where="$"``); not valid JSON
            (``where="line N"``; the message names the line and column).
    """
    check_nesting(text, what=what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise TokenizerFileError(
            f"{what} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}",
            where=f"line {e.lineno}",
            reason="json_syntax",
            values={"line": e.lineno, "column": e.colno},
        ) from e


def read_json_object(source: Any, what: str) -> dict:
    """A tokenizer file handed in as a path, JSON text (a ``str`` starting with ``{``), UTF-8
    bytes (a BOM is dropped) or an already parsed mapping -> a ``dict``, through :func:`load_json`.

    ``what`` names the file in messages (``"tokenizer.json"``).

    Raises:
        TokenizerFileError: an unreadable path, not UTF-8, not JSON or too deeply nested, not a
            JSON object, or a ``source`` of another type (``where``: ``"byte N"``, ``"$"`` or None).
    """
    if isinstance(source, Mapping):
        return dict(source)
    try:
        if isinstance(source, (bytes, bytearray, memoryview)):
            text = bytes(source).decode("utf-8-sig")
        elif isinstance(source, str) and source.lstrip().startswith("{"):
            text = source
        elif isinstance(source, (str, os.PathLike)):
            with open(source, encoding="utf-8-sig") as f:
                text = f.read()
        else:
            raise TokenizerFileError(
                f"{what} must be a path, JSON text or bytes, not {type(source).__name__}", where=None
            )
    except OSError as e:
        shown = repr(os.fspath(source))
        if len(shown) > 120:
            shown = shown[:100] + "…"
        raise TokenizerFileError(f"cannot read {what} {shown}: {e.strerror or e}", where=None) from e
    except UnicodeDecodeError as e:
        raise TokenizerFileError(f"{what} is not UTF-8 text (byte {e.start})", where=f"byte {e.start}") from e
    except ValueError as e:  # open() refuses a name with a NUL character
        raise TokenizerFileError(f"cannot read {what}: {e}", where=None) from e
    data = load_json(text, what=what)
    if not isinstance(data, dict):
        raise TokenizerFileError(f"{what} must hold a JSON object, got {type(data).__name__}", where="$")
    return data
