// The front end of bytepair.widgets.Tokenize (anywidget). The kernel encodes; this draws its
// rows as coloured token chips: [id, title, special, parts], parts [kind, text, title] from
// bytepair.notebook.token_parts (kinds: text, hex, name, base). Text reaches the DOM only through
// textContent and attributes; no request to any host.

const PART_STYLE = {
  text: "",
  hex: "color: #5c3d99;",
  name: "font-size: 0.7em; font-weight: 700; color: #444; border: 1px dashed #666; border-radius: 3px; padding: 0 0.15em; margin: 0 0.05em; white-space: nowrap;",
  base: "",
};
const CHIP =
  "color: #000; border-radius: 3px; padding: 0.1em 0; margin-right: 1px; box-shadow: inset 0 -2px 0 rgba(0,0,0,0.08);";

// h() is written out again in train.js, compare.js on purpose: anywidget loads each widget's `_esm`
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

function render({ model, el }) {
  const area = h("textarea", {
    rows: "4",
    "aria-label": "Text to tokenize",
    style: "width: 100%; box-sizing: border-box; font: inherit;",
  });
  const select = h("select", { "aria-label": "Tokenizer" });
  const count = h("span", { "data-testid": "token-count" });
  const error = h("div", { role: "alert", style: "color: #c92a2a;" });
  const out = h("div", {
    "data-testid": "tokens",
    style:
      "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; line-height: 1.9; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; overflow: auto; padding: 0.4em 0;",
  });
  el.append(
    h(
      "div",
      { class: "bytepair-tokenize", style: "font-family: system-ui, sans-serif; font-size: 0.9rem;" },
      area,
      h(
        "div",
        { style: "display: flex; gap: 0.8em; align-items: center; margin: 0.3em 0;" },
        h("label", {}, "Tokenizer ", select),
        count,
      ),
      error,
      out,
    ),
  );

  let timer = null;
  area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      model.set("text", area.value);
      model.save_changes();
    }, 150);
  });
  select.addEventListener("change", () => {
    model.set("encoding", select.value);
    model.save_changes();
  });

  function drawOptions() {
    const current = model.get("encoding");
    const choices = [...(model.get("encodings") ?? [])];
    if (!choices.some((c) => c[0] === current)) choices.push([current, current]);
    select.replaceChildren(...choices.map(([v, label]) => h("option", { value: v, text: label })));
    select.value = current;
    select.disabled = choices.length < 2;
    if (area.value !== model.get("text")) area.value = model.get("text");
  }

  function drawTokens() {
    const colors = model.get("colors");
    const rows = model.get("tokens");
    out.replaceChildren(
      ...rows.map(([id, title, special, parts], i) => {
        let style = `background: ${colors[i % colors.length]}; ${CHIP}`;
        if (special) style += " outline: 1.5px dashed #1c7ed6; outline-offset: -1px; font-weight: 700;";
        return h(
          "span",
          { class: "bytepair-token", "data-id": String(id), title, style },
          ...parts.map(([kind, text, partTitle]) =>
            kind === "text"
              ? text
              : h("span", {
                  class: `bytepair-${kind}`,
                  text,
                  style: PART_STYLE[kind],
                  ...(partTitle ? { title: partTitle } : {}),
                }),
          ),
        );
      }),
    );
    const n = model.get("count");
    const more = n > rows.length ? ` (first ${rows.length.toLocaleString()} drawn)` : "";
    count.textContent = `${n.toLocaleString()} tokens, ${model.get("n_chars").toLocaleString()} characters${more}`;
    error.textContent = model.get("error")?.message ?? "";
  }

  drawOptions();
  drawTokens();
  const names = ["tokens", "count", "n_chars", "error", "colors"];
  model.on("change:encoding", drawOptions);
  model.on("change:encodings", drawOptions);
  model.on("change:text", drawOptions);
  for (const name of names) model.on(`change:${name}`, drawTokens);
  return () => {
    clearTimeout(timer);
    model.off("change:encoding", drawOptions);
    model.off("change:encodings", drawOptions);
    model.off("change:text", drawOptions);
    for (const name of names) model.off(`change:${name}`, drawTokens);
  };
}

export default { render };
