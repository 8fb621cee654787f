"""tools/stdlib_trim.py: which imports the trimmed standard library follows (issue 20).

The proof that the trimmed archive is enough is the built site itself: tests/pyodide (the wheels
install and the snapshot restores on it) and the e2e suite run on web/dist. These tests pin the
static rules, checked against what Python's own import statement means."""

from __future__ import annotations

import io
import zipfile

from tools.stdlib_trim import imports_of, trim_stdlib

SOURCE = b"""
import a.b
from . import sibling
from ..up import thing
try:
    import optional
except ImportError:
    pass
def later():
    import lazy_one
if __name__ == "__main__":
    import only_as_script
"""


def test_imports_at_import_time_and_lazily():
    eager = imports_of(SOURCE, "pkg.sub.mod", False, lazy=False)
    # import a.b runs a/__init__ then a.b; relative imports resolve against pkg.sub
    assert {"a", "a.b", "pkg.sub", "pkg.sub.sibling", "pkg.up", "pkg.up.thing", "optional"} <= eager
    assert "lazy_one" not in eager and "only_as_script" not in eager
    assert "lazy_one" in imports_of(SOURCE, "pkg.sub.mod", False, lazy=True)


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_trim_keeps_the_closure_of_the_wheels_stored(tmp_path):
    stdlib = _zip(
        {
            "used.py": b"import helper\n",
            "helper.py": b"def f():\n    import unused_lazily\n",
            "unused_lazily.py": b"",
            "unrelated.py": b"",
            "encodings/__init__.py": b"",
            "encodings/latin_1.py": b"",  # looked up by name at run time: kept (SAFETY)
        }
    )
    wheel = tmp_path / "w-1-py3-none-any.whl"
    wheel.write_bytes(_zip({"w/__init__.py": b"def g():\n    import used\n"}))
    data, kept = trim_stdlib(stdlib, [wheel])
    z = zipfile.ZipFile(io.BytesIO(data))
    assert sorted(z.namelist()) == ["encodings/__init__.py", "encodings/latin_1.py", "helper.py", "used.py"]
    assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
    assert "used" in kept and "unrelated" not in kept
