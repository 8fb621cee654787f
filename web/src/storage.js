// Browser storage (IndexedDB): trained tokenizers (their to_json() text plus a
// little metadata) and the texts the user typed, so a reload loses nothing.
// Every function resolves even when storage is unavailable (private mode,
// quota): callers get `ok: false` or defaults instead of exceptions.

const DB_NAME = "bytepair-playground";
const DB_VERSION = 1;
let dbPromise = null;

function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      if (!globalThis.indexedDB) return reject(new Error("This browser has no IndexedDB."));
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains("tokenizers")) db.createObjectStore("tokenizers", { keyPath: "name" });
        if (!db.objectStoreNames.contains("texts")) db.createObjectStore("texts");
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return dbPromise;
}

async function run(storeName, mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    const result = fn(tx.objectStore(storeName));
    tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("storage transaction aborted"));
  });
}

/** All saved tokenizers: [{name, json, meta}], oldest first. */
export async function listTokenizers() {
  try {
    const all = await run("tokenizers", "readonly", (s) => s.getAll());
    return (all || []).sort((a, b) => (a.meta?.created || 0) - (b.meta?.created || 0));
  } catch {
    return [];
  }
}

/** Save (or overwrite) one tokenizer record {name, json, meta}. Resolves {ok, error?}. */
export async function saveTokenizer(record) {
  try {
    await run("tokenizers", "readwrite", (s) => s.put(record));
    return { ok: true };
  } catch (err) {
    return { ok: false, error: `Could not save in browser storage: ${err && err.message}` };
  }
}

export async function deleteTokenizer(name) {
  try {
    await run("tokenizers", "readwrite", (s) => s.delete(name));
    return { ok: true };
  } catch (err) {
    return { ok: false, error: String(err && err.message) };
  }
}

/** Rename atomically (one transaction). */
export async function renameTokenizer(oldName, newName) {
  try {
    const db = await open();
    await new Promise((resolve, reject) => {
      const tx = db.transaction("tokenizers", "readwrite");
      const s = tx.objectStore("tokenizers");
      const get = s.get(oldName);
      get.onsuccess = () => {
        if (!get.result) return tx.abort();
        s.delete(oldName);
        s.put({ ...get.result, name: newName });
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error(`no tokenizer named ${oldName}`));
    });
    return { ok: true };
  } catch (err) {
    return { ok: false, error: String(err && err.message) };
  }
}

export async function loadText(key, fallback = "") {
  try {
    const value = await run("texts", "readonly", (s) => s.get(key));
    return typeof value === "string" ? value : fallback;
  } catch {
    return fallback;
  }
}

export async function saveText(key, value) {
  try {
    await run("texts", "readwrite", (s) => s.put(value, key));
    return { ok: true };
  } catch (err) {
    return { ok: false, error: String(err && err.message) };
  }
}
