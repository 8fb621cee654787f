// Downloads of a saved tokenizer (Train → Your tokenizers → Download): Hugging Face
// tokenizer.json, .tiktoken and bytepair JSON, each with its "load it in Python"
// snippet. The files and the snippets come from Python (bytepair.formats.hf_export through
// the worker's exportFiles); this module only lays them out.

import { h, download, deviceHint, smallButton } from "../dom.js";
import { t } from "../i18n.js";

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
  const copy = smallButton(t("train.copy"), {
    kind: "secondary one-line",
    action: "copy-snippet",
    label: t("train.copy.label", { name }),
    onClick: async () => {
      try {
        await navigator.clipboard.writeText(code);
        status.textContent = t("train.copied");
      } catch {
        const range = document.createRange();
        range.selectNodeContents(pre);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        status.replaceChildren(
          t("train.selected"),
          " ",
          ...deviceHint(t("train.selected.pointer"), t("train.selected.touch")),
        );
      }
    },
  });
  return h(
    "div",
    { class: "snippet-block" },
    h(
      "div",
      { class: "snippet-head" },
      h("span", { text: t("train.loadWith", { name: SNIPPET_LABELS[name] }) }),
      copy,
      status,
    ),
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
        ? h("p", {
            class: "hint",
            text: `${t("train.unavailable", { format: f.label })} ${files.problems[f.key] ?? ""}`,
          })
        : smallButton(t("train.download.file", { file: fileName }), {
            kind: "",
            action: `download-${f.file}`,
            label: t("train.download.as", { name, format: f.label }),
            onClick: () => download(fileName, data, f.type),
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
