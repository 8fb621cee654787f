"""An open model's count in exact steps: :meth:`HFTokenizer.encode`'s pipeline, divided.

:meth:`bytepair.hf.tokenizer.HFTokenizer.encode` runs ``tokenizers``' stages in order: added
tokens found in the raw text, the normalizer on each text segment between them, added tokens
that match the normalized text, the pre-tokenizer, the model on each pre-tokenized piece, and
the post-processor (BOS/EOS). :func:`hf_count_steps` runs the same stages (the class's public stage interface),
and divides the only long parts, which are all piece-wise:

* **the model**: each piece's ids depend only on the piece (``HFTokenizer.model_ids``), so
  pieces are counted a batch at a time;
* **the pre-tokenizer**: every step of a ``tokenizers`` pre-tokenizer (Split, ByteLevel,
  Metaspace, Digits, Punctuation, Whitespace ...) maps each piece on its own
  (``bytepair.hf.components``: ``step(pieces)`` is the concatenation of ``step([p])``). When
  the first steps are ``Split`` with ``Isolated`` behaviour (Llama 3, Qwen 3, gpt-oss: one;
  DeepSeek V3: three), their pieces come from lazy ``finditer`` walks (gaps and matches,
  empty ones dropped, each split over the previous one's pieces: the stage's own
  ``PreTokenizer.leading_isolated_splits()``), and the rest of the pre-tokenizer runs per piece.
  Otherwise the pre-tokenizer runs over the segment at once;
* **no pre-tokenizer** (Gemma 3: the segment is one piece): ``model_ids`` cuts a long piece
  where no token can span the cut (``HFTokenizer.piece_cutter``); the parts are stepped.

The normalizer and the added-token search run over a whole segment at once (C-speed string
work: ``str.replace``, ``unicodedata.normalize``, set lookups). The sum is exactly
``len(tok.encode(text, add_special_tokens=...))``; ``tests/core/test_hf_chunked.py`` checks it
against ``tokenizers`` with batches that cut anywhere.

Counting also skips what the ids need but a count does not: the first pre-tokenizer split's
pieces are counted once each (a count cache keyed by the raw piece), so the rest of the
pre-tokenizer (ByteLevel's byte mapping ...) and the cache lookups run once per distinct piece.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING

from ..offsets import chars_to_utf16
from ..tokenizer import TokenSpan

if TYPE_CHECKING:
    from . import components as hc
    from . import tokenizer as hft

#: Distinct pieces kept in a count's cache (raw piece -> tokens) before it is cleared.
_COUNT_CACHE_MAX = 200_000


def _lazy_first_split(tok: hft.HFTokenizer) -> tuple[list[hc.Finder], Callable[[list], list] | None] | None:
    """``(finders, rest)`` when the pre-tokenizer starts with Isolated, not inverted ``Split`` steps
    and the pieces need no offsets (:meth:`bytepair.hf.components.PreTokenizer.leading_isolated_splits`);
    else None."""
    pre = tok.pre_tokenizer
    if pre is None or tok.needs_align:
        return None
    return pre.leading_isolated_splits()


def _isolated_pieces(seg: str, finder: hc.Finder) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of an Isolated split's pieces of ``seg``, lazily, empty ones dropped."""
    prev = 0
    if isinstance(finder, str):
        n = len(finder)
        i = seg.find(finder)
        while i >= 0:
            if prev < i:
                yield prev, i
            yield i, i + n
            prev = i + n
            i = seg.find(finder, prev)
    else:
        for m in finder(seg):
            a, b = m.span()
            if prev < a:
                yield prev, a
            if a < b:
                yield a, b
            prev = b
    if prev < len(seg):
        yield prev, len(seg)


def _split_all(seg: str, finders: list[hc.Finder], base: int = 0) -> Iterator[tuple[int, int]]:
    """The pieces of ``seg`` after each of the leading Isolated splits in turn, lazily:
    ``(start, end)`` in ``seg`` plus ``base``."""
    head, more = finders[0], finders[1:]
    for s, e in _isolated_pieces(seg, head):
        if more:
            yield from _split_all(seg[s:e], more, base + s)
        else:
            yield base + s, base + e


def hf_count_steps(
    tok: hft.HFTokenizer, text: str, *, add_special_tokens: bool = True, batch: int = 2048
) -> Generator[tuple[int, int], None, int]:
    """Count ``text`` under ``tok``, yielding ``(count so far, position)`` every ``batch`` pieces.

    ``position``: characters of ``text`` counted (approximate inside a normalized segment,
    never decreasing, ``len(text)`` at the end). The generator's return value (``StopIteration.value``)
    is the total, ``len(tok.encode(text, add_special_tokens=add_special_tokens))`` exactly
    (post-processor tokens included).

    Raises:
        TypeError: ``text`` is not a ``str``. ValueError: ``batch`` < 1.
    """
    if batch < 1:
        raise ValueError(f"batch must be >= 1, got {batch}")
    text = tok.check_text(text)
    tok.prepare_tables(text)  # as run_stages
    normalizer, pre, word_ids = tok.normalizer, tok.pre_tokenizer, tok.model_ids
    with_align = tok.needs_align
    lazy = _lazy_first_split(tok)
    cache: dict[str, int] = {}
    count = 0
    left = batch
    for a, b, tid in tok.split_added(text):
        if tid is not None:
            count += 1
            continue
        seg = text[a:b]
        align = [(i, i + 1) for i in range(a, b)] if with_align else None
        if normalizer is not None:
            seg, align = normalizer(seg, align)
        scale = (b - a) / max(len(seg), 1)  # normalized characters -> characters of text (progress)
        for a2, b2, tid2 in tok.split_added(seg, normalized=True):
            if tid2 is not None:
                count += 1
                continue
            first = (a == 0 and a2 == 0) if align is None else align[a2][0] == 0
            sub = seg[a2:b2]
            if lazy is not None:
                finders, rest = lazy
                for s, e in _split_all(sub, finders):
                    p = sub[s:e]
                    n = cache.get(p) if not (first and s == 0) else None
                    if n is None:
                        parts: list[tuple[str, list[tuple[int, int]] | None, bool]] = [(p, None, first and s == 0)]
                        if rest is not None:
                            parts = rest(parts)
                        n = 0
                        for q in parts:
                            n += len(word_ids(q[0]))
                        if not (first and s == 0):
                            if len(cache) >= _COUNT_CACHE_MAX:
                                cache.clear()
                            cache[p] = n
                    count += n
                    left -= 1
                    if not left:
                        left = batch
                        yield count, a + min(int((a2 + e) * scale), b - a)
                continue
            pieces: list[tuple[str, list[tuple[int, int]] | None, bool]]
            pieces = [(sub, align[a2:b2] if align is not None else None, first)]
            if pre is not None:
                pieces = pre(pieces)
            done = 0  # normalized characters of sub counted
            for q in pieces:
                w = q[0]
                cut = tok.piece_cutter(w)  # (built once, on first use)
                units = cut(w) if cut is not None else (w,)
                for u in units:
                    count += len(word_ids(u))
                    done += len(u)
                    left -= 1
                    if not left:
                        left = batch
                        yield count, a + min(int((a2 + min(done, len(sub))) * scale), b - a)
    if add_special_tokens and tok.template is not None:
        count += sum(len(item) for item in tok.template if item != "A")
    return count


def _piece_unit_ends(tok: hft.HFTokenizer, seg: str, lazy, n: int) -> list[int] | None:
    """End offsets (in ``seg``, a normalized text segment between added tokens) of its first ``n``
    units the model encodes on their own, or None when they cannot be told: with leading Isolated
    splits, their pieces (:func:`_split_all`); else the pre-tokenizer's pieces, which must be
    consecutive parts of ``seg`` (no mapping), each long one cut as ``HFTokenizer._word_spans``
    cuts it (``piece_cutter``)."""
    out: list[int] = []
    if n <= 0:
        return out
    if lazy is not None:
        for _s, e in _split_all(seg, lazy[0]):
            out.append(e)
            if len(out) >= n:
                break
        return out
    pre = tok.pre_tokenizer
    pieces = pre([(seg, None, True)]) if pre is not None else [(seg, None, True)]
    pos = 0
    for w, _al, _f in pieces:
        if seg[pos : pos + len(w)] != w:
            return None  # the pre-tokenizer changed the text: offsets unknown here
        cut = tok.piece_cutter(w)
        if cut is not None:
            for m in cut.__self__.finditer(w):  # type: ignore[attr-defined]  # (a compiled pattern's split)
                if m.start() > 0:
                    out.append(pos + m.start())
                    if len(out) >= n:
                        return out
        pos += len(w)
        out.append(pos)
        if len(out) >= n:
            return out
    return out


def _unit_ends(tok: hft.HFTokenizer, text: str, lazy, n: int) -> list[tuple[int, bool]] | None:
    """The first ``n`` units of ``text`` as :meth:`HFTokenizer.encode` divides it, as
    ``(end offset in text, is an added token)``: added tokens (raw, then in the normalized
    segments) and the units of :func:`_piece_unit_ends`. Offsets of normalized text are those of
    ``text``: only for normalizers that map each character to one (``Normalizer.one_to_one``)."""
    norm = tok.normalizer
    out: list[tuple[int, bool]] = []
    for a, b, tid in tok.split_added(text):
        if tid is not None:
            out.append((b, True))
        else:
            seg = norm(text[a:b], None)[0] if norm is not None else text[a:b]
            for a2, b2, tid2 in tok.split_added(seg, normalized=True):
                if tid2 is not None:
                    out.append((a + b2, True))
                else:
                    ends = _piece_unit_ends(tok, seg[a2:b2], lazy, n - len(out))
                    if ends is None:
                        return None
                    out += [(a + a2 + e, False) for e in ends]
                if len(out) >= n:
                    return out[:n]
        if len(out) >= n:
            return out[:n]
    return out


def hf_first_spans(
    tok: hft.HFTokenizer, text: str, limit: int, *, units: str = "utf16", add_special_tokens: bool = True
) -> tuple[list, int] | None:
    """The first ``limit`` tokens of ``text`` with their spans, from a prefix of ``text``, exactly:
    ``tok.encode_with_spans(text, add_special_tokens=..., units=units)[:limit]``.

    Applies when ``tok``'s normalizer leaves the offsets as they are: none, one that maps each
    character to one character (``Normalizer.one_to_one``), or one that leaves this ``text`` unchanged
    (Qwen 3's NFC on text already in NFC, checked by one C-speed pass over the text), and ``text``
    is valid UTF-8 (no lone surrogates). The text's first segment (up to the first added token, raw then normalized, as
    :meth:`HFTokenizer.split_added` cuts the whole text) is divided into the units the model
    encodes on their own (:func:`_unit_ends`) until ``limit + 2`` are out; the prefix ending with
    them holds no added token (none starts before the segment's end), normalizes to the same
    characters and gives the same first ``limit + 1`` units (checked: else None); the spans of
    tokens in those units are the whole text's, and ``limit`` of them are taken when there are
    that many.

    Returns:
        ``(spans, covered)`` as :func:`bytepair.app.chunked.first_spans`, or ``None`` (the caller
        encodes the whole text).
    """
    norm = tok.normalizer
    if limit < 1 or tok.needs_align:
        return None
    lazy = _lazy_first_split(tok)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    if norm is not None and not norm.one_to_one and norm(text, None)[0] != text:
        # the normalizer changes this text (Qwen 3's NFC of decomposed accents, of Hindi's nukta letters)
        return _first_spans_normal_form(tok, text, limit, lazy, units=units, add_special_tokens=add_special_tokens)
    ends = _unit_ends(tok, text, lazy, limit + 2)
    if ends is None or len(ends) < limit + 2:
        return None  # a short text: the whole text is encoded
    k, bound = ends[-1][0], ends[-2][0]  # tokens ending at bound or before come from the first limit + 1 units
    if _unit_ends(tok, text[:k], lazy, limit + 1) != ends[:-1]:
        return None
    kept = _leading_specials(tok, add_special_tokens)
    for sp in tok.encode_with_spans(text[:k], add_special_tokens=False, units="chars"):
        if sp.end > bound:
            break
        kept.append(sp)
    return _finish(kept, text, limit, units)


def _leading_specials(tok: hft.HFTokenizer, add_special_tokens: bool) -> list[TokenSpan]:
    """The post-processor's tokens before the text (BOS), as ``encode_with_spans`` gives them."""
    kept: list[TokenSpan] = []
    if add_special_tokens and tok.template is not None:
        for item in tok.template:
            if item == "A":
                break
            kept += [TokenSpan(t, tok.token_bytes(t), 0, 0, True) for t in item]
    return kept


#: An ASCII character: a Unicode normal form leaves text before one alone (ASCII characters are
#: starters that never compose with what precedes them), so ``form(a + b) == form(a) + form(b)``
#: when ``b`` starts with one.
_ASCII = re.compile(r"[\x00-\x7f]")


def _first_spans_normal_form(
    tok: hft.HFTokenizer, text: str, limit: int, lazy, *, units: str, add_special_tokens: bool
) -> tuple[list, int] | None:
    """:func:`hf_first_spans` for a normalizer that is one Unicode normal form and changes ``text``.

    The whole text's first ``limit + 2`` units (:func:`_unit_ends`; offsets in the normalized
    first segment; none may be an added token) give ``k``, the end of unit ``limit + 2``. The raw
    prefix ``P`` is cut before an ASCII character (so ``form(P)`` is a prefix of the whole text's
    normalized form) where ``form(P)`` reaches ``k``; ``P`` must give the same first ``limit + 1``
    units, and the normalized text up to the end of unit ``limit + 1`` exactly those units (their
    token count ``m``). The first ``m`` tokens of ``P`` (spans mapped back by ``encode_with_spans``
    itself) are then the whole text's."""
    norm = tok.normalizer
    if norm is None or norm.unicode_form is None:
        return None
    ends = _unit_ends(tok, text, lazy, limit + 2)
    if ends is None or len(ends) < limit + 2 or any(added for _e, added in ends):
        return None
    k, bound = ends[-1][0], ends[-2][0]
    cut = k
    while True:  # the raw prefix: before an ASCII character, normalized at least k long
        m_ascii = _ASCII.search(text, cut)
        cut = m_ascii.start() if m_ascii is not None else len(text)
        normal = norm(text[:cut], None)[0]
        if len(normal) >= k or cut == len(text):
            break
        cut += k - len(normal) + 16
    if len(normal) < k or _unit_ends(tok, text[:cut], lazy, limit + 1) != ends[:-1]:
        return None
    if _unit_ends(tok, normal[:bound], lazy, limit + 2) != ends[:-1]:
        return None  # (the normalized text up to the bound: exactly the first limit + 1 units)
    m = len(tok.encode(normal[:bound], add_special_tokens=False))
    kept = _leading_specials(tok, add_special_tokens)
    kept += tok.encode_with_spans(text[:cut], add_special_tokens=False, units="chars")[:m]
    return _finish(kept, text, limit, units)


def _finish(kept: list[TokenSpan], text: str, limit: int, units: str) -> tuple[list, int] | None:
    """The first ``limit`` of ``kept`` (spans in characters) and the characters they cover, spans in ``units``."""
    if len(kept) < limit:
        return None
    kept = kept[:limit]
    covered = max((sp.end for sp in kept), default=0)
    if units == "utf16":
        raw = chars_to_utf16(text[:covered], [(sp.id, sp.start, sp.end, sp.special) for sp in kept])
        kept = [TokenSpan(t, sp.token, s, e, spc) for sp, (t, s, e, spc) in zip(kept, raw, strict=True)]
    return kept, covered
