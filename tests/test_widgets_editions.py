"""PlayWidget on Europe, Rails & Sails and Great Lakes, in plain Python (no browser).

A scripted person plays ``legal_moves[0]`` through the widget's own controls
(city clicks, the payment box, the tunnel box, the refill toggle, the pile
buttons, the setup slider, the exchange dropdown) against a bot; the other
tests arrange positions with ``tests/helpers.arrange`` and check that every
control builds the library's moves and that refusals change nothing.
"""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from plotly.callbacks import Points

import ttr_lab
from ttr_lab import (
    BuildHarbor,
    BuildStation,
    ChoosePieces,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    ExchangePieces,
    KeepTickets,
    PayTunnel,
    StopDrawing,
)
from ttr_lab.board import city_trace_index
from ttr_lab.engine.state import Phase
from ttr_lab.widgets import PlayWidget

from .helpers import arrange, past_setup
from .test_widgets import find

EDITIONS = ("europe", "rails_and_sails", "great_lakes")


def shown(widget):
    return widget.layout.display != "none"


def play_through_controls(widget, m):
    """Play move ``m`` the way a person would, with the widget's controls."""
    g = widget.game
    if isinstance(m, ClaimRoute):
        widget.click_route(m.route)
        if widget._pending_claim:
            widget._pay.value = [x for x in widget._pending_claim].index(m)
            find(widget, "ttr-confirm").click()
    elif isinstance(m, (BuildStation, BuildHarbor)):
        widget.click_city(m.city)
        if widget._pending_claim:
            widget._pay.value = widget._pending_claim.index(m)
            find(widget, "ttr-confirm").click()
    elif isinstance(m, DrawFaceUp):
        if m.refill:
            find(widget, "ttr-refill").value = m.refill
        widget.click_faceup(m.slot)
    elif isinstance(m, DrawBlind):
        find(widget, f"ttr-deck-{m.pile}" if m.pile else "ttr-deck").click()
    elif isinstance(m, StopDrawing):
        assert shown(find(widget, "ttr-stop"))
        find(widget, "ttr-stop").click()
    elif isinstance(m, PayTunnel):
        assert shown(find(widget, "ttr-tunnel-box"))
        pays = [x for x in g.legal_moves if isinstance(x, PayTunnel)]
        find(widget, "ttr-tunnel-options").value = pays.index(m)
        find(widget, "ttr-tunnel-pay").click()
    elif isinstance(m, DeclineTunnel):
        find(widget, "ttr-tunnel-decline").click()
    elif isinstance(m, ChoosePieces):
        assert shown(find(widget, "ttr-pieces-box"))
        find(widget, "ttr-pieces-slider").value = m.trains
        find(widget, "ttr-choose-pieces").click()
    elif isinstance(m, ExchangePieces):
        assert shown(find(widget, "ttr-exchange-box"))
        find(widget, "ttr-exchange").value = widget.controls["exchange"].moves.index(m)
        find(widget, "ttr-exchange-button").click()
    elif isinstance(m, KeepTickets):
        widget.play_move(m)
    else:
        widget.play_move(m)


# --------------------------------------------------------------------------- whole games

PREFER = (PayTunnel, BuildHarbor, BuildStation, ClaimRoute)


def pick(g):
    """``legal_moves[0]``, except that claims and builds go first, so the game ends
    and the city and tunnel controls are used (no rules: only the library's list)."""
    if g.phase != Phase.TURN and g.phase != Phase.TUNNEL:
        return g.legal_moves[0]
    first = {}
    for m in g.legal_moves:
        first.setdefault(type(m), m)
    for kind in PREFER:
        if kind in first:
            if kind is BuildStation and g.ply % 3:
                continue  # build now and then, not at once
            return first[kind]
    return g.legal_moves[0]


@pytest.mark.parametrize("edition", EDITIONS)
def test_scripted_person_plays_a_whole_game_against_a_bot(edition):
    widget = ttr_lab.play(edition, players=["You", "bot"], seed=3)
    g = widget.game
    kinds = set()
    for _ in range(3000):
        if g.is_over:
            break
        assert g.current_player == 0
        m = pick(g)
        kinds.add(type(m).__name__)
        ply = g.ply
        play_through_controls(widget, m)
        assert g.ply > ply, (m, widget.status)
        assert g.move_stack[ply] == m  # the control built exactly that move
    assert g.phase == Phase.GAME_OVER
    assert widget.status.startswith("Game over. Winner:")
    assert widget.fig._widget_data == widget.fig._data
    assert {"ClaimRoute", "DrawFaceUp", "KeepTickets"} <= kinds
    if edition == "europe":
        assert "BuildStation" in kinds


# --------------------------------------------------------------------------- city clicks


def europe_widget(**hand):
    g = arrange(past_setup(ttr_lab.new_game("europe", players=2, seed=1)), hands={0: hand}, current=0)
    return PlayWidget(g)


def test_city_click_builds_a_station_with_a_payment_choice():
    widget = europe_widget(red=2, loco=1)
    g = widget.game
    assert widget.click_city("Wien")
    assert shown(find(widget, "ttr-pay-box"))
    options = [m for m in g.legal_moves if isinstance(m, BuildStation) and m.city == "Wien"]
    assert widget._pending_claim == options and len(options) == 2
    widget._pay.value = options.index(BuildStation("Wien", (("red", 1),)))
    find(widget, "ttr-confirm").click()
    assert g.stations() == {"Wien": 0} and g.current_player == 1
    assert "stations" in find(widget, "ttr-scores").value and "1 built, 2 left" in find(widget, "ttr-scores").value


def test_city_click_through_the_plotly_callback():
    widget = europe_widget(red=1)
    trace = widget.fig.data[city_trace_index(widget.fig)]
    i = list(trace.customdata).index("Roma")
    trace._dispatch_on_click(
        Points(
            point_inds=[i],
            xs=[trace.x[i]],
            ys=[trace.y[i]],
            trace_name="cities",
            trace_index=city_trace_index(widget.fig),
        ),
        None,
    )
    assert widget.game.stations() == {"Roma": 0}  # a single payment: built at once


def test_city_click_shows_the_library_reason_and_changes_nothing():
    widget = europe_widget(red=1)
    g = widget.game
    assert widget.click_city("Wien") and g.stations() == {"Wien": 0}
    g2 = arrange(g, current=0, hands={0: {"red": 1}})
    widget = PlayWidget(g2)
    g = widget.game
    before = g.to_dict()
    assert not widget.click_city("Wien")
    assert g.to_dict() == before
    assert "Cannot build a station in Wien (rule B3)" in widget.status
    assert "Wien already has a station" in widget.status
    # USA has nothing to build
    usa = ttr_lab.play("usa", players=["You", "bot"], seed=1)
    usa.play_move(usa.game.legal_moves[0])
    assert not usa.click_city("Chicago") and "no stations or harbors" in usa.status


def rs_widget(edition="rails_and_sails", seed=2, players=("You", "bot")):
    widget = ttr_lab.play(edition, players=list(players), seed=seed)
    while widget.game.phase == Phase.SETUP_TICKETS:
        widget.play_move(widget.game.legal_moves[0])
    return widget


def past_pieces(widget, trains=20):
    while widget.game.phase == Phase.SETUP_PIECES:
        widget.controls["pieces"].choose(trains)
    return widget


def test_harbor_city_click_builds_when_legal_and_explains_when_not():
    g = ttr_lab.new_game("rails_and_sails", players=2, seed=2)
    while g.phase != Phase.TURN:
        g.play(g.legal_moves[0])
    route = next(
        r
        for r in g.map.routes
        if r.kind in ("train", "ship", None) and any(c.name in (r.a, r.b) and c.harbor for c in g.map.cities)
    )
    harbor_city = next(c.name for c in g.map.cities if c.harbor and c.name in (route.a, route.b))
    bare = arrange(g, current=0, hands={0: {"red-anchor": 2, "red-ship": 2}})
    widget = PlayWidget(bare)
    before = widget.game.to_dict()
    assert not widget.click_city(harbor_city)
    assert widget.game.to_dict() == before
    assert "Cannot build a harbor" in widget.status and "owns no route ending in" in widget.status
    owned = arrange(g, current=0, owners={route.id: 0}, hands={0: {"red-anchor": 2, "red-ship": 2}})
    widget = PlayWidget(owned)
    assert widget.click_city(harbor_city)
    assert widget.game.harbors() == {harbor_city: 0}
    assert "harbors" in find(widget, "ttr-scores").value


# --------------------------------------------------------------------------- tunnels


def tunnel_widget(**hand):
    g = past_setup(ttr_lab.new_game("europe", players=2, seed=1))
    g = arrange(g, hands={0: hand}, deck_top=["yellow", "loco", "blue"], current=0, discard=[])
    widget = PlayWidget(g)
    widget.click_route(80)  # München-Zürich, a yellow 2-space tunnel
    if widget._pending_claim:
        widget._pay.value = widget._pending_claim.index(ClaimRoute(80, (("yellow", 2),)))
        find(widget, "ttr-confirm").click()
    assert widget.game.phase == Phase.TUNNEL
    return widget


def test_tunnel_controls_show_the_reveal_and_pay():
    widget = tunnel_widget(yellow=3, loco=1)
    g = widget.game
    box = find(widget, "ttr-tunnel-box")
    assert shown(box)
    info = find(widget, "ttr-tunnel-info").value
    assert "revealed" in info and "2 more" in info and "yellow" in info
    options = find(widget, "ttr-tunnel-options").options
    assert [m for m in g.legal_moves if isinstance(m, PayTunnel)] == [PayTunnel((("loco", 1), ("yellow", 1)))]
    assert len(options) == 1 and "1 loco" in options[0][0] and "1 yellow" in options[0][0]
    assert "tunnel" in widget.status.lower()
    find(widget, "ttr-tunnel-pay").click()
    assert g.route_owner(80) == 0 and g.phase == Phase.TURN and g.current_player == 1
    assert not shown(box)


def test_tunnel_controls_decline_and_cannot_pay():
    widget = tunnel_widget(yellow=2, blue=3)
    g = widget.game
    assert "cannot pay" in find(widget, "ttr-tunnel-info").value
    before = g.to_dict()
    assert not widget.controls["tunnel"].pay() and "Cannot pay the tunnel" in widget.status
    assert g.to_dict() == before
    find(widget, "ttr-tunnel-decline").click()
    assert g.route_owner(80) is None and g.hand(0) == {"yellow": 2, "blue": 3} and g.current_player == 1


# --------------------------------------------------------------------------- Rails & Sails controls


@pytest.mark.parametrize("edition", ["rails_and_sails", "great_lakes"])
def test_setup_split_slider_is_secret_until_all_have_chosen(edition):
    widget = rs_widget(edition, players=("You", "Friend"))
    g = widget.game
    assert g.phase == Phase.SETUP_PIECES
    slider = find(widget, "ttr-pieces-slider")
    values = sorted(m.trains for m in g.legal_moves)
    assert (slider.min, slider.max) == (values[0], values[-1])
    slider.value = values[0]
    assert (
        f"{values[0]} trains and {g.edition.total_pieces - values[0]} ships" in find(widget, "ttr-pieces-label").value
    )
    find(widget, "ttr-choose-pieces").click()
    assert g.phase == Phase.SETUP_PIECES and g.current_player == 1
    scores = find(widget, "ttr-scores").value
    assert "<td>chosen</td>" in scores and "<td>…</td>" in scores
    assert f"{values[0]} trains" not in widget._log.value + widget.status
    slider.value = values[-1]
    find(widget, "ttr-choose-pieces").click()
    assert g.phase == Phase.TURN
    assert g.trains(0) == values[0] and g.trains(1) == values[-1]
    assert "Pieces revealed" in widget.status
    assert not shown(find(widget, "ttr-pieces-box"))


def test_refill_toggle_and_pile_buttons():
    widget = past_pieces(rs_widget())
    g = widget.game
    assert g.current_player == 0 and g.phase == Phase.TURN
    assert not shown(find(widget, "ttr-deck")) and shown(find(widget, "ttr-deck-ships"))
    slot = next(i for i, c in enumerate(g.row, 1) if c and c != "wild")
    ships = g.deck_size(1)
    find(widget, "ttr-refill").value = "ships"
    widget.click_faceup(slot)
    assert g.move_stack[-1] == DrawFaceUp(slot, "ships") and g.deck_size(1) == ships - 1
    assert g.phase == Phase.SECOND_CARD
    assert shown(find(widget, "ttr-stop"))
    ply = g.ply
    find(widget, "ttr-deck-trains").click()
    assert g.move_stack[ply] == DrawBlind("trains")
    widget.undo()
    assert g.ply == ply and shown(find(widget, "ttr-stop"))
    find(widget, "ttr-stop").click()
    assert g.move_stack[ply] == StopDrawing()


def test_exchange_dropdown_plays_the_legal_exchange():
    widget = past_pieces(rs_widget(), trains=20)
    g = widget.game
    assert g.current_player == 0 and g.phase == Phase.TURN
    box = find(widget, "ttr-exchange-box")
    assert shown(box)
    legal = [m for m in g.legal_moves if isinstance(m, ExchangePieces)]
    assert widget.controls["exchange"].moves == legal
    target = ExchangePieces("trains", 3)
    find(widget, "ttr-exchange").value = legal.index(target)
    score = g.score(0)
    find(widget, "ttr-exchange-button").click()
    assert target in g.move_stack
    assert g.trains(0) == 23 and g.box(0) == (2, 13) and g.score(0) == score - 3


def test_hand_shows_ship_cards_and_wilds_readably():
    widget = past_pieces(rs_widget())
    text = find(widget, "ttr-hand").value
    assert "ships (" in text and "trains (" in text
    assert "double ship" in text or "ship ⚓" in text
    assert "-ship2 ×" not in text
