"""The story of a text's tokens, as data: :class:`Explanation` holds a :class:`PieceStory` per piece
of the split pattern and a :class:`TokenStory` per token, with the :class:`MergeStep` s that built it,
why it stopped (:class:`Stop`, :class:`Edge`, :class:`LostCandidate`) and, for a trained tokenizer,
the merge that created it (:class:`Creation`). :mod:`bytepair.teach.explain` makes them; each has
``to_dict()``, JSON-friendly, for the page.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..charnames import on_base
from ..decoding import gpt2_view, token_to_display
from ..errors import ArgumentError
from .alternatives import label_parts

__all__ = [
    "PIECE_PARTS_MAX_BYTES",
    "Creation",
    "Edge",
    "Explanation",
    "LostCandidate",
    "MergeStep",
    "PieceStory",
    "Stop",
    "TokenStory",
]

#: Pieces up to this many bytes list the parts of the whole piece after every
#: merge step in :meth:`PieceStory.to_dict` (``"parts"``); longer pieces give
#: ``None`` there (a 5000-space piece would otherwise list 25 million ids).
#: Likewise tokens longer than this (trained tokenizers without a split
#: pattern) leave :attr:`MergeStep.parts` empty in their steps.
PIECE_PARTS_MAX_BYTES = 256


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
