/*
 * bytepair widget: one module script, then a <bytepair-widget> element wherever a view should appear.
 *
 *   <script type="module" src="https://example.org/bytepair/widget.js"></script>
 *   <div><bytepair-widget view="tokenize" tok="o200k_base" text="Hello, world"></bytepair-widget></div>
 *
 * Attributes: `view` (train, tokenize, compare, steps, chat, report) and that view's link parameters, with
 * the names of share links (LINK_PARAMS in src/links.js, web/README.md's "Links" table: `t` the
 * packed text, `tok` the tokenizer(s), `v` the vocab size, `p` the pre-tokenizer, `g`/`gt` a
 * gallery sample, ...); `text` a plain text (packed into `t` here); `theme` (light or dark);
 * `lang` (the page's language, passed on as ?lang=: en, ur, fa, bn, hi or hi-Latn, see
 * src/i18n.js); `height` the placeholder's height in CSS pixels.
 *
 * The element shows a placeholder of that height with the view's name, and creates the
 * `?embed=1` iframe when it comes within 200 px of the viewport (IntersectionObserver). The
 * embedded page posts {type: "bytepair:height", height} (src/embedded.js); the element sets its
 * iframe to that height and then tells the window above it the page's new height, in the two forms
 * learning platforms read (both harmless where nobody listens):
 *   - Canvas: {subject: "lti.frameResize", height} (Canvas LMS's LTI window.postMessage API,
 *     https://canvas.instructure.com/doc/api/file.lti_window_post_message.html);
 *   - Moodle: {context: "h5p", action: "resize", scrollHeight} (the H5P resizer Moodle ships,
 *     h5p/h5plib/<version>/joubel/core/js/h5p-resizer.js: it finds the iframe whose window sent the
 *     message and sets its height to scrollHeight).
 * Every widget's iframe is the playground's own origin, so all widgets of a page share one Python
 * runtime (a SharedWorker) where the browser allows it, as embeds do. User text reaches the DOM
 * only as attribute values and textContent.
 */
import { LINK_PARAMS, VIEW_TITLES, embedHeight, linkTo, packText } from "./src/links.js";

const BASE = new URL("./", import.meta.url).href;
const ORIGIN = new URL(BASE).origin;
const MIN = 80;
const MAX = 20000;

let lzLoading = null;
/** lz-string (a classic script defining LZString), loaded once, only for a plain `text` attribute. */
function loadLz() {
  if (globalThis.LZString) return Promise.resolve();
  lzLoading ??= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = new URL("vendor/lz-string.min.js", BASE).href;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`bytepair widget: could not load ${s.src}`));
    document.head.append(s);
  });
  return lzLoading;
}

/** The page's height, for the platform that frames it (Canvas, Moodle). */
function pageHeight() {
  const doc = document.documentElement;
  return Math.ceil(Math.max(doc.scrollHeight, doc.getBoundingClientRect().height));
}

function tellParent() {
  const height = pageHeight();
  const target = window.parent;
  target.postMessage({ subject: "lti.frameResize", height }, "*");
  target.postMessage({ context: "h5p", action: "resize", scrollHeight: height }, "*");
}

const STYLE = `
:host { display: block; }
.placeholder { box-sizing: border-box; display: flex; align-items: center; justify-content: center;
  border: 1px dashed currentColor; border-radius: 6px; opacity: 0.7; font: inherit; padding: 1em; }
iframe { display: block; width: 100%; max-width: 100%; border: 0; }
`;

class BytepairWidget extends HTMLElement {
  static observedAttributes = ["view", "theme", "text", "lang", ...new Set(Object.values(LINK_PARAMS).flat())];

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    // a constructed style sheet, not a <style> element: a course page's CSP (style-src 'self') allows it
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    this.shadowRoot.adoptedStyleSheets = [sheet];
    this.placeholder = document.createElement("div");
    this.placeholder.className = "placeholder";
    this.placeholder.part = "placeholder";
    this.shadowRoot.append(this.placeholder);
    this.iframe = null;
    this.observer = null;
    this.onMessage = this.onMessage.bind(this);
  }

  get view() {
    const v = this.getAttribute("view");
    return v && v in LINK_PARAMS ? v : "tokenize";
  }

  connectedCallback() {
    window.addEventListener("message", this.onMessage);
    const height = Number(this.getAttribute("height")) || embedHeight(this.view);
    this.placeholder.style.height = `${height}px`;
    this.placeholder.textContent = `${VIEW_TITLES[this.view]} (loads when scrolled into view)`;
    if (this.iframe) return;
    this.observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        this.observer.disconnect();
        this.observer = null;
        this.load();
      },
      { rootMargin: "200px" },
    );
    this.observer.observe(this);
  }

  disconnectedCallback() {
    window.removeEventListener("message", this.onMessage);
    this.observer?.disconnect();
    this.observer = null;
  }

  attributeChangedCallback() {
    if (this.iframe) this.src().then((src) => (this.iframe.src = src));
  }

  /** The iframe's address: linkTo() with this element's attributes as the link's parameters. */
  async src() {
    const view = this.view;
    const params = {};
    for (const key of LINK_PARAMS[view]) {
      const value = this.getAttribute(key);
      if (value != null && value !== "") params[key] = value;
    }
    const text = this.getAttribute("text");
    if (text != null && params.t == null) {
      await loadLz();
      params.t = packText(text);
    }
    const theme = ["light", "dark"].includes(this.getAttribute("theme")) ? this.getAttribute("theme") : null;
    const url = new URL(linkTo(view, params, { embed: { theme }, base: BASE }));
    const lang = this.getAttribute("lang");
    if (lang) url.searchParams.set("lang", lang);
    return url.href;
  }

  async load() {
    const src = await this.src();
    const frame = document.createElement("iframe");
    frame.title = VIEW_TITLES[this.view];
    frame.allow = "clipboard-write";
    frame.style.height = this.placeholder.style.height;
    frame.src = src;
    this.iframe = frame;
    this.placeholder.replaceWith(frame);
    this.dataset.loaded = "true";
  }

  onMessage(event) {
    const data = event.data;
    if (!this.iframe || event.source !== this.iframe.contentWindow || event.origin !== ORIGIN) return;
    if (!data || data.type !== "bytepair:height" || !Number.isFinite(data.height)) return;
    const height = Math.round(Math.min(MAX, Math.max(MIN, data.height)));
    this.iframe.style.height = `${height}px`;
    this.dispatchEvent(new CustomEvent("bytepair:resize", { detail: { height } }));
    tellParent();
  }
}

if (!customElements.get("bytepair-widget")) customElements.define("bytepair-widget", BytepairWidget);
