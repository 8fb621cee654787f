// One call into the Python adapter (web/src/py/playground), with its own error.
//
// The worker never calls an adapter function directly: playground.call(target, name, ...args)
// runs it and returns that call's outcome, (true, result) or (false, JSON of {type, field,
// message, ...}). A failure is thrown here at once as a BytepairError carrying that record, so
// the error travels with the rejection of the call that raised it; nothing is kept between
// calls for another call to replace. Imports nothing but errors.js: runs under Node.js too
// (tests/pyodide/check_adapter_errors.mjs).

import { BytepairError } from "./errors.js";

/**
 * The BytepairError of an adapter error record {type, field, message, ...}; Stop's
 * KeyboardInterrupt (type "interrupted") is named "Interrupted".
 */
export function adapterError(detail) {
  const e = new BytepairError(detail);
  if (detail.type === "interrupted") e.name = "Interrupted";
  return e;
}

/**
 * target[name](...args, **kwargs) in Python, through pg.call (pg: the adapter package, a PyProxy;
 * target: pg itself or an object one of its calls returned, such as a CountSession). Returns the
 * result as Pyodide converts it (str, int, bool, None: JavaScript values; anything else: a PyProxy
 * the caller destroys). Throws adapterError(record) when the call raised. kwargs: Python keyword
 * arguments (a JavaScript null among positional arguments would reach Python as JsNull, not None).
 */
export function callPython(pg, target, name, args = [], kwargs = {}) {
  const outcome = pg.call.callKwargs(target, name, ...args, kwargs);
  let ok, value;
  try {
    ok = outcome.get(0);
    value = outcome.get(1);
  } finally {
    outcome.destroy();
  }
  if (ok) return value;
  throw adapterError(JSON.parse(value));
}
