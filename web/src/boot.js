// Runs first, before the page is drawn (a classic, blocking script in <head>):
// reads ?embed=1 and ?theme=light|dark so the compact embedded layout and the
// forced colour theme apply from the first paint, with no flash of site chrome.
// Sets <html data-embed="1"> and <html data-theme="light|dark"> (styles.css): the forced theme, else
// the reader's preference.
// The language and the view a link names are right from the first paint too (issue 20): it sets
// <html lang dir> for the locale i18n.js chooseLocale picks (?lang=, the remembered choice,
// navigator.languages), starts fetching that catalog (i18n.js adopts the request), and keeps the
// page hidden (<html data-i18n-pending>, styles.css) until the document is parsed and the catalog
// is here, then words the marked elements (data-i18n, data-i18n-attr, data-i18n-first) itself, before the page's
// modules have loaded; <html data-view-pending> hides the views until the one the fragment names
// (#tokenize) is selected. At most PENDING_MAX_MS hidden: a catalog that fails leaves English.
// Also starts the Python worker right away (it starts Python before the page's
// own modules have loaded); rpc.js adopts it as its first worker. Not for an
// embed where SharedWorker exists: embeds share one runtime (rpc.js spawnWorker).
(function () {
  var q = new URLSearchParams(location.search);
  var embed = /^(1|true|yes)$/i.test(q.get("embed") || "");
  try {
    var src = document.currentScript && document.currentScript.src;
    var shared = embed && typeof SharedWorker === "function";
    if (src && !shared && typeof Worker === "function") {
      var worker = new Worker(new URL("worker.js", src), { type: "module", name: "bytepair-python" });
      worker.addEventListener("error", function (event) {
        event.preventDefault();
        worker.bytepairFailed = event.message || "error"; // rpc.js then starts a new one
      });
      window.bytepairEarlyWorker = worker;
    }
  } catch (e) {
    window.bytepairEarlyWorker = null; // rpc.js starts one itself
  }
  var root = document.documentElement;
  if (embed) root.setAttribute("data-embed", "1");
  // the theme shown: ?theme=light|dark, else the reader's preference, followed when it changes
  // (styles.css holds the dark palette once, for <html data-theme="dark">)
  var theme = q.get("theme");
  if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
  else if (window.matchMedia) {
    var dark = window.matchMedia("(prefers-color-scheme: dark)");
    var follow = function () {
      root.setAttribute("data-theme", dark.matches ? "dark" : "light");
    };
    follow();
    if (dark.addEventListener) dark.addEventListener("change", follow);
  }
  try {
    early(q, root, document.currentScript && document.currentScript.src);
  } catch (e) {
    root.removeAttribute("data-i18n-pending"); // main.js words the page as before
    root.removeAttribute("data-view-pending");
  }

  function early(q, root, src) {
    // i18n.js LOCALES: code -> direction, name in itself (the same six; tests/e2e/test_phone_first_paint_page.py
    // checks they agree)
    var DIRS = { en: "ltr", ur: "rtl", fa: "rtl", bn: "ltr", hi: "ltr", "hi-Latn": "ltr" };
    var NAMES = { en: "English", ur: "اردو", fa: "فارسی", bn: "বাংলা", hi: "हिन्दी", "hi-Latn": "Hinglish" };
    var VIEWS = ["train", "tokenize", "compare", "steps", "chat", "report"]; // links.js LINK_PARAMS
    var PENDING_MAX_MS = 4000;
    var match = function (tag) {
      try {
        var loc = new Intl.Locale(tag);
        if (loc.language === "hi" && loc.script === "Latn") return "hi-Latn";
        return Object.prototype.hasOwnProperty.call(DIRS, loc.language) ? loc.language : null;
      } catch (e) {
        return null;
      }
    };
    var saved;
    try {
      saved = localStorage.getItem("bytepair-lang"); // i18n.js SAVED_KEY
    } catch (e) {
      saved = null;
    }
    var code = match(q.get("lang") || "");
    if (!code && Object.prototype.hasOwnProperty.call(DIRS, saved)) code = saved;
    var langs = navigator.languages || [navigator.language];
    for (var i = 0; !code && i < langs.length; i++) code = match(langs[i]);
    code = code || "en";
    if (q.get("lang") === "qps") return; // the tests' pseudo-locale: i18n.js alone
    root.lang = code;
    root.dir = DIRS[code];
    var raw = location.hash.replace(/^#/, "");
    var cut = raw.search(/[?&]/);
    var view = cut < 0 ? raw : raw.slice(0, cut);
    if (VIEWS.indexOf(view) < 1) view = null; // none, or train: as index.html draws it
    if (view) root.setAttribute("data-view-pending", view);
    var catalog = null;
    if (code !== "en" && src && typeof fetch === "function") {
      root.setAttribute("data-i18n-pending", code);
      catalog = fetch(new URL("locales/" + code + ".json", src)).then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.json();
      });
      window.bytepairEarlyCatalog = { code: code, catalog: catalog };
      catalog.catch(function () {});
      setTimeout(function () {
        root.removeAttribute("data-i18n-pending");
      }, PENDING_MAX_MS);
    }
    var parsed = new Promise(function (resolve) {
      if (document.readyState !== "loading") resolve();
      else
        document.addEventListener("readystatechange", function () {
          resolve();
        });
    });
    parsed.then(function () {
      // the language menu names the locale shown (main.js then fills it with all six)
      var picker = document.querySelector('[data-testid="lang-picker"]');
      if (picker && picker.options.length === 1) {
        picker.options[0].value = code;
        picker.options[0].lang = code;
        picker.options[0].textContent = NAMES[code];
      }
      if (view) {
        var tabs = document.querySelectorAll('[role="tab"][data-view]');
        for (var j = 0; j < tabs.length; j++) {
          var on = tabs[j].getAttribute("data-view") === view;
          tabs[j].setAttribute("aria-selected", String(on));
          tabs[j].tabIndex = on ? 0 : -1;
          var panel = document.getElementById(tabs[j].getAttribute("aria-controls"));
          if (panel) panel.hidden = !on;
        }
        root.removeAttribute("data-view-pending");
      }
      if (!catalog) return;
      catalog
        .then(function (cat) {
          var text = function (key) {
            var m = cat.messages && cat.messages[key];
            return m && typeof m.text === "string" && m.text.indexOf("{") < 0 ? m.text : null;
          };
          var els = document.querySelectorAll("[data-i18n], [data-i18n-first]"); // first: the status line, once
          for (var k = 0; k < els.length; k++) {
            var words = text(els[k].getAttribute("data-i18n") || els[k].getAttribute("data-i18n-first"));
            if (words !== null) els[k].textContent = words;
          }
          var withAttrs = document.querySelectorAll("[data-i18n-attr]");
          for (var a = 0; a < withAttrs.length; a++) {
            var pairs = withAttrs[a].getAttribute("data-i18n-attr").split(";");
            for (var b = 0; b < pairs.length; b++) {
              var pair = pairs[b].split(":");
              var value = pair.length === 2 ? text(pair[1].trim()) : null;
              if (value !== null) withAttrs[a].setAttribute(pair[0].trim(), value);
            }
          }
        })
        .catch(function () {})
        .then(function () {
          root.removeAttribute("data-i18n-pending");
        });
    });
  }
})();
