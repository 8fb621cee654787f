#!/usr/bin/env node
// Compile Python sources to .pyc with Pyodide's own Python (the version the
// playground runs), for the web wheel: tools/wheels.py add_pyc().
//
//   node tools/compile_pyc.mjs DIR DISPLAY_DIR
//
// Writes DIR/**/__pycache__/*.cpython-3XX.pyc (unchecked-hash pycs: imported
// without comparing them to the sources, which the wheel ships unchanged next
// to them); tracebacks name the files as DISPLAY_DIR/... (their installed path).
// Prints the cache tag (e.g. cpython-314) on the last line.

import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [dir, displayDir] = process.argv.slice(2);
if (!displayDir) {
  process.stderr.write("usage: node tools/compile_pyc.mjs DIR DISPLAY_DIR\n");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(repo, "node_modules", "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(repo, "node_modules", "pyodide") + path.sep });
pyodide.mountNodeFS("/src", path.resolve(dir));
const tag = pyodide.runPython(`
import compileall, py_compile, sys
ok = compileall.compile_dir("/src", ddir=${JSON.stringify(displayDir)}, quiet=1, force=True,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
if not ok:
    raise SystemExit("compileall failed")
sys.implementation.cache_tag
`);
console.log(tag);
