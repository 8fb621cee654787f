"""bytepair's one compact vocabulary format (``.bpv``): quick to load, also in Pyodide.

Why: parsing a ``.tiktoken`` rank file means one base64 decode per token
(200k of them for ``o200k_base``), and parsing a ``tokenizer.json`` means JSON
objects of hundreds of thousands of entries; inside Pyodide each takes most of
a second. A ``.bpv`` file holds the same tables as a few separator-joined
blobs that C code splits on load (``bytes.split`` / ``str.split``), and
``dict(zip(...))`` turns them into the dicts the encoders use.

One format serves every vocabulary bytepair ships:

* ``kind="ranks"``: OpenAI rank vocabularies (tiktoken's ``{token bytes: rank}``;
  :func:`dump_vocab` / :func:`read_vocab`), the site's ``vocab/<name>.bpv.gz``;
  CPython reads them too when a data directory holds them
  (:func:`bytepair.registry.data_path`).
* ``kind="hf"``: Hugging Face ``tokenizer.json`` BPE models
  (:func:`bytepair.hf.compact.to_compact` / ``from_compact``), the site's
  ``models/<name>.bpv.gz``, written at site build time.

Layout (integers little-endian; the whole file may be gzip-compressed,
recognised by the gzip magic ``1f 8b`` whatever its name: the playground's
worker unzips natively before Python reads it)::

    magic     7 bytes   b"BPVOCAB"
    version   1 byte    3 (VERSION); files of other versions are refused with a
                        message saying to rebuild them (1: b"BPVOCAB1", before
                        the open models shared the format; 2: before
                        ``kind="hf"`` files stored added tokens as columns,
                        :mod:`bytepair.hf.added`)
    hlen      u32       length of the header
    header    hlen bytes of UTF-8 JSON:
                {"kind": "ranks" | "hf",
                 "sections": [{"name", "type", "count", "size", ...}, ...],
                 "meta": {...}}       (kind-specific facts, e.g. the rest of a
                                       tokenizer.json; {} for "ranks")
    sections  one after another, in header order, each "size" bytes

Section types (``count`` items each):

* ``"bytes"``: byte strings, joined with the separator ``"sep"`` (hex; chosen by
  the writer so that splitting gives the items back; ``o200k_base`` uses
  ``fffe``). When no candidate separator works, ``"lengths": "u8" | "u16"``
  instead: ``count`` lengths, then the items concatenated.
* ``"text"``: strings, joined with the one-character separator ``"sep"`` (a
  character no item contains), encoded UTF-8 (``surrogatepass``).
* ``"u32"``: unsigned 32-bit integers.

Any section may be stored *deflated* (``"deflate": true`` in its header entry,
``"raw_size"``: its bytes before): cut into blocks at offsets the writer
chooses, each block compressed on its own (raw deflate with a window of
``2**min(15, max(9, n.bit_length()))`` bytes for a block of ``n`` bytes: ``zlib``
``wbits`` of minus that exponent; small windows inflate quicker), so that a
reader can inflate only the blocks it reads (:class:`Blocks`).
Stored as ``u32 n``, then ``n`` u32 end offsets of the blocks in the section's
bytes, then ``n`` u32 end offsets of the compressed blocks (counted from the
first block), then the blocks. A file whose big sections are deflated needs no
gzip around it (the open models' site files, :mod:`bytepair.hf.lazy`).

Sections of ``kind="ranks"``: ``tokens`` (bytes, in id order), ``ids`` (u32;
only when the ids are not ``0..n-1``), ``merges`` (u32 ``left, right`` pairs
in learned order; only for merge-list vocabularies). Of ``kind="hf"``: see
:func:`bytepair.hf.compact.to_compact`.

Example::

    >>> data = dump_vocab({b"a": 0, b"b": 1, b"ab": 2}, merges=[(0, 1)])
    >>> read_vocab(data)
    VocabData(ranks={b'a': 0, b'b': 1, b'ab': 2}, merges=[(0, 1)])
"""

from __future__ import annotations

import bisect
import gzip
import itertools
import json
import os
import struct
import sys
import zlib
from array import array
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from .tiktoken_file import check_token_entry

__all__ = [
    "MAGIC",
    "VERSION",
    "Blocks",
    "VocabData",
    "VocabFile",
    "dump_vocab",
    "load_vocab",
    "read_vocab",
    "read_vocab_file",
    "text_separator",
    "write_vocab_file",
]

#: First 7 bytes of every (uncompressed) ``.bpv`` file; the 8th is :data:`VERSION`.
MAGIC = b"BPVOCAB"
#: The format version this module writes and reads.
VERSION = 3
_HLEN = struct.Struct("<I")
_GZIP_MAGIC = b"\x1f\x8b"
#: Separators tried for "bytes" sections, in order: byte pairs that cannot occur in UTF-8 text.
_BYTE_SEPS = (b"\xff\xfe", b"\xfe\xff", b"\xc0\xc1", b"\xc1\xc0", b"\xf8\xf9", b"\xff\xff\xfe", b"\xfe\xfe\xff")
#: Separators tried for "text" sections, in order.
_TEXT_SEPS = ("\n", "\x00", "\x01", "\x02", "\ufffe", "\uffff", "\U0010fffe", "\U0010ffff")


class VocabData(NamedTuple):
    """A rank vocabulary (``kind="ranks"``): ``ranks`` = ``{token bytes: id}`` in id
    order; ``merges`` = ``[(left_id, right_id), ...]`` in learned order (empty
    for rank vocabularies such as tiktoken's)."""

    ranks: dict[bytes, int]
    merges: list[tuple[int, int]]


class VocabFile(NamedTuple):
    """What :func:`read_vocab_file` returns: the ``kind``, each section by name
    (``list[bytes]``, ``list[str]`` or an ``array('I')`` of ints), and ``meta``."""

    kind: str
    sections: dict[str, Any]
    meta: dict[str, Any]


# --------------------------------------------------------------------------- writer


def _u32(values: Sequence[int]) -> bytes:
    try:
        a = array("I", values)
    except (OverflowError, TypeError) as e:
        raise ValueError(f"u32 sections hold ints in 0..2**32-1 ({e})") from e
    if a.itemsize != 4:  # pragma: no cover - 'I' is 4 bytes on every platform we run
        raise RuntimeError("array('I') is not 32-bit here")
    if sys.byteorder != "little":  # pragma: no cover - every Pyodide/CPython we run is little-endian
        a.byteswap()
    return a.tobytes()


def _bytes_section(items: list[bytes]) -> tuple[dict[str, Any], bytes]:
    for sep in _BYTE_SEPS:
        blob = sep.join(items)
        if not items or blob.split(sep) == items:
            return {"type": "bytes", "sep": sep.hex()}, blob
    lengths = [len(b) for b in items]
    wide = max(lengths, default=0) > 0xFF
    if max(lengths, default=0) > 0xFFFF:
        raise ValueError("an item is longer than 65535 bytes and no separator fits; it cannot be stored")
    lens = array("H" if wide else "B", lengths)
    if sys.byteorder != "little":  # pragma: no cover
        lens.byteswap()
    return {"type": "bytes", "lengths": "u16" if wide else "u8"}, lens.tobytes() + b"".join(items)


def text_separator(items: Sequence[str]) -> str:
    """The separator a "text" section of ``items`` is written with (the first free one).

    Raises:
        ValueError: no separator character is free in these strings.
    """
    joined = "".join(items)
    sep = next((c for c in _TEXT_SEPS if c not in joined), None)
    if sep is None:
        raise ValueError("no separator character is free in these strings")
    return sep


def _text_section(items: list[str]) -> tuple[dict[str, Any], bytes]:
    sep = text_separator(items)
    return {"type": "text", "sep": sep}, sep.join(items).encode("utf-8", "surrogatepass")


def _wbits(n: int) -> int:
    """``zlib`` wbits of a deflated block of ``n`` bytes: raw deflate, a window no larger than it
    needs (setting up a 32 KB window is most of inflating a 2 KB block)."""
    return -min(15, max(9, n.bit_length()))


def _deflated(blob: bytes, cuts: Sequence[int]) -> bytes:
    """``blob`` as a deflated section (module docstring), cut after each offset of ``cuts``."""
    ends = sorted({c for c in cuts if 0 < c < len(blob)} | {len(blob)})
    blocks, stored, at, start = [], [], 0, 0
    for end in ends:
        z = zlib.compressobj(9, zlib.DEFLATED, _wbits(end - start), 9)
        block = z.compress(blob[start:end]) + z.flush()
        blocks.append(block)
        at += len(block)
        stored.append(at)
        start = end
    return _u32([len(ends)]) + _u32(ends) + _u32(stored) + b"".join(blocks)


def write_vocab_file(
    sections: Mapping[str, Sequence[bytes] | Sequence[str] | Sequence[int]],
    *,
    kind: str,
    meta: Mapping[str, Any] | None = None,
    deflate: Mapping[str, Sequence[int]] | None = None,
) -> bytes:
    """The one ``.bpv`` writer: ``sections`` (name -> items) and ``meta`` as file bytes.

    Args:
        sections: each a list of ``bytes`` (a "bytes" section), of ``str``
            ("text") or of ints ("u32"); the type is taken from the first item
            (an empty list is written as "u32").
        kind: what the file holds (``"ranks"``, ``"hf"``); readers check it.
        meta: JSON-serializable facts stored in the header.
        deflate: sections to store deflated (module docstring): name -> the
            offsets in the section's bytes where a block ends (``()``: one
            block); the other sections are stored as they are.

    Returns:
        The file's bytes; ``gzip.compress(..., mtime=0)`` them for a smaller
        file (of little use when the big sections are deflated).

    Raises:
        TypeError: a section mixes item types, or an item type is not bytes/str/int.
        ValueError: an int outside 0..2**32-1; no separator fits a section; a
            ``deflate`` name that is not a section.
    """
    deflate = dict(deflate or {})
    if not deflate.keys() <= sections.keys():
        raise ValueError(f"deflate names sections the file does not have: {sorted(deflate.keys() - sections.keys())}")
    infos, blobs = [], []
    for name, given in sections.items():
        items: list[Any] = list(given)
        first = items[0] if items else 0
        if isinstance(first, (bytes, bytearray)):
            if not all(isinstance(x, (bytes, bytearray)) for x in items):
                raise TypeError(f"section {name!r} mixes bytes with other types")
            info, blob = _bytes_section([bytes(x) for x in items])
        elif isinstance(first, str):
            if not all(isinstance(x, str) for x in items):
                raise TypeError(f"section {name!r} mixes str with other types")
            info, blob = _text_section(items)
        elif isinstance(first, int) and not isinstance(first, bool):
            info, blob = {"type": "u32"}, _u32(items)
        else:
            raise TypeError(f"section {name!r} holds {type(first).__name__}; expected bytes, str or int items")
        if name in deflate:
            info["deflate"], info["raw_size"] = True, len(blob)
            blob = _deflated(blob, deflate[name])
        infos.append({"name": name, **info, "count": len(items), "size": len(blob)})
        blobs.append(blob)
    header = json.dumps(
        {"kind": kind, "sections": infos, "meta": dict(meta or {})}, ensure_ascii=True, separators=(",", ":")
    ).encode("ascii")
    return b"".join([MAGIC, bytes([VERSION]), _HLEN.pack(len(header)), header, *blobs])


# --------------------------------------------------------------------------- reader


class Blocks:
    """A deflated section (module docstring) read lazily: ``blocks[a:b]`` gives the section's
    bytes ``a..b`` (``bytes``), inflating only the blocks they lie in; ``len`` is the section's
    size before compression. A block read alone is kept (read again, it is not inflated again);
    a slice over several blocks (a bulk read) keeps nothing.

    Raises (on reading):
        ValueError: a block that does not inflate to its recorded size.
    """

    __slots__ = ("_cache", "_data", "_ends", "_size", "_stored")

    def __init__(self, view: memoryview, raw_size: int) -> None:
        """``view``: the stored section. Raises ValueError when its block table does not fit it."""
        if len(view) < 4:
            raise ValueError("a deflated section is shorter than its block count")
        (n,) = struct.unpack_from("<I", view, 0)
        head = 4 + 8 * n
        if head > len(view):
            raise ValueError("a deflated section is shorter than its block table")
        ends, stored = array("I"), array("I")
        ends.frombytes(view[4 : 4 + 4 * n])
        stored.frombytes(view[4 + 4 * n : head])
        if sys.byteorder != "little":  # pragma: no cover
            ends.byteswap()
            stored.byteswap()
        if n and (ends[-1] != raw_size or stored[-1] != len(view) - head):
            raise ValueError("a deflated section's block table does not match its sizes")
        if not n and raw_size:
            raise ValueError("a deflated section has no blocks")
        self._ends, self._stored, self._data, self._size = ends, stored, view[head:], raw_size
        self._cache: dict[int, bytes] = {}

    def __len__(self) -> int:
        return self._size

    @property
    def kept_blocks(self) -> frozenset[int]:
        """The blocks inflated and kept so far, by index (0 = the section's first): a read that
        lies in one of them inflates nothing."""
        return frozenset(self._cache)

    def _block(self, k: int, keep: bool = False) -> bytes:
        got = self._cache.get(k)
        if got is None:
            a = self._stored[k - 1] if k else 0
            n = self._ends[k] - (self._ends[k - 1] if k else 0)
            try:
                got = zlib.decompress(self._data[a : self._stored[k]], _wbits(n), max(n, 1))
            except zlib.error as e:
                raise ValueError(f"block {k} of a deflated section is corrupt ({e})") from e
            if len(got) != n:
                raise ValueError(f"block {k} of a deflated section inflates to {len(got)} bytes, not its size")
            if keep:
                self._cache[k] = got
        return got

    def __getitem__(self, s: slice) -> bytes:
        if not isinstance(s, slice):
            raise TypeError("Blocks are read in slices")
        a, b, step = s.indices(self._size)
        if step != 1:
            raise ValueError("Blocks are read in slices with step 1")
        if a >= b:
            return b""
        k0, k1 = bisect.bisect_right(self._ends, a), bisect.bisect_left(self._ends, b)
        base = self._ends[k0 - 1] if k0 else 0
        if k0 == k1:
            return self._block(k0, keep=True)[a - base : b - base]
        return b"".join(map(self._block, range(k0, k1 + 1)))[a - base : b - base]

    def tobytes(self) -> bytes:
        """The whole section, inflated."""
        return self[0 : self._size]


def _read_section(info: dict[str, Any], view: memoryview) -> Any:
    count, kind = info["count"], info["type"]
    if kind == "u32":
        if len(view) != 4 * count:
            raise ValueError(f"section {info['name']!r} has {len(view)} bytes for {count} u32 values")
        a = array("I")
        a.frombytes(view)
        if sys.byteorder != "little":  # pragma: no cover
            a.byteswap()
        return a
    if count == 0:
        return []
    items: list[str] | list[bytes]
    if kind == "text":
        items = str(view, "utf-8", "surrogatepass").split(info["sep"])
    elif kind == "bytes" and "sep" in info:
        items = bytes(view).split(bytes.fromhex(info["sep"]))
    elif kind == "bytes":
        wide = info["lengths"] == "u16"
        lens = array("H" if wide else "B")
        lens.frombytes(view[: count * lens.itemsize])
        if sys.byteorder != "little":  # pragma: no cover
            lens.byteswap()
        blob = bytes(view[count * lens.itemsize :])
        offsets = list(itertools.accumulate(lens, initial=0))
        if offsets[-1] != len(blob):
            raise ValueError(f"section {info['name']!r}: item lengths do not add up to its size")
        items = [blob[a:b] for a, b in zip(offsets, offsets[1:])]
    else:
        raise ValueError(f"section {info['name']!r} has unknown type {kind!r}")
    if len(items) != count:
        raise ValueError(f"section {info['name']!r} holds {len(items)} items; its header promises {count}")
    return items


def read_vocab_file(
    data: bytes | bytearray | memoryview, *, kind: str | None = None, raw: Collection[str] = ()
) -> VocabFile:
    """The one ``.bpv`` reader: file bytes (gzip-compressed or not) -> :class:`VocabFile`.

    Args:
        data: the file's bytes.
        kind: when given, the file must be of this kind.
        raw: names of "text" / "bytes" sections to give as they are stored (a
            ``memoryview`` of the file, not split), for readers that split
            parts of them later (:mod:`bytepair.hf.lazy`); a deflated section
            named here (of any type) is given as :class:`Blocks`, inflated as
            it is read. Every other deflated section is inflated at once.

    Raises:
        TypeError: ``data`` is not bytes-like.
        ValueError: not a ``.bpv`` file (wrong magic), another format version,
            another kind, a damaged header, or sections that do not match it
            (truncated, too long, wrong item counts); the message says which.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"a .bpv file is bytes, got {type(data).__name__}")
    data = bytes(data)
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise ValueError(f"corrupt gzip data ({e})") from e
    if data[:7] != MAGIC:
        raise ValueError(f"not a .bpv vocabulary file: it does not start with {MAGIC!r}")
    if len(data) < 12 or data[7] != VERSION:
        got = data[7:8]
        raise ValueError(
            f".bpv format version {got!r} is not the version this bytepair reads ({VERSION}): "
            "rebuild the file from its source (python build.py rebuilds the site's files)"
        )
    (hlen,) = _HLEN.unpack_from(data, 8)
    try:
        header = json.loads(data[12 : 12 + hlen].decode("ascii"))
        infos = header["sections"]
        file_kind = header["kind"]
        meta = header["meta"]
        sizes = [int(s["size"]) for s in infos]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f".bpv file has a damaged header ({e})") from e
    if kind is not None and file_kind != kind:
        raise ValueError(f"this .bpv file holds a {file_kind!r} vocabulary, not {kind!r}")
    expected = 12 + hlen + sum(sizes)
    if len(data) != expected:
        raise ValueError(f".bpv file has {len(data)} bytes; its header promises {expected} (truncated or corrupt)")
    view = memoryview(data)
    pos = 12 + hlen
    sections: dict[str, Any] = {}
    for info, size in zip(infos, sizes):
        try:
            part = view[pos : pos + size]
            if info.get("deflate"):
                blocks = Blocks(part, int(info["raw_size"]))
                if info["name"] in raw:
                    sections[info["name"]] = blocks
                    pos += size
                    continue
                part = memoryview(blocks.tobytes())
            if info["name"] in raw and info["type"] != "u32":
                sections[info["name"]] = part
            else:
                sections[info["name"]] = _read_section(info, part)
        except (KeyError, TypeError, UnicodeDecodeError, struct.error) as e:
            raise ValueError(f".bpv file has a damaged section ({e!r})") from e
        pos += size
    return VocabFile(file_kind, sections, meta)


# --------------------------------------------------------------------------- rank vocabularies


def dump_vocab(ranks: Mapping[bytes, int], *, merges: Sequence[tuple[int, int]] = ()) -> bytes:
    """Serialize ``{token bytes: id}`` (and optional merges) as a ``kind="ranks"`` ``.bpv`` file (not compressed).

    Args:
        ranks: token bytes -> id (``int`` >= 0, unique). Written in id order.
        merges: ``(left_id, right_id)`` pairs in learned order, or ``()``.

    Returns:
        The file's bytes; ``gzip.compress(..., mtime=0)`` them for a smaller file.

    Raises:
        TypeError: a token is not bytes or an id not an int.
        ValueError: an empty token, a negative or repeated id, or an id or
            merge id above 2**32 - 1.
    """
    items = sorted(ranks.items(), key=lambda kv: kv[1])
    for tok, i in items:
        check_token_entry(tok, i, word="id")
        if not 0 <= i < 2**32:
            raise ValueError(f"id {i} of token {tok!r} is out of range 0..2**32-1")
    ids = [i for _, i in items]
    if len(set(ids)) != len(ids):
        raise ValueError("two tokens share one id; ids must be unique")
    flat = [x for pair in merges for x in pair]
    if any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2**32 for x in flat):
        raise ValueError("merge ids must be ints in 0..2**32-1")
    sections: dict[str, Any] = {"tokens": [t for t, _ in items]}
    if ids != list(range(len(ids))):
        sections["ids"] = ids
    if flat:
        sections["merges"] = flat
    return write_vocab_file(sections, kind="ranks")


def read_vocab(data: bytes | bytearray | memoryview) -> VocabData:
    """Parse a ``kind="ranks"`` ``.bpv`` file (gzip-compressed or not) into :class:`VocabData`.

    Raises:
        TypeError: ``data`` is not bytes-like.
        ValueError: not a ``.bpv`` rank file (see :func:`read_vocab_file`), a
            zero-length token, or repeated tokens or ids; the message says which.
    """
    f = read_vocab_file(data, kind="ranks")
    tokens = f.sections.get("tokens", [])
    n = len(tokens)
    ids: Sequence[int] = f.sections["ids"].tolist() if "ids" in f.sections else range(n)
    if len(ids) != n:
        raise ValueError(f".bpv file is corrupt: {n} tokens but {len(ids)} ids")
    ranks = dict(zip(tokens, ids))
    if len(ranks) != n:
        raise ValueError(f".bpv file is corrupt: {n - len(ranks)} repeated tokens")
    if b"" in ranks:
        raise ValueError(".bpv file is corrupt: an empty token")
    if "ids" in f.sections and len(set(ids)) != n:
        raise ValueError(".bpv file is corrupt: repeated ids")
    it = iter(f.sections["merges"].tolist() if "merges" in f.sections else ())
    return VocabData(ranks, list(zip(it, it)))


def load_vocab(path: str | os.PathLike[str]) -> VocabData:
    """Read a ``.bpv`` or ``.bpv.gz`` rank file (see :func:`read_vocab`).

    Raises:
        FileNotFoundError / OSError: the file cannot be read.
        ValueError: the file is not a valid ``.bpv`` rank file; the message starts with the path.
    """
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return read_vocab(raw)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from e
