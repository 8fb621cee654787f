"""bytepair.app.gallery: every number an explanation states comes from the tokenizers,
and equals what tiktoken gives; the templates type in no number of their own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bytepair
from bytepair.app import gallery
from bytepair.errors import UnknownNameError
from tests import corpora

IDS = [e.id for e in gallery.EXAMPLES]


def test_templates_hold_no_numbers():
    gallery.check_templates()
    for ex in gallery.EXAMPLES:
        bare = re.sub(r"\{[^{}]*\}", "", ex.template)
        bare = re.sub(r"gpt2|GPT-2|cl100k_base|o200k_base|UTF-8", "", bare)  # names, not numbers
        assert not any(c.isdigit() for c in bare), f"{ex.id}: a number typed into the template: {bare!r}"
        assert not any(c.isdigit() for c in ex.title)
        assert all(label == text or not any(c.isdigit() for c in label) for label, text in ex.texts)


@pytest.mark.parametrize("example_id", IDS)
def test_facts_equal_tiktoken(example_id, tiktoken_get):
    mine = gallery.facts(example_id)
    ref = gallery.facts(example_id, get_encoding=tiktoken_get)
    assert mine == ref
    assert gallery.explanation(example_id) == gallery.explanation(example_id, get_encoding=tiktoken_get)


def _ref_tokens(get, name, text):
    enc = get(name)
    return [enc.decode_single_token_bytes(t) for t in enc.encode_ordinary(text)]


def test_stated_claims(tiktoken_get):
    get = tiktoken_get
    # glitch token: one token in gpt2, split in the later vocabularies
    g = gallery.facts("glitch-token")
    ids = get("gpt2").encode_ordinary(" SolidGoldMagikarp")
    assert len(ids) == 1 == g["gpt2_count"] and g["gpt2_ids"] == str(ids[0])
    for name, short in (("cl100k_base", "cl100k"), ("o200k_base", "o200k")):
        n = len(get(name).encode_ordinary(" SolidGoldMagikarp"))
        assert n > 1 and g[f"{short}_count"] == n
    # letters: counts and letters per token
    f = gallery.facts("counting-letters")
    parts = _ref_tokens(get, "o200k_base", "strawberry")
    assert f["strawberry_o200k_count"] == len(parts) > 1
    assert f["strawberry_o200k_letters"] == ", ".join(f"{p.decode()} {len(p)}" for p in parts)
    assert f["strawberry_cl100k_count"] == len(_ref_tokens(get, "cl100k_base", "strawberry"))
    # numbers: cl100k/o200k cut digit runs into groups of at most three from the left
    for name in ("cl100k_base", "o200k_base"):
        assert _ref_tokens(get, name, "1000000") == [b"100", b"000", b"0"]
        assert _ref_tokens(get, name, "12345") == [b"123", b"45"]
    n = gallery.facts("numbers")
    assert n["n1000000_cl100k_shown"] == "[100][000][0]" and n["n1000000_cl100k_count"] == 3
    assert n["n12345_gpt2_count"] == len(get("gpt2").encode_ordinary("12345"))
    # indentation: later vocabularies have tokens for runs of spaces; fewer tokens there
    i = gallery.facts("indentation")
    assert len(get("gpt2").encode_ordinary("    ")) == 4 and len(get("cl100k_base").encode_ordinary("   ")) == 1
    for key, text in (("four", "    x = 1"), ("eight", "        x = 1")):
        counts = {name: len(get(name).encode_ordinary(text)) for name in ("gpt2", "cl100k_base", "o200k_base")}
        assert i[f"{key}_gpt2_count"] == counts["gpt2"] > counts["cl100k_base"] == i[f"{key}_cl100k_count"]
        assert counts["o200k_base"] < counts["gpt2"]
    # spelling: the reversed word needs more tokens than the word
    s = gallery.facts("spelling")
    assert s["reversed_o200k_count"] == len(get("o200k_base").encode_ordinary("noitazinekot")) > s["word_o200k_count"]
    # language premium: Bangla costs more tokens under every encoding
    p = gallery.facts("language-premium")
    for name, short in (("gpt2", "gpt2"), ("cl100k_base", "cl100k"), ("o200k_base", "o200k")):
        e = len(get(name).encode_ordinary(gallery.UDHR_ARTICLE_1_ENG))
        b = len(get(name).encode_ordinary(gallery.UDHR_ARTICLE_1_BEN))
        assert (p[f"eng_{short}"], p[f"ben_{short}"]) == (e, b) and b > e
        assert p[f"ratio_{short}"] == f"{b / e:.1f}"
    # emoji family: fragments are tokens that are not whole UTF-8 characters
    m = gallery.facts("emoji-family")
    assert (m["code_points"], m["bytes"], m["people"], m["joiners"]) == (7, 25, 4, 3)
    for name, short in (("gpt2", "gpt2"), ("cl100k_base", "cl100k"), ("o200k_base", "o200k")):
        parts = _ref_tokens(get, name, gallery.EMOJI_FAMILY)
        frag = 0
        for q in parts:
            try:
                q.decode("utf-8")
            except UnicodeDecodeError:
                frag += 1
        assert m[f"{short}_count"] == len(parts) and m[f"{short}_fragments"] == frag
    assert m["gpt2_fragments"] > 0


def test_udhr_sentences_are_the_declaration():
    for code, sentence in (("eng", gallery.UDHR_ARTICLE_1_ENG), ("ben", gallery.UDHR_ARTICLE_1_BEN)):
        assert sentence in corpora.udhr([code])[0].text().split("\n")


def test_gallery_data(tiktoken_get):
    data = gallery.gallery_data()
    assert [d["id"] for d in data] == IDS
    json.dumps(data)
    for d in data:
        for t in d["texts"]:
            for row in t["rows"]:
                ref = tiktoken_get(row["encoding"]).encode_ordinary(t["text"])
                assert [x["id"] for x in row["tokens"]] == ref and row["count"] == len(ref)
                u16 = len(t["text"].encode("utf-16-le")) // 2
                assert row["tokens"] == [] or (row["tokens"][0]["start"] == 0 and row["tokens"][-1]["end"] == u16)
    assert gallery.gallery_data(ids=["numbers"])[0]["id"] == "numbers"
    with pytest.raises(UnknownNameError):
        gallery.facts("no-such-example")


def _gpt2_byte_decoder() -> dict[str, int]:
    """GPT-2's bytes_to_unicode (openai/gpt-2 encoder.py), inverted: written out here, not bytepair's."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


class _TokenizersAsEncoding:
    """`tokenizers.Tokenizer` (byte-level BPE) with the two methods gallery.facts reads."""

    def __init__(self, tok) -> None:
        self.tok = tok
        self.dec = _gpt2_byte_decoder()

    def encode_ordinary(self, text: str) -> list[int]:
        return self.tok.encode(text, add_special_tokens=False).ids

    def decode_single_token_bytes(self, tid: int) -> bytes:
        return bytes(self.dec[c] for c in self.tok.id_to_token(tid))


def test_numbers_show_qwen3_single_digits_when_its_file_is_there(tiktoken_get):
    from tests import hf_models

    ours = hf_models.ours("qwen3")
    ref = _TokenizersAsEncoding(hf_models.reference("qwen3"))

    def mine_get(name):
        return ours if name == "qwen3" else bytepair.get_encoding(name)

    def ref_get(name):
        return ref if name == "qwen3" else tiktoken_get(name)

    gallery.check_templates(mine_get)
    mine = gallery.facts("numbers", get_encoding=mine_get)
    assert mine == gallery.facts("numbers", get_encoding=ref_get)
    digits = ref.encode_ordinary("12345")
    assert mine["n12345_qwen3_count"] == len(digits) == 5  # one token per digit
    text = gallery.explanation("numbers", get_encoding=mine_get)
    assert "Qwen 3 is one of them: “12345” is [1][2][3][4][5] (5 tokens)" in text
    assert "qwen3" not in gallery.facts("numbers")  # without the file: no Qwen facts
    assert not any(k.endswith("_qwen3_count") for k in gallery.facts("numbers"))
    assert "Qwen" not in gallery.explanation("numbers")
    data = gallery.gallery_data(get_encoding=mine_get, ids=["numbers"])[0]
    assert data["encodings"] == ["gpt2", "cl100k_base", "o200k_base", "qwen3"]
    row = data["texts"][1]["rows"][3]
    assert [t["id"] for t in row["tokens"]] == digits


def test_the_pages_english_wording_is_pythons():
    """Issue 21: the page words an example from its facts with the catalog's template
    (gallery.ex.<id>.text); the English catalog's templates are Python's, and every
    locale's template uses only facts Python computes."""
    root = Path(__file__).resolve().parents[2] / "web" / "src" / "locales"
    en = json.loads((root / "en.json").read_text(encoding="utf-8"))["messages"]
    for ex in gallery.EXAMPLES:
        assert en[f"gallery.ex.{ex.id}.text"]["text"] == ex.template
        assert en[f"gallery.ex.{ex.id}.title"]["text"] == ex.title
        assert [en[f"gallery.ex.{ex.id}.label.{k}"]["text"] for k in range(len(ex.texts))] == [
            label for label, _ in ex.texts
        ]
        if ex.optional_template:
            assert en[f"gallery.ex.{ex.id}.optional"]["text"] == ex.optional_template
    data = {d["id"]: d for d in gallery.gallery_data()}
    for path in root.glob("*.json"):
        messages = json.loads(path.read_text(encoding="utf-8"))["messages"]
        for ex in gallery.EXAMPLES:
            names = set(gallery.placeholders(messages[f"gallery.ex.{ex.id}.text"]["text"]))
            assert names <= set(data[ex.id]["facts"]), (path.stem, ex.id)
    assert data["numbers"]["optional_shown"] is gallery.optional_shown(
        gallery.example("numbers"), bytepair.get_encoding
    )
