// The site's one service worker (a classic script; the build's sw.js sets self.PRECACHE and then
// imports this file, so every build has a new sw.js and the browser installs it as an update).
// It does three things (web/README.md "Offline and installable"):
// - cross-origin isolation on hosts that cannot send COOP/COEP (GitHub Pages): every response it
//   serves for the playground carries the headers, so after the first visit's one reload
//   (src/sw-register.js) the page is isolated and Stop can interrupt Python (issue 11);
// - offline: the build's files are cached in one cache per build, `bytepair-site-<build id>`, each
//   fetched with its SHA-256 as subresource integrity, so a cache never holds files of two builds.
//   Files marked `precache` (the site shell, the runtime, the default vocabulary) are fetched when
//   the page asks ({type: "precache"}); the others (other vocabularies, lazy wheels, samples) as
//   the page first uses them. Cached files are served cache-first.
// - first visit: it installs and activates at once but does not take over the page that
//   registered it (no clients.claim: that page's requests stay as they were); the next load is
//   served by it;
// - updates: a new build's worker precaches everything before it installs (not the optional
//   memory snapshot on a metered or slow link), waits until no page of the old build is open or
//   the reader chooses "Reload" in the page's prompt ({type: "skip-waiting"}), and on activate
//   deletes the caches of other builds.
// Open-model files (models/*.bpv) pass through: the worker (src/worker.js) keeps them in its own
// cache, keyed by model version, which outlives builds.
(function () {
  "use strict";
  const manifest = self.PRECACHE; // {build_id, files: {path: {sha256, precache}}}
  const PREFIX = "bytepair-site-";
  const CACHE = PREFIX + manifest.build_id;
  const SCOPE = new URL("./", self.location.href);
  const FILES = manifest.files;
  // only the playground page gets COOP/COEP: another document of the origin (a course page)
  // may load images from other hosts, which require-corp would block
  const ISOLATED_PAGES = new Set(["index.html"]);

  /** The site path of a same-origin URL ("" and folders: their index.html), or null. */
  function sitePath(url) {
    if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
    let rel = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
    if (rel === "" || rel.endsWith("/")) rel += "index.html";
    return rel;
  }

  const absolute = (rel) => new URL(rel, SCOPE).href;

  function withIsolation(res, rel) {
    if (res.status === 0 || res.type === "opaque") return res;
    const headers = new Headers(res.headers);
    headers.set("Cross-Origin-Resource-Policy", "cross-origin");
    if (ISOLATED_PAGES.has(rel) || !rel.endsWith(".html")) {
      headers.set("Cross-Origin-Embedder-Policy", "require-corp");
      headers.set("Cross-Origin-Opener-Policy", "same-origin");
    }
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }

  /** Fetch one file of this build into the cache; rejects on HTTP errors, integrity mismatch and
   * `signal`'s abort. */
  async function fetchInto(cache, rel, signal = undefined) {
    const res = await fetch(absolute(rel), { integrity: FILES[rel].sha256, credentials: "same-origin", signal });
    if (!res.ok) throw new Error(`${rel}: HTTP ${res.status}`);
    await cache.put(absolute(rel), res.clone());
    return res;
  }

  /** Whether the service worker serves (and caches) `rel` (open models and source maps pass through). */
  function usedLater(rel) {
    return !rel.endsWith(".map") && (!rel.startsWith("models/") || rel === "models/index.json");
  }

  /** `rel` from the HTTP cache only (never the network), put into this build's cache; rejects if absent. */
  async function fromHttpCache(cache, rel) {
    const res = await fetch(absolute(rel), {
      cache: "only-if-cached",
      mode: "same-origin",
      integrity: FILES[rel].sha256,
    });
    if (!res.ok) throw new Error(`${rel}: not in the HTTP cache`);
    await cache.put(absolute(rel), res.clone());
    return res;
  }

  /** Cache what the page downloaded before this worker served it (a first visit's other
   * vocabularies, samples, the Chat view's wheels, a course page), from the HTTP cache only;
   * integrity keeps other builds' copies out. Runs on every request of the page. */
  async function sweep() {
    const cache = await caches.open(CACHE);
    for (const rel of Object.keys(FILES)) {
      if (FILES[rel].precache || !usedLater(rel) || (await cache.match(absolute(rel)))) continue;
      await fromHttpCache(cache, rel).catch(() => null); // absent: cached when first fetched through here
    }
  }

  /** Whether the link is metered or slow (Save-Data, or slower than 4G): optional files wait. */
  function metered() {
    const c = self.navigator && self.navigator.connection;
    return !!c && (!!c.saveData || /^(slow-2g|2g|3g)$/.test(c.effectiveType || ""));
  }

  // A page about to download and load a tokenizer asks the precache to wait ({type: "yield", ms}):
  // on a first visit the precache starts at the first count, just when a reader picks another
  // tokenizer, and hashing and storing its megabytes slowed that tokenizer's first count from about
  // 0.25 s to 0.5 s on a desktop (issue 20). Each page's wait ends by itself after `ms` (at most
  // MAX_YIELD_MS, so a page closed mid-download cannot hold it); the files being fetched are given
  // up and fetched again afterwards (mostly from the HTTP cache: the page downloaded them to boot).
  const MAX_YIELD_MS = 30000;
  const yields = new Map(); // client id -> Date.now() until which that page asked the precache to wait
  const inFlight = new Set(); // AbortControllers of the precache's fetches under way
  /** How many ms the precache still waits for the pages (0: none asks it to). */
  function waitingFor() {
    const now = Date.now();
    let ms = 0;
    for (const [id, until] of yields) {
      if (until <= now) yields.delete(id);
      else ms = Math.max(ms, until - now);
    }
    return ms;
  }
  async function yieldToPages() {
    for (let ms = waitingFor(); ms > 0; ms = waitingFor()) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 200)));
    }
  }
  function askedToYield(client, ms) {
    const wait = Math.max(0, Math.min(Number(ms) || 0, MAX_YIELD_MS));
    yields.set(client, Date.now() + wait);
    if (wait > 0) for (const controller of inFlight) controller.abort();
  }

  const precaching = new Map(); // lite (boolean) -> promise
  /** Cache every `precache` file not cached yet (a few at a time); with `lite`, not the `optional`
   * ones (the memory snapshot's megabytes). Resolves {files, build_id, optional_bytes}: the bytes
   * of optional files still not cached. */
  function precache(lite = false) {
    if (!precaching.has(lite)) {
      const run = (async () => {
        const cache = await caches.open(CACHE);
        const todo = Object.keys(FILES).filter((rel) => FILES[rel].precache && !(lite && FILES[rel].optional));
        const files = todo.length;
        let next = 0;
        const worker = async () => {
          for (;;) {
            await yieldToPages();
            // (checked after the wait: the other fetchers took files meanwhile)
            if (next >= todo.length) break;
            const rel = todo[next++];
            if (await cache.match(absolute(rel))) continue;
            const controller = new AbortController();
            inFlight.add(controller);
            try {
              await fetchInto(cache, rel, controller.signal);
            } catch (err) {
              if (!controller.signal.aborted) throw err;
              todo.push(rel); // given up for a page's download: fetched again after it
            } finally {
              inFlight.delete(controller);
            }
          }
        };
        await Promise.all([worker(), worker(), worker(), worker()]);
        let optionalBytes = 0;
        for (const rel of Object.keys(FILES)) {
          if (FILES[rel].optional && !(await cache.match(absolute(rel)))) optionalBytes += FILES[rel].bytes || 0;
        }
        return { files, build_id: manifest.build_id, optional_bytes: optionalBytes };
      })();
      precaching.set(lite, run);
      run.then(
        () => precaching.delete(lite), // (cheap to ask again: cached files are skipped)
        () => precaching.delete(lite), // try again next time the page asks
      );
    }
    return precaching.get(lite);
  }

  self.addEventListener("install", (event) => {
    // the first install takes over at once (nothing to mix with) and precaches when the page asks;
    // an update precaches everything first and then waits for the old build's pages to close
    if (!self.registration.active) event.waitUntil(self.skipWaiting());
    else event.waitUntil(precache(metered()));
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil(
      (async () => {
        for (const name of await caches.keys()) {
          if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
        }
        // no clients.claim(): a page (and its Python worker) that started without this worker
        // finishes without it; the next navigation is served by it (src/sw-register.js reloads
        // the page once where that makes it cross-origin isolated)
      })(),
    );
  });

  self.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "precache") {
      // lite: not the optional files (the page asks so on a metered or slow link, and for them later)
      const reply = (msg) => event.source && event.source.postMessage(msg);
      event.waitUntil(
        Promise.all([precache(!!data.lite), sweep()])
          .then(([done]) => done)
          .then(
            (done) => reply({ type: "precached", ...done }),
            (err) => reply({ type: "precache-failed", message: String(err && err.message) }),
          ),
      );
    } else if (data.type === "yield") {
      askedToYield(event.source ? event.source.id : "", data.ms);
    } else if (data.type === "skip-waiting") {
      // the reader chose "Reload" (src/sw-register.js): this build takes over and every page of
      // the old one reloads at once (controllerchange), so no page mixes two builds
      event.waitUntil(self.skipWaiting());
    } else if (data.type === "unregister") {
      event.waitUntil(
        (async () => {
          await self.registration.unregister();
          for (const name of await caches.keys()) if (name.startsWith(PREFIX)) await caches.delete(name);
        })(),
      );
    }
  });

  async function respond(request, rel) {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(absolute(rel));
    if (hit) return withIsolation(hit, rel);
    let res;
    try {
      res = await fetchInto(cache, rel);
    } catch {
      try {
        res = await fromHttpCache(cache, rel); // offline, but downloaded before this worker ran
      } catch {
        // offline and never downloaded (this rejects again, as the page expects), or the server
        // has a newer build whose file fails this build's integrity: the network's answer, uncached
        res = await fetch(request);
      }
    }
    return withIsolation(res, rel);
  }

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET" || request.headers.has("range")) return;
    const rel = sitePath(new URL(request.url));
    if (rel === null || !Object.hasOwn(FILES, rel) || !usedLater(rel)) return;
    event.respondWith(respond(request, rel));
  });
})();
