"""The playground's worker adapter: JSON in and out over the bytepair API.

``web/src/worker.js`` imports this package in Pyodide (the site build ships it as
the wheel ``wheels/bytepair_playground-*.whl``, installed with bytepair at boot) and
calls the names below. Each function is one call into ``bytepair`` converting its
arguments and results (every algorithm, check and limit lives in ``bytepair``);
results are JSON strings (or ``int``/``bytes``), so no proxy crosses into
JavaScript. Units: *characters* (``str`` code points), *utf16* (JavaScript string
indices), *bytes* (UTF-8), *tokens* (ids).

One module per view or group of calls: :mod:`.loading` (facts, files the worker
fetches, tokenizers brought or saved), :mod:`.tokenize` (Tokenize, Compare),
:mod:`.train`, :mod:`.export` (the saved list's downloads and merges), :mod:`.steps`
(step-through), :mod:`.report` (Report), :mod:`.chat`, :mod:`.teach` (story, side by side, gallery);
:mod:`.convert` holds the shared conversions (JSON, errors as data) and
:mod:`.state` everything kept between calls.

Errors: the worker calls every name through :func:`call`, which returns that call's
own outcome: its result, or the structured form of what it raised
(``BytepairError.to_dict()``: ``{type, field, message, ...}``), forwarded as data with
that call's rejection; no layer reads another layer's message text. Called directly
(the tests), an exposed function raises :class:`CallError` with that ``detail``.
"""

from __future__ import annotations

import os

os.environ.setdefault("BYTEPAIR_DATA_DIR", "/home/pyodide/bytepair-data")

# (imported after the data directory is set)
from .chat import chat_breakdown, chat_requirements, chat_tools_check  # noqa: E402
from .convert import CallError, call  # noqa: E402
from .export import export_files, merges_table, tiktoken_file, token_label, tokenizer_json  # noqa: E402
from .loading import (  # noqa: E402
    facts,
    forget_trained,
    load_model,
    model_file_needed,
    prepare,
    register_file,
    register_trained,
    vocab_file_needed,
    warm,
)
from .report import ReportSession  # noqa: E402
from .state import get_tokenizer  # noqa: E402
from .steps import steps_encode, steps_learn, steps_view  # noqa: E402
from .teach import (  # noqa: E402
    gallery,
    gallery_encodings,
    gallery_optional_encodings,
    lesson_encodings,
    lessons,
    side_by_side,
    token_story,
)
from .tokenize import CountSession, chunk_jsonl, compare, count, decode_ids, describe, encode, encode_spans  # noqa: E402
from .train import TrainSession, check_pattern, from_merges_json  # noqa: E402

__all__ = [
    "CallError",
    "CountSession",
    "ReportSession",
    "TrainSession",
    "call",
    "chat_breakdown",
    "chat_requirements",
    "chat_tools_check",
    "check_pattern",
    "chunk_jsonl",
    "compare",
    "count",
    "decode_ids",
    "describe",
    "encode",
    "encode_spans",
    "export_files",
    "facts",
    "forget_trained",
    "from_merges_json",
    "gallery",
    "gallery_encodings",
    "gallery_optional_encodings",
    "lesson_encodings",
    "lessons",
    "get_tokenizer",
    "load_model",
    "merges_table",
    "token_label",
    "model_file_needed",
    "prepare",
    "register_file",
    "register_trained",
    "side_by_side",
    "steps_encode",
    "steps_learn",
    "steps_view",
    "tiktoken_file",
    "token_story",
    "tokenizer_json",
    "vocab_file_needed",
    "warm",
]
