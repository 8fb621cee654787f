// Train's saved tokenizers: the list (merges, downloads with load-it-in-Python snippets, rename,
// delete) and importing a tokenizer.json; split out of views/train.js.

import { $, h, showError, smallButton } from "../dom.js";
import { t, errorText, pretokenizerLabel, sizeText } from "../i18n.js";
import { readTextFile } from "../files.js";
import { exportPanel } from "./train_export.js";

/** A tokenizer name's problem (api.nameIssue: {kind, name, max}) in the reader's language. */
export const nameText = (issue) => t(`train.name.${issue.kind}`, { name: issue.name, max: issue.max });

/**
 * Mount the saved-tokenizers panel inside Train's `root` (its list, empty note, import input and
 * error line). openMerges(name): show a saved tokenizer's merges in Train's table. Returns
 * {render() (the list again: another language), error(message) (the panel's error line; "" clears it)}.
 */
export function mountSaved(root, api, { openMerges }) {
  const savedList = $(root, '[data-testid="saved-list"]');
  const savedEmpty = $(root, '[data-testid="saved-empty"]');
  const importInput = $(root, '[data-testid="import-file"]');
  const savedError = (msg) => showError(root, "saved", msg);

  function savedItem({ name, meta }) {
    const label = h("strong", { class: "saved-name", text: name });
    const info = [];
    if (meta?.n_merges != null) info.push(t("train.saved.merges", { n: meta.n_merges }));
    if (meta?.n_vocab != null) info.push(t("train.saved.vocab", { n: meta.n_vocab }));
    if (meta?.pattern) {
      const p = api.facts?.pretokenizers.find((p) => p.value === meta.pattern);
      info.push(t("train.saved.pattern", { name: p ? pretokenizerLabel(p) : t("train.saved.customRegex") }));
    }
    if (meta?.bytes) info.push(t("train.saved.size", { size: sizeText(meta.bytes) }));
    const li = h("li", { dataset: { tokenizer: name, testid: "saved-item" } });
    const startRename = () => {
      const input = h("input", {
        type: "text",
        value: name,
        maxLength: 60,
        attrs: { "aria-label": t("train.rename.label", { name }), "data-testid": "rename-input", dir: "auto" },
      });
      const save = async () => {
        const issue = api.nameIssue(input.value, { except: name });
        if (issue) {
          savedError(nameText(issue));
          input.focus();
          return;
        }
        try {
          await api.renameTokenizer(name, input.value);
          savedError("");
        } catch (err) {
          savedError(errorText(err));
          input.focus();
        }
      };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          save();
        }
        if (e.key === "Escape") renderSaved();
      });
      li.replaceChildren(
        input,
        h(
          "div",
          { class: "saved-actions" },
          smallButton(t("train.rename.save"), { kind: "", action: "rename-save", onClick: save }),
          smallButton(t("train.cancel"), { onClick: () => renderSaved() }),
        ),
      );
      input.focus();
      input.select();
    };
    li.append(
      h("div", {}, label, h("div", { class: "hint", text: info.join(" · ") })),
      h(
        "div",
        { class: "saved-actions" },
        smallButton(t("train.merges"), {
          action: "open-merges",
          label: t("train.saved.open", { name }),
          onClick: () => openMerges(name),
        }),
        smallButton(t("train.download"), {
          action: "downloads",
          label: t("train.download.label", { name }),
          attrs: { "aria-expanded": "false" },
          onClick: (e) => toggleDownloads(li, name, e.currentTarget),
        }),
        smallButton(t("train.rename"), {
          action: "rename",
          label: t("train.rename.named", { name }),
          onClick: startRename,
        }),
        smallButton(t("train.delete"), {
          kind: "danger",
          action: "delete",
          label: t("train.delete.named", { name }),
          onClick: () => confirmDelete(li, name),
        }),
      ),
    );
    return li;
  }

  /** The download panel (files and load-it-in-Python snippets from Python) under a saved item. */
  async function toggleDownloads(li, name, button) {
    const open = li.querySelector('[data-testid="export-panel"]');
    if (open) {
      open.remove();
      button.setAttribute("aria-expanded", "false");
      return;
    }
    button.disabled = true;
    try {
      const files = await api.exportFiles(name);
      li.append(exportPanel(name, files));
      button.setAttribute("aria-expanded", "true");
      savedError("");
    } catch (err) {
      savedError(errorText(err));
    } finally {
      button.disabled = false;
    }
  }

  /** Deleting asks first, in place: "Delete “name”? [Yes, delete] [Cancel]". */
  function confirmDelete(li, name) {
    const cancel = smallButton(t("train.cancel"), {
      action: "delete-cancel",
      onClick: () => {
        renderSaved();
        savedList
          .querySelector(`[data-action="delete"][aria-label="${CSS.escape(t("train.delete.named", { name }))}"]`)
          ?.focus();
      },
    });
    const yes = smallButton(t("train.delete.yes"), {
      kind: "danger",
      action: "delete-confirm",
      label: t("train.delete.yesNamed", { name }),
      onClick: async () => {
        try {
          await api.deleteTokenizer(name);
          savedError("");
        } catch (err) {
          savedError(errorText(err));
          renderSaved();
        }
      },
    });
    li.replaceChildren(
      h(
        "div",
        {},
        h("strong", { class: "saved-name", text: t("train.delete.ask", { name }) }),
        h("div", { class: "hint", text: t("train.delete.hint") }),
      ),
      h("div", { class: "saved-actions" }, yes, cancel),
    );
    li.addEventListener("keydown", (e) => {
      if (e.key === "Escape") cancel.click();
    });
    cancel.focus();
  }

  function renderSaved() {
    const items = api.trainedTokenizers();
    savedList.replaceChildren(...items.map(savedItem));
    savedEmpty.hidden = items.length > 0;
  }
  api.onTokenizersChanged(renderSaved);
  api.ready.then(renderSaved, () => {});

  importInput.addEventListener("change", async () => {
    const file = importInput.files[0];
    importInput.value = "";
    if (!file) return;
    const res = await readTextFile(file, { maxBytes: 50 * 1024 * 1024 });
    if (res.error) return savedError(res.error);
    const base = file.name.replace(/\.json$/i, "");
    let name = base;
    for (let i = 2; api.nameProblem(name); i += 1) name = `${base} (${i})`;
    try {
      await api.importTokenizer(name, res.text);
      savedError("");
    } catch (err) {
      savedError(`${file.name}: ${errorText(err)}`);
    }
  });

  return { render: renderSaved, error: savedError };
}
