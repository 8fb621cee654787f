"""Everything the adapter keeps between calls, in one place.

* :data:`trained` - tokenizers trained in the page or restored from its storage
  (``bytepair.Tokenizer``), by the name the page shows.
* :data:`loaded` - open models (``bytepair.app.models``) and files people brought
  (``HFTokenizer`` / ``TekkenTokenizer``), by name.
* :data:`steps` - the step-through sessions (``bytepair.teach.steps.StepSession``), one per
  client, each with its number; a client's newer session replaces its older one. Clients
  are the pages using this runtime: embeds of one origin share one (a SharedWorker), and
  the worker names each page (``c1``, ``c2``, ...).

Training runs (``playground.train.TrainSession``) are objects the worker holds.
"""

from __future__ import annotations

import bytepair

trained: dict[str, bytepair.Tokenizer] = {}
loaded: dict[str, object] = {}


class _Steps:
    """The step-through sessions of the clients: ``by_client[client] = (number, session)``,
    oldest client first; ``number``: the last number given (0: none yet). At most
    ``max_clients`` clients are kept (those of pages that went away are dropped first)."""

    def __init__(self) -> None:
        self.by_client: dict[str, tuple[int, object]] = {}
        self.number = 0
        self.max_clients = 16

    def add(self, client: str, session) -> int:
        """Keep ``session`` as ``client``'s (replacing its older one); returns its number."""
        self.number += 1
        self.by_client.pop(client, None)
        self.by_client[client] = (self.number, session)
        while len(self.by_client) > self.max_clients:
            del self.by_client[next(iter(self.by_client))]
        return self.number

    def find(self, number: int):
        """The session numbered ``number``, or ``None`` once replaced."""
        for n, session in self.by_client.values():
            if n == number:
                return session
        return None


steps = _Steps()


def get_tokenizer(name: str):
    """A trained tokenizer registered under ``name``, a loaded open model or file, else
    ``bytepair.get_encoding(name)`` (UnknownNameError, ``field="name"``, for an unknown name)."""
    if name in trained:
        return trained[name]
    if name in loaded:
        return loaded[name]
    return bytepair.get_encoding(name)
