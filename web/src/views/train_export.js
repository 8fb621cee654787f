// Downloads of a saved tokenizer (Train → Your tokenizers → Download): Hugging Face
// tokenizer.json, .tiktoken and bytepair JSON, each with its "load it in Python"
// snippet. The files and the snippets come from Python (bytepair.hf_export through
// the worker's exportFiles); this module only lays them out.

import { h, download, deviceHint } from "../dom.js";

const FORMATS = [
  {
    key: "tokenizer_json",
    file: "hf",
    label: "tokenizer.json (Hugging Face)",
    snippets: ["tokenizers", "transformers"],
    type: "application/json",
  },
  { key: "tiktoken", file: "tiktoken", label: ".tiktoken (tiktoken)", snippets: ["tiktoken"], type: "text/plain" },
  { key: "bytepair_json", file: "bytepair", label: "bytepair JSON", snippets: ["bytepair"], type: "application/json" },
];
const SNIPPET_LABELS = {
  tokenizers: "tokenizers",
  transformers: "transformers",
  tiktoken: "tiktoken",
  bytepair: "bytepair",
};

/** A snippet with a Copy button (clipboard where allowed, else the text is selected). */
function snippetBlock(name, code) {
  const pre = h("pre", { class: "snippet", tabIndex: 0, dataset: { snippet: name } }, h("code", { text: code }));
  const status = h("span", { class: "hint", attrs: { "aria-live": "polite" } });
  const copy = h("button", {
    type: "button",
    class: "button small secondary",
    text: "Copy",
    dataset: { action: "copy-snippet" },
    attrs: { "aria-label": `Copy the ${name} snippet` },
    on: {
      click: async () => {
        try {
          await navigator.clipboard.writeText(code);
          status.textContent = "Copied.";
        } catch {
          const range = document.createRange();
          range.selectNodeContents(pre);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          status.replaceChildren(
            "Selected: ",
            ...deviceHint("press Ctrl+C (⌘C) to copy.", "touch and hold it to copy."),
          );
        }
      },
    },
  });
  return h(
    "div",
    { class: "snippet-block" },
    h("div", { class: "snippet-head" }, h("span", { text: `Load it with ${SNIPPET_LABELS[name]}` }), copy, status),
    pre,
  );
}

/**
 * The download panel of tokenizer `name`: files = api.exportFiles(name)'s result
 * {tokenizer_json, tiktoken, bytepair_json, snippets, file_names, problems}.
 */
export function exportPanel(name, files) {
  const parts = FORMATS.map((f) => {
    const data = files[f.key];
    const fileName = files.file_names[f.file];
    const head =
      data == null
        ? h("p", { class: "hint", text: `${f.label}: not available. ${files.problems[f.key] ?? ""}` })
        : h("button", {
            type: "button",
            class: "button small",
            text: `Download ${fileName}`,
            dataset: { action: `download-${f.file}` },
            attrs: { "aria-label": `Download ${name} as ${f.label}` },
            on: { click: () => download(fileName, data, f.type) },
          });
    return h(
      "section",
      { class: "export-format", dataset: { format: f.file } },
      h("h3", { text: f.label }),
      head,
      ...(data == null ? [] : f.snippets.map((k) => snippetBlock(k, files.snippets[k]))),
    );
  });
  return h("div", { class: "export-panel", dataset: { testid: "export-panel", tokenizer: name } }, ...parts);
}
