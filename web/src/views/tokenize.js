// Tokenize view: text in, coloured token spans out, counts, token details.

import { $, h, showError, revealError, debounce, slowCallNotice, noteAfter } from "../dom.js";
import { renderOnFrames } from "../store.js";
import { charCount, byteCount } from "../format.js";
import { chipContent, markNames } from "../tokenchips.js";
import { mountTokenizeTools } from "./tokenize_tools.js";
import * as storage from "../storage.js";
import { addText, restoreText, choiceParam, missingTokenizersNote } from "../links.js";
import { groupTokens, mountTokenList, noteText, tokenNode } from "../tokenlist.js";
import { tokenizerGroups } from "../tokenizer-groups.js";
import {
  mountModelProgress,
  mountTokenizerInfo,
  mountFileLoader,
  addedByTemplate,
  addSpecialText,
} from "./model-ui.js";
import { mountTeaching } from "./teach.js";
import { mountLargeText } from "../largetext.js";
import { STEPPED_COUNT_CHARS } from "../api.js";
import { drawContextLine } from "../contextline.js";
import { statusLine } from "../statusline.js";
import { t, num, locale, PSEUDO, onLocaleChange, errorText } from "../i18n.js";

const LIMIT = 5000; // tokens drawn; counts always cover the whole text
const SAMPLE =
  "Hello, world! Tokenizers split text into pieces.\nBonjour, ça va ? Привет, мир! 你好，世界。 नमस्ते दुनिया\nEmoji: 🙂👍🏽 🇺🇳\tand code: for (let i = 0; i < 10; i++) {}";

export const initialTokenizeState = {
  tokenizer: "cl100k_base",
  showIds: false,
  whitespace: false,
  specials: false, // special-token strings (<|endoftext|>) as special tokens
  addSpecial: true, // open models / loaded files: add BOS etc. (tokenizers' default)
  desc: null, // describe() of the chosen tokenizer (bytepair, through the worker)
  text: null, // last text encoded
  result: null, // {n_tokens, ids, display, hex, start, end}
  pending: false,
  counted: 0, // a large text counted in steps: the fraction counted so far
  active: -1, // index of the highlighted group
  sbs: null, // side by side (views/sidebyside.js): {on, result, text, names, clipped}
};

export function mountTokenize(root, store, api) {
  const select = $(root, '[data-testid="tokenize-tokenizer"]');
  const textArea = $(root, '[data-testid="tokenize-text"]');
  const idsToggle = $(root, '[data-testid="toggle-ids"]');
  const wsToggle = $(root, '[data-testid="toggle-whitespace"]');
  const specialToggle = $(root, '[data-testid="toggle-special"]');
  const specialsSwitch = $(root, '[data-testid="specials-switch"]');
  const specialsExample = $(root, '[data-testid="specials-example"]');
  const specialLabel = $(root, '[data-testid="special-toggle"]');
  const specialWhat = $(root, '[data-testid="special-what"]');
  const countWhat = $(root, '[data-testid="count-what"]');
  const contextLine = $(root, '[data-testid="context-line"]');
  const forget = $(root, '[data-testid="forget-file"]');
  forget.addEventListener("click", async () => {
    const name = store.state.tokenize.tokenizer;
    try {
      await api.deleteTokenizer(name);
      $(root, '[data-testid="loadfile-status"]').textContent = t("files.removed", { name });
    } catch (err) {
      showError(root, "loadfile", errorText(err));
    }
  });
  const progressLine = $(root, '[data-testid="model-progress"]');
  const modelProgress = mountModelProgress(progressLine, api, () => [store.state.tokenize.tokenizer]);
  const info = mountTokenizerInfo($(root, '[data-testid="tokenizer-info"]'), api);
  const out = $(root, '[data-testid="tokens"]');
  const note = $(root, '[data-testid="tokens-note"]');
  // characters the vocabulary has no token for (no unk_token, no byte fallback): said, not hidden
  const droppedNote = h("p", { class: "hint dropped-note", dataset: { testid: "dropped-note" }, hidden: true });
  note.after(droppedNote);
  const detail = $(root, '[data-testid="token-detail"]');
  const working = slowCallNotice($(root, '[data-testid="tokenize-working"]'), {
    onCancel: () => api.cancel(),
    waiting: () => !progressLine.hidden, // an open model downloading: its own line says so
  });
  const counts = {
    chars: $(root, '[data-testid="count-chars"]'),
    bytes: $(root, '[data-testid="count-bytes"]'),
    tokens: $(root, '[data-testid="count-tokens"]'),
    bpt: $(root, '[data-testid="count-bpt"]'),
  };
  const set = (patch) => store.update("tokenize", patch);

  // the text: a large one (largetext.js) is held outside the textarea; always read it through getText()
  const big = mountLargeText(textArea, {
    testid: "tokenize-big-text",
    what: "largetext.tokenize",
    onSet: () => store.update("tokenize", {}), // counts are drawn from the text on the next render
    onEdit: () => edited(),
  });
  const getText = big.get;
  const setText = big.set;

  // --- teaching (issue 13): story panel, side by side, gallery, pictures (views/teach.js)
  const { story, sbs, gallery, clearSource } = mountTeaching(root, store, api, {
    out,
    getText,
    setText,
    select,
    persist: () => persist(),
    encodeNow: () => encodeNow(),
  });

  let wanted = null; // a tokenizer a link asked for, not (yet) known here
  // the link's tokenizer is missing: said next to the picker while the fallback is shown
  const sayMissing = noteAfter(select, "tokenizer-link-note");
  let linked = false; // a link chose the tokenizer (else the one chosen before the reload is restored)
  const CHOICE_KEY = "tokenize-tokenizer";
  function fillSelect() {
    const current = store.state.tokenize.tokenizer;
    select.replaceChildren(
      ...tokenizerGroups(api).map((g) =>
        h(
          "optgroup",
          { label: g.label },
          g.items.map((t) => h("option", { value: t.name, text: t.label, attrs: { dir: "auto" } })),
        ),
      ),
    );
    if (!api.facts) return; // the real encodings are listed once the worker is ready (api.withFacts below)
    const names = api.tokenizers();
    if (wanted && names.includes(wanted)) {
      sayMissing("");
      set({ tokenizer: wanted });
      select.value = wanted;
      wanted = null;
      return;
    }
    const value = names.includes(current) ? current : "cl100k_base";
    select.value = value;
    if (value !== current) set({ tokenizer: value });
  }
  fillSelect();
  api.withFacts(() => {
    fillSelect();
    update();
  });
  api.onTokenizersChanged(() => {
    fillSelect();
    update();
  });
  api.onDownloadsChanged(() => fillSelect()); // offline: "— not downloaded" beside what is not here
  onLocaleChange(() => fillSelect()); // the page's own groups ("Loaded here", "Trained here") in the reader's words
  // a renamed tokenizer stays selected under its new name
  api.onTokenizerRenamed(({ from, to }) => {
    if (store.state.tokenize.tokenizer === from) {
      set({ tokenizer: to });
      storage.saveText(CHOICE_KEY, to);
    }
  });
  // the chosen tokenizer survives a reload (trained ones are listed a moment after start)
  storage.loadText(CHOICE_KEY, null).then((saved) => {
    if (!saved || linked || saved === store.state.tokenize.tokenizer) return;
    wanted = saved;
    fillSelect();
    update();
  });

  let seq = 0;
  // encoded only while the view is shown: a restored (maybe large) text must not hold the
  // worker while another view (a training run) waits behind it; done on the way in instead
  let stale = false;
  store.subscribe((state) => {
    if (stale && state.view === "tokenize") {
      stale = false;
      encodeNow();
    }
  });
  // the tokenizer the reader just chose: an error its count brings is scrolled into view, also when
  // a later count (the menus relabelled after a failed download) answers in its place
  let revealFor = null;
  async function encodeNow() {
    if (store.state.view !== "tokenize") {
      stale = true;
      return;
    }
    const text = getText();
    const tokenizer = store.state.tokenize.tokenizer;
    const mine = ++seq;
    set({ pending: true });
    api.prefetchVocab([tokenizer]); // (before Python is ready: its vocabulary downloads meanwhile)
    try {
      await api.ready;
      if (mine === seq) working.start();
      const { addSpecial, specials } = store.state.tokenize;
      // a large text: its first LIMIT tokens are drawn at once and it is counted in steps, so the
      // other views' calls run meanwhile (issue 11: Chat waited for a 5 MB count)
      const big = text.length >= STEPPED_COUNT_CHARS;
      let result = await api.encodeSpans(text, tokenizer, LIMIT, { addSpecial, specials, total: !big });
      if (mine !== seq) return;
      const same = store.state.tokenize.text === text && store.state.tokenize.tokenizerShown === tokenizer;
      // the result on screen, with the settings it was made with (the selection kept for the same text)
      const show = (extra) => {
        showError(root, "tokenize", "");
        if (revealFor === tokenizer) revealFor = null; // (counted: nothing to reveal)
        set({
          text,
          result,
          tokenizerShown: tokenizer,
          addSpecialShown: addSpecial,
          specialsShown: specials,
          ...(same ? {} : { active: -1 }),
          ...extra,
        });
      };
      if (result.n_tokens == null) {
        show({ counted: 0 });
        const onProgress = (position, length) => {
          if (mine !== seq) return;
          const counted = length ? position / length : 0;
          set({ counted });
          working.progress(counted); // a moving count, not a stall (tester's problem 6)
        };
        const n = await api.count(text, tokenizer, { addSpecial, key: "tokenize", onProgress });
        if (mine !== seq) return;
        result = { ...result, n_tokens: n };
      }
      show({ pending: false });
      modelProgress.loaded(tokenizer); // (counted: its load is over)
      if (!same) story.close(); // the story told is of another text
      sbs.refresh(text, tokenizer);
      if (store.state.tokenize.desc?.tokenizer !== tokenizer) describeNow(tokenizer);
    } catch (err) {
      if (mine !== seq) return;
      // Python did not start (the link dropped): the status line says so and offers Try again; the
      // text is not at fault, so it is not marked (a tester saw it outlined red under that message)
      if (store.state.status.start) return set({ pending: false });
      showError(root, "tokenize", errorText(err));
      // no tokens from an older text stay on screen next to the message
      set({ pending: false, result: null, text: null, active: -1 });
      // (the menu is far above the message on a phone) once that render has laid the view out
      // (renderOnFrames: the next frame): scrolled before it, the message moved out of sight again
      if (revealFor === tokenizer) {
        revealFor = null;
        requestAnimationFrame(() => requestAnimationFrame(() => revealError(root, "tokenize")));
      }
    } finally {
      if (mine === seq) working.stop();
    }
  }
  const update = debounce(encodeNow, 200);
  async function describeNow(tokenizer) {
    const desc = await info.show(tokenizer);
    if (desc && store.state.tokenize.tokenizer === tokenizer) set({ desc: { ...desc, tokenizer } });
  }
  mountFileLoader(root, api, {
    input: $(root, '[data-testid="load-tokenizer-file"]'),
    key: "loadfile",
    onLoaded: (name) => {
      set({ tokenizer: name });
      select.value = name;
      if (store.state.view !== "tokenize") {
        history.replaceState(null, "", "#tokenize");
        store.set({ view: "tokenize" });
      }
      encodeNow();
    },
  });
  const persist = debounce(() => storage.saveText("tokenize", getText()), 400, { save: true });

  function edited() {
    clearSource();
    update();
    persist();
  }
  textArea.addEventListener("input", edited);
  select.addEventListener("change", () => {
    set({ tokenizer: select.value });
    wanted = null;
    sayMissing("");
    storage.saveText(CHOICE_KEY, select.value);
    revealFor = select.value;
    encodeNow();
  });
  idsToggle.addEventListener("change", () => set({ showIds: idsToggle.checked }));
  specialToggle.addEventListener("change", () => {
    set({ addSpecial: specialToggle.checked });
    encodeNow();
  });
  wsToggle.addEventListener("change", () => set({ whitespace: wsToggle.checked }));

  // the sample text in the reader's language (the catalog's tok.sample; English: SAMPLE's), until edited;
  // the test pseudo-locale keeps the English text (a text to tokenize, not words of the page)
  const localSample = () => (locale() === PSEUDO ? SAMPLE : t("tok.sample"));
  let sample = localSample();
  storage.loadText("tokenize", null).then((saved) => {
    if (!getText()) setText(saved == null || saved === SAMPLE ? sample : saved);
    encodeNow();
  });
  onLocaleChange(() => {
    const next = localSample();
    if (getText() === sample && next !== sample) {
      setText(next);
      encodeNow();
    }
    sample = next;
  });

  // the token list (tokenlist.js): one tab stop; arrows move the highlighted token, Enter opens its story
  const list = mountTokenList(out, detail, {
    getActive: () => store.state.tokenize.active,
    setActive: (i) => set({ active: i }),
    legendEl: $(root, '[data-testid="tokens-legend"]'),
    onKey: (e, i) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (i >= 0) openStory(i);
        return true;
      }
      if (e.key === "Escape" && story.showing) {
        story.close({ returnFocus: true });
        return true;
      }
      return false;
    },
  });
  out.addEventListener("click", (e) => {
    const el = e.target.closest("[data-group]");
    if (!el) return;
    set({ active: Number(el.dataset.group) });
    openStory(Number(el.dataset.group));
  });
  /** Open the story panel of group gi (its first token; the others by the panel's buttons). */
  function openStory(gi) {
    const st = store.state.tokenize;
    const g = list.groups[gi];
    if (!st.result || !g) return;
    story.open(st.text, st.tokenizerShown, g.tokens, {
      addSpecial: st.addSpecialShown,
      specials: st.specialsShown,
    });
  }

  let drawn = { result: null, showIds: null, whitespace: null };
  let legendDrawn = { result: null, special: null };

  // the detail line: labels (invisible characters named by Python) in <bdi>, so
  // right-to-left text and hex do not reorder each other; then the notes
  function describe(state, g) {
    const r = state.result;
    const nodes = [];
    if (g.tokens.length > 1) {
      const { body } = chipContent(state.text, g.start, g.end, r.marks, false);
      nodes.push(`${t("detail.group", { n: g.tokens.length })} “`, h("bdi", {}, body), "”: ");
    }
    g.tokens.forEach((i, k) => {
      if (k) nodes.push("; ");
      const vocab = r.vocab && r.vocab[i] !== r.display[i] ? ` · ${t("detail.vocab")} “${r.vocab[i]}”` : "";
      nodes.push(
        `${t("detail.id", { id: String(r.ids[i]) })}${r.special?.[i] ? ` ${t("detail.special")}` : ""} · ${t("detail.hex")} `,
        h("code", { text: r.hex[i] }),
        " · “",
        h("bdi", { text: r.display[i] }),
        `”${vocab}`,
      );
    });
    const notes = r.note ? g.tokens.map((i) => noteText(r, i)).filter(Boolean) : [];
    // invisible characters the notes do not name yet (a ZWJ split into byte fragments)
    const said = notes.join(" ");
    const names = markNames(r.marks, g.start, g.end).filter((n) => !said.includes(n.split(" = ")[1]));
    if (names.length) notes.unshift(t("detail.invisible", { names: names.join(", ") }));
    if (notes.length)
      nodes.push(h("span", { class: "token-note", text: ` ${notes.join(" ")}`, dataset: { testid: "token-note" } }));
    return nodes;
  }

  let sized = { text: null, chars: 0, bytes: 0 }; // the last text's sizes: a 5 MB text is not recounted per render
  function render(state) {
    const s = state.tokenize;
    const text = getText();
    if (sized.text !== text) sized = { text, chars: charCount(text), bytes: byteCount(text) };
    counts.chars.textContent = num(sized.chars);
    const bytes = sized.bytes;
    counts.bytes.textContent = num(bytes);
    const current = s.result && s.text === text && s.tokenizerShown === s.tokenizer;
    const counting = current && s.result.n_tokens == null; // a large text's first tokens shown, its count in steps
    counts.tokens.textContent = counting
      ? `… ${num(Math.floor((s.counted || 0) * 100) / 100, { style: "percent" })}`
      : current
        ? num(s.result.n_tokens)
        : s.pending
          ? "…"
          : "–";
    counts.bpt.textContent =
      current && s.result.n_tokens
        ? num(bytes / s.result.n_tokens, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
        : "–";
    out.setAttribute("aria-busy", String(s.pending));
    if (current && !counting) root.dataset.encoded = `${s.tokenizer}:${s.result.n_tokens}`;
    else delete root.dataset.encoded;
    const desc = s.desc && s.desc.tokenizer === s.tokenizer ? s.desc : null;
    const adds = !!desc?.adds_special_tokens;
    specialLabel.hidden = !adds;
    forget.hidden = api.kind(s.tokenizer) !== "file";
    if (adds) specialWhat.textContent = addSpecialText(desc);
    // the switch names this tokenizer's own special token (bytepair.app.models.special_token_facts);
    // it applies where typed special-token strings are text unless allowed (OpenAI, trained)
    if (desc?.special) {
      specialsSwitch.hidden = desc.special.typed !== "switch" || !desc.special.example;
      specialsExample.textContent = desc.special.example || "";
    }
    const dropped = current ? s.result.dropped || [] : [];
    droppedNote.hidden = !dropped.length;
    droppedNote.textContent = dropped.length ? droppedText(s.text, dropped) : "";
    // before Python is ready, the count says what it waits for: on a phone the status line has
    // scrolled away by the time the reader is at the text box (a fresh tester saw "…" for 30 s)
    const waiting = !current && ["loading", "restarting"].includes(state.status?.phase);
    countWhat.textContent = current
      ? countedText(s, desc)
      : waiting
        ? t("tok.count.waiting", { status: statusLine(state.status) })
        : "";
    contextLineOf(current && !counting ? s : null);

    if (s.result && (drawn.result !== s.result || drawn.showIds !== s.showIds || drawn.whitespace !== s.whitespace)) {
      drawn = { result: s.result, showIds: s.showIds, whitespace: s.whitespace };
      list.draw(
        groupTokens(s.result),
        (g, gi) => {
          const added = g.start === g.end && g.tokens.every((i) => s.result.special?.[i]); // BOS etc.: no text of its own
          return tokenNode(s.text, s.result, g, gi, {
            whitespace: s.whitespace,
            showIds: s.showIds,
            cls: added ? "tok-added" : "",
            label: added ? g.tokens.map((i) => s.result.display[i]).join("") : null,
          });
        },
        s.text,
      );
      out.classList.toggle("show-ids", s.showIds);
      note.textContent =
        s.result.n_tokens == null
          ? t("note.counting", { n: s.result.ids.length, shown: s.result.ids.length })
          : s.result.n_tokens > s.result.ids.length
            ? t("note.first", { shown: s.result.ids.length, total: s.result.n_tokens })
            : "";
    } else if (!s.result && drawn.result) {
      drawn = { result: null, showIds: null, whitespace: null };
      list.clear();
      note.textContent = "";
    }
    // the legend names the special tokens as this tokenizer does: again once its describe() arrives
    if (s.result && (legendDrawn.result !== s.result || legendDrawn.special !== desc?.special)) {
      legendDrawn = { result: s.result, special: desc?.special };
      list.legend(s.result, tools.specialLegend(s.result, desc?.special));
    }
    list.highlight(s.result ? s.active : -1, (g) => describe(s, g));
    sbs.render(state);
  }

  /** "3 characters are not in this tokenizer's vocabulary and were dropped: “𓀀”, “ǅ”" (spans: UTF-16 [start, end]). */
  function droppedText(text, spans) {
    const n = spans.length;
    const chars = [...new Set(spans.map(([a, b]) => text.slice(a, b)))];
    const shown =
      chars
        .slice(0, 8)
        .map((c) => `“${c}”`)
        .join(", ") + (chars.length > 8 ? ", …" : "");
    return t("dropped", { n, chars: shown });
  }

  /** "12,345 of 128,000 tokens (GPT-4o)": the count against the context window of the first model
   * bytepair.app.limits.CONTEXT_WINDOWS names for this tokenizer (none: hidden); the rest in its title. */
  function contextLineOf(s) {
    const [w, ...others] = s ? api.contextWindows(s.tokenizer) : [];
    drawContextLine(contextLine, s ? s.result.n_tokens : null, w || null, others);
  }

  /** What the count counted: the tokenizer, and whether special tokens (BOS ...) were added. */
  function countedText(s, desc) {
    const label = api.label(s.tokenizer);
    if (!desc) return t("counted.with", { label });
    const example = desc.special?.example;
    if (!desc.adds_special_tokens) {
      if (!example) return t("counted.nospecial", { label });
      return t(s.specials ? "counted.asone" : "counted.astext", { label, example });
    }
    const n = s.result.n_added;
    const what = addedByTemplate(desc).join(" … ");
    const added = s.addSpecialShown
      ? n
        ? t("counted.added", { n, what })
        : t("counted.addsnone")
      : t("counted.notadded");
    const such = example ? t("counted.such", { example }) : "";
    const typed = t(desc.special?.typed === "never" ? "counted.typedtext" : "counted.typedone", { such });
    return t("counted.full", { label, added, typed });
  }

  // --- links: text, tokenizer, toggles ---------------------------------------
  function link() {
    const s = store.state.tokenize;
    const params = {
      tok: s.tokenizer,
      ids: s.showIds ? 1 : null,
      ws: s.whitespace ? 1 : null,
      sp: s.addSpecial ? null : 0,
      st: s.specials ? 1 : null,
      ...sbs.link(),
    };
    if (gallery.current) {
      // a gallery example: its id (and text number) stand for the text
      Object.assign(params, { g: gallery.current.id, gt: gallery.current.textIndex || null });
      return { params, notes: [] };
    }
    return { params, notes: [], omitted: addText(params, getText()) };
  }
  function applyLink(params) {
    const notes = [];
    for (const key of ["ids", "ws", "sp", "st"]) choiceParam(params, key, ["0", "1"], notes);
    restoreText(params, notes, (text) => {
      setText(text);
      persist();
    });
    if (params.tok) {
      linked = true;
      if (api.tokenizers().includes(params.tok)) {
        set({ tokenizer: params.tok });
        select.value = params.tok;
      } else {
        wanted = params.tok; // trained tokenizers load from storage a moment later
        api.ready.then(
          () => {
            if (wanted !== params.tok) return;
            wanted = null;
            const shown = store.state.tokenize.tokenizer;
            sayMissing(missingTokenizersNote([params.tok], [api.label(shown)]));
          },
          () => {},
        );
      }
    }
    set({
      showIds: params.ids === "1",
      whitespace: params.ws === "1",
      addSpecial: params.sp !== "0",
      specials: params.st === "1",
    });
    specialToggle.checked = params.sp !== "0";
    tools.applyLink(params);
    idsToggle.checked = params.ids === "1";
    wsToggle.checked = params.ws === "1";
    if (params.sbs) sbs.toggle(true, params.sbs === "-" ? [] : params.sbs.split(","));
    if (params.g) {
      gallery
        .open(params.g, Number(params.gt) || 0)
        .catch((err) => showError(root, "tokenize", t("gallery.openFailed", { error: errorText(err) })));
      return notes;
    }
    encodeNow();
    return notes;
  }

  const tools = mountTokenizeTools(root, store, api, { refresh: encodeNow, text: getText });

  renderOnFrames(store, render);
  render(store.state);
  onLocaleChange(() => {
    drawn = { result: null, showIds: null, whitespace: null }; // the note is worded again
    render(store.state);
  });
  return { render, refresh: encodeNow, link, applyLink };
}
