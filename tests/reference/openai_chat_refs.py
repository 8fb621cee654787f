"""Runners for the OpenAI chat references, shared by the tests that need them.

* :func:`gpt_tokenizer_encode_chat`: npm ``gpt-tokenizer`` 4.0.0 ``encodeChat``
  under Node.js (``tests/reference/gpt_tokenizer_chat.mjs``; needs ``node`` and
  ``node_modules/gpt-tokenizer``, or ``BYTEPAIR_NODE_MODULES``).
* :func:`harmony_encoding`: PyPI ``openai-harmony``'s ``HARMONY_GPT_OSS``
  encoding run offline: its loader reads ``o200k_base.tiktoken`` from the
  directory in ``TIKTOKEN_ENCODINGS_BASE`` (checking OpenAI's sha256), which
  is filled here with bytepair's ``py/bytepair/data/o200k_base.tiktoken.gz``
  decompressed (byte-identical to OpenAI's file, see docs/DEVELOPERS.md).

Both skip the calling test (``pytest.skip``) when the reference is missing
(inside Pyodide, or a machine without Node.js).
"""

from __future__ import annotations

import gzip
import json
import os
import pathlib
import shutil
import subprocess
from typing import Any

import pytest

from tests.reference.chat_transformers import ROOT, node_modules


def gpt_tokenizer_encode_chat(cases: list[dict[str, Any]]) -> list[Any]:
    """``encodeChat`` of each case ``{"model", "messages", "options"?}``: a list of
    ids, or ``{"error": message}`` where gpt-tokenizer refuses the conversation.

    Skips the test without Node.js or ``node_modules/gpt-tokenizer``; fails it
    when the Node.js script fails."""
    node = shutil.which("node")
    nm = node_modules()
    if node is None or not (nm / "gpt-tokenizer" / "package.json").is_file():
        pytest.skip("needs Node.js and node_modules/gpt-tokenizer (npm ci, or BYTEPAIR_NODE_MODULES)")
    script = ROOT / "tests" / "reference" / "gpt_tokenizer_chat.mjs"
    proc = subprocess.run(
        [node, str(script), str(nm)], input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def harmony_encoding(tiktoken_dir: pathlib.Path) -> tuple[Any, Any]:
    """``(openai_harmony module, HARMONY_GPT_OSS encoding)``, loaded offline with
    ``o200k_base.tiktoken`` written into ``tiktoken_dir`` (a fresh temporary
    directory). Skips the test without ``openai_harmony``."""
    oh = pytest.importorskip("openai_harmony")
    from bytepair.registry import DATA_DIR

    with (
        gzip.open(DATA_DIR / "o200k_base.tiktoken.gz") as src,
        open(pathlib.Path(tiktoken_dir) / "o200k_base.tiktoken", "wb") as dst,
    ):
        shutil.copyfileobj(src, dst)
    old = os.environ.get("TIKTOKEN_ENCODINGS_BASE")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(tiktoken_dir)
    try:
        enc = oh.load_harmony_encoding(oh.HarmonyEncodingName.HARMONY_GPT_OSS)
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_ENCODINGS_BASE", None)
        else:
            os.environ["TIKTOKEN_ENCODINGS_BASE"] = old
    return oh, enc
