// Sample training texts for a first visit: a few UDHR languages (samples/udhr.json,
// shipped with the site), a Hinglish text (samples/hinglish.txt: the UDHR has no Hinglish;
// written for bytepair, everyday Hindi-English in Latin letters as the Hinglish course writes)
// and some Python code (a module of the worker adapter).
// Buttons only put text into the training box; nothing is fetched from another host. A download
// that fails is an error as data (samples.js), worded from the catalog by errorText.

import { h } from "../dom.js";
import { t, onLocaleChange, errorText } from "../i18n.js";
import { fetchSample } from "../samples.js";

/**
 * {key, label, lang?}: key is a UDHR file code (see tools/site_build.py UDHR samples) or "code";
 * a language's label is its own name, marked with its lang (issue 21: the courses' languages
 * Bangla, Urdu and Persian among them); a sample named in words has its catalog key (`key`, i18n.js).
 */
export const SAMPLES = [
  { key: "udhr-mix", label: "UDHR in 44 languages", labelKey: "train.sample.udhr" },
  { key: "eng", label: "English", lang: "en" },
  { key: "cmn_hans", label: "中文", lang: "zh-Hans" },
  { key: "arb", label: "العربية", lang: "ar" },
  { key: "hin", label: "हिन्दी", lang: "hi" },
  { key: "ben", label: "বাংলা", lang: "bn" },
  { key: "urd", label: "اردو", lang: "ur" },
  { key: "pes_1", label: "فارسی", lang: "fa" },
  { key: "hinglish", label: "Hinglish", lang: "hi-Latn" },
  { key: "code", label: "Python code", labelKey: "train.sample.code" },
];

let udhr = null;
async function udhrSamples() {
  if (!udhr) {
    udhr = fetchSample(new URL("../../samples/udhr.json", import.meta.url), "samples/udhr.json").then((res) =>
      res.json(),
    );
    udhr.catch(() => {
      udhr = null;
    });
  }
  return (await udhr).languages;
}

/** The text of sample `key` (a promise). */
export async function sampleText(key) {
  if (key === "code") {
    const url = new URL("../py/playground/tokenize.py", import.meta.url);
    return (await fetchSample(url, "src/py/playground/tokenize.py")).text();
  }
  if (key === "hinglish") {
    return (await fetchSample(new URL("../../samples/hinglish.txt", import.meta.url), "samples/hinglish.txt")).text();
  }
  const langs = await udhrSamples();
  if (key === "udhr-mix") return langs.map((l) => l.text).join("\n\n");
  const lang = langs.find((l) => l.code === key);
  if (!lang) throw new Error(`No UDHR sample “${key}”.`);
  return lang.text;
}

/**
 * Fill `box` with one button per sample; onPick(text, sample) gets the text,
 * onError(message) a loading failure.
 */
export function mountSamples(box, { onPick, onError }) {
  const lead = h("span", { class: "hint", text: t("train.sample.lead") });
  const named = [];
  onLocaleChange(() => {
    lead.textContent = t("train.sample.lead");
    for (const [button, key] of named) button.textContent = t(key);
  });
  box.replaceChildren(
    lead,
    ...SAMPLES.map((s) => {
      const button = h("button", {
        type: "button",
        class: "button small secondary",
        text: s.labelKey ? t(s.labelKey) : s.label,
        ...(s.lang ? { lang: s.lang } : {}),
        // a language named in itself (lang set): data, as in the language menu
        dataset: { sample: s.key, ...(s.lang ? { i18nSkip: "" } : {}) },
        on: {
          click: async () => {
            try {
              onPick(await sampleText(s.key), s);
            } catch (err) {
              onError(errorText(err));
            }
          },
        },
      });
      if (s.labelKey) named.push([button, s.labelKey]);
      return button;
    }),
  );
}
