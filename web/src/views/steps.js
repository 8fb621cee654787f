// Step-through view: BPE learned one merge at a time, as textbooks teach it.
//
// Two modes: "textbook" (Sennrich et al. 2016: words with counts, characters
// plus the end-of-word marker </w>, a visible tie rule) and "bytes" (byte-level
// BPE on the user's text with a pre-tokenizer). The worker keeps every step
// (bytepair.teach.steps.StepSession via web/src/py/playground/steps.py: steps_learn / steps_view /
// steps_encode; api.js stepsLearn / stepsView / stepsEncode); this view
// asks for one step at a time and draws it: the pair-count table, the corpus
// re-segmented with the merged spans, the vocabulary and the sequence length.
// Keys (when focus is not in a text field): ← previous, → next, space play/pause,
// Home/End first/last; in a right-to-left page the arrows swap (next lies to the left).

import { $, $$, h, showError, debounce } from "../dom.js";
import { renderOnFrames } from "../store.js";
import { t, num, onLocaleChange, errorText, pretokenizerLabel } from "../i18n.js";
import { addText, restoreText, choiceParam } from "../links.js";
import { isolateRuns, textDirection } from "../tokenlist.js";
import * as storage from "../storage.js";

const MAX_ROWS_DRAWN = 400; // words drawn in the corpus list (textbook with plain-text input)
let END_OF_WORD = null; // facts.end_of_word (bytepair.teach.textbook.END_OF_WORD), once the worker is ready
export const SPEEDS = [0.5, 1, 2, 4, 10]; // steps per second
const DEFAULTS = {
  counts: "low 5\nlower 2\nnewest 6\nwidest 3",
  text: "the lowest low, the newest new: low lower lowest, new newer newest, wide wider widest",
  bytes:
    "The cat sat on the mat. The cat ate the rat. That rat sat on the cat's hat!\n" +
    "A tokenizer learns which pieces of text often occur together. The most frequent pair of tokens " +
    "becomes a new token, then the next most frequent pair, and so on: low, lower, lowest; new, newer, newest; " +
    "wide, wider, widest. Frequent words end up as single tokens; rare words stay split into smaller pieces.",
  regex: " ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+",
};
/** The tie rules' hints (catalog keys, i18n.js). */
const TIE_HINTS = { first: "steps.tie.first.hint", lexicographic: "steps.tie.lexicographic.hint" };

export const initialStepsState = {
  mode: "textbook", // "textbook" | "bytes"
  input: "counts", // textbook input: "counts" (word count lines) | "text" (words are counted)
  tie: "first", // "first" | "lexicographic"
  nMerges: { textbook: 10, bytes: 50 },
  pattern: "gpt2",
  regex: DEFAULTS.regex,
  texts: { counts: DEFAULTS.counts, text: DEFAULTS.text, bytes: DEFAULTS.bytes },
  words: { textbook: "lowest", bytes: "The lowest rat" },
  learning: false,
  learned: null, // stepsLearn's summary {session, mode, n_steps, merges, ...} + the options used
  step: 0,
  shown: null, // stepsView's step (bytepair.teach.steps.StepView), the one drawn
  playing: false,
  speed: 1,
  encoded: null, // stepsEncode's result for the word
};

const textKey = (s) => (s.mode === "bytes" ? "bytes" : s.input);

/** Whitespace made visible on one line: · space, → tab, ↵ newline (chips never break lines). */
const chipText = (s) => s.replace(/ /g, "·").replace(/\t/g, "→").replace(/\r?\n/g, "↵").replace(/\r/g, "␍");

/** A symbol as chips show it: visible whitespace; "</w>" in a muted span. */
function symbolNode(symbol, mode) {
  if (mode === "bytes") return document.createTextNode(chipText(symbol));
  const frag = document.createDocumentFragment();
  if (END_OF_WORD && symbol.endsWith(END_OF_WORD)) {
    const head = symbol.slice(0, -END_OF_WORD.length);
    if (head) frag.append(head);
    // the marker is left-to-right code: "</w>" stays so next to Urdu letters ("ی</w>")
    frag.append(h("span", { class: "eow", text: END_OF_WORD, attrs: { dir: "ltr" } }));
  } else {
    frag.append(symbol);
  }
  return frag;
}

/** One symbol chip: its own text sets its direction ("t</w>" stays so in a right-to-left page). */
function symChip(symbol, mode, cls = "sym", dataset = {}) {
  return h("span", { class: cls, dataset, attrs: { dir: "auto" } }, symbolNode(symbol, mode));
}

function chips(symbols, merged, mode) {
  const hit = new Set(merged || []);
  return symbols.map((s, i) => symChip(s, mode, hit.has(i) ? "sym merged" : "sym", { sym: s }));
}

/**
 * `parts` (chips and separators) in one span that reads in the direction of `text` (the word's
 * own: "split" left to right, "بات" right to left, whatever the page's), runs of left-to-right
 * chips isolated as Tokenize's token list does (tokenlist.js isolateRuns). Returns the span.
 */
function symbolRow(parts, text, cls = "sym-row") {
  const row = h("span", { class: cls }, parts);
  row.dir = textDirection(text);
  isolateRuns(row, parts);
  return row;
}

function pairLabel(pair, mode) {
  return symbolRow(
    [
      symChip(pair[0], mode),
      h("span", { class: "plus", text: "+", attrs: { "aria-hidden": "true" } }),
      symChip(pair[1], mode),
    ],
    pair.join(""),
    "pair",
  );
}

/**
 * "pair → merged" as one isolate laid out in the page's direction (styles.css .formula: a Latin
 * word or digit next to it cannot turn it round); the arrow points from the pair to the new
 * symbol (CSS mirrors it in a right-to-left page).
 */
function formula(pair, merged, mode, mergedClass = "sym") {
  return h(
    "span",
    { class: "formula" },
    pairLabel(pair, mode),
    " ",
    h("span", { class: "arrow mirror-rtl", text: "→", attrs: { "aria-hidden": "true" } }),
    " ",
    symChip(merged, mode, mergedClass),
  );
}

export function mountSteps(root, store, api) {
  const setup = $(root, '[data-testid="steps-setup"]');
  const modeRadios = $$(root, 'input[name="steps-mode"]');
  const inputRadios = $$(root, 'input[name="steps-input"]');
  const textArea = $(root, '[data-testid="steps-text"]');
  const textLabel = $(root, '[data-testid="steps-text-label"]');
  const tieSelect = $(root, '[data-testid="steps-tie"]');
  const tieHint = $(root, '[data-testid="steps-tie-hint"]');
  const patternSelect = $(root, '[data-testid="steps-pattern"]');
  const regexField = $(root, '[data-testid="steps-regex-field"]');
  const regexInput = $(root, '[data-testid="steps-regex"]');
  const mergesInput = $(root, '[data-testid="steps-merges"]');
  const summary = $(root, '[data-testid="steps-summary"]');
  const position = $(root, '[data-testid="steps-position"]');
  const buttons = Object.fromEntries($$(root, "[data-step-action]").map((b) => [b.dataset.stepAction, b]));
  const speedSelect = $(root, '[data-testid="steps-speed"]');
  const jumpForm = $(root, '[data-testid="steps-jump-form"]');
  const jumpInput = $(root, '[data-testid="steps-jump"]');
  const mergeLine = $(root, '[data-testid="steps-merge"]');
  const lengthOut = $(root, '[data-testid="steps-length"]');
  const lengthHint = $(root, '[data-testid="steps-length-hint"]');
  const vocabCount = $(root, '[data-testid="steps-vocab-size"]');
  const pairsCount = $(root, '[data-testid="steps-pairs-count"]');
  const pairsBody = $(root, '[data-testid="steps-pairs-body"]');
  const pairsNote = $(root, '[data-testid="steps-pairs-note"]');
  const corpus = $(root, '[data-testid="steps-corpus"]');
  const corpusNote = $(root, '[data-testid="steps-corpus-note"]');
  const corpusHead = $(root, '[data-testid="steps-corpus-head"]');
  const vocabOut = $(root, '[data-testid="steps-vocab"]');
  const encodeForm = $(root, '[data-testid="steps-encode-form"]');
  const wordInput = $(root, '[data-testid="steps-word"]');
  const wordLabel = $(root, '[data-testid="steps-word-label"]');
  const encodeList = $(root, '[data-testid="steps-encode-list"]');
  const encodeResult = $(root, '[data-testid="steps-encode-result"]');
  const set = (patch) => store.update("steps", patch);
  const S = () => store.state.steps;

  // the lists and limits come from Python (api.facts, py/bytepair/app/facts.py) once the worker is ready
  const maxMerges = () => api.facts?.steps.max_merges ?? Infinity;
  const mergesHint = $(root, "#steps-merges-hint");
  /** "1–500" in the locale's digits, left to right in a right-to-left page too (U+2066 … U+2069 isolate). */
  const wordMergesHint = () => {
    if (api.facts) mergesHint.textContent = `\u2066${num(1)}–${num(maxMerges(), { useGrouping: false })}\u2069`;
  };
  api.withFacts((facts) => {
    END_OF_WORD = facts.end_of_word;
    for (const p of facts.pretokenizers)
      patternSelect.append(h("option", { value: p.value, text: pretokenizerLabel(p) }));
    patternSelect.value = S().pattern;
    mergesInput.max = String(facts.steps.max_merges);
    wordMergesHint();
  });
  const speedText = (v) => (v < 1 ? t("steps.speed.slow", { s: 1 / v }) : t("steps.speed.rate", { n: v }));
  for (const v of SPEEDS) speedSelect.append(h("option", { value: String(v), text: speedText(v) }));

  // --- the form reflects the state (on mount and after a link is applied) ----
  function fillForm() {
    const s = S();
    for (const r of modeRadios) r.checked = r.value === s.mode;
    for (const r of inputRadios) r.checked = r.value === s.input;
    textArea.value = s.texts[textKey(s)];
    tieSelect.value = s.tie;
    patternSelect.value = s.pattern;
    regexInput.value = s.regex;
    mergesInput.value = String(s.nMerges[s.mode]);
    wordInput.value = s.words[s.mode];
    speedSelect.value = String(s.speed);
    showMode();
  }
  function showMode() {
    const s = S();
    for (const el of $$(root, "[data-mode-only]")) el.hidden = el.dataset.modeOnly !== s.mode;
    regexField.hidden = s.mode !== "bytes" || s.pattern !== "custom";
    textLabel.textContent = t(
      s.mode === "bytes" ? "steps.text.bytes" : s.input === "counts" ? "steps.text.counts" : "steps.text.text",
    );
    textArea.placeholder =
      s.mode === "bytes"
        ? t("steps.placeholder.bytes")
        : s.input === "counts"
          ? "low 5\nlower 2"
          : t("steps.placeholder.text");
    tieHint.textContent = t(TIE_HINTS[s.tie]);
    wordLabel.textContent = t(s.mode === "bytes" ? "steps.word.bytes" : "steps.word");
    root.dataset.mode = s.mode;
  }

  // --- learning ----------------------------------------------------------------
  let learnSeq = 0;
  let pendingStep = null; // a step from a link, applied once the merges are learned
  function options() {
    const s = S();
    const pattern = s.pattern === "custom" ? s.regex : s.pattern;
    return {
      mode: s.mode,
      text: s.texts[textKey(s)],
      input: s.input,
      tie: s.tie,
      pattern,
      n_merges: s.nMerges[s.mode],
    };
  }
  function mergesProblem(value) {
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 && n <= maxMerges() ? "" : t("steps.error.merges", { max: maxMerges() });
  }

  async function learn() {
    const mine = ++learnSeq;
    const opts = options();
    for (const k of ["steps-text", "steps-merges", "steps-regex", "steps-jump"]) showError(root, k, "");
    const problem = mergesProblem(mergesInput.value);
    if (problem) return showError(root, "steps-merges", problem);
    if (opts.mode === "bytes" && S().pattern === "custom" && !opts.pattern)
      return showError(root, "steps-regex", t("train.error.regex"));
    pause();
    set({ learning: true });
    try {
      await api.ready;
      const learned = await api.stepsLearn(opts);
      if (mine !== learnSeq) return;
      const step = Math.min(pendingStep ?? Math.min(S().step, learned.n_steps), learned.n_steps);
      pendingStep = null;
      set({ learning: false, learned: { ...learned, options: opts }, step, shown: null, encoded: null });
      await fetchStep();
      encode();
    } catch (err) {
      if (mine !== learnSeq) return;
      set({ learning: false });
      const key =
        err.field === "pattern"
          ? S().pattern === "custom"
            ? "steps-regex"
            : "steps-text"
          : err.field === "n_merges"
            ? "steps-merges"
            : "steps-text";
      showError(root, key, readableMessage(err));
    }
  }
  const relearn = debounce(learn, 350);

  /** A message for the page: never a JavaScript parser's or an internal error's raw text. */
  function readableMessage(err) {
    if (err?.name === "SyntaxError" || err?.detail?.type === "internal") {
      console.warn("[steps]", err);
      return t("steps.error.internal");
    }
    return errorText(err);
  }

  // --- the step-through's inputs survive a reload (texts, mode, options) ----------------
  const SAVE_KEYS = ["mode", "input", "tie", "nMerges", "pattern", "regex", "texts", "words", "speed"];
  let stepsLinked = false;
  const saveSteps = debounce(
    () => {
      const s = S();
      storage.saveText("steps", JSON.stringify(Object.fromEntries(SAVE_KEYS.map((k) => [k, s[k]]))));
    },
    400,
    { save: true },
  );
  const restored = storage.loadText("steps", null).then((saved) => {
    if (!saved || stepsLinked) return;
    try {
      const o = JSON.parse(saved);
      const d = initialStepsState;
      const same = (k) => o[k] != null && typeof o[k] === typeof d[k];
      const patch = Object.fromEntries(
        SAVE_KEYS.filter(same).map((k) => [k, typeof d[k] === "object" ? { ...d[k], ...o[k] } : o[k]]),
      );
      set(patch);
      fillForm();
    } catch {
      // an unreadable record: the defaults stay
    }
  });

  // --- stepping ------------------------------------------------------------------
  // A restarted worker (a crash, or Stop of a busy training run) has lost the
  // steps: learn them again, keeping the step.
  const lostSession = (err) => err.field === "session";
  let fetchSeq = 0;
  async function fetchStep() {
    const s = S();
    if (!s.learned) return;
    const mine = ++fetchSeq;
    try {
      const shown = await api.stepsView(s.learned.session, s.step);
      if (mine !== fetchSeq || shown.session !== S().learned?.session) return;
      set({ shown });
    } catch (err) {
      if (mine !== fetchSeq) return;
      if (lostSession(err)) return learn();
      showError(root, "steps-text", errorText(err));
    }
  }
  function goTo(i) {
    const s = S();
    if (!s.learned) return;
    const step = Math.max(0, Math.min(s.learned.n_steps, i));
    if (step === s.step && s.shown?.index === step) return;
    set({ step });
    fetchStep();
  }
  const next = () => goTo(S().step + 1);
  const prev = () => goTo(S().step - 1);

  let timer = 0;
  function play() {
    const s = S();
    if (!s.learned || !s.learned.n_steps) return;
    if (s.step >= s.learned.n_steps) goTo(0); // from the start again
    set({ playing: true });
    schedulePlay();
  }
  function schedulePlay() {
    clearInterval(timer);
    timer = setInterval(() => {
      const s = S();
      if (!s.playing || !s.learned) return pause();
      if (s.step >= s.learned.n_steps) return pause();
      next();
      if (S().step >= s.learned.n_steps) pause();
    }, 1000 / S().speed);
  }
  function pause() {
    clearInterval(timer);
    timer = 0;
    if (S().playing) set({ playing: false });
  }
  const togglePlay = () => (S().playing ? pause() : play());

  buttons.first.addEventListener("click", () => goTo(0));
  buttons.prev.addEventListener("click", prev);
  buttons.play.addEventListener("click", togglePlay);
  buttons.next.addEventListener("click", next);
  buttons.last.addEventListener("click", () => goTo(S().learned?.n_steps ?? 0));
  speedSelect.addEventListener("change", () => {
    set({ speed: Number(speedSelect.value) });
    if (S().playing) schedulePlay();
  });
  jumpForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(jumpInput.value);
    const max = S().learned?.n_steps ?? 0;
    if (!Number.isInteger(n) || n < 0 || n > max) {
      showError(root, "steps-jump", t("steps.error.jump", { max }));
      return;
    }
    showError(root, "steps-jump", "");
    pause();
    goTo(n);
  });
  jumpInput.addEventListener("input", () => showError(root, "steps-jump", ""));

  document.addEventListener("keydown", (e) => {
    if (store.state.view !== "steps" || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target.closest?.("input, textarea, select, [contenteditable], [role='tab'], dialog")) return;
    const isButton = !!target.closest?.("button, summary, a");
    // the arrow that points at the Next button moves on: ArrowLeft in a right-to-left page
    const rtl = root.matches(":dir(rtl)");
    if (e.key === (rtl ? "ArrowLeft" : "ArrowRight")) next();
    else if (e.key === (rtl ? "ArrowRight" : "ArrowLeft")) prev();
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(S().learned?.n_steps ?? 0);
    else if (e.key === " " && !isButton) togglePlay();
    else return;
    e.preventDefault();
  });

  // --- inputs -------------------------------------------------------------------
  for (const r of modeRadios) {
    r.addEventListener("change", () => {
      set({ mode: r.value, step: 0 });
      fillForm();
      learn();
    });
  }
  for (const r of inputRadios) {
    r.addEventListener("change", () => {
      set({ input: r.value, step: 0 });
      textArea.value = S().texts[textKey(S())];
      showMode();
      learn();
    });
  }
  textArea.addEventListener("input", () => {
    set({ texts: { ...S().texts, [textKey(S())]: textArea.value } });
    relearn();
  });
  tieSelect.addEventListener("change", () => {
    set({ tie: tieSelect.value });
    showMode();
    learn();
  });
  patternSelect.addEventListener("change", () => {
    set({ pattern: patternSelect.value });
    showMode();
    learn();
  });
  regexInput.addEventListener("input", () => {
    set({ regex: regexInput.value });
    relearn();
  });
  mergesInput.addEventListener("input", () => {
    if (mergesProblem(mergesInput.value)) return showError(root, "steps-merges", mergesProblem(mergesInput.value));
    set({ nMerges: { ...S().nMerges, [S().mode]: Number(mergesInput.value) } });
    relearn();
  });

  // --- encode a new word ------------------------------------------------------------
  let encodeSeq = 0;
  async function encode() {
    const s = S();
    const mine = ++encodeSeq;
    showError(root, "steps-word", "");
    if (!s.learned) return;
    try {
      const word = s.learned.mode === "textbook" ? wordInput.value.trim() : wordInput.value;
      const result = await api.stepsEncode(s.learned.session, word);
      if (mine !== encodeSeq) return;
      set({ encoded: { ...result, word: wordInput.value, session: s.learned.session } });
    } catch (err) {
      if (mine !== encodeSeq) return;
      if (lostSession(err)) return learn();
      set({ encoded: null });
      showError(root, "steps-word", errorText(err));
    }
  }
  encodeForm.addEventListener("submit", (e) => {
    e.preventDefault();
    encode();
  });
  const encodeSoon = debounce(encode, 300);
  wordInput.addEventListener("input", () => {
    set({ words: { ...S().words, [S().mode]: wordInput.value } });
    encodeSoon();
  });

  // --- links ----------------------------------------------------------------------
  /** The view's state as link parameters: {params, notes, omitted} (omitted: addText's note). */
  function link() {
    const s = S();
    const params = { mode: s.mode };
    if (s.mode === "textbook") {
      params.in = s.input;
      params.tie = s.tie;
    } else {
      params.p = s.pattern;
      if (s.pattern === "custom") params.re = s.regex;
    }
    params.n = s.nMerges[s.mode];
    const omitted = addText(params, s.texts[textKey(s)]);
    params.s = s.step;
    // (the default word is left out: an embed snippet then shows the view's own example)
    if (s.words[s.mode] && s.words[s.mode] !== initialStepsState.words[s.mode]) params.w = s.words[s.mode];
    return { params, notes: [], omitted };
  }

  /** Restore a link's parameters; returns notes about what could not be restored. */
  function applyLink(params) {
    stepsLinked = true;
    const notes = [];
    const s = S();
    const patch = {};
    const mode =
      params.mode === "bytes" ? "bytes" : params.mode === "textbook" || params.mode == null ? "textbook" : null;
    if (!mode) notes.push(t("steps.link.mode", { mode: String(params.mode) }));
    patch.mode = mode || "textbook";
    const input = choiceParam(params, "in", ["counts", "text"], notes);
    if (input) patch.input = input;
    const tie = choiceParam(params, "tie", ["first", "lexicographic"], notes);
    if (tie) patch.tie = tie;
    if (params.p) {
      if (api.facts.pretokenizers.some((p) => p.value === params.p)) patch.pattern = params.p;
      else notes.push(t("steps.link.pattern", { p: String(params.p) }));
    }
    if (params.re) patch.regex = params.re;
    if (params.n != null) {
      const n = Number(params.n);
      if (Number.isInteger(n) && n >= 1 && n <= maxMerges()) patch.nMerges = { ...s.nMerges, [patch.mode]: n };
      else notes.push(t("steps.link.merges", { n: String(params.n), max: maxMerges() }));
    }
    const key = patch.mode === "bytes" ? "bytes" : patch.input || s.input;
    let linked = null;
    restoreText(params, notes, (text) => {
      linked = text;
    });
    // a damaged link text: the default text, as its note says (not what this page had typed)
    if (params.t != null) patch.texts = { ...s.texts, [key]: linked ?? initialStepsState.texts[key] };
    if (params.w != null) patch.words = { ...s.words, [patch.mode]: params.w };
    const step = params.s == null ? 0 : Number(params.s);
    if (!(Number.isInteger(step) && step >= 0)) notes.push(t("steps.link.step", { s: String(params.s) }));
    pendingStep = Number.isInteger(step) && step >= 0 ? step : 0;
    patch.step = pendingStep;
    pause();
    set(patch);
    fillForm();
    if (ready) learn();
    return notes;
  }

  // --- render ----------------------------------------------------------------------
  let drawn = { shown: null, encoded: null };

  function renderPlayer(s) {
    const learned = s.learned;
    const n = learned?.n_steps ?? 0;
    const v = s.shown;
    const current = v && learned && v.session === learned.session;
    position.textContent = learned
      ? t("steps.position", { step: s.step, n })
      : s.learning
        ? t("steps.learning")
        : t("steps.position.none");
    buttons.first.disabled = buttons.prev.disabled = !learned || s.step <= 0;
    buttons.next.disabled = buttons.last.disabled = !learned || s.step >= n;
    buttons.play.disabled = !learned || n === 0;
    buttons.play.setAttribute("aria-pressed", String(s.playing));
    buttons.play.querySelector(".label").textContent = t(s.playing ? "steps.pause" : "steps.play");
    buttons.play.querySelector(".icon").textContent = s.playing ? "❚❚" : "▶";
    jumpInput.max = String(n);
    root.dataset.step = String(s.step);
    root.dataset.shown = current ? `${v.session}:${v.index}` : "";
    root.dataset.learned = learned ? `${learned.session}:${n}` : "";
    root.setAttribute("aria-busy", String(s.learning));
    if (learned) {
      const o = learned.options;
      const what =
        o.mode === "bytes"
          ? t("steps.summary.bytes", { n: learned.n_rows, bytes: learned.n_bytes })
          : t("steps.summary.words", { n: learned.n_rows });
      summary.textContent = t(n < learned.requested ? "steps.summary.fewer" : "steps.summary", { n, what });
    } else {
      summary.textContent = s.learning ? t("steps.learning") : "";
    }
    if (!current || drawn.shown === v) return;
    drawn.shown = v;
    drawStep(v, learned);
  }

  function drawStep(v, learned) {
    const mode = v.mode;
    // the merge of this step, in words
    if (!v.merge) {
      mergeLine.replaceChildren(
        mode === "bytes"
          ? t("steps.start.bytes", { n: v.n_rows, possible: 256 })
          : t("steps.start.textbook", { marker: END_OF_WORD }),
      );
    } else {
      const m = v.merge;
      const rule = learned.options.mode === "bytes" || learned.options.tie === "first" ? "first" : "lexicographic";
      const tie = m.n_ties ? ` ${t(`steps.merge.tie.${rule}`, { n: m.n_ties })}` : "";
      mergeLine.replaceChildren(
        h("strong", { text: t("steps.merge.head", { n: m.index + 1 }), attrs: { dir: "auto" } }),
        " ",
        formula(m.pair, m.merged, mode, "sym merged"),
        // (the id stays in ASCII digits: ids are what a user copies)
        mode === "bytes" ? ` ${t("steps.merge.id", { id: String(m.id) })}` : "",
        `${t("steps.merge.count", { n: m.count })}${tie}`,
      );
    }
    mergeLine.dataset.pair = v.merge ? JSON.stringify(v.merge.pair) : "";
    mergeLine.dataset.count = v.merge ? String(v.merge.count) : "";
    mergeLine.dataset.ids = v.merge?.ids ? v.merge.ids.join(",") : "";

    // sequence length, vocabulary, pairs
    lengthOut.textContent = num(v.n_symbols);
    lengthHint.textContent = t(mode === "bytes" ? "steps.length.tokens" : "steps.length.symbols", {
      n: v.n_symbols_start,
    });
    vocabCount.textContent = num(v.n_vocab);
    pairsCount.textContent = v.merge ? num(v.n_pairs) : "–";

    // the table of pair counts this merge was chosen from
    pairsBody.replaceChildren(
      ...v.pair_counts.map((r, i) =>
        h(
          "tr",
          {
            class: i === 0 ? "chosen" : r.tie ? "tie" : "",
            dataset: {
              left: r.pair[0],
              right: r.pair[1],
              ...(r.ids ? { ids: r.ids.join(",") } : {}),
              count: r.count,
              chosen: i === 0 ? "true" : "false",
              tie: r.tie ? "true" : "false",
            },
          },
          h("td", {}, pairLabel(r.pair, mode)),
          h("td", { class: "num", text: num(r.count) }),
          h(
            "td",
            {},
            i === 0
              ? h("span", { class: "badge chosen-badge", text: t("steps.badge.merged") })
              : r.tie
                ? h("span", { class: "badge tie-badge", text: t("steps.badge.tie") })
                : "",
          ),
        ),
      ),
    );
    pairsBody.closest(".table-wrap").hidden = !v.pair_counts.length;
    pairsNote.textContent = !v.merge
      ? t("steps.pairs.none", { step: 1 })
      : v.n_pairs > v.pair_counts.length
        ? t("steps.pairs.top", { shown: v.pair_counts.length, n: v.n_pairs })
        : t("steps.pairs.all", { n: v.n_pairs });

    // the corpus after the merge
    if (mode === "bytes") {
      corpusHead.textContent = t(v.merge ? "steps.corpus.text.after" : "steps.corpus.text.start");
      corpus.className = "corpus pieces";
      // pieces flow as text; a piece that ends a line is followed by a line break
      corpus.replaceChildren(
        ...v.rows.flatMap((r, i) => {
          const piece = h(
            "span",
            { class: r.merged.length ? "piece changed" : "piece", dataset: { piece: i } },
            symbolRow(chips(r.symbols, r.merged, mode), r.symbols.join("")),
          );
          return r.symbols.join("").includes("\n") ? [piece, h("br")] : [piece];
        }),
      );
      corpusNote.textContent =
        v.n_rows > v.rows.length
          ? t("steps.corpus.pieces.first", { shown: v.rows.length, n: v.n_rows })
          : t("steps.corpus.pieces.note");
    } else {
      corpusHead.textContent = t(v.merge ? "steps.corpus.words.after" : "steps.corpus.words.start");
      corpus.className = "corpus words";
      const rows = v.rows.slice(0, MAX_ROWS_DRAWN);
      corpus.replaceChildren(
        h(
          "table",
          { class: "words-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col", text: t("steps.col.word") }),
              h("th", { scope: "col", class: "num", text: t("steps.col.count") }),
              h("th", { scope: "col", text: t("steps.col.symbols") }),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((r, i) =>
              h(
                "tr",
                { class: r.merged.length ? "changed" : "", dataset: { word: r.label, index: i } },
                h("th", { scope: "row", text: r.label }),
                h("td", { class: "num", text: num(r.count) }),
                h(
                  "td",
                  { class: "syms", dataset: { symbols: r.symbols.join(" ") } },
                  symbolRow(chips(r.symbols, r.merged, mode), r.symbols.join("")),
                ),
              ),
            ),
          ),
        ),
      );
      corpusNote.textContent =
        v.n_rows > rows.length
          ? t("steps.corpus.words.first", { shown: rows.length, n: v.n_rows })
          : t("steps.corpus.words.note");
    }

    // the vocabulary so far
    const newest = v.merge ? v.merge.merged : null;
    const items = [];
    if (mode === "bytes") items.push(h("span", { class: "sym base", text: t("steps.vocab.bytes", { n: 256 }) }));
    v.vocab.forEach((sym, i) => {
      const base = mode !== "bytes" && i < v.n_base;
      const isNew = !base && sym === newest && i === v.vocab.length - 1;
      items.push(
        h(
          "span",
          {
            class: `sym ${base ? "base" : "learned"}${isNew ? " newest" : ""}`,
            dataset: { sym },
            attrs: { dir: "auto" },
          },
          symbolNode(sym, mode),
        ),
      );
    });
    vocabOut.replaceChildren(...items);
  }

  function renderEncoded(s) {
    const e = s.encoded;
    if (drawn.encoded === e) return;
    drawn.encoded = e;
    if (!e) {
      encodeList.replaceChildren();
      encodeResult.textContent = "";
      return;
    }
    const mode = s.learned?.mode ?? s.mode;
    const items = [
      h(
        "li",
        { class: "start", dataset: { rule: "start" } },
        h("span", { class: "rule", text: t("steps.encode.start") }),
        symbolRow(chips(e.start, [], mode), e.start.join(""), "syms"),
      ),
    ];
    for (const f of e.fired) {
      items.push(
        h(
          "li",
          { dataset: { mergeIndex: f.index, symbols: f.symbols.join(" ") } },
          h(
            "span",
            { class: "rule" },
            `${t("steps.encode.rule", { n: f.index + 1 })} `,
            formula(f.pair, f.merged, mode),
          ),
          symbolRow(chips(f.symbols, f.positions, mode), f.symbols.join(""), "syms"),
        ),
      );
    }
    encodeList.replaceChildren(...items);
    const final = e.fired.length ? e.fired[e.fired.length - 1].symbols : e.start;
    encodeResult.dataset.symbols = final.join(" ");
    const fired = t(mode === "bytes" ? "steps.encode.result.tokens" : "steps.encode.result.symbols", {
      fired: e.fired.length,
      n: e.n_rules,
      end: final.length,
    });
    encodeResult.textContent = e.fired.length ? fired : `${fired} ${t("steps.encode.none")}`;
  }

  function render(state) {
    const s = state.steps;
    renderPlayer(s);
    renderEncoded(s);
  }

  let ready = false;
  api.ready
    .then(() => restored)
    .then(
      () => {
        ready = true;
        if (!S().learned) learn();
      },
      () => {},
    );

  fillForm();
  let savedSteps = null;
  renderOnFrames(store, render);
  store.subscribe((state) => {
    if (state.view !== "steps" && S().playing) pause();
    if (savedSteps !== null && SAVE_KEYS.some((k) => state.steps[k] !== savedSteps[k])) saveSteps();
    savedSteps = state.steps;
  });
  render(store.state);
  // another language: the view is worded again from the catalog (the step shown is kept, no Python call)
  onLocaleChange(() => {
    for (const o of speedSelect.options) o.textContent = speedText(Number(o.value));
    wordMergesHint();
    for (const o of patternSelect.options) o.textContent = pretokenizerLabel({ value: o.value, label: o.textContent });
    showMode();
    drawn = { shown: null, encoded: null };
    render(store.state);
  });
  return { render, link, applyLink, setupDetails: setup };
}
