"""Token ids computed by tiktoken on CPython, for the core tests inside Pyodide.

tiktoken (Rust) cannot run inside Pyodide, so ``test_in_pyodide.py`` calls
:func:`write_fixture` on CPython before starting Node.js; inside Pyodide
``tests/core/test_pyodide_tiktoken_ids.py`` encodes the same texts with the
stdlib ``re`` back-end and compares with these ids.

The texts: 60 UDHR languages (whole declarations), Python source, the small and
surrogate edge cases and the 5000-long runs from ``tests/corpora.py``.
"""

from __future__ import annotations

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / ".cache" / "pyodide-fixtures" / "tiktoken_ids.json"
ENCODINGS = ("gpt2", "cl100k_base", "o200k_base")


def fixture_texts() -> dict[str, str]:
    """Corpus id -> text for the fixture (characters)."""
    from tests import corpora

    codes = corpora.udhr_codes()
    step = max(1, len(codes) // 60)
    chosen = sorted(set(corpora.UDHR_SAMPLE) | set(codes[::step]))
    items = corpora.udhr(chosen) + corpora.python_source() + corpora.small_cases() + corpora.surrogate_cases()
    return {c.id: c.text() for c in items}


def write_fixture(path: pathlib.Path = FIXTURE) -> pathlib.Path:
    """Encode :func:`fixture_texts` with tiktoken (built offline from the
    shipped ranks, pattern and special tokens read from tiktoken's own source)
    and write ``{"texts": {id: text}, "ids": {encoding: {id: [ids]}}}`` as JSON.

    Lone surrogates survive JSON (``\\udXXX`` escapes), so the surrogate cases
    reach Pyodide unchanged.
    """
    import bytepair.registry
    from tests.reference import tiktoken_encoding

    texts = fixture_texts()
    ids = {}
    for name in ENCODINGS:
        enc = tiktoken_encoding(name, bytepair.registry.load_ranks(name))
        ids[name] = {k: enc.encode(t, allowed_special="all") for k, t in texts.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"texts": texts, "ids": ids}), encoding="utf-8")
    return path
