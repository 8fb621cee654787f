// Settings for coi-serviceworker.js (npm coi-serviceworker 0.1.7, loaded right after this
// classic script). On a host that cannot send the COOP/COEP headers (GitHub Pages), that
// library registers a service worker that adds them and reloads the page once, so the page
// becomes cross-origin isolated and Stop can interrupt Python mid-merge (issue 11). Where the
// server sends the headers (build.py serve, _headers hosts) it does nothing.
// Only the top-level page registers it (an embed cannot be isolated inside a page that is not);
// ?isolate=0 turns it off (and removes a service worker registered before).
(function () {
  var off = /^(0|false|no)$/i.test(new URLSearchParams(location.search).get("isolate") || "");
  window.coi = {
    shouldRegister: function () {
      return !off && window.top === window;
    },
    shouldDeregister: function () {
      return off;
    },
    quiet: true,
  };
})();
