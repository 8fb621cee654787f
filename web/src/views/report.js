// Report view (issue 23): a report card of one or several tokenizers on a parallel corpus (the
// UDHR samples, a FLORES-200 subset, the user's own texts): the premium chart over all languages
// with Petrov et al.'s published premium beside ours, the figures per language, the vocabulary
// anatomy with clickable example tokens (their story), exports (CSV, JSON, SVG). Every figure
// comes from Python (bytepair.report.card.ReportJob through api.report); this module draws.
// Text reaches the DOM through textContent and attributes only.

import { $, h, showError, download } from "../dom.js";
import { renderOnFrames } from "../store.js";
import { int, fixed } from "../format.js";
import { choiceParam, addText, restoreText } from "../links.js";
import { mountModelProgress } from "./model-ui.js";
import { mountStory } from "./story.js";
import { parseParallel, parallelError, scriptText, tokenizerCheckGroups } from "./compare.js";
import { fetchSample } from "../samples.js";
import { t, num, locale, displayName, errorText, onLocaleChange, loadLanguageNames } from "../i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const COLORS = ["#2f6fdf", "#d9622b", "#2a9d5c", "#a04bc8", "#c2185b", "#00838f", "#7a6a00", "#555"];
const SOURCES = ["udhr", "flores", "custom"];

export const initialReportState = {
  source: "udhr",
  selected: null, // tokenizer names ticked (null: the default, cl100k_base)
  baseline: null, // a language key of the corpus (null: English, else the first)
  result: null, // bytepair.report.card.ReportJob.result()
  corpusNote: "",
  running: false,
};

/**
 * The message `key` as DOM nodes, the values of `data` (a citation, a corpus's own words) each in a
 * <span data-i18n-skip dir="auto"> inside it: they are shown as their authors wrote them.
 */
function sentence(key, params, data) {
  const values = Object.values(data);
  const marks = Object.fromEntries(Object.keys(data).map((k, i) => [k, `\uE000${i}\uE000`]));
  return t(key, { ...params, ...marks })
    .split(/\uE000(\d+)\uE000/)
    .map((part, i) =>
      i % 2 ? h("span", { text: values[Number(part)], attrs: { "data-i18n-skip": "", dir: "auto" } }) : part,
    );
}

/** A language's name: a sample's in the reader's language (from its code), a pasted text's as written. */
function languageName(code, name, custom) {
  if (custom || locale() === "en") return name ?? code;
  return displayName("language", String(code).replace("_", "-"), name ?? code);
}

/** Counts in the locale's digits (English: format.js, as before). */
const count = (n) => (locale() === "en" ? int(n) : num(n));

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c != null) el.append(c);
  return el;
}

/**
 * The premium chart as an SVG element: one row per language, a bar per tokenizer, the paper's
 * figure as a tick; `width` in CSS pixels (the box it fills: drawn at that size, so its 11 px text
 * stays 11 px on a phone). Text and ticks in currentColor (the theme's text colour on the page,
 * black in the exported file); left to right in every locale (the language labels end at the bars).
 */
export function premiumChart(result, labelOf, names, width = 720) {
  const langs = result.tokenizers[0].languages;
  const rows = langs.map((row, i) => ({ lang: row.lang, name: names[row.lang] ?? row.lang, i }));
  const k = result.tokenizers.length;
  const barH = 6;
  const rowH = Math.max(14, k * barH + 4);
  const left = Math.min(170, Math.round(width * 0.32));
  const paperShown = result.tokenizers.some((tk) => tk.paper);
  const legendRows = k + (paperShown ? 1 : 0); // one legend entry a line: long labels never overlap
  const top = 10 + legendRows * 16;
  const max = Math.max(
    1,
    ...result.tokenizers.flatMap((tk) => tk.languages.map((r) => Math.max(r.premium ?? 0, r.paper_premium ?? 0))),
  );
  const x = (v) => left + ((width - left - 12) * v) / max;
  const height = top + rows.length * rowH + 10;
  const parts = [];
  result.tokenizers.forEach((tk, j) => {
    const y = 6 + j * 16;
    parts.push(
      svg("rect", { x: 8, y, width: 10, height: 10, fill: COLORS[j % COLORS.length] }),
      svg("text", { x: 22, y: y + 9, "font-size": 11, fill: "currentColor", "data-i18n-skip": "" }, labelOf(tk.name)),
    );
  });
  if (paperShown) {
    const y = 6 + k * 16;
    parts.push(
      svg("line", { x1: 13, x2: 13, y1: y - 1, y2: y + 11, stroke: "currentColor", "stroke-width": 2 }),
      svg("text", { x: 22, y: y + 9, "font-size": 11, fill: "currentColor" }, t("report.chart.paper")),
    );
  }
  parts.push(
    svg("line", { x1: x(1), x2: x(1), y1: top - 4, y2: height - 6, stroke: "#999", "stroke-dasharray": "3 3" }),
  );
  for (const r of rows) {
    const y = top + r.i * rowH;
    parts.push(
      svg(
        "text",
        {
          x: left - 6,
          y: y + rowH / 2 + 4,
          "font-size": 11,
          "text-anchor": "end",
          fill: "currentColor",
          "data-i18n-skip": "",
        },
        r.name,
      ),
    );
    result.tokenizers.forEach((tk, j) => {
      const row = tk.languages[r.i];
      const by = y + 2 + j * barH;
      parts.push(
        svg(
          "rect",
          {
            x: left,
            y: by,
            width: Math.max(0, x(row.premium ?? 0) - left),
            height: barH - 1,
            fill: COLORS[j % COLORS.length],
            "data-tokenizer": tk.name,
            "data-lang": row.lang,
            "data-premium": row.premium,
          },
          svg("title", {}, `${labelOf(tk.name)}, ${r.name}: ${fixed(row.premium)}×`),
        ),
      );
      if (row.paper_premium != null)
        parts.push(
          svg(
            "line",
            {
              x1: x(row.paper_premium),
              x2: x(row.paper_premium),
              y1: by - 1,
              y2: by + barH,
              stroke: "currentColor",
              "stroke-width": 2,
              "data-paper": row.paper_premium,
            },
            svg(
              "title",
              {},
              t("report.chart.paper.title", {
                tokenizer: labelOf(tk.name),
                lang: r.name,
                premium: `${fixed(row.paper_premium)}×`,
              }),
            ),
          ),
        );
    });
  }
  return svg(
    "svg",
    {
      xmlns: SVG_NS,
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-label": t("report.chart.label", { baseline: names[result.baseline] ?? result.baseline }),
      "font-family": "sans-serif",
      direction: "ltr",
    },
    parts,
  );
}

/** The report as CSV text: one row per tokenizer and language. */
export function reportCsv(result) {
  const cols = [
    "tokenizer",
    "language",
    "tokens",
    "bytes",
    "chars",
    "premium",
    "paper_premium",
    "byte_premium",
    "bytes_per_token",
    "words",
    "fertility",
    "continued_words",
    "renyi_efficiency",
    "script",
  ];
  const cell = (v) => {
    const s = v == null ? "" : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.join(",")];
  for (const tk of result.tokenizers)
    for (const r of tk.languages)
      lines.push(
        [
          tk.name,
          r.lang,
          r.tokens,
          r.bytes,
          r.chars,
          r.premium,
          r.paper_premium,
          r.byte_premium,
          r.bytes_per_token,
          r.words,
          r.fertility,
          r.continued_words,
          r.renyi_efficiency,
          r.script,
        ]
          .map(cell)
          .join(","),
      );
  return `${lines.join("\n")}\n`;
}

export function mountReport(root, store, api) {
  const checks = $(root, '[data-testid="report-tokenizers"]');
  const baselineSelect = $(root, '[data-testid="report-baseline"]');
  const customField = $(root, '[data-testid="report-custom-field"]');
  const customText = $(root, '[data-testid="report-custom"]');
  const runButton = $(root, '[data-testid="report-button"]');
  const status = $(root, '[data-testid="report-status"]');
  const bar = $(root, '[data-testid="report-progress"]');
  const note = $(root, '[data-testid="report-corpus-note"]');
  const chartBox = $(root, '[data-testid="report-chart"]');
  const table = $(root, '[data-testid="report-table"]');
  const anatomy = $(root, '[data-testid="report-anatomy"]');
  const exports = $(root, '[data-testid="report-exports"]');
  const story = mountStory($(root, '[data-testid="report-story"]'), api);
  const set = (patch) => store.update("report", patch);
  const cache = {}; // corpus source -> {name, texts: [{key, lang, name, text}]}
  let names = {}; // language key -> display name

  /** The corpus of `source`: {name, texts, ...}, or {error} (parseParallel's, as data) for own texts it refuses. */
  async function loadCorpus(source) {
    if (source === "custom") {
      const parsed = parseParallel(customText.value);
      if (parsed.error) return { error: parsed.error };
      return { name: t("report.corpus.yours"), custom: true, texts: parsed.texts };
    }
    if (!cache[source]) {
      const file = source === "flores" ? "flores200-subset.json" : "udhr.json";
      // a failed download travels as data (samples.js), worded by errorText: never the browser's text
      const res = await fetchSample(new URL(`../../samples/${file}`, import.meta.url), `samples/${file}`);
      const data = await res.json();
      await loadLanguageNames(); // the names the browser may lack (Tibetan in Persian ...)
      cache[source] = {
        name: data.unit ? (source === "flores" ? data.unit : t("report.corpus.udhr.unit", { unit: data.unit })) : file,
        source: data.source ?? "",
        // lang: the sample's BCP 47 tag (UDHR: "el" for key "ell"), which Intl.DisplayNames names
        texts: data.languages.map((s) => ({ key: s.code, lang: s.lang, name: s.name, text: s.text })),
      };
    }
    return cache[source];
  }

  function selected() {
    const all = api.tokenizers();
    const sel = store.state.report.selected;
    const known = sel ? all.filter((n) => sel.includes(n)) : [];
    return known.length ? known : all.includes("cl100k_base") ? ["cl100k_base"] : all.slice(0, 1);
  }

  function fillChecks() {
    checks.replaceChildren(...tokenizerCheckGroups(api, new Set(selected())));
  }
  mountModelProgress($(root, '[data-testid="report-model-progress"]'), api, () => selected());
  checks.addEventListener("change", () =>
    set({ selected: [...checks.querySelectorAll("input:checked")].map((c) => c.value) }),
  );
  api.onTokenizersChanged(() => fillChecks());
  api.onDownloadsChanged(() => fillChecks());
  api.withFacts(() => fillChecks());

  // the base-language menu's note when its list could not be had (the corpus did not download):
  // why, in words, and a button that tries again
  const baselineNote = $(root, '[data-testid="report-baseline-note"]');
  const baselineWhy = $(root, '[data-testid="report-baseline-why"]');
  let baselineError = null;
  function sayBaselineError(err) {
    baselineError = err;
    baselineNote.hidden = !err;
    baselineWhy.textContent = err ? errorText(err) : "";
    baselineSelect.disabled = !!err;
    if (err) baselineSelect.replaceChildren(h("option", { value: "", text: t("report.baseline.none") }));
  }
  $(root, '[data-testid="report-baseline-retry"]').addEventListener("click", () => fillBaselines());
  onLocaleChange(() => {
    if (baselineError) sayBaselineError(baselineError);
    else fillBaselines();
  });

  async function fillBaselines() {
    let corpus;
    try {
      corpus = await loadCorpus(store.state.report.source);
    } catch (err) {
      sayBaselineError(err);
      return;
    }
    sayBaselineError(null);
    if (corpus.error) {
      baselineSelect.replaceChildren();
      return;
    }
    const want = store.state.report.baseline;
    const keys = corpus.texts.map((x) => x.key);
    const pick = keys.includes(want) ? want : (keys.find((k) => ["eng_Latn", "eng", "en"].includes(k)) ?? keys[0]);
    baselineSelect.replaceChildren(
      ...corpus.texts.map((x) =>
        h("option", {
          value: x.key,
          text: languageName(x.lang ?? x.key, x.name, corpus.custom),
          selected: x.key === pick,
        }),
      ),
    );
    baselineSelect.value = pick;
  }
  baselineSelect.addEventListener("change", () => set({ baseline: baselineSelect.value }));

  function chooseSource(source) {
    set({ source });
    for (const radio of root.querySelectorAll('input[name="report-source"]')) radio.checked = radio.value === source;
    customField.hidden = source !== "custom";
    fillBaselines();
  }
  for (const radio of root.querySelectorAll('input[name="report-source"]'))
    radio.addEventListener("change", () => chooseSource(radio.value));
  customText.addEventListener("change", () => store.state.report.source === "custom" && fillBaselines());

  let seq = 0;
  async function run() {
    const mine = ++seq;
    showError(root, "report", "");
    const tokenizers = selected();
    const source = store.state.report.source;
    try {
      const corpus = await loadCorpus(source);
      if (corpus.error) {
        // the own texts refused: worded from the fault's data, as Compare words it
        status.textContent = "";
        showError(root, "report", parallelError(corpus.error));
        return;
      }
      if (baselineError) await fillBaselines(); // the menu's list failed before: it comes with the corpus
      names = Object.fromEntries(
        corpus.texts.map((x) => [x.key, languageName(x.lang ?? x.key, x.name, corpus.custom)]),
      );
      const keys = corpus.texts.map((x) => x.key);
      const baseline = keys.includes(baselineSelect.value) ? baselineSelect.value : keys[0];
      set({ running: true });
      bar.hidden = false;
      bar.removeAttribute("value");
      status.textContent = t("report.counting", { texts: corpus.texts.length, n: tokenizers.length });
      await api.ready;
      const result = await api.report(
        corpus.texts.map(({ key, text }) => ({ key, text })),
        tokenizers,
        {
          baseline,
          corpus: corpus.name,
          wordMetrics: source !== "flores", // fertility triples the time of the 204-language subset
          onProgress: (p, n) => {
            if (mine !== seq) return;
            bar.max = n;
            bar.value = p;
          },
        },
      );
      if (mine !== seq) return;
      set({ result, running: false, corpusNote: corpus.source ?? "" });
      status.textContent = t("report.done", { languages: result.languages.length, n: result.tokenizers.length });
    } catch (err) {
      if (mine !== seq) return;
      set({ running: false });
      status.textContent = "";
      showError(root, "report", errorText(err));
    } finally {
      if (mine === seq) bar.hidden = true;
    }
  }
  runButton.addEventListener("click", () => run());

  function drawTable(result) {
    const head = h(
      "tr",
      {},
      h("th", { scope: "col", text: t("report.col.language") }),
      result.tokenizers.flatMap((tk) => [
        // (class num: a column's head on the same side as its numbers, also right to left)
        h("th", { scope: "col", class: "num" }, sentence("report.col.tokens", {}, { tokenizer: api.label(tk.name) })),
        h("th", { scope: "col", class: "num", text: t("report.col.premium") }),
        h("th", { scope: "col", class: "num", text: t("report.col.paper") }),
        h("th", { scope: "col", class: "num", text: t("report.col.fertility") }),
        h("th", { scope: "col", class: "num", text: t("report.col.renyi") }),
      ]),
    );
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren(
      ...result.tokenizers[0].languages.map((row, i) =>
        h(
          "tr",
          { dataset: { testid: "report-row", lang: row.lang }, class: row.lang === result.baseline ? "baseline" : "" },
          h("th", { scope: "row" }, h("span", { text: names[row.lang] ?? row.lang, attrs: { dir: "auto" } })),
          result.tokenizers.flatMap((tk) => {
            const r = tk.languages[i];
            return [
              h("td", {
                class: "num",
                text: int(r.tokens),
                dataset: { tokenizer: tk.name, metric: "tokens", value: r.tokens },
              }),
              h("td", {
                class: "num",
                text: `${fixed(r.premium)}×`,
                dataset: { tokenizer: tk.name, metric: "premium", value: r.premium },
              }),
              h("td", {
                class: "num",
                text: r.paper_premium == null ? "–" : `${fixed(r.paper_premium)}×`,
                dataset: { tokenizer: tk.name, metric: "paper", value: r.paper_premium ?? "" },
              }),
              h("td", { class: "num", text: fixed(r.fertility), dataset: { tokenizer: tk.name, metric: "fertility" } }),
              h("td", {
                class: "num",
                text: fixed(r.renyi_efficiency, 3),
                dataset: { tokenizer: tk.name, metric: "renyi", value: r.renyi_efficiency ?? "" },
              }),
            ];
          }),
        ),
      ),
    );
  }

  /** Example tokens of a category: buttons that open the token's story (partial UTF-8 has no text to tell). */
  function examples(tkName, list, category) {
    return h(
      "span",
      { class: "report-examples" },
      list.map((ex) =>
        category === "partial_utf8"
          ? h("code", {
              class: "report-token",
              text: ex.display,
              attrs: { title: t("report.token.id", { id: String(ex.id) }) },
            })
          : h("button", {
              type: "button",
              class: "report-token button small secondary",
              text: ex.display,
              attrs: { title: t("report.token.story", { id: String(ex.id) }) },
              dataset: { testid: "report-token", tokenizer: tkName, category, id: ex.id },
              on: { click: () => story.open(ex.text, tkName, [0]) },
            }),
      ),
    );
  }

  function drawAnatomy(result) {
    anatomy.replaceChildren(
      ...result.tokenizers
        .filter((tk) => tk.vocab)
        .map((tk) => {
          const v = tk.vocab;
          const cats = v.categories;
          // a category's definition: bytepair.report.vocab.CATEGORIES's, worded by the catalog (keyed by category)
          const line = (key, n, list) =>
            h(
              "li",
              { dataset: { testid: "report-category", category: key, tokenizer: tk.name, count: n ?? "" } },
              h("strong", { text: `${t(`report.cat.${key}`)}: ` }),
              n == null ? "" : `${count(n)} `,
              list?.length ? examples(tk.name, list, key) : "",
              h("span", { class: "hint", text: cats[key] ? ` — ${t(`report.cat.${key}.definition`)}` : "" }),
            );
          const scripts = Object.entries(v.by_script)
            .slice(0, 12)
            .map(([s, n]) => `${scriptText(s)} ${count(n)}`)
            .join(", ");
          const numbers = Object.entries(v.single_token_numbers)
            .map(([n, x]) => t("report.digits", { digits: n, single: x.single, of: x.of }))
            .join(", ");
          return h(
            "div",
            { class: "report-vocab", dataset: { testid: "report-vocab", tokenizer: tk.name } },
            h("h4", {}, sentence("report.vocab", { n: v.ordinary, of: v.n_vocab }, { tokenizer: api.label(tk.name) })),
            h(
              "ul",
              {},
              line("partial_utf8", v.partial_utf8.count, v.partial_utf8.examples),
              line("unreachable", v.unreachable.count, v.unreachable.examples),
              v.never_produced ? line("never_produced", v.never_produced.count, v.never_produced.examples) : null,
              line("whitespace", v.whitespace.count, v.whitespace.examples),
              line("longest", null, v.longest),
              h("li", {}, h("strong", { text: `${t("report.cat.by_script")}: ` }), scripts),
              h("li", {}, h("strong", { text: `${t("report.cat.single_token_numbers")}: ` }), numbers),
            ),
            h("p", { class: "hint" }, sentence("report.source", {}, { source: cats.partial_utf8.source })),
          );
        }),
    );
  }

  /** The chart at the width of its box (a phone's 350 px or a desktop card's), redrawn when that changes. */
  let chartWidth = 0;
  function drawChart(result) {
    chartWidth = chartBox.clientWidth;
    const width = Math.max(300, Math.min(1100, chartWidth || 720));
    chartBox.replaceChildren(premiumChart(result, (n) => api.label(n), names, width));
  }
  new ResizeObserver(() => {
    const r = store.state.report.result;
    if (r && chartBox.clientWidth && Math.abs(chartBox.clientWidth - chartWidth) > 24) drawChart(r);
  }).observe(chartBox);

  let drawn = null;
  function render(state) {
    const s = state.report;
    runButton.disabled = s.running || state.status.phase !== "ready";
    root.dataset.reported = s.result ? String(s.result.tokenizers.length * s.result.languages.length) : "";
    if (!s.result || drawn === s.result) return;
    drawn = s.result;
    const result = s.result;
    const paper = result.tokenizers.some((tk) => tk.paper);
    // the corpus's name, its own note and the paper's citation are data (as their authors write them)
    note.replaceChildren(
      ...sentence("report.note", {}, { corpus: result.corpus, baseline: names[result.baseline] ?? result.baseline }),
      ...(s.corpusNote ? [" ", ...sentence("report.note.text", {}, { note: s.corpusNote })] : []),
      ...(paper ? [" ", ...sentence("report.note.paper", {}, { source: result.paper_source })] : []),
    );
    drawChart(result);
    drawTable(result);
    drawAnatomy(result);
    exports.hidden = false;
  }

  $(root, '[data-testid="report-export-json"]').addEventListener("click", () => {
    const r = store.state.report.result;
    if (r) download("bytepair-report.json", `${JSON.stringify(r, null, 1)}\n`, "application/json");
  });
  $(root, '[data-testid="report-export-csv"]').addEventListener("click", () => {
    const r = store.state.report.result;
    if (r) download("bytepair-report.csv", reportCsv(r), "text/csv");
  });
  $(root, '[data-testid="report-export-svg"]').addEventListener("click", () => {
    const el = chartBox.querySelector("svg");
    if (el) download("bytepair-report.svg", new XMLSerializer().serializeToString(el), "image/svg+xml");
  });

  // --- links: corpus, tokenizers, baseline ------------------------------------
  function link() {
    const s = store.state.report;
    const params = { src: s.source, tok: s.selected ? s.selected.join(",") : null, base: s.baseline };
    const omitted = s.source === "custom" ? addText(params, customText.value, "parallel texts") : "";
    return { params, notes: [], omitted };
  }
  function applyLink(params) {
    const notes = [];
    restoreText(params, notes, (text) => {
      customText.value = text;
    });
    const src = choiceParam(params, "src", SOURCES, notes);
    if (params.tok) set({ selected: params.tok.split(",").filter(Boolean) });
    if (params.base) set({ baseline: params.base });
    chooseSource(src ?? store.state.report.source);
    fillChecks();
    return notes;
  }

  fillChecks();
  fillBaselines();
  renderOnFrames(store, render);
  render(store.state);
  // (catalog words: the run button's label is the one dynamic text worded here)
  runButton.title = t("report.run.title");
  return { render, run, link, applyLink };
}
