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

/** Below this downlink (Mbit/s, navigator.connection's estimate) the snapshot costs more time than it saves. */
export const SNAPSHOT_MIN_MBPS = 5;

/**
 * Whether downloading the memory snapshot pays on this connection (issue 20, measured with
 * tools/bench_browser.py network): it is ~7 MB more on the wire than a normal start needs (the
 * wheels), which a slow link (1.6 Mbit/s: ~35 s) takes far longer to bring than Python takes to
 * start (a few seconds, ~4x that on a slow phone). No connection information (Firefox, Safari):
 * true, as before.
 *
 * @param {{saveData?: boolean, effectiveType?: string, downlink?: number} | undefined} connection
 *   navigator.connection
 * @returns {boolean}
 */
export function snapshotPays(connection) {
  if (!connection) return true;
  if (connection.saveData) return false;
  if (connection.effectiveType && connection.effectiveType !== "4g") return false;
  return !(typeof connection.downlink === "number" && connection.downlink < SNAPSHOT_MIN_MBPS);
}

/**
 * The snapshot to restore: `snapshot` (from usableSnapshot) when the connection makes it pay
 * (snapshotPays) or when it is already in a cache of this origin (the service worker precaches it
 * once the page is ready, so a second visit restores it even on a slow link); else null (start
 * Python normally, fetching only the small wheels).
 *
 * @param {{file: string} | null} snapshot
 * @param {URL} site the site root the snapshot file is relative to
 * @param {object | undefined} connection navigator.connection
 * @returns {Promise<object | null>}
 */
export async function chooseSnapshot(snapshot, site, connection) {
  if (!snapshot || snapshotPays(connection)) return snapshot;
  try {
    if (typeof caches !== "undefined" && (await caches.match(new URL(snapshot.file, site).href))) return snapshot;
  } catch {
    // no Cache API here (an opaque origin): a normal start
  }
  console.info("[bytepair] memory snapshot skipped on a slow or metered connection: starting Python normally");
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
