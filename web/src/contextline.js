// The context-window line of Tokenize and Chat: "12,345 of 128,000 tokens (GPT-4o)", marked when
// over. The windows are bytepair.app.limits.CONTEXT_WINDOWS (api.facts.context_windows); the page keeps
// no copy.

import { t, num } from "./i18n.js";

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
  // (counts in the locale's digits; the stated window is quoted from its source as written)
  // (numbers passed as strings: t() bidi-isolates them, so in a right-to-left sentence
  // "660,000" and "tokens (GPT-4 Turbo)" keep their places)
  el.textContent =
    t(estimate ? "chat.context.about" : "chat.context.line", { n: num(n), max: num(w.tokens), model: w.label }) +
    (over ? t(estimate ? "chat.context.aboutover" : "chat.context.over", { n: num(n - w.tokens) }) : "");
  el.title = [w, ...others]
    .map((x) =>
      t("chat.context.source", { model: x.label, max: x.tokens, stated: x.stated, source: x.source, date: x.date }),
    )
    .join("\n");
}
