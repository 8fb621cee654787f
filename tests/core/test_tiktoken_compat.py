"""``bytepair.tiktoken`` against the real tiktoken, method by method.

The reference ``tiktoken.Encoding`` objects are built offline from the same
ranks with tiktoken's own constructors (``tests.reference.tiktoken_constructor``:
pattern, special tokens and ``explicit_n_vocab`` from tiktoken's source).
Where tiktoken is not importable (inside Pyodide) those comparisons skip and
the checks against published values remain: tiktoken's README and docstring
examples and the ids in tiktoken's own tests (``tests/test_encoding.py``,
``tests/test_offsets.py``).
"""

from __future__ import annotations

import functools
import hashlib
import pickle

import pytest

import bytepair.tiktoken as bt
from bytepair import registry
from bytepair.errors import UnknownNameError
from tests.hypothesis_profiles import examples
from tests.reference import tiktoken_constructor

NAMES = ["gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base", "o200k_harmony"]
BASE = {"p50k_edit": "p50k_base", "o200k_harmony": "o200k_base"}
#: The encodings compared method by method (one of each pattern, plus the two derived ones).
COMPARED = ["gpt2", "p50k_edit", "cl100k_base", "o200k_harmony"]

TEXTS = [
    "",
    "hello world",
    "hello <|endoftext|> world",
    "<|fim_prefix|>def f():<|fim_suffix|>\n    return 1<|fim_middle|>",
    "<|start|>user<|message|>Hi<|end|><|reserved_200018|><|endofprompt|>",
    "请考试我的软件！12345",
    "नमस्ते दुनिया 👋🏽 café naïve",
    "today\n \n\n\n  \t x   ",
    "I'm   can't  WE'LL 1234567 $$$ ...\r\n\r\n",
    "a\ud83db \ud83d\udc4d",  # a lone surrogate, then a pair written as two code points
    " \x850 Ġ除",
]


def have_data(name: str) -> bool:
    return (registry.DATA_DIR / registry.ENCODING_FILES[BASE.get(name, name)]).exists()


def needs_data(name: str) -> None:
    if not have_data(name):
        pytest.skip(f"the rank file of {name} is not here")


@functools.cache
def reference(name: str):
    """tiktoken's Encoding ``name`` built from bytepair's copy of its ranks."""
    import tiktoken

    kwargs = tiktoken_constructor(name, registry.load_ranks(BASE.get(name, name)))
    kwargs.pop("expected_hash")
    return tiktoken.Encoding(**kwargs)


@pytest.fixture(params=COMPARED)
def pair(request):
    """``(ours, tiktoken's)`` for one encoding."""
    pytest.importorskip("tiktoken")
    needs_data(request.param)
    return bt.get_encoding(request.param), reference(request.param)


def outcome(fn, *args, **kwargs):
    """``("ok", value)`` or ``(exception type name, message)`` of a call."""
    try:
        return "ok", fn(*args, **kwargs)
    except (ValueError, KeyError, TypeError) as e:
        return _builtin(e), str(e)


def _builtin(e: BaseException) -> str:
    for cls in type(e).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(e).__name__  # pragma: no cover


# ------------------------------------------------------------- published values
def test_names_in_tiktoken_order():
    assert bt.list_encoding_names() == NAMES


def test_tiktoken_readme_and_docstring_examples():
    needs_data("gpt2")
    needs_data("cl100k_base")
    enc = bt.get_encoding("gpt2")  # tiktoken/core.py docstrings
    assert enc.encode("hello world") == [31373, 995]
    assert enc.encode_ordinary("hello world") == [31373, 995]
    assert enc.encode("<|endoftext|>", allowed_special={"<|endoftext|>"}) == [50256]
    assert enc.encode("<|endoftext|>", allowed_special="all") == [50256]
    assert enc.encode("<|endoftext|>", disallowed_special=()) == [27, 91, 437, 1659, 5239, 91, 29]
    with pytest.raises(ValueError, match="disallowed special token '<\\|endoftext\\|>'"):
        enc.encode("<|endoftext|>")
    assert enc.encode_batch(["hello world", "goodbye world"]) == [[31373, 995], [11274, 16390, 995]]
    assert enc.encode_ordinary_batch(["hello world", "goodbye world"]) == [[31373, 995], [11274, 16390, 995]]
    assert enc.encode_single_token("hello") == 31373
    assert enc.decode_bytes([31373, 995]) == b"hello world"
    assert enc.decode([31373, 995]) == "hello world"
    assert enc.decode_single_token_bytes(31373) == b"hello"
    assert enc.decode_tokens_bytes([31373, 995]) == [b"hello", b" world"]
    assert enc.decode_with_offsets([31373, 995]) == ("hello world", [0, 5])
    assert enc._encode_single_piece("helloqqqq") == [31373, 38227, 38227]
    stable, completions = enc.encode_with_unstable("hello fanta")
    assert stable == [31373]
    assert [277, 4910] in completions and [5113, 265] in completions and [8842] in completions
    assert bt.encoding_for_model("gpt-4o").name == "o200k_base"  # README
    assert bt.get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    # tiktoken's tests/test_offsets.py
    enc = bt.get_encoding("cl100k_base")
    assert enc.decode_with_offsets(enc.encode("我非常渴望与人工智能一起工作"))[1] == [
        *(0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13)
    ]
    assert enc.encode("\ud83d\udc4d") == enc.encode("👍") == [9468, 239, 235]  # tests/test_encoding.py
    assert enc._encode_bytes(b" \xec\x8b\xa4\xed") == [62085]


def test_model_names_published():
    # tiktoken's tests/test_misc.py
    assert bt.encoding_name_for_model("gpt2") == "gpt2"
    assert bt.encoding_name_for_model("text-davinci-003") == "p50k_base"
    assert bt.encoding_name_for_model("text-davinci-edit-001") == "p50k_edit"
    assert bt.encoding_name_for_model("gpt-3.5-turbo-0301") == "cl100k_base"
    assert bt.encoding_name_for_model("gpt-oss-120b") == "o200k_harmony"
    with pytest.raises(KeyError, match="Could not automatically map nope-1 to a tokeniser") as info:
        bt.encoding_name_for_model("nope-1")
    assert isinstance(info.value, UnknownNameError) and info.value.to_dict()["field"] == "model_name"
    with pytest.raises(TypeError):
        bt.encoding_name_for_model(None)  # type: ignore[arg-type]


def test_get_encoding_errors_are_value_errors_as_tiktoken():
    with pytest.raises(ValueError, match="Unknown encoding cl100k") as info:
        bt.get_encoding("cl100k")
    assert info.value.to_dict()["field"] == "encoding_name"
    with pytest.raises(ValueError, match="Expected a string"):
        bt.get_encoding(None)  # type: ignore[arg-type]


def test_get_encoding_is_cached_and_pickles_by_name():
    needs_data("cl100k_base")
    enc = bt.get_encoding("cl100k_base")
    assert bt.get_encoding("cl100k_base") is enc
    assert enc.__getstate__() == "cl100k_base"
    assert len(pickle.dumps(enc)) < 200
    again = pickle.loads(pickle.dumps(enc))
    assert again.__dict__ is enc.__dict__ and again.encode("hello world") == [15339, 1917]


def test_custom_encoding_pickles_by_constructor_arguments():
    needs_data("r50k_base")
    base = bt.get_encoding("r50k_base")
    enc = bt.Encoding(
        name="custom_enc",
        pat_str=base._pat_str,
        mergeable_ranks=base._mergeable_ranks,
        special_tokens={"<|pickle|>": 100_000},
    )
    state = enc.__getstate__()
    assert isinstance(state, dict) and sorted(state) == ["mergeable_ranks", "name", "pat_str", "special_tokens"]
    again = pickle.loads(pickle.dumps(enc))
    assert again is not enc and again.name == "custom_enc"
    assert again.encode("<|pickle|>", allowed_special="all") == [100_000]  # tiktoken's tests/test_pickle.py
    assert again.encode("hello world") == enc.encode("hello world") == [31373, 995]
    assert again.max_token_value == 100_000 and again.n_vocab == 100_001


def test_constructor_checks():
    needs_data("r50k_base")
    base = bt.get_encoding("r50k_base")
    kwargs = {"pat_str": base._pat_str, "mergeable_ranks": base._mergeable_ranks}
    ok = bt.Encoding("r50k_again", **kwargs, special_tokens={"<|endoftext|>": 50256}, explicit_n_vocab=50257)
    assert ok.encode("hello <|endoftext|>", allowed_special="all") == [31373, 220, 50256]
    with pytest.raises(ValueError, match="explicit_n_vocab=50258"):
        bt.Encoding("bad", **kwargs, special_tokens={"<|endoftext|>": 50256}, explicit_n_vocab=50258)
    with pytest.raises(ValueError, match="256 bytes"):
        bt.Encoding("tiny", pat_str=base._pat_str, mergeable_ranks={b"a": 0}, special_tokens={})
    # a bare word is a regex to tiktoken, a pattern name to bytepair: it stays a regex here
    word = bt.Encoding("word", pat_str="gpt2", mergeable_ranks=base._mergeable_ranks, special_tokens={})
    assert word._encode_only_native_bpe("gpt2 gpt2") == word._encode_single_piece("gpt2") * 2
    with pytest.raises(TypeError):
        base.is_special_token("50256")  # type: ignore[arg-type]
    assert base.is_special_token(50256) and not base.is_special_token(50255)


# ------------------------------------------------------------- tiktoken itself
def test_model_table_equals_tiktoken():
    tiktoken_model = pytest.importorskip("tiktoken.model")
    assert bt.model.MODEL_TO_ENCODING == tiktoken_model.MODEL_TO_ENCODING
    # prefixes in the same order: the first match wins
    assert list(bt.model.MODEL_PREFIX_TO_ENCODING.items()) == list(tiktoken_model.MODEL_PREFIX_TO_ENCODING.items())
    models = [
        *tiktoken_model.MODEL_TO_ENCODING,
        *(p + "x" for p in tiktoken_model.MODEL_PREFIX_TO_ENCODING),
        "gpt-4o-2024-08-06",
        "gpt-4o-mini",
        "gpt-4-turbo",
        "gpt-4-32k-0613",
        "gpt-5-mini",
        "gpt-4.1-nano",
        "o3-mini",
        "o1-preview",
        "ft:gpt-4o-mini:org::id",
        "ft:gpt-3.5-turbo-0613:org::id",
        "gpt-oss-20b",
        "chatgpt-4o-latest",
        "gpt-35-turbo-16k",
        "text-embedding-3-large",
        "gpt-3",
        "claude-3",
        "",
        "GPT-4",
        "o4",
    ]
    for m in models:
        assert outcome(bt.encoding_name_for_model, m)[0] == outcome(tiktoken_model.encoding_name_for_model, m)[0], m
        if outcome(tiktoken_model.encoding_name_for_model, m)[0] == "ok":
            assert bt.encoding_name_for_model(m) == tiktoken_model.encoding_name_for_model(m), m


def test_names_equal_tiktoken_constructors():
    op = pytest.importorskip("tiktoken_ext.openai_public")
    assert bt.list_encoding_names() == list(op.ENCODING_CONSTRUCTORS)


@pytest.mark.parametrize("name", NAMES)
def test_attributes_equal_tiktoken(name):
    pytest.importorskip("tiktoken")
    needs_data(name)
    ours, ref = bt.get_encoding(name), reference(name)
    assert ours.name == ref.name
    assert ours._pat_str == ref._pat_str
    assert ours._special_tokens == ref._special_tokens
    assert ours._mergeable_ranks == ref._mergeable_ranks
    assert (ours.max_token_value, ours.n_vocab, ours.eot_token) == (ref.max_token_value, ref.n_vocab, ref.eot_token)
    assert ours.special_tokens_set == ref.special_tokens_set
    assert repr(ours) == repr(ref)
    for token in [0, 255, 256, *range(ours.max_token_value - 1200, ours.n_vocab + 2), -1]:
        assert ours.is_special_token(token) == ref.is_special_token(token)


OPTION_SETS = [
    {},
    {"allowed_special": "all"},
    {"disallowed_special": ()},
    {"allowed_special": "all", "disallowed_special": ()},
    {"allowed_special": {"<|endoftext|>"}},
    {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()},
    {"allowed_special": {"<|fim_prefix|>", "<|start|>", "<|not a token|>"}, "disallowed_special": ()},
    {"disallowed_special": {"<|endoftext|>"}},
    {"disallowed_special": {"world"}},  # tiktoken refuses any listed text, special or not
    {"allowed_special": {"<|reserved_200018|>"}, "disallowed_special": ()},
]


def _options_id(options: dict) -> str:
    """A test id that does not depend on set order (str() of a set follows the string hash, which
    differs between processes: two pytest-xdist workers then collect different ids and refuse to run)."""
    shown = (f"{k}={sorted(v) if isinstance(v, (set, frozenset)) else v!r}" for k, v in options.items())
    return ",".join(shown) or "defaults"


@pytest.mark.parametrize("options", OPTION_SETS, ids=_options_id)
def test_encode_equals_tiktoken(pair, options):
    ours, ref = pair
    for text in TEXTS:
        want = outcome(ref.encode, text, **options)
        assert outcome(ours.encode, text, **options) == want, text
        if want[0] == "ok":
            assert ours.encode_batch([text, text[::-1]], **options) == ref.encode_batch([text, text[::-1]], **options)
        if want[0] != "ok":  # the same refusal from encode_with_unstable
            assert outcome(ours.encode_with_unstable, text, **options) == want


def test_bare_string_options_as_tiktoken(pair):
    ours, ref = pair
    text = "hello <|endoftext|> world"
    for enc in pair:
        with pytest.raises(TypeError):
            enc.encode(text, allowed_special="<|endoftext|>")
    # a bare str for disallowed_special is a set of characters, to tiktoken and here
    assert outcome(ours.encode, text, disallowed_special="w") == outcome(ref.encode, text, disallowed_special="w")


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_harmony"])
def test_hypothesis_encode_equals_tiktoken(name):
    pytest.importorskip("tiktoken")
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    needs_data(name)
    ours, ref = bt.get_encoding(name), reference(name)
    specials = sorted(ref._special_tokens)[:40]
    piece = st.one_of(st.text(max_size=12), st.sampled_from([*specials, " ", "\n", "'s", "12345", "  \t"]))
    options = st.sampled_from(OPTION_SETS[:5])

    @hypothesis.settings(max_examples=examples(40), derandomize=True)
    @hypothesis.given(parts=st.lists(piece, max_size=8), opts=options)
    def check(parts, opts):
        text = "".join(parts)
        assert outcome(ours.encode, text, **opts) == outcome(ref.encode, text, **opts)
        assert ours.encode_ordinary(text) == ref.encode_ordinary(text)
        data = text.encode("utf-8", "surrogatepass")[: len(text) // 2 + 1]
        assert ours._encode_bytes(data) == ref._encode_bytes(data)

    check()


def test_encode_ordinary_and_numpy_equal_tiktoken(pair):
    ours, ref = pair
    for text in TEXTS:
        assert ours.encode_ordinary(text) == ref.encode_ordinary(text), text
    assert ours.encode_ordinary_batch(TEXTS, num_threads=2) == ref.encode_ordinary_batch(TEXTS, num_threads=2)
    np = pytest.importorskip("numpy")
    got = ours.encode_to_numpy(TEXTS[6] + "<|endoftext|>", allowed_special="all")
    want = ref.encode_to_numpy(TEXTS[6] + "<|endoftext|>", allowed_special="all")
    assert got.dtype == want.dtype == np.uint32 and got.tolist() == want.tolist()


UNSTABLE = ["hello fanta", "hello ", "hello\n\n", "x  ", "ab\n \n", "日本", "1234", "I'm", "<|endoftext|>", "a!"]


def test_encode_with_unstable_equals_tiktoken(pair):
    ours, ref = pair
    for text in UNSTABLE:
        stable, completions = ours.encode_with_unstable(text, allowed_special="all")
        want_stable, want_completions = ref.encode_with_unstable(text, allowed_special="all")
        assert stable == want_stable, text
        assert len(completions) == len(want_completions), text
        assert sorted(map(tuple, completions)) == sorted(map(tuple, want_completions)), text


def test_single_tokens_equal_tiktoken(pair):
    ours, ref = pair
    ids = [*range(0, 3000), *range(ours.max_token_value - 3000, ours.n_vocab + 1)]
    for token in ids:
        got, want = outcome(ours.decode_single_token_bytes, token), outcome(ref.decode_single_token_bytes, token)
        assert got[0] == want[0], token
        if want[0] == "ok":
            if ours._special_tokens.get("<|reserved_200018|>") == token:  # two names: tiktoken picks either
                assert got[1] in (b"<|endofprompt|>", b"<|reserved_200018|>")
                continue
            assert got == want, token
            assert ours.encode_single_token(want[1]) == ref.encode_single_token(want[1]), token
    for text in ["hello", " world", "<|endoftext|>", "<|fim_middle|>", "<|channel|>", "hello world", "", "\xff"]:
        assert outcome(ours.encode_single_token, text)[0] == outcome(ref.encode_single_token, text)[0], text
        if outcome(ref.encode_single_token, text)[0] == "ok":
            assert ours.encode_single_token(text) == ref.encode_single_token(text)
    with pytest.raises(KeyError) as info:
        ours.encode_single_token(b"hello world")
    assert info.value.args == (b"hello world",)


def test_decoding_equals_tiktoken(pair):
    ours, ref = pair
    batch = [ref.encode(t, allowed_special="all") for t in TEXTS]
    batch.append([ref.encode_single_token("hello"), *ref.encode("日本")[:1]])  # ends inside a character
    assert ours.decode_batch(batch) == ref.decode_batch(batch)
    assert ours.decode_batch(batch, errors="ignore", num_threads=1) == ref.decode_batch(batch, errors="ignore")
    assert ours.decode_bytes_batch(batch) == ref.decode_bytes_batch(batch)
    for tokens in batch:
        assert ours.decode(tokens) == ref.decode(tokens)
        assert ours.decode_bytes(tokens) == ref.decode_bytes(tokens)
        assert ours.decode_tokens_bytes(tokens) == ref.decode_tokens_bytes(tokens)
        assert outcome(ours.decode, tokens, errors="strict")[0] == outcome(ref.decode, tokens, errors="strict")[0]
        try:
            want = ref.decode_with_offsets(tokens)
        except UnicodeDecodeError:
            with pytest.raises(UnicodeDecodeError):
                ours.decode_with_offsets(tokens)
        else:
            assert ours.decode_with_offsets(tokens) == want
    hole = ours.n_vocab + 5
    assert outcome(ours.decode, [1, hole])[0] == outcome(ref.decode, [1, hole])[0] == "KeyError"


def test_token_byte_values_and_private_helpers_equal_tiktoken(pair):
    ours, ref = pair
    assert ours.token_byte_values() == ref.token_byte_values()
    for data in [
        b"",
        b"hello",
        b" \xec\x8b\xa4\xed",
        b"\x80" * 5,
        b"abc  \xe6\x97",
        b"\xff\xfe x",
        "日本 ".encode() * 3,
    ]:
        assert ours._encode_bytes(data) == ref._encode_bytes(data), data
        if data:  # tiktoken's Rust core panics on an empty piece
            assert ours._encode_single_piece(data) == ref._encode_single_piece(data), data
    for text in TEXTS[:9]:
        assert ours._encode_only_native_bpe(text) == ref._encode_only_native_bpe(text), text


def test_extended_encoding_as_in_tiktoken_readme():
    """tiktoken's README "Extending tiktoken": a new Encoding from cl100k_base's attributes."""
    tiktoken = pytest.importorskip("tiktoken")
    needs_data("cl100k_base")
    mine, theirs = bt.get_encoding("cl100k_base"), reference("cl100k_base")
    kwargs = lambda base: {  # noqa: E731
        "name": "cl100k_im",
        "pat_str": base._pat_str,
        "mergeable_ranks": base._mergeable_ranks,
        "special_tokens": {**base._special_tokens, "<|im_start|>": 100264, "<|im_end|>": 100265, "hello": 7},
    }
    ours, ref = bt.Encoding(**kwargs(mine)), tiktoken.Encoding(**kwargs(theirs))
    text = "<|im_start|>user\nhello there<|im_end|><|endoftext|>"
    for options in OPTION_SETS[:4]:
        assert outcome(ours.encode, text, **options) == outcome(ref.encode, text, **options)
    tokens = ref.encode(text, allowed_special="all")
    assert ours.encode(text, allowed_special="all") == tokens
    assert ours.decode(tokens) == ref.decode(tokens)
    assert ours.decode_single_token_bytes(7) == ref.decode_single_token_bytes(7) == b"("  # the ordinary token wins
    assert ours.n_vocab == ref.n_vocab
    again = pickle.loads(pickle.dumps(ours))
    assert again.encode(text, allowed_special="all") == tokens
    assert again.__getstate__().keys() == ref.__getstate__().keys()


def test_load_tiktoken_bpe_equals_tiktoken(tmp_path, monkeypatch):
    needs_data("r50k_base")
    from bytepair.formats.tiktoken_file import dump_tiktoken_bpe

    ranks = dict(sorted(registry.load_ranks("r50k_base").items(), key=lambda kv: kv[1])[:400])
    path = tmp_path / "small.tiktoken"
    path.write_bytes(dump_tiktoken_bpe(ranks))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert bt.load.load_tiktoken_bpe(str(path)) == ranks
    assert bt.load.load_tiktoken_bpe(path, expected_hash=digest) == ranks
    with pytest.raises(ValueError, match="Hash mismatch"):
        bt.load.load_tiktoken_bpe(path, expected_hash="0" * 64)
    with pytest.raises(ValueError, match="does not download"):
        bt.load.load_tiktoken_bpe("https://example.invalid/r50k_base.tiktoken")
    tiktoken_load = pytest.importorskip("tiktoken.load")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # tiktoken: no cache, read the local file
    assert tiktoken_load.load_tiktoken_bpe(str(path), expected_hash=digest) == ranks
