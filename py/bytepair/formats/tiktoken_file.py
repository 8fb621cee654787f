"""Read and write ``.tiktoken`` rank files.

Format (OpenAI's, as read by tiktoken's ``tiktoken/load.py``): one token per
line, ``<standard base64 of the token's bytes> <rank in decimal>\\n``, sorted by
rank. A rank is the token's id and its merge priority (lower merges first).
Example: the first line of ``cl100k_base.tiktoken`` is ``IQ== 0`` (``b"!"`` has
rank 0).

Getting the bytes (:func:`read_tiktoken_bytes`: a file, gzip or not) is kept
apart from parsing them (:func:`parse_tiktoken_bpe`), so the same parser serves
files, downloads in the browser and in-memory data.
"""

from __future__ import annotations

import base64
import binascii
import functools
import gzip
import itertools
import os

__all__ = [
    "parse_tiktoken_bpe",
    "dump_tiktoken_bpe",
    "load_tiktoken_bpe",
    "read_tiktoken_bytes",
    "check_token_entry",
]

_GZIP_MAGIC = b"\x1f\x8b"


def _show(line: bytes, limit: int = 60) -> str:
    """``repr`` of a line, cut to ``limit`` bytes, for error messages."""
    if len(line) > limit:
        return repr(line[:limit]) + "..."
    return repr(line)


def parse_tiktoken_bpe(data: bytes) -> dict[bytes, int]:
    """Parse the text of a ``.tiktoken`` file into ``{token bytes: rank}``.

    Args:
        data: the file's content as *bytes* (not gzip-compressed; see
            :func:`load_tiktoken_bpe` for files). Lines end with ``\\n``
            (``\\r\\n`` and ``\\r`` are accepted too); empty lines are skipped,
            as tiktoken does.

    Returns:
        ``dict[bytes, int]``: token bytes -> rank, in file order. Ranks need not
        be contiguous (``p50k_base`` has a hole at 50256).

    Raises:
        TypeError: ``data`` is not bytes-like (for example a ``str``).
        ValueError: with ``line N:`` (1-based) and what is wrong, for a line
            that does not have exactly two space-separated fields, a token that
            is not valid standard base64 or decodes to no bytes, a rank that is
            not a decimal integer, a negative rank, a token seen before, or a
            rank seen before (the message names the earlier line).
    """
    if isinstance(data, str):
        raise TypeError(
            "parse_tiktoken_bpe expects bytes, got str; pass data.encode('ascii') or read the file in binary mode"
        )
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse_tiktoken_bpe expects bytes, got {type(data).__name__}")

    fast = _parse_canonical(bytes(data))
    if fast is not None:
        return fast
    ranks: dict[bytes, int] = {}
    token_line: dict[bytes, int] = {}
    rank_line: dict[int, int] = {}
    b64decode = base64.b64decode
    for lineno, line in enumerate(bytes(data).splitlines(), start=1):
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            raise ValueError(
                f"line {lineno}: expected 2 fields '<base64 token> <rank>', got {len(fields)}: {_show(line)}"
            )
        token_b64, rank_text = fields
        try:
            token = b64decode(token_b64, validate=True)
        except (binascii.Error, ValueError) as e:
            raise ValueError(f"line {lineno}: token {_show(token_b64)} is not valid base64 ({e})") from e
        if not token:
            raise ValueError(f"line {lineno}: token {_show(token_b64)} decodes to no bytes")
        if not rank_text.isdigit():
            if rank_text.startswith(b"-") and rank_text[1:].isdigit():
                raise ValueError(f"line {lineno}: rank {rank_text.decode('ascii')} is negative; ranks are ids >= 0")
            raise ValueError(f"line {lineno}: rank {_show(rank_text)} is not an integer (expected decimal digits)")
        rank = int(rank_text)
        if token in token_line:
            raise ValueError(
                f"line {lineno}: duplicate token {token!r} (base64 "
                f"{token_b64.decode('ascii')}), first seen on line {token_line[token]}"
            )
        if rank in rank_line:
            raise ValueError(f"line {lineno}: duplicate rank {rank}, first used on line {rank_line[rank]}")
        token_line[token] = lineno
        rank_line[rank] = lineno
        ranks[token] = rank
    return ranks


_SEPS = (b" ", b"\n")
_A2B_STRICT = functools.partial(binascii.a2b_base64, strict_mode=True)


def _parse_canonical(data: bytes) -> dict[bytes, int] | None:
    """The ranks of a well-formed canonical file in a few vectorised steps (about
    3x faster than the line-by-line loop); ``None`` for anything else (other
    line endings or spacing, bad base64, repeats), which the careful loop of
    :func:`parse_tiktoken_bpe` then parses or reports."""
    fields = data.split()
    # canonical: rebuilding "<field> <field>\n" per line gives the data back
    if len(fields) % 2 or b"".join(itertools.chain.from_iterable(zip(fields, _SEPS * (len(fields) // 2)))) != data:
        return None
    if not b"".join(fields[1::2]).isdigit():
        return None
    try:
        tokens = list(map(_A2B_STRICT, fields[0::2]))
    except binascii.Error:
        return None
    rank_list = list(map(int, fields[1::2]))
    ranks = dict(zip(tokens, rank_list))
    if len(ranks) != len(tokens) or len(set(rank_list)) != len(rank_list) or not all(tokens):
        return None
    return ranks


def check_token_entry(token: object, number: object, *, word: str) -> None:
    """Check one entry of a ``{token bytes: number}`` table about to be written to a file.

    Args:
        token: the key; must be ``bytes`` (or ``bytearray``) of at least one byte.
        number: the value (a rank or id); must be an ``int`` (not a ``bool``). Its range is
            the caller's to check (each file format has its own).
        word: what the number is called in the messages (``"rank"``, ``"id"``).

    Raises:
        TypeError: a token that is not bytes, a number that is not an int.
        ValueError: an empty token.
    """
    if not isinstance(token, (bytes, bytearray)):
        raise TypeError(f"token {token!r} is {type(token).__name__}, expected bytes")
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"{word} {number!r} of token {token!r} is not an int")
    if not token:
        raise ValueError(f"empty token ({word} {number}); every token has at least one byte")


def dump_tiktoken_bpe(ranks: dict[bytes, int]) -> bytes:
    """Serialize ``{token bytes: rank}`` to ``.tiktoken`` text, sorted by rank.

    The output is byte-identical to OpenAI's files for their ranks (checked by
    sha256 in ``tests/core/test_vocab_files.py``) and is read back unchanged by
    :func:`parse_tiktoken_bpe` and by tiktoken's ``load_tiktoken_bpe``.

    Args:
        ranks: token *bytes* -> rank (``int`` >= 0). Ranks must be distinct.

    Returns:
        ``bytes``: ASCII lines ``<base64 token> <rank>\\n``, one per token.

    Raises:
        TypeError: a key is not bytes or a rank is not an int.
        ValueError: an empty token, a negative rank or a repeated rank.
    """
    seen: dict[int, bytes] = {}
    for token, rank in ranks.items():
        check_token_entry(token, rank, word="rank")
        if rank < 0:
            raise ValueError(f"rank {rank} of token {token!r} is negative; ranks are ids >= 0")
        if rank in seen:
            raise ValueError(f"rank {rank} is used by both {seen[rank]!r} and {token!r}")
        seen[rank] = token
    b64encode = base64.b64encode
    return b"".join(b64encode(token) + b" " + str(rank).encode("ascii") + b"\n" for rank, token in sorted(seen.items()))


def read_tiktoken_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a ``.tiktoken`` or ``.tiktoken.gz`` file and return its text as *bytes*.

    Gzip is recognised by its magic bytes (``1f 8b``), not by the file name.

    Raises:
        FileNotFoundError / OSError: the file cannot be read.
        ValueError: the file looks gzip-compressed but does not decompress.
    """
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == _GZIP_MAGIC:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise ValueError(f"{os.fspath(path)}: corrupt gzip data ({e})") from e
    return raw


def load_tiktoken_bpe(path: str | os.PathLike[str]) -> dict[bytes, int]:
    """Load a ``.tiktoken`` (or gzip-compressed ``.tiktoken.gz``) rank file.

    Returns:
        ``dict[bytes, int]``: token bytes -> rank (see :func:`parse_tiktoken_bpe`).

    Raises:
        FileNotFoundError / OSError: the file cannot be read.
        ValueError: corrupt gzip data, or a bad line; the message starts with
            the path and contains ``line N:``.
    """
    data = read_tiktoken_bytes(path)
    try:
        return parse_tiktoken_bpe(data)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from e
