// The site's sample texts (samples/udhr.json, samples/flores200-subset.json, samples/hinglish.txt,
// and Train's code sample), fetched one way by Train, Compare and Report: a download that fails
// travels as data (BytepairError: type "samples" with the file and why, or "offline"), worded by
// i18n.js errorText from the catalog, never as the browser's own text ("Failed to fetch").

import { BytepairError } from "./errors.js";

/**
 * A sample file that did not download, as data: type "samples", worded by errorText from the
 * catalog's error.samples ({file}: its path in the site, {status}), error.samples.network or
 * error.samples.offline (detail.reason: "status", "network", "offline").
 * @param {string} file the path in the site, e.g. "samples/udhr.json"
 * @param {number|null} status the HTTP status (null: no answer, the request itself failed)
 * @param {{offline?: boolean}} [options] offline: the device says it is offline
 * @returns {BytepairError}
 */
export function samplesError(file, status, { offline = false } = {}) {
  if (status == null)
    return new BytepairError({
      type: "samples",
      field: "source",
      reason: offline ? "offline" : "network",
      file,
      message: offline
        ? `${file} was never downloaded here and this device is offline.`
        : `${file} could not be downloaded (no connection?).`,
    });
  return new BytepairError({
    type: "samples",
    field: "source",
    reason: "status",
    file,
    status: String(status), // as the server sent it: ASCII digits in every locale
    message: `Could not load ${file} (HTTP ${status}).`,
  });
}

/**
 * Fetch a sample file of the site.
 * @param {URL} url where it is
 * @param {string} file its path in the site, as the error names it ("samples/udhr.json")
 * @returns {Promise<Response>} an ok response
 * @throws {BytepairError} type "samples" (reason "offline": no answer and the device is offline;
 *   "network": no answer; "status": an HTTP error status)
 */
export async function fetchSample(url, file) {
  let res;
  try {
    res = await fetch(url);
  } catch {
    throw samplesError(file, null, { offline: navigator.onLine === false });
  }
  if (!res.ok) throw samplesError(file, res.status);
  return res;
}
