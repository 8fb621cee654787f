// Inside an <iframe> (?embed=1): tell the host page how tall the content is.
//
// Protocol: the page posts {type: "bytepair:height", height} to its parent,
// height in CSS pixels (an integer, the whole document), on load and whenever
// the content's size changes (ResizeObserver). The message carries nothing
// else, so it is sent to any origin ("*"). The host page resizes the iframe
// with web/embed.js, or with its own listener that checks event.source.

export const HEIGHT_MESSAGE = "bytepair:height";

/**
 * Start posting the content height to the parent window; returns a stop function.
 *
 * The height follows the content while the page loads; from the reader's first
 * interaction inside the frame (pointer, key, focus) it stays as it is, so the
 * host page does not jump while someone reads it (a step-through that grows on
 * Next, settings that open): taller content then scrolls inside the frame
 * (issue 11, course pages). `<html data-height-locked>` marks that state.
 */
export function reportHeight(win = window) {
  if (win.parent === win) return () => {};
  let last = -1;
  let locked = false;
  const lock = () => {
    if (locked || last <= 0) return;
    locked = true;
    win.document.documentElement.dataset.heightLocked = String(last);
  };
  for (const type of ["pointerdown", "keydown", "focusin"])
    win.addEventListener(type, lock, { capture: true, passive: true });
  const send = () => {
    if (locked) return;
    const doc = win.document.documentElement;
    const height = Math.ceil(
      Math.max(doc.getBoundingClientRect().height, win.document.body.getBoundingClientRect().height),
    );
    if (height === last || height <= 0) return;
    last = height;
    win.parent.postMessage({ type: HEIGHT_MESSAGE, height }, "*");
  };
  const observer = new ResizeObserver(send);
  observer.observe(win.document.documentElement);
  observer.observe(win.document.body);
  win.addEventListener("load", () => {
    last = -1; // always say it once the page has loaded
    send();
  });
  send();
  return () => observer.disconnect();
}
