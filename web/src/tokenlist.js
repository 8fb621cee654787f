// The token list of Tokenize and Chat: the coloured boxes (tokens that split one
// character are grouped into one box), the list container with its keyboard,
// hover and highlighted box, the detail line and the legend. Text reaches the
// DOM as text only.

import { h, deviceHint } from "./dom.js";
import { chipContent } from "./tokenchips.js";
import { t, locale } from "./i18n.js";

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
 * Token i's note (what a reader cannot see in it: character fragments, named characters) in the
 * reader's language, worded through the catalog (detail.note.*) from result.note_parts (Python's
 * bytepair.decoding.token_note_parts: [{kind, hex, n, need} | {kind: "char", shown, title}]); in
 * English, or without parts, Python's own sentence result.note[i]. "" when there is nothing to say.
 */
export function noteText(result, i) {
  const parts = result.note_parts?.[i];
  if (!parts || locale() === "en") return result.note?.[i] ?? "";
  return parts
    .map((p) =>
      p.kind === "char"
        ? t("detail.note.char", { label: p.shown, title: p.title })
        : t(`detail.note.${p.kind}`, { hex: `<${p.hex}>`, n: p.n ?? 0, need: p.need ?? 0 }),
    )
    .join(" ");
}

/** Control pictures naming whitespace (U+2420, U+2409, U+2424, U+240D); others by code point. */
const BLANK = { " ": "\u2420", "\t": "\u2409", "\n": "\u2424", "\r": "\u240d" };

/**
 * An accessible name for a box whose text is only whitespace (or empty), which a screen reader
 * would otherwise announce as nothing (axe: aria-input-field-name); null for any other text.
 */
function blankName(slice) {
  if (/\S/u.test(slice)) return null;
  if (!slice) return "\u2205"; // ∅: a token with no text
  return [...slice]
    .map((c) => BLANK[c] ?? `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`)
    .join(" ");
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
        .map((i) => noteText(result, i))
        .filter(Boolean)
        .join(" ")
    : "";
  const slice = label != null ? String(label) : text.slice(group.start, group.end);
  const special = label == null && result.special && group.tokens.some((i) => result.special[i]);
  // has-break: the box holds a line break, so it stays inline (styles.css: other boxes never break inside)
  const lineBreak = /[\r\n]/.test(slice) ? "has-break" : "";
  const textless = label != null ? { textless: "" } : {};
  const classes = ["tok-group", cls, note ? "has-note" : "", special ? "special" : "", lineBreak]
    .filter(Boolean)
    .join(" ");
  const el = h(
    "span",
    {
      class: classes,
      id: `${idPrefix}-${gi}`,
      title: note || null,
      // data-textless: a box of tokens with no text of their own (BOS), neutral in isolateRuns
      dataset: { group: gi, c: gi % COLORS, ids: ids.join(","), testid: "token", ...textless, ...dataset },
      // a token's own text sets its direction ("Hello," stays so inside a right-to-left page)
      attrs: { role: "option", "aria-selected": "false", dir: "auto", "aria-label": blankName(slice) },
    },
    body,
  );
  if (showIds) el.append(h("span", { class: "tok-id", text: ids.join(" "), attrs: { "aria-hidden": "true" } }));
  if (tail) el.append(tail);
  return el;
}

/**
 * The legend under a token list, from the result's columns: a `<e0a6>` fragment
 * (result.display with a result.note), a named invisible character (result.marks),
 * then `extra` items of the view. Returns the <li> elements (none: nothing to explain).
 */
export function legendItems(result, extra = []) {
  const items = [];
  if (result?.display?.some((d, i) => result.note?.[i] && /<[0-9a-f]+>/.test(d))) {
    items.push(
      h(
        "li",
        { dataset: { testid: "legend-fragment" } },
        h("code", { class: "tok", text: "<e0a6>" }),
        t("legend.fragment"),
        ...deviceHint(t("legend.fragment.pointer"), t("legend.fragment.touch")),
      ),
    );
  }
  if (result?.marks?.label.length) {
    items.push(
      h(
        "li",
        { dataset: { testid: "legend-invisible" } },
        h("span", { class: "invis", text: "\u200d", dataset: { label: "ZWJ" } }),
        t("legend.invisible"),
        ...deviceHint(t("legend.invisible.pointer"), t("legend.invisible.touch")),
      ),
    );
  }
  return [...items, ...extra];
}

/**
 * The direction ("rtl" or "ltr") the browser gives `text` under dir="auto" (its first strong
 * character, HTML's rule). A list of boxes cannot use dir="auto" itself: each box has its own
 * dir attribute, and dir="auto" skips such children, so the list would always read left to right.
 * Only the first 4,000 UTF-16 code units are looked at.
 */
export function textDirection(text, near = document.body) {
  const probe = h("span", { text: text.slice(0, 4000), attrs: { dir: "auto", hidden: "" } });
  near.append(probe);
  const rtl = probe.matches(":dir(rtl)");
  probe.remove();
  return rtl ? "rtl" : "ltr";
}

// Letters of the scripts written right to left (Unicode Bidi_Class R / AL letters are of these)
const RTL_LETTER =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}]/u;
const FIRST_LETTER = /\p{L}/u;

/**
 * The direction ("rtl" or "ltr") a line of the token list reads in: right to left when at least 40%
 * of its words (those with a letter, each counted by its first letter) are of a right-to-left script,
 * else (no letter at all too) left to right. The threshold is Closure Library's
 * (goog.i18n.bidi.estimateDirection, rtlDetectionThreshold 0.40). Not the first strong letter
 * (dir="auto"): the courses' Urdu and Persian lines often open with an English term ("training
 * loop چار steps کو repeat کرتا ہے:"), and such a line read left to right is scrambled.
 * Only the first 4,000 UTF-16 code units are looked at.
 */
export function lineDirection(text) {
  let rtl = 0;
  let words = 0;
  for (const word of text.slice(0, 4000).split(/\s+/)) {
    const letter = FIRST_LETTER.exec(word);
    if (!letter) continue;
    words += 1;
    if (RTL_LETTER.test(letter[0])) rtl += 1;
  }
  return words && rtl >= 0.4 * words ? "rtl" : "ltr";
}

/**
 * The lines of `text` as the token list draws them: [first, last] indices (inclusive) of `groups`
 * (groupTokens', in order), a line ending with the group whose text ends in a line break ("\n",
 * "\r\n", a lone "\r"), so a token holding the break (o200k's "۔\n", "\n\n") ends its line, whole.
 * A group with a line break inside and text after it (gpt2's "\n   " before an indented line) keeps
 * both lines in one: a box is never cut. Groups with no text of their own (BOS) join the line they
 * are on.
 */
export function lineRanges(groups, text) {
  const lines = [];
  let first = 0;
  for (let i = 0; i < groups.length; i += 1) {
    const { start, end } = groups[i];
    const last = text[end - 1];
    if (end > start && (last === "\n" || (last === "\r" && text[end] !== "\n"))) {
      lines.push([first, i]);
      first = i + 1;
    }
  }
  if (first < groups.length) lines.push([first, groups.length - 1]);
  return lines;
}

/** A box's own text, without its id label (.tok-id). */
const boxText = (el) =>
  [...el.childNodes]
    .filter((n) => !n.classList?.contains("tok-id"))
    .map((n) => n.textContent)
    .join("");

/**
 * Wrap each run of boxes written the other way from the list in one span of that direction, so
 * a word cut into several tokens reads in its own order: in a right-to-left list a number or a
 * Latin word ("2024" as 202|4, not 4|202), in a left-to-right list an Urdu or Persian word (a
 * text that opens with "BPE Tokenizer" and goes on in Urdu: each Urdu word's tokens read from
 * the right, not spelled backwards from the left). Each box is bidi-isolated (dir="auto"), and the bidi algorithm
 * treats an isolate as a neutral character: between neighbours of the list's direction a run of
 * them would be laid out in the list's direction. A box is right-to-left when the browser gives
 * it that direction (:dir(rtl)), left-to-right when it does not and it holds a letter or a digit;
 * boxes of only spaces or punctuation between two boxes of a run join it, and so do boxes with no text
 * of their own (data-textless: a special token the tokenizer adds, BOS). Such a box is neutral, never
 * the end of a run: Llama 3's <|begin_of_text|> at the start of a right-to-left line that opens with
 * English words ("training loop چار steps …") stays at the line's start, its right edge, instead of
 * joining the run of "training loop" as its left end.
 * boxes: the list's (or one line's) boxes in order (children of `out`). Returns nothing; `out` is changed in place.
 */
export function isolateRuns(out, boxes) {
  const own = out.matches(":dir(rtl)") ? "r" : "l";
  const other = own === "r" ? "l" : "r";
  const kind = boxes.map((el) =>
    "textless" in el.dataset ? "n" : el.matches(":dir(rtl)") ? "r" : /[\p{L}\p{N}]/u.test(boxText(el)) ? "l" : "n",
  );
  let i = 0;
  while (i < boxes.length) {
    if (kind[i] !== other) {
      i += 1;
      continue;
    }
    let last = i;
    for (let j = i + 1; j < boxes.length && kind[j] !== own; j += 1) if (kind[j] === other) last = j;
    if (last > i) {
      const dir = other === "r" ? "rtl" : "ltr";
      const run = h("span", { class: "tok-run", attrs: { dir, role: "none" } });
      boxes[i].before(run);
      run.append(...boxes.slice(i, last + 1));
    }
    i = last + 1;
  }
}

/** The detail line while no box is highlighted. */
const idleDetail = () => deviceHint(t("detail.idle.pointer"), t("detail.idle.touch"));

/**
 * A view's token list: the role="listbox" element `out` holding one box per group, the
 * highlighted box (the view keeps its index, `active`, in its store state), the detail
 * line `detail` and, if given, the legend `legendEl`. Owns the keyboard (arrows, Home,
 * End; other keys go to `onKey(event, active)`, which returns true when it used the key),
 * focus (highlights the first box) and hover.
 *
 * mountTokenList(out, detail, {getActive, setActive, onKey, legendEl}) ->
 *   {groups, draw(groups, nodeOf, text), clear(), highlight(active, describe), legend(result, extra)}
 * draw: one box per group, nodeOf(group, gi) (tokenNode); given the drawn `text`, each line of it is a
 * block of its own (.tok-line, lineRanges) in the direction most of its words read in (lineDirection:
 * a Persian line's first token is its rightmost box, also when the line opens with an English term; a
 * Bangla line after it reads left to right, its "।" at its end), and the list takes the text's
 * (lineDirection of all of it); highlight: marks box `active` (aria-selected, aria-activedescendant) and puts
 * describe(group) (text or nodes) in `detail`.
 */
export function mountTokenList(out, detail, { getActive, setActive, onKey = () => false, legendEl = null }) {
  let groups = [];
  let boxes = [];
  detail.replaceChildren(...idleDetail());
  out.addEventListener("keydown", (e) => {
    const n = groups.length;
    if (!n) return;
    let i = getActive();
    if (e.key === "ArrowRight" || e.key === "ArrowDown") i = Math.min(n - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") i = Math.max(0, i - 1);
    else if (e.key === "Home") i = 0;
    else if (e.key === "End") i = n - 1;
    else if (onKey(e, i)) return;
    else return;
    e.preventDefault();
    setActive(i);
  });
  out.addEventListener("focus", () => {
    if (getActive() < 0 && groups.length) setActive(0);
  });
  out.addEventListener("mouseover", (e) => {
    const el = e.target.closest("[data-group]");
    if (el) setActive(Number(el.dataset.group));
  });
  return {
    get groups() {
      return groups;
    },
    draw(next, nodeOf, text = null) {
      groups = next;
      boxes = groups.map(nodeOf);
      if (text == null) {
        out.replaceChildren(...boxes);
        isolateRuns(out, boxes);
        return;
      }
      // each line its own bidi paragraph, in the direction most of its words read in (lineDirection;
      // the boxes are isolates, which a line's dir="auto" would skip anyway)
      const ranges = lineRanges(groups, text);
      const dirs = ranges.map(([a, b]) => lineDirection(text.slice(groups[a].start, groups[b].end)));
      out.dir = lineDirection(text);
      const lines = ranges.map(([a, b], k) =>
        h("div", { class: "tok-line", attrs: { dir: dirs[k], role: "none" } }, boxes.slice(a, b + 1)),
      );
      out.replaceChildren(...lines);
      lines.forEach((line, k) => isolateRuns(line, boxes.slice(ranges[k][0], ranges[k][1] + 1)));
    },
    clear() {
      groups = [];
      boxes = [];
      out.replaceChildren();
    },
    highlight(active, describe) {
      const prev = out.querySelector('[aria-selected="true"]');
      if (prev) prev.setAttribute("aria-selected", "false");
      if (active >= 0 && active < groups.length) {
        const el = boxes[active];
        el.setAttribute("aria-selected", "true");
        out.setAttribute("aria-activedescendant", el.id);
        if (document.activeElement === out) el.scrollIntoView({ block: "nearest" });
        const d = describe(groups[active]);
        detail.replaceChildren(...(Array.isArray(d) ? d : [d]));
      } else {
        out.removeAttribute("aria-activedescendant");
        detail.replaceChildren(...idleDetail());
      }
    },
    legend(result, extra = []) {
      if (!legendEl) return;
      const items = legendItems(result, extra);
      legendEl.replaceChildren(...items);
      legendEl.hidden = !items.length;
    },
  };
}
