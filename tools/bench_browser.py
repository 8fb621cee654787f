"""Browser benchmarks of the built playground in headless Chromium (Playwright), printed, never asserted.

    python tools/bench_browser.py boot [--runs 7] [DIST_DIR ...]   # navigation -> Ready
    python tools/bench_browser.py boot --vs-fresh                  # ... with and without the memory snapshot
    python tools/bench_browser.py figures                          # encode / train 1 MB in the page
    python tools/bench_browser.py peers [DIST_DIR]                 # vs js-tiktoken / gpt-tokenizer, same page
    python tools/bench_browser.py models [--runs 1] [--settle-ms 0] [NAME ...] [--dirs D ...]  # choosing a model -> first count
    python tools/bench_browser.py stop [--mb 3] [--at 20,200,2000] [--runs 5] [--vocab N] [--cpu 4] [--text udhr]  # Stop latency
    python tools/bench_browser.py train-long [--until 20000] [--max-s 600] [--modes page,course]
    python tools/bench_browser.py network [--runs 3] [--profiles phone,desktop] [--no-isolate] [DIST_DIR ...]
    python tools/bench_browser.py lighthouse [--runs 3] [DIST_DIR]  # Lighthouse mobile performance score

``network`` (issue 20): a first and a second visit to ``#tokenize`` on a slow phone (slow 4G, CPU 4x)
and a desktop: MB sent before the first exact count and in all, Ready and first count (ms); see
:func:`bench_network`.

``boot``: for each site directory (default ``web/dist``; several to compare
builds side by side, e.g. a copy of ``web/dist`` from another branch), the
time from navigation start to ``bytepair.ready`` resolving (the status line's
"Ready"), read in the page as ``performance.now()``, and the median end of
each boot stage the worker reports (runtime loaded, wheels installed, Python
ready; ``STAGES``; and when the big downloads ended, ``got <file>``). Every run
uses a new browser profile (a cold HTTP cache, kept on disk as a user's is);
runs alternate between the directories so machine noise hits both alike; then
one reload in the same profile gives the second-visit (warm-cache) figure. Prints the median, min and max of each directory.

``figures`` (the figures that used to be printed by the e2e tests): encode
throughput of ``count`` on 1 MB of the King James Bible with ``cl100k_base``
(checked against tiktoken), and the time to train on it at vocab 4096 (and
until the first merge is shown). Texts from ``tools/corpora.py``.

``peers``: js-tiktoken and gpt-tokenizer (npm devDependencies, served from
``node_modules`` by Playwright routes, not part of the site) loaded into the
same page as the playground. Prints, per encoding (cl100k_base, o200k_base):
the first count after choosing the encoding, once the page's own start-up
calls are done (bytepair: vocabulary fetch + load + pattern compile; the page
loads cl100k_base itself; gpt-tokenizer: module import + first call), and MB/s
on 1 MB of English (KJV) and of the UDHR mix, cold (bytepair's piece cache
empty; the peers' first run) and warm (the best of :data:`PEERS_WARM_RUNS`
interleaved runs, for each library alike), with ``ratio_warm`` = bytepair /
gpt-tokenizer. The token
ids of all three are checked to be identical first.

``models``: ``o200k_base`` and each open model of ``bytepair.app.models.OPEN_MODELS`` (or the
names given), in a new browser context: open Tokenize, wait for its first
count, then choose the model and time (in the page, ``performance.now()``)
until its count is on screen: *cold* (downloaded from the site) and, after a
reload in the same context, *cached* (from the browser's Cache API). Also
prints the worker's breakdown of the load (fetch, gunzip, parse in Pyodide)
and the ratio to the 0.3 s target of issue 12.

``stop``: Stop latency on a large training run (issue 11: Stop lands within
100 ms; issue 19: within 0.5 s, also on a slow CPU). The first ``--mb`` MB of the
KJV train at vocab ``--vocab`` (default 100000; cl100k pattern); once the
progress line shows ``--at`` merges, Stop is pressed with the mouse (a real
input, no actionability wait) and the time from the press (its input event's
``timeStamp``: a page too busy to take the click at once counts) to the page
showing the run stopped (``<body data-training="stopped">``) is measured in the
page. ``--cpu N``: Chromium's CPU slowed N times (CDP
``Emulation.setCPUThrottlingRate``; it slows the page, not the worker, so the
page falls behind the trainer as a phone's does). Run on the site served
cross-origin isolated (COOP/COEP, the default: Stop interrupts Python mid-merge
through Pyodide's interrupt buffer) and not (``isolate=False`` and
``?isolate=0``: Stop waits for the merge in progress), side by side, with the
ratio (``--runs N``: N Stops at each point, medians and every run; ``--dir``:
another built site, e.g. a copy of ``web/dist`` from before a change). The
stages come from the page's ``performance.mark`` s, in ms after the press:
``click`` (the page took the click), ``worker-stopped`` (the worker left the
merge loop), ``worker-built`` (the tokenizer built), ``reply`` (the page has the
answer), ``shown`` ("Stopped after N merges" rendered) and ``saved`` (written
to IndexedDB). ``not_stopped``: runs Stop could not stop (the run ended, "Done",
before the page took the press). ``kept_is_shown``: runs whose tokenizer and
"Stopped after N" hold the N merges on screen at the press (the bench records
what the progress line said, and when); ``kept_for_shown`` lists the others.

``train-long`` (issue 19): 1.5 MB of KJV with no pre-tokenizer towards vocab 60,000, in the full
page and in two Train embeds on one same-site course page (one renderer process, one runtime): a
``setInterval`` every 50 ms in the host page records how late it fires (p50/p95/max; the target is
p95 within 100 ms), with the share of time in long main-thread tasks; merges shown and the time to
read them (driver -> page -> driver) about every second; then Stop, click -> "Stopped after" (target
0.5 s). ``--until``/``--max-s`` stop earlier (on a shared machine 60,000 merges take long).

Needs Chromium at /usr/bin/chromium and the ``playwright`` package; run
``python build.py`` first (``python build.py bench`` does).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT)]

from tools.buildutil import CHROMIUM, CHROMIUM_ARGS, DIST  # noqa: E402
from tools.buildutil import launch_chromium as chromium  # noqa: E402
from tools.serve import make_server, server_url  # noqa: E402

READY_TIMEOUT_MS = 180_000
MB = 1_000_000


@contextlib.contextmanager
def served(directory: pathlib.Path, *, isolate: bool = True):
    """Serve ``directory`` on a free localhost port; yields the base URL.
    ``isolate``: send the COOP/COEP headers (as ``build.py serve`` does by default)."""
    server = make_server("127.0.0.1", 0, directory=directory, quiet=True, isolate=isolate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server_url(server)
    finally:
        server.shutdown()
        server.server_close()


def ms_to_ready(page) -> float:
    """Milliseconds from navigation start to ``bytepair.ready`` (the page must have just navigated)."""
    # (window.bytepair is set by a module script: on a warm reload the evaluation can come first)
    return page.evaluate(
        "async () => { while (!window.bytepair) await new Promise((r) => setTimeout(r, 5));"
        " await window.bytepair.ready; return performance.now(); }"
    )


#: Boot stages the worker reports in its ready reply (``stages``), in order.
STAGES = ("worker_started", "init", "snapshot_fetched", "runtime_loaded", "wheels_installed", "python_ready")


def boot_stages(page) -> dict[str, float]:
    """Milliseconds from navigation start to the end of each boot stage (the
    worker's ``stages``, epoch ms, over the page's ``performance.timeOrigin``),
    plus ``main_js``: when the page's module script ran (``domInteractive`` is
    close; the worker starts from it)."""
    return page.evaluate(
        """async () => {
            const info = await window.bytepair.ready;
            const out = {};
            for (const [k, v] of Object.entries(info.stages || {})) out[k] = v - performance.timeOrigin;
            out.boot = info.boot || "fresh";
            const nav = performance.getEntriesByType("navigation")[0];
            if (nav) out.dom_content_loaded = nav.domContentLoadedEventEnd;
            return out;
        }"""
    )


def boot_times(browser, url: str) -> tuple[float, float, dict, dict]:
    """(cold, warm) navigation -> Ready in ms: a new browser profile (a persistent
    context in an empty directory: its HTTP cache is on disk, as a user's is; an
    incognito context's memory cache does not keep the 9.6 MB pyodide.asm.wasm),
    then one reload in it; and the stages (:func:`boot_stages`) of each."""
    import tempfile

    profile = tempfile.TemporaryDirectory(prefix="bytepair-bench-profile-")
    context = browser.browser_type.launch_persistent_context(
        profile.name, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    context.set_default_timeout(READY_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(url)
        cold = ms_to_ready(page)
        cold_stages = boot_stages(page)
        page.reload()
        warm = ms_to_ready(page)
        return cold, warm, cold_stages, boot_stages(page)
    finally:
        context.close()
        profile.cleanup()


@contextlib.contextmanager
def without_snapshot(dist: pathlib.Path):
    """A copy of the built site ``dist`` (hard links, in a temporary directory)
    whose manifest names no memory snapshot: the worker starts Python, installs
    the wheels and imports, as before the snapshot. Yields its path."""
    import os
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bytepair-fresh-") as tmp:
        copy = pathlib.Path(tmp) / "fresh"
        shutil.copytree(dist, copy, copy_function=os.link)
        manifest = copy / "wheels" / "manifest.json"
        info = json.loads(manifest.read_text(encoding="utf-8"))
        info["snapshot"] = None
        manifest.unlink()  # a hard link: do not write through to dist
        manifest.write_text(json.dumps(info, indent=1), encoding="utf-8")
        yield copy


def bench_boot_vs_fresh(dist: pathlib.Path, runs: int) -> list[dict]:
    """:func:`bench_boot` of ``dist`` and of the same site without its memory
    snapshot (:func:`without_snapshot`), interleaved, plus a row with the ratios
    (fresh / snapshot: how many times faster the snapshot boots)."""
    with without_snapshot(dist) as fresh:
        rows = bench_boot([dist, fresh], runs)
    by_site = {r["site"]: r for r in rows if "cold_median" in r}
    snap, base = by_site[str(dist)], by_site[str(fresh)]
    rows.append(
        {
            "what": "navigation -> Ready, memory snapshot vs a normal start (ratio = fresh / snapshot)",
            "cold_ms": [snap["cold_median"], base["cold_median"]],
            "warm_ms": [snap["warm_median"], base["warm_median"]],
            "ratio_cold": round(base["cold_median"] / snap["cold_median"], 2),
            "ratio_warm": round(base["warm_median"] / snap["warm_median"], 2),
            "target_ms": 2000,
        }
    )
    return rows


def bench_boot(dirs: list[pathlib.Path], runs: int) -> list[dict]:
    """Median/min/max navigation -> Ready (ms) per site directory, runs interleaved."""
    cold: dict[pathlib.Path, list[float]] = {d: [] for d in dirs}
    warm: dict[pathlib.Path, list[float]] = {d: [] for d in dirs}
    stages: dict[tuple[pathlib.Path, str], list[dict]] = {(d, k): [] for d in dirs for k in ("cold", "warm")}
    with contextlib.ExitStack() as stack:
        urls = {d: stack.enter_context(served(d)) for d in dirs}
        browser = stack.enter_context(chromium())
        boot_times(browser, urls[dirs[0]])  # warm the OS file cache and Chromium itself; not counted
        for _ in range(runs):
            for d in dirs:
                c, w, cs, ws = boot_times(browser, urls[d])
                cold[d].append(c)
                warm[d].append(w)
                stages[(d, "cold")].append(cs)
                stages[(d, "warm")].append(ws)
    rows = []
    for d in dirs:
        info = json.loads((d / "wheels" / "manifest.json").read_text(encoding="utf-8"))
        rows.append(
            {
                "what": "navigation -> Ready (ms), headless Chromium, localhost",
                "site": str(d),
                "install": info.get("install"),
                "runs": runs,
                "cold_median": round(statistics.median(cold[d])),
                "cold_min": round(min(cold[d])),
                "cold_max": round(max(cold[d])),
                "warm_median": round(statistics.median(warm[d])),
            }
        )
        for kind in ("cold", "warm"):
            runs_ = stages[(d, kind)]
            keys = ["dom_content_loaded", *STAGES, *sorted({k for r in runs_ for k in r if k.startswith("got ")})]
            rows.append(
                {
                    "what": f"boot stages, {kind} cache: median ms from navigation to the end of each",
                    "site": str(d),
                    "boot": sorted({r["boot"] for r in runs_}),
                    **{k: round(statistics.median(r[k] for r in runs_)) for k in keys if all(k in r for r in runs_)},
                }
            )
    return rows


def bench_figures() -> list[dict]:
    """Encode and train 1 MB of KJV in the page (checked against tiktoken / the vocab size)."""
    from bytepair import registry
    from tests.reference import tiktoken_encoding
    from tools.corpora import load_kjv

    text = load_kjv().encode("utf-8")[:MB].decode("utf-8", errors="ignore")
    nbytes = len(text.encode("utf-8"))
    expected = len(tiktoken_encoding("cl100k_base", registry.load_ranks("cl100k_base")).encode_ordinary(text))
    rows = []
    with served(DIST) as url, chromium() as browser:
        context = browser.new_context()
        context.set_default_timeout(600_000)
        page = context.new_page()
        page.goto(url)
        ms_to_ready(page)
        page.evaluate("() => window.bytepair.count('warm up: loads the vocabulary', 'cl100k_base')")
        n, ms = page.evaluate(
            """async (text) => {
                const t0 = performance.now();
                const n = await window.bytepair.count(text, 'cl100k_base');
                return [n, performance.now() - t0];
            }""",
            text,
        )
        if n != expected:
            raise SystemExit(f"bench: the page counted {n} tokens, tiktoken {expected}; run the tests")
        rows.append(
            {
                "what": "encode cl100k_base in the browser (count)",
                "MB": round(nbytes / MB, 2),
                "s": round(ms / 1000, 2),
                "MBps": round(nbytes / MB / (ms / 1000), 2),
            }
        )
        page.locator('[data-testid="train-text"]').evaluate(
            "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }", text
        )
        page.fill('[data-testid="train-vocab"]', "4096")
        page.select_option('[data-testid="train-pattern"]', "cl100k_base")
        page.fill('[data-testid="train-name"]', "kjv-4096")
        page.evaluate(
            """() => {
                window.__fig = {};
                const body = document.querySelector('[data-testid="merges-body"]');
                new MutationObserver((_, obs) => {
                    if (body.rows.length) { window.__fig.first = performance.now(); obs.disconnect(); }
                }).observe(body, { childList: true });
                document.querySelector('[data-action="train"]').addEventListener(
                    'click', () => { window.__fig.click = performance.now(); }, { capture: true });
            }"""
        )
        page.get_by_role("button", name="Train", exact=True).click()
        page.wait_for_function("() => document.body.dataset.training === 'done'", timeout=600_000)
        fig = page.evaluate("() => ({...window.__fig, end: performance.now()})")
        meta = page.evaluate("() => window.bytepair.trainedTokenizers().find((t) => t.name === 'kjv-4096').meta")
        if meta["n_merges"] != 4096 - 256:
            raise SystemExit(f"bench: training gave {meta['n_merges']} merges, expected {4096 - 256}")
        rows.append(
            {
                "what": "train cl100k pattern, vocab 4096, in the browser",
                "MB": round(nbytes / MB, 2),
                "s": round((fig["end"] - fig["click"]) / 1000, 1),
                "first_merge_shown_s": round((fig["first"] - fig["click"]) / 1000, 2),
            }
        )
        context.close()
    return rows


_BASE64_SHIM = """
const toByteArray = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const fromByteArray = (bytes) => btoa(String.fromCharCode(...bytes));
export default { toByteArray, fromByteArray };
"""


def _route_peers(context) -> None:
    """Serve ``/__peers/gpt/*`` (gpt-tokenizer ESM) and ``/__peers/jst/*`` (js-tiktoken,
    its ``base64-js`` import pointed at a small shim) from node_modules."""
    from tools.buildutil import NODE_MODULES

    roots = {
        "gpt": (NODE_MODULES / "gpt-tokenizer" / "esm").resolve(),
        "jst": (NODE_MODULES / "js-tiktoken" / "dist").resolve(),
    }

    def handle(route):
        rel = route.request.url.split("/__peers/", 1)[1].split("?")[0]
        lib, _, rest = rel.partition("/")
        if lib == "jst" and rest == "__b64.js":
            body = _BASE64_SHIM
        else:
            path = (roots[lib] / rest).resolve()
            if not path.is_relative_to(roots[lib]) or not path.is_file():
                route.fulfill(status=404, body="not found")
                return
            body = path.read_text(encoding="utf-8")
            if lib == "jst":
                body = body.replace("from 'base64-js'", "from './__b64.js'").replace(
                    'from "base64-js"', "from './__b64.js'"
                )
        route.fulfill(status=200, body=body, headers={"Content-Type": "text/javascript; charset=utf-8"})

    context.route("**/__peers/**", handle)


#: Warm runs of each library per corpus in ``peers`` (the best is kept, for all three alike).
PEERS_WARM_RUNS = 3

_PEERS_JS = """
async ([enc, texts, WARM_RUNS]) => {
  const now = () => performance.now();
  const out = {};
  // let the page's own start-up calls (its default cl100k_base view) finish first
  await window.bytepair.count("settle", "cl100k_base");
  let t0 = now();
  await window.bytepair.count("hello", enc);
  out.bytepair_first_count_ms = now() - t0;
  t0 = now();
  const gpt = await import(`/__peers/gpt/encoding/${enc}.js`);
  gpt.encode("hello");
  out.gpt_tokenizer_first_count_ms = now() - t0;
  t0 = now();
  const { Tiktoken } = await import("/__peers/jst/lite.js");
  const jst = new Tiktoken((await import(`/__peers/jst/ranks/${enc}.js`)).default);
  jst.encode("hello");
  out.js_tiktoken_first_count_ms = now() - t0;
  const time = async (fn) => { const t = now(); const r = await fn(); return [now() - t, r]; };
  for (const [corpus, text] of Object.entries(texts)) {
    const bytes = new TextEncoder().encode(text).length;
    const row = (out[corpus] = { MB: bytes / 1e6 });
    const [cold, n] = await time(() => window.bytepair.count(text, enc));
    const [g1, ids] = await time(() => gpt.encode(text));
    const [j1, jids] = await time(() => jst.encode(text));
    // warm: the best of WARM_RUNS for each, runs interleaved (machine noise hits all three alike)
    let [warm, g2, j2, n2] = [Infinity, g1, j1, n];
    for (let k = 0; k < WARM_RUNS; k++) {
      const [w, m] = await time(() => window.bytepair.count(text, enc));
      [warm, n2] = [Math.min(warm, w), m];
      g2 = Math.min(g2, (await time(() => gpt.encode(text)))[0]);
      j2 = Math.min(j2, (await time(() => jst.encode(text)))[0]);
    }
    const ours = await window.bytepair.encode(text, enc);
    row.ids_identical = n === ids.length && n2 === n && ours.length === n
      && ours.every((x, i) => x === ids[i] && x === jids[i]);
    const mbps = (ms) => bytes / 1e6 / (ms / 1000);
    Object.assign(row, {
      bytepair_cold_MBps: mbps(cold), bytepair_warm_MBps: mbps(warm),
      gpt_tokenizer_MBps: mbps(g2), js_tiktoken_MBps: mbps(j2),
    });
  }
  return out;
}
"""


def bench_peers(dist: pathlib.Path = DIST) -> list[dict]:
    """bytepair next to js-tiktoken and gpt-tokenizer in one page (see the module docstring);
    ``dist``: the built site (e.g. a copy of ``web/dist`` from before a change)."""
    from tools.corpora import load_kjv, udhr_round_robin

    def cut(text: str) -> str:
        return text.encode("utf-8")[:MB].decode("utf-8", errors="ignore")

    texts = {"English (KJV)": cut(load_kjv()), "UDHR mix": cut(udhr_round_robin(MB))}
    rows = []
    with served(dist) as url, chromium() as browser:
        for enc in ("cl100k_base", "o200k_base"):
            context = browser.new_context()  # a fresh page per encoding: cold caches for both sides
            context.set_default_timeout(600_000)
            _route_peers(context)
            page = context.new_page()
            page.goto(url)
            ms_to_ready(page)
            res = page.evaluate(_PEERS_JS, [enc, texts, PEERS_WARM_RUNS])
            context.close()
            rows.append(
                {
                    "what": f"first count after choosing {enc} (ms), in the page",
                    "bytepair": round(res.pop("bytepair_first_count_ms")),
                    "gpt_tokenizer": round(res.pop("gpt_tokenizer_first_count_ms")),
                    "js_tiktoken": round(res.pop("js_tiktoken_first_count_ms")),
                    "target": "bytepair <= 300",
                }
            )
            for corpus, r in res.items():
                if not r["ids_identical"]:
                    raise SystemExit(f"bench: bytepair, gpt-tokenizer and js-tiktoken disagree on {corpus} ({enc})")
                rows.append(
                    {
                        "what": f"encode {enc} {corpus} in the page (MB/s)",
                        "MB": round(r["MB"], 2),
                        **{k: round(v, 2) for k, v in r.items() if k.endswith("MBps")},
                        "ratio_warm": round(r["bytepair_warm_MBps"] / r["gpt_tokenizer_MBps"], 2),
                        "target": "ratio_warm >= 0.5; cold UDHR mix >= 2 MB/s",
                    }
                )
    return rows


MODEL_TARGET_MS = 300  # issue 12 target 2: first count with any shipped vocabulary within 0.3 s of choosing it
BASE = "cl100k_base"  # what Tokenize counts before a model is chosen


def _choose_ms(page, name: str) -> float:
    """Choose ``name`` in Tokenize; ms (in the page) until its count is on screen."""
    return page.evaluate(
        """(name) => new Promise((resolve) => {
            const view = document.querySelector('[data-testid="view-tokenize"]');
            const select = document.querySelector('[data-testid="tokenize-tokenizer"]');
            const t0 = performance.now();
            select.value = name;
            select.dispatchEvent(new Event('change', { bubbles: true }));
            const poll = () => ((view.dataset.encoded || '').startsWith(name + ':') ? resolve(performance.now() - t0) : requestAnimationFrame(poll));
            poll();
        })""",
        name,
    )


def _tokenize_ready(page, url: str | None) -> None:
    """Open Tokenize at ``url`` (``None``: reload the page) and wait for its first ``BASE`` count.

    The page keeps the chosen tokenizer across reloads (IndexedDB), so callers choose
    ``BASE`` again before reloading (else the reload itself would load the model)."""
    if url is None:
        page.reload()
    else:
        page.goto(url + "#tokenize")
    ms_to_ready(page)
    page.wait_for_function(
        "(b) => (document.querySelector('[data-testid=\"view-tokenize\"]').dataset.encoded || '').startsWith(b + ':')",
        arg=BASE,
    )


def _load_stages(page, name: str, total_ms: float) -> dict:
    """The worker's breakdown of the last load of open model ``name`` (fetch / gunzip (Tekken only) / parse, ms), plus
    ``count_render_ms``: the rest of ``total_ms`` (first encode, messaging, render). ``{}`` for an
    OpenAI encoding (its vocabulary loads through another path)."""
    loads = [x for x in page.evaluate("() => window.bytepair.modelLoads") if x["name"] == name]
    if not loads:
        return {}
    info = loads[-1]
    out = {k: info.get(k) for k in ("source", "bytes", "fetch_ms", "gunzip_ms", "parse_ms")}
    out["count_render_ms"] = round(total_ms - info["ms"])
    return out


def bench_models(names: list[str], runs: int, dirs: list[pathlib.Path] | None = None, settle_ms: int = 0) -> list[dict]:
    """Choosing a tokenizer in Tokenize -> its first count (ms), cold (downloaded) and cached
    (after a reload: the browser's Cache API), per model, with the load's stages (medians).
    ``dirs``: built sites to compare side by side (default ``web/dist``); runs alternate between them.
    ``settle_ms``: wait this long after the page's first count before choosing, as a person takes a
    moment to (the service worker's precache for offline use runs then); 0: choose at once."""
    from bytepair.app import models

    names = names or ["o200k_base", *models.open_model_names()]
    dirs = dirs or [DIST]
    rows = []
    with contextlib.ExitStack() as stack:
        urls = [stack.enter_context(served(d)) for d in dirs]
        browser = stack.enter_context(chromium())
        for name in names:
            got = {d: {"cold": [], "cached": [], "cold_st": [], "cached_st": []} for d in dirs}
            for _ in range(runs):
                for d, url in zip(dirs, urls):
                    g = got[d]
                    context = browser.new_context()
                    context.set_default_timeout(READY_TIMEOUT_MS)
                    try:
                        page = context.new_page()
                        _tokenize_ready(page, url)
                        page.wait_for_timeout(settle_ms)
                        g["cold"].append(_choose_ms(page, name))
                        g["cold_st"].append(_load_stages(page, name, g["cold"][-1]))
                        _choose_ms(page, BASE)  # the reload then starts on BASE again
                        page.wait_for_timeout(300)  # the choice is saved (IndexedDB)
                        _tokenize_ready(page, None)  # a reload: same context, same Cache API
                        page.wait_for_timeout(settle_ms)
                        g["cached"].append(_choose_ms(page, name))
                        g["cached_st"].append(_load_stages(page, name, g["cached"][-1]))
                    finally:
                        context.close()

            def med(stages: list[dict]) -> dict:
                keys = [k for k in (stages[0] if stages else {}) if k.endswith("_ms")]
                if not keys:
                    return {}
                return {
                    "source": stages[0].get("source"),
                    **{k: round(statistics.median(s[k] for s in stages)) for k in keys},
                }

            for d in dirs:
                g = got[d]
                c, w = statistics.median(g["cold"]), statistics.median(g["cached"])
                rows.append(
                    {
                        "what": "choose in Tokenize -> first count (ms, median), headless Chromium, localhost",
                        "site": str(d),
                        "model": name,
                        "runs": runs,
                        "settle_ms": settle_ms,
                        "cold_ms": round(c),
                        "cached_ms": round(w),
                        "cold_vs_target": round(c / MODEL_TARGET_MS, 2),
                        "cached_vs_target": round(w / MODEL_TARGET_MS, 2),
                        "file_bytes": (g["cold_st"][0] or {}).get("bytes"),  # as fetched
                        "cold_stages": med(g["cold_st"]),
                        "cached_stages": med(g["cached_st"]),
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return rows


#: Records, in the page, what the progress line said when (``window.__shownAt``: [[ms, merges]]) and
#: the press on Stop (its event's timeStamp: when the input happened, before any wait for the page)
_STOP_PROBE = """() => {
    const progress = document.querySelector('[data-testid="train-progress-text"]');
    const count = () => {
        const m = /^([\\d,]+) \\/ /.exec(progress.textContent);
        return m ? Number(m[1].replace(/,/g, '')) : 0;
    };
    const p = (window.__stopProbe = { said: [[performance.now(), count()]], press: null });
    new MutationObserver(() => {
        const n = count();
        if (document.body.dataset.training === 'running' && n !== p.said[p.said.length - 1][1])
            p.said.push([performance.now(), n]);
    }).observe(progress, { childList: true, characterData: true, subtree: true });
    const stop = document.querySelector('[data-testid="stop-button"]');
    stop.addEventListener('pointerdown', (e) => {
        if (p.press) return;
        p.press = e.timeStamp;
        p.dispatchDelay = performance.now() - e.timeStamp;
        const seen = p.said.filter(([t]) => t <= e.timeStamp);
        p.shown = seen.length ? seen[seen.length - 1][1] : 0;
        p.dom = count(); // what the line says when the press is handled (later, on a busy page)
    }, { capture: true });
    new MutationObserver((_, obs) => {
        if (document.body.dataset.training === 'running') return;
        if (!p.press) p.press = performance.now(); // (the run ended first: no press was taken)
        p.endedMs = performance.now() - p.press;
        p.text = progress.textContent;
        p.ended = document.body.dataset.training;
        obs.disconnect();
    }).observe(document.body, { attributes: true, attributeFilter: ['data-training'] });
}"""


def _stop_once(page, text: str, at: int, name: str, vocab: int = 100_000) -> dict | None:
    """Paste ``text`` into Train as a user would (a text this long is kept out of the textarea),
    train, press Stop with the mouse once ``at`` merges are shown; the latency in ms from the
    press (its input event's time, so a page too busy to take the click at once counts) to the
    page showing the run stopped. None if the run ended before the page showed ``at`` merges."""
    page.locator('[data-testid="train-text"]').evaluate(
        """(el, t) => {
            el.value = '';
            el.focus();
            const data = new DataTransfer();
            data.setData('text/plain', t);
            const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
            if (el.dispatchEvent(event)) {
                // (a text short enough for the box: the browser would paste it, a synthetic event does not)
                el.value = t;
                el.dispatchEvent(new Event('input', { bubbles: true }));
            }
        }""",
        text,
    )
    page.fill('[data-testid="train-vocab"]', str(vocab))
    page.select_option('[data-testid="train-pattern"]', "cl100k_base")
    page.fill('[data-testid="train-name"]', name)
    page.evaluate("() => performance.clearMarks()")
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function("() => document.body.dataset.training === 'running'")
    page.evaluate(_STOP_PROBE)
    # (where to press, read as the run starts: later the page may be too busy for a quick round trip)
    box = page.locator('[data-testid="stop-button"]').bounding_box()
    page.wait_for_function(
        """(n) => {
            const t = document.querySelector('[data-testid="train-progress-text"]').textContent;
            return document.body.dataset.training !== 'running' || Number(t.split(' / ')[0].replace(/,/g, '')) >= n;
        }""",
        arg=at,
        timeout=600_000,
        polling=10,
    )
    # a person's click: a mouse press on the button, no actionability wait (on a busy page that
    # waits for frames, as a person does not)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => window.__stopProbe.ended != null", timeout=600_000)
    shown = page.evaluate("() => window.__stopProbe")
    if shown.get("dispatchDelay") is None:
        return None  # the run ended before the page showed `at` merges, or before the press
    if shown["ended"] != "stopped":
        # the press was taken too late: the run had ended ("Done") first, on a page still busy with it
        return {
            "ended": shown["ended"],
            "ms": round(shown["endedMs"]),
            "dispatch_delay_ms": round(shown["dispatchDelay"]),
        }
    # the page's own marks (api.js, views/train.js): ms after the click, once the save is done too
    page.wait_for_function("() => performance.getEntriesByName('bytepair:stop-saved').length > 0", timeout=60_000)
    stages = page.evaluate(
        """(press) => {
            const at = (n) => performance.getEntriesByName('bytepair:' + n)[0]?.startTime;
            const out = { click: Math.round(at('stop-click') - press) };
            for (const n of ['stop-worker-stopped', 'stop-worker-built', 'stop-reply', 'stop-shown', 'stop-saved']) {
                const t = at(n);
                out[n.slice(5)] = t == null ? null : Math.round(t - press);
            }
            return out;
        }""",
        shown["press"],
    )
    meta = page.evaluate("(n) => window.bytepair.trainedTokenizers().find((t) => t.name === n)?.meta ?? null", name)
    kept = meta and meta["n_merges"]
    said = re.match(r"Stopped after ([\d,]+) merge", shown["text"])
    return {
        "ended": "stopped",
        "shown": shown["shown"],  # on screen at the press
        "dom_at_dispatch": shown["dom"],  # on screen when the page took the press
        "kept": kept,
        "said": said and int(said.group(1).replace(",", "")),
        "kept_is_shown": kept == shown["shown"] and said is not None and int(said.group(1).replace(",", "")) == kept,
        "ms": round(shown["endedMs"]),
        "dispatch_delay_ms": round(shown["dispatchDelay"]),
        "stages": stages,
    }


def bench_stop(
    mb: float,
    points: list[int],
    runs: int = 1,
    directory: pathlib.Path = DIST,
    *,
    vocab: int = 100_000,
    cpu: float = 1.0,
    corpus: str = "kjv",
) -> list[dict]:
    """Press -> stopped (ms) at each point, ``runs`` times, cross-origin isolated and not, side by
    side (medians, and every run); with the page's stages (press -> click handled -> worker reply
    -> "Stopped after" on screen -> tokenizer written to browser storage). ``cpu``: Chromium's CPU
    slowed that many times (CDP ``Emulation.setCPUThrottlingRate``; 1: not). Each run also says
    whether the tokenizer kept the merges on screen at the press (``kept_is_shown``). ``corpus``:
    ``"kjv"`` (English) or ``"udhr"`` (the UDHR in every language, one after another: many
    scripts, a long run)."""
    from tools.corpora import load_kjv
    from tools.udhr import load_udhr

    if corpus == "udhr":
        d = load_udhr()
        whole = "\n".join(d[c].text for c in sorted(d))
    else:
        whole = load_kjv()
    text = whole.encode("utf-8")[: int(mb * MB)].decode("utf-8", errors="ignore")
    figures: dict[bool, dict[int, list[dict]]] = {}
    with chromium() as browser:
        for isolate in (True, False):
            with served(directory, isolate=isolate) as url:
                context = browser.new_context()
                context.set_default_timeout(600_000)
                page = context.new_page()
                page.goto(url + ("" if isolate else "?isolate=0"))
                page.wait_for_function("() => window.bytepair")  # (a module script: may come after load)
                info = page.evaluate("async () => window.bytepair.ready")
                if info["isolated"] != isolate:
                    raise SystemExit(f"bench: the page says isolated={info['isolated']}, expected {isolate}")
                if cpu != 1:
                    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                figures[isolate] = {at: [] for at in points}
                for r in range(runs):
                    for k, at in enumerate(points):
                        one = _stop_once(page, text, at, f"stop-{int(isolate)}-{r}-{k}", vocab)
                        print(json.dumps({"isolated": isolate, "at": at, **(one or {"over": True})}), file=sys.stderr)
                        # (None: the run ended before the page showed `at` merges, or before the press)
                        figures[isolate][at].append(one or {"ended": "before the press", "ms": None})
                        # (the last run's tokenizer stored: the next Train press is taken)
                        page.wait_for_function("() => document.body.dataset.trainSaving !== 'true'")
                context.close()

    def med(xs):
        xs = sorted(x for x in xs if x is not None)
        return xs[len(xs) // 2] if xs else None

    def stages(fs):
        return {k: med([f["stages"][k] for f in fs]) for k in fs[0]["stages"]} if fs else None

    rows = []
    for at in points:
        # runs where the press was taken only after the run had ended ("Done": Stop did not answer)
        late = {i: [f for f in figures[i][at] if f["ended"] != "stopped"] for i in (True, False)}
        on, off = ([f for f in figures[i][at] if f["ended"] == "stopped"] for i in (True, False))
        m_on, m_off = med([f["ms"] for f in on]), med([f["ms"] for f in off])
        rows.append(
            {
                "what": f"Stop press -> 'Stopped after', {mb:g} MB {corpus.upper()}, vocab {vocab}, at ~{at} merges, "
                f"CPU x{cpu:g} (median of {runs})",
                "isolated_ms": m_on,  # (runs the press stopped)
                "not_isolated_ms": m_off,
                "ratio_not_over_isolated": m_on and m_off and round(m_off / max(m_on, 1), 1),
                "isolated_vs_500ms_target": m_on and round(m_on / 500, 2),
                "isolated_stages_ms": stages(on),
                "not_isolated_stages_ms": stages(off),
                "isolated_runs_ms": [f["ms"] for f in on],
                "not_isolated_runs_ms": [f["ms"] for f in off],
                # runs Stop could not stop: the run ended ("Done") before the page took the press, or
                # before the page had shown `at` merges (its ms: press -> "Done", or None)
                "not_stopped": f"{len(late[True]) + len(late[False])} of {runs * 2}",
                "not_stopped_ms": [f["ms"] for f in late[True] + late[False]],
                "kept_is_shown": f"{sum(f['kept_is_shown'] for f in on + off)} of {len(on + off)}",
                "kept_for_shown": [[f["kept"], f["shown"]] for f in on + off if not f["kept_is_shown"]],
            }
        )
    return rows


#: The host page's timer probe (issue 19): a setInterval every PROBE_MS whose lateness (ms after
#: the time it was due: the previous tick + PROBE_MS) is recorded, in the page that holds the widgets.
PROBE_MS = 50
_PROBE = """(ms) => {
  const p = (window.__probe = { late: [], last: performance.now(), t0: performance.now(), longMs: 0 });
  // main-thread tasks over 50 ms (this page's and its same-process embeds'): the share of the time they took
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.longMs += e.duration;
  }).observe({ type: "longtask" });
  p.timer = setInterval(() => {
    const now = performance.now();
    p.late.push(now - p.last - ms);
    p.last = now;
  }, ms);
}"""

#: A same-site course page with two Train embeds (as in issue 19: one renderer process, one runtime).
_COURSE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench course</title></head>
<body><h1>Lesson</h1>
<iframe id="w1" src="{url}?embed=1#train" style="width:900px;height:900px"></iframe>
<iframe id="w2" src="{url}?embed=1#train" style="width:900px;height:900px"></iframe>
</body></html>"""

_MERGES_SHOWN = """() => {
  const t = document.querySelector('[data-testid="train-progress-text"]').textContent;
  const n = Number(t.split(' / ')[0].replace(/,/g, ''));
  const error = document.querySelector('#view-train [data-error-for]:not([hidden])');
  return { n: Number.isFinite(n) ? n : 0, phase: document.body.dataset.training, text: t,
           error: error ? error.textContent : null };
}"""


def _pct(xs: list[float], q: float) -> float | None:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else None


def _train_long_once(page, frames: list, text: str, vocab: int, until: int, max_s: float, label: str) -> dict:
    """Start a run in each of ``frames`` (the page itself or its embeds), sample merges shown and the
    DOM read latency about every second until ``until`` merges (in each) or ``max_s`` s, then Stop each
    and time click -> "stopped" in its frame. The host page's timer probe runs throughout."""
    for k, frame in enumerate(frames):
        frame.wait_for_function("() => document.body.dataset.pyodide === 'ready'", timeout=READY_TIMEOUT_MS)
        frame.locator('[data-testid="train-text"]').evaluate(
            """(el, t) => {
                el.value = '';
                el.focus();
                const data = new DataTransfer();
                data.setData('text/plain', t);
                el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
            }""",
            text,
        )
        frame.fill('[data-testid="train-vocab"]', str(vocab))
        frame.select_option('[data-testid="train-pattern"]', "none")
        frame.fill('[data-testid="train-name"]', f"{label}-{k}")
    page.evaluate(_PROBE, PROBE_MS)
    t0 = time.perf_counter()
    for frame in frames:
        frame.locator('[data-action="train"]').click()
    samples: list[dict] = []
    while True:
        time.sleep(1.0)
        row: dict = {"s": round(time.perf_counter() - t0, 1), "merges": [], "read_ms": []}
        for frame in frames:
            r0 = time.perf_counter()
            got = frame.evaluate(_MERGES_SHOWN)
            row["read_ms"].append(round((time.perf_counter() - r0) * 1000))
            row["merges"].append(got["n"])
            if got["phase"] != "running":
                row["ended"] = got["text"]  # (the run is over: done, or failed)
                if got["error"]:
                    row["error"] = got["error"]  # (a failed run's error line)
        samples.append(row)
        print(json.dumps({"bench": label, **row}), file=sys.stderr, flush=True)
        if all(n >= until for n in row["merges"]) or row["s"] >= max_s or "ended" in row:
            break
    stops = []
    for frame in frames:
        r0 = time.perf_counter()
        out = frame.evaluate(
            """() => new Promise((resolve) => {
                if (document.body.dataset.training !== 'running') return resolve({ ms: 0, text: 'not running' });
                const t0 = performance.now();
                const progress = document.querySelector('[data-testid="train-progress-text"]');
                let said = null; // "Stopped at N merges: saving…" on screen (the tokenizer is being built)
                new MutationObserver((_, obs) => {
                    if (said == null && progress.textContent.startsWith('Stopped')) said = performance.now() - t0;
                    if (document.body.dataset.training !== 'stopped') return;
                    obs.disconnect();
                    resolve({ ms: performance.now() - t0, said_ms: said,
                              text: document.querySelector('[data-testid="train-progress-text"]').textContent });
                }).observe(document.body, { attributes: true, attributeFilter: ['data-training'], subtree: true,
                                            childList: true, characterData: true });
                performance.clearMarks();
                document.querySelector('[data-testid="stop-button"]').click();
            })"""
        )
        # the page's own marks (api.js, views/train.js), ms after the click (as ``stop`` prints them)
        stages = frame.evaluate(
            """() => {
                const at = (n) => performance.getEntriesByName('bytepair:' + n)[0]?.startTime;
                const t0 = at('stop-click');
                const out = {};
                for (const n of ['stop-worker-stopped', 'stop-worker-built', 'stop-reply', 'stop-shown']) {
                    const t = at(n);
                    out[n.slice(5)] = t == null || t0 == null ? null : Math.round(t - t0);
                }
                return out;
            }"""
        )
        driver_ms = round((time.perf_counter() - r0) * 1000)
        stops.append(
            {
                "said_stopped_ms": None if out.get("said_ms") is None else round(out["said_ms"]),
                "in_page_ms": round(out["ms"]),
                "from_driver_ms": driver_ms,
                "stages_ms": stages,
            }
        )
    probe = page.evaluate(
        """() => { const p = window.__probe; clearInterval(p.timer);
                   return { late: p.late, long: p.longMs / (performance.now() - p.t0) }; }"""
    )
    late = probe["late"]
    rates = []
    for a, b in zip(samples, samples[1:]):
        dt = b["s"] - a["s"]
        rates.append(round(sum(b["merges"]) - sum(a["merges"])) / dt if dt else 0)
    # merges/s over time: per ~tenth of the run (all widgets together)
    step = max(1, len(samples) // 10)
    curve = [
        {"s": samples[i]["s"], "merges": sum(samples[i]["merges"]), "per_s": round(rates[i - 1], 1) if i else None}
        for i in range(0, len(samples), step)
    ]
    reads = [x for s in samples for x in s["read_ms"]]
    return {
        "what": f"train-long {label}: {len(text.encode('utf-8')) / MB:.2f} MB KJV, no pre-tokenizer, vocab {vocab}",
        "widgets": len(frames),
        "ran_s": samples[-1]["s"],
        "merges_reached": [max(r["merges"][k] for r in samples) for k in range(len(frames))],
        **{k: samples[-1][k] for k in ("ended", "error") if k in samples[-1]},
        "timer_late_ms": {"p50": _pct(late, 0.5), "p95": _pct(late, 0.95), "max": _pct(late, 1.0), "n": len(late)},
        "p95_vs_100ms_target": round((_pct(late, 0.95) or 0) / 100, 2),
        "long_task_share": round(probe["long"], 2),
        "dom_read_ms": {"p50": _pct(reads, 0.5), "p95": _pct(reads, 0.95), "max": _pct(reads, 1.0)},
        "stop_ms": stops,
        "merges_per_s": curve,
    }


def bench_train_long(
    mb: float, vocab: int, until: int, max_s: float, modes: list[str], directory: pathlib.Path = DIST
) -> list[dict]:
    """Issue 19: train ``mb`` MB of KJV with no pre-tokenizer to ``vocab`` in the full page ("page")
    and in two Train embeds on one same-site course page ("course"); timer lateness in the host page
    (p50/p95/max), the share of time in main-thread tasks over 50 ms, merges/s over time, DOM read
    latency (driver -> page -> driver), Stop latency (click -> "Stopped after" in the page).
    ``until``/``max_s``: Stop after that many merges in each run, or that many seconds."""
    from tools.corpora import load_kjv

    text = load_kjv().encode("utf-8")[: int(mb * MB)].decode("utf-8", errors="ignore")
    rows = []
    with served(directory) as url, chromium() as browser:
        for mode in modes:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(600_000)
            page = context.new_page()
            if mode == "page":
                page.goto(url + "#train")
                rows.append(_train_long_once(page, [page], text, vocab, until, max_s, "page"))
            else:
                course = url + "bench-course.html"
                page.route(
                    course,
                    lambda route: route.fulfill(content_type="text/html", body=_COURSE.format(url=url)),
                )
                page.goto(course)
                handles = [page.locator(f"#w{k}").element_handle().content_frame() for k in (1, 2)]
                rows.append(_train_long_once(page, handles, text, vocab, until, max_s, "course"))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
            context.close()
    return rows


#: Network and CPU profiles of ``network`` (Chrome DevTools Protocol: Network.emulateNetworkConditions,
#: Emulation.setCPUThrottlingRate). ``phone``: issue 20's "slow 4G" (1.6 Mbit/s down, 750 kbit/s up,
#: 150 ms round trip) and the CPU slowed 4x, on a 390x844 touch screen; ``desktop``: no throttling.
NETWORK_PROFILES = {
    "phone": {
        "network": {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8},
        "cpu": 4,
        "context": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    },
    "desktop": {"network": None, "cpu": 1, "context": {"viewport": {"width": 1280, "height": 800}}},
}

#: Page-side clocks (an init script): ms from navigation start to the first time
#: ``<body data-pyodide="ready">`` and ``#view-tokenize[data-encoded]`` (Tokenize's first exact count) were seen,
#: and ``ui``: the Tokenize view shown in the language the URL asks for (``?lang=``; else any), worded
#: (``<html lang>`` set, no ``data-i18n-pending``) and visible: what a reader first sees of the link.
_CLOCKS = """
window.__bench = {};
new MutationObserver(() => {
  const b = window.__bench;
  const root = document.documentElement;
  const lang = new URLSearchParams(location.search).get("lang");
  const view = document.querySelector("#view-tokenize");
  if (!b.ui && view && (!lang || root.lang === lang) && !root.hasAttribute("data-i18n-pending")
      && view.checkVisibility({ visibilityProperty: true }) && document.querySelector("footer")) b.ui = performance.now();
  if (!b.ready && document.body?.dataset.pyodide === "ready") b.ready = performance.now();
  if (!b.count && view?.dataset.encoded) b.count = performance.now();
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


def _visit(page, server, navigate) -> dict:
    """Navigate (``navigate()``), wait for Tokenize's first count; the page's clocks and the bytes sent."""
    before = sum(server.body_bytes.values())
    requests = sum(server.hits.values())
    started = len(server.sent)
    navigate()
    page.wait_for_function("() => window.__bench && window.__bench.count", timeout=READY_TIMEOUT_MS, polling=250)
    got = page.evaluate(
        """() => {
        const nav = performance.getEntriesByType("navigation")[0];
        return { dom_content_loaded: nav ? nav.domContentLoadedEventEnd : null, origin: performance.timeOrigin,
                 ...window.__bench };
    }"""
    )
    # the bodies of the requests the server answered before the page showed its count (the service
    # worker's precache starts right after it)
    count_epoch = (got["origin"] + got["count"]) / 1000
    at_count = sum(n for t, n in server.sent[started:] if t <= count_epoch)
    page.wait_for_timeout(2000)  # what else the page fetches once counted
    return {
        "dcl_ms": round(got["dom_content_loaded"] or 0),
        "ui_ms": round(got["ui"]) if got.get("ui") else None,
        "ready_ms": round(got["ready"]),
        "count_ms": round(got["count"]),
        "mb_at_count": round(at_count / MB, 2),
        "mb_total": round((sum(server.body_bytes.values()) - before) / MB, 2),
        "requests": sum(server.hits.values()) - requests,
    }


def _network_once(browser, server, url: str, profile: str, lang: str | None = None) -> dict:
    """One first visit and one second visit (reload, same browser profile) to ``url#tokenize``
    (``url?lang=<lang>#tokenize`` with ``lang``)."""
    import tempfile

    spec = NETWORK_PROFILES[profile]
    with tempfile.TemporaryDirectory(prefix="bytepair-bench-profile-") as tmp:
        context = browser.browser_type.launch_persistent_context(
            tmp, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True, **spec["context"]
        )
        try:
            context.add_init_script(_CLOCKS)
            page = context.pages[0] if context.pages else context.new_page()
            cdp = context.new_cdp_session(page)
            if spec["network"]:
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", spec["network"])
            if spec["cpu"] > 1:
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": spec["cpu"]})
            link = url + (f"?lang={lang}" if lang else "") + "#tokenize"
            first = _visit(page, server, lambda: page.goto(link, wait_until="commit"))
            second = _visit(page, server, lambda: page.reload(wait_until="commit"))
        finally:
            context.close()
    return {"first": first, "second": second}


def bench_network(
    dirs: list[pathlib.Path], runs: int, profiles: list[str], isolate: bool = True, lang: str | None = None
) -> list[dict]:
    """Issue 20's figures as users meet them: per profile (:data:`NETWORK_PROFILES`) and built site,
    a first visit to ``#tokenize`` (a new browser profile) and a second (reload): MB of response
    bodies sent by the server (``tools/serve.py`` counts them: compressed copies where the browser
    accepts them) before Tokenize's first exact count and in all, requests, and ms from navigation to
    DOMContentLoaded, the view shown worded (``ui``; in ``lang`` when given: ``?lang=``), Ready and
    the first count. Medians of ``runs``, runs interleaved between sites.
    The network throttling applies to the page and its workers; the CPU throttling to the page's
    renderer. Figures on a shared machine vary: compare sites measured side by side."""
    results: dict[tuple[str, pathlib.Path], list[dict]] = {(p, d): [] for p in profiles for d in dirs}
    with contextlib.ExitStack() as stack:
        servers = {}
        for d in dirs:
            server = make_server("127.0.0.1", 0, directory=d, quiet=True, isolate=isolate)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            stack.callback(server.server_close)
            stack.callback(server.shutdown)
            servers[d] = server
        browser = stack.enter_context(chromium())
        for _ in range(runs):
            for profile in profiles:
                for d in dirs:
                    results[(profile, d)].append(
                        _network_once(browser, servers[d], server_url(servers[d]), profile, lang)
                    )
    rows = []
    for (profile, d), runs_ in results.items():
        link = f"?lang={lang}#tokenize" if lang else "#tokenize"
        row = {"what": f"first and second visit to {link}, {profile} profile", "site": str(d)}
        row.update({"isolate": isolate, "runs": len(runs_)})
        for visit in ("first", "second"):
            for key in runs_[0][visit]:
                values = [r[visit][key] for r in runs_]
                row[f"{visit}_{key}"] = statistics.median(values)
            row[f"{visit}_count_ms_runs"] = [r[visit]["count_ms"] for r in runs_]
        rows.append(row)
    return rows


#: npm ``lighthouse`` (not a dependency: install it for the bench with
#: ``npm i --no-save -E lighthouse@12.2.3``; 13 needs Node 22).
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"


def bench_lighthouse(dist: pathlib.Path = DIST, runs: int = 3, lighthouse: pathlib.Path = LIGHTHOUSE) -> list[dict]:
    """Lighthouse's mobile performance score (0-100; its default emulation: a mid-range phone on
    slow 4G, simulated throttling) and its metrics (ms) for ``dist/#tokenize`` served with the
    COOP/COEP headers, run with the Debian Chromium; medians of ``runs``. A row saying why when
    ``lighthouse`` is not installed (``npm i --no-save -E lighthouse@12.2.3``)."""
    import tempfile

    what = "Lighthouse mobile performance, #tokenize"
    if not lighthouse.exists():
        return [{"what": what, "skipped": f"{lighthouse} is missing (npm i --no-save -E lighthouse@12.2.3)"}]
    keys = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index", "interactive")
    scores, metrics = [], {k: [] for k in keys}
    with served(dist) as url, tempfile.TemporaryDirectory(prefix="bytepair-lighthouse-") as tmp:
        for i in range(runs):
            report = pathlib.Path(tmp) / f"report{i}.json"
            cmd = [
                str(lighthouse),
                url + "#tokenize",
                "--only-categories=performance",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                f"--chrome-flags=--headless=new {' '.join(CHROMIUM_ARGS)}",
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": str(CHROMIUM)})
            if proc.returncode != 0 or not report.is_file():
                return [{"what": what, "error": (proc.stderr or proc.stdout)[-2000:]}]
            got = json.loads(report.read_text(encoding="utf-8"))
            scores.append(round(100 * (got["categories"]["performance"]["score"] or 0)))
            for k in keys:
                metrics[k].append(round(got["audits"][k].get("numericValue") or 0))
    return [
        {
            "what": what,
            "runs": runs,
            "score": statistics.median(scores),
            "score_runs": scores,
            **{f"{k}_ms": statistics.median(v) for k, v in metrics.items()},
        }
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p_boot = sub.add_parser("boot", help="navigation -> Ready, cold and warm cache")
    p_boot.add_argument("--runs", type=int, default=7)
    p_boot.add_argument("dirs", nargs="*", type=pathlib.Path, help="built site directories (default web/dist)")
    p_boot.add_argument(
        "--vs-fresh", action="store_true", help="web/dist next to a copy without its memory snapshot, with ratios"
    )
    sub.add_parser("figures", help="encode and train 1 MB of KJV in the page")
    p_peers = sub.add_parser("peers", help="bytepair vs js-tiktoken / gpt-tokenizer in one page")
    p_peers.add_argument("dist", nargs="?", type=pathlib.Path, default=DIST, help="built site (default web/dist)")
    p_models = sub.add_parser("models", help="choosing an open model -> first count, cold and cached")
    p_models.add_argument("--runs", type=int, default=1)
    p_models.add_argument("names", nargs="*", help="o200k_base / bytepair.app.models names (default: all)")
    p_models.add_argument(
        "--dirs",
        nargs="*",
        type=pathlib.Path,
        default=None,
        help="built sites side by side (default web/dist); after the names: --dirs takes every word after it",
    )
    p_models.add_argument(
        "--settle-ms", type=int, default=0, help="wait after the first count before choosing (a person's moment)"
    )
    p_stop = sub.add_parser("stop", help="Stop latency on a large run, cross-origin isolated vs not")
    p_stop.add_argument("--mb", type=float, default=3.0, help="MB of KJV to train on (default 3)")
    p_stop.add_argument("--at", default="20,200,2000", help="merges shown when Stop is clicked (comma-separated)")
    p_stop.add_argument("--runs", type=int, default=1, help="Stops at each point (medians are printed)")
    p_stop.add_argument("--dir", type=pathlib.Path, default=DIST, help="built site (default web/dist)")
    p_stop.add_argument("--vocab", type=int, default=100000, help="vocab size to train to (default 100000)")
    p_stop.add_argument("--cpu", type=float, default=1.0, help="Chromium's CPU slowed this many times (CDP)")
    p_stop.add_argument("--text", choices=["kjv", "udhr"], default="kjv", help="the training text (default kjv)")
    p_long = sub.add_parser("train-long", help="issue 19: timers, merges/s, Stop on 1.5 MB, no pre-tokenizer")
    p_long.add_argument("--mb", type=float, default=1.5, help="MB of KJV to train on (default 1.5)")
    p_long.add_argument("--vocab", type=int, default=60000)
    p_long.add_argument("--until", type=int, default=60000 - 256, help="Stop once each run shows this many merges")
    p_long.add_argument("--max-s", type=float, default=600, help="... or after this many seconds")
    p_long.add_argument("--modes", default="page,course", help="comma-separated: page, course (two embeds)")
    p_long.add_argument("--dir", type=pathlib.Path, default=DIST, help="built site (default web/dist)")
    p_net = sub.add_parser("network", help="bytes on the wire, Ready and first count: slow phone and desktop")
    p_net.add_argument("--runs", type=int, default=3)
    p_net.add_argument("--profiles", default="phone,desktop", help="comma-separated: phone, desktop")
    p_net.add_argument("--no-isolate", action="store_true", help="serve without COOP/COEP (as GitHub Pages)")
    p_net.add_argument("--lang", default=None, help="open ?lang=<code>#tokenize (e.g. ur): the ui clock waits for it")
    p_net.add_argument("dirs", nargs="*", type=pathlib.Path, help="built site directories (default web/dist)")
    p_lh = sub.add_parser("lighthouse", help="Lighthouse's mobile performance score of #tokenize")
    p_lh.add_argument("--runs", type=int, default=3)
    p_lh.add_argument("dist", nargs="?", type=pathlib.Path, default=DIST, help="built site (default web/dist)")
    args = ap.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"bench_browser: {CHROMIUM} is missing (sudo apt-get install chromium)", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    if args.what == "boot":
        rows = bench_boot_vs_fresh(DIST, args.runs) if args.vs_fresh else bench_boot(args.dirs or [DIST], args.runs)
    elif args.what == "network":
        rows = bench_network(
            args.dirs or [DIST], args.runs, args.profiles.split(","), isolate=not args.no_isolate, lang=args.lang
        )
    elif args.what == "lighthouse":
        rows = bench_lighthouse(args.dist, args.runs)
    elif args.what == "models":
        rows = bench_models(args.names, args.runs, args.dirs, args.settle_ms)
    elif args.what == "stop":
        rows = bench_stop(
            args.mb,
            [int(x) for x in args.at.split(",")],
            args.runs,
            args.dir,
            vocab=args.vocab,
            cpu=args.cpu,
            corpus=args.text,
        )
    elif args.what == "train-long":
        rows = bench_train_long(args.mb, args.vocab, args.until, args.max_s, args.modes.split(","), args.dir)
    elif args.what == "peers":
        rows = bench_peers(args.dist)
    else:
        rows = bench_figures()
    for r in rows:
        print(json.dumps(r, ensure_ascii=False))
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
