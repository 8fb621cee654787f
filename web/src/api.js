// window.bytepair: the playground's JavaScript API, used by the UI itself.
//
//   await bytepair.ready                         // {version, isolated}
//   await bytepair.encode(text, "cl100k_base")   // [ids]
//   await bytepair.count(text, "my-bpe")         // number of tokens
//   await bytepair.train(text, {vocabSize, pattern, name}, (merge) => ...)
//   bytepair.stop()
//   await bytepair.stepsLearn({mode: "textbook", text: "low 5\nlower 2", n_merges: 10})
//   bytepair.facts                               // shared facts from Python (py/bytepair/app/facts.py): the site's facts.json, then the ready reply
//
// `tokenizer` is an encoding name (gpt2, cl100k_base, o200k_base, ...) or the
// name of a tokenizer the user trained (kept in browser storage).

import { createRpc, WorkerCrashed, seconds } from "./rpc.js";
import { BytepairError, isDownloadError } from "./errors.js";
import * as storage from "./storage.js";

const STOP_GRACE_MS = 1500;
/** Time limit for loading an open model (download + parse); the page shows its progress meanwhile. */
const MODEL_LOAD_LIMIT_MS = 180000; // then a worker still busy in Python is restarted
// How long the service worker's precache for offline use waits after a tokenizer's first use
// starts (a built-in vocabulary) or its load ends (an open model): its first count and render
// (src/sw-core.js "yield"; it slowed Gemma 3's first count from ~0.25 s to ~0.5 s, issue 20).
const PRECACHE_YIELD_MS = 1500;
/** Time limit of one call (encode, count, compare, steps, ...; not training) before the worker is restarted. */
export const CALL_LIMIT_MS = 15000;
/** Extra time allowed per million characters of text passed (long texts take a while to encode). */
const CALL_LIMIT_PER_MCHAR_MS = 15000;

/** Texts this long or longer are counted in steps (worker countStepped): other calls run in between. */
export const STEPPED_COUNT_CHARS = 100000;

/** How a bad argument is described in an error: its type, or a short value. */
function describe(value) {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  if (typeof value === "number") return String(value);
  return `a ${typeof value}`;
}

function needText(call, text, what = "text") {
  if (typeof text !== "string")
    throw new TypeError(`bytepair.${call}: ${what} must be a string, got ${describe(text)}.`);
}

/** The string length of every string in a call's arguments (nested in arrays and objects too). */
function textLength(args) {
  let n = 0;
  const walk = (v) => {
    if (typeof v === "string") n += v.length;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(args);
  return n;
}

/** Longest tokenizer name (characters). */
const MAX_NAME = 60;

/**
 * Check a tokenizer name, as data: null, or {kind, name, max}: kind "empty", "long" (over `max`
 * characters), "builtIn" (an encoding's name, facts.tokenizers) or "exists" (a trained one's).
 */
export function nameIssue(name, existing, { except, builtIn = [] } = {}) {
  const n = name.trim();
  const issue = (kind) => ({ kind, name: n, max: MAX_NAME });
  if (!n) return issue("empty");
  if (n.length > MAX_NAME) return issue("long");
  if (builtIn.includes(n)) return issue("builtIn");
  if (n !== except && existing.includes(n)) return issue("exists");
  return null;
}

/** Check a tokenizer name; returns an error message (English, nameIssue worded) or "". */
export function nameProblem(name, existing, options = {}) {
  const issue = nameIssue(name, existing, options);
  const n = issue?.name;
  return !issue
    ? ""
    : {
        empty: "Give the tokenizer a name.",
        long: `Use at most ${MAX_NAME} characters.`,
        builtIn: `"${n}" is a built-in encoding; pick another name.`,
        exists: `A tokenizer named "${n}" already exists.`,
      }[issue.kind];
}

/**
 * A tokenizer name's problem as a structured error: type "name", field the issue's kind
 * ("empty", "long", "builtIn", "exists"), detail {name, max}; worded by i18n.errorText.
 */
function nameError(issue, existing, options) {
  return new BytepairError({
    type: "name",
    field: issue.kind,
    name: issue.name,
    max: issue.max,
    message: nameProblem(issue.name, existing, options),
  });
}

/** shared: one Python runtime for all pages of the origin that ask for it (embeds; rpc.js createRpc). */
export function createApi({ onStatus, shared = false }) {
  const trained = new Map(); // name -> {name, json, meta}
  const files = new Map(); // tokenizer files people loaded: name -> {name, json, config, meta: {kind: "file", ...}}
  const modelLoads = []; // open models loaded by the worker: {name, source: "cache"|"network", bytes, ms}
  let registered = new Set(); // names the current worker has loaded
  const trainingEvents = new Map(); // name -> {id, left, right, count}: merges of a run trained in this page (for tokenStory)
  const listeners = new EventTarget();
  let training = null; // {stopRequested, merges, watchdog}
  let callLimitMs = CALL_LIMIT_MS;
  const timeoutMessage = (ms) =>
    `The tokenizer took longer than ${seconds(ms)} — a custom split pattern may be backtracking; the Python worker was restarted.`;
  /** A worker call with the watchdog (every call but training); the limit grows with the text. */
  function call(method, ...args) {
    return noticed(rpc.callLimited(limitFor(args), timeoutMessage, method, ...args));
  }
  /** A call's time limit in ms: callLimitMs, plus CALL_LIMIT_PER_MCHAR_MS per million characters of its text; 0: none. */
  function limitFor(args) {
    return callLimitMs > 0 ? callLimitMs + Math.round((textLength(args) / 1e6) * CALL_LIMIT_PER_MCHAR_MS) : 0;
  }

  /**
   * A call that splits text with the tokenizers `names`: it has the watchdog of `call` only when
   * one of them may carry a split pattern someone wrote (a trained tokenizer, a loaded file), the
   * one thing that can backtrack for ever. The site's own encodings and open models have fixed,
   * linear patterns; a 5-10 MB text legitimately takes longer than a fixed limit on a slow or busy
   * machine (issue 11: a 5 MB Tokenize encode took 89 s under load here, against its 90 s
   * limit), and ending it would throw the work away. For those the views' "Working…" notice
   * offers Cancel (api.cancel) instead.
   */
  function textCall(names, method, ...args) {
    const custom = names.some((n) => trained.has(n) || files.has(n));
    return noticed(rpc.callLimited(custom ? limitFor(args) : 0, timeoutMessage, method, ...args));
  }

  // --- what works offline (issue 20): the menus mark the tokenizers whose files are not here ---
  let missing = new Set(); // built-in tokenizers not downloaded, known while offline (else empty)
  let downloadFailed = false; // a download failed since the browser was last online
  let checking = 0;
  /** A download failed (worker.js fetchOk: type offline/network): the menus check what is here. */
  function downloadFailedNow() {
    downloadFailed = true;
    checkDownloads();
  }
  /** A call's promise, its download failure noted (downloadFailedNow). */
  function noticed(promise) {
    return promise.catch((err) => {
      if (isDownloadError(err)) downloadFailedNow();
      throw err;
    });
  }
  /**
   * While the browser is offline (or a download failed): ask the worker which built-in tokenizers
   * work without a download and tell the views ("downloads") when that changed; online: none is
   * marked (every choice downloads what it needs).
   */
  async function checkDownloads() {
    const mine = ++checking;
    let next = new Set();
    if (started && facts && (downloadFailed || globalThis.navigator?.onLine === false)) {
      const names = builtIn();
      const here = await rpc.callLimited(callLimitMs, timeoutMessage, "downloaded", names).catch(() => ({}));
      next = new Set(names.filter((n) => here[n] === false));
    }
    if (mine !== checking || (next.size === missing.size && [...next].every((n) => missing.has(n)))) return;
    missing = next;
    listeners.dispatchEvent(new Event("downloads"));
  }
  globalThis.addEventListener?.("offline", () => checkDownloads());
  globalThis.addEventListener?.("online", () => {
    downloadFailed = false;
    checkDownloads();
  });

  const rpc = createRpc({
    shared,
    // bytes: {loaded, total} of the start's downloads while they arrive (worker.js), else undefined
    // step: worker.js boot()'s key for the part of the start that runs ("runtime", "install", …)
    onProgress: (fraction, step, bytes) => onStatus({ phase: "loading", fraction, step, bytes }),
    onRestart: (reason) => {
      registered = new Set();
      onStatus({ phase: "restarting", fraction: 0, message: reason });
      rpc.ready.then(
        () => onStatus({ phase: "ready", fraction: 1, restarted: true }),
        (err) => onStatus({ phase: "error", message: err.message }),
      );
    },
  });

  const loaded = storage.listTokenizers().then((items) => {
    for (const item of items) (item.meta?.kind === "file" ? files : trained).set(item.name, item);
    if (items.length) changed();
  });
  // py/bytepair/app/facts.py's facts(): first from the site's facts.json (the build writes the
  // adapter's facts() there: the menus are filled before Python is ready, which on a slow phone is
  // half a minute), then from the worker's ready reply (the same object; it wins if they differ)
  let facts = null;
  let started = false; // the worker answered its start (the ready reply)
  fetch(new URL("../facts.json", import.meta.url))
    .then((res) => (res.ok ? res.json() : null))
    .then(
      (f) => {
        if (!f || facts || !Array.isArray(f.tokenizers)) return;
        facts = f;
        listeners.dispatchEvent(new Event("facts"));
      },
      () => {}, // (offline before the file was cached, or an old host: the ready reply brings them)
    );
  const builtIn = () =>
    facts ? [...facts.tokenizers.map((t) => t.name), ...facts.open_models.map((m) => m.name)] : [];
  const isOpenModel = (name) => !!facts?.open_models.some((m) => m.name === name);
  const ready = Promise.all([rpc.start(), loaded]).then(
    ([info]) => {
      started = true;
      const first = !facts;
      facts = info.facts;
      onStatus({ phase: "ready", fraction: 1, info });
      if (first) listeners.dispatchEvent(new Event("facts"));
      checkDownloads();
      return info;
    },
    (err) => {
      // start: the worker's start failed (main.js offers to try again: a reload)
      onStatus({ phase: "error", message: err.message || String(err), start: true });
      throw err;
    },
  );

  function changed() {
    listeners.dispatchEvent(new Event("tokenizers"));
  }

  /**
   * Check a tokenizer argument (missing: cl100k_base) and make sure a trained
   * tokenizer is loaded in the (possibly restarted) worker. Returns the name.
   */
  async function use(name, fn = "encode") {
    if (name == null) name = "cl100k_base";
    if (typeof name !== "string") {
      throw new TypeError(
        `bytepair.${fn}: the tokenizer must be a name such as "cl100k_base" (see bytepair.tokenizers()), got ${describe(name)}.`,
      );
    }
    await loaded;
    if (files.has(name)) {
      if (registered.has(name)) return name;
      const f = files.get(name);
      const [res] = await call("registerFiles", [{ name, json: f.json, config: f.config }]);
      if (res.error)
        throw new BytepairError({
          ...res.error,
          message: `The loaded tokenizer "${name}" could not be read again: ${res.error.message}`,
        });
      registered.add(name);
      return name;
    }
    if (!trained.has(name)) {
      await ready;
      if (isOpenModel(name)) return loadModel(name);
      if (api.tokenizers().includes(name) || builtIn().includes(name)) {
        if (!firstUsed.has(name)) precacheYield(PRECACHE_YIELD_MS); // its vocabulary downloads now
        firstUsed.add(name);
        return name;
      }
      throw new Error(
        `bytepair.${fn}: unknown tokenizer ${JSON.stringify(name)}; use one of ${api.tokenizers().join(", ")} (bytepair.tokenizers() lists them).`,
      );
    }
    if (registered.has(name)) return name;
    const [res] = await call("registerTrained", [{ name, json: trained.get(name).json }]);
    if (res.error)
      throw new BytepairError({
        ...res.error,
        message: `The saved tokenizer "${name}" could not be loaded: ${res.error.message}`,
      });
    registered.add(name);
    return name;
  }

  /** The first run.keep merges seen of a stopped run, as columns {left, right, id, count}. */
  function shownMerges(run) {
    const n = run.keep ?? run.merges.id.length;
    return Object.fromEntries(Object.entries(run.merges).map(([k, col]) => [k, col.slice(0, n)]));
  }

  const firstUsed = new Set(); // built-in tokenizers used in this page

  /** Ask the service worker's precache to wait `ms` from now (0: no more), while a tokenizer
   * downloads and loads (src/sw-register.js; absent where there is no service worker). */
  function precacheYield(ms) {
    globalThis.bytepairPrecacheYield?.(ms);
  }

  const modelPending = new Map(); // name -> promise of the worker's loadModel
  /** Load open model `name` in the worker once (per worker), reporting progress as "model-progress" events. */
  function loadModel(name) {
    if (registered.has(name)) return Promise.resolve(name);
    if (!modelPending.has(name)) {
      const progress = (p) =>
        listeners.dispatchEvent(new CustomEvent("model-progress", { detail: { ...p, label: api.label(name) } }));
      precacheYield(MODEL_LOAD_LIMIT_MS); // (sw-core.js caps the wait)
      const p = noticed(
        rpc.callLimited(
          MODEL_LOAD_LIMIT_MS,
          (ms) => `Loading ${api.label(name)} took longer than ${seconds(ms)}; the Python worker was restarted.`,
          "loadModel",
          name,
          rpc.proxy(progress),
        ),
      )
        .then(
          (info) => {
            if (info) modelLoads.push(info);
            registered.add(name);
            listeners.dispatchEvent(
              new CustomEvent("model-progress", {
                detail: { name, phase: "done", label: api.label(name), ...(info || {}) },
              }),
            );
            return name;
          },
          (err) => {
            listeners.dispatchEvent(
              new CustomEvent("model-progress", {
                detail: { name, phase: "error", label: api.label(name), message: err.message },
              }),
            );
            throw err;
          },
        )
        .finally(() => {
          modelPending.delete(name);
          precacheYield(PRECACHE_YIELD_MS);
        });
      modelPending.set(name, p);
    }
    return modelPending.get(name);
  }

  function uniqueName(base) {
    let name = base.trim() || "my-bpe";
    for (let i = 2; trained.has(name) || files.has(name) || builtIn().includes(name); i += 1)
      name = `${base.trim()} (${i})`;
    return name;
  }

  async function keep(result, meta, onBuilt = null) {
    const record = {
      name: result.name,
      json: result.json,
      meta: { ...meta, n_merges: result.n_merges, n_vocab: result.n_vocab, created: Date.now() },
    };
    trained.set(record.name, record);
    registered.add(record.name);
    onBuilt?.({ ...result, saved: null }); // usable now (trainedTokenizers, tokenizerJson); stored next
    const saved = await storage.saveTokenizer(record);
    if (result.stopped) performance.mark("bytepair:stop-saved");
    changed();
    return { ...result, saved: saved.ok, saveError: saved.error, visitOnly: !!saved.visitOnly };
  }

  const api = {
    ready,
    /**
     * The facts shared with Python (py/bytepair/app/facts.py): {tokenizers: [{name, label, listed}],
     * pretokenizers: [{value, label}], vocab_size: {min, max}, steps: {max_merges, ...}, end_of_word};
     * null until the site's facts.json or the worker's ready reply brings them.
     */
    get facts() {
      return facts;
    },
    /** Run fn(facts) now if the facts are here, else once they are (facts.json or Ready, the first). */
    withFacts(fn) {
      if (facts) fn(facts);
      else listeners.addEventListener("facts", () => fn(facts), { once: true });
    },
    /**
     * Before Python is ready: the view will first count with the tokenizers `names` (strings), so
     * the worker downloads their vocabularies once its own start no longer needs the link (issue
     * 20: the first count on a slow phone). A hint: nothing to wait for, nothing fails.
     */
    prefetchVocab(names) {
      if (!started) rpc.hint("prefetchVocab", names);
    },
    /** The encodings the page lists: [{name, label}] (empty until the facts are here: api.facts). */
    realTokenizers() {
      return facts ? facts.tokenizers.filter((t) => t.listed) : [];
    },
    /** How a person knows a tokenizer: the encoding's or open model's label, or the name. */
    label(name) {
      return (
        facts?.tokenizers.find((t) => t.name === name)?.label ??
        facts?.open_models.find((m) => m.name === name)?.label ??
        name
      );
    },
    /** The open models the site ships (py/bytepair/app/models.py): [{name, label, maker, family, version, format, source, files, file}]. */
    openModels() {
      return facts ? facts.open_models : [];
    },
    /** What a tokenizer is: "openai" | "open" (a shipped open model) | "file" (loaded here) | "trained" | null. */
    kind(name) {
      if (trained.has(name)) return "trained";
      if (files.has(name)) return "file";
      if (isOpenModel(name)) return "open";
      return facts?.tokenizers.some((t) => t.name === name) ? "openai" : null;
    },
    /** Tokenizer files loaded here: [{name, meta}]. */
    loadedFiles() {
      return [...files.values()].map(({ name, meta }) => ({ name, meta }));
    },
    /** Open models loaded by the worker since the page opened: [{name, source: "cache"|"network", bytes, ms}]. */
    get modelLoads() {
      return modelLoads.slice();
    },
    /** fn({name, label, phase: "download"|"cache"|"load"|"done"|"error", loaded, total, ...}) while an open model loads. */
    onModelProgress(fn) {
      listeners.addEventListener("model-progress", (e) => fn(e.detail));
    },

    /** Names of every tokenizer: OpenAI's listed ones, the open models, files loaded here, then the trained ones (oldest first). */
    tokenizers() {
      return [
        ...api.realTokenizers().map((t) => t.name),
        ...api.openModels().map((m) => m.name),
        ...files.keys(),
        ...trained.keys(),
      ];
    },
    /** Saved tokenizer records [{name, meta}] (without the JSON). */
    trainedTokenizers() {
      return [...trained.values()].map(({ name, meta }) => ({ name, meta }));
    },
    onTokenizersChanged(fn) {
      listeners.addEventListener("tokenizers", fn);
    },
    /**
     * Whether tokenizer `name` needs a download this page cannot make now: true only while the
     * browser is offline (or a download failed) and its file is in no cache here (the menus say
     * so: "— not downloaded"); false online, for what is here, and for trained and loaded ones.
     */
    notDownloaded(name) {
      return missing.has(name);
    },
    /** fn() when the set of tokenizers notDownloaded changed (the browser went offline or online). */
    onDownloadsChanged(fn) {
      listeners.addEventListener("downloads", fn);
    },

    /**
     * Token ids of `text`; tokenizer: default cl100k_base. OpenAI/trained: special-token strings are
     * plain text. Open models / loaded files: {addSpecial} (default true, as `tokenizers`) adds BOS etc.
     */
    async encode(text, tokenizer = "cl100k_base", { addSpecial = true } = {}) {
      needText("encode(text, tokenizer)", text);
      const name = await use(tokenizer, "encode(text, tokenizer)");
      return textCall([name], "encode", text, name, !!addSpecial);
    },
    /**
     * Number of tokens of `text`, counted as encode counts; tokenizer: default cl100k_base.
     * A text of STEPPED_COUNT_CHARS or more is counted in steps (exactly: bytepair.app.chunked), so the
     * worker answers other calls meanwhile. options.key: a newer count with the same key ends an
     * older one still running (it rejects with an error named "Superseded"); options.onProgress(
     * position, length): characters counted so far, after each step.
     */
    async count(text, tokenizer = "cl100k_base", { addSpecial = true, key = null, onProgress = null } = {}) {
      needText("count(text, tokenizer)", text);
      const name = await use(tokenizer, "count(text, tokenizer)");
      if (text.length < STEPPED_COUNT_CHARS) return textCall([name], "count", text, name, !!addSpecial);
      const progress = typeof onProgress === "function" ? rpc.proxy((p, n) => onProgress(p, n)) : null;
      return textCall([name], "countStepped", text, name, !!addSpecial, key == null ? null : String(key), progress);
    },
    /**
     * {n_tokens, n_added, ids, display, vocab, special, hex, note, note_parts, start, end, marks}: spans in UTF-16 code units
     * (JS string indices); n_added: tokens the tokenizer added (BOS ...; empty spans at 0); display names
     * invisible characters ("⟨ZWJ⟩"), note explains fragments; marks: {start, end, label, title} of the
     * invisible characters of `text`. options.specials: special-token strings ("<|endoftext|>") count as
     * special tokens (OpenAI/trained tokenizers). options.total false (with a limit): only the first
     * `limit` tokens are encoded where that is exact (bytepair.app.chunked.first_spans: a large text's
     * first tokens in milliseconds); n_tokens is then null and marks cover the part shown: count
     * the text with count() (in steps).
     */
    async encodeSpans(
      text,
      tokenizer = "cl100k_base",
      limit = null,
      { addSpecial = true, specials = false, total = true } = {},
    ) {
      needText("encodeSpans(text, tokenizer, limit)", text);
      if (limit != null && !(Number.isInteger(limit) && limit >= 0)) {
        throw new TypeError(
          `bytepair.encodeSpans(text, tokenizer, limit): limit (tokens drawn) must be a whole number or null, got ${describe(limit)}.`,
        );
      }
      const name = await use(tokenizer, "encodeSpans(text, tokenizer, limit)");
      return textCall([name], "encodeSpans", text, name, limit, !!addSpecial, specials === true, total !== false);
    },
    /**
     * The text cut into chunks of at most maxTokens tokens each (bytepair.chunk: each chunk counted on
     * its own, cuts between characters), as JSON lines {index, text, tokens, start, end} (a string;
     * offsets in characters, as the `bytepair chunk` command writes them). options: overlap (tokens),
     * boundary ("token" | "sentence" | "paragraph"), addSpecial (open models: BOS counted per chunk).
     * Rejects with a BytepairError whose field names the bad option (max_tokens, overlap, boundary).
     */
    async chunkJsonl(text, tokenizer, maxTokens, { overlap = 0, boundary = "token", addSpecial = false } = {}) {
      needText("chunkJsonl(text, tokenizer, maxTokens)", text);
      const name = await use(tokenizer, "chunkJsonl(text, tokenizer, maxTokens)");
      return textCall([name], "chunkJsonl", text, name, maxTokens, overlap, boundary, !!addSpecial);
    },
    /** The context windows of the models `tokenizer` counts for (bytepair.app.limits.CONTEXT_WINDOWS), the default first. */
    contextWindows(tokenizer) {
      return (facts?.context_windows || []).filter((w) => w.tokenizer === tokenizer);
    },
    /** The context window a Chat format's count is shown against (facts.chat_context_windows), or null. */
    chatContextWindow(format) {
      const model = facts?.chat_context_windows?.[format];
      return (facts?.context_windows || []).find((w) => w.model === model) || null;
    },
    /** Pasted token ids ("15339 1917" or "[15339, 1917]") -> {ids, text, display, note}. */
    async decodeIds(idsText, tokenizer = "cl100k_base") {
      needText("decodeIds(idsText, tokenizer)", idsText);
      const name = await use(tokenizer, "decodeIds(idsText, tokenizer)");
      return call("decodeIds", idsText, name);
    },
    /** describe() of a tokenizer, from Python: {model, vocab_size, n_vocab, normalizer, pre_tokenizer, split_patterns, byte_fallback, special_tokens, bos_token, eos_token, adds_special_tokens, ...}. */
    async describe(tokenizer) {
      const name = await use(tokenizer, "describe(tokenizer)");
      return call("describe", name);
    },
    /**
     * Load a tokenizer file someone brings (File objects: a tokenizer.json, optionally its
     * tokenizer_config.json; or a Mistral Tekken JSON). It is kept in this browser and listed
     * with the others. Resolves {name, n_vocab, model}; rejects with a BytepairError
     * (type "tokenizer_file", where) for a file bytepair cannot load.
     */
    async loadFiles(fileList) {
      const list = [...fileList];
      const isConfig = (f) => /config/i.test(f.name) && !/^tokenizer\.json$/i.test(f.name);
      const main = list.filter((f) => !isConfig(f));
      const configs = list.filter(isConfig);
      if (main.length !== 1 || configs.length > 1) {
        throw new BytepairError({
          type: "argument",
          field: "file",
          message: `Drop one tokenizer.json (or Tekken .json), optionally with its tokenizer_config.json; got ${list.map((f) => f.name).join(", ") || "no file"}.`,
        });
      }
      const [json, config] = await Promise.all([
        main[0].text(),
        configs.length ? configs[0].text() : Promise.resolve(""),
      ]);
      await ready;
      const base = main[0].name.replace(/\.json$/i, "").replace(/^tokenizer$/i, "") || "loaded";
      let stem = base;
      if (config) {
        try {
          stem =
            String(JSON.parse(config).name_or_path || base)
              .split("/")
              .pop() || base;
        } catch {
          stem = base;
        }
      }
      if (stem === "tokenizer" || stem === "loaded") stem = "my tokenizer.json";
      const name = uniqueName(stem);
      const [res] = await call("registerFiles", [{ name, json, config }]);
      if (res.error)
        throw new BytepairError({
          ...res.error,
          file: main[0].name,
          message: `${main[0].name}: ${res.error.message}${res.error.where ? ` (at ${res.error.where})` : ""}`,
        });
      registered.add(name);
      const record = {
        name,
        json,
        config,
        meta: {
          kind: "file",
          fileName: main[0].name,
          configName: configs[0]?.name ?? null,
          model: res.model,
          n_vocab: res.n_vocab,
          chat_templates: res.chat_templates ?? [],
          created: Date.now(),
        },
      };
      files.set(name, record);
      const saved = await storage.saveTokenizer(record);
      changed();
      return { ...res, name, saved: saved.ok, saveError: saved.error };
    },
    /**
     * texts: [{key, text}], tokenizers: names (default: all) -> {tokenizer: {key: [tokens, utf8Bytes]}}.
     * {partial: true}: a tokenizer whose file cannot be downloaded now (offline: a BytepairError of
     * type "offline" or "network", its detail.name the tokenizer) is left out and the others are
     * counted: resolves {counts: {tokenizer: {key: [tokens, utf8Bytes]}}, failed: {tokenizer:
     * BytepairError}}; without it that error rejects the whole call.
     */
    async compare(texts, tokenizers = api.tokenizers(), { addSpecial = true, partial = false } = {}) {
      const fn = "compare(texts, tokenizers)";
      if (!Array.isArray(texts) || !texts.every((t) => t && typeof t.key === "string" && typeof t.text === "string")) {
        throw new TypeError(
          `bytepair.${fn}: texts must be an array of {key, text} objects with string values, e.g. [{key: "en", text: "Hello"}], got ${describe(texts)}.`,
        );
      }
      if (!Array.isArray(tokenizers))
        throw new TypeError(
          `bytepair.${fn}: tokenizers must be an array of names, e.g. ["gpt2", "cl100k_base"], got ${describe(tokenizers)}.`,
        );
      const names = [];
      const failed = {};
      for (const t of tokenizers) {
        try {
          names.push(await use(t, fn)); // (an open model downloads here)
        } catch (err) {
          if (!partial || !isDownloadError(err)) throw err;
          failed[t] = err;
        }
      }
      const items = texts.map(({ key, text }) => ({ key, text }));
      if (!partial) return textCall(names, "compare", items, names, addSpecial);
      const res = names.length
        ? await textCall(names, "compare", items, names, addSpecial, true)
        : { counts: {}, failed: {} };
      for (const [name, detail] of Object.entries(res.failed)) failed[name] = new BytepairError(detail);
      if (Object.keys(failed).length) downloadFailedNow(); // (the menus mark what is not here)
      return { counts: res.counts, failed };
    },
    /**
     * A report card (bytepair.report.card.ReportJob().result()): texts [{key, text}] (parallel) x
     * tokenizers (names), premiums against options.baseline (a key of texts), paper figures, vocabulary
     * anatomy. options: {baseline, corpus (its name, kept in the result), wordMetrics (fertility;
     * default true), onProgress(position, length)}. Counted in steps: other calls run in between.
     */
    async report(texts, tokenizers, { baseline, corpus = "", wordMetrics = true, onProgress = null } = {}) {
      const fn = "report(texts, tokenizers, {baseline})";
      if (!Array.isArray(texts) || !texts.every((t) => t && typeof t.key === "string" && typeof t.text === "string"))
        throw new TypeError(
          `bytepair.${fn}: texts must be an array of {key, text} objects with string values, got ${describe(texts)}.`,
        );
      if (!Array.isArray(tokenizers) || !tokenizers.length)
        throw new TypeError(
          `bytepair.${fn}: tokenizers must be a non-empty array of names, got ${describe(tokenizers)}.`,
        );
      const names = [];
      for (const t of tokenizers) names.push(await use(t, fn));
      const progress = typeof onProgress === "function" ? rpc.proxy((p, n) => onProgress(p, n)) : null;
      // the watchdog of textCall (only with a trained or loaded tokenizer), for the whole run: per
      // tokenizer, one call's limit for its counts of every text and one for its vocabulary
      const custom = names.some((n) => trained.has(n) || files.has(n));
      const limit =
        custom && callLimitMs > 0
          ? names.length * (2 * callLimitMs + Math.round((textLength(texts) / 1e6) * CALL_LIMIT_PER_MCHAR_MS))
          : 0;
      return rpc.callLimited(
        limit,
        timeoutMessage,
        "reportStepped",
        texts.map(({ key, text }) => ({ key, text })),
        names,
        String(baseline ?? texts[0]?.key ?? ""),
        String(corpus),
        !!wordMetrics,
        progress,
      );
    },
    /**
     * Step-through (textbook or byte-level BPE, one merge at a time); the worker keeps the steps.
     * options: {mode: "textbook"|"bytes", text, input: "counts"|"text", tie: "first"|"lexicographic",
     *           pattern, n_merges} -> {session, mode, n_steps, requested, merges: {left, right, merged, count},
     *           n_rows, n_symbols_start, n_bytes}
     */
    async stepsLearn(options) {
      if (!options || typeof options !== "object" || typeof options.text !== "string") {
        throw new TypeError(
          'bytepair.stepsLearn(options): pass an object with a text, e.g. {mode: "textbook", text: "low 5\\nlower 2", n_merges: 10} or {mode: "bytes", text: "some text", pattern: "gpt2", n_merges: 20}.',
        );
      }
      return call("stepsLearn", options);
    },
    /** Step `index` (0: the start) of a session: bytepair.teach.steps.StepView as JSON {merge, pair_counts, rows, vocab, n_symbols, ...}. */
    async stepsView(session, index) {
      if (!Number.isInteger(session) || !Number.isInteger(index)) {
        throw new TypeError(
          `bytepair.stepsView(session, index): pass the session number stepsLearn returned and a step number (0: the start), got ${describe(session)} and ${describe(index)}.`,
        );
      }
      return call("stepsView", session, index);
    },
    /** The session's merges applied to a new word (or short text): {start, fired: [{index, pair, merged, symbols, positions}], n_rules}. */
    async stepsEncode(session, text) {
      if (!Number.isInteger(session))
        throw new TypeError(
          `bytepair.stepsEncode(session, text): pass the session number stepsLearn returned, got ${describe(session)}.`,
        );
      needText("stepsEncode(session, text)", text, "the word to encode");
      return call("stepsEncode", session, text);
    },
    /**
     * A conversation as the model sees it, counted: format is an id of facts.chat.formats
     * ("chatml-o200k", "harmony", "template:<model>"); messages: [{role, content}].
     * -> bytepair.chat.ChatBreakdown as JSON {text, ids, total, tokens: [{id, start, end, message,
     * part, special}], messages: [{index, role, content_tokens, overhead_tokens, tokens}],
     * trailing_tokens, overhead_tokens, tools_tokens, tools_spans, estimate, format, template_name,
     * tokenizer_name} (UTF-16 spans).
     * tools: tool (function) definitions, an array of {type: "function", function: {name, description,
     * parameters}} or its JSON text; their tokens are `tools_tokens` (tokens with part "tools"); for
     * OpenAI's ChatML formats the count is an estimate (`estimate: true`); `tools_ignored: true` when
     * the chat template has no tools (it renders the same prompt without them). A bad tools JSON rejects
     * with a BytepairError {type: "tools", field: "tools", line, column, pos, tool_index, path}.
     * A template's rejection rejects with a BytepairError {type: "chat_template", field: "messages", message_index}.
     */
    async chat(messages, format = "chatml-o200k", { addGenerationPrompt = true, tools = null } = {}) {
      const fn = "chat(messages, format, {addGenerationPrompt, tools})";
      if (
        !Array.isArray(messages) ||
        !messages.every((m) => m && typeof m.role === "string" && typeof m.content === "string")
      ) {
        throw new TypeError(
          `bytepair.${fn}: messages must be an array of {role, content} objects with string values, e.g. [{role: "user", content: "Hi"}], got ${describe(messages)}.`,
        );
      }
      if (typeof format !== "string")
        throw new TypeError(
          `bytepair.${fn}: format must be a chat format id such as "chatml-o200k" (bytepair.facts.chat.formats), got ${describe(format)}.`,
        );
      if (tools != null && typeof tools !== "string" && !Array.isArray(tools))
        throw new TypeError(
          `bytepair.${fn}: tools must be an array of tool definitions or their JSON text, got ${describe(tools)}.`,
        );
      const toolsJson = tools == null ? "" : typeof tools === "string" ? tools : JSON.stringify(tools);
      await ready;
      // an open model (loaded once, with progress) or a file loaded here: "template:<tokenizer name>",
      // or "template:<tokenizer name>@<published template>" (bytepair.app.chat_formats.PUBLISHED_TEMPLATES)
      // an open model's own format (Mistral NeMo as mistral-common): its tokenizer is that model
      const listed = facts?.chat?.formats?.find((x) => x.id === format);
      const templateTokenizer = format.startsWith("template:")
        ? format.slice("template:".length).split("@")[0]
        : listed && isOpenModel(listed.tokenizer)
          ? listed.tokenizer
          : null;
      if (templateTokenizer) await use(templateTokenizer, fn);
      // (a chat template's tokenizer: an open model, or a file loaded here, limited as textCall says)
      return textCall(
        templateTokenizer ? [templateTokenizer] : [],
        "chatBreakdown",
        format,
        messages.map(({ role, content }) => ({ role, content })),
        !!addGenerationPrompt,
        toolsJson,
      );
    },
    /**
     * Why this token: the story of token `index` (0-based) of `text` under `tokenizer`
     * (bytepair.token_story(...).to_dict() with UTF-16 spans, plus `lines` (bytepair.teach.explain.describe)).
     * For a tokenizer trained in this page its merges' counts are included (created_by.count).
     */
    async tokenStory(text, tokenizer, index, { addSpecial = true, specials = false } = {}) {
      needText("tokenStory(text, tokenizer, index)", text);
      if (!Number.isInteger(index) || index < 0)
        throw new TypeError(
          `bytepair.tokenStory(text, tokenizer, index): index must be a token number (0, 1, ...), got ${describe(index)}.`,
        );
      const name = await use(tokenizer, "tokenStory(text, tokenizer, index)");
      return textCall(
        [name],
        "tokenStory",
        text,
        name,
        index,
        trainingEvents.get(name) ?? null,
        addSpecial !== false,
        specials === true,
      );
    },
    /** The same text under several tokenizers, boundaries aligned: bytepair.compare_segmentations(...).to_dict() + `spans` per row. */
    async sideBySide(text, tokenizers, { addSpecial = true, specials = false } = {}) {
      const fn = "sideBySide(text, tokenizers, {addSpecial, specials})";
      needText(fn, text);
      if (!Array.isArray(tokenizers) || !tokenizers.length)
        throw new TypeError(
          `bytepair.${fn}: tokenizers must be a non-empty array of names, e.g. ["gpt2", "cl100k_base"], got ${describe(tokenizers)}.`,
        );
      const names = [];
      for (const t of tokenizers) names.push(await use(t, fn));
      return textCall(names, "sideBySide", text, names, addSpecial !== false, specials === true);
    },
    /** The gallery of tokenizer oddities (bytepair.app.gallery.gallery_data): [{id, title, encodings, explanation, facts, texts}]. */
    async gallery(ids = null) {
      await ready;
      return call("gallery", ids);
    },
    /** The courses' worked examples (bytepair.app.lessons.lessons_data): [{id, course, view, params, text, quoted, facts, stages}]. */
    async lessons() {
      await ready;
      return call("lessons");
    },
    /** Resolves the regex text, or rejects with a short message (the engine's reason and where). */
    async checkPattern(pattern) {
      needText("checkPattern(pattern)", pattern, "the pattern");
      return call("checkPattern", pattern);
    },

    /**
     * Train a tokenizer on `text`.
     * options: {vocabSize, pattern ("none"|"gpt2"|"cl100k_base"|"o200k_base"|regex), name}
     * onMerge(merge) is called for every merge, in order:
     *   {id, left, right, leftText, rightText, tokenText, count, nTokens, totalBytes, target}
     * Resolves {name, n_merges, n_vocab, stopped, saved, limit} once the tokenizer is built and saved;
     * limit: null, or why the run ended with fewer merges than asked though there were pairs left:
     * {type: "memory", field: "vocab_size", message, needed, limit, done} (bytes, bytes, merges; the
     * tokenizer keeps the `done` merges that fit).
     * options.onBuilt(result) (optional) is called once a stopped run's tokenizer is built and
     * usable, before it is written to browser storage (result.saved is null then).
     */
    async train(text, options = {}, onMerge = () => {}) {
      const fn = "train(text, {vocabSize, pattern, name}, onMerge)";
      needText(fn, text, "the training text");
      if (options === null || typeof options !== "object") {
        throw new TypeError(
          `bytepair.${fn}: options must be an object, e.g. {vocabSize: 1000, pattern: "cl100k_base", name: "my-bpe"}; got ${describe(options)}.`,
        );
      }
      const { vocabSize } = options;
      await ready;
      if (!Number.isInteger(vocabSize)) {
        const { min, max } = facts.vocab_size;
        throw new TypeError(
          `bytepair.${fn}: vocabSize must be a whole number from ${min} to ${max} (256 bytes + the merges to learn), got ${describe(vocabSize)}; e.g. bytepair.train(text, {vocabSize: 1000}).`,
        );
      }
      const pattern = options.pattern ?? "cl100k_base";
      if (typeof pattern !== "string") {
        throw new TypeError(
          `bytepair.${fn}: pattern must be "none", "gpt2", "cl100k_base", "o200k_base" or a regex string, got ${describe(pattern)}.`,
        );
      }
      const wanted = options.name ?? "my-bpe";
      if (typeof wanted !== "string")
        throw new TypeError(`bytepair.${fn}: name must be a string, got ${describe(wanted)}.`);
      const problem = wanted.trim() ? nameProblem(wanted, []) : "";
      if (problem) throw new Error(`bytepair.${fn}: ${problem}`);
      if (typeof onMerge !== "function")
        throw new TypeError(
          `bytepair.${fn}: onMerge must be a function (called with each merge), got ${describe(onMerge)}.`,
        );
      await loaded;
      if (training) throw new Error("A training run is already going; stop it first.");
      const replace = options.replace === true;
      const onBuilt = typeof options.onBuilt === "function" ? options.onBuilt : null;
      options = { vocabSize, pattern, name: wanted };
      // replace: a tokenizer of that name is overwritten; else the new one gets a free name ("my-bpe (2)")
      const name = replace && wanted.trim() ? wanted.trim() : uniqueName(options.name || "my-bpe");
      const run = { stopRequested: false, merges: [], watchdog: null };
      training = run;
      const seen = { left: [], right: [], id: [], count: [] }; // the merges shown so far, for fromMerges after a restart
      run.merges = seen;
      // A custom split regex may backtrack for ever while the text is split and counted (before the
      // first merge): the same watchdog as every other call, until the first batch arrives.
      const custom = !facts.pretokenizers.some((p) => p.value === pattern);
      const countLimit = callLimitMs > 0 ? callLimitMs + Math.round((text.length / 1e6) * CALL_LIMIT_PER_MCHAR_MS) : 0;
      // (armed when the worker takes this run in, rpc.js callStarting: time queued behind other calls
      // does not count)
      let countTimer = 0;
      const onStarted = () => {
        if (!custom || !countLimit || training !== run || run.counted || countTimer) return;
        countTimer = setTimeout(() => {
          if (training !== run) return;
          run.countTimeout = countLimit;
          rpc.restart(`Stopped a custom split regex that ran for over ${seconds(countLimit)}.`);
        }, countLimit);
      };
      const onBatch = (batch) => {
        run.counted = true;
        clearTimeout(countTimer);
        countTimer = 0;
        if (run.stopRequested) return; // batches already on their way when Stop was pressed are dropped
        const e = batch.events; // named columns, one entry per merge
        // (an onMerge that calls stop() ends the batch: onMerge is not called again)
        for (let i = 0; i < e.id.length && !run.stopRequested; i += 1) {
          seen.left.push(e.left[i]);
          seen.right.push(e.right[i]);
          seen.id.push(e.id[i]);
          seen.count.push(e.count[i]);
          onMerge({
            id: e.id[i],
            left: e.left[i],
            right: e.right[i],
            leftText: e.left_text[i],
            rightText: e.right_text[i],
            tokenText: e.token_text[i],
            leftBytes: e.left_bytes[i],
            rightBytes: e.right_bytes[i],
            tokenBytes: e.token_bytes[i],
            count: e.count[i],
            nTokens: e.n_tokens[i],
            totalBytes: batch.total_bytes,
            target: batch.target,
          });
        }
      };
      const meta = {
        vocabSize: options.vocabSize,
        pattern: options.pattern,
        bytes: new TextEncoder().encode(text).length,
      };
      try {
        let result = await rpc.callStarting(
          onStarted,
          "train",
          text,
          { vocabSize: options.vocabSize, pattern: options.pattern, name },
          rpc.proxy(onBatch),
        );
        // The run is over here: a Stop from now on is too late (stop() says so and changes nothing);
        // one taken before is honoured even if the worker had finished (issue 11: it ended "Done").
        run.over = true;
        clearTimeout(run.watchdog); // the worker answered: nothing to restart
        if (run.keep != null) {
          performance.mark("bytepair:stop-reply");
          // the worker's side of it (bench_browser.py stop prints these stages)
          for (const [k, t] of Object.entries(result.timing ?? {}))
            performance.mark(`bytepair:stop-worker-${k}`, { startTime: t - performance.timeOrigin });
        }
        if (run.keep != null) {
          // Stop was taken: the tokenizer keeps exactly the merges shown, and says it stopped
          if (result.n_merges > run.keep)
            result = run.keep
              ? { ...(await call("fromMerges", name, shownMerges(run), options.pattern)), stopped: true }
              : { name, n_merges: 0, stopped: true };
          else result = { ...result, stopped: true };
        }
        if (!result.n_merges) return { ...result, n_merges: 0, saved: false }; // nothing learned: nothing to keep
        trainingEvents.set(result.name, run.keep != null ? shownMerges(run) : seen);
        return await keep(result, meta, run.keep != null ? onBuilt : null);
      } catch (err) {
        if (err.field === "vocab_size")
          throw new BytepairError({ ...err.detail, message: `bytepair.${fn}: vocabSize: ${err.message}` });
        if (run.countTimeout) {
          throw new BytepairError({
            type: "timeout",
            field: "pattern",
            message: `This split regex was still splitting the text after ${seconds(run.countTimeout)}, so it was stopped: it probably backtracks (a repeat inside a repeat, such as (a+)+, tries exponentially many ways on some text). Simplify it, or pick a pre-tokenizer from the list. Your text is kept.`,
          });
        }
        if (!(run.stopRequested && err instanceof WorkerCrashed)) throw err;
        // Stop had to restart a worker busy in Python: rebuild from the merges we saw.
        const kept = shownMerges(run);
        if (!kept.id.length) return { name, n_merges: 0, stopped: true, saved: false, restarted: true };
        const result = await call("fromMerges", name, kept, options.pattern);
        trainingEvents.set(result.name, kept);
        return await keep({ ...result, stopped: true, restarted: true }, meta, onBuilt);
      } finally {
        clearTimeout(run.watchdog);
        clearTimeout(countTimer);
        training = null;
      }
    },
    /**
     * Stop the running training; always works (restarts a worker stuck in Python).
     * shown: how many merges the caller has shown (default: every merge passed to onMerge so far);
     * the saved tokenizer holds exactly those, and onMerge is not called again.
     * Returns true if the Stop was taken, false if there is no run or it has already finished
     * (its result, with every merge, is on its way: nothing is cut).
     */
    stop(shown = null) {
      const run = training;
      if (!run || run.over) return false;
      if (run.stopRequested) return true;
      if (shown != null && !(Number.isInteger(shown) && shown >= 0)) {
        throw new TypeError(
          `bytepair.stop(shown): shown must be a whole number of merges (or nothing), got ${describe(shown)}.`,
        );
      }
      run.stopRequested = true;
      performance.mark("bytepair:stop-click");
      run.keep = Math.min(shown ?? run.merges.id.length, run.merges.id.length);
      rpc.interrupt(run.keep);
      run.watchdog = setTimeout(() => {
        if (training === run && !run.over) rpc.restart("Stopped a training run that was busy counting pairs.");
      }, STOP_GRACE_MS);
      return true;
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
    /**
     * Download files of a tokenizer and their "load it in Python" snippets (bytepair.formats.hf_export):
     * {tokenizer_json, tiktoken, bytepair_json: text or null, snippets: {tokenizers, transformers, tiktoken,
     * bytepair}, file_names: {hf, tiktoken, bytepair}, problems: {format: why it is null}}.
     */
    async exportFiles(name) {
      return call("exportFiles", await use(name, "exportFiles(name)"));
    },
    /** A tokenizer's merges in learned order: columns {id, left, right, left_text, right_text, token_text}. */
    async mergesTable(name) {
      return call("mergesTable", await use(name, "mergesTable(name)"));
    },
    /** The whole label (string) of token `id` of a tokenizer: a long token drawn shortened (issue 19). */
    async tokenLabel(name, id) {
      return call("tokenLabel", await use(name, "tokenLabel(name, id)"), id);
    },
    /** The .tiktoken rank file (Uint8Array) of any tokenizer. */
    async tiktokenFile(name) {
      return call("tiktokenFile", await use(name, "tiktokenFile(name)"));
    },
    /** Import a tokenizer JSON file's text under `name`. */
    async importTokenizer(name, json) {
      const opts = { builtIn: builtIn() };
      const issue = nameIssue(name, [...trained.keys()], opts);
      if (issue) throw nameError(issue, [...trained.keys()], opts);
      const [res] = await call("registerTrained", [{ name, json }]);
      if (res.error) throw new BytepairError(res.error);
      return keep({ ...res, json }, { imported: true });
    },
    async renameTokenizer(oldName, newName) {
      const n = newName.trim();
      const opts = { except: oldName, builtIn: builtIn() };
      const issue = nameIssue(n, [...trained.keys()], opts);
      if (issue) throw nameError(issue, [...trained.keys()], opts);
      if (n === oldName) return;
      const res = await storage.renameTokenizer(oldName, n);
      if (!res.ok) throw new Error(res.error);
      const record = trained.get(oldName);
      trained.delete(oldName);
      trained.set(n, { ...record, name: n });
      if (trainingEvents.has(oldName)) trainingEvents.set(n, trainingEvents.get(oldName));
      trainingEvents.delete(oldName);
      registered.delete(oldName);
      call("forgetTrained", oldName).catch(() => {});
      listeners.dispatchEvent(new CustomEvent("renamed", { detail: { from: oldName, to: n } })); // (before the lists are rebuilt)
      changed();
    },
    /** fn({from, to}) after a saved tokenizer is renamed (views that show it by name follow it). */
    onTokenizerRenamed(fn) {
      listeners.addEventListener("renamed", (e) => fn(e.detail));
    },
    async deleteTokenizer(name) {
      const res = await storage.deleteTokenizer(name);
      if (!res.ok) throw new Error(res.error);
      trained.delete(name);
      files.delete(name);
      trainingEvents.delete(name);
      registered.delete(name);
      call("forgetTrained", name).catch(() => {});
      changed();
    },
    nameProblem: (name, opts) => nameProblem(name, [...trained.keys()], { ...opts, builtIn: builtIn() }),
    nameIssue: (name, opts) => nameIssue(name, [...trained.keys()], { ...opts, builtIn: builtIn() }),

    /** Restart the Python worker (used by tests and after crashes). */
    restart(reason = "Restarted on request.") {
      return rpc.restart(reason);
    },
    /**
     * End whatever the worker is doing (a call taking too long): the worker is
     * restarted and pending calls reject with "Cancelled…". A training run
     * going at the time is stopped (its merges so far are kept).
     */
    cancel() {
      if (training) api.stop();
      return rpc.restart("Cancelled: the Python worker was restarted.");
    },
    /**
     * Time limit of one call in ms (default 15000; every call but training,
     * plus 15 s per million characters of text). A call past it ends the
     * worker, starts a new one and rejects with CallTimeout. 0: no limit.
     */
    get callLimitMs() {
      return callLimitMs;
    },
    set callLimitMs(ms) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new RangeError(
          `bytepair.callLimitMs must be a number of milliseconds (0: no limit), got ${describe(ms)}.`,
        );
      callLimitMs = ms;
    },
  };
  return api;
}
