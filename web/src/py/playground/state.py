"""Everything the adapter keeps between calls, in one place.

* :data:`trained` - tokenizers trained in the page or restored from its storage
  (``bytepair.Tokenizer``), by the name the page shows.
* :data:`loaded` - open models (``bytepair.models``) and files people brought
  (``HFTokenizer`` / ``TekkenTokenizer``), by name.
* :data:`steps` - the step-through's sessions (``bytepair.steps.StepSession``), one
  per client (page), with their numbers; a client's newer session replaces its own.
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
    """The step-through sessions, one per client, and the last session number (0: none yet).

    Clients are the pages sharing this runtime (embeds of one origin share a SharedWorker):
    each keeps its own session; a client's new session replaces its own old one.
    """

    MAX_CLIENTS = 16  # sessions of clients that went away are dropped, oldest first

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[int, object]] = {}  # client -> (session number, StepSession)
        self.number = 0


steps = _Steps()


def get_tokenizer(name: str):
    """A trained tokenizer registered under ``name``, a loaded open model or file, else
    ``bytepair.get_encoding(name)`` (UnknownNameError, ``field="name"``, for an unknown name)."""
    if name in trained:
        return trained[name]
    if name in loaded:
        return loaded[name]
    return bytepair.get_encoding(name)
