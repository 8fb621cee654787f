// Pictures for slides (issue 13): the token view, side-by-side rows, the
// compression chart, the Compare chart and table and a step-through step as
// SVG and PNG, and copy as image where the browser allows.
//
// SVG is built from data with DOM APIs (createElementNS + textContent, never
// an HTML or SVG string parsed from text); the PNG is the SVG drawn onto a
// canvas at PNG_SCALE. Pictures use a fixed light, high-contrast palette and
// large type so they read on a projector whatever the page's theme, and each
// carries a title and a subtitle saying what it shows.

import { h, download } from "../dom.js";
import { layout } from "./sidebyside.js";
import { seriesColour } from "../palette.js";
import { t, num, locale, onLocaleChange, errorText } from "../i18n.js";

// Every word drawn into a picture (titles, subtitles, notes, SVG <title>) and every button
// title comes from the catalog (teach.* keys, issue 21); counts in the locale's digits, ids ASCII.

const NS = "http://www.w3.org/2000/svg";
/** PNG pixels per SVG unit (the PNG of a W×H picture is W·PNG_SCALE × H·PNG_SCALE pixels). */
export const PNG_SCALE = 2;
/** Width of a picture in SVG units (CSS pixels). */
export const WIDTH = 1280;
const FONT = "'Noto Sans', 'DejaVu Sans', Arial, sans-serif";
const MONO = "'Noto Sans Mono', 'DejaVu Sans Mono', monospace";
const SIZE = 28; // token text
const PAD = 40;
const INK = "#111111";
const MUTED = "#444444";
const TOKEN_COLORS = ["#c9dcff", "#ffd8a8", "#c3f0ca", "#ffc9de", "#e5d4ff", "#fff1a8"];
const SERIES = ["#1f4fd1", "#d9480f", "#2b8a3e", "#ae3ec9", "#c92a2a", "#0b7285", "#5c940d", "#862e9c"];
const DIFFER = "#d6336c";
/** Tokens drawn in one picture at most (a note says when more were left out). */
export const MAX_TOKENS = 800;

let measureCtx = null;
/** Width of `text` in SVG units at `size` px (canvas measureText with the picture's font). */
function measure(text, size, font = FONT) {
  measureCtx ??= document.createElement("canvas").getContext("2d");
  measureCtx.font = `${size}px ${font}`;
  return measureCtx.measureText(text).width;
}

/** An SVG element with attributes and optional text (textContent). */
function s(tag, attrs = {}, text = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
}

/** A new picture: {svg, add(el), y, finish(height)} with its title and subtitle drawn. */
function picture(title, subtitle, width = WIDTH) {
  const svg = s("svg", { xmlns: NS, width, viewBox: `0 0 ${width} 100`, "font-family": FONT, "xml:lang": locale() });
  svg.append(s("title", {}, `${title}${subtitle ? ` — ${subtitle}` : ""}`));
  const bg = s("rect", { x: 0, y: 0, width, height: 100, fill: "#ffffff" });
  svg.append(bg);
  // the title shrinks to fit the width (a long merge line), down to 20 px
  const titleSize = Math.max(20, Math.min(36, Math.floor((36 * (width - 2 * PAD)) / (measure(title, 36) * 1.08 || 1))));
  svg.append(s("text", { x: PAD, y: PAD + 30, "font-size": titleSize, "font-weight": "700", fill: INK }, title));
  let y = PAD + 44;
  if (subtitle) {
    svg.append(s("text", { x: PAD, y: y + 26, "font-size": 22, fill: MUTED }, subtitle));
    y += 38;
  }
  return {
    svg,
    y: y + 20,
    width,
    finish(height) {
      const H = Math.ceil(height + PAD);
      svg.setAttribute("height", H);
      svg.setAttribute("viewBox", `0 0 ${width} ${H}`);
      bg.setAttribute("height", H);
      return svg;
    },
  };
}

/** Shown form of a token's text in a picture: · space, → tab, ↵ newline. */
function shown(text) {
  return text.replace(/ /g, "·").replace(/\t/g, "→").replace(/\r?\n/g, "↵");
}

/**
 * Lay token boxes out in lines from x0 to the picture's right edge.
 * tokens: [{text, sub?, fill?, stroke?}]; returns the y below the last line.
 */
function flow(p, tokens, y, { x0 = PAD, size = SIZE, showSub = false } = {}) {
  const lineH = size + 22 + (showSub ? size * 0.6 + 6 : 0);
  let x = x0;
  for (const t of tokens) {
    const label = shown(t.text);
    const w = Math.max(measure(label, size), showSub && t.sub ? measure(t.sub, size * 0.6) : 0) + 12;
    if (x + w > p.width - PAD && x > x0) {
      x = x0;
      y += lineH;
    }
    const g = s("g", { "data-token": "" });
    g.append(
      s("rect", {
        x,
        y,
        width: w,
        height: size + 14,
        rx: 5,
        fill: t.fill ?? TOKEN_COLORS[0],
        stroke: t.stroke ?? "none",
        "stroke-width": t.stroke ? 3 : 0,
      }),
    );
    g.append(s("text", { x: x + 6, y: y + size + 2, "font-size": size, fill: INK, "xml:space": "preserve" }, label));
    if (showSub && t.sub)
      g.append(
        s(
          "text",
          {
            x: x + 6,
            y: y + size + 14 + size * 0.6 + 2,
            "font-size": Math.round(size * 0.6),
            fill: MUTED,
            "font-family": MONO,
          },
          t.sub,
        ),
      );
    p.svg.append(g);
    x += w + 4;
    if (/\n/.test(t.text)) {
      x = x0;
      y += lineH;
    }
  }
  return y + lineH;
}

/**
 * The token view as a picture.
 * tokens: [{text, ids: [int]}] (one per coloured box); opts: {tokenizer, source, showIds, count}.
 */
export function tokensSvg(tokens, { tokenizer, source, showIds = false, count = tokens.length, bytes = null }) {
  const more = tokens.length > MAX_TOKENS;
  const p = picture(
    t("teach.tokens.title", { n: count, tokenizer }),
    bytes
      ? t("teach.tokens.subtitle", {
          source,
          bytes,
          per: num(bytes / count, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
        })
      : source,
  );
  let y = flow(
    p,
    tokens
      .slice(0, MAX_TOKENS)
      .map((t, i) => ({ text: t.text, sub: t.ids.join(" "), fill: TOKEN_COLORS[i % TOKEN_COLORS.length] })),
    p.y,
    { showSub: showIds },
  );
  if (more) {
    p.svg.append(
      s(
        "text",
        { x: PAD, y: y + 10, "font-size": 20, fill: MUTED },
        t("teach.tokens.more", { max: MAX_TOKENS, n: tokens.length }),
      ),
    );
    y += 30;
  }
  return p.finish(y);
}

/**
 * Side-by-side rows as a picture, aligned as on the page: the text is cut at the
 * boundaries every row shares (layout() of sidebyside.js) and each stretch is
 * drawn with one line per row, every character stretch the same width in all
 * rows; a red edge marks a token starting where the rows cut differently.
 * result: api.sideBySide's reply; text: the text it covers; opts: {source, label(name)}.
 */
export function rowsSvg(result, text, { source, label = (n) => n }) {
  const p = picture(t("teach.rows.title", { n: result.rows.length }), source);
  const size = 26;
  const rowH = size + 16;
  let y = p.y;
  result.rows.forEach((r, i) => {
    const sign = r.delta > 0 ? "+" : r.delta < 0 ? "−" : "±";
    p.svg.append(s("rect", { x: PAD, y: y + 6, width: 22, height: 22, fill: SERIES[i % SERIES.length] }));
    p.svg.append(
      s(
        "text",
        { x: PAD + 32, y: y + 26, "font-size": 24, "font-weight": "700", fill: INK },
        t(i ? "teach.rows.row_delta" : "teach.rows.row", {
          name: label(r.name),
          n: r.count,
          per: num(r.bytes_per_token, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
          delta: `${sign}${num(Math.abs(r.delta))}`,
        }),
      ),
    );
    y += 34;
  });
  y += 16;
  const differ = new Set(result.differ);
  const nRows = result.rows.length;
  const bandH = nRows * (rowH + 4) + 14;
  let x = PAD;
  let drawn = 0;
  for (const b of layout(result)) {
    if (drawn > MAX_TOKENS) break;
    const cellLabel = (c) => shown(text.slice(c.start, c.end)) + (c.tokens.length > 1 ? ` ×${c.tokens.length}` : "");
    // a stretch is as wide as its text, or as a one-stretch cell's label (with its ×n) where wider
    const widths = b.columns
      .slice(0, -1)
      .map(
        (o, k) =>
          Math.max(
            measure(shown(text.slice(o, b.columns[k + 1])), size),
            ...b.rows.flatMap((cells) =>
              cells.filter((c) => c.start === o && c.end === b.columns[k + 1]).map((c) => measure(cellLabel(c), size)),
            ),
          ) + 10,
      );
    const blockW = widths.reduce((a, w) => a + w, 0);
    if (x + blockW > p.width - PAD && x > PAD) {
      x = PAD;
      y += bandH;
    }
    const colX = [x];
    for (const w of widths) colX.push(colX[colX.length - 1] + w);
    const index = new Map(b.columns.map((o, k) => [o, k]));
    b.rows.forEach((cells, ri) => {
      const ry = y + ri * (rowH + 4);
      cells.forEach((c) => {
        const x0 = colX[index.get(c.start)];
        const x1 = colX[index.get(c.end)];
        const cut = c.start > 0 && differ.has(c.start);
        const g = s("g", { "data-token": "" });
        g.append(
          s("rect", {
            x: x0 + 1,
            y: ry,
            width: Math.max(4, x1 - x0 - 2),
            height: rowH,
            rx: 4,
            fill: TOKEN_COLORS[(c.tokens[0] + ri) % TOKEN_COLORS.length],
          }),
        );
        g.append(
          s("rect", { x: x0 + 1, y: ry, width: Math.max(4, x1 - x0 - 2), height: 4, fill: SERIES[ri % SERIES.length] }),
        );
        if (cut) g.append(s("rect", { x: x0 - 1, y: ry - 2, width: 5, height: rowH + 4, fill: DIFFER }));
        g.append(
          s(
            "text",
            { x: x0 + 5, y: ry + size + 6, "font-size": size, fill: INK, "xml:space": "preserve" },
            cellLabel(c),
          ),
        );
        p.svg.append(g);
        drawn += 1;
      });
    });
    x += blockW + 12;
  }
  y += bandH;
  p.svg.append(s("text", { x: PAD, y: y + 20, "font-size": 20, fill: MUTED }, t("teach.rows.note")));
  return p.finish(y + 30);
}

/** Nice round tick values from 0 (or min) to max. */
function ticks(min, max, n = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((v) => v >= raw);
  const out = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

/**
 * A chart.js chart (line with {x, y} points, or bar with labels) redrawn as SVG from its data.
 * opts: {title, subtitle}.
 */
export function chartSvg(chart, { title, subtitle }) {
  const p = picture(title, subtitle);
  const type = chart.config.type;
  const data = chart.data;
  const xTitle = chart.options.scales?.x?.title?.text || "";
  const yTitle = chart.options.scales?.y?.title?.text || "";
  const left = PAD + 110;
  const top = p.y + 10;
  const plotW = p.width - left - PAD;
  const plotH = 520;
  const sets = data.datasets;
  const values = sets.flatMap((d) => d.data.map((v) => (typeof v === "object" && v ? v.y : v))).filter(Number.isFinite);
  const yMin = Math.min(0, ...values);
  const yMax = Math.max(...values, 0) || 1;
  const yt = ticks(yMin, yMax);
  const yStep = yt.length > 1 ? yt[1] - yt[0] : 0;
  while (yStep && yt[yt.length - 1] < yMax - 1e-9) yt.push(+(yt[yt.length - 1] + yStep).toFixed(10)); // a labelled line above the data
  const y0 = yt[0];
  const y1 = Math.max(yt[yt.length - 1], yMax);
  const Y = (v) => top + plotH - ((v - y0) / (y1 - y0 || 1)) * plotH;
  for (const t of yt) {
    p.svg.append(s("line", { x1: left, x2: left + plotW, y1: Y(t), y2: Y(t), stroke: "#cccccc" }));
    p.svg.append(s("text", { x: left - 10, y: Y(t) + 7, "font-size": 20, fill: INK, "text-anchor": "end" }, String(t)));
  }
  p.svg.append(
    s(
      "text",
      {
        x: PAD,
        y: top + plotH / 2,
        "font-size": 20,
        fill: INK,
        transform: `rotate(-90 ${PAD + 10} ${top + plotH / 2})`,
        "text-anchor": "middle",
      },
      yTitle,
    ),
  );
  let bottom = top + plotH;
  if (type === "line") {
    const xs = sets.flatMap((d) => d.data.map((v) => v.x));
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const X = (v) => left + ((v - x0) / (x1 - x0 || 1)) * plotW;
    for (const t of ticks(x0, x1, 8))
      p.svg.append(
        s("text", { x: X(t), y: bottom + 28, "font-size": 20, fill: INK, "text-anchor": "middle" }, String(t)),
      );
    sets.forEach((d, i) => {
      p.svg.append(
        s("polyline", {
          fill: "none",
          stroke: SERIES[i % SERIES.length],
          "stroke-width": 4,
          points: d.data.map((v) => `${X(v.x).toFixed(1)},${Y(v.y).toFixed(1)}`).join(" "),
        }),
      );
    });
    bottom += 40;
  } else {
    const labels = data.labels || [];
    const groupW = plotW / Math.max(1, labels.length);
    const barW = (groupW * 0.8) / Math.max(1, sets.length);
    sets.forEach((d, i) =>
      d.data.forEach((v, k) => {
        if (!Number.isFinite(v)) return;
        const x = left + k * groupW + groupW * 0.1 + i * barW;
        p.svg.append(
          s("rect", {
            x,
            y: Math.min(Y(v), Y(0)),
            width: Math.max(1, barW - 1),
            height: Math.abs(Y(0) - Y(v)),
            fill: d.key ? seriesColour(d.key) : SERIES[i % SERIES.length],
          }),
        );
      }),
    );
    const fs = Math.min(20, Math.max(10, groupW * 0.6));
    labels.forEach((l, k) => {
      const x = left + k * groupW + groupW / 2;
      p.svg.append(
        s(
          "text",
          {
            x,
            y: bottom + 12,
            "font-size": fs,
            fill: INK,
            "text-anchor": "end",
            transform: `rotate(-60 ${x} ${bottom + 12})`,
          },
          String(l),
        ),
      );
    });
    bottom += 12 + Math.max(0, ...labels.map((l) => measure(String(l), fs))) * 0.87 + 10;
  }
  p.svg.append(
    s("line", {
      x1: left,
      x2: left + plotW,
      y1: Y(Math.max(0, y0)),
      y2: Y(Math.max(0, y0)),
      stroke: INK,
      "stroke-width": 2,
    }),
  );
  if (xTitle) {
    p.svg.append(
      s("text", { x: left + plotW / 2, y: bottom + 24, "font-size": 20, fill: INK, "text-anchor": "middle" }, xTitle),
    );
    bottom += 34;
  }
  // legend
  let x = left;
  if (sets.length > 1 || type !== "line") {
    for (const [i, d] of sets.entries()) {
      const w = measure(d.label, 22) + 44;
      if (x + w > p.width - PAD) {
        x = left;
        bottom += 34;
      }
      const fill = d.key ? seriesColour(d.key) : SERIES[i % SERIES.length]; // a tokenizer's own colour (palette.js)
      p.svg.append(s("rect", { x, y: bottom + 10, width: 24, height: 24, fill }));
      p.svg.append(s("text", { x: x + 32, y: bottom + 30, "font-size": 22, fill: INK }, d.label));
      x += w;
    }
    bottom += 44;
  }
  return p.finish(bottom);
}

/** An HTML table's cells (header and body, as shown) redrawn as an SVG table. opts: {title, subtitle}. */
export function tableSvg(table, { title, subtitle }) {
  // cells with their column and span (a header cell may span several columns)
  const rows = [...table.querySelectorAll("tr")].map((tr) => {
    let col = 0;
    return [...tr.children].map((c) => {
      const cell = {
        text: c.textContent.trim(),
        head: c.tagName === "TH",
        num: c.classList.contains("num"),
        col,
        span: Math.max(1, c.colSpan || 1),
      };
      col += cell.span;
      return cell;
    });
  });
  const n = Math.max(0, ...rows.map((r) => r.reduce((a, c) => a + c.span, 0)));
  const size = 22;
  const widths = Array.from(
    { length: n },
    (_, k) =>
      Math.max(
        40,
        ...rows.flatMap((r) =>
          r.filter((c) => c.col === k && c.span === 1).map((c) => measure(c.text, size, FONT) * (c.head ? 1.08 : 1)),
        ),
      ) + 24,
  );
  const x0 = [PAD];
  for (const w of widths) x0.push(x0[x0.length - 1] + w);
  const total = x0[n] - PAD;
  const width = Math.max(WIDTH, Math.ceil(total + 2 * PAD));
  const p = picture(title, subtitle, width);
  let y = p.y;
  rows.forEach((r, i) => {
    if (i % 2 === 1) p.svg.append(s("rect", { x: PAD, y, width: total, height: size + 16, fill: "#f1f3f5" }));
    for (const c of r) {
      const left = x0[c.col];
      const right = x0[Math.min(n, c.col + c.span)];
      p.svg.append(
        s(
          "text",
          {
            x: c.num ? right - 12 : left + 12,
            y: y + size + 4,
            "font-size": size,
            fill: INK,
            "font-weight": c.head ? "700" : "400",
            "text-anchor": c.num ? "end" : "start",
          },
          c.text,
        ),
      );
    }
    y += size + 16;
  });
  return p.finish(y);
}

/**
 * A step of the step-through as a picture: its heading and the symbols of the
 * text/words after the merge (the merged ones outlined). groups: [[{text, merged}]].
 */
export function stepSvg(groups, { title, subtitle }) {
  const p = picture(title, subtitle);
  let y = p.y;
  const tokens = [];
  for (const g of groups.slice(0, 60)) {
    for (const sym of g)
      tokens.push({ text: sym.text, fill: sym.merged ? "#ffd8a8" : "#e9ecef", stroke: sym.merged ? "#d9480f" : null });
    tokens.push({ text: "", fill: "none" }); // a gap between words
  }
  y = flow(p, tokens, y, { size: 26 });
  return p.finish(y);
}

// --- output -------------------------------------------------------------------

/** The SVG document's text (XMLSerializer of the DOM built above). */
export function svgText(svg) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}`;
}

/** The picture as a PNG Blob: the SVG drawn onto a canvas at PNG_SCALE. */
export async function pngBlob(svg) {
  const w = Number(svg.getAttribute("width"));
  const hgt = Number(svg.getAttribute("height"));
  const url = URL.createObjectURL(new Blob([svgText(svg)], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.decoding = "async";
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(w * PNG_SCALE);
    canvas.height = Math.round(hgt * PNG_SCALE);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("The browser could not make a PNG."))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Copy the picture as a PNG image; resolves true when the clipboard took it. */
export async function copyImage(svg) {
  if (!globalThis.ClipboardItem || !navigator.clipboard?.write) return false;
  try {
    await navigator.clipboard.write([new ClipboardItem({ "image/png": pngBlob(svg) })]);
    return true;
  } catch {
    return false;
  }
}

/** A file name part from a label: "cl100k_base tokens" -> "cl100k_base-tokens". */
export function slug(text) {
  return (
    String(text)
      .toLowerCase()
      .replace(/[^a-z0-9_.]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "picture"
  );
}

/**
 * A toolbar of picture buttons (SVG, PNG, Copy image) for `make()` -> SVG element
 * (or null when there is nothing to draw). `name()` gives the file name stem.
 */
export function pictureButtons(testid, make, name, what = "picture") {
  // what: the thing drawn, a key of the catalog's teach.what.* ("tokens", "rows", "compression", ...)
  const thing = () => t(`teach.what.${what}`);
  const status = h("span", { class: "hint picture-status", attrs: { role: "status" } });
  const act = async (fn) => {
    status.textContent = "";
    const svg = make();
    if (!svg) {
      status.textContent = t("teach.nothing");
      return;
    }
    try {
      await fn(svg);
    } catch (err) {
      status.textContent = t("teach.failed", { what: thing(), message: errorText(err) });
    }
  };
  const titles = [];
  const button = (label, key, fn, title) => {
    const b = h("button", {
      type: "button",
      class: "button small secondary one-line",
      dataset: { testid: `${testid}-${key}`, ...(key === "copy" ? { i18n: "picture.copy" } : {}) },
      attrs: { title: title() },
      on: { click: () => act(fn) },
    });
    // "SVG", "PNG": format names, the same in every language (data); "Copy image" from the catalog
    if (key === "copy") b.textContent = label;
    else b.append(h("span", { text: label, dataset: { i18nSkip: "" } }));
    titles.push([b, title]);
    return b;
  };
  onLocaleChange(() => {
    for (const [b, title] of titles) b.title = title();
  });
  return h(
    "div",
    { class: "picture-bar", dataset: { testid } },
    h("span", { class: "picture-label", text: t("picture.label"), dataset: { i18n: "picture.label" } }),
    button(
      "SVG",
      "svg",
      (svg) => download(`${slug(name())}.svg`, svgText(svg), "image/svg+xml"),
      () => t("teach.svg_title", { what: thing() }),
    ),
    button(
      "PNG",
      "png",
      async (svg) => download(`${slug(name())}.png`, await pngBlob(svg), "image/png"),
      () => t("teach.png_title", { what: thing(), scale: PNG_SCALE }),
    ),
    button(
      t("picture.copy"),
      "copy",
      async (svg) => {
        const ok = await copyImage(svg);
        status.textContent = t(ok ? "teach.copied" : "teach.copy_refused");
      },
      () => t("teach.copy_title", { what: thing() }),
    ),
    status,
  );
}

/**
 * Picture toolbars for the other views, added next to what they export (no
 * change to those views' modules): Train's compression chart, Compare's chart
 * and table, the step-through's current step. `root` is the document.
 */
export function mountPictureBars(root, store, api) {
  const chartOf = (canvas) => globalThis.Chart?.getChart?.(canvas) ?? null;
  const place = (sel, bar) => {
    const el = root.querySelector(sel);
    if (el) el.after(bar);
  };
  const compression = root.querySelector('[data-testid="compression-chart"]');
  place(
    '[data-testid="compression-card"] .chart-box',
    pictureButtons(
      "compression-picture",
      () => {
        const chart = compression && chartOf(compression);
        if (!chart) return null;
        const r = store.state.train?.result;
        const m = store.state.train?.merges ?? [];
        const bytes = store.state.train?.totalBytes;
        return chartSvg(chart, {
          title: t("teach.compression.title"),
          subtitle: [
            r?.name ? t("teach.compression.tokenizer", { name: r.name }) : null,
            bytes
              ? t("teach.compression.merges_bytes", { n: m.length, bytes })
              : t("teach.compression.merges", { n: m.length }),
          ]
            .filter(Boolean)
            .join(" · "),
        });
      },
      () => `compression-${store.state.train?.result?.name ?? "chart"}`,
      "compression",
    ),
  );

  const compareChart = root.querySelector('[data-testid="compare-chart"]');
  const compareSubtitle = () => {
    const src =
      root.querySelector('[name="compare-source"]:checked')?.value === "custom"
        ? t("teach.compare.custom")
        : t("teach.compare.udhr");
    const tokenizers = [...root.querySelectorAll('[data-testid="compare-tokenizers"] input:checked')]
      .map((i) => api.label(i.value))
      .join(", ");
    return `${tokenizers} · ${src}`;
  };
  root.querySelector('[data-testid="compare-chart"]')?.parentElement.after(
    pictureButtons(
      "compare-chart-picture",
      () => {
        const chart = compareChart && chartOf(compareChart);
        if (!chart) return null;
        const metric = root.querySelector('[data-testid="compare-metric"]');
        return chartSvg(chart, {
          title: metric?.selectedOptions[0]?.textContent ?? t("teach.compare.title"),
          subtitle: compareSubtitle(),
        });
      },
      () => "compare-chart",
      "compare_chart",
    ),
  );
  root.querySelector('[data-testid="compare-table"]')?.parentElement.after(
    pictureButtons(
      "compare-table-picture",
      () => {
        const table = root.querySelector('[data-testid="compare-table"]');
        if (!table || !table.tBodies[0]?.rows.length) return null;
        return tableSvg(table, { title: t("teach.compare.table_title"), subtitle: compareSubtitle() });
      },
      () => "compare-table",
      "compare_table",
    ),
  );

  place(
    '[data-testid="steps-merge"]',
    pictureButtons(
      "step-picture",
      () => {
        const corpus = root.querySelector('[data-testid="steps-corpus"]');
        if (!corpus || !corpus.querySelector(".sym")) return null;
        const groups = new Map();
        for (const sym of corpus.querySelectorAll(".sym")) {
          // one word's or piece's symbols (views/steps.js symbolRow: a right-to-left row may hold runs in spans)
          const parent = sym.closest(".sym-row") ?? sym.parentElement;
          if (!groups.has(parent)) groups.set(parent, []);
          groups.get(parent).push({ text: sym.textContent, merged: sym.classList.contains("merged") });
        }
        const head = root.querySelector('[data-testid="steps-corpus-head"]')?.textContent ?? "";
        const merge = root.querySelector('[data-testid="steps-merge"]')?.textContent.trim() || t("teach.step.start");
        const mode =
          root.querySelector('[name="steps-mode"]:checked')?.value === "bytes"
            ? t("teach.step.bytes")
            : t("teach.step.textbook");
        return stepSvg([...groups.values()], { title: merge, subtitle: `${mode} · ${head}` });
      },
      () => "bpe-step",
      "step",
    ),
  );
}
