// Tokenize's teaching features (issue 13), mounted by views/tokenize.js: the
// "why this token" panel (story.js), side-by-side rows (sidebyside.js), the
// gallery (gallery.js) and the picture buttons of the token view and the rows
// (pictures.js). Kept here so tokenize.js only has a few hooks.

import { $ } from "../dom.js";
import { byteCount } from "../format.js";
import { mountStory } from "./story.js";
import { mountSideBySide } from "./sidebyside.js";
import { mountGallery } from "./gallery.js";
import { mountLessons } from "./lessons.js";
import { pictureButtons, tokensSvg, rowsSvg } from "./pictures.js";
import { groupTokens } from "../tokenlist.js";
import { t } from "../i18n.js";

/**
 * Mount the teaching features inside Tokenize's `root`.
 * ctx: {out (the token list), getText(), setText(text) (Tokenize's text, largetext.js), select (the tokenizer picker), persist(), encodeNow()}.
 * Returns {story, sbs, gallery, lessons, clearSource()}: clearSource() forgets that the text came from the gallery.
 */
export function mountTeaching(root, store, api, { out, getText, setText, select, persist, encodeNow }) {
  const story = mountStory($(root, '[data-testid="token-story"]'), api, {
    onClose: () => out.focus({ preventScroll: true }),
    mergeRow: (name, id) =>
      store.state.train?.result?.name === name
        ? document.querySelector(`[data-testid="merges-body"] tr[data-id="${Number(id)}"]`)
        : null,
  });
  const sbs = mountSideBySide($(root, '[data-testid="sbs-panel"]'), store, api);
  let source = null; // what the text is, for pictures: a gallery example and text index, or null (typed)
  const gallery = mountGallery($(root, '[data-testid="gallery-slot"]'), api, {
    choose(ex, ti) {
      setText(ex.texts[ti].text);
      persist();
      source = { id: ex.id, ti };
      store.update("tokenize", { tokenizer: ex.encodings[0] });
      select.value = ex.encodings[0];
      sbs.toggle(true, ex.encodings.slice(1));
      encodeNow();
    },
  });
  const lessons = mountLessons($(root, '[data-testid="lessons-slot"]'), api);
  const sourceLabel = () => {
    if (source)
      return t("teach.source.gallery", {
        title: t(`gallery.ex.${source.id}.title`),
        label: t(`gallery.ex.${source.id}.label.${source.ti}`),
      });
    const text = getText().slice(0, 1000).replace(/\s+/g, " ").trim();
    return t("teach.source.text", { text: text.length > 70 ? `${text.slice(0, 70)}…` : text });
  };
  out.after(
    pictureButtons(
      "tokens-picture",
      () => {
        const st = store.state.tokenize;
        if (!st.result || st.result.n_tokens == null) return null; // (a large text still being counted)
        const gs = groupTokens(st.result);
        return tokensSvg(
          gs.map((g) => ({ text: st.text.slice(g.start, g.end), ids: g.tokens.map((i) => st.result.ids[i]) })),
          {
            tokenizer: api.label(st.tokenizerShown),
            source: sourceLabel(),
            showIds: st.showIds,
            count: st.result.n_tokens,
            bytes: byteCount(st.text),
          },
        );
      },
      () => `${store.state.tokenize.tokenizerShown}-tokens`,
      "tokens",
    ),
  );
  // (inside the side-by-side body: no picture buttons while side by side is off, a tester)
  $(root, '[data-testid="sbs-panel"] .sbs-body').append(
    pictureButtons(
      "sbs-picture",
      () => {
        const r = store.state.tokenize.sbs?.result;
        if (!r) return null;
        return rowsSvg(r, store.state.tokenize.sbs.text, { source: sourceLabel(), label: (n) => api.label(n) });
      },
      () => `side-by-side-${store.state.tokenize.tokenizerShown}`,
      "rows",
    ),
  );

  return {
    story,
    sbs,
    gallery,
    lessons,
    clearSource() {
      source = null;
      gallery.clear();
    },
  };
}
