// Large texts stay out of a textarea (issue 11 "Large pastes"): laying out MBs of
// text in a <textarea> makes every tab click and keystroke take seconds. A pasted,
// opened or restored text longer than LARGE_TEXT_CHARS is kept in memory and a
// summary ("2.86 MB of text … is ready to train on") with Show / Clear replaces
// the box. Used by Train and Tokenize; the views read the text through get().
// A large text typed or set (`input`) or dropped (text or a text file) is summarized too.
// Typing goes on after a large paste: the summary takes the box's focus, and the characters,
// Enter and Backspace typed there go into the text at the caret (where the paste ended), so
// no keystroke is lost while the text is not laid out.

import { h } from "./dom.js";
import { t, num, onLocaleChange, sizeText } from "./i18n.js";

/** Texts longer than this (UTF-16 code units) are not laid out in the textarea. */
export const LARGE_TEXT_CHARS = 500_000;

/**
 * Mount the large-text summary after `textArea`.
 * options: testid (the summary's data-testid; its line is `${testid}-info`),
 * what (the catalog key of the summary, e.g. "largetext.train": "… is ready to train on"),
 * onSet(text) (after every set()), onEdit() (after the user changed the text here:
 * a large paste, or Clear).
 * Returns {get(): string (the whole text), set(text, at = text.length) (at: where typing goes
 * on, in UTF-16 units), isLarge(): boolean}.
 */
export function mountLargeText(textArea, { testid, what, onSet = () => {}, onEdit = () => {} }) {
  let bigText = null; // the text when it is too large to show, else null (the textarea holds it)
  // the textarea's value as last read: reading `.value` copies the whole string, and the views
  // read the text on every render (Tokenize's counts), so a shown large text cost a copy per render
  let cached = null;
  let shown = false; // the user chose "Show and edit it (slow)": typing in it keeps it in the box
  let caret = 0; // where typing goes into bigText (UTF-16 units): the end of a paste, else the end
  const info = h("p", { dataset: { testid: `${testid}-info` } });
  let sizes = null; // the summary's figures ({bytes, units}), to word it again in another language
  // in the reader's digits and words, as the counts below it and every other size ("3.47 MB",
  // "1,999,976": the locale's own; a tester saw "1.43 MB" here beside "MB 1.43" in Urdu)
  const worded = ({ bytes, units }) => t(what, { size: sizeText(bytes), units: num(units) });
  onLocaleChange(() => {
    if (sizes) info.textContent = worded(sizes);
  });
  const box = h(
    "div",
    { class: "big-text", dataset: { testid }, hidden: true, attrs: { tabindex: "-1" } },
    info,
    h(
      "div",
      { class: "saved-actions" },
      h("button", {
        type: "button",
        class: "button small secondary",
        text: t("largetext.show"),
        dataset: { action: "show-big-text", i18n: "largetext.show" },
        on: {
          click: () => {
            const text = bigText;
            bigText = null;
            shown = true;
            box.hidden = true;
            textArea.hidden = false;
            textArea.value = text ?? "";
            cached = text ?? "";
            textArea.focus();
            textArea.setSelectionRange(caret, caret); // typing goes on where it was
          },
        },
      }),
      h("button", {
        type: "button",
        class: "button small secondary",
        text: t("largetext.clear"),
        dataset: { action: "clear-big-text", i18n: "largetext.clear" },
        on: {
          click: () => {
            set("");
            onEdit();
            textArea.focus();
          },
        },
      }),
    ),
  );
  textArea.after(box);

  const get = () => bigText ?? (cached ??= textArea.value);
  /** Put `text` in the box: a large text is kept in memory and summarized instead of shown. */
  function set(text, at = text.length) {
    shown = false;
    cached = null;
    const focused = document.activeElement === textArea || document.activeElement === box;
    caret = Math.min(Math.max(at, 0), text.length);
    if (text.length > LARGE_TEXT_CHARS) {
      bigText = text;
      textArea.value = "";
      textArea.hidden = true;
      box.hidden = false;
      const bytes = new TextEncoder().encode(text).length;
      sizes = { bytes, units: text.length };
      info.textContent = worded(sizes);
      if (focused) box.focus(); // (a hidden textarea loses the focus: the next keys went nowhere)
    } else {
      bigText = null;
      sizes = null;
      box.hidden = true;
      textArea.hidden = false;
      textArea.value = text;
      if (focused) {
        textArea.focus(); // (typed back under the limit: the box again, typing goes on there)
        textArea.setSelectionRange(caret, caret);
      }
    }
    onSet(text);
  }
  textArea.addEventListener("paste", (e) => {
    const pasted = e.clipboardData?.getData("text/plain") ?? "";
    const { selectionStart: a, selectionEnd: b, value } = textArea;
    if (value.length - (b - a) + pasted.length <= LARGE_TEXT_CHARS) return; // the browser pastes as usual
    e.preventDefault();
    set(value.slice(0, a) + pasted + value.slice(b), a + pasted.length);
    onEdit();
  });
  // keys typed while the summary has the focus (after a large paste): into the text at the caret
  box.addEventListener("keydown", (e) => {
    if (bigText == null || e.target !== box || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    const typed = e.key === "Enter" ? "\n" : [...e.key].length === 1 ? e.key : null; // (one character)
    if (typed == null && e.key !== "Backspace") return;
    e.preventDefault();
    let at = caret;
    let text = bigText;
    if (typed != null) {
      text = text.slice(0, at) + typed + text.slice(at);
      at += typed.length;
    } else if (at > 0) {
      const cut = at >= 2 && /[\udc00-\udfff]/.test(text[at - 1]) && /[\ud800-\udbff]/.test(text[at - 2]) ? 2 : 1;
      text = text.slice(0, at - cut) + text.slice(at);
      at -= cut;
    }
    set(text, at);
    onEdit();
  });
  // typed or set text (an `input` event, e.g. a drop the browser inserted): registered before the
  // views' own input listeners, so they read the summarized text. textLength needs no string copy.
  textArea.addEventListener("input", () => {
    cached = null;
    if (!shown && textArea.textLength > LARGE_TEXT_CHARS) set(textArea.value);
  });
  // dropped text or a dropped text file: large ones go to the summary without being laid out
  textArea.addEventListener("drop", async (e) => {
    const dt = e.dataTransfer;
    const file = [...(dt?.files || [])].find((f) => !/\.json$/i.test(f.name));
    if (file) {
      e.preventDefault(); // a dropped file would otherwise open in place of the page
      e.stopPropagation(); // not a tokenizer file (model-ui.js's page-wide drop)
      set(await file.text());
      onEdit();
      return;
    }
    const dropped = dt?.getData("text/plain") ?? "";
    if (!dropped || textArea.textLength + dropped.length <= LARGE_TEXT_CHARS) return; // the browser inserts it
    e.preventDefault();
    set(textArea.value + dropped); // added at the end (the browser would insert it where it was dropped)
    onEdit();
  });
  return { get, set, isLarge: () => bigText != null };
}
