"""tiktoken's ``load_tiktoken_bpe`` for local files (tiktoken 0.14.0 ``tiktoken/load.py``).

bytepair never downloads: a URL is refused with a message saying so; a local
``.tiktoken`` (or ``.tiktoken.gz``) file is read with
:func:`bytepair.formats.tiktoken_file.load_tiktoken_bpe`.
"""

from __future__ import annotations

import hashlib
import os

from bytepair.errors import ArgumentError
from bytepair.formats import tiktoken_file

__all__ = ["load_tiktoken_bpe", "read_file"]


def read_file(blobpath: str | os.PathLike[str]) -> bytes:
    """The bytes of local file ``blobpath`` (tiktoken's ``read_file``, without network).

    Raises:
        ArgumentError: (a ValueError, ``field="blobpath"``) a URL (``http://``,
            ``https://``, ``az://``, ``gs://`` ...): nothing is downloaded.
        OSError: the file cannot be read.
    """
    path = os.fspath(blobpath)
    if "://" in path:
        raise ArgumentError(
            f"bytepair.tiktoken does not download ({path}); save the file and pass its local path",
            field="blobpath",
        )
    with open(path, "rb") as f:
        return f.read()


def load_tiktoken_bpe(tiktoken_bpe_file: str | os.PathLike[str], expected_hash: str | None = None) -> dict[bytes, int]:
    """``{token bytes: rank}`` of a local ``.tiktoken`` rank file (gzip accepted).

    Args:
        tiktoken_bpe_file: a local path (URLs are refused, see :func:`read_file`).
        expected_hash: if given, the sha256 hex digest the file's bytes must have.

    Raises:
        ArgumentError: a URL; or (``field="expected_hash"``) the file's sha256 differs.
        ValueError: a bad line (path and line number in the message).
        OSError: the file cannot be read.
    """
    data = read_file(tiktoken_bpe_file)
    if expected_hash is not None:
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected_hash:
            raise ArgumentError(
                f"Hash mismatch for data from {os.fspath(tiktoken_bpe_file)} (expected {expected_hash}, got {actual})",
                field="expected_hash",
            )
    return tiktoken_file.load_tiktoken_bpe(tiktoken_bpe_file)
