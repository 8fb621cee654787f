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

/**
 * @param {{onProgress: (fraction:number, message:string) => void,
 *          onRestart: (reason:string) => void}} hooks
 */
export function createRpc({ onProgress, onRestart }) {
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
    worker =
      adoptEarlyWorker() ??
      new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "bytepair-python" });
    remote = Comlink.wrap(worker);
    dead = new Promise((_, reject) => {
      kill = reject;
    });
    dead.catch(() => {});
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (gen === generation) restart(`The Python worker failed (${event.message || "unknown error"}).`);
    });
    worker.addEventListener("messageerror", () => {
      if (gen === generation) restart("The Python worker sent a message that could not be read.");
    });
    interrupt =
      globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function"
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
    if (old) old.terminate();
    if (remote) remote[Comlink.releaseProxy]?.();
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
