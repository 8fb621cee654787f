// Chat view: a conversation counted the way the model sees it. A message list
// (role + text; add, remove, reorder, edit), a chat format picker (facts.chat.formats:
// OpenAI ChatML, gpt-oss harmony, open models' chat templates), the "add
// generation prompt" switch, a tools box (function definitions as JSON; a syntax
// error shown at its line and column, from bytepair's structured ToolsError); the
// rendered prompt as coloured tokens (special tokens and tool definitions marked),
// per-message content / overhead counts, the tools' own line and the total.
//
// The message editors are built when the list's shape changes (add, remove,
// move, a link); typing only updates the state, so focus and caret stay put.

import { $, h, showError, debounce, slowCallNotice } from "../dom.js";
import { isDownloadError } from "../errors.js";
import { renderOnFrames } from "../store.js";
import { int } from "../format.js";
import * as storage from "../storage.js";
import { drawContextLine } from "../contextline.js";
import { packText, unpackText, MAX_LINK_TEXT, choiceParam } from "../links.js";
import { groupTokens, mountTokenList, textDirection, tokenNode } from "../tokenlist.js";
import { chipContent, markNames } from "../tokenchips.js";
import { mountModelProgress } from "./model-ui.js";
import { menuLabel } from "../tokenizer-groups.js";
import { t, num, locale, onLocaleChange, errorText } from "../i18n.js";

const DEFAULT_FORMAT = "chatml-o200k";
const FALLBACK_ROLES = ["system", "user", "assistant", "tool"]; // until facts.chat.roles arrive
const SAMPLE = [
  { role: "system", content: "You are a concise assistant. Answer in the user's language." },
  { role: "user", content: "Quelle est la capitale de l'Australie ? 🇦🇺" },
  { role: "assistant", content: "Canberra." },
  { role: "user", content: "Und wie viele Einwohner hat sie?" },
];

/** The sample conversation's messages in the catalog (the reader's language; English: SAMPLE's). */
const SAMPLE_KEYS = ["chat.sample.system", "chat.sample.user", "chat.sample.assistant", "chat.sample.follow_up"];
const localSample = () => SAMPLE.map((m, i) => ({ role: m.role, content: t(SAMPLE_KEYS[i]) }));
/** Whether `messages` are `sample` as it was shown (not edited). */
const isSample = (messages, sample) =>
  messages.length === sample.length &&
  messages.every((m, i) => m.role === sample[i].role && m.content === sample[i].content);

let nextKey = 1;
const withKeys = (messages) => messages.map((m) => ({ key: nextKey++, role: m.role, content: m.content }));

export const initialChatState = {
  format: DEFAULT_FORMAT,
  generation: true,
  whitespace: false,
  messages: withKeys(SAMPLE),
  tools: "", // the tools box's JSON text ("" for none)
  shape: 0, // bumped when the editors must be rebuilt (add, remove, move, link)
  result: null, // ChatBreakdown JSON of `counted`
  counted: null, // the request the result belongs to (JSON)
  error: null, // {message, index} of the last request
  pending: false,
  active: -1,
};

/** The request for a state: what decides the result (JSON text, compared for staleness). */
const requestOf = (s) =>
  JSON.stringify([s.format, s.generation, s.messages.map(({ role, content }) => ({ role, content })), s.tools]);

/** Link form of a conversation: [[role, content], ...] as JSON, lz-packed (links.js). */
export function packConversation(messages) {
  return packText(JSON.stringify(messages.map((m) => [m.role, m.content])));
}

/** The inverse of packConversation; throws a readable Error for a damaged or wrong value. */
export function unpackConversation(packed) {
  let data;
  try {
    data = JSON.parse(unpackText(packed)); // (a damaged link's text: this view's own sentence)
  } catch {
    data = null;
  }
  if (
    !Array.isArray(data) ||
    !data.every((m) => Array.isArray(m) && m.length === 2 && m.every((x) => typeof x === "string"))
  ) {
    throw new Error(t("link.damaged.conversation"));
  }
  return data.map(([role, content]) => ({ role, content }));
}

export function mountChat(root, store, api) {
  // the sample conversation in the reader's language; an edited or restored one is left alone
  let sample = localSample();
  if (isSample(store.state.chat.messages, SAMPLE)) store.update("chat", { messages: withKeys(sample) });
  const select = $(root, '[data-testid="chat-format"]');
  const genToggle = $(root, '[data-testid="chat-generation"]');
  const wsToggle = $(root, '[data-testid="chat-whitespace"]');
  const list = $(root, '[data-testid="chat-messages"]');
  const addButton = $(root, '[data-testid="chat-add"]');
  const toolsBox = $(root, '[data-testid="chat-tools"]');
  const toolsError = $(root, '[data-testid="chat-tools-error"]');
  const toolsWhere = $(root, '[data-testid="chat-tools-where"]');
  const toolsRow = $(root, '[data-testid="chat-tools-row"]');
  const toolsIgnored = $(root, '[data-testid="chat-tools-ignored"]');
  const out = $(root, '[data-testid="chat-tokens"]');
  const detail = $(root, '[data-testid="chat-token-detail"]');
  const source = $(root, '[data-testid="chat-source"]');
  const contextLine = $(root, '[data-testid="chat-context-line"]');
  const progressLine = $(root, '[data-testid="chat-model-progress"]');
  const working = slowCallNotice($(root, '[data-testid="chat-working"]'), {
    onCancel: () => api.cancel(),
    waiting: () => !progressLine.hidden, // an open model downloading: its own line says so
  });
  const counts = {
    total: $(root, '[data-testid="chat-total"]'),
    content: $(root, '[data-testid="chat-content-tokens"]'),
    overhead: $(root, '[data-testid="chat-overhead"]'),
    trailing: $(root, '[data-testid="chat-trailing"]'),
    tools: $(root, '[data-testid="chat-tools-tokens"]'),
  };
  const set = (patch) => store.update("chat", patch);
  const roles = () => api.facts?.chat?.roles ?? FALLBACK_ROLES;
  // Python's formats (facts.chat), then the tokenizer files loaded here whose config has a chat template
  const formats = () => [
    ...(api.facts?.chat?.formats ?? []),
    ...api
      .loadedFiles()
      .filter((f) => f.meta?.chat_templates?.length)
      .map((f) => ({
        id: `template:${f.name}`,
        label: `${f.name} — chat template`,
        label_kind: "template",
        label_models: f.name,
        group: t("chat.group.loaded"),
        format: "chat_template",
        tokenizer: f.name,
        style: "",
      })),
  ];
  const formatOf = (id) => formats().find((f) => f.id === id);
  // a format's label and note, worded here from Python's data (chat_formats.LABEL_FORMS, NOTE_FORM)
  const formatLabel = (f) =>
    f.label_kind
      ? t(`chat.label.${f.label_kind}`, { models: f.label_models, encoding: f.label_encoding, maker: f.maker })
      : f.label;
  const modelsOf = (f) => f.label_models ?? f.label.split(" — ")[0];
  mountModelProgress(progressLine, api, () => {
    const f = formatOf(store.state.chat.format);
    return f?.format === "chat_template" || f?.format === "mistral" ? [f.tokenizer] : [];
  });

  // --- the format picker, grouped by maker -----------------------------------
  let wanted = null; // a format a link asked for, before the facts are known
  // the closed picker reads in its chosen label's direction: on a narrow screen a long
  // "ChatML — GPT-4o, …" is cut at its end, not at its start, in a right-to-left page too
  const fitSelectDir = () => {
    select.dir = textDirection(select.selectedOptions[0]?.textContent ?? "", select.parentElement);
  };
  function fillSelect() {
    const groups = new Map();
    for (const f of formats()) {
      if (!groups.has(f.group)) groups.set(f.group, []);
      groups.get(f.group).push(h("option", { value: f.id, text: menuLabel(api, f.tokenizer, formatLabel(f)) }));
    }
    select.replaceChildren(...[...groups].map(([label, options]) => h("optgroup", { label }, options)));
    if (!api.facts) return;
    const ids = formats().map((f) => f.id);
    const current = wanted ?? store.state.chat.format;
    if (wanted && !ids.includes(wanted)) {
      showError(
        root,
        "chat-format",
        t("chat.link.format", {
          wanted,
          shown: ids.includes(store.state.chat.format) ? store.state.chat.format : DEFAULT_FORMAT,
        }),
      );
    }
    wanted = null;
    const value = ids.includes(current)
      ? current
      : ids.includes(store.state.chat.format)
        ? store.state.chat.format
        : DEFAULT_FORMAT;
    select.value = value;
    fitSelectDir();
    if (value !== store.state.chat.format) set({ format: value });
  }

  // --- message editors ---------------------------------------------------------
  function moveMessage(i, to) {
    const messages = [...store.state.chat.messages];
    if (to < 0 || to >= messages.length) return;
    const [m] = messages.splice(i, 1);
    messages.splice(to, 0, m);
    changeShape(messages, { focus: `[data-key="${m.key}"] [data-action="${to < i ? "up" : "down"}"]` });
  }
  function removeMessage(i) {
    const messages = store.state.chat.messages.filter((_, j) => j !== i);
    const next = messages[Math.min(i, messages.length - 1)];
    changeShape(messages, { focus: next ? `[data-key="${next.key}"] textarea` : '[data-testid="chat-add"]' });
  }
  function addMessage() {
    const messages = store.state.chat.messages;
    const last = messages[messages.length - 1]?.role;
    const role = last === "user" ? "assistant" : "user";
    const m = { key: nextKey++, role, content: "" };
    changeShape([...messages, m], { focus: `[data-key="${m.key}"] textarea` });
  }
  function changeShape(messages, { focus = null } = {}) {
    set({ messages, shape: store.state.chat.shape + 1 });
    buildEditors();
    if (focus) root.querySelector(focus)?.focus();
    countSoon();
    persist();
  }
  function editMessage(key, patch, { now = false } = {}) {
    set({ messages: store.state.chat.messages.map((m) => (m.key === key ? { ...m, ...patch } : m)) });
    if (now) countNow();
    else countSoon();
    persist();
  }

  function buildEditors() {
    const messages = store.state.chat.messages;
    const n = messages.length;
    list.replaceChildren(
      ...messages.map((m, i) => {
        const label = t("chat.message", { n: i + 1 });
        const roleSelect = h(
          "select",
          {
            dataset: { testid: "chat-role" },
            attrs: { "aria-label": t("chat.message.role", { label }) },
            on: { change: (e) => editMessage(m.key, { role: e.target.value }, { now: true }) },
          },
          [...new Set([...roles(), m.role])].map((r) => h("option", { value: r, text: r })),
        );
        roleSelect.value = m.role;
        const text = h("textarea", {
          rows: Math.min(8, Math.max(2, m.content.split("\n").length)),
          spellcheck: false,
          dataset: { testid: "chat-content" },
          attrs: { "aria-label": t("chat.message.text", { label }), dir: "auto" },
          on: { input: (e) => editMessage(m.key, { content: e.target.value }) },
        });
        text.value = m.content;
        const button = (action, glyph, title, disabled, fn) =>
          h(
            "button",
            {
              type: "button",
              class: "button small secondary",
              dataset: { action, testid: `chat-${action}` },
              attrs: {
                title: t("chat.action.title", { action: title, label }),
                "aria-label": t("chat.action.label", { action: title, label }),
              },
              disabled,
              on: { click: fn },
            },
            glyph,
          );
        return h(
          "li",
          { class: "chat-message", dataset: { testid: "chat-message", key: m.key, role: m.role } },
          h(
            "div",
            { class: "chat-message-head" },
            h("span", { class: "chat-message-label", text: label }),
            roleSelect,
            h("span", { class: "hint chat-message-count", dataset: { testid: "chat-message-count" } }),
            h(
              "span",
              { class: "chat-message-actions" },
              button("up", "↑", t("chat.up"), i === 0, () => moveMessage(i, i - 1)),
              button("down", "↓", t("chat.down"), i === n - 1, () => moveMessage(i, i + 1)),
              button("remove", "✕", t("chat.remove"), false, () => removeMessage(i)),
            ),
          ),
          text,
          h("p", { class: "error", dataset: { testid: "chat-message-error" }, attrs: { role: "alert" }, hidden: true }),
        );
      }),
    );
    drawnCounts = null;
    render(store.state);
  }

  // --- counting ----------------------------------------------------------------
  let seq = 0;
  // Counted when Chat is shown: a hidden Chat fetches no vocabulary at boot (issue 20: o200k's
  // 0.97 MB for a first visit to Tokenize). A count asked for meanwhile is owed until then.
  let owed = false;
  store.subscribe((state) => {
    if (owed && state.view === "chat") countNow();
  });
  async function countNow() {
    owed = store.state.view !== "chat";
    if (owed) return;
    const s = store.state.chat;
    const request = requestOf(s);
    const mine = ++seq;
    set({ pending: true });
    try {
      await api.ready;
      if (mine !== seq) return;
      working.start();
      const messages = s.messages.map(({ role, content }) => ({ role, content }));
      const result = await api.chat(messages, s.format, {
        addGenerationPrompt: s.generation,
        tools: s.tools.trim() ? s.tools : null,
      });
      if (mine !== seq) return;
      set({ result, counted: request, error: null, pending: false, active: -1 });
    } catch (err) {
      if (mine !== seq) return;
      // the conversation stays as typed; no tokens of another conversation stay next to the message
      const index = Number.isInteger(err.detail?.message_index) ? err.detail.message_index : null;
      // a tools error keeps its place in the JSON (line, column, pos: characters) as data
      const where =
        err.type === "tools" && Number.isInteger(err.detail?.line)
          ? { line: err.detail.line, column: err.detail.column, pos: err.detail.pos }
          : null;
      set({
        result: null,
        counted: request,
        error: {
          message: err.message,
          index,
          field: err.field ?? null,
          type: err.type ?? null,
          where,
          detail: err.detail ?? null,
        },
        pending: false,
        active: -1,
      });
    } finally {
      if (mine === seq) working.stop();
    }
  }
  const countSoon = debounce(countNow, 250);
  const persist = debounce(
    () => {
      const s = store.state.chat;
      storage.saveText(
        "chat",
        JSON.stringify({
          format: s.format,
          generation: s.generation,
          messages: s.messages.map(({ role, content }) => ({ role, content })),
          tools: s.tools,
        }),
      );
    },
    400,
    { save: true },
  );

  select.addEventListener("change", () => {
    showError(root, "chat-format", "");
    set({ format: select.value });
    fitSelectDir();
    countNow();
    persist();
  });
  genToggle.addEventListener("change", () => {
    set({ generation: genToggle.checked });
    countNow();
    persist();
  });
  wsToggle.addEventListener("change", () => set({ whitespace: wsToggle.checked }));
  addButton.addEventListener("click", addMessage);
  toolsBox.addEventListener("input", () => {
    set({ tools: toolsBox.value });
    countSoon();
    persist();
  });

  let restored = false; // a link was applied: the saved conversation must not replace it
  storage
    .loadText("chat", null)
    .then((saved) => {
      if (restored || !saved) return;
      try {
        const data = JSON.parse(saved);
        if (
          Array.isArray(data.messages) &&
          data.messages.every((m) => typeof m.role === "string" && typeof m.content === "string")
        ) {
          set({
            messages: withKeys(data.messages),
            generation: data.generation !== false,
            format: typeof data.format === "string" ? data.format : DEFAULT_FORMAT,
            tools: typeof data.tools === "string" ? data.tools : "",
            shape: store.state.chat.shape + 1,
          });
          genToggle.checked = store.state.chat.generation;
          toolsBox.value = store.state.chat.tools;
          if (api.facts) fillSelect();
          buildEditors();
        }
      } catch {
        // a damaged saved conversation: keep the sample
      }
    })
    .finally(() => {
      if (api.facts) countNow();
    });

  fillSelect();
  api.onTokenizersChanged(() => fillSelect());
  api.onDownloadsChanged(() => fillSelect()); // offline: "— not downloaded" beside what is not here
  api.withFacts(() => {
    fillSelect();
    buildEditors(); // the roles come with the facts
    countNow();
  });

  // --- the token list (tokenlist.js): keyboard and hover, as in Tokenize ----------
  const tokenList = mountTokenList(out, detail, {
    getActive: () => store.state.chat.active,
    setActive: (i) => set({ active: i }),
  });
  let columns = null; // {ids, start, end} of the drawn result
  let drawn = { result: null, whitespace: null };
  let drawnCounts = null;

  function messageName(r, index, part) {
    if (part === "tools") return t("chat.detail.tools");
    if (index == null) return t("chat.detail.after");
    const m = r.messages.find((x) => x.index === index);
    return m
      ? t("chat.detail.message.role", { n: index + 1, role: m.role })
      : t("chat.detail.message", { n: index + 1 });
  }
  function describe(r, text, g) {
    const parts = g.tokens.map((i) => {
      const tok = r.tokens[i];
      const kind = tok.special
        ? "special"
        : tok.part === "content"
          ? "content"
          : tok.part === "tools"
            ? "tools"
            : "overhead";
      return `${t("detail.id", { id: String(tok.id) })} · ${t(`chat.detail.kind.${kind}`)} · ${messageName(r, tok.message, tok.part)}`;
    });
    // the piece with its invisible characters named (marks from Python, as in Tokenize), in <bdi>
    const { body } = chipContent(text, g.start, g.end, r.marks, false);
    const nodes = ["“", h("bdi", {}, body), `”: ${parts.join("; ")}`];
    const names = markNames(r.marks, g.start, g.end);
    if (names.length)
      nodes.push(
        h("span", {
          class: "token-note",
          text: ` ${t("detail.invisible", { names: names.join(", ") })}`,
          dataset: { testid: "token-note" },
        }),
      );
    return nodes;
  }

  function sourceLine(r) {
    const f = formats().find((x) => x.id === store.state.chat.format);
    const what =
      r.format === "chatml"
        ? t("chat.what.chatml", { layout: r.template_name })
        : r.format === "harmony"
          ? t("chat.what.harmony")
          : r.format === "mistral"
            ? t("chat.what.mistral")
            : f?.note_model
              ? t("chat.what.published", { maker: f.maker, model: f.note_model, source: f.note_source })
              : t("chat.what.template", { name: r.template_name ?? "custom" });
    const models = f && r.format !== "chat_template" ? modelsOf(f) : ""; // the label says which models
    const toolsKey = {
      chat_template: "chat.tools.template",
      harmony: "chat.tools.harmony",
      mistral: "chat.tools.mistral",
    };
    const tools = r.tools_tokens && toolsKey[r.format] ? ` · ${t(toolsKey[r.format])}` : "";
    const estimate = r.estimate ? ` ${t("chat.estimate")}` : "";
    const head = t(r.estimate ? "chat.source.about" : "chat.source", {
      n: r.total,
      tokenizer: r.tokenizer_name ?? f?.tokenizer ?? "?",
    });
    // the model names are data (data-i18n-skip), not words of the catalog
    const names = models ? [" · ", h("span", { text: models, attrs: { "data-i18n-skip": "" } })] : [];
    return [`${head} · ${what}`, ...names, `${tools}.${estimate}`];
  }

  function render(state) {
    const s = state.chat;
    const current = s.result && s.counted === requestOf(s);
    const r = s.result;
    // an estimate (OpenAI formats with tools: result.estimate) is marked wherever its numbers show
    const about = current && r.estimate ? "≈ " : "";
    // (counts in the locale's digits: Intl.NumberFormat through i18n.num; en as before)
    const count = (n) => (locale() === "en" ? int(n) : num(n));
    counts.total.textContent = current ? `${about}${count(r.total)}` : s.pending ? "…" : "–";
    counts.content.textContent = current ? count(r.total - r.overhead_tokens) : "–";
    counts.overhead.textContent = current ? count(r.overhead_tokens - (r.tools_tokens ?? 0)) : "–";
    counts.trailing.textContent = current ? count(r.trailing_tokens) : "–";
    counts.tools.textContent = current ? `${about}${count(r.tools_tokens ?? 0)}` : "–";
    toolsRow.hidden = !s.tools.trim();
    // bytepair.chat.ChatBreakdown.tools_ignored: the template renders the same prompt without them
    toolsIgnored.hidden = !(current && r.tools_ignored);
    // the result's own format only: while another format's model loads, the old count is not
    // described with the new model's name
    const sameFormat = r && JSON.parse(s.counted)[0] === s.format;
    const f = formats().find((x) => x.id === s.format);
    if (sameFormat) source.replaceChildren(...sourceLine(r));
    else source.textContent = s.pending && f ? t("chat.counting", { model: modelsOf(f) }) : "";
    drawContextLine(contextLine, current ? r.total : null, current ? api.chatContextWindow(s.format) : null, [], {
      estimate: !!about,
    });
    out.setAttribute("aria-busy", String(s.pending));
    if (current) root.dataset.counted = `${s.format}:${r.total}`;
    else delete root.dataset.counted;
    // "counted" / "refused": the result or the error belongs to the conversation as it is now
    root.dataset.chat = s.pending
      ? "pending"
      : s.counted !== requestOf(s)
        ? "stale"
        : current
          ? "counted"
          : s.error
            ? "refused"
            : "stale";

    // the error: next to the message it names, else above the list
    // (none while a new count runs: "Counting…" is never shown next to the last count's error)
    const err = s.pending ? null : s.error;
    const errorNow = err && s.counted === requestOf(s) ? err : err && !s.result ? err : null;
    const toolsErr = errorNow && errorNow.type === "tools" ? errorNow : null;
    toolsError.textContent = toolsErr ? errorText(toolsErr) : ""; // (worded from its type)
    toolsError.hidden = !toolsErr;
    if (toolsErr) toolsBox.setAttribute("aria-invalid", "true");
    else toolsBox.removeAttribute("aria-invalid");
    // the line of the JSON error with a caret under its column (text only)
    const where = toolsErr?.where;
    const lineText = where ? (s.tools.split("\n")[where.line - 1] ?? "") : "";
    toolsWhere.textContent = where
      ? `${where.line} | ${lineText}\n${" ".repeat(String(where.line).length + 3 + Math.max(0, where.column - 1))}^`
      : "";
    toolsWhere.hidden = !where;
    toolsWhere.dataset.line = where ? String(where.line) : "";
    toolsWhere.dataset.column = where ? String(where.column) : "";
    const items = [...list.children];
    items.forEach((li, i) => {
      const slot = $(li, '[data-testid="chat-message-error"]');
      const mine = errorNow && errorNow.index === i;
      slot.textContent = mine ? errorText(errorNow) : "";
      slot.hidden = !mine;
      li.classList.toggle("has-error", !!mine);
      const ta = $(li, "textarea");
      if (mine) ta.setAttribute("aria-invalid", "true");
      else ta.removeAttribute("aria-invalid");
    });
    // a tokenizer file that could not be downloaded: under the format menu (on a phone the list's
    // error is screens below it), naming the format as the menu does (gpt-oss's harmony format
    // reads GPT-4o's vocabulary file, and that file's name misled: "GPT-4o … not downloaded")
    const fetchErr = errorNow && isDownloadError(errorNow) ? errorNow : null;
    const formatSlot = $(root, '[data-error-for="chat-format"]');
    if (fetchErr) {
      const f = formatOf(s.format);
      showError(
        root,
        "chat-format",
        f ? t(`error.${fetchErr.type}.named`, { name: formatLabel(f) }) : errorText(fetchErr),
      );
      formatSlot.dataset.download = "1";
    } else if (formatSlot.dataset.download) {
      showError(root, "chat-format", "");
      delete formatSlot.dataset.download;
    }
    showError(
      root,
      "chat",
      errorNow && !toolsErr && !fetchErr && (errorNow.index == null || errorNow.index >= items.length)
        ? errorText(errorNow)
        : "",
    );

    // per-message counts
    if (drawnCounts !== r || !current) {
      drawnCounts = current ? r : null;
      items.forEach((li, i) => {
        const el = $(li, '[data-testid="chat-message-count"]');
        const m = current ? r.messages.find((x) => x.index === i) : null;
        el.textContent = m
          ? t("chat.message.count", { n: m.tokens, content: m.content_tokens, overhead: m.overhead_tokens })
          : current
            ? t("chat.message.left_out")
            : "";
        li.dataset.tokens = m ? String(m.tokens) : "";
      });
    }

    // the rendered prompt
    if (r && (drawn.result !== r || drawn.whitespace !== s.whitespace)) {
      drawn = { result: r, whitespace: s.whitespace };
      columns = {
        ids: r.tokens.map((t) => t.id),
        start: r.tokens.map((t) => t.start),
        end: r.tokens.map((t) => t.end),
        marks: r.marks, // invisible characters by name in the boxes
      };
      tokenList.draw(groupTokens(columns), (g, gi) => {
        const toks = g.tokens.map((i) => r.tokens[i]);
        const special = toks.some((t) => t.special);
        const overhead = toks.every((t) => t.part === "overhead");
        const tools = toks.every((t) => t.part === "tools");
        const msg = toks[0].message;
        return tokenNode(r.text, columns, g, gi, {
          whitespace: s.whitespace,
          idPrefix: "chat-tok",
          cls: [special ? "tok-special" : "", overhead && !special ? "tok-overhead" : "", tools ? "tok-tools" : ""]
            .filter(Boolean)
            .join(" "),
          dataset: {
            testid: "chat-token",
            special: special ? "1" : "0",
            part: overhead ? "overhead" : tools ? "tools" : "content",
            message: msg == null ? "" : String(msg),
          },
        });
      });
    } else if (!r && drawn.result) {
      drawn = { result: null, whitespace: null };
      columns = null;
      tokenList.clear();
    }
    tokenList.highlight(r ? s.active : -1, (g) => describe(r, r.text, g));
  }

  // --- links: the conversation, the format, the switches --------------------------
  function link() {
    const s = store.state.chat;
    const params = { fmt: s.format, gen: s.generation ? null : 0, ws: s.whitespace ? 1 : null };
    const size = s.messages.reduce((n, m) => n + m.content.length, s.tools.length);
    if (size > MAX_LINK_TEXT) {
      const omitted = t("link.too_large.conversation", {
        size: num(size / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      });
      return { params, notes: [], omitted };
    }
    params.t = packConversation(s.messages);
    if (s.tools.trim()) params.tl = packText(s.tools);
    return { params, notes: [], omitted: "" };
  }
  function applyLink(params) {
    const notes = [];
    for (const key of ["gen", "ws"]) choiceParam(params, key, ["0", "1"], notes);
    restored = true;
    if (params.t != null) {
      try {
        set({ messages: withKeys(unpackConversation(params.t)) });
      } catch (err) {
        notes.push(err.message);
      }
    }
    let tools = "";
    if (params.tl != null) {
      try {
        tools = unpackText(params.tl);
      } catch {
        notes.push(t("link.damaged.tools"));
      }
    }
    set({ tools });
    toolsBox.value = tools;
    if (params.fmt) {
      wanted = params.fmt;
      set({ format: params.fmt });
    }
    set({ generation: params.gen !== "0", whitespace: params.ws === "1", shape: store.state.chat.shape + 1 });
    genToggle.checked = store.state.chat.generation;
    wsToggle.checked = store.state.chat.whitespace;
    fillSelect();
    buildEditors();
    countNow();
    persist();
    return notes;
  }

  renderOnFrames(store, render);
  buildEditors();
  onLocaleChange(() => {
    const next = localSample();
    if (isSample(store.state.chat.messages, sample) && !isSample(next, sample)) {
      set({ messages: withKeys(next), shape: store.state.chat.shape + 1 });
      countSoon();
      persist();
    }
    sample = next;
    buildEditors(); // the editors' labels in the new language
  });
  return { render, refresh: countNow, link, applyLink };
}
