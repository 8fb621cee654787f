"""Slow, obviously-correct reference implementations used as test oracles.

They are written straight from the definitions (minbpe's training and encoding
loops, tiktoken's rank-merge rule) with no attempt at speed, so that the fast
code in ``py/bytepair`` can be checked against them.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

#: Encodings whose constructors tiktoken defines in ``tiktoken_ext/openai_public.py``.
TIKTOKEN_NAMES = ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")


def tiktoken_constructor(name: str, ranks: dict[bytes, int] | None = None) -> dict[str, Any]:
    """Run tiktoken's own constructor for ``name`` without downloading anything.

    tiktoken's ``openai_public`` constructors download the rank file; here its two
    loader functions are temporarily replaced by one returning ``ranks`` (or an
    empty dict), so the pattern (``pat_str``), special tokens and
    ``explicit_n_vocab`` come from tiktoken's source, not from bytepair. The
    returned dict also holds ``"expected_hash"`` (the sha256 tiktoken expects
    of OpenAI's ``.tiktoken`` file; ``None`` for ``gpt2``, which is built
    from GPT-2's vocab.bpe/encoder.json).

    Needs ``tiktoken`` (callers ``pytest.importorskip`` it first).
    """
    from unittest import mock

    import tiktoken_ext.openai_public as op

    seen: dict[str, Any] = {"expected_hash": None}

    def fake_load(*args: Any, **kwargs: Any) -> dict[bytes, int]:
        seen["expected_hash"] = kwargs.get("expected_hash")
        return {} if ranks is None else ranks

    with (
        mock.patch.object(op, "load_tiktoken_bpe", fake_load),
        mock.patch.object(op, "data_gym_to_mergeable_bpe_ranks", fake_load),
    ):
        kwargs = dict(op.ENCODING_CONSTRUCTORS[name]())
    kwargs["expected_hash"] = seen["expected_hash"]
    return kwargs


def tiktoken_pattern(name: str) -> str:
    """tiktoken's split pattern (``pat_str``) for encoding ``name``."""
    return tiktoken_constructor(name)["pat_str"]


@functools.cache
def tiktoken_for(name: str):
    """tiktoken's ``Encoding`` for ``name`` built offline from bytepair's rank files (once a process);
    skips the calling test when tiktoken is not installed."""
    import pytest

    pytest.importorskip("tiktoken")
    from bytepair import registry

    return tiktoken_encoding(name, registry.load_ranks(name))


def tiktoken_encoding(name: str, ranks: dict[bytes, int]):
    """A ``tiktoken.Encoding`` for ``name`` built offline from ``ranks``."""
    import tiktoken

    kwargs = tiktoken_constructor(name, ranks)
    kwargs.pop("expected_hash")
    return tiktoken.Encoding(**kwargs)


def tiktoken_file_sha256(ranks: dict[bytes, int]) -> str:
    """sha256 of the ``.tiktoken`` text OpenAI publishes for ``ranks``
    (``base64(token) rank`` lines in rank order)."""
    import base64

    lines = b"".join(
        base64.b64encode(t) + b" " + str(r).encode() + b"\n" for t, r in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    return hashlib.sha256(lines).hexdigest()
