// The front end of bytepair.widgets.Compare (anywidget). The kernel counts (compare_rows); this
// draws a table: one row per text, one column per tokenizer with its token count and UTF-8 bytes
// per token. Text reaches the DOM only through textContent and attributes; no request to any host.

// h() is written out again in train.js, tokenize.js on purpose: anywidget loads each widget's `_esm`
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

const CELL = "padding: 0.2em 0.6em; border-bottom: 1px solid rgba(128,128,128,0.3);";
const NUM = CELL + " text-align: right; font-variant-numeric: tabular-nums;";

function render({ model, el }) {
  const table = h("table", {
    "data-testid": "compare-table",
    style: "border-collapse: collapse; font-family: system-ui, sans-serif; font-size: 0.9rem;",
  });
  el.append(h("div", { class: "bytepair-compare" }, table));

  function draw() {
    const tokenizers = model.get("tokenizers");
    const head = h("tr", {}, h("th", { style: CELL, text: "Text" }), h("th", { style: NUM, text: "Bytes" }));
    for (const t of tokenizers) head.append(h("th", { style: NUM, text: `${t}: tokens (bytes/token)` }));
    const body = h("tbody");
    for (const [name, , nBytes, counts] of model.get("rows")) {
      const tr = h(
        "tr",
        {},
        h("th", { style: CELL, scope: "row", text: name }),
        h("td", { style: NUM, text: String(nBytes) }),
      );
      counts.forEach((n, i) => {
        const ratio = n ? (nBytes / n).toFixed(2) : "–";
        tr.append(
          h("td", { style: NUM, "data-tokenizer": tokenizers[i], "data-value": String(n), text: `${n} (${ratio})` }),
        );
      });
      body.append(tr);
    }
    table.replaceChildren(h("thead", {}, head), body);
  }
  model.on("change:rows", draw);
  model.on("change:tokenizers", draw);
  draw();
}

export default { render };
