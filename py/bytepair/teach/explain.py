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

The stories' data types are :mod:`bytepair.teach.stories`, the pattern alternatives and their
labels :mod:`bytepair.teach.alternatives`, the story in English sentences
:mod:`bytepair.teach.story_words`; this module makes the stories and re-exports those names.

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
import weakref
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Literal

from .. import bpe, specials
from ..errors import ArgumentError
from ..normalize import normalize
from ..split.pretokenize import compile_pattern
from ..surrogates import fix_surrogates
from .alternatives import alternative_label, grouped_alternatives, label_parts, split_alternatives
from .stories import (
    PIECE_PARTS_MAX_BYTES,
    Creation,
    Edge,
    Explanation,
    LostCandidate,
    MergeStep,
    PieceStory,
    Stop,
    TokenStory,
)
from .story_words import describe

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
        self.grouped, self.alternatives, self.kinds = grouped_alternatives(pattern)


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
