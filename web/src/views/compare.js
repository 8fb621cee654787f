// Compare view: parallel texts (UDHR samples or the user's own) x tokenizers:
// a sortable table (tokens, bytes per token, premium over the baseline) and a bar chart.

import { $, h, showError, debounce, slowCallNotice, noteAfter } from "../dom.js";
import { renderOnFrames } from "../store.js";
import { int, fixed, percent } from "../format.js";
import { t, num, locale, listText, onLocaleChange, errorText, displayName, loadLanguageNames } from "../i18n.js";
import { isDownloadError } from "../errors.js";
import { barChart } from "../charts.js";
import * as storage from "../storage.js";
import { addText, restoreText, choiceParam, missingTokenizersNote } from "../links.js";
import { scrollHint } from "../scrollhint.js";
import { tokenizerGroups, defaultCompareTokenizers } from "../tokenizer-groups.js";
import { mountModelProgress } from "./model-ui.js";
import { fetchSample } from "../samples.js";

const SCRIPTS = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Arabic",
  "Hebrew",
  "Devanagari",
  "Bengali",
  "Tamil",
  "Telugu",
  "Gujarati",
  "Gurmukhi",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Khmer",
  "Myanmar",
  "Tibetan",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
  "Ethiopic",
  "Georgian",
  "Armenian",
  "Cherokee",
  "Mongolian",
  "Thaana",
  "Syriac",
];
// ISO 15924 codes of the script names (SCRIPTS, dominantScript, the UDHR samples' "script"),
// so the page names them in the reader's language (Intl.DisplayNames)
const SCRIPT_CODES = {
  Latin: "Latn",
  Cyrillic: "Cyrl",
  Greek: "Grek",
  Arabic: "Arab",
  Hebrew: "Hebr",
  Devanagari: "Deva",
  Bengali: "Beng",
  Tamil: "Taml",
  Telugu: "Telu",
  Gujarati: "Gujr",
  Gurmukhi: "Guru",
  Kannada: "Knda",
  Malayalam: "Mlym",
  Sinhala: "Sinh",
  Thai: "Thai",
  Lao: "Laoo",
  Khmer: "Khmr",
  Myanmar: "Mymr",
  Tibetan: "Tibt",
  Han: "Hani",
  Hiragana: "Hira",
  Katakana: "Kana",
  Hangul: "Hang",
  Ethiopic: "Ethi",
  Georgian: "Geor",
  Armenian: "Armn",
  Cherokee: "Cher",
  Mongolian: "Mong",
  Thaana: "Thaa",
  Syriac: "Syrc",
  Japanese: "Jpan",
  "Japanese (Kanji and Kana)": "Jpan",
  "Han (Simplified)": "Hans",
  "Han (Traditional)": "Hant",
  "Canadian Syllabics": "Cans",
};
/** A script's name as the reader's language says it (English names in English, as before). */
export const scriptText = (script) =>
  locale() === "en" ? script : displayName("script", SCRIPT_CODES[script], script);
/** A row's language name: a sample's in the reader's language (from its code), a pasted text's as written. */
const nameText = (row) =>
  row.key.startsWith("custom-") || locale() === "en" ? row.name : displayName("language", row.lang, row.name);
/** Counts, bytes per token and premiums in the locale's digits (English: format.js, as before). */
const countText = (n) => (locale() === "en" ? int(n) : num(n));
const bptText = (x) => (locale() === "en" ? fixed(x) : num(x, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const premiumText = (x) =>
  locale() === "en" || !Number.isFinite(x)
    ? percent(x)
    : num(x, { style: "percent", signDisplay: "always", maximumFractionDigits: 0 });

const SCRIPT_RES = SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "gu")]);

/** The script most of the letters of `text` are written in (for pasted texts). */
export function dominantScript(text) {
  let best = ["", 0];
  for (const [name, re] of SCRIPT_RES) {
    const n = (text.match(re) || []).length;
    if (n > best[1]) best = [name, n];
  }
  if (best[0] === "Han" || best[0] === "Hiragana" || best[0] === "Katakana") {
    const kana = (text.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) || []).length;
    if (kana) return "Japanese";
  }
  return best[0] || "—";
}

/**
 * Parse "name<TAB>text" or "name | text" lines; returns {texts} or {error}, the error as data
 * {type: "parallel.empty" | "parallel.format" | "parallel.few", line?, name?} (worded by parallelError).
 */
export function parseParallel(input) {
  const texts = [];
  const lines = input.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (!line.trim()) continue;
    const m = line.match(/^([^\t|]+?)\s*(?:\t| \| )\s*(.+)$/);
    const bare = m ? null : line.match(/^([^\t|]+?)\s*(?:\t|\|)\s*$/);
    if (bare) return { error: { type: "parallel.empty", line: i + 1, name: bare[1].trim() } };
    if (!m) return { error: { type: "parallel.format", line: i + 1 } };
    texts.push({ key: `custom-${texts.length}`, name: m[1].trim(), text: m[2], script: dominantScript(m[2]) });
  }
  if (texts.length < 2) return { error: { type: "parallel.few" } };
  return { texts };
}

/** parseParallel's error in the reader's language (line numbers stay ASCII: they name a line of the input). */
export function parallelError(error) {
  return t(`error.${error.type}`, { line: String(error.line ?? ""), name: error.name ?? "" });
}

export const initialCompareState = {
  source: "udhr",
  selected: null, // tokenizer names ticked (null: all)
  rows: null, // [{key, name, script, bytes, cells: {tok: {tokens, bpt, premium}}}]
  tokenizers: [],
  sort: { key: "premium", tokenizer: null, dir: "asc" },
  metric: "premium",
  running: false,
};

/**
 * The tokenizer tick boxes of Compare and Report, grouped by maker (OpenAI, then the open models'
 * makers, loaded files, trained here): one `<div role=group>` per group of `tokenizerGroups(api)`.
 * @param {object} api the page's api
 * @param {Set<string>} chosen the names ticked
 * @returns {HTMLElement[]}
 */
export function tokenizerCheckGroups(api, chosen) {
  return tokenizerGroups(api).map((g) =>
    h(
      "div",
      {
        class: "check-group",
        attrs: { role: "group", "aria-label": g.label },
        // a maker's name is a name (OpenAI, Meta): not a string to translate
        dataset: g.maker ? { i18nSkip: "" } : {},
      },
      h("span", { class: "check-group-title", text: g.label, attrs: { dir: "auto" } }),
      h(
        "div",
        { class: "check-items" },
        g.items.map(({ name, label }) =>
          h(
            "label",
            {},
            h("input", { type: "checkbox", value: name, checked: chosen.has(name), dataset: { tokenizer: name } }),
            " ",
            // (dir auto: "GPT-4 (cl100k_base)" keeps its own order in a right-to-left page)
            h("span", { text: label, attrs: { dir: "auto" }, dataset: { i18nSkip: "" } }),
          ),
        ),
      ),
    ),
  );
}

export function mountCompare(root, store, api) {
  const checks = $(root, '[data-testid="compare-tokenizers"]');
  const customField = $(root, '[data-testid="compare-custom-field"]');
  const customText = $(root, '[data-testid="compare-custom"]');
  const runButton = $(root, '[data-action="compare"]');
  const status = $(root, '[data-testid="compare-status"]');
  const metricSelect = $(root, '[data-testid="compare-metric"]');
  const table = $(root, '[data-testid="compare-table"]');
  const canvas = $(root, '[data-testid="compare-chart"]');
  const missingBox = $(root, '[data-testid="compare-missing"]');
  /**
   * The tokenizers that could not be counted ({name: error}; {}: none), in `order` (the menu's):
   * those not downloaded for one reason in one sentence naming them all (fresh tester 4: nine
   * near-identical lines offline), any other failure on a line of its own.
   */
  const showMissing = (failed, order = Object.keys(failed)) => {
    const names = order.filter((n) => n in failed);
    const lines = [];
    for (const type of ["offline", "network"]) {
      const same = names.filter((n) => isDownloadError(failed[n]) && failed[n].type === type);
      if (same.length < 2) continue;
      lines.push([same, t(`error.${type}.many`, { names: listText(same.map((n) => api.label(n))) })]);
    }
    const told = new Set(lines.flatMap(([same]) => same));
    for (const n of names) if (!told.has(n)) lines.push([[n], errorText(failed[n])]);
    missingBox.replaceChildren(
      ...lines.map(([same, text]) =>
        h("p", { class: "error", text, dataset: { tokenizers: same.join(" "), testid: "compare-missing-item" } }),
      ),
    );
    missingBox.hidden = !missingBox.childElementCount;
  };
  // a 10-tokenizer run (open models downloaded) takes ~8 s normally: the notice means a stall after 12 s
  const working = slowCallNotice($(root, '[data-testid="compare-working"]'), {
    onCancel: () => api.cancel(),
    delayMs: 12000,
  });
  const set = (patch) => store.update("compare", patch);
  const updateHint = scrollHint(table.closest(".table-wrap"), $(root, '[data-testid="compare-scroll-hint"]'), {
    more: () => t("compare.scroll.more"),
    back: () => t("compare.scroll.back"),
  });
  let samples = null;

  async function loadSamples() {
    if (!samples) {
      const res = await fetchSample(new URL("../../samples/udhr.json", import.meta.url), "samples/udhr.json");
      const data = await res.json();
      await loadLanguageNames(); // the names the browser may lack (Tibetan in Persian ...)
      samples = (Array.isArray(data) ? data : data.languages).map((s) => ({
        key: s.code,
        name: s.name,
        script: s.script,
        lang: s.lang,
        direction: s.direction,
        text: s.text,
      }));
    }
    return samples;
  }

  /** The ticked tokenizers; the defaults when none is chosen or none of the chosen is known (a link's names). */
  function selected() {
    const all = api.tokenizers();
    const sel = store.state.compare.selected;
    const known = sel ? all.filter((t) => sel.includes(t)) : [];
    return sel && (known.length || !sel.length) ? known : defaultCompareTokenizers(api);
  }
  // a link's tokenizers that this page does not have: said under the tick boxes
  const sayMissing = noteAfter(checks, "compare-link-note");

  function fillChecks() {
    checks.replaceChildren(...tokenizerCheckGroups(api, new Set(selected())));
  }
  mountModelProgress($(root, '[data-testid="compare-model-progress"]'), api, () => selected());
  checks.addEventListener("change", () => {
    sayMissing("");
    set({ selected: [...checks.querySelectorAll("input:checked")].map((c) => c.value) });
    rerun();
  });
  api.onTokenizersChanged(() => {
    const s = store.state.compare;
    // new tokenizers are ticked; deleted or renamed ones drop out
    if (s.selected) {
      const known = new Set(api.tokenizers());
      const prev = new Set(drawnTokenizers);
      const fresh = api.tokenizers().filter((t) => !prev.has(t) && !s.selected.includes(t) && api.kind(t) !== "open");
      set({ selected: [...s.selected.filter((t) => known.has(t)), ...fresh] });
    }
    fillChecks();
    if (s.rows) rerun();
  });
  api.onDownloadsChanged(() => fillChecks()); // offline: "— not downloaded" beside what is not here
  let drawnTokenizers = api.tokenizers();

  for (const radio of root.querySelectorAll('input[name="compare-source"]')) {
    radio.addEventListener("change", () => {
      set({ source: radio.value });
      customField.hidden = radio.value !== "custom";
      storage.saveText("compare-source", radio.value);
      if (radio.value === "udhr") run();
    });
  }
  storage.loadText("compare", "").then((t) => {
    if (!customText.value) customText.value = t;
  });
  // the "own texts" choice survives a reload (a link's src wins)
  let sourceLinked = false;
  storage.loadText("compare-source", null).then((src) => {
    if (sourceLinked || src !== "custom" || store.state.compare.source === "custom") return;
    set({ source: "custom" });
    for (const radio of root.querySelectorAll('input[name="compare-source"]')) radio.checked = radio.value === "custom";
    customField.hidden = false;
  });
  customText.addEventListener(
    "input",
    debounce(() => storage.saveText("compare", customText.value), 400, { save: true }),
  );
  metricSelect.addEventListener("change", () => set({ metric: metricSelect.value }));
  runButton.addEventListener("click", () => run());

  let seq = 0;
  async function run() {
    const mine = ++seq;
    showError(root, "compare", "");
    showMissing({});
    const source = store.state.compare.source;
    const asked = selected();
    drawnTokenizers = api.tokenizers();
    // an earlier run's answer is dropped (mine !== seq): its "Counting…" and notice go with it
    const refuse = (message) => {
      set({ running: false });
      status.textContent = "";
      working.stop();
      showError(root, "compare", message);
    };
    if (!asked.length) return refuse(t("error.compare.none"));
    let texts;
    let baseline;
    try {
      if (source === "custom") {
        const parsed = parseParallel(customText.value);
        if (parsed.error) return refuse(parallelError(parsed.error));
        texts = parsed.texts;
        baseline = texts[0].key;
      } else {
        texts = await loadSamples();
        baseline = texts.find((t) => t.key === "eng")?.key ?? texts[0].key;
      }
      set({ running: true });
      status.textContent = t("compare.counting", { texts: texts.length, n: asked.length });
      await api.ready;
      if (mine === seq) working.start();
      // offline, a tokenizer not downloaded gets its own line and the others are still counted
      const { counts, failed } = await api.compare(
        texts.map(({ key, text }) => ({ key, text })),
        asked,
        { partial: true },
      );
      if (mine !== seq) return;
      showMissing(failed, asked);
      const tokenizers = asked.filter((name) => counts[name]);
      if (!tokenizers.length) {
        set({ running: false });
        status.textContent = "";
        return;
      }
      const rows = texts.map((t) => {
        const cells = {};
        for (const tok of tokenizers) {
          const [tokens, bytes] = counts[tok][t.key];
          const base = counts[tok][baseline][0];
          cells[tok] = { tokens, bpt: tokens ? bytes / tokens : NaN, premium: base ? tokens / base - 1 : NaN };
        }
        const bytes = counts[tokenizers[0]][t.key][1];
        return {
          key: t.key,
          name: t.name,
          script: t.script,
          lang: t.lang,
          direction: t.direction,
          bytes,
          cells,
          baseline: t.key === baseline,
        };
      });
      const sort = store.state.compare.sort;
      set({
        rows,
        tokenizers,
        running: false,
        sort: sort.tokenizer && !tokenizers.includes(sort.tokenizer) ? { ...sort, tokenizer: null } : sort,
      });
      const open = tokenizers.filter((t) => ["open", "file"].includes(api.kind(t)));
      status.textContent =
        t("compare.done", { texts: rows.length, n: tokenizers.length }) +
        (open.length ? ` ${t("compare.done.open", { names: open.map((name) => api.label(name)).join(", ") })}` : "");
    } catch (err) {
      if (mine !== seq) return;
      set({ running: false });
      status.textContent = "";
      showError(root, "compare", errorText(err));
    } finally {
      if (mine === seq) working.stop();
    }
  }
  const rerun = debounce(run, 150);

  function sortValue(row, sort, tokenizers) {
    if (sort.key === "name") return nameText(row).toLocaleLowerCase();
    if (sort.key === "script") return scriptText(row.script).toLocaleLowerCase();
    if (sort.key === "bytes") return row.bytes;
    const tok = sort.tokenizer ?? tokenizers[0];
    return row.cells[tok]?.[sort.key] ?? 0;
  }

  function sortButton(label, key, tokenizer, sort) {
    const active = sort.key === key && (sort.tokenizer ?? null) === (tokenizer ?? null);
    const th = h(
      "th",
      { scope: "col", attrs: { "aria-sort": active ? (sort.dir === "asc" ? "ascending" : "descending") : null } },
      sortControl(label, key, tokenizer, sort, active),
    );
    return th;
  }

  function sortControl(
    label,
    key,
    tokenizer,
    sort,
    active = sort.key === key && (sort.tokenizer ?? null) === (tokenizer ?? null),
  ) {
    return h(
      "button",
      {
        type: "button",
        class: "sort",
        dataset: { sort: key, tokenizer: tokenizer ?? "" },
        on: { click: () => set({ sort: { key, tokenizer, dir: active && sort.dir === "asc" ? "desc" : "asc" } }) },
      },
      label,
      h("span", {
        class: "sort-mark",
        attrs: { "aria-hidden": "true" },
        text: active ? (sort.dir === "asc" ? " ▲" : " ▼") : "",
      }),
    );
  }

  let drawnRows = null;
  let drawnSort = null;
  let drawnMetric = null;

  function render(state) {
    const s = state.compare;
    runButton.disabled = s.running || state.status.phase !== "ready";
    root.dataset.compared = s.rows ? String(s.rows.length * s.tokenizers.length) : "";
    if (!s.rows) return;
    if (drawnRows === s.rows && drawnSort === s.sort && drawnMetric === s.metric) return;
    drawnRows = s.rows;
    drawnSort = s.sort;
    drawnMetric = s.metric;
    const tokenizers = s.tokenizers;
    const sort =
      s.sort.tokenizer || ["name", "script", "bytes"].includes(s.sort.key)
        ? s.sort
        : { ...s.sort, tokenizer: tokenizers[0] };
    const rows = [...s.rows].sort((a, b) => {
      const x = sortValue(a, sort, tokenizers);
      const y = sortValue(b, sort, tokenizers);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return sort.dir === "asc" ? c : -c;
    });
    const head1 = h(
      "tr",
      {},
      // (where the Script column folds under the names, its sort button moves up here)
      h(
        "th",
        { scope: "col", class: "group pin" },
        h("span", { class: "script-inline" }, sortControl(t("compare.col.script"), "script", null, sort)),
      ),
      // (no header of their own: cells, not empty headers, which a screen reader would announce)
      h("td", { class: "group" }),
      h("td", { class: "group" }),
      tokenizers.map((tok) =>
        h("th", { scope: "colgroup", colSpan: 3, class: "group", text: api.label(tok), dataset: { i18nSkip: "" } }),
      ),
    );
    const head2 = h(
      "tr",
      {},
      sortButton(t("compare.col.language"), "name", null, sort),
      sortButton(t("compare.col.script"), "script", null, sort),
      sortButton(t("compare.col.bytes"), "bytes", null, sort),
      tokenizers.flatMap((tok) => [
        sortButton(t("compare.col.tokens"), "tokens", tok, sort),
        sortButton(t("compare.col.bpt"), "bpt", tok, sort),
        sortButton(t("compare.col.premium"), "premium", tok, sort),
      ]),
    );
    table.tHead.replaceChildren(head1, head2);
    table.tBodies[0].replaceChildren(
      ...rows.map((r) =>
        h(
          "tr",
          { dataset: { testid: "compare-row", code: r.key }, class: r.baseline ? "baseline" : "" },
          // the script is repeated under the name by CSS (::after) where its column folds
          h(
            "th",
            { scope: "row", dataset: { script: scriptText(r.script) } },
            // a sample's name in the reader's language; a pasted text's name as its author wrote it
            r.key.startsWith("custom-")
              ? h("span", { text: r.name, attrs: { lang: r.lang || null, dir: "auto" }, dataset: { i18nSkip: "" } })
              : h("span", { text: nameText(r), attrs: { dir: "auto" } }),
            r.baseline ? h("span", { class: "hint", text: t("compare.baseline") }) : null,
          ),
          h("td", { text: scriptText(r.script) }),
          h("td", { class: "num", text: countText(r.bytes) }),
          tokenizers.flatMap((tok) => {
            const c = r.cells[tok];
            return [
              h("td", {
                class: "num",
                text: countText(c.tokens),
                dataset: { tokenizer: tok, metric: "tokens", value: c.tokens },
              }),
              h("td", { class: "num", text: bptText(c.bpt), dataset: { tokenizer: tok, metric: "bpt" } }),
              h("td", {
                class: "num",
                text: r.baseline ? "—" : premiumText(c.premium),
                dataset: { tokenizer: tok, metric: "premium" },
              }),
            ];
          }),
        ),
      ),
    );
    const metric = s.metric;
    const yTitle = t(`compare.metric.${metric}`);
    barChart(
      canvas,
      rows.map((r) => nameText(r)),
      tokenizers.map((tok) => ({
        key: tok,
        label: api.label(tok),
        values: rows.map((r) => (metric === "premium" ? r.cells[tok].premium * 100 : r.cells[tok][metric])),
      })),
      yTitle,
      { horizontal: canvas.closest(".card").clientWidth < 640 },
    );
    updateHint();
  }

  // --- links: texts (UDHR or the user's own), tokenizers, chart metric ---------
  function link() {
    const s = store.state.compare;
    const params = {
      src: s.source,
      tok: s.selected ? s.selected.join(",") : null,
      metric: s.metric !== "premium" ? s.metric : null,
    };
    const omitted = s.source === "custom" ? addText(params, customText.value, "parallel texts") : "";
    return { params, notes: [], omitted };
  }
  function applyLink(params) {
    const notes = [];
    const src = choiceParam(params, "src", ["udhr", "custom"], notes);
    if (src) {
      sourceLinked = true;
      set({ source: src });
      for (const radio of root.querySelectorAll('input[name="compare-source"]')) radio.checked = radio.value === src;
      customField.hidden = src !== "custom";
    }
    restoreText(params, notes, (text) => {
      customText.value = text;
    });
    if (params.tok) {
      const names = params.tok.split(",").filter(Boolean);
      set({ selected: names }); // (trained tokenizers load from storage a moment later: selected() skips names not known yet)
      sayMissing("");
      api.ready.then(
        () => {
          if (store.state.compare.selected !== names) return; // ticked or linked again since
          const all = api.tokenizers();
          const missing = names.filter((n) => !all.includes(n));
          if (!missing.length) return;
          const kept = names.filter((n) => all.includes(n));
          set({ selected: kept.length ? kept : null });
          fillChecks();
          sayMissing(
            missingTokenizersNote(
              missing,
              selected().map((t) => api.label(t)),
            ),
          );
        },
        () => {},
      );
      fillChecks();
    }
    const metric = choiceParam(params, "metric", ["premium", "tokens", "bpt"], notes);
    if (metric) {
      set({ metric });
      metricSelect.value = metric;
    }
    if (started) rerun();
    return notes;
  }

  fillChecks();
  api.withFacts(() => fillChecks()); // the real encodings are known once the worker is ready
  let started = false;
  store.subscribe((state) => {
    if (!started && state.view === "compare" && state.status.phase === "ready") {
      started = true;
      run();
    }
  });
  renderOnFrames(store, render);
  render(store.state);
  onLocaleChange(() => {
    drawnRows = null; // headers, names, numbers and the chart worded again
    fillChecks();
    render(store.state);
  });
  return { render, run, link, applyLink };
}
