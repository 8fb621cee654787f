// Starting Pyodide in the worker, from the site's memory snapshot when there is
// one that fits (issue 12: Navigation -> Ready). The snapshot (tools/snapshot.py,
// made at build time by tools/make_snapshot.mjs) is the WebAssembly heap of a
// Python that has already started and imported bytepair and the adapter, so
// restoring it skips Python's start, the wheel install and the imports. Any
// failure (a missing or corrupt file, another Pyodide build) falls back to a
// normal start: the snapshot only ever makes boot faster.

/**
 * The manifest's snapshot entry if the worker can use it, else null (with the
 * reason on the console): it must be made for this Pyodide version, the data
 * directory and the adapter module the worker uses.
 *
 * @param {object} manifest wheels/manifest.json
 * @param {{pyodide: string, dataDir: string, adapter: string}} expect
 * @returns {{file: string, bytes: number, raw_bytes: number, build_id: string} | null}
 */
export function usableSnapshot(manifest, expect) {
  const snap = manifest && manifest.snapshot;
  if (!snap || !snap.file) return null;
  if (typeof DecompressionStream !== "function") return null; // very old browsers: normal start
  const mismatch = [
    ["pyodide", expect.pyodide],
    ["data_dir", expect.dataDir],
    ["adapter", expect.adapter],
  ].find(([key, want]) => snap[key] !== want);
  if (mismatch) {
    console.warn(
      `[bytepair] memory snapshot not used: made for ${mismatch[0]}=${snap[mismatch[0]]}, not ${mismatch[1]}`,
    );
    return null;
  }
  return snap;
}

/**
 * Below this throughput (Mbit/s, measured on the standard library's download) the memory snapshot
 * costs more time than it saves (issue 20, tools/bench_browser.py network): it is ~7 MB more on
 * the wire than a normal start needs (the wheels): ~14 s at 4 Mbit/s, about what a normal start
 * costs a slow phone's CPU; slow 4G (1.6 Mbit/s) measures ~1.4, a busy local server far more.
 */
export const SNAPSHOT_MIN_MBPS = 4;

/**
 * Fetch `url` (a file the runtime needs anyway: the standard library, then read by loadPyodide
 * from the HTTP cache) and measure the link with it.
 *
 * @param {URL} url
 * @returns {Promise<number | null>} Mbit/s of its transfer (bytes on the wire over first to last
 *   byte: a slow server's wait before the body does not count), or null when it came from a cache
 *   or could not be measured
 */
export async function measureMbps(url) {
  const res = await fetch(url);
  await res.arrayBuffer();
  const entry = performance.getEntriesByName(url.href).pop();
  if (!entry || !entry.transferSize || !entry.responseEnd) return null;
  return (entry.transferSize * 8) / (Math.max(entry.responseEnd - entry.responseStart, 1) * 1000);
}

/**
 * Whether downloading the memory snapshot pays: not with Save-Data or a connection slower than
 * 4G (navigator.connection), nor when `mbps` (measureMbps) is below SNAPSHOT_MIN_MBPS. Without
 * either measure (Firefox, Safari, a cached standard library): true, as before.
 *
 * @param {{saveData?: boolean, effectiveType?: string} | undefined} connection navigator.connection
 * @param {number | null} mbps
 * @returns {boolean}
 */
export function snapshotPays(connection, mbps) {
  if (connection && (connection.saveData || (connection.effectiveType && connection.effectiveType !== "4g"))) {
    return false;
  }
  return !(typeof mbps === "number" && mbps < SNAPSHOT_MIN_MBPS);
}

/**
 * The snapshot to restore: `snapshot` (from usableSnapshot) when it is already in a cache of this
 * origin (the service worker precaches it after the first visit's first count, so a second visit
 * restores it even on a slow link), when the browser reports a fast link (downlink at least twice
 * SNAPSHOT_MIN_MBPS), or when it pays (snapshotPays); else null (start Python
 * normally, fetching only the small wheels).
 *
 * @param {{file: string} | null} snapshot
 * @param {URL} site the site root the snapshot file is relative to
 * @param {{downlink?: number, saveData?: boolean, effectiveType?: string} | undefined} connection
 *   navigator.connection
 * @param {() => Promise<number | null>} measure measureMbps of a file the runtime needs anyway
 * @returns {Promise<object | null>}
 */
export async function chooseSnapshot(snapshot, site, connection, measure) {
  if (!snapshot) return null;
  try {
    if (typeof caches !== "undefined" && (await caches.match(new URL(snapshot.file, site).href))) return snapshot;
  } catch {
    // no Cache API here (an opaque origin)
  }
  // The browser's own estimate of a fast link (navigator.connection.downlink, Mbit/s; Chromium caps it
  // at 10) decides at once: measuring first would hold the snapshot's download back until the
  // standard library has arrived (about a second of a desktop's Ready, tools/bench_browser.py boot).
  if (connection && connection.downlink >= 2 * SNAPSHOT_MIN_MBPS && snapshotPays(connection, null)) return snapshot;
  const mbps = await measure().catch(() => null);
  if (snapshotPays(connection, mbps)) return snapshot;
  console.info(
    `[bytepair] memory snapshot skipped (${mbps === null ? "slow or metered connection" : mbps.toFixed(1) + " Mbit/s"}): starting Python normally`,
  );
  return null;
}

/**
 * Download a snapshot, unzipping a .gz file natively (DecompressionStream).
 *
 * @param {URL} url the .snap.gz file
 * @param {number} rawBytes its unzipped size (manifest raw_bytes), checked
 * @returns {Promise<Uint8Array>} the snapshot bytes
 * @throws {Error} on an HTTP error or a size that does not match
 */
export async function fetchSnapshot(url, rawBytes) {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status} for ${url.pathname}`);
  const body = url.pathname.endsWith(".gz") ? res.body.pipeThrough(new DecompressionStream("gzip")) : res.body;
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  if (rawBytes && bytes.length !== rawBytes) throw new Error(`${bytes.length} bytes, expected ${rawBytes}`);
  return bytes;
}

/**
 * Start Pyodide: restore `snapshot` (an entry from usableSnapshot) if given,
 * falling back to a normal start when that fails.
 *
 * @param {(options: object) => Promise<object>} loadPyodide pyodide.mjs's loadPyodide
 * @param {object} options loadPyodide options (indexURL, stdout, stderr)
 * @param {{file: string, raw_bytes: number} | null} snapshot
 * @param {URL} site the site root the snapshot file is relative to
 * @param {(name: string) => void} mark records when a stage ended ("snapshot_fetched")
 * @returns {Promise<{pyodide: object, restored: boolean}>} restored: from the snapshot
 */
export async function startPyodide(loadPyodide, options, snapshot, site, mark = () => {}) {
  if (snapshot) {
    try {
      const bytes = fetchSnapshot(new URL(snapshot.file, site), snapshot.raw_bytes).then((b) => {
        mark("snapshot_fetched");
        return b;
      });
      bytes.catch(() => {}); // loadPyodide awaits it only later: no "unhandled rejection" meanwhile
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: bytes });
      // A snapshot fixes the random state it was made with: reseed what was imported.
      pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      return { pyodide, restored: true };
    } catch (err) {
      console.warn("[bytepair] memory snapshot not used, starting Python normally:", err);
    }
  }
  return { pyodide: await loadPyodide(options), restored: false };
}

/**
 * Counts the bytes of a start's downloads as they arrive (issue 20: the status line says how much
 * is left, "1.2 of 2.8 MB", where a percentage stood still while megabytes downloaded).
 *
 * `wrap(fetch)` returns a fetch that answers exactly as `fetch` does (the same Response object, so
 * WebAssembly streaming compilation and its code cache are untouched) and, for a URL announced
 * with `expect`, reads a clone of the body to count it. A file's size on the wire is its
 * Content-Length when the server compressed it (Content-Encoding), else its size.
 *
 * @param {(bytes: {loaded: number, total: number}) => void} onChange called at most every
 *   `everyMs` while bytes arrive, and once when a file ends; loaded and total in bytes on the wire
 *   (loaded: each file's wire size times the fraction of its bytes read)
 * @param {{everyMs?: number, onFailed?: (href: string, err: Error) => void}} [options] onFailed: the
 *   request for an expected file failed (no response: the link dropped), so the start cannot finish
 * @returns {{expect: (href: string, bytes: number, wire?: number) => void, drop: (href: string) => void,
 *   wrap: (fetchFn: typeof fetch) => typeof fetch, totals: () => {loaded: number, total: number},
 *   idle: () => Promise<void>}}
 *   expect: count the file at `href` (absolute URL) of `bytes` bytes (its unencoded size; `wire`:
 *   the expected size on the wire until the response says, e.g. its brotli copy's);
 *   drop: it will not be downloaded after all;
 *   idle: resolves once every file expected so far has been read to its end (or dropped, or its
 *   response failed): the link is free for what the start does not need (worker.js warmVocab)
 */
export function createDownloadMeter(onChange, { everyMs = 100, onFailed = () => {} } = {}) {
  const files = new Map(); // href -> {raw, wire, read, done}
  const idleWaiters = [];
  const settleIdle = () => {
    if ([...files.values()].every((f) => f.done)) idleWaiters.splice(0).forEach((resolve) => resolve());
  };
  let last = 0;
  const totals = () => {
    let loaded = 0;
    let total = 0;
    for (const f of files.values()) {
      total += f.wire;
      loaded += f.wire * Math.min(1, f.raw ? f.read / f.raw : 1);
    }
    return { loaded: Math.round(loaded), total };
  };
  const changed = (force) => {
    const now = Date.now();
    if (!force && now - last < everyMs) return;
    last = now;
    onChange(totals());
  };
  async function count(res, f) {
    const reader = res.body.getReader();
    let read = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      f.read = Math.max(f.read, read);
      changed(false);
    }
    f.read = Math.max(f.read, f.raw); // (a size that differs from the manifest's: the file is here)
    changed(true);
  }
  const finish = (f) => {
    f.done = true;
    settleIdle();
  };
  return {
    totals,
    expect(href, bytes, wire = bytes) {
      if (!files.has(href)) files.set(href, { raw: bytes, wire, read: 0, done: false });
    },
    drop(href) {
      if (files.delete(href)) changed(true);
      settleIdle();
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    wrap(fetchFn) {
      return async (input, init) => {
        const href = new URL(input instanceof Request ? input.url : String(input), globalThis.location.href).href;
        let res;
        try {
          res = await fetchFn(input, init);
        } catch (err) {
          if (files.has(href)) {
            finish(files.get(href));
            onFailed(href, err);
          }
          throw err;
        }
        const f = files.get(href);
        if (!f) return res;
        if (!res.ok || !res.body) {
          finish(f); // (the start reports the failure; nothing more will arrive)
          return res;
        }
        const length = Number(res.headers.get("content-length"));
        const encoded = res.headers.get("content-encoding");
        if (encoded && length > 0) f.wire = length;
        else if (!encoded) f.wire = f.raw;
        count(res.clone(), f)
          .catch(() => {})
          .finally(() => finish(f));
        return res;
      };
    },
  };
}
