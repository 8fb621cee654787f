"""A ``tokenizer.json``'s added tokens as three columns, the form compact files store them in.

Why: Gemma 3 has 6,415 added tokens. As JSON objects in the compact file's
header they took 887 KB, and ``tokenizer_config.json``'s
``added_tokens_decoder`` repeated them (861 KB); parsing both, then building a
token object from each dict, was most of the time a compact file took to load
after its tables (:mod:`bytepair.hf.lazy`). As columns they are one ``text``
section, two ``u32`` sections (:mod:`bytepair.formats.vocab_file`) and no JSON, and
the config's copy is rebuilt from them only when someone reads it.

Columns (one item per added token, in file order):

* ``added_content`` (text): its ``content``;
* ``added_ids`` (u32): its ``id`` as the file gives it;
* ``added_flags`` (u32): its booleans as bits, :data:`FLAGS` (``special`` = 1,
  ``lstrip`` = 2, ``rstrip`` = 4, ``single_word`` = 8, ``normalized`` = 16).

Only an added-token list that the columns give back exactly is stored this way
(:func:`to_columns` says ``None`` otherwise: the file keeps the JSON list).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["FLAGS", "KEYS", "decoder", "dicts", "to_columns"]

#: Each boolean field of an added token and its bit in ``added_flags``.
FLAGS = (("special", 1), ("lstrip", 2), ("rstrip", 4), ("single_word", 8), ("normalized", 16))
#: The fields of an added token in ``tokenizer.json`` (as ``tokenizers`` writes them).
KEYS = frozenset({"id", "content"} | {k for k, _ in FLAGS})


def to_columns(added: Any) -> dict[str, list] | None:
    """``tokenizer.json``'s ``added_tokens`` list as the three columns (module docstring), or
    ``None`` when they would not give it back exactly (not a non-empty list of objects with just
    :data:`KEYS`, an ``id`` that is not an int in 0..2**32-1, a ``content`` that is not a str, a
    flag that is not a bool)."""
    if not isinstance(added, list) or not added:
        return None
    content, ids, flags = [], [], []
    for d in added:
        if not isinstance(d, dict) or d.keys() != KEYS:
            return None
        i, c = d["id"], d["content"]
        if type(i) is not int or not 0 <= i < 2**32 or not isinstance(c, str):
            return None
        f = 0
        for key, bit in FLAGS:
            v = d[key]
            if type(v) is not bool:
                return None
            f |= bit if v else 0
        content.append(c)
        ids.append(i)
        flags.append(f)
    return {"added_content": content, "added_ids": ids, "added_flags": flags}


def dicts(content: Sequence[str], ids: Sequence[int], flags: Sequence[int]) -> list[dict[str, Any]]:
    """The columns back as ``tokenizer.json``'s ``added_tokens`` list (dicts with :data:`KEYS`)."""
    return [
        {"id": i, "content": c, **{key: bool(f & bit) for key, bit in FLAGS}} for c, i, f in zip(content, ids, flags)
    ]


def decoder(content: Sequence[str], ids: Sequence[int], flags: Sequence[int]) -> dict[str, dict[str, Any]]:
    """The columns as ``tokenizer_config.json``'s ``added_tokens_decoder`` (``transformers``' form:
    ``{str(id): {content, lstrip, normalized, rstrip, single_word, special}}``)."""
    return {
        str(i): {
            "content": c,
            "lstrip": bool(f & 2),
            "normalized": bool(f & 16),
            "rstrip": bool(f & 4),
            "single_word": bool(f & 8),
            "special": bool(f & 1),
        }
        for c, i, f in zip(content, ids, flags)
    }
