"""Mistral Tekken files: bytepair's ids equal ``mistral-common``'s own tokenizer.

Reference: ``mistral_common.tokens.tokenizers.tekken.Tekkenizer.from_file`` (PyPI
``mistral-common``, offline) on the ``tekken_*.json`` files it ships; its
``encode(text, bos, eos)`` and ``decode(ids, special_token_policy=...)``.
"""

from __future__ import annotations

import json
import pathlib

import pytest

pytest.importorskip("mistral_common")

from hypothesis import given, settings
from hypothesis import strategies as st
from mistral_common.tokens.tokenizers.tekken import SpecialTokenPolicy, Tekkenizer

import bytepair
from bytepair.errors import TokenizerFileError
from tests import corpora
from tests.hf_models import tekken_path
from tests.hypothesis_profiles import examples

VERSIONS = ("240718", "240911")
_CACHE: dict = {}


def _pair(version: str):
    if version not in _CACHE:
        p = tekken_path(version)
        _CACHE[version] = (bytepair.from_tekken(p), Tekkenizer.from_file(p))
    return _CACHE[version]


def _check(version: str, text: str) -> None:
    ours, ref = _pair(version)
    text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    assert ours.encode(text) == ref.encode(text, bos=True, eos=False)
    ids = ref.encode(text, bos=False, eos=False)
    assert ours.encode(text, add_special_tokens=False) == ids
    ids = [ref.bos_id, *ids, ref.eos_id]
    assert ours.decode(ids) == ref.decode(ids, special_token_policy=SpecialTokenPolicy.KEEP)
    assert ours.decode(ids, skip_special_tokens=True) == ref.decode(ids, special_token_policy=SpecialTokenPolicy.IGNORE)


QUICK = corpora.udhr(corpora.UDHR_SAMPLE) + corpora.python_source() + corpora.small_cases() + corpora.surrogate_cases()


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("corpus", corpora.params(QUICK))
def test_ids_equal_mistral_common(version, corpus):
    _check(version, corpus.text())


@pytest.mark.parametrize("version", VERSIONS)
def test_vocabulary_and_specials_equal_mistral_common(version):
    ours, ref = _pair(version)
    assert ours.n_vocab == ref.n_words
    assert ours.bos_token == "<s>" and ours.special_tokens["<s>"] == ref.bos_id
    assert ours.special_tokens["</s>"] == ref.eos_id
    for tid in (0, 1, 2, 3, 999, 1000, 1001, 1255, 5000, 70000, ref.n_words - 1):
        keep = SpecialTokenPolicy.KEEP
        assert ours.token_bytes(tid) == ref.id_to_byte_piece(tid, special_token_policy=keep)
    # special-token strings in text are plain text, as in mistral-common
    _check(version, "<s>[INST] hi [/INST]</s>")


@pytest.mark.parametrize("version", VERSIONS)
@settings(max_examples=examples(60), deadline=None)
@given(text=st.text(max_size=80))
def test_hypothesis_text(version, text):
    _check(version, text)


def test_malformed_files_raise_tokenizer_file_error():
    with pytest.raises(TokenizerFileError) as e:
        bytepair.from_tekken('{"config": {"pattern": "x"}, "vocab": []}')
    assert e.value.where == "config"
    with pytest.raises(TokenizerFileError):
        bytepair.from_tekken(b"not json")


def test_tekken_special_switch_says_what_the_file_is():
    # problem 9: Mistral NeMo's switch said "as this tokenizer.json's post-processor does" for a Tekken file
    tekken = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    from tests.hf_models import tekken_path

    p = tekken_path("240718")
    ref = tekken.Tekkenizer.from_file(p)
    words = bytepair.from_tekken(p).describe()["special_tokens_switch"]
    bos = ref.id_to_piece(ref.bos_id)
    assert ref.encode("hi", bos=True, eos=False)[0] == ref.bos_id  # what the switch says mistral-common adds
    assert words == f"Add special tokens ({bos}), as mistral-common does for a Tekken file"
    assert "tokenizer.json" not in words and "post-processor" not in words
    # issue 21: a page in another language words it from its kind; in English, the same words
    d = bytepair.from_tekken(p).describe()
    en = json.loads((pathlib.Path(__file__).parents[2] / "web/src/locales/en.json").read_text(encoding="utf-8"))
    form = en["messages"][f"tok.addSpecial.{d['special_tokens_switch_kind']}"]["en"]
    assert form.replace("{bos}", d["bos_token"]) == words
