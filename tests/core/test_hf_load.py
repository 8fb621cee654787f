"""The quick-load parts of ``bytepair.hf.tokenizer`` (issue 12: first count with a
model within 0.3 s of choosing it): the added-token matcher that needs no regex
compile, and the derived facts the compact file stores.

Oracles: a brute-force leftmost-longest search (what ``tokenizers``'
Aho-Corasick ``MatchKind::LeftmostLongest`` finds); a character-by-character
scan of the vocabulary. Ids against ``tokenizers`` are in ``test_hf_parity.py``
(``test_compact_form_gives_tokenizers_ids``) and ``test_hf_tokenizer_json.py``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bytepair
from bytepair.hf.compact import from_compact, to_compact
from bytepair.hf.tokenizer import _AddedMatcher
from tests.hypothesis_profiles import examples


def leftmost_longest(words: set[str], s: str) -> list[tuple[int, int]]:
    """Brute force: at the leftmost position where some word starts, the longest one; then after it."""
    out, pos = [], 0
    while pos < len(s):
        hits = [len(w) for w in words if w and s.startswith(w, pos)]
        if hits:
            out.append((pos, pos + max(hits)))
            pos += max(hits)
        else:
            pos += 1
    return out


_CHARS = st.sampled_from("ab<>\n▁|]-^\\")


@settings(max_examples=examples(400), deadline=None)
@given(
    words=st.sets(st.text(_CHARS, min_size=1, max_size=5), max_size=8),
    s=st.text(st.one_of(_CHARS, st.sampled_from("xy é")), max_size=40),
)
def test_matcher_is_leftmost_longest(words, s):
    m = _AddedMatcher(words)
    assert list(m.finditer(s)) == leftmost_longest(words, s)


@pytest.mark.parametrize(
    ("words", "s", "want"),
    [
        ({"ab", "abc"}, "xab", [(1, 3)]),  # a longer word runs past the end of the text
        ({"abc"}, "xab", []),
        ({"a", "abc"}, "ab", [(0, 1)]),
        ({"\n\n", "\n\n\n"}, "\n\n\n\n\n", [(0, 3), (3, 5)]),
        ({"<x>"}, "", []),
        (set(), "abc", []),
    ],
)
def test_matcher_edges(words, s, want):
    assert list(_AddedMatcher(words).finditer(s)) == want


def _metaspace_json(vocab: list[str], merges: list[str]) -> str:
    return json.dumps(
        {
            "model": {"type": "BPE", "vocab": {t: i for i, t in enumerate(vocab)}, "merges": merges},
            "normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
            "decoder": {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
            "added_tokens": [],
        }
    )


def test_compact_file_stores_the_characters_glued_before_space():
    vocab = ["a", "b", ".", "\u2581", "a\u2581", "\u2581b", ".\u2581", "\u2581\u2581", "a\u2581b"]
    merges = ["a \u2581", "\u2581 b", ". \u2581", "\u2581 \u2581", "a\u2581 b"]
    tok = bytepair.from_tokenizer_json(_metaspace_json(vocab, merges))
    scan = {t[i - 1] for t in vocab for i in range(1, len(t)) if t[i] == "\u2581" and t[i - 1] != "\u2581"}
    from bytepair.formats.vocab_file import read_vocab_file

    data = to_compact(tok)
    stored = read_vocab_file(data, kind="hf").meta["cut_glued"]
    back = from_compact(data)
    assert stored == back.glued_before_space() == tok.glued_before_space()  # stored = what the scan gives
    assert not back.tables_loaded  # read from the file, not found by a pass over the whole vocabulary
    # every character glued before ▁ (the scan may add more: fewer cuts, still exact)
    assert scan == {".", "a"} and scan <= set(stored)
    text = "a b.a a b. b" * 5  # one long piece: cut where no token spans the cut
    assert back.encode(text) == tok.encode(text)


def test_compact_file_without_the_stored_characters_still_cuts():
    """A file written before ``cut_glued`` existed: the characters are found by the scan."""
    from bytepair.formats.vocab_file import read_vocab_file, write_vocab_file

    vocab = ["a", "b", "\u2581", "a\u2581", "\u2581b"]
    tok = bytepair.from_tokenizer_json(_metaspace_json(vocab, ["a \u2581", "\u2581 b"]))
    f = read_vocab_file(to_compact(tok), kind="hf")
    meta = {k: v for k, v in f.meta.items() if k != "cut_glued"}
    old = from_compact(write_vocab_file(f.sections, kind="hf", meta=meta))
    text = "a b a b a b a b a b a b a b a b"
    assert not old.tables_loaded
    assert old.encode(text) == tok.encode(text)
    assert old.tables_loaded and "a" in (old.glued_before_space() or "")  # found by the scan (whole tables)


def test_compact_id_table_matches_the_vocabulary():
    """``from_compact`` uses the file's token list as the id -> token table: same strings, and
    ids outside it (negative too: no wrap-around) are no token."""
    vocab = ["a", "b", "\u2581", "a\u2581", "\u2581b"]
    tok = bytepair.from_tokenizer_json(_metaspace_json(vocab, ["a \u2581", "\u2581 b"]))
    back = from_compact(to_compact(tok))
    assert [back.token_string(i) for i in range(len(vocab))] == vocab
    for bad in (-1, -len(vocab), len(vocab)):
        with pytest.raises(KeyError):
            back.token_string(bad)
    assert back.decode([-1, 0, len(vocab), 1]) == tok.decode([0, 1]) == "ab"
