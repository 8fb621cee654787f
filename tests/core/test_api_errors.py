"""Bad input gets a clear error that says what to do (issue: bytepair core, item 9).

Each case here came from a fresh user's report; the expected messages name the
problem and the fix.
"""

from __future__ import annotations

import json
import re

import pytest

import bytepair
from bytepair import errors
from bytepair.split.pretokenize import check_pattern, compile_pattern
from bytepair.teach import steps

TEXT = "low lower newest widest " * 20


def test_get_encoding_object_is_shared_and_cannot_change():
    enc = bytepair.get_encoding("cl100k_base")
    assert bytepair.get_encoding("cl100k_base") is enc
    with pytest.raises(ValueError, match=r"shared by every caller.*\.copy\(\)"):
        enc.register_special_tokens({"<|mine|>": 200_000})
    assert "<|mine|>" not in bytepair.get_encoding("cl100k_base").special_tokens


def test_copy_takes_special_tokens_without_touching_the_original():
    enc = bytepair.get_encoding("cl100k_base")
    mine = enc.copy()
    mine.register_special_tokens({"<|mine|>": 200_000})
    text = "a<|mine|>b"
    assert mine.encode(text, allowed_special="all") == enc.encode("a") + [200_000] + enc.encode("b")
    assert mine.decode([200_000]) == "<|mine|>"
    assert enc.encode(text, allowed_special="all") == enc.encode_ordinary(text)
    with pytest.raises(KeyError):
        enc.decode([200_000])


def test_from_json_one_line_file_names_the_merge_not_a_wrong_line():
    one_line = '{"format":"bytepair","version":1,"pattern":null,"merges":[[1,2],[1,2]]}'
    with pytest.raises(ValueError) as e:
        bytepair.from_json(one_line)
    assert "merge 1" in str(e.value) and "line" not in str(e.value)


def test_from_json_saved_layout_names_the_line():
    tok = bytepair.train(TEXT, 260, pattern="none")
    lines = tok.to_json().splitlines()
    k = next(i for i, line in enumerate(lines) if line.strip().startswith("[")) + 1  # merge 1's line, 0-based
    lines[k] = "    [999, 1],"
    with pytest.raises(ValueError, match=rf"merge 1 \(line {k + 1}\).*does not exist yet"):
        bytepair.from_json("\n".join(lines))


def test_from_json_missing_merges_says_what_merges_are():
    with pytest.raises(ValueError, match=r'no "merges" field.*\[left_id, right_id\]'):
        bytepair.from_json('{"format": "bytepair", "version": 1, "pattern": null}')


def test_from_json_dict_is_a_type_error_with_the_fix():
    with pytest.raises(TypeError, match=r"json\.dumps"):
        bytepair.from_json({"format": "bytepair"})


def test_from_json_negative_special_id():
    doc = {"format": "bytepair", "version": 1, "pattern": None, "merges": [], "special_tokens": {"<|x|>": -3}}
    with pytest.raises(ValueError, match=r"has id -3; ids are >= 0"):
        bytepair.from_json(json.dumps(doc))


def test_decode_unknown_errors_handler():
    tok = bytepair.get_encoding("gpt2")
    with pytest.raises(ValueError, match=r'unknown errors=.bogus.*"replace"'):
        tok.decode([31373], errors="bogus")
    assert tok.decode([31373], errors="strict") == "hello"


def test_train_special_tokens_must_be_a_list():
    with pytest.raises(TypeError, match=r"list of strings.*register_special_tokens"):
        bytepair.train(TEXT, 300, special_tokens={"<|end|>": 5})


def test_train_name_must_be_a_str():
    with pytest.raises(TypeError, match="name must be a str"):
        bytepair.train(TEXT, 300, name=5)


def test_ranks_without_every_byte_fail_when_built():
    ranks = {bytes((b,)): b for b in range(255)}  # no b"\xff"
    with pytest.raises(ValueError, match=r"256 bytes; 1 are missing \(first: b'\\xff'\)"):
        bytepair.Tokenizer.from_ranks(ranks, pattern="gpt2")


@pytest.mark.parametrize("bad", ["gpt5", "cl100k", "GPT2", "o200k"])
def test_bare_word_pattern_is_taken_for_a_misspelt_name(bad):
    with pytest.raises(ValueError, match=r"not a known name.*\(\?:"):
        bytepair.train(TEXT, 300, pattern=bad)


def test_bare_word_as_explicit_regex_still_works():
    tok = bytepair.train("abab x abab", 257, pattern="(?:abab)")
    assert tok.decode(tok.encode("abab")) == "abab"


def test_empty_pattern():
    with pytest.raises(ValueError, match=r"pattern is empty.*'none'"):
        bytepair.resolve_pattern("")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        '{"a": ' * 3000 + "1" + "}" * 3000,
        '{"format": "bytepair", "x": ' + "[" * 70 + "]" * 70 + "}",
    ],
)
def test_from_json_refuses_deep_nesting_before_parsing(text):
    # (in Pyodide json.loads of such a file overflows the JavaScript stack and the worker crashed)
    with pytest.raises(bytepair.errors.TokenizerFileError, match="nested too deeply.*more than 64 deep"):
        bytepair.from_json(text)


def test_from_json_nesting_check_ignores_brackets_in_strings():
    tok = bytepair.train(TEXT, 270, pattern="none", special_tokens=["[[[[" * 20 + '"\\'])
    assert bytepair.from_json(tok.to_json()).special_tokens == tok.special_tokens


def test_errors_pickle_with_their_fields():
    # errors raised in worker processes (corpus counting, Dask) reach the caller whole
    import pickle

    from bytepair.corpus import InputDecodeError
    from bytepair.errors import PatternError, TokenizerFileError, UnknownNameError

    for e in (
        InputDecodeError("bad byte", path="a.txt", line=3, byte_offset=17),
        PatternError("bad", pos=4, construct="(?<=", reason="look-behind"),
        TokenizerFileError("bad file", where="line 2", component="WordPiece"),
        UnknownNameError("no such", field="encoding", known=["gpt2"]),
    ):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)
        assert back.to_dict() == e.to_dict()


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        (("nope", "x", 1), {}, "mode"),
        (("textbook", "low five", 1), {}, "text"),
        (("textbook", "", 1), {}, "text"),
        (("textbook", "low 5", 501), {}, "n_merges"),
        (("textbook", "low 5", 1), {"tie_break": "best"}, "tie_break"),
        (("bytes", "", 1), {}, "text"),
        (("bytes", "abc", 1), {"pattern": "(unclosed"}, "pattern"),
        (("bytes", "x" * (steps.MAX_TEXT_BYTES + 1), 1), {}, "text"),
    ],
)
def test_learn_steps_errors_name_the_field(args, kwargs, field):
    with pytest.raises(errors.BytepairError) as e:
        steps.learn_steps(*args, **kwargs)
    d = e.value.to_dict()
    assert d["field"] == field and d["message"] and isinstance(e.value, ValueError)


def test_step_out_of_range_names_the_step():
    s = steps.learn_steps("textbook", "low 5", 2)
    with pytest.raises(errors.ArgumentError) as e:
        s.step(s.n_steps + 1)
    assert e.value.field == "step"


@pytest.mark.parametrize(
    ("pattern", "pos", "construct", "words"),
    [
        (r"a\p{Foo}+", 1, r"\p{Foo}", "not a known Unicode property"),
        ("cl100k", None, "cl100k", "(?:cl100k)"),
    ],
)
def test_pattern_error_carries_position_and_construct(pattern, pos, construct, words):
    with pytest.raises(errors.PatternError) as e:
        check_pattern(pattern)
    d = e.value.to_dict()
    assert d["type"] == "pattern" and d["field"] == "pattern"
    assert d["construct"] == construct and words in d["message"]
    if pos is not None:
        # regex reports the fault where it notices it: at or after the property's start
        assert d["pos"] is not None and d["pos"] >= pos
    assert "gpt4o" not in d["message"] and len(d["message"]) < 300


@pytest.mark.parametrize("backend", ["re", "regex"])
def test_a_repeat_count_too_large_is_a_pattern_error_on_both_back_ends(backend):
    """re's parser raises OverflowError, not re.error, for a repeat count over 2**32 - 1: the
    playground (the ``re`` back-end) showed "OverflowError: the repetition number is too large"
    in Train (fresh tester). Both back-ends give a PatternError a person can read."""
    if backend == "regex":
        pytest.importorskip("regex")
    with pytest.raises(OverflowError):
        re.compile("x{1,99999999999}")  # (the reference: what stdlib re raises)
    with pytest.raises(errors.PatternError) as e:
        compile_pattern("xxx{1,99999999999}", backend=backend)
    assert e.value.to_dict()["field"] == "pattern"
    assert "too" in e.value.reason and "repe" in e.value.reason, e.value.reason


def test_unclosed_group_position_on_the_re_back_end():
    with pytest.raises(errors.PatternError) as e:
        compile_pattern("(ab", backend="re")
    # stdlib re points at the unclosed "(" (re.error.pos), as does the translation
    assert e.value.pos == 0 and e.value.reason


def test_errors_of_the_core_api_name_their_field():
    with pytest.raises(KeyError) as e:
        bytepair.get_encoding("cl100")
    d = e.value.to_dict()
    assert d["type"] == "unknown_name" and "cl100k_base" in d["known"]
    cases = [
        (lambda: bytepair.train("abc", 12, pattern="none"), "vocab_size"),
        (lambda: bytepair.train("abc", 300, pattern="none", min_frequency=0), "min_frequency"),
        (lambda: bytepair.train("abc", 300, pattern="none", normalization="NFD"), "normalization"),
        (lambda: bytepair.train("abc", 300, pattern="none", special_tokens=["<a>", "<a>"]), "special_tokens"),
        (lambda: bytepair.train("abc", 300, pattern="cl100k"), "pattern"),
    ]
    for fn, field in cases:
        with pytest.raises(ValueError) as e:
            fn()
        assert e.value.to_dict()["field"] == field, field
    with pytest.raises(ValueError) as e:
        bytepair.from_json('{"format": "bytepair", "version": 1, "pattern": null, "merges": [[1, 2], [1, 2]]}')
    assert e.value.to_dict()["type"] == "tokenizer_file" and e.value.where == "merges[1]"


@pytest.mark.parametrize("backend", ["re", "regex"])
@pytest.mark.parametrize(
    ("pattern", "prop", "suggestion"),
    [(r"a\p{Foo}+", "Foo", None), (r" ?\p{Arabik}+", "Arabik", "Arabic"), (r"[\p{Letterz}]", "Letterz", "L")],
)
def test_an_unknown_property_is_named_as_data(backend, pattern, prop, suggestion):
    """Fresh tester (ur, fa): the page's sentence quoted the ``re`` back-end's reason, which listed
    ~200 English property names. The error now carries ``code="unknown_property"``, the name,
    a close known name (or None) and the whole list apart (``known``); its ``reason`` is short."""
    from bytepair.split.retranslate import supported_properties

    if backend == "regex":
        pytest.importorskip("regex")
    for check in (lambda: compile_pattern(pattern, backend=backend), lambda: check_pattern(pattern)):
        with pytest.raises(errors.PatternError) as e:
            check()
        d = e.value.to_dict()
        assert d["code"] == "unknown_property" and d["property"] == prop and d["suggestion"] == suggestion
        assert d["known"] == supported_properties() and "Arabic" in d["known"]
        assert "Adlam" not in d["reason"] and len(d["reason"]) < 40
        assert d["construct"] == "\\p{" + prop + "}"
    # check_pattern's English message is the short one it was
    assert d["message"].startswith(f"\\p{{{prop}}} is not a known Unicode property (character ")
