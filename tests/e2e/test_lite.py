"""The kit in the browser, offline (issue 22): the JupyterLite site ``make lite`` builds.

The site (``build/lite``, rebuilt by :func:`lite_site` when missing or older than
the library, the lessons or the build's configuration) is served on 127.0.0.1
by ``tools/serve_lite.py`` in a thread, and opened in the shared headless
Chromium.  For every lesson that runs in a browser (01-05, 08, 09) and every
student copy, the test opens the notebook in JupyterLite's JupyterLab, waits
for the Pyodide kernel, clicks Run > Run All Cells and checks, in the notebook's
own model, that every code cell ran and none has an error output (a traceback)
or writes to stderr.  In lesson 02 it then plays the first turns of the play
widget by clicking: Keep, a face-up card and the deck, then a claim on the map.
Then, in lesson 08, the tutorial, the scorer and the recorder are used by clicking: a route
clicked on the scorer's board for a selected player, a move typed into the recorder, and a cell
typed below the lesson that opens the tutorial, whose guide moves on after Keep.
No request may leave 127.0.0.1: every request of the browser (pages, workers)
is recorded and anything else is refused.

Lessons 06 and 07 need pandas, which Pyodide 314's npm package does not ship
and PyPI has no build of for it: the site opens them with a note saying so
(tools/build_lite.py) and they are not run here.

Each notebook's time goes to ``test-artifacts/lite-timing.txt``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

import ttr_lab  # noqa: E402
from ttr_lab.board import board_figure  # noqa: E402
from ttr_lab.tabletop import load_sheet  # noqa: E402

from . import plotly_dom  # noqa: E402
from .plotly_dom import trace_locator  # noqa: E402
from .test_play_browser import click_plotly_point, expected_game, line_point  # noqa: E402
from .test_scorer_browser import clearest_points, click_route  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "lite"
TIMING = ROOT / "test-artifacts" / "lite-timing.txt"
#: what the site is built from: a newer file here makes the fixture rebuild it
SOURCES = ("ttr_lab", "notebooks", "maps", "lite", "tools/build_lite.py", "pyproject.toml")
LESSONS = [
    "01-learn-the-rules.ipynb",
    "02-play.ipynb",
    "03-graph-theory.ipynb",
    "04-analyse-a-saved-game.ipynb",
    "05-editions.ipynb",
    "08-real-games.ipynb",
    "09-probability.ipynb",
]
STUDENT = sorted(f"student/{p.name}" for p in (ROOT / "notebooks" / "student").glob("*.ipynb"))
KERNEL_TIMEOUT = 180_000  # ms: Pyodide starting in a worker on a loaded 2-core machine
RUN_TIMEOUT = 600  # s: a whole notebook

# --- the page's side: read the open notebook through the app (exposed below, for the test only)
_KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const s = w && w.sessionContext;
  return !!(s && s.session && s.session.kernel && s.session.kernel.status === 'idle'
            && w.content && w.content.model && w.content.model.cells.length > 0);
}"""
_CELLS_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const cells = w.content.model.cells, out = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    out.push({index: i, count: c.executionCount, source: c.sharedModel.getSource().slice(0, 80),
              raises: (c.getMetadata('tags') || []).includes('raises-exception'), outputs: c.outputs.toJSON()});
  }
  return {path: w.context.path, status: w.sessionContext.session.kernel.status, cells: out};
}"""


def _newest(paths: tuple[str, ...]) -> float:
    newest = 0.0
    for name in paths:
        p = ROOT / name
        files = [p] if p.is_file() else [f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts]
        newest = max([newest, *(f.stat().st_mtime for f in files)])
    return newest


@pytest.fixture(scope="module")
def lite_site() -> Path:
    """``build/lite``, built by ``tools/build_lite.py`` when missing or older than what it is made of
    (``make test`` builds it first: ``make lite``, from the cache, no network)."""
    stamp = SITE / "jupyter-lite.json"
    if not stamp.is_file() or stamp.stat().st_mtime < _newest(SOURCES):
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "build_lite.py")], cwd=ROOT)
        if done.returncode:
            pytest.fail(f"make lite failed ({done.returncode})")
    return SITE


@pytest.fixture(scope="module")
def lite_server(lite_site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 (a free port) by tools/serve_lite.py, in a thread; stopped after."""
    spec = importlib.util.spec_from_file_location("serve_lite", ROOT / "tools" / "serve_lite.py")
    assert spec is not None and spec.loader is not None
    serve_lite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve_lite)
    server = serve_lite.make_server(lite_site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="lite-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def lite(chromium_context: Any, lite_server: str) -> Iterator[dict[str, Any]]:
    """The browser pointed at the site: every request recorded, any to another host refused,
    and ``window.jupyterapp`` exposed (the test reads the notebook's model through it)."""
    requests: list[str] = []
    outside: list[str] = []

    def on_request(request: Any) -> None:
        requests.append(request.url)

    def route(r: Any) -> None:
        url = r.request.url
        host = urlsplit(url).hostname
        if url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            if url.split("?")[0].endswith("/jupyter-lite.json"):
                response = r.fetch()
                config = response.json()
                config.setdefault("jupyter-config-data", {})["exposeAppInBrowser"] = True
                r.fulfill(response=response, body=json.dumps(config))
            else:
                r.continue_()
        else:
            outside.append(url)
            r.abort()

    chromium_context.on("request", on_request)
    chromium_context.route("**/*", route)
    try:
        yield {"base": lite_server, "requests": requests, "outside": outside, "context": chromium_context}
    finally:
        chromium_context.unroute("**/*", route)
        chromium_context.remove_listener("request", on_request)


def _timing(line: str) -> None:
    TIMING.parent.mkdir(exist_ok=True)
    with open(TIMING, "a", encoding="utf-8") as f:
        f.write(line + "\n")
    print(line)


_FORGET_JS = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const db of await indexedDB.databases()) {
    await new Promise(done => { const r = indexedDB.deleteDatabase(db.name); r.onsuccess = r.onerror = r.onblocked = done; });
  }
}"""


def open_notebook(lite: dict[str, Any], name: str) -> Any:
    """A new page with notebook ``name`` open in the site and its kernel ready.  The site's
    browser storage is emptied first: JupyterLite would otherwise reopen the notebooks an
    earlier test opened (its saved workspace), each with its own kernel, and serve the
    copies an earlier run saved instead of the lessons as built."""
    page = lite["context"].new_page()
    page.goto(f"{lite['base']}/jupyter-lite.json")
    page.evaluate(_FORGET_JS)
    page.goto(f"{lite['base']}/lab/index.html?path={name}")
    page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=120_000)
    page.wait_for_function(_KERNEL_READY_JS, timeout=KERNEL_TIMEOUT, polling=500)
    return page


def run_all(page: Any, name: str) -> dict[str, Any]:
    """Click Run > Run All Cells and wait until every code cell ran, or the kernel stays idle
    with cells left; the cells.  JupyterLab's Run All stops at a cell that raises, even one
    tagged ``raises-exception`` (a lesson's deliberate error): as a student would, the test
    then runs on from the next cell (Run > Run Selected Cell and All Below)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator('li[data-command="runmenu:run-all"]').click()
    deadline = time.monotonic() + RUN_TIMEOUT
    idle_polls, progress = 0, -1
    while True:
        page.wait_for_timeout(1000)
        nb = page.evaluate(_CELLS_JS)
        cells = nb["cells"]
        if all(c["count"] is not None for c in cells) and nb["status"] == "idle":
            return nb
        counted = sum(c["count"] is not None for c in cells)
        idle_polls = idle_polls + 1 if nb["status"] == "idle" and counted == progress else 0
        progress = counted
        if idle_polls >= 5:  # Run All has stopped
            ran = [k for k, c in enumerate(cells) if c["count"] is not None]
            last = cells[ran[-1]] if ran else None
            rest = [c for c in cells[ran[-1] + 1 :]] if ran else []
            if last is None or not last["raises"] or not rest or idle_polls > 30:
                return nb
            if idle_polls == 5:
                page.locator(".jp-Notebook .jp-Cell").nth(rest[0]["index"]).locator(".jp-InputPrompt").click()
                page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
                page.locator('li[data-command="notebook:run-all-below"]').click()
        if time.monotonic() > deadline:
            pytest.fail(f"{name}: Run All did not finish within {RUN_TIMEOUT} s")


def problems(nb: dict[str, Any]) -> list[str]:
    """Every code cell that did not run, has an error output or wrote to stderr (a cell tagged
    ``raises-exception``, which shows an error on purpose, must have its error)."""
    found = []
    for c in nb["cells"]:
        where = f"cell {c['index']} ({c['source']!r})"
        if c["count"] is None:
            found.append(f"{where} did not run")
        if c["raises"] and not any(o.get("output_type") == "error" for o in c["outputs"]):
            found.append(f"{where} is tagged raises-exception but raised nothing")
        for o in c["outputs"]:
            if o.get("output_type") == "error" and not c["raises"]:
                found.append(f"{where}: {o['ename']}: {o['evalue']}")
            elif o.get("output_type") == "stream" and o.get("name") == "stderr":
                found.append(f"{where} wrote to stderr: {''.join(o['text'])[:300]!r}")
    return found


@pytest.mark.parametrize("name", LESSONS + STUDENT)
def test_a_lesson_runs_top_to_bottom_in_the_browser(lite: dict[str, Any], name: str) -> None:
    t0 = time.perf_counter()
    page = open_notebook(lite, name)
    try:
        ready = time.perf_counter() - t0
        nb = run_all(page, name)
        total = time.perf_counter() - t0
        cells = nb["cells"]
        ran = sum(c["count"] is not None for c in cells)
        found = problems(nb)
        _timing(
            f"{name}: {ran}/{len(cells)} code cells ran, {len(found)} problems; kernel {ready:.0f} s, all {total:.0f} s"
        )
        assert nb["path"] == name
        assert cells, f"{name} has no code cells"
        assert not found, f"{name}:\n" + "\n".join(found)
        if name == "02-play.ipynb":
            play_first_turns(page)
    finally:
        page.close()
    assert not lite["outside"], f"requests that left 127.0.0.1: {lite['outside'][:10]}"
    assert all(urlsplit(u).hostname in (None, "127.0.0.1") for u in lite["requests"] if "://" in u)


def play_first_turns(page: Any) -> None:
    """The play widget of lesson 02 (its last cell): Keep, a face-up card, the deck, then a claim on
    the map; each read back from the page (status, hand, the route's pieces in the player's colour)."""
    want = expected_game()
    fig = want["figure"]
    from ttr_lab.board import route_trace_index

    ids = list(fig.data[route_trace_index(fig)].customdata)
    i = line_point(ids, want["route"])
    play = page.locator(".ttr-play").last
    status = play.locator(".ttr-status")
    expect(status).to_contain_text("choose the tickets to keep", timeout=60_000)
    status.scroll_into_view_if_needed()
    play.locator(".ttr-keep").click()
    expect(status).to_contain_text("You, your turn", timeout=60_000)
    play.locator(f".ttr-faceup-{want['slot']}").click()
    expect(status).to_contain_text("take a second card", timeout=60_000)
    expect(play.locator(".ttr-hand")).to_contain_text(f"{want['after_first']} cards")
    play.locator(".ttr-deck").click()
    expect(status).to_contain_text("You, your turn", timeout=60_000)
    expect(play.locator(".ttr-hand")).to_contain_text(f"{want['after_turn']} cards", timeout=60_000)
    marker = trace_locator(play, "routes").locator("path.point").nth(i)
    click_plotly_point(page, marker)
    expect(status).to_contain_text(f"You: claim {want['label']}", timeout=60_000)
    expect(play.locator(".ttr-log")).to_contain_text(f"You: claim {want['label']}")
    expect(trace_locator(play, "seat:0").locator("path.js-fill").first).to_be_attached()


def test_the_site_says_where_a_lesson_cannot_run(lite_site: Path) -> None:
    """Lessons 06 and 07 need pandas: the site's copies say so under their title."""
    for name in ("06-ask-the-advisor.ipynb", "07-simulate.ipynb"):
        cells = json.loads((lite_site / "files" / name).read_text(encoding="utf-8"))["cells"]
        assert cells[0]["source"][0].startswith("# 0"), name
        assert "this lesson cannot run" in "".join(cells[1]["source"]) and "pandas" in "".join(cells[1]["source"])
    for name in LESSONS:
        cells = json.loads((lite_site / "files" / name).read_text(encoding="utf-8"))["cells"]
        assert not any("cannot run" in "".join(c["source"]) for c in cells[:2]), name
        assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code"), f"{name} keeps stored outputs"


def test_the_tutorial_scorer_and_recorder_work_by_clicking_in_the_site(lite: dict[str, Any]) -> None:
    """Lesson 08 run in the site (Run All), then each of its widgets used by clicking, as a person
    does: the scorer takes a route clicked on its board for the selected player (the breakdown is
    then exactly ``ttr_lab.score``'s for that route), the recorder takes a typed move (the record
    grows by that move, the hand by its card).  Then a cell typed at the end of the lesson opens
    ``ttr_lab.tutorial("usa")`` (no lesson shows it: lesson 02's text tells a student to type it)
    and its first step, Keep, moves the guide on."""
    name = "08-real-games.ipynb"
    t0 = time.perf_counter()
    page = open_notebook(lite, name)
    try:
        nb = run_all(page, name)
        found = problems(nb)
        assert not found, f"{name}:\n" + "\n".join(found)
        score_a_route_by_clicking(page)
        record_a_move_by_typing(page)
        take_the_tutorials_first_step(page)
        _timing(f"{name}: the scorer, the recorder and the tutorial by clicking, all {time.perf_counter() - t0:.0f} s")
    finally:
        page.close()
    assert not lite["outside"], f"requests that left 127.0.0.1: {lite['outside'][:10]}"
    assert all(urlsplit(u).hostname in (None, "127.0.0.1") for u in lite["requests"] if "://" in u)


def score_a_route_by_clicking(page: Any) -> None:
    """The scorer of lesson 08 (``ttr_lab.scorer("usa", players=["Ada", "Bob", "Cy", "Di"])``): select
    Bob, click his first route of the lesson's table game on the board (hovering first, its label
    read, as tests/e2e/test_scorer_browser.py does); his breakdown lists it and the whole breakdown
    is ``ttr_lab.score``'s for that one route.  A click a starved browser dropped is clicked again."""
    sheet = load_sheet(ROOT / "notebooks" / "data" / "table-game-usa.json")
    names = list(sheet["players"])
    seat, who = 1, names[1]
    rid = sheet["routes"][seat][0]
    fig = board_figure(sheet["edition"].map, player_names=names, width=620, title="")
    i = clearest_points(fig)[rid]
    from ttr_lab.board import route_trace_index

    label = fig.data[route_trace_index(fig)].hovertext[i]
    want = ttr_lab.score("usa", players=names, routes={who: [rid]})

    widget = page.locator(".ttr-scorer").first
    widget.scroll_into_view_if_needed()
    breakdown = widget.locator(".ttr-scorer-breakdown")
    expect(breakdown).to_contain_text(f"{names[0]}: 0 points", timeout=60_000)
    widget.locator(".ttr-scorer-player button", has_text=who).click()
    expect(widget.locator(".ttr-scorer-player button.mod-active")).to_have_text(who, timeout=30_000)
    plotly_dom.settle(page, widget, timeout=6.0)  # the board redrawn for the selected player
    before = re.compile(rf"{who}: -?\d+ points\s+routes \(0\)")
    expect(breakdown).to_contain_text(before)
    click_route(page, widget, i, label)
    for _ in range(3):
        try:
            expect(breakdown).to_have_text(str(want), timeout=10_000)
            break
        except AssertionError:
            expect(breakdown).to_contain_text(before)  # nothing happened, so a second click is safe
            click_route(page, widget, i, label)
    expect(breakdown).to_have_text(str(want), timeout=30_000)
    expect(breakdown).to_contain_text(re.compile(rf"{who}: -?\d+ points\s+routes \(1\)"))
    assert not widget.locator(".ttr-scorer-message").inner_text().strip()  # no refusal


def record_a_move_by_typing(page: Any) -> None:
    """The recorder of lesson 08 (three tickets choices entered by the lesson, Me to move): type a
    blind draw of a red card in its box and click Enter; the record's log gets it as ply 4, the
    message says so and Me's hand in the status has one red card more."""
    rec = page.locator(".ttr-recorder").first
    rec.scroll_into_view_if_needed()
    status, log = rec.locator(".ttr-recorder-status"), rec.locator(".ttr-recorder-log")
    expect(status).to_contain_text("Me to move", timeout=60_000)
    expect(log).to_contain_text("3. keep ? ?")
    expect(log).not_to_contain_text("4.")
    red = re.search(r"your hand: .*?(\d+) red", status.inner_text())
    assert red, status.inner_text()
    box = rec.locator(".ttr-recorder-entry input")
    message = rec.locator(".ttr-recorder-message")
    for _ in range(3):  # the typed text must reach the kernel before the click: a person clicks again
        box.fill("blind =red")
        page.wait_for_function(_KERNEL_IDLE_JS, timeout=60_000, polling=200)
        rec.locator(".ttr-recorder-enter").click()
        try:
            expect(message).to_contain_text("ply 4: blind =red", timeout=15_000)
            break
        except AssertionError:
            expect(message).to_contain_text("type a move in notation first")  # the click came first
    expect(message).to_contain_text("ply 4: blind =red", timeout=30_000)
    expect(log).to_contain_text("4. blind =red")
    expect(status).to_contain_text(f"{int(red.group(1)) + 1} red")
    expect(box).to_have_value("")


_KERNEL_IDLE_JS = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'"


def take_the_tutorials_first_step(page: Any) -> None:
    """A new cell typed below the lesson's last one, ``ttr_lab.tutorial("usa")``, run with Shift+Enter:
    the tutorial asks for the tickets; Keep, and its guide moves on to the first turn."""
    cells = page.locator(".jp-Notebook .jp-Cell")
    n = cells.count()
    cells.nth(n - 1).locator(".jp-InputPrompt").click()  # select the last cell (command mode)
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below
    expect(cells).to_have_count(n + 1, timeout=30_000)
    page.keyboard.press("Enter")  # edit it
    page.keyboard.insert_text('ttr_lab.tutorial("usa")')
    expect(cells.nth(n).locator(".cm-content")).to_have_text('ttr_lab.tutorial("usa")')
    page.keyboard.press("Shift+Enter")
    tut = page.locator(".ttr-tutorial-game").first
    status = tut.locator(".ttr-status")
    expect(status).to_contain_text("choose the tickets to keep", timeout=120_000)
    guide = tut.locator(".ttr-tutorial")
    expect(guide).not_to_be_empty()
    first = guide.inner_text()
    assert "Try an illegal move" not in first, first
    tut.scroll_into_view_if_needed()
    tut.locator(".ttr-keep").click()
    expect(status).to_contain_text("your turn", timeout=60_000)
    expect(guide).to_contain_text("Try an illegal move", timeout=30_000)
    assert guide.inner_text() != first
