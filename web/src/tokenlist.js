// The coloured token boxes of Tokenize, shared with Chat: tokens that split
// one character are grouped into one box; text reaches the DOM as text only.

import { h } from "./dom.js";
import { chipContent } from "./tokenchips.js";

/** Colours cycled through (styles.css: .tok-group[data-c]). */
export const COLORS = 6;

/**
 * Group tokens whose spans overlap (tokens that split one character).
 * result: columns {ids, start, end} (spans in UTF-16 code units) -> [{start, end, tokens: [index]}].
 */
export function groupTokens(result) {
  const groups = [];
  for (let i = 0; i < result.ids.length; i += 1) {
    const start = result.start[i];
    const end = result.end[i];
    const last = groups[groups.length - 1];
    if (last && start < last.end) {
      last.tokens.push(i);
      last.end = Math.max(last.end, end);
    } else {
      groups.push({ start, end, tokens: [i] });
    }
  }
  return groups;
}

/**
 * One box (a role="option" span) for group gi of `text`.
 * options: {whitespace: visible · → ↵, showIds: ids after the text, idPrefix: element id prefix,
 *           dataset: extra data-* values, cls: extra classes, label: text shown instead of the
 *           group's slice of `text` (tokens with no text of their own, e.g. BOS)}.
 * Invisible characters show by name (result.marks, from Python; tokenchips.js), the id label
 * sits before the group's trailing line break (it never starts the next line), result.note
 * (bytepair.token_note) becomes the tooltip, result.special marks special tokens.
 */
export function tokenNode(
  text,
  result,
  group,
  gi,
  { whitespace = false, showIds = false, idPrefix = "tok", dataset = {}, cls = "", label = null } = {},
) {
  const ids = group.tokens.map((i) => result.ids[i]);
  const { body, tail } =
    label != null ? { body: [label], tail: "" } : chipContent(text, group.start, group.end, result.marks, whitespace);
  const note = result.note
    ? group.tokens
        .map((i) => result.note[i])
        .filter(Boolean)
        .join(" ")
    : "";
  const special = label == null && result.special && group.tokens.some((i) => result.special[i]);
  const classes = ["tok-group", cls, note ? "has-note" : "", special ? "special" : ""].filter(Boolean).join(" ");
  const el = h(
    "span",
    {
      class: classes,
      id: `${idPrefix}-${gi}`,
      title: note || null,
      dataset: { group: gi, c: gi % COLORS, ids: ids.join(","), testid: "token", ...dataset },
      attrs: { role: "option", "aria-selected": "false" },
    },
    body,
  );
  if (showIds) el.append(h("span", { class: "tok-id", text: ids.join(" "), attrs: { "aria-hidden": "true" } }));
  if (tail) el.append(tail);
  return el;
}
