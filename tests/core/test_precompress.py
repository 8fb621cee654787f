"""Precompressed copies (tools/precompress.py) and how tools/serve.py sends them (issue 20).

Decoded with Python's ``gzip`` and Google's ``brotli`` package (the reference decoders), every
answer must be the file's bytes exactly, whatever the request's ``Accept-Encoding``."""

from __future__ import annotations

import gzip
import random
import shutil
import sys
import threading
import urllib.request

import pytest

pytestmark = [
    pytest.mark.skipif(sys.platform == "emscripten", reason="no threads or Node.js in Pyodide"),
    pytest.mark.skipif(shutil.which("node") is None, reason="Node.js compresses the copies"),
]
brotli = pytest.importorskip("brotli")

from tools import precompress
from tools.distwriter import DistWriter
from tools.serve import accepted_encodings, make_server, server_url


def _site(root):
    """A small site: two compressible texts, random bytes (no gain), a small file, a .gz file."""
    files = {
        "index.html": ("<!doctype html><title>t</title>" + "<p>tokens and merges</p>\n" * 200).encode(),
        "src/app.js": "".join(f"export const n{i} = {i * i};\n" for i in range(500)).encode(),
        "data.bin": random.Random(20).randbytes(5000),
        "tiny.txt": b"short",
        "vocab/x.tiktoken.gz": gzip.compress(b"IQ== 0\n" * 400, mtime=0),
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return files


def test_accept_encoding_is_read_as_rfc_9110_says():
    # the examples of RFC 9110 section 12.5.3
    assert accepted_encodings("compress, gzip") == {"compress", "gzip"}
    assert accepted_encodings("") == set()
    assert accepted_encodings("*") == {"br", "gzip"}
    assert accepted_encodings("compress;q=0.5, gzip;q=1.0") == {"compress", "gzip"}
    assert accepted_encodings("gzip;q=1.0, identity; q=0.5, *;q=0") == {"gzip", "identity"}
    assert accepted_encodings("br;q=0, *") == {"gzip"}
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}  # Chromium's


def test_copies_only_where_they_gain_and_only_for_changed_files(tmp_path, monkeypatch):
    dist, state = tmp_path / "dist", tmp_path / "store"
    files = _site(dist)
    out = DistWriter(dist)
    got = precompress.step_precompress(out, sorted(files), store=state)
    assert set(got) == {"index.html", "src/app.js", "data.bin"}  # tiny.txt too small, .gz compressed already
    assert got["data.bin"] == {"size": 5000, "br": None, "gzip": None}
    assert not (dist / "data.bin.br").exists() and not (dist / "data.bin.gz").exists()
    for rel in ("index.html", "src/app.js"):
        assert brotli.decompress((dist / f"{rel}.br").read_bytes()) == files[rel]
        assert gzip.decompress((dist / f"{rel}.gz").read_bytes()) == files[rel]
        assert got[rel]["br"] == (dist / f"{rel}.br").stat().st_size <= 0.95 * len(files[rel])
    assert {f"{r}{s}" for r in ("index.html", "src/app.js") for s in (".br", ".gz")} <= out.produced

    # a second build compresses nothing; after an edit, only the edited file
    out2 = DistWriter(dist)
    assert precompress.step_precompress(out2, sorted(files), store=state) == got
    assert out2.updated == [] and "index.html.br" in out2.produced
    (dist / "src/app.js").write_bytes(b"export const changed = 1;\n" * 100)
    out3 = DistWriter(dist)
    again = precompress.step_precompress(out3, sorted(files), store=state)
    assert sorted(out3.updated) == ["src/app.js.br", "src/app.js.gz"]
    assert gzip.decompress((dist / "src/app.js.gz").read_bytes()) == b"export const changed = 1;\n" * 100
    assert again["index.html"] == got["index.html"]

    # a clean build (dist deleted) takes the copies from the store: no compression, no Node.js
    shutil.rmtree(dist)
    files = _site(dist)
    files["src/app.js"] = b"export const changed = 1;\n" * 100
    (dist / "src/app.js").write_bytes(files["src/app.js"])
    monkeypatch.setattr(precompress.shutil, "which", lambda name: None)
    out4 = DistWriter(dist)
    assert precompress.step_precompress(out4, sorted(files), store=state) == again
    assert sorted(out4.updated) == ["index.html.br", "index.html.gz", "src/app.js.br", "src/app.js.gz"]
    assert gzip.decompress((dist / "src/app.js.gz").read_bytes()) == files["src/app.js"]
    monkeypatch.undo()

    # a built file named like a copy is refused
    (dist / "index.html.gz").write_bytes(b"x")
    with pytest.raises(precompress.BuildError, match="precompressed copy"):
        precompress.step_precompress(DistWriter(dist), [*sorted(files), "index.html.gz"], store=state)


def _get(url, accept):
    req = urllib.request.Request(url, headers={"Accept-Encoding": accept} if accept is not None else {})
    with urllib.request.urlopen(req) as res:
        return res.read(), {k.lower(): v for k, v in res.headers.items()}


def test_the_server_sends_copies_per_accept_encoding_and_the_same_bytes_decoded(tmp_path):
    files = _site(tmp_path)
    precompress.step_precompress(DistWriter(tmp_path), sorted(files), store=tmp_path.parent / "store")
    decode = {None: lambda b: b, "gzip": gzip.decompress, "br": brotli.decompress}
    server = make_server("127.0.0.1", 0, directory=tmp_path, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = server_url(server)
    try:
        for path, rel in [
            ("", "index.html"),
            ("index.html", "index.html"),
            ("src/app.js", "src/app.js"),
            ("data.bin", "data.bin"),
            ("tiny.txt", "tiny.txt"),
            ("vocab/x.tiktoken.gz", "vocab/x.tiktoken.gz"),
        ]:
            _, plain = _get(base + path, None)
            has_copies = (tmp_path / f"{rel}.br").exists()
            for accept, want in [
                (None, None),
                ("identity", None),
                ("gzip", "gzip"),
                ("gzip, deflate, br, zstd", "br"),
                ("br;q=0, gzip", "gzip"),
                ("*", "br"),
                ("deflate", None),
            ]:
                body, headers = _get(base + path, accept)
                sent = headers.get("content-encoding")
                assert sent == (want if has_copies else None), (path, accept)
                assert decode[sent](body) == files[rel], (path, accept)
                assert headers["content-length"] == str(len(body))
                assert headers["content-type"] == plain["content-type"]
                assert (headers.get("vary") == "Accept-Encoding") == has_copies, (path, accept)
    finally:
        server.shutdown()
        server.server_close()
    assert plain["content-type"] == "application/gzip"  # the .gz vocabulary: bytes, no Content-Encoding


def test_archives_get_copies_only_when_stored_uncompressed(tmp_path):
    """The site's own wheels and the standard library are zips stored uncompressed so their brotli
    copies compress across files (issue 20); a deflated zip (a PyPI wheel) gains nothing and gets none."""
    import zipfile

    members = {
        f"pkg/m{i}.py": "".join(f"def f{j}(x):\n    return x * {j}\n" for j in range(80)).encode() for i in range(6)
    }
    sizes = {}
    for name, method in (("stored.whl", zipfile.ZIP_STORED), ("deflated.whl", zipfile.ZIP_DEFLATED)):
        with zipfile.ZipFile(tmp_path / name, "w", method) as z:
            for member, data in members.items():
                z.writestr(member, data)
        sizes[name] = (tmp_path / name).stat().st_size
    (tmp_path / "not-a-zip.zip").write_bytes(b"PK but not really" * 40)
    assert precompress.stored_archive(tmp_path / "stored.whl")
    assert not precompress.stored_archive(tmp_path / "deflated.whl")
    assert not precompress.stored_archive(tmp_path / "not-a-zip.zip")
    assert precompress.wants_copies("wheels/stored.whl", sizes["stored.whl"], tmp_path / "stored.whl")
    assert not precompress.wants_copies("wheels/deflated.whl", sizes["deflated.whl"], tmp_path / "deflated.whl")
    assert not precompress.wants_copies("wheels/stored.whl", sizes["stored.whl"])  # (without the file: by name only)
    # the stored archive's brotli copy is smaller than the deflated archive: the point of storing it
    assert len(brotli.compress((tmp_path / "stored.whl").read_bytes())) < sizes["deflated.whl"]
