"""The courses' lessons (bytepair.app.lessons, issue 21 item 6): every link state is one the page
reads, every figure we show comes from a reference, and every figure the course prints is
checked against what reproduces it (or against every real tokenizer, when none does).

References: tiktoken (built offline with ``tiktoken.Encoding`` from the shipped ranks, as the
other tests do), the Bangla course's own mini BPE (tests/reference/course_mini_bpe.py), the slow
textbook oracle of tests/core/test_textbook.py (Algorithm 1 on strings), and the ``regex``
module with tiktoken's own split pattern.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import bytepair
from bytepair.app import gallery, lessons
from bytepair.teach import textbook
from tests.reference import course_mini_bpe, tiktoken_pattern
from tests.reference.textbook_oracle import PAPER_FIRST_MERGES, PAPER_VOCAB, oracle_learn
from tests.web_source import link_params

ROOT = pathlib.Path(__file__).resolve().parents[2]
OPENAI = ("gpt2", "cl100k_base", "o200k_base")
SHORT = {"gpt2": "gpt2", "cl100k_base": "cl100k", "o200k_base": "o200k"}


@pytest.fixture(scope="module")
def tk():
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_encoding

    return {n: tiktoken_encoding(n, bytepair.get_encoding(n).mergeable_ranks()) for n in OPENAI}


@pytest.fixture(scope="module")
def data(tk):
    """The page's lesson data, computed with tiktoken's encodings (they have the same two methods)."""
    return {x["id"]: x for x in lessons.lessons_data(get_encoding=tk.__getitem__)}


# ---------------------------------------------------------------- the page's links


def _locales() -> list[str]:
    src = (ROOT / "web" / "src" / "i18n.js").read_text(encoding="utf-8")
    return re.findall(r'\{ code: "([\w-]+)"', src)


def test_one_lesson_per_course_in_its_language():
    assert sorted(x.course for x in lessons.LESSONS) == ["bn", "fa", "hi-Latn", "ur"]
    assert set(x.course for x in lessons.LESSONS) <= set(_locales())


@pytest.mark.parametrize("lesson", lessons.LESSONS, ids=lambda x: x.id)
def test_link_state_is_one_the_view_reads(lesson):
    known = link_params()
    assert set(known) == {"train", "tokenize", "compare", "steps", "chat", "report"}
    assert lesson.view in known
    keys = set(lesson.params) | ({"t"} if lesson.text is not None else set())
    assert keys <= set(known[lesson.view]), keys - set(known[lesson.view])
    assert all(isinstance(v, str) and v for v in lesson.params.values())
    p = lesson.params
    names = set(bytepair.list_encoding_names())
    if lesson.view == "compare":
        assert p["src"] in ("udhr", "custom") and p.get("metric", "premium") in ("premium", "tokens", "bpt")
        assert set(p["tok"].split(",")) <= names
        # compare.js parseParallel: "name | text" lines, at least two
        rows = [re.match(r"^([^\t|]+?)\s*(?:\t| \| )\s*(.+)$", line) for line in lesson.text.split("\n")]
        assert len(rows) >= 2 and all(rows)
    elif lesson.view == "steps":
        assert p["mode"] == "textbook" and p["in"] == "counts" and p["tie"] in textbook.TIE_BREAKS
        assert 1 <= int(p["n"]) <= textbook.MAX_MERGES and 0 <= int(p["s"]) <= int(p["n"])
        assert textbook.parse_word_counts(lesson.text)
    elif lesson.view == "tokenize":
        if "g" in p:
            ex = gallery.example(p["g"])
            assert 0 <= int(p.get("gt", "0")) < len(ex.texts)
        else:
            assert p["tok"] in names and lesson.text
    else:  # pragma: no cover - no lesson opens another view yet
        pytest.fail(lesson.view)


def test_catalog_notes_use_only_the_data_given(data):
    en = json.loads((ROOT / "web" / "src" / "locales" / "en.json").read_text(encoding="utf-8"))["messages"]
    for x in data.values():
        given = set(x["facts"]) | {f"quoted_{k}" for k in x["quoted"]}
        given |= {k[: -len("_count")] + "_tokens" for k in x["facts"] if k.endswith("_count")}
        keys = [f"lessons.{x['id']}.title", f"lessons.{x['id']}.text"]
        keys += [f"lessons.stage.{s}{n}" for s in x["stages"] for n in ("", ".note")]
        for key in keys:
            need = set(re.findall(r"\{(\w+)\}", en[key]["text"]))
            assert need <= given, (key, need - given)
        # no figure typed into a note: every number comes from the data
        prose = re.sub(r"\{\w+\}|UTF-8|o200k|cl100k|gpt2", "", en[f"lessons.{x['id']}.text"]["text"])
        assert not re.search(r"\d", prose), x["id"]


def test_lessons_data_with_bytepair_equals_with_tiktoken(data):
    mine = {x["id"]: x for x in lessons.lessons_data()}
    assert mine == data


# ---------------------------------------------------------------- Bangla: premium and the mini BPE


def test_bangla_counts_are_tiktokens(data, tk):
    f = data["bangla-premium"]["facts"]
    for name in OPENAI:
        assert f[f"en_{SHORT[name]}_count"] == len(tk[name].encode_ordinary(lessons.BANGLA_EN))
        assert f[f"bn_{SHORT[name]}_count"] == len(tk[name].encode_ordinary(lessons.BANGLA_BN))


def test_bangla_course_figures_are_its_mini_bpes_and_no_real_tokenizers(data, tk):
    q = data["bangla-premium"]["quoted"]
    rules, _ = course_mini_bpe.train_bpe(lessons.MINI_BPE_CORPUS, lessons.MINI_BPE_MERGES)
    course = (
        len(course_mini_bpe.encode(lessons.BANGLA_EN, rules)),
        len(course_mini_bpe.encode(lessons.BANGLA_BN, rules)),
    )
    # the course's printed figures are what its own code gives ...
    assert (q["en_count"], q["bn_count"]) == course
    # ... and what bytepair's trainer gives on the same corpus (the note says so)
    f = data["bangla-premium"]["facts"]
    assert (f["mini_en_count"], f["mini_bn_count"]) == course
    assert course_mini_bpe.encode("the rider is late", rules).__len__() == 6  # the course's third sentence
    # ... but no real tokenizer's (the note says so too)
    for name in OPENAI:
        real = (len(tk[name].encode_ordinary(lessons.BANGLA_EN)), len(tk[name].encode_ordinary(lessons.BANGLA_BN)))
        assert real != course, name


def test_bangla_course_ids_are_cl100k_bases(data, tk):
    q = data["bangla-premium"]["quoted"]
    assert tk["cl100k_base"].encode_ordinary(q["ids_text"]) == q["ids"]
    assert tk["o200k_base"].encode_ordinary(q["ids_text"]) != q["ids"]
    assert tk["gpt2"].encode_ordinary(q["ids_text"]) != q["ids"]


# ---------------------------------------------------------------- Urdu: strawberry


def test_strawberry_counts_and_pieces_are_tiktokens(data, tk):
    f = data["counting-rs"]["facts"]
    assert f["r_count"] == 3 and f["letters"] == 10
    for name in OPENAI:
        ids = tk[name].encode_ordinary("strawberry")
        assert f[f"strawberry_{SHORT[name]}_count"] == len(ids)
        pieces = [tk[name].decode_single_token_bytes(i).decode("utf-8") for i in ids]
        assert f[f"strawberry_{SHORT[name]}_shown"] == "".join(f"[{p}]" for p in pieces)
        # the split "straw" + "berry" the Bangla course guesses is none of them (the note says so)
        assert pieces != data["counting-rs"]["quoted"]["split"]


# ---------------------------------------------------------------- Hinglish: the merge table


def test_textbook_merges_are_the_slow_oracles(data):
    steps = oracle_learn(PAPER_VOCAB, lessons.TEXTBOOK_MERGES, "lexicographic")
    assert textbook.parse_word_counts(lessons.TEXTBOOK_COUNTS) == PAPER_VOCAB
    pairs = [s["pair"] for s in steps]
    assert [(s["pair"], s["count"]) for s in steps] == PAPER_FIRST_MERGES  # the paper's table
    f = data["textbook-merges"]["facts"]
    assert f["merges"] == ", ".join(f"{a} {b} → {a}{b}" for a, b in pairs)
    quoted = [tuple(p) for p in data["textbook-merges"]["quoted"]["merges"]]
    wrong = next(i for i, (a, b) in enumerate(zip(pairs, quoted)) if a != b)
    assert f["wrong_step"] == wrong + 1 == 3
    counts = dict(steps[wrong]["pair_counts"])
    assert f["course_pair"] == " ".join(quoted[wrong]) and f["course_pair_count"] == counts[quoted[wrong]] == 2
    assert f["recount_pair"] == " ".join(pairs[wrong]) and f["recount_pair_count"] == steps[wrong]["count"] == 9


# ---------------------------------------------------------------- Persian: the pipeline


def test_pipeline_figures(data, tk):
    regex = pytest.importorskip("regex")
    f = data["pipeline-stages"]["facts"]
    text = lessons.PIPELINE_TEXT
    assert f["o200k_count"] == len(tk["o200k_base"].encode_ordinary(text))
    assert f["pieces_count"] == len(regex.findall(tiktoken_pattern("o200k_base"), text))
    assert (f["chars"], f["bytes"]) == (len(text), len(text.encode("utf-8")))
    assert data["pipeline-stages"]["stages"] == ["normalizer", "pre_tokenizer", "model", "post_processor", "decoder"]
    assert data["pipeline-stages"]["quoted"]["stages"] == len(data["pipeline-stages"]["stages"])


def test_unknown_lesson():
    with pytest.raises(bytepair.errors.UnknownNameError):
        lessons.lesson("nope")
