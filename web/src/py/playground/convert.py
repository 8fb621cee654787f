"""Conversions every adapter module shares: JSON text out, exceptions as data in.

``exposed`` wraps each function the worker calls: whatever the call raises comes out
as a :class:`CallError` whose ``detail`` is its structured form
(``BytepairError.to_dict()``: ``{type, field, message, ...}``), chained to the original
(``raise ... from e``). The worker calls through :func:`call`, which returns each call's
own outcome, so an error travels with the call that raised it: nothing is kept between
calls (no "last error" another call could replace). No layer reads another layer's
message text.
"""

from __future__ import annotations

import functools
import json
import traceback

from bytepair.errors import BytepairError


def dumps(obj) -> str:
    """Compact JSON text (non-ASCII kept as is: the page reads it with ``JSON.parse``)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def error_dict(e: BaseException) -> dict:
    """``{type, field, message, ...}`` of an exception: a ``BytepairError``'s own ``to_dict()``;
    ``interrupted`` for Stop's KeyboardInterrupt; ``memory`` for MemoryError (the Pyodide heap is
    full: the page words it, the call's JSON is not garbage); ``argument`` for other ValueError / TypeError /
    KeyError; ``internal`` (with the exception's class name) for anything else."""
    if isinstance(e, BytepairError):
        return e.to_dict()
    if isinstance(e, KeyboardInterrupt):
        return {"type": "interrupted", "field": None, "message": "Stopped."}
    if isinstance(e, MemoryError):
        message = "Out of memory: Python in this page has no room left. Try a shorter text or a smaller vocabulary."
        return {"type": "memory", "field": None, "message": message}
    if isinstance(e, (ValueError, TypeError, KeyError)):
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return {"type": "argument", "field": None, "message": str(message)}
    return {"type": "internal", "field": None, "message": f"{type(e).__name__}: {e}"}


def _detail(e: BaseException) -> dict:
    """:func:`error_dict` of ``e``; an ``internal`` one's traceback goes to stderr (the worker's console)."""
    detail = error_dict(e)
    if detail["type"] == "internal":
        traceback.print_exception(e)
    return detail


class CallError(Exception):
    """What an exposed call raised, as data: ``detail`` is ``{type, field, message, ...}``
    (:func:`error_dict` of the original exception, which is this one's ``__cause__``)."""

    def __init__(self, detail: dict) -> None:
        super().__init__(detail.get("message"))
        self.detail = detail


def exposed(fn):
    """Wrap ``fn`` (a function the worker calls) so that any exception it raises, Stop's
    ``KeyboardInterrupt`` included, comes out as a :class:`CallError` carrying its
    structured form (``raise CallError(...) from e``)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CallError:
            raise
        except BaseException as e:
            raise CallError(_detail(e)) from e

    return wrapper


def call(target, name: str, /, *args, **kwargs) -> tuple[bool, object]:
    """The worker's one way in: ``getattr(target, name)(*args, **kwargs)`` (``target``: this
    package or an object one of its calls returned, such as a ``CountSession``).

    Returns ``(True, result)``, or ``(False, error)`` where ``error`` is the JSON text of the
    exception's ``{type, field, message, ...}`` (a :class:`CallError`'s ``detail``, else
    :func:`error_dict`). Nothing is raised and nothing is kept: the error belongs to this call
    and reaches the page with this call's own rejection (``web/src/pycall.js``)."""
    try:
        return True, getattr(target, name)(*args, **kwargs)
    except CallError as e:
        return False, dumps(e.detail)
    except BaseException as e:  # noqa: BLE001 - every failure becomes this call's data (KeyboardInterrupt: Stop)
        return False, dumps(_detail(e))


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
