"""A tokenizer's files and merges for the Train view's saved list: downloads
(``bytepair.formats.hf_export``: tokenizer.json, .tiktoken, bytepair JSON, "load it in Python"
snippets) and the merges table."""

from __future__ import annotations

import bytepair
from bytepair.errors import BytepairError
from bytepair.formats import hf_export

from .convert import columns, dumps, exposed
from .state import get_tokenizer


@exposed
def tiktoken_file(name: str) -> bytes:
    """The ``.tiktoken`` rank file (bytes) of a tokenizer."""
    return get_tokenizer(name).to_tiktoken()


@exposed
def tokenizer_json(name: str) -> str:
    """The ``to_json()`` text of a trained tokenizer."""
    return get_tokenizer(name).to_json()


@exposed
def merges_table(name: str) -> str:
    """The merges of a tokenizer in learned order, as JSON columns ``{id, left, right, left_text,
    right_text, token_text, left_bytes, right_bytes, token_bytes}`` (the Train view's table;
    ``*_bytes``: the tokens' lengths in bytes; no pair counts: a saved file has none)."""
    tok = get_tokenizer(name)
    disp, raw = bytepair.token_to_display, tok.token_bytes
    rows = [
        (i, a, b, disp(raw(a)), disp(raw(b)), disp(raw(i)), len(raw(a)), len(raw(b)), len(raw(i)))
        for i, a, b in sorted((i, a, b) for (a, b), i in tok.merges.items())
    ]
    names = ("id", "left", "right", "left_text", "right_text", "token_text", "left_bytes", "right_bytes", "token_bytes")
    return dumps(columns(rows, names))


@exposed
def token_label(name: str, token_id: int) -> str:
    """The whole label (``bytepair.token_to_label``) of token ``token_id`` of tokenizer ``name``: a
    long token the Train view drew shortened, shown whole on demand (the stream labels only the
    first ``train.LABEL_BYTES`` bytes)."""
    return bytepair.token_to_label(get_tokenizer(name).token_bytes(int(token_id)))


@exposed
def export_files(name: str) -> str:
    """The download files of a tokenizer and their "load it in Python" snippets
    (``bytepair.formats.hf_export``): JSON ``{tokenizer_json, tiktoken, bytepair_json, snippets, file_names,
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
    return dumps(out)
