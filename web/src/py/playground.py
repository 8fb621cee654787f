"""The playground's worker adapter: JSON in and out over the bytepair API.

``web/src/worker.js`` imports this file in Pyodide. The functions only convert
arguments and results (every algorithm, check and limit lives in ``bytepair``);
results are JSON strings (or ``int``/``bytes``), so no proxy crosses into
JavaScript. Units: *characters* (``str`` code points), *utf16* (JavaScript
string indices), *bytes* (UTF-8), *tokens* (ids).

Errors: an exposed function records what it raises; the worker then reads
:func:`last_error` (``BytepairError.to_dict()``: ``{type, field, message, ...}``)
and forwards it as data: no layer reads another layer's message text.
"""

from __future__ import annotations

import functools
import json
import os
import time

os.environ.setdefault("BYTEPAIR_DATA_DIR", "/home/pyodide/bytepair-data")

# (imported after the data directory is set)
import bytepair
from bytepair import charnames as _charnames
from bytepair import chat, chat_formats, hf_export, models, registry, steps
from bytepair import decoding as _decoding
from bytepair import facts as _facts
from bytepair.errors import ArgumentError, BytepairError
from bytepair.pretokenize import check_pattern as _check_pattern
from bytepair.pretokenize import compile_pattern
from bytepair.surrogates import utf8

_trained: dict[str, bytepair.Tokenizer] = {}
_open: dict[str, object] = {}  # open models (bytepair.models) and files people loaded: HFTokenizer / TekkenTokenizer
_last_error: dict | None = None


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _error_dict(e: BaseException) -> dict:
    if isinstance(e, BytepairError):
        return e.to_dict()
    if isinstance(e, KeyboardInterrupt):
        return {"type": "interrupted", "field": None, "message": "Stopped."}
    if isinstance(e, (ValueError, TypeError, KeyError)):
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return {"type": "argument", "field": None, "message": str(message)}
    return {"type": "internal", "field": None, "message": f"{type(e).__name__}: {e}"}


def _exposed(fn):
    """Record the structured form of any exception ``fn`` raises (see :func:`last_error`)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        global _last_error
        _last_error = None
        try:
            return fn(*args, **kwargs)
        except BaseException as e:
            _last_error = _error_dict(e)
            raise

    return wrapper


def last_error() -> str:
    """JSON ``{type, field, message, ...}`` of the last exception an exposed call raised, or ``null``."""
    return _dumps(_last_error)


@_exposed
def facts() -> str:
    """JSON of :func:`bytepair.facts.facts` plus ``"version"``: what the page builds its lists and limits from."""
    return _dumps({**_facts.facts(), "version": bytepair.__version__})


def vocab_file_needed(name: str) -> str | None:
    """The rank file the worker must fetch into ``$BYTEPAIR_DATA_DIR`` before ``name`` works, or ``None``."""
    return None if name in _trained else registry.missing_file(name)


def prepare(name: str) -> None:
    """Compile the split pattern of encoding ``name`` (the worker calls this while its vocabulary downloads)."""
    if name not in _trained and name in registry.list_encoding_names():
        compile_pattern(registry.encoding_info(name)["pattern"])


def get_tokenizer(name: str):
    """A trained tokenizer registered under ``name``, a loaded open model or file, else
    ``bytepair.get_encoding(name)`` (UnknownNameError, ``field="name"``, for an unknown name)."""
    if name in _trained:
        return _trained[name]
    if name in _open:
        return _open[name]
    return bytepair.get_encoding(name)


def model_file_needed(name: str) -> str | None:
    """The site file (under ``models/``) the worker must fetch before open model ``name`` works, or ``None``."""
    if name in _open or name not in models.open_model_names():
        return None
    return models.site_file(models.open_model(name))


@_exposed
def load_model(name: str, path: str) -> str:
    """Load open model ``name`` from its decompressed site file at ``path``; JSON ``{name, n_vocab}``."""
    with open(path, "rb") as f:
        _open[name] = models.load_model_file(f.read(), name=name)
    return _dumps({"name": name, "n_vocab": _open[name].n_vocab})


@_exposed
def register_file(name: str, data: str, config: str = "") -> str:
    """Load a file someone brought (``tokenizer.json`` [+ config text] or Tekken JSON) under ``name``;
    JSON ``{name, n_vocab, model, chat_templates}`` (``chat_templates``: its config's template names, for
    the Chat view). TokenizerFileError (``where``) for a file bytepair cannot load;
    ArgumentError (``field="name"``) for a built-in name."""
    if name in registry.list_encoding_names() or name in models.open_model_names():
        raise ArgumentError(f"{name!r} is the name of a built-in tokenizer; pick another name.", field="name")
    tok = models.load_tokenizer_file(data, config=config or None, name=name)
    _open[name] = tok
    return _dumps(
        {
            "name": name,
            "n_vocab": tok.n_vocab,
            "model": tok.describe()["model"],
            "chat_templates": chat.chat_template_names(tok),
        }
    )


@_exposed
def describe(name: str) -> str:
    """JSON of the tokenizer's ``describe()`` plus ``adds_special_tokens`` (takes the page's switch)
    and ``special`` (``bytepair.models.special_token_facts``: the token to name, what typed ones count as)."""
    tok = get_tokenizer(name)
    return _dumps(
        {
            **tok.describe(),
            "adds_special_tokens": models.adds_special_tokens(tok),
            "special": models.special_token_facts(tok),
        }
    )


def _info(tok: bytepair.Tokenizer, name: str) -> dict:
    return {"name": name, "n_vocab": tok.n_vocab, "n_merges": len(tok.merges), "pattern": tok.pattern}


def _keep(tok: bytepair.Tokenizer, name: str) -> str:
    _trained[name] = tok
    return _dumps({**_info(tok, name), "json": tok.to_json()})


@_exposed
def register_trained(name: str, tokenizer_json: str) -> str:
    """Load a saved tokenizer (its ``to_json()`` text) under ``name``; JSON ``{name, n_vocab, n_merges, pattern}``.

    Raises ArgumentError (``field="name"``) for a built-in name, TokenizerFileError for a bad file."""
    if name in registry.list_encoding_names():
        raise ArgumentError(f"{name!r} is the name of a built-in encoding; pick another name.", field="name")
    _trained[name] = bytepair.from_json(tokenizer_json)
    return _dumps(_info(_trained[name], name))


def forget_trained(name: str) -> None:
    """Drop a registered trained tokenizer or loaded file (no error when absent)."""
    _trained.pop(name, None)
    if name not in models.open_model_names():
        _open.pop(name, None)


@_exposed
def count(text: str, name: str, add_special: bool = True) -> int:
    """Number of tokens of ``text`` (``bytepair.models.count_tokens``: OpenAI/trained: special-token
    strings as plain text; open models: ``add_special_tokens=add_special``)."""
    return models.count_tokens(get_tokenizer(name), text, add_special_tokens=add_special)


@_exposed
def encode(text: str, name: str, add_special: bool = True) -> str:
    """JSON list of the token ids of ``text`` (counted as :func:`count` counts)."""
    return _dumps(models.encode_ids(get_tokenizer(name), text, add_special_tokens=add_special))


@_exposed
def encode_spans(
    text: str,
    name: str,
    units: str = "utf16",
    limit: int | None = None,
    add_special: bool = True,
    specials: bool = False,
) -> str:
    """JSON columns ``{n_tokens, ids, display, vocab, special, hex, note, start, end}`` over the first
    ``limit`` tokens (all when ``None``), plus ``marks`` (``bytepair.charnames.invisible_marks`` of
    ``text``); spans in ``units``; ``n_tokens`` counts every token; ``n_added``: tokens the
    post-processor added (BOS ...: special, empty span); ``vocab``: the vocabulary's spelling
    (``Ġhello``, ``▁hello``, ``<0xE0>``); ``display``: ``bytepair.token_to_label`` (invisible
    characters named); ``note``: ``bytepair.token_note``; ``dropped``: ``[start, end]`` of characters that became no
    token (``bytepair.models.dropped_characters``). ``specials``: special-token strings
    (``<|endoftext|>``) become their special token (``allowed_special="all"``), else plain text."""
    tok = get_tokenizer(name)
    spans = models.view_spans(tok, text, add_special_tokens=add_special, units=units, specials=specials)
    shown = spans if limit is None else spans[:limit]
    return _dumps(
        {
            "n_tokens": len(spans),
            "n_added": sum(1 for s in spans if s.special and s.start == s.end),
            "ids": [s.id for s in shown],
            "display": [bytepair.token_to_label(s.token) for s in shown],
            "vocab": [tok.token_string(s.id) for s in shown],
            "special": [s.special for s in shown],
            "hex": [s.token.hex(" ") for s in shown],
            "note": [bytepair.token_note(s.token) for s in shown],
            "start": [s.start for s in shown],
            "end": [s.end for s in shown],
            "marks": _charnames.invisible_marks(text, units="chars" if units == "chars" else "utf16"),
            "dropped": models.dropped_characters(tok, text, units=units),
        }
    )


@_exposed
def decode_ids(ids_text: str, name: str) -> str:
    """Pasted ids (``bytepair.decoding.parse_token_ids``: ``"1 2"``, ``"[1, 2]"``) -> JSON
    ``{ids, text, display, note}``: the decoded text (bad UTF-8 as U+FFFD) and, per id,
    ``bytepair.token_to_label`` / ``token_note``. ArgumentError (``field="ids"``) for bad input."""
    ids = _decoding.parse_token_ids(ids_text)
    parts = _decoding.token_pieces(ids, get_tokenizer(name).decode_single_token_bytes)
    return _dumps(
        {
            "ids": ids,
            "text": b"".join(parts).decode("utf-8", errors="replace"),
            "display": [bytepair.token_to_label(b) for b in parts],
            "note": [bytepair.token_note(b) for b in parts],
        }
    )


@_exposed
def compare(texts_json: str, names_json: str, add_special: bool = True) -> str:
    """``[{key, text}]`` x ``[name]`` -> JSON ``{name: {key: [tokens, utf8_bytes]}}`` (counted as :func:`count`)."""
    texts = json.loads(texts_json)
    out = {}
    for name in json.loads(names_json):
        tok = get_tokenizer(name)
        out[name] = {
            t["key"]: [models.count_tokens(tok, t["text"], add_special_tokens=add_special), len(utf8(t["text"]))]
            for t in texts
        }
    return _dumps(out)


@_exposed
def check_pattern(pattern: str) -> str:
    """The resolved split pattern (``""`` for ``"none"``); PatternError with a short message otherwise."""
    return _check_pattern(pattern) or ""


@_exposed
def tiktoken_file(name: str) -> bytes:
    """The ``.tiktoken`` rank file (bytes) of a tokenizer."""
    return get_tokenizer(name).to_tiktoken()


@_exposed
def tokenizer_json(name: str) -> str:
    """The ``to_json()`` text of a trained tokenizer."""
    return get_tokenizer(name).to_json()


class TrainSession:
    """One ``bytepair.train_iter`` run driven in slices from JavaScript: ``step(budget_ms)``
    returns the merges of about ``budget_ms`` ms (at least one), ``finish(name)`` builds and
    registers the tokenizer from the merges so far (all, or fewer after Stop)."""

    @_exposed
    def __init__(
        self, text: str, vocab_size: int, pattern: str, *, min_frequency: int = 1, normalization: str | None = None
    ) -> None:
        if not text:
            raise ArgumentError("The training text is empty: paste some text or open a .txt file.", field="text")
        _facts.check_vocab_size(vocab_size)
        _check_pattern(pattern)
        self.pattern, self.normalization = pattern, normalization or None
        self.total_bytes = len(utf8(text))  # a lone surrogate counts as U+FFFD, as the trainer sees it
        self.target = vocab_size - 256
        self.merges: dict[tuple[int, int], int] = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        self._it = bytepair.train_iter(
            text, vocab_size, pattern=pattern, min_frequency=min_frequency, normalization=self.normalization
        )
        self.done = False

    @_exposed
    def step(self, budget_ms: float = 50.0) -> str:
        """JSON ``{"events": {"id", "left", "right", "left_text", "right_text", "token_text",
        "count", "n_tokens"}`` (named columns, one entry per merge), ``"done", "total_bytes", "target"}``."""
        deadline = time.perf_counter() + budget_ms / 1000.0
        rows, vocab, disp = [], self.vocab, bytepair.token_to_label
        while not self.done:
            ev = next(self._it, None)
            if ev is None:
                self.done = True
                break
            (left, right), vocab[ev.id], self.merges[ev.pair] = ev.pair, ev.token, ev.id
            rows.append(
                (ev.id, left, right, disp(vocab[left]), disp(vocab[right]), disp(ev.token), ev.count, ev.n_tokens)
            )
            if time.perf_counter() >= deadline:
                break
        keys = ("id", "left", "right", "left_text", "right_text", "token_text", "count", "n_tokens")
        cols = {k: [r[i] for r in rows] for i, k in enumerate(keys)}
        return _dumps({"events": cols, "done": self.done, "total_bytes": self.total_bytes, "target": self.target})

    @_exposed
    def finish(self, name: str, limit: int | None = None) -> str:
        """Build and register the tokenizer from the first ``limit`` merges (all when ``None``: Stop
        keeps the merges the page had shown); JSON ``{name, json, n_merges, n_vocab, pattern}``."""
        merges = self.merges if limit is None else dict(list(self.merges.items())[: max(0, int(limit))])
        return _keep(
            bytepair.Tokenizer.from_merges(merges, pattern=self.pattern, normalization=self.normalization, name=name),
            name,
        )

    def close(self) -> None:
        """Free the trainer's state (on a large text, freeing it takes a while: called after the reply)."""
        self._it.close()


@_exposed
def merges_table(name: str) -> str:
    """The merges of a tokenizer in learned order, as JSON columns ``{id, left, right, left_text,
    right_text, token_text}`` (the Train view's table; no pair counts: a saved file has none)."""
    tok = get_tokenizer(name)
    disp = bytepair.token_to_display
    rows = sorted((i, a, b) for (a, b), i in tok.merges.items())
    return _dumps(
        {
            "id": [r[0] for r in rows],
            "left": [r[1] for r in rows],
            "right": [r[2] for r in rows],
            "left_text": [disp(tok.token_bytes(r[1])) for r in rows],
            "right_text": [disp(tok.token_bytes(r[2])) for r in rows],
            "token_text": [disp(tok.token_bytes(r[0])) for r in rows],
        }
    )


@_exposed
def export_files(name: str) -> str:
    """The download files of a tokenizer and their "load it in Python" snippets
    (``bytepair.hf_export``): JSON ``{tokenizer_json, tiktoken, bytepair_json, snippets, file_names,
    problems}``; a format that cannot hold the tokenizer exactly is ``null`` with its reason in
    ``problems[format]`` (``tiktoken`` is the ``.tiktoken`` file's text)."""
    tok = get_tokenizer(name)
    out: dict = {
        "snippets": hf_export.load_snippets(tok),
        "problems": {},
        "file_names": {k: v.format(name=name) for k, v in hf_export.FILE_NAMES.items()},
        "bytepair_json": tok.to_json() if tok.is_trained else None,
    }
    for key, make in (
        ("tokenizer_json", tok.to_tokenizer_json),
        ("tiktoken", lambda: tok.to_tiktoken().decode("ascii")),
    ):
        try:
            out[key] = make()
        except BytepairError as e:
            out[key], out["problems"][key] = None, str(e)
    return _dumps(out)


@_exposed
def from_merges_json(name: str, merges_json: str, pattern: str) -> str:
    """Rebuild a tokenizer from JSON columns ``{"left": [...], "right": [...], "id": [...]}`` (the merges
    the page saw before the worker was restarted); same return as ``TrainSession.finish``."""
    cols = json.loads(merges_json)
    merges = dict(zip(zip(cols["left"], cols["right"]), cols["id"]))
    return _keep(bytepair.Tokenizer.from_merges(merges, pattern=pattern, name=name), name)


# --------------------------------------------------------------------------- step-through
# One session at a time (bytepair.steps.StepSession); the page asks for one step at a time.

_session: steps.StepSession | None = None
_session_id = 0


@_exposed
def steps_learn(options_json: str) -> str:
    """``{mode, text, input, tie, pattern, n_merges}`` -> ``bytepair.steps.learn_steps``; JSON
    ``{session, mode, n_steps, requested, merges: {left, right, merged, count} (columns),
    n_rows, n_symbols_start, n_bytes}``."""
    global _session, _session_id
    o = json.loads(options_json)
    session = steps.learn_steps(
        o.get("mode", "textbook"),
        o.get("text", ""),
        int(o.get("n_merges", 10)),
        input=o.get("input", "counts"),
        tie_break=o.get("tie", "first"),
        pattern=o.get("pattern", "gpt2"),
    )
    _session, _session_id = session, _session_id + 1
    m = session.merges
    return _dumps(
        {
            "session": _session_id,
            "mode": session.mode,
            "n_steps": session.n_steps,
            "requested": session.requested,
            "merges": {
                "left": [x.pair[0] for x in m],
                "right": [x.pair[1] for x in m],
                "merged": [x.merged for x in m],
                "count": [x.count for x in m],
            },
            "n_rows": session.n_rows,
            "n_symbols_start": session.n_symbols_start,
            "n_bytes": session.n_bytes,
        }
    )


def _current(session: int) -> steps.StepSession:
    if _session is None or session != _session_id:
        raise ArgumentError("These steps were replaced by newer ones; learn the merges again.", field="session")
    return _session


@_exposed
def steps_view(session: int, index: int) -> str:
    """JSON of ``StepSession.step(index).to_dict()`` (``bytepair.steps.StepView``) plus ``session``."""
    return _dumps({"session": session, **_current(session).step(index).to_dict()})


@_exposed
def steps_encode(session: int, text: str) -> str:
    """The session's merges applied to a new word (textbook) or short text (bytes):
    JSON ``{start: [symbols], fired: [ApplyStep.to_dict(), ...], n_rules}``."""
    s = _current(session)
    fired = s.apply(text)
    return _dumps({"start": s.start_symbols(text), "n_rules": s.n_steps, "fired": [f.to_dict() for f in fired]})


# --------------------------------------------------------------------------- chat view


@_exposed
def chat_requirements(format_id: str) -> str:
    """JSON ``{"tokenizer", "jinja"}`` of ``bytepair.chat_formats.requirements``: what the worker
    loads before :func:`chat_breakdown` (a rank file; the jinja2 and MarkupSafe wheels)."""
    return _dumps(chat_formats.requirements(format_id))


@_exposed
def chat_breakdown(format_id: str, messages_json: str, add_generation_prompt: bool = True) -> str:
    """JSON of ``bytepair.chat_formats.breakdown(...).to_dict()`` with UTF-16 spans
    (``{text, ids, total, tokens, messages, trailing_tokens, overhead_tokens, format,
    template_name, tokenizer_name, ...}``); token display strings as ``display``."""
    b = chat_formats.breakdown(
        format_id,
        json.loads(messages_json),
        add_generation_prompt=bool(add_generation_prompt),
        units="utf16",
        get_tokenizer=get_tokenizer,
    )
    return _dumps(b.to_dict())


# --------------------------------------------------------------------------- teaching (issue 13)
# Why this token, side by side, gallery: bytepair.explain / align / gallery as JSON.


@_exposed
def token_story(
    text: str, name: str, index: int, events_json: str = "", add_special: bool = True, specials: bool = False
) -> str:
    """JSON of ``bytepair.token_story(tok, text, index, units="utf16").to_dict()`` plus ``"lines"``
    (``bytepair.explain.describe``) and ``"tokenizer"``. ``events_json``: the training run's merges
    as columns ``{"id", "left", "right", "count"}`` (trained tokenizers; ``""``: none).
    ``add_special``, ``specials``: tokens counted as :func:`encode_spans` counts them."""
    events = None
    if events_json:
        c = json.loads(events_json)
        events = [_Event(i, (a, b), n) for i, a, b, n in zip(c["id"], c["left"], c["right"], c["count"])]
    tok = get_tokenizer(name)
    story = bytepair.token_story(
        tok,
        text,
        index,
        units="utf16",
        allowed_special="all" if specials else (),
        disallowed_special=(),
        events=events,
        add_special_tokens=add_special and models.adds_special_tokens(tok),
    )
    return _dumps({**story.to_dict(), "lines": bytepair.explain.describe(story), "tokenizer": name})


class _Event:
    """What ``explain`` reads of a ``MergeEvent``: ``id``, ``pair``, ``count``."""

    __slots__ = ("id", "pair", "count")

    def __init__(self, id_: int, pair: tuple[int, int], count: int) -> None:
        self.id, self.pair, self.count = id_, pair, count


@_exposed
def side_by_side(text: str, names_json: str, add_special: bool = True, specials: bool = False) -> str:
    """JSON of ``bytepair.compare_segmentations(text, rows, names, units="utf16").to_dict()`` plus
    ``"spans"``: per row ``{ids, display, start, end}`` (UTF-16 spans); each row counted as
    :func:`encode_spans` counts (``add_special``: BOS etc.; ``specials``: the OpenAI switch)."""
    names = json.loads(names_json)
    rows = [
        models.view_spans(get_tokenizer(n), text, add_special_tokens=add_special, units="utf16", specials=specials)
        for n in names
    ]
    out = bytepair.compare_segmentations(text, rows, names=names, units="utf16").to_dict()
    out["spans"] = [
        {
            "ids": [s.id for s in r],
            "display": [bytepair.token_to_display(s.token) for s in r],
            "start": [s.start for s in r],
            "end": [s.end for s in r],
        }
        for r in rows
    ]
    return _dumps(out)


def gallery_encodings() -> str:
    """JSON list of the encodings the gallery's examples use (the worker fetches their vocabularies first)."""
    return _dumps(sorted({name for ex in bytepair.gallery.EXAMPLES for name in ex.encodings}))


@_exposed
def gallery_optional_encodings() -> str:
    """JSON list of the open models the gallery also shows once loaded (Qwen 3's digits)."""
    return _dumps(sorted({name for ex in bytepair.gallery.EXAMPLES for name in ex.optional}))


@_exposed
def gallery(ids_json: str = "") -> str:
    """JSON of ``bytepair.gallery.gallery_data(ids=...)`` (``""``: every example)."""
    return _dumps(
        bytepair.gallery.gallery_data(ids=json.loads(ids_json) if ids_json else None, get_encoding=get_tokenizer)
    )
