"""Getting a tokenizer into the worker: the page's facts, vocabulary and open-model
files the worker fetches, files people bring, tokenizers the page saved.

The worker asks ``*_needed(name)`` which site file to fetch (``None``: nothing),
writes it into Pyodide's file system, then calls ``load_model`` / ``register_*``.
"""

from __future__ import annotations

import bytepair
from bytepair import chat, registry
from bytepair.app import facts as _facts
from bytepair.app import models
from bytepair.errors import ArgumentError
from bytepair.split.pretokenize import compile_pattern

from . import state
from .convert import dumps, exposed, trained_info


@exposed
def facts() -> str:
    """JSON of :func:`bytepair.app.facts.facts` plus ``"version"``: what the page builds its lists and limits from."""
    return dumps({**_facts.facts(), "version": bytepair.__version__})


def vocab_file_needed(name: str) -> str | None:
    """The rank file the worker must fetch into ``$BYTEPAIR_DATA_DIR`` before ``name`` works, or ``None``."""
    return None if name in state.trained else registry.missing_file(name)


def prepare(name: str) -> None:
    """Compile the split pattern of encoding ``name`` (the worker calls this while its vocabulary downloads)."""
    if name not in state.trained and name in registry.list_encoding_names():
        compile_pattern(registry.encoding_info(name)["pattern"])


def warm(patterns: list[str] | None = None) -> None:
    """Compile the split pattern of every encoding (:func:`prepare` for each name of
    :func:`bytepair.registry.list_encoding_names`) and each regex of ``patterns`` (the open
    models', :func:`bytepair.app.models.split_regexes`; tools/snapshot.py reads them from the
    built model files). tools/make_snapshot.mjs calls this before it takes the Pyodide memory
    snapshot, so the compiled patterns are in it: choosing ``o200k_base`` in Tokenize waits only
    for its vocabulary (its compile took 0.4-0.5 s of the 0.5-0.8 s first count in a browser
    worker), and Llama 3's first load in Node's Pyodide took 7 ms against 194 ms.

    Raises ValueError for a pattern that does not compile (the build stops)."""
    for name in registry.list_encoding_names():
        prepare(name)
    for pattern in patterns or ():
        # a text with a character above U+FFFF (an emoji, as in Tokenize's sample) splits on the
        # pattern's second, full translation on the ``re`` back-end: compiled here too (Llama 3's
        # first count of the sample in Node's Pyodide waited ~0.5 s for it)
        compile_pattern(pattern).findall("\U0001f642")


def model_file_needed(name: str) -> str | None:
    """The site file (under ``models/``) the worker must fetch before open model ``name`` works, or ``None``."""
    if name in state.loaded or name not in models.open_model_names():
        return None
    return models.site_file(models.open_model(name))


@exposed
def load_model(name: str, path: str) -> str:
    """Load open model ``name`` from its decompressed site file at ``path``; JSON ``{name, n_vocab}``."""
    with open(path, "rb") as f:
        state.loaded[name] = models.load_model_file(f.read(), name=name)
    return dumps({"name": name, "n_vocab": state.loaded[name].n_vocab})


@exposed
def register_file(name: str, data: str, config: str = "") -> str:
    """Load a file someone brought (``tokenizer.json`` [+ config text] or Tekken JSON) under ``name``;
    JSON ``{name, n_vocab, model, chat_templates}`` (``chat_templates``: its config's template names, for
    the Chat view). TokenizerFileError (``where``) for a file bytepair cannot load;
    ArgumentError (``field="name"``) for a built-in name."""
    if name in registry.list_encoding_names() or name in models.open_model_names():
        raise ArgumentError(f"{name!r} is the name of a built-in tokenizer; pick another name.", field="name")
    tok = models.load_tokenizer_file(data, config=config or None, name=name)
    state.loaded[name] = tok
    return dumps(
        {
            "name": name,
            "n_vocab": tok.n_vocab,
            "model": tok.describe()["model"],
            "chat_templates": chat.chat_template_names(tok),
        }
    )


@exposed
def register_trained(name: str, tokenizer_json: str) -> str:
    """Load a saved tokenizer (its ``to_json()`` text) under ``name``; JSON ``{name, n_vocab, n_merges, pattern}``.

    Raises ArgumentError (``field="name"``) for a built-in name, TokenizerFileError for a bad file."""
    if name in registry.list_encoding_names():
        raise ArgumentError(f"{name!r} is the name of a built-in encoding; pick another name.", field="name")
    state.trained[name] = bytepair.from_json(tokenizer_json)
    return dumps(trained_info(state.trained[name], name))


def forget_trained(name: str) -> None:
    """Drop a registered trained tokenizer or loaded file (no error when absent)."""
    state.trained.pop(name, None)
    if name not in models.open_model_names():
        state.loaded.pop(name, None)
