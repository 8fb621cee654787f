#!/usr/bin/env node
// Run bytepair's core tests inside Pyodide (the browser's Python) under Node.js.
//
//   node tests/pyodide/run_core_tests.mjs [--wheels DIR] [--] [pytest args...]
//
// Loads Pyodide from node_modules/pyodide (no network), unpacks the pure-Python
// wheels in DIR (default .cache/pyodide-wheels: pytest and hypothesis with their
// dependencies, see requirements.txt next to this file) into site-packages,
// mounts the repository at /repo (NODEFS), puts /repo and /repo/py on sys.path
// (bytepair from the sources, vocabularies from py/bytepair/data), checks that
// `regex` cannot be imported (so bytepair runs its patterns on the stdlib `re`
// back-end, as in the browser) and runs pytest (default: tests/core -q).
// Exits with pytest's exit code; 2 when Pyodide itself fails, 3 when the
// environment is not the one the tests are meant for.
//
// Nothing is written to the repository: no bytecode, no .pytest_cache
// (-p no:cacheprovider), Hypothesis's database in Pyodide's memory.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");

function usage(msg) {
  process.stderr.write(`${msg}\nusage: node tests/pyodide/run_core_tests.mjs [--wheels DIR] [--] [pytest args...]\n`);
  process.exit(2);
}

let wheelsDir = path.join(repo, ".cache", "pyodide-wheels");
const pytestArgs = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--wheels") {
    if (i + 1 >= argv.length) usage("--wheels needs a directory");
    wheelsDir = path.resolve(argv[++i]);
  } else if (argv[i] === "--") {
    pytestArgs.push(...argv.slice(i + 1));
    break;
  } else {
    pytestArgs.push(argv[i]);
  }
}
if (pytestArgs.length === 0) pytestArgs.push("tests/core", "-q");

const say = (msg) => fs.writeSync(1, `[pyodide] ${msg}\n`);
const seconds = (t) => ((performance.now() - t) / 1000).toFixed(2) + " s";

const pyodideDir = path.join(repo, "node_modules", "pyodide");
if (!fs.existsSync(path.join(pyodideDir, "pyodide.mjs"))) {
  usage(`${pyodideDir}/pyodide.mjs not found: run \`npm ci\` at the repository root`);
}
const wheels = fs.existsSync(wheelsDir)
  ? fs
      .readdirSync(wheelsDir)
      .filter((f) => f.endsWith(".whl"))
      .sort()
  : [];
if (wheels.length === 0) {
  usage(
    `no wheels in ${wheelsDir}: download them with\n  python -m pip download --no-deps --only-binary=:all: ` +
      `--python-version 3.14 --implementation py --abi none --platform any ` +
      `-r tests/pyodide/requirements.txt -d ${wheelsDir}\n(tests/pyodide/test_in_pyodide.py does this)`,
  );
}

// Raw byte writes keep pytest's progress output (dots without newlines) intact.
const writer = (fd) => ({
  write: (buf) => {
    fs.writeSync(fd, buf);
    return buf.length;
  },
});

const PROGRAM = `
import importlib.util, os, sys

def _main(args):
    importlib.invalidate_caches()           # site-packages changed after the first import
    sys.dont_write_bytecode = True          # no __pycache__ in the mounted repository
    os.chdir("/repo")
    for p in ("/repo/py", "/repo"):         # as tests/conftest.py and "python -m pytest" do
        if p not in sys.path:
            sys.path.insert(0, p)

    if importlib.util.find_spec("regex") is not None:
        print("[pyodide] ERROR: 'regex' is importable here, so the stdlib re back-end would not be tested")
        return 3
    try:
        import regex  # noqa: F401
    except ImportError:
        print("[pyodide] import regex: ImportError, as in the browser")
    import_failed = False
    try:
        from bytepair.split import pretokenize
    except ModuleNotFoundError as e:
        if e.name in ("bytepair", "bytepair.split.pretokenize"):
            print(f"[pyodide] {e.name} does not exist yet: split-pattern back-end not checked")
        else:
            import traceback
            traceback.print_exc()
            print("[pyodide] ERROR: bytepair.split.pretokenize failed to import (see above); running the tests anyway")
            import_failed = True
    except Exception:
        import traceback
        traceback.print_exc()
        print("[pyodide] ERROR: bytepair.split.pretokenize failed to import (see above); running the tests anyway")
        import_failed = True
    else:
        print(f"[pyodide] bytepair.split.pretokenize.BACKEND = {pretokenize.BACKEND!r}")
        if pretokenize.BACKEND != "re":
            print("[pyodide] ERROR: expected the stdlib 're' back-end inside Pyodide")
            return 3

    # (the Hypothesis profile "pyodide", HYPOTHESIS_PROFILE below, is loaded by tests/conftest.py:
    # tests/hypothesis_profiles.py)
    import pytest
    print(f"[pyodide] pytest {' '.join(args)}", flush=True)
    code = int(pytest.main([*args, "-p", "no:cacheprovider"]))
    if code == 0 and import_failed:
        print("[pyodide] ERROR: the tests passed but bytepair.split.pretokenize does not import")
        return 3
    return code
`;

let exitCode; // set by both branches below
try {
  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const env = {
    HOME: "/home/pyodide",
    HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/hypothesis",
    HYPOTHESIS_PROFILE: "pyodide", // fewer examples, no deadline (tests/hypothesis_profiles.py)
    PYTHONDONTWRITEBYTECODE: "1",
  };
  if (process.env.CI) env.CI = process.env.CI;
  const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env });
  pyodide.setStdout(writer(1));
  pyodide.setStderr(writer(2));
  const [pyVersion] = pyodide.runPython("import sys; sys.version.split()").toJs();
  say(`Pyodide ${pyodide.version} (Python ${pyVersion}) loaded in ${seconds(t0)}`);

  const t1 = performance.now();
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const w of wheels) {
    const data = new Uint8Array(fs.readFileSync(path.join(wheelsDir, w)));
    pyodide.unpackArchive(data, "wheel", { extractDir: sitePackages });
  }
  pyodide.mountNodeFS("/repo", repo);
  say(
    `${wheels.length} wheels unpacked (${wheels.map((w) => w.split("-").slice(0, 2).join(" ")).join(", ")}) ` +
      `and the repository mounted at /repo in ${seconds(t1)}`,
  );

  pyodide.runPython(PROGRAM);
  const main = pyodide.globals.get("_main");
  const t2 = performance.now();
  exitCode = main(pyodide.toPy(pytestArgs));
  main.destroy();
  say(`pytest exit code ${exitCode} after ${seconds(t2)} (total ${seconds(t0)})`);
} catch (e) {
  // A PythonError's message is the Python traceback; anything else is a JS error.
  fs.writeSync(2, `[pyodide] ERROR: ${e && e.type ? e.message : (e && e.stack) || e}\n`);
  exitCode = 2;
}
process.exit(exitCode);
