// Runs first, before the page is drawn (a classic, blocking script in <head>):
// reads ?embed=1 and ?theme=light|dark so the compact embedded layout and the
// forced colour theme apply from the first paint, with no flash of site chrome.
// Sets <html data-embed="1"> and <html data-theme="light|dark"> (styles.css).
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
  var theme = q.get("theme");
  if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
})();
