"""Why this token: the story of every token of a text, as data.

For each token :func:`explain_tokens` says

* which *piece* it came from: the split pattern's match (its text and span),
  and which top-level alternative of the pattern matched, with a label such
  as ``"letters with a leading space"`` or ``"1-3 digits"`` (for the patterns
  of ``gpt2``/``r50k_base``/``p50k_base``, ``cl100k_base`` and ``o200k_base``;
  for a custom regex the label is the alternative's source text);
* the merges that built it from bytes, in the order the BPE loop applied them
  inside that piece (tiktoken's rule for real encodings: the adjacent pair
  whose joined bytes have the lowest rank, leftmost on ties; minbpe's rule for
  trained tokenizers: the lowest merge index, leftmost on ties - see
  :mod:`bytepair.bpe`), each with the two parts, the rank or merge index, and
  the token's parts after the step;
* why it stopped there: the neighbour pairs at its two edges are not in the
  vocabulary (or the piece ends), and which candidate merges across its edges
  lost, earlier, to a merge that ranked ahead of them;
* its bytes, display forms, id, and for a trained tokenizer the merge that
  created it (and that merge's pair count during training, when the training
  events are given).

The merge loop is replayed here with every step recorded (a heap over the
parts, as :mod:`bytepair.bpe` does for long pieces); the replay's ids are
checked against the tokenizer's own encoder on every call, and the tests check
them on every token of the UDHR texts.

Example (a tokenizer trained on minbpe's worked example)::

    >>> import bytepair
    >>> tok = bytepair.train("aaabdaaabac", 259, pattern="none")
    >>> ex = explain_tokens(tok, "aaab")
    >>> [t.id for t in ex.tokens]
    [258]
    >>> [(s.left, s.right, s.merge_index) for s in ex.tokens[0].steps]
    [(b'a', b'a', 0), (b'aa', b'a', 1), (b'aaa', b'b', 2)]
    >>> ex.tokens[0].created_by.pair
    (257, 98)

and a real encoding, where the piece is a whole token of the vocabulary::

    >>> enc = bytepair.get_encoding("cl100k_base")
    >>> story = token_story(enc, "hello world", 1)
    >>> story.text, story.id, story.start, story.end
    (' world', 1917, 5, 11)
    >>> ex = explain_tokens(enc, "hello world")
    >>> ex.pieces[1].label
    'letters with a leading space'
"""

from __future__ import annotations

import bisect
import dataclasses
import heapq
import re
import unicodedata
import weakref
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Literal

from .. import bpe, specials
from ..charnames import on_base
from ..decoding import gpt2_view, token_to_display
from ..errors import ArgumentError
from ..normalize import normalize
from ..split.patterns import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN
from ..split.pretokenize import compile_pattern
from ..surrogates import fix_surrogates

__all__ = [
    "Creation",
    "Edge",
    "Explanation",
    "LostCandidate",
    "MergeStep",
    "PieceStory",
    "Stop",
    "TokenStory",
    "alternative_label",
    "label_parts",
    "describe",
    "explain_tokens",
    "split_alternatives",
    "token_story",
]

#: Pieces up to this many bytes list the parts of the whole piece after every
#: merge step in :meth:`PieceStory.to_dict` (``"parts"``); longer pieces give
#: ``None`` there (a 5000-space piece would otherwise list 25 million ids).
#: Likewise tokens longer than this (trained tokenizers without a split
#: pattern) leave :attr:`MergeStep.parts` empty in their steps.
PIECE_PARTS_MAX_BYTES = 256


# --------------------------------------------------------------------------- data


def _b(b: bytes) -> dict[str, str]:
    """JSON form of token bytes: ``{"hex", "text", "gpt2"}``."""
    return {"hex": b.hex(), "text": on_base(token_to_display(b)), "gpt2": gpt2_view(b)}


@dataclasses.dataclass(frozen=True, slots=True)
class MergeStep:
    """One merge the BPE loop applied inside a piece.

    ``order``: 0-based position of this merge among all merges applied to the
    piece (the loop's order); ``left_id``/``right_id`` and ``left``/``right``:
    the two adjacent parts merged (ids, bytes); ``id``: the resulting token;
    ``rank``: the rank the loop compared (real encodings: the rank of
    ``left + right``, equal to ``id``; ``None`` for trained tokenizers);
    ``merge_index``: 0-based learned order of the merge (trained tokenizers:
    ``id - 256``; ``None`` for real encodings); ``byte_start``/``byte_end``:
    the merged part's bytes in the piece, ``[start, end)``; ``parts``: in a
    token's story, the ids of that token's parts after this step (empty in a
    piece's list of steps, and for tokens over :data:`PIECE_PARTS_MAX_BYTES`
    bytes); ``parts_bytes``: those parts' bytes.
    """

    order: int
    left_id: int
    right_id: int
    id: int
    left: bytes
    right: bytes
    rank: int | None
    merge_index: int | None
    byte_start: int
    byte_end: int
    parts: tuple[int, ...] = ()
    parts_bytes: tuple[bytes, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"order", "left_id", "right_id", "id", "left", "right", "merged", "rank",
        "merge_index", "byte_start", "byte_end", "parts", "parts_text"}``;
        ``left``/``right``/``merged`` are ``{"hex", "text", "gpt2"}``; ``parts`` a
        list of ids, ``parts_text`` their display texts (``token_to_display``)."""
        return {
            "order": self.order,
            "left_id": self.left_id,
            "right_id": self.right_id,
            "id": self.id,
            "left": _b(self.left),
            "right": _b(self.right),
            "merged": _b(self.left + self.right),
            "rank": self.rank,
            "merge_index": self.merge_index,
            "byte_start": self.byte_start,
            "byte_end": self.byte_end,
            "parts": list(self.parts),
            "parts_text": [on_base(token_to_display(b)) for b in self.parts_bytes],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class LostCandidate:
    """A merge across one edge of a token that was possible and lost.

    ``side``: ``"left"`` or ``"right"`` edge of the token; ``left_id``,
    ``right_id``: the pair (one part outside the token, one inside);
    ``joined``: their bytes together; ``rank`` / ``merge_index``: its priority
    (as in :class:`MergeStep`); ``lost_to``: the ``order`` of the step that
    took one of its parts away; ``reason``: ``"outranked"`` (that step's rank
    or merge index came first) or ``"leftmost_tie"`` (the same rank further
    left went first).
    """

    side: str
    left_id: int
    right_id: int
    joined: bytes
    rank: int | None
    merge_index: int | None
    lost_to: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """``{"side", "left_id", "right_id", "joined", "rank", "merge_index", "lost_to", "reason"}``."""
        return {
            "side": self.side,
            "left_id": self.left_id,
            "right_id": self.right_id,
            "joined": _b(self.joined),
            "rank": self.rank,
            "merge_index": self.merge_index,
            "lost_to": self.lost_to,
            "reason": self.reason,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Edge:
    """What is on one side of a token at the end of the loop.

    ``kind``: ``"piece_start"`` / ``"piece_end"`` (merges never cross pieces),
    or ``"no_merge"``: the neighbouring part ``neighbour_id`` and this token
    joined (``joined`` bytes) are not a token of the vocabulary (real
    encodings) / not a learned merge (trained tokenizers).
    """

    kind: str
    neighbour_id: int | None = None
    joined: bytes | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "neighbour_id", "joined"}`` (``joined``: ``{"hex", "text", "gpt2"}`` or ``None``)."""
        return {
            "kind": self.kind,
            "neighbour_id": self.neighbour_id,
            "joined": None if self.joined is None else _b(self.joined),
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Stop:
    """Why the token is no longer: its two :class:`Edge` s at the end, and the
    :class:`LostCandidate` s across its edges during the loop, in loop order."""

    left: Edge
    right: Edge
    lost: tuple[LostCandidate, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"left", "right", "lost"}``."""
        return {"left": self.left.to_dict(), "right": self.right.to_dict(), "lost": [c.to_dict() for c in self.lost]}


@dataclasses.dataclass(frozen=True, slots=True)
class Creation:
    """The training merge that created a trained tokenizer's token.

    ``merge_index``: 0-based (``id - 256``); ``pair``: ``(left_id, right_id)``;
    ``count``: the pair count when it was merged during training (from the
    ``events`` passed to :func:`explain_tokens`), else ``None``.
    """

    merge_index: int
    pair: tuple[int, int]
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"merge_index", "pair", "count"}``."""
        return {"merge_index": self.merge_index, "pair": list(self.pair), "count": self.count}


@dataclasses.dataclass(frozen=True, slots=True)
class TokenStory:
    """The story of one token.

    ``index``: position in the text's token list; ``id``; ``token``: its
    bytes; ``start``/``end``: its span in the text (characters, or UTF-16 code
    units with ``units="utf16"``; fragments of one character share its span,
    as :meth:`bytepair.Tokenizer.encode_with_spans` gives); ``special``: a
    special token (then ``piece`` is ``None``, ``how`` is ``"special"``, no
    steps); ``piece``: index into :attr:`Explanation.pieces`;
    ``byte_start``/``byte_end``: the token's bytes in the piece; ``how``:
    ``"merges"`` (built by the steps), ``"single_byte"`` (no merge),
    ``"whole_piece"`` (the whole piece is a token of the vocabulary: tiktoken
    looks it up without running the loop), or ``"special"``; ``steps``: the
    merges that built it, in loop order, each with the token's ``parts``
    after it (for ``"whole_piece"``: the steps the loop reaches it by, or
    empty when the loop would split the piece differently); ``stop``: see
    :class:`Stop` (``None`` for special tokens); ``created_by``: see
    :class:`Creation` (trained tokenizers, ids >= 256); ``piece_story``: the
    :class:`PieceStory` of its piece, filled by :func:`token_story` only
    (in an :class:`Explanation` it is ``pieces[piece]``); ``rule``: ``"rank"``
    (real encodings, open models: the rank of the merge) or ``"merge_index"``
    (trained tokenizers); ``token_string``: an open model's own spelling of
    the token (``"Ġhello"``, ``"▁hello"``, ``"<0xE0>"``), else ``None``.
    """

    index: int
    id: int
    token: bytes
    start: int
    end: int
    special: bool
    piece: int | None
    byte_start: int
    byte_end: int
    how: str
    steps: tuple[MergeStep, ...] = ()
    stop: Stop | None = None
    created_by: Creation | None = None
    piece_story: PieceStory | None = None
    rule: str = "rank"
    token_string: str | None = None

    @property
    def text(self) -> str:
        """The display text (:func:`bytepair.token_to_display`: ``<e0a6>`` for bytes of a split character;
        a leading combining mark on a dotted circle, :func:`bytepair.charnames.on_base`)."""
        return on_base(token_to_display(self.token))

    @property
    def hex(self) -> str:
        """The token's bytes in hex, e.g. ``"e0a6"``."""
        return self.token.hex()

    @property
    def gpt2(self) -> str:
        """GPT-2's byte-to-unicode form (:func:`bytepair.gpt2_view`): ``" hi"`` -> ``"Ġhi"``."""
        return gpt2_view(self.token)

    @property
    def vocab_form(self) -> dict[str, str] | None:
        """How the tokenizer's own vocabulary spells the token, for a "display forms" line:
        ``{"kind", "label", "text"}`` or ``None``; ``kind`` is ``"gpt2"`` or ``"vocab"``
        (the page words it; ``label`` is its English wording). An open model's spelling (:attr:`token_string`:
        ``"▁"`` for Gemma's space, ``"Ġ"`` for Llama 3's) is ``"in the vocabulary"``, and
        ``None`` when it is the display text itself (Tekken's ``token_str``); a rank-file
        tokenizer (OpenAI's, trained ones), which has no spelling of its own, gets GPT-2's
        byte-to-unicode form, as its ``tokenizer.json`` export spells it."""
        if self.token_string is None:
            return {"kind": "gpt2", "label": "GPT-2 form", "text": self.gpt2}
        if self.token_string == self.text:
            return None
        return {"kind": "vocab", "label": "in the vocabulary", "text": self.token_string}

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: ``{"index", "id", "hex", "text", "gpt2", "start", "end", "special",
        "piece", "byte_start", "byte_end", "how", "steps", "stop", "created_by", "piece_story", "rule",
        "token_string", "vocab_form"}``."""
        return {
            "index": self.index,
            "id": self.id,
            "hex": self.hex,
            "text": self.text,
            "gpt2": self.gpt2,
            "start": self.start,
            "end": self.end,
            "special": self.special,
            "piece": self.piece,
            "byte_start": self.byte_start,
            "byte_end": self.byte_end,
            "how": self.how,
            "steps": [s.to_dict() for s in self.steps],
            "stop": None if self.stop is None else self.stop.to_dict(),
            "created_by": None if self.created_by is None else self.created_by.to_dict(),
            "piece_story": None if self.piece_story is None else self.piece_story.to_dict(),
            "rule": self.rule,
            "token_string": self.token_string,
            "vocab_form": self.vocab_form,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class PieceStory:
    """One pre-token piece (a match of the split pattern).

    ``index``; ``text``: the piece (characters, after normalization if the
    tokenizer normalizes); ``start``/``end``: its span in the text you passed
    (the union of its tokens' spans; same units as the tokens);
    ``n_bytes``: its UTF-8 length; ``alternative``: 0-based index of the
    pattern's top-level alternative that matched (``None`` without a pattern,
    or when the pattern cannot be split into alternatives safely);
    ``alternative_source``: that alternative's regex text; ``kind``: a
    stable key (``"letters"``, ``"digits"``, ``"digits_1_3"``,
    ``"contraction"``, ``"punctuation"``, ``"newlines"``,
    ``"trailing_whitespace"``, ``"whitespace_run"``, ``"whitespace"``, ``"whitespace_char"``,
    ``"word_lower"``, ``"word_upper"``, ``"custom"``, ``"whole_text"``, ``"pre_tokenizer"``,
    ``"between_added"``);
    ``label``: a human label (see :func:`alternative_label`); ``first_token``
    / ``n_tokens``: its tokens in :attr:`Explanation.tokens`; ``whole_piece``:
    the piece is one token of the vocabulary, looked up without merging
    (tiktoken's shortcut; open models with ``ignore_merges``); ``steps``:
    every merge of the loop in order (``parts`` empty; see
    :meth:`parts_after`); ``initial_ids``: the symbols the loop starts from
    (bytes; an open model's characters, ``<0xNN>`` fallbacks or GPT-2 byte
    characters); ``initial_starts``: their byte offsets in the piece (empty:
    one symbol per byte).
    """

    index: int
    text: str
    start: int
    end: int
    n_bytes: int
    alternative: int | None
    alternative_source: str | None
    kind: str
    label: str
    first_token: int
    n_tokens: int
    whole_piece: bool
    steps: tuple[MergeStep, ...]
    initial_ids: tuple[int, ...]
    initial_starts: tuple[int, ...] = ()

    def _initial(self) -> dict[int, int]:
        """``{byte offset: id}`` of the initial symbols."""
        return dict(zip(self.initial_starts or range(len(self.initial_ids)), self.initial_ids))

    def parts_after(self, order: int) -> list[int]:
        """Ids of the piece's parts after step ``order`` (``-1``: the bytes before any merge).

        Raises:
            ArgumentError: ``order`` is not in ``-1 .. len(steps) - 1``.
        """
        if not -1 <= order < len(self.steps):
            raise ArgumentError(f"order must be in -1..{len(self.steps) - 1}, got {order}", field="order")
        ids = self._initial()
        for s in self.steps[: order + 1]:
            del ids[s.byte_start + len(s.left)]
            ids[s.byte_start] = s.id
        return [ids[k] for k in sorted(ids)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: ``{"index", "text", "start", "end", "n_bytes", "alternative",
        "alternative_source", "kind", "label", "label_parts", "first_token", "n_tokens", "whole_piece",
        "initial_ids", "steps"}`` (``label``: English; ``label_parts``: :func:`label_parts`, the data
        the page words it from); each step as :meth:`MergeStep.to_dict` with ``"parts"``
        the whole piece's ids after it (``None`` for pieces over
        :data:`PIECE_PARTS_MAX_BYTES` bytes; ``"parts_text"`` likewise)."""
        steps = []
        ids = self._initial()
        small = self.n_bytes <= PIECE_PARTS_MAX_BYTES
        data = self.text.encode("utf-8", "surrogatepass")
        for s in self.steps:
            d = s.to_dict()
            if small:
                del ids[s.byte_start + len(s.left)]
                ids[s.byte_start] = s.id
                starts = sorted(ids)
                d["parts"] = [ids[k] for k in starts]
                d["parts_text"] = [token_to_display(data[x:y]) for x, y in zip(starts, [*starts[1:], len(data)])]
            else:
                d["parts"] = None
                d["parts_text"] = None
            steps.append(d)
        return {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "n_bytes": self.n_bytes,
            "alternative": self.alternative,
            "alternative_source": self.alternative_source,
            "kind": self.kind,
            "label": self.label,
            "label_parts": label_parts(self.kind, self.text),
            "first_token": self.first_token,
            "n_tokens": self.n_tokens,
            "whole_piece": self.whole_piece,
            "initial_ids": list(self.initial_ids),
            "steps": steps,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Explanation:
    """Stories of a text's tokens. ``tokenizer``: its name; ``rule``: ``"rank"``
    (real encodings, tiktoken's rule) or ``"merge_index"`` (trained, minbpe's
    rule); ``pattern``: the split pattern (``None``: no pre-tokenizer);
    ``units``: ``"chars"`` or ``"utf16"``; ``pieces``; ``tokens``."""

    tokenizer: str
    rule: str
    pattern: str | None
    units: str
    pieces: tuple[PieceStory, ...]
    tokens: tuple[TokenStory, ...]

    @property
    def ids(self) -> list[int]:
        """The token ids (equal to the tokenizer's ``encode`` with the same options)."""
        return [t.id for t in self.tokens]

    def to_dict(self) -> dict[str, Any]:
        """``{"tokenizer", "rule", "pattern", "units", "pieces", "tokens"}``, JSON-friendly."""
        return {
            "tokenizer": self.tokenizer,
            "rule": self.rule,
            "pattern": self.pattern,
            "units": self.units,
            "pieces": [p.to_dict() for p in self.pieces],
            "tokens": [t.to_dict() for t in self.tokens],
        }


# --------------------------------------------------------------------------- pattern alternatives

_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
# back-references and recursion (group numbers would shift), verbose mode (comments may hold "|")
_BACKREF = re.compile(r"\\[1-9]|\\g<|\(\?P=|\(\?P>|\(\?&|\(\?R\)|\(\?[0-9]|\(\?[a-zA-Z]*x")


def split_alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regex (split at ``|`` outside groups and classes).

    Args:
        pattern: regex source (``regex`` syntax).

    Returns:
        The alternatives' source texts, in order (one item when the pattern has
        no top-level ``|``). Leading global flags such as ``(?i)`` stay with
        the first alternative.

    >>> split_alternatives(r"'s|[a-z]+|\\d{1,3}|(?:x|y)")
    ["'s", '[a-z]+', '\\\\d{1,3}', '(?:x|y)']
    """
    out: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":  # a literal ] first in the class
                j += 1
            i = j
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


# Known alternatives of the real encodings' patterns -> kind.
_KINDS: dict[str, str] = {}
for _pat, _kinds in (
    (
        GPT2_PATTERN,
        ["contraction", "letters", "digits", "punctuation", "trailing_whitespace", "whitespace_run", "whitespace_char"],
    ),
    (
        CL100K_PATTERN,
        [
            "contraction",
            "letters",
            "digits_1_3",
            "punctuation",
            "trailing_whitespace",
            "newlines",
            "whitespace_run",
            "whitespace_char",
        ],
    ),
    (
        O200K_PATTERN,
        ["word_lower", "word_upper", "digits_1_3", "punctuation", "newlines", "whitespace_run", "whitespace"],
    ),
):
    _alts = split_alternatives(_pat)
    if len(_alts) != len(_kinds):  # pragma: no cover - guarded by the tests
        raise RuntimeError("the labels of a split pattern's alternatives are out of date")
    _KINDS.update(zip(_alts, _kinds))


def label_parts(kind: str, piece: str) -> dict[str, Any]:
    """The facts a piece's label is worded from, as data (the page words them in its
    locale; :func:`alternative_label` words them in English for the CLI and the Python API).

    Args:
        kind: a :attr:`PieceStory.kind` key.
        piece: the matched text (characters).

    Returns:
        ``{"kind", "lead", "lead_char", "then_newlines"}``: ``lead`` is ``None`` or
        what the piece starts with before its letters, digits or punctuation:
        ``"space"``, ``"tab"``, ``"whitespace"`` (another whitespace character) or
        ``"char"`` (a symbol, given as ``lead_char``); ``then_newlines``: a
        run of other characters that ends in newlines.

    >>> label_parts("letters", " world")
    {'kind': 'letters', 'lead': 'space', 'lead_char': None, 'then_newlines': False}
    """
    lead: str | None = None
    lead_char: str | None = None
    if kind in ("letters", "word_lower", "word_upper") and len(piece) >= 2:
        c = piece[0]
        if unicodedata.category(c)[0] not in "LMN":
            if c == " ":
                lead = "space"
            elif c == "\t":
                lead = "tab"
            elif c.isspace():
                lead = "whitespace"
            else:
                lead, lead_char = "char", c
    elif kind == "digits" and piece.startswith(" "):
        lead = "space"
    elif kind == "punctuation" and piece.startswith(" ") and len(piece) > 1:
        lead = "space"
    newlines = kind == "punctuation" and piece.endswith(("\n", "\r")) and piece.strip("\r\n") != ""
    return {"kind": kind, "lead": lead, "lead_char": lead_char, "then_newlines": newlines}


_LABELS = {
    "contraction": "contraction ('s 't 're 've 'm 'll 'd)",
    "letters": "letters",
    "word_lower": "letters ending in lowercase",
    "word_upper": "capital letters",
    "digits": "digits",
    "digits_1_3": "1-3 digits",
    "punctuation": "other characters (not letters, digits or spaces)",
    "trailing_whitespace": "trailing spaces (end of the text)",
    "newlines": "newlines",
    "whitespace_run": "whitespace run (its last space before a word goes with the word)",
    "whitespace": "whitespace",
    "whitespace_char": "one whitespace character",
    "whole_text": "the whole text (no split pattern)",
    "pre_tokenizer": "a piece of the pre-tokenizer",
    "between_added": "the text between added tokens (no pre-tokenizer)",
}
_LEADS = {
    "space": " with a leading space",
    "tab": " with a leading tab",
    "whitespace": " with a leading whitespace character",
}


def alternative_label(kind: str, piece: str, *, source: str | None = None) -> str:
    """A human label in English for a piece matched by an alternative of kind ``kind``
    (the English wording of :func:`label_parts`, for the CLI and the Python API).

    Args:
        kind: a :attr:`PieceStory.kind` key.
        piece: the matched text (characters); the label mentions a leading
            space or symbol, trailing newlines.
        source: the alternative's regex text (used for ``kind="custom"``).

    Returns:
        The label, e.g. ``"letters with a leading space"``.

    >>> alternative_label("letters", " world")
    'letters with a leading space'
    >>> alternative_label("digits_1_3", "123")
    '1-3 digits'
    """
    if kind not in _LABELS:
        return source if source is not None else kind
    parts = label_parts(kind, piece)
    lead = parts["lead"]
    label = _LABELS[kind]
    if lead == "char":
        label += f" with a leading {parts['lead_char']!r}"
    elif lead is not None:
        label += _LEADS[lead]
    return label + (", then newlines" if parts["then_newlines"] else "")


class _Tables:
    """Per-tokenizer data the replay needs (built once, cached weakly)."""

    __slots__ = ("__weakref__", "alternatives", "grouped", "kinds", "merges", "pair_of", "ranks", "split")

    def __init__(self, tok) -> None:
        specials_ids = set(tok.special_tokens.values())
        if tok.is_trained:
            self.ranks = None
            self.merges: dict[tuple[int, int], int] | None = tok.merges
            self.pair_of: dict[int, tuple[int, int]] | None = {v: k for k, v in tok.merges.items()}
        else:
            self.ranks = {b: i for i, b in tok.vocab.items() if i not in specials_ids}
            self.merges = None
            self.pair_of = None
        self.grouped = None
        self.alternatives: list[str] = []
        self.kinds: list[str] = []
        pattern = tok.pattern
        self.split = None if pattern is None else compile_pattern(pattern)
        if pattern is None:
            return
        prefix = ""
        m = _GLOBAL_FLAGS.match(pattern)
        if m:
            prefix, pattern = m.group(), pattern[m.end() :]
        alts = split_alternatives(pattern)
        if _BACKREF.search(tok.pattern) is None:
            try:
                grouped = prefix + "|".join(f"(?P<_bp{k}>{a})" for k, a in enumerate(alts))
                self.grouped = compile_pattern(grouped)
                self.alternatives = alts
                self.kinds = [_KINDS.get(a, "custom") for a in alts]
            except (ValueError, TypeError, ImportError):
                self.grouped = None
        if self.grouped is None:
            self.alternatives = []
            self.kinds = []


_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tables(tok) -> _Tables:
    t = _TABLES.get(tok)
    if t is None:
        t = _Tables(tok)
        _TABLES[tok] = t
    return t


# --------------------------------------------------------------------------- the replay


class _Replay:
    """The merge loop on one piece, recording each step and each lost candidate.

    ``steps``: ``(byte_start, split, byte_end, left_id, right_id, new_id, rank)``
    per merge; ``lost``: ``(split, left_id, right_id, byte_start, byte_end, rank,
    lost_to_order, reason)``; ``bounds``: final part starts plus ``n``; ``ids``:
    final ids; ``initial``: the byte ids.
    """

    __slots__ = ("bounds", "ids", "initial", "lost", "steps")

    def __init__(self, piece: bytes, tables: _Tables) -> None:
        n = len(piece)
        ranks = tables.ranks
        merges = tables.merges
        if ranks is not None:
            try:
                sym = [ranks[piece[i : i + 1]] for i in range(n)]
            except KeyError as err:  # pragma: no cover - Tokenizer refuses such vocabularies
                raise ArgumentError(f"byte {err.args[0]!r} has no token in this vocabulary", field="tokenizer") from err
            get_r = ranks.get

            def rank_at(s: int, m: int, e: int):
                return get_r(piece[s:e])

        else:
            sym = list(piece)
            get_m = merges.get  # type: ignore[union-attr]

            def rank_at(s: int, m: int, e: int):
                return get_m((sym[s], sym[m]))

        self.initial = tuple(sym)
        nxt = list(range(1, n + 1))
        prv = list(range(-1, n - 1))
        heap = []
        for i in range(n - 1):
            r = rank_at(i, i + 1, i + 2)
            if r is not None:
                heap.append((r, i))
        heapq.heapify(heap)
        steps: list[tuple] = []
        lost: list[tuple] = []
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            r, s = pop(heap)
            if sym[s] < 0:
                continue
            m = nxt[s]
            if m >= n:
                continue
            e = nxt[m]
            if rank_at(s, m, e) != r:
                continue  # stale entry
            order = len(steps)
            # pairs across the merged part's edges that this merge takes away
            p = prv[s]
            if p >= 0:
                rp = rank_at(p, s, m)
                if rp is not None:
                    lost.append((s, sym[p], sym[s], p, m, rp, order, "outranked"))
            if e < n:
                re_ = rank_at(m, e, nxt[e])
                if re_ is not None:
                    lost.append((e, sym[m], sym[e], m, nxt[e], re_, order, "outranked" if re_ != r else "leftmost_tie"))
            steps.append((s, m, e, sym[s], sym[m], r, r))
            sym[s] = r
            sym[m] = -1
            nxt[s] = e
            if e < n:
                prv[e] = s
                r2 = rank_at(s, e, nxt[e])
                if r2 is not None:
                    push(heap, (r2, s))
            if p >= 0:
                r2 = rank_at(p, s, e)
                if r2 is not None:
                    push(heap, (r2, p))
        bounds = [0]
        ids = []
        s = 0
        while s < n:
            ids.append(sym[s])
            s = nxt[s]
            bounds.append(s)
        self.steps = steps
        self.lost = lost
        self.bounds = bounds if n else [0]
        self.ids = ids


# --------------------------------------------------------------------------- explain


def _events_by_id(events, tables: _Tables) -> dict[int, Any]:
    if events is None:
        return {}
    if tables.merges is None:
        raise ArgumentError("events (training merge events) only apply to a trained tokenizer", field="events")
    out = {}
    for ev in events.values() if isinstance(events, Mapping) else events:
        try:
            i, pair, _ = ev.id, tuple(ev.pair), ev.count
        except AttributeError as e:
            raise ArgumentError(
                "events must be MergeEvent objects from bytepair.train_iter (with .id, .pair, .count)", field="events"
            ) from e
        if tables.pair_of.get(i) != pair:  # type: ignore[union-attr]
            raise ArgumentError(
                f"event for id {i} merges {pair}, but this tokenizer's merge {i} is {tables.pair_of.get(i)}: "  # type: ignore[union-attr]
                "pass the events of the training run that made this tokenizer",
                field="events",
            )
        out[i] = ev
    return out


def explain_tokens(
    tokenizer,
    text: str,
    *,
    allowed_special: Literal["all"] | Collection[str] = frozenset(),
    disallowed_special: Literal["all"] | Collection[str] = "all",
    units: Literal["chars", "utf16"] = "chars",
    events: Iterable[Any] | Mapping[int, Any] | None = None,
    add_special_tokens: bool = False,
) -> Explanation:
    """The story of every token of ``text`` (see the module docstring).

    Args:
        tokenizer: a :class:`bytepair.Tokenizer` (real encoding or trained), or an
            open model's :class:`bytepair.HFTokenizer` / :class:`bytepair.TekkenTokenizer`.
        text: the text (characters).
        allowed_special, disallowed_special: as :meth:`bytepair.Tokenizer.encode`.
        units: ``"chars"`` (Python characters) or ``"utf16"`` (JavaScript
            string offsets) for the spans.
        events: for a trained tokenizer, the :class:`bytepair.MergeEvent` s of
            the training run that made it (an iterable, or ``{id: event}``); only
            ``.id``, ``.pair`` and ``.count`` are read. Fills
            :attr:`Creation.count`.
        add_special_tokens: open models (:class:`bytepair.HFTokenizer`,
            :class:`bytepair.TekkenTokenizer`) only: as their ``encode`` (BOS
            etc. become special stories); ignored for a :class:`bytepair.Tokenizer`.
            An open model's special-token strings in the text are always
            recognised (``allowed_special`` does not apply).

    Returns:
        An :class:`Explanation`; its ``ids`` equal ``tokenizer.encode(text, ...)``
        with the same options.

    Raises:
        TypeError / ValueError: as :meth:`bytepair.Tokenizer.encode_with_spans`
            (not a ``str``, a disallowed special token, bad ``units``).
        ArgumentError: ``events`` given for a real encoding or an open model, or
            events of another training run; an open model whose story cannot be
            told (``field="tokenizer"``: subword prefixes, unknown-token pieces).
        RuntimeError: the replay disagrees with the tokenizer's encoder (a bug).
    """
    return _explain(tokenizer, text, allowed_special, disallowed_special, units, events, None, add_special_tokens)


# token_story repeats explain_tokens' keyword options on purpose: a public signature
# spelled out (types, defaults, help()) rather than **kwargs; both go to _explain.
def token_story(
    tokenizer,
    text: str,
    token_index: int,
    *,
    allowed_special: Literal["all"] | Collection[str] = frozenset(),
    disallowed_special: Literal["all"] | Collection[str] = "all",
    units: Literal["chars", "utf16"] = "chars",
    events: Iterable[Any] | Mapping[int, Any] | None = None,
    add_special_tokens: bool = False,
) -> TokenStory:
    """The story of token number ``token_index`` (0-based, negative counts from the end) of ``text``.

    Same arguments as :func:`explain_tokens`; only the piece holding the token
    is replayed, so this is cheap on a long text.

    Returns:
        A :class:`TokenStory` with its :attr:`TokenStory.piece_story` filled
        (``None`` for a special token).

    Raises:
        ArgumentError: ``token_index`` out of range (``field="token_index"``);
            and as :func:`explain_tokens`.
    """
    if not isinstance(token_index, int) or isinstance(token_index, bool):
        raise ArgumentError(f"token_index must be an int, got {token_index!r}", field="token_index")
    ex = _explain(tokenizer, text, allowed_special, disallowed_special, units, events, token_index, add_special_tokens)
    t = ex.tokens[0]
    return dataclasses.replace(t, piece_story=ex.pieces[0]) if ex.pieces else t


def _explain(
    tokenizer, text, allowed_special, disallowed_special, units, events, only, add_special_tokens=False
) -> Explanation:
    if tokenizer.pipeline != "rank":  # open models: a tokenizer.json pipeline, or Tekken's base plus BOS
        return _explain_open(tokenizer, text, units, events, only, add_special_tokens)
    spans = tokenizer.encode_with_spans(
        text, allowed_special=allowed_special, disallowed_special=disallowed_special, units=units
    )
    if only is not None:
        if not -len(spans) <= only < len(spans):
            raise ArgumentError(
                f"token_index {only} is out of range: the text has {len(spans)} tokens", field="token_index"
            )
        only %= len(spans)
    tables = _tables(tokenizer)
    by_id = _events_by_id(events, tables)
    work = text if tokenizer.normalization is None else normalize(text, tokenizer.normalization)
    try:
        work.encode("utf-8")
    except UnicodeEncodeError:
        work = fix_surrogates(work)
    allowed, _ = specials.resolve_special_sets(tokenizer.special_tokens, allowed_special, disallowed_special)
    special_ids = tokenizer.special_tokens
    ranks, merges = tables.ranks, tables.merges
    pieces: list[PieceStory] = []
    tokens: list[TokenStory] = []
    replay_cache: dict[bytes, _Replay] = {}
    pos = 0  # next token index
    n_pieces = 0

    def fast(b: bytes) -> list[int]:
        if ranks is not None:
            return bpe.encode_piece_ranks(b, ranks)
        return bpe.encode_piece_merges(b, merges)  # type: ignore[arg-type]

    for segment, is_special in specials.split_on_specials(work, allowed):
        if is_special:
            if only is None or only == pos:
                sp = spans[pos]
                tid = special_ids[segment]
                if sp.id != tid:
                    raise RuntimeError(f"explain: special token {segment!r} is id {tid} but encode gave {sp.id}")
                tokens.append(_special_story(pos, sp, rule="rank" if ranks is not None else "merge_index"))
                if only is not None:
                    return Explanation(
                        tokenizer.name,
                        "rank" if ranks is not None else "merge_index",
                        tokenizer.pattern,
                        units,
                        (),
                        tuple(tokens),
                    )
            pos += 1
            continue
        for piece_text, alt in _pieces(segment, tables):
            data = piece_text.encode("utf-8")
            if not data:
                continue
            n_pieces += 1
            if only is not None:
                n_tok = len(fast(data))
                if not pos <= only < pos + n_tok:
                    pos += n_tok
                    continue
            story, toks = _piece_story(
                n_pieces - 1, piece_text, data, alt, tables, replay_cache, spans, pos, by_id, tokenizer
            )
            pieces.append(story)
            if only is None:
                tokens += toks
            else:
                tokens.append(toks[only - pos])
                return Explanation(
                    tokenizer.name,
                    "rank" if ranks is not None else "merge_index",
                    tokenizer.pattern,
                    units,
                    tuple(pieces),
                    tuple(tokens),
                )
            pos += story.n_tokens
    if only is not None or pos != len(spans):
        raise RuntimeError(f"explain: the replay made {pos} tokens, encode made {len(spans)} (a bug; please report it)")
    return Explanation(
        tokenizer.name,
        "rank" if ranks is not None else "merge_index",
        tokenizer.pattern,
        units,
        tuple(pieces),
        tuple(tokens),
    )


def _pieces(segment: str, tables: _Tables) -> list[tuple[str, int | None]]:
    """``(piece, alternative index or None)`` for each match of the split pattern.

    The grouped pattern's matches are checked against the tokenizer's own
    pattern; if they ever differ (a construct the alternative split does not
    understand, such as a comment in verbose mode), the alternatives are
    dropped (``None``) and the pieces come from the tokenizer's pattern."""
    if tables.split is None:
        return [(segment, None)]
    plain = tables.split.findall(segment)
    if tables.grouped is not None:
        out = []
        for m in tables.grouped.finditer(segment):
            g = m.lastgroup
            out.append((m.group(), int(g[3:]) if g else None))
        if [p for p, _ in out] == plain:
            return out
    return [(p, None) for p in plain]


class _Core:
    """What a piece's stories share wherever the piece occurs (cached per piece bytes)."""

    __slots__ = ("data", "ids", "initial", "starts", "steps", "tokens", "whole")

    def __init__(self, data: bytes, tables: _Tables | None, rep: Any = None, whole_id: int | None = None) -> None:
        """``tables``: a :class:`bytepair.Tokenizer`'s; or ``None`` with ``rep`` (an
        open model's :class:`_SymbolReplay`) and ``whole_id`` (the piece is that
        token as a whole, no merges: ``ignore_merges``)."""
        if tables is not None:
            ranks = tables.ranks
            trained = ranks is None
            rep = _Replay(data, tables)
            whole = ranks is not None and len(data) > 1 and data in ranks
            ids = [ranks[data]] if whole else rep.ids  # type: ignore[index]
        else:
            trained = False
            whole = whole_id is not None
            ids = [whole_id] if whole else rep.ids
        starts = list(getattr(rep, "starts", None) or range(len(data)))
        starts_end = [*starts, len(data)]
        bounds = [0, len(data)] if whole else rep.bounds
        loop_agrees = rep.ids == ids
        steps = tuple(
            MergeStep(
                k, a, b, new, data[s:m], data[m:e], None if trained else r, (new - 256) if trained else None, s, e
            )
            for k, (s, m, e, a, b, new, r) in enumerate(rep.steps)
        )
        initial = rep.initial
        # each step lies inside one final token; each lost candidate sits on one cut
        by_token: list[list[MergeStep]] = [[] for _ in ids]
        if loop_agrees:
            for st in steps:
                by_token[bisect.bisect_right(bounds, st.byte_start) - 1].append(st)
        by_cut: dict[int, list[int]] = {}
        if not whole:
            for k, entry in enumerate(rep.lost):
                by_cut.setdefault(entry[0], []).append(k)
        tokens = []
        for j, _tid in enumerate(ids):
            a, b = bounds[j], bounds[j + 1]
            one = bisect.bisect_left(starts, b) - bisect.bisect_left(starts, a) == 1  # one initial symbol
            how = "whole_piece" if whole else ("single_byte" if one else "merges")
            tsteps: list[MergeStep] = []
            if by_token[j] and b - a > PIECE_PARTS_MAX_BYTES:
                tsteps = by_token[j]  # parts left out: they would cost (token bytes)^2
            elif by_token[j]:
                i0, i1 = bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)
                part_ids = list(initial[i0:i1])  # the token's parts, in order
                part_bytes = [data[starts_end[x] : starts_end[x + 1]] for x in range(i0, i1)]
                pstarts = starts[i0:i1]
                for st in by_token[j]:
                    k = bisect.bisect_left(pstarts, st.byte_start)
                    del pstarts[k + 1], part_ids[k + 1], part_bytes[k + 1]
                    part_ids[k] = st.id
                    part_bytes[k] = st.left + st.right
                    tsteps.append(
                        MergeStep(
                            st.order,
                            st.left_id,
                            st.right_id,
                            st.id,
                            st.left,
                            st.right,
                            st.rank,
                            st.merge_index,
                            st.byte_start,
                            st.byte_end,
                            tuple(part_ids),
                            tuple(part_bytes),
                        )
                    )
            left = Edge("piece_start") if a == 0 else Edge("no_merge", ids[j - 1], data[bounds[j - 1] : b])
            right = Edge("piece_end") if b == len(data) else Edge("no_merge", ids[j + 1], data[a : bounds[j + 2]])
            lost = tuple(
                LostCandidate(
                    "left" if split == a else "right",
                    li,
                    ri,
                    data[ls:le],
                    None if trained else r,
                    (r - 256) if trained else None,
                    order,
                    reason,
                )
                for split, li, ri, ls, le, r, order, reason in (
                    rep.lost[k] for k in sorted(by_cut.get(a, []) + by_cut.get(b, []))
                )
            )
            tokens.append((a, b, how, tuple(tsteps), Stop(left, right, lost)))
        self.data = data
        self.ids = ids
        self.whole = whole
        self.steps = steps
        self.initial = initial
        self.starts = () if getattr(rep, "starts", None) is None else tuple(starts)
        self.tokens = tokens


def _piece_story(index, piece_text, data, alt, tables, cache, spans, pos, by_id, tokenizer):
    core = cache.get(data)
    if core is None:
        core = _Core(data, tables)
        if len(cache) < 50_000:
            cache[data] = core
    if alt is None:
        kind, source = ("whole_text" if tokenizer.pattern is None else "custom"), None
    else:
        kind, source = tables.kinds[alt], tables.alternatives[alt]
    vocab = tokenizer.vocab
    trained = tables.ranks is None

    def created(tid: int) -> Creation | None:
        if not trained or tid < 256:
            return None
        ev = by_id.get(tid)
        return Creation(tid - 256, tables.pair_of[tid], None if ev is None else ev.count)

    return _stories(
        core,
        index,
        piece_text,
        spans,
        pos,
        alt=alt,
        source=source,
        kind=kind,
        label=alternative_label(kind, piece_text, source=source),
        token=lambda tid, sp: vocab[tid],
        created=created,
        rule="merge_index" if trained else "rank",
    )


def _stories(core, index, piece_text, spans, pos, *, alt, source, kind, label, token, created, rule):
    """The :class:`PieceStory` of one piece and its :class:`TokenStory` s, from its
    :class:`_Core` (both paths: a :class:`bytepair.Tokenizer`'s pieces and an open
    model's), after checking the replay's ids against ``encode``'s spans.

    ``token(tid, span) -> bytes`` and ``created(tid) -> Creation | None`` fill
    the per-token fields that differ between the paths.

    Raises:
        RuntimeError: the replay's ids differ from ``encode``'s (a bug).
    """
    final_ids = core.ids
    n_tok = len(final_ids)
    got = [s.id for s in spans[pos : pos + n_tok]]
    if got != final_ids:
        raise RuntimeError(
            f"explain: replay of piece {piece_text!r} gave {final_ids}, encode gave {got} (a bug; please report it)"
        )
    story = PieceStory(
        index,
        piece_text,
        spans[pos].start,
        max(sp.end for sp in spans[pos : pos + n_tok]),
        len(core.data),
        alt,
        source,
        kind,
        label,
        pos,
        n_tok,
        core.whole,
        core.steps,
        core.initial,
        core.starts,
    )
    toks = []
    for j, (tid, (a, b, how, tsteps, stop)) in enumerate(zip(final_ids, core.tokens)):
        sp = spans[pos + j]
        toks.append(
            TokenStory(
                pos + j,
                tid,
                token(tid, sp),
                sp.start,
                sp.end,
                False,
                index,
                a,
                b,
                how,
                tsteps,
                stop,
                created(tid),
                rule=rule,
            )
        )
    return story, toks


# --------------------------------------------------------------------------- open models


class _SymbolReplay:
    """:class:`_Replay` for an open model's BPE (``tokenizers``' ``Word::merge_all``): the
    loop starts from symbols (vocabulary strings: characters, ``<0xNN>`` byte
    fallbacks, GPT-2 byte characters) and merges the adjacent pair with the
    lowest merge rank, leftmost on ties (a heap over ``(rank, position)``, as
    :meth:`bytepair.HFTokenizer._merge_long`). Same attributes as
    :class:`_Replay` (offsets in bytes of the piece) plus ``starts``: the
    initial symbols' byte offsets."""

    __slots__ = ("bounds", "ids", "initial", "lost", "starts", "steps")

    def __init__(
        self, syms: list[str], widths: list[int], vocab: Mapping[str, int], get_rank, sep: str, *, merge: bool = True
    ) -> None:
        n = len(syms)
        offs = [0]
        for w in widths:
            offs.append(offs[-1] + w)
        sym: list[Any] = list(syms)  # str; None once merged into its left neighbour (then never read)
        self.initial = tuple(vocab[x] for x in syms)
        self.starts = tuple(offs[:-1])
        nxt = list(range(1, n + 1))
        prv = list(range(-1, n - 1))

        def rank_at(a: int, b: int):
            return get_rank(sym[a] + sep + sym[b]) if b < n else None

        heap = [(r, i) for i in range(n - 1) if merge and (r := rank_at(i, i + 1)) is not None]
        heapq.heapify(heap)
        steps: list[tuple] = []
        lost: list[tuple] = []
        while heap:
            r, s = heapq.heappop(heap)
            if sym[s] is None:
                continue
            m = nxt[s]
            if m >= n or rank_at(s, m) != r:
                continue  # stale entry
            e = nxt[m]
            order = len(steps)
            p = prv[s]
            if p >= 0 and (rp := rank_at(p, s)) is not None:
                lost.append((offs[s], vocab[sym[p]], vocab[sym[s]], offs[p], offs[m], rp, order, "outranked"))
            if e < n and (re_ := rank_at(m, e)) is not None:
                lost.append(
                    (
                        offs[e],
                        vocab[sym[m]],
                        vocab[sym[e]],
                        offs[m],
                        offs[nxt[e]],
                        re_,
                        order,
                        "outranked" if re_ != r else "leftmost_tie",
                    )
                )
            new = sym[s] + sym[m]
            if new not in vocab:
                raise ArgumentError(
                    f"a merge of this tokenizer makes {new!r}, which is not in its vocabulary", field="tokenizer"
                )
            steps.append((offs[s], offs[m], offs[e], vocab[sym[s]], vocab[sym[m]], vocab[new], r))
            sym[s], sym[m] = new, None
            nxt[s] = e
            if e < n:
                prv[e] = s
                if (r2 := rank_at(s, e)) is not None:
                    heapq.heappush(heap, (r2, s))
            if p >= 0 and (r2 := rank_at(p, s)) is not None:
                heapq.heappush(heap, (r2, p))
        bounds, ids, i = [0], [], 0
        while i < n:
            ids.append(vocab[sym[i]])
            i = nxt[i]
            bounds.append(offs[i])
        self.steps, self.lost, self.bounds, self.ids = steps, lost, bounds, ids


def _special_story(index: int, sp, rule: str = "rank", token_string: str | None = None) -> TokenStory:
    return TokenStory(
        index,
        sp.id,
        sp.token,
        sp.start,
        sp.end,
        True,
        None,
        0,
        len(sp.token),
        "special",
        rule=rule,
        token_string=token_string,
    )


def _explain_open(tok, text: str, units, events, only, add_special_tokens: bool) -> Explanation:
    """Stories for an open model (:class:`bytepair.HFTokenizer`, :class:`bytepair.TekkenTokenizer`).

    Tekken is tiktoken-style: its inner rank tokenizer is explained as a real
    encoding. ``tokenizer.json`` BPE: added tokens, normalizer and
    pre-tokenizer as :meth:`bytepair.HFTokenizer.encode`, then each piece's
    merges by merge rank (:class:`_SymbolReplay`). Tokens the post-processor
    adds (``add_special_tokens``: BOS ...) are special stories."""
    if events is not None:
        raise ArgumentError("events (training merge events) only apply to a trained tokenizer", field="events")
    full = tok.encode_with_spans(text, add_special_tokens=add_special_tokens, units=units)
    if only is not None:
        if not -len(full) <= only < len(full):
            raise ArgumentError(
                f"token_index {only} is out of range: the text has {len(full)} tokens", field="token_index"
            )
        only %= len(full)
    n = len(full)
    k = 0
    if add_special_tokens:
        plain = [sp.id for sp in tok.encode_with_spans(text, add_special_tokens=False, units=units)]
        ids = [sp.id for sp in full]
        n = len(plain)
        k = next((i for i in range(len(ids) - n + 1) if ids[i : i + n] == plain), 0)
    if only is not None and not k <= only < k + n:
        return Explanation(
            tok.name,
            "rank",
            tok.pattern,
            units,
            (),
            (_special_story(only, full[only], token_string=tok.token_string(full[only].id)),),
        )
    inner = None if only is None else only - k
    if tok.pipeline == "base":
        ex = _explain(tok.base_tokenizer, text, frozenset(), (), units, None, inner)
    else:
        ex = _explain_hf(tok, text, units, inner)
    toks = tuple(dataclasses.replace(t, index=t.index + k, token_string=tok.token_string(t.id)) for t in ex.tokens)
    pieces = tuple(dataclasses.replace(p, first_token=p.first_token + k) for p in ex.pieces)
    if only is None:
        toks = (
            *(_special_story(i, full[i], token_string=tok.token_string(full[i].id)) for i in range(k)),
            *toks,
            *(_special_story(i, full[i], token_string=tok.token_string(full[i].id)) for i in range(k + n, len(full))),
        )
    return Explanation(tok.name, "rank", tok.pattern, units, pieces, toks)


def _explain_hf(tok, text: str, units, only) -> Explanation:
    """The stories of a ``tokenizer.json`` BPE model's tokens (no post-processor tokens)."""
    options = tok.model_options
    if options["continuing_subword_prefix"] or options["end_of_word_suffix"]:
        raise ArgumentError(
            "token stories do not cover BPE models with a continuing_subword_prefix or end_of_word_suffix",
            field="tokenizer",
        )
    spans = tok.encode_with_spans(text, add_special_tokens=False, units=units)
    vocab = tok.model_vocab
    get_rank = tok.merge_ranks().get
    token_bytes = tok.token_bytes
    pieces: list[PieceStory] = []
    tokens: list[TokenStory] = []
    cache: dict[str, _Core] = {}
    pos = 0
    n_pieces = 0
    kind = "pre_tokenizer" if tok.pre_tokenizer is not None else "between_added"
    label = alternative_label(kind, "")
    for item in tok.run_stages(tok.check_text(text), True):
        if item[0] == "tok":
            if only is None or only == pos:
                if spans[pos].id != item[1]:
                    raise RuntimeError(f"explain: added token {item[1]} but encode gave {spans[pos].id}")
                tokens.append(_special_story(pos, spans[pos]))
                if only is not None:
                    return Explanation(tok.name, "rank", tok.pattern, units, (), tuple(tokens))
            pos += 1
            continue
        for w, _align, _first in item[1]:
            if not w:
                continue
            n_pieces += 1
            if only is not None:
                n_tok = len(tok.model_ids(w))
                if not pos <= only < pos + n_tok:
                    pos += n_tok
                    continue
            core = cache.get(w)
            if core is None:
                syms = tok.model_symbols(w)
                unk = options["unk_token"]
                if unk is not None and unk in syms and unk not in w:
                    raise ArgumentError(
                        f"the piece {w!r} holds characters this vocabulary does not have "
                        f"({unk!r}): its story cannot be told byte for byte",
                        field="tokenizer",
                    )
                sym_bytes = [token_bytes(vocab[x]) for x in syms]
                data = b"".join(sym_bytes)
                whole = vocab[w] if options["ignore_merges"] and w in vocab else None
                rep = _SymbolReplay(
                    syms, [len(b) for b in sym_bytes], vocab, get_rank, options["separator"], merge=whole is None
                )
                core = _Core(data, None, rep, whole)
                if len(cache) < 50_000:
                    cache[w] = core
            story, toks = _stories(
                core,
                n_pieces - 1,
                core.data.decode("utf-8", "replace"),
                spans,
                pos,
                alt=None,
                source=None,
                kind=kind,
                label=label,
                token=lambda tid, sp: sp.token,
                created=lambda tid: None,
                rule="rank",
            )
            n_tok = story.n_tokens
            pieces.append(story)
            if only is not None:
                return Explanation(tok.name, "rank", tok.pattern, units, tuple(pieces), (toks[only - pos],))
            tokens += toks
            pos += n_tok
    if only is not None or pos != len(spans):
        raise RuntimeError(f"explain: the replay made {pos} tokens, encode made {len(spans)} (a bug; please report it)")
    return Explanation(tok.name, "rank", tok.pattern, units, tuple(pieces), tuple(tokens))


# --------------------------------------------------------------------------- in words


def _q(b: bytes) -> str:
    return repr(token_to_display(b))


def _prio(rank: int | None, merge_index: int | None) -> str:
    return f"rank {rank}" if rank is not None else f"merge #{merge_index}"


def describe(story: TokenStory, *, piece: PieceStory | None = None) -> list[str]:
    """The story in English sentences, one per line (for a text view or a CLI).

    Args:
        story: a :class:`TokenStory`.
        piece: its :class:`PieceStory` (default: ``story.piece_story``, which
            :func:`token_story` fills; from an :class:`Explanation` pass
            ``ex.pieces[story.piece]``). Without it the piece line is left out.

    Returns:
        Lines: the token, its piece, how it was made (the merges in loop order),
        why it stopped, and (trained) the merge that created it. Byte strings
        are shown as :func:`bytepair.token_to_display` text in quotes.

    >>> import bytepair
    >>> tok = bytepair.train("aaabdaaabac", 259, pattern="none")
    >>> for line in describe(token_story(tok, "aaab", 0)): print(line)
    Token 258 'aaab' (bytes 61616162, GPT-2 form 'aaab').
    Piece 'aaab' (characters 0-4): the whole text (no split pattern).
    Merges, in the order the loop applied them:
      step 1: 'a' + 'a' -> 'aa' (merge #0)
      step 2: 'aa' + 'a' -> 'aaa' (merge #1)
      step 3: 'aaa' + 'b' -> 'aaab' (merge #2)
    Stopped: the piece starts on the left; the piece ends on the right.
    Made by training merge #2 of (257, 98).
    """
    lines = [f"Token {story.id} {_q(story.token)} (bytes {story.hex}, GPT-2 form {story.gpt2!r})."]
    if story.special:
        lines.append("A special token: matched as a whole before the text is split, never merged.")
        return lines
    piece = piece if piece is not None else story.piece_story
    if piece is not None:
        where = (
            f"alternative {piece.alternative + 1} of the split pattern: {piece.alternative_source}"
            if piece.kind == "custom" and piece.alternative is not None
            else piece.label
        )
        lines.append(f"Piece {piece.text!r} (characters {piece.start}-{piece.end}): {where}.")
    if story.how == "single_byte":
        lines.append("A single byte: no merge made it.")
    elif story.how == "whole_piece":
        lines.append(
            "The whole piece is a token of the vocabulary, so it is looked up without merging (tiktoken's shortcut)."
        )
    if story.steps:
        lines.append(
            "Merges, in the order the loop applied them:" if story.how == "merges" else "The merge loop reaches it too:"
        )
        for st in story.steps:
            lines.append(
                f"  step {st.order + 1}: {_q(st.left)} + {_q(st.right)} -> {_q(st.left + st.right)} "
                f"({_prio(st.rank, st.merge_index)})"
            )
    if story.stop is not None:
        sides = []
        for edge, side in ((story.stop.left, "left"), (story.stop.right, "right")):
            if edge.kind == "piece_start":
                sides.append("the piece starts on the left")
            elif edge.kind == "piece_end":
                sides.append("the piece ends on the right")
            else:
                what = "is not a token of the vocabulary" if story.rule == "rank" else "is not a learned merge"
                joined: bytes = edge.joined  # type: ignore[assignment]
                k = len(joined) - len(story.token)
                pair = (
                    (joined[:k], joined[k:])
                    if side == "left"
                    else (joined[: len(story.token)], joined[len(story.token) :])
                )
                sides.append(f"on the {side}, {_q(pair[0])} + {_q(pair[1])} {what}")
        lines.append("Stopped: " + "; ".join(sides) + ".")
        for c in story.stop.lost:
            winner = f"step {c.lost_to + 1}"
            if piece is not None and c.lost_to < len(piece.steps):
                w = piece.steps[c.lost_to]
                winner += f" ({_q(w.left)} + {_q(w.right)}, {_prio(w.rank, w.merge_index)})"
            why = "which ranks ahead" if c.reason == "outranked" else "the same merge further left, which goes first"
            lines.append(
                f"  Lost on the {c.side}: {_q(c.joined)} ({_prio(c.rank, c.merge_index)}) was possible until {winner}, {why}."
            )
    if story.created_by is not None:
        cb = story.created_by
        count = "" if cb.count is None else f", counted {cb.count} times when it was learned"
        lines.append(f"Made by training merge #{cb.merge_index} of {cb.pair}{count}.")
    return lines
