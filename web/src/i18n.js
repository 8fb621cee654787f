// The page's language (issue 21): which locale, its message catalog, t(key, params),
// numbers in the locale's digits, <html lang dir>, and the elements marked in
// index.html (data-i18n, data-i18n-attr) worded from the catalog.
//
// Catalogs: one JSON file per locale in src/locales/<code>.json (layout in web/README.md):
//   {"locale": code, "glossary": {term: {"en", "text"}}, "messages": {key: {"en": source, "text": translation}}}
// A message's text is a string with {name} placeholders, or for counts an object of
// Intl.PluralRules categories ({"one": ..., "other": ...}) chosen by params.n.
// Counts and percentages use the locale's default digits (Intl.NumberFormat: bn ০–৯,
// fa ۰–۹; ur, hi and hi-Latn ASCII, as CLDR and Chromium give them); token ids, byte
// values and code stay ASCII (format.js `int`, never `num` here).

/** The supported locales, once: code, the language named in itself, direction. */
export const LOCALES = Object.freeze([
  { code: "en", name: "English", dir: "ltr" },
  { code: "ur", name: "اردو", dir: "rtl" },
  { code: "fa", name: "فارسی", dir: "rtl" },
  { code: "bn", name: "বাংলা", dir: "ltr" },
  { code: "hi", name: "हिन्दी", dir: "ltr" },
  { code: "hi-Latn", name: "Hinglish", dir: "ltr" },
]);
const CODES = LOCALES.map((l) => l.code);
const SAVED_KEY = "bytepair-lang";

// The pseudo-locale for tests (never in the language menu): `?lang=qps` is taken only when
// the page was told before it loaded that it runs under test (globalThis.bytepairPseudoLocale,
// set by tests/e2e through an init script). Its catalog is en.json with every message
// wrapped in ⟦…⟧ and its letters accented, so any visible English not wrapped is a string
// that does not come from the catalog.
export const PSEUDO = "qps";
const pseudoAllowed = () => globalThis.bytepairPseudoLocale === true;
const ACCENTS = { a: "á", e: "é", i: "í", o: "ó", u: "ú", A: "Á", E: "É", I: "Í", O: "Ó", U: "Ú", c: "ç", n: "ñ" };
const accent = (s) =>
  s
    .split(/(\{\w+\})/)
    .map((part, i) => (i % 2 ? part : part.replace(/[aeiouAEIOUcn]/g, (ch) => ACCENTS[ch])))
    .join("");
const pseudoText = (text) =>
  typeof text === "object"
    ? Object.fromEntries(Object.entries(text).map(([k, v]) => [k, `⟦${accent(v)}⟧`]))
    : `⟦${accent(text)}⟧`;

/**
 * The supported locale for a language tag ("ur-PK" -> "ur", "hi-Latn-IN" -> "hi-Latn"), or null.
 * @param {string} tag a BCP 47 tag
 * @returns {string|null}
 */
export function matchLocale(tag) {
  if (!tag) return null;
  if (tag === PSEUDO && pseudoAllowed()) return PSEUDO;
  let loc;
  try {
    loc = new Intl.Locale(tag);
  } catch {
    return null;
  }
  if (loc.language === "hi" && loc.script === "Latn") return "hi-Latn";
  return CODES.includes(loc.language) ? loc.language : null;
}

/**
 * The locale to show: the URL's `lang=` (share links and embed snippets carry it), else the
 * choice remembered in this browser, else the first of the browser's languages supported, else "en".
 * @param {{search?: string, saved?: string|null, languages?: readonly string[]}} [from]
 * @returns {string} a code of LOCALES
 */
export function chooseLocale({
  search = location.search,
  saved = readSaved(),
  languages = navigator.languages || [navigator.language],
} = {}) {
  const asked = matchLocale(new URLSearchParams(search).get("lang"));
  if (asked) return asked;
  if (CODES.includes(saved)) return saved;
  for (const tag of languages) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return "en";
}

function readSaved() {
  try {
    return localStorage.getItem(SAVED_KEY);
  } catch {
    return null; // storage blocked (an embed in a strict browser): nothing remembered
  }
}

let current = "en";
let messages = {};
const catalogs = new Map();
const listeners = new Set();
let numberFormat = new Intl.NumberFormat("en");
let plurals = new Intl.PluralRules("en");

/** The current locale's code. */
export const locale = () => current;
/** The current locale's entry of LOCALES. */
export const localeInfo = () => LOCALES.find((l) => l.code === current) ?? { code: PSEUDO, name: "Pseudo", dir: "ltr" };

async function loadCatalog(code) {
  if (code === PSEUDO) {
    const en = await loadCatalog("en");
    return {
      ...en,
      locale: PSEUDO,
      messages: Object.fromEntries(
        Object.entries(en.messages).map(([key, m]) => [key, { en: m.text, text: pseudoText(m.text) }]),
      ),
    };
  }
  const early = globalThis.bytepairEarlyCatalog;
  if (!catalogs.has(code) && early?.code === code) {
    // boot.js asked for it before the page's modules loaded (issue 20: the first paint in the reader's language)
    globalThis.bytepairEarlyCatalog = null;
    catalogs.set(code, early.catalog);
    early.catalog.catch(() => catalogs.delete(code));
  }
  if (!catalogs.has(code)) {
    const p = fetch(new URL(`./locales/${code}.json`, import.meta.url)).then((res) => {
      if (!res.ok) throw new Error(`The ${code} message catalog could not be loaded (HTTP ${res.status}).`);
      return res.json();
    });
    catalogs.set(code, p);
    p.catch(() => catalogs.delete(code));
  }
  return catalogs.get(code);
}

/**
 * Switch to a locale: fetch its catalog (once), set <html lang dir>, word the marked
 * elements, tell the listeners. The choice is remembered when `remember`.
 * @param {string} code a code of LOCALES (anything else: "en")
 * @param {{remember?: boolean}} [options]
 * @returns {Promise<string>} the locale now shown
 */
export async function setLocale(code, { remember = false } = {}) {
  if (!CODES.includes(code) && !(code === PSEUDO && pseudoAllowed())) code = "en";
  const catalog = await loadCatalog(code);
  current = code;
  messages = catalog.messages;
  worded = new Set();
  wordedBefore = new Set();
  const intlCode = code === PSEUDO ? "en" : code;
  numberFormat = new Intl.NumberFormat(intlCode);
  plurals = new Intl.PluralRules(intlCode);
  const info = localeInfo();
  document.documentElement.lang = code;
  document.documentElement.dir = info.dir;
  if (remember && code !== PSEUDO) {
    try {
      localStorage.setItem(SAVED_KEY, code);
    } catch {
      /* not remembered */
    }
  }
  translateDom(document);
  document.documentElement.removeAttribute("data-i18n-pending"); // boot.js: hidden until worded
  for (const fn of listeners) fn(code);
  return code;
}

/** Call fn(code) after each change of locale. */
export function onLocaleChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * A count or measure in the locale's digits (Intl.NumberFormat of the locale). Not for ids,
 * byte values or anything a user copies: those stay ASCII (format.js).
 * @param {number|null} n
 * @param {Intl.NumberFormatOptions} [options]
 * @returns {string} "–" for a missing number
 */
export function num(n, options) {
  if (n == null || !Number.isFinite(n)) return "–";
  return options
    ? new Intl.NumberFormat(numberFormat.resolvedOptions().locale, options).format(n)
    : numberFormat.format(n);
}

/**
 * `items` (strings, kept as they are) joined as the reader's language joins a list
 * (Intl.ListFormat): type "conjunction" ("A, B, and C"), "disjunction" ("A, B, or C") or "unit";
 * the pseudo-locale joins as English.
 * @param {string[]} items
 * @param {Intl.ListFormatType} [type]
 * @param {Intl.ListFormatStyle} [style]
 * @returns {string}
 */
export function listText(items, type = "conjunction", style = "long") {
  return new Intl.ListFormat(current === PSEUDO ? "en" : current, { type, style }).format(items);
}

// CLDR's names of the sample corpora's languages per locale (language-names.json, written by
// tools/gen_language_names.py), for the languages the browser has no name for: Chromium's
// Intl.DisplayNames names neither Tibetan nor Inuktitut nor ~70 FLORES languages in fa, ur, bn, hi
let cldrNames = null;
let cldrLoading = null;

/**
 * Load language-names.json once (Report and Compare await it before naming their languages); a
 * failed download leaves the English names (and is tried again on the next call).
 * @returns {Promise<void>}
 */
export function loadLanguageNames() {
  cldrLoading ??= fetch(new URL("./language-names.json", import.meta.url))
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`HTTP ${res.status}`))))
    .then((data) => {
      cldrNames = data;
    })
    .catch(() => {
      cldrLoading = null;
    });
  return cldrLoading;
}

/**
 * A language's or script's name in the current locale (Intl.DisplayNames, else for a language
 * CLDR's name from language-names.json once loadLanguageNames() has loaded it), e.g. ("language",
 * "fr") -> "فرانسیسی" in ur, ("script", "Beng") -> "বাংলা" in bn, ("language", "bo") -> "تبتی"
 * in fa; `fallback` when neither has a name for the code. (In the pseudo-locale the English
 * name, wrapped.)
 * @param {"language"|"script"} type
 * @param {string|null|undefined} code a BCP 47 language tag or an ISO 15924 script code
 * @param {string} fallback
 * @returns {string}
 */
export function displayName(type, code, fallback) {
  let name = null;
  try {
    const names = new Intl.DisplayNames([numberFormat.resolvedOptions().locale], { type, fallback: "none" });
    // (a tag the browser has no name for, "de-1996": its language's name)
    if (code) name = names.of(code) ?? (type === "language" ? names.of(new Intl.Locale(code).language) : null);
  } catch {
    name = null; // not a well-formed code
  }
  if (!name && type === "language" && code) name = cldrNames?.[current]?.[code] ?? null;
  name ??= fallback;
  return current === PSEUDO && name ? `⟦${name}⟧` : name;
}

// The sentences t() gave lately in a right-to-left locale (two generations of WORDED_KEPT, emptied
// when the locale changes): a value that is one of them is a clause of the reader's language set
// into another sentence, not a name (t below).
const WORDED_KEPT = 500;
let worded = new Set();
let wordedBefore = new Set();
function remember(text) {
  if (worded.size >= WORDED_KEPT) {
    wordedBefore = worded;
    worded = new Set();
  }
  worded.add(text);
  return text;
}
const isWorded = (v) => worded.has(v) || wordedBefore.has(v);

/**
 * `s` in a first-strong isolate (U+2068 ... U+2069) when the page reads right to left, else as it
 * is: a name, token or any text of the data then keeps its own order inside a right-to-left
 * sentence, and its brackets and quotes are not mirrored or joined to the run beside it.
 * @param {string} s
 * @returns {string}
 */
export const isolate = (s) => (localeInfo().dir === "rtl" && s ? `\u2068${s}\u2069` : s);

/**
 * The message `key` in the current locale, placeholders {name} filled from params (numbers
 * through `num`, so in the locale's digits; pass a string to keep ASCII). In a right-to-left
 * locale a string is bidi-isolated as what it is: a name, token, file or any text of the data
 * ("GPT-4 (cl100k_base)", "<|endoftext|>") in a first-strong isolate, so it keeps its own order
 * and its brackets are not mirrored; a sentence t() gave (a clause worded from the catalog: Tokenize's
 * "{label} سے گنا گیا: {added}؛ {typed}") as it is, read in the sentence's direction. A plural message
 * picks its form by params.n (Intl.PluralRules). A key missing from the catalog shows as the key.
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const entry = messages[key];
  if (!entry) return key;
  let text = entry.text;
  if (typeof text === "object") text = text[plurals.select(params.n ?? 0)] ?? text.other;
  const rtl = localeInfo().dir === "rtl";
  // a quoted term of another script in a right-to-left sentence ("“strawberry” o200k_base میں …")
  // isolated inside its quotes: else the closing quote joins the left-to-right run that follows
  // and the quotes stand around "strawberry” o200k_base" (a tester, Urdu's gallery)
  // (a quote in the reader's own script is left as it is)
  if (rtl)
    text = text.replace(
      /([“«])([^“”«»{}\u2068\u2069\u0590-\u08ff\ufb1d-\ufeff]+)([”»])/g,
      (m, open, term, close) => open + isolate(term) + close,
    );
  const filled = text.replace(/\{(\w+)\}/g, (m, name) => {
    const v = params[name];
    if (v == null) return m;
    if (typeof v === "number") return num(v);
    // first-strong isolate (U+2068) ... pop directional isolate (U+2069) around a name; a clause of the
    // reader's language is not isolated: as an isolate of its own it would take the direction of its
    // first letter, and an Urdu clause opening with an English term ("1 special tokens شامل کیے گئے
    // (<|begin_of_text|>)") would read left to right, its token name at the wrong end
    return isWorded(v) ? v : isolate(v);
  });
  return rtl ? remember(filled) : filled;
}

/** A size in bytes in the locale's words and digits ("512 B", "1.5 KB", "2.25 MB"; 1 KB = 1024 B). */
export function sizeText(n) {
  const f = (x, d) => num(x, { minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: false });
  if (n < 1024) return t("train.unit.B", { n: f(n, 0) });
  if (n < 1024 * 1024) return t("train.unit.KB", { n: f(n / 1024, 1) });
  return t("train.unit.MB", { n: f(n / 1024 / 1024, 2) });
}

let tokenizerLabel = (name) => name;
/**
 * How errors name a tokenizer: fn(name) -> the label its menus show (main.js: api.label, from
 * bytepair's facts), so no error names "p50k_base" where the menu says "Codex (p50k_base)".
 * @param {(name: string) => string} fn
 */
export function setTokenizerLabel(fn) {
  tokenizerLabel = fn;
}

/** The script an unknown \\p{..} property's sentence names as an example, by locale: the courses' own. */
const SCRIPT_EXAMPLE = { ur: "Arabic", fa: "Arabic", bn: "Bengali", hi: "Devanagari", "hi-Latn": "Devanagari" };

/**
 * An error as the reader's language says it, worded from its structure: a bytepair error's
 * `type` and `field` (errors.js BytepairError), a crash or time-out of the worker (rpc.js,
 * by class name); the English `message` is shown as is only in "en" or as the detail of a
 * type without its own sentence. Never parsed from the message text.
 * @param {Error & {type?: string, field?: string|null}} err
 * @returns {string}
 */
export function errorText(err) {
  const message = err?.message ?? String(err);
  // a tokenizer's file that could not be downloaded (worker.js fetchOk: detail.name), named by the
  // label its menus show and worded from the catalog in every locale, English too
  const d = err?.detail;
  if ((err?.type === "offline" || err?.type === "network") && d?.name)
    return t(`error.${err.type}.named`, { name: tokenizerLabel(d.name) });
  // a sample file that did not download (samples.js): the catalog's sentence in every locale,
  // English too (its message is for the console)
  if (err?.type === "samples" && messages[`error.samples.${d?.reason}`])
    return t(`error.samples.${d.reason}`, { file: d.file ?? "", status: d.status ?? "" });
  if (err?.type === "samples" && messages["error.samples"])
    return t("error.samples", { file: d?.file ?? "", status: d?.status ?? "" });
  // a chunk size too small for the text (bytepair.app.limits.chunk): the form's own words in every
  // locale, English too (the message names the Python argument and counts characters from 0)
  if (err?.type === "argument" && d?.reason === "chunk_too_small" && messages["error.argument.chunk_too_small"])
    return t("error.argument.chunk_too_small", { max: d.max_tokens, character: d.start + 1, needed: d.needed });
  if (current === "en") return message;
  if (err?.name === "WorkerCrashed") return t("error.crashed");
  if (err?.name === "CallTimeout") return t("error.timeout");
  // a tokenizer name's problem (api.js nameError): the same sentences as Train's name field
  if (err?.type === "name" && messages[`train.name.${err.field}`]) return t(`train.name.${err.field}`, err.detail);
  const key = `error.${err?.type}`;
  // a value's fault worded from its reason and values (errors.py ArgumentError.reason: ids typed
  // for ids → text); token ids stay ASCII, so they go in as text, not through num()
  if (err?.type === "argument" && d?.reason && messages[`error.argument.${d.reason}`])
    return t(`error.argument.${d.reason}`, {
      ...d,
      id: d.id != null ? String(d.id) : null,
      max_id: d.max_id != null ? String(d.max_id) : null,
    });
  // a split pattern's fault with a sentence of its own (errors.py PatternError.code: an unknown
  // \p{..} property, named; the back-end's whole list of names, English, goes to the console)
  if (err?.type === "pattern" && d?.code && messages[`error.pattern.${d.code}`]) {
    if (d.code === "unknown_property" && d.known?.length)
      console.info(`[bytepair] Unicode properties known here: ${d.known.join(", ")}`);
    const own = d.suggestion ? `error.pattern.${d.code}.suggest` : `error.pattern.${d.code}`;
    return t(messages[own] ? own : `error.pattern.${d.code}`, {
      ...d,
      construct: d.construct ?? "",
      suggestion: d.suggestion ? `\\p{${d.suggestion}}` : "",
      pos: d.pos != null ? d.pos + 1 : "",
      letters: "\\p{L}",
      numbers: "\\p{N}",
      script: `\\p{${SCRIPT_EXAMPLE[current] ?? "Greek"}}`,
    });
  }
  // a split pattern's fault where it is (detail.pos: 0-based character offset) and what
  // (detail.reason: the regex engine's own short words, quoted as they are)
  if (err?.type === "pattern" && d?.pos != null && d?.reason)
    return t("error.pattern.at", { pos: d.pos + 1, reason: d.reason });
  // a tokenizer file's commonest faults, worded from their values (errors.py TokenizerFileError.reason)
  if (err?.type === "tokenizer_file" && d?.reason && messages[`error.tokenizer_file.${d.reason}`])
    return t(`error.tokenizer_file.${d.reason}`, { ...d, merge: d.merge != null ? d.merge + 1 : null });
  // a tools box's fault (chat_tools: ToolsError.reason), the tool counted from 1
  if (err?.type === "tools" && d?.reason && messages[`error.tools.${d.reason}`])
    return t(`error.tools.${d.reason}`, { ...d, tool: d.tool_index != null ? d.tool_index + 1 : null });
  // any other type with a sentence of its own: its values fill it
  if (err?.type && messages[key]) return t(key, { ...d, field: err.field ?? "", message });
  return t("error.other", { message });
}

/**
 * Word the marked elements under root: data-i18n="key" sets the text (the element holds
 * text only); data-i18n-attr="attr:key;attr:key" sets attributes (aria-label, title, placeholder).
 * @param {ParentNode} root
 */
export function translateDom(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/**
 * The language menu of the header: a <select> of LOCALES, each named in itself.
 * @param {HTMLSelectElement} select
 */
export function mountLanguagePicker(select) {
  select.replaceChildren(
    ...LOCALES.map((l) => {
      const o = document.createElement("option");
      o.value = l.code;
      o.lang = l.code;
      o.textContent = l.name;
      return o;
    }),
  );
  select.value = current;
  select.addEventListener("change", () =>
    setLocale(select.value, { remember: true }).then((code) => {
      // the address says the language shown: a reload (or a copied address) keeps the choice,
      // where a `?lang=` of a shared link would otherwise win over the remembered one
      const u = new URL(location.href);
      if (u.searchParams.get("lang") === code) return;
      if (u.searchParams.has("lang") || code !== chooseLocale({ search: "" })) u.searchParams.set("lang", code);
      history.replaceState(history.state, "", u.href);
    }),
  );
  onLocaleChange((code) => {
    select.value = code;
  });
}

/**
 * A pre-tokenizer's name in the menu (api.facts.pretokenizers {value, label}): the two choices
 * described in words ("none", "custom") from the catalog, the others by their model name.
 * @param {{value: string, label: string}} p
 * @returns {string}
 */
export function pretokenizerLabel(p) {
  const key = `train.pretokenizer.${p.value}`;
  return messages[key] ? t(key) : p.label;
}
