// The tokenizer lists of Tokenize and Compare, grouped by maker: OpenAI's encodings, the open
// models the site ships (py/bytepair/app/models.py, by maker, in its order), files loaded here, and
// tokenizers trained here. Everything comes from api (facts from Python, storage); no copy here.

import { t } from "./i18n.js";

/**
 * A tokenizer's name in a menu: `label` (default: api.label(name), bytepair's facts), with
 * " — not downloaded" (the catalog's tokenizer.not_downloaded) while the page is offline and
 * its file is not here (api.notDownloaded); online every choice reads as its label alone.
 */
export function menuLabel(api, name, label = api.label(name)) {
  return api.notDownloaded(name) ? t("tokenizer.not_downloaded", { label }) : label;
}

/**
 * [{label, maker, items: [{name, label}]}] in the order the page lists them (empty groups left out);
 * a group's label is its maker's name (`maker`: true, a name, not words to translate) or the
 * page's own group in the reader's language (the catalog's compare.group.*); an item's label is
 * its menu label (menuLabel: marked while offline when not downloaded).
 */
export function tokenizerGroups(api) {
  const groups = [
    {
      label: "OpenAI",
      maker: true,
      items: api.realTokenizers().map((e) => ({ name: e.name, label: menuLabel(api, e.name, e.label) })),
    },
  ];
  const byMaker = new Map();
  for (const m of api.openModels()) {
    if (!byMaker.has(m.maker)) byMaker.set(m.maker, []);
    byMaker.get(m.maker).push({ name: m.name, label: menuLabel(api, m.name, m.label) });
  }
  for (const [maker, items] of byMaker) groups.push({ label: maker, maker: true, items });
  groups.push({
    label: t("compare.group.loaded"),
    items: api.loadedFiles().map((t) => ({ name: t.name, label: `${t.name} (${t.meta.fileName})` })),
  });
  groups.push({
    label: t("compare.group.trained"),
    items: api.trainedTokenizers().map((t) => ({ name: t.name, label: t.name })),
  });
  return groups.filter((g) => g.items.length);
}

/** Tokenizers Compare ticks by default: every one but the shipped open models (each is a download). */
export function defaultCompareTokenizers(api) {
  return api.tokenizers().filter((name) => api.kind(name) !== "open");
}
