"""jinja2 + MarkupSafe for chat templates in Pyodide (``tools/pure_wheels.py``).

* ``test_markupsafe_wheel_is_pure_and_deterministic`` (CPython, needs PyPI):
  the MarkupSafe wheel built from the pinned sdist has no C code, installs with
  pip, escapes with ``markupsafe._native``, and its bytes do not change
  between builds.
* ``test_chat_tests_pass_in_pyodide`` (marker ``pyodide``; Node.js and
  ``node_modules/pyodide``): runs ``tests/core/test_chat.py`` and
  ``tests/core/test_openai_chat.py`` inside Pyodide with the pytest wheels of
  ``tests/pyodide/requirements.txt`` plus the two chat wheels, through the
  project's runner ``tests/pyodide/run_core_tests.mjs``; the rendering tests
  and the ids through ``bytepair.from_tokenizer_json`` (model files copied to
  ``.cache/pyodide-fixtures/hf-models/``, as ``tests/pyodide/hf_fixture.py``
  does) must pass there, not skip.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def chat_wheels(tmp_path_factory):
    from tools.pure_wheels import chat_wheels

    d = tmp_path_factory.mktemp("chat-wheels")
    try:
        return chat_wheels(d, cache=ROOT / ".cache" / "sdists")
    except RuntimeError as e:
        pytest.skip(f"PyPI not reachable: {e}")


def test_markupsafe_wheel_is_pure_and_deterministic(chat_wheels, tmp_path):
    from tools.pure_wheels import MARKUPSAFE_WHEEL, build_markupsafe_wheel

    jinja, markup = chat_wheels
    assert jinja.name == "jinja2-3.1.6-py3-none-any.whl" and markup.name == MARKUPSAFE_WHEEL
    names = zipfile.ZipFile(markup).namelist()
    assert "markupsafe/_native.py" in names and not any(n.endswith((".c", ".so", ".pyd")) for n in names)
    again = build_markupsafe_wheel(tmp_path / "again", sdist=ROOT / ".cache" / "sdists" / "markupsafe-3.0.3.tar.gz")
    assert again.read_bytes() == markup.read_bytes()
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(markup),
            str(jinja),
        ],
        check=True,
    )
    code = (
        "import jinja2, markupsafe; assert markupsafe._escape_inner.__module__ == 'markupsafe._native'; "
        "print(jinja2.Template('{{ x | e }}').render(x='<&>'))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {code}"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "&lt;&amp;&gt;"


@pytest.mark.pyodide
def test_chat_tests_pass_in_pyodide(chat_wheels, tmp_path):
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.skip("needs Node.js and node_modules/pyodide (npm ci)")
    from tests.pyodide.runner import RUNNER, ensure_pyodide_wheels
    from tests.reference.chat_transformers import MODELS, model_dir

    copies = ROOT / ".cache" / "pyodide-fixtures" / "hf-models"  # the layout tests/pyodide/hf_fixture.py uses
    for m in MODELS:
        src = model_dir(m)
        if not (src / "tokenizer.json").is_file():
            pytest.skip(f"model files of {m} missing (npm ci)")
        dst = copies / m
        if src != dst:
            dst.mkdir(parents=True, exist_ok=True)
            for name in ("tokenizer.json", "tokenizer_config.json"):
                if not (dst / name).is_file() or (dst / name).stat().st_size != (src / name).stat().st_size:
                    shutil.copyfile(src / name, dst / name)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for w in [*ensure_pyodide_wheels().glob("*.whl"), *chat_wheels]:
        shutil.copy(w, wheels)
    cmd = [
        node,
        str(RUNNER),
        "--wheels",
        str(wheels),
        "--",
        "tests/core/test_chat.py",
        "tests/core/test_openai_chat.py",
        "tests/core/test_chat_formats.py",
        "-q",
        "-rs",
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    assert "jinja2" in proc.stdout and "markupsafe" in proc.stdout
    assert "test_chat.py: jinja2" not in proc.stdout  # the module did not skip
    passed = int(proc.stdout.split(" passed")[0].split()[-1])
    assert passed >= 90, proc.stdout[-3000:]  # rendering, ids through from_tokenizer_json, breakdowns
    assert "from_tokenizer_json is not there" not in proc.stdout, proc.stdout[-3000:]
    assert "tokenizer-* missing" not in proc.stdout, proc.stdout[-3000:]
