"""JSON-friendly helpers over the bytepair API, for the playground's Web Worker.

The worker (``web/src/worker.js``) fetches this file, imports it inside Pyodide
and calls the functions below. Every function returns a JSON string (or a plain
``int``/``str``) so results cross into JavaScript without proxies to free.

Units: *characters* are Python ``str`` code points, *utf16* are JavaScript
string indices (UTF-16 code units), *bytes* are UTF-8 bytes, *tokens* are ids.

Errors: bad input raises ``ValueError``/``KeyError`` with a message meant for
the user; the worker shows ``str(exception)``.
"""

from __future__ import annotations

import json
import os
import time

DATA_DIR = os.environ.setdefault("BYTEPAIR_DATA_DIR", "/home/pyodide/bytepair-data")

import bytepair  # noqa: E402  (the data directory must be set first)

#: The real encodings the playground offers, and the vocabulary file each one
#: reads from ``DATA_DIR`` (``gpt2`` and ``r50k_base`` share their ranks).
VOCAB_FILES = {
    "gpt2": "r50k_base.tiktoken.gz",
    "r50k_base": "r50k_base.tiktoken.gz",
    "p50k_base": "p50k_base.tiktoken.gz",
    "cl100k_base": "cl100k_base.tiktoken.gz",
    "o200k_base": "o200k_base.tiktoken.gz",
}

#: Bounds for the trainer's vocab size (ids): 256 single bytes + at least one merge.
MIN_VOCAB, MAX_VOCAB = 257, 100_000

_trained: dict[str, "bytepair.Tokenizer"] = {}


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def vocab_file_needed(name: str) -> str | None:
    """The rank file name (``*.tiktoken.gz``) the worker must fetch into
    ``DATA_DIR`` before encoding ``name`` can be used, or ``None`` when nothing
    is missing (a trained tokenizer, or the file is already there)."""
    if name in _trained or name not in VOCAB_FILES:
        return None
    try:
        from bytepair import registry
        registry.data_path(name)  # searches $BYTEPAIR_DATA_DIR, then the package
        return None
    except FileNotFoundError:
        return bytepair.encoding_info(name)["file"]
    except (ImportError, AttributeError):  # an older bytepair: our own table
        file = VOCAB_FILES[name]
        return None if os.path.exists(os.path.join(DATA_DIR, file)) else file


def get_tokenizer(name: str):
    """A trained tokenizer registered under ``name``, else the real encoding.

    Raises KeyError naming the known tokenizers when ``name`` is neither."""
    if name in _trained:
        return _trained[name]
    if name in VOCAB_FILES:
        return bytepair.get_encoding(name)
    known = ", ".join([*VOCAB_FILES, *_trained])
    raise KeyError(f"Unknown tokenizer {name!r}. Known tokenizers: {known}.")


def register_trained(name: str, tokenizer_json: str) -> str:
    """Load a saved tokenizer (its ``to_json()`` text) under ``name``.

    Returns JSON ``{"name", "n_vocab", "n_merges", "pattern"}``. Raises ValueError
    when the text is not a bytepair tokenizer."""
    if name in VOCAB_FILES:
        raise ValueError(f"{name!r} is the name of a built-in encoding; pick another name.")
    try:
        tok = bytepair.from_json(tokenizer_json)
    except Exception as e:  # malformed JSON, wrong version, ...
        raise ValueError(f"This is not a bytepair tokenizer file: {e}") from e
    _trained[name] = tok
    return _dumps(_info(tok, name))


def forget_trained(name: str) -> None:
    """Drop a registered trained tokenizer (no error when absent)."""
    _trained.pop(name, None)


def _info(tok, name: str) -> dict:
    return {"name": name, "n_vocab": tok.n_vocab, "n_merges": len(tok.merges), "pattern": tok.pattern}


def count(text: str, name: str) -> int:
    """Number of tokens (ids) of ``text`` with special tokens encoded as plain text."""
    return len(get_tokenizer(name).encode_ordinary(text))


def encode(text: str, name: str) -> str:
    """JSON list of token ids of ``text`` (special tokens encoded as plain text)."""
    return _dumps(get_tokenizer(name).encode_ordinary(text))


def encode_spans(text: str, name: str, units: str = "utf16", limit: int | None = None) -> str:
    """Tokens of ``text`` with what the UI needs to draw them.

    Returns JSON ``{"n_tokens", "ids", "display", "hex", "start", "end"}``:
    parallel lists over the first ``limit`` tokens (all when ``None``);
    ``display`` is ``bytepair.token_to_display`` (``<e0a6>`` for fragments),
    ``hex`` the token's bytes as hex, ``start``/``end`` the token's span of
    ``text`` in ``units`` (``"utf16"`` for JavaScript strings, or ``"chars"``).
    ``n_tokens`` always counts every token."""
    spans = get_tokenizer(name).encode_with_spans(text, units=units)
    shown = spans if limit is None else spans[:limit]
    return _dumps({
        "n_tokens": len(spans),
        "ids": [s.id for s in shown],
        "display": [bytepair.token_to_display(s.token) for s in shown],
        "hex": [s.token.hex(" ") for s in shown],
        "start": [s.start for s in shown],
        "end": [s.end for s in shown],
    })


def compare(texts_json: str, names_json: str) -> str:
    """Token counts of parallel texts under several tokenizers.

    ``texts_json``: JSON list of ``{"key", "text"}``; ``names_json``: JSON list
    of tokenizer names. Returns JSON ``{name: {key: [tokens, utf8_bytes]}}``."""
    texts = json.loads(texts_json)
    out = {}
    for name in json.loads(names_json):
        tok = get_tokenizer(name)
        out[name] = {t["key"]: [len(tok.encode_ordinary(t["text"])), len(t["text"].encode("utf-8"))] for t in texts}
    return _dumps(out)


def check_pattern(pattern: str) -> str:
    """Raise ValueError (with the regex engine's message) if ``pattern`` does not
    compile on this back-end; returns the resolved pattern text."""
    try:
        resolved = bytepair.resolve_pattern(pattern)
        if resolved is not None:
            from bytepair.pretokenize import compile_pattern
            compile_pattern(resolved)
    except Exception as e:
        raise ValueError(f"The custom regex does not compile: {e}") from e
    return resolved or ""


def tiktoken_file(name: str) -> bytes:
    """The ``.tiktoken`` rank file (bytes) of a tokenizer."""
    return get_tokenizer(name).to_tiktoken()


def tokenizer_json(name: str) -> str:
    """The ``to_json()`` text of a trained tokenizer."""
    return get_tokenizer(name).to_json()


class TrainSession:
    """One training run driven in slices from JavaScript.

    ``step(budget_ms)`` advances ``bytepair.train_iter`` until ``budget_ms``
    milliseconds have passed (always at least one merge) and returns the batch;
    the worker yields to its event loop between slices so a Stop message is
    handled. ``finish(name)`` builds the tokenizer from the merges done so far
    (all of them, or fewer after Stop) and registers it under ``name``.

    Raises ValueError for an empty text or a vocab size out of range."""

    def __init__(self, text: str, vocab_size: int, pattern: str, *, min_frequency: int = 1,
                 normalization: str | None = None) -> None:
        if not text:
            raise ValueError("The training text is empty: paste some text or open a .txt file.")
        if not (MIN_VOCAB <= vocab_size <= MAX_VOCAB):
            raise ValueError(f"The vocab size must be between {MIN_VOCAB} and {MAX_VOCAB} (got {vocab_size}).")
        self.pattern = check_pattern(pattern) or None
        self.pattern_arg = pattern
        self.normalization = normalization or None
        self.total_bytes = len(text.encode("utf-8"))
        self.target = vocab_size - 256
        self.merges: dict[tuple[int, int], int] = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        self._it = bytepair.train_iter(text, vocab_size, pattern=pattern, min_frequency=min_frequency,
                                       normalization=self.normalization)
        self.done = False

    def step(self, budget_ms: float = 50.0) -> str:
        """Run merges for about ``budget_ms`` ms. Returns JSON ``{"events": [[id,
        left, right, left_display, right_display, token_display, count, n_tokens], ...],
        "done": bool, "total_bytes": int, "target": int}``."""
        deadline = time.perf_counter() + budget_ms / 1000.0
        events = []
        vocab, disp = self.vocab, bytepair.token_to_display
        while not self.done:
            try:
                ev = next(self._it)
            except StopIteration:
                self.done = True
                break
            left, right = ev.pair
            vocab[ev.id] = ev.token
            self.merges[(left, right)] = ev.id
            events.append([ev.id, left, right, disp(vocab[left]), disp(vocab[right]), disp(ev.token),
                           ev.count, ev.n_tokens])
            if time.perf_counter() >= deadline:
                break
        return _dumps({"events": events, "done": self.done, "total_bytes": self.total_bytes, "target": self.target})

    def finish(self, name: str) -> str:
        """Build and register the tokenizer; returns JSON ``{"name", "json",
        "n_merges", "n_vocab", "pattern"}``."""
        self._it.close()
        tok = bytepair.Tokenizer.from_merges(self.merges, pattern=self.pattern_arg,
                                             normalization=self.normalization, name=name)
        _trained[name] = tok
        return _dumps({**_info(tok, name), "json": tok.to_json()})


def from_merges_json(name: str, merges_json: str, pattern: str) -> str:
    """Rebuild a tokenizer from ``[[left, right, id], ...]`` (the merges the UI
    received before the worker had to be restarted); same return as ``finish``."""
    merges = {(a, b): i for a, b, i in json.loads(merges_json)}
    tok = bytepair.Tokenizer.from_merges(merges, pattern=pattern, name=name)
    _trained[name] = tok
    return _dumps({**_info(tok, name), "json": tok.to_json()})
