"""Two or more tokenizations of one text side by side: aligned boundaries.

Each tokenization (a *row*) is given as its tokens' spans in the text - the
:class:`bytepair.TokenSpan` lists of
:meth:`bytepair.Tokenizer.encode_with_spans` (``units="chars"`` or
``"utf16"``), or plain ``(start, end)`` pairs. A row *cuts* the text between
two consecutive tokens. The cut either falls between two characters (a
*boundary*, at an offset in the spans' units) or inside one character, when
the tokens are fragments of it (an emoji, a CJK character): then both tokens'
spans hold that character, and the cut is reported under *inside* at the
character's start offset (several fragments: several cuts there).

:func:`compare_segmentations` returns every row's boundaries, the union,
which boundaries every row shares and which differ, and each row's token
count, bytes per token and difference in tokens from the first row.

Example::

    >>> import bytepair
    >>> text = "strawberry 12345"
    >>> rows = [bytepair.get_encoding(n).encode_with_spans(text) for n in ("gpt2", "cl100k_base")]
    >>> c = compare_segmentations(text, rows, names=["gpt2", "cl100k_base"])
    >>> [(r.name, r.count, r.boundaries) for r in c.rows]
    [('gpt2', 5, (2, 5, 10, 14)), ('cl100k_base', 6, (3, 5, 10, 11, 14))]
    >>> c.differ, c.shared
    ((2, 3, 11), (5, 10, 14))
    >>> [r.unique for r in c.rows]
    [(2,), (3, 11)]

(gpt2: ``st|raw|berry| 123|45``; cl100k_base: ``str|aw|berry| |123|45``, as tiktoken gives.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from ..errors import ArgumentError
from ..surrogates import utf8

__all__ = ["Comparison", "RowSummary", "compare_segmentations", "cuts"]


@dataclasses.dataclass(frozen=True, slots=True)
class RowSummary:
    """One tokenization in a :class:`Comparison`.

    ``name``; ``count``: tokens; ``n_bytes``: UTF-8 bytes the tokens hold
    (their ``token`` bytes when the spans carry them, else the text's; added
    special tokens with an empty span, such as BOS, hold none);
    ``bytes_per_token``: ``n_bytes / count`` (0.0 for no tokens); ``delta``:
    ``count`` minus the first row's count; ``boundaries``: offsets (in the
    spans' units) where this row cuts between two characters, ascending;
    ``inside``: ``(offset, cuts)`` for each character this row cuts inside
    (offset of the character's start; ``cuts`` >= 1); ``unique``: its
    boundaries that no other row has.
    """

    name: str
    count: int
    n_bytes: int
    bytes_per_token: float
    delta: int
    boundaries: tuple[int, ...]
    inside: tuple[tuple[int, int], ...]
    unique: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "count", "n_bytes", "bytes_per_token", "delta", "boundaries", "inside", "unique"}``
        (``inside`` as ``[[offset, cuts], ...]``)."""
        return {
            "name": self.name,
            "count": self.count,
            "n_bytes": self.n_bytes,
            "bytes_per_token": self.bytes_per_token,
            "delta": self.delta,
            "boundaries": list(self.boundaries),
            "inside": [list(x) for x in self.inside],
            "unique": list(self.unique),
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Comparison:
    """The result of :func:`compare_segmentations`.

    ``length``: the text's length in the spans' units; ``units``; ``rows``;
    ``boundaries``: the union of all rows' boundaries, ascending;
    ``rows_at``: for each of those, the indices of the rows that have it;
    ``shared``: boundaries every row has; ``differ``: boundaries some row
    lacks (for two rows: present in one row only); ``inside_differ``:
    character offsets where the rows' numbers of inside cuts differ.
    """

    length: int
    units: str
    rows: tuple[RowSummary, ...]
    boundaries: tuple[int, ...]
    rows_at: tuple[tuple[int, ...], ...]
    shared: tuple[int, ...]
    differ: tuple[int, ...]
    inside_differ: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"length", "units", "rows", "boundaries", "rows_at", "shared", "differ", "inside_differ"}``."""
        return {
            "length": self.length,
            "units": self.units,
            "rows": [r.to_dict() for r in self.rows],
            "boundaries": list(self.boundaries),
            "rows_at": [list(x) for x in self.rows_at],
            "shared": list(self.shared),
            "differ": list(self.differ),
            "inside_differ": list(self.inside_differ),
        }


def _span(s: Any, row: int, k: int) -> tuple[int, int]:
    try:
        start, end = (s.start, s.end) if hasattr(s, "start") else (s[0], s[1])
    except (TypeError, IndexError, KeyError) as e:
        raise ArgumentError(
            f"row {row}, token {k}: expected a TokenSpan or a (start, end) pair, got {s!r}", field="rows"
        ) from e
    if not (isinstance(start, int) and isinstance(end, int)) or start < 0 or end < start:
        raise ArgumentError(f"row {row}, token {k}: bad span ({start!r}, {end!r})", field="rows")
    return start, end


def cuts(spans: Sequence[Any], *, length: int, row: int = 0) -> tuple[list[int], dict[int, int]]:
    """Where one tokenization cuts the text.

    Args:
        spans: the tokens' spans in order (``TokenSpan`` or ``(start, end)``),
            as :meth:`bytepair.Tokenizer.encode_with_spans` gives them.
        length: the text's length in the same units.
        row: the row number for error messages.

    Returns:
        ``(boundaries, inside)``: ascending offsets of cuts between two
        characters (``0 < offset < length``), and ``{character start offset:
        number of cuts inside that character}``.

    Raises:
        ArgumentError: a span is malformed, out of ``0..length``, or the spans
            go backwards (``field="rows"``).

    >>> cuts([(0, 1), (0, 1), (1, 3)], length=3)
    ([1], {0: 1})
    """
    boundaries: list[int] = []
    inside: dict[int, int] = {}
    prev_start, prev_end = None, None
    for k, s in enumerate(spans):
        start, end = _span(s, row, k)
        if end > length:
            raise ArgumentError(
                f"row {row}, token {k}: span ({start}, {end}) runs past the text's length {length}", field="rows"
            )
        if prev_start is not None and prev_end is not None:
            if start < prev_start or end < prev_end:
                raise ArgumentError(f"row {row}, token {k}: spans must be in text order", field="rows")
            if start >= prev_end:
                if 0 < prev_end < length and (not boundaries or boundaries[-1] != prev_end):
                    boundaries.append(prev_end)
                if start > prev_end and start < length:  # a gap: both edges are cuts
                    boundaries.append(start)
            else:  # the two tokens share the character at `start`
                inside[start] = inside.get(start, 0) + 1
        prev_start, prev_end = start, end
    return boundaries, inside


def compare_segmentations(
    text: str,
    rows: Sequence[Sequence[Any]],
    *,
    names: Sequence[str] | None = None,
    units: Literal["chars", "utf16"] = "chars",
) -> Comparison:
    """Align two or more tokenizations of ``text`` at their boundaries.

    Args:
        text: the text all rows tokenized (characters).
        rows: one span list per tokenization (``TokenSpan`` s, or ``(start,
            end)`` pairs), in the units given by ``units``. Spans that carry
            ``.token`` bytes are used for the byte counts.
        names: a name per row (default ``"row 0"``, ``"row 1"``, ...).
        units: ``"chars"`` or ``"utf16"``: the units of the spans (as passed to
            ``encode_with_spans``).

    Returns:
        A :class:`Comparison` (``to_dict()`` for JSON).

    Raises:
        ArgumentError: fewer than one row, names of the wrong length, bad
            ``units``, or malformed spans.
    """
    if units not in ("chars", "utf16"):
        raise ArgumentError(f'units must be "chars" or "utf16", got {units!r}', field="units")
    if not isinstance(text, str):
        raise ArgumentError(f"text must be a str, got {type(text).__name__}", field="text")
    rows = list(rows)
    if not rows:
        raise ArgumentError("give at least one tokenization (a list of spans per row)", field="rows")
    if names is None:
        names = [f"row {i}" for i in range(len(rows))]
    elif len(names) != len(rows):
        raise ArgumentError(f"{len(names)} names for {len(rows)} rows", field="names")
    length = len(text) if units == "chars" else len(text.encode("utf-16-le", "surrogatepass")) // 2
    text_bytes = len(utf8(text))
    per_row = []
    for i, spans in enumerate(rows):
        spans = list(spans)
        b, ins = cuts(spans, length=length, row=i)
        if spans and all(hasattr(s, "token") for s in spans):
            # tokens a post-processor added (BOS ...: special, empty span) hold no bytes of the text
            n_bytes = sum(len(s.token) for s in spans if s.end > s.start or not getattr(s, "special", False))
        else:
            n_bytes = text_bytes
        per_row.append((spans, b, ins, n_bytes))
    where: dict[int, list[int]] = {}
    for i, (_, b, _, _) in enumerate(per_row):
        for pos in b:
            where.setdefault(pos, []).append(i)
    union = tuple(sorted(where))
    n = len(rows)
    shared = tuple(p for p in union if len(where[p]) == n)
    differ = tuple(p for p in union if len(where[p]) != n)
    inside_keys = sorted({k for _, _, ins, _ in per_row for k in ins})
    inside_differ = tuple(k for k in inside_keys if len({ins.get(k, 0) for _, _, ins, _ in per_row}) > 1)
    first_count = len(per_row[0][0])
    summaries = []
    for i, (spans, b, ins, n_bytes) in enumerate(per_row):
        count = len(spans)
        summaries.append(
            RowSummary(
                name=str(names[i]),
                count=count,
                n_bytes=n_bytes,
                bytes_per_token=n_bytes / count if count else 0.0,
                delta=count - first_count,
                boundaries=tuple(b),
                inside=tuple(sorted(ins.items())),
                unique=tuple(p for p in b if where[p] == [i]),
            )
        )
    return Comparison(
        length=length,
        units=units,
        rows=tuple(summaries),
        boundaries=union,
        rows_at=tuple(tuple(where[p]) for p in union),
        shared=shared,
        differ=differ,
        inside_differ=inside_differ,
    )
