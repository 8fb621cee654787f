// Side by side: the Tokenize text under two or more tokenizers, one row each,
// boundaries aligned, the boundaries where they cut differently highlighted
// (issue 13). The alignment comes from Python (bytepair.compare_segmentations
// via api.sideBySide); this module lays it out. Text only via textContent.

import { h, showError } from "../dom.js";
import { visibleWhitespace } from "../format.js";
import { t, num, onLocaleChange, errorText } from "../i18n.js";
import { isolateRuns, textDirection } from "../tokenlist.js";
import { menuLabel } from "../tokenizer-groups.js";

/** Side by side covers the first this many UTF-16 code units of the text (a grid per word is drawn). */
export const SBS_MAX_CHARS = 4000;

/** The first `max` UTF-16 units of `text`, not cutting a surrogate pair. */
export function clip(text, max = SBS_MAX_CHARS) {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** A row's cells: tokens whose spans overlap (fragments of one character) share one cell. */
export function cells(spans) {
  const out = [];
  for (let i = 0; i < spans.start.length; i += 1) {
    const last = out[out.length - 1];
    if (last && spans.start[i] < last.end) {
      last.tokens.push(i);
      last.end = Math.max(last.end, spans.end[i]);
    } else out.push({ start: spans.start[i], end: spans.end[i], tokens: [i] });
  }
  return out;
}

/**
 * Blocks of the aligned layout: the text cut at the boundaries every row shares,
 * so blocks can wrap like words. Each block: {start, end, columns: [offsets], rows: [[cell]]}.
 */
export function layout(result) {
  const rowCells = result.spans.map(cells);
  const shared = new Set([0, result.length, ...result.shared]);
  const edges = [...new Set([0, result.length, ...result.boundaries])].sort((a, b) => a - b);
  const blocks = [];
  let cur = null;
  for (const e of edges) {
    if (cur) cur.columns.push(e);
    if (shared.has(e)) {
      if (cur && cur.columns.length > 1) blocks.push(cur);
      cur = { start: e, columns: [e], rows: result.spans.map(() => []) };
    }
  }
  for (const b of blocks) b.end = b.columns[b.columns.length - 1];
  // put each cell into its block (cells never cross a shared boundary)
  let bi = 0;
  rowCells.forEach((row, r) => {
    bi = 0;
    for (const c of row) {
      while (bi < blocks.length - 1 && c.start >= blocks[bi].end) bi += 1;
      blocks[bi]?.rows[r].push(c);
    }
  });
  return blocks;
}

/**
 * Mount the side-by-side panel into `el` (an empty element inside Tokenize).
 * Returns {refresh(text, first), link(), applyLink(params), toggle(on), get names}.
 * Row 0 is Tokenize's tokenizer `first`; the others are the ones ticked here.
 */
export function mountSideBySide(el, store, api) {
  const set = (patch) => store.update("tokenize", (s) => ({ sbs: { ...s.sbs, ...patch } }));
  const toggle = h("input", { type: "checkbox", dataset: { testid: "sbs-toggle" } });
  const picks = h("div", {
    class: "checks",
    attrs: { role: "group", "aria-label": t("side.compare_with") },
    dataset: { testid: "sbs-tokenizers", i18nAttr: "aria-label:side.compare_with" },
  });
  const error = h("p", {
    class: "error",
    dataset: { errorFor: "sbs", testid: "sbs-error" },
    attrs: { role: "alert" },
    hidden: true,
  });
  const note = h("p", { class: "hint", dataset: { testid: "sbs-note" } });
  const summary = h("tbody", {});
  const table = h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "sbs-summary", dataset: { testid: "sbs-summary" } },
      h("caption", { class: "visually-hidden", text: t("side.caption"), dataset: { i18n: "side.caption" } }),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { text: t("side.col.row"), dataset: { i18n: "side.col.row" } }),
          h("th", { text: t("side.col.tokenizer"), dataset: { i18n: "side.col.tokenizer" } }),
          h("th", { class: "num", text: t("side.col.tokens"), dataset: { i18n: "side.col.tokens" } }),
          h("th", { class: "num", text: t("side.col.bytes_per_token"), dataset: { i18n: "side.col.bytes_per_token" } }),
          h("th", { class: "num", text: t("side.col.difference"), dataset: { i18n: "side.col.difference" } }),
        ),
      ),
      summary,
    ),
  );
  const rowsEl = h("div", { class: "sbs-rows", dataset: { testid: "sbs-rows" } });
  const body = h(
    "div",
    { class: "sbs-body", hidden: true },
    h(
      "div",
      { class: "field" },
      h("span", { class: "label", text: t("side.compare_with"), dataset: { i18n: "side.compare_with" } }),
      picks,
    ),
    error,
    table,
    h("p", {
      class: "hint",
      text: t("side.hint"),
      dataset: { i18n: "side.hint" },
    }),
    rowsEl,
    note,
  );
  el.replaceChildren(
    h(
      "label",
      { class: "sbs-switch" },
      toggle,
      " ",
      h("span", { text: t("sbs.switch"), dataset: { i18n: "sbs.switch" } }),
    ),
    body,
  );

  let others = ["gpt2", "o200k_base"];
  let lastText = null;
  let lastFirst = null;
  let seq = 0;

  function fillPicks() {
    const first = store.state.tokenize.tokenizer;
    const names = api.tokenizers().filter((n) => n !== first);
    picks.replaceChildren(
      ...names.map((n) =>
        h(
          "label",
          {},
          h("input", {
            type: "checkbox",
            checked: others.includes(n),
            value: n,
            dataset: { testid: "sbs-pick" },
            on: {
              change: (e) => {
                others = e.target.checked ? [...others, n] : others.filter((x) => x !== n);
                refresh(lastText, lastFirst, true);
              },
            },
          }),
          " ",
          // (a tokenizer's name: data, as in Compare)
          h("span", { text: menuLabel(api, n), attrs: { dir: "auto" }, dataset: { i18nSkip: "" } }),
        ),
      ),
    );
  }
  api.withFacts(fillPicks);
  api.onTokenizersChanged(fillPicks);
  api.onDownloadsChanged(fillPicks);

  toggle.addEventListener("change", () => {
    set({ on: toggle.checked });
    body.hidden = !toggle.checked;
    if (toggle.checked) refresh(lastText, lastFirst, true);
  });

  /** The rows asked for: Tokenize's tokenizer, then the ticked ones it knows. */
  function names(first) {
    const known = api.tokenizers();
    return [first, ...others.filter((n) => n !== first && known.includes(n))];
  }

  async function refresh(text, first, force = false) {
    if (text == null) return;
    lastText = text;
    if (first !== lastFirst) {
      lastFirst = first;
      fillPicks();
    }
    if (!toggle.checked) return;
    const s = store.state.tokenize.sbs;
    const rows = names(first);
    const shown = clip(text);
    // rows count as the main count does: BOS etc. ("Add special tokens"), typed special tokens (the switch)
    const { addSpecial, specials } = store.state.tokenize;
    const how = `${addSpecial}:${specials}`;
    if (!force && s?.result && s.text === shown && s.names.join("\n") === rows.join("\n") && s.how === how) return;
    const mine = ++seq;
    el.setAttribute("aria-busy", "true");
    try {
      const result = await api.sideBySide(shown, rows, { addSpecial, specials });
      if (mine !== seq) return;
      showError(el, "sbs", "");
      set({ result, text: shown, names: rows, how, clipped: shown.length < text.length });
    } catch (err) {
      if (mine !== seq) return;
      showError(el, "sbs", errorText(err));
      set({ result: null });
    } finally {
      if (mine === seq) el.removeAttribute("aria-busy");
    }
  }

  let drawn = null;
  onLocaleChange(() => {
    drawn = null; // counts and titles in the new language's digits and words
    render(store.state);
  });
  function render(state) {
    const s = state.tokenize.sbs;
    if (!s || !s.result || drawn === s.result) return;
    drawn = s.result;
    const r = s.result;
    summary.replaceChildren(
      ...r.rows.map((row, i) =>
        h(
          "tr",
          { dataset: { testid: "sbs-row-summary", name: row.name } },
          h("td", {}, h("span", { class: "sbs-swatch", dataset: { row: i } }), num(i + 1)),
          h("td", { text: api.label(row.name), attrs: { dir: "auto" }, dataset: { i18nSkip: "" } }),
          h("td", { class: "num", text: num(row.count), dataset: { testid: "sbs-count" } }),
          h("td", {
            class: "num",
            text: num(row.bytes_per_token, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
          }),
          h("td", {
            class: "num",
            text: i === 0 ? "–" : `${row.delta > 0 ? "+" : row.delta < 0 ? "−" : "±"}${num(Math.abs(row.delta))}`,
          }),
        ),
      ),
    );
    const differ = new Set(r.differ);
    const insideDiffer = new Set(r.inside_differ);
    rowsEl.style.setProperty("--sbs-rows", String(r.rows.length));
    const blocks = layout(r).map((b) => {
      const col = new Map(b.columns.map((o, k) => [o, k + 1]));
      const cellsEl = [];
      b.rows.forEach((row, ri) => {
        for (const c of row) {
          const ids = c.tokens.map((t) => r.spans[ri].ids[t]);
          const cut = c.start > 0 && differ.has(c.start);
          const el = h(
            "span",
            {
              class: `sbs-cell${cut ? " cut-differs" : ""}${insideDiffer.has(c.start) && c.tokens.length > 1 ? " inside-differs" : ""}`,
              dataset: {
                row: ri,
                c: (c.tokens[0] + ri) % 6,
                start: c.start,
                end: c.end,
                ...(cut ? { cut: c.start } : {}),
              },
              attrs: {
                title: t(ids.length > 1 ? "side.cell.tokens" : "side.cell.id", {
                  name: r.rows[ri].name,
                  n: ids.length,
                  ids: ids.join(" "),
                }),
              },
            },
            visibleWhitespace(s.text.slice(c.start, c.end)).replace(/\r?\n/g, ""),
          );
          if (c.tokens.length > 1) el.append(h("span", { class: "sbs-n", text: `×${c.tokens.length}` }));
          el.style.gridRow = String(ri + 1);
          el.style.gridColumn = `${col.get(c.start)} / ${col.get(c.end)}`;
          cellsEl.push(el);
        }
      });
      // each stretch reads in its own text's direction (a block is a grid: its columns follow it)
      return h("span", { class: "sbs-block", attrs: { dir: "auto" } }, cellsEl);
    });
    rowsEl.replaceChildren(...blocks);
    // as Tokenize's token list: the rows take the text's direction, runs of left-to-right stretches in order
    rowsEl.dir = textDirection(s.text, rowsEl);
    isolateRuns(rowsEl, blocks);
    note.textContent = s.clipped ? t("side.clipped", { n: s.text.length }) : "";
  }

  return {
    refresh,
    render,
    /** Turn the view on or off (a link or the gallery). */
    toggle(on, withNames = null) {
      if (withNames) others = withNames;
      toggle.checked = on;
      body.hidden = !on;
      set({ on });
      fillPicks();
      if (on) refresh(lastText, lastFirst, true);
    },
    link() {
      return toggle.checked ? { sbs: others.join(",") || "-" } : {};
    },
    get names() {
      return names(lastFirst);
    },
  };
}
