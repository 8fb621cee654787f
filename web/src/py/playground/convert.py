"""Conversions every adapter module shares: JSON text out, exceptions as data in.

``exposed`` wraps each function the worker calls: it records the structured form
of whatever the call raises (``BytepairError.to_dict()``: ``{type, field, message,
...}``) in :data:`playground.state.last_error` and re-raises; the worker then reads
:func:`last_error`. No layer reads another layer's message text.
"""

from __future__ import annotations

import functools
import json

from bytepair.errors import BytepairError

from . import state


def dumps(obj) -> str:
    """Compact JSON text (non-ASCII kept as is: the page reads it with ``JSON.parse``)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def error_dict(e: BaseException) -> dict:
    """``{type, field, message, ...}`` of an exception: a ``BytepairError``'s own ``to_dict()``;
    ``interrupted`` for Stop's KeyboardInterrupt; ``argument`` for other ValueError / TypeError /
    KeyError; ``internal`` (with the exception's class name) for anything else."""
    if isinstance(e, BytepairError):
        return e.to_dict()
    if isinstance(e, KeyboardInterrupt):
        return {"type": "interrupted", "field": None, "message": "Stopped."}
    if isinstance(e, (ValueError, TypeError, KeyError)):
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return {"type": "argument", "field": None, "message": str(message)}
    return {"type": "internal", "field": None, "message": f"{type(e).__name__}: {e}"}


def exposed(fn):
    """Record the structured form of any exception ``fn`` raises (see :func:`last_error`)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        state.last_error = None
        try:
            return fn(*args, **kwargs)
        except BaseException as e:
            state.last_error = error_dict(e)
            raise

    return wrapper


def last_error() -> str:
    """JSON ``{type, field, message, ...}`` of the last exception an exposed call raised, or ``null``."""
    return dumps(state.last_error)


def columns(rows: list[tuple], keys: tuple[str, ...]) -> dict[str, list]:
    """Rows of equal length -> named columns ``{key: [row[i] for row in rows]}`` (the wire format of lists)."""
    return {k: [r[i] for r in rows] for i, k in enumerate(keys)}


def span_columns(spans, label) -> dict[str, list]:
    """``TokenSpan``s -> columns ``{ids, display, start, end}`` (``display``: ``label(token bytes)``)."""
    return {
        "ids": [s.id for s in spans],
        "display": [label(s.token) for s in spans],
        "start": [s.start for s in spans],
        "end": [s.end for s in spans],
    }


def trained_info(tok, name: str) -> dict:
    """``{name, n_vocab, n_merges, pattern}`` of a trained tokenizer (the page's saved-list entry)."""
    return {"name": name, "n_vocab": tok.n_vocab, "n_merges": len(tok.merges), "pattern": tok.pattern}
