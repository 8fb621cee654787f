"""bytepair: byte-level BPE tokenizers in pure Python.

Train a tokenizer and watch its merges, encode and decode with the real
OpenAI encodings id-for-id as tiktoken does, in CPython and in Pyodide.

>>> import bytepair
>>> enc = bytepair.get_encoding("cl100k_base")
>>> enc.decode(enc.encode("hello world"))
'hello world'
>>> tok = bytepair.train("aaabdaaabac", 259, pattern="none")
>>> tok.encode("aaabdaaabac")
[258, 100, 258, 97, 99]
"""

from typing import TYPE_CHECKING, Any

from .decoding import (
    StreamDecoder,
    bytes_to_unicode,
    gpt2_unview,
    gpt2_view,
    token_label_head,
    token_note,
    token_to_display,
    token_to_display_parts,
    token_to_label,
)
from .formats.serialize import to_json
from .formats.tiktoken_file import dump_tiktoken_bpe, load_tiktoken_bpe, parse_tiktoken_bpe
from .registry import encoding_info, get_encoding, list_encoding_names
from .split.patterns import PATTERNS
from .split.pretokenize import resolve_pattern
from .tokenizer import Tokenizer, TokenSpan, from_json
from .trainer import MergeEvent, train, train_iter

if TYPE_CHECKING:  # loaded on first use (see __getattr__); listed here for type checkers
    from . import chat
    from .app import chat_formats, gallery, lessons
    from .app.limits import Chunk, chunk, is_within_limit
    from .chat import openai as openai_chat
    from .hf.tekken import TekkenTokenizer, from_tekken
    from .hf.tokenizer import HFTokenizer, from_tokenizer_json
    from .notebook import TokenView, show
    from .teach import align, explain, steps, textbook
    from .teach.align import compare_segmentations
    from .teach.explain import explain_tokens, token_story

#: Names loaded on first use (PEP 562): the teaching sub-package (``teach``), the playground's own
#: modules (``app``), chat templates (``chat``), open-model files (``hf``) and the notebook view, so
#: ``import bytepair`` loads only the encoder, trainer, split patterns and file formats.
#: name -> (module under ``bytepair``, attribute or None for the module itself).
_LAZY: dict[str, tuple[str, str | None]] = {
    # modules, under the names they had before the sub-packages
    "align": ("teach.align", None),
    "explain": ("teach.explain", None),
    "steps": ("teach.steps", None),
    "textbook": ("teach.textbook", None),
    "chat": ("chat", None),
    "openai_chat": ("chat.openai", None),
    "chat_formats": ("app.chat_formats", None),
    "gallery": ("app.gallery", None),
    "lessons": ("app.lessons", None),
    # functions and classes
    "compare_segmentations": ("teach.align", "compare_segmentations"),
    "explain_tokens": ("teach.explain", "explain_tokens"),
    "token_story": ("teach.explain", "token_story"),
    "HFTokenizer": ("hf.tokenizer", "HFTokenizer"),
    "from_tokenizer_json": ("hf.tokenizer", "from_tokenizer_json"),
    "Chunk": ("app.limits", "Chunk"),
    "chunk": ("app.limits", "chunk"),
    "is_within_limit": ("app.limits", "is_within_limit"),
    "TokenView": ("notebook", "TokenView"),
    "show": ("notebook", "show"),
    "TekkenTokenizer": ("hf.tekken", "TekkenTokenizer"),
    "from_tekken": ("hf.tekken", "from_tekken"),
}


def __getattr__(name: str) -> Any:
    """PEP 562: load a :data:`_LAZY` name's module on first use and keep the name.

    Raises:
        AttributeError: ``name`` is not a name of the package.
    """
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{where[0]}")
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

__all__ = [
    "MergeEvent",
    "PATTERNS",
    "StreamDecoder",
    "TokenSpan",
    "TokenView",
    "Tokenizer",
    "bytes_to_unicode",
    "dump_tiktoken_bpe",
    "encoding_info",
    "from_json",
    "get_encoding",
    "gpt2_unview",
    "gpt2_view",
    "list_encoding_names",
    "load_tiktoken_bpe",
    "parse_tiktoken_bpe",
    "resolve_pattern",
    "show",
    "steps",
    "textbook",
    "to_json",
    "token_to_display",
    "token_to_display_parts",
    "token_label_head",
    "token_to_label",
    "token_note",
    "train",
    "train_iter",
    "HFTokenizer",
    "from_tokenizer_json",
    "TekkenTokenizer",
    "from_tekken",
    "chat",
    "chat_formats",
    "openai_chat",
    "align",
    "explain",
    "gallery",
    "lessons",
    "compare_segmentations",
    "explain_tokens",
    "token_story",
    "Chunk",
    "chunk",
    "is_within_limit",
]
