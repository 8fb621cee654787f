"""tiktoken's public API on bytepair's encodings: a drop-in for ``import tiktoken``.

>>> import bytepair.tiktoken as tiktoken
>>> enc = tiktoken.get_encoding("gpt2")
>>> enc.encode("hello world")
[31373, 995]
>>> tiktoken.encoding_name_for_model("gpt-4o")
'o200k_base'

Same names, arguments, return values and error types as tiktoken 0.14.0
(``tiktoken/__init__.py``): :class:`Encoding` (``core``), :func:`get_encoding`
and :func:`list_encoding_names` (``registry``), :func:`encoding_for_model` and
:func:`encoding_name_for_model` (``model``), :func:`load.load_tiktoken_bpe`
(``load``, local files only). The BPE is bytepair's own
(:class:`bytepair.Tokenizer`, :func:`bytepair.get_encoding`); this package only
adapts it, so the ids are tiktoken's (``tests/core/test_tiktoken_compat.py``
checks every method against tiktoken). It runs wherever bytepair runs,
Pyodide included, and needs no network: the vocabularies are bytepair's data.

Differences, all where tiktoken itself is undefined or would fail here:
``num_threads`` is accepted and ignored (pure Python gains nothing from
threads, and Pyodide has none); ``Encoding(...)`` needs a token for each of
the 256 single bytes (tiktoken's Rust core panics later without one);
``explicit_n_vocab`` and ``is_special_token`` raise ``ValueError`` /
``TypeError`` where tiktoken asserts; ``encode_with_unstable`` returns its
completions sorted (tiktoken: a set's arbitrary order).
"""

from __future__ import annotations

from . import core, load, model, registry
from .core import Encoding
from .model import encoding_for_model, encoding_name_for_model
from .registry import get_encoding, list_encoding_names

#: The tiktoken release whose public API this package follows.
TIKTOKEN_API_VERSION = "0.14.0"
#: tiktoken's own module attribute; here the API version followed (code that
#: prints ``tiktoken.__version__`` sees which release it can expect).
__version__ = TIKTOKEN_API_VERSION

__all__ = [
    "Encoding",
    "TIKTOKEN_API_VERSION",
    "core",
    "encoding_for_model",
    "encoding_name_for_model",
    "get_encoding",
    "list_encoding_names",
    "load",
    "model",
    "registry",
]
