"""Inside Pyodide: bytepair's ids equal tiktoken's, computed beforehand on CPython.

On CPython ``test_encode_parity.py`` compares with tiktoken directly, so this
file skips there; inside Pyodide (where tiktoken cannot run and the patterns
run on the stdlib ``re`` back-end) the fixture written by
``tests/pyodide/tiktoken_fixture.py`` must exist, and a missing one fails.
"""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

import bytepair

FIXTURE = pathlib.Path(__file__).resolve().parents[2] / ".cache" / "pyodide-fixtures" / "tiktoken_ids.json"
IN_PYODIDE = sys.platform == "emscripten"

if not IN_PYODIDE:
    pytest.skip("CPython compares with tiktoken directly (test_encode_parity.py)", allow_module_level=True)


def _fixture() -> dict:
    if not FIXTURE.is_file():
        pytest.fail(f"{FIXTURE} is missing: tests/pyodide/test_in_pyodide.py writes it before starting Pyodide")
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


DATA = _fixture() if FIXTURE.is_file() else {"texts": {}, "ids": {"missing": {"missing": []}}}
CASES = [(enc, key) for enc, by_text in DATA["ids"].items() for key in by_text]


def test_fixture_is_present_and_covers_all_encodings():
    data = _fixture()
    assert set(data["ids"]) == {"gpt2", "cl100k_base", "o200k_base"}
    assert len(data["texts"]) >= 60


@pytest.mark.parametrize(("encoding", "key"), CASES, ids=[f"{e}-{k}" for e, k in CASES])
def test_ids_equal_tiktoken(encoding, key):
    enc = bytepair.get_encoding(encoding)
    text = DATA["texts"][key]
    assert enc.encode(text, allowed_special="all") == DATA["ids"][encoding][key]
