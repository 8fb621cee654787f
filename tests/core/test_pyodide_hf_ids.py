"""Inside Pyodide: bytepair's ids for the open-model files equal ``tokenizers``' / ``mistral-common``'s,
computed beforehand on CPython by ``tests/pyodide/hf_fixture.py``.

On CPython ``test_hf_parity.py`` and ``test_tekken.py`` compare with the
references directly, so this file skips there; inside Pyodide (no ``regex``:
the split patterns run on the stdlib ``re`` back-end) a missing fixture fails.
"""

from __future__ import annotations

import functools
import json
import pathlib
import sys

import pytest

import bytepair

FIXTURE_DIR = pathlib.Path(__file__).resolve().parents[2] / ".cache" / "pyodide-fixtures"
FIXTURE = FIXTURE_DIR / "hf_ids.json"
IN_PYODIDE = sys.platform == "emscripten"

if not IN_PYODIDE:
    pytest.skip(
        "CPython compares with tokenizers / mistral-common directly (test_hf_parity.py, test_tekken.py)",
        allow_module_level=True,
    )


def _fixture() -> dict:
    if not FIXTURE.is_file():
        pytest.fail(
            f"{FIXTURE} is missing: tests/pyodide/hf_fixture.py writes it (write_fixture) before starting Pyodide"
        )
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


DATA = _fixture() if FIXTURE.is_file() else {"texts": {}, "models": {}, "tekken": {}}
CASES = [(m, k) for m, by in DATA["models"].items() for k in by["ids"]] + [
    (f"tekken_{v}", k) for v, by in DATA["tekken"].items() for k in by["ids"]
]


@functools.cache
def _tok(name: str):
    if name.startswith("tekken_"):
        return bytepair.from_tekken(FIXTURE_DIR / "hf-models" / f"{name}.json")
    d = FIXTURE_DIR / "hf-models" / name
    return bytepair.from_tokenizer_json(d / "tokenizer.json", config=d / "tokenizer_config.json")


def _expected(name: str) -> dict:
    return DATA["tekken"][name[len("tekken_") :]] if name.startswith("tekken_") else DATA["models"][name]


def test_fixture_covers_all_models():
    data = _fixture()
    assert set(data["models"]) == {"llama3_1", "qwen3", "gemma3", "deepseek_v3", "gptoss"}
    assert data["tekken"] and len(data["texts"]) >= 50


@pytest.mark.parametrize(("model", "key"), CASES, ids=[f"{m}-{k}" for m, k in CASES])
def test_hf_ids_and_decode_equal_reference(model, key):
    tok = _tok(model)
    want = _expected(model)
    text = DATA["texts"][key]
    assert tok.encode(text) == want["ids"][key]
    assert tok.decode(want["ids"][key]) == want["decoded"][key]


@pytest.mark.parametrize("model", sorted(DATA["models"]))
def test_site_file_ids_equal_reference(model):
    """The file the site ships (``models/<name>.bpv``), loaded as the page loads it: its tables
    fill as each text needs them (bytepair.hf.lazy), text after text in one tokenizer."""
    from bytepair.hf.compact import from_compact

    tok = from_compact((FIXTURE_DIR / "hf-models" / model / "site.bpv").read_bytes())
    want = _expected(model)
    for key, ids in want["ids"].items():
        assert tok.encode(DATA["texts"][key]) == ids, key
    assert tok.decode(want["ids"][key]) == want["decoded"][key]


@pytest.mark.parametrize("model", sorted(DATA["models"]) + [f"tekken_{v}" for v in sorted(DATA["tekken"])])
def test_stepped_counts_and_first_spans_equal_reference(model):
    """bytepair.app.chunked.CountJob in steps of 3 pieces (bytepair.hf.chunked for open models), and
    first_spans where it applies, against the reference's ids of each text."""
    from bytepair.app import chunked

    tok = _tok(model)
    for key, ids in _expected(model)["ids"].items():
        text = DATA["texts"][key]
        job = chunked.CountJob(tok, text, batch=3)
        while not job.step(0):
            pass
        assert job.count == len(ids), key
        got = chunked.first_spans(tok, text, 4)
        if got is not None:
            assert [s.id for s in got[0]] == ids[:4], key
