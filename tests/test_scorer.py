"""The table-game scorer (ttr_lab.tabletop): score(edition, players=..., routes=..., tickets=...).

The main property: for a finished game of any edition and player count, the
scorer given only what is on the table at the end (who owns which routes,
stations and harbors, who holds which tickets, pieces exchanged) returns the
same breakdown as the game's own ``outcome()``.  Then each input check, with
the entry it names, and the score sheet's JSON round trip.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.errors import NotFoundError, RecordError, TtrError
from ttr_lab.tabletop import end_position, load_sheet, loads_sheet, save_sheet, score, sheet_to_dict

from .test_bad_input import SPEC_IDS, SPECS
from .test_outcomes import bot_game, players_for

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a whole game per example: no slow shrinking
)


def table_of(g) -> dict:
    """What a person reads off the table at the end of ``g``: the scorer's keyword arguments."""
    names = g.player_names
    routes: dict[str, list[int]] = {p: [] for p in names}
    for rid, seat in g.route_owners().items():
        routes[names[seat]].append(rid)
    kw: dict = {
        "players": list(names),
        "routes": routes,
        "tickets": {names[p]: list(g._tickets[p]) for p in range(g.n)},
    }
    for kind, cities in g.buildings().items():
        kw[kind + "s"] = {p: [c for c, s in cities.items() if s == names.index(p)] for p in names}  # in build order
    if "exchanged" in g.edition.state_api:
        kw["exchanged"] = {names[p]: g.exchanged(p) for p in range(g.n)}
    return kw


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(data=st.data())
def test_the_scorer_agrees_with_the_game(name, opts, data):
    n = data.draw(st.sampled_from(players_for(name, opts)), label="players")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    g = bot_game(name, opts, n, seed, bot=data.draw(st.sampled_from(["random", "greedy"])))
    assert g.is_over
    out = score(name, options=opts or None, **table_of(g))
    want = g.outcome()
    assert out.scores == want.scores and out.winners == want.winners
    assert str(out) == str(want)  # the whole breakdown: routes, tickets and paths, longest path, bonuses


def test_a_hand_made_usa_table():
    out = score("usa", players=["Ada", "Bob"], routes={"Ada": [1, 2], "Bob": [57]}, tickets={"Ada": [1]})
    ed = ttr_lab.find_edition("usa")
    ada_routes = ed.route_points[ed.map.route(1).length] + ed.route_points[ed.map.route(2).length]
    ticket = ed.map.ticket(1)
    assert out.scores[0] == ada_routes - ticket.points + 10  # Boston-Miami missed, longest path bonus
    assert list(out.winners) == [0]


BAD = [
    (dict(routes={"Ada": [99999]}), NotFoundError, r"routes\[Ada\]: there is no route 99999"),
    (dict(routes={"Ada": ["1"]}), NotFoundError, r"routes\[Ada\]"),
    (dict(routes={"Ada": [1], "Bob": [1]}), TtrError, "route 1 .* given to both Ada and Bob"),
    (dict(routes={"Ada": [1, 1]}), TtrError, r"routes\[Ada\]: route 1 .* listed twice"),
    (dict(routes={"Zed": [1]}), NotFoundError, "routes: no player 'Zed'"),
    (dict(routes={"Ada": 1}), TtrError, r"routes\[Ada\] is a list"),
    (dict(routes=[1, 2]), TtrError, "routes is a dict"),
    (dict(tickets={"Ada": [1], "Bob": [1]}), TtrError, "ticket 1 .* held by both Ada and Bob"),
    (dict(tickets={"Ada": [1, 1]}), TtrError, "ticket 1 .* held twice"),
    (dict(tickets={"Ada": [5000]}), NotFoundError, r"tickets\[Ada\]: there is no ticket 5000"),
    (dict(stations={"Ada": ["Denver"]}), TtrError, "stations: usa has no stations"),
    (dict(harbors={"Ada": ["Denver"]}), TtrError, "harbors: usa has no harbors"),
    (dict(exchanged={"Ada": 1}), TtrError, "exchanged: usa has no exchanged"),
    # a route or ticket named by its cities: the message says which id to give
    (dict(routes={"Ada": ["Portland-Seattle"]}), NotFoundError, "given by id: 'Portland-Seattle' is route 91"),
    (dict(tickets={"Ada": ["miami-Boston"]}), NotFoundError, "given by id: 'miami-Boston' is ticket 1"),
    (dict(routes={"Ada": ["Narnia-Oz"]}), NotFoundError, r"Narnia-Oz on the usa map \(routes are given by id\)"),
]


@pytest.mark.parametrize("kw, error, match", BAD)
def test_bad_input_names_the_entry(kw, error, match):
    with pytest.raises(error, match=match):
        score("usa", players=["Ada", "Bob", "Cy"], **kw)


def double_route(ed):
    for i, r in enumerate(ed.routes):
        if ed.route_partner[i] >= 0:
            return r.id, ed.routes[ed.route_partner[i]].id
    raise AssertionError("no double route")


def test_double_routes():
    ed = ttr_lab.find_edition("usa")
    a, b = double_route(ed)
    with pytest.raises(TtrError, match=r"routes\[Ada\]: routes .* two routes of a double; no player may own both"):
        score("usa", players=["Ada", "Bob", "Cy", "Di"], routes={"Ada": [a, b]})
    with pytest.raises(TtrError, match="with 3 players only one of them is used"):
        score("usa", players=["Ada", "Bob", "Cy"], routes={"Ada": [a], "Bob": [b]})
    out = score("usa", players=["Ada", "Bob", "Cy", "Di"], routes={"Ada": [a], "Bob": [b]})
    assert out.scores[0] > 0 and out.scores[1] > 0


def test_more_trains_than_a_player_has():
    ed = ttr_lab.find_edition("usa")
    singles = [r.id for i, r in enumerate(ed.routes) if ed.route_partner[i] < 0]
    many, total = [], 0
    for rid in singles:
        many.append(rid)
        total += ed.map.route(rid).length
        if total > ed.pieces:
            break
    with pytest.raises(TtrError, match=rf"routes\[Ada\]: {total} trains placed, but a player has {ed.pieces}"):
        score("usa", players=["Ada", "Bob"], routes={"Ada": many})


def test_europe_stations_and_rails_and_sails_harbors_are_checked():
    with pytest.raises(NotFoundError, match=r"stations\[Ada\]: there is no city 'Atlantis'"):
        score("europe", players=["Ada", "Bob"], stations={"Ada": ["Atlantis"]})
    with pytest.raises(TtrError, match="stations: Paris has two stations"):
        score("europe", players=["Ada", "Bob"], stations={"Ada": ["Paris"], "Bob": ["Paris"]})
    with pytest.raises(TtrError, match=r"stations\[Ada\]: 4 stations, but a player has 3"):
        score("europe", players=["Ada", "Bob"], stations={"Ada": ["Paris", "Roma", "Wien", "Berlin"]})
    ed = ttr_lab.find_edition("world")
    city = sorted(ed._harbor_cities)[0]
    with pytest.raises(TtrError, match=rf"harbors\[Ada\]: Ada owns no route ending in {city}"):
        score("world", players=["Ada", "Bob"], harbors={"Ada": [city]})


def test_the_score_sheet_round_trips(tmp_path):
    kw = dict(players=["Ada", "Bob"], routes={"Ada": [1, 2], "Bob": [57]}, tickets={"Ada": [1], "Bob": [2]})
    sheet = sheet_to_dict("usa", **kw)
    assert sheet["result"]["scores"] == list(score("usa", **kw).scores)
    path = tmp_path / "table.json"
    save_sheet(path, "usa", **kw)
    assert score(**load_sheet(path)) == score("usa", **kw)
    assert score(**loads_sheet(json.dumps(sheet))) == score("usa", **kw)
    bad = dict(sheet, result={"scores": [0, 0], "winners": [0]})
    with pytest.raises(RecordError, match="result"):
        loads_sheet(json.dumps(bad))
    with pytest.raises(RecordError, match="format"):
        loads_sheet(json.dumps(dict(sheet, format="ttr_lab.record")))
    with pytest.raises(RecordError, match="routes"):
        loads_sheet(json.dumps(dict(sheet, routes=[[1]])))


def test_the_end_position_is_a_finished_checked_game():
    g = end_position("usa", players=["Ada", "Bob"], routes={"Ada": [1, 2]}, tickets={"Ada": [1]})
    assert g.is_over and g.problems() == []
    assert g.route_owners() == {1: 0, 2: 0}
