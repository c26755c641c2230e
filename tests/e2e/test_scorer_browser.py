"""Browser test of the table-game scorer (notebook 08, JupyterLab, headless Chromium).

Runs notebook 08, then enters its four-player USA end position
(``data/table-game-usa.json``: 59 routes, 11 tickets) into the scorer widget
the way a person does: a click on each player's name, a real mouse click on
each of their routes on the board, each ticket's number typed in the search
box and *Add ticket*.  Before each click it reads the hover label (the
route's name); after it, it waits for the breakdown to show the new route
count and for the board to show that route claimed and stop changing (as a
person glances at both), and at the end the breakdown must be exactly
``ttr_lab.score``'s.  The time from the first
click to the last breakdown is written to
``test-artifacts/scorer-timing.txt`` (issue 10: under 3 minutes for a
person; the test's pauses are a person's: a hover before each click).

The point clicked on each route is the one farthest from every other route's
points, found from the same board figure in this process; its place on the
page is read from plotly's own DOM at click time, the routes trace found by
name and the point by its bound data index (tests/e2e/plotly_dom.py).
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

import ttr_lab  # noqa: E402
from ttr_lab.board import board_figure, route_trace_index  # noqa: E402
from ttr_lab.tabletop import load_sheet  # noqa: E402

from . import plotly_dom  # noqa: E402

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
TIMING = ROOT / "test-artifacts" / "scorer-timing.txt"
NOTEBOOK = "08-real-games.ipynb"
SHEET = ROOT / "notebooks" / "data" / "table-game-usa.json"
VIEWPORT = {"width": 1400, "height": 900}


def clearest_points(fig) -> dict[int, int]:
    """For each route, the index of its point farthest from any other route's points."""
    tr = fig.data[route_trace_index(fig)]
    pts = [(int(r), x, y, i) for i, (r, x, y) in enumerate(zip(tr.customdata, tr.x, tr.y)) if x is not None]
    best: dict[int, tuple[float, int]] = {}
    for rid, x, y, i in pts:
        gap = min(math.hypot(x - x2, y - y2) for r2, x2, y2, _ in pts if r2 != rid)
        if gap > best.get(rid, (-1.0, 0))[0]:
            best[rid] = (gap, i)
    return {rid: i for rid, (_, i) in best.items()}


def settle(page, widget) -> None:
    """Wait until the board in the browser has stopped changing (as a person glances at it
    before the next click; tests/e2e/plotly_dom.py)."""
    plotly_dom.settle(page, widget, timeout=6.0)


def claimed_by(widget, i: int, name: str) -> bool:
    """Whether the browser's routes trace shows point ``i`` claimed by ``name``."""
    got = plotly_dom.trace_data(widget, "routes", "text")
    text = (got or {}).get("text") or []
    return i < len(text) and str(text[i]).endswith("claimed by " + name)


def click_route(page, widget, i: int, name: str) -> None:
    """Click point ``i`` of the routes trace, as a person does: hover, read
    the label (``name``, the route's), then click; aim again when the page
    reflowed during the hover or the label names another route."""
    page.mouse.move(5, 5)  # away: the last hover label must not cover the next route
    for _ in range(50):  # the board may still be drawing (or be redrawn)
        at = plotly_dom.point_position(widget, "routes", i)
        if at is not None:
            break
        page.wait_for_timeout(200)
    if at is None:
        TIMING.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(TIMING.parent / "scorer-no-point.png"))
        plots = widget.evaluate("el => el.querySelectorAll('.js-plotly-plot').length")
        raise AssertionError(f"no routes point {i} on the page ({plots} plots in the widget)")
    labels = []
    for _ in range(6):  # the page may reflow while we hover (a late update above the board): aim again
        x, y = at
        page.mouse.move(x - 12, y - 12)
        page.mouse.move(x, y, steps=4)
        page.wait_for_timeout(200)  # plotly fires a click only after a hover
        label = plotly_dom.hover_label(widget)
        for _ in range(10):  # a starved browser draws the label late
            if label == name:
                break
            page.wait_for_timeout(100)
            label = plotly_dom.hover_label(widget)
        labels.append(label)
        now = plotly_dom.point_position(widget, "routes", i)
        if label == name and now is not None and abs(now[0] - x) < 1 and abs(now[1] - y) < 1:
            break
        at = now or at
        page.mouse.move(5, 5)  # away, so that the next hover draws a new label
    else:
        if any(label is not None for label in labels):  # no label at all: let the caller's retry judge the click
            TIMING.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(TIMING.parent / "scorer-wrong-hover.png"))
            raise AssertionError(f"hovering route point {i} ({name}) showed {labels}")
    page.mouse.click(x, y)


def test_scoring_a_four_player_usa_end_position_by_clicking(lab_notebook):
    sheet = load_sheet(SHEET)
    names = list(sheet["players"])
    want = ttr_lab.score(**sheet)
    fig = board_figure(sheet["edition"].map, player_names=names, width=620, title="")
    point = clearest_points(fig)
    label = fig.data[route_trace_index(fig)].hovertext  # each point's route name, as its hover label shows it

    page = lab_notebook(NOTEBOOK, viewport=VIEWPORT)
    last = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"]', has_text="illegal move keep 1 2"
    )
    expect(last).to_be_attached(timeout=180_000)  # Run All reached the last cell
    widget = page.locator(".ttr-scorer").first
    widget.scroll_into_view_if_needed()
    expect(widget).to_be_visible(timeout=120_000)
    breakdown = widget.locator(".ttr-scorer-breakdown")
    expect(breakdown).to_contain_text(f"{names[0]}: 0 points", timeout=60_000)
    widget.scroll_into_view_if_needed()
    search = widget.locator(".ttr-scorer-search input")
    add = widget.locator(".ttr-scorer-add")

    t0 = time.perf_counter()
    clicks = again = 0
    for p, name in enumerate(names):
        widget.locator(".ttr-scorer-player button", has_text=name).click()
        expect(widget.locator(".ttr-scorer-player button.mod-active")).to_have_text(name)
        settle(page, widget)  # the board redrawn for the selected player
        routes = sheet["routes"].get(p, [])
        for k, rid in enumerate(routes, 1):
            click_route(page, widget, point[rid], label[point[rid]])
            clicks += 1
            counted = re.compile(rf"{re.escape(name)}: -?\d+ points\s+routes \({k}\)")
            before = re.compile(rf"{re.escape(name)}: -?\d+ points\s+routes \({k - 1}\)")
            # a click plotly dropped (no hover seen in a starved browser): click again, as a person
            # would; up to three tries (a CI run under load lost two in a row on one route)
            for _ in range(3):
                try:
                    expect(breakdown).to_contain_text(counted, timeout=8_000)
                    break
                except AssertionError:
                    expect(breakdown).to_contain_text(before)  # nothing happened, so a second click is safe
                    again += 1
                    click_route(page, widget, point[rid], label[point[rid]])
            expect(breakdown).to_contain_text(counted, timeout=15_000)
            # the board shows the route claimed (the browser has applied the redraw), then stops changing
            deadline = time.monotonic() + 15
            while not claimed_by(widget, point[rid], name):
                assert time.monotonic() < deadline, f"the board never showed route {rid} claimed by {name}"
                page.wait_for_timeout(50)
            settle(page, widget)
        for t in sheet["tickets"].get(p, []):
            search.fill(str(t))
            page.wait_for_timeout(
                200
            )  # a person's pace, as before each route click: the typed value reaches the kernel
            add.click()
            clicks += 2
            expect(widget.locator(".ttr-scorer-held")).to_contain_text(f"{t}: ")
            expect(search).to_have_value("")  # the kernel's clearing of the box has arrived before the next ticket
    expect(breakdown).to_have_text(str(want), timeout=30_000)
    seconds = time.perf_counter() - t0
    assert not widget.locator(".ttr-scorer-message").inner_text().strip()  # no refusal on the way

    n_routes = sum(len(v) for v in sheet["routes"].values())
    n_tickets = sum(len(v) for v in sheet["tickets"].values())
    TIMING.parent.mkdir(exist_ok=True)
    TIMING.write_text(
        f"scorer: a 4-player USA end position ({n_routes} routes, {n_tickets} tickets, {clicks} clicks and "
        f"entries) entered in the browser in {seconds:.0f} s, with a 200 ms hover before each route click"
        f" ({again} route clicks dropped by the browser and repeated)\n"
    )
    print(TIMING.read_text().strip())
    assert again <= 3, f"{again} route clicks were dropped: the board does not take clicks reliably"
    assert seconds < 180, f"entering the end position took {seconds:.0f} s (the issue's target: under 3 minutes)"
