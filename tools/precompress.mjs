#!/usr/bin/env node
// Precompressed copies of site files (tools/precompress.py runs this at site-build time):
// for each job, OUT.br (brotli, quality 11, window sized to the file) and OUT.gz (gzip,
// level 9, no name, mtime 0) of SRC, each written only when it is at most MAX_RATIO of the
// file (static hosts send such copies with Content-Encoding; see tools/serve.py).
//
//   node tools/precompress.mjs SPEC.json
//
// SPEC: {"max_ratio": 0.95, "probe_ratio": 0.99, "jobs": [{"src": path, "out": path prefix,
// "encodings": ["br", "gz"]}, ...]}. A file that brotli's fastest quality shrinks by less
// than 1 - probe_ratio (compressed already: the .bpv vocabularies) is not compressed further.
// Writes OUT.br / OUT.gz atomically (a temporary name, then rename), deletes a copy that
// does not gain enough, and prints one JSON line: {SRC: {"size": bytes, "br": bytes or
// null, "gz": bytes or null}, ...} (null: not worth keeping, no file).
// Node's zlib (https://nodejs.org/api/zlib.html) does the compression; jobs run two at a
// time on libuv's thread pool.

import fs from "node:fs";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const maxRatio = spec.max_ratio;

function encode(kind, data, quality = zlib.constants.BROTLI_MAX_QUALITY) {
  if (kind === "br") {
    return brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        // the largest window brotli's decoders in browsers accept (24 bits: 16 MiB)
        [zlib.constants.BROTLI_PARAM_LGWIN]: Math.max(10, Math.min(24, Math.ceil(Math.log2(data.length + 1)))),
      },
    });
  }
  if (kind === "gz") return gzip(data, { level: 9 });
  throw new Error(`unknown encoding ${kind}`);
}

async function one(job) {
  const data = fs.readFileSync(job.src);
  const result = { size: data.length };
  const probe = await encode("br", data, zlib.constants.BROTLI_MIN_QUALITY);
  const worth = probe.length <= data.length * spec.probe_ratio;
  for (const kind of job.encodings) {
    const out = `${job.out}.${kind}`;
    const packed = worth ? await encode(kind, data) : data;
    if (packed.length <= data.length * maxRatio) {
      const tmp = `${out}.tmp`;
      fs.writeFileSync(tmp, packed);
      fs.renameSync(tmp, out);
      result[kind] = packed.length;
    } else {
      fs.rmSync(out, { force: true });
      result[kind] = null;
    }
  }
  return [job.src, result];
}

const results = {};
const queue = [...spec.jobs].sort((a, b) => fs.statSync(b.src).size - fs.statSync(a.src).size);
async function worker() {
  for (let job = queue.shift(); job; job = queue.shift()) {
    const [src, result] = await one(job);
    results[src] = result;
  }
}
await Promise.all([worker(), worker()]);
process.stdout.write(JSON.stringify(results) + "\n");
