// The gallery of tokenizer oddities in Tokenize (issue 13): one-click examples
// whose explanations come from bytepair.app.gallery (every number computed by the
// page's Python from the real tokenizers, never typed in here).

import { h, loadOnOpen } from "../dom.js";
import { galleryLink, iframeSnippet } from "../links.js";
import { t, num, onLocaleChange, locale, isolate, PSEUDO, listText } from "../i18n.js";

// "“st” 2 · “raw” 3" in English; the reader's own list (Intl.ListFormat) elsewhere: in Persian a
// middle dot beside ۲ reads as ۲۰ (its zero is a dot)
const letterList = (items) =>
  locale() === "en" || locale() === PSEUDO ? items.join(" · ") : listText(items, "unit", "short");

/**
 * An example's explanation in the page's language, worded from its facts (bytepair.app.gallery
 * computes them; the catalog's gallery.ex.<id>.text is the template, the English one equal to
 * Python's Example.template): counts in the locale's digits, "N tokens" as the catalog's plural,
 * ratios with one decimal, token texts and ids as Python gives them (ASCII).
 */
export function explain(ex) {
  const f = ex.facts;
  const params = {};
  for (const [k, v] of Object.entries(f)) {
    if (typeof v === "number") params[k] = v;
    else if (k.startsWith("ratio_") && Number.isFinite(Number(v)))
      params[k] = num(Number(v), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    else params[k] = String(v);
  }
  for (const k of Object.keys(f)) {
    const base = k.endsWith("_tokens") ? k.slice(0, -"_tokens".length) : null;
    if (base && typeof f[`${base}_count`] === "number") params[k] = t("gallery.tokens", { n: f[`${base}_count`] });
  }
  // letters per token ("str 3, aw 2, berry 5"): rebuilt from the rows so the counts are in the locale's digits
  for (const k of Object.keys(f)) {
    const m = /^(\w+)_o200k_letters$/.exec(k);
    const row = m && ex.texts.find((x) => x.text.toLowerCase() === m[1])?.rows.find((r) => r.encoding === "o200k_base");
    if (row) params[k] = row.tokens.map((tk) => `${tk.text} ${num(tk.letters)}`).join(", ");
  }
  let text = t(`gallery.ex.${ex.id}.text`, params);
  if (ex.optional_shown) text += ` ${t(`gallery.ex.${ex.id}.optional`, params)}`;
  return text;
}

const title = (ex) => t(`gallery.ex.${ex.id}.title`);
const textLabel = (ex, k) => t(`gallery.ex.${ex.id}.label.${k}`);

/**
 * Mount the gallery into `el` (an empty element). `choose(example, textIndex)`
 * puts an example's text into Tokenize (with the side-by-side rows).
 * Returns {open(id, textIndex), current}.
 */
export function mountGallery(el, api, { choose }) {
  const list = h("div", { class: "gallery-list", dataset: { testid: "gallery-list" } });
  const panel = h("div", { class: "gallery-panel", dataset: { testid: "gallery-panel" }, hidden: true });
  const details = h(
    "details",
    { class: "gallery", dataset: { testid: "gallery" } },
    h("summary", { text: t("gallery.summary"), dataset: { i18n: "gallery.summary" } }),
    h("p", {
      class: "hint",
      text: t("gallery.hint"),
      dataset: { i18n: "gallery.hint" },
    }),
    list,
    panel,
  );
  el.replaceChildren(details);

  let data = null; // the examples, once loaded
  let current = null; // {id, textIndex}

  const load = loadOnOpen(details, list, {
    fetch: () => api.gallery(),
    draw: (d) => {
      data = d;
      list.replaceChildren(
        ...d.map((ex) =>
          h("button", {
            type: "button",
            class: "button small secondary",
            text: title(ex),
            dataset: { testid: "gallery-example", id: ex.id },
            on: { click: () => open(ex.id, 0) },
          }),
        ),
      );
    },
    computing: "gallery.computing",
    failed: "gallery.failed",
  });
  onLocaleChange(() => {
    if (!data) return;
    for (const b of list.children) {
      const ex = data.find((e) => e.id === b.dataset.id);
      if (ex) b.textContent = title(ex);
    }
    if (current) open(current.id, current.textIndex, { choose: false });
  });

  async function open(id, textIndex = 0, { choose: put = true } = {}) {
    details.open = true;
    const d = await load();
    const ex = d.find((e) => e.id === id);
    if (!ex) {
      panel.hidden = false;
      panel.replaceChildren(h("p", { class: "error", text: t("gallery.unknown", { id }) }));
      return;
    }
    const ti = Math.min(Math.max(0, textIndex | 0), ex.texts.length - 1);
    current = { id, textIndex: ti };
    for (const b of list.children) b.setAttribute("aria-pressed", String(b.dataset.id === id));
    const chosen = ex.texts[ti];
    const pieces = [
      h("h3", { text: title(ex) }),
      h("p", { class: "gallery-explanation", text: explain(ex), dataset: { testid: "gallery-explanation" } }),
    ];
    if (ex.texts.length > 1) {
      pieces.push(
        h(
          "div",
          { class: "gallery-texts", attrs: { role: "group", "aria-label": t("gallery.texts") } },
          ex.texts.map((x, k) =>
            h("button", {
              type: "button",
              class: "button small secondary",
              text: textLabel(ex, k),
              attrs: { "aria-pressed": String(k === ti) },
              dataset: { testid: "gallery-text" },
              on: { click: () => open(id, k) },
            }),
          ),
        ),
      );
    }
    if (id === "counting-letters") {
      // letters per token (computed in Python: bytepair.app.gallery.gallery_data)
      pieces.push(
        h(
          "ul",
          { class: "gallery-letters", dataset: { testid: "gallery-letters" } },
          chosen.rows.map((row) => {
            // in a right-to-left page the tokenizer's name and each quoted token are isolated (first
            // strong isolate ... pop), else the English runs join across the quotes and the list's
            // commas (a tester: Urdu read 'berry” 5“ اور، GPT-2 (gpt2): “st” 2')
            return h(
              "li",
              {},
              `${isolate(api.label(row.encoding))}: `,
              letterList(row.tokens.map((tk) => `“${isolate(tk.text)}” ${num(tk.letters)}`)),
            );
          }),
        ),
      );
    }
    const link = galleryLink(id, ti);
    const embed = iframeSnippet(galleryLink(id, ti, { embed: {} }), { title: `bytepair: ${title(ex)}`, height: 900 });
    pieces.push(
      h(
        "details",
        { class: "gallery-share" },
        h("summary", { text: t("gallery.share") }),
        h(
          "label",
          {},
          `${t("gallery.link")} `,
          h("input", {
            type: "text",
            class: "code-box",
            readOnly: true,
            value: link,
            attrs: { dir: "ltr" },
            dataset: { testid: "gallery-link" },
          }),
        ),
        h(
          "label",
          {},
          `${t("gallery.embed")} `,
          h("textarea", {
            class: "code-box",
            readOnly: true,
            rows: 3,
            value: embed,
            attrs: { dir: "ltr" },
            dataset: { testid: "gallery-embed" },
          }),
        ),
      ),
    );
    panel.replaceChildren(...pieces);
    panel.hidden = false;
    if (put) choose(ex, ti);
  }

  return {
    open,
    get current() {
      return current;
    },
    /** Forget the chosen example (the text was edited). */
    clear() {
      current = null;
    },
  };
}
