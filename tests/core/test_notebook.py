"""bytepair.show / TokenView: the coloured tokens a notebook displays.

References: ids and token bytes from tiktoken (built offline on bytepair's rank
data, as tests/core/test_encode_parity.py) and from Hugging Face ``tokenizers``;
character names from Python's ``unicodedata`` and Unicode's NameAliases.txt
abbreviations (ZWJ, ESC); the hex form of fragments written out from the bytes
here. The HTML is parsed with the standard library's parser, as a browser would
build its DOM (tests/e2e/test_notebook_output.py opens it in Chromium).
"""

from __future__ import annotations

import html.parser
import unicodedata

import pytest

import bytepair
from bytepair.notebook import TOKEN_COLORS, TokenView, show
from tests.reference import tiktoken_for

VOID = {"br", "img", "hr", "meta", "link", "input", "wbr"}


class _Dom(html.parser.HTMLParser):
    """Elements as dicts {tag, attrs, text, children}; text is the textContent."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = {"tag": "#root", "attrs": {}, "children": [], "text": ""}
        self.stack = [self.root]
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        el = {"tag": tag, "attrs": dict(attrs), "children": [], "text": ""}
        self.stack[-1]["children"].append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_endtag(self, tag):
        assert self.stack[-1]["tag"] == tag, (self.stack[-1]["tag"], tag)
        self.stack.pop()

    def handle_data(self, data):
        for el in self.stack:
            el["text"] += data


def parse(markup: str) -> _Dom:
    dom = _Dom()
    dom.feed(markup)
    dom.close()
    assert dom.stack == [dom.root], "unclosed elements"
    return dom


def find(el, cls):
    out = []
    for child in el["children"]:
        if cls in child["attrs"].get("class", "").split():
            out.append(child)
        out.extend(find(child, cls))
    return out


def chips(view: TokenView):
    return find(parse(view._repr_html_()).root, "bytepair-token")


reference = tiktoken_for


TEXTS = [
    "hello world",
    "naïve café ☕ 😀 ",
    "আমি বাংলায় গান গাই",
    "a\u200db\u200c \x1b[0m\tx\r\n",
    "<script>alert('x')</script> & \"q\" <b>bold</b>",
    "e\u0301 \u0301 x\ufe0f",
]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
@pytest.mark.parametrize("text", TEXTS)
def test_ids_and_bytes_equal_tiktoken(name, text):
    enc = reference(name)
    view = show(name, text)
    expected = enc.encode(text)
    assert view.ids == expected
    assert view.tokens == [enc.decode_single_token_bytes(t) for t in expected]
    drawn = chips(view)
    assert [int(c["attrs"]["data-id"]) for c in drawn] == expected
    for c, t in zip(drawn, expected):
        b = enc.decode_single_token_bytes(t)
        # id and bytes on hover
        assert c["attrs"]["title"].startswith(f"id {t} · {len(b)} byte")
        assert " ".join(f"{x:02x}" for x in b) in c["attrs"]["title"]
        # the page's plain-text naming of the same token (invisible characters, hex, dotted circle)
        assert c["text"] == bytepair.token_to_label(b)


def test_html_escapes_a_script_token():
    enc = reference("cl100k_base")
    text = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    view = show("cl100k_base", text)
    markup = view._repr_html_()
    dom = parse(markup)
    # no element but the view's own divs and spans: the text never becomes markup
    assert set(dom.tags) <= {"div", "span"}
    assert "<script" not in markup.lower() and "<img" not in markup.lower()
    drawn = find(dom.root, "bytepair-token")
    # each chip's text is the token's own text (tiktoken's bytes, valid UTF-8 here)
    assert [c["text"] for c in drawn] == [enc.decode_single_token_bytes(t).decode() for t in enc.encode(text)]
    assert "".join(c["text"] for c in drawn) == text
    # a tokenizer name with markup is escaped too
    tok = bytepair.train("aaabdaaabac", 259, pattern="none", name="<b>x</b>")
    assert "<b>" not in show(tok, "ab")._repr_html_()


def test_invisible_characters_named_as_unicode_names_them():
    text = "a\u200db\x1b\ufe0f"
    view = show("o200k_base", text)
    boxes = find(parse(view._repr_html_()).root, "bytepair-invisible")
    # NameAliases.txt abbreviations: ZWJ (U+200D), ESC (U+001B), VS16 (U+FE0F, "VARIATION SELECTOR-16")
    assert [b["text"] for b in boxes] == ["\u27e8ZWJ\u27e9", "\u27e8ESC\u27e9", "\u27e8VS16\u27e9"]
    assert [b["attrs"]["title"] for b in boxes] == [
        f"U+200D {unicodedata.name(chr(0x200D))}",  # ZERO WIDTH JOINER
        "U+001B ESCAPE",  # controls have no unicodedata.name: the alias
        f"U+FE0F {unicodedata.name(chr(0xFE0F))}",
    ]
    assert unicodedata.lookup("ZWJ") == "\u200d" and unicodedata.lookup("ESC") == "\x1b"
    # and as bytepair's plain-text helpers name them
    for c, b in zip(chips(view), view.tokens):
        assert c["text"] == bytepair.token_to_label(b)
    assert "\u27e8ZWJ\u27e9" in repr(view)


def test_partial_utf8_tokens_as_hex():
    enc = reference("cl100k_base")
    text = "আ 😀 ☕"
    view = show("cl100k_base", text)
    ids = enc.encode(text)
    token_bytes = [enc.decode_single_token_bytes(t) for t in ids]
    drawn = chips(view)
    fragments = 0
    for c, b in zip(drawn, token_bytes):
        try:
            shown = b.decode("utf-8")
        except UnicodeDecodeError:
            # written out here: a leading text part then one <hex> group of the rest
            good = b
            while good:
                try:
                    good.decode("utf-8")
                    break
                except UnicodeDecodeError:
                    good = good[:-1]
            rest = b[len(good) :]
            shown = good.decode() + "<" + rest.hex() + ">"
            assert find(c, "bytepair-hex")[0]["text"] == "<" + rest.hex() + ">"
            assert "UTF-8 bytes" in c["attrs"]["title"] or "continuation" in c["attrs"]["title"]
            fragments += 1
        assert c["text"] == shown == bytepair.token_to_display(b)
    assert fragments >= 2  # আ is split in cl100k (b"\xe0\xa6" + b"\x86")
    assert "<e0a6>" in repr(view)


def test_trained_tokenizer_wikipedia_example():
    # the worked example of byte-pair encoding (Wikipedia): aaabdaaabac, 3 merges -> ZdZac
    tok = bytepair.train("aaabdaaabac", 259, pattern="none")
    view = show(tok, "aaabdaaabac", show_ids=True)
    assert len(view) == 5
    drawn = chips(view)
    assert [c["text"] for c in drawn] == [
        "aaab" + str(view.ids[0]),
        "d" + str(view.ids[1]),
        "aaab" + str(view.ids[2]),
        "a" + str(view.ids[3]),
        "c" + str(view.ids[4]),
    ]
    assert view.ids[1:] == [100, view.ids[0], 97, 99]
    styles = [c["attrs"]["style"] for c in drawn]
    assert [TOKEN_COLORS[i % 6] in s for i, s in enumerate(styles)] == [True] * 5


def test_open_model_tokenizer_from_tokenizers():
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    ref = tokenizers.Tokenizer(models.BPE())
    ref.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    ref.decoder = tokenizers.decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<s>"]
    )
    ref.train_from_iterator(["the cat sat on the mat " * 20, "আমি বাংলায় গান গাই"], trainer=trainer)
    tok = bytepair.from_tokenizer_json(ref.to_str())
    text = "the mat sat <s> আমি"
    view = show(tok, text)
    assert view.ids == ref.encode(text).ids
    specials = [c for c in chips(view) if "special token" in c["attrs"]["title"]]
    assert [c["text"] for c in specials] == ["<s>"]


def test_plain_text_and_mimebundle():
    view = show("cl100k_base", "hello world")
    assert repr(view) == "cl100k_base: 2 tokens, 11 characters, 11 bytes\nids: [15339, 1917]\nhello| world"
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == repr(view) and bundle["text/html"] == view._repr_html_()


def test_limit_draws_the_first_tokens_and_counts_the_rest():
    text = "hello world " * 50
    n = len(reference("cl100k_base").encode(text))
    view = show("cl100k_base", text, limit=3)
    assert len(chips(view)) == 3 and len(view) == n
    assert f"{n - 3} more tokens" in view._repr_html_()
    assert f"({n - 3} more)" in repr(view)


def test_errors_are_structured():
    with pytest.raises(bytepair.errors.ArgumentTypeError) as e:
        show("cl100k_base", b"bytes")
    assert e.value.field == "text"
    with pytest.raises(bytepair.errors.ArgumentError) as e:
        show("cl100k_base", "x", limit=0)
    assert e.value.field == "limit"
    with pytest.raises(bytepair.errors.ArgumentTypeError) as e:
        show(42, "x")
    assert e.value.field == "tokenizer"
    with pytest.raises(KeyError):
        show("no-such-encoding", "x")
    with pytest.raises(ValueError):  # a disallowed special token, as encode
        show("cl100k_base", "<|endoftext|>")
    assert show("cl100k_base", "<|endoftext|>", allowed_special="all").ids == [100257]
