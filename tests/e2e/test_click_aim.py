"""A click lands where it was aimed, in a real browser (issue 19, part A).

The experiment of the issue, repeated 10 times in each widget a person clicks: hover a route
until its label shows it, change an overlay, and click the same screen spot (no waiting for
the board to be redrawn, as a hand does not wait).  Every click the widget registers must name
the aimed route, and at most 1 in 10 may be dropped (the browser lost it, or the widget said
"click again").  Widgets and overlays:

* the play widget on USA, Europe and Rails & Sails World, and the tutorial on USA: while a
  second card is due (so a route click is refused with the route's name, and the game does
  not move), the overlay is the *ticket paths* toggle (paths and ticket rings drawn and
  removed, the legend growing and shrinking);
* the scorer on USA: the overlay is the selected player (their tickets and paths drawn);
  the click gives the aimed route to that player.

Before the fix the legend's height moved the map (456 -> 376 px of plot on USA) and overlay
traces came before the clickable ones, so the same spot hit another route, a city or nothing.
The figures per widget go to ``test-artifacts/click-aim.txt``.

Each widget runs in a one-cell notebook of its own in JupyterLab at 1366x768.  Traces and
points are found by name (tests/e2e/plotly_dom.py).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

import ttr_lab  # noqa: E402
from ttr_lab.board import board_figure, route_trace_index  # noqa: E402
from ttr_lab.engine.moves import KeepTickets  # noqa: E402
from ttr_lab.maps import load_map  # noqa: E402

from .plotly_dom import hover, hover_label, point_position, settle, trace_data  # noqa: E402
from .test_play_browser import LAPTOP, write_notebook  # noqa: E402

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "test-artifacts" / "click-aim.txt"
TRIALS = 10
STALE = "click again"

#: case -> (edition, the notebook cell)
PLAY = {
    "play-usa": ("usa", 'import ttr_lab\nttr_lab.play("usa", players=["You", "bot"], seed=7)'),
    "play-europe": ("europe", 'import ttr_lab\nttr_lab.play("europe", players=["You", "bot"], seed=7)'),
    "play-world": (
        "rails_and_sails",
        'import ttr_lab\nttr_lab.play("rails_and_sails", players=["You", "bot"], seed=7)',
    ),
    "tutorial-usa": ("usa", 'import ttr_lab\nttr_lab.tutorial("usa", seed=7)'),
}
SCORER_CELL = (
    "from ttr_lab.widgets.scorer import scorer\n"
    'w = scorer("usa", players=["Ada", "Bob"])\n'
    'for t in ("1", "2", "3", "4"):\n'
    "    w.add_ticket(t)  # Ada's tickets: drawn only while Ada is selected\n"
    "w"
)


def _record(case: str, hits: int, wrong: list[str], dropped: list[str]) -> str:
    line = f"{case}: {hits} of {TRIALS} clicks named the aimed route, {len(wrong)} another, {len(dropped)} dropped"
    if wrong:
        line += f"; wrong: {wrong}"
    if dropped:
        line += f"; dropped: {dropped}"
    REPORT.parent.mkdir(exist_ok=True)
    old = REPORT.read_text(encoding="utf-8").splitlines() if REPORT.exists() else []
    REPORT.write_text("\n".join([s for s in old if not s.startswith(case + ":")] + [line]) + "\n", encoding="utf-8")
    print(line)
    return line


def clear_targets(fig, m, n: int) -> list[tuple[int, int]]:
    """``n`` routes to aim at, ``(route id, point index)``: single routes (no twin whose
    refusal would read the same), each at its point farthest from any other route's points
    and from every city, the clearest first, away from the plot's edges."""
    routes = fig.data[route_trace_index(fig)]
    cities = fig.data[[t.meta for t in fig.data].index("cities")]
    xr, yr = fig.layout.xaxis.range, fig.layout.yaxis.range
    twins = {r.id for r in m.routes if r.double_of is not None} | {
        r.double_of for r in m.routes if r.double_of is not None
    }
    pts = [(int(r), x, y, i) for i, (r, x, y) in enumerate(zip(routes.customdata, routes.x, routes.y)) if x is not None]
    others = [(x, y) for x, y in zip(cities.x, cities.y)]
    best: dict[int, tuple[float, int]] = {}
    for rid, x, y, i in pts:
        if rid in twins:
            continue
        fx, fy = (x - xr[0]) / (xr[1] - xr[0]), (y - yr[0]) / (yr[1] - yr[0])
        if not (0.08 < fx < 0.92 and 0.1 < fy < 0.9):
            continue
        gap = min(
            min(math.hypot(x - x2, y - y2) for r2, x2, y2, _ in pts if r2 != rid),
            min(math.hypot(x - x2, y - y2) for x2, y2 in others),
        )
        if gap > best.get(rid, (-1.0, 0))[0]:
            best[rid] = (gap, i)
    ranked = sorted(best, key=lambda r: -best[r][0])
    assert len(ranked) >= n, ranked
    return [(rid, best[rid][1]) for rid in ranked[:n]]


#: whether page point (x, y) shows the board (and 25 px around it too), not the toolbar or a panel over it
_EXPOSED_JS = """(el, [x, y]) => {
  const gd = el.querySelector('.js-plotly-plot');
  return [[0, 0], [-25, 0], [25, 0], [0, -25], [0, 25]].every(([dx, dy]) => {
    const hit = document.elementFromPoint(x + dx, y + dy);
    return !!hit && gd.contains(hit);
  });
}"""


def on_screen(page, board, targets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The first :data:`TRIALS` targets whose point is on the screen as the page is scrolled now."""
    shown = []
    for rid, i in targets:
        at = point_position(board, "routes", i, scroll=False)
        if at is not None and board.evaluate(_EXPOSED_JS, at):
            shown.append((rid, i))
    assert len(shown) >= TRIALS, f"only {len(shown)} of the routes to aim at are on the screen"
    return shown[:TRIALS]


def aim(page, board, i: int, name: str) -> tuple[float, float]:
    """Hover point ``i`` of the routes trace until the label names ``name``; return where."""
    page.mouse.move(5, 5)
    for _ in range(8):
        at = None
        for _ in range(50):
            at = point_position(board, "routes", i, scroll=False)
            if at is not None:
                break
            page.wait_for_timeout(200)
        assert at is not None, f"routes point {i} is not on the page"
        hover(page, *at)
        for _ in range(15):
            if hover_label(board) == name:
                return at
            page.wait_for_timeout(100)
        page.mouse.move(5, 5)  # away, then aim again (a late redraw may have moved things)
        settle(page, board)
    REPORT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(REPORT.parent / "click-aim-no-hover.png"))
    raise AssertionError(f"hovering routes point {i} at {at} never showed {name!r} (last: {hover_label(board)!r})")


def click_back(page, at: tuple[float, float]) -> None:
    """Back to the spot aimed at, and click it at once (a hand does not wait for the redraw)."""
    x, y = at
    page.mouse.move(x - 6, y - 6)
    page.mouse.move(x, y, steps=3)
    page.wait_for_timeout(120)
    page.mouse.click(x, y)


def in_view(page, locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    vp = page.viewport_size
    assert 0 < x < vp["width"] and 0 < y < vp["height"], ("the overlay control is off screen", box)
    return x, y


def second_card_due(edition: str, tutorial: bool):
    """The notebook's game replayed here to the point the test plays to: every ticket kept
    (and Rails & Sails' pieces split), then the first face-up card that is not a wild card."""
    w = ttr_lab.tutorial(edition, seed=7) if tutorial else ttr_lab.play(edition, players=["You", "bot"], seed=7)
    g = w.game
    w.play_move(KeepTickets(tuple(sorted(t.id for t in g.pending_tickets))))
    while g.current_player == 0 and g.phase.name != "TURN":  # the piece split
        w.play_move(g.legal_moves[0])
    slot = next(i for i, c in enumerate(g.row, 1) if c not in ("loco", "wild"))
    assert w.click_faceup(slot) and "second card" in w.status, w.status
    return w, slot


@pytest.mark.parametrize("case", list(PLAY))
def test_clicks_land_on_the_aimed_route_in_the_play_widget(lab_notebook, jupyter_server, case):
    edition, cell = PLAY[case]
    tutorial = case.startswith("tutorial")
    w, slot = second_card_due(edition, tutorial)
    m = w.game.map
    targets = clear_targets(w.fig, m, 4 * TRIALS)
    labels = {rid: f"{m.route(rid).a}–{m.route(rid).b}" for rid, _ in targets}  # as a refusal names it
    hovers = w.fig.data[route_trace_index(w.fig)].hovertext

    name = f"aim-{case}"
    write_notebook(jupyter_server[2] / f"{name}.ipynb", cell)
    page = lab_notebook(f"{name}.ipynb", viewport=LAPTOP)
    play = page.locator(".ttr-play").first
    status = play.locator(".ttr-status")
    expect(status).to_contain_text("choose the tickets to keep", timeout=120_000)
    play.locator(".ttr-keep").click()
    if edition == "rails_and_sails":
        expect(status).to_contain_text("choose how many trains to keep")
        play.locator(".ttr-choose-pieces").click()
    expect(status).to_contain_text("your turn")
    play.locator(f".ttr-faceup-{slot}").click()
    expect(status).to_contain_text("take a second card")
    status.scroll_into_view_if_needed()
    settle(page, play)
    toggle = play.locator(".ttr-paths input")
    refusal, text = play.locator(".ttr-refusal"), play.locator(".ttr-refusal .ttr-refusal-text")

    # as much of the board on the screen as leaves the toggle on it too (Rails & Sails' side panel is long)
    toggle.evaluate("el => { el.scrollIntoView({block: 'end'}); }")
    page.mouse.wheel(0, -30)
    page.wait_for_timeout(300)
    hits, wrong, dropped = 0, [], []
    for trial, (rid, i) in enumerate(on_screen(page, play, targets), 1):
        at = aim(page, play, i, hovers[i])
        page.mouse.click(*in_view(page, toggle))  # the overlay: ticket paths on (odd trials) or off
        click_back(page, at)
        try:
            expect(refusal).to_be_visible(timeout=10_000)
            said = text.inner_text()
        except AssertionError:
            said = ""
        if said.startswith(f"{labels[rid]} cannot be claimed now"):
            hits += 1
        elif not said:
            dropped.append(f"{trial}: {labels[rid]}" + (" (click again)" if STALE in status.inner_text() else ""))
        else:
            wrong.append(f"{trial}: aimed {labels[rid]}, got {said.split('(')[0].strip()}")
        if refusal.is_visible():
            play.locator(".ttr-refusal-close").click()
            expect(refusal).to_be_hidden()
        page.mouse.move(5, 5)
        settle(page, play)
    _record(case, hits, wrong, dropped)
    assert not wrong, wrong
    assert len(dropped) <= TRIALS // 10, dropped


def claimed(board) -> set[int]:
    """The route ids the browser's routes trace shows claimed (its hover text says by whom)."""
    got = trace_data(board, "routes", "text", "customdata") or {}
    return {int(r) for s, r in zip(got.get("text") or (), got.get("customdata") or ()) if "claimed by" in str(s)}


def test_clicks_land_on_the_aimed_route_in_the_scorer(lab_notebook, jupyter_server):
    m = load_map("usa")
    fig = board_figure(m, player_names=["Ada", "Bob"], width=620, title="")
    targets = clear_targets(fig, m, TRIALS)
    hovers = fig.data[route_trace_index(fig)].hovertext

    write_notebook(jupyter_server[2] / "aim-scorer.ipynb", SCORER_CELL)
    page = lab_notebook("aim-scorer.ipynb", viewport=LAPTOP)
    widget = page.locator(".ttr-scorer").first
    expect(widget).to_be_visible(timeout=120_000)
    expect(widget.locator(".ttr-scorer-held")).to_contain_text("4: ", timeout=60_000)
    widget.locator(".js-plotly-plot").scroll_into_view_if_needed()
    settle(page, widget)
    buttons = {n: widget.locator(".ttr-scorer-player button", has_text=n) for n in ("Ada", "Bob")}
    message = widget.locator(".ttr-scorer-message")

    hits, wrong, dropped = 0, [], []
    for trial, (rid, i) in enumerate(targets, 1):
        before = claimed(widget)
        said = message.inner_text()
        at = aim(page, widget, i, hovers[i])
        owner = "Bob" if trial % 2 else "Ada"  # the overlay: the other player's tickets and paths
        page.mouse.click(*in_view(page, buttons[owner]))
        click_back(page, at)
        new: list[int] = []
        for _ in range(100):
            new = sorted(claimed(widget) ^ before)
            if new or message.inner_text() != said:
                break
            page.wait_for_timeout(100)
        if new == [rid]:
            hits += 1
        elif not new and (STALE in message.inner_text() or message.inner_text() == said):
            dropped.append(f"{trial}: {hovers[i]}" + (" (click again)" if STALE in message.inner_text() else ""))
        else:
            wrong.append(f"{trial}: aimed {hovers[i]}, got routes {new} / {message.inner_text()!r}")
        page.mouse.move(5, 5)
        settle(page, widget)
    _record("scorer-usa", hits, wrong, dropped)
    assert not wrong, wrong
    assert len(dropped) <= TRIALS // 10, dropped
