"""Click -> board redrawn, in Chromium at 1366x768 (issue 19, "Speed"): before and after, in one run.

    python benchmarks/bench_board_latency.py --before /tmp/wt-start   # a checkout of the commit to compare
    python benchmarks/bench_board_latency.py --repeat 20              # this checkout alone
    python benchmarks/bench_board_latency.py --after /tmp/wt-new --before /tmp/wt-old

Prints figures, asserts nothing.  For each checkout a private JupyterLab
(127.0.0.1, a random token, the checkout first on the kernel's
``PYTHONPATH``) runs a one-cell notebook, ``ttr_lab.play("usa",
players=["You", "bot"], seed=7)``, in a headless Chromium page of 1366x768
(Debian's ``/usr/bin/chromium`` or ``$CHROMIUM``; Playwright never downloads
a browser).  After *Keep*, three actions are timed, each from the mouse
click to what the person waits for, read from the page with the board's
traces found by name (``tests/e2e/plotly_dom.py``):

* **claim**: a click on a route payable in one way (hovered first, as plotly
  fires a click only after a hover) until the route's marker is drawn in
  the owner's colour: the kernel plays the move, the bot replies, the board
  and the panels are redrawn; then *Undo* (untimed) frees it again;
* **card**: a click on a face-up card until the status asks for the second
  card; then *Undo*;
* **paths**: a click on *ticket paths* until the board's legend shows the
  paths (on) or no longer does (off); both directions are samples.

The two checkouts' pages are measured turn about, one sample each, so a
change in the machine's load touches both alike; the page measured is
brought to the front first (Chromium runs a background page's animation
frames about once a second, which would time the throttle, not the board).  The load average and the
number of CPUs are printed with the figures (the target, a median under
300 ms for a claim, is for a quiet machine).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ttr_lab  # noqa: E402
from tests.e2e.plotly_dom import hover, hover_label, point_position, settle  # noqa: E402
from ttr_lab.board import PLAYER_COLORS, route_trace_index  # noqa: E402
from ttr_lab.engine.moves import ClaimRoute, KeepTickets  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
VIEWPORT = {"width": 1366, "height": 768}
CELL = 'import ttr_lab\nttr_lab.play("usa", players=["You", "bot"], seed=7)'
SEED = 7

#: the fill drawn for point ``i`` of the board's routes trace (found by uid, else by its bound name)
_FILL_JS = """([i]) => {
  const gd = document.querySelector('.ttr-play .js-plotly-plot');
  if (!gd) return null;
  const g = gd.querySelector('.trace.traceroutes') || [...gd.querySelectorAll('.trace')].find(
    g => g.__data__ && g.__data__[0] && g.__data__[0].trace && g.__data__[0].trace.name === 'routes');
  const p = g && [...g.querySelectorAll('path.point')].find(p => p.__data__ && p.__data__.i === i);
  return p ? p.style.fill : null;
}"""


def rgb(hex_color: str) -> str:
    h = hex_color.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[j : j + 2], 16) for j in (0, 2, 4)))


def the_route() -> tuple[int, int, str, int]:
    """The route to claim after Keep in the seeded game: payable in one way, at its point
    farthest from other routes' points; ``(route id, point, hover label, face-up slot)``."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    g = w.game
    w.play_move(KeepTickets(tuple(sorted(t.id for t in g.pending_tickets))))
    claims = [m.route for m in g.legal_moves if isinstance(m, ClaimRoute)]
    single = sorted(r for r in set(claims) if claims.count(r) == 1)
    tr = w.fig.data[route_trace_index(w.fig)]
    pts = list(zip(tr.customdata, tr.x, tr.y))

    def clearance(i: int) -> float:
        rid, x, y = pts[i]
        return min((x - x2) ** 2 + (y - y2) ** 2 for r2, x2, y2 in pts if r2 != rid)

    best = max((i for i, p in enumerate(pts) if p[0] in single), key=clearance)
    slot = next(i for i, c in enumerate(g.row, 1) if c != "loco")
    return int(pts[best][0]), best, str(tr.hovertext[best]), slot


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def jupyter(code: Path, tmp: Path) -> Iterator[tuple[str, str]]:
    """A JupyterLab on 127.0.0.1 whose kernels import ttr_lab from ``code``; yields (base URL, token)."""
    root = tmp / "root"
    root.mkdir(parents=True)
    nb = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [], "source": CELL}
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "latency.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    settings = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        PYTHONPATH=str(code),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        PYTHONHASHSEED="0",
    )
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={tmp / 'settings'}",
            f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"jupyter lab exited with {proc.returncode}; see {tmp / 'server.log'}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"jupyter lab did not answer within 90 s; see {tmp / 'server.log'}") from None
                time.sleep(0.3)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


class Board:
    """One checkout's play widget in its own page, and the actions timed on it."""

    def __init__(self, name: str, page: Any, base: str, token: str, route: tuple[int, int, str, int]) -> None:
        self.name, self.page = name, page
        self.rid, self.point, self.label, self.slot = route
        page.goto(f"{base}/lab/tree/latency.ipynb?reset&token={token}")
        page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=120_000)
        page.get_by_text("Python 3 (ipykernel) | Idle").first.wait_for(timeout=120_000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator('li[data-command="runmenu:run-all"]').click()
        self.play = page.locator(".ttr-play").first
        self.status = self.play.locator(".ttr-status")
        self.wait_text(self.status, "choose the tickets to keep", 180)
        self.play.locator(".ttr-keep").click()
        self.wait_text(self.status, "your turn", 60)
        self.status.scroll_into_view_if_needed()
        settle(page, self.play)

    def wait_text(self, locator: Any, text: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while text not in (locator.inner_text() if locator.count() else ""):
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.name}: {text!r} did not appear within {seconds:.0f} s")
            self.page.wait_for_timeout(50)

    def wait_js(self, js: str, arg: Any, want: Any, seconds: float = 30) -> None:
        self.page.wait_for_function(
            f"a => ({js})(a) === {json.dumps(want)}", arg=arg, polling="raf", timeout=seconds * 1000
        )

    def undo(self) -> None:
        self.play.locator(".ttr-undo").click()
        self.wait_text(self.status, "Undone", 30)
        settle(self.page, self.play)

    def claim(self) -> float:
        page = self.page
        page.mouse.move(5, 5)
        for _ in range(20):
            at = point_position(self.play, "routes", self.point)
            if at is not None:
                hover(page, *at)
                if hover_label(self.play) == self.label:
                    break
            page.mouse.move(5, 5)
            page.wait_for_timeout(200)
        else:
            raise SystemExit(f"{self.name}: the route's hover label never showed")
        t0 = time.perf_counter()
        page.mouse.click(*at)
        self.wait_js(_FILL_JS, [self.point], rgb(PLAYER_COLORS[0]))
        dt = time.perf_counter() - t0
        page.mouse.move(5, 5)
        self.undo()
        self.wait_js(_FILL_JS, [self.point], rgb("#ffffff"))
        return dt

    def card(self) -> float:
        t0 = time.perf_counter()
        self.play.locator(f".ttr-faceup-{self.slot}").click()
        self.wait_text(self.status, "take a second card", 30)
        dt = time.perf_counter() - t0
        self.undo()
        return dt

    def paths(self) -> list[float]:
        box = self.play.locator(".ttr-paths input")
        legend = self.play.locator(".js-plotly-plot .legendtext", has_text="more cars")
        out = []
        for shown in (True, False):
            t0 = time.perf_counter()
            box.click()
            deadline = time.monotonic() + 30
            while (legend.count() > 0) != shown:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{self.name}: the ticket paths were not drawn/removed within 30 s")
                self.page.wait_for_timeout(10)
            out.append(time.perf_counter() - t0)
            settle(self.page, self.play)
        return out


def summary(xs: list[float]) -> str:
    ms = sorted(1000 * x for x in xs)
    p90 = statistics.quantiles(ms, n=10)[8] if len(ms) >= 2 else ms[0]
    return f"median {statistics.median(ms):6.0f} ms, p90 {p90:6.0f} ms (n={len(ms)})"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, help="a checkout to compare with (e.g. a git worktree of an older commit)")
    ap.add_argument("--after", type=Path, default=ROOT, help="the checkout measured as 'after' (default: this one)")
    ap.add_argument("--repeat", type=int, default=20, help="samples of each action per checkout (default 20)")
    args = ap.parse_args(argv)
    if not 1 <= args.repeat <= 500:
        raise SystemExit("--repeat must be between 1 and 500")
    for opt, where in (("--after", args.after), ("--before", args.before)):
        if where is not None and not (where / "ttr_lab" / "__init__.py").is_file():
            raise SystemExit(f"{opt} {where}: no ttr_lab package there")
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    route = the_route()
    checkouts = [("after", args.after.resolve())] + ([("before", args.before.resolve())] if args.before else [])
    load0 = os.getloadavg()
    times: dict[str, dict[str, list[float]]] = {name: {"claim": [], "card": [], "paths": []} for name, _ in checkouts}
    with sync_playwright() as pw, ExitStack() as stack:  # the pages and servers close before Playwright stops
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ttr-latency-")))
        profile = tmp / "chromium"
        ctx = pw.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROME_ARGS, viewport=VIEWPORT
        )
        stack.callback(ctx.close)
        boards = []
        for name, code in checkouts:
            base, token = stack.enter_context(jupyter(code, tmp / name))
            boards.append(Board(name, ctx.new_page(), base, token, route))
        for action in ("claim", "card", "paths"):
            for _ in range(args.repeat):
                for b in boards:  # turn about
                    b.page.bring_to_front()  # a page in the background is throttled (rAF runs about once a second)
                    b.page.wait_for_timeout(300)
                    got = getattr(b, action)()
                    times[b.name][action] += got if isinstance(got, list) else [got]
            print(f"{action}: done", file=sys.stderr, flush=True)
        shutil.rmtree(profile, ignore_errors=True)
    load1 = os.getloadavg()
    print(f"click -> board redrawn, Chromium {VIEWPORT['width']}x{VIEWPORT['height']}, USA, You vs bot (seed {SEED})")
    print(f"{os.cpu_count()} CPUs; load average {load0[0]:.1f} at the start, {load1[0]:.1f} at the end")
    for name, _ in checkouts:
        for action, label in (("claim", "route claim"), ("card", "face-up card"), ("paths", "ticket paths")):
            print(f"  {name:6s} {label:13s} {summary(times[name][action])}")


if __name__ == "__main__":
    main()
