// The page: one store, the API (window.bytepair), the status line, tabs, views.

import { createStore } from "./store.js";
import { createApi } from "./api.js";
import { $, $$ } from "./dom.js";
import { mountTrain, initialTrainState } from "./views/train.js";
import { mountTokenize, initialTokenizeState } from "./views/tokenize.js";
import { mountCompare, initialCompareState } from "./views/compare.js";

const VIEWS = ["train", "tokenize", "compare"];
const viewFromHash = () => {
  const v = location.hash.replace(/^#/, "").split(/[?&]/)[0];
  return VIEWS.includes(v) ? v : "train";
};

const store = createStore({
  status: { phase: "loading", fraction: 0, message: "Loading…" },
  view: viewFromHash(),
  train: initialTrainState,
  tokenize: initialTokenizeState,
  compare: initialCompareState,
});

const api = createApi({ onStatus: (status) => store.set({ status }) });
window.bytepair = api;

// --- status line -------------------------------------------------------------
const statusText = $(document, '[data-testid="status-text"]');
const statusBar = $(document, '[data-testid="status-progress"]');
const version = $(document, '[data-testid="version"]');
function renderStatus({ status }) {
  statusText.textContent = status.phase === "error" ? `Error: ${status.message}` : status.message;
  statusBar.value = status.fraction ?? 0;
  statusBar.hidden = status.phase === "ready" || status.phase === "error";
  document.body.dataset.pyodide = status.phase;
  if (status.info?.version) version.textContent = `bytepair ${status.info.version}.`;
}

// --- tabs (arrow keys move between them, as in the ARIA tabs pattern) --------
const tabs = $$(document, '[role="tab"]');
function renderTabs({ view }) {
  for (const tab of tabs) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
  }
  document.body.dataset.view = view;
}
function show(view, focus = false) {
  if (view === store.state.view) return;
  history.replaceState(null, "", `#${view}`);
  store.set({ view });
  if (focus) tabs.find((t) => t.dataset.view === view)?.focus();
}
for (const tab of tabs) {
  tab.addEventListener("click", () => show(tab.dataset.view));
  tab.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(tabs[(to + tabs.length) % tabs.length].dataset.view, true);
  });
}
window.addEventListener("hashchange", () => show(viewFromHash()));

let last = null;
store.subscribe((state) => {
  if (last?.status !== state.status) renderStatus(state);
  if (last?.view !== state.view) renderTabs(state);
  last = state;
});
renderStatus(store.state);
renderTabs(store.state);

mountTrain($(document, "#view-train"), store, api);
mountTokenize($(document, "#view-tokenize"), store, api);
mountCompare($(document, "#view-compare"), store, api);
api.ready.catch(() => {}); // shown in the status line
