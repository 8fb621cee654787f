// Reading a user's text file: refuse huge or binary files with a clear message.

import { t } from "./i18n.js";

export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

/**
 * "little-endian" / "big-endian" when bytes look like UTF-16 text, else "".
 * A byte-order mark (FF FE or FE FF) says so; without one, text that is
 * mostly Latin script has a NUL in every other byte: NUL in at least 90% of
 * the odd (little-endian) or even (big-endian) positions, and in few of the others.
 */
export function utf16Kind(bytes) {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "little-endian";
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return "big-endian";
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return "";
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even += 1;
    if (bytes[i + 1] === 0) odd += 1;
  }
  const pairs = n / 2;
  if (odd >= 0.9 * pairs && even <= 0.1 * pairs) return "little-endian";
  if (even >= 0.9 * pairs && odd <= 0.1 * pairs) return "big-endian";
  return "";
}

/**
 * Resolves {text} or {error}; never throws, never touches the page.
 * A file is refused when it is larger than maxBytes, is UTF-16 (see
 * utf16Kind), contains NUL bytes (binary), or is not valid UTF-8.
 */
export async function readTextFile(file, { maxBytes = MAX_TEXT_FILE_BYTES } = {}) {
  const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (file.size > maxBytes) {
    return { error: t("file.too_large", { name: file.name, size: mb(file.size), limit: mb(maxBytes) }) };
  }
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    return { error: t("file.unreadable", { name: file.name, message: err.message }) };
  }
  const utf16 = utf16Kind(bytes);
  if (utf16) {
    return { error: t(`file.utf16.${utf16}`, { name: file.name }) };
  }
  if (bytes.includes(0)) {
    return { error: t("file.binary", { name: file.name }) };
  }
  try {
    let text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // byte-order mark
    return { text };
  } catch {
    return { error: t("file.not_utf8", { name: file.name }) };
  }
}
