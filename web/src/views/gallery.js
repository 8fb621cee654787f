// The gallery of tokenizer oddities in Tokenize (issue 13): one-click examples
// whose explanations come from bytepair.gallery (every number computed by the
// page's Python from the real tokenizers, never typed in here).

import { h } from "../dom.js";
import { galleryLink, iframeSnippet } from "../links.js";
import { t } from "../i18n.js";

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

  let loading = null;
  let current = null; // {id, textIndex}

  function load() {
    if (!loading) {
      list.replaceChildren(h("p", { class: "hint", text: "Computing the examples…" }));
      loading = api.gallery().then(
        (d) => {
          list.replaceChildren(
            ...d.map((ex) =>
              h("button", {
                type: "button",
                class: "button small secondary",
                text: ex.title,
                dataset: { testid: "gallery-example", id: ex.id },
                on: { click: () => open(ex.id, 0) },
              }),
            ),
          );
          return d;
        },
        (err) => {
          loading = null;
          list.replaceChildren(h("p", { class: "error", text: `The gallery could not be computed: ${err.message}` }));
          throw err;
        },
      );
    }
    return loading;
  }
  details.addEventListener("toggle", () => {
    if (details.open) load().catch(() => {});
  });

  async function open(id, textIndex = 0) {
    details.open = true;
    const d = await load();
    const ex = d.find((e) => e.id === id);
    if (!ex) {
      panel.hidden = false;
      panel.replaceChildren(h("p", { class: "error", text: `There is no gallery example “${id}”; pick one above.` }));
      return;
    }
    const ti = Math.min(Math.max(0, textIndex | 0), ex.texts.length - 1);
    current = { id, textIndex: ti };
    for (const b of list.children) b.setAttribute("aria-pressed", String(b.dataset.id === id));
    const t = ex.texts[ti];
    const pieces = [
      h("h3", { text: ex.title }),
      h("p", { class: "gallery-explanation", text: ex.explanation, dataset: { testid: "gallery-explanation" } }),
    ];
    if (ex.texts.length > 1) {
      pieces.push(
        h(
          "div",
          { class: "gallery-texts", attrs: { role: "group", "aria-label": "Texts of this example" } },
          ex.texts.map((x, k) =>
            h("button", {
              type: "button",
              class: "button small secondary",
              text: x.label,
              attrs: { "aria-pressed": String(k === ti) },
              dataset: { testid: "gallery-text" },
              on: { click: () => open(id, k) },
            }),
          ),
        ),
      );
    }
    if (id === "counting-letters") {
      // letters per token (computed in Python: bytepair.gallery.gallery_data)
      pieces.push(
        h(
          "ul",
          { class: "gallery-letters", dataset: { testid: "gallery-letters" } },
          t.rows.map((row) =>
            h(
              "li",
              {},
              `${api.label(row.encoding)}: `,
              row.tokens.map((tk) => `“${tk.text}” ${tk.letters}`).join(" · "),
            ),
          ),
        ),
      );
    }
    const link = galleryLink(id, ti);
    const embed = iframeSnippet(galleryLink(id, ti, { embed: {} }), { title: `bytepair: ${ex.title}`, height: 900 });
    pieces.push(
      h(
        "details",
        { class: "gallery-share" },
        h("summary", { text: "Link and embed code for this example" }),
        h(
          "label",
          {},
          "Link ",
          h("input", { type: "text", readOnly: true, value: link, dataset: { testid: "gallery-link" } }),
        ),
        h(
          "label",
          {},
          "Embed ",
          h("textarea", { readOnly: true, rows: 3, value: embed, dataset: { testid: "gallery-embed" } }),
        ),
      ),
    );
    panel.replaceChildren(...pieces);
    panel.hidden = false;
    choose(ex, ti);
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
