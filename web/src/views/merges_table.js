// A windowed table body (issue 19): of a long table, only the rows in view (plus a margin) are in
// the DOM; spacer bodies above and below keep the scroll height of all rows. Rows have one fixed
// height (the CSS keeps a row to one line; the height is measured from a drawn row). Screen
// readers get the whole table's size from aria-rowcount and each row's place from aria-rowindex.
// (Written here rather than taken from npm: the virtual-list modules are framework bindings or
// need a bundler; this site loads plain ES modules, and a table body is all it needs.)

/**
 * Window the rows of `body` (a <tbody>) inside `scroller` (the element that scrolls it).
 *
 * renderRow(pos) -> <tr>: the row at display position pos (0 = the top row). Up to `all` rows
 * the whole table is drawn (find-in-page sees every row); past that only the rows in view and
 * `margin` rows each side. Keyword-only options; returns {set(count, {keepPosition}), redraw(),
 * rowHeight()}: set() gives the number of rows (keepPosition: that many new rows were added at
 * the top, and a reader scrolled down keeps seeing the same rows; at the very top the newest
 * rows stay in view); redraw() draws the rows again (their contents changed: another run, another
 * language).
 */
export function windowedBody({ scroller, body, renderRow, all = 300, margin = 12 }) {
  const table = body.closest("table");
  const spacer = (where) => {
    const tb = document.createElement("tbody");
    tb.className = "window-pad";
    tb.dataset.pad = where;
    tb.setAttribute("aria-hidden", "true");
    tb.hidden = true;
    tb.insertRow().insertCell().colSpan = table.tHead?.rows[0]?.cells.length || 1;
    return tb;
  };
  const above = spacer("above");
  const below = spacer("below");
  body.before(above);
  body.after(below);

  let count = 0;
  let rowH = 0; // px, measured from a drawn row
  let from = 0; // rows [from, to) are drawn
  let to = 0;
  let drawn = -1; // the count they were drawn for

  const windowed = () => count > all;
  function measure() {
    // the stride between two rows inside the body (with collapsed borders the first and last rows
    // are half a border shorter than the others)
    const [, a, b] = body.rows;
    const r = b ? b.getBoundingClientRect().top - a.getBoundingClientRect().top : body.rows[0]?.offsetHeight;
    if (r > 0) rowH = r;
  }
  function pad(tb, px) {
    tb.hidden = px <= 0;
    tb.rows[0].cells[0].style.height = `${px}px`;
  }
  function draw({ force = false, top = scroller.scrollTop } = {}) {
    let a = 0;
    let b = count;
    if (windowed()) {
      if (!rowH && count) {
        body.replaceChildren(...[0, 1, 2].filter((pos) => pos < count).map(renderRow));
        measure();
      }
      const h = rowH || 28;
      const first = Math.floor(top / h);
      a = Math.max(0, Math.min(count, first - margin));
      b = Math.min(count, first + Math.ceil(scroller.clientHeight / h) + 1 + margin);
    }
    if (!force && a === from && b === to && drawn === count) return;
    const rows = [];
    for (let pos = a; pos < b; pos += 1) {
      const tr = renderRow(pos);
      tr.setAttribute("aria-rowindex", String(pos + 2)); // (row 1: the header)
      rows.push(tr);
    }
    body.replaceChildren(...rows);
    if (windowed()) {
      if (!rowH) measure();
      pad(above, a * rowH);
      pad(below, (count - b) * rowH);
      table.setAttribute("aria-rowcount", String(count + 1));
    } else {
      pad(above, 0);
      pad(below, 0);
      table.removeAttribute("aria-rowcount");
    }
    table.dataset.windowed = String(windowed());
    from = a;
    to = b;
    drawn = count;
  }

  let frame = 0;
  const later = () => {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (windowed()) draw();
      });
  };
  scroller.addEventListener("scroll", later, { passive: true });
  if (typeof ResizeObserver === "function")
    new ResizeObserver(() => {
      if (!windowed()) return;
      measure();
      draw({ force: true });
    }).observe(scroller);
  table.querySelector("thead tr")?.setAttribute("aria-rowindex", "1");

  return {
    set(n, { keepPosition = 0 } = {}) {
      const added = n - count;
      count = n;
      const top = scroller.scrollTop;
      if (keepPosition > 0 && added > 0 && top > 0 && windowed() && rowH) {
        // the rows the reader looks at moved down by the new ones: follow them
        const next = top + added * rowH;
        draw({ force: true, top: next });
        scroller.scrollTop = next;
      } else {
        draw({ force: true });
      }
    },
    redraw() {
      draw({ force: true });
    },
    rowHeight: () => rowH,
  };
}
