// Reading a user's text file: refuse huge or binary files with a clear message.

export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Resolves {text} or {error}; never throws, never touches the page.
 * A file is refused when it is larger than maxBytes, contains NUL bytes
 * (binary), or is not valid UTF-8.
 */
export async function readTextFile(file, { maxBytes = MAX_TEXT_FILE_BYTES } = {}) {
  const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (file.size > maxBytes) {
    return { error: `“${file.name}” is ${mb(file.size)}; the limit is ${mb(maxBytes)}. Use a smaller part of it.` };
  }
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    return { error: `Could not read “${file.name}”: ${err.message}` };
  }
  if (bytes.includes(0)) {
    return { error: `“${file.name}” looks like a binary file (it contains NUL bytes). Open a plain-text UTF-8 file.` };
  }
  try {
    let text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // byte-order mark
    return { text };
  } catch {
    return { error: `“${file.name}” is not valid UTF-8 text. Save it as UTF-8 and try again.` };
  }
}
