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

from . import (  # chat templates (jinja2 imported on first render), the Chat view's formats, OpenAI chat layouts
    align,
    chat,
    chat_formats,
    explain,
    gallery,
    openai_chat,
    steps,
    textbook,
)
from .align import compare_segmentations
from .decoding import (
    StreamDecoder,
    bytes_to_unicode,
    gpt2_unview,
    gpt2_view,
    token_note,
    token_to_display,
    token_to_display_parts,
    token_to_label,
)
from .explain import explain_tokens, token_story
from .hf_tokenizer import HFTokenizer, from_tokenizer_json
from .limits import Chunk, chunk, is_within_limit
from .notebook import TokenView, show
from .patterns import PATTERNS
from .pretokenize import resolve_pattern
from .registry import encoding_info, get_encoding, list_encoding_names
from .serialize import to_json
from .tokenizer import from_json
from .tekken import TekkenTokenizer, from_tekken
from .tiktoken_file import dump_tiktoken_bpe, load_tiktoken_bpe, parse_tiktoken_bpe
from .tokenizer import Tokenizer, TokenSpan
from .trainer import MergeEvent, train, train_iter

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
    "compare_segmentations",
    "explain_tokens",
    "token_story",
    "Chunk",
    "chunk",
    "is_within_limit",
]
