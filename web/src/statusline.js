// The status line's words for the Python worker's start (main.js's status line, and Tokenize's
// count while it waits for Python: on a phone the status line has scrolled away by then).

import { t, num } from "./i18n.js";

// the catalog key of each step of the worker's start (worker.js boot(): status.step)
const STEP_WORDS = {
  runtime: "status.step.runtime",
  install: "status.step.install",
  playground: "status.step.playground",
};

/** The status line's words, from the catalog: the phase and the start's step (worker.js boot());
 * while the runtime downloads, how much of it is here (issue 20: "… 1.2 of 2.8 MB"), and once all
 * of it is here, that Python is starting (on a slow phone that takes seconds with nothing moving). */
export function statusLine(status) {
  if (status.phase === "loading" && status.bytes?.total) {
    const mb = (n) => num(n / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const { loaded, total } = status.bytes;
    if (loaded >= total) return t("status.step.python", { total: mb(total) });
    return t("status.download", { loaded: mb(loaded), total: mb(total) });
  }
  // the start failed (a download, most often: a phone's connection dropped): words and what to do,
  // not the browser's "Failed to fetch" (main.js offers Try again, and tries again once back online)
  if (status.phase === "error" && status.start) return t("status.error.start");
  if (status.phase === "error") return t("status.error", { message: status.message });
  if (status.phase === "ready") return t(status.restarted ? "status.ready.restarted" : "status.ready");
  if (status.phase === "restarting") return t("status.restarting");
  if (STEP_WORDS[status.step]) return t(STEP_WORDS[status.step]);
  return t("status.starting");
}
