// Share and Embed: dialogs that show the link to the current view (selected,
// copied to the clipboard where the browser allows it) and the ready-to-paste
// <iframe> and <bytepair-widget> snippets. The link itself comes from links.js and the view's link().

import { $, deviceHint } from "./dom.js";
import { linkTo, lengthNote, iframeSnippet, shareIntro, VIEW_TITLES, embedHeight, widgetSnippet } from "./links.js";
import { t, locale } from "./i18n.js";

/** The dialog's sentence of what a link brings back: links.js's in English, else from the catalog. */
function introText(view, params, omitted) {
  if (locale() === "en") return shareIntro(view, params, omitted);
  if (omitted) return t("dialog.share.intro.omitted");
  return t(params.t == null ? "dialog.share.intro" : "dialog.share.intro.text");
}

/** Copy `text`; resolves true when the clipboard took it. */
async function copy(text) {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // not allowed here (an iframe without clipboard-write, an insecure origin, ...)
  }
}

/**
 * @param {{current: () => {view: string, params: object, notes: string[], omitted: string}}} source
 *   the current view, its link parameters, notes and the note of a text left out of the link ("" if none)
 */
export function mountShare(source) {
  const shareDialog = $(document, '[data-testid="share-dialog"]');
  const shareField = $(document, '[data-testid="share-link"]');
  const shareStatus = $(document, '[data-testid="share-status"]');
  const shareNote = $(document, '[data-testid="share-note"]');
  const shareIntroEl = $(document, '[data-testid="share-intro"]');
  const embedDialog = $(document, '[data-testid="embed-dialog"]');
  const embedField = $(document, '[data-testid="embed-snippet"]');
  const widgetField = $(document, '[data-testid="embed-widget-snippet"]');
  const embedStatus = $(document, '[data-testid="embed-status"]');
  const embedNote = $(document, '[data-testid="embed-note"]');
  const embedTheme = $(document, '[data-testid="embed-theme"]');
  const embedForm = $(document, '[data-testid="embed-form"]'); // the tool the course page is built with
  const embedPreview = $(document, '[data-testid="embed-open"]');

  // In an <iframe> sized to its content a modal would centre on the whole (tall)
  // frame, far from the button: there the dialog opens in place, under the button.
  function open(dialog, anchor) {
    if (document.documentElement.dataset.embed && anchor) {
      dialog.classList.add("anchored");
      dialog.style.top = `${Math.round(anchor.getBoundingClientRect().bottom + window.scrollY + 6)}px`;
      dialog.show();
    } else {
      dialog.showModal();
    }
  }

  // what: "link", "snippet" or "widget" (the catalog's dialog.copied.* and dialog.selected.*)
  async function copyField(field, status, what) {
    field.focus();
    field.select();
    const ok = await copy(field.value);
    if (ok) status.textContent = t(`dialog.copied.${what}`);
    else
      status.replaceChildren(
        t(`dialog.selected.${what}`),
        ...deviceHint(t("dialog.selected.keys"), t("dialog.selected.touch")),
      );
    status.dataset.copied = String(ok);
  }

  function share(event) {
    const { view, params, notes, omitted } = source.current();
    const link = linkTo(view, params);
    shareField.value = link;
    // one sentence says what the link brings back: the text and settings, or (a text too
    // large for a link) the settings only, as a warning
    shareIntroEl.textContent = introText(view, params, omitted);
    shareIntroEl.className = omitted ? "warning" : "hint";
    shareIntroEl.dataset.omitted = String(Boolean(omitted));
    const warn = [...notes, lengthNote(link)].filter(Boolean);
    shareNote.textContent = warn.join(" ");
    shareNote.hidden = !warn.length;
    shareStatus.textContent = "";
    shareDialog.dataset.length = String(link.length);
    open(shareDialog, event?.currentTarget);
    copyField(shareField, shareStatus, "link");
  }

  function fillSnippet() {
    const { view, params, notes, omitted } = source.current();
    const theme = embedTheme.value || null;
    const src = linkTo(view, params, { embed: { theme } });
    embedField.value = iframeSnippet(src, { title: VIEW_TITLES[view] || "bytepair", height: embedHeight(view) });
    widgetField.value = widgetSnippet(view, params, { theme, form: embedForm.value });
    embedPreview.href = src;
    const warn = [omitted, ...notes, lengthNote(src)].filter(Boolean);
    embedNote.textContent = warn.join(" ");
    embedNote.hidden = !warn.length;
  }

  function embed(event) {
    fillSnippet();
    embedStatus.textContent = "";
    open(embedDialog, event?.currentTarget);
    embedField.focus();
    embedField.select();
  }

  embedTheme.addEventListener("change", fillSnippet);
  embedForm.addEventListener("change", fillSnippet);
  $(document, '[data-testid="share-copy"]').addEventListener("click", () => copyField(shareField, shareStatus, "link"));
  $(document, '[data-testid="embed-copy"]').addEventListener("click", () =>
    copyField(embedField, embedStatus, "snippet"),
  );
  $(document, '[data-testid="embed-widget-copy"]').addEventListener("click", () =>
    copyField(widgetField, embedStatus, "widget"),
  );
  for (const button of document.querySelectorAll("[data-close-dialog]")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
  for (const dialog of [shareDialog, embedDialog]) {
    dialog.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && dialog.open) dialog.close(); // also for the non-modal form
    });
    // a click on the backdrop (outside the dialog's box) closes it
    dialog.addEventListener("click", (e) => {
      if (e.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dialog.close();
    });
  }
  for (const b of document.querySelectorAll('[data-action="share"]')) b.addEventListener("click", share);
  for (const b of document.querySelectorAll('[data-action="embed"]')) b.addEventListener("click", embed);
  return { share, embed };
}
