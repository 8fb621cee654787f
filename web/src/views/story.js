// Why this token: the story panel of one token in Tokenize (issue 13).
// The story comes from Python (bytepair.token_story via api.tokenStory); this
// module only draws it. Text reaches the DOM through textContent only.

import { h } from "../dom.js";
import { int, visibleWhitespace } from "../format.js";

const EDGE = {
  piece_start: "the piece starts here (merges never cross pieces)",
  piece_end: "the piece ends here (merges never cross pieces)",
};

// Token texts may be right-to-left (Arabic, Hebrew): each sits in its own <bdi> (a direction
// isolate), so a row reads left to right as pair → new token whatever the script (issue 11).
const iso = (text, attrs = {}) => h("bdi", { ...attrs, text });
const quoted = (b) => ["“", iso(b.text), "”"];

/** "rank 267" (real encodings) or "merge #3" (trained tokenizers) of a step or candidate. */
function priority(x) {
  return x.rank != null ? `rank ${int(x.rank)}` : `merge #${int(x.merge_index)}`;
}

/** The nodes of one "why it stopped" line (token texts isolated). */
function edgeText(edge, side, rule) {
  if (EDGE[edge.kind]) return [`${side}: ${EDGE[edge.kind]}`];
  const absent = rule === "rank" ? "not a token of the vocabulary" : "not a learned merge";
  return [
    `${side}: joined with its neighbour (id ${edge.neighbour_id}) it would be `,
    ...(edge.joined ? quoted(edge.joined) : ["a new pair"]),
    `, which is ${absent}, so the loop stops there`,
  ];
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

  /** Close the panel; returnFocus: the user closed it (the token list gets the focus back). */
  function close({ returnFocus = false } = {}) {
    const was = current;
    seq += 1;
    current = null;
    el.hidden = true;
    el.replaceChildren();
    delete el.dataset.tokenIndex;
    if (was && returnFocus) onClose();
  }

  async function show() {
    const { text, tokenizer, indices, i, options } = current;
    const index = indices[i];
    const mine = ++seq;
    el.hidden = false;
    el.dataset.state = "loading";
    el.replaceChildren(h("p", { class: "hint", text: `Working out the story of token ${int(index + 1)}…` }));
    let story;
    try {
      story = await api.tokenStory(text, tokenizer, index, options);
    } catch (err) {
      if (mine !== seq) return;
      el.dataset.state = "unavailable";
      el.replaceChildren(
        header(`Token ${int(index + 1)}`),
        h(
          "p",
          { class: "story-unavailable", dataset: { testid: "story-unavailable" } },
          `The story of this token cannot be told for ${api.label(tokenizer)} yet: the explanation covers the OpenAI encodings and tokenizers trained here.`,
        ),
        h("p", { class: "hint", text: `(Python said: ${err.message})` }),
      );
      return;
    }
    if (mine !== seq) return;
    el.dataset.state = "ready";
    el.dataset.tokenIndex = String(index);
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
            text: `token ${k + 1} of ${current.indices.length}`,
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
        text: "Close",
        dataset: { testid: "story-close" },
        on: { click: () => close({ returnFocus: true }) },
      }),
    );
  }

  function draw(s, tokenizer) {
    const out = [header(["Why this token: ", ...quoted(s), ` (id ${s.id})`])];
    const facts = h("dl", { class: "story-facts" });
    const add = (term, ...value) => facts.append(h("div", {}, h("dt", { text: term }), h("dd", {}, ...value)));
    add(
      "Token",
      `number ${int(s.index + 1)} of the text, id `,
      h("code", { text: String(s.id), dataset: { testid: "story-id" } }),
      ` in ${api.label(tokenizer)}`,
    );
    add("Bytes (hex)", h("code", { text: s.hex.replace(/(..)(?=.)/g, "$1 "), dataset: { testid: "story-hex" } }));
    // the tokenizer's own spelling (bytepair.explain.TokenStory.vocab_form): '▁' for Gemma, GPT-2's 'Ġ' for rank files
    const form = s.vocab_form;
    add(
      "Display forms",
      "text ",
      ...quoted(s),
      ...(form
        ? [` · ${form.label} “`, h("span", { dataset: { testid: "story-vocab-form" } }, iso(form.text)), "”"]
        : []),
    );
    const p = s.piece_story;
    if (s.special) add("Piece", "a special token: matched whole before the text is split, never merged");
    else if (p) {
      const where =
        p.kind === "custom"
          ? `alternative ${p.alternative + 1} of the split pattern: ${p.alternative_source}`
          : p.label;
      add(
        "Piece",
        h("code", { class: "story-piece" }, "“", iso(p.text), "”"),
        " — ",
        h("span", { text: where, dataset: { testid: "story-label" } }),
      );
    }
    out.push(facts);

    if (s.how === "single_byte") out.push(h("p", { text: "A single byte: no merge made it." }));
    else if (s.how === "whole_piece")
      out.push(
        h("p", {
          text:
            "The whole piece is a token of the vocabulary, so tiktoken looks it up without merging." +
            (s.steps.length ? " The merge loop reaches it too, by these steps:" : ""),
        }),
      );
    if (s.steps.length) {
      const rule =
        s.rule === "rank"
          ? "lowest rank first, leftmost on ties (tiktoken's rule)"
          : "lowest merge index first, leftmost on ties (minbpe's rule)";
      out.push(
        h("p", {
          class: "hint",
          text: `Merges from bytes to this token, in the order the BPE loop applied them inside the piece: ${rule}. Parts: the token's pieces after each step.`,
        }),
      );
      const rows = s.steps.map((st, k) =>
        h(
          "tr",
          { dataset: { testid: "story-step", left: st.left_id, right: st.right_id, id: st.id } },
          h("td", { class: "num", text: String(k + 1) }),
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
          h("td", { class: "story-parts", attrs: { dir: "ltr" } }, ...partsOf(st)),
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
                h("th", { text: "Step" }),
                h("th", { text: "Pair merged" }),
                h("th", { text: s.rule === "rank" ? "Rank" : "Merge index" }),
                h("th", { text: "Parts after" }),
              ),
            ),
            h("tbody", {}, rows),
          ),
        ),
      );
    }
    if (s.stop) {
      const items = [
        h("li", {}, ...edgeText(s.stop.left, "Left", s.rule)),
        h("li", {}, ...edgeText(s.stop.right, "Right", s.rule)),
      ];
      for (const c of s.stop.lost) {
        const why =
          c.reason === "leftmost_tie"
            ? "the same priority further left went first"
            : "a merge ranked ahead of it went first";
        items.push(
          h(
            "li",
            {},
            `${c.side === "left" ? "Left" : "Right"} edge: `,
            ...quoted(c.joined),
            ` (${priority(c)}) was possible but lost: ${why} (step ${c.lost_to + 1} of the piece took one of its parts).`,
          ),
        );
      }
      out.push(
        h("h4", { text: "Why it stopped here" }),
        h("ul", { class: "story-stop", dataset: { testid: "story-stop" } }, items),
      );
    }
    if (s.created_by) {
      const c = s.created_by;
      const line = h(
        "p",
        { dataset: { testid: "story-created" } },
        `Made by training merge #${int(c.merge_index)} of the pair (${c.pair[0]}, ${c.pair[1]})`,
        c.count != null
          ? `, which occurred ${int(c.count)} times in the training text when it was merged.`
          : " (its count is known only in the page that trained it).",
      );
      const row = mergeRow(tokenizer, s.id); // the Train view's merge list row, while that run is shown there
      if (row) {
        line.append(
          " ",
          h("button", {
            type: "button",
            class: "button small secondary",
            text: "Show it in Train's merge list",
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
    return parts.length ? parts.map((t) => chip(visibleWhitespace(t))) : ["–"];
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
