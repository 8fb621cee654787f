// Runs first, before the page is drawn (a classic, blocking script in <head>):
// reads ?embed=1 and ?theme=light|dark so the compact embedded layout and the
// forced colour theme apply from the first paint, with no flash of site chrome.
// Sets <html data-embed="1"> and <html data-theme="light|dark"> (styles.css).
(function () {
  var q = new URLSearchParams(location.search);
  var root = document.documentElement;
  if (/^(1|true|yes)$/i.test(q.get("embed") || "")) root.setAttribute("data-embed", "1");
  var theme = q.get("theme");
  if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
})();
