"""A token's story in English sentences (:func:`describe`), for a text view or the CLI; the page words
the same data (:mod:`bytepair.teach.stories`) in the reader's language itself."""

from __future__ import annotations

from ..decoding import token_to_display
from .stories import PieceStory, TokenStory

__all__ = ["describe"]


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
    >>> from bytepair.teach.explain import token_story
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
