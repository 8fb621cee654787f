// Why this token: the story panel of one token in Tokenize (issue 13).
// The story comes from Python (bytepair.token_story via api.tokenStory); this
// module only draws it. Text reaches the DOM through textContent only.

import { h } from "../dom.js";
import { visibleWhitespace } from "../format.js";
import { t, num, errorText, onLocaleChange } from "../i18n.js";
import { textDirection } from "../tokenlist.js";

// Every sentence is worded from the catalog (story.* keys, issue 21) out of the story's data:
// counts in the locale's digits (num), ids and bytes ASCII (String), token texts isolated.

// Token texts may be right-to-left (Arabic, Hebrew): each sits in its own <bdi> (a direction
// isolate), so a row reads left to right as pair → new token whatever the script (issue 11).
const iso = (text, attrs = {}) => h("bdi", { ...attrs, text });
const quoted = (b) => ["“", iso(b.text), "”"];

/**
 * A catalog sentence as nodes: t(key, params) with each {name} of `nodes` replaced by
 * those nodes (token texts in <bdi>, <code> ids), the rest of the text as strings.
 */
export function tNodes(key, params = {}, nodes = {}) {
  const text = t(key, params);
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!(m[1] in nodes)) continue;
    out.push(text.slice(last, m.index), ...[nodes[m[1]]].flat());
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== "");
}

/** "rank 267" (real encodings) or "merge #3" (trained tokenizers) of a step or candidate (ids ASCII). */
function priority(x) {
  return x.rank != null
    ? t("story.rank", { rank: String(x.rank) })
    : t("story.merge_index", { index: String(x.merge_index) });
}

/** The nodes of one "why it stopped" line (token texts isolated). */
function edgeText(edge, side, rule) {
  if (edge.kind === "piece_start" || edge.kind === "piece_end") return [t(`story.edge.${side}.${edge.kind}`)];
  return tNodes(
    `story.edge.${side}.${rule === "rank" ? "not_token" : "not_merge"}`,
    { id: String(edge.neighbour_id) },
    { joined: edge.joined ? quoted(edge.joined) : t("story.new_pair") },
  );
}

/** The label of the pattern alternative that matched a piece, from its data (explain.label_parts). */
export function pieceLabel(p) {
  if (p.kind === "custom")
    return p.alternative != null
      ? t("story.kind.custom", { n: p.alternative + 1, source: p.alternative_source ?? "" })
      : p.label;
  const parts = p.label_parts ?? { kind: p.kind };
  const key = `story.kind.${parts.kind}`;
  let label = t(key);
  if (label === key) return p.label; // a kind this page does not know yet: Python's English label
  if (parts.lead === "char") label = t("story.lead.char", { label, char: `'${parts.lead_char}'` });
  else if (parts.lead) label = t(`story.lead.${parts.lead}`, { label });
  if (parts.then_newlines) label = t("story.lead.then_newlines", { label });
  return label;
}

function chip(text, cls = "story-part") {
  return h("bdi", { class: cls, text });
}

/**
 * The story panel. `el` is an empty element; `api` is window.bytepair.
 * mergeRow(tokenizer, id): the Train view's merge-list row of that merge, or null.
 * Returns {open(text, tokenizer, indices), close(), showing}:
 *   indices: the token numbers of one group (tokens sharing a character); the first is shown.
 */
export function mountStory(el, api, { onClose = () => {}, mergeRow = () => null } = {}) {
  el.hidden = true;
  el.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close({ returnFocus: true });
  });
  let seq = 0;
  let current = null; // {text, tokenizer, indices, i}
  let shown = null; // the story drawn, redrawn in the new language when the locale changes
  onLocaleChange(() => {
    if (current && shown && !el.hidden) el.replaceChildren(...draw(shown, current.tokenizer));
  });

  /** Close the panel; returnFocus: the user closed it (the token list gets the focus back). */
  function close({ returnFocus = false } = {}) {
    const was = current;
    seq += 1;
    current = null;
    el.hidden = true;
    el.replaceChildren();
    delete el.dataset.tokenIndex;
    shown = null;
    if (was && returnFocus) onClose();
  }

  async function show() {
    const { text, tokenizer, indices, i, options } = current;
    const index = indices[i];
    const mine = ++seq;
    el.hidden = false;
    el.dataset.state = "loading";
    shown = null;
    el.replaceChildren(h("p", { class: "hint", text: t("story.loading", { n: index + 1 }) }));
    let story;
    try {
      story = await api.tokenStory(text, tokenizer, index, options);
    } catch (err) {
      if (mine !== seq) return;
      el.dataset.state = "unavailable";
      el.replaceChildren(
        header(t("story.token", { n: index + 1 })),
        h(
          "p",
          { class: "story-unavailable", dataset: { testid: "story-unavailable" } },
          t("story.unavailable", { tokenizer: api.label(tokenizer) }),
        ),
        h("p", { class: "hint", text: t("story.python_said", { message: errorText(err) }) }),
      );
      return;
    }
    if (mine !== seq) return;
    el.dataset.state = "ready";
    el.dataset.tokenIndex = String(index);
    shown = story;
    el.replaceChildren(...draw(story, tokenizer));
  }

  function header(title) {
    const nav = [];
    if (current && current.indices.length > 1) {
      current.indices.forEach((ti, k) => {
        nav.push(
          h("button", {
            type: "button",
            class: "button small secondary",
            text: t("story.nav", { k: k + 1, n: current.indices.length }),
            attrs: { "aria-pressed": String(k === current.i) },
            on: {
              click: () => {
                current.i = k;
                show();
              },
            },
          }),
        );
      });
    }
    return h(
      "div",
      { class: "story-head" },
      h("h3", { attrs: { id: "story-title" } }, ...[title].flat()),
      ...nav,
      h("button", {
        type: "button",
        class: "button small secondary",
        text: t("story.close"),
        dataset: { testid: "story-close" },
        on: { click: () => close({ returnFocus: true }) },
      }),
    );
  }

  function draw(s, tokenizer) {
    const out = [header(tNodes("story.title", { id: String(s.id) }, { token: quoted(s) }))];
    const facts = h("dl", { class: "story-facts" });
    const add = (term, ...value) => facts.append(h("div", {}, h("dt", { text: term }), h("dd", {}, ...value)));
    add(
      t("story.fact.token"),
      ...tNodes(
        "story.fact.token_value",
        { n: s.index + 1, tokenizer: api.label(tokenizer) },
        { id: h("code", { text: String(s.id), dataset: { testid: "story-id" } }) },
      ),
    );
    add(
      t("story.fact.bytes"),
      h("code", { text: s.hex.replace(/(..)(?=.)/g, "$1 "), dataset: { testid: "story-hex" } }),
    );
    // the tokenizer's own spelling (bytepair.teach.explain.TokenStory.vocab_form): '▁' for Gemma, GPT-2's 'Ġ' for rank files
    const form = s.vocab_form;
    add(
      t("story.fact.forms"),
      ...tNodes("story.form.text", {}, { token: quoted(s) }),
      ...(form
        ? [
            " · ",
            ...tNodes(
              form.kind === "vocab" ? "story.form.vocab" : "story.form.gpt2",
              {},
              { token: ["“", h("span", { dataset: { testid: "story-vocab-form" } }, iso(form.text)), "”"] },
            ),
          ]
        : []),
    );
    const p = s.piece_story;
    if (s.special) add(t("story.fact.piece"), t("story.special"));
    else if (p) {
      const where = pieceLabel(p);
      add(
        t("story.fact.piece"),
        h("code", { class: "story-piece" }, "“", iso(p.text), "”"),
        " — ",
        h("span", { text: where, dataset: { testid: "story-label" } }),
      );
    }
    out.push(facts);

    if (s.how === "single_byte") out.push(h("p", { text: t("story.single_byte") }));
    else if (s.how === "whole_piece")
      out.push(h("p", { text: t(s.steps.length ? "story.whole_piece_steps" : "story.whole_piece") }));
    if (s.steps.length) {
      out.push(
        h("p", {
          class: "hint",
          text: t("story.steps_hint", { rule: t(s.rule === "rank" ? "story.rule.rank" : "story.rule.merge_index") }),
        }),
      );
      // the parts' chips run the way the token row does: a Persian piece's first part on the right
      // (the pair column stays "left + right → new" left to right, issue 11)
      const rowDir = textDirection(p?.text ?? s.text ?? "");
      const rows = s.steps.map((st, k) =>
        h(
          "tr",
          { dataset: { testid: "story-step", left: st.left_id, right: st.right_id, id: st.id } },
          h("td", { class: "num", text: num(k + 1) }),
          h(
            "td",
            {},
            h(
              "code",
              { attrs: { dir: "ltr" }, dataset: { testid: "story-pair" } },
              "“",
              iso(st.left.text),
              "” + “",
              iso(st.right.text),
              "” → “",
              iso(st.merged.text),
              "”",
            ),
          ),
          h("td", { class: "num", text: priority(st) }),
          h("td", { class: "story-parts", attrs: { dir: rowDir } }, ...partsOf(st)),
        ),
      );
      out.push(
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "story-steps" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { text: t("story.col.step") }),
                h("th", { text: t("story.col.pair") }),
                h("th", { text: t(s.rule === "rank" ? "story.col.rank" : "story.col.merge_index") }),
                h("th", { text: t("story.col.parts") }),
              ),
            ),
            h("tbody", {}, rows),
          ),
        ),
      );
    }
    if (s.stop) {
      const items = [
        h("li", {}, ...edgeText(s.stop.left, "left", s.rule)),
        h("li", {}, ...edgeText(s.stop.right, "right", s.rule)),
      ];
      for (const c of s.stop.lost) {
        const why = t(c.reason === "leftmost_tie" ? "story.lost.leftmost_tie" : "story.lost.outranked");
        items.push(
          h(
            "li",
            {},
            ...tNodes(
              c.side === "left" ? "story.lost.left" : "story.lost.right",
              { priority: priority(c), why, step: c.lost_to + 1 },
              { joined: quoted(c.joined) },
            ),
          ),
        );
      }
      out.push(
        h("h4", { text: t("story.stopped") }),
        h("ul", { class: "story-stop", dataset: { testid: "story-stop" } }, items),
      );
    }
    if (s.created_by) {
      const c = s.created_by;
      const line = h(
        "p",
        { dataset: { testid: "story-created" } },
        c.count != null
          ? t("story.created.count", {
              index: String(c.merge_index),
              left: String(c.pair[0]),
              right: String(c.pair[1]),
              n: c.count,
            })
          : t("story.created.no_count", {
              index: String(c.merge_index),
              left: String(c.pair[0]),
              right: String(c.pair[1]),
            }),
      );
      const row = mergeRow(tokenizer, s.id); // the Train view's merge list row, while that run is shown there
      if (row) {
        line.append(
          " ",
          h("button", {
            type: "button",
            class: "button small secondary",
            text: t("story.goto_merge"),
            dataset: { testid: "story-goto-merge" },
            on: {
              click: () => {
                document.getElementById("tab-train")?.click();
                row.scrollIntoView({ block: "center" });
                row.classList.add("flash");
                setTimeout(() => row.classList.remove("flash"), 2000);
              },
            },
          }),
        );
      }
      out.push(line);
    }
    return out;
  }

  // the token's parts after a step (display texts from Python: parts_text; empty for very long tokens)
  function partsOf(st) {
    const parts = st.parts_text ?? [];
    return parts.length ? parts.map((x) => chip(visibleWhitespace(x))) : ["–"];
  }

  return {
    open(text, tokenizer, indices, options = {}) {
      current = { text, tokenizer, indices, i: 0, options };
      show();
    },
    close,
    get showing() {
      return current;
    },
  };
}
