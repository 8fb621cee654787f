"""Naming invisible and control characters (bytepair.charnames) and explaining
character fragments (bytepair.decoding.token_note / token_to_label).

References: Python's ``unicodedata`` (Unicode Character Database: general
categories, names, and the NameAliases.txt abbreviations that
``unicodedata.lookup`` resolves), Python's UTF-8 codec (how many bytes a
character takes), and tiktoken's o200k_base ids for the family emoji of issue 11.
"""

from __future__ import annotations

import unicodedata

import pytest

import bytepair
from bytepair import charnames
from bytepair.charnames import char_label, char_title, invisible_marks, text_label
from bytepair.decoding import token_note, token_note_parts, token_to_display, token_to_label
from tests import reference

NAMED = [
    "\u200d",
    "\u200c",
    "\u200b",
    "\u200e",
    "\u200f",
    "\ufeff",
    "\xad",
    "\x00",
    "\x1b",
    "\x7f",
    "\r",
    "\u2066",
    "\u2069",
    "\u202e",
    "\u061c",
    "\u2060",
    "\ufe0f",
    "\ufe00",
    "\U000e0100",
    "\U000e01ef",
    "\x85",
    "\u034f",
    "\u180b",
]


@pytest.mark.parametrize("ch", NAMED)
def test_labels_are_unicode_aliases_or_code_points(ch):
    label = char_label(ch)
    assert label
    if label.startswith("U+"):
        assert int(label[2:], 16) == ord(ch)
    else:
        # every abbreviation resolves back to its character in the Unicode database
        assert unicodedata.lookup(label) == ch


def test_zwj_is_named_zwj_and_titled_by_its_unicode_name():
    assert char_label("\u200d") == "ZWJ"
    assert char_title("\u200d") == "U+200D " + unicodedata.name("\u200d")


@pytest.mark.parametrize("ch", ["a", " ", "\n", "\t", "\xa0", "\u3000", "é", "🙂", "\u0301", "ন"])
def test_visible_characters_spaces_tab_and_newline_are_not_named(ch):
    assert char_label(ch) is None


def test_every_format_and_control_character_is_named():
    # the categories a reader cannot see, over the whole code space (but tab and newline)
    for cp in range(0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and cp not in (9, 10):
            assert char_label(ch), hex(cp)


def test_invisible_marks_utf16_positions_count_astral_characters_twice():
    text = "👨\u200d👩\u200d👧"
    m = invisible_marks(text, units="utf16")
    # JavaScript indices of the two ZWJs: each emoji is 2 UTF-16 code units
    js_index = [
        i
        for i, u in enumerate(text.encode("utf-16-le")[::2])
        if u == 0x0D and text.encode("utf-16-le")[2 * i + 1] == 0x20
    ]
    assert m["start"] == js_index == [2, 5]
    assert m["end"] == [3, 6] and m["label"] == ["ZWJ", "ZWJ"]
    assert invisible_marks(text)["start"] == [text.index("\u200d"), text.rindex("\u200d")] == [1, 3]
    with pytest.raises(ValueError):
        invisible_marks(text, units="bytes")


def test_text_label_and_token_to_label_name_what_token_to_display_leaves_invisible():
    zwj = "\u200d".encode()
    assert token_to_display(zwj) == "\u200d"  # the empty chip of issue 11
    assert token_to_label(zwj) == "⟨ZWJ⟩"
    assert text_label("a\x1bb\nc") == "a⟨ESC⟩b\nc"
    assert token_to_label(b"a\xe0\xa6") == token_to_display(b"a\xe0\xa6") == "a<e0a6>"


def test_family_emoji_zwj_token_in_o200k_is_labelled():
    tiktoken = pytest.importorskip("tiktoken")  # noqa: F841
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    enc = tiktoken_encoding("o200k_base", registry.load_ranks("o200k_base"))
    ids = enc.encode("👨\u200d👩\u200d👧")
    zwj_tokens = [i for i in ids if enc.decode_single_token_bytes(i) == "\u200d".encode()]
    assert zwj_tokens == [2524, 2524]  # the id named in issue 11
    assert token_to_label(enc.decode_single_token_bytes(2524)) == "⟨ZWJ⟩"


@pytest.mark.parametrize("ch", ["আ", "ন", "€", "🙂", "é", "中"])
def test_note_counts_the_bytes_of_a_split_character_as_utf8_does(ch):
    data = ch.encode("utf-8")
    for k in range(1, len(data)):
        head, tail = data[:k], data[k:]
        assert f"the first {k} of the {len(data)} UTF-8 bytes" in token_note(head)
        assert f"the last {len(tail)} byte" in token_note(tail)
        assert (head + tail).decode("utf-8") == ch


@pytest.mark.parametrize("ch", ["আ", "€", "🙂"])
def test_note_parts_give_the_same_facts_as_data(ch):
    """token_note_parts (what the page words in its language) holds the byte counts UTF-8 gives
    (Python's codec as the reference) and the named character's code point and Unicode name."""
    data = ch.encode("utf-8")
    for k in range(1, len(data)):
        assert token_note_parts(data[:k]) == [{"kind": "lead", "hex": data[:k].hex(), "n": k, "need": len(data)}]
        assert token_note_parts(data[k:]) == [{"kind": "tail", "hex": data[k:].hex(), "n": len(data) - k}]
    assert token_note_parts(b"\xff") == [{"kind": "bad", "hex": "ff"}]
    assert token_note_parts(b"ab") == []
    zwj = token_note_parts("a\u200d".encode())
    assert zwj == [
        {"kind": "char", "label": "ZWJ", "shown": "⟨ZWJ⟩", "title": f"U+200D {unicodedata.name(chr(0x200D))}"}
    ]


def test_note_is_empty_for_plain_text_and_names_invalid_bytes():
    assert token_note(b"hello") == ""
    assert "not valid UTF-8" in token_note(b"\xff")
    assert token_note("\u200d".encode()) == "⟨ZWJ⟩ = U+200D ZERO WIDTH JOINER."
    with pytest.raises(TypeError):
        token_note("text")


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
