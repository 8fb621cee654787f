"""Generate ``py/bytepair/data/<name>.tiktoken.gz`` from the npm package ``js-tiktoken``.

Usage (from the repository root, after ``npm ci``)::

    python tools/make_vocab.py            # write the files
    python tools/make_vocab.py --check    # only verify, write nothing

Source format. ``node_modules/js-tiktoken/dist/ranks/<name>.js`` is one ES module
``export default {...};`` whose object literal is valid JSON with the keys
``pat_str``, ``special_tokens``, optionally ``explicit_n_vocab``, and
``bpe_ranks``: a compressed rank table. As read by js-tiktoken's constructor
(``dist/chunk-*.js``: ``ranks.bpe_ranks.split("\\n")``...), ``bpe_ranks`` is a
list of lines; each line is space-separated
``<ignored field> <offset> <token_0> <token_1> ...`` where every token is the
standard base64 of its bytes and ``token_i`` has rank ``offset + i``. A new line
starts wherever the ranks have a hole (``p50k_base``: 0..50255, then
50257..50280). The ignored first field is ``!`` in every file of js-tiktoken 1.0.21.

Output. Each table is written with :func:`bytepair.formats.tiktoken_file.dump_tiktoken_bpe`
(``<base64> <rank>\\n`` sorted by rank); its sha256 must equal the
``expected_hash`` tiktoken pins for OpenAI's published file
(``tiktoken_ext/openai_public.py``), i.e. the text is byte-identical to
OpenAI's. It is then gzip-compressed deterministically (``mtime=0``, no file
name in the header) so re-running the tool does not change committed files.
``gpt2`` has no file of its own: its ranks are ``r50k_base``'s.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import importlib.util
import json
import pathlib
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
JS_RANKS_DIR = ROOT / "node_modules" / "js-tiktoken" / "dist" / "ranks"
OUT_DIR = ROOT / "py" / "bytepair" / "data"

ENCODINGS = ("r50k_base", "p50k_base", "cl100k_base", "o200k_base")

# sha256 of OpenAI's .tiktoken files: the `expected_hash` arguments in
# tiktoken 0.14.0 `tiktoken_ext/openai_public.py`. Re-checked against the
# installed tiktoken when it is importable (see `openai_public_facts`).
EXPECTED_SHA256 = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}


def read_js_ranks_module(path: pathlib.Path) -> dict[str, Any]:
    """Parse a js-tiktoken ``dist/ranks/<name>.js`` module into its JSON object.

    Raises:
        ValueError: the file is not ``export default <JSON object>;``.
    """
    text = path.read_text(encoding="utf-8")
    prefix = "export default "
    if not text.startswith(prefix):
        raise ValueError(f"{path}: expected it to start with {prefix!r}")
    body = text[len(prefix) :].rstrip().removesuffix(";")
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: the exported object is not JSON ({e})") from e
    if not isinstance(obj, dict) or "bpe_ranks" not in obj:
        raise ValueError(f"{path}: no 'bpe_ranks' key in the exported object")
    return obj


def expand_bpe_ranks(compressed: str) -> dict[bytes, int]:
    """Expand js-tiktoken's compressed ``bpe_ranks`` string to ``{token bytes: rank}``.

    See the module docstring for the format. Unlike js-tiktoken (which would
    silently overwrite), a repeated token or rank raises ``ValueError``.
    """
    ranks: dict[bytes, int] = {}
    seen_ranks: set[int] = set()
    for lineno, line in enumerate(compressed.split("\n"), start=1):
        if not line:
            continue
        fields = line.split(" ")
        if len(fields) < 2 or not fields[1].isdigit():
            raise ValueError(f"bpe_ranks line {lineno}: expected '<x> <offset> <tokens...>'")
        offset = int(fields[1])
        for i, token_b64 in enumerate(fields[2:]):
            token = base64.b64decode(token_b64, validate=True)
            rank = offset + i
            if token in ranks:
                raise ValueError(f"bpe_ranks line {lineno}: token {token!r} repeated")
            if rank in seen_ranks:
                raise ValueError(f"bpe_ranks line {lineno}: rank {rank} repeated")
            seen_ranks.add(rank)
            ranks[token] = rank
    return ranks


def openai_public_facts() -> dict[str, dict[str, Any]]:
    """Read tiktoken's own definitions of the OpenAI encodings, without downloading.

    Calls every constructor in ``tiktoken_ext.openai_public.ENCODING_CONSTRUCTORS``
    with that module's loaders temporarily replaced by stubs that record their
    arguments and return ``{}``.

    Returns:
        ``{name: {"expected_hash": str | None, "pat_str": str,
        "special_tokens": dict[str, int], "explicit_n_vocab": int | None}}``;
        ``expected_hash`` is None for ``gpt2`` (built from the GPT-2
        ``vocab.bpe``/``encoder.json`` pair, not a ``.tiktoken`` file).

    Raises:
        ImportError: tiktoken is not installed.
    """
    import tiktoken_ext.openai_public as op

    facts: dict[str, dict[str, Any]] = {}
    calls: list[dict[str, Any]] = []

    def fake_load(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
        calls.append({"path": path, "expected_hash": expected_hash})
        return {}

    def fake_data_gym(*args: Any, **kwargs: Any) -> dict[bytes, int]:
        calls.append({"path": None, "expected_hash": None})
        return {}

    saved = op.load_tiktoken_bpe, op.data_gym_to_mergeable_bpe_ranks
    op.load_tiktoken_bpe, op.data_gym_to_mergeable_bpe_ranks = fake_load, fake_data_gym
    try:
        for name, constructor in op.ENCODING_CONSTRUCTORS.items():
            calls.clear()
            spec = constructor()
            facts[name] = {
                "expected_hash": calls[0]["expected_hash"] if calls else None,
                "pat_str": spec["pat_str"],
                "special_tokens": dict(spec["special_tokens"]),
                "explicit_n_vocab": spec.get("explicit_n_vocab"),
            }
    finally:
        op.load_tiktoken_bpe, op.data_gym_to_mergeable_bpe_ranks = saved
    return facts


def gzip_deterministic(data: bytes) -> bytes:
    """gzip ``data`` with ``mtime=0`` and no file name in the header."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def _tiktoken_file_module() -> Any:
    """``bytepair/formats/tiktoken_file.py`` loaded on its own (stdlib only), so this tool
    runs even while the rest of the package is being changed."""
    path = ROOT / "py" / "bytepair" / "formats" / "tiktoken_file.py"
    spec = importlib.util.spec_from_file_location("_bytepair_tiktoken_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_one(name: str) -> tuple[bytes, dict[str, Any]]:
    """Convert one encoding; return (``.tiktoken`` text, js-tiktoken's other facts).

    Raises:
        ValueError: the produced text's sha256 is not the expected one.
    """
    dump_tiktoken_bpe = _tiktoken_file_module().dump_tiktoken_bpe
    module = read_js_ranks_module(JS_RANKS_DIR / f"{name}.js")
    text = dump_tiktoken_bpe(expand_bpe_ranks(module["bpe_ranks"]))
    digest = hashlib.sha256(text).hexdigest()
    if digest != EXPECTED_SHA256[name]:
        raise ValueError(
            f"{name}: sha256 {digest} != expected {EXPECTED_SHA256[name]}; "
            "the conversion or the js-tiktoken version is wrong"
        )
    facts = {k: v for k, v in module.items() if k != "bpe_ranks"}
    return text, facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify only, write nothing")
    args = parser.parse_args(argv)

    try:
        tiktoken_facts = openai_public_facts()
    except ImportError:
        tiktoken_facts = None
        print("tiktoken not importable: using the pinned hashes only")
    if tiktoken_facts is not None:
        for name in ENCODINGS:
            pinned = tiktoken_facts[name]["expected_hash"]
            if pinned != EXPECTED_SHA256[name]:
                raise SystemExit(f"{name}: installed tiktoken pins {pinned}, this tool {EXPECTED_SHA256[name]}")

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name in ENCODINGS:
        text, facts = build_one(name)
        n_lines = text.count(b"\n")
        print(
            f"{name}: {n_lines} ranks, sha256 ok; js-tiktoken special_tokens="
            f"{facts.get('special_tokens')} explicit_n_vocab={facts.get('explicit_n_vocab')}"
        )
        out = OUT_DIR / f"{name}.tiktoken.gz"
        current = gzip.decompress(out.read_bytes()) if out.exists() else None
        if current == text:
            print(f"  {out.relative_to(ROOT)} up to date")
        elif args.check:
            raise SystemExit(f"  {out.relative_to(ROOT)} is missing or stale; run tools/make_vocab.py")
        else:
            out.write_bytes(gzip_deterministic(text))
            print(f"  wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
