"""The kit in the browser (JupyterLite, issue 22): how fast, how big.  Figures, not tests.

    .venv/bin/python benchmarks/bench_lite.py [--games 5]

Serves ``build/lite`` (``make lite`` first) on 127.0.0.1 with tools/serve_lite.py, opens it
in headless Chromium (``/usr/bin/chromium`` or ``$CHROMIUM``, through Playwright) and prints:

- page open -> kernel ready (notebook 01 opened, the Pyodide kernel idle);
- ``import ttr_lab`` in Pyodide: the cell's wall time (the kernel loads the wheels the import
  needs first) and the import alone, timed in Python;
- random and greedy 2-player USA games (the same seeds in both) in Pyodide and in this CPython,
  in the same run, and their ratio; the games' scores are compared (they must be equal);
- the site's size, and its largest parts;
- CPython's ``python -X importtime -c "import ttr_lab"`` (the cumulative time of ttr_lab).

Targets (issue 22): import under 4 s in Pyodide, a random game under 3x CPython, a site under 60 MB.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "build" / "lite"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

GAMES = """
import time, ttr_lab
from ttr_lab.bots import make_bot, play_game
def games(kind, n):
    out, t0 = [], time.perf_counter()
    for seed in range(n):
        g = play_game("usa", [make_bot(kind, seed), make_bot(kind, seed + 100)], seed=seed)
        out.append([g.score(p) for p in range(g.num_players)])
    return time.perf_counter() - t0, out
"""

_EXEC_JS = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let out = '';
  const t0 = performance.now();
  const f = k.requestExecute({code, store_history: false});
  f.onIOPub = m => {
    if (m.header.msg_type === 'stream') out += m.content.text;
    if (m.header.msg_type === 'error') out += 'ERROR ' + m.content.ename + ': ' + m.content.evalue;
  };
  await f.done;
  return {out, ms: performance.now() - t0};
}"""
_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const s = w && w.sessionContext;
  return !!(s && s.session && s.session.kernel && s.session.kernel.status === 'idle');
}"""


def site_size(site: Path) -> tuple[int, dict[str, int]]:
    parts: dict[str, int] = {}
    total = 0
    for f in site.rglob("*"):
        if f.is_file():
            n = f.stat().st_size
            total += n
            rel = f.relative_to(site).parts
            if f.suffix == ".whl":
                key = "static/pyodide/*.whl (Python packages)"
            elif rel[0] in ("static", "extensions") and len(rel) > 2:
                key = "/".join(rel[:2])
            else:
                key = rel[0] if len(rel) > 1 else "(top-level files)"
            parts[key] = parts.get(key, 0) + n
    return total, parts


def cpython_importtime() -> float:
    """The cumulative microseconds of ``ttr_lab`` in ``python -X importtime``, in seconds."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import ttr_lab"], capture_output=True, text=True, check=True
    )
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|\s*ttr_lab$", line)
        if m:
            return int(m.group(1)) / 1e6
    raise SystemExit("ttr_lab not found in -X importtime's output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games of each kind (1-100)")
    args = parser.parse_args()
    if not 1 <= args.games <= 100:
        raise SystemExit("--games: 1 to 100")
    if not (SITE / "jupyter-lite.json").is_file():
        raise SystemExit(f"no site in {SITE}: make lite first")
    from playwright.sync_api import sync_playwright

    spec = importlib.util.spec_from_file_location("serve_lite", ROOT / "tools" / "serve_lite.py")
    assert spec is not None and spec.loader is not None
    serve_lite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve_lite)
    server = serve_lite.make_server(SITE, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    total, parts = site_size(SITE)
    print(f"site: {total / 1e6:.1f} MB (target < 60 MB)")
    for key, n in sorted(parts.items(), key=lambda kv: -kv[1])[:6]:
        print(f"  {key:40s} {n / 1e6:6.1f} MB")
    print(f"CPython -X importtime, ttr_lab cumulative: {cpython_importtime():.3f} s")

    def expose(route):  # window.jupyterapp, for this run only
        response = route.fetch()
        config = response.json()
        config.setdefault("jupyter-config-data", {})["exposeAppInBrowser"] = True
        route.fulfill(response=response, body=json.dumps(config))

    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="chromium-") as profile:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            ctx.route("**/jupyter-lite.json", expose)
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(f"{base}/lab/index.html?path=01-learn-the-rules.ipynb")
            page.wait_for_function(_READY_JS, timeout=300_000, polling=100)
            print(f"page open -> kernel ready: {time.perf_counter() - t0:.1f} s")
            r = page.evaluate(
                _EXEC_JS, "import time; _t = time.perf_counter(); import ttr_lab; print(time.perf_counter() - _t)"
            )
            if "ERROR" in r["out"]:
                raise SystemExit(r["out"])
            print(f"import ttr_lab in Pyodide: {r['ms'] / 1000:.2f} s the cell, {float(r['out']):.2f} s the import")
            r = page.evaluate(_EXEC_JS, GAMES + "import ttr_lab.bots.fdg, ttr_lab.bots.playout")
            if "ERROR" in r["out"]:
                raise SystemExit(r["out"])
            exec(GAMES, here := {})
            for kind in ("random", "greedy"):
                code = f"import json; _s, _o = games({kind!r}, {args.games}); print(json.dumps([_s, _o]))"
                r = page.evaluate(_EXEC_JS, code)
                if "ERROR" in r["out"]:
                    raise SystemExit(r["out"])
                wasm, wasm_scores = json.loads(r["out"])
                native, native_scores = here["games"](kind, args.games)
                same = "same scores" if wasm_scores == native_scores else "SCORES DIFFER"
                print(
                    f"{kind:6s} USA 2-player games ({args.games}): Pyodide {wasm / args.games * 1000:6.0f} ms/game, "
                    f"CPython {native / args.games * 1000:6.0f} ms/game, ratio {wasm / native:.1f}x ({same})"
                )
            ctx.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
