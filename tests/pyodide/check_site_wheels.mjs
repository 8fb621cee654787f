#!/usr/bin/env node
// Check the built site's Python side the way the web worker uses it, in Node.js:
//
//   node tests/pyodide/check_site_wheels.mjs BASE_URL DIST_PYODIDE_DIR
//
// BASE_URL serves web/dist (python build.py serve); DIST_PYODIDE_DIR is
// web/dist/pyodide/<version> (Node cannot import Pyodide's modules over HTTP, so the
// runtime comes from the same files on disk).  Checks: MIME types of the
// served files; loadPyodide from the copied runtime; pyodide.loadPackage(url)
// installs the manifest's wheels over HTTP as the worker's boot() does (no
// micropip), the slim bytepair wheel among them; its RECORD matches the installed
// files and it carries no vocabularies; with a vocabulary fetched from vocab/
// into BYTEPAIR_DATA_DIR, gpt2 encodes "hello world" to tiktoken's ids; the adapter
// wheel (manifest.adapter) installs and `import playground` counts with it.
// Exit code 0 when all hold, 1 otherwise.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [base, pyodideDir] = process.argv.slice(2);
if (!base || !pyodideDir) {
  process.stderr.write("usage: node tests/pyodide/check_site_wheels.mjs BASE_URL DIST_PYODIDE_DIR\n");
  process.exit(2);
}
// the runtime's folder in the site: pyodide/<version> (tools/buildutil.py pyodide_site_dir)
const runtime = `pyodide/${path.basename(path.resolve(pyodideDir))}`;
const say = (msg) => fs.writeSync(1, `[site] ${msg}\n`);
const failures = [];
const check = (ok, msg) => {
  say(`${ok ? "ok  " : "FAIL"} ${msg}`);
  if (!ok) failures.push(msg);
};
const url = (rel) => new URL(rel, base).href;

async function get(rel) {
  const res = await fetch(url(rel));
  if (!res.ok) throw new Error(`GET ${url(rel)}: HTTP ${res.status}`);
  return res;
}

try {
  const manifest = await (await get("wheels/manifest.json")).json();
  const expectTypes = {
    "index.html": "text/html",
    [`${runtime}/pyodide.mjs`]: "text/javascript",
    [`${runtime}/pyodide.asm.mjs`]: "text/javascript",
    [`${runtime}/pyodide.asm.wasm`]: "application/wasm",
    "wheels/manifest.json": "application/json",
    [`wheels/${manifest.bytepair}`]: "application/zip",
  };
  for (const f of Object.keys(manifest.vocab_files || {})) expectTypes[manifest.vocab_url + f] = "application/gzip";
  for (const [rel, type] of Object.entries(expectTypes)) {
    if (rel === "index.html" && !fs.existsSync(path.join(pyodideDir, "..", "..", "index.html"))) continue;
    const res = await fetch(url(rel), { method: "HEAD" });
    const got = res.headers.get("content-type") || "";
    const enc = res.headers.get("content-encoding");
    // compressible files may come as the build's precompressed copies (Content-Encoding br or
    // gzip, issue 20); files that are compressed already never (a browser would unpack a .gz). The
    // site's wheels are zips stored uncompressed for those copies (tools/precompress.stored_archive):
    // they may come encoded, and the install below proves the decoded bytes are the wheel.
    const packed = type === "application/gzip";
    const encOk = !enc || (!packed && (enc === "br" || enc === "gzip"));
    check(
      res.ok && got.split(";")[0] === type && encOk,
      `${rel}: ${res.status} ${got}${enc ? " Content-Encoding " + enc : ""}`,
    );
  }

  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  // the site's trimmed standard library (manifest "stdlib", under the site root: pyodide/<version>/..)
  const stdLibURL = path.resolve(pyodideDir, "..", "..", manifest.stdlib);
  const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep, stdLibURL });
  say(`Pyodide ${pyodide.version} from ${pyodideDir} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

  const loadErrors = [];
  const loaded = await pyodide.loadPackage(
    manifest.install.map((f) => url("wheels/" + f)),
    {
      messageCallback: () => {},
      errorCallback: (m) => loadErrors.push(m),
    },
  );
  check(manifest.install.includes(manifest.bytepair), `the install list names ${manifest.bytepair}`);
  check(
    loadErrors.length === 0 && loaded.length === manifest.install.length,
    `loadPackage installed ${loaded.map((p) => p.name).join(", ")}` +
      (loadErrors.length ? `; errors: ${loadErrors.join(" ")}` : ""),
  );

  const report = pyodide.runPython(`
import importlib.metadata, json
dist = importlib.metadata.distribution("bytepair")
files = [str(f) for f in dist.files]
json.dumps({
    "version": dist.version,
    "n_files": len(files),
    "missing": [f for f in files if not dist.locate_file(f).exists()],
    "vocab_in_record": [f for f in files if f.endswith(".tiktoken.gz")],
    "requires": dist.requires or [],
})
`);
  const r = JSON.parse(report);
  check(
    r.missing.length === 0,
    `every RECORD entry of bytepair ${r.version} is installed (${r.n_files} files)` +
      (r.missing.length ? `; missing: ${r.missing.join(", ")}` : ""),
  );
  check(
    r.vocab_in_record.length === 0,
    "the web wheel carries no .tiktoken.gz" + (r.vocab_in_record.length ? `: ${r.vocab_in_record.join(", ")}` : ""),
  );

  // bytepair itself: importable, and (once the core has get_encoding) exact.
  const vocab = "r50k_base.tiktoken.gz";
  const dataDir = "/home/pyodide/bytepair-data";
  pyodide.FS.mkdirTree(dataDir);
  pyodide.FS.writeFile(
    `${dataDir}/${vocab}`,
    new Uint8Array(await (await get(manifest.vocab_url + vocab)).arrayBuffer()),
  );
  const result = pyodide.runPython(`
import os, json
os.environ[${JSON.stringify(manifest.data_dir_env)}] = ${JSON.stringify(dataDir)}
import bytepair
out = {"imported": bytepair.__name__}
if hasattr(bytepair, "get_encoding"):
    out["gpt2"] = bytepair.get_encoding("gpt2").encode("hello world")
json.dumps(out)
`);
  const res = JSON.parse(result);
  check(res.imported === "bytepair", "import bytepair");

  // The worker adapter (manifest.adapter): installed from its own wheel, imported as the worker does.
  check(manifest.install.includes(manifest.adapter), `the install list names the adapter ${manifest.adapter}`);
  const adapter = JSON.parse(
    pyodide.runPython(`
import importlib.metadata, json, bytepair, playground
dist = importlib.metadata.distribution("bytepair_playground")
json.dumps({
    "missing": [str(f) for f in dist.files if not dist.locate_file(f).exists()],
    "facts_version": json.loads(playground.facts())["version"],
    "version": bytepair.__version__,
    "count": playground.count("hello world", "gpt2"),
})
`),
  );
  check(adapter.missing.length === 0, "every RECORD entry of the adapter wheel is installed" + adapter.missing);
  check(
    adapter.facts_version === adapter.version && adapter.count === 2,
    `import playground: facts() version ${adapter.facts_version}, count("hello world", "gpt2") = ${adapter.count} (tiktoken: 2)`,
  );
  if ("gpt2" in res) {
    // tiktoken.get_encoding("gpt2").encode("hello world") == [31373, 995]
    check(
      JSON.stringify(res.gpt2) === "[31373,995]",
      `gpt2 "hello world" -> ${JSON.stringify(res.gpt2)} (tiktoken: [31373,995])`,
    );
  } else {
    say("bytepair.get_encoding does not exist yet: encode check not run");
  }
} catch (e) {
  failures.push(String(e && e.type ? e.message : (e && e.stack) || e));
  fs.writeSync(2, `[site] ERROR: ${failures.at(-1)}\n`);
}
say(failures.length ? `${failures.length} check(s) failed` : "all checks passed");
process.exit(failures.length ? 1 : 0);
