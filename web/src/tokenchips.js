// The inside of a token chip: the token's text with invisible characters shown by
// name (the names and positions come from Python: bytepair.charnames.invisible_marks,
// as `marks` of api.encodeSpans) and, optionally, visible whitespace. Text only
// (textContent); the page decides nothing about characters itself. A named
// character keeps its own text; its label is drawn by CSS from data-label.

import { h } from "./dom.js";
import { visibleWhitespace } from "./format.js";
import { t, locale } from "./i18n.js";

/**
 * Mark i's tooltip in the reader's language: Python's English `title` in "en"; elsewhere its
 * `name` (code point and Unicode name, bytepair.charnames.char_title) and, for a combining
 * mark drawn on a dotted circle (`base`), the catalog's words for that (detail.mark.base).
 * marks: the columns of chipContent.
 */
export function markTitle(marks, i) {
  if (locale() === "en" || !marks.name) return marks.title[i];
  return marks.name[i] + (marks.base?.[i] ? t("detail.mark.base") : "");
}

/**
 * Nodes for text[start, end) (UTF-16 indices) and the trailing line breaks,
 * kept apart so a chip can put its id label before them (an id must not wrap
 * onto the next line, issue 11 item 4).
 * marks: {start, end, label, title, name, base} columns in UTF-16 indices, sorted by start.
 * Returns {body: [Node|string], tail: string}.
 */
export function chipContent(text, start, end, marks, whitespace) {
  const piece = text.slice(start, end);
  const trimmed = piece.replace(/[\r\n]+$/, "");
  const cut = start + trimmed.length;
  let tail = piece.slice(trimmed.length);
  const show = (s) => (whitespace ? visibleWhitespace(s) : s);
  const body = [];
  let pos = start;
  const m = marks ?? { start: [] };
  // first mark at or after start (marks are few: a linear scan from a binary search)
  let lo = 0;
  let hi = m.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m.start[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < m.start.length && m.start[i] < cut; i += 1) {
    if (m.start[i] > pos) body.push(show(text.slice(pos, m.start[i])));
    // the character itself stays in the text (copying a chip copies the real text);
    // CSS draws its label (.invis::before, from data-label); a combining mark that begins a
    // token (base: true) stays visible, drawn on the dotted circle its label is (.mark-base::before)
    body.push(
      h("span", {
        class: m.base?.[i] ? "mark-base" : "invis",
        text: text.slice(m.start[i], m.end[i]),
        title: markTitle(m, i),
        dataset: { label: m.label[i], testid: "invisible-char" },
      }),
    );
    pos = m.end[i];
  }
  if (pos < cut) body.push(show(text.slice(pos, cut)));
  if (whitespace && tail) {
    // "↵" stays with the chip, the line break itself goes after the id
    const shown = visibleWhitespace(tail);
    body.push(shown.replace(/[\r\n]/g, ""));
    tail = shown.replace(/[^\r\n]/g, "");
  }
  return { body, tail };
}

/**
 * The names of the invisible characters between UTF-16 indices start and end, once each:
 * ["ZWJ = U+200D ZERO WIDTH JOINER", ...] (marks' label and title, from Python). The
 * detail line says them, so a touch screen (no hover, so no title tooltip) reads them too.
 */
export function markNames(marks, start, end) {
  const names = new Set();
  const m = marks ?? { start: [] };
  for (let i = 0; i < m.start.length && m.start[i] < end; i += 1) {
    if (m.end[i] > start) names.add(`${m.label[i]} = ${markTitle(m, i)}`);
  }
  return [...names];
}
