"""Small synthetic ``tokenizer.json`` files, one component or option at a time, against ``tokenizers``.

Each file is built with ``tokenizers``' own Python API (``models.BPE`` trained
by ``trainers.BpeTrainer``, then ``normalizers``, ``pre_tokenizers``,
``processors``, ``decoders``, ``AddedToken``) and serialized by it
(``Tokenizer.to_str()``); bytepair loads that JSON and must give the ids and
decoded text ``tokenizers`` gives for the same file. Unsupported components
must raise ``TokenizerFileError`` naming the component and its JSON path.
"""

from __future__ import annotations

import copy
import functools
import json

import pytest

tk = pytest.importorskip("tokenizers")

from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import (
    AddedToken,
    Regex,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

import bytepair
from bytepair.errors import TokenizerFileError
from tests.hypothesis_profiles import examples

CORPUS = [
    "The quick brown fox jumps over the lazy dog. 1234567 don't won't I'M",
    "Naïve café, façade, Ĳssel, ﬁne ﬂour; ÀÉÎÕÜ àéîõü ß ẞ Σίσυφος ΣΑΣ",
    "日本語のテキスト 中文文本 한국어 텍스트 مرحبا بالعالم שלום עולם",
    "def f(x):\n\treturn x ** 2  # comment\n\n\nclass A:  pass\r\n",
    "emoji 😀🎉👩‍👩‍👧 ½ ² ١٢٣ Ⅻ ... !!! ??? --- (a) [b] {c} <d>",
] * 3

TEXTS = CORPUS[:5] + [
    "",
    " ",
    "  ",
    "a",
    "hello",
    " hello",
    "hello ",
    "  leading and trailing  ",
    "x\n\ny",
    "\t\r\n",
    "Hello <mask> world<mask>x <mask>",
    "[CLS] a [SEP] b",
    "<s>start</s>",
    " <s> padded </s> ",
    "unseen: ǅ ᾈ 𝔘𝔫𝔦 𓀀 \u0378",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "The quick brown fox " * 20,
    "e\u0301 n\u0303 \u1100\u1161\u11a8 ﬁ",
    "word_with_underscores and-dashes and.dots",
    "123 4567 89.0 1,000",
    "mask<mask>mask",
]


def _train(pre, *, byte_level=False, vocab_size=400, **bpe_kwargs) -> dict:
    tok = tk.Tokenizer(models.BPE(**bpe_kwargs))
    tok.pre_tokenizer = pre
    alphabet = pre_tokenizers.ByteLevel.alphabet() if byte_level else []
    special = [] if byte_level else ["<unk>"]
    affixes = {k: bpe_kwargs[k] for k in ("continuing_subword_prefix", "end_of_word_suffix") if k in bpe_kwargs}
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False, initial_alphabet=alphabet, special_tokens=special, **affixes
    )
    tok.train_from_iterator(CORPUS, trainer)
    return json.loads(tok.to_str())


@functools.cache
def _base(kind: str) -> str:
    if kind == "byte":
        return json.dumps(_train(pre_tokenizers.ByteLevel(add_prefix_space=False), byte_level=True))
    if kind == "meta":
        return json.dumps(_train(pre_tokenizers.Metaspace(), unk_token="<unk>"))
    if kind == "ws":
        return json.dumps(_train(pre_tokenizers.Whitespace(), unk_token="<unk>"))
    if kind == "affix":
        return json.dumps(
            _train(
                pre_tokenizers.Whitespace(),
                unk_token="<unk>",
                continuing_subword_prefix="##",
                end_of_word_suffix="</w>",
            )
        )
    raise KeyError(kind)


def _component(obj) -> dict:
    """A tokenizers component object -> its JSON (via a throwaway tokenizer)."""
    t = tk.Tokenizer(models.BPE())
    for attr in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
        try:
            setattr(t, attr, obj)
        except TypeError:
            continue
        return json.loads(t.to_str())[attr]
    raise TypeError(obj)


def _make(kind="byte", *, normalizer=None, pre=None, post=None, decoder=None, model=None, added=None) -> dict:
    d = json.loads(_base(kind))
    if normalizer is not None:
        d["normalizer"] = _component(normalizer)
    if pre is not None:
        d["pre_tokenizer"] = _component(pre)
    if post is not None:
        d["post_processor"] = _component(post)
    if decoder is not None:
        d["decoder"] = _component(decoder)
    if model:
        d["model"].update(model)
    if added:
        t = tk.Tokenizer.from_str(json.dumps(d))
        t.add_tokens([a for a in added if not a.special])
        t.add_special_tokens([a for a in added if a.special])
        d = json.loads(t.to_str())
    return d


def _compare(d: dict, texts=TEXTS) -> None:
    s = json.dumps(d)
    ref = tk.Tokenizer.from_str(s)
    ours = bytepair.from_tokenizer_json(s)
    for text in texts:
        for add in (True, False):
            assert ours.encode(text, add_special_tokens=add) == ref.encode(text, add_special_tokens=add).ids, (
                text,
                add,
            )
        ids = ref.encode(text).ids
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == ref.decode(ids, skip_special_tokens=skip), (text, skip)
        spans = ours.encode_with_spans(text)
        assert [s.id for s in spans] == ref.encode(text, add_special_tokens=False).ids
        assert all(0 <= sp.start <= sp.end <= len(text) for sp in spans)


# ---------------------------------------------------------------- the model
def test_byte_level_bpe():
    _compare(_make("byte", decoder=decoders.ByteLevel()))


def test_merges_in_both_spellings():
    d = _make("byte", decoder=decoders.ByteLevel())
    pairs = d["model"]["merges"]
    d["model"]["merges"] = [" ".join(p) if isinstance(p, list) else p for p in pairs]
    _compare(d)
    d["model"]["merges"] = [p.split(" ") if isinstance(p, str) else p for p in d["model"]["merges"]]
    _compare(d)


@pytest.mark.parametrize("ignore_merges", [False, True])
def test_ignore_merges(ignore_merges):
    d = _make("byte", decoder=decoders.ByteLevel(), model={"ignore_merges": ignore_merges})
    # a token reachable only as a whole word, not by merges: ignore_merges finds it
    d["model"]["vocab"]["Ġquickbrown"] = len(d["model"]["vocab"])
    _compare(d, TEXTS + [" quickbrown", "quickbrown fox"])


@pytest.mark.parametrize("fuse_unk", [False, True])
def test_unk_token(fuse_unk):
    _compare(_make("meta", decoder=decoders.Metaspace(), model={"fuse_unk": fuse_unk}))


def test_no_unk_drops_unknown_characters():
    _compare(_make("meta", decoder=decoders.Metaspace(), model={"unk_token": None}))


def test_byte_fallback():
    d = _make(
        "meta",
        decoder=decoders.Sequence(
            [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
        ),
    )
    vocab = d["model"]["vocab"]
    for b in range(256):
        vocab.setdefault(f"<0x{b:02X}>", len(vocab))
    d["model"]["byte_fallback"] = True
    _compare(d)
    d["model"]["unk_token"] = None
    _compare(d)


def test_continuing_subword_prefix_and_end_of_word_suffix():
    d = _make("affix")
    assert d["model"]["continuing_subword_prefix"] == "##" and d["model"]["end_of_word_suffix"] == "</w>"
    _compare(d)


# ---------------------------------------------------------------- normalizers
@pytest.mark.parametrize(
    "norm",
    [
        normalizers.NFC(),
        normalizers.NFD(),
        normalizers.NFKC(),
        normalizers.NFKD(),
        normalizers.Lowercase(),
        normalizers.Strip(),
        normalizers.Strip(left=True, right=False),
        normalizers.Strip(left=False, right=True),
        normalizers.StripAccents(),
        normalizers.Replace("o", "0"),
        normalizers.Replace(Regex(r"\s+"), " "),
        normalizers.Replace(" ", "▁"),
        normalizers.Prepend("▁"),
        normalizers.Sequence([normalizers.NFKD(), normalizers.StripAccents(), normalizers.Lowercase()]),
        normalizers.Sequence([]),
    ],
    ids=lambda n: json.dumps(_component(n))[:60],
)
def test_normalizers(norm):
    _compare(_make("byte", normalizer=norm, decoder=decoders.ByteLevel()))


# ------------------------------------------------------------ pre-tokenizers
BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]


@pytest.mark.parametrize("behavior", BEHAVIORS)
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize(
    "pattern", [Regex(r"\p{N}+|[!?.]"), Regex(r"\s"), " ", "o"], ids=["regex-num", "regex-space", "str-space", "str-o"]
)
def test_split(pattern, behavior, invert):
    pre = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(pattern, behavior, invert=invert),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    _compare(_make("byte", pre=pre, decoder=decoders.ByteLevel()))


@pytest.mark.parametrize("add_prefix_space", [False, True])
@pytest.mark.parametrize("use_regex", [False, True])
def test_byte_level_pre_tokenizer(add_prefix_space, use_regex):
    pre = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space, use_regex=use_regex)
    _compare(_make("byte", pre=pre, decoder=decoders.ByteLevel(), post=processors.ByteLevel(trim_offsets=True)))


def test_byte_level_after_split_prefixes_each_piece():
    pre = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=True)]
    )
    _compare(_make("byte", pre=pre, decoder=decoders.ByteLevel()))


@pytest.mark.parametrize("scheme", ["always", "first", "never"])
@pytest.mark.parametrize("split", [True, False])
def test_metaspace(scheme, split):
    pre = pre_tokenizers.Metaspace(prepend_scheme=scheme, split=split)
    _compare(_make("meta", pre=pre, decoder=decoders.Metaspace(prepend_scheme=scheme, split=split)))
    # "first" after another pre-tokenizer: only the piece at offset 0 gets the prefix
    seq = pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre])
    _compare(_make("meta", pre=seq, decoder=decoders.Metaspace(prepend_scheme=scheme, split=split)))


@pytest.mark.parametrize(
    "norm",
    [
        normalizers.Strip(),
        normalizers.Replace(" ", ""),
        normalizers.Sequence([normalizers.Strip(), normalizers.Prepend("x")]),
        normalizers.Prepend("▁"),
    ],
    ids=["strip", "drop-spaces", "strip-prepend", "prepend"],
)
def test_metaspace_first_behind_a_normalizer(norm):
    # "first" means: the piece starts at offset 0 of the original text (tokenizers' offsets_original),
    # which a normalizer that strips or prepends changes.
    texts = TEXTS + ["  hello world", " <s> x", "   ", "\thi"]
    _compare(
        _make(
            "meta",
            normalizer=norm,
            pre=pre_tokenizers.Metaspace(prepend_scheme="first"),
            decoder=decoders.Metaspace(prepend_scheme="first"),
        ),
        texts,
    )
    seq = pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre_tokenizers.Metaspace(prepend_scheme="first")])
    _compare(_make("meta", normalizer=norm, pre=seq, decoder=decoders.Metaspace(prepend_scheme="first")), texts)


@pytest.mark.parametrize(
    "pre",
    [
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.Digits(individual_digits=False),
        pre_tokenizers.Punctuation(),
        pre_tokenizers.Punctuation("removed"),
        pre_tokenizers.Punctuation("contiguous"),
        pre_tokenizers.Whitespace(),
        pre_tokenizers.WhitespaceSplit(),
        pre_tokenizers.Sequence(
            [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation(), pre_tokenizers.Digits(True)]
        ),
    ],
    ids=lambda p: json.dumps(_component(p))[:60],
)
def test_splitting_pre_tokenizers(pre):
    _compare(_make("ws", pre=pre))
    _compare(_make("affix", pre=pre))


# ----------------------------------------------------------- post-processors
def test_post_processors():
    d = _make("ws", added=[AddedToken("[CLS]", special=True), AddedToken("[SEP]", special=True)])
    ids = {a["content"]: a["id"] for a in d["added_tokens"]}
    for post in (
        processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])],
        ),
        processors.BertProcessing(("[SEP]", ids["[SEP]"]), ("[CLS]", ids["[CLS]"])),
        processors.RobertaProcessing(("[SEP]", ids["[SEP]"]), ("[CLS]", ids["[CLS]"])),
        processors.Sequence(
            [
                processors.ByteLevel(),
                processors.TemplateProcessing(single="[CLS] $A", special_tokens=[("[CLS]", ids["[CLS]"])]),
            ]
        ),
    ):
        d2 = copy.deepcopy(d)
        d2["post_processor"] = _component(post)
        _compare(d2)


# ------------------------------------------------------------------ decoders
@pytest.mark.parametrize(
    "dec",
    [
        decoders.Fuse(),
        decoders.Strip(" ", 1, 1),
        decoders.Strip("a", 0, 1),
        decoders.Strip("e", 2, 0),
        decoders.Replace("▁", " "),
        decoders.Replace(Regex("[aeiou]"), "*"),
        decoders.Metaspace(),
        decoders.Metaspace(prepend_scheme="never"),
        decoders.ByteFallback(),
        decoders.Sequence(
            [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
        ),
    ],
    ids=lambda x: json.dumps(_component(x))[:60],
)
def test_decoders(dec):
    _compare(_make("meta", decoder=dec))


def test_no_decoder_joins_with_spaces():
    _compare(_make("ws"))


# --------------------------------------------------------------- added tokens
@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize(
    "flags",
    [
        {},
        {"lstrip": True},
        {"rstrip": True},
        {"lstrip": True, "rstrip": True},
        {"single_word": True},
        {"normalized": True},
        {"normalized": False},
    ],
)
def test_added_tokens(special, flags):
    added = [
        AddedToken("<mask>", special=special, **flags),
        AddedToken("mask", special=special, **flags),
        AddedToken("<s>", special=True),
        AddedToken("</s>", special=True),
    ]
    _compare(_make("meta", normalizer=normalizers.Lowercase(), decoder=decoders.Metaspace(), added=added))
    _compare(
        _make(
            "byte",
            normalizer=normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
            decoder=decoders.ByteLevel(),
            added=added,
        )
    )


@settings(max_examples=examples(80), deadline=None)
@given(
    text=st.lists(
        st.sampled_from(list("ab o1.!<>/ms\n\tÀé日😀ﬁ") + ["<mask>", "mask", "<s>", "</s>", "  "]), max_size=30
    ).map("".join)
)
def test_hypothesis_added_tokens_and_normalizer(text):
    _compare(_hyp_tok(), [text])


@functools.cache
def _hyp_tok():
    """The tokenizer of the test above, built once (not once per example)."""
    added = [
        AddedToken("<mask>", lstrip=True, special=True),
        AddedToken("mask", single_word=True, normalized=True),
        AddedToken("<s>", special=True, rstrip=True),
        AddedToken("</s>", special=True),
    ]
    return _make(
        "meta",
        normalizer=normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
        pre=pre_tokenizers.Metaspace(prepend_scheme="first"),
        decoder=decoders.Metaspace(prepend_scheme="first"),
        added=added,
    )


# ----------------------------------------------------------- unsupported parts
def _raises(d: dict, where: str, component: str) -> None:
    with pytest.raises(TokenizerFileError) as e:
        bytepair.from_tokenizer_json(json.dumps(d))
    assert e.value.where == where, e.value.to_dict()
    assert e.value.component == component, e.value.to_dict()
    assert e.value.to_dict()["type"] == "tokenizer_file"


@pytest.mark.parametrize(
    "model",
    [
        models.WordPiece({"a": 0, "[UNK]": 1}),
        models.Unigram([("a", -1.0), ("<unk>", -2.0)], 1),
        models.WordLevel({"a": 0, "[UNK]": 1}, "[UNK]"),
    ],
    ids=["WordPiece", "Unigram", "WordLevel"],
)
def test_other_models_raise(model):
    d = json.loads(tk.Tokenizer(model).to_str())
    _raises(d, "model.type", d["model"]["type"])


def test_dropout_raises():
    d = _make("byte", model={"dropout": 0.1})
    _raises(d, "model.dropout", "BPE")


def test_unknown_components_raise_with_their_path():
    d = _make(
        "byte",
        pre=pre_tokenizers.Sequence(
            [pre_tokenizers.Digits(), pre_tokenizers.ByteLevel(), pre_tokenizers.UnicodeScripts()]
        ),
    )
    _raises(d, "pre_tokenizer.pretokenizers[2]", "UnicodeScripts")
    _raises(
        _make("byte", normalizer=normalizers.Sequence([normalizers.NFC(), normalizers.BertNormalizer()])),
        "normalizer.normalizers[1]",
        "BertNormalizer",
    )
    _raises(_make("byte", pre=pre_tokenizers.BertPreTokenizer()), "pre_tokenizer", "BertPreTokenizer")
    _raises(
        _make("byte", decoder=decoders.Sequence([decoders.ByteLevel(), decoders.WordPiece()])),
        "decoder.decoders[1]",
        "WordPiece",
    )
    _raises(_make("byte", decoder=decoders.CTC()), "decoder", "CTC")
    d = _make("byte")
    d["pre_tokenizer"] = {
        "type": "Split",
        "pattern": {"Regex": "a"},
        "behavior": "Isolated",
        "invert": False,
        "new_option": 1,
    }
    _raises(d, "pre_tokenizer.new_option", "Split")


def test_malformed_input_raises():
    for bad in ("{", b"\xff\xfe", "[1, 2]", '{"model": {"type": "BPE", "vocab": [], "merges": []}}'):
        with pytest.raises(TokenizerFileError):
            bytepair.from_tokenizer_json(bad)
    with pytest.raises(TokenizerFileError) as e:
        bytepair.from_tokenizer_json("/no/such/tokenizer.json")
    assert "cannot read" in str(e.value)


def test_describe_and_token_views():
    d = _make("byte", decoder=decoders.ByteLevel(), added=[AddedToken("<s>", special=True)])
    tok = bytepair.from_tokenizer_json(
        json.dumps(d), config={"bos_token": "<s>", "chat_template": [{"name": "default", "template": "x"}]}
    )
    info = tok.describe()
    json.dumps(info)
    assert info["model"] == "BPE" and info["byte_level"] and info["bos_token"] == "<s>"
    assert tok.chat_template == {"default": "x"}
    sp = tok.encode_with_spans(" hello")
    ref = tk.Tokenizer.from_str(json.dumps(d))
    assert [tok.token_string(s.id) for s in sp] == ref.encode(" hello", add_special_tokens=False).tokens
    assert b"".join(s.token for s in sp) == b" hello"
    assert tok.token_bytes(tok.special_tokens["<s>"]) == b"<s>"


def test_compact_form_round_trip_and_damage():
    from bytepair.hf.compact import from_compact, to_compact

    for d in (
        _make("affix"),
        _make("byte", decoder=decoders.ByteLevel(), added=[AddedToken("<s>", special=True, lstrip=True)]),
    ):
        s = json.dumps(d)
        ref = tk.Tokenizer.from_str(s)
        tok = from_compact(to_compact(bytepair.from_tokenizer_json(s)))
        for text in TEXTS:
            assert tok.encode(text) == ref.encode(text).ids
    blob = to_compact(bytepair.from_tokenizer_json(json.dumps(_make("ws"))))
    from bytepair.formats.vocab_file import dump_vocab

    for bad in (
        b"{}",
        blob[:40],
        blob[:-1],
        blob.replace(b"BPVOCAB\x03", b"BPVOCAB\x09"),  # another format version
        dump_vocab({b"a": 0}),  # the same format, but a rank vocabulary
    ):
        with pytest.raises(TokenizerFileError):
            from_compact(bad)


# ------------------------------------------------- random combinations
_NORMS = [
    None,
    normalizers.NFC(),
    normalizers.NFKD(),
    normalizers.Lowercase(),
    normalizers.Strip(),
    normalizers.Strip(left=False),
    normalizers.StripAccents(),
    normalizers.Replace(" ", "▁"),
    normalizers.Prepend("▁"),
    normalizers.Replace(Regex(r"\s+"), " "),
    normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
    normalizers.Sequence([normalizers.Strip(), normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")]),
]
_RANDOM_ALPHABET = list("ab o1.!<>/ms\n\t  ÀéE\u0301日😀ﬁİΣ_-") + [
    "<mask>",
    "mask",
    "<s>",
    "</s>",
    "   ",
    "▁",
    "Hello",
    "world",
    "12345",
]


@pytest.mark.parametrize("seed", range(8))
def test_random_component_combinations(seed):
    """Random normalizer x pre-tokenizer chain x added-token flags x model options, random texts."""
    import random

    rnd = random.Random(seed)
    beh = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
    for _ in range(6):
        kind = rnd.choice(["byte", "meta", "ws", "affix"])
        pres = [
            rnd.choice(
                [
                    pre_tokenizers.Whitespace(),
                    pre_tokenizers.WhitespaceSplit(),
                    pre_tokenizers.Punctuation(rnd.choice(beh)),
                    pre_tokenizers.Digits(rnd.random() < 0.5),
                    pre_tokenizers.Split(
                        rnd.choice([" ", "a", Regex(r"\s+"), Regex("[aeiou]"), Regex(r"\p{P}+")]),
                        rnd.choice(beh),
                        invert=rnd.random() < 0.3,
                    ),
                    pre_tokenizers.Metaspace(
                        prepend_scheme=rnd.choice(["always", "first", "never"]), split=rnd.random() < 0.5
                    )
                    if kind != "byte"
                    else pre_tokenizers.ByteLevel(add_prefix_space=rnd.random() < 0.5, use_regex=rnd.random() < 0.5),
                ]
            )
            for _ in range(rnd.randint(1, 3))
        ]
        if kind == "byte":
            pres.append(pre_tokenizers.ByteLevel(add_prefix_space=rnd.random() < 0.3, use_regex=False))
            dec = decoders.ByteLevel()
        else:
            dec = rnd.choice(
                [
                    decoders.Metaspace(),
                    decoders.Sequence([decoders.Replace("▁", " "), decoders.Fuse(), decoders.Strip(" ", 1, 0)]),
                    None,
                ]
            )
        added = [
            AddedToken(
                c,
                special=rnd.random() < 0.5,
                lstrip=rnd.random() < 0.3,
                rstrip=rnd.random() < 0.3,
                single_word=rnd.random() < 0.3,
                normalized=rnd.random() < 0.5,
            )
            for c in ("<mask>", "mask", "<s>", "</s>")
            if rnd.random() < 0.6
        ]
        d = _make(
            kind, normalizer=rnd.choice(_NORMS), pre=pre_tokenizers.Sequence(pres), decoder=dec, added=added or None
        )
        if kind == "meta" and rnd.random() < 0.5:
            vocab = d["model"]["vocab"]
            top = max([*vocab.values(), *(a["id"] for a in d["added_tokens"])]) + 1
            for b in range(256):
                vocab.setdefault(f"<0x{b:02X}>", top + b)
            d["model"]["byte_fallback"] = True
            d["model"]["unk_token"] = rnd.choice([None, "<unk>"])
        d["model"]["ignore_merges"] = rnd.random() < 0.3
        texts = ["".join(rnd.choice(_RANDOM_ALPHABET) for _ in range(rnd.randint(0, 25))) for _ in range(12)]
        _compare(d, texts)


# ------------------------------------- merges naming missing tokens; dropped characters
@pytest.mark.parametrize("which", ["left", "right", "result"])
@pytest.mark.parametrize("spelling", ["string", "pair"])
def test_a_merge_naming_a_missing_token_is_refused_at_load_as_tokenizers_does(which, spelling):
    d = _make("byte", decoder=decoders.ByteLevel())
    merges = d["model"]["merges"]
    i = len(merges) // 2
    a, b = merges[i].split(" ") if isinstance(merges[i], str) else merges[i]
    missing = {"left": a, "right": b, "result": a + b}[which]
    del d["model"]["vocab"][missing]
    d["model"]["merges"] = [(" ".join(m) if isinstance(m, list) else m) for m in merges]
    if spelling == "pair":
        d["model"]["merges"] = [m.split(" ") for m in d["model"]["merges"]]
    s = json.dumps(d)
    with pytest.raises(Exception) as ref:  # the reference refuses the file at load
        tk.Tokenizer.from_str(s)
    assert missing in str(ref.value), ref.value
    first_bad = next(
        k
        for k, m in enumerate(d["model"]["merges"])
        for x, y in [m.split(" ") if isinstance(m, str) else m]
        if missing in (x, y, x + y)
    )
    with pytest.raises(TokenizerFileError) as e:
        bytepair.from_tokenizer_json(s)
    assert e.value.where == f"model.merges[{first_bad}]", e.value.to_dict()
    assert repr(missing) in str(e.value)
    assert e.value.to_dict()["type"] == "tokenizer_file"


def test_dropped_characters_are_the_ones_tokenizers_gives_no_token():
    d = _make("ws", model={"unk_token": None})
    s = json.dumps(d)
    ref = tk.Tokenizer.from_str(s)
    ours = bytepair.from_tokenizer_json(s)
    seen = 0
    for text in TEXTS + ["abc 𓀀 x ǅ", "ǅǅ", "𝔘 and 日本"]:
        assert ours.encode(text, add_special_tokens=False) == ref.encode(text, add_special_tokens=False).ids
        # no normalizer, no subword affixes: a character is dropped where tokenizers gives
        # it, alone, no token (its offsets cannot tell: they shift left past a dropped one)
        want = [(k, k + 1) for k, ch in enumerate(text) if not ch.isspace() and not ref.encode(ch).ids]
        seen += len(want)
        assert ours.dropped_characters(text) == want, text
    assert seen >= 10  # the texts do have characters this vocabulary lacks
    assert ours.dropped_characters("a𓀀b", units="utf16") == [(1, 3)]
    assert bytepair.from_tokenizer_json(json.dumps(_make("meta"))).dropped_characters("𓀀") == []  # has <unk>
