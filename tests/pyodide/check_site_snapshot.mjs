#!/usr/bin/env node
// Restore the built site's Pyodide memory snapshot the way the web worker does
// (web/src/pyboot.js), in Node.js, and encode texts with it:
//
//   node tests/pyodide/check_site_snapshot.mjs BASE_URL DIST_PYODIDE_DIR TEXTS.json
//
// BASE_URL serves web/dist; the runtime comes from DIST_PYODIDE_DIR (Node cannot
// import Pyodide's modules over HTTP). Fetches wheels/manifest.json and the
// snapshot it names over HTTP, unzips it with DecompressionStream, restores it,
// fetches vocab/cl100k_base.bpv.gz into the data directory and prints one JSON
// line: {cache_control, boot_modules: [...], translated: [...], model_translated: {...}, ids: [[...] per text]}
// (translated: the encodings whose split pattern had to be translated to \`re\` after the
// restore, none when the snapshot was warmed (playground.warm); model_translated: for each open
// model of models/index.json, loaded from its site file as the worker does (playground
// load_model) and encoding the texts, the patterns it had to translate; ids: bytepair's cl100k_base,
// encode_ordinary; tests/pyodide/test_in_pyodide.py compares them with tiktoken's).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [base, pyodideDir, textsFile] = process.argv.slice(2);
if (!textsFile) {
  process.stderr.write("usage: node tests/pyodide/check_site_snapshot.mjs BASE_URL DIST_PYODIDE_DIR TEXTS.json\n");
  process.exit(2);
}
const get = async (rel) => {
  const res = await fetch(new URL(rel, base));
  if (!res.ok) throw new Error(`GET ${rel}: HTTP ${res.status}`);
  return res;
};
const manifest = await (await get("wheels/manifest.json")).json();
const snap = manifest.snapshot;
if (!snap) throw new Error("wheels/manifest.json names no snapshot");
const res = await get(snap.file);
const bytes = new Uint8Array(await new Response(res.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
if (bytes.length !== snap.raw_bytes)
  throw new Error(`snapshot: ${bytes.length} bytes, manifest says ${snap.raw_bytes}`);

const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
// the site's trimmed standard library (manifest "stdlib", under the site root: pyodide/<version>/..)
const stdLibURL = path.resolve(pyodideDir, "..", "..", manifest.stdlib);
const pyodide = await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: bytes, stdout: () => {} });
pyodide.FS.mkdirTree(snap.data_dir);
const vocab = new Uint8Array(await (await get("vocab/cl100k_base.bpv.gz")).arrayBuffer());
pyodide.FS.writeFile(`${snap.data_dir}/cl100k_base.bpv.gz`, vocab);
// every open model's site file, as the worker writes it (a .gz unzipped first)
const models = await (await get("models/index.json")).json();
for (const [name, entry] of Object.entries(models)) {
  const body = (await get(`models/${entry.file}`)).body;
  const unzipped = entry.file.endsWith(".gz") ? body.pipeThrough(new DecompressionStream("gzip")) : body;
  pyodide.FS.writeFile(`/tmp/model-${name}`, new Uint8Array(await new Response(unzipped).arrayBuffer()));
}
pyodide.globals.set("model_names", JSON.stringify(Object.keys(models)));
pyodide.globals.set("texts_json", fs.readFileSync(textsFile, "utf8"));
const out = pyodide.runPython(`
import json, sys
import bytepair
from bytepair.split import pretokenize
translated = []
real_to_re = pretokenize._to_re
pretokenize._to_re = lambda pattern, **kw: translated.append(pattern) or real_to_re(pattern, **kw)
infos = [bytepair.encoding_info(name) for name in bytepair.list_encoding_names()]
for info in infos:
    pretokenize.compile_pattern(info["pattern"])
encoding_translated = list(translated)
playground = sys.modules[${JSON.stringify(snap.adapter)}]
model_translated = {}
for name in json.loads(model_names):
    translated.clear()
    playground.loading.load_model(name, f"/tmp/model-{name}")
    for text in json.loads(texts_json):  # (one with an emoji: the full translation too)
        playground.tokenize.encode(text, name)
    model_translated[name] = list(translated)
pretokenize._to_re = real_to_re
enc = bytepair.get_encoding("cl100k_base")
json.dumps({
    "translated": [info["name"] for info in infos if info["pattern"] in encoding_translated],
    "model_translated": model_translated,
    "boot_modules": sorted(m for m in (${JSON.stringify(snap.adapter)}, "bytepair", "bytepair.tokenizer") if m in sys.modules),
    "ids": [enc.encode_ordinary(t) for t in json.loads(texts_json)],
})
`);
console.log(JSON.stringify({ cache_control: res.headers.get("cache-control"), ...JSON.parse(out) }));
