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
import re
import time

DATA_DIR = os.environ.setdefault("BYTEPAIR_DATA_DIR", "/home/pyodide/bytepair-data")

import bytepair  # noqa: E402  (the data directory must be set first)
from bytepair.surrogates import utf8  # noqa: E402

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
    # Special-token strings the user typed are plain text here, as in count() and
    # encode(): nothing is allowed, nothing is disallowed.
    spans = get_tokenizer(name).encode_with_spans(text, units=units, disallowed_special=())
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
        out[name] = {t["key"]: [len(tok.encode_ordinary(t["text"])), len(utf8(t["text"]))] for t in texts}
    return _dumps(out)


def check_pattern(pattern: str) -> str:
    """Raise ValueError with a short message for the UI if ``pattern`` does not
    compile on this back-end (see :func:`regex_problem`); returns the resolved
    pattern text (``""`` for ``"none"``)."""
    from bytepair.pretokenize import compile_pattern

    try:
        resolved = bytepair.resolve_pattern(pattern)
    except ValueError as e:
        # resolve_pattern's message is written for Python callers; the regex
        # engine's own error is its cause.
        if e.__cause__ is None and re.fullmatch(r"[A-Za-z0-9_.-]+", pattern):
            raise ValueError(
                f"“{pattern}” is not a pre-tokenizer name, and as a regex it would keep only that word and drop "
                f"the rest of the text. Pick a pre-tokenizer from the list, or write (?:{pattern}) to mean the regex."
            ) from e
        raise ValueError(regex_problem(pattern, e.__cause__ or e)) from e
    if resolved is not None:
        try:
            compile_pattern(resolved)
        except ValueError as e:
            raise ValueError(regex_problem(resolved, e)) from e
    return resolved or ""


_FAULT = re.compile(
    r"(?P<head>invalid regex|the `re` back-end cannot run this split pattern): (?P<msg>.*?)"
    r"(?: at position (?P<pos>\d+) \(near .*\))?", re.S)
_PROPERTY = re.compile(r"\\[pP](?:\{[^}]*\}|\w)")
#: Properties named in the message for an unknown ``\p{..}`` (all in both back-ends' tables).
PROPERTY_EXAMPLES = r"\p{L} (letters), \p{N} (numbers), \p{Lu} (upper-case letters), \p{Greek} (a script)"


def regex_problem(pattern: str, error: BaseException) -> str:
    r"""A short message for a custom regex that does not compile, for the UI.

    ``error`` is the regex engine's error as ``bytepair.pretokenize`` raises it
    (``invalid regex: <reason> at position <N> (near '...')``). Returns the
    reason and the place (``character N``, counted from 1); for an unknown
    ``\p{..}`` property, says so and names a few known ones instead of the
    whole table."""
    text = str(error)
    m = _FAULT.fullmatch(text)
    if not m:
        return f"The regex does not compile: {text}"
    msg, pos = m["msg"], m["pos"]
    where = f" (character {int(pos) + 1})" if pos is not None else ""
    if "unknown" in msg and "property" in msg:
        found = _PROPERTY.search(msg)
        if found is None:  # the `regex` module names no property: take the last one before the fault
            before = [p for p in _PROPERTY.finditer(pattern) if pos is None or p.start() < int(pos)]
            found = before[-1] if before else None
        prop = found.group() if found else "This \\p{...}"
        return f"{prop} is not a known Unicode property{where}. Known ones include {PROPERTY_EXAMPLES}."
    if m["head"].startswith("the `re`"):
        return f"The browser's regex engine cannot run this pattern: {msg}{where}."
    return f"The regex does not compile: {msg}{where}."


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
        self.total_bytes = len(utf8(text))  # a lone surrogate counts as U+FFFD, as the trainer sees it
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


# --------------------------------------------------------------------------- step-through (issue 4)
#
# Thin adapters over bytepair.textbook (Sennrich et al. 2016, word-level, with
# "</w>") and bytepair.steps (byte-level, minbpe semantics). A session keeps
# every step in Python; the page asks for one step at a time, in one shape for
# both modes, so stepping never ships the whole history across the worker.

#: Rows of the byte-level pair-count table kept per step (the textbook table is complete).
STEP_PAIRS_SHOWN = 200
#: Pieces of a byte-level text drawn per step (the counts always cover all of them).
STEP_PIECES_SHOWN = 1500
#: Longest text "Encode step by step" takes in byte-level mode, in bytes of UTF-8.
ENCODE_MAX_BYTES = 2000

_step_session: dict | None = None
_step_sessions_made = 0


def _pieces(text: str, pattern: str | None) -> list[str]:
    regex = bytepair.resolve_pattern(pattern) if pattern is not None else None
    if regex is None:
        return [text] if text else []
    from bytepair.pretokenize import compile_pattern
    return [p for p in compile_pattern(regex).findall(text) if p]


def steps_learn(options_json: str) -> str:
    """Learn merges step by step and keep them as the current step session.

    ``options_json``: JSON ``{"mode": "textbook"|"bytes", "text": str,
    "input": "counts"|"text" (textbook: ``word count`` lines, or plain text
    whose words are counted), "tie": "first"|"lexicographic" (textbook),
    "pattern": pre-tokenizer name or regex (bytes), "n_merges": int}``.

    Returns JSON ``{"session": int, "mode", "n_steps": merges learned (may be
    fewer than asked when no pair is left), "requested": int, "merges":
    [[left, right, merged, count], ...] (displayed symbols), "n_rows": words
    (textbook) or pieces (bytes), "n_symbols_start": int, "n_bytes": int | null}``.

    Raises ValueError with a message for the user: no words, a malformed
    ``word count`` line (its number is given), a text over the size limit, a
    bad pattern, ``n_merges`` out of range."""
    global _step_session, _step_sessions_made
    opts = json.loads(options_json)
    mode = opts.get("mode", "textbook")
    text = opts.get("text", "")
    n_merges = int(opts.get("n_merges", 10))
    if mode == "textbook":
        from bytepair import textbook
        kind = opts.get("input", "counts")
        word_counts = textbook.parse_word_counts(text) if kind == "counts" else textbook.count_words(text)
        if not word_counts:
            raise ValueError("There are no words yet: type one word and its count per line, e.g. 'low 5'."
                             if kind == "counts" else "There are no words yet: type some text.")
        tie = opts.get("tie", "first")
        steps = textbook.learn(word_counts, n_merges, tie_break=tie)
        initial = textbook.initial_state(word_counts)
        session = {
            "mode": mode, "tie": tie, "steps": steps, "initial": initial,
            "merges": [[*s.pair, s.merged, s.count] for s in steps],
            "n_base": len(initial["vocab"]), "n_rows": len(initial["segmentation"]), "n_bytes": None,
        }
    elif mode == "bytes":
        from bytepair import steps as byte_steps_module
        if not text:
            raise ValueError("The text is empty: type or paste a few sentences.")
        pattern = opts.get("pattern", "gpt2")
        if pattern not in (None, "none"):
            check_pattern(pattern)
        steps = byte_steps_module.byte_steps(text, n_merges, pattern=pattern, max_pairs_shown=STEP_PAIRS_SHOWN)
        initial = byte_steps_module.byte_initial_state(text, pattern=pattern)
        session = {
            "mode": mode, "pattern": pattern, "steps": steps, "initial": initial,
            "merges": [[*s["pair"], s["merged"], s["count"]] for s in steps],
            "n_base": 256, "n_rows": len(initial["segmentation"]), "n_bytes": initial["n_bytes"],
        }
    else:
        raise ValueError(f"Unknown step-through mode {mode!r}: use 'textbook' or 'bytes'.")
    _step_sessions_made += 1
    session["id"] = _step_sessions_made
    _step_session = session
    return _dumps({
        "session": session["id"], "mode": mode, "n_steps": len(steps), "requested": n_merges,
        "merges": session["merges"], "n_rows": session["n_rows"],
        "n_symbols_start": initial["n_symbols"], "n_bytes": session["n_bytes"],
    })


def _current_session(session: int) -> dict:
    if _step_session is None or _step_session["id"] != session:
        raise ValueError("These steps were replaced by newer ones; learn the merges again.")
    return _step_session


def steps_view(session: int, index: int) -> str:
    """Step ``index`` of the session: 0 is the start (no merge yet), ``k`` is
    the state after the k-th merge (1-based), with the table it was chosen from.

    Returns JSON, the same shape in both modes::

        {"session", "index", "n_steps", "mode",
         "merge": null | {"rank": k-1, "id": 256+k-1 | null, "pair": [l, r], "merged": str,
                          "count": int, "n_ties": int, "ids": [left_id, right_id] (bytes only)},
         "pair_counts": [{"pair": [l, r], "count": int, "tie": bool,
                          "ids": [left_id, right_id] (bytes only)}, ...],     # before the merge;
                        # row 0 is the merged pair; textbook: every pair, bytes: the top rows
         "n_pairs": int,                      # distinct pairs in the whole table
         "rows": [{"label": word | null, "count": int | null, "symbols": [str, ...],
                   "merged": [indices into symbols]}, ...],   # the corpus after the merge
         "n_rows": int,                       # words / pieces in all (rows may hold fewer)
         "vocab": [str, ...],                 # textbook: every symbol (initial ones first);
                                              # bytes: the learned tokens only
         "n_base": int,                       # textbook: initial symbols; bytes: 256
         "n_vocab": int, "n_symbols": int, "n_symbols_start": int, "n_bytes": int | null}

    Symbols are displayed strings (bytes mode: ``bytepair.token_to_display``).
    Raises ValueError for a replaced session or an index out of 0..n_steps."""
    s = _current_session(session)
    steps = s["steps"]
    if not 0 <= index <= len(steps):
        raise ValueError(f"There is no step {index}: pick a step from 0 to {len(steps)}.")
    initial = s["initial"]
    out = {"session": session, "index": index, "n_steps": len(steps), "mode": s["mode"],
           "n_rows": s["n_rows"], "n_base": s["n_base"], "n_symbols_start": initial["n_symbols"],
           "n_bytes": s["n_bytes"]}
    if s["mode"] == "textbook":
        if index == 0:
            rows = [{"label": w["word"], "count": w["count"], "symbols": w["symbols"], "merged": []}
                    for w in initial["segmentation"]]
            out.update(merge=None, pair_counts=[], n_pairs=0, rows=rows, vocab=initial["vocab"],
                       n_vocab=len(initial["vocab"]), n_symbols=initial["n_symbols"])
        else:
            d = steps[index - 1].to_dict()
            merged = {c["word_index"]: c["positions"] for c in d["changed_words"]}
            rows = [{"label": w["word"], "count": w["count"], "symbols": w["symbols"], "merged": merged.get(i, [])}
                    for i, w in enumerate(d["segmentation"])]
            out.update(
                merge={"rank": d["index"], "id": None, "pair": d["pair"], "merged": d["merged"],
                       "count": d["count"], "n_ties": len(d["ties"])},
                pair_counts=d["pair_counts"], n_pairs=len(d["pair_counts"]), rows=rows,
                vocab=d["vocab"], n_vocab=len(d["vocab"]), n_symbols=d["n_symbols"])
    else:
        if index == 0:
            seg, merged, vocab = initial["segmentation"], {}, []
            out.update(merge=None, pair_counts=[], n_pairs=0, n_vocab=256, n_symbols=initial["n_symbols"])
        else:
            d = steps[index - 1]
            seg, vocab = d["segmentation"], d["vocab"]
            merged = {c["piece_index"]: c["positions"] for c in d["changed_pieces"]}
            out.update(
                merge={"rank": d["index"], "id": d["id"], "pair": d["pair"], "ids": d["pair_ids"],
                       "merged": d["merged"], "count": d["count"], "n_ties": d["n_ties"]},
                pair_counts=[{"pair": r["pair"], "ids": r["ids"], "count": r["count"], "tie": r["tie"]}
                             for r in d["pair_counts"]],
                n_pairs=d["n_pairs"], n_vocab=d["n_vocab"], n_symbols=d["n_symbols"])
        out["rows"] = [{"label": None, "count": None, "symbols": seg[p], "merged": merged.get(p, [])}
                       for p in range(min(len(seg), STEP_PIECES_SHOWN))]
        out["vocab"] = list(vocab)
    return _dumps(out)


def steps_encode(session: int, text: str) -> str:
    """Encode a new word (textbook) or a short text (bytes) with the session's
    merges, applied in learned order; every rule that fires is one step.

    Returns JSON ``{"start": [symbols], "fired": [{"rank": int, "pair": [l, r],
    "merged": str, "symbols": [str, ...], "positions": [int, ...]}, ...],
    "n_rules": int}``: ``symbols`` is the whole segmentation after the rule
    (bytes mode: the pieces' tokens, concatenated), ``positions`` index the new
    symbols in it.

    Textbook: ``bytepair.textbook.apply``. Bytes: the text is split by the
    session's pre-tokenizer, each piece starts as its UTF-8 bytes, and each
    merge replaces its pair in every piece, left to right; this equals
    minbpe's encoding (repeatedly merge the lowest-ranked pair), since a merge
    only uses tokens that earlier merges made.

    Raises ValueError: an empty input, a word with spaces (textbook), a text
    over ENCODE_MAX_BYTES (bytes), a replaced session."""
    s = _current_session(session)
    if not text:
        raise ValueError("Type a word to encode." if s["mode"] == "textbook" else "Type a text to encode.")
    if s["mode"] == "textbook":
        from bytepair import textbook
        start = textbook.initial_symbols(text)
        fired = textbook.apply(text, [(m[0], m[1]) for m in s["merges"]])
        return _dumps({"start": start, "n_rules": len(s["merges"]), "fired": [
            {"rank": f.index, "pair": list(f.pair), "merged": f.merged, "symbols": list(f.symbols),
             "positions": list(f.positions)} for f in fired]})
    data_len = len(utf8(text))
    if data_len > ENCODE_MAX_BYTES:
        raise ValueError(f"The text to encode is {data_len} bytes; use at most {ENCODE_MAX_BYTES} bytes here.")
    display = {i: bytepair.token_to_display(bytes([i])) for i in range(256)}
    seqs = [list(utf8(p)) for p in _pieces(text, s["pattern"])]
    shown = lambda: [display[t] for seq in seqs for t in seq]  # noqa: E731
    start = shown()
    fired = []
    for st in s["steps"]:
        a, b = st["pair_ids"]
        z = st["id"]
        display[z] = st["merged"]
        positions, offset, hit = [], 0, False
        for k, seq in enumerate(seqs):
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
                    positions.append(offset + len(out))
                    out.append(z)
                    i += 2
                    hit = True
                else:
                    out.append(seq[i])
                    i += 1
            seqs[k] = out
            offset += len(out)
        if hit:
            fired.append({"rank": st["index"], "pair": st["pair"], "merged": st["merged"],
                          "symbols": shown(), "positions": positions})
    return _dumps({"start": start, "n_rules": len(s["steps"]), "fired": fired})
