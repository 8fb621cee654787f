// Errors as data across the worker boundary. bytepair raises structured errors
// (py/bytepair/errors.py: {type, field, message, ...}); each adapter call returns its
// own record of what it raised (playground.call, read by pycall.js), the worker throws a
// BytepairError carrying that record, and this module teaches comlink to carry `detail`
// across, so the page reads err.field / err.type instead of parsing message text.
//
// Both sides (worker.js and rpc.js) call installErrorTransfer(Comlink) once. (Comlink is
// passed in, so this module imports nothing: tests/pyodide/check_adapter_errors.mjs runs it
// under Node.js from web/src.)

/** An error whose `detail` is bytepair's {type, field, message, ...} (field: the input it belongs to, or null). */
export class BytepairError extends Error {
  constructor(detail) {
    super(detail.message);
    this.name = "BytepairError";
    this.detail = detail;
    this.type = detail.type;
    this.field = detail.field ?? null;
  }
}

/** Whether err is a file that could not be downloaded (worker.js fetchOk: type "offline" or "network"),
 * a BytepairError or a view's record of one (read by its fields: chat.js keeps {type, detail, ...}). */
export function isDownloadError(err) {
  return !!err && (err.type === "offline" || err.type === "network");
}

let installed = false;

/** Replace comlink's "throw" handler with one that keeps `name` and `detail` of thrown errors. */
export function installErrorTransfer(Comlink) {
  if (installed) return;
  installed = true;
  const base = Comlink.transferHandlers.get("throw");
  Comlink.transferHandlers.set("throw", {
    canHandle: base.canHandle,
    serialize(wrapped) {
      const { value } = wrapped;
      if (!(value instanceof Error)) return base.serialize(wrapped);
      return [
        {
          isError: true,
          value: { message: value.message, name: value.name, stack: value.stack, detail: value.detail ?? null },
        },
        [],
      ];
    },
    deserialize(serialized) {
      if (!serialized.isError) return base.deserialize(serialized);
      const { message, name, stack, detail } = serialized.value;
      const err = detail ? new BytepairError(detail) : new Error(message);
      if (!detail) err.name = name;
      if (detail && name && name !== "Error") err.name = name;
      err.stack = stack;
      throw err;
    },
  });
}
