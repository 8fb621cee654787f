"""Structured errors: what went wrong, and where, as data a UI can place.

Every error bytepair raises for bad user input is a ``BytepairError``. Besides
the message (``str(e)``, written for a person: it says what to do) it carries
fields a caller can read without parsing text, and ``to_dict()`` gives the
JSON-friendly form the playground's worker forwards to the page::

    >>> e = ArgumentError("vocab_size must be at least 257", field="vocab_size")
    >>> e.to_dict()["field"]
    'vocab_size'

The classes also derive from the built-in exception callers already catch
(``ValueError``, ``KeyError``), so ``except ValueError`` keeps working.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

_V = TypeVar("_V")


class BytepairError(Exception):
    """Base class. ``field``: the argument or input the error belongs to
    (``"vocab_size"``, ``"pattern"``, ``"text"``, ...), or ``None``."""

    #: The wire name of the error type (``to_dict()["type"]``).
    type_name = "error"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return self.message

    def details(self) -> dict[str, Any]:
        """Extra JSON-friendly fields of this error type (subclasses add theirs)."""
        return {}

    def __reduce__(self):
        # Pickle by state, not by ``cls(*args)`` (the keyword-only fields would be
        # lost): errors raised in Dask or multiprocessing workers reach the caller whole.
        return (_rebuild, (type(self), self.message, dict(self.__dict__)))

    def to_dict(self) -> dict[str, Any]:
        """``{"type", "field", "message", **details}``: JSON-friendly."""
        return {"type": self.type_name, "field": self.field, "message": self.message, **self.details()}


def _rebuild(cls: type[BytepairError], message: str, state: dict[str, Any]) -> BytepairError:
    """Unpickle a :class:`BytepairError` (see ``__reduce__``)."""
    err = cls.__new__(cls)
    Exception.__init__(err, message)
    err.__dict__.update(state)
    return err


class ArgumentError(BytepairError, ValueError):
    """A bad argument value (out of range, wrong type, unknown option).

    ``reason``: for faults a page words in its reader's language, a short code with the
    ``values`` its sentence needs (``to_dict()`` gives both; none of them when ``reason`` is
    ``None``): ``"chunk_too_small"`` (:func:`bytepair.app.limits.chunk`: ``max_tokens``,
    ``start``: 0-based *character* where no chunk fits, ``needed``: the *tokens* the shortest
    chunk from there takes), ``"not_an_id"`` (``token``: the text typed, at most 40
    characters), ``"empty_item"`` (``item``: 1-based, ``items``), ``"unknown_id"`` /
    ``"unused_id"`` (``id``, ``max_id``: the tokenizer's largest id; an unused id lies
    between 0 and ``max_id``) of :mod:`bytepair.decoding`; else ``None``."""

    type_name = "argument"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        reason: str | None = None,
        values: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.reason = reason
        self.values = dict(values or {})

    def details(self) -> dict[str, Any]:
        return {"reason": self.reason, **self.values} if self.reason is not None else {}


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type: a ``TypeError`` (as Python's own checks
    raise) that also names the ``field``, like :class:`ArgumentError`."""


class MessageError(ArgumentError):
    """A conversation a chat format refuses because of one of its messages (a
    special token's text inside it, content that is not text).
    ``message_index``: the 0-based index of that message, or ``None``; ``field``
    is ``"messages"``."""

    def __init__(self, message: str, *, field: str | None = "messages", message_index: int | None = None) -> None:
        super().__init__(message, field=field)
        self.message_index = message_index

    def details(self) -> dict[str, Any]:
        return {"message_index": self.message_index}


class UnknownNameError(BytepairError, KeyError):
    """An unknown encoding or tokenizer name. ``known``: the valid names."""

    type_name = "unknown_name"

    def __init__(self, message: str, *, field: str | None = None, known: list[str] | None = None) -> None:
        super().__init__(message, field=field)
        self.known = list(known or [])

    def details(self) -> dict[str, Any]:
        return {"known": self.known}


def lookup(table: Mapping[str, _V], key: str, *, what: str, field: str) -> _V:
    """``table[key]``: one entry of a table of named things (lessons, gallery examples, ...).

    Args:
        table: id -> entry; its order is the order the error lists the ids in.
        key: the id asked for (a caller's value of another type, even unhashable, is simply unknown).
        what: the kind of entry, as the message names it (``"lesson"``).
        field: the error's ``field`` (the argument that named the id).

    Raises:
        UnknownNameError: ``key`` is not an id of ``table`` (``known``: every id, in order;
        the message ``"no {what} {key!r}; known: a, b"``).
    """
    try:
        return table[key]
    except (KeyError, TypeError) as e:
        known = list(table)
        raise UnknownNameError(f"no {what} {key!r}; known: {', '.join(known)}", field=field, known=known) from e


class PatternError(BytepairError, ValueError):
    """A split pattern that does not compile or that bytepair cannot run.

    ``pos``: character offset in the pattern (or ``None``), like ``re.error.pos``;
    ``construct``: the unsupported piece of syntax, when that is the reason;
    ``reason``: the fault alone, short, without position or advice (``"missing
    ')' for this '('"``: the regex engine's own words), or ``None``; ``code``: for faults a page
    words in its reader's language, a short code with ``values`` (``"unknown_property"``:
    ``property``, the name inside ``\\p{..}``; ``suggestion``, a known name it is close to,
    or ``None``; ``known``, every name of bytepair's Unicode tables,
    :func:`bytepair.split.retranslate.supported_properties`: both back-ends take them), else ``None``."""

    type_name = "pattern"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = "pattern",
        pos: int | None = None,
        construct: str | None = None,
        reason: str | None = None,
        code: str | None = None,
        values: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.pos = pos
        self.construct = construct
        self.reason = reason
        self.code = code
        self.values = dict(values or {})

    def details(self) -> dict[str, Any]:
        return {
            **self.values,
            "pos": self.pos,
            "construct": self.construct,
            "reason": self.reason,
            "code": self.code,
        }


class OutOfMemoryError(BytepairError, MemoryError):
    """A result that would not fit in memory, refused before it is built. ``needed`` and
    ``limit``: bytes; ``done``: how much was complete when it was refused (for a training run,
    merges)."""

    type_name = "memory"

    def __init__(self, message: str, *, field: str | None = None, needed: int, limit: int, done: int = 0) -> None:
        super().__init__(message, field=field)
        self.needed, self.limit, self.done = needed, limit, done

    def details(self) -> dict[str, Any]:
        return {"needed": self.needed, "limit": self.limit, "done": self.done}


class TokenizerFileError(BytepairError, ValueError):
    """A tokenizer file (bytepair JSON, ``.tiktoken``, Hugging Face
    ``tokenizer.json``, Tekken) that cannot be read or is not supported.

    ``where``: the location in the file - a JSON path such as
    ``"pre_tokenizer.pretokenizers[1]"`` or ``"line 12"`` - or ``None``;
    ``component``: the unsupported component (``"WordPiece"``), when that is the reason;
    ``reason``: for the commonest faults, a short code a page words in its reader's
    language from ``values`` (``"json_syntax"``: ``line``, ``column``; ``"nesting"``:
    ``limit``; ``"merge_not_in_vocab"``: ``merge`` (0-based), ``token``), else ``None``."""

    type_name = "tokenizer_file"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = "file",
        where: str | None = None,
        component: str | None = None,
        reason: str | None = None,
        values: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.where = where
        self.component = component
        self.reason = reason
        self.values = dict(values or {})

    def details(self) -> dict[str, Any]:
        return {"where": self.where, "component": self.component, "reason": self.reason, **self.values}


class ChatTemplateError(BytepairError, ValueError):
    """A chat template that rejects a conversation (``raise_exception`` in the
    template, an undefined value, a type error) or that does not compile.

    The message is the template's own (``str(e)`` of the Jinja error).
    ``message_index``: the 0-based index of the first message whose addition
    makes the template fail (found by rendering growing prefixes of the
    conversation), or ``None`` when not known; ``field`` is ``"messages"``
    (or ``"chat_template"`` for a template that does not compile)."""

    type_name = "chat_template"

    def __init__(self, message: str, *, field: str | None = "messages", message_index: int | None = None) -> None:
        super().__init__(message, field=field)
        self.message_index = message_index

    def details(self) -> dict[str, Any]:
        return {"message_index": self.message_index}


class ToolsError(ArgumentError):
    """Tool (function) definitions that cannot be used: JSON that does not
    parse, or a tool without the shape chat formats need.

    ``line`` / ``column`` (1-based, *characters*) and ``pos`` (0-based
    character offset) locate a JSON syntax error in the text handed in, else
    ``None``; ``tool_index``: the 0-based index of the tool at fault, or
    ``None``; ``path``: the JSON path of the bad value (``"[0].function.name"``)
    or ``None``. ``field`` is ``"tools"``. ``reason``: a short code a page words
    in its reader's language (``"json_syntax"``, ``"nesting"``, ``"not_list"``,
    ``"not_object"``, ``"function_not_object"``, ``"needs_name"``,
    ``"description_not_text"``, ``"parameters_not_object"``), with ``values``
    (``limit`` for nesting; ``name`` of the tool where it has one), or ``None``."""

    type_name = "tools"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = "tools",
        line: int | None = None,
        column: int | None = None,
        pos: int | None = None,
        tool_index: int | None = None,
        path: str | None = None,
        reason: str | None = None,
        values: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.line = line
        self.column = column
        self.pos = pos
        self.tool_index = tool_index
        self.path = path
        self.reason = reason
        self.values = dict(values or {})

    def details(self) -> dict[str, Any]:
        return {
            **self.values,
            "line": self.line,
            "column": self.column,
            "pos": self.pos,
            "tool_index": self.tool_index,
            "path": self.path,
            "reason": self.reason,
        }


__all__ = [
    "ArgumentError",
    "BytepairError",
    "ChatTemplateError",
    "MessageError",
    "PatternError",
    "TokenizerFileError",
    "ToolsError",
    "UnknownNameError",
    "lookup",
]
