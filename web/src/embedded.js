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
 * The height always follows the content, also after the reader touches, scrolls or types in the
 * frame (issue 19: an earlier version kept the height from the first interaction on, so a touch
 * on a loading embed froze it at its loading height and the chart and table that came later
 * scrolled inside the frame with no cue).
 */
export function reportHeight(win = window) {
  if (win.parent === win) return () => {};
  let last = -1;
  const send = () => {
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
