// DOM helpers. Text only ever reaches the page through textContent and
// attributes: no HTML string is ever parsed into the page.

import { t, num, errorText } from "./i18n.js";

/**
 * h("td", {class: "num", dataset: {id: 3}, attrs: {title: "x"}, on: {click}}, "text", node)
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "attrs")
      for (const [a, v] of Object.entries(value)) {
        if (v != null && v !== false) el.setAttribute(a, v === true ? "" : String(v));
      }
    else if (key === "on") for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else el[key] = value;
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * A small button, `<button type="button" class="button small {kind}">text</button>`: kind "secondary",
 * "danger" or "" (the main one; more classes may follow, "secondary one-line"); action: its
 * data-action (the tests' handle), label: its aria-label (both left out when null); attrs: more
 * attributes; onClick: what a click does.
 */
export function smallButton(text, { kind = "secondary", action = null, label = null, attrs = {}, onClick }) {
  return h("button", {
    type: "button",
    class: kind ? `button small ${kind}` : "button small",
    text,
    dataset: action ? { action } : null,
    attrs: { "aria-label": label, ...attrs },
    on: { click: onClick },
  });
}

/**
 * Words for a mouse and words for a touch screen, as two spans: `pointer` (hover, keys)
 * and `touch` (tap). styles.css shows one of them, by the one media query
 * `(hover: none), (pointer: coarse)` ("touch screens" there); nothing else decides.
 */
export function deviceHint(pointer, touch) {
  return [h("span", { class: "pointer-hint", text: pointer }), h("span", { class: "touch-hint", text: touch })];
}

/**
 * A list inside a closed <details> filled when the details first open (the gallery, the lessons):
 * `fetch()` once, with the line t(`computing`) in `list` meanwhile, then `draw(data)`; on a failure
 * `list` shows t(`failed`, {message}) and the next opening (or load()) asks again.
 * Returns load(): the one promise of the data, for callers that open the details themselves.
 */
export function loadOnOpen(details, list, { fetch, draw, computing, failed }) {
  let loading = null;
  function load() {
    if (!loading) {
      list.replaceChildren(h("p", { class: "hint", text: t(computing) }));
      loading = fetch().then(
        (data) => {
          draw(data);
          return data;
        },
        (err) => {
          loading = null;
          list.replaceChildren(h("p", { class: "error", text: t(failed, { message: errorText(err) }) }));
          throw err;
        },
      );
    }
    return loading;
  }
  details.addEventListener("toggle", () => {
    if (details.open) load().catch(() => {});
  });
  return load;
}

export const $ = (root, sel) => root.querySelector(sel);
export const $$ = (root, sel) => [...root.querySelectorAll(sel)];

/** Show `message` in the error slot `[data-error-for=key]` inside root (empty hides it). */
export function showError(root, key, message) {
  const slot = root.querySelector(`[data-error-for="${key}"]`);
  if (!slot) return;
  slot.textContent = message || "";
  slot.hidden = !message;
  const control = slot.closest(".field")?.querySelector("input, textarea, select");
  if (control && key !== "train" && key !== "compare") {
    if (message) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
}

/**
 * Scroll the error slot `key` of `root` into view when it shows a message out of sight (block
 * "nearest": the least scroll). For an error that answers a choice made far above it: on a phone
 * a tokenizer picked from a menu failed below the fold, and the tap seemed to do nothing.
 * @param {Element} root
 * @param {string} key the slot's data-error-for
 */
export function revealError(root, key) {
  const slot = root.querySelector(`[data-error-for="${key}"]`);
  if (!slot || slot.hidden) return;
  const box = slot.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  slot.scrollIntoView({ block: "nearest" });
}

/**
 * A status note right after `anchor`: `<p class="link-note" role="status" data-testid=testid>`,
 * hidden while it says nothing. Returns say(message): the note shows `message` ("" hides it).
 * (Tokenize and Compare: a link's tokenizer this page does not have, next to the picker.)
 * @param {Element} anchor
 * @param {string} testid
 * @returns {(message: string) => void}
 */
export function noteAfter(anchor, testid) {
  const note = h("p", { class: "link-note", role: "status", dataset: { testid }, hidden: true });
  anchor.after(note);
  return (message) => {
    note.textContent = message;
    note.hidden = !message;
  };
}

/** Offer bytes or text as a file download (a blob: URL, no server round trip). */
export function download(filename, data, type = "application/octet-stream") {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h("a", { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * A "Working…" line (with its Cancel button) shown only when a call takes
 * longer than delayMs: start() when a call begins (again for a newer call),
 * stop() when the newest call has ended. The line's button calls onCancel.
 * progress(fraction): the call is a count in steps that is moving (0..1 done): the line then
 * reads as progress ("Counting… 49%" and "Cancel"), not as a stall; start() puts the stall
 * wording back for the next call. The words are the catalog's (compare.working, compare.cancel,
 * working.*), in the reader's language at each call.
 * waiting(): true while the call waits for a download the page already shows (an open model's
 * progress line): the line then waits too, rather than offering to restart Python over a download
 * that is moving (a tester: "Cancel (restarts Python)" 3.8 s into Llama 3's download).
 */
export function slowCallNotice(el, { onCancel = null, delayMs = 3000, waiting = () => false } = {}) {
  let timer = 0;
  const span = el.querySelector("span");
  const button = el.querySelector("button");
  const word = (text, label, title) => {
    if (span) span.textContent = text;
    if (button) {
      button.textContent = label;
      if (title) button.title = title;
      else button.removeAttribute("title");
    }
  };
  if (onCancel && button) button.addEventListener("click", onCancel);
  return {
    start() {
      clearTimeout(timer);
      word(t("compare.working"), t("compare.cancel"), "");
      el.dataset.state = "stalled";
      const show = () => {
        if (waiting()) timer = setTimeout(show, delayMs);
        else el.hidden = false;
      };
      timer = setTimeout(show, delayMs);
    },
    progress(fraction) {
      const pct = Math.max(0, Math.min(99, Math.floor(fraction * 100)));
      word(
        t("working.counting", { percent: num(pct / 100, { style: "percent" }) }),
        t("working.cancel"),
        t("working.cancel.title"),
      );
      el.dataset.state = "progress";
    },
    stop() {
      clearTimeout(timer);
      el.hidden = true;
    },
  };
}

// debounced saves waiting for their pause (debounce's `save`), run at once when the page is hidden
const pendingSaves = new Set();
let savesHooked = false;
let hiding = false;
function runPendingSaves() {
  hiding = true;
  try {
    for (const run of [...pendingSaves]) run();
  } finally {
    hiding = false;
  }
}

/** Whether the caller runs as one of the saves the page makes as it is hidden (debounce `save`):
 * storage.js then also keeps the text where a page about to unload can write at once. */
export const savingOnHide = () => hiding;
function hookSaves() {
  if (savesHooked) return;
  savesHooked = true;
  // pagehide: a reload or a link away; visibilitychange: a phone switching apps (its page may be
  // discarded with no pagehide)
  addEventListener("pagehide", runPendingSaves);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") runPendingSaves();
  });
}

/**
 * `fn` called `ms` after the last call (with that call's arguments). `save: true` for a save of
 * what the reader typed: a call still waiting runs at once when the page is hidden (pagehide,
 * visibilitychange), so a reload or a tab closed within the pause keeps the last words.
 */
export function debounce(fn, ms, { save = false } = {}) {
  let timer = null;
  let waiting = null; // the arguments of the call waiting for its pause
  const run = () => {
    clearTimeout(timer);
    pendingSaves.delete(run);
    const args = waiting;
    waiting = null;
    if (args) fn(...args);
  };
  const call = (...args) => {
    clearTimeout(timer);
    waiting = args;
    timer = setTimeout(run, ms);
    if (save) {
      hookSaves();
      pendingSaves.add(run);
    }
  };
  return call;
}
