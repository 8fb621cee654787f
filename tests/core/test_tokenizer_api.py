"""The Tokenizer API around the core: JSON and .tiktoken files, special tokens,
merges order, n_vocab, streaming decoding.

References: the slow oracle (merges, vocabulary bytes), an independent
``.tiktoken`` parser written here from the format's definition (``base64(token)
rank`` per line), tiktoken's own loader and expected file hashes where
installed, and Python's incremental UTF-8 decoder for streaming.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import json

import pytest

import bytepair
from tests import corpora
from tests.reference import TIKTOKEN_NAMES, tiktoken_constructor
from tests.reference.slow_bpe import merges_vocab, slow_encode_merges, slow_train_steps, split_chunks

EOT = "<|endoftext|>"
TRAIN_TEXT = (
    "the order is late and the rider is lost . " * 20
    + "where is my order ? the order was paid . " * 20
    + ("Byte pair encoding " + EOT + " merges pairs; ") * 10
    + "আমার অর্ডার কোথায় ? " * 3
    + "Ünïcödé café 😀 1234567 'll 're\r\n\t  " * 3
)
PROBES = [
    "where is my order ?",
    "the rider is late" + EOT + "again",
    "Byte pair encoding " + EOT + EOT,
    "আমার অর্ডার কোথায় ?",
    "Ünïcödé café 😀 1234567 'll 're\r\n\t  ",
    corpora.TEXT_CASES["emoji-zwj"],
    corpora.WHITESPACE_CASES["ws-x1c-x1f"],
    "",
]
#: (pattern argument, normalization) pairs; regex-backed patterns are fine: the
#: tokenizer is compared with itself after a round trip, not with tiktoken.
CONFIGS = {
    "none": ("none", None),
    "cl100k": ("cl100k_base", None),
    "gpt2-nfc": ("gpt2", "NFC"),
    "custom": (r"[A-Za-z]+|[0-9]{1,3}|[ \t\r\n]+|[^A-Za-z0-9 \t\r\n]+", "NFKC"),
}


def parse_tiktoken_text(data: bytes) -> dict[bytes, int]:
    """Independent reader of the .tiktoken format: one ``base64 rank`` per line."""
    assert data.endswith(b"\n") or data == b""
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        token_b64, rank = line.split(b" ")
        token = base64.b64decode(token_b64, validate=True)
        assert token not in ranks
        ranks[token] = int(rank)
    return ranks


def _trained(config: str):
    pattern, normalization = CONFIGS[config]
    return bytepair.train(TRAIN_TEXT, 256 + 150 + 1, pattern=pattern, special_tokens=[EOT], normalization=normalization)


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("config", list(CONFIGS))
def test_json_round_trip(config):
    tok = _trained(config)
    s = tok.to_json()
    assert bytepair.to_json(tok) == s
    data = json.loads(s)
    assert isinstance(data, dict) and "version" in data
    tok2 = bytepair.from_json(s)
    assert list(tok2.merges.items()) == list(tok.merges.items())
    n_merges = len(tok.merges)  # 150, or fewer when training ran out of pairs
    assert n_merges == 150 or config != "none"
    assert tok2.special_tokens == tok.special_tokens == {EOT: 256 + n_merges}
    assert tok2.pattern == tok.pattern
    assert tok2.n_vocab == tok.n_vocab == 256 + n_merges + 1
    assert tok2.normalization == tok.normalization
    for text in PROBES + [TRAIN_TEXT]:
        assert tok2.encode(text, allowed_special="all") == tok.encode(text, allowed_special="all")
        assert tok2.encode_ordinary(text) == tok.encode_ordinary(text)
    assert bytepair.from_json(s.encode("utf-8")).merges == tok.merges
    assert tok2.to_json() == s


def test_json_keeps_the_pattern_meaning():
    """A tokenizer saved with pattern 'none' splits nothing after loading; one with
    cl100k_base splits as before (checked on encodings, which differ between them)."""
    none_tok, cl_tok = _trained("none"), _trained("cl100k")
    text = "the order is late"
    assert none_tok.encode(text) != cl_tok.encode(text)
    assert bytepair.from_json(none_tok.to_json()).encode(text) == none_tok.encode(text)
    assert bytepair.from_json(cl_tok.to_json()).encode(text) == cl_tok.encode(text)


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda d: d.pop("pattern"), id="missing-pattern"),
        pytest.param(lambda d: d.pop("merges"), id="missing-merges"),
        pytest.param(lambda d: d["merges"].append(list(d["merges"][0])), id="duplicate-merge"),
        pytest.param(lambda d: d["merges"].append([5, 10**6]), id="unknown-id"),
        pytest.param(lambda d: d["merges"].append([1, "x"]), id="non-int-id"),
        pytest.param(lambda d: d.update(version=999), id="future-version"),
        pytest.param(
            lambda d: d["special_tokens"].update({"<|x|>": d["special_tokens"][EOT]}), id="duplicate-special-id"
        ),
        pytest.param(lambda d: d["special_tokens"].update({"<|y|>": 3}), id="special-id-collides-with-byte"),
        pytest.param(lambda d: d.update(pattern="("), id="invalid-regex"),
    ],
)
def test_json_validation_is_valueerror(mutate):
    data = json.loads(_trained("none").to_json())
    mutate(data)
    with pytest.raises(ValueError):
        bytepair.from_json(json.dumps(data))


def test_json_malformed_names_the_line():
    lines = _trained("none").to_json().splitlines()
    lines[12] = lines[12].replace("]", "")  # break one merge line
    with pytest.raises(ValueError, match=r"line \d+"):
        bytepair.from_json("\n".join(lines))


def test_json_of_a_real_encoding_is_refused_with_a_way_out():
    with pytest.raises(ValueError, match="to_tiktoken"):
        bytepair.get_encoding("gpt2").to_json()


# ---------------------------------------------------------------- .tiktoken export


@pytest.mark.parametrize("config", ["none", "cl100k"])
def test_tiktoken_export_reparses_to_same_ranks(config):
    tok = _trained(config)
    vocab = merges_vocab(tok.merges)
    assert len(set(vocab.values())) == len(vocab), "precondition: no two tokens share bytes"
    want = {b: i for i, b in vocab.items()}
    data = tok.to_tiktoken()
    assert parse_tiktoken_text(data) == want
    assert bytepair.parse_tiktoken_bpe(data) == want
    assert [int(line.split()[1]) for line in data.splitlines()] == sorted(want.values())


def test_tiktoken_export_readable_by_tiktoken(tmp_path):
    pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    tok = _trained("cl100k")
    path = tmp_path / "trained.tiktoken"
    path.write_bytes(tok.to_tiktoken())
    assert load_tiktoken_bpe(str(path)) == {b: i for i, b in merges_vocab(tok.merges).items()}


def test_tiktoken_export_with_duplicate_bytes_is_refused():
    """ "abc" made twice ((ab, c) and (a, bc)) cannot be written as ranks."""
    tok = bytepair.Tokenizer.from_merges({(97, 98): 256, (98, 99): 257, (256, 99): 258, (97, 257): 259}, pattern="none")
    assert tok.decode_single_token_bytes(258) == tok.decode_single_token_bytes(259) == b"abc"
    with pytest.raises(ValueError):
        tok.to_tiktoken()


@pytest.mark.parametrize("name", [n for n in TIKTOKEN_NAMES if n != "gpt2"])
def test_real_encoding_export_is_openais_file(name):
    """to_tiktoken() of a real encoding hashes to tiktoken's expected_hash."""
    pytest.importorskip("tiktoken")
    expected = tiktoken_constructor(name)["expected_hash"]
    assert hashlib.sha256(bytepair.get_encoding(name).to_tiktoken()).hexdigest() == expected


# ---------------------------------------------------------------- merges, n_vocab


@pytest.mark.parametrize("config", ["none", "custom"])
def test_merges_in_learned_order_and_n_vocab(config):
    import re
    import unicodedata

    pattern, normalization = CONFIGS[config]
    tok = _trained(config)
    split = None if pattern == "none" else re.compile(pattern).findall
    text = unicodedata.normalize(normalization, TRAIN_TEXT) if normalization else TRAIN_TEXT
    steps = list(slow_train_steps(text, 150, split=split, special_tokens=[EOT]))
    assert list(tok.merges.items()) == [(s.pair, s.new_id) for s in steps]
    assert list(tok.merges.values()) == list(range(256, 256 + len(steps)))
    assert tok.n_vocab == 256 + len(steps) + 1
    for s in steps:
        assert tok.decode_single_token_bytes(s.new_id) == s.token
        assert tok.token_bytes(s.new_id) == s.token
    for i in range(256):
        assert tok.decode_single_token_bytes(i) == bytes([i])
    probe = "where is my order ?"
    chunks = [
        c.encode() for c in split_chunks(unicodedata.normalize(normalization, probe) if normalization else probe, split)
    ]
    assert tok.encode(probe) == slow_encode_merges(chunks, dict(tok.merges))


def test_from_merges_builds_its_vocabulary_when_first_used():
    """Issue 19: a tokenizer made from merges (the end of a training run, Stop) encodes and says its
    size before its vocabulary (late tokens of a long run: hundreds of MB) is built; built, it is
    the slow minbpe trainer's. Bad merges are refused at once, as before."""
    text = TRAIN_TEXT.replace(EOT, "")
    steps = list(slow_train_steps(text, 120))
    tok = bytepair.Tokenizer.from_merges({s.pair: s.new_id for s in steps}, pattern="none", name="lazy")
    assert "_vocab" not in tok.__dict__
    assert tok.n_vocab == 256 + len(steps)
    assert tok.describe()["vocab_size"] == 256 + len(steps)
    assert tok.encode("where is my order ?") == slow_encode_merges([b"where is my order ?"], dict(tok.merges))
    assert "_vocab" not in tok.__dict__  # (encoding needs the merges only)
    assert dict(tok.vocab) == merges_vocab({s.pair: s.new_id for s in steps})
    with_special = bytepair.Tokenizer.from_merges(
        [s.pair for s in steps], pattern="none", name="lazy", special_tokens=["<|x|>"]
    )
    assert with_special.n_vocab == 256 + len(steps) + 1
    assert with_special.vocab[256 + len(steps)] == b"<|x|>"
    for bad in ({(65, 66): 257}, {(65, 300): 256}, {("a", 66): 256}):
        with pytest.raises(ValueError):
            bytepair.Tokenizer.from_merges(bad, pattern="none")


@pytest.mark.parametrize("name", ["gpt2", "p50k_base", "cl100k_base", "o200k_base"])
def test_real_encoding_n_vocab(name):
    """n_vocab as tiktoken defines it (1 + the largest id)."""
    want = {"gpt2": 50257, "p50k_base": 50281, "cl100k_base": 100277, "o200k_base": 200019}[name]
    enc = bytepair.get_encoding(name)
    assert enc.n_vocab == want
    assert enc.name == name


# ---------------------------------------------------------------- register_special_tokens


def test_register_special_tokens():
    tok = bytepair.train(TRAIN_TEXT, 256 + 100, pattern="none")
    assert tok.special_tokens == {}
    assert tok.encode("a<|x|>") == tok.encode_ordinary("a<|x|>")  # not special yet: plain text
    tok.register_special_tokens({"<|x|>": 400, "<|xy|>": 401})
    assert tok.special_tokens == {"<|x|>": 400, "<|xy|>": 401}
    assert tok.n_vocab == 402
    text = "a<|xy|>b<|x|>c"
    ids = tok.encode(text, allowed_special="all")
    plain = lambda s: tok.encode_ordinary(s)  # noqa: E731
    assert ids == plain("a") + [401] + plain("b") + [400] + plain("c")  # longest first
    assert tok.decode(ids) == text
    assert tok.decode_single_token_bytes(401) == b"<|xy|>"
    with pytest.raises(ValueError, match=r"<\|xy\|>"):
        tok.encode(text)
    assert tok.encode_ordinary(text) == plain("a<|xy|>b<|x|>c")
    assert 400 not in tok.encode_ordinary(text)
    with pytest.raises((KeyError, ValueError), match="380"):  # ids between the merges and the specials are holes
        tok.decode_single_token_bytes(380)


@pytest.mark.parametrize("tokens", [{"<|a|>": 256}, {"<|a|>": 97}, {"<|a|>": -5}, {"": 500}], ids=str)
def test_register_special_tokens_bad_input(tokens):
    tok = bytepair.train(TRAIN_TEXT, 256 + 100, pattern="none")
    with pytest.raises((ValueError, TypeError)):
        tok.register_special_tokens(tokens)
    assert tok.special_tokens == {}


def test_register_special_tokens_two_names_one_id_is_valueerror():
    """Two new special tokens with the same id in one call: decode could not tell them
    apart (decode(encode("<|a|>")) would be "<|b|>") and from_json would refuse the saved file."""
    tok = bytepair.train(TRAIN_TEXT, 256 + 100, pattern="none")
    with pytest.raises(ValueError, match="500"):
        tok.register_special_tokens({"<|a|>": 500, "<|b|>": 500})
    assert tok.special_tokens == {}


def test_registered_special_tokens_survive_json():
    tok = bytepair.train(TRAIN_TEXT, 256 + 100, pattern="none")
    tok.register_special_tokens({"<|a|>": 400, "<|b|>": 356})
    tok2 = bytepair.from_json(tok.to_json())
    assert tok2.special_tokens == {"<|a|>": 400, "<|b|>": 356}
    text = "x<|a|>y<|b|>"
    assert tok2.encode(text, allowed_special="all") == tok.encode(text, allowed_special="all")
    assert tok2.decode(tok2.encode(text, allowed_special="all")) == text


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_spans_stay_inside_the_input_text_with_normalization(form):
    """encode_with_spans promises spans of `text` (the input); normalization can change
    its length (NFKC: "\ufb01" -> "fi"; NFC: "e\u0301" -> "\u00e9"), yet spans must stay in it."""
    tok = bytepair.train("\ufb01ne cafe\u0301 x\u00b2 " * 20, 256 + 30, pattern="none", normalization=form)
    text = "\ufb01ne cafe\u0301 x\u00b2 \ufb01le"
    spans = tok.encode_with_spans(text)
    assert [s.id for s in spans] == tok.encode(text)
    assert all(0 <= s.start < s.end <= len(text) for s in spans), [(s.token, s.start, s.end) for s in spans]
    assert spans[0].start == 0 and spans[-1].end == len(text)
    assert all(a.start <= b.start for a, b in zip(spans, spans[1:]))


# ---------------------------------------------------------------- streaming decoder

STREAM_PARAMS = corpora.params(corpora.udhr(corpora.UDHR_SAMPLE)) + corpora.params(corpora.udhr_rest(), slow_all=True)


def _stream_check(enc, text: str, *, by_id: bool) -> None:
    assert "\ufffd" not in text, "precondition: the corpus has no U+FFFD of its own"
    ids = enc.encode_ordinary(text)
    dec = bytepair.StreamDecoder(token_bytes=enc.decode_single_token_bytes) if by_id else bytepair.StreamDecoder()
    ref = codecs.getincrementaldecoder("utf-8")()
    out = []
    for t in ids:
        b = enc.decode_single_token_bytes(t)
        piece = dec.feed(t) if by_id else dec.feed(b)
        assert "\ufffd" not in piece
        assert piece == ref.decode(b), f"after token {t} ({b!r})"  # emits every completed character
        out.append(piece)
    out.append(dec.flush())
    assert "".join(out) == text


@pytest.mark.parametrize("corpus", STREAM_PARAMS)
def test_stream_decoder_never_shows_broken_characters(corpus):
    text = corpus.text()
    _stream_check(bytepair.get_encoding("cl100k_base"), text, by_id=False)
    _stream_check(bytepair.get_encoding("gpt2"), text, by_id=True)


def test_stream_decoder_holds_back_then_completes():
    d = bytepair.StreamDecoder()
    assert d.feed(b"\xe0\xa6") == ""
    assert d.feed(b"\x86!") == "\u0986!"
    assert d.flush() == ""
    assert d.feed(b"\xf0\x9f") == ""
    assert d.flush() == "\ufffd"  # an unfinished character at the end is replaced, not lost silently
