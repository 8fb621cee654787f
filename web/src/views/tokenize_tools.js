// Tokenize extras (issue 11): the special-tokens switch, copying the ids (JSON or
// space-separated), ids -> text decoding, chunks of at most N tokens as a JSONL download
// (issue 22: bytepair.chunk, through the worker), and the special-token item of the legend
// (tokenlist.js explains <e0a6> fragments and named invisible characters). The explanations come from
// Python (bytepair.token_note, bytepair.charnames) through api.encodeSpans/decodeIds.

import { $, h, showError, deviceHint, download } from "../dom.js";
import { errorText, t } from "../i18n.js";
import { noteText } from "../tokenlist.js";

// where a message's {token} goes (a private-use character: never in a catalog's words)
const TOKEN_MARK = "\uE000";

/**
 * The message `key` as nodes, its {token} the element `box` (a special token as the token list draws
 * it: data, marked data-i18n-skip, its own direction); `params` fill the other placeholders. (t() isolates
 * a value in a right-to-left locale; the box is an isolate itself, so those marks are dropped.)
 */
function withToken(key, box, params = {}) {
  box.dataset.i18nSkip = "";
  box.dir = "auto";
  const [before, after = ""] = t(key, { ...params, token: TOKEN_MARK }).split(/\u2068?\uE000\u2069?/u);
  return [before, box, after].filter((part) => part !== "");
}

/**
 * mount(root, store, api, {refresh, text}) -> {specialLegend(result), applyLink(params)}
 * refresh(): encode again (after the switch changes); text(): the text typed.
 */
export function mountTokenizeTools(root, store, api, { refresh, text }) {
  const specials = $(root, '[data-testid="toggle-specials"]');
  const copyStatus = $(root, '[data-testid="copy-ids-status"]');
  const copyBox = $(root, '[data-testid="copy-ids-box"]');
  const decodeForm = $(root, '[data-testid="decode-form"]');
  const decodeInput = $(root, '[data-testid="decode-ids"]');
  const decodeOut = $(root, '[data-testid="decode-text"]');
  const decodeTokens = $(root, '[data-testid="decode-tokens"]');

  specials.addEventListener("change", () => {
    store.update("tokenize", { specials: specials.checked });
    refresh();
  });

  // --- copy ids: all of them, even past the tokens drawn ----------------------
  async function allIds() {
    const s = store.state.tokenize;
    const r = s.result;
    if (r && s.text === text() && r.ids.length === r.n_tokens) return r.ids;
    return (await api.encodeSpans(text(), s.tokenizer, null, { addSpecial: s.addSpecial, specials: s.specials })).ids;
  }
  async function copy(format) {
    copyBox.hidden = true;
    try {
      const ids = await allIds();
      const out = format === "json" ? JSON.stringify(ids) : ids.join(" ");
      copyBox.value = out;
      try {
        await navigator.clipboard.writeText(out);
        copyStatus.textContent = t(`copyids.copied.${format === "json" ? "json" : "space"}`, { n: ids.length });
      } catch {
        // no clipboard here (an iframe, an insecure origin): show the ids selected
        copyBox.hidden = false;
        copyBox.select();
        copyStatus.replaceChildren(
          t("copyids.selected"),
          ...deviceHint(t("copyids.selected.pointer"), t("copyids.selected.touch")),
        );
      }
    } catch (err) {
      copyStatus.textContent = errorText(err);
    }
  }
  for (const b of root.querySelectorAll("[data-copy-ids]")) b.addEventListener("click", () => copy(b.dataset.copyIds));

  // --- chunks of at most N tokens, downloaded as JSON lines (bytepair.chunk) -----
  const chunkForm = $(root, '[data-testid="chunk-form"]');
  const chunkStatus = $(root, '[data-testid="chunk-status"]');
  const chunkInputs = {
    max_tokens: $(root, '[data-testid="chunk-max"]'),
    overlap: $(root, '[data-testid="chunk-overlap"]'),
    boundary: $(root, '[data-testid="chunk-boundary"]'),
  };
  const whole = (input) => (input.value.trim() === "" ? NaN : Number(input.value));
  /** The form's values checked in its own words (the catalog's chat.chunk.error.*): [field, message]
   * of the first problem, or null. */
  function chunkProblem(maxTokens, overlap) {
    if (!Number.isInteger(maxTokens) || maxTokens < 1) return ["max_tokens", t("chat.chunk.error.max")];
    if (!Number.isSafeInteger(maxTokens))
      return ["max_tokens", t("chat.chunk.error.max_safe", { max: Number.MAX_SAFE_INTEGER })];
    if (!Number.isSafeInteger(overlap) || overlap < 0) return ["overlap", t("chat.chunk.error.overlap")];
    if (overlap >= maxTokens) return ["overlap", t("chat.chunk.error.overlap_less", { overlap, max: maxTokens })];
    return null;
  }
  chunkForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(root, "chunks", "");
    chunkStatus.textContent = "";
    for (const input of Object.values(chunkInputs)) input.removeAttribute("aria-invalid");
    const s = store.state.tokenize;
    const maxTokens = whole(chunkInputs.max_tokens);
    const overlap = whole(chunkInputs.overlap);
    const problem = chunkProblem(maxTokens, overlap);
    if (problem) {
      showError(root, "chunks", problem[1]);
      chunkInputs[problem[0]].setAttribute("aria-invalid", "true");
      return;
    }
    const source = text();
    if (!source) {
      chunkStatus.textContent = t("chat.chunk.empty");
      return;
    }
    chunkStatus.textContent = t("chat.chunk.cutting");
    try {
      const jsonl = await api.chunkJsonl(source, s.tokenizer, maxTokens, {
        overlap,
        boundary: chunkInputs.boundary.value,
        addSpecial: s.addSpecial,
      });
      const n = jsonl ? jsonl.split("\n").length - 1 : 0;
      if (!n) {
        chunkStatus.textContent = t("chat.chunk.empty");
        return;
      }
      const file = `chunks-${s.tokenizer.replace(/[^\w.-]+/g, "_")}.jsonl`;
      download(file, jsonl, "application/x-ndjson");
      chunkStatus.textContent = t("chat.chunk.saved", { n, max: maxTokens, file });
    } catch (err) {
      chunkStatus.textContent = "";
      showError(root, "chunks", errorText(err));
      chunkInputs[err.field]?.setAttribute("aria-invalid", "true");
    }
  });

  // --- ids -> text -------------------------------------------------------------
  decodeForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(root, "decode", "");
    try {
      const r = await api.decodeIds(decodeInput.value, store.state.tokenize.tokenizer);
      decodeOut.textContent = r.text;
      decodeTokens.replaceChildren(
        ...r.display.map((d, i) =>
          h("code", {
            class: `tok${r.note[i] ? " has-note" : ""}`,
            text: d,
            title: noteText(r, i) || `id ${r.ids[i]}`,
            dataset: { testid: "decoded-token" },
          }),
        ),
      );
      decodeOut.dataset.decoded = String(r.ids.length);
    } catch (err) {
      decodeOut.textContent = "";
      decodeTokens.replaceChildren();
      delete decodeOut.dataset.decoded;
      showError(root, "decode", errorText(err));
    }
  });

  /** The special-token items of the legend (tokenlist.js legendItems draws the others): the
   * special tokens in this result, named as this tokenizer spells them; `special`:
   * bytepair.app.models.special_token_facts of the tokenizer (describe()'s `special`). The words
   * are the catalog's (legend.special.*), the token in them data (data-i18n-skip). */
  function specialLegend(result, special) {
    const items = [];
    const typed = result?.special?.findIndex((sp, i) => sp && result.start[i] < result.end[i]) ?? -1;
    const added = result?.special?.findIndex((sp, i) => sp && result.start[i] === result.end[i]) ?? -1;
    if (typed >= 0) {
      const key = special?.typed === "switch" ? "legend.special.switch" : "legend.special.one";
      items.push(
        h(
          "li",
          { dataset: { testid: "legend-special" } },
          withToken(key, h("span", { class: "tok-group special", text: result.display[typed] })),
        ),
      );
    }
    if (added >= 0) {
      items.push(
        h(
          "li",
          { dataset: { testid: "legend-added" } },
          withToken(
            "legend.special.added",
            h("span", { class: "tok-group special tok-added", text: result.display[added] }),
            { switch: t("tok.addSpecial") },
          ),
        ),
      );
    }
    return items;
  }

  function applyLink(params) {
    specials.checked = params.st === "1";
  }
  return { specialLegend, applyLink };
}
