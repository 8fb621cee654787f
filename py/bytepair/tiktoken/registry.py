"""tiktoken's registry of encodings, on bytepair's data (tiktoken 0.14.0 ``tiktoken/registry.py``).

tiktoken's seven encodings (``tiktoken_ext/openai_public.py``), in its order:
five are :func:`bytepair.get_encoding`'s tokenizers as they are; two add
special tokens to one of them, as tiktoken builds them:

* ``p50k_edit``: p50k_base's ranks, ``<|endoftext|>`` 50256 and the three
  fill-in-the-middle tokens 50281-50283;
* ``o200k_harmony``: :func:`bytepair.chat.openai.harmony_encoding` (o200k_base's
  ranks with the harmony tokens and the reserved ids up to 201087); tiktoken
  also names id 200018 ``<|reserved_200018|>`` beside ``<|endofprompt|>``, so
  ``_special_tokens`` holds both names (the id decodes to ``<|endofprompt|>``).

Each encoding is built on first use and then shared, like tiktoken's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from bytepair import registry as _bp_registry
from bytepair.chat import openai as openai_chat
from bytepair.errors import ArgumentError

from .core import BY_NAME, ENCODINGS, Encoding

__all__ = ["ENCODINGS", "get_encoding", "list_encoding_names"]

_lock = threading.RLock()

#: p50k_edit's special tokens (``tiktoken_ext/openai_public.py``, ``p50k_edit``).
P50K_EDIT_SPECIAL_TOKENS: dict[str, int] = {
    "<|endoftext|>": 50256,
    "<|fim_prefix|>": 50281,
    "<|fim_middle|>": 50282,
    "<|fim_suffix|>": 50283,
}


def _plain(name: str) -> Callable[[], Encoding]:
    def build() -> Encoding:
        core = _bp_registry.get_encoding(name)
        return Encoding.from_tokenizer(name, core, core.special_tokens)

    return build


def _p50k_edit() -> Encoding:
    core = _bp_registry.get_encoding("p50k_base").copy()
    core.register_special_tokens({t: i for t, i in P50K_EDIT_SPECIAL_TOKENS.items() if t not in core.special_tokens})
    core.name = "p50k_edit"
    return Encoding.from_tokenizer("p50k_edit", core, dict(P50K_EDIT_SPECIAL_TOKENS))


def _o200k_harmony() -> Encoding:
    core = openai_chat.harmony_encoding()
    specials = core.special_tokens
    specials["<|reserved_200018|>"] = specials["<|endofprompt|>"]  # tiktoken's second name for 200018
    return Encoding.from_tokenizer("o200k_harmony", core, specials)


_CONSTRUCTORS: dict[str, Callable[[], Encoding]] = {
    "gpt2": _plain("gpt2"),
    "r50k_base": _plain("r50k_base"),
    "p50k_base": _plain("p50k_base"),
    "p50k_edit": _p50k_edit,
    "cl100k_base": _plain("cl100k_base"),
    "o200k_base": _plain("o200k_base"),
    "o200k_harmony": _o200k_harmony,
}


def list_encoding_names() -> list[str]:
    """The names :func:`get_encoding` accepts, in tiktoken's order:
    ``["gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base", "o200k_harmony"]``."""
    return list(_CONSTRUCTORS)


def get_encoding(encoding_name: str) -> Encoding:
    """The :class:`~bytepair.tiktoken.Encoding` named ``encoding_name``; the
    same object on every call (tiktoken's ``get_encoding``).

    Raises:
        ArgumentError: (a ``ValueError``, as tiktoken, ``field="encoding_name"``)
            not a ``str``, or an unknown name (the message lists the known ones).
        FileNotFoundError: the rank file is not available (see :func:`bytepair.registry.data_path`).
    """
    if not isinstance(encoding_name, str):
        raise ArgumentError(f"Expected a string in get_encoding, got {type(encoding_name)}", field="encoding_name")
    enc = ENCODINGS.get(encoding_name)
    if enc is not None:
        return enc
    with _lock:
        enc = ENCODINGS.get(encoding_name)
        if enc is not None:
            return enc
        build = _CONSTRUCTORS.get(encoding_name)
        if build is None:
            raise ArgumentError(
                f"Unknown encoding {encoding_name}.\nKnown encodings: {', '.join(_CONSTRUCTORS)}",
                field="encoding_name",
            )
        enc = ENCODINGS[encoding_name] = build()
        return enc


BY_NAME[:] = [get_encoding]
