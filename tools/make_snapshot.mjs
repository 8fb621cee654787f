#!/usr/bin/env node
// Make the playground's Pyodide memory snapshot (tools/snapshot.py runs this at
// site-build time): the WebAssembly heap of a Python that has already started and
// imported bytepair and the worker adapter, so the browser restores it instead of
// starting Python (web/src/pyboot.js).
//
//   node tools/make_snapshot.mjs SPEC.json
//
// SPEC: {"pyodide_dir": dir with pyodide.mjs (the site's copy), "stdlib": the standard library
// archive the site loads (trimmed: tools/stdlib_trim.py), "wheels": [wheel paths,
// in install order: bytepair, the adapter], "adapter_import": module to import
// ("playground"), "packages": ["bytepair", "playground"] (every module of these is
// imported, so no lazy import needs the files later), "warm": a function of the adapter to call
// before the snapshot is taken (its work is then in the snapshot), "warm_patterns": the list it
// is called with (split regexes to compile besides the encodings'), "data_dir", "data_dir_env",
// "out": path of the gzip file to write}.
//
// The snapshot holds only Python's memory, no JavaScript object (Pyodide refuses
// those) and no file: the worker still makes the data directory after restoring. Before writing it, the snapshot is restored in a fresh
// runtime here and the adapter is called (facts()), so a snapshot that cannot be
// restored is never shipped.
// Prints one JSON line: {bytes, gzip_bytes, build_id, modules, not_imported, make_ms, restore_ms}.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const specFile = process.argv[2];
if (!specFile) {
  process.stderr.write("usage: node tools/make_snapshot.mjs SPEC.json\n");
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(specFile, "utf8"));
const indexURL = path.resolve(spec.pyodide_dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const quiet = {
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
  ...(spec.stdlib ? { stdLibURL: path.resolve(spec.stdlib) } : {}),
};

let t0 = performance.now();
const py = await loadPyodide({ ...quiet, indexURL, _makeSnapshot: true });
// Wheels: unpacked by Python's zipfile (pyodide.loadPackage would leave a JavaScript
// object behind, which a snapshot cannot hold).
spec.wheels.forEach((wheel, i) => py.FS.writeFile(`/tmp/wheel${i}.zip`, new Uint8Array(fs.readFileSync(wheel))));
py.globals.set("spec_json", JSON.stringify(spec));
const imported = JSON.parse(
  py.runPython(`
import gc, importlib, json, os, pkgutil, sys, sysconfig, zipfile
spec = json.loads(spec_json)
del spec_json
site = sysconfig.get_path("purelib")
for i in range(len(spec["wheels"])):
    with zipfile.ZipFile(f"/tmp/wheel{i}.zip") as z:
        z.extractall(site)
    os.remove(f"/tmp/wheel{i}.zip")
os.makedirs(spec["data_dir"], exist_ok=True)
os.environ[spec["data_dir_env"]] = spec["data_dir"]
importlib.import_module(spec["adapter_import"])
not_imported = {}
for name in spec["packages"]:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except ImportError as e:  # an optional dependency the page does not ship (click, tokenizers, ...)
            not_imported[info.name] = str(e)
if spec.get("warm"):
    getattr(importlib.import_module(spec["adapter_import"]), spec["warm"])(spec.get("warm_patterns") or [])
del info, name, package, spec, site, i
gc.collect()
json.dumps({"modules": len(sys.modules), "not_imported": not_imported})
`),
);
const snapshot = py.makeMemorySnapshot();
const makeMs = performance.now() - t0;
const buildId = Array.from(new Uint32Array(snapshot.buffer, snapshot.byteOffset + 16, 8), (w) =>
  w.toString(16).padStart(8, "0"),
).join("");

// Restore it in a fresh runtime and call the adapter, as the worker will.
t0 = performance.now();
const restored = await loadPyodide({ ...quiet, indexURL, _loadSnapshot: snapshot });
const restoreMs = performance.now() - t0;
const adapter = restored.pyimport(spec.adapter_import);
if (typeof adapter.facts === "function") JSON.parse(adapter.facts());
const env = restored.runPython(`import os; os.environ.get(${JSON.stringify(spec.data_dir_env)})`);
if (env !== spec.data_dir) throw new Error(`the restored snapshot has ${spec.data_dir_env}=${env}`);

const gz = zlib.gzipSync(snapshot, { level: 6 });
fs.writeFileSync(spec.out, gz);
console.log(
  JSON.stringify({
    bytes: snapshot.length,
    gzip_bytes: gz.length,
    build_id: buildId,
    ...imported,
    make_ms: Math.round(makeMs),
    restore_ms: Math.round(restoreMs),
  }),
);
