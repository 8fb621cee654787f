// Formatting helpers: numbers, durations, text units.

const nf = new Intl.NumberFormat("en");
export const int = (n) => (n == null || Number.isNaN(n) ? "–" : nf.format(n));
export const fixed = (n, d = 2) => (n == null || !Number.isFinite(n) ? "–" : n.toFixed(d));
/** n with d decimals and thousands separators ("5,000.00"). */
export const decimal = (n, d = 2) =>
  n == null || !Number.isFinite(n)
    ? "–"
    : new Intl.NumberFormat("en", { minimumFractionDigits: d, maximumFractionDigits: d }).format(n);
export const percent = (x) =>
  x == null || !Number.isFinite(x) ? "–" : `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(0)}%`;

/** "1 merge", "2 merges", "1,234 merges" */
export const plural = (n, word, many = `${word}s`) => `${int(n)} ${n === 1 ? word : many}`;

export function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

const encoder = new TextEncoder();
/** Characters as Python counts them (code points), UTF-8 bytes. */
export const charCount = (text) => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};
export const byteCount = (text) => encoder.encode(text).length;

export function bytesLabel(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

/** Visible whitespace: · for space, → for tab, ↵ for newline (kept as a line break). */
export function visibleWhitespace(text) {
  return text
    .replace(/ /g, "·")
    .replace(/\t/g, "→")
    .replace(/\r?\n/g, (m) => `↵${m}`);
}
