#!/usr/bin/env node
// The bytepair-only benchmark (tools/bench_core.py) inside Pyodide under Node.js.
//
//   node tools/bench_pyodide.mjs N_BYTES VOCAB_SIZE REPEAT
//
// Loads Pyodide from node_modules/pyodide (no network), mounts the repository
// at /repo, imports bytepair from /repo/py (so the stdlib `re` back-end runs the
// split patterns, as in the browser) and prints bench_core's JSON on the last
// line of stdout. tools/bench.py runs this and prints it next to CPython.

import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [n, vocab, repeat] = process.argv.slice(2);
if (!repeat) {
  process.stderr.write("usage: node tools/bench_pyodide.mjs N_BYTES VOCAB_SIZE REPEAT\n");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(repo, "node_modules", "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(repo, "node_modules", "pyodide") + path.sep });
pyodide.mountNodeFS("/repo", repo);
const result = pyodide.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/repo/py", "/repo"]
import bytepair.split.pretokenize
assert bytepair.split.pretokenize.BACKEND == "re", bytepair.split.pretokenize.BACKEND
from tools import bench_core
import json
json.dumps({"python": sys.version.split()[0], "results": bench_core.run(${Number(n)}, ${Number(vocab)}, ${Number(repeat)})})
`);
console.log(result);
