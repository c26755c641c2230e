"""The board under a person's hand (issue 19, part A), in plain Python: no redraw moves the map
or a trace, and a click is used only when it names the point the person saw.

The browser repeats the experiment in tests/e2e/test_click_aim.py; these tests check the
same promises on the kernel's side, for the widgets a person clicks: the play widget (and so
the tutorial) and the scorer.
"""

from __future__ import annotations

import pytest

pytest.importorskip("plotly")
pytest.importorskip("ipywidgets")

import ttr_lab
from ttr_lab.board import STALE_CLICK, city_trace_index, clicked_route, route_trace_index
from ttr_lab.engine.moves import ClaimRoute, KeepTickets
from ttr_lab.widgets.scorer import scorer

#: what fixes the picture: its size, margins and the axis ranges
FRAME = ("width", "height", "margin", "xaxis.range", "yaxis.range", "yaxis.scaleanchor", "yaxis.scaleratio")


def frame_of(fig) -> dict:
    out = {}
    for part in FRAME:
        node = fig.layout
        for key in part.split("."):
            node = node[key]
        out[part] = node.to_plotly_json() if hasattr(node, "to_plotly_json") else node
    return out


def keys_of(fig) -> list:
    return [t.meta for t in fig.data]


def browser_click(fig, k: int, i: int, at: int | None = None) -> None:
    """What plotly's front end sends for a click on point ``i`` of trace ``k``, drawn where the
    figure's point ``at`` (default ``i``) is: the trace and point indexes and the point's x/y."""
    trace = fig.data[k]
    j = i if at is None else at
    fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [trace.x[j]], "ys": [trace.y[j]]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }


def first_point(fig, route_id: int) -> int:
    return list(fig.data[route_trace_index(fig)].customdata).index(route_id)


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_the_play_widgets_board_keeps_its_frame_and_traces_all_game(edition):
    """Ticket choice, Keep, ticket paths on and off, a highlight (a claim that asks how to pay),
    a card: the same picture size, margins, axis ranges and trace order at every redraw.
    Before issue 19 the legend's height moved the plot's bottom (456 -> 376 px on USA)."""
    w = ttr_lab.play(edition, players=["You", "bot"], seed=7)
    g = w.game
    first, keys = frame_of(w.fig), keys_of(w.fig)
    seen = [("ticket choice", frame_of(w.fig), keys_of(w.fig))]
    while g.current_player == 0 and g.phase.name != "TURN":  # Keep (and Rails & Sails' piece split)
        w.play_move(
            next(m for m in g.legal_moves if isinstance(m, KeepTickets)) if g.pending_tickets else g.legal_moves[0]
        )
    seen.append(("after Keep", frame_of(w.fig), keys_of(w.fig)))
    w._show_paths.value = True
    seen.append(("ticket paths on", frame_of(w.fig), keys_of(w.fig)))
    w._show_paths.value = False
    seen.append(("ticket paths off", frame_of(w.fig), keys_of(w.fig)))
    many = {}
    for m in g.legal_moves:
        if isinstance(m, ClaimRoute):
            many[m.route] = many.get(m.route, 0) + 1
    rid = next((r for r, n in many.items() if n > 1), None)
    if rid is not None:
        w.click_route(rid)  # how to pay: the route is highlighted
        assert "highlight" in [t.name for t in w.fig.data]
        seen.append(("a highlight", frame_of(w.fig), keys_of(w.fig)))
        w._cancel_claim()
    w.play_move("blind")
    seen.append(("a card and the bot's turn", frame_of(w.fig), keys_of(w.fig)))
    for stage, fr, ks in seen:
        assert fr == first, (edition, stage)
        assert ks[: len(keys)] == keys and all(str(k).startswith("path:") for k in ks[len(keys) :]), (edition, stage)
        assert ks[:2] == ["routes", "cities"], (edition, stage)


def test_the_scorers_board_keeps_its_frame_when_another_player_is_selected():
    """Selecting a player draws their tickets and paths; the picture stays the same."""
    w = scorer("usa", players=["Ada", "Bob", "Cy"])
    first, keys = frame_of(w.fig), keys_of(w.fig)
    for t in (1, 2, 3, 4):
        w.add_ticket(str(t))
    for rid in (1, 5, 9):
        w.click_route(rid)
    w.player.value = 1
    w.click_route(20)
    w.player.value = 0
    assert frame_of(w.fig) == first
    assert keys_of(w.fig)[: len(keys)] == keys and keys_of(w.fig)[:2] == ["routes", "cities"]


def test_a_click_that_does_not_match_the_board_is_not_used():
    """The browser names a point by its index and sends where it was drawn: a click whose
    x/y are not the kernel's point at that index (the board changed under it) claims nothing
    and says "click again"; the matching click claims the route it names."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    w.play_move(KeepTickets(tuple(sorted(t.id for t in w.game.pending_tickets))))
    g = w.game
    single = sorted(
        r
        for r in {m.route for m in g.legal_moves if isinstance(m, ClaimRoute)}
        if sum(1 for m in g.legal_moves if isinstance(m, ClaimRoute) and m.route == r) == 1
    )
    aimed, other = single[0], single[-1]
    k = route_trace_index(w.fig)
    assert k == 0
    browser_click(w.fig, k, first_point(w.fig, other), at=first_point(w.fig, aimed))  # index of one, place of another
    assert g.route_owner(other) is None and g.route_owner(aimed) is None and g.ply == 2
    assert STALE_CLICK in w.status
    browser_click(w.fig, k, first_point(w.fig, aimed))
    assert g.route_owner(aimed) == 0 and STALE_CLICK not in w.status


def test_a_stale_city_click_builds_nothing():
    w = ttr_lab.play("europe", players=["You", "bot"], seed=7)
    w.play_move(KeepTickets(tuple(sorted(t.id for t in w.game.pending_tickets))))
    k = city_trace_index(w.fig)
    names = list(w.fig.data[k].customdata)
    browser_click(w.fig, k, names.index("Roma"), at=names.index("Wien"))
    assert w.game.stations() == {} and STALE_CLICK in w.status


def test_the_scorer_ignores_a_stale_click():
    w = scorer("usa", players=["Ada", "Bob"])
    fig = w.fig
    k = route_trace_index(fig)
    browser_click(fig, k, first_point(fig, 3), at=first_point(fig, 40))
    assert w.routes == [[], []] and "click again" in w.message.value
    browser_click(fig, k, first_point(fig, 3))
    assert w.routes[0] == [3]


def test_clicked_route_needs_the_point_the_browser_drew():
    from types import SimpleNamespace as Click

    w = scorer("usa", players=["Ada", "Bob"])
    fig = w.fig
    tr = fig.data[0]
    i = first_point(fig, 7)
    assert clicked_route(fig, Click(point_inds=[i], xs=[tr.x[i]], ys=[tr.y[i]], trace_index=0)) == 7
    assert clicked_route(fig, Click(point_inds=[i], xs=[], ys=[], trace_index=0)) is None  # where? unknown
    assert clicked_route(fig, Click(point_inds=[i], xs=[tr.x[i]], ys=[tr.y[i]], trace_index=1)) is None  # not routes
    assert clicked_route(fig, Click(point_inds=[10**6], xs=[0.0], ys=[0.0], trace_index=0)) is None
