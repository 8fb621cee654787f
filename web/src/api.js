// window.bytepair: the playground's JavaScript API, used by the UI itself.
//
//   await bytepair.ready                         // {version, isolated}
//   await bytepair.encode(text, "cl100k_base")   // [ids]
//   await bytepair.count(text, "my-bpe")         // number of tokens
//   await bytepair.train(text, {vocabSize, pattern, name}, (merge) => ...)
//   bytepair.stop()
//   await bytepair.learnSteps({mode: "textbook", text: "low 5\nlower 2", n_merges: 10})
//
// `tokenizer` is an encoding name (gpt2, cl100k_base, o200k_base, ...) or the
// name of a tokenizer the user trained (kept in browser storage).

import { createRpc, WorkerCrashed } from "./rpc.js";
import * as storage from "./storage.js";

export const REAL_TOKENIZERS = [
  { name: "gpt2", label: "GPT-2 (gpt2)" },
  { name: "cl100k_base", label: "GPT-4 (cl100k_base)" },
  { name: "o200k_base", label: "GPT-4o (o200k_base)" },
];
const RESERVED = new Set(["gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base"]);
export const PRETOKENIZERS = [
  { value: "none", label: "None (bytes only)" },
  { value: "gpt2", label: "GPT-2" },
  { value: "cl100k_base", label: "GPT-4 (cl100k_base)" },
  { value: "o200k_base", label: "GPT-4o (o200k_base)" },
  { value: "custom", label: "Custom regex…" },
];
export const MIN_VOCAB = 257;
export const MAX_VOCAB = 100000;
const STOP_GRACE_MS = 1500; // then a worker still busy in Python is restarted

/** Check a tokenizer name; returns an error message or "". */
export function nameProblem(name, existing, { except } = {}) {
  const n = name.trim();
  if (!n) return "Give the tokenizer a name.";
  if (n.length > 60) return "Use at most 60 characters.";
  if (RESERVED.has(n)) return `"${n}" is a built-in encoding; pick another name.`;
  if (n !== except && existing.includes(n)) return `A tokenizer named "${n}" already exists.`;
  return "";
}

export function createApi({ onStatus }) {
  const trained = new Map(); // name -> {name, json, meta}
  let registered = new Set(); // names the current worker has loaded
  const listeners = new EventTarget();
  let training = null; // {stopRequested, merges, watchdog}

  const rpc = createRpc({
    onProgress: (fraction, message) => onStatus({ phase: "loading", fraction, message }),
    onRestart: (reason) => {
      registered = new Set();
      onStatus({ phase: "restarting", fraction: 0, message: reason });
      rpc.ready.then(
        () => onStatus({ phase: "ready", fraction: 1, message: "Ready (the Python worker was restarted)" }),
        (err) => onStatus({ phase: "error", message: err.message }),
      );
    },
  });

  const loaded = storage.listTokenizers().then((items) => {
    for (const item of items) trained.set(item.name, item);
    if (items.length) changed();
  });
  const ready = Promise.all([rpc.start(), loaded]).then(
    ([info]) => {
      onStatus({ phase: "ready", fraction: 1, message: "Ready", info });
      return info;
    },
    (err) => {
      onStatus({ phase: "error", message: err.message || String(err) });
      throw err;
    },
  );

  function changed() {
    listeners.dispatchEvent(new Event("tokenizers"));
  }

  /** Make sure a trained tokenizer is loaded in the (possibly restarted) worker. */
  async function use(name) {
    if (!trained.has(name) || registered.has(name)) return;
    const [res] = await rpc.call("registerTrained", [{ name, json: trained.get(name).json }]);
    if (res.error) throw new Error(`The saved tokenizer "${name}" could not be loaded: ${res.error}`);
    registered.add(name);
  }

  function uniqueName(base) {
    let name = base.trim() || "my-bpe";
    for (let i = 2; trained.has(name) || RESERVED.has(name); i += 1) name = `${base.trim()} (${i})`;
    return name;
  }

  async function keep(result, meta) {
    const record = { name: result.name, json: result.json, meta: { ...meta, n_merges: result.n_merges, n_vocab: result.n_vocab, created: Date.now() } };
    trained.set(record.name, record);
    registered.add(record.name);
    const saved = await storage.saveTokenizer(record);
    changed();
    return { ...result, saved: saved.ok, saveError: saved.error };
  }

  const api = {
    ready,
    REAL_TOKENIZERS,
    PRETOKENIZERS,

    /** Names of every tokenizer: the real ones, then the trained ones (oldest first). */
    tokenizers() {
      return [...REAL_TOKENIZERS.map((t) => t.name), ...trained.keys()];
    },
    /** Saved tokenizer records [{name, meta}] (without the JSON). */
    trainedTokenizers() {
      return [...trained.values()].map(({ name, meta }) => ({ name, meta }));
    },
    onTokenizersChanged(fn) {
      listeners.addEventListener("tokenizers", fn);
    },

    /** Token ids of `text` (special tokens are treated as plain text). */
    async encode(text, tokenizer) {
      await use(tokenizer);
      return rpc.call("encode", text, tokenizer);
    },
    /** Number of tokens of `text`. */
    async count(text, tokenizer) {
      await use(tokenizer);
      return rpc.call("count", text, tokenizer);
    },
    /** {n_tokens, ids, display, hex, start, end}: spans in UTF-16 code units (JS string indices). */
    async encodeSpans(text, tokenizer, limit) {
      await use(tokenizer);
      return rpc.call("encodeSpans", text, tokenizer, limit);
    },
    /** texts: [{key, text}] -> {tokenizer: {key: [tokens, utf8Bytes]}} */
    async compare(texts, tokenizers) {
      for (const t of tokenizers) await use(t);
      return rpc.call("compare", texts, tokenizers);
    },
    /**
     * Step-through (textbook or byte-level BPE, one merge at a time); the worker keeps the steps.
     * options: {mode: "textbook"|"bytes", text, input: "counts"|"text", tie: "first"|"lexicographic",
     *           pattern, n_merges} -> {session, mode, n_steps, requested, merges, n_rows, n_symbols_start, n_bytes}
     */
    learnSteps(options) {
      return rpc.call("stepsLearn", options);
    },
    /** Step `index` (0: the start) of a session: {merge, pair_counts, rows, vocab, n_symbols, ...}. */
    stepView(session, index) {
      return rpc.call("stepsView", session, index);
    },
    /** The session's merges applied to a new word (or short text): {start, fired: [{rank, pair, merged, symbols, positions}], n_rules}. */
    stepsEncode(session, text) {
      return rpc.call("stepsEncode", session, text);
    },
    /** Resolves the regex text, or rejects with the engine's message. */
    checkPattern(pattern) {
      return rpc.call("checkPattern", pattern);
    },

    /**
     * Train a tokenizer on `text`.
     * options: {vocabSize, pattern ("none"|"gpt2"|"cl100k_base"|"o200k_base"|regex), name}
     * onMerge(merge) is called for every merge, in order:
     *   {id, left, right, leftText, rightText, tokenText, count, nTokens, totalBytes, target}
     * Resolves {name, n_merges, n_vocab, stopped, saved} once the tokenizer is built and saved.
     */
    async train(text, options, onMerge = () => {}) {
      if (training) throw new Error("A training run is already going; stop it first.");
      const name = uniqueName(options.name || "my-bpe");
      const run = { stopRequested: false, merges: [], watchdog: null };
      training = run;
      const onBatch = (batch) => {
        for (const e of batch.events) {
          run.merges.push([e[1], e[2], e[0]]);
          onMerge({ id: e[0], left: e[1], right: e[2], leftText: e[3], rightText: e[4], tokenText: e[5], count: e[6], nTokens: e[7], totalBytes: batch.total_bytes, target: batch.target });
        }
      };
      const meta = { vocabSize: options.vocabSize, pattern: options.pattern, bytes: new TextEncoder().encode(text).length };
      try {
        const result = await rpc.call("train", text, { vocabSize: options.vocabSize, pattern: options.pattern, name }, rpc.proxy(onBatch));
        if (!result.n_merges) return { ...result, n_merges: 0, saved: false }; // nothing learned: nothing to keep
        return await keep(result, meta);
      } catch (err) {
        if (!(run.stopRequested && err instanceof WorkerCrashed)) throw err;
        // Stop had to restart a worker busy in Python: rebuild from the merges we saw.
        if (!run.merges.length) return { name, n_merges: 0, stopped: true, saved: false, restarted: true };
        const result = await rpc.call("fromMerges", name, run.merges, options.pattern);
        return await keep({ ...result, stopped: true, restarted: true }, meta);
      } finally {
        clearTimeout(run.watchdog);
        training = null;
      }
    },
    /** Stop the running training; always works (restarts a worker stuck in Python). */
    stop() {
      const run = training;
      if (!run || run.stopRequested) return;
      run.stopRequested = true;
      rpc.interrupt();
      run.watchdog = setTimeout(() => {
        if (training === run) rpc.restart("Stopped a training run that was busy counting pairs.");
      }, STOP_GRACE_MS);
    },
    get training() {
      return !!training;
    },

    /** The saved to_json() text of a trained tokenizer. */
    tokenizerJson(name) {
      const t = trained.get(name);
      if (!t) throw new Error(`No trained tokenizer named "${name}".`);
      return t.json;
    },
    /** The .tiktoken rank file (Uint8Array) of any tokenizer. */
    async tiktokenFile(name) {
      await use(name);
      return rpc.call("tiktokenFile", name);
    },
    /** Import a tokenizer JSON file's text under `name`. */
    async importTokenizer(name, json) {
      const problem = nameProblem(name, [...trained.keys()]);
      if (problem) throw new Error(problem);
      const [res] = await rpc.call("registerTrained", [{ name, json }]);
      if (res.error) throw new Error(res.error);
      return keep({ ...res, json }, { imported: true });
    },
    async renameTokenizer(oldName, newName) {
      const n = newName.trim();
      const problem = nameProblem(n, [...trained.keys()], { except: oldName });
      if (problem) throw new Error(problem);
      if (n === oldName) return;
      const res = await storage.renameTokenizer(oldName, n);
      if (!res.ok) throw new Error(res.error);
      const record = trained.get(oldName);
      trained.delete(oldName);
      trained.set(n, { ...record, name: n });
      registered.delete(oldName);
      rpc.call("forgetTrained", oldName).catch(() => {});
      changed();
    },
    async deleteTokenizer(name) {
      const res = await storage.deleteTokenizer(name);
      if (!res.ok) throw new Error(res.error);
      trained.delete(name);
      registered.delete(name);
      rpc.call("forgetTrained", name).catch(() => {});
      changed();
    },
    nameProblem: (name, opts) => nameProblem(name, [...trained.keys()], opts),

    /** Restart the Python worker (used by tests and after crashes). */
    restart(reason = "Restarted on request.") {
      return rpc.restart(reason);
    },
  };
  return api;
}
