// Lessons from the courses (issue 21): each course's own worked example as a card with a
// ready link and embed snippet. What a lesson is (its course, view, link parameters, text)
// and every figure in its note come from bytepair.app.lessons (computed by the page's Python;
// the course's own figures are quoted data beside ours), worded here from the catalog.

import { h, loadOnOpen } from "../dom.js";
import { linkTo, iframeSnippet, embedHeight, packText } from "../links.js";
import { t, onLocaleChange, LOCALES } from "../i18n.js";

/** A lesson's note parameters: its facts, its course's quoted figures as quoted_<name>, "N tokens" for each *_count. */
export function lessonParams(lesson) {
  const params = {};
  for (const [k, v] of Object.entries(lesson.facts)) params[k] = typeof v === "number" ? v : String(v);
  for (const [k, v] of Object.entries(lesson.quoted)) {
    // ids stay ASCII (a user copies them); a course's split is shown as it writes it
    if (Array.isArray(v)) params[`quoted_${k}`] = k === "split" ? v.join(" + ") : v.join(", ");
    else params[`quoted_${k}`] = typeof v === "number" ? v : String(v);
  }
  for (const [k, v] of Object.entries(lesson.facts)) {
    if (k.endsWith("_count") && typeof v === "number")
      params[`${k.slice(0, -6)}_tokens`] = t("gallery.tokens", { n: v });
  }
  return params;
}

/** The link's parameters: the lesson's, with its text packed into `t` (links.js's form). */
export function lessonLinkParams(lesson) {
  return lesson.text == null ? { ...lesson.params } : { ...lesson.params, t: packText(lesson.text) };
}

/** The link to a lesson (in its course's language); embed: {theme} for the <iframe> form. */
export function lessonLink(lesson, { embed = null } = {}) {
  return linkTo(lesson.view, lessonLinkParams(lesson), { embed, lang: lesson.course });
}

function card(lesson) {
  const params = lessonParams(lesson);
  const title = t(`lessons.${lesson.id}.title`);
  const courseName = LOCALES.find((l) => l.code === lesson.course)?.name ?? lesson.course;
  const pieces = [
    h("h3", { text: title }),
    h(
      "p",
      { class: "hint lesson-course" },
      `${t("lessons.course")} `,
      // the language named in itself (data, as in the language menu)
      h("span", { text: courseName, lang: lesson.course, dataset: { i18nSkip: "" } }),
    ),
    h("p", { class: "lesson-note", text: t(`lessons.${lesson.id}.text`, params), dataset: { testid: "lesson-note" } }),
  ];
  if (lesson.stages.length) {
    pieces.push(
      h(
        "ol",
        { class: "lesson-stages", dataset: { testid: "lesson-stages" } },
        lesson.stages.map((s) =>
          h(
            "li",
            { dataset: { stage: s } },
            h("strong", { text: t(`lessons.stage.${s}`) }),
            ` ${t(`lessons.stage.${s}.note`, params)}`,
          ),
        ),
      ),
    );
  }
  const embed = iframeSnippet(lessonLink(lesson, { embed: {} }), {
    title: `bytepair: ${title}`,
    height: embedHeight(lesson.view),
  });
  pieces.push(
    h(
      "div",
      { class: "lesson-actions" },
      h("a", {
        class: "button small",
        href: lessonLink(lesson),
        text: t("lessons.open"),
        attrs: { hreflang: lesson.course },
        dataset: { testid: "lesson-open" },
      }),
      h(
        "details",
        { class: "gallery-share" },
        h("summary", { text: t("gallery.embed") }),
        h("textarea", {
          readOnly: true,
          rows: 3,
          value: embed,
          attrs: { "aria-label": t("lessons.embed", { title }) },
          dataset: { testid: "lesson-embed" },
        }),
      ),
    ),
  );
  return h("article", { class: "lesson-card", dataset: { testid: "lesson", id: lesson.id } }, ...pieces);
}

/**
 * Mount the lesson cards into `el` (an empty element): a closed <details> that asks Python
 * for the lessons when first opened. Returns {open(): Promise} (opens it and resolves when drawn).
 */
export function mountLessons(el, api) {
  const list = h("div", { class: "lesson-list", dataset: { testid: "lesson-list" } });
  const summary = h("summary", { text: t("lessons.summary"), dataset: { i18n: "lessons.summary" } });
  const hint = h("p", { class: "hint", text: t("lessons.hint"), dataset: { i18n: "lessons.hint" } });
  const details = h("details", { class: "gallery lessons", dataset: { testid: "lessons" } }, summary, hint, list);
  el.replaceChildren(details);

  let data = null;
  const draw = () => list.replaceChildren(...data.map(card));
  const load = loadOnOpen(details, list, {
    fetch: () => api.lessons(),
    draw: (d) => {
      data = d;
      draw();
    },
    computing: "lessons.computing",
    failed: "lessons.failed",
  });
  onLocaleChange(() => {
    if (data) draw(); // links keep their course's language; titles and notes follow the reader's
  });
  return {
    open() {
      details.open = true;
      return load();
    },
  };
}
