// The tokenizer lists of Tokenize and Compare, grouped by maker: OpenAI's encodings, the open
// models the site ships (py/bytepair/app/models.py, by maker, in its order), files loaded here, and
// tokenizers trained here. Everything comes from api (facts from Python, storage); no copy here.

/** [{label, items: [{name, label}]}] in the order the page lists them (empty groups left out). */
export function tokenizerGroups(api) {
  const groups = [{ label: "OpenAI", items: api.realTokenizers().map((t) => ({ name: t.name, label: t.label })) }];
  const byMaker = new Map();
  for (const m of api.openModels()) {
    if (!byMaker.has(m.maker)) byMaker.set(m.maker, []);
    byMaker.get(m.maker).push({ name: m.name, label: m.label });
  }
  for (const [maker, items] of byMaker) groups.push({ label: maker, items });
  groups.push({
    label: "Loaded here",
    items: api.loadedFiles().map((t) => ({ name: t.name, label: `${t.name} (${t.meta.fileName})` })),
  });
  groups.push({ label: "Trained here", items: api.trainedTokenizers().map((t) => ({ name: t.name, label: t.name })) });
  return groups.filter((g) => g.items.length);
}

/** Tokenizers Compare ticks by default: every one but the shipped open models (each is a download). */
export function defaultCompareTokenizers(api) {
  return api.tokenizers().filter((name) => api.kind(name) !== "open");
}
