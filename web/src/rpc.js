// The Python worker's lifecycle on the page side: start it, wrap it with comlink,
// restart it when it crashes (or when Stop must end a busy worker), and make
// calls that reject instead of hanging when the worker dies under them.

import * as Comlink from "../vendor/comlink.mjs";
import { installErrorTransfer } from "./errors.js";

installErrorTransfer(); // errors from the worker keep their {type, field, message} detail (errors.js)

export class WorkerCrashed extends Error {
  constructor(message) {
    super(message);
    this.name = "WorkerCrashed";
  }
}

/** A call ran past its time limit; the worker was restarted under it. */
export class CallTimeout extends Error {
  constructor(message) {
    super(message);
    this.name = "CallTimeout";
  }
}

/**
 * The worker boot.js started before the page's modules loaded (it is already
 * starting Python), once; null afterwards, when there is none, or when it
 * already failed.
 */
function adoptEarlyWorker() {
  const early = globalThis.bytepairEarlyWorker;
  globalThis.bytepairEarlyWorker = null;
  if (!(early instanceof Worker)) return null;
  if (early.bytepairFailed) {
    early.terminate(); // it failed before the page was listening
    return null;
  }
  return early;
}

/** "15 s", "1.5 s" */
export const seconds = (ms) => `${Number((ms / 1000).toFixed(1))} s`;

/** The shared runtime's SharedWorker name (a page connects to the one of its origin with this name). */
const SHARED_NAME = "bytepair-python-shared";

/**
 * Start the Python worker: a SharedWorker when `shared` (one runtime for every embed of the
 * origin; no interrupt buffer reaches it: a SharedArrayBuffer cannot be posted to a shared
 * worker, which is not cross-origin isolated either), else a dedicated Worker.
 * Returns {endpoint (for Comlink.wrap), terminate(), onError(fn)}.
 */
function spawnWorker(shared) {
  const url = new URL("./worker.js", import.meta.url);
  const early = adoptEarlyWorker();
  if (shared) {
    early?.terminate(); // boot.js starts none for a page that shares a runtime; just in case
    const sw = new SharedWorker(url, { type: "module", name: SHARED_NAME });
    return {
      endpoint: sw.port,
      terminate: () => sw.port.close(), // the runtime lives on for the other pages using it
      onError(fn) {
        sw.addEventListener("error", (event) => fn(event.message || "the shared worker could not start"));
        sw.port.addEventListener("messageerror", () => fn("a message could not be read"));
      },
    };
  }
  const worker = early ?? new Worker(url, { type: "module", name: "bytepair-python" });
  return {
    endpoint: worker,
    terminate: () => worker.terminate(),
    onError(fn) {
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        fn(event.message || "unknown error");
      });
      worker.addEventListener("messageerror", () => fn("a message could not be read"));
    },
  };
}

/**
 * @param {{onProgress: (fraction:number, message:string) => void,
 *          onRestart: (reason:string) => void, shared?: boolean}} hooks
 * shared: use one runtime for all pages of the origin that ask for it (embeds), where the browser
 * has SharedWorker (not Android Chrome: there a dedicated Worker). Stop then acts between merges
 * only. A restart (crash, time limit, Stop while counting) moves this page to its own dedicated
 * Worker: the shared runtime cannot be ended by one of its pages.
 */
export function createRpc({ onProgress, onRestart, shared = false }) {
  let useShared = shared && typeof SharedWorker === "function";
  let worker = null;
  let remote = null;
  let ready = null; // promise of {version, isolated}
  let dead = null; // rejects when the current worker dies
  let kill = null;
  let interrupt = null; // Uint8Array over a SharedArrayBuffer (cross-origin isolated only)
  let generation = 0;

  function start() {
    generation += 1;
    const gen = generation;
    worker = spawnWorker(useShared);
    remote = Comlink.wrap(worker.endpoint);
    dead = new Promise((_, reject) => {
      kill = reject;
    });
    dead.catch(() => {});
    worker.onError((what) => {
      if (gen === generation) restart(`The Python worker failed (${what}).`);
    });
    interrupt =
      !useShared && globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function"
        ? new Uint8Array(new SharedArrayBuffer(1))
        : null;
    // Progress travels on its own channel (a comlink proxy), so a last progress message can
    // arrive after the ready reply: once this worker is ready (or failed) progress is dropped,
    // or it would put the page back to "loading".
    let settled = false;
    const progress = (fraction, message) => {
      if (!settled && gen === generation) onProgress(fraction, message);
    };
    ready = race(remote.init(Comlink.proxy(progress), interrupt ? interrupt.buffer : undefined));
    ready.then(
      () => (settled = true),
      () => (settled = true),
    );
    return ready;
  }

  function race(promise) {
    return Promise.race([promise, dead]);
  }

  /** End the current worker (pending calls reject with WorkerCrashed) and start anew. */
  function restart(reason) {
    const old = worker;
    if (kill) kill(new WorkerCrashed(reason));
    if (remote) remote[Comlink.releaseProxy]?.();
    if (old) old.terminate();
    useShared = false; // from now on this page has a runtime of its own
    start();
    onRestart(reason);
    return ready;
  }

  let unlimited = 0; // calls without a time limit in flight (training runs)

  async function invoke(method, args) {
    try {
      return await race(remote[method](...args));
    } catch (err) {
      if (err && err.name === "WorkerCrashed" && !(err instanceof WorkerCrashed)) {
        restart(err.message);
        throw new WorkerCrashed(err.message + " It was restarted; try again.");
      }
      throw err;
    }
  }

  /** Call a worker method, with no time limit (training: Stop covers it); WorkerCrashed errors restart the worker. */
  async function call(method, ...args) {
    await race(ready);
    unlimited += 1;
    try {
      return await invoke(method, args);
    } finally {
      unlimited -= 1;
    }
  }

  /**
   * Call a worker method with a watchdog: if it has not answered `limitMs`
   * after the worker was ready (time spent queued behind other calls counts),
   * the worker is ended and a new one started, and the call rejects with
   * CallTimeout(timeoutMessage(limitMs)); other pending calls reject with
   * WorkerCrashed. While a call without a limit (a training run) is in flight
   * the watchdog waits: that run may hold the worker, and Stop ends it.
   * limitMs <= 0: no limit.
   */
  async function callLimited(limitMs, timeoutMessage, method, ...args) {
    await race(ready);
    if (!(limitMs > 0)) return invoke(method, args);
    let timer = 0;
    const timeout = new Promise((_, reject) => {
      const arm = (ms) => {
        timer = setTimeout(() => {
          if (unlimited > 0) return arm(1000);
          const err = new CallTimeout(timeoutMessage(limitMs));
          reject(err); // first, so this call gets CallTimeout rather than WorkerCrashed
          restart(err.message);
        }, ms);
      };
      arm(limitMs);
    });
    try {
      return await Promise.race([invoke(method, args), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    start,
    restart,
    call,
    callLimited,
    get ready() {
      return ready;
    },
    /**
     * Ask Python to stop between merges; with SharedArrayBuffer (cross-origin isolated) also raise
     * KeyboardInterrupt inside the merge in progress. The stop message (with `limit`) is posted
     * first, so the worker finds it queued once the interrupt has landed.
     */
    interrupt(limit = null) {
      const sent = remote.stop(limit).catch(() => {});
      if (interrupt) interrupt[0] = 2; // SIGINT
      return sent;
    },
    /** Whether Stop can interrupt Python mid-merge (the page is cross-origin isolated). */
    get canInterrupt() {
      return !!interrupt;
    },
    proxy: Comlink.proxy,
  };
}
