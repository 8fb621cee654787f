// Browser storage (IndexedDB): trained tokenizers (their to_json() text plus a
// little metadata) and the texts the user typed, so a reload loses nothing.
// Every function resolves even when storage is unavailable (private mode,
// quota): callers get `ok: false` or defaults instead of exceptions.
//
// Where the browser gives the page no IndexedDB at all (a cross-site embed with
// third-party storage blocked, issue 19: opening the database fails with "The user
// denied permission"), the same functions keep their records in memory for this
// visit instead: what the reader trains and types stays usable until the page
// closes, and nothing claims it was kept. `persistent()` tells which it is.

import { savingOnHide } from "./dom.js";

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

/** The visit's records when IndexedDB is refused: store name -> Map(key -> value). */
const memory = { tokenizers: new Map(), texts: new Map() };

/** A stand-in for an IDBObjectStore over a Map (get, getAll, put, delete: what this module uses). */
function memoryStore(map, keyPath) {
  return {
    get: (key) => ({ result: structuredClone(map.get(key)) }),
    getAll: () => ({ result: [...map.values()].map((v) => structuredClone(v)) }),
    put(value, key) {
      map.set(keyPath ? value[keyPath] : key, structuredClone(value));
      return { result: undefined };
    },
    delete(key) {
      map.delete(key);
      return { result: undefined };
    },
  };
}

/**
 * Whether records outlive the page (IndexedDB), as opposed to this visit only (storage refused).
 * @returns {Promise<boolean>}
 */
export async function persistent() {
  try {
    await open();
    return true;
  } catch {
    return false;
  }
}

async function run(storeName, mode, fn) {
  let db;
  try {
    db = await open();
  } catch (err) {
    if (!refused(err)) throw err;
    return fn(memoryStore(memory[storeName], storeName === "tokenizers" ? "name" : null)).result;
  }
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    const result = fn(tx.objectStore(storeName));
    tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("storage transaction aborted"));
  });
}

/** All saved tokenizers: [{name, json, meta}], oldest first. */
/** Opening the database failed for good (no IndexedDB, or the browser denies it to this page). */
function refused(err) {
  return !!err && (err.name === "UnknownError" || err.name === "SecurityError" || /IndexedDB/.test(err.message));
}

export async function listTokenizers() {
  try {
    const all = await run("tokenizers", "readonly", (s) => s.getAll());
    return (all || []).sort((a, b) => (a.meta?.created || 0) - (b.meta?.created || 0));
  } catch {
    return [];
  }
}

/**
 * Save (or overwrite) one tokenizer record {name, json, meta}. Resolves {ok, error?, visitOnly}:
 * visitOnly when the browser refuses storage and the record lasts until the page closes; error
 * (when not ok) is data, {type: "storage", name (the DOMException's, e.g. "QuotaExceededError"),
 * message (the browser's words)}, for the view to word in the reader's language.
 */
export async function saveTokenizer(record) {
  try {
    await run("tokenizers", "readwrite", (s) => s.put(record));
    return { ok: true, visitOnly: !(await persistent()) };
  } catch (err) {
    return { ok: false, error: { type: "storage", name: err?.name || "Error", message: String(err?.message || err) } };
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
    if (!(await persistent())) {
      const map = memory.tokenizers;
      if (!map.has(oldName)) throw new Error(`no tokenizer named ${oldName}`);
      const record = map.get(oldName);
      map.delete(oldName);
      map.set(newName, { ...record, name: newName });
      return { ok: true };
    }
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

// A text saved as the page is hidden (a reload, a link away, a tab closed: dom.js debounce's
// `save` runs then, savingOnHide) is also kept in localStorage at once, under this prefix: the page may be gone
// before IndexedDB commits the write. The next loadText of that key takes it and moves it into
// IndexedDB; a save that IndexedDB committed drops it.
const PENDING = "bytepair-pending:";

function localStore() {
  try {
    return globalThis.localStorage ?? null; // (reading it throws where storage is blocked)
  } catch {
    return null;
  }
}

export async function loadText(key, fallback = "") {
  let pending = null;
  try {
    pending = localStore()?.getItem(PENDING + key) ?? null;
  } catch {
    // blocked storage: IndexedDB's copy
  }
  if (pending != null) {
    saveText(key, pending); // (into IndexedDB; done, it drops the pending copy)
    return pending;
  }
  try {
    const value = await run("texts", "readonly", (s) => s.get(key));
    return typeof value === "string" ? value : fallback;
  } catch {
    return fallback;
  }
}

export async function saveText(key, value) {
  if (savingOnHide()) {
    try {
      localStore()?.setItem(PENDING + key, value);
    } catch {
      // a quota (a text of megabytes) or blocked storage: IndexedDB's write alone
    }
  }
  try {
    await run("texts", "readwrite", (s) => s.put(value, key));
    try {
      // (only this value's copy: an older save that commits after a newer one was kept there
      // must not drop the newer)
      if (localStore()?.getItem(PENDING + key) === value) localStore().removeItem(PENDING + key);
    } catch {
      // (nothing was kept there)
    }
    return { ok: true };
  } catch (err) {
    return { ok: false, error: String(err && err.message) };
  }
}
