// Chart series colours by tokenizer (issue 21): defined here once, read by charts.js (the page's
// charts), views/pictures.js (SVG/PNG exports) and tests/core/test_chart_palette.py.
//
// A tokenizer keeps its colour in every chart: the colour comes from its name, never from the order
// of the ticks or series. Within each theme every pair of these colours differs by at least 20
// CIEDE2000 (Sharma, Wu & Dalal 2005), also after simulating protanopia and deuteranopia with the
// matrices of Machado, Oliveira & Fernandes 2009 (severity 1.0, applied to linear sRGB). Found by a
// max-min search over sRGB with the theme's lightness bounds (light: L* 15-82 on white; dark: L* 32-97
// on #1a1e24); the test recomputes every pair with colour-science.

/** {theme: {tokenizer name: "#rrggbb"}}: the built-in tokenizers (OpenAI's listed encodings and the open models). */
export const SERIES_COLOURS = {
  light: {
    gpt2: "#478eff",
    p50k_base: "#644300",
    cl100k_base: "#4402f1",
    o200k_base: "#98820c",
    llama3: "#12215b",
    qwen3: "#94bb9b",
    gemma3: "#69dbec",
    deepseek_v3: "#332222",
    "gpt-oss": "#696f72",
    "mistral-nemo": "#cfd310",
  },
  dark: {
    gpt2: "#ccbbff",
    p50k_base: "#cc9900",
    cl100k_base: "#aa55ff",
    o200k_base: "#eeff99",
    llama3: "#eeeeee",
    qwen3: "#aa9988",
    gemma3: "#995500",
    deepseek_v3: "#777788",
    "gpt-oss": "#664444",
    "mistral-nemo": "#772299",
  },
};

/** Lightness of the colours of other tokenizers (loaded files, trained ones) per theme. */
const EXTRA_LIGHTNESS = { light: 45, dark: 72 };

/** A stable number from a name (FNV-1a), so a trained tokenizer's colour does not depend on the series order. */
function hash(name) {
  let x = 0x811c9dc5;
  for (const ch of name) x = Math.imul(x ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return x;
}

/**
 * The colour of tokenizer `name` in `theme` ("light" | "dark"): the built-in's own colour, or for
 * any other name a hue derived from the name (no pairwise guarantee for those).
 */
export function seriesColour(name, theme = "light") {
  const own = SERIES_COLOURS[theme]?.[name];
  if (own) return own;
  return `hsl(${hash(String(name)) % 360}, 65%, ${EXTRA_LIGHTNESS[theme] ?? 45}%)`;
}
