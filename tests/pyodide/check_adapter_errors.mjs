#!/usr/bin/env node
// Each adapter call's error travels with that call (web/src/pycall.js over playground.call),
// checked in Pyodide under Node.js with the worker's own call path:
//
//   node tests/pyodide/check_adapter_errors.mjs
//
// Loads Pyodide from node_modules/pyodide, mounts the repository at /repo, imports bytepair
// (py/) and the adapter (web/src/py/playground) from the sources, then makes failing and
// succeeding calls whose rejections are read only after every call has run (as a rejection
// that passes through the worker's awaits is): each must carry its own {type, field, ...}.
// Exit code 0 when every check holds, 1 when one fails (printed), 2 when Pyodide fails.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const pyodideDir = path.join(repo, "node_modules", "pyodide");
const { callPython } = await import(pathToFileURL(path.join(repo, "web", "src", "pycall.js")).href);
const { BytepairError } = await import(pathToFileURL(path.join(repo, "web", "src", "errors.js")).href);

let pyodide;
try {
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env: { HOME: "/home/pyodide" } });
  pyodide.mountNodeFS("/repo", repo);
  pyodide.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/repo/py", "/repo/web/src/py"]
`);
} catch (e) {
  fs.writeSync(2, `[pyodide] ERROR: ${e && e.type ? e.message : (e && e.stack) || e}\n`);
  process.exit(2);
}
const pg = pyodide.pyimport("playground");
const py = (name, ...args) => callPython(pg, pg, name, args);

/** Run fn; a failure is rethrown only after a few turns of the event loop, when other calls have run. */
async function late(fn) {
  try {
    return fn();
  } catch (err) {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    throw err;
  }
}

const checks = {
  async "interleaved calls keep their own errors"() {
    const [unknown, pattern, ok, spans] = await Promise.allSettled([
      late(() => py("count", "hi", "nope")),
      late(() => py("check_pattern", "\\p{Foo}")),
      late(() => py("count", "hi", "gpt2")), // succeeds after both failures: nothing of theirs is reset
      late(() => callPython(pg, pg, "encode_spans", ["hi", "gpt2"], { units: "furlongs" })), // keyword arguments
    ]);
    assert.equal(unknown.status, "rejected");
    assert.ok(unknown.reason instanceof BytepairError);
    assert.equal(unknown.reason.detail.type, "unknown_name");
    assert.equal(unknown.reason.field, "name");
    assert.ok(unknown.reason.detail.known.includes("cl100k_base"));
    assert.equal(pattern.status, "rejected");
    assert.equal(pattern.reason.detail.type, "pattern");
    assert.equal(pattern.reason.detail.construct, "\\p{Foo}");
    assert.deepEqual(ok, { status: "fulfilled", value: 1 }); // tiktoken gpt2: "hi" -> [5303]
    assert.equal(spans.status, "rejected");
    assert.equal(spans.reason.detail.type, "argument");
    assert.match(spans.reason.message, /furlongs/);
  },

  async "a session's method fails with its own error, and a good call between changes nothing"() {
    const session = py("CountSession", "hello world", "gpt2");
    try {
      let failed;
      try {
        callPython(pg, session, "step", ["not a number"]);
      } catch (err) {
        failed = err;
      }
      assert.equal(py("count", "hello world", "gpt2"), 2); // tiktoken gpt2: [31373, 995]
      assert.ok(failed instanceof BytepairError, String(failed));
      assert.equal(failed.type, "argument");
      assert.equal(JSON.parse(callPython(pg, session, "step", [1000])).count, 2);
    } finally {
      session.destroy();
    }
  },

  async "no global error record is left in the adapter"() {
    assert.equal(pyodide.runPython("import playground; hasattr(playground, 'last_error')"), false);
    assert.equal(pyodide.runPython("import playground.state; hasattr(playground.state, 'last_error')"), false);
  },
};

let failures = 0;
for (const [name, check] of Object.entries(checks)) {
  try {
    await check();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures += 1;
    console.log(`FAIL ${name}\n${(err && err.stack) || err}`);
  }
}
process.exit(failures ? 1 : 0);
