"""The split patterns of the open-model files split identically on both back-ends.

Reference: the ``regex`` module (the CPython back-end; ``tokenizers`` parity is
checked on it in ``test_hf_parity.py``). The ``re`` back-end (Pyodide) runs the
pattern rewritten by ``bytepair.split.retranslate``; here both split the UDHR sample,
Python source and the hard cases the same way, for every regex in every
model file (Llama 3's ``(?i:...)``, DeepSeek's literal CJK ranges and
``\\p{P}``/``\\p{S}``, gpt-oss's and Tekken's case classes) and for the
regexes the pre-tokenizers bring (ByteLevel's GPT-2 pattern, Whitespace's).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("regex")

from bytepair.hf import components as hf_components
from bytepair.split.pretokenize import compile_pattern
from tests import corpora
from tests.hf_models import KEYS, require, tekken_path


def _regexes(spec) -> list[str]:
    out = []
    if isinstance(spec, dict):
        pat = spec.get("pattern")
        if isinstance(pat, dict) and "Regex" in pat:
            out.append(pat["Regex"])
        for v in spec.values():
            out += _regexes(v)
    elif isinstance(spec, list):
        for v in spec:
            out += _regexes(v)
    return out


def _model_patterns(key: str) -> list[str]:
    data = json.loads((require(key) / "tokenizer.json").read_text(encoding="utf-8"))
    return _regexes(data.get("normalizer")) + _regexes(data.get("pre_tokenizer")) + _regexes(data.get("decoder"))


TEXTS = corpora.udhr(corpora.UDHR_SAMPLE) + corpora.python_source() + corpora.small_cases()


def _same_splits(pattern: str) -> None:
    a, b = compile_pattern(pattern, backend="regex"), compile_pattern(pattern, backend="re")
    for corpus in TEXTS:
        text = corpus.text()
        assert b.findall(text) == a.findall(text), (pattern, corpus.id)


@pytest.mark.parametrize("key", KEYS)
def test_model_patterns_split_alike(key):
    pats = _model_patterns(key)
    if key != "gemma3":  # Gemma 3 splits on a string, no regex
        assert pats
    for p in pats:
        _same_splits(p)


def test_tekken_pattern_splits_alike():
    _same_splits(json.loads(tekken_path("240718").read_text(encoding="utf-8"))["config"]["pattern"])


@pytest.mark.parametrize(
    "pattern", [hf_components.BYTE_LEVEL_PATTERN, r"\w+|[^\w\s]+"], ids=["bytelevel", "whitespace"]
)
def test_pre_tokenizer_patterns_split_alike(pattern):
    _same_splits(pattern)
