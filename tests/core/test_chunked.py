"""bytepair.app.chunked.CountJob: a count in time-boxed steps equals the one-call count.

References: tiktoken (OpenAI encodings, built offline from the rank files), and, for the
kinds not divided (open models) or with normalization / lone surrogates, the tokenizer's own
encode, which the parity tests check against ``tokenizers`` / minbpe.
"""

from __future__ import annotations

import pytest

import bytepair
from bytepair.app import chunked, models
from tests import corpora

TEXT_CODES = ("eng", "arb", "cmn_hans", "hin", "rus", "jpn", "tha", "amh", "kor", "ell")


@pytest.fixture(scope="module")
def udhr_text() -> str:
    d = corpora.udhr_declarations()  # (skips without `npm ci`)
    text = "\n".join(d[c].text for c in TEXT_CODES if c in d)
    # whitespace runs, digits, contractions and an emoji family: the patterns' look-aheads at work
    return text + "\n\n\n   \t  It's 2026, 1234567 \r\n  👨\u200d👩\u200d👧  end  "


def _stepped(job: chunked.CountJob) -> tuple[int, int]:
    """Run ``job`` in the smallest steps (0 ms: one batch each); (count, steps)."""
    steps = 0
    while not job.step(0):
        steps += 1
        assert 0 < job.position <= job.length
    return job.count, steps + 1


@pytest.mark.parametrize("name", ["gpt2", "p50k_base", "cl100k_base", "o200k_base"])
def test_a_stepped_count_equals_tiktokens(name, udhr_text):
    tiktoken = pytest.importorskip("tiktoken")  # noqa: F841
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    ref = tiktoken_encoding(name, registry.load_ranks(name))
    text = udhr_text * 2
    job = chunked.CountJob(bytepair.get_encoding(name), text)
    assert job.stepped
    count, steps = _stepped(job)
    assert steps > 3  # divided into several pieces ranges
    assert count == len(ref.encode_ordinary(text))
    assert job.done and job.position == job.length


def test_trained_normalized_and_surrogates_count_as_encode_ordinary(udhr_text):
    text = udhr_text[:20000] + "\ud800 lone surrogate, e\u0301 and ﬁ ligature"
    for normalization in (None, "NFKC"):
        tok = bytepair.train(udhr_text[:30000], 400, pattern="cl100k_base", normalization=normalization)
        count, steps = _stepped(chunked.CountJob(tok, text))
        assert steps > 1
        assert count == len(tok.encode_ordinary(text)) == models.count_tokens(tok, text)


def test_a_tokenizer_without_pattern_counts_in_one_step():
    tok = bytepair.train("abababab cdcdcd " * 50, 260, pattern="none")
    job = chunked.CountJob(tok, "abab cdcd " * 100)
    assert not job.stepped
    assert job.step(0) is True and job.count == len(tok.encode_ordinary("abab cdcd " * 100))
    assert chunked.CountJob(tok, "").run() == 0


def test_bad_text_type():
    with pytest.raises(TypeError):
        chunked.CountJob(bytepair.get_encoding("gpt2"), b"bytes")


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("units", ["chars", "utf16"])
def test_first_spans_are_the_whole_texts_first_spans(name, units, udhr_text):
    """The ids against tiktoken's; the spans against encode_with_spans over the whole text."""
    pytest.importorskip("tiktoken")
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    ref = tiktoken_encoding(name, registry.load_ranks(name))
    tok = bytepair.get_encoding(name)
    text = udhr_text + " <|endoftext|> as text"
    whole = models.view_spans(tok, text, units=units)
    assert [s.id for s in whole] == ref.encode_ordinary(text)
    for limit in (0, 1, 7, 1000, len(whole), len(whole) + 5):
        got, covered = chunked.first_spans(tok, text, limit, units=units)
        assert got == whole[:limit], limit
        chars = [s.end for s in models.view_spans(tok, text, units="chars")[:limit]]
        assert covered == max(chars, default=0)


def test_first_spans_declines_where_it_would_not_be_exact():
    assert chunked.first_spans(bytepair.train("ab ab " * 20, 258, pattern="none"), "abab", 5) is None
    nfkc = bytepair.train("ﬁne ﬁne " * 20, 260, pattern="cl100k_base", normalization="NFKC")
    assert chunked.first_spans(nfkc, "ﬁne", 5) is None  # NFKC changes it: spans map back over the text
    assert chunked.first_spans(nfkc, "fine", 5) == (models.view_spans(nfkc, "fine")[:5], 4)
    assert chunked.first_spans(bytepair.get_encoding("gpt2"), "a\ud800b", 5) is None
    with pytest.raises(ValueError):
        chunked.first_spans(bytepair.get_encoding("gpt2"), "ab", -1)
