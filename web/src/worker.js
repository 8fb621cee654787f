// Pyodide in a Web Worker: loads Python once, installs bytepair, and exposes a
// small RPC surface (through comlink) that calls the adapter package web/src/py/playground
// (installed from the site's wheels/ with bytepair: manifest.json "adapter").
// Replies carry results; progress and merge batches travel through callback
// proxies the page passes in (onProgress, onMerges).
//
// Two ways to run (connectClients, at the end): a dedicated Worker serves one page; a
// SharedWorker (embeds: rpc.js) serves every page of the origin that connects, one runtime
// for all. Each connection is a client: `api` with its own `this.client` (Stop, step sessions).

import * as Comlink from "../vendor/comlink.mjs";
import { loadPyodide, version as pyodideVersion } from "../pyodide/pyodide.mjs";
import { BytepairError, installErrorTransfer } from "./errors.js";
import { startPyodide, usableSnapshot } from "./pyboot.js";

installErrorTransfer();

const SITE = new URL("../", import.meta.url); // web/dist/ root
const DATA_DIR = "/home/pyodide/bytepair-data"; // os.environ["BYTEPAIR_DATA_DIR"]
const SLICE_MS = 50; // one training slice: merges run, then one batch is posted

let pyodide = null;
let pg = null; // the adapter package `playground` (a PyProxy)
let ready = null; // the promise of boot()
let interrupt = null; // Uint8Array over a SharedArrayBuffer, when cross-origin isolated
const RUNTIME_ID = Math.random().toString(36).slice(2, 10); // tells pages whether they share this runtime
let nClients = 0;
const vocabLoads = new Map(); // file -> promise
let manifest = null; // wheels/manifest.json, kept for the wheels installed later (lazy)
let chatWheels = null; // the promise of installing manifest.lazy.chat (jinja2, MarkupSafe)
const modelLoads = new Map(); // open model name -> promise (this worker's Python has it once resolved)
const MODEL_CACHE = "bytepair-models"; // Cache API: the files of models/, keyed by URL + ?v=<version>
let modelIndex = null; // models/index.json: {name: {file, bytes, version}}

/**
 * A thrown error the page can use: a Python exception becomes a BytepairError
 * whose `detail` is the adapter's record of it ({type, field, message, ...},
 * playground.last_error()); its message text is never parsed here.
 */
function readable(err) {
  if (err instanceof BytepairError) return err; // already read (see chatBreakdown)
  if (err && err.type && typeof err.message === "string") {
    // a PythonError: ask the adapter what it was
    let detail;
    try {
      detail = pg ? JSON.parse(pg.last_error()) : null;
    } catch {
      detail = null;
    }
    if (!detail) detail = { type: "internal", field: null, message: `Python raised ${err.type} (see the console).` };
    if (!detail.message || detail.type === "internal") console.warn("[python]", err.message);
    const e = new BytepairError(detail);
    if (err.type === "KeyboardInterrupt") e.name = "Interrupted";
    return e;
  }
  if (pyodide && (String(err && err.message).includes("fatally failed") || (err && err.pyodide_fatal_error))) {
    const e = new Error("The Python runtime crashed: " + (err.message || err));
    e.name = "WorkerCrashed";
    return e;
  }
  if (err instanceof WebAssembly.RuntimeError || err instanceof RangeError) {
    const e = new Error("The Python runtime crashed (" + err.message + ").");
    e.name = "WorkerCrashed";
    return e;
  }
  return err instanceof Error ? err : new Error(String(err));
}

async function fetchOk(url, what) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Could not load ${what} (${url.pathname}): HTTP ${res.status}.`);
  return res;
}

// When each boot stage ended, as epoch ms (performance.timeOrigin + now), for tools/bench_browser.py.
const stages = {};
const mark = (name) => {
  stages[name] = performance.timeOrigin + performance.now();
};

/**
 * Start Python as soon as this module runs, before the page calls init (the
 * page may create this worker before its own modules load: boot.js). Fetches
 * the manifest and restores the memory snapshot when it names one (pyboot.js),
 * else starts Python while the wheels download. Resolves to
 * {started: {pyodide, restored}, wheelsWarm}.
 */
async function startRuntime() {
  mark("worker_started");
  const manifestLoad = fetchOk(new URL("wheels/manifest.json", SITE), "the wheel list").then((r) => r.json());
  manifest = await manifestLoad;
  const snapshot = usableSnapshot(manifest, {
    pyodide: pyodideVersion,
    dataDir: DATA_DIR,
    adapter: "playground",
  });
  // Without a snapshot: the wheels download while Python starts (loadPackage then finds them in the HTTP cache).
  const wheelsWarm = snapshot
    ? Promise.resolve()
    : Promise.all(
        (manifest.install || []).map((file) => fetch(new URL("wheels/" + file, SITE)).then((r) => r.arrayBuffer())),
      );
  wheelsWarm.catch(() => {}); // only a head start: loadPackage reports failures
  const started = await startPyodide(
    loadPyodide,
    { indexURL: new URL("pyodide/", SITE).href, stdout: () => {}, stderr: (line) => console.warn("[python]", line) },
    snapshot,
    SITE,
    mark,
  );
  mark("runtime_loaded");
  return { started, wheelsWarm };
}
const runtime = startRuntime();
runtime.catch(() => {}); // boot() reports it

/**
 * Stages "got <file>": when each of the runtime's big downloads ended (Resource
 * Timing), for the benchmark. Returns {file: transferSize} (0: from the HTTP
 * cache without asking the server). Content-named files lose their hash.
 */
function markDownloads() {
  const big = /(pyodide\.asm\.(mjs|wasm)|python_stdlib\.zip|snap\.gz|manifest\.json)$/;
  const transfer = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const file = new URL(entry.name).pathname
      .split("/")
      .pop()
      .replace(/^python-\w+\./, "");
    if (!big.test(file)) continue;
    stages["got " + file] = performance.timeOrigin + entry.responseEnd;
    transfer[file] = entry.transferSize;
  }
  return transfer;
}

async function boot(onProgress, interruptBuffer) {
  const progress = (fraction, message) => {
    if (onProgress) onProgress(fraction, message).catch(() => {});
  };
  mark("init"); // the page asked for Python
  progress(0.05, "Loading the Python runtime…");
  const { started, wheelsWarm } = await runtime;
  pyodide = started.pyodide;
  if (interruptBuffer) {
    interrupt = new Uint8Array(interruptBuffer);
    pyodide.setInterruptBuffer(interrupt);
  }
  if (!started.restored) await installWheels(progress, wheelsWarm); // a snapshot has bytepair imported
  mark("wheels_installed");
  progress(0.85, "Starting the playground…");
  pyodide.FS.mkdirTree(DATA_DIR);
  // a snapshot was made with this environment (and the adapter package already imported)
  if (!started.restored) pyodide.runPython(`import os\nos.environ["BYTEPAIR_DATA_DIR"] = ${JSON.stringify(DATA_DIR)}`);
  pg = pyodide.pyimport("playground");
  const version = pyodide.runPython(
    "import bytepair, sys; getattr(bytepair, '__version__', '?') + ' on Python ' + sys.version.split()[0]",
  );
  mark("python_ready");
  const transfer = markDownloads();
  progress(1, "Ready");
  return { version, isolated: !!interrupt, stages, transfer, boot: started.restored ? "snapshot" : "fresh" };
}

/**
 * Install the wheels of manifest.install with Pyodide's own loader (a start
 * without a memory snapshot). Our wheels are pure Python with no dependency
 * left to resolve in Pyodide, so loadPackage unpacks them into site-packages
 * with their .dist-info: no micropip, no packaging. loadPackage reports a
 * failed download through errorCallback instead of throwing.
 */
async function installWheels(progress, wheelsWarm) {
  progress(0.6, "Installing bytepair…");
  await wheelsWarm.catch(() => {});
  if (!Array.isArray(manifest.install) || !manifest.install.length) {
    throw new Error("wheels/manifest.json lists no wheels to install.");
  }
  const failures = [];
  const loaded = await pyodide.loadPackage(
    manifest.install.map((file) => new URL("wheels/" + file, SITE).href),
    { messageCallback: () => {}, errorCallback: (m) => failures.push(m) },
  );
  if (failures.length || loaded.length !== manifest.install.length) {
    throw new Error("Could not install the Python wheels: " + (failures.join(" ") || "loadPackage installed too few."));
  }
}

/** Fetch a vocabulary file the first time a real encoding is used. */
async function ensureVocab(name) {
  const file = pg.vocab_file_needed(name);
  if (!file) return;
  if (!vocabLoads.has(file)) {
    const load = (async () => {
      const fetching = fetchOk(new URL("vocab/" + file, SITE), `the ${name} vocabulary`);
      pg.prepare(name); // compile the split pattern while the file downloads
      const res = await fetching;
      let data = new Uint8Array(await res.arrayBuffer());
      // Compact vocabularies (bytepair.vocab_file sniffs gzip): unzip here, natively, not in Python.
      if (file.endsWith(".bpv.gz") && data[0] === 0x1f && data[1] === 0x8b) {
        const unzipped = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
        data = new Uint8Array(await new Response(unzipped).arrayBuffer());
      }
      pyodide.FS.writeFile(`${DATA_DIR}/${file}`, data);
    })();
    vocabLoads.set(file, load);
    load.catch(() => vocabLoads.delete(file));
  }
  await vocabLoads.get(file);
}

/**
 * Install the Chat view's wheels (jinja2, MarkupSafe: manifest.lazy.chat) the
 * first time a chat template is rendered; boot does not load them.
 */
async function ensureChatWheels() {
  if (!chatWheels) {
    chatWheels = (async () => {
      const files = manifest?.lazy?.chat ?? [];
      if (!files.length) throw new Error("wheels/manifest.json lists no wheels for chat templates (lazy.chat).");
      const failures = [];
      const loaded = await pyodide.loadPackage(
        files.map((file) => new URL("wheels/" + file, SITE).href),
        { messageCallback: () => {}, errorCallback: (m) => failures.push(m) },
      );
      if (failures.length || loaded.length !== files.length) {
        throw new Error(
          "Could not install jinja2 for chat templates: " + (failures.join(" ") || "loadPackage installed too few."),
        );
      }
    })();
    chatWheels.catch(() => {
      chatWheels = null;
    });
  }
  await chatWheels;
}

/** Read a response body, reporting (loaded, total) bytes as chunks arrive. */
async function readWithProgress(res, total, report) {
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    report(loaded, total);
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Make open model `name` usable in Python: its models/ file from the browser's cache (Cache API),
 * else fetched with progress and cached; decompressed here, parsed by bytepair (playground
 * load_model). onProgress({name, phase: "download"|"cache"|"load", loaded, total}) (bytes).
 * Resolves {name, source: "cache"|"network", bytes, ms}.
 */
async function ensureModel(name, onProgress) {
  const file = pg.model_file_needed(name);
  if (!file) return null;
  if (!modelLoads.has(name)) {
    const load = (async () => {
      const t0 = performance.now();
      const report = (phase, loaded, total) => {
        if (onProgress) onProgress({ name, phase, loaded, total }).catch(() => {});
      };
      if (!modelIndex) modelIndex = await (await fetchOk(new URL("models/index.json", SITE), "the model list")).json();
      const entry = modelIndex[name];
      if (!entry) throw new Error(`The site has no file for ${name} (models/index.json).`);
      const url = new URL("models/" + entry.file, SITE);
      const key = `${url.href}?v=${entry.version}`;
      // no Cache API here (an opaque origin, a browser setting): fetch every time
      const cache = globalThis.caches ? await caches.open(MODEL_CACHE).catch(() => null) : null;
      let gz;
      let source = "cache";
      const hit = cache ? await cache.match(key) : null;
      if (hit) {
        report("cache", 0, entry.bytes);
        gz = new Uint8Array(await hit.arrayBuffer());
      } else {
        source = "network";
        report("download", 0, entry.bytes);
        const res = await fetchOk(url, `the ${name} tokenizer`);
        const total = Number(res.headers.get("content-length")) || entry.bytes;
        gz = await readWithProgress(res, total, (loaded, t) => report("download", loaded, t));
      }
      report("load", entry.bytes, entry.bytes);
      const t1 = performance.now();
      // .bpv files come as they are (their tables deflated in blocks, inflated in Python as a text
      // needs them); a gzip file (Tekken JSON, cache entries from before) is unzipped here
      const data = gz[0] === 0x1f && gz[1] === 0x8b ? await gunzip(gz) : gz;
      const t2 = performance.now();
      const path = `${DATA_DIR}/${file}`;
      pyodide.FS.writeFile(path, data);
      try {
        pg.load_model(name, path);
      } finally {
        pyodide.FS.unlink(path);
      }
      const t3 = performance.now();
      if (cache && !hit) {
        // a task later, not awaited: the count waiting for this load runs first (in microtasks)
        setTimeout(() => {
          (async () => {
            for (const old of await cache.keys()) if (old.url.startsWith(url.href + "?")) await cache.delete(old);
            await cache.put(key, new Response(data, { headers: { "content-type": "application/octet-stream" } }));
          })().catch((err) => {
            console.warn("[models] not cached:", err); // quota: it still works, it is fetched next time
          });
        }, 0);
      }
      const ms = (a, b) => Math.round(b - a);
      return {
        name,
        source,
        bytes: gz.length,
        ms: ms(t0, t3),
        fetch_ms: ms(t0, t1),
        gunzip_ms: ms(t1, t2),
        parse_ms: ms(t2, t3),
      };
    })();
    modelLoads.set(name, load);
    load.catch(() => modelLoads.delete(name));
  }
  return modelLoads.get(name);
}

/** Fetch whatever `name` needs: an OpenAI vocabulary (an open model loads through ensureModel first). */
async function ensureData(name) {
  await ensureVocab(name);
  if (pg.model_file_needed(name)) await ensureModel(name, null);
}

/** Run fn after boot, with Python errors turned into readable ones. */
async function guarded(fn) {
  await ready;
  if (interrupt) interrupt[0] = 0; // a late Stop must not hit the next call
  try {
    return await fn();
  } catch (err) {
    throw readable(err);
  }
}

/**
 * After a KeyboardInterrupt (Stop through the interrupt buffer), wait until Stop's own message
 * has been handled, so stopLimit holds the merges the page showed. The page posts that message
 * before it sets the buffer (rpc.js interrupt), so it is already queued: this takes a task or two.
 */
async function awaitStopMessage(client, maxMs = 250) {
  const until = performance.now() + maxMs;
  while (!client.stopRequested && performance.now() < until) await nextTask();
}

function nextTask() {
  // A macrotask, so messages queued meanwhile (Stop) are handled; MessageChannel
  // is not clamped like nested setTimeout.
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(0);
  });
}

const api = {
  init(onProgress, interruptBuffer, onReceived) {
    this.client.onReceived = onReceived ?? null; // clientApi: the page's watchdogs start when a call is taken in
    // the facts the page builds its lists and limits from (py/bytepair/facts.py) travel with the ready reply
    if (!ready) {
      ready = boot(onProgress, interruptBuffer)
        .then((info) => ({ ...info, facts: JSON.parse(pg.facts()) }))
        .catch((err) => {
          throw readable(err);
        });
    }
    // runtime: which runtime this page uses, so pages (and tests) can tell one shared runtime from several
    // name: the SharedWorker's name (rpc.js SHARED_NAME: it carries the build id)
    const runtime = { id: RUNTIME_ID, shared: SHARED, client: this.client.id, name: self.name };
    return ready.then((info) => ({ ...info, runtime: { ...runtime, clients: nClients } }));
  },

  /** Load saved tokenizers: [{name, json}] -> [{name, n_vocab, ...} | {name, error: {type, field, message}}] */
  registerTrained(items) {
    return guarded(() =>
      items.map(({ name, json }) => {
        try {
          return JSON.parse(pg.register_trained(name, json));
        } catch (err) {
          return { name, error: readable(err).detail ?? { type: "internal", field: null, message: String(err) } };
        }
      }),
    );
  },

  forgetTrained(name) {
    return guarded(() => pg.forget_trained(name));
  },

  encode(text, name, addSpecial = true) {
    return guarded(async () => {
      await ensureData(name);
      return JSON.parse(pg.encode(text, name, addSpecial));
    });
  },

  count(text, name, addSpecial = true) {
    return guarded(async () => {
      await ensureData(name);
      return pg.count(text, name, addSpecial);
    });
  },

  /**
   * count, in steps of SLICE_MS (playground CountSession over bytepair.chunked.CountJob, exact):
   * between steps the worker yields, so other calls (another view's, another page's) run. key: a
   * newer stepped count of this client with the same key ends this one, which rejects with an
   * error named "Superseded". onProgress(position, length) (characters) after each step.
   */
  countStepped(text, name, addSpecial = true, key = null, onProgress = null) {
    const client = this.client;
    return guarded(async () => {
      await ensureData(name);
      const mine = {};
      if (key != null) client.countJobs.set(key, mine);
      const superseded = () => key != null && client.countJobs.get(key) !== mine;
      let session = pg.CountSession(text, name, addSpecial);
      try {
        for (;;) {
          let r;
          try {
            r = JSON.parse(session.step(SLICE_MS));
          } catch (err) {
            // a training run's Stop (the interrupt buffer) landed in this step: count again
            if (!(err && err.type === "KeyboardInterrupt")) throw err;
            if (interrupt) interrupt[0] = 0;
            session.destroy();
            session = pg.CountSession(text, name, addSpecial);
            continue;
          }
          if (r.done) return r.count;
          if (onProgress) onProgress(r.position, r.length).catch(() => {});
          await nextTask(); // other calls run here
          if (superseded()) {
            const e = new Error("A newer count replaced this one.");
            e.name = "Superseded";
            throw e;
          }
        }
      } finally {
        if (key != null && client.countJobs.get(key) === mine) client.countJobs.delete(key);
        session.destroy();
      }
    });
  },

  /** {n_tokens, n_added, ids, display, vocab, special, hex, note, start, end, marks} with UTF-16 spans;
   *  specials: special-token strings as special tokens (tiktoken-style encodings); total false: the
   *  first `limit` tokens only where that is exact (n_tokens null: countStepped counts). */
  encodeSpans(text, name, limit, addSpecial = true, specials = false, total = true) {
    return guarded(async () => {
      await ensureData(name);
      // (a JavaScript null would reach Python as JsNull, not None: pass keyword arguments)
      const kw = { units: "utf16", add_special: addSpecial, specials, total };
      if (limit != null) kw.limit = limit;
      return JSON.parse(pg.encode_spans.callKwargs(text, name, kw));
    });
  },

  /** Pasted ids (text) -> {ids, text, display, note}. */
  decodeIds(idsText, name) {
    return guarded(async () => {
      await ensureData(name);
      return JSON.parse(pg.decode_ids(idsText, name));
    });
  },

  /** texts: [{key, text}], names: [tokenizer] -> {name: {key: [tokens, bytes]}} */
  compare(texts, names, addSpecial = true) {
    return guarded(async () => {
      for (const name of names) await ensureData(name);
      return JSON.parse(pg.compare(JSON.stringify(texts), JSON.stringify(names), addSpecial));
    });
  },

  /** Load open model `name` (see ensureModel); {name, source, bytes, ms} or null when it was loaded. */
  loadModel(name, onProgress) {
    return guarded(() => ensureModel(name, onProgress));
  },

  /** describe() of any tokenizer (playground describe). */
  describe(name) {
    return guarded(async () => {
      await ensureData(name);
      return JSON.parse(pg.describe(name));
    });
  },

  /** Files people load: [{name, json, config}] -> [{name, n_vocab, model} | {name, error}] (as registerTrained). */
  registerFiles(items) {
    return guarded(() =>
      items.map(({ name, json, config }) => {
        try {
          return JSON.parse(pg.register_file(name, json, config || ""));
        } catch (err) {
          return { name, error: readable(err).detail ?? { type: "internal", field: null, message: String(err) } };
        }
      }),
    );
  },

  checkPattern(pattern) {
    return guarded(() => pg.check_pattern(pattern));
  },

  tiktokenFile(name) {
    return guarded(async () => {
      await ensureVocab(name);
      const proxy = pg.tiktoken_file(name);
      try {
        const bytes = proxy.toJs();
        return Comlink.transfer(bytes, [bytes.buffer]);
      } finally {
        proxy.destroy();
      }
    });
  },

  tokenizerJson(name) {
    return guarded(() => pg.tokenizer_json(name));
  },

  /** merges: named columns {left: [...], right: [...], id: [...]}. */
  fromMerges(name, merges, pattern) {
    return guarded(() => JSON.parse(pg.from_merges_json(name, JSON.stringify(merges), pattern)));
  },

  /** limit: the number of merges the page had shown when Stop was pressed (kept), or null (all so far). */
  stop(limit = null) {
    this.client.stopRequested = true;
    this.client.stopLimit = Number.isInteger(limit) && limit >= 0 ? limit : null;
  },

  /** A tokenizer's merges as columns {id, left, right, left_text, right_text, token_text}. */
  mergesTable(name) {
    return guarded(() => JSON.parse(pg.merges_table(name)));
  },

  /** Download files and load-it-in-Python snippets: {tokenizer_json, tiktoken, bytepair_json, snippets, file_names, problems}. */
  exportFiles(name) {
    return guarded(() => JSON.parse(pg.export_files(name)));
  },

  /**
   * A conversation counted in a chat format (playground chat_breakdown):
   * fetches the format's tokenizer file and, for a chat template, installs jinja2 first.
   */
  chatBreakdown(formatId, messages, addGenerationPrompt) {
    return guarded(async () => {
      const need = JSON.parse(pg.chat_requirements(formatId));
      await ensureData(need.tokenizer);
      if (need.jinja) await ensureChatWheels();
      // the adapter's record of the error is read at once: another call may start
      // (and reset it) while this rejection travels through the awaits above
      let out;
      try {
        out = pg.chat_breakdown(formatId, JSON.stringify(messages), !!addGenerationPrompt);
      } catch (err) {
        throw readable(err);
      }
      return JSON.parse(out);
    });
  },

  /** Step-through (playground steps_learn / steps_view / steps_encode, api.js stepsLearn / stepsView / stepsEncode). */
  stepsLearn(options) {
    return guarded(() => JSON.parse(pg.steps_learn(JSON.stringify(options), this.client.id)));
  },

  /** One step of the current step session (0: the start). */
  stepsView(session, index) {
    return guarded(() => JSON.parse(pg.steps_view(session, index)));
  },

  /** Why this token (playground token_story): the story of token `index` of `text`; events: training columns or null. */
  tokenStory(text, name, index, events, addSpecial = true, specials = false) {
    return guarded(async () => {
      await ensureData(name);
      return JSON.parse(pg.token_story(text, name, index, events ? JSON.stringify(events) : "", addSpecial, specials));
    });
  },

  /** Side by side (playground side_by_side): compare_segmentations of `text` under `names`, with each row's spans. */
  sideBySide(text, names, addSpecial = true, specials = false) {
    return guarded(async () => {
      for (const name of names) await ensureData(name);
      return JSON.parse(pg.side_by_side(text, JSON.stringify(names), addSpecial, specials));
    });
  },

  /** The gallery of oddities (playground gallery): explanations computed by encoding. */
  gallery(ids) {
    return guarded(async () => {
      for (const name of JSON.parse(pg.gallery_encodings())) await ensureVocab(name);
      // open models it also shows (Qwen 3's digits); without their file the gallery goes on without them
      for (const name of JSON.parse(pg.gallery_optional_encodings())) await ensureData(name).catch(() => {});
      return JSON.parse(ids ? pg.gallery(JSON.stringify(ids)) : pg.gallery());
    });
  },

  /** A new word (or short text) encoded with the session's merges, rule by rule. */
  stepsEncode(session, text) {
    return guarded(() => JSON.parse(pg.steps_encode(session, text)));
  },

  /**
   * Train in slices of SLICE_MS: each slice's merges go to onMerges(batch) as
   * soon as it ends; between slices the worker yields so stop() is handled.
   * Resolves {name, json, n_merges, n_vocab, pattern, stopped, timing}; timing (after Stop):
   * {stopped, built}, ms since the epoch (the page marks them: bench_browser.py stop).
   */
  train(text, options, onMerges) {
    return guarded(async () => {
      const client = this.client;
      client.stopRequested = false;
      client.stopLimit = null;
      const { vocabSize, pattern, name, minFrequency = 1, normalization = null } = options;
      const isInterrupt = (err) => err && err.type === "KeyboardInterrupt";
      const Session = pg.TrainSession;
      let session;
      try {
        session = Session.callKwargs(text, vocabSize, pattern, { min_frequency: minFrequency, normalization });
      } catch (err) {
        // Stop (SharedArrayBuffer interrupt) while the pattern was compiling
        if (isInterrupt(err)) return { name, n_merges: 0, stopped: true };
        throw err;
      } finally {
        Session.destroy();
      }
      let stopped = false;
      const clock = () => performance.timeOrigin + performance.now(); // (ms since the epoch: the page's marks)
      const timing = {}; // after Stop: when the worker stopped and when the tokenizer was built
      try {
        for (;;) {
          let batch;
          try {
            batch = JSON.parse(session.step(SLICE_MS));
          } catch (err) {
            if (!isInterrupt(err)) throw err;
            // Stop landed inside a merge: the trainer's generator ended there, and the merges it had
            // yielded (all complete) are in the session; the page's limit keeps those it showed
            stopped = true;
            timing.stopped = clock();
            await awaitStopMessage(client);
            break;
          }
          if (batch.interrupted) {
            // (the same, caught in Python: the trainer's state is freed after the reply, in close())
            stopped = true;
            timing.stopped = clock();
            await awaitStopMessage(client);
            break;
          }
          if (batch.events.id.length && onMerges && !client.stopRequested) onMerges(batch).catch(() => {});
          if (batch.done) break;
          await nextTask();
          if (client.stopRequested) {
            stopped = true;
            timing.stopped = clock();
            break;
          }
        }
        let result;
        for (let attempt = 0; ; attempt += 1) {
          if (interrupt) interrupt[0] = 0;
          try {
            // after Stop, the tokenizer holds exactly the merges the page had shown
            const limit = stopped ? client.stopLimit : null;
            result = JSON.parse(limit != null ? session.finish(name, limit) : session.finish(name));
            break;
          } catch (err) {
            if (!isInterrupt(err) || attempt > 0) throw err; // a Stop that came too late
          }
        }
        if (stopped) timing.built = clock();
        return { ...result, stopped, timing };
      } finally {
        // the trainer's state of a large text takes a while to free: after the reply has gone
        setTimeout(() => {
          try {
            session.close();
          } catch {
            // (freed with the proxy all the same)
          } finally {
            session.destroy();
          }
        }, 0);
      }
    });
  },
};

// --- clients: a dedicated Worker has one (its page); a SharedWorker one per connecting page ---

const SHARED =
  typeof globalThis.SharedWorkerGlobalScope === "function" && globalThis instanceof globalThis.SharedWorkerGlobalScope;

/** Methods not counted as calls taken in: the page sends them outside its numbered calls (rpc.js send). */
const UNCOUNTED = new Set(["init", "stop"]);

/**
 * `api` for one client: comlink calls its methods with `this` = this object, so `this.client` is its
 * own. Each call is counted as comlink hands it over (when the worker takes it in, not when it
 * settles: async calls overlap), and the count goes to the page (init's onReceived), which starts the
 * call's watchdog then (rpc.js callLimited): time queued behind other calls is not counted.
 */
function clientApi() {
  nClients += 1;
  const client = { id: `c${nClients}`, stopRequested: false, stopLimit: null, countJobs: new Map() };
  client.received = 0;
  client.onReceived = null;
  const methods = {};
  for (const [name, fn] of Object.entries(api)) {
    if (typeof fn !== "function" || UNCOUNTED.has(name)) continue;
    methods[name] = function (...args) {
      client.received += 1;
      client.onReceived?.(client.received).catch(() => {});
      return fn.apply(this, args);
    };
  }
  return Object.assign(Object.create(api), methods, { client });
}

function connectClients() {
  if (!SHARED) return Comlink.expose(clientApi());
  self.addEventListener("connect", (event) => Comlink.expose(clientApi(), event.ports[0]));
}

connectClients();
