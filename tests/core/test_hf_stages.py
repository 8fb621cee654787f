"""The stage objects of ``bytepair.hf.components`` answer what the rest of the package asks of a
``tokenizer.json`` component (stepped counts, first spans, the tokenizer's own flags), so no other
module reads the component JSON: a normalizer's offsets (``one_to_one``, ``unicode_form``,
``replaces_space``), a pre-tokenizer's leading Isolated splits and ``asks_first``, every stage's
``uses(kind)``. The leading splits walked lazily, then the rest, give the stage's own pieces.
"""

from __future__ import annotations

import pytest

from bytepair.hf import components as hc

SPACE_TO_META = {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}
WORDS = r"\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+|\s+"


def _split(pattern: dict, behavior: str = "Isolated", invert: bool = False) -> dict:
    return {"type": "Split", "pattern": pattern, "behavior": behavior, "invert": invert}


@pytest.mark.parametrize(
    ("spec", "one_to_one", "form", "space"),
    [
        ({"type": "NFC"}, False, "NFC", False),
        ({"type": "NFKD"}, False, "NFKD", False),
        (SPACE_TO_META, True, None, True),
        ({"type": "Sequence", "normalizers": [SPACE_TO_META, SPACE_TO_META]}, True, None, True),
        ({"type": "Sequence", "normalizers": [{"type": "NFC"}]}, False, "NFC", False),  # one part: that part
        ({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Lowercase"}]}, False, None, False),
        ({"type": "Replace", "pattern": {"Regex": " "}, "content": "_"}, False, None, False),
        ({"type": "Replace", "pattern": {"String": "ab"}, "content": "c"}, False, None, False),
        ({"type": "Replace", "pattern": {"String": " "}, "content": "__"}, False, None, False),
        ({"type": "Prepend", "prepend": "\u2581"}, False, None, False),
    ],
)
def test_a_normalizer_says_what_it_does_to_offsets(spec, one_to_one, form, space):
    norm = hc.build_normalizer(spec)
    assert norm is not None
    assert (norm.one_to_one, norm.unicode_form, norm.replaces_space) == (one_to_one, form, space)
    if one_to_one:  # each character stays one character
        text = "a b  c\u00e9 "
        assert len(norm(text, None)[0]) == len(text)


def test_an_empty_sequence_is_no_stage():
    assert hc.build_normalizer({"type": "Sequence", "normalizers": []}) is None
    assert hc.build_pre_tokenizer(None) is None and hc.build_decoder(None) is None


@pytest.mark.parametrize(
    ("spec", "n_finders", "has_rest"),
    [
        (_split({"Regex": WORDS}), 1, False),
        (
            {
                "type": "Sequence",
                "pretokenizers": [_split({"Regex": WORDS}), {"type": "ByteLevel", "use_regex": False}],
            },
            1,
            True,
        ),
        (
            {
                "type": "Sequence",
                "pretokenizers": [
                    _split({"Regex": r"\p{N}{1,3}"}),
                    _split({"String": "\n"}),
                    _split({"Regex": WORDS}),
                    {"type": "Digits", "individual_digits": True},
                    {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False},
                ],
            },
            3,
            True,
        ),
        (_split({"String": " "}, "MergedWithPrevious"), 0, False),  # Gemma 3
        (_split({"Regex": WORDS}, invert=True), 0, False),
        (_split({"String": ""}), 0, False),
        ({"type": "ByteLevel"}, 0, False),
        ({"type": "Sequence", "pretokenizers": [{"type": "Digits"}, _split({"Regex": WORDS})]}, 0, False),
    ],
)
def test_leading_isolated_splits_walked_lazily_give_the_stages_pieces(spec, n_finders, has_rest):
    pre = hc.build_pre_tokenizer(spec)
    assert pre is not None
    lazy = pre.leading_isolated_splits()
    if not n_finders:
        assert lazy is None
        return
    assert lazy is not None
    finders, rest = lazy
    assert len(finders) == n_finders and (rest is not None) == has_rest
    text = "It's 2026:\n  12345 words, more\n\nwords  and  1 2 3 ."
    pieces = [(text, None, True)]
    for finder in finders:  # the lazy walk: gaps and matches of each finder, empty ones dropped
        out = []
        for p, _al, first in pieces:
            spans = [(i, i + len(finder)) for i in _find_all(p, finder)] if isinstance(finder, str) else None
            if spans is None:
                spans = [m.span() for m in finder(p)]
            prev = 0
            for a, b in spans:
                if prev < a:
                    out.append((p[prev:a], None, first and prev == 0))
                if a < b:
                    out.append((p[a:b], None, first and a == 0))
                prev = b
            if prev < len(p):
                out.append((p[prev:], None, first and prev == 0))
        pieces = out
    if rest is not None:
        pieces = rest(pieces)
    assert [w for w, _al, _f in pieces] == [w for w, _al, _f in pre([(text, None, True)])]


def _find_all(s: str, sub: str) -> list[int]:
    out, i = [], s.find(sub)
    while i >= 0:
        out.append(i)
        i = s.find(sub, i + len(sub))
    return out


def test_a_pre_tokenizer_says_what_it_holds():
    spec = {
        "type": "Sequence",
        "pretokenizers": [
            _split({"Regex": WORDS}),
            {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": False},
        ],
    }
    pre = hc.build_pre_tokenizer(spec)
    assert pre is not None and pre.asks_first and pre.uses("Metaspace") and not pre.uses("ByteLevel")
    assert [s.kind for s in pre.steps] == ["Split", "Metaspace"]
    assert pre.info == {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Split", "regex": WORDS, "behavior": "Isolated", "invert": False},
            {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": False},
        ],
    }
    always = hc.build_pre_tokenizer({"type": "Metaspace", "add_prefix_space": True})
    assert always is not None and not always.asks_first  # (before prepend_scheme: "always")
    dec = hc.build_decoder({"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Metaspace"}]})
    assert dec is not None and dec.uses("Metaspace") and dec.uses("ByteFallback") and not dec.uses("ByteLevel")
    assert dec(["\u2581a", "\u2581b"]) == ["a", " b"]
