"""The open-model tokenizer files of the playground (``web/dist/models/``).

The table is :data:`bytepair.app.models.OPEN_MODELS` (one row per model: name,
files, source package). For each row the build writes
``models/<bytepair.app.models.site_file(model)>`` (Tekken files gzip-compressed, served as
``application/gzip``, no Content-Encoding, the worker decompresses them with
``DecompressionStream("gzip")``; ``.bpv`` files deflate their big sections block by block
and are read as they are, the blocks a text needs inflated in Python):

* ``hf`` models: ``tokenizer.json`` + ``tokenizer_config.json`` from the npm
  package (pinned in ``package-lock.json``), loaded with this repository's
  bytepair and written in its compact form, ``<name>.bpv``
  (:func:`bytepair.hf.compact.to_compact`, :mod:`bytepair.formats.vocab_file`'s
  format, as the OpenAI ``vocab/*.bpv.gz``: 3-5x quicker to load in Pyodide
  than the JSON; ``tests/core/test_model_files.py`` checks it encodes as the
  original file does);
* ``tekken`` models: the Tekken JSON from the PyPI wheel of
  ``mistral-common`` (:data:`bytepair.app.models.MISTRAL_COMMON`), downloaded once
  into ``.cache/wheels`` with ``pip download --no-deps`` and sha256-checked,
  trimmed by :func:`bytepair.app.models.tekken_site_form` (same format, 6 MB instead of 15).

Derived files are cached in ``.cache/models`` under a fingerprint of their
inputs (package version, input sizes, the bytepair modules that write them),
so a second build is a no-op.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pathlib
import sys
import zipfile
from typing import TYPE_CHECKING

from tools.buildutil import CACHE, NODE_MODULES, PY_SRC, BuildError, log
from tools.wheels import _pip_download, file_sha256

if TYPE_CHECKING:
    from tools.distwriter import DistWriter

if str(PY_SRC) not in sys.path:
    sys.path.insert(0, str(PY_SRC))

from bytepair.app import models as _models  # noqa: E402  (this repository's bytepair, not an installed one)


def _npm_dir(source: str) -> pathlib.Path:
    package = source.removeprefix("npm:")
    d = NODE_MODULES / package
    if not (d / "package.json").is_file():
        raise BuildError(
            f"npm package {package} is missing (node_modules/{package}): run `npm ci` at the repository root"
        )
    return d


def mistral_wheel() -> pathlib.Path:
    """The pinned ``mistral-common`` wheel in ``.cache/wheels`` (downloaded once, sha256-checked).

    Raises:
        BuildError: the download fails or its sha256 differs from :data:`bytepair.app.models.MISTRAL_COMMON`.
    """
    version, fname, sha = _models.MISTRAL_COMMON
    cache = CACHE / "wheels"
    path = cache / fname
    if not path.is_file():
        _pip_download([f"mistral-common=={version}"], cache)
    if not path.is_file():
        raise BuildError(f"pip download did not produce {path}")
    got = file_sha256(path)
    if got != sha:
        path.unlink()
        raise BuildError(f"{fname}: sha256 {got} differs from the pinned {sha}; deleted it - run the build again")
    return path


def _fingerprint(model: _models.OpenModel, inputs: list[tuple[str, bytes | int]]) -> str:
    h = hashlib.sha256(json.dumps(model.to_dict(), sort_keys=True).encode())
    for mod in (
        "hf/tokenizer.py",
        "hf/components.py",
        "hf/lazy.py",
        "hf/added.py",
        "app/models.py",
        "formats/vocab_file.py",
    ):
        h.update((PY_SRC / "bytepair" / mod).read_bytes())
    for name, v in inputs:
        h.update(name.encode() + b"\0" + (v if isinstance(v, bytes) else str(v).encode()) + b"\0")
    return h.hexdigest()[:16]


def build_model_file(model: _models.OpenModel) -> pathlib.Path:
    """The gzip file of ``model`` for the site (in ``.cache/models``, built when stale).

    Raises:
        BuildError: a source package or file is missing, or bytepair cannot read it.
    """
    from bytepair import from_tokenizer_json
    from bytepair.errors import TokenizerFileError
    from bytepair.hf.compact import to_compact

    out_dir = CACHE / "models"
    if model.source.startswith("npm:"):
        d = _npm_dir(model.source)
        files = [d / f for f in model.files]
        for f in files:
            if not f.is_file():
                raise BuildError(f"{f} is missing (npm {model.source[4:]})")
        version = json.loads((d / "package.json").read_text(encoding="utf-8"))["version"]
        fp = _fingerprint(model, [("version", version.encode())] + [(f.name, f.stat().st_size) for f in files])
        target = out_dir / f"{fp}-{_models.site_file(model)}"
        if target.is_file():
            return target
        try:
            tok = from_tokenizer_json(files[0], config=files[1] if len(files) > 1 else None, name=model.label)
            data = to_compact(tok)
        except TokenizerFileError as e:
            raise BuildError(f"{files[0]}: bytepair cannot read it: {e}") from e
    elif model.source == "pypi:mistral-common":
        wheel = mistral_wheel()
        fp = _fingerprint(model, [("wheel", _models.MISTRAL_COMMON[2].encode())])
        target = out_dir / f"{fp}-{_models.site_file(model)}"
        if target.is_file():
            return target
        with zipfile.ZipFile(wheel) as z:
            try:
                data = _models.tekken_site_form(z.read(model.files[0]))
            except KeyError as e:
                raise BuildError(f"{wheel.name} has no {model.files[0]}") from e
    else:
        raise BuildError(f"open model {model.name}: unknown source {model.source!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in [*out_dir.glob(f"*-{_models.site_file(model)}"), *out_dir.glob(f"*-{_models.site_file(model)}.*")]:
        old.unlink()
    tmp = target.with_name(f".{target.name}.tmp")
    # .bpv: its big sections are deflated block by block (bytepair.hf.lazy), read as they are
    tmp.write_bytes(data if model.format == "hf" else gzip.compress(data, 6, mtime=0))
    tmp.replace(target)
    log(f"models/{_models.site_file(model)}: {len(data) / 1e6:.1f} MB -> {target.stat().st_size / 1e6:.1f} MB")
    return target


def split_regexes() -> list[str]:
    """The split regexes of every open model's site file, in :data:`bytepair.app.models.OPEN_MODELS`
    order, without repeats (:func:`bytepair.app.models.split_regexes` of the loaded file): the
    snapshot compiles them (``tools/snapshot.py``, ``playground.loading.warm``). Each model's list
    is cached beside its file in ``.cache/models`` (``<file>.regexes.json``), so a second build
    loads no model.

    Raises:
        BuildError: as :func:`build_model_file`.
    """
    out: list[str] = []
    for model in _models.OPEN_MODELS:
        path = build_model_file(model)
        cached = path.with_name(path.name + ".regexes.json")
        if cached.is_file():
            regexes = json.loads(cached.read_text(encoding="utf-8"))
        else:
            data = path.read_bytes()
            tok = _models.load_model_file(gzip.decompress(data) if model.format == "tekken" else data, name=model.name)
            regexes = _models.split_regexes(tok)
            cached.write_text(json.dumps(regexes), encoding="utf-8")
        out += [r for r in regexes if r not in out]
    return out


def step_models(out: DistWriter) -> dict[str, dict]:
    """Write ``models/*`` and ``models/index.json`` into dist.

    ``models/index.json``: ``{name: {"file": <under models/>, "bytes": <file size>, "version":
    <fingerprint of the inputs>}}``; the worker shows download progress against ``bytes`` and
    keys its browser cache by ``version``, so a rebuilt file replaces the cached one.
    Returns ``{name: {file, bytes, version, source}}`` for build-info.json.
    """
    result, index = {}, {}
    for model in _models.OPEN_MODELS:
        path = build_model_file(model)
        rel = f"models/{_models.site_file(model)}"
        out.copy(path, rel)
        version = path.name.split("-", 1)[0]
        index[model.name] = {"file": _models.site_file(model), "bytes": path.stat().st_size, "version": version}
        result[model.name] = {**index[model.name], "source": model.source}
    out.write("models/index.json", (json.dumps(index, indent=1) + "\n").encode())
    return result
