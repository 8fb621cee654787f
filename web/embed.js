/*
 * bytepair embed helper: resizes bytepair <iframe>s to their content.
 *
 * Usage, on the page that embeds the playground:
 *
 *   <iframe src="https://example.org/bytepair/?embed=1#steps" title="BPE step by step"
 *           width="100%" height="640"></iframe>
 *   <script src="https://example.org/bytepair/embed.js" defer></script>
 *
 * An embedded playground (?embed=1) posts {type: "bytepair:height", height}
 * to its parent window on load and whenever its content changes size. This
 * script listens for that message and sets the height (CSS pixels) of the
 * <iframe> that sent it: the sender must be the iframe's own window
 * (event.source) and its origin the origin of the iframe's src. Other
 * messages and other frames are ignored. Heights are clamped to 80..20000 px.
 *
 * After each resize the iframe receives a "bytepair:resize" DOM event
 * (event.detail.height), for pages that want to react. No dependencies; it
 * works under a Content-Security-Policy that allows this script's origin.
 */
(function () {
  "use strict";
  if (window.bytepairEmbed) return; // loaded twice: one listener is enough
  var MIN = 80;
  var MAX = 20000;

  function frameFor(source) {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }

  function onMessage(event) {
    var data = event.data;
    if (!data || data.type !== "bytepair:height" || typeof data.height !== "number" || !isFinite(data.height)) return;
    var frame = frameFor(event.source);
    if (!frame) return;
    var expected;
    try {
      expected = new URL(frame.src, document.baseURI).origin;
    } catch (e) {
      return;
    }
    if (event.origin !== expected) return;
    var height = Math.round(Math.min(MAX, Math.max(MIN, data.height)));
    frame.style.height = height + "px";
    var detail = { height: height };
    var ev;
    try {
      ev = new CustomEvent("bytepair:resize", { detail: detail });
    } catch (e) {
      return;
    }
    frame.dispatchEvent(ev);
  }

  window.addEventListener("message", onMessage);
  window.bytepairEmbed = { version: 1 };
})();
