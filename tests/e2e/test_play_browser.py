"""The play widget in a real browser: JupyterLab + Chromium (JUPYTER.md section 6).

Opens ``notebooks/02-play.ipynb`` in a 1366×768 window with the file browser
open, runs all cells, and checks that the status line, the cards, the board
and the hand fit in 647 pixels of height and the notebook's width, and that
the score table shows every column.  Then plays like a person: reads the
ticket choice drawn on the map (each offered ticket's cheapest path and cost),
keeps the tickets, takes a face-up card, tries an illegal claim (the refusal
appears by the click and quotes the rules reference), draws from the deck,
claims a route by clicking its line a quarter of the way along (not its
middle), undoes and redoes the claim, then saves and reloads the page (the
board must still show the claim).  Every check reads the page (status text, hand text, the
route's colour in the SVG), so the Python callbacks, the kernel round trip and
plotly's redraw are all exercised.

The route to click is found by playing the same seeded game in this process
(bots are deterministic for a seed and a position).  Writes the
click-to-redraw time to ``test-artifacts/browser-timing.txt``, and, only when
asked with ``TTR_SCREENSHOTS=1``, the README's screenshots
``docs/play-widget.png`` (USA) and ``docs/play-widget-world.png`` (Rails &
Sails), so a test run leaves the tree clean.

A second test plays the first decisions of a Rails & Sails World game (the
most buttons in the card row: train and ship cards) in the same window and
checks the same fit; a third does so for Europe (the stations column in the
score table, and a station's payment choice after a click on a city).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

import ttr_lab  # noqa: E402
from ttr_lab.board import PLAYER_COLORS, city_trace_index, route_trace_index  # noqa: E402
from ttr_lab.engine.moves import ClaimRoute, DrawBlind, KeepTickets  # noqa: E402
from ttr_lab.engine.reference import rule_title  # noqa: E402

from .plotly_dom import trace_locator  # noqa: E402

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)  # a busy machine (several test runs at once) renders slowly

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "play-widget.png"
WORLD_SCREENSHOT = ROOT / "docs" / "play-widget-world.png"
SCREENSHOTS = os.environ.get("TTR_SCREENSHOTS") == "1"  # retake the README's pictures
TIMING = ROOT / "test-artifacts" / "browser-timing.txt"
NOTEBOOK = "02-play.ipynb"
LAPTOP = {"width": 1366, "height": 768}
FIT_PX = 647  # the notebook height JupyterLab leaves at 1366x768 (issue 11, item 6)

_FIT_JS = """() => {
  const box = s => document.querySelector('.ttr-play ' + s).getBoundingClientRect();
  const top = box('.ttr-status').top;
  const bottom = Math.max(box('.ttr-figure').bottom, box('.ttr-hand').bottom, box('.ttr-cards').bottom);
  const play = document.querySelector('.ttr-play');
  const area = play.closest('.jp-OutputArea-output') || play.parentElement;
  const scores = document.querySelector('.ttr-play .ttr-scores');
  const table = scores.querySelector('table');
  const cut = [...document.querySelectorAll('.ttr-play .ttr-cards button')].filter(b => b.scrollWidth > b.clientWidth + 1);
  return {height: bottom - top, parts: ['.ttr-status', '.ttr-cards', '.ttr-figure', '.ttr-hand'].map(s => Math.round(box(s).height)),
          width: play.scrollWidth, room: area.clientWidth,
          right: play.getBoundingClientRect().right, window: window.innerWidth,
          table: table.scrollWidth, tableRoom: scores.clientWidth, cut: cut.map(b => b.textContent)};
}"""

#: the fill of point ``i`` of the play widget's trace ``uid`` (found by name: tests/e2e/plotly_dom.py)
_FILL_JS = """([uid, i]) => {
  const g = document.querySelector('.ttr-play .js-plotly-plot .trace.trace' + uid);
  const pt = g && g.querySelectorAll('path.point')[i];
  return pt ? pt.style.fill : null;
}"""


def console_log(page) -> list[str]:
    """Every console message and uncaught error of ``page``, as they come."""
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"[:300]))
    page.on("pageerror", lambda e: said.append(f"pageerror: {e}"[:300]))
    return said


def anywidget_failures(said: list[str]) -> list[str]:
    """anywidget giving up on a model (it then drops every later update from the kernel)."""
    return [s for s in said if "[anywidget] Failed to initialize model" in s]


def rgb(hex_color: str) -> str:
    h = hex_color.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[j : j + 2], 16) for j in (0, 2, 4)))


def expected_game():
    """The notebook's game, replayed here up to the claim the test will click."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    offer = w._board_options()["paths"]  # the ticket choice as the board draws it
    tickets = [t.label() for t in w.game.pending_tickets]
    w.play_move(KeepTickets(tuple(sorted(t.id for t in w.game.pending_tickets))))  # Keep, every box ticked
    g = w.game
    slot = next(i for i, c in enumerate(g.row, 1) if c != "loco")
    w.click_faceup(slot)
    second = {"hand": g.hand_size(0)}
    w.play_move(DrawBlind())
    assert g.current_player == 0, w.status
    rid = _clear_single_payment_route(w)
    return {
        "offer": [o.name for o in offer],
        "tickets": tickets,
        "slot": slot,
        "after_first": second["hand"],
        "after_turn": g.hand_size(0),
        "route": rid,
        "label": g.map.route(rid).label(),
        "figure": w.fig,
    }


def _clear_single_payment_route(w) -> int:
    """A route payable in exactly one way, whose marker is far from other markers."""
    g, fig = w.game, w.fig
    single = [
        r
        for r in {m.route for m in g.legal_moves if isinstance(m, ClaimRoute)}
        if sum(1 for m in g.legal_moves if isinstance(m, ClaimRoute) and m.route == r) == 1
    ]
    assert single, "the seeded game offers no single-payment claim"
    routes, cities = fig.data[route_trace_index(fig)], fig.data[city_trace_index(fig)]
    points = list(zip(routes.x, routes.y)) + list(zip(cities.x, cities.y))
    ids = list(routes.customdata)

    def clearance(rid: int) -> float:  # from the clicked point to any point of another route or a city
        j = line_point(ids, rid)
        x, y = points[j]
        return min(math.hypot(x - px, y - py) for n, (px, py) in enumerate(points) if n >= len(ids) or ids[n] != rid)

    return max(sorted(r for r in single if ids.count(r) >= 3), key=clearance)


def line_point(ids: list, rid: int) -> int:
    """The point a quarter of the way along route ``rid`` (not its middle, where a badge would be)."""
    where = [n for n, r in enumerate(ids) if r == rid]
    return where[len(where) // 4]


def click_plotly_point(page, point) -> float:
    """Hover, then click a marker (plotly fires a click only after a hover); return the click time."""
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x - 20, y - 20)
    page.mouse.move(x, y, steps=5)
    page.wait_for_timeout(300)
    t0 = time.perf_counter()
    page.mouse.click(x, y)
    return t0


def widget_ids(path: Path) -> set[str]:
    """The widget model ids referenced by a notebook file's outputs."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {
        o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
        for c in cells
        for o in c.get("outputs", ())
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    }


def wait_until_saved(path: Path, stale: set[str], timeout: float = 30) -> None:
    """Wait until the file on disk references the live widgets, not the stored ones."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            ids = widget_ids(path)
            if ids and not ids & stale:
                return
        except (OSError, ValueError, KeyError):
            pass  # being written
        if time.monotonic() > deadline:
            pytest.fail(f"{path.name} was not saved with the live widgets within {timeout} s")
        time.sleep(0.2)


def reload_widgets(page, play, attempts: int = 5) -> list[str]:
    """Reload the page until the widget manager has restored the kernel's widgets.

    On a reload, ipywidgets' front end asks the kernel for every widget's
    state at once and waits 4 s for the answer (about 5.3 MB here: the board's
    FigureWidget carries plotly's 5 MB JavaScript bundle in its state); on a busy
    machine it misses that deadline and shows "model not found" for every
    widget.  That is the front end giving up, not stale state, so the reload
    is tried again; a widget that does appear is checked as usual.  Returns
    the console's messages from the reloads."""
    failed = page.get_by_text("Error displaying widget: model not found").first
    shown = play.locator(".ttr-status")
    said = console_log(page)
    for attempt in range(1, attempts + 1):
        page.reload()
        page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=60_000)
        expect(shown.or_(failed).first).to_be_visible(timeout=60_000)
        if not failed.is_visible():
            return said
        print(f"reload {attempt}: the widget manager timed out restoring the widgets; reloading again")
        page.wait_for_timeout(2000 * attempt)  # let a busy machine catch up
    print("browser console during the reloads:", *said[-40:], sep="\n  ")
    pytest.fail(f"the widgets were not restored after {attempts} reloads (ipywidgets' 4 s state request timed out)")


def test_play_widget_in_jupyterlab(lab_notebook, jupyter_server):
    want = expected_game()
    saved_file = jupyter_server[2] / NOTEBOOK
    stale_ids = widget_ids(saved_file)
    fig = want["figure"]
    k = route_trace_index(fig)
    ids = list(fig.data[k].customdata)
    i = line_point(ids, want["route"])
    middle = [n for n, r in enumerate(ids) if r == want["route"]]
    assert i != middle[len(middle) // 2]  # a point on the line, not the middle
    mine, free = rgb(PLAYER_COLORS[0]), rgb("#ffffff")

    page = lab_notebook(NOTEBOOK, viewport=LAPTOP)
    play = page.locator(".ttr-play").first
    status = play.locator(".ttr-status")
    expect(page.locator(".ttr-history-move")).to_contain_text("ply 40 of", timeout=90_000)  # last cell ran
    expect(status).to_contain_text("choose the tickets to keep (at least 2)", timeout=30_000)
    expect(page.locator("#filebrowser")).to_be_visible()  # the file browser stays open
    status.scroll_into_view_if_needed()
    routes = trace_locator(play, "routes")  # traces found by name, whichever zorder layer draws them

    # the ticket choice is drawn on the map: each offered ticket's path and cost, and all together
    expect(routes).to_have_count(1)
    legend = play.locator(".js-plotly-plot .legendtext")
    for name in want["offer"]:
        expect(legend.filter(has_text=name)).to_have_count(1)
    for label in want["tickets"]:
        expect(play.locator(".ttr-keep-box")).to_contain_text(label)

    # it fits a laptop: 647 px of height, the notebook's width, every score column, whole labels
    check_fit(page, status, "USA, ticket choice (the file browser open)")

    play.locator(".ttr-keep").click()
    expect(status).to_contain_text("You, your turn")
    expect(legend.filter(has_text=want["offer"][0])).to_have_count(0)  # the offer's paths are gone
    check_fit(page, status, "USA, a turn")
    assert page.evaluate(_FILL_JS, ["routes", i]) == free

    # a face-up card: the hand grows by one and a second card is due
    play.locator(f".ttr-faceup-{want['slot']}").click()
    expect(status).to_contain_text("take a second card")
    expect(play.locator(".ttr-hand")).to_contain_text(f"{want['after_first']} cards")

    # a claim now is illegal: the library's rule and reason by the click, and no change
    marker = routes.locator("path.point").nth(i)  # every routes point is drawn: DOM order is data order
    click_plotly_point(page, marker)
    refusal = play.locator(".ttr-refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("rule A1")
    expect(refusal).to_contain_text("expected a second card")
    at, box = marker.bounding_box(), refusal.bounding_box()
    y = at["y"] + at["height"] / 2
    assert min(abs(box["y"] - y), abs(box["y"] + box["height"] - y)) <= 40, (at, box)  # next to the click
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], box  # on the screen
    assert page.evaluate(_FILL_JS, ["routes", i]) == free
    # ... and quotes the rule's section of the rules reference, folded until opened
    rule = refusal.locator("details.ttr-rule")
    expect(rule.locator("summary")).to_contain_text(f"Rule A1: {rule_title('A1')}")
    expect(rule.locator(".ttr-rule-text")).to_be_hidden()
    rule.locator("summary").click()
    expect(rule.locator(".ttr-rule-text")).to_be_visible()
    refusal.locator(".ttr-refusal-close").click()
    expect(refusal).to_be_hidden()

    # the deck: the turn ends, the bot replies, it is our turn again
    play.locator(".ttr-deck").click()
    expect(status).to_contain_text("You, your turn")
    expect(play.locator(".ttr-hand")).to_contain_text(f"{want['after_turn']} cards")

    # claim the route by clicking its line; time the click until the route is redrawn
    t0 = click_plotly_point(page, marker)
    page.wait_for_function(f"args => ({_FILL_JS})(args) === {mine!r}", arg=["routes", i], polling="raf", timeout=15_000)
    redraw_ms = (time.perf_counter() - t0) * 1000
    expect(status).to_contain_text(f"You: claim {want['label']}")
    claimed = trace_locator(play, "seat:0").locator("path.js-fill")
    expect(claimed.first).to_have_attribute("style", re.compile(rf"fill: {re.escape(mine)}"))  # the pieces
    expect(play.locator(".ttr-log")).to_contain_text(f"You: claim {want['label']}")

    # ticket paths on (a path per unfinished ticket, in the legend too), screenshot, off again
    paths = legend.filter(has_text="more cars")
    play.locator(".ttr-paths input").check()
    expect(play.locator(".ttr-tickets")).to_contain_text("more cars")
    expect(paths.first).to_be_attached()
    if SCREENSHOTS:
        play.screenshot(path=str(SCREENSHOT))
    play.locator(".ttr-paths input").uncheck()
    expect(paths).to_have_count(0)

    # undo: back to the decision before the claim, the route is free again; redo claims it again
    play.locator(".ttr-undo").click()
    expect(status).to_contain_text("Undone")
    page.wait_for_function(f"args => ({_FILL_JS})(args) === {free!r}", arg=["routes", i], polling="raf", timeout=30_000)
    expect(play.locator(".ttr-hand")).to_contain_text(f"{want['after_turn']} cards")
    play.locator(".ttr-redo").click()
    expect(status).to_contain_text("Redone")
    page.wait_for_function(f"args => ({_FILL_JS})(args) === {mine!r}", arg=["routes", i], polling="raf", timeout=30_000)

    # save and reload: the widget views are rebuilt from the kernel's synced
    # state, which must hold the claim (JUPYTER.md pitfall 8), and the restored
    # board still follows the game (ticket paths on and off: path traces filled
    # and emptied); anywidget never gives up on the board's model on the way
    # ("[anywidget] Failed to initialize model", see ttr_lab.widgets.figure)
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator('li[data-command="docmanager:save"]').click()
    wait_until_saved(saved_file, stale_ids)
    said = reload_widgets(page, play)
    expect(status).to_contain_text("Redone", timeout=60_000)
    expect(play.locator(".ttr-log")).to_contain_text(f"You: claim {want['label']}")
    status.scroll_into_view_if_needed()
    expect(routes).to_have_count(1, timeout=30_000)
    page.wait_for_function(f"args => ({_FILL_JS})(args) === {mine!r}", arg=["routes", i], polling="raf", timeout=30_000)
    play.locator(".ttr-paths input").check()
    expect(paths.first).to_be_attached()
    play.locator(".ttr-paths input").uncheck()
    expect(paths).to_have_count(0)
    assert not anywidget_failures(said), said

    TIMING.parent.mkdir(parents=True, exist_ok=True)
    TIMING.write_text(f"click on a route's line -> route redrawn in the owner's colour: {redraw_ms:.0f} ms\n")
    print(f"browser click-to-redraw: {redraw_ms:.0f} ms")


def write_notebook(path: Path, source: str) -> None:
    """A one-cell notebook (for a test's own game, beside the copied lessons)."""
    nb = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [], "source": source}
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb), encoding="utf-8")


def check_fit(page, status, stage: str) -> dict:
    """The play widget at this stage fits 647 px and the notebook's width, with
    every score column and whole card labels (the figures are printed)."""
    status.scroll_into_view_if_needed()
    fit = page.evaluate(_FIT_JS)
    print(f"fit at 1366x768, {stage}: {fit}")
    assert fit["height"] <= FIT_PX, (stage, fit)
    assert fit["width"] <= fit["room"] and fit["right"] <= fit["window"], (stage, fit)
    assert fit["table"] <= fit["tableRoom"], (stage, fit)
    assert fit["cut"] == [], (stage, fit)
    return fit


def _open_fit_game(lab_notebook, jupyter_server, edition: str, name: str):
    """A 2-player ``edition`` game (seed 7) opened at 1366x768 with the file
    browser showing, at its ticket choice, its board drawn: ``(page, the
    console log, the play widget, its status line, the board's routes trace)``."""
    write_notebook(
        jupyter_server[2] / f"{name}.ipynb",
        f'import ttr_lab\nttr_lab.play("{edition}", players=["You", "bot"], seed=7)',
    )
    page = lab_notebook(f"{name}.ipynb", viewport=LAPTOP)
    said = console_log(page)
    play = page.locator(".ttr-play").first
    status = play.locator(".ttr-status")
    expect(status).to_contain_text("choose the tickets to keep", timeout=90_000)
    expect(page.locator("#filebrowser")).to_be_visible()
    routes = trace_locator(play, "routes")
    expect(routes).to_be_attached(timeout=60_000)
    return page, said, play, status, routes


def test_rails_and_sails_fits_a_laptop(lab_notebook, jupyter_server):
    """Rails & Sails World at 1366x768 with the file browser open: the ticket
    choice, the piece split and a turn each fit in 647 px, every card button
    shows its whole label, and the score table every column."""
    page, said, play, status, _ = _open_fit_game(lab_notebook, jupyter_server, "rails_and_sails", "fit-world")

    def measure(stage: str) -> None:
        check_fit(page, status, f"Rails & Sails, {stage}")

    measure("ticket choice")
    play.locator(".ttr-keep").click()
    expect(status).to_contain_text("choose how many trains to keep")
    measure("piece split")
    play.locator(".ttr-choose-pieces").click()
    expect(status).to_contain_text("You, your turn")
    expect(play.locator(".ttr-cards")).to_contain_text("ship")
    measure("a turn")
    if SCREENSHOTS:
        play.screenshot(path=str(WORLD_SCREENSHOT))
    assert not anywidget_failures(said), said


_PAY_JS = """() => {
  const box = document.querySelector('.ttr-play .ttr-pay-box');
  const status = document.querySelector('.ttr-play .ttr-status').getBoundingClientRect();
  const buttons = [...document.querySelectorAll('.ttr-play .ttr-payment button')];
  const r = box.getBoundingClientRect();
  return {shown: r.height > 0, top: r.top - status.top, bottom: r.bottom - status.top, right: r.right,
          window: window.innerWidth, buttons: buttons.map(b => b.textContent),
          cut: buttons.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)};
}"""


def _station_city(seed: int) -> tuple[str, int, int, int]:
    """In the Europe game of ``seed`` (every ticket kept), the city whose first
    station can be paid in the most ways: (city, the cities trace's index,
    the city's point in it, the number of ways)."""
    w = ttr_lab.play("europe", players=["You", "bot"], seed=seed)
    w.play_move(KeepTickets(tuple(sorted(t.id for t in w.game.pending_tickets))))
    g = w.game
    assert g.current_player == 0, w.status
    ways: dict[str, int] = {}
    for m in g.legal_moves:
        city = getattr(m, "city", None)
        if m.verb == "station" and city is not None:
            ways[city] = ways.get(city, 0) + 1
    assert ways and max(ways.values()) >= 2, "the seeded game offers no station with a choice of payment"
    city = min(ways, key=lambda c: (-ways[c], c))
    k = city_trace_index(w.fig)
    return city, k, list(w.fig.data[k].customdata).index(city), ways[city]


def test_europe_fits_a_laptop(lab_notebook, jupyter_server):
    """Europe at 1366x768 with the file browser open: the ticket choice (one
    long and three short tickets drawn on the map), a turn, and a station's
    payment choice after a click on a city each fit in 647 px and the
    notebook's width, with whole labels on every card and payment button and
    every score column (stations left) shown."""
    city, _, point, ways = _station_city(7)
    page, said, play, status, _ = _open_fit_game(lab_notebook, jupyter_server, "europe", "fit-europe")

    def measure(stage: str) -> None:
        check_fit(page, status, f"Europe, {stage}")

    measure("ticket choice")
    expect(play.locator(".ttr-keep-box")).to_be_visible()
    play.locator(".ttr-keep").click()
    expect(status).to_contain_text("You, your turn")
    expect(status).to_contain_text("click a city to build a station")
    expect(play.locator(".ttr-scores")).to_contain_text("stations")
    measure("a turn")

    # a click on a city: the station's payment choice, whole and on the screen
    marker = trace_locator(play, "cities").locator("path.point").nth(point)
    click_plotly_point(page, marker)
    expect(status).to_contain_text(f"{ways} ways to pay")
    pay = page.evaluate(_PAY_JS)
    print(f"Europe station payment at 1366x768 ({city}): {pay}")
    assert pay["shown"] and len(pay["buttons"]) == ways, pay
    assert pay["cut"] == [], pay
    assert pay["bottom"] <= FIT_PX and pay["right"] <= pay["window"], pay
    measure("a station's payment choice")
    assert not anywidget_failures(said), said
