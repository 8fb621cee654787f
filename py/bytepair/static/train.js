// The front end of bytepair.widgets.Train (anywidget: Jupyter, Colab, VS Code, marimo).
// Training runs in the kernel; this draws its synced state: the options, Train/Stop, the
// compression (bytes per token) as a number and a curve, the latest merges. Text reaches the
// DOM only through textContent and attributes; no request to any host.

const SVG = "http://www.w3.org/2000/svg";

// h() is written out again in tokenize.js, compare.js on purpose: anywidget loads each widget's `_esm`
// (bytepair/widgets.py) as one module from a string, where a relative import has nothing
// to resolve against, so the three files cannot share a module.
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") el.textContent = v;
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
}

function curvePath(points, width, height) {
  if (points.length === 0) return "";
  const maxX = Math.max(1, points[points.length - 1][0]);
  const ys = points.map((p) => p[1]);
  const lo = Math.min(1, ...ys);
  const hi = Math.max(lo + 0.01, ...ys);
  return points
    .map(([x, y], i) => {
      const px = (x / maxX) * width;
      const py = height - ((y - lo) / (hi - lo)) * height;
      return `${i ? "L" : "M"}${px.toFixed(1)},${py.toFixed(1)}`;
    })
    .join(" ");
}

function render({ model, el }) {
  const mono = "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;";
  const root = h("div", { class: "bytepair-train", style: "font-family: system-ui, sans-serif; font-size: 0.9rem;" });
  const size = h("span");
  const vocab = h("input", { type: "number", min: "257", step: "1", "aria-label": "Vocab size", style: "width: 7em;" });
  const pattern = h("select", { "aria-label": "Pre-tokenizer" });
  const train = h("button", { type: "button", text: "Train" });
  const stop = h("button", { type: "button", text: "Stop" });
  const status = h("div", { role: "status", "data-testid": "train-status", style: "margin: 0.4em 0;" });
  const width = 320;
  const height = 80;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Compression (bytes per token) by merges learned");
  svg.style.cssText = "border: 1px solid #ccc; border-radius: 4px; background: #fff;";
  const line = document.createElementNS(SVG, "path");
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#1c7ed6");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  const body = h("tbody");
  const table = h(
    "table",
    { style: "border-collapse: collapse; margin-top: 0.4em;" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["id", "pair", "token", "bytes", "count"].map((t) =>
          h("th", { text: t, style: "text-align: left; padding: 0 0.6em 0 0;" }),
        ),
      ),
    ),
    body,
  );
  const scroller = h("div", { style: "max-height: 18em; overflow: auto;" }, table);
  root.append(
    h(
      "div",
      { style: "display: flex; gap: 0.6em; align-items: center; flex-wrap: wrap;" },
      size,
      h("label", {}, "Vocab size ", vocab),
      h("label", {}, "Pre-tokenizer ", pattern),
      train,
      stop,
    ),
    status,
    svg,
    scroller,
  );
  el.append(root);

  vocab.addEventListener("change", () => {
    model.set("vocab_size", Number(vocab.value));
    model.save_changes();
  });
  pattern.addEventListener("change", () => {
    model.set("pattern", pattern.value);
    model.save_changes();
  });
  train.addEventListener("click", () => model.send({ type: "train" }));
  stop.addEventListener("click", () => model.send({ type: "stop" }));

  function drawOptions() {
    const current = model.get("pattern");
    const choices = model.get("pretokenizers") ?? [];
    const values = choices.map((c) => c[0]);
    if (!values.includes(current)) choices.push([current, `regex: ${current}`]);
    pattern.replaceChildren(...choices.map(([v, label]) => h("option", { value: v, text: label })));
    pattern.value = current;
    vocab.value = String(model.get("vocab_size"));
    size.textContent = `${model.get("n_bytes").toLocaleString()} bytes of text`;
  }

  function drawState() {
    const st = model.get("status");
    const n = model.get("n_merges");
    const ratio = model.get("ratio").toFixed(3);
    const running = st === "training";
    train.disabled = running;
    stop.disabled = !running;
    vocab.disabled = running;
    pattern.disabled = running;
    if (st === "error") status.textContent = `Error: ${model.get("error").message ?? "training failed"}`;
    else if (st === "idle") status.textContent = "Press Train.";
    else
      status.textContent = `${st === "training" ? "Training" : st === "stopped" ? "Stopped" : "Done"}: ${n.toLocaleString()} merges, ${ratio} bytes per token`;
    line.setAttribute("d", curvePath(model.get("curve"), width, height));
  }

  function drawMerges() {
    const rows = model.get("merges");
    const colors = model.get("colors"); // bytepair.notebook.TOKEN_COLORS
    const shown = [...rows].reverse(); // the newest (bytepair.widgets.SHOWN_MERGES)
    body.replaceChildren(
      ...shown.map(([id, a, b, label, nBytes, count]) =>
        h(
          "tr",
          { "data-testid": "merge-row" },
          h("td", { text: String(id), style: mono }),
          h("td", { text: `${a} + ${b}`, style: mono }),
          h(
            "td",
            {},
            h("span", {
              text: label,
              style: `${mono} background: ${colors[id % colors.length]}; color: #000; border-radius: 3px; white-space: pre;`,
            }),
          ),
          h("td", { text: String(nBytes) }),
          h("td", { text: count.toLocaleString() }),
        ),
      ),
    );
  }

  drawOptions();
  drawState();
  drawMerges();
  const onOptions = () => drawOptions();
  const onState = () => drawState();
  const onMerges = () => {
    drawMerges();
    drawState();
  };
  for (const name of ["pattern", "vocab_size", "n_bytes", "pretokenizers"]) model.on(`change:${name}`, onOptions);
  for (const name of ["status", "ratio", "curve", "error", "n_merges"]) model.on(`change:${name}`, onState);
  model.on("change:merges", onMerges);
  return () => {
    for (const name of ["pattern", "vocab_size", "n_bytes", "pretokenizers"]) model.off(`change:${name}`, onOptions);
    for (const name of ["status", "ratio", "curve", "error", "n_merges"]) model.off(`change:${name}`, onState);
    model.off("change:merges", onMerges);
  };
}

export default { render };
