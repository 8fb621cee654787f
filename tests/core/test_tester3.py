"""Tester round 2, core halves: a token that begins with a combining mark is shown on a
dotted circle (problem 4: GPT-2 splits "e" + U+0301 into 'e' and a lone mark, whose chip was
empty), and an empty item in pasted ids ("1,2,,3") is refused by position (problem 9)."""

from __future__ import annotations

import json
import pathlib
import unicodedata

import pytest

import bytepair
from bytepair import charnames
from bytepair.decoding import parse_token_ids
from bytepair.errors import ArgumentError
from tests import reference


def test_dotted_circle_is_the_unicode_one():
    assert unicodedata.name(charnames.DOTTED_CIRCLE) == "DOTTED CIRCLE"


@pytest.mark.parametrize(
    "ch,want",
    [
        ("\u0301", True),  # COMBINING ACUTE ACCENT (Mn)
        ("\u093f", True),  # DEVANAGARI VOWEL SIGN I (Mc)
        ("\u20dd", True),  # COMBINING ENCLOSING CIRCLE (Me)
        ("\ufe0f", False),  # VS16: a mark, but shown by name
        ("\u034f", False),  # CGJ: likewise
        ("e", False),
        (" ", False),
    ],
)
def test_needs_base_follows_the_general_category(ch, want):
    assert charnames.needs_base(ch) is want


def test_a_lone_accent_token_is_labelled_on_a_dotted_circle():
    # tiktoken's own cl100k split of "café" typed with a combining accent: the accent is a token of its own
    pytest.importorskip("tiktoken")
    enc = reference.tiktoken_encoding("cl100k_base", bytepair.registry.load_ranks("cl100k_base"))
    text = "cafe\u0301 naive"
    pieces = [enc.decode_single_token_bytes(i) for i in enc.encode(text)]
    assert b"\xcc\x81" in pieces, pieces
    assert bytepair.token_to_label(b"\xcc\x81") == "\u25cc\u0301"
    assert bytepair.token_to_label("e\u0301".encode()) == "e\u0301"  # a mark on its letter is left alone
    starts, pos = [], 0
    for p in pieces:
        starts.append(pos)
        pos += len(p.decode())
    m = charnames.invisible_marks(text, token_starts=starts)
    assert (m["start"], m["label"], m["base"]) == ([text.index("\u0301")], ["\u25cc"], [True])


def test_invisible_marks_put_a_base_under_a_mark_at_a_token_start_only():
    text = "cafe\u0301 x\u200d"
    m = charnames.invisible_marks(text, token_starts=[0, 4])
    assert m["start"] == [4, 7] and m["label"] == ["\u25cc", "ZWJ"] and m["base"] == [True, False]
    assert "COMBINING ACUTE ACCENT" in m["title"][0]
    # the bare name (for a page wording the rest in its language): code point and Unicode name
    assert m["name"] == [f"U+{ord(c):04X} {unicodedata.name(c)}" for c in "\u0301\u200d"]
    assert charnames.invisible_marks(text)["start"] == [7]  # no token starts: the accent is on its "e"


def test_invisible_marks_utf16_positions():
    text = "\U0001f600\u0301"  # an emoji (2 UTF-16 units), then a mark starting a token at unit 2
    m = charnames.invisible_marks(text, units="utf16", token_starts=[2])
    assert (m["start"], m["end"], m["base"]) == ([2], [3], [True])


@pytest.mark.parametrize("text,item,n", [("1,2,,3", 3, 4), ("1,2,", 3, 3), (",1", 1, 2), ("[1, , 2]", 2, 3)])
def test_empty_id_item_is_refused_by_position(text, item, n):
    with pytest.raises(ArgumentError, match=f"Item {item} of the {n} comma-separated items is empty") as e:
        parse_token_ids(text)
    assert e.value.field == "ids"


@pytest.mark.parametrize("text,want", [("1,2, 3", [1, 2, 3]), ("[1, 2]", [1, 2]), ("1 2", [1, 2]), ("", [])])
def test_ids_that_parse(text, want):
    assert parse_token_ids(text) == want


def test_story_display_form_is_the_vocabularys_own_spelling():
    # problem 7: Gemma 3's space token was shown with "GPT-2 form 'Ġ'"; its vocabulary spells it '▁'
    from tests import hf_models

    tok = hf_models.ours("gemma3")
    ref = hf_models.reference("gemma3")
    text = "hello world"
    ids = ref.encode(text, add_special_tokens=False).ids
    story = bytepair.token_story(tok, text, 1).to_dict()
    assert story["id"] == ids[1]
    assert story["vocab_form"] == {"kind": "vocab", "label": "in the vocabulary", "text": ref.id_to_token(ids[1])}
    assert "\u0120" not in story["vocab_form"]["text"] and story["vocab_form"]["text"].startswith("\u2581")


def test_story_display_form_of_a_rank_file_is_gpt2s():
    story = bytepair.token_story(bytepair.get_encoding("cl100k_base"), "hello world", 1).to_dict()
    assert story["vocab_form"] == {
        "kind": "gpt2",
        "label": "GPT-2 form",
        "text": "\u0120world",
    }  # GPT-2's byte-to-unicode: ' ' -> 'Ġ'


def test_tekken_special_switch_says_what_the_file_is():
    # problem 9: Mistral NeMo's switch said "as this tokenizer.json's post-processor does" for a Tekken file
    tekken = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    from tests.hf_models import tekken_path

    p = tekken_path("240718")
    ref = tekken.Tekkenizer.from_file(p)
    words = bytepair.from_tekken(p).describe()["special_tokens_switch"]
    bos = ref.id_to_piece(ref.bos_id)
    assert ref.encode("hi", bos=True, eos=False)[0] == ref.bos_id  # what the switch says mistral-common adds
    assert words == f"Add special tokens ({bos}), as mistral-common does for a Tekken file"
    assert "tokenizer.json" not in words and "post-processor" not in words
    # issue 21: a page in another language words it from its kind; in English, the same words
    d = bytepair.from_tekken(p).describe()
    en = json.loads((pathlib.Path(__file__).parents[2] / "web/src/locales/en.json").read_text(encoding="utf-8"))
    form = en["messages"][f"tok.addSpecial.{d['special_tokens_switch_kind']}"]["en"]
    assert form.replace("{bos}", d["bos_token"]) == words


def test_story_shows_a_lone_mark_on_a_dotted_circle():
    pytest.importorskip("tiktoken")
    enc = reference.tiktoken_encoding("cl100k_base", bytepair.registry.load_ranks("cl100k_base"))
    text = "cafe\u0301 naive"
    ids = enc.encode(text)
    k = [enc.decode_single_token_bytes(i) for i in ids].index(b"\xcc\x81")  # tiktoken's lone-accent token
    story = bytepair.token_story(bytepair.get_encoding("cl100k_base"), text, k)
    assert story.id == ids[k] and story.text == "\u25cc\u0301"
    assert story.to_dict()["hex"] == "cc81"  # the token itself is unchanged
