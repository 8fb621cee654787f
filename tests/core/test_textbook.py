"""Textbook BPE (bytepair.teach.textbook) vs the paper's worked example and a slow oracle.

Published values: Sennrich, Haddow & Birch (2016), "Neural Machine Translation
of Rare Words with Subword Units", Algorithm 1 (and subword-nmt's
``bpe_toy.py``): on ``{low: 5, lower: 2, newest: 6, widest: 3}`` with ``</w>``
as its own symbol the first merges are ``e s`` (9), ``es t`` (9),
``est </w>`` (9), ``l o`` (7), ``lo w`` (7); so the unseen word ``lowest``
becomes ``low est</w>``.

The oracle (tests/reference/textbook_oracle.py) is Algorithm 1 taken literally, a different formulation from
the module: a word is one string of space-separated symbols, pairs are counted
on ``str.split()``, and a merge is ``re.sub`` of ``(?<!\\S)left right(?!\\S)``
by ``leftright``. Ties are resolved from explicit first positions
``(word index, symbol index)`` or by sorting the tied pairs. Stdlib only, so
these tests also run inside Pyodide.
"""

from __future__ import annotations

import json
import re

import pytest

from bytepair.teach import textbook
from bytepair.teach.textbook import END_OF_WORD, apply, count_words, initial_state, learn, parse_word_counts
from tests.hypothesis_profiles import examples
from tests.reference.textbook_oracle import PAPER_FIRST_MERGES, PAPER_VOCAB, oracle_apply, oracle_learn

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None


def as_plain(step):
    """A Step as the oracle's plain values."""
    return {
        "index": step.index,
        "pair": step.pair,
        "merged": step.merged,
        "count": step.count,
        "ties": list(step.ties),
        "pair_counts": list(step.pair_counts),
        "segmentation": [(s.word, s.count, list(s.symbols)) for s in step.segmentation],
        "changed_words": [(c.word_index, c.word, list(c.positions)) for c in step.changed_words],
        "vocab": list(step.vocab),
        "n_symbols": step.n_symbols,
    }


def test_oracle_reproduces_the_papers_example():
    # the oracle itself must know the published answer, or it proves nothing
    got = [(s["pair"], s["count"]) for s in oracle_learn(PAPER_VOCAB, 5, "first")]
    assert got == PAPER_FIRST_MERGES


# ---------------------------------------------------------------- the paper's example


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
def test_papers_first_merges(tie_break):
    steps = learn(PAPER_VOCAB, 5, tie_break=tie_break)
    assert [(s.pair, s.count) for s in steps] == PAPER_FIRST_MERGES
    assert [s.merged for s in steps] == ["es", "est", "est</w>", "lo", "low"]
    # after `l o`, `lo w`: low </w> (x5), low e r </w> (x2), n e w est</w> (x6), w i d est</w> (x3)
    assert [list(s.symbols) for s in steps[-1].segmentation] == [
        ["low", "</w>"],
        ["low", "e", "r", "</w>"],
        ["n", "e", "w", "est</w>"],
        ["w", "i", "d", "est</w>"],
    ]
    assert steps[-1].n_symbols == 2 * 5 + 4 * 2 + 4 * 6 + 4 * 3


def test_papers_first_step_table_and_ties():
    step = learn(PAPER_VOCAB, 1)[0]
    # counted by hand from l o w </w> x5, l o w e r </w> x2, n e w e s t </w> x6, w i d e s t </w> x3
    assert dict(step.pair_counts) == {
        ("l", "o"): 7,
        ("o", "w"): 7,
        ("w", "</w>"): 5,
        ("w", "e"): 8,
        ("e", "r"): 2,
        ("r", "</w>"): 2,
        ("n", "e"): 6,
        ("e", "w"): 6,
        ("e", "s"): 9,
        ("s", "t"): 9,
        ("t", "</w>"): 9,
        ("w", "i"): 3,
        ("i", "d"): 3,
        ("d", "e"): 3,
    }
    assert step.pair_counts[:4] == ((("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9), (("w", "e"), 8))
    assert step.ties == (("s", "t"), ("t", "</w>"))
    assert [(c.word, c.positions) for c in step.changed_words] == [("newest", (3,)), ("widest", (3,))]
    assert step.vocab == ("l", "o", "w", "</w>", "e", "r", "n", "s", "t", "i", "d", "es")
    assert step.n_symbols == 4 * 5 + 6 * 2 + 7 * 6 + 7 * 3 - 6 - 3


def test_lowest_with_the_papers_merges():
    merges = [s.pair for s in learn(PAPER_VOCAB, 10)]
    fired = apply("lowest", merges)
    assert [(a.index, a.pair) for a in fired] == [
        (0, ("e", "s")),
        (1, ("es", "t")),
        (2, ("est", "</w>")),
        (3, ("l", "o")),
        (4, ("lo", "w")),
    ]
    assert fired[-1].symbols == ("low", "est</w>")
    assert fired[0].symbols == ("l", "o", "w", "es", "t", "</w>") and fired[0].positions == (3,)


def test_tie_rules_differ_where_the_paper_would_choose():
    # step 6 on the paper's vocabulary: n e, e w, w est</w> all have count 6
    first = learn(PAPER_VOCAB, 6, tie_break="first")[5]
    lexi = learn(PAPER_VOCAB, 6, tie_break="lexicographic")[5]
    assert (first.pair, first.count) == (("n", "e"), 6)
    assert (lexi.pair, lexi.count) == (("e", "w"), 6)
    assert set(first.ties) == {("e", "w"), ("w", "est</w>")}
    assert lexi.ties == (("n", "e"), ("w", "est</w>"))


# ---------------------------------------------------------------- against the oracle

WORDS_EXAMPLES = {
    "paper": PAPER_VOCAB,
    # Hugging Face course's BPE corpus (their convention has no </w>; here only vs the oracle)
    "hf-course": {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    "overlaps": {"aaaa": 3, "aaa": 2, "baaab": 1},
    "regex-specials": {"a.b*": 2, "(a)": 3, "\\\\": 1, "a\\b": 2, "<w>": 2, "/w": 1},
    "non-ascii": {"naïve": 2, "café": 3, "日本語": 2, "🙂🙂": 1},
}


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
@pytest.mark.parametrize("name", list(WORDS_EXAMPLES))
def test_learn_matches_oracle(name, tie_break):
    words = WORDS_EXAMPLES[name]
    steps = learn(words, 60, tie_break=tie_break)
    assert [as_plain(s) for s in steps] == oracle_learn(words, 60, tie_break)


@pytest.mark.parametrize("name", list(WORDS_EXAMPLES))
def test_apply_matches_oracle(name):
    words = WORDS_EXAMPLES[name]
    merges = [s.pair for s in learn(words, 60)]
    for word in [*words, "lowest", "hugs", "aaaaaaa", "x"]:
        fired = apply(word, merges)
        assert [(a.index, a.pair, list(a.symbols), list(a.positions)) for a in fired] == oracle_apply(word, merges)


def test_stops_when_no_pair_is_left():
    steps = learn({"ab": 1, "c": 4}, 50)
    # a b </w>, c </w>: three merges make every word a single symbol
    assert len(steps) == 3
    assert [list(s.symbols) for s in steps[-1].segmentation] == [["ab</w>"], ["c</w>"]]
    assert learn({}, 5) == []
    assert learn(PAPER_VOCAB, 0) == []


def test_apply_on_a_training_word_gives_its_training_segmentation():
    steps = learn(PAPER_VOCAB, 12)
    merges = [s.pair for s in steps]
    for seg in steps[-1].segmentation:
        fired = apply(seg.word, merges)
        assert fired[-1].symbols == seg.symbols


def test_apply_accepts_json_merges_and_skips_rules_that_do_not_fire():
    merges = json.loads(json.dumps([s.pair for s in learn(PAPER_VOCAB, 10)]))
    fired = apply("wide", merges)
    assert [a.pair for a in fired] == [("w", "i")]
    assert fired[0].index == 9
    assert apply("xyz", merges) == []


def test_initial_state_matches_oracle():
    state = initial_state(PAPER_VOCAB)
    assert state["segmentation"][0] == {"word": "low", "count": 5, "symbols": ["l", "o", "w", "</w>"]}
    assert state["vocab"] == ["l", "o", "w", "</w>", "e", "r", "n", "s", "t", "i", "d"]
    assert state["n_symbols"] == 4 * 5 + 6 * 2 + 7 * 6 + 7 * 3
    assert textbook.initial_symbols("low") == ["l", "o", "w", END_OF_WORD]


def test_to_dict_is_json_and_marks_ties():
    for step in learn(PAPER_VOCAB, 10, tie_break="lexicographic"):
        d = json.loads(json.dumps(step.to_dict()))
        assert d["pair"] == list(step.pair) and d["count"] == step.count
        assert [r["pair"] for r in d["pair_counts"] if r["tie"]] == [list(p) for p in step.ties]
        assert d["pair_counts"][0] == {"pair": list(step.pair), "count": step.count, "tie": False}
        assert [s["symbols"] for s in d["segmentation"]] == [list(s.symbols) for s in step.segmentation]
        assert d["changed_words"] == [
            {"word_index": c.word_index, "word": c.word, "positions": list(c.positions)} for c in step.changed_words
        ]
        assert d["vocab"] == list(step.vocab) and d["n_symbols"] == step.n_symbols
    fired = apply("lowest", [s.pair for s in learn(PAPER_VOCAB, 5)])
    assert json.loads(json.dumps(fired[-1].to_dict())) == {
        "index": 4,
        "pair": ["lo", "w"],
        "merged": "low",
        "symbols": ["low", "est</w>"],
        "positions": [0],
    }


if given is not None:
    _word = st.text(alphabet="abcdew<>/\\.é🙂", min_size=1, max_size=7).filter(lambda w: END_OF_WORD not in w)
    _vocab = st.dictionaries(_word, st.integers(1, 12), max_size=7)

    @settings(max_examples=examples(150), deadline=None)
    @given(_vocab, st.integers(0, 40), st.sampled_from(["first", "lexicographic"]))
    def test_learn_matches_oracle_random(words, n_merges, tie_break):
        steps = learn(words, n_merges, tie_break=tie_break)
        assert [as_plain(s) for s in steps] == oracle_learn(words, n_merges, tie_break)

    @settings(max_examples=examples(150), deadline=None)
    @given(_vocab, st.integers(0, 40), _word)
    def test_apply_matches_oracle_random(words, n_merges, word):
        merges = [s.pair for s in learn(words, n_merges)]
        fired = apply(word, merges)
        assert [(a.index, a.pair, list(a.symbols), list(a.positions)) for a in fired] == oracle_apply(word, merges)


# ---------------------------------------------------------------- input


def test_parse_word_counts():
    assert parse_word_counts("low 5\nlower 2\nnewest 6\nwidest 3\n") == PAPER_VOCAB
    assert list(parse_word_counts("b 1\na 1")) == ["b", "a"]
    assert parse_word_counts("  low\t5 \r\n\r\n\nlower 2\r\n") == {"low": 5, "lower": 2}
    assert parse_word_counts("low 5\nlower 2\nlow 3") == {"low": 8, "lower": 2}  # duplicates summed
    assert list(parse_word_counts("low 5\nlower 2\nlow 3")) == ["low", "lower"]
    assert parse_word_counts("") == {} and parse_word_counts("\n  \n") == {}


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("low", 1, "has no count"),
        ("low 5\n\nlower", 3, "has no count"),
        ("low five", 1, "not a whole number"),
        ("low 2.5", 1, "not a whole number"),
        ("low -3", 1, "not a whole number"),
        ("low ３", 1, "not a whole number"),  # fullwidth digit
        ("low 0", 1, "at least 1"),
        ("low er 5", 1, "more than two fields"),
    ],
)
def test_parse_word_counts_errors(text, line, words):
    with pytest.raises(ValueError) as e:
        parse_word_counts(text)
    msg = str(e.value)
    assert f"line {line}:" in msg and words in msg and "'low 5'" in msg


def test_count_words():
    assert count_words("the cat\n saw the\tdog the") == {"the": 3, "cat": 1, "saw": 1, "dog": 1}
    assert list(count_words("b a b")) == ["b", "a"]
    assert count_words("  \n ") == {}
    with pytest.raises(TypeError):
        count_words(b"the cat")
    with pytest.raises(TypeError):
        parse_word_counts(b"low 5")


@pytest.mark.parametrize(
    "words, n_merges, kwargs, error, fragment",
    [
        (PAPER_VOCAB, -1, {}, ValueError, "between 0 and 500"),
        (PAPER_VOCAB, 501, {}, ValueError, "between 0 and 500"),
        (PAPER_VOCAB, "3", {}, TypeError, "n_merges"),
        (PAPER_VOCAB, True, {}, TypeError, "n_merges"),
        (PAPER_VOCAB, 3, {"tie_break": "last"}, ValueError, "'first' or 'lexicographic'"),
        ([("low", 5)], 3, {}, TypeError, "dict"),
        ({"lo w": 5}, 3, {}, ValueError, "whitespace"),
        ({"": 5}, 3, {}, ValueError, "empty"),
        ({"a</w>b": 5}, 3, {}, ValueError, "end-of-word marker"),
        ({"low": 0}, 3, {}, ValueError, "at least 1"),
        ({"low": "5"}, 3, {}, TypeError, "int"),
        ({"low": True}, 3, {}, TypeError, "int"),
        ({5: 5}, 3, {}, TypeError, "str"),
        ({f"w{i}": 1 for i in range(textbook.MAX_WORDS + 1)}, 3, {}, ValueError, "distinct words"),
    ],
)
def test_learn_errors(words, n_merges, kwargs, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)):
        learn(words, n_merges, **kwargs)


@pytest.mark.parametrize(
    "word, merges, error, fragment",
    [
        ("", [], ValueError, "empty"),
        ("lo w", [], ValueError, "whitespace"),
        (5, [], TypeError, "str"),
        ("low", "lo", TypeError, "list of (left, right)"),
        ("low", [("l",)], TypeError, "merges[0]"),
        ("low", [("l", "o"), ("lo", 1)], TypeError, "merges[1]"),
        ("low", [("", "o")], TypeError, "non-empty"),
    ],
)
def test_apply_errors(word, merges, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)):
        apply(word, merges)
