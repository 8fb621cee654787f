// Links: every state worth showing is a URL.
//
//   <site>/[?embed=1[&theme=light|dark]][&lang=ur|fa|bn|hi|hi-Latn]#<view>[?<key>=<value>&...]
//
// The query string says how the page is shown (embedded in an <iframe>, a
// forced colour theme); the fragment says what it shows: the view, then that
// view's parameters (see each view's link() / applyLink() and web/README.md).
// Values are percent-encoded; texts travel compressed with lz-string's
// compressToEncodedURIComponent (vendor/lz-string.min.js, a classic script
// that defines window.LZString). The fragment never reaches a server.

import { locale, t, num, listText } from "./i18n.js";

/** Links longer than this (characters) get a warning: some chat and mail programs cut them. */
export const LONG_LINK = 8 * 1024;
/** Texts longer than this (characters) are left out of links (compressing them would stall the page). */
export const MAX_LINK_TEXT = 2_000_000;

/**
 * The parameters each view reads from a link, in the order of web/README.md's "Links"
 * table (the one list: main.js reports any other name, each view's link() writes only
 * these). The keys are the views, in tab order.
 */
export const LINK_PARAMS = Object.freeze({
  train: ["t", "v", "p", "re", "name"],
  tokenize: ["t", "tok", "ids", "ws", "sp", "st", "sbs", "g", "gt"],
  compare: ["src", "t", "tok", "metric"],
  steps: ["mode", "in", "tie", "p", "re", "n", "t", "s", "w"],
  chat: ["t", "fmt", "gen", "ws"],
  report: ["src", "t", "tok", "base"],
});

/** A note naming the parameters of `params` that `view` does not know (and those it knows), or "". */
export function unknownParamsNote(view, params) {
  const known = LINK_PARAMS[view];
  if (!known) return "";
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (!unknown.length) return "";
  const names = unknown.map((k) => `“${k}”`).join(", ");
  return t("link.unknown_params", { n: unknown.length, names, view, known: known.join(", ") });
}

/** A note for a view name the page does not have, or "" (views: LINK_PARAMS's keys). */
export function unknownViewNote(view, shown) {
  if (!view || view in LINK_PARAMS) return "";
  return t("link.unknown_view", { view, shown, views: Object.keys(LINK_PARAMS).join(", ") });
}

/**
 * A note for tokenizer names a link asked for that this page does not have (`missing`,
 * non-empty), saying which tokenizers are shown instead (`shown`: their labels). Tokenize and
 * Compare say it next to their tokenizer pickers.
 */
export function missingTokenizersNote(missing, shown) {
  const names = missing.map((n) => `“${n}”`).join(", ");
  return t("link.missing_tokenizers", { n: missing.length, names, shown: shown.join(", ") });
}

/**
 * A known parameter's value: `params[key]` when it is one of `allowed` (or absent: null);
 * any other value adds a note naming the parameter and its values, and gives null.
 */
export function choiceParam(params, key, allowed, notes) {
  const value = params[key];
  if (value == null) return null;
  if (allowed.includes(value)) return value;
  // "premium, tokens, or bpt" in the reader's language (the values stay as they are)
  notes.push(t("link.bad_value", { key, value, allowed: listText(allowed, "disjunction") }));
  return null;
}

function lz() {
  const LZ = globalThis.LZString;
  if (!LZ) throw new Error("lz-string did not load (vendor/lz-string.min.js).");
  return LZ;
}

/** Text -> URL-safe compressed form (characters A–Z a–z 0–9 + - $). */
export function packText(text) {
  return lz().compressToEncodedURIComponent(text);
}

/** Compressed form -> text; throws a readable Error when the link was cut or mangled. */
export function unpackText(packed) {
  let text;
  try {
    text = lz().decompressFromEncodedURIComponent(packed);
  } catch {
    text = null;
  }
  if (text == null || (text === "" && packed !== "" && packed !== "Q")) {
    throw new Error(t("link.damaged"));
  }
  return text;
}

/**
 * Restore a link's text: when `params.t` is there, unpack it and pass it to
 * `use(text)`; a damaged text (or a failure in `use`) adds its message to `notes`.
 */
export function restoreText(params, notes, use) {
  if (params.t == null) return;
  try {
    use(unpackText(params.t));
  } catch (err) {
    notes.push(err.message);
  }
}

/**
 * Split a fragment ("#steps?mode=textbook&s=3") into {view, params}.
 * Values are percent-decoded; "+" stays "+" (unlike URLSearchParams, since
 * lz-string's alphabet uses it).
 */
export function parseHash(hash) {
  const raw = String(hash || "").replace(/^#/, "");
  const q = raw.search(/[?&]/);
  const view = q < 0 ? raw : raw.slice(0, q);
  const params = {};
  if (q >= 0) {
    for (const part of raw.slice(q + 1).split("&")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? "" : part.slice(eq + 1);
      try {
        params[decodeURIComponent(key)] = decodeURIComponent(value);
      } catch {
        params[key] = value; // a stray "%": keep the raw text
      }
    }
  }
  return { view: decodeURIComponentSafe(view), params };
}

function decodeURIComponentSafe(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** {view, params} -> "#view?k=v&..." (params with null/undefined/"" values are left out). */
export function buildHash(view, params = {}) {
  const parts = [];
  for (const [key, value] of Object.entries(params)) {
    if (value == null || value === "") continue;
    // lz output is already URL-safe; encodeURIComponent would turn its "+" and "$" into escapes.
    const v = key === "t" ? String(value) : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(key)}=${v}`);
  }
  return `#${view}${parts.length ? `?${parts.join("&")}` : ""}`;
}

/** How the page is shown, from the query string: {embed: bool, theme: "light"|"dark"|null}. */
export function pageMode(search = location.search) {
  const q = new URLSearchParams(search);
  const embed = ["1", "true", "yes"].includes((q.get("embed") || "").toLowerCase());
  const theme = ["light", "dark"].includes(q.get("theme")) ? q.get("theme") : null;
  return { embed, theme };
}

/** The site's own address (no query, no fragment), e.g. "http://host/bytepair/". */
export function siteBase(href = location.href) {
  const u = new URL(href);
  u.search = "";
  u.hash = "";
  return u.href;
}

/**
 * The full link to a view state (with ?lang= unless English); embed: {theme} for the <iframe> form,
 * null for a plain link; base: the site's address (default: this page's, siteBase(); widget.js
 * passes its own folder); lang: the locale the link opens in (default: the page's; a lesson's
 * link opens in its course's language).
 */
export function linkTo(view, params, { embed = null, base = null, lang = null } = {}) {
  const u = new URL(base || siteBase());
  if (embed) {
    u.searchParams.set("embed", "1");
    if (embed.theme) u.searchParams.set("theme", embed.theme);
  }
  const shown = lang || locale();
  if (shown !== "en") u.searchParams.set("lang", shown); // the reader sees the language it was shared in
  return u.href.replace(/#.*$/, "") + buildHash(view, params);
}

/** Put a text into params.t, unless it is too long; returns a note for the user or "". */
export function addText(params, text, what = "text") {
  if (!text) return "";
  if (text.length > MAX_LINK_TEXT) {
    const key = { "training text": "link.too_large.training", "parallel texts": "link.too_large.parallel" }[what];
    return t(key ?? "link.too_large", {
      size: num(text.length / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    });
  }
  params.t = packText(text);
  return "";
}

/** What the text of a view's link is called (the Share dialog's words); others: "text". */
const TEXT_NOUN = { train: "training text", compare: "parallel texts", chat: "conversation", report: "parallel texts" };

/**
 * The Share dialog's first sentence: what opening the link brings back, true for the
 * case at hand. params: the link's parameters (`t` the text, `s` a step); omitted: the
 * note of a text left out of the link (addText's note, a view's link().omitted), or "".
 */
export function shareIntro(view, params, omitted = "") {
  const noun = TEXT_NOUN[view] || "text";
  if (omitted) return `${omitted} Open it, then paste the ${noun} again.`;
  if (params.t == null) return "This link reopens the view as it is now.";
  const what = params.s != null ? `the ${noun}, the settings and the step` : `the ${noun} and the settings`;
  const travels = noun.endsWith("s")
    ? "travel compressed inside the link (after the #), so they never reach"
    : "travels compressed inside the link (after the #), so it never reaches";
  return `This link reopens the view as it is now: ${what}. The ${noun} ${travels} a server.`;
}

/** A warning for long links, or "". */
export function lengthNote(link) {
  if (link.length <= LONG_LINK) return "";
  return t("link.long", { size: num(link.length / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
}

/** Text and attribute escaping for the <iframe> snippet (it is shown as text, never parsed by us). */
function attr(s) {
  return String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The ready-to-paste <iframe> snippet (plus the resize script) for a link. */
export function iframeSnippet(src, { title, height = 640 } = {}) {
  const script = new URL("embed.js", siteBase()).href;
  return `<iframe src="${attr(src)}" title="${attr(title || "bytepair")}" width="100%" height="${height}" loading="lazy" style="border:0;max-width:100%"></iframe>\n<script src="${attr(script)}" defer></script>`;
}

/** Each view's title in embeds (the <iframe>'s title, the widget's placeholder). */
export const VIEW_TITLES = Object.freeze({
  train: "bytepair: train a BPE tokenizer",
  tokenize: "bytepair: tokenize text",
  compare: "bytepair: compare languages",
  steps: "bytepair: BPE step by step",
  chat: "bytepair: count a chat conversation",
  report: "bytepair: a tokenizer's report card",
});

/** The starting height (CSS pixels) of an embed of `view`, before it reports its content's height. */
export function embedHeight(view) {
  return view === "steps" ? 900 : 640;
}

/** The element names of the <bytepair-widget> snippet besides the link's parameters (web/widget.js). */
export const WIDGET_ATTRS = Object.freeze(["view", "theme", "text", "lang"]);

/**
 * The ready-to-paste <bytepair-widget> snippet (web/widget.js) for a view state: its attributes
 * are the link's names (`view`, the view's LINK_PARAMS, `theme`). form "html" (the default): the
 * module script and the element wrapped in a <div>, so that Markdown (MkDocs, MyST) keeps it as a
 * block of raw HTML; "sphinx": the `bytepair-widget` directive of web/examples/sphinx/_ext, each
 * attribute an option; "quarto": the shortcode of web/examples/quarto/_extensions/bytepair. The
 * Sphinx and Quarto forms open with a comment: where the extension is served with the site, and the
 * setting that gives the script's address.
 */
export function widgetSnippet(view, params, { theme = null, form = "html" } = {}) {
  const script = new URL("widget.js", siteBase()).href;
  const attrs = [];
  for (const [key, value] of Object.entries(params)) {
    if (value == null || value === "" || !(LINK_PARAMS[view] || []).includes(key)) continue;
    attrs.push([key, String(value)]);
  }
  if (theme) attrs.push(["theme", theme]);
  const examples = new URL("examples/", siteBase()).href; // (the extensions, served with the site)
  if (form === "sphinx")
    return [
      `.. In _ext/: ${examples}sphinx/_ext/bytepair_widget.py; in conf.py: extensions = ["bytepair_widget"]`,
      `   and bytepair_widget_js = "${script}"`,
      "",
      `.. bytepair-widget:: ${view}`,
      // (a value's line breaks: continuation lines indented under the option)
      ...attrs.map(([k, v]) => `   :${k}: ${v.replace(/\n/g, "\n      ")}`),
    ].join("\n");
  if (form === "quarto") {
    const args = attrs.map(([k, v]) => ` ${k}="${v.replace(/["\\]/g, "\\$&").replace(/\n/g, "\\n")}"`);
    const ext = `${examples}quarto/_extensions/bytepair/`;
    return [
      `<!-- In _extensions/bytepair/: ${ext}_extension.yml and ${ext}bytepair.lua;`,
      `     in _quarto.yml: bytepair-widget-js: ${script} -->`,
      `{{< bytepair-widget ${view}${args.join("")} >}}`,
    ].join("\n");
  }
  const html = attrs.map(([k, v]) => ` ${k}="${attr(v)}"`).join("");
  return `<script type="module" src="${attr(script)}"></script>\n<div><bytepair-widget view="${attr(view)}"${html}></bytepair-widget></div>`;
}

/**
 * The link to a gallery example in Tokenize (`#tokenize?g=<id>&gt=<text number>`);
 * embed: {theme} for the <iframe> form, null for a plain link.
 */
export function galleryLink(id, textIndex = 0, { embed = null } = {}) {
  return linkTo("tokenize", { g: id, gt: textIndex ? String(textIndex) : null }, { embed });
}
