"""A compact binary vocabulary file (``.bpv``) that loads fast, also in Pyodide.

Why: parsing a ``.tiktoken`` rank file means one base64 decode per token
(200k of them for ``o200k_base``), which takes 0.7 s inside Pyodide. This
format holds the same facts as raw bytes, so loading is a few slices of one
``bytes`` object: ``o200k_base`` loads in well under 0.1 s in Pyodide.

Format (all integers little-endian; the file may be gzip-compressed as a
whole, recognised by the gzip magic ``1f 8b``, whatever its name: the
playground's worker unzips ``<name>.bpv.gz`` natively before Python reads it)::

    magic     8 bytes   b"BPVOCAB1"
    n         u32       number of tokens
    flags     u32       bit 0: an ids section follows (else ids are 0..n-1)
                        bit 1: lengths are u16 (else u8)
    m         u32       number of merges (0 = none)
    size      u32       total bytes of all tokens (length of the blob)
    lengths   n x u8 or n x u16     byte length of each token, in file order
    ids       n x u32   (only with flag bit 0) the id of each token
    merges    m x (u32 left_id, u32 right_id)   in learned order (merge k
                        has priority k; optional, for merge-list vocabularies
                        such as Hugging Face ``tokenizer.json`` ``merges``)
    blob      size bytes   the token bytes, concatenated in file order

Tokens are written in id order. Every token is non-empty and unique, and every
id unique. Rank vocabularies (tiktoken's: id = rank = merge priority) leave
``merges`` empty; merge-list vocabularies (bytes vocabulary in id order plus
``merges``) fill it.

Example::

    >>> data = dump_vocab({b"a": 0, b"b": 1, b"ab": 2}, merges=[(0, 1)])
    >>> read_vocab(data)
    VocabData(ranks={b'a': 0, b'b': 1, b'ab': 2}, merges=[(0, 1)])
"""

from __future__ import annotations

import gzip
import itertools
import os
import struct
import sys
from array import array
from collections.abc import Mapping, Sequence
from typing import NamedTuple

__all__ = ["MAGIC", "VocabData", "dump_vocab", "read_vocab", "load_vocab"]

#: First 8 bytes of every (uncompressed) ``.bpv`` file.
MAGIC = b"BPVOCAB1"
_HEADER = struct.Struct("<8sIIII")
_F_IDS = 1
_F_U16 = 2
_GZIP_MAGIC = b"\x1f\x8b"


class VocabData(NamedTuple):
    """What a ``.bpv`` file holds: ``ranks`` = ``{token bytes: id}`` in id
    order; ``merges`` = ``[(left_id, right_id), ...]`` in learned order (empty
    for rank vocabularies)."""

    ranks: dict[bytes, int]
    merges: list[tuple[int, int]]


def _u(typecode: str, data: bytes | memoryview) -> array:
    a = array(typecode)
    a.frombytes(data)
    if sys.byteorder != "little":  # pragma: no cover - every Pyodide/CPython we run is little-endian
        a.byteswap()
    return a


def dump_vocab(ranks: Mapping[bytes, int], *, merges: Sequence[tuple[int, int]] = ()) -> bytes:
    """Serialize ``{token bytes: id}`` (and optional merges) to ``.bpv`` bytes (not compressed).

    Args:
        ranks: token bytes -> id (``int`` >= 0, unique). Written in id order.
        merges: ``(left_id, right_id)`` pairs in learned order, or ``()``.

    Returns:
        The file's bytes; ``gzip.compress(..., mtime=0)`` them for a smaller file.

    Raises:
        TypeError: a token is not bytes or an id not an int.
        ValueError: an empty token, a negative or repeated id, an id or merge
            id above 2**32 - 1, or a token longer than 65535 bytes.
    """
    items = sorted(ranks.items(), key=lambda kv: kv[1])
    for tok, i in items:
        if not isinstance(tok, (bytes, bytearray)):
            raise TypeError(f"token {tok!r} is {type(tok).__name__}, expected bytes")
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"id {i!r} of token {tok!r} is not an int")
        if not tok:
            raise ValueError(f"empty token (id {i}); every token has at least one byte")
        if not 0 <= i < 2**32:
            raise ValueError(f"id {i} of token {tok!r} is out of range 0..2**32-1")
        if len(tok) > 0xFFFF:
            raise ValueError(f"token with id {i} has {len(tok)} bytes; at most 65535 fit")
    ids = [i for _, i in items]
    if len(set(ids)) != len(ids):
        raise ValueError("two tokens share one id; ids must be unique")
    lengths = [len(t) for t, _ in items]
    flags = 0
    if ids != list(range(len(ids))):
        flags |= _F_IDS
    if lengths and max(lengths) > 0xFF:
        flags |= _F_U16
    flat = [x for pair in merges for x in pair]
    if any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2**32 for x in flat):
        raise ValueError("merge ids must be ints in 0..2**32-1")
    blob = b"".join(t for t, _ in items)
    parts = [_HEADER.pack(MAGIC, len(items), flags, len(merges), len(blob))]
    for typecode, values, on in (
        ("H" if flags & _F_U16 else "B", lengths, True),
        ("I", ids, flags & _F_IDS),
        ("I", flat, True),
    ):
        if on:
            a = array(typecode, values)
            if sys.byteorder != "little":  # pragma: no cover
                a.byteswap()
            parts.append(a.tobytes())
    parts.append(blob)
    return b"".join(parts)


def read_vocab(data: bytes | bytearray | memoryview) -> VocabData:
    """Parse ``.bpv`` bytes (gzip-compressed or not) into :class:`VocabData`.

    Raises:
        TypeError: ``data`` is not bytes-like.
        ValueError: not a ``.bpv`` file (wrong magic), truncated or too long,
            a zero-length token, or repeated tokens or ids; the message says which.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"read_vocab expects bytes, got {type(data).__name__}")
    data = bytes(data)
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise ValueError(f"corrupt gzip data ({e})") from e
    if len(data) < _HEADER.size or data[:8] != MAGIC:
        raise ValueError(f"not a .bpv vocabulary file: it does not start with {MAGIC!r}")
    _, n, flags, m, size = _HEADER.unpack_from(data)
    lw = 2 if flags & _F_U16 else 1
    pos = _HEADER.size
    expected = pos + n * lw + (4 * n if flags & _F_IDS else 0) + 8 * m + size
    if len(data) != expected:
        raise ValueError(f".bpv file has {len(data)} bytes; its header promises {expected} (truncated or corrupt)")
    view = memoryview(data)
    lengths = _u("H" if lw == 2 else "B", view[pos : pos + n * lw])
    pos += n * lw
    if flags & _F_IDS:
        ids: Sequence[int] = _u("I", view[pos : pos + 4 * n]).tolist()
        pos += 4 * n
    else:
        ids = range(n)
    flat = _u("I", view[pos : pos + 8 * m])
    pos += 8 * m
    blob = data[pos:]
    offsets = list(itertools.accumulate(lengths, initial=0))
    if offsets[-1] != size or (n and min(lengths) == 0):
        raise ValueError(".bpv file is corrupt: token lengths do not add up to the blob, or a token is empty")
    tokens = [blob[a:b] for a, b in zip(offsets, offsets[1:])]  # faster than map(slice) in Pyodide
    ranks = dict(zip(tokens, ids))
    if len(ranks) != n:
        raise ValueError(f".bpv file is corrupt: {n - len(ranks)} repeated tokens")
    if flags & _F_IDS and len(set(ids)) != n:
        raise ValueError(".bpv file is corrupt: repeated ids")
    it = iter(flat.tolist())
    return VocabData(ranks, list(zip(it, it)))


def load_vocab(path: str | os.PathLike[str]) -> VocabData:
    """Read a ``.bpv`` or ``.bpv.gz`` file (see :func:`read_vocab`).

    Raises:
        FileNotFoundError / OSError: the file cannot be read.
        ValueError: the file is not a valid ``.bpv`` file; the message starts with the path.
    """
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return read_vocab(raw)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from e
