"""The position editor (ttr_lab.tabletop.seat_view): a game in progress from
the facts one seat knows, as that seat's view, impossible positions refused."""

from __future__ import annotations

import json

import pytest

import ttr_lab
from ttr_lab.analysis.hidden import sample_states
from ttr_lab.errors import NotFoundError, TtrError
from ttr_lab.tabletop import filled_state, seat_view

ROW = ["blue", "blue", "green", "white", "black"]
FACTS = dict(
    players=["Me", "Ann", "Bo"],
    seat=0,
    routes={"Me": [1], "Ann": [57]},
    hand={"red": 3, "loco": 1},
    tickets=[1, 14],
    row=ROW,
    deck=83,
    discard=["red", "red"],
    hand_sizes={"Ann": 7, "Bo": 9},
    ticket_counts={"Ann": 2, "Bo": 3},
)


def test_the_view_holds_the_facts_given():
    v = seat_view("usa", **FACTS)
    assert v.player == 0 and v.hand == {"red": 3, "loco": 1}
    assert [t.id for t in v.tickets] == [1, 14]
    assert v.hand_sizes == (4, 7, 9) and v.ticket_counts == (2, 2, 3)
    assert v.route_owners() == {1: 0, 57: 1}
    ed = ttr_lab.find_edition("usa")
    assert v.pieces == tuple(ed.pieces - ed.map.route(r).length if r else ed.pieces for r in (1, 57, None))


def test_the_unknowns_stay_unknown():
    """Fillings from different seeds are different games with the same view:
    the view holds nothing the facts did not give."""
    a, b = (filled_state("usa", **FACTS, seed=s) for s in (1, 2))
    assert a.to_dict() != b.to_dict()
    assert json.dumps(a.view(0).to_dict(), sort_keys=True) == json.dumps(b.view(0).to_dict(), sort_keys=True)
    assert a.problems() == [] and b.problems() == []


def test_the_analysis_accepts_it():
    v = seat_view("usa", **FACTS)
    for s in sample_states(v, 3, seed=1):
        assert s.problems() == [] and s.view(0).to_dict() == v.to_dict()
    odds = ttr_lab.analysis.ticket_odds(v, playouts=4, seed=1)
    assert sorted(o.ticket.id for o in odds) == [1, 14]
    assert all(0 <= o.low <= o.probability <= o.high <= 1 for o in odds)


def test_europe_and_rails_and_sails_positions():
    v = seat_view(
        "europe",
        players=["Me", "Ann"],
        seat="Me",
        routes={"Me": [1]},
        stations={"Ann": ["Paris"]},
        hand={"red": 2},
        row=ROW,
        hand_sizes={"Ann": 4},
        ticket_counts={"Ann": 3},
    )
    assert v.buildings()["station"] == {"Paris": 1}
    w = seat_view(
        "world",
        players=["Me", "Ann"],
        seat=1,
        row=["pink", "red", "white", "pink-ship", "red-ship2", "black-ship"],
        hand_sizes={"Me": {"trains": 3, "ships": 4}},
    )
    assert w.player == 1 and w.hand_sizes[0] == 7


def facts(**change):
    d = dict(FACTS)
    d.update(change)
    return d


IMPOSSIBLE = [
    (dict(hand={"loco": 15}), "loco"),  # 14 locomotives in the game
    (dict(hand={"red": 9}, discard=["red"] * 4), "red"),  # 12 red cards
    (dict(routes={"Me": list(range(1, 60))}), "trains|double"),
    (dict(trains={"Me": 45}), "trains"),  # route 1 is placed: fewer left
    (dict(tickets=[1, 1]), "ticket 1"),
    (dict(ticket_counts={"Ann": -1, "Bo": 3}), "ticket"),
    (dict(hand={"purple": 1}), "purple"),
    (dict(routes={"Me": [99999]}), "99999"),
    (dict(deck=200), "deck"),
]


@pytest.mark.parametrize("change, match", IMPOSSIBLE)
def test_impossible_positions_are_refused_with_the_reason(change, match):
    with pytest.raises(TtrError, match=match):
        seat_view("usa", **facts(**change))


def test_a_double_route_owned_both_ways_is_refused():
    ed = ttr_lab.find_edition("usa")
    i = next(i for i in range(len(ed.routes)) if ed.route_partner[i] >= 0)
    a, b = ed.routes[i].id, ed.routes[ed.route_partner[i]].id
    with pytest.raises(TtrError, match="double"):
        seat_view("usa", **facts(routes={"Me": [a, b]}))
    with pytest.raises(TtrError, match="with 3 players only one of them is used"):
        seat_view("usa", **facts(routes={"Me": [a], "Ann": [b]}))


def test_an_unknown_player_is_named():
    with pytest.raises(NotFoundError, match="Zed"):
        seat_view("usa", **facts(hand_sizes={"Zed": 3}))


def test_the_editor_widget_makes_the_same_view():
    pytest.importorskip("ipywidgets")
    pytest.importorskip("plotly")
    from ttr_lab.widgets.editor import editor

    w = editor("usa", players=["Me", "Ann", "Bo"], seat="Me")
    assert w.click_route(1)
    w.player.value = 1
    assert w.click_route(57)
    w.player.value = 0
    assert w.add_ticket("1") and w.add_ticket("14")
    w.hand["red"].value, w.hand["loco"].value = 3, 1
    for d, c in zip(w.row, ROW):
        d.value = c
    w.deck.value, w.discard.value = "83", "red, red"
    w.hand_sizes[1].value, w.hand_sizes[2].value = 7, 9
    w.ticket_counts[1].value, w.ticket_counts[2].value = 2, 3
    v = w.make_view()
    assert v is not None and v.to_dict() == seat_view("usa", **FACTS).to_dict()
    w.hand["loco"].value = 15
    assert w.make_view() is None and "refused" in w.result.value and "loco" in w.result.value
    w.hand["loco"].value = 1
    w.deck.value = "lots"
    assert w.make_view() is None and "deck is a number" in w.result.value
