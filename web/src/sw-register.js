// Registers the site's service worker (src/sw-core.js, through the build's sw.js; a classic script
// in <head>, before the page's modules). On a host that cannot send the COOP/COEP headers (GitHub
// Pages) the worker adds them, so the top-level page reloads once, as soon as the worker is active,
// and is cross-origin isolated from then on (at most one reload per tab: sessionStorage). Where
// the server sends the headers nothing reloads. Embeds in a page of the same origin register it
// too (they share its cache) but never reload: an iframe cannot be isolated inside a page that is
// not; embeds in a page of another origin leave it alone.
// ?isolate=0 turns it off and removes a worker registered before (with its caches).
// Once the page is ready it asks the worker to precache the site, and learns when the site works
// offline: <html data-offline-ready="true"> (or "partial", "saving", "failed", "unsupported",
// "unavailable" (service workers blocked or refused), "off");
// window.bytepairOffline is a promise of the worker's answer.
(function () {
  var root = document.documentElement;
  var sw;
  try {
    sw = navigator.serviceWorker; // (a browser that blocks storage may throw here)
  } catch {
    sw = null;
  }
  var off = /^(0|false|no)$/i.test(new URLSearchParams(location.search).get("isolate") || "");
  var state = function (value) {
    root.dataset.offlineReady = value;
  };
  // an embed in a page of another origin (its storage may be partitioned or blocked) goes without
  var foreignTop;
  try {
    foreignTop = window.top !== window && window.top.location.origin !== location.origin;
  } catch {
    foreignTop = true;
  }
  if (!sw || !window.isSecureContext || foreignTop) {
    state("unsupported");
    return;
  }
  if (off) {
    state("off");
    sw.getRegistrations().then(
      function (regs) {
        regs.forEach(function (reg) {
          if (reg.active) reg.active.postMessage({ type: "unregister" });
          else reg.unregister();
        });
      },
      function () {
        // service workers refused here: none registered to remove
      },
    );
    return;
  }
  var RELOADED = "bytepair-isolation-reload";
  var needsReload = window.top === window && window.crossOriginIsolated === false;
  var reloadOnce = function () {
    try {
      if (sessionStorage.getItem(RELOADED)) return;
      sessionStorage.setItem(RELOADED, "1");
    } catch {
      return; // no sessionStorage: no way to promise a single reload, so none
    }
    location.reload();
  };
  try {
    if (!needsReload) sessionStorage.removeItem(RELOADED);
  } catch {
    // storage blocked: nothing to clear
  }
  // On a metered or slow link (Save-Data, or slower than 4G) the precache leaves out the optional
  // files (the memory snapshot's 7.6 MB, issue 20): <html data-offline-ready="partial">, and
  // window.bytepairOfflineOffer = {bytes, save()} for the page's "Save for offline" button (main.js).
  var conn = navigator.connection;
  var lite = !!conn && (!!conn.saveData || /^(slow-2g|2g|3g)$/.test(conn.effectiveType || ""));
  var worker = null;
  var asked = lite;
  var yieldUntil = 0; // Date.now() until which this page asked the precache to wait
  var ask = function (light) {
    asked = light;
    if (!worker) return;
    var wait = yieldUntil - Date.now();
    if (wait > 0) worker.postMessage({ type: "yield", ms: wait });
    worker.postMessage({ type: "precache", lite: light });
  };
  // window.bytepairPrecacheYield(ms): the page is about to download and load a tokenizer, so the
  // precache waits (between files, giving up the ones under way) for `ms` from now (src/api.js;
  // sw-core.js caps it); 0 ends this page's wait.
  window.bytepairPrecacheYield = function (ms) {
    yieldUntil = Date.now() + ms;
    if (worker) worker.postMessage({ type: "yield", ms: ms });
  };
  var offer = function (bytes) {
    window.bytepairOfflineOffer = {
      bytes: bytes,
      save: function () {
        state("saving");
        ask(false);
      },
    };
    window.dispatchEvent(new Event("bytepair-offline-offer"));
  };
  window.bytepairOffline = new Promise(function (resolve) {
    sw.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "precached") {
        if (data.optional_bytes > 0) {
          state("partial");
          offer(data.optional_bytes);
        } else {
          state("true");
        }
        resolve(data);
      } else if (data.type === "precache-failed") {
        state("failed");
        console.warn("[offline] not cached:", data.message);
        // the link went down while caching (a phone's connection, a classroom's wifi: "Failed to
        // fetch"): ask again once it is back (files cached before are kept and skipped)
        window.addEventListener(
          "online",
          function () {
            ask(asked);
          },
          { once: true },
        );
        resolve(data);
      }
    });
    sw.startMessages();
  });
  // A new build installed beside this page's (sw-core.js waits for this build's pages to close):
  // <html data-update="ready"> and window.bytepairUpdate() (the page's "Reload" prompt, main.js),
  // which lets the new worker take over and reloads every page of the old build together.
  var watchUpdates = function (reg) {
    var announced = false;
    var announce = function () {
      if (!reg.waiting || !sw.controller || announced) return; // (a first install activates at once)
      announced = true;
      // whichever page of this build chose Reload, every one of them reloads when the new worker
      // takes over: none stays open on the new worker with the old build's code
      sw.addEventListener("controllerchange", function () {
        location.reload();
      });
      window.bytepairUpdate = function () {
        if (reg.waiting) reg.waiting.postMessage({ type: "skip-waiting" });
      };
      root.dataset.update = "ready";
      window.dispatchEvent(new Event("bytepair-update"));
    };
    announce();
    reg.addEventListener("updatefound", function () {
      var installing = reg.installing;
      if (!installing) return;
      installing.addEventListener("statechange", function () {
        if (installing.state === "installed") announce();
      });
    });
  };
  // The precache waits until the page has booted (<body data-pyodide="ready">, main.js) so it never
  // competes with the first visit's own downloads; most files then come from the HTTP cache.
  var pythonReady = function () {
    return new Promise(function (resolve) {
      var check = function () {
        if (document.body && document.body.dataset.pyodide === "ready") {
          observer.disconnect();
          resolve();
        }
      };
      var observer = new MutationObserver(check);
      var watch = function () {
        observer.observe(document.body, { attributes: true, attributeFilter: ["data-pyodide"] });
        check();
      };
      if (document.body) watch();
      else document.addEventListener("DOMContentLoaded", watch);
    });
  };
  // ... and, on Tokenize, until its first count is shown (at most FIRST_COUNT_WAIT_MS): on a slow
  // link the precache (the memory snapshot's megabytes) would otherwise delay the vocabulary the
  // count needs (issue 20)
  var FIRST_COUNT_WAIT_MS = 10000;
  var firstCount = function () {
    var view = document.getElementById("view-tokenize");
    if (!view || view.hidden || view.dataset.encoded) return Promise.resolve();
    return new Promise(function (resolve) {
      var observer = new MutationObserver(function () {
        if (view.dataset.encoded) finish();
      });
      var timer = setTimeout(finish, FIRST_COUNT_WAIT_MS);
      function finish() {
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      }
      observer.observe(view, { attributes: true, attributeFilter: ["data-encoded"] });
    });
  };
  // Service workers blocked (a browser setting, a privacy mode, an automation tool's "block": its
  // register() resolves with no registration) or refused: the page works as it is, online only,
  // and says so (<html data-offline-ready="unavailable">, main.js words it); nothing is thrown.
  var unavailable = function (why) {
    state("unavailable");
    console.warn("[offline] no service worker here, the page works online only:", why);
  };
  var registering;
  try {
    registering = Promise.resolve(sw.register("sw.js", { scope: "./" }));
  } catch (err) {
    registering = Promise.reject(err); // (a register() that throws rather than rejecting)
  }
  registering
    .then(
      function (reg) {
        if (!reg) return unavailable("register() gave no registration");
        if (window.top === window) watchUpdates(reg);
        // once a worker is active, a reload is served by it and isolated (also after a hard reload,
        // which bypassed the worker)
        if (needsReload) sw.ready.then(reloadOnce);
        return Promise.all([sw.ready, pythonReady().then(firstCount)]).then(function (done) {
          worker = done[0].active;
          ask(lite);
        });
      },
      function (err) {
        unavailable(err);
      },
    )
    .catch(function (err) {
      state("failed");
      console.warn("[offline] not cached:", err);
    });
})();
