// Train view: text in, Train/Stop, live merges (a windowed table: merges_table.js), progress,
// compression curve, saved tokenizers (train_saved.js), sample texts, replay of a run; the form,
// the last run and its table survive reloads.

import { $, h, showError, debounce } from "../dom.js";
import { visibleWhitespace } from "../format.js";
import { t, num, locale, onLocaleChange, errorText, pretokenizerLabel, sizeText } from "../i18n.js";
import { compressionChart, clearChart } from "../charts.js";
import { readTextFile } from "../files.js";
import * as storage from "../storage.js";
import { addText, restoreText } from "../links.js";
import { mountSamples } from "./train_samples.js";
import { mountSaved, nameText } from "./train_saved.js";
import { mountLargeText } from "../largetext.js";
import { windowedBody } from "./merges_table.js";

// during a run, the merges table is brought up to date at most this often (it is windowed: only the rows
// in view are drawn, merges_table.js; redrawing 300 rows 4 times a second used to keep the main thread
// busy 78% of a long run, timers a second late: issue 19, bench_browser train-long)
const LIVE_TABLE_MS = 250;
const SETTINGS_KEY = "train-settings"; // storage.saveText keys: the form's choices, the last run
const LAST_RUN_KEY = "train-last-run";
const REPLAY_SPEEDS = [1, 5, 20, 100, 500]; // merges per second

export const initialTrainState = {
  running: false,
  stopping: false,
  saving: false, // a stopped run's tokenizer is shown, and being written to browser storage
  startedAt: 0,
  endedAt: 0,
  target: 0,
  totalBytes: 0,
  merges: [], // every merge event of the current run, in order
  firstMergeMs: null,
  result: null, // {name, n_merges, stopped, ...}
  blocked: false, // the last Train press was refused (a message is shown beside the control)
  shownAtStop: null, // merges on screen when Stop was pressed (the saved tokenizer holds exactly those)
  opened: null, // name of a saved tokenizer whose merges are shown (no run)
  restored: false, // the merges are the last run's, read back after a reload
  replay: null, // {at, playing}: the table shows merges [0, at) of the run
};

/** Merge events as compact columns for storage, and back. */
const COLS = [
  "id",
  "left",
  "right",
  "leftText",
  "rightText",
  "tokenText",
  "count",
  "nTokens",
  "leftBytes",
  "rightBytes",
  "tokenBytes",
];
function toColumns(merges) {
  return Object.fromEntries(COLS.map((k) => [k, merges.map((m) => m[k])]));
}
function fromColumns(cols, extra = {}) {
  return (cols.id || []).map((_, i) => ({
    ...Object.fromEntries(COLS.map((k) => [k, cols[k]?.[i] ?? null])),
    ...extra,
  }));
}

/** Tokens whose label is longer than this (characters) are drawn shortened in the merges table. */
export const LONG_TOKEN_CHARS = 40;
/** How many characters of a long token the merges table shows. */
export const LONG_TOKEN_SHOWN = 24;

/**
 * A token in the merges table. Short ones are cut short by CSS with the whole text in the tooltip.
 * A long one (over LONG_TOKEN_CHARS characters, or over two lines: late in a run without a
 * pre-tokenizer every merge makes a chapter-long token, and drawing those whole put 88% of the
 * page's time into layout, issue 19) shows its first LONG_TOKEN_SHOWN characters and its length
 * on one line, "<first chars>… (1,234 bytes)"; a click (or Enter) on it shows it whole, and again
 * shortens it. nBytes: the token's length in bytes (Python's `*_bytes` columns; null for a run
 * saved before those existed: then its length in characters). whole: null, or a function giving
 * a Promise of the token's whole label (Python labels only a long token's start in the stream:
 * playground train.LABEL_BYTES), or null when it cannot yet (a run still going).
 */
/** A duration in the locale's words and digits ("350 ms", "2.5 s", "1 min 5 s"). */
function durationText(ms) {
  if (ms < 1000) return t("train.unit.ms", { n: Math.round(ms) });
  const sec = ms / 1000;
  if (sec < 60) return t("train.unit.s", { n: num(sec, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
  return t("train.unit.min", { m: Math.floor(sec / 60), s: Math.round(sec % 60) });
}

function tokenCell(text, nBytes = null, whole = null) {
  const shown = visibleWhitespace(text);
  const lines = shown.split("\n").length;
  if (shown.length <= LONG_TOKEN_CHARS && lines <= 2) return h("td", { class: "tok-cell" }, tokenCode(shown, shown));
  const size = nBytes != null ? t("train.token.bytes", { n: nBytes }) : t("train.token.chars", { n: [...text].length });
  const short = `${[...shown.slice(0, LONG_TOKEN_SHOWN * 2)].slice(0, LONG_TOKEN_SHOWN).join("").replace(/\n/g, "")}…`;
  const start = shown.length > 400 ? `${shown.slice(0, 400)}…` : shown;
  const code = tokenCode(short, t("train.token.title", { start, size }));
  const note = h("span", { class: "tok-len", text: ` (${size})` });
  const button = h(
    "button",
    { type: "button", class: "tok-long", dataset: { testid: "long-token" }, attrs: { "aria-expanded": "false" } },
    code,
    note,
  );
  let full = null; // the whole label, once asked for
  button.addEventListener("click", async () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    button.replaceChildren(open ? tokenCode(full ?? shown, size) : code, note);
    if (!open || full != null) return;
    try {
      const got = await whole?.();
      if (got == null) return;
      full = visibleWhitespace(got);
      button.dataset.whole = "true"; // (the whole label is here)
      if (button.getAttribute("aria-expanded") === "true") button.replaceChildren(tokenCode(full, size), note);
    } catch {
      // (the tokenizer is gone: its start stays shown)
    }
  });
  return h("td", { class: "tok-cell" }, button);
}

/** The <code> of a token's label (a leading combining mark drawn on its dotted circle). */
function tokenCode(shown, title) {
  // a leading combining mark comes on bytepair's dotted circle (token_to_label); circle and mark are
  // drawn in one font (.mark-base) so the mark sits on the circle, not over the next cell
  const base = shown.match(/^\u25cc\p{M}+/u)?.[0];
  const body = base ? [h("span", { class: "mark-base", text: base }), shown.slice(base.length)] : [shown];
  return h("code", { class: "tok", title }, ...body);
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
  const stopHint = $(root, '[data-testid="stop-hint"]');
  const fileInput = $(root, '[data-testid="train-file"]');
  const sizeHint = $(root, '[data-testid="train-text-size"]');
  const progressBar = $(root, '[data-testid="train-progress-bar"]');
  const progressText = $(root, '[data-testid="train-progress-text"]');
  const mergesBody = $(root, '[data-testid="merges-body"]');
  const mergesNote = $(root, '[data-testid="merges-note"]');
  const mergesEmpty = $(root, '[data-testid="merges-empty"]');
  const chartCanvas = $(root, '[data-testid="compression-chart"]');
  const chartEmpty = $(root, '[data-testid="compression-empty"]');

  // the pre-tokenizers and the vocab-size bounds come from Python (api.facts, py/bytepair/app/facts.py)
  function fillFacts() {
    const facts = api.facts;
    if (!facts || patternSelect.options.length) return;
    for (const p of facts.pretokenizers)
      patternSelect.append(h("option", { value: p.value, text: pretokenizerLabel(p) }));
    patternSelect.value = "cl100k_base";
    vocabInput.min = String(facts.vocab_size.min);
    vocabInput.max = String(facts.vocab_size.max);
  }
  api.withFacts(fillFacts);

  // --- the text survives reloads -------------------------------------------
  // (the storage message is the only one this clears: a Train error on the text stays until the text changes)
  const persist = debounce(
    async () => {
      const res = await storage.saveText("train", getText());
      const slot = $(root, '[data-error-for="text"]');
      if (!res.ok) showError(root, "text", t("train.storage"));
      else if (slot?.textContent === t("train.storage")) showError(root, "text", "");
    },
    400,
    { save: true },
  );
  const updateSize = () => {
    const text = getText();
    sizeHint.textContent = text ? sizeText(new TextEncoder().encode(text).length) : "";
  };

  // --- large texts stay out of the textarea (largetext.js: laying out MBs of text freezes the page) ----
  const big = mountLargeText(textArea, {
    testid: "train-big-text",
    what: "largetext.train",
    onSet: () => updateSize(),
    onEdit: () => {
      showError(root, "text", "");
      if (store.state.train.blocked) store.update("train", { blocked: false });
      persist();
    },
  });
  const getText = big.get;
  const setText = big.set;
  textArea.addEventListener("input", () => {
    showError(root, "text", "");
    if (store.state.train.blocked) store.update("train", { blocked: false });
    updateSize();
    persist();
  });
  storage.loadText("train", null).then((saved) => {
    if (saved != null && !getText()) setText(saved);
    updateSize();
  });

  patternSelect.addEventListener("change", () => {
    regexField.hidden = patternSelect.value !== "custom";
    showError(root, "regex", "");
    saveSettings();
  });
  regexInput.addEventListener("input", () => {
    showError(root, "regex", "");
    saveSettings();
  });
  vocabInput.addEventListener("input", () => {
    showError(root, "vocab", "");
    saveSettings();
  });
  nameInput.addEventListener("input", () => {
    showError(root, "name", "");
    hideConfirm();
    saveSettings();
  });

  // --- the form's choices survive reloads (vocab size, pre-tokenizer, regex, name) --------
  let settingsLoaded = false; // (nothing is saved before the saved choices are back)
  const saveSettings = debounce(
    () => {
      if (!settingsLoaded) return;
      storage.saveText(
        SETTINGS_KEY,
        JSON.stringify({ v: vocabInput.value, p: patternSelect.value, re: regexInput.value, name: nameInput.value }),
      );
    },
    300,
    { save: true },
  );
  const settingsBack = Promise.all([storage.loadText(SETTINGS_KEY, null), api.ready.catch(() => null)]).then(
    ([saved]) => {
      fillFacts();
      try {
        const o = saved ? JSON.parse(saved) : null;
        if (o && !linkApplied) {
          if (typeof o.v === "string") vocabInput.value = o.v;
          if (api.facts?.pretokenizers.some((p) => p.value === o.p)) patternSelect.value = o.p;
          if (typeof o.re === "string") regexInput.value = o.re;
          if (typeof o.name === "string") nameInput.value = o.name;
          regexField.hidden = patternSelect.value !== "custom";
        }
      } catch {
        // an unreadable record: keep the defaults
      }
      settingsLoaded = true;
    },
  );
  let linkApplied = false;

  // --- first visit: sample texts and where to start ------------------------------
  const samplesBox = $(root, '[data-testid="train-samples"]');
  if (samplesBox) {
    mountSamples(samplesBox, {
      onPick: (text, sample) => {
        setText(text);
        textArea.lang = sample.lang ?? ""; // a sample in another language than the page's is marked (issue 21)
        showError(root, "text", "");
        if (store.state.train.blocked) store.update("train", { blocked: false });
        updateSize();
        persist();
      },
      onError: (message) => showError(root, "text", message),
    });
  }

  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    const res = await readTextFile(file);
    if (res.error) {
      showError(root, "text", res.error);
      return;
    }
    setText(res.text);
    textArea.lang = ""; // a file's language is not known
    showError(root, "text", "");
    updateSize();
    persist();
  });

  // --- Train / Stop --------------------------------------------------------
  let frame = 0;
  let ticker = 0;
  const schedule = () => {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        render(store.state);
      });
  };

  async function start(event) {
    event?.preventDefault();
    if (store.state.train.running) return;
    const text = getText();
    const vocabSize = Number(vocabInput.value);
    let problem = false;
    for (const k of ["text", "vocab", "regex", "name", "train"]) showError(root, k, "");
    if (!text) {
      showError(root, "text", t("train.error.empty"));
      problem = true;
    }
    const bounds = api.facts?.vocab_size;
    if (bounds && !(Number.isInteger(vocabSize) && vocabSize >= bounds.min && vocabSize <= bounds.max)) {
      showError(root, "vocab", t("train.error.vocab", { min: bounds.min, max: bounds.max }));
      problem = true;
    }
    const nameIssue = api.nameIssue(nameInput.value);
    if (nameIssue && nameIssue.kind !== "exists") {
      showError(root, "name", nameText(nameIssue));
      problem = true;
    }
    let pattern = patternSelect.value;
    if (pattern === "custom") {
      pattern = regexInput.value;
      if (!pattern) {
        showError(root, "regex", t("train.error.regex"));
        problem = true;
      }
    }
    if (problem) {
      store.update("train", { blocked: true, result: null });
      return;
    }
    // re-training under a name in use: ask (replace it, or keep both) instead of piling up "my-bpe (2)…"
    const wanted = nameInput.value.trim() || "my-bpe";
    let replace = false;
    if (api.trainedTokenizers().some((t) => t.name === wanted)) {
      const choice = event?.submitter?.dataset?.choice ?? pendingChoice;
      pendingChoice = null;
      if (!choice) return askReplace(wanted);
      replace = choice === "replace";
    }
    hideConfirm();
    if (pattern !== patternSelect.value) {
      try {
        await api.checkPattern(pattern);
      } catch (err) {
        showError(root, err.field === "pattern" ? "regex" : "train", errorText(err));
        store.update("train", { blocked: true, result: null });
        return;
      }
    }
    stopReplay();
    const run = { ...initialTrainState, running: true, startedAt: performance.now(), merges: [] };
    shownHistory = [[run.startedAt, 0]];
    store.update("train", run);
    document.body.dataset.training = "running"; // at once (render waits for a frame): an old run's "done" is over
    clearChart(chartCanvas);
    ticker = setInterval(schedule, 200);
    const onMerge = (m) => {
      const s = store.state.train;
      if (s.stopping) return; // merges after Stop are not shown (nor kept)
      if (s.firstMergeMs == null) s.firstMergeMs = performance.now() - s.startedAt;
      s.merges.push(m);
      s.target = m.target;
      s.totalBytes = m.totalBytes;
      schedule();
    };
    // the run's end goes on screen as soon as the tokenizer is usable; a stopped run's is shown
    // before it is written to browser storage ("Saving as …" until it is: issue 11, Stop ≤ 100 ms)
    const end = (result) => {
      const s = store.state.train;
      if (result.stopped && s.merges.length > result.n_merges) s.merges.length = result.n_merges;
      const endedAt = s.running ? performance.now() : s.endedAt;
      clearInterval(ticker);
      store.update("train", { running: false, stopping: false, saving: result.saved === null, endedAt, result });
    };
    const onBuilt = end;
    try {
      const result = await api.train(text, { vocabSize, pattern, name: wanted, replace, onBuilt }, onMerge);
      end(result);
      // not kept (storage full or refused): the tokenizer works for this visit; Download keeps it
      if (result.saveError) showError(root, "train", t("train.save.failed", { detail: result.saveError.message }));
      setTimeout(saveLastRun, 0); // after the end of the run is on screen
    } catch (err) {
      store.update("train", {
        running: false,
        stopping: false,
        saving: false,
        endedAt: performance.now(),
        result: null,
      });
      const target =
        {
          pattern: patternSelect.value === "custom" ? "regex" : "train",
          vocab_size: "vocab",
          text: "text",
          name: "name",
        }[err.field] ?? "train";
      showError(root, target, errorText(err)); // (worded from its type: error.memory, ...)
    } finally {
      clearInterval(ticker);
      schedule();
    }
  }
  form.addEventListener("submit", start);
  // leaving the page mid-run would lose the run without a word (a tester reloaded at 10,500
  // merges): the browser asks first. Not in an embed: its host page's own links would ask.
  if (window.top === window)
    window.addEventListener("beforeunload", (event) => {
      if (store.state.train.running) event.preventDefault();
    });
  // Stop keeps the merges on screen when it was pressed: the press's own time (the input event's
  // timeStamp), not when the page got round to it; on a busy page (a slow phone, a CPU slowed 4x)
  // the click is handled hundreds of ms later, after frames that drew more merges (issue 19: "7,076
  // kept for 234 on screen")
  let pressedAt = null;
  const press = (event) => (pressedAt = event.timeStamp);
  stopButton.addEventListener("pointerdown", press);
  function stop(event) {
    const s = store.state.train;
    // (a mouse or touch click: its press; Enter or Space, or a press that was dragged away: the click)
    const held = pressedAt != null && event.detail > 0 ? event.timeStamp - pressedAt : -1;
    const pressed = held >= 0 && held < 2000 ? pressedAt : event.timeStamp;
    pressedAt = null;
    if (!s.running || s.stopping) return;
    // the tokenizer keeps exactly the merges on screen then; later ones are dropped
    const shown = shownAt(pressed);
    // too late (the run has just finished): nothing is cut, the result says "Done"
    if (!api.stop(shown)) return;
    if (s.merges.length > shown) s.merges.length = shown;
    store.update("train", { stopping: true, shownAtStop: shown });
  }
  stopButton.addEventListener("click", stop);

  // --- asking before a name in use is trained again ---------------------------------
  let pendingChoice = null;
  const confirmBox = h("div", {
    class: "confirm",
    dataset: { testid: "train-replace-confirm" },
    attrs: { role: "group" }, // its aria-label worded when it is shown (askReplace)
    hidden: true,
  });
  $(root, '[data-testid="train-progress"]').before(confirmBox);
  function hideConfirm() {
    confirmBox.hidden = true;
    confirmBox.replaceChildren();
  }
  function askReplace(name) {
    const choose = (choice) => () => {
      pendingChoice = choice;
      hideConfirm();
      start();
    };
    const replaceBtn = h("button", {
      type: "button",
      class: "button small danger",
      text: t("train.confirm.replace", { name }),
      dataset: { action: "train-replace" },
      on: { click: choose("replace") },
    });
    confirmBox.setAttribute("aria-label", t("train.confirm.label"));
    confirmBox.replaceChildren(
      h("p", {
        text: t("train.confirm", { name }),
      }),
      h(
        "div",
        { class: "saved-actions" },
        replaceBtn,
        h("button", {
          type: "button",
          class: "button small secondary",
          text: t("train.confirm.keep"),
          dataset: { action: "train-keep-both" },
          on: { click: choose("keep") },
        }),
        h("button", {
          type: "button",
          class: "button small secondary",
          text: t("train.cancel"),
          dataset: { action: "train-cancel" },
          on: {
            click: () => {
              hideConfirm();
              trainButton.focus();
            },
          },
        }),
      ),
    );
    confirmBox.hidden = false;
    replaceBtn.focus();
  }

  // --- the last run survives reloads (its merges table and curve) --------------------
  function saveLastRun() {
    const s = store.state.train;
    if (!s.merges.length || !s.result) return;
    const { json: _json, ...result } = s.result; // (the tokenizer itself is saved with the others)
    const record = {
      merges: toColumns(s.merges),
      result,
      target: s.target,
      totalBytes: s.totalBytes,
      elapsed: s.endedAt - s.startedAt,
    };
    storage.saveText(LAST_RUN_KEY, JSON.stringify(record));
  }
  storage.loadText(LAST_RUN_KEY, null).then((saved) => {
    if (!saved || store.state.train.startedAt) return;
    try {
      const r = JSON.parse(saved);
      const merges = fromColumns(r.merges, { totalBytes: r.totalBytes, target: r.target });
      const now = performance.now();
      store.update("train", {
        ...initialTrainState,
        merges,
        target: r.target,
        totalBytes: r.totalBytes,
        result: r.result,
        startedAt: now - (r.elapsed || 0),
        endedAt: now,
        restored: true,
      });
    } catch {
      // an unreadable record: start empty
    }
  });

  // --- replay a finished run merge by merge, and a saved tokenizer's merges ----------
  const replayBox = $(root, '[data-testid="replay-controls"]');
  const replayButton = h("button", {
    type: "button",
    class: "button small secondary",
    text: t("train.replay"),
    dataset: { action: "replay" },
    attrs: { "aria-pressed": "false" },
    disabled: true,
  });
  const replaySpeed = h(
    "select",
    { dataset: { testid: "replay-speed" }, attrs: { "aria-label": t("train.replay.speed") } },
    ...REPLAY_SPEEDS.map((n) =>
      h("option", { value: String(n), text: t("train.replay.rate", { n }), selected: n === 20 }),
    ),
  );
  const replaySpeedLabel = h("span", { text: t("steps.speed") });
  replayBox?.append(replayButton, h("label", { class: "inline" }, replaySpeedLabel, " ", replaySpeed));
  onLocaleChange(() => {
    replaySpeed.setAttribute("aria-label", t("train.replay.speed"));
    for (const o of replaySpeed.options) o.textContent = t("train.replay.rate", { n: Number(o.value) });
    replaySpeedLabel.textContent = t("steps.speed");
  });
  let replayTimer = 0;
  function stopReplay() {
    clearInterval(replayTimer);
    replayTimer = 0;
    if (store.state.train.replay) store.update("train", { replay: null });
  }
  function startReplay() {
    const s = store.state.train;
    if (s.running || !s.merges.length) return;
    store.update("train", { replay: { at: 0, playing: true } });
    tickReplay();
  }
  function tickReplay() {
    clearInterval(replayTimer);
    const speed = Number(replaySpeed.value);
    // at most 50 updates a second: fast speeds add several merges a tick
    const perTick = Math.max(1, Math.round(speed / 50));
    replayTimer = setInterval(
      () => {
        const s = store.state.train;
        if (!s.replay) return stopReplay();
        const at = Math.min(s.merges.length, s.replay.at + perTick);
        if (at >= s.merges.length) {
          clearInterval(replayTimer);
          replayTimer = 0;
          store.update("train", { replay: null });
        } else store.update("train", { replay: { at, playing: true } });
      },
      (1000 * perTick) / speed,
    );
  }
  replayButton.addEventListener("click", () => (store.state.train.replay ? stopReplay() : startReplay()));
  replaySpeed.addEventListener("change", () => {
    if (replayTimer) tickReplay();
  });

  async function openMerges(name) {
    if (store.state.train.running) return savedError(t("train.stopFirst"));
    stopReplay();
    try {
      const cols = await api.mergesTable(name);
      const merges = fromColumns({
        id: cols.id,
        left: cols.left,
        right: cols.right,
        leftText: cols.left_text,
        rightText: cols.right_text,
        tokenText: cols.token_text,
        leftBytes: cols.left_bytes,
        rightBytes: cols.right_bytes,
        tokenBytes: cols.token_bytes,
      });
      const now = performance.now();
      const meta = api.trainedTokenizers().find((t) => t.name === name)?.meta ?? {};
      store.update("train", {
        ...initialTrainState,
        merges,
        target: merges.length,
        startedAt: now,
        endedAt: now,
        opened: name,
        result: { name, n_merges: merges.length, opened: true, n_vocab: meta.n_vocab },
      });
      savedError("");
      $(root, '[data-testid="merges-table"]').scrollIntoView({ block: "nearest" });
    } catch (err) {
      savedError(errorText(err));
    }
  }

  // --- saved tokenizers (train_saved.js) -------------------------------------------
  const saved = mountSaved(root, api, { openMerges });
  const savedError = saved.error;
  // not cross-origin isolated: Stop is handled between merges only (say so next to the button)
  api.ready.then(
    (info) => (stopHint.hidden = !!info?.isolated),
    () => {},
  );

  // --- render ----------------------------------------------------------------
  let tableRows = 0; // rows the merges table holds (drawn or not: it is windowed)
  let renderedRun = null;
  let tableAt = 0; // when the merges table last changed (performance.now())
  // what the progress line and the merges table said, and from when: [[ms (performance.now()), merges]]
  // of the current run (Stop keeps the merges on screen at the press: shownAt)
  let shownHistory = [[0, 0]];
  /** The merges on screen at time `t` (ms, performance.now()'s clock: an event's timeStamp). */
  function shownAt(t) {
    let i = shownHistory.length - 1;
    while (i > 0 && shownHistory[i][0] > t) i -= 1;
    return shownHistory[i][1];
  }

  // late in a run every pair left may occur once (no pre-tokenizer: each merge then glues two long
  // stretches of this text together, tokens no other text has): say so, and offer to stop (issue 19)
  const onceNote = h(
    "p",
    { class: "hint", dataset: { testid: "train-pairs-once" }, hidden: true },
    h("span", { text: t("train.once.note"), dataset: { i18n: "train.once.note" } }),
    " ",
    h("button", {
      type: "button",
      class: "button small secondary",
      text: t("train.once.stop"),
      dataset: { action: "stop-once", i18n: "train.once.stop" },
      on: { pointerdown: press, click: stop },
    }),
  );
  $(root, '[data-testid="train-progress"]').after(onceNote);

  // a long token's whole label, from the run's tokenizer once it is built (null while a run is going)
  const wholeLabel = (id) => () => {
    const s = store.state.train;
    const name = s.opened ?? s.result?.name;
    return s.running || !name ? null : api.tokenLabel(name, id);
  };

  // one merges-table row: display position pos (0 = the newest shown merge)
  const mergeRow = (pos) => {
    const s = store.state.train;
    const upTo = s.replay ? s.replay.at : s.merges.length;
    const m = s.merges[Math.min(tableRows, upTo) - 1 - pos];
    return h(
      "tr",
      { dataset: { id: m.id, left: m.left, right: m.right, count: m.count } },
      h("td", { class: "num", text: String(m.id) }),
      tokenCell(m.leftText, m.leftBytes, wholeLabel(m.left)),
      tokenCell(m.rightText, m.rightBytes, wholeLabel(m.right)),
      tokenCell(m.tokenText, m.tokenBytes, wholeLabel(m.id)),
      h("td", { class: "num", text: m.count == null ? "–" : num(m.count) }),
    );
  };
  const mergesWrap = mergesBody.closest(".merges-wrap");
  const table = windowedBody({ scroller: mergesWrap, body: mergesBody, renderRow: mergeRow });

  function render(state) {
    const s = state.train;
    const ready = state.status.phase === "ready";
    trainButton.disabled = s.running || s.saving || !ready;
    // a keyboard user who pressed Stop keeps their place (a disabled button drops focus to the page,
    // a tester): Stop keeps the focus, aria-disabled, until Train can take it
    const stopOff = !s.running || s.stopping;
    const focused = document.activeElement === stopButton;
    if (focused && stopOff && !trainButton.disabled) trainButton.focus();
    const keepFocus = focused && stopOff && trainButton.disabled;
    stopButton.disabled = stopOff && !keepFocus;
    if (keepFocus) stopButton.setAttribute("aria-disabled", "true");
    else stopButton.removeAttribute("aria-disabled");
    trainButton.setAttribute("aria-busy", String(s.running));
    const phase = s.running ? "running" : s.result ? (s.result.stopped ? "stopped" : "done") : "idle";
    if (phase === "stopped" && document.body.dataset.training !== phase) performance.mark("bytepair:stop-shown");
    document.body.dataset.training = phase;
    document.body.dataset.trainSaving = String(!!s.saving); // (a stopped run shown before it is stored)

    // merges table (newest first, windowed; a replay shows the first s.replay.at)
    const upTo = s.replay ? s.replay.at : s.merges.length;
    // during a run the table follows at most every LIVE_TABLE_MS; the progress line follows every frame
    const now = performance.now();
    const tableDue = !(s.running && !s.replay) || now - tableAt >= LIVE_TABLE_MS || !tableRows;
    if (renderedRun !== s.startedAt || tableRows > upTo) {
      renderedRun = s.startedAt;
      tableRows = upTo;
      tableAt = now;
      mergesWrap.scrollTop = 0;
      table.set(upTo);
    } else if (upTo > tableRows && tableDue) {
      tableAt = now;
      const added = upTo - tableRows;
      tableRows = upTo;
      table.set(upTo, { keepPosition: added });
    }
    // during a run the note and the progress line count the merges the table lists (one number on
    // screen, kept by Stop), on screen once this frame is drawn (shownHistory: at the end of render)
    const listed = s.running && !s.replay ? tableRows : upTo;
    const newlyShown = s.running && !s.stopping && shownHistory[shownHistory.length - 1][1] !== listed;
    mergesEmpty.hidden = s.merges.length > 0;
    const of = s.opened ? "Of" : s.restored ? "Last" : "";
    mergesNote.textContent = s.replay
      ? t("train.note.replay", { at: upTo, n: s.merges.length })
      : listed
        ? t(`train.note.all${of}`, { n: listed, name: s.opened ?? "" })
        : "";
    replayButton.disabled = s.running || !s.merges.length;
    replayButton.textContent = s.replay ? t("train.replay.stop") : t("train.replay");
    replayButton.setAttribute("aria-pressed", String(!!s.replay));

    // progress
    // (by the newest merge the table lists, which "Stop here" keeps, not the newest received: ahead of the
    // table, that one made a note whose Stop kept a newest merge of count 2)
    onceNote.hidden = !(s.running && !s.stopping && s.merges[listed - 1]?.count === 1);
    const done = s.stopping ? s.shownAtStop : listed;
    const elapsed = (s.running ? performance.now() : s.endedAt) - s.startedAt;
    const ranOut = s.result && !s.result.stopped && !s.result.opened && s.result.n_merges < s.target;
    // (ended early, not out of pairs: the next token would not fit in the page's memory)
    const full = ranOut && s.result.limit?.type === "memory";
    progressBar.max = Math.max(1, (ranOut ? s.result.n_merges : s.target) || 1);
    progressBar.value = done;
    if (s.running && s.stopping) {
      progressText.textContent = t("train.progress.stopping", { n: done });
    } else if (s.running) {
      progressText.textContent = done
        ? t("train.progress.running", { done, n: s.target, time: durationText(elapsed) })
        : t("train.progress.counting", { time: durationText(elapsed) });
    } else if (s.blocked) {
      progressBar.value = 0;
      progressText.textContent = t("train.progress.blocked");
    } else if (s.result?.opened) {
      progressText.textContent = t("train.progress.opened", { n: s.result.n_merges, name: s.result.name });
    } else if (s.result) {
      const r = s.result;
      const parts = [
        full
          ? t("train.progress.full", { n: r.n_merges, target: s.target, time: durationText(elapsed) })
          : t(r.stopped ? "train.progress.stopped" : "train.progress.done", {
              n: r.n_merges,
              time: durationText(elapsed),
            }),
      ];
      const last = s.merges[s.merges.length - 1];
      const bpt = last ? last.totalBytes / last.nTokens : null;
      if (last)
        parts.push(
          t("train.progress.ratio", { bpt: num(bpt, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }),
        );
      if (!r.n_merges && !r.stopped) parts.push(t("train.progress.noPair"));
      else if (full)
        parts.push(
          t("train.progress.memory", { size: t("train.unit.MB", { n: Math.round(r.limit.limit / 2 ** 20) }) }),
        );
      else if (ranOut) parts.push(t("train.progress.ranOut", { n: r.n_merges, target: s.target }));
      parts.push(
        !r.n_merges
          ? t("train.progress.nothing")
          : s.saving
            ? t("train.progress.saving", { name: r.name })
            : r.visitOnly
              ? t("train.progress.visitOnly", { name: r.name })
              : t("train.progress.saved", { name: r.name }),
      );
      progressText.textContent = parts.join(" ");
    } else if (s.startedAt) {
      progressText.textContent = t("train.progress.failed", { time: durationText(elapsed) });
    } else {
      progressBar.value = 0;
      progressText.textContent = t("train.progress.idle"); // (a refused press's message is gone)
    }

    // compression chart, drawn from the finished run
    const hasCurve = !s.running && s.merges.length > 0 && s.merges[0].nTokens != null; // (saved files keep no curve)
    chartEmpty.hidden = hasCurve;
    if (hasCurve && chartCanvas.dataset.run !== String(s.startedAt)) {
      chartCanvas.dataset.run = String(s.startedAt);
      const points = [[256, 1], ...s.merges.map((m) => [m.id + 1, m.totalBytes / m.nTokens])];
      // drawn in a task of its own, after the run's end (Stop: "Stopped after …") is on screen
      setTimeout(() => {
        if (chartCanvas.dataset.run === String(s.startedAt))
          compressionChart(chartCanvas, points, {
            x: t("train.chart.x"),
            y: t("train.chart.y"),
            series: t("train.chart.y"),
            locale: locale(),
          });
      }, 0);
    }
    // the new count is on screen from the end of this frame's drawing, not its start: a press while a
    // slow frame (a phone, a CPU slowed 10x: tens of ms) was drawing it still saw the count before
    if (newlyShown) shownHistory.push([performance.now(), listed]);
  }

  // --- links: text, vocab size, pre-tokenizer (and regex), name ---------------
  function link() {
    const params = { v: vocabInput.value, p: patternSelect.value };
    if (patternSelect.value === "custom") params.re = regexInput.value;
    if (nameInput.value.trim() && nameInput.value.trim() !== "my-bpe") params.name = nameInput.value.trim();
    return { params, notes: [], omitted: addText(params, getText(), "training text") };
  }
  function applyLink(params) {
    fillFacts(); // (a link is applied once the worker is ready, maybe before withFacts ran here)
    linkApplied = true;
    const notes = [];
    restoreText(params, notes, (text) => {
      setText(text);
      persist();
    });
    if (params.v != null) {
      const { min, max } = api.facts.vocab_size;
      const v = Number(params.v);
      if (Number.isInteger(v) && v >= min && v <= max) vocabInput.value = params.v;
      else notes.push(t("train.link.vocab", { v: String(params.v), min, max }));
    }
    if (params.p) {
      if (api.facts.pretokenizers.some((p) => p.value === params.p)) patternSelect.value = params.p;
      else notes.push(t("train.link.pattern", { p: String(params.p) }));
    }
    if (params.re != null) regexInput.value = params.re;
    regexField.hidden = patternSelect.value !== "custom";
    if (params.name) nameInput.value = params.name;
    settingsBack.then(saveSettings);
    return notes;
  }

  store.subscribe(schedule);
  render(store.state);
  // another language: the view is worded again from the catalog (no Python call)
  const vocabHint = $(root, "#train-vocab-hint");
  const wordVocabHint = () => {
    const b = api.facts?.vocab_size;
    const plain = (n) => num(n, { useGrouping: false });
    // (the range is one parameter: isolated, it reads left to right in a right-to-left sentence too;
    // grouped as counts are, "257–100,000")
    // the range in a nowrap span: it never breaks at its dash ("(۲۵۷–" / "۱۰۰٬۰۰۰)")
    if (!b) return;
    const [before, after = ""] = t("train.vocab.hint", { base: plain(256), range: "\u0000" }).split("\u0000");
    const range = h("span", { class: "nowrap", text: `${num(b.min)}–${num(b.max)}` });
    vocabHint.replaceChildren(before, range, after);
  };
  api.withFacts(wordVocabHint);
  onLocaleChange(() => {
    wordVocabHint();
    for (const o of patternSelect.options) o.textContent = pretokenizerLabel({ value: o.value, label: o.textContent });
    updateSize();
    saved.render();
    table.redraw(); // the merges table's numbers again
    delete chartCanvas.dataset.run; // the chart's titles again
    render(store.state);
  });
  return { render, link, applyLink };
}
