// The context-window line of Tokenize and Chat: "12,345 of 128,000 tokens (GPT-4o)", marked when
// over. The windows are bytepair.limits.CONTEXT_WINDOWS (api.facts.context_windows); the page keeps
// no copy.

import { int } from "./format.js";

/**
 * Draw `n` tokens against window `w` ({label, tokens, stated, source, date}) into `el`; the other
 * windows of the same tokenizer go in its title. `w` null (or `n` null): the line is hidden.
 * estimate: `n` is an estimate (Chat: OpenAI tools, result.estimate), the line says "about".
 */
export function drawContextLine(el, n, w, others = [], { estimate = false } = {}) {
  el.hidden = !w || n == null;
  if (el.hidden) return;
  const over = n > w.tokens;
  el.classList.toggle("over", over);
  el.dataset.over = String(over);
  el.textContent =
    `${estimate ? "about " : ""}${int(n)} of ${int(w.tokens)} tokens (${w.label})` +
    (over ? `: ${estimate ? "about " : ""}${int(n - w.tokens)} over its context window` : "");
  el.title = [w, ...others]
    .map((x) => `${x.label}: ${int(x.tokens)} tokens (“${x.stated}”, ${x.source}, ${x.date})`)
    .join("\n");
}
