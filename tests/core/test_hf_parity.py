"""bytepair's ``from_tokenizer_json`` against Hugging Face ``tokenizers`` on the shipped model files.

Reference: ``tokenizers.Tokenizer.from_file(path)`` (PyPI ``tokenizers``, the
Rust implementation) reading the same ``tokenizer.json``: ids with and without
``add_special_tokens``, and ``decode`` with and without ``skip_special_tokens``.
Texts: the UDHR sample (all declarations in the slow run), Python source,
whitespace / emoji / special-token / long-run cases (``tests/corpora.py``),
each model's own special tokens inside text, and Hypothesis text.
"""

from __future__ import annotations

import unicodedata

import pytest

pytest.importorskip("tokenizers")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import corpora
from tests.hf_models import KEYS, compact, ours, reference
from tests.hypothesis_profiles import examples

QUICK = corpora.udhr(corpora.UDHR_SAMPLE) + corpora.python_source() + corpora.small_cases() + corpora.surrogate_cases()


def _check(key: str, text: str, *, every_mode: bool = True) -> None:
    """Ids with ``add_special_tokens`` on and off, and the decode of tokenizers' ids with
    ``skip_special_tokens`` off and on. ``every_mode=False`` (the full-corpus sweeps) checks the
    default of each (on, off): the model's path is the same in both, the quick corpus checks
    the other modes, and the sweeps take half the time."""
    tok, ref = ours(key), reference(key)
    if corpora.has_lone_surrogates(text):
        # tokenizers' Python binding cannot take lone surrogates; bytepair reads them as U+FFFD.
        text = _fffd(text)
    ids: list[int] = []
    for add in (True, False) if every_mode else (True,):
        want = ref.encode(text, add_special_tokens=add).ids
        ids = ids or want  # add_special_tokens=True: the ids decoded below
        got = tok.encode(text, add_special_tokens=add)
        if got != want:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            pytest.fail(
                f"{key} add_special_tokens={add}: first difference at token {i}: ours {got[i : i + 8]} ref {want[i : i + 8]}"
            )
    for skip in (False, True) if every_mode else (False,):
        assert tok.decode(ids, skip_special_tokens=skip) == ref.decode(ids, skip_special_tokens=skip)


def _fffd(text: str) -> str:
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("corpus", corpora.params(QUICK))
def test_ids_and_decode_equal_tokenizers(key, corpus):
    _check(key, corpus.text())


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_udhr_sweep(key):
    """Every character of the ~500 UDHR declarations outside the quick sample (corpora.udhr_sweep;
    BYTEPAIR_UDHR=all: every declaration)."""
    for corpus in corpora.udhr_sweep():
        _check(key, corpus.text(), every_mode=False)


@pytest.mark.parametrize("key", KEYS)
def test_special_tokens_in_text(key):
    tok = ours(key)
    specials = list(tok.special_tokens)[:40]
    added = [t["content"] for t in tok.added_tokens if not t["special"]][:40]
    text = " x ".join(specials) + "\n" + "".join(specials[:5]) + " hello" + " ".join(added) + "<" + specials[0][1:]
    _check(key, text)
    _check(key, specials[0] + "Hello" + specials[-1])
    _check(key, "  " + specials[0] + "  \n" + specials[0])


@pytest.mark.parametrize("key", KEYS)
def test_long_inputs(key):
    for text in ("a" * 20_000, " " * 20_000, "1" * 9_999, "\n" * 5000 + "x", "😀" * 3000, "日本" * 5000):
        _check(key, text)


_ALPHABET = st.sampled_from(
    list("aAzZ09 \t\n\r'.,!?-_<>|")
    + ["é", "ß", "Σ", "ς", "日", "本", "한", "ا", "😀", "\u200d", "\u0301", "\xa0", "\u3000", "▁", "Ġ", "<|", "|>"]
)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.text(max_size=60), st.lists(_ALPHABET, max_size=40).map("".join)))
def test_hypothesis_text(key, text):
    _check(key, text)


@pytest.mark.parametrize("key", KEYS)
def test_compact_form_gives_tokenizers_ids(key):
    from bytepair.hf.compact import from_compact

    tok = from_compact(compact(key))
    ref = reference(key)
    text = corpora.udhr_mix(chars_each=1500) + "\n" + " ".join(list(tok.special_tokens)[:10])
    assert tok.encode(text) == ref.encode(text).ids
    ids = ref.encode(text).ids
    assert tok.decode(ids) == ref.decode(ids, skip_special_tokens=False)
    assert tok.describe() == ours(key).describe()


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("units", ["chars", "utf16"])
def test_spans_cover_the_text(key, units):
    # None of these files' normalizers changes NFC text (Gemma's ' ' -> '▁' is undone by token_bytes),
    # so the token bytes concatenate to the text, and each token's span holds its bytes.
    tok = ours(key)
    text = unicodedata.normalize("NFC", corpora.udhr_mix(chars_each=800) + " 😀👩‍👧 tab\tnew\n\n  <|im_start|>x")
    spans = tok.encode_with_spans(text, units=units)
    assert [s.id for s in spans] == reference(key).encode(text, add_special_tokens=False).ids
    assert b"".join(s.token for s in spans) == text.encode("utf-8")
    u16 = text.encode("utf-16-le", "surrogatepass")
    for s in spans:
        piece = text[s.start : s.end] if units == "chars" else u16[2 * s.start : 2 * s.end].decode("utf-16-le")
        assert s.token in piece.encode("utf-8"), (s, piece)
    if units == "chars":
        # on NFC text the spans are tokenizers' offsets (characters); where NFC composes
        # (e + U+0301), tokenizers points at the base character only, bytepair at both.
        assert [(s.start, s.end) for s in spans] == [
            tuple(o) for o in reference(key).encode(text, add_special_tokens=False).offsets
        ]
    with_bos = tok.encode_with_spans(text, add_special_tokens=True)
    assert [s.id for s in with_bos] == reference(key).encode(text).ids


@pytest.mark.parametrize("key", KEYS)
def test_vocabulary_size_and_token_strings_equal_tokenizers(key):
    tok, ref = ours(key), reference(key)
    assert tok.n_vocab == ref.get_vocab_size(with_added_tokens=True)
    assert tok.describe()["vocab_size"] == ref.get_vocab_size(with_added_tokens=False)
    step = max(1, tok.n_vocab // 997)
    for tid in range(0, tok.n_vocab, step):
        assert tok.token_string(tid) == ref.id_to_token(tid)
    for name, tid in tok.special_tokens.items():
        assert ref.token_to_id(name) == tid


@pytest.mark.parametrize("key", KEYS)
def test_compact_form_fills_its_tables_as_texts_need_them(key):
    """A compact file loads the table entries each text may use (bytepair.hf.lazy); text after
    text, in one tokenizer, ids, spans and dropped characters stay those of the whole tables,
    and ids no text gave decode as tokenizers decodes them."""
    from bytepair.hf.compact import from_compact

    tok, full, ref = from_compact(compact(key)), ours(key), reference(key)
    assert not tok.tables_loaded and full.tables_loaded
    n_total = len(full.model_vocab) + len(full.merge_ranks())
    for i, corpus in enumerate(QUICK):
        text = _fffd(corpus.text())[:3000]
        assert tok.encode(text) == ref.encode(text).ids, corpus.id
        assert tok.encode_with_spans(text, units="utf16") == full.encode_with_spans(text, units="utf16")
        assert tok.dropped_characters(text) == full.dropped_characters(text)
        if i == 0:  # one short text loads a small part of the tables
            assert len(tok.model_vocab) + len(tok.merge_ranks()) < n_total / 4
    ids = list(range(0, full.n_vocab, 997)) + [full.n_vocab - 1]
    assert tok.decode(ids) == ref.decode(ids, skip_special_tokens=False)
    assert [tok.token_string(i) for i in ids] == [full.token_string(i) for i in ids]
    assert tok.describe() == full.describe() and tok.n_vocab == full.n_vocab


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(_ALPHABET, max_size=30).map("".join))
def test_compact_form_hypothesis(key, text):
    from bytepair.hf.compact import from_compact

    tok = from_compact(compact(key))  # fresh tables: only what this text needs
    assert tok.encode(text) == reference(key).encode(text).ids
    assert tok.encode_with_spans(text) == ours(key).encode_with_spans(text)


@pytest.mark.parametrize("key", KEYS)
def test_compact_form_loads_whole_tables_for_a_long_text(key):
    from bytepair.hf.compact import from_compact

    tok = from_compact(compact(key))
    text = (corpora.udhr_mix(chars_each=1500) + "\n") * 7
    assert len(text) > 50_000
    assert tok.encode(text) == reference(key).encode(text).ids
    assert tok.tables_loaded  # loaded whole, before the pieces
