"""Vocabulary categories against the figures Land & Bartolo publish (issue 23, "Done when").

Reference: Land, Bartolo (2024), "Fishing for Magikarp: Automatically Detecting
Under-trained Tokens in Large Language Models" (https://arxiv.org/abs/2405.05417);
their repository cohere-ai/magikarp publishes one report per model,
``results/reports/<model>.md``. Its "Model info" list gives, per tokenizer:

* "Number of single byte tokens: N" - tokens that stand for one byte
  (``TokenizerAnalyzer.token_byte_value`` in ``magikarp/tokenization.py``);
* "Number of non-single-byte UTF-fragment tokens: N" - tokens of more than one
  byte in category ``UNDECODEABLE`` (their decoding holds U+FFFD).

How the definitions compare (and what is tested):

* Our ``partial_utf8`` (``bytepair.report.vocab``: the token's bytes are not
  valid UTF-8 on their own) counts the 128 single bytes 0x80-0xFF too; the
  reports count single bytes apart. So the comparable figure is our
  ``partial_utf8`` tokens longer than one byte, which must equal the report's
  UTF-fragment count, and our one-byte ordinary tokens, which must equal its
  single byte tokens.
* Unreachable tokens are NOT compared: the reports' "non-single-byte
  unreachable tokens" include special and added tokens (Qwen3-32B: 1906, the
  same number as its special tokens; ``categorize_token`` re-encodes through
  transformers with a prefix character and ``add_special_tokens=False``),
  while ours counts only ordinary tokens re-encoded by ``encode_ordinary``.
  The unreachable category is tested against tiktoken and tokenizers in
  tests/core/test_report.py instead.

Models without a report of their own are compared through a report of the same
vocabulary: o200k_base through gpt-oss-20b (o200k_harmony = o200k_base's
199,998 ordinary tokens plus special tokens; the shipped gpt-oss model has the same
ordinary tokens, so it is not loaded again here), cl100k_base through OLMo-2-1124-13B
(its tokenizer, vocab size 100,278, is cl100k_base's vocabulary plus special
tokens), Llama 3 through Meta-Llama-3.1-70B (same 128,000 text tokens),
DeepSeek V3 through DeepSeek-R1 (the same tokenizer). Gemma 3 has no report there.
"""

from __future__ import annotations

import pytest

import bytepair
from bytepair.report import vocab as report_vocab

#: (our tokenizer, report file in cohere-ai/magikarp, single byte tokens, non-single-byte UTF-fragment tokens)
#: - the two figures copied from the report's "Model info" section.
PUBLISHED = [
    ("gpt2", "results/reports/openai_community_gpt2.md", 256, 216),
    ("cl100k_base", "results/reports/allenai_OLMo_2_1124_13B.md", 256, 645),
    ("o200k_base", "results/reports/openai_gpt_oss_20b.md", 256, 1434),
    ("hf:llama3_1", "results/reports/meta_llama_Meta_Llama_3_1_70B.md", 256, 1224),
    ("hf:qwen3", "results/reports/Qwen_Qwen3_32B.md", 256, 1320),
    ("hf:deepseek_v3", "results/reports/deepseek_ai_DeepSeek_R1.md", 256, 1342),
    ("tekken:240718", "results/reports/mistralai_Mistral_Nemo_Base_2407.md", 256, 1307),
]


def _load(name: str):
    from tests import hf_models

    if name.startswith("hf:"):
        return hf_models.ours(name.removeprefix("hf:"))
    if name.startswith("tekken:"):
        return bytepair.from_tekken(hf_models.tekken_path(name.removeprefix("tekken:")).read_bytes())
    return bytepair.get_encoding(name)


@pytest.mark.parametrize(("name", "source", "single", "fragments"), PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_partial_utf8_equals_magikarp_report(name, source, single, fragments):
    vocab = report_vocab.ordinary_ids(_load(name))
    one_byte = [i for i, b in vocab.items() if len(b) == 1]
    partial = report_vocab.partial_utf8_ids(vocab)  # vocab_report's partial_utf8
    longer_partial = [i for i in partial if len(vocab[i]) > 1]
    assert (len(one_byte), len(longer_partial)) == (single, fragments), source
    # the single bytes that are not UTF-8 alone are exactly 0x80-0xFF: the rest of partial_utf8
    assert sorted(vocab[i] for i in partial if len(vocab[i]) == 1) == [bytes([b]) for b in range(0x80, 0x100)]
