"""Everything the adapter keeps between calls, in one place.

* :data:`trained` - tokenizers trained in the page or restored from its storage
  (``bytepair.Tokenizer``), by the name the page shows.
* :data:`loaded` - open models (``bytepair.models``) and files people brought
  (``HFTokenizer`` / ``TekkenTokenizer``), by name.
* :data:`steps` - the step-through's one session (``bytepair.steps.StepSession``)
  and its number; a newer session replaces it.
* :data:`last_error` - the structured form of the last exception an exposed call
  raised (``{type, field, message, ...}``), read by :func:`playground.last_error`.

Training runs (``playground.train.TrainSession``) are objects the worker holds.
"""

from __future__ import annotations

import bytepair

trained: dict[str, bytepair.Tokenizer] = {}
loaded: dict[str, object] = {}
last_error: dict | None = None


class _Steps:
    """The current step-through session and its number (0: none yet)."""

    session = None
    number = 0


steps = _Steps()


def get_tokenizer(name: str):
    """A trained tokenizer registered under ``name``, a loaded open model or file, else
    ``bytepair.get_encoding(name)`` (UnknownNameError, ``field="name"``, for an unknown name)."""
    if name in trained:
        return trained[name]
    if name in loaded:
        return loaded[name]
    return bytepair.get_encoding(name)
