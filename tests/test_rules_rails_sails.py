"""Scenarios 30-43: Rails & Sails, World and Great Lakes (docs/rules.md B4,
B5, with A2, A3, C6, C9), one test or more each (``test_scenario_NN_...``),
plus property tests over random seeded games of both maps (conservation of
every card and piece type, undo, JSON round trip, running score,
termination), a brute-force check of claim and harbor move generation,
record replay, bots, and the per-player view.

Positions are arranged through the public snapshot API
(``tests/helpers.arrange``), which checks conservation on every arrangement."""

from __future__ import annotations

import json
import random
from itertools import product

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab import (
    BuildHarbor,
    ChoosePieces,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    ExchangePieces,
    IllegalMoveError,
    KeepTickets,
    Phase,
    StopDrawing,
)
from ttr_lab.engine.scoring import route_points, ticket_status
from ttr_lab.records import Record, dumps

from .helpers import arrange, new_usa, past_setup, random_game, snapshot

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
W = "wild"
EDITIONS = ("rails_and_sails", "great_lakes")


# ---------------------------------------------------------------------- helpers
def pay(**cards: int) -> tuple[tuple[str, int], ...]:
    """Cards by name; ``_`` stands for ``-`` (``green_ship2`` is ``green-ship2``)."""
    return tuple(sorted((k.replace("_", "-"), v) for k, v in cards.items() if v))


def only(hands: dict[int, dict[str, int]]) -> dict[int, dict[str, int]]:
    """Hands for ``arrange``: these seats hold these cards, every other seat none."""
    return {p: hands.get(p, {}) for p in range(5)}


def claim(route: int, **cards: int) -> ClaimRoute:
    return ClaimRoute(route, pay(**cards))


def harbor(city: str, **cards: int) -> BuildHarbor:
    return BuildHarbor(city, pay(**cards))


def new_rs(
    edition: str = "world", players: int = 4, seed: int = 1, trains: int | list[int] = 20, **options
) -> ttr_lab.GameState:
    """A game past its setup: first legal ticket choice, then ``trains`` trains each."""
    g = past_setup(ttr_lab.new_game(edition, players=players, seed=seed, **options))
    choices = trains if isinstance(trains, list) else [trains] * players
    while g.phase == Phase.SETUP_PIECES:
        g.play(ChoosePieces(choices[g.current_player]))
    assert g.phase == Phase.TURN
    return g


def network(m: ttr_lab.Map, pairs: list[tuple[str, str]], avoid: tuple[str, ...] = ()) -> set[int]:
    """Route ids joining each pair along a shortest path (one route per city pair)."""
    G = nx.Graph()
    for r in m.routes:
        if r.a in avoid or r.b in avoid:
            continue
        if not G.has_edge(r.a, r.b) or G[r.a][r.b]["w"] > r.length:
            G.add_edge(r.a, r.b, w=r.length, id=r.id)
    out: set[int] = set()
    for a, b in pairs:
        path = nx.dijkstra_path(G, a, b, weight="w")
        out.update(G[u][v]["id"] for u, v in zip(path, path[1:]))
    return out


def card_counts(g: ttr_lab.GameState) -> dict[str, dict[str, int]]:
    """Every card type by where it is: per pile (deck + discard), row, hands."""
    d = g.to_dict()
    out: dict[str, dict[str, int]] = {}
    for where in ("decks", "discards"):
        for pile, cards in d[where].items():
            for c in cards:
                out.setdefault(c, {}).setdefault(pile, 0)
                out[c][pile] += 1
    for c in d["row"]:
        if c is not None:
            out.setdefault(c, {}).setdefault("row", 0)
            out[c]["row"] += 1
    for h in d["hands"]:
        for c, k in h.items():
            out.setdefault(c, {}).setdefault("hands", 0)
            out[c]["hands"] += k
    return out


# ---------------------------------------------------------------------- scenario 30
def test_scenario_30_setup_cards_row_tickets_and_pieces():
    g = ttr_lab.new_game("world", players=4, seed=3)
    ed = g.edition
    kinds = {ct.name: ct.kind for ct in ed.card_types}
    for p in range(4):
        hand = g.hand(p)
        ships = sum(k for c, k in hand.items() if kinds[c] == "ship")
        assert sum(hand.values()) == 10 and ships == 7  # 3 train (wilds are train cards) + 7 ship
    assert [kinds[c] == "ship" for c in g.row] == [False] * 3 + [True] * 3
    assert len(ed.ticket_deck()) == 65 and sum(1 for t in ed.ticket_deck() if g.map.ticket(t).is_tour) == 8
    dealt = sorted(t.id for t in g.pending_tickets)
    assert len(dealt) == 5
    with pytest.raises(IllegalMoveError, match="must keep at least 3 of the 5 tickets at setup"):
        g.play(KeepTickets(tuple(dealt[:2])))
    assert g.legal_moves.count() == 16  # C(5,3) + C(5,4) + C(5,5)
    while g.phase == Phase.SETUP_TICKETS:
        g.play(g.legal_moves[0])
    assert g.phase == Phase.SETUP_PIECES and g.current_player == 0
    for bad in (9, 26):
        with pytest.raises(IllegalMoveError, match="choose 10 to 25 trains"):
            g.play(ChoosePieces(bad))
    g.play(ChoosePieces(20))
    assert g.pieces(0) == 0 and g.pieces_chosen(0)  # not revealed yet
    for _ in range(3):
        g.play(ChoosePieces(12))
    assert g.phase == Phase.TURN and g.current_player == 0
    assert (g.trains(0), g.ships(0), g.box(0)) == (20, 40, (5, 10))
    assert (g.trains(1), g.ships(1), g.box(1)) == (12, 48, (13, 2))
    assert g.harbors_left(0) == 3 and g.harbors() == {}
    assert g.problems() == []


def test_scenario_30_great_lakes_setup():
    g = ttr_lab.new_game("great_lakes", players=3, seed=2)
    kinds = {ct.name: ct.kind for ct in g.edition.card_types}
    for p in range(3):
        hand = g.hand(p)
        assert sum(hand.values()) == 4 and sum(k for c, k in hand.items() if kinds[c] == "ship") == 2
    assert len(g.edition.ticket_deck()) == 55 and len(g.pending_tickets) == 5
    past_setup(g)
    assert [str(m) for m in g.legal_moves] == [f"pieces {t}" for t in range(18, 34)]
    with pytest.raises(IllegalMoveError, match="choose 18 to 33 trains"):
        g.play(ChoosePieces(17))
    for t in (18, 33, 25):
        g.play(ChoosePieces(t))
    assert [(g.trains(p), g.ships(p), g.box(p)) for p in range(3)] == [
        (18, 32, (15, 0)),
        (33, 17, (0, 15)),
        (25, 25, (8, 7)),
    ]


def test_piece_choices_stay_secret_until_all_have_chosen():
    def view_after(first_choice: int) -> tuple[dict, dict]:
        g = past_setup(ttr_lab.new_game("world", players=3, seed=4))
        g.play(ChoosePieces(first_choice))
        before = g.view(1).to_dict()
        g.play(ChoosePieces(15))
        return before, g.view(2).to_dict()

    a, a2 = view_after(10)
    b, b2 = view_after(25)
    assert a == b and a2 == b2  # nothing in the other seats' views depends on seat 0's choice
    assert a["pieces"] == [0, 0, 0]
    g = past_setup(ttr_lab.new_game("world", players=3, seed=4))
    for t in (10, 15, 20):
        g.play(ChoosePieces(t))
    assert g.view(1).to_dict()["pieces"] == [60, 60, 60]  # revealed together: all in supply
    assert (g.trains(0), g.trains(2)) == (10, 20)


# ---------------------------------------------------------------------- scenario 31
def test_scenario_31_refill_from_the_chosen_deck_with_fallback():
    g = new_rs()
    row = ["red", "green", "white", "red-ship", "green-ship2", "black-ship"]
    h = arrange(g, row=row, deck_top=["yellow", "pink-ship"], current=0)
    h.play(DrawFaceUp(4, "trains"))  # take the red ship card, refill from the train deck
    assert h.row[3] == "yellow" and h.hand(0).get("red-ship", 0) >= 1
    # an empty train deck and discard: the replacement comes from the ship deck
    h = arrange(g, row=row, deck_top=["pink-ship"], deck_size={"trains": 0}, rest=3, current=0, hands=only({0: {}}))
    assert h.deck_size(0) == 0 and h.discard_size(0) == 0
    h.play(DrawFaceUp(4, "trains"))
    assert h.row[3] == "pink-ship"
    # both piles empty: the slot stays empty and the row has 5 cards
    h = arrange(g, row=row, deck_size=0, rest=3, current=0, hands=only({0: {}}))
    h.play(DrawFaceUp(4, "ships"))
    assert h.row[3] is None and sum(c is not None for c in h.row) == 5
    assert h.phase == Phase.SECOND_CARD  # other face-up cards can still be taken


def test_face_up_draw_needs_a_refill_choice():
    g = arrange(new_rs(), current=0)
    rule, reason = g.why_illegal(DrawFaceUp(1))
    assert rule == "B4" and "refill trains" in reason
    assert g.why_illegal(ttr_lab.parse_move("faceup 2 refill boats"))[0] == "B4"
    assert ttr_lab.parse_move("faceup 2 refill ships") in g.legal_moves
    assert DrawBlind("ships") in g.legal_moves and DrawBlind() not in list(g.legal_moves)


# ---------------------------------------------------------------------- scenario 32
def test_scenario_32_wild_rules_and_stopping_after_one_card():
    g = new_rs()
    row = [W, "red", "green", "red-ship", "green-ship2", "black-ship"]
    h = arrange(g, row=row, deck_top=["yellow", "white"], current=0)
    h.play(DrawFaceUp(1, "trains"))
    assert h.current_player == 1 and h.phase == Phase.TURN  # a face-up wild ends the draw
    h = arrange(g, row=row, deck_top=["yellow", "white"], current=0)
    h.play(DrawFaceUp(4, "trains"))
    assert h.phase == Phase.SECOND_CARD
    assert h.why_illegal(DrawFaceUp(1, "ships")) == ("A2", "a face-up wild card cannot be taken as the second card")
    assert not any(isinstance(m, DrawFaceUp) and m.slot == 1 for m in h.legal_moves)
    assert StopDrawing() in h.legal_moves  # C6: one card is enough
    h.play(StopDrawing())
    assert h.current_player == 1
    # a blind wild counts as one card
    h = arrange(g, row=["red"] * 3 + ["red-ship"] * 3, deck_top=[W, "white"], current=0)
    h.play(DrawBlind("trains"))
    assert h.phase == Phase.SECOND_CARD and h.hand(0)[W] >= 1
    # USA: the same stop is rejected while a second pick is legal
    u = arrange(new_usa(), row=["red", "blue", "green", "yellow", "black"], current=0)
    u.play(DrawFaceUp(1))
    with pytest.raises(IllegalMoveError, match="second card is mandatory"):
        u.play(StopDrawing())


# ---------------------------------------------------------------------- scenario 33
def test_scenario_33_three_wild_reset_after_a_refill():
    g = new_rs()
    new_trains = ["yellow", "pink", "white"]
    new_ships = ["yellow-ship", "pink-ship2", "white-ship"]
    h = arrange(
        g,
        row=[W, W, "red", "red-ship", "green-ship2", "black-ship"],
        deck_top=[W] + new_trains + new_ships,
        discard=[],
        current=0,
    )
    h.play(DrawFaceUp(4, "trains"))  # take the red ship card; the replacement is the third wild
    assert h.resets == 1
    d = h.to_dict()
    assert sorted(d["discards"]["trains"]) == sorted([W, W, W, "red"])  # wilds to the train discard
    assert sorted(d["discards"]["ships"]) == ["black-ship", "green-ship2"]
    assert list(h.row) == new_trains + new_ships  # 3 from each deck, top first
    assert h.phase == Phase.SECOND_CARD
    assert DrawFaceUp(2, "ships") in h.legal_moves and StopDrawing() in h.legal_moves
    h.play(DrawFaceUp(2, "ships"))
    assert h.hand(0).get("pink", 0) >= 1 and h.current_player == 1


def test_reset_shortfall_comes_from_the_other_pile():
    # the ship deck and discard are empty: the replacement and, after the reset,
    # two of the three ship slots come from the train deck (C15)
    g = new_rs()
    h = arrange(
        g,
        row=["red", W, W, "red-ship", "green-ship", "yellow-anchor"],
        deck_top=[W, "yellow", "pink", "white", "black", "green"],
        deck_size={"trains": 30, "ships": 0},
        rest=3,
        current=0,
        discard=[],
    )
    h.play(DrawFaceUp(4, "ships"))  # the ship pile is empty: the replacement is the train deck's wild
    assert h.resets == 1
    assert list(h.row) == ["yellow", "pink", "white", "green-ship", "black", "green"]
    assert h.problems() == []


def test_endless_reset_is_not_attempted():
    # every non-wild train card is in a hand: a new row would always show three wilds again
    g = new_rs()
    trains = dict.fromkeys(("pink", "yellow", "green", "red", "black", "white"), 7)
    trains.update({f"{c}-anchor": 4 for c in ("pink", "yellow", "green", "red", "black", "white")})
    trains["red"] -= 1
    h = arrange(
        g,
        row=[W, W, "red", "red-ship", "green-ship2", "black-ship"],
        deck_top=[W],
        hands=only({0: {}, 1: trains, 2: {}, 3: {}}),
        current=0,
    )
    h.play(DrawFaceUp(3, "trains"))
    assert h.row.count(W) >= 3 and h.resets == 0


# ---------------------------------------------------------------------- scenario 34
def test_scenario_34_ship_payments():
    g = new_rs()
    L3, L4 = 30, 116  # Buenos Aires-Valparaiso, Murmansk-Reykjavik: green ship routes
    assert (g.map.route(L3).length, g.map.route(L3).color, g.map.route(L3).kind) == (3, "green", "ship")
    assert (g.map.route(L4).length, g.map.route(L4).color, g.map.route(L4).kind) == (4, "green", "ship")
    h = arrange(g, hands=only({0: {"green-ship2": 2, "green-ship": 1}}), current=0)
    assert claim(L3, green_ship2=2) in h.legal_moves  # overpaid by 1, doubles only
    assert claim(L3, green_ship2=1, green_ship=1) in h.legal_moves
    assert h.why_illegal(claim(L3, green_ship2=2, green_ship=1))[0] == "B4"
    assert {m for m in h.legal_moves if isinstance(m, ClaimRoute) and m.route == L3} == {
        claim(L3, green_ship=1, green_ship2=1),
        claim(L3, green_ship2=2),
    }
    h = arrange(g, hands=only({0: {"green-ship": 1, "green-ship2": 2, W: 1}}), current=0)
    with pytest.raises(IllegalMoveError, match="superfluous"):
        h.play(claim(L4, green_ship=1, green_ship2=2))
    assert claim(L4, green_ship=1, green_ship2=1, wild=1) in h.legal_moves
    assert claim(L4, green_ship2=2) in h.legal_moves
    h.play(claim(L4, green_ship=1, green_ship2=1, wild=1))
    assert h.ships(0) == 40 - 4 and h.trains(0) == 20 and h.score(0) == 7
    assert h.hand(0) == {"green-ship2": 1}


# ---------------------------------------------------------------------- scenario 35
def test_scenario_35_train_routes_take_train_cards():
    g = new_rs()
    train2, ship2 = 11, 12  # Athina-Hamburg (green train, 2), Athina-Marseille (red ship, 2)
    h = arrange(g, hands=only({0: {"green-ship2": 1, "green-ship": 2, W: 2, "red-ship": 2}}), current=0)
    with pytest.raises(
        IllegalMoveError, match="train route takes train cards and wilds, not the ship card green-ship2"
    ):
        h.play(claim(train2, green_ship2=1))
    assert h.why_illegal(claim(train2, green_ship=2))[0] == "B4"
    assert claim(train2, wild=2) in h.legal_moves
    assert claim(ship2, wild=2) in h.legal_moves
    assert h.why_illegal(claim(ship2, red=2)) is not None  # no red train cards in hand, and trains don't pay ships
    h2 = arrange(g, hands=only({0: {"red": 2, "red-anchor": 1}}), current=0)
    assert h2.why_illegal(claim(ship2, red=1, red_anchor=1))[1].startswith("a ship route takes ship cards")
    h.play(claim(train2, wild=2))
    assert h.trains(0) == 18 and h.ships(0) == 40


# ---------------------------------------------------------------------- scenario 36
def test_scenario_36_paired_routes():
    g = new_rs()
    route = 10  # Anchorage-Vancouver, paired gray train route of 2
    r = g.map.route(route)
    assert r.paired and r.length == 2 and r.color == "gray"
    h = arrange(g, hands=only({0: {"red": 3, "red-anchor": 1, "yellow": 2, W: 1}}), current=0)
    legal = [m for m in h.legal_moves if isinstance(m, ClaimRoute) and m.route == route]
    for ok in (
        claim(route, red=2, yellow=2),
        claim(route, red=3, red_anchor=1),
        claim(route, red=3, wild=1),
        claim(route, red=1, red_anchor=1, yellow=2),
    ):
        assert ok in legal and h.why_illegal(ok) is None
    with pytest.raises(IllegalMoveError, match="pairs of one colour"):
        h.play(claim(route, red=3, yellow=1))
    with pytest.raises(IllegalMoveError, match="exactly 4 train cards"):
        h.play(claim(route, red=2, wild=1))
    h.play(claim(route, red=2, yellow=2))
    assert h.trains(0) == 18 and h.score(0) == 2  # 2 trains placed, route_table[2]
    assert h.hand(0) == {"red": 1, "red-anchor": 1, W: 1}


# ---------------------------------------------------------------------- scenario 37
def test_scenario_37_harbors():
    g = new_rs()
    casablanca_lagos = 49
    h = arrange(
        g,
        owners={casablanca_lagos: 0},
        hands=only({0: {"green-anchor": 3, "green-ship": 2, "green-ship2": 1, "green": 1, "red-ship": 1, W: 2}}),
        current=0,
    )
    ok = harbor("Casablanca", green_anchor=2, green_ship=1, wild=1)
    assert ok in h.legal_moves and h.why_illegal(ok) is None
    assert {m.city for m in h.legal_moves if isinstance(m, BuildHarbor)} == {"Casablanca", "Lagos"}
    assert h.why_illegal(harbor("Casablanca", green_anchor=2, green_ship=1, green_ship2=1))[1].startswith(
        "double-ship cards have no harbor symbol"
    )
    assert "has no harbor symbol" in h.why_illegal(harbor("Casablanca", green_anchor=1, green=1, green_ship=2))[1]
    assert h.why_illegal(harbor("Casablanca", green_anchor=2, green_ship=1, red_ship=1))[1].startswith("mixed colours")
    assert harbor("Casablanca", green_anchor=2, wild=2) in h.legal_moves  # wilds replace the ship cards
    assert h.why_illegal(harbor("Casablanca", green_anchor=3, green_ship=1))[1].startswith(
        "a harbor takes 2 train cards and 2 ship cards"
    )
    assert h.why_illegal(harbor("Casablanca", green_anchor=1, green_ship=2, wild=2))[1].startswith(
        "a harbor costs exactly 4"
    )
    assert (
        h.why_illegal(harbor("New York", green_anchor=2, green_ship=2))[1]
        == "the player owns no route ending in New York"
    )
    assert h.why_illegal(harbor("Indian Ocean", green_anchor=2, green_ship=2))[1] == "Indian Ocean is not a harbor city"
    h.play(ok)
    assert h.harbors() == {"Casablanca": 0} and h.score(0) == 7  # no points now
    assert h.hand(0) == {"green-anchor": 1, "green-ship": 1, "green-ship2": 1, "green": 1, "red-ship": 1, W: 1}
    assert h.to_dict()["discards"]["ships"][-1:] == ["green-ship"]
    # a second harbor in Casablanca, by any player, is rejected
    h2 = arrange(h, owners={casablanca_lagos: 0, 2: 1}, current=1)  # seat 1 owns Al-Qahira-Casablanca
    assert h2.why_illegal(harbor("Casablanca", green_anchor=2, green_ship=2))[1].startswith(
        "Casablanca already has a harbor"
    )
    # a 4th harbor is rejected
    # (seat 0 also owns Athina-Tehran and Miami-New York: a harbor is at the end of its owner's route)
    h3 = arrange(
        h,
        owners={casablanca_lagos: 0, 13: 0, 109: 0},
        extra={"harbors": [["Casablanca", "Athina", "Miami"], [], [], []]},
        current=0,
    )
    assert h3.why_illegal(harbor("Lagos", green_ship=1, wild=1))[1] == "the player has built all 3 harbors"
    assert not any(isinstance(m, BuildHarbor) for m in h3.legal_moves)


def test_harbor_wilds_option_c7():
    g = new_rs(harbor_wilds=False)
    h = arrange(g, owners={49: 0}, hands=only({0: {"green-anchor": 2, "green-ship": 1, W: 3}}), current=0)
    rule, reason = h.why_illegal(harbor("Casablanca", green_anchor=2, green_ship=1, wild=1))
    assert rule == "C7" and "harbor_wilds=False" in reason
    assert not any(isinstance(m, BuildHarbor) for m in h.legal_moves)
    h = arrange(g, owners={49: 0}, hands=only({0: {"green-anchor": 2, "green-ship": 2}}), current=0)
    assert [m for m in h.legal_moves if isinstance(m, BuildHarbor)] == [
        harbor("Casablanca", green_anchor=2, green_ship=2),
        harbor("Lagos", green_anchor=2, green_ship=2),
    ]


# ---------------------------------------------------------------------- scenario 38
def _scored(g: ttr_lab.GameState, player: int):
    return g.outcome().players[player]


def test_scenario_38_harbor_points():
    g = new_rs(trains=[25, 20, 20, 20])
    m = g.map
    owners = network(
        m, [("Casablanca", "Honolulu"), ("Casablanca", "Yakutsk"), ("Lagos", "Tehran")], avoid=("Hong Kong",)
    )
    h = arrange(
        g,
        owners=dict.fromkeys(owners, 0),
        tickets={0: [10, 11, 22, 23]},
        extra={"harbors": [["Casablanca", "Lagos"], [], [], []]},
    )
    done = {t.ticket.id: t.completed for t in ticket_status(h, 0)}
    assert done == {10: True, 11: True, 22: False, 23: True}
    adj = dict(_scored(h, 0).adjustments)
    assert adj["harbor Casablanca (2 completed tickets)"] == 30
    assert adj["harbor Lagos (1 completed ticket)"] == 20
    assert adj["unbuilt harbors (1)"] == -4
    assert sum(adj.values()) == 46


def test_scenario_38_rulebook_example():
    g = new_rs()
    m = g.map
    owners = network(
        m,
        [
            ("Buenos Aires", "Manila"),
            ("Buenos Aires", "Sydney"),
            ("Hamburg", "Dar Es Salaam"),
            ("Lagos", "Luanda"),
            ("Luanda", "Dar Es Salaam"),
            ("Dar Es Salaam", "Djibouti"),
        ],
    )
    h = arrange(
        g,
        owners=dict.fromkeys(owners, 0),
        tickets={0: [4, 6, 19, 61]},
        extra={"harbors": [["Buenos Aires", "Dar Es Salaam"], [], [], []]},
    )
    results = ticket_status(h, 0)
    assert all(t.completed for t in results)
    tour = next(t for t in results if t.ticket.is_tour)
    assert tour.how == "in order" and tour.points == 9 and "tour, in order" in str(tour)
    adj = dict(_scored(h, 0).adjustments)
    assert adj["harbor Buenos Aires (2 completed tickets)"] == 30
    assert adj["harbor Dar Es Salaam (2 completed tickets)"] == 30


def test_scenario_38_great_lakes_harbor_table():
    g = new_rs("great_lakes", players=2, trains=25)
    owners = network(
        g.map, [("Chicago", "New York"), ("Chicago", "Toronto"), ("Chicago", "Detroit"), ("Cleveland", "Toronto")]
    )
    h = arrange(
        g,
        owners=dict.fromkeys(owners, 0),
        tickets={0: [7, 9, 11, 12]},
        extra={"harbors": [["Chicago", "Toronto", "Cleveland"], []]},
    )
    assert all(t.completed for t in ticket_status(h, 0))
    adj = dict(_scored(h, 0).adjustments)
    assert adj == {
        "harbor Chicago (3 completed tickets)": 30,
        "harbor Toronto (2 completed tickets)": 20,
        "harbor Cleveland (1 completed ticket)": 10,
    }
    assert g.edition.harbor_points == {1: 10, 2: 20, 3: 30}


def test_harbor_with_no_completed_ticket_scores_nothing():
    g = new_rs(players=2)
    h = arrange(g, owners={49: 0, 88: 1}, tickets={0: [22]}, extra={"harbors": [["Casablanca"], ["Lagos"]]})
    assert dict(_scored(h, 0).adjustments)["harbor Casablanca (0 completed tickets)"] == 0
    assert dict(_scored(h, 1).adjustments)["unbuilt harbors (2)"] == -8


# ---------------------------------------------------------------------- scenario 39
def test_scenario_39_exchange_pieces():
    g = new_rs()
    h = arrange(g, current=0)
    assert (h.trains(0), h.ships(0), h.box(0)) == (20, 40, (5, 10))
    exchanges = [str(m) for m in h.legal_moves if isinstance(m, ExchangePieces)]
    assert exchanges == [f"exchange ships {k}" for k in range(1, 11)] + [f"exchange trains {k}" for k in range(1, 6)]
    h.play(ttr_lab.parse_move("exchange trains 2"))
    assert (h.trains(0), h.ships(0), h.box(0)) == (22, 38, (3, 12))
    assert h.score(0) == -2 and h.exchanged(0) == 2 and h.current_player == 1
    assert dict(_scored(h, 0).adjustments)["pieces exchanged (2)"] == -2
    assert h.problems() == []
    h2 = arrange(g, current=0)
    with pytest.raises(IllegalMoveError, match="the box holds only 5 of the player's trains"):
        h2.play(ExchangePieces("trains", 6))
    assert h2.why_illegal(ExchangePieces("trains", 0))[0] == "B4"


def test_exchanges_never_trigger_the_end_and_can_go_negative():
    g = new_rs(players=2)
    h = arrange(g, current=0)
    for _ in range(3):
        h.play(ExchangePieces("ships", 10))
        h.play(ExchangePieces("ships", 10))
        h.play(ExchangePieces("trains", 10))
        h.play(ExchangePieces("trains", 10))
    assert h.scores == (-60, -60) and h.final_turns_left is None and h.problems() == []


def _all_cards(g: ttr_lab.GameState) -> dict[str, int]:
    return {
        ct.name: sum(k for pile in g.edition.deck_composition for c, k in pile if c == i)
        for i, ct in enumerate(g.edition.card_types)
    }


def test_a_round_of_turns_with_nothing_but_exchanges_ends_the_game():
    # nothing to draw, no tickets; seat 1 holds every card but has no piece in
    # supply (it can only pass), seat 0 holds nothing (it can only exchange)
    g = new_rs(players=2)
    h = arrange(
        g,
        row=[None] * 6,
        deck_size=0,
        hands=only({0: {}, 1: _all_cards(g)}),
        current=0,
        ticket_deck_size=0,
        pieces={1: 0},
        extra={"ships": [40, 0], "box": [{"trains": 5, "ships": 10}, {"trains": 25, "ships": 50}]},
    )
    assert {type(m) for m in h.legal_moves} == {ExchangePieces}
    h.play(ExchangePieces("trains", 1))
    assert h.to_dict()["passes"] == 1  # counted like a pass: the exchange opened no claim
    assert list(h.legal_moves) == [ttr_lab.Pass()]
    h.play(ttr_lab.Pass())
    assert h.is_over
    # an exchange that makes a claim possible is a real action
    cards = _all_cards(g)
    cards["green"] -= 2
    h = arrange(
        g,
        row=[None] * 6,
        deck_size=0,
        hands=only({0: {"green": 2}, 1: cards}),
        current=0,
        ticket_deck_size=0,
        pieces={0: 0, 1: 0},
        extra={"ships": [45, 0], "box": [{"trains": 25, "ships": 5}, {"trains": 25, "ships": 50}]},
    )
    assert not any(isinstance(m, ClaimRoute) for m in h.legal_moves)
    h.play(ExchangePieces("trains", 2))
    assert h.to_dict()["passes"] == 0
    h.play(ttr_lab.Pass())
    assert not h.is_over and claim(11, green=2) in h.legal_moves


# ---------------------------------------------------------------------- scenario 40
@pytest.mark.parametrize("mode, case_b", [("trail", 6), ("simple_path", 6), ("walk", 9)])
def test_scenario_40_tours(mode, case_b):
    g = new_rs(players=2, tour_order=mode)
    tour = 60
    assert g.map.ticket(tour).cities == ("Casablanca", "Al-Qahira", "Tehran")

    def result(owned: set[int]):
        h = arrange(g, owners=dict.fromkeys(owned, 0), tickets={0: [tour]})
        (res,) = ticket_status(h, 0)
        assert _scored(h, 0).ticket_points == res.points
        return res

    a = result({2, 5})  # Casablanca-Al-Qahira, Al-Qahira-Tehran
    assert (a.points, a.how, a.completed, a.path) == (9, "in order", True, (2, 5))
    b = result({50, 12, 13, 1})  # Casablanca-Marseille-Athina-Tehran, plus Athina-Al-Qahira
    assert b.points == case_b and b.completed and b.how == ("in order" if case_b == 9 else "any order")
    c = result({2, 12})  # Tehran not connected
    assert (c.points, c.how, c.completed) == (-15, "failed", False)


def test_tour_in_order_trail_details():
    from ttr_lab.editions.rails_sails import tour_in_order

    def adj(edges):
        out: dict = {}
        for rid, a, b in edges:
            out.setdefault(a, []).append((rid, b))
            out.setdefault(b, []).append((rid, a))
        return out

    # a loop lets a trail pass through B twice: A-B-C-D-B-E visits A, C, E in order
    loop = adj([(1, "A", "B"), (2, "B", "C"), (3, "C", "D"), (4, "D", "B"), (5, "B", "E")])
    assert tour_in_order(loop, ("A", "C", "E")) == (1, 2, 3, 4, 5)
    assert tour_in_order(loop, ("A", "C", "E"), "simple_path") is None  # B would be visited twice
    assert tour_in_order(loop, ("A", "E", "C")) is None  # E is a dead end
    # cities in the printed order may have other cities between them
    line = adj([(1, "A", "X"), (2, "X", "B"), (3, "B", "Y"), (4, "Y", "C")])
    assert tour_in_order(line, ("A", "B", "C")) == (1, 2, 3, 4)
    assert tour_in_order(line, ("B", "A", "C")) is None
    assert tour_in_order(line, ("B", "A", "C"), "walk") == (2, 1, 1, 2, 3, 4)


def test_a_tour_without_a_failed_value_costs_its_points_as_any_ticket():
    """A tour built in code without ``points_failed`` fails at ``-penalty`` (its points), as the
    generic scorer and the kernel count it; it scored 0 before."""
    from ttr_lab.editions.rails_sails.tours import score_tour
    from ttr_lab.maps.model import Ticket

    bare = Ticket(900, ("A", "B", "C"), 12, "tours", points_any_order=5)
    printed = Ticket(901, ("A", "B", "C"), 12, "tours", points_any_order=5, points_failed=-7)
    far = {"A": [(1, "B")], "B": [(1, "A")]}  # C unreached
    assert score_tour(bare, far).points == -12 == -bare.penalty
    assert score_tour(printed, far).points == -7 == -printed.penalty


# ---------------------------------------------------------------------- scenario 41
def _routes_for(game, seat_targets: dict[int, tuple[int, int]], exclude=()) -> dict[int, int]:
    """Owners giving each seat (train spaces, ship spaces) exactly, single routes only."""
    owners: dict[int, int] = {}
    for seat, (tgoal, sgoal) in seat_targets.items():
        got = {False: 0, True: 0}
        goal = {False: tgoal, True: sgoal}
        for r in sorted(game.map.routes, key=lambda r: (-r.length, r.id)):
            if r.double_of is None and not r.paired and r.id not in exclude and r.id not in owners:
                if got[r.is_ship] + r.length <= goal[r.is_ship]:
                    owners[r.id] = seat
                    got[r.is_ship] += r.length
        assert got == {False: tgoal, True: sgoal}
    return owners


def test_scenario_41_two_more_turns_each():
    g = new_rs(trains=[20, 20, 10, 20])
    two = 11  # Athina-Hamburg, green train route of 2
    owners = _routes_for(g, {2: (8, 44)}, exclude={two})
    h = arrange(g, owners=owners, hands=only({2: {"green": 2}}), current=2)
    assert (h.trains(2), h.ships(2)) == (2, 6)
    h.play(claim(two, green=2))
    assert h.pieces(2) == 6 and h.final_turns_left == 8
    order = []
    while not h.is_over:
        order.append(h.current_player)
        h.play(DrawBlind("ships"))
        h.play(StopDrawing())
        if h.current_player == 3 and len(order) == 4:
            h2 = h.copy()  # a second player reaching the threshold changes nothing
    assert order == [3, 0, 1, 2, 3, 0, 1, 2]
    assert h2.final_turns_left == 4


def test_pieces_left_of_both_kinds_count_for_the_end():
    g = new_rs(players=2, trains=[10, 20])
    owners = _routes_for(g, {0: (0, 47)}, exclude={11})
    h = arrange(g, owners=owners, hands=only({0: {"green": 2}}), current=0)
    assert (h.trains(0), h.ships(0)) == (10, 3)  # 13 pieces: no final round yet
    h.play(claim(11, green=2))
    assert h.pieces(0) == 11 and h.final_turns_left is None


# ---------------------------------------------------------------------- scenario 42
def test_scenario_42_long_ship_routes_and_doubles():
    g = new_rs(players=3)
    seven, eight = 51, 9  # Casablanca-Miami (green, 7), Anchorage-Tiksi (yellow, 8)
    h = arrange(g, hands=only({0: {"green-ship2": 3, "green-ship": 1, "yellow-ship2": 4}}), current=0)
    h.play(claim(seven, green_ship2=3, green_ship=1))
    assert h.score(0) == 18 and h.ships(0) == 33
    h = arrange(g, hands=only({0: {"yellow-ship2": 4}}), current=0)
    h.play(claim(eight, yellow_ship2=4))
    assert h.score(0) == 21
    lima_sydney = (94, 95)
    h = arrange(g, owners={94: 1}, hands=only({0: {"black-ship2": 4}}), current=0)
    assert h.why_illegal(claim(95, black_ship2=4))[1].startswith("with 3 players only one route of a double route")
    assert not any(isinstance(m, ClaimRoute) and m.route in lima_sydney for m in h.legal_moves)
    # with 4 players the other route stays open to everyone else
    g4 = new_rs(players=4)
    h4 = arrange(g4, owners={94: 1}, hands=only({0: {"black-ship2": 4}}), current=0)
    assert claim(95, black_ship2=4) in h4.legal_moves
    h4b = arrange(h4, current=1)
    assert h4b.why_illegal(claim(95, black_ship2=4))[1] == "no player may own both routes of a double route"


def test_route_table_and_train_ship_pairs_on_great_lakes():
    g = new_rs("great_lakes", players=2, trains=33)
    assert g.edition.route_points[9] == 27
    h = arrange(g, hands=only({0: {W: 9}}), current=0)
    h.play(claim(32, wild=9))  # Cleveland-New York, the 9-space route
    assert h.score(0) == 27 and h.trains(0) == 24
    # a train route and a ship route between the same cities are not a double route (A4)
    assert {r.kind for r in g.map.routes_between("Duluth", "Thunder Bay")} == {"train", "ship"}
    h = arrange(g, owners={45: 0}, hands=only({0: {"yellow-ship2": 2}}), current=0)
    assert claim(46, yellow_ship2=2) in h.legal_moves


# ---------------------------------------------------------------------- scenario 43
@pytest.mark.parametrize("edition", EDITIONS)
def test_scenario_43_no_longest_path_bonus(edition):
    g = random_game(edition, 5, 3)
    assert g.is_over and g.edition.longest_path_bonus == 0
    out = g.outcome()
    for s in out.players:
        assert s.bonuses == ()
        assert s.total == s.route_points + s.ticket_points + sum(v for _, v in s.adjustments)
        assert all(("harbor" in name) or ("exchanged" in name) for name, _ in s.adjustments)


def test_ties_are_shared_by_default_and_broken_by_tickets_on_option():
    # seat 0: Lagos-Tehran (10) completed by 7 route points; seat 1: 17 route points, no ticket
    seat0, seat1 = [88, 59, 55, 3, 5], [79, 13]
    for option, winners in (("shared", (0, 1)), ("completed_tickets", (0,))):
        g = new_rs(players=2, tiebreak=option)
        h = arrange(g, owners={**dict.fromkeys(seat0, 0), **dict.fromkeys(seat1, 1)}, tickets={0: [23], 1: []})
        out = h.outcome()
        assert out.scores[0] == out.scores[1] == 17 - 12
        assert out.winners == winners
        assert out.tiebreak
    g = new_rs(players=2)
    h = arrange(g, owners={11: 0, 13: 1}, tickets={0: [], 1: []})
    assert h.outcome().winners == (0, 1) and "shared win" in h.outcome().tiebreak[0]


# ---------------------------------------------------------------------- records, views, bots
def test_position_round_trip_with_ships_box_harbors_and_choices():
    g = new_rs(trains=[12, 25, 18, 20])
    h = arrange(g, owners={49: 0, 30: 1, 10: 2}, extra={"harbors": [["Casablanca"], ["Valparaiso"], [], []]}, current=1)
    h.play(ExchangePieces("ships", 3))
    text = dumps(h.to_dict())
    again = ttr_lab.GameState.from_dict(json.loads(text))
    assert dumps(again.to_dict()) == text and snapshot(again) == snapshot(h)
    extra = h.to_dict()["extra"]
    assert extra["piece_choices"] == [12, 25, 18, 20]
    assert extra["box"][1] == {"trains": 3, "ships": 12} and extra["exchanged"] == [0, 3, 0, 0]
    bad = json.loads(text)
    bad["extra"]["box"][0]["ships"] += 1
    with pytest.raises(ttr_lab.RecordError, match="ships in supply, 0 placed and 3 in the box, expected 50 in all"):
        ttr_lab.GameState.from_dict(bad)
    bad = json.loads(text)
    bad["extra"]["harbors"][2] = ["Casablanca"]
    with pytest.raises(ttr_lab.RecordError, match="Casablanca has 2 harbors"):
        ttr_lab.GameState.from_dict(bad)
    bad = json.loads(text)
    bad["decks"]["ships"].append(bad["decks"]["trains"].pop())
    with pytest.raises(ttr_lab.RecordError, match="in the wrong pile"):
        ttr_lab.GameState.from_dict(bad)


def test_mid_setup_positions_round_trip():
    g = past_setup(ttr_lab.new_game("great_lakes", players=3, seed=8))
    g.play(ChoosePieces(20))
    text = dumps(g.to_dict())
    again = ttr_lab.GameState.from_dict(json.loads(text))
    assert again.phase == Phase.SETUP_PIECES and snapshot(again) == snapshot(g)
    bad = json.loads(text)
    bad["extra"]["piece_choices"][2] = 20
    with pytest.raises(ttr_lab.RecordError, match="chosen pieces before their turn"):
        ttr_lab.GameState.from_dict(bad)


@pytest.mark.parametrize("edition", EDITIONS)
def test_record_replay_and_describe(edition):
    g = random_game(edition, 11, 3)
    rec = Record.from_state(g)
    text = rec.dumps()
    again = Record.loads(text)
    assert again.dumps() == text
    assert dumps(again.replay().to_dict()) == dumps(g.to_dict())
    for m in g.move_stack[:60]:
        assert ttr_lab.parse_move(str(m)) == m
    h = new_rs(edition)
    assert h.describe(DrawFaceUp(2, "ships")).endswith("refill from the ships pile")
    assert h.describe(ExchangePieces("trains", 2)) == "take 2 trains from the box"


@pytest.mark.parametrize("edition", EDITIONS)
def test_bots_finish(edition):
    from ttr_lab.bots import make_bot, play_game

    for seed in range(3):
        g = play_game(edition, [make_bot("greedy", 1), make_bot("random", 2)], seed=seed)
        assert g.is_over and g.problems() == []
    g = play_game(edition, [make_bot("greedy", 1), make_bot("greedy", 2), make_bot("greedy", 3)], seed=4)
    assert g.is_over and g.problems() == []
    out = g.outcome()
    assert max(out.scores) > 0


def test_view_shows_only_public_piece_information():
    g = new_rs(players=3)
    v = g.view(1).to_dict()
    assert v["pieces"] == [60, 60, 60] and v["hand"] == g.hand(1)
    assert "decks" not in v and "extra" not in v


def test_edition_names_and_options():
    for name in ("rails_and_sails", "rails_sails", "world", "rails_and_sails_world", "Rails & Sails"):
        assert ttr_lab.find_edition(name).name == "rails_and_sails"
    for name in ("great_lakes", "rails_and_sails_great_lakes"):
        assert ttr_lab.find_edition(name).name == "great_lakes"
    assert ttr_lab.find_edition("world").options["allow_single_draw"] is True
    with pytest.raises(ttr_lab.TtrError, match="tour_order must be one of"):
        ttr_lab.find_edition("world", tour_order="anyhow")
    with pytest.raises(ttr_lab.TtrError, match="tiebreak must be one of"):
        ttr_lab.find_edition("world", tiebreak="longest_path")
    ed = ttr_lab.find_edition("world")
    assert ed.pile_names == ("trains", "ships") and ed.train_range == (10, 25)
    names = [ct.name for ct in ed.card_types]
    assert len(names) == 25 and all(ttr_lab.engine.move_cards._CARD_TOKEN.match(f"{n}:1") for n in names)
    totals = {}
    for pile in ed.deck_composition:
        for c, k in pile:
            ct = ed.card_types[c]
            totals[(ed.pile_names[ct.pile], ct.kind, ct.value, ct.anchor)] = (
                totals.get((ed.pile_names[ct.pile], ct.kind, ct.value, ct.anchor), 0) + k
            )
    assert totals == {
        ("trains", "train", 1, False): 42,
        ("trains", "train", 1, True): 24,
        ("trains", "wild", 1, True): 14,
        ("ships", "ship", 1, True): 24,
        ("ships", "ship", 2, False): 36,
    }


def test_waypoints_are_nodes_but_no_harbor_or_ticket():
    for edition, waypoints in (("world", {"Indian Ocean"}), ("great_lakes", {"Lake Superior", "Lake Huron"})):
        ed = ttr_lab.find_edition(edition)
        assert {c.name for c in ed.map.cities if c.waypoint} == waypoints
        assert not any(set(ed.map.ticket(t).cities) & waypoints for t in ed.ticket_deck())
        assert any(set(r.ends) & waypoints for r in ed.routes)


# ---------------------------------------------------------------------- properties
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(EDITIONS))
def test_random_game_conserves_every_card_and_piece_type_and_terminates(seed, players, edition):
    g = ttr_lab.new_game(edition, players=players, seed=seed)
    ed = g.edition
    want = {}
    for pile in ed.deck_composition:
        for c, k in pile:
            want[ed.card_types[c].name] = k
    rng = random.Random(seed)
    for _ in range(20000):
        if g.is_over:
            break
        counts = card_counts(g)
        assert {c: sum(v.values()) for c, v in counts.items()} == want
        for c, where in counts.items():
            home = ed.pile_names[ed.card_types[ed.card_index[c]].pile]
            assert set(where) <= {home, "row", "hands"}, (c, where)
        for p in range(players):
            placed_t = sum(g.map.route(r).length for r in g.routes_of(p) if not g.map.route(r).is_ship)
            placed_s = sum(g.map.route(r).length for r in g.routes_of(p) if g.map.route(r).is_ship)
            tb, sb = g.box(p)
            assert g.trains(p) + placed_t + tb == ed.train_pieces
            assert g.ships(p) + placed_s + sb == ed.ship_pieces
            assert g.score(p) == route_points(g, p) - g.exchanged(p)
        assert g.problems() == []
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    assert g.is_over, "a random game always terminates"
    assert g.problems() == []
    out = g.outcome()
    assert all(s.total == s.route_points + s.ticket_points + sum(v for _, v in s.adjustments) for s in out.players)


def _sub_multisets(hand: dict[str, int]):
    names = sorted(hand)
    for ks in product(*(range(hand[n] + 1) for n in names)):
        cards = tuple((n, k) for n, k in zip(names, ks) if k)
        if cards:
            yield cards


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(20, 200), edition=st.sampled_from(EDITIONS), data=st.data())
def test_generated_claims_and_harbors_equal_a_brute_force_enumeration(seed, plies, edition, data):
    """Every (route or harbor city, sub-multiset of a small hand) checked by
    why_illegal gives exactly the claims and harbors that move generation lists."""
    g = random_game(edition, seed, 4, plies)
    if g.is_over or g.phase == Phase.SETUP_TICKETS or g.phase == Phase.SETUP_PIECES:
        return
    p = g.current_player
    names = [ct.name for ct in g.edition.card_types]
    harbor_cards = [n for n in names if n.endswith("-anchor") or n.endswith("-ship")]  # with the anchor
    hand: dict[str, int] = {}
    for _ in range(data.draw(st.integers(1, 7))):
        c = data.draw(st.sampled_from(names + harbor_cards + ["wild"] * 3))
        hand[c] = hand.get(c, 0) + 1
    extra_owned = data.draw(st.lists(st.sampled_from([r.id for r in g.map.routes]), max_size=4))
    owners = {int(r): s for r, s in g.to_dict()["owners"].items()}
    for r in extra_owned:
        if r not in owners and g.map.route(r).length <= 2:
            owners[r] = p
    try:
        h = arrange(g, hands={p: hand}, owners=owners, current=p)
    except (ValueError, ttr_lab.RecordError):
        return  # the cards or pieces are not available in this position
    if h.phase != Phase.TURN:
        return
    subs = list(_sub_multisets(hand))
    brute = set()
    for r in h.map.routes:
        for cards in subs:
            m = ClaimRoute(r.id, cards)
            if h.why_illegal(m) is None:
                brute.add(m)
    generated = {m for m in h.legal_moves if isinstance(m, ClaimRoute)}
    assert generated == brute
    brute_h = set()
    cities = {c for r in h.routes_of(p) for c in h.map.route(r).ends} | {"New York", "Indian Ocean"}
    for city in cities:
        for cards in subs:
            m = BuildHarbor(city, cards)
            if h.why_illegal(m) is None:
                brute_h.add(m)
    assert {m for m in h.legal_moves if isinstance(m, BuildHarbor)} == brute_h
