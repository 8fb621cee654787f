// Open-model pieces shared by Tokenize and Compare: the download/load progress of a model,
// the tokenizer info panel (bytepair's describe(), forwarded by the worker), and loading a
// tokenizer file someone brings (a file button, or a drop anywhere on the page).
// Text reaches the DOM through textContent only.

import { h, showError } from "../dom.js";
import { int } from "../format.js";
import { t, num, locale, onLocaleChange, errorText } from "../i18n.js";

/** Megabytes in the locale's digits ("1.2 MB"; a string, so it stays whole in a right-to-left sentence). */
const MB = (n) => `${num(n / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;

/**
 * A progress line (`<progress>` + text) for open models loading: shows
 * "Downloading Gemma 3 (262K vocab): 1.2 / 4.0 MB", then "Reading …", hides when done.
 * `wanted()` returns the names this view waits for (others' loads are not shown here; the line
 * of a model no longer wanted goes at its next event, its end among them).
 * Returns {loaded(name)}: the view has counted with `name`, so a line about it goes.
 */
export function mountModelProgress(el, api, wanted) {
  const bar = h("progress", { max: 1, value: 0, attrs: { "aria-label": t("compare.progress.label") } });
  onLocaleChange(() => bar.setAttribute("aria-label", t("compare.progress.label")));
  const text = h("span", { dataset: { testid: "model-progress-text" } });
  el.replaceChildren(bar, " ", text);
  el.hidden = true;
  let shown = null; // the model the line is about
  const hide = () => {
    el.hidden = true;
    delete el.dataset.phase;
    text.textContent = ""; // no stale "0.0 MB / 2.6 MB" left in the DOM beside a failed load's error
    shown = null;
  };
  api.onModelProgress((p) => {
    // (switching quickly: Gemma 3's line stayed after its load ended while another was chosen)
    if (!wanted().includes(p.name)) {
      if (p.name === shown) hide();
      return;
    }
    if (p.phase === "done" || p.phase === "error") return hide();
    shown = p.name;
    el.hidden = false;
    el.dataset.phase = p.phase;
    if (p.phase === "download") {
      bar.max = p.total || 1;
      bar.value = p.loaded;
      text.textContent = t("compare.progress.download", { model: p.label, loaded: MB(p.loaded), total: MB(p.total) });
    } else {
      bar.removeAttribute("value"); // indeterminate while Python reads it
      text.textContent =
        p.phase === "cache"
          ? t("compare.progress.cache", { model: p.label })
          : t("compare.progress.read", { model: p.label, total: MB(p.total) });
    }
  });
  return {
    loaded(name) {
      if (name === shown) hide();
    },
  };
}

/** Tokens the post-processor adds around the text (BOS ...), from describe()'s post_processor. */
export function addedByTemplate(desc) {
  const found = [];
  const walk = (v) => {
    if (!v || typeof v !== "object") return;
    if (Array.isArray(v.single)) {
      for (const item of v.single) {
        const s = typeof item === "string" ? item : (item?.SpecialToken?.id ?? item?.Sequence?.id);
        if (s && !s.startsWith("$") && s !== "A" && s !== "B") found.push(s);
      }
    }
    for (const child of Object.values(v)) if (child && typeof child === "object") walk(child);
  };
  walk(desc.post_processor);
  return found;
}

/**
 * The "Add special tokens" switch's words for desc (a describe() result): what the counts follow
 * is the file's post-processor (bytepair, like `tokenizers`, follows tokenizer.json), not what a
 * model library may add on top (transformers reads add_bos_token from tokenizer_config.json).
 */
export function addSpecialText(desc) {
  // a file without a post-processor (Tekken) says which kind of switch it is (tekken.py describe)
  if (desc.special_tokens_switch_kind)
    return t(`tok.addSpecial.${desc.special_tokens_switch_kind}`, { bos: desc.bos_token ?? "" });
  const added = addedByTemplate(desc);
  return added.length ? t("tok.addSpecial.post", { tokens: added.join(" … ") }) : t("tok.addSpecial.post.none");
}

/** A short text for a normalizer / pre-tokenizer JSON: "Sequence: Split, ByteLevel", "NFC", "none". */
export function componentText(spec) {
  if (!spec) return "none";
  const kids = spec.normalizers || spec.pretokenizers || spec.decoders || spec.processors;
  if (spec.type === "Sequence" && Array.isArray(kids)) return kids.map(componentText).join(" → ");
  const extra = [];
  if (spec.type === "Replace" && spec.pattern)
    extra.push(`“${spec.pattern.String ?? spec.pattern.Regex}” → “${spec.content}”`);
  if (spec.type === "Prepend") extra.push(`“${spec.prepend}”`);
  if (spec.type === "Split" && spec.behavior) extra.push(spec.behavior.toLowerCase());
  if (spec.type === "ByteLevel" && spec.add_prefix_space) extra.push("prefix space");
  if (spec.type === "Metaspace") extra.push(`“${spec.replacement}”, ${spec.prepend_scheme ?? "always"}`);
  if (spec.name) extra.push(spec.name);
  return extra.length ? `${spec.type} (${extra.join(", ")})` : spec.type;
}

const SPECIALS_SHOWN = 12;

/** The rows of the info panel: [[term, text or Node]]. */
export function infoRows(desc, label, openModel = null) {
  const specials = Object.entries(desc.special_tokens || {}).sort((a, b) => a[1] - b[1]);
  const added = addedByTemplate(desc);
  const patterns = desc.split_patterns || [];
  const code = (s) =>
    h("code", {
      class: "info-code",
      attrs: { dir: "ltr" },
      text: /^\s+$/.test(s) ? `${JSON.stringify(s)} (whitespace)` : s,
    });
  // terms and fixed words from the catalog (dialog.about.*); names, files, patterns and
  // special tokens as the tokenizer spells them; counts in the locale's digits, ids ASCII
  const en = locale() === "en";
  const count = (n) => (en ? int(n) : num(n));
  // names and components as the tokenizer's file spells them: data, not words to translate
  const data = (text) => h("span", { text, dataset: { i18nSkip: "" } });
  return [
    [t("dialog.about.tokenizer"), data(label)],
    ...(openModel
      ? [
          [
            t("dialog.about.family"),
            t("dialog.about.family.value", {
              family: openModel.family,
              version: openModel.version,
              maker: openModel.maker,
            }),
          ],
          [
            t("dialog.about.file"),
            t("dialog.about.file.value", {
              files: openModel.files.join(" + "),
              source: openModel.source.replace(":", " "),
            }),
          ],
          ...(openModel.note ? [[t("dialog.about.note"), openModel.note]] : []),
        ]
      : []),
    [t("dialog.about.model"), data(desc.model + (desc.version ? ` ${desc.version}` : ""))],
    [
      t("dialog.about.vocab"),
      t("dialog.about.vocab.value", { n: desc.vocab_size }) +
        (desc.n_vocab !== desc.vocab_size ? t("dialog.about.vocab.added", { last: int(desc.n_vocab - 1) }) : ""),
    ],
    [t("dialog.about.merges"), desc.n_merges != null ? count(desc.n_merges) : "—"],
    [t("dialog.about.normalizer"), desc.normalizer ? data(componentText(desc.normalizer)) : t("dialog.about.none")],
    [
      t("dialog.about.pretokenizer"),
      desc.pre_tokenizer ? data(componentText(desc.pre_tokenizer)) : t("dialog.about.none"),
    ],
    [
      t("dialog.about.pattern"),
      patterns.length ? h("span", {}, ...patterns.map(code)) : t("dialog.about.pattern.none"),
    ],
    [t("dialog.about.bytelevel"), desc.byte_level ? t("dialog.about.bytelevel.yes") : t("dialog.about.no")],
    [t("dialog.about.fallback"), desc.byte_fallback ? t("dialog.about.fallback.yes") : t("dialog.about.no")],
    [t("dialog.about.added"), added.length ? data(added.join(" … ")) : t("dialog.about.nothing")],
    [t("dialog.about.boseos"), data(`${desc.bos_token ?? "—"} / ${desc.eos_token ?? "—"}`)],
    [
      t("dialog.about.specials"),
      specials.length
        ? h(
            "span",
            {},
            ...specials
              .slice(0, SPECIALS_SHOWN)
              .map(([s, id]) => h("code", { class: "info-code", text: `${s} ${id}` })),
            specials.length > SPECIALS_SHOWN
              ? t("dialog.about.specials.more", { n: specials.length - SPECIALS_SHOWN })
              : "",
          )
        : t("dialog.about.none"),
    ],
  ];
}

/** The info panel: `<details>` whose `<dl>` shows infoRows of the chosen tokenizer. show(name) fills it. */
export function mountTokenizerInfo(details, api) {
  const list = details.querySelector("dl");
  let seq = 0;
  async function show(name) {
    const mine = ++seq;
    try {
      const desc = await api.describe(name);
      if (mine !== seq) return;
      const openModel = api.openModels().find((m) => m.name === name) ?? null;
      list.replaceChildren(
        ...infoRows(desc, api.label(name), openModel).flatMap(([term, value]) => [
          h("dt", { text: term }),
          h("dd", {}, value),
        ]),
      );
      details.dataset.tokenizer = name;
      return desc;
    } catch (err) {
      if (mine !== seq) return null;
      list.replaceChildren(h("dt", { text: t("dialog.about.tokenizer") }), h("dd", { text: errorText(err) }));
      delete details.dataset.tokenizer;
      return null;
    }
  }
  return { show };
}

/**
 * A tokenizer file's error in the reader's language, with the file's name (detail.file, set by
 * api.loadFiles) in front where the worded sentence does not carry it.
 * @param {Error & {detail?: {file?: string}}} err
 * @returns {string}
 */
export function fileErrorText(err) {
  const text = errorText(err);
  const file = err?.detail?.file;
  return file && !text.includes(file) ? t("files.error", { file, error: text }) : text;
}

/**
 * Loading a tokenizer file: the file input (`input[type=file]`, multiple) and a drop of .json files
 * anywhere on the page. Errors go to the `[data-error-for=key]` slot in root (the file's name,
 * bytepair's message and where in the JSON); onLoaded(name) after it is kept.
 */
export function mountFileLoader(root, api, { input, key, onLoaded }) {
  const status = root.querySelector(`[data-status-for="${key}"]`);
  async function load(files) {
    showError(root, key, "");
    if (status) status.textContent = t("files.reading", { names: [...files].map((f) => f.name).join(", ") });
    try {
      const res = await api.loadFiles(files);
      if (status)
        status.textContent = t(res.saved ? "files.loaded.kept" : "files.loaded", {
          name: res.name,
          model: res.model,
          ids: int(res.n_vocab), // (ids: ASCII digits, as everywhere)
        });
      onLoaded(res.name);
    } catch (err) {
      if (status) status.textContent = "";
      showError(root, key, fileErrorText(err));
    }
  }
  input.addEventListener("change", () => {
    if (input.files.length) load(input.files);
    input.value = "";
  });
  const jsonFiles = (dt) => [...(dt?.files || [])].filter((f) => /\.json$/i.test(f.name));
  const hasFiles = (dt) => [...(dt?.types || [])].includes("Files");
  document.addEventListener("dragover", (e) => {
    if (!hasFiles(e.dataTransfer)) return;
    e.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", (e) => {
    document.body.classList.remove("dropping");
    if (!hasFiles(e.dataTransfer)) return; // dragged text is the text boxes' business
    e.preventDefault(); // a file dropped on the page must not replace the page
    const files = jsonFiles(e.dataTransfer);
    if (files.length) load(files);
    else showError(root, key, t("files.drop.only"));
  });
  return { load };
}
