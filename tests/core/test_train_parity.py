"""Training parity: bytepair.train_iter / train vs the slow minbpe oracle.

The oracle (``tests/reference/slow_bpe.py``) recounts every pair at every
merge, straight from the definition. Here the fast incremental trainer must
learn the identical merges (pair, id, token bytes, count) and report the same
``n_tokens`` after each merge, for every pre-tokenizer; a trained tokenizer
must encode like minbpe's ``encode``. Known values come from the issue and
from minbpe's ``aaabdaaabac`` (Wikipedia's BPE example).

The reference split for ``gpt2`` / ``cl100k_base`` / ``o200k_base`` is
tiktoken's own ``pat_str`` run by ``regex``; those cases skip where tiktoken or
regex is missing (Pyodide). ``"none"`` and the ASCII custom pattern (stdlib
``re``) run everywhere.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

import bytepair
from tests import corpora
from tests.hypothesis_profiles import examples
from tests.reference import tiktoken_pattern
from tests.reference.slow_bpe import SlowStep, slow_encode_merges, slow_train, slow_train_steps, split_chunks

try:  # not available inside Pyodide
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

# ---------------------------------------------------------------- patterns

#: A custom pattern with Unicode property classes (needs `regex` for the oracle).
CUSTOM_P = r"\p{L}+|\p{N}{1,2}| ?[^\s\p{L}\p{N}]+|\s+"
#: A custom ASCII-only pattern: the oracle can use stdlib `re` (so it runs in Pyodide too);
#: no `\s`, whose meaning differs between `re` and `regex` (U+001C..U+001F).
CUSTOM_ASCII = r"[A-Za-z]+|[0-9]+|[ \t\r\n]+|[^A-Za-z0-9 \t\r\n]+"

PATTERNS = {
    "none": "none",
    "gpt2": "gpt2",
    "cl100k_base": "cl100k_base",
    "o200k_base": "o200k_base",
    "custom-p": CUSTOM_P,
    "custom-ascii": CUSTOM_ASCII,
}


def reference_split(pattern_id: str):
    """The oracle's pre-tokenizer for a pattern id: None or a findall function.

    On CPython: tiktoken's ``pat_str`` (or the custom pattern) run by ``regex``.
    Where ``regex``/tiktoken are missing (Pyodide) the split falls back to
    bytepair's own pattern on the stdlib-``re`` back-end: the merge logic is
    still checked against the oracle there, and the split itself is proven
    equal to ``regex``'s on CPython (``test_patterns.py``, and the tiktoken
    parity of ``test_encode_parity.py``).
    """
    if pattern_id == "none":
        return None
    if pattern_id == "custom-ascii":
        return re.compile(CUSTOM_ASCII).findall
    try:
        import regex

        if pattern_id == "custom-p":
            return regex.compile(CUSTOM_P).findall
        return regex.compile(tiktoken_pattern(pattern_id)).findall
    except ImportError:
        from bytepair.split.pretokenize import compile_pattern, resolve_pattern

        return compile_pattern(resolve_pattern(PATTERNS[pattern_id]), backend="re").findall


# ---------------------------------------------------------------- corpora

ENGLISH = (
    "A tokenizer turns text into numbers. Byte pair encoding starts from single bytes and "
    "keeps merging the pair that occurs most often, so frequent words become single tokens "
    "while rare words are spelled from smaller pieces. The merges are learned in order; the "
    "order matters, because a later merge can only join tokens that earlier merges made. "
    "Isn't it neat? We'll see: they're learning, I'm testing, you've read 1,024 lines in 3.5s!\n"
)
ORDER_TEXT = (
    "the order is late and the rider is lost . " * 30
    + "where is my order ? the order was paid . " * 30
    + "আমার অর্ডার কোথায় ? " * 3
)


def _udhr_mix() -> str:
    return corpora.udhr_mix(("eng", "fra", "rus", "hin", "cmn_hans", "arb"), chars_each=700)


def _python() -> str:
    return corpora.python_source()[0].text()[:6000]


TRAIN_TEXTS = {
    "english": lambda: ENGLISH * 4,
    "order-example": lambda: ORDER_TEXT,
    "udhr-eng": lambda: corpora.udhr(["eng"])[0].text()[:4000],
    "udhr-mix": _udhr_mix,
    "python": _python,
    "a500": lambda: "a" * 500,
    "a7-spaced": lambda: ("a" * 7 + " ") * 60,
    "abab": lambda: "ab" * 300 + "ba" * 100,
    "aaab": lambda: "aaab" * 150 + " aaaa" * 40,
    "ties-pairs": lambda: "ab cd ef gh ij " * 8 + "ba dc fe " * 8,
    "ties-palindromes": lambda: "xyzzyx yxzzxy zyx xyz " * 6,
    "all-counts-equal": lambda: "".join(chr(c) for c in range(0x41, 0x41 + 58)),
    "all-counts-equal-unicode": lambda: "αβγδεζηθικλμνξοπρστυφχψω",
    "bengali": lambda: "আমার অর্ডার কোথায় ? " * 10,
    "whitespace": lambda: "\n".join(corpora.WHITESPACE_CASES.values()) * 3,
    "emoji-combining": lambda: (corpora.TEXT_CASES["emoji-zwj"] + corpora.TEXT_CASES["combining"]) * 4,
    "digits": lambda: "1234567890 " * 30 + "3.14159 2.71828 " * 10 + "١٢٣٤٥ " * 5,
    "contractions": lambda: (corpora.TEXT_CASES["contractions"] + " ") * 6,
}
N_MERGES = 120

#: Extra texts that a trained tokenizer encodes (besides its own training text).
ENCODE_PROBES = [
    "where is my order ?",
    "the rider is late",
    "আমার অর্ডার কোথায় ?",
    "Byte pair encoding, again: 'tis the merges' order that matters!! 42 x 1000000",
    corpora.WHITESPACE_CASES["ws-crlf"],
    corpora.TEXT_CASES["emoji-zwj"],
    "aaaaaaaaaaaaaaaaaaaaaaaaaaa bbbb aaab",
    "",
]


def _event_tuple(ev) -> tuple:
    return (ev.pair, ev.id, ev.token, ev.count, ev.n_tokens)


def _step_tuple(s: SlowStep) -> tuple:
    return (s.pair, s.new_id, s.token, s.count, s.n_tokens)


def assert_same_merges(events: list, steps: list[SlowStep], *, what: str) -> None:
    """Events vs oracle steps: same length and each (pair, id, token, count, n_tokens)."""
    got = [_event_tuple(e) for e in events]
    want = [_step_tuple(s) for s in steps]
    if got == want:
        return
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    raise AssertionError(
        f"{what}: merge {i} differs (got {len(got)} merges, oracle {len(want)})\n"
        "  fields: (pair, id, token, count, n_tokens)\n"
        f"  got    {got[i] if i < len(got) else '<none>'}\n  oracle {want[i] if i < len(want) else '<none>'}"
    )


# ---------------------------------------------------------------- known values

#: The worked example's first six merges (token, count), ``ORDER_TEXT`` with pattern "none": the
#: published values both the trainer and the oracle must give.
ORDER_FIRST_SIX = [(b"e ", 150), (b"er", 150), (b"der", 120), (b"der ", 120), (b"s ", 120), (b"th", 90)]


def test_known_values_aaabdaaabac():
    """minbpe's example (Wikipedia's BPE article text), 3 merges."""
    events = list(bytepair.train_iter("aaabdaaabac", 256 + 3, pattern="none"))
    assert [(e.pair, e.id) for e in events] == [((97, 97), 256), ((256, 97), 257), ((257, 98), 258)]
    assert [e.token for e in events] == [b"aa", b"aaa", b"aaab"]
    assert [e.count for e in events] == [4, 2, 2]  # "aaa" counts (a, a) twice: overlaps included
    assert [e.n_tokens for e in events] == [9, 7, 5]
    tok = bytepair.train("aaabdaaabac", 256 + 3, pattern="none")
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert tok.decode([258, 100, 258, 97, 99]) == "aaabdaaabac"


def test_known_values_order_example():
    """The issue's worked example: pattern "none", 60 merges."""
    events = list(bytepair.train_iter(ORDER_TEXT, 256 + 60, pattern="none"))
    assert len(events) == 60
    assert [(e.token, e.count) for e in events[:6]] == ORDER_FIRST_SIX
    assert [e.pair for e in events[:3]] == [(ord("e"), ord(" ")), (ord("e"), ord("r")), (ord("d"), 257)]
    tok = bytepair.train(ORDER_TEXT, 256 + 60, pattern="none")
    assert len(tok.encode("where is my order ?")) == 10
    assert len(tok.encode("আমার অর্ডার কোথায় ?")) == 28
    assert len(tok.encode("the rider is late")) == 6


def test_oracle_reproduces_known_values():
    """The oracle itself reproduces the published values (so it can judge)."""
    assert slow_train("aaabdaaabac", 3) == [((97, 97), 256, 4), ((256, 97), 257, 2), ((257, 98), 258, 2)]
    merges = {p: i for p, i, _ in slow_train("aaabdaaabac", 3)}
    assert slow_encode_merges([b"aaabdaaabac"], merges) == [258, 100, 258, 97, 99]
    steps = list(slow_train_steps(ORDER_TEXT, 60))
    assert [(s.token, s.count) for s in steps[:6]] == ORDER_FIRST_SIX
    merges = {s.pair: s.new_id for s in steps}
    assert [len(slow_encode_merges([q.encode()], merges)) for q in ENCODE_PROBES[:3]] == [10, 6, 28]


# ---------------------------------------------------------------- parity on corpora


@pytest.mark.parametrize("text_id", list(TRAIN_TEXTS))
@pytest.mark.parametrize("pattern_id", list(PATTERNS))
def test_train_matches_oracle(pattern_id, text_id):
    """Same merges, ids, token bytes, counts and n_tokens as the slow trainer;
    train() returns the same merges; the tokenizer encodes like minbpe."""
    split = reference_split(pattern_id)
    text = TRAIN_TEXTS[text_id]()
    pattern = PATTERNS[pattern_id]
    events = list(bytepair.train_iter(text, 256 + N_MERGES, pattern=pattern))
    steps = list(slow_train_steps(text, N_MERGES, split=split))
    assert_same_merges(events, steps, what=f"{pattern_id}/{text_id}")

    tok = bytepair.train(text, 256 + N_MERGES, pattern=pattern)
    merges = {s.pair: s.new_id for s in steps}
    assert list(tok.merges.items()) == list(merges.items())
    assert tok.n_vocab == 256 + len(steps)
    for probe in [text] + ENCODE_PROBES:
        want = slow_encode_merges((c.encode("utf-8") for c in split_chunks(probe, split)), merges)
        got = tok.encode_ordinary(probe)
        assert got == want, f"encode_ordinary({probe[:40]!r}...)"
        assert tok.decode(got) == probe
    if steps:  # encoding the training text reproduces the trainer's final sequence
        assert len(tok.encode_ordinary(text)) == steps[-1].n_tokens


def test_pattern_none_merges_cross_spaces():
    events = list(bytepair.train_iter("a b a b a b a b", 256 + 3, pattern="none"))
    assert [e.token for e in events] == [b"a ", b"a b", b"a b "]


def test_stops_early_without_error_when_no_pair_left():
    assert [e.token for e in bytepair.train_iter("ab", 256 + 100, pattern="none")] == [b"ab"]
    assert list(bytepair.train_iter("", 300, pattern="none")) == []
    assert list(bytepair.train_iter("a\nb\nc\nd", 300, pattern="gpt2")) == []  # every piece is one byte
    tok = bytepair.train("ab", 256 + 100, pattern="none")
    assert tok.n_vocab == 257
    assert list(bytepair.train_iter("abc", 256, pattern="none")) == []


def test_iteration_can_stop_early():
    it = bytepair.train_iter(ORDER_TEXT, 256 + 60, pattern="none")
    first = [next(it) for _ in range(3)]
    assert [e.token for e in first] == [b"e ", b"er", b"der"]
    it.close()


def test_long_single_piece_encoding_matches_oracle():
    """pattern "none": the whole text is one piece; a long one must still encode like minbpe."""
    steps = list(slow_train_steps(ORDER_TEXT, 60))
    merges = {s.pair: s.new_id for s in steps}
    tok = bytepair.Tokenizer.from_merges(merges, pattern="none")
    for text in (ORDER_TEXT * 40, "a" * 50_000, ("the order " * 3000)[:-1]):
        assert tok.encode_ordinary(text) == slow_encode_merges([text.encode("utf-8")], merges), text[:30]


def test_training_text_with_lone_surrogates_trains_on_tiktokens_replacement():
    """Lone surrogates are replaced by U+FFFD as encode() does (tiktoken's rule), not a crash."""
    text = "ab\ud800ab \udfffab" * 5
    fixed = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    events = list(bytepair.train_iter(text, 256 + 10, pattern="none"))
    assert_same_merges(events, list(slow_train_steps(fixed, 10)), what="surrogates")


# ---------------------------------------------------------------- min_frequency


@pytest.mark.parametrize("min_frequency", [1, 2, 3, 5, 31, 90, 121, 150, 151])
def test_min_frequency_stops_when_best_count_is_below(min_frequency):
    events = list(bytepair.train_iter(ORDER_TEXT, 256 + 200, pattern="none", min_frequency=min_frequency))
    steps = list(slow_train_steps(ORDER_TEXT, 200, min_frequency=min_frequency))
    assert_same_merges(events, steps, what=f"min_frequency={min_frequency}")
    assert all(e.count >= min_frequency for e in events)
    unlimited = list(slow_train_steps(ORDER_TEXT, 200))
    if len(steps) < len(unlimited):  # it stopped because the next best count is too small
        assert unlimited[len(steps)].count < min_frequency


def test_min_frequency_known_values():
    events = list(bytepair.train_iter("aaabdaaabac", 300, pattern="none", min_frequency=3))
    assert [(e.pair, e.count) for e in events] == [((97, 97), 4)]
    events = list(bytepair.train_iter("aaabdaaabac", 300, pattern="none", min_frequency=2))
    assert [e.id for e in events] == [256, 257, 258]


# ---------------------------------------------------------------- special tokens

EOT = "<|endoftext|>"
SPECIAL_TEXT = ("story one is short." + EOT) * 25 + ("another story." + EOT + EOT) * 20 + "tail text"


@pytest.mark.parametrize("pattern_id", ["none", "gpt2", "custom-ascii"])
def test_special_tokens_are_never_counted_nor_merged(pattern_id):
    split = reference_split(pattern_id)
    pattern = PATTERNS[pattern_id]
    n = 80
    events = list(bytepair.train_iter(SPECIAL_TEXT, 256 + n + 1, pattern=pattern, special_tokens=[EOT]))
    steps = list(slow_train_steps(SPECIAL_TEXT, n, split=split, special_tokens=[EOT]))
    assert_same_merges(events, steps, what=f"specials/{pattern_id}")
    # the test can fail: counting the special's characters would change the merges
    assert [s.pair for s in slow_train_steps(SPECIAL_TEXT, n, split=split)] != [s.pair for s in steps]
    assert not any(b"<|" in e.token or b"|>" in e.token for e in events)

    tok = bytepair.train(SPECIAL_TEXT, 256 + n + 1, pattern=pattern, special_tokens=[EOT])
    eot_id = 256 + len(steps)
    assert tok.special_tokens == {EOT: eot_id}
    assert tok.n_vocab == eot_id + 1
    merges = {s.pair: s.new_id for s in steps}
    text = "short story." + EOT + "tail" + EOT
    want = (
        slow_encode_merges([c.encode() for c in split_chunks("short story.", split)], merges)
        + [eot_id]
        + slow_encode_merges([c.encode() for c in split_chunks("tail", split)], merges)
        + [eot_id]
    )
    assert tok.encode(text, allowed_special="all") == want
    assert tok.decode(want) == text
    with pytest.raises(ValueError, match=re.escape(EOT)):
        tok.encode(text)
    plain = tok.encode(text, disallowed_special=())
    assert eot_id not in plain and tok.decode(plain) == text


def test_special_tokens_are_matched_longest_first_in_training():
    """With "<|ab" and "<|abc|>" both special, "<|abc|>" is cut out whole."""
    text = ("x<|abc|>y " * 30) + ("z<|ab " * 5)
    specials = ["<|ab", "<|abc|>"]
    events = list(bytepair.train_iter(text, 256 + 20 + 2, pattern="none", special_tokens=specials))
    steps = list(slow_train_steps(text, 20, special_tokens=specials))
    assert_same_merges(events, steps, what="longest-first")
    assert not any(b"c|>" in e.token for e in events)


# ---------------------------------------------------------------- normalization


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_normalization_trains_on_normalized_text(form):
    text = "Cafe\u0301 cafe\u0301 café ﬁne ﬁle ① ② Ⅻ x² " * 12
    events = list(bytepair.train_iter(text, 256 + 40, pattern="none", normalization=form))
    steps = list(slow_train_steps(unicodedata.normalize(form, text), 40))
    assert_same_merges(events, steps, what=form)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("normalization", ["XYZ", "nfkd", 1])
def test_unknown_normalization_is_valueerror(normalization):
    with pytest.raises((ValueError, TypeError)):
        list(bytepair.train_iter("hello", 300, pattern="none", normalization=normalization))


@pytest.mark.parametrize("vocab_size", [255, 0, -1, 100])
def test_vocab_size_below_256_is_valueerror(vocab_size):
    with pytest.raises(ValueError, match="256"):
        list(bytepair.train_iter("hello", vocab_size, pattern="none"))
    with pytest.raises(ValueError):
        bytepair.train("hello", vocab_size, pattern="none")


@pytest.mark.parametrize("vocab_size", [300.0, "300", None, [300]], ids=lambda v: type(v).__name__)
def test_vocab_size_not_int_is_typeerror(vocab_size):
    with pytest.raises(TypeError):
        list(bytepair.train_iter("hello", vocab_size, pattern="none"))
    with pytest.raises(TypeError):
        bytepair.train("hello", vocab_size, pattern="none")


@pytest.mark.parametrize("text", [b"hello", None, 123, ["hello"]], ids=lambda v: type(v).__name__)
def test_text_not_str_is_typeerror(text):
    with pytest.raises(TypeError):
        list(bytepair.train_iter(text, 300, pattern="none"))
    with pytest.raises(TypeError):
        bytepair.train(text, 300, pattern="none")


@pytest.mark.parametrize("pattern", ["(", "[a-", r"\p{NoSuchClass}+", "a{2,1}"])
def test_invalid_pattern_is_valueerror(pattern):
    with pytest.raises(ValueError):
        list(bytepair.train_iter("hello", 300, pattern=pattern))


# ---------------------------------------------------------------- Hypothesis

if given is not None:
    SMALL_TEXTS = st.one_of(
        st.text(st.sampled_from("aab  bc\n"), max_size=80),
        st.text(st.sampled_from("ab cé😀\u0301'sT1"), max_size=60),
        st.text(max_size=40),
    )

    @pytest.mark.parametrize("pattern_id", ["none", "gpt2", "o200k_base", "custom-ascii"])
    @settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=SMALL_TEXTS)
    def test_hypothesis_train_matches_oracle(pattern_id, text):
        split = reference_split(pattern_id)
        events = list(bytepair.train_iter(text, 256 + 20, pattern=PATTERNS[pattern_id]))
        steps = list(slow_train_steps(text, 20, split=split))
        assert_same_merges(events, steps, what=f"{pattern_id}/{text!r}")
        merges = {s.pair: s.new_id for s in steps}
        tok = bytepair.Tokenizer.from_merges(merges, pattern=PATTERNS[pattern_id])
        want = slow_encode_merges((c.encode() for c in split_chunks(text, split)), merges)
        assert tok.encode_ordinary(text) == want

else:  # pragma: no cover

    def test_hypothesis_train_matches_oracle():
        pytest.skip("hypothesis is not installed")
