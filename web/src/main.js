// The page: one store, the API (window.bytepair), the status line, tabs, views,
// links (a view's state in the URL fragment, see links.js) and the embedded
// form (?embed=1: no site chrome, the content height posted to the parent).

import { createStore } from "./store.js";
import { createApi } from "./api.js";
import { $, $$ } from "./dom.js";
import { mountTrain, initialTrainState } from "./views/train.js";
import { mountTokenize, initialTokenizeState } from "./views/tokenize.js";
import { mountCompare, initialCompareState } from "./views/compare.js";
import { mountSteps, initialStepsState } from "./views/steps.js";
import { mountChat, initialChatState } from "./views/chat.js";
import { mountReport, initialReportState } from "./views/report.js";
import { mountPictureBars } from "./views/pictures.js";
import { parseHash, pageMode, linkTo, siteBase, LINK_PARAMS, unknownParamsNote, unknownViewNote } from "./links.js";
import { mountShare } from "./share.js";
import { reportHeight } from "./embedded.js";
import {
  chooseLocale,
  setLocale,
  mountLanguagePicker,
  onLocaleChange,
  t,
  num,
  errorText,
  setTokenizerLabel,
} from "./i18n.js";
import { statusLine } from "./statusline.js";

// the language (i18n.js): its catalog is loaded before the views mount (one small fetch;
// the Python worker started already in boot.js); the English catalog if that one fails
await setLocale(chooseLocale()).catch(() => setLocale("en").catch(() => {}));
mountLanguagePicker($(document, '[data-testid="lang-picker"]'));

const VIEWS = Object.keys(LINK_PARAMS); // train, tokenize, compare, steps, chat, report
const viewFromHash = () => {
  const v = parseHash(location.hash).view;
  return VIEWS.includes(v) ? v : "train";
};
const mode = pageMode();

const store = createStore({
  status: { phase: "loading", fraction: 0 },
  view: viewFromHash(),
  train: initialTrainState,
  tokenize: initialTokenizeState,
  compare: initialCompareState,
  steps: initialStepsState,
  chat: initialChatState,
  report: initialReportState,
});

// embeds (?embed=1) of one origin share one Python runtime (a SharedWorker; rpc.js)
const api = createApi({ onStatus: (status) => store.set({ status }), shared: mode.embed });
setTokenizerLabel((name) => api.label(name)); // errors name a tokenizer as its menus do
window.bytepair = api;
// A link is applied once the worker is ready: what it may name (tokenizers, pre-tokenizers,
// limits) comes from Python with the ready reply (api.facts). Registered before the views
// mount, so it runs before their own ready handlers (the step-through's first learn).
api.ready.then(
  () => {
    applyLinkFromHash();
    window.addEventListener("hashchange", applyLinkFromHash);
  },
  () => {},
);

// the link's note (applyLinkFromHash, below)
const linkNote = $(document, '[data-testid="link-note"]');
const linkNoteText = $(linkNote, '[data-testid="link-note-text"]');

// --- status line -------------------------------------------------------------
const statusText = $(document, '[data-testid="status-text"]');
const statusBar = $(document, '[data-testid="status-progress"]');
const version = $(document, '[data-testid="version"]');
const statusRetry = $(document, '[data-testid="status-retry"]');
// Python's start failed (a download: a dropped connection on a phone): a reload starts it again
// (what was typed is saved on the way out, dom.js debounce {save}); once back online it does so itself
const startFailed = () => store.state.status.phase === "error" && !!store.state.status.start;
statusRetry.addEventListener("click", () => location.reload());
window.addEventListener("online", () => {
  if (startFailed()) location.reload();
});
function renderStatus({ status }) {
  statusText.textContent = statusLine(status);
  statusText.title = status.phase === "error" ? status.message || "" : "";
  statusRetry.hidden = !(status.phase === "error" && status.start);
  statusBar.value = status.fraction ?? 0;
  statusBar.hidden = status.phase === "ready" || status.phase === "error";
  document.body.dataset.pyodide = status.phase;
  if (status.info?.version)
    version.textContent = t("footer.version", { version: status.info.version, python: status.info.python ?? "?" });
}

onLocaleChange(() => renderStatus(store.state));

// --- a new build, and saving for offline on a metered link (src/sw-register.js, issue 20) ---
const updatePrompt = $(document, '[data-testid="update-prompt"]');
function showUpdate() {
  if (typeof window.bytepairUpdate === "function") updatePrompt.hidden = false;
}
$(updatePrompt, '[data-testid="update-reload"]').addEventListener("click", () => window.bytepairUpdate?.());
window.addEventListener("bytepair-update", showUpdate);
showUpdate();
const offlineRow = $(document, '[data-testid="offline-save-row"]');
const offlineStatus = $(offlineRow, '[data-testid="offline-save-status"]');
const offlineButton = $(offlineRow, '[data-testid="offline-save"]');
function renderOfflineOffer() {
  const offer = window.bytepairOfflineOffer;
  const state = document.documentElement.dataset.offlineReady;
  // service workers blocked or missing (sw-register.js): no offline use, said in words
  if (state === "unavailable" || state === "unsupported") {
    offlineRow.hidden = false;
    offlineButton.hidden = true;
    offlineStatus.textContent = t("offline.unavailable");
    return;
  }
  offlineRow.hidden = !offer || !["partial", "saving", "true"].includes(state);
  if (offlineRow.hidden) return;
  const size = num(offer.bytes / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  offlineButton.textContent = t("offline.save", { size });
  offlineButton.hidden = state !== "partial";
  offlineStatus.textContent = t(
    { partial: "offline.save.hint", saving: "offline.saving", true: "offline.saved" }[state],
  );
}
offlineButton.addEventListener("click", () => window.bytepairOfflineOffer?.save());
window.addEventListener("bytepair-offline-offer", renderOfflineOffer);
new MutationObserver(renderOfflineOffer).observe(document.documentElement, {
  attributes: true,
  attributeFilter: ["data-offline-ready"],
});
onLocaleChange(renderOfflineOffer);
renderOfflineOffer();

// --- tabs (arrow keys move between them, as in the ARIA tabs pattern) --------
const tabs = $$(document, '[role="tab"]');
function renderTabs({ view }) {
  for (const tab of tabs) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
    if (on) {
      // narrow screens scroll the tab list sideways: keep the selected tab in view
      const nav = tab.parentElement.getBoundingClientRect();
      const box = tab.getBoundingClientRect();
      if (box.right > nav.right || box.left < nav.left) tab.parentElement.scrollLeft += box.left - nav.left - 16;
    }
  }
  document.body.dataset.view = view;
}
function show(view, focus = false, { fromHash = false } = {}) {
  if (view === store.state.view) return;
  // (a new fragment keeps its parameters: applyLinkFromHash reads them after this)
  if (!fromHash) history.replaceState(null, "", `#${view}`);
  store.set({ view });
  if (focus) tabs.find((t) => t.dataset.view === view)?.focus();
}
for (const tab of tabs) {
  tab.addEventListener("click", () => show(tab.dataset.view));
  tab.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(tab);
    // the arrow that points at the next tab: in a right-to-left page the tabs run leftwards (WAI-ARIA tabs)
    const step = getComputedStyle(tab).direction === "rtl" ? -1 : 1;
    const to = { ArrowRight: i + step, ArrowLeft: i - step, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(tabs[(to + tabs.length) % tabs.length].dataset.view, true);
  });
}
// (a fragment that names no view, such as the skip link's "#main", leaves the view as it is)
window.addEventListener("hashchange", () => {
  const v = parseHash(location.hash).view;
  if (VIEWS.includes(v)) show(v, false, { fromHash: true });
});

let last = null;
store.subscribe((state) => {
  if (last?.status !== state.status) renderStatus(state);
  if (last?.view !== state.view) {
    renderTabs(state);
    if (linkNote.dataset.view && linkNote.dataset.view !== state.view) linkNote.hidden = true; // the link's view is gone
  }
  last = state;
});
renderStatus(store.state);
renderTabs(store.state);

// Text typed before this script ran (a slow phone shows the text boxes seconds before the page's
// modules arrive): the views' input handlers were not there to keep it, so it is handed to them as
// an input once they are mounted (a tester: typed while Python loaded, lost on the reload that
// came back with the connection, under "your typed text is kept")
const typedEarly = $$(document, "main textarea").filter((el) => el.value);

const views = {
  train: mountTrain($(document, "#view-train"), store, api),
  tokenize: mountTokenize($(document, "#view-tokenize"), store, api),
  compare: mountCompare($(document, "#view-compare"), store, api),
  steps: mountSteps($(document, "#view-steps"), store, api),
  chat: mountChat($(document, "#view-chat"), store, api),
  report: mountReport($(document, "#view-report"), store, api),
};
api.ready.catch(() => {}); // shown in the status line
mountPictureBars(document, store, api); // picture buttons of Train, Compare, Step through (issue 13)
for (const el of typedEarly) el.dispatchEvent(new Event("input", { bubbles: true }));

// --- links: the fragment's parameters restore a view's state ------------------
// The note says what a link could not restore: unknown parameter names (LINK_PARAMS),
// values a view refused; it stays until dismissed, another view is shown or the next link.
$(linkNote, '[data-testid="link-note-close"]').addEventListener("click", () => {
  linkNote.hidden = true;
});
function applyLinkFromHash() {
  // (hoisted: called from the ready handler above)
  const { view, params } = parseHash(location.hash);
  if (!Object.keys(params).length) return; // "#tokenize", "#main": no link to apply
  let notes;
  if (!VIEWS.includes(view)) {
    notes = [unknownViewNote(view, store.state.view)];
  } else {
    notes = [unknownParamsNote(view, params)];
    try {
      notes.push(...views[view].applyLink(params));
    } catch (err) {
      notes.push(t("link.partial", { error: errorText(err) }));
    }
  }
  notes = notes.filter(Boolean);
  linkNoteText.textContent = notes.join(" ");
  linkNote.hidden = !notes.length;
  linkNote.dataset.view = store.state.view;
}

/** The current view and its link parameters (for Share and Embed); omitted: the note of a text left out. */
function currentLink() {
  const view = store.state.view;
  const { params, notes, omitted = "" } = views[view].link();
  return { view, params, notes, omitted };
}
mountShare({ current: currentLink });

// --- embedded (?embed=1): compact, status in a small bar, height to the parent --
if (mode.embed) {
  document.body.dataset.embed = "1";
  const bar = $(document, '[data-testid="embed-bar"]');
  bar.hidden = false;
  $(bar, ".embed-status-slot").append($(document, ".status"));
  views.steps.setupDetails.open = false; // the settings fold away; the steps stay in view
  const openFull = $(bar, '[data-testid="open-full"]');
  const refreshOpenLink = () => {
    try {
      const { view, params } = currentLink();
      openFull.href = linkTo(view, params);
    } catch {
      openFull.href = linkTo(store.state.view, {});
    }
  };
  openFull.addEventListener("pointerdown", refreshOpenLink);
  openFull.addEventListener("focus", refreshOpenLink);
  refreshOpenLink();
  // A link that would take the embed away from its view (Train's "Step through it one merge at a
  // time", "#steps") opens the full playground in a new tab: the course page keeps the author's
  // embed as it was. In-page anchors that name no view (the skip link's "#main") stay as they are.
  const leavesView = (a) => {
    const hash = a.getAttribute("href") || "";
    return hash.startsWith("#") && VIEWS.includes(parseHash(hash).view);
  };
  const toFullPage = (a) => {
    if (!leavesView(a)) return;
    a.href = siteBase() + a.getAttribute("href");
    a.target = "_blank";
    a.rel = "noopener";
  };
  for (const a of $$(document, "a[href]")) toFullPage(a);
  // (links the views draw later: rewritten before the browser follows them)
  for (const type of ["pointerdown", "focusin", "click"])
    document.addEventListener(type, (e) => e.target.closest?.("a[href]") && toFullPage(e.target.closest("a[href]")), {
      capture: true,
    });
  reportHeight();
}
