// Charts (chart.js, loaded as a classic script into window.Chart when the first chart is drawn:
// a first visit to a view without charts does not fetch its 0.21 MB, issue 20).
// Axis and grid colours come from the CSS custom properties; series colours from palette.js, by
// tokenizer (a tokenizer keeps its colour in every chart and both themes read well).

import { seriesColour } from "./palette.js";
import { locale, PSEUDO } from "./i18n.js";

const charts = new WeakMap(); // canvas -> Chart

function css(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** "dark" or "light": the theme the page shows now (styles.css sets color-scheme per theme). */
export function theme() {
  return getComputedStyle(document.documentElement).colorScheme === "dark" ? "dark" : "light";
}

/**
 * Tick labels: a category axis's own labels; numbers as chart.js writes them, in the chart's
 * locale, zero included (chart.js writes a bare ASCII "0" whatever the locale).
 * (`this` is the scale: chart.js calls it as a method.)
 */
function tickLabel(value, index, ticks) {
  if (this.type === "category") return this.getLabelForValue(value);
  if (value === 0) return new Intl.NumberFormat(this.chart.options.locale).format(0);
  return globalThis.Chart.Ticks.formatters.numeric.call(this, value, index, ticks);
}

function baseOptions() {
  const text = css("--text-muted");
  const grid = css("--border");
  return {
    // tick numbers in the reader's digits, as the tables beside the chart (Intl.NumberFormat)
    locale: locale() === PSEUDO ? "en" : locale(),
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: { legend: { labels: { color: text } }, tooltip: { intersect: false, mode: "index" } },
    scales: {
      x: { ticks: { color: text, callback: tickLabel }, grid: { color: grid }, title: { color: text, display: true } },
      y: { ticks: { color: text, callback: tickLabel }, grid: { color: grid }, title: { color: text, display: true } },
    },
  };
}

const CHART_JS = new URL("../vendor/chart.umd.min.js", import.meta.url).href;
let chartJs = null; // the promise of window.Chart, once asked for
const waiting = new WeakMap(); // canvas -> the latest config drawn before chart.js arrived

function loadChartJs() {
  chartJs ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = CHART_JS;
    script.addEventListener("load", () => resolve(globalThis.Chart));
    script.addEventListener("error", () => {
      chartJs = null; // asked for again by the next chart
      reject(new Error("chart.js did not load (vendor/chart.umd.min.js)."));
    });
    document.head.append(script);
  });
  return chartJs;
}

/** Draw `config` on `canvas` (replacing its chart); before chart.js has loaded, once it has. */
function replace(canvas, config) {
  const Chart = globalThis.Chart;
  if (!Chart) {
    const first = !waiting.has(canvas);
    waiting.set(canvas, config);
    if (first)
      loadChartJs().then(
        () => {
          const latest = waiting.get(canvas);
          waiting.delete(canvas);
          if (latest) replace(canvas, latest);
        },
        (err) => {
          waiting.delete(canvas);
          console.error(err.message);
        },
      );
    return null;
  }
  charts.get(canvas)?.destroy();
  const chart = new Chart(canvas, config);
  charts.set(canvas, chart);
  canvas.dataset.drawn = "true";
  return chart;
}

/** Keep at most `max` points (always the first and last) so long runs draw fast. */
function thin(points, max = 1500) {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  const out = [];
  for (let i = 0; i < max; i += 1) out.push(points[Math.round(i * step)]);
  return out;
}

/** points: [[vocabSize, bytesPerToken], ...] */
/**
 * Train's compression curve: points [[vocab size, bytes per token]]; words {x, y, series, locale}:
 * the axis titles, the series name and the locale of the tick numbers (Train's catalog; English
 * when left out).
 */
export function compressionChart(canvas, points, words = {}) {
  const options = baseOptions();
  if (words.locale) options.locale = words.locale;
  options.scales.x.type = "linear";
  options.scales.x.title.text = words.x ?? "Vocab size (256 bytes + merges)";
  options.scales.y.title.text = words.y ?? "Bytes per token";
  options.plugins.legend.display = false;
  return replace(canvas, {
    type: "line",
    data: {
      datasets: [
        {
          label: words.series ?? "Bytes per token",
          data: thin(points).map(([x, y]) => ({ x, y })),
          borderColor: css("--accent"),
          backgroundColor: css("--accent"),
          pointRadius: 0,
          borderWidth: 2,
        },
      ],
    },
    options,
  });
}

/**
 * labels: [language], series: [{key, label, values}] (key: the tokenizer name, which picks the
 * colour, palette.js); horizontal: bars across, one
 * language label per row (for narrow screens, where 44 rotated labels cannot be
 * read); the chart's box then grows with the number of rows.
 */
export function barChart(canvas, labels, series, yTitle, { horizontal = false } = {}) {
  const mode = theme();
  const options = baseOptions();
  options.scales.y.title.text = yTitle;
  options.scales.x.title.display = false;
  options.scales.x.ticks.autoSkip = false;
  options.scales.x.ticks.maxRotation = 60;
  const box = canvas.parentElement;
  box.classList.toggle("horizontal", horizontal);
  box.style.height = horizontal ? `${Math.max(18, 4 + labels.length * (0.5 + 0.35 * series.length))}rem` : "";
  if (horizontal) {
    options.indexAxis = "y";
    [options.scales.x, options.scales.y] = [options.scales.y, options.scales.x];
    options.scales.y.ticks.maxRotation = 0;
    options.scales.y.ticks.autoSkip = false;
  }
  return replace(canvas, {
    type: "bar",
    data: {
      labels,
      datasets: series.map((s) => ({
        label: s.label,
        key: s.key,
        data: s.values,
        backgroundColor: seriesColour(s.key ?? s.label, mode),
        borderWidth: 0,
      })),
    },
    options,
  });
}

export function clearChart(canvas) {
  waiting.delete(canvas);
  charts.get(canvas)?.destroy();
  charts.delete(canvas);
  delete canvas.dataset.drawn;
}
