// Train view: text in, Train/Stop, live merges, progress, compression curve,
// saved tokenizers (rename, delete, download).

import { $, h, showError, download, debounce } from "../dom.js";
import { int, fixed, duration, bytesLabel, visibleWhitespace, plural } from "../format.js";
import { compressionChart, clearChart } from "../charts.js";
import { readTextFile } from "../files.js";
import * as storage from "../storage.js";
import { addText, restoreText } from "../links.js";

const MAX_ROWS = 300; // merges rows kept in the table (newest first)

export const initialTrainState = {
  running: false,
  stopping: false,
  startedAt: 0,
  endedAt: 0,
  target: 0,
  totalBytes: 0,
  merges: [], // every merge event of the current run, in order
  firstMergeMs: null,
  result: null, // {name, n_merges, stopped, ...}
  blocked: false, // the last Train press was refused (a message is shown beside the control)
};

/** A token in the merges table; long ones are cut short (CSS) with the whole text in the tooltip. */
function tokenCell(text) {
  const shown = visibleWhitespace(text);
  return h("td", { class: "tok-cell" }, h("code", { class: "tok", text: shown, title: shown }));
}

export function mountTrain(root, store, api) {
  const form = $(root, '[data-testid="train-form"]');
  const textArea = $(root, '[data-testid="train-text"]');
  const vocabInput = $(root, '[data-testid="train-vocab"]');
  const patternSelect = $(root, '[data-testid="train-pattern"]');
  const regexField = $(root, '[data-testid="train-regex-field"]');
  const regexInput = $(root, '[data-testid="train-regex"]');
  const nameInput = $(root, '[data-testid="train-name"]');
  const trainButton = $(root, '[data-action="train"]');
  const stopButton = $(root, '[data-action="stop"]');
  const fileInput = $(root, '[data-testid="train-file"]');
  const sizeHint = $(root, '[data-testid="train-text-size"]');
  const progressBar = $(root, '[data-testid="train-progress-bar"]');
  const progressText = $(root, '[data-testid="train-progress-text"]');
  const mergesBody = $(root, '[data-testid="merges-body"]');
  const mergesNote = $(root, '[data-testid="merges-note"]');
  const mergesEmpty = $(root, '[data-testid="merges-empty"]');
  const chartCanvas = $(root, '[data-testid="compression-chart"]');
  const chartEmpty = $(root, '[data-testid="compression-empty"]');
  const savedList = $(root, '[data-testid="saved-list"]');
  const savedEmpty = $(root, '[data-testid="saved-empty"]');
  const importInput = $(root, '[data-testid="import-file"]');

  // the pre-tokenizers and the vocab-size bounds come from Python (api.facts, py/bytepair/facts.py)
  function fillFacts() {
    const facts = api.facts;
    if (!facts || patternSelect.options.length) return;
    for (const p of facts.pretokenizers) patternSelect.append(h("option", { value: p.value, text: p.label }));
    patternSelect.value = "cl100k_base";
    vocabInput.min = String(facts.vocab_size.min);
    vocabInput.max = String(facts.vocab_size.max);
  }
  api.withFacts(fillFacts);

  // --- the text survives reloads -------------------------------------------
  const persist = debounce(async () => {
    const res = await storage.saveText("train", textArea.value);
    showError(root, "text", res.ok ? "" : "This text is too large to keep across reloads (it stays in the page).");
  }, 400);
  const updateSize = () => {
    sizeHint.textContent = textArea.value ? bytesLabel(new TextEncoder().encode(textArea.value).length) : "";
  };
  textArea.addEventListener("input", () => {
    showError(root, "text", "");
    updateSize();
    persist();
  });
  storage.loadText("train", null).then((saved) => {
    if (saved != null && !textArea.value) textArea.value = saved;
    updateSize();
  });

  patternSelect.addEventListener("change", () => {
    regexField.hidden = patternSelect.value !== "custom";
    showError(root, "regex", "");
  });
  regexInput.addEventListener("input", () => showError(root, "regex", ""));
  vocabInput.addEventListener("input", () => showError(root, "vocab", ""));
  nameInput.addEventListener("input", () => showError(root, "name", ""));

  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    const res = await readTextFile(file);
    if (res.error) {
      showError(root, "text", res.error);
      return;
    }
    textArea.value = res.text;
    showError(root, "text", "");
    updateSize();
    persist();
  });

  // --- Train / Stop --------------------------------------------------------
  let frame = 0;
  let ticker = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(store.state); });
  };

  async function start(event) {
    event?.preventDefault();
    if (store.state.train.running) return;
    const text = textArea.value;
    const vocabSize = Number(vocabInput.value);
    let problem = false;
    for (const k of ["text", "vocab", "regex", "name", "train"]) showError(root, k, "");
    if (!text) {
      showError(root, "text", "The training text is empty: paste some text or open a .txt file.");
      problem = true;
    }
    const bounds = api.facts?.vocab_size;
    if (bounds && !(Number.isInteger(vocabSize) && vocabSize >= bounds.min && vocabSize <= bounds.max)) {
      showError(root, "vocab", `Enter a whole number from ${bounds.min} to ${bounds.max}.`);
      problem = true;
    }
    const nameIssue = api.nameProblem(nameInput.value);
    if (nameIssue && !nameIssue.startsWith("A tokenizer named")) {
      showError(root, "name", nameIssue);
      problem = true;
    }
    let pattern = patternSelect.value;
    if (pattern === "custom") {
      pattern = regexInput.value;
      if (!pattern) {
        showError(root, "regex", "Enter a regex, or pick another pre-tokenizer.");
        problem = true;
      }
    }
    if (problem) {
      store.update("train", { blocked: true, result: null });
      return;
    }
    if (pattern !== patternSelect.value) {
      try {
        await api.checkPattern(pattern);
      } catch (err) {
        showError(root, err.field === "pattern" ? "regex" : "train", err.message);
        store.update("train", { blocked: true, result: null });
        return;
      }
    }
    const run = { ...initialTrainState, running: true, startedAt: performance.now(), merges: [] };
    store.update("train", run);
    clearChart(chartCanvas);
    ticker = setInterval(schedule, 200);
    const onMerge = (m) => {
      const s = store.state.train;
      if (s.firstMergeMs == null) s.firstMergeMs = performance.now() - s.startedAt;
      s.merges.push(m);
      s.target = m.target;
      s.totalBytes = m.totalBytes;
      schedule();
    };
    try {
      const result = await api.train(text, { vocabSize, pattern, name: nameInput.value.trim() || "my-bpe" }, onMerge);
      store.update("train", { running: false, stopping: false, endedAt: performance.now(), result });
      if (result.saveError) showError(root, "train", result.saveError);
    } catch (err) {
      store.update("train", { running: false, stopping: false, endedAt: performance.now(), result: null });
      const target = { pattern: patternSelect.value === "custom" ? "regex" : "train", vocab_size: "vocab", text: "text", name: "name" }[err.field] ?? "train";
      showError(root, target, err.message);
    } finally {
      clearInterval(ticker);
      schedule();
    }
  }
  form.addEventListener("submit", start);
  stopButton.addEventListener("click", () => {
    store.update("train", { stopping: true });
    api.stop();
  });

  // --- saved tokenizers ----------------------------------------------------
  const savedError = (msg) => showError(root, "saved", msg);

  function savedItem({ name, meta }) {
    const label = h("strong", { class: "saved-name", text: name });
    const info = [];
    if (meta?.n_merges != null) info.push(plural(meta.n_merges, "merge"));
    if (meta?.n_vocab != null) info.push(`vocab ${int(meta.n_vocab)}`);
    if (meta?.pattern) info.push(`pre-tokenizer ${api.facts?.pretokenizers.find((p) => p.value === meta.pattern)?.label ?? "custom regex"}`);
    if (meta?.bytes) info.push(`trained on ${bytesLabel(meta.bytes)}`);
    const li = h("li", { dataset: { tokenizer: name, testid: "saved-item" } });
    const startRename = () => {
      const input = h("input", { type: "text", value: name, maxLength: 60, attrs: { "aria-label": `New name for ${name}`, "data-testid": "rename-input" } });
      const save = async () => {
        try {
          await api.renameTokenizer(name, input.value);
          savedError("");
        } catch (err) {
          savedError(err.message);
          input.focus();
        }
      };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") { e.preventDefault(); save(); }
        if (e.key === "Escape") renderSaved();
      });
      li.replaceChildren(
        input,
        h("div", { class: "saved-actions" },
          h("button", { type: "button", class: "button small", text: "Save name", dataset: { action: "rename-save" }, on: { click: save } }),
          h("button", { type: "button", class: "button small secondary", text: "Cancel", on: { click: () => renderSaved() } })),
      );
      input.focus();
      input.select();
    };
    li.append(
      h("div", {}, label, h("div", { class: "hint", text: info.join(" · ") })),
      h("div", { class: "saved-actions" },
        h("button", { type: "button", class: "button small secondary", text: "Rename", dataset: { action: "rename" }, attrs: { "aria-label": `Rename ${name}` }, on: { click: startRename } }),
        h("button", { type: "button", class: "button small secondary", text: "JSON", dataset: { action: "download-json" }, attrs: { "aria-label": `Download ${name} as JSON` }, on: { click: () => download(`${name}.json`, api.tokenizerJson(name), "application/json") } }),
        h("button", { type: "button", class: "button small secondary", text: ".tiktoken", dataset: { action: "download-tiktoken" }, attrs: { "aria-label": `Download ${name} as a .tiktoken file` }, on: { click: async () => {
          try { download(`${name}.tiktoken`, await api.tiktokenFile(name), "text/plain"); savedError(""); } catch (err) { savedError(err.message); }
        } } }),
        h("button", { type: "button", class: "button small danger", text: "Delete", dataset: { action: "delete" }, attrs: { "aria-label": `Delete ${name}` }, on: { click: () => confirmDelete(li, name) } })),
    );
    return li;
  }

  /** Deleting asks first, in place: "Delete “name”? [Yes, delete] [Cancel]". */
  function confirmDelete(li, name) {
    const cancel = h("button", { type: "button", class: "button small secondary", text: "Cancel", dataset: { action: "delete-cancel" }, on: { click: () => {
      renderSaved();
      savedList.querySelector(`[data-action="delete"][aria-label="Delete ${CSS.escape(name)}"]`)?.focus();
    } } });
    const yes = h("button", { type: "button", class: "button small danger", text: "Yes, delete", dataset: { action: "delete-confirm" }, attrs: { "aria-label": `Yes, delete ${name}` }, on: { click: async () => {
      try { await api.deleteTokenizer(name); savedError(""); } catch (err) { savedError(err.message); renderSaved(); }
    } } });
    li.replaceChildren(
      h("div", {}, h("strong", { class: "saved-name", text: `Delete “${name}”?` }), h("div", { class: "hint", text: "It is removed from this browser; download it first to keep a copy." })),
      h("div", { class: "saved-actions" }, yes, cancel),
    );
    li.addEventListener("keydown", (e) => { if (e.key === "Escape") cancel.click(); });
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
      savedError(`${file.name}: ${err.message}`);
    }
  });

  // --- render ----------------------------------------------------------------
  let renderedMerges = 0;
  let renderedRun = null;

  function render(state) {
    const s = state.train;
    const ready = state.status.phase === "ready";
    trainButton.disabled = s.running || !ready;
    stopButton.disabled = !s.running || s.stopping;
    trainButton.setAttribute("aria-busy", String(s.running));
    document.body.dataset.training = s.running ? "running" : s.result ? (s.result.stopped ? "stopped" : "done") : "idle";

    // merges table (newest first, incremental)
    if (renderedRun !== s.startedAt || renderedMerges > s.merges.length) {
      mergesBody.replaceChildren();
      renderedMerges = 0;
      renderedRun = s.startedAt;
    }
    if (s.merges.length > renderedMerges) {
      const start = Math.max(renderedMerges, s.merges.length - MAX_ROWS);
      const rows = [];
      for (let i = s.merges.length - 1; i >= start; i -= 1) {
        const m = s.merges[i];
        rows.push(h("tr", { dataset: { id: m.id, left: m.left, right: m.right, count: m.count } },
          h("td", { class: "num", text: String(m.id) }),
          tokenCell(m.leftText), tokenCell(m.rightText), tokenCell(m.tokenText),
          h("td", { class: "num", text: int(m.count) })));
      }
      mergesBody.prepend(...rows);
      while (mergesBody.rows.length > MAX_ROWS) mergesBody.lastElementChild.remove();
      renderedMerges = s.merges.length;
    }
    mergesEmpty.hidden = s.merges.length > 0;
    mergesNote.textContent = s.merges.length > MAX_ROWS ? `(latest ${MAX_ROWS} of ${int(s.merges.length)})` : s.merges.length ? `(${int(s.merges.length)})` : "";

    // progress
    const done = s.merges.length;
    const elapsed = (s.running ? performance.now() : s.endedAt) - s.startedAt;
    progressBar.max = Math.max(1, s.target || 1);
    progressBar.value = done;
    if (s.running) {
      progressText.textContent = done
        ? `${int(done)} / ${plural(s.target, "merge")} · ${duration(elapsed)}${s.stopping ? " · stopping…" : ""}`
        : `Counting pairs… ${duration(elapsed)}${s.stopping ? " · stopping…" : ""}`;
    } else if (s.blocked) {
      progressBar.value = 0;
      progressText.textContent = "Not started: see the message above.";
    } else if (s.result) {
      const r = s.result;
      const how = r.stopped ? "Stopped after" : "Done:";
      const saved = r.n_merges ? ` Saved as “${r.name}”.` : " Nothing to save.";
      const last = s.merges[s.merges.length - 1];
      const ratio = last ? ` ${fixed(last.totalBytes / last.nTokens)} bytes per token.` : "";
      const why = !r.n_merges && !r.stopped
        ? " There was no adjacent pair to merge: the pre-tokenizer left no piece with 2 or more bytes (a custom regex may match nothing, or only single characters, in this text)."
        : "";
      progressText.textContent = `${how} ${plural(r.n_merges, "merge")} in ${duration(elapsed)}.${ratio}${why}${saved}`;
    } else if (s.startedAt) {
      progressText.textContent = `Failed after ${duration(elapsed)}.`;
    }

    // compression chart, drawn from the finished run
    const hasCurve = !s.running && s.merges.length > 0;
    chartEmpty.hidden = hasCurve;
    if (hasCurve && chartCanvas.dataset.run !== String(s.startedAt)) {
      chartCanvas.dataset.run = String(s.startedAt);
      const points = [[256, 1], ...s.merges.map((m) => [m.id + 1, m.totalBytes / m.nTokens])];
      compressionChart(chartCanvas, points);
    }
  }

  // --- links: text, vocab size, pre-tokenizer (and regex), name ---------------
  function link() {
    const params = { v: vocabInput.value, p: patternSelect.value };
    if (patternSelect.value === "custom") params.re = regexInput.value;
    if (nameInput.value.trim() && nameInput.value.trim() !== "my-bpe") params.name = nameInput.value.trim();
    const note = addText(params, textArea.value, "training text");
    return { params, notes: note ? [note] : [] };
  }
  function applyLink(params) {
    fillFacts(); // (a link is applied once the worker is ready, maybe before withFacts ran here)
    const notes = [];
    restoreText(params, notes, (text) => {
      textArea.value = text;
      updateSize();
      persist();
    });
    if (params.v != null) vocabInput.value = params.v;
    if (params.p) {
      if (api.facts.pretokenizers.some((p) => p.value === params.p)) patternSelect.value = params.p;
      else notes.push(`Unknown pre-tokenizer “${params.p}”; pick one from the list.`);
    }
    if (params.re != null) regexInput.value = params.re;
    regexField.hidden = patternSelect.value !== "custom";
    if (params.name) nameInput.value = params.name;
    return notes;
  }

  store.subscribe(schedule);
  render(store.state);
  return { render, link, applyLink };
}
