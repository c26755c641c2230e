"""Scenarios 20-29: Europe (docs/rules.md B3: ferries, tunnels, stations, the
European Express), one test each (``test_scenario_NN_...``), then more of
B3 (a station's borrowing choice, one card check for stations and tunnels),
plus property tests over random seeded Europe games.  Positions are arranged through the public snapshot API
(``tests/helpers.arrange``), which checks conservation on every arrangement."""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab import (
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    IllegalMoveError,
    KeepTickets,
    PayTunnel,
    Phase,
)
from ttr_lab.bots import make_bot, play_game
from ttr_lab.editions import Europe, find_edition
from ttr_lab.editions.europe import station_borrowing
from ttr_lab.engine.scoring import longest_path, network, route_points, score_two_city
from ttr_lab.engine.state import GameState
from ttr_lab.records import Record, dumps

from . import helpers
from .helpers import arrange, past_setup, snapshot, tunnel_position

L = "loco"
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EUROPE = find_edition("europe")
LONG = set(EUROPE.long_tickets)


def cards(**counts: int) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, v) for k, v in counts.items() if v))


def claim(route: int, **counts: int) -> ClaimRoute:
    return ClaimRoute(route, cards(**counts))


def station(city: str, **counts: int) -> BuildStation:
    return BuildStation(city, cards(**counts))


def pay(**counts: int) -> PayTunnel:
    return PayTunnel(cards(**counts))


def new_europe(players: int = 4, seed: int = 1, **options) -> GameState:
    return past_setup(ttr_lab.new_game("europe", players=players, seed=seed, **options))


def arrange_eu(game, *, stations=None, tickets=None, **kw):
    """``arrange`` plus Europe's stations; with ``tickets`` the long tickets
    nobody holds go to the box (regular ones go back to the deck)."""
    extra = {}
    if stations is not None:
        extra["stations"] = [list(stations.get(p, ())) for p in range(game.num_players)]
    if tickets is not None:
        held = {t for ts in tickets.values() for t in ts}
        extra["box"] = sorted(LONG - held)
    return arrange(game, tickets=tickets, extra=extra or None, **kw)


def card_total(g: ttr_lab.GameState) -> int:
    d = g.to_dict()
    n = sum(len(v) for v in d["decks"].values()) + sum(len(v) for v in d["discards"].values())
    n += sum(1 for c in d["row"] if c is not None)
    n += sum(sum(h.values()) for h in d["hands"])
    tunnel = d["extra"]["tunnel"]
    return n + (len(tunnel["revealed"]) if tunnel else 0)


def random_game(seed: int, players: int, plies: int | None = None, **options) -> GameState:
    return helpers.random_game("europe", seed, players, plies, **options)


# ---------------------------------------------------------------------------- the edition


def test_europe_edition_parameters():
    ed = EUROPE
    # one GameState class plays every edition; Europe's rules add its moves and its phase
    assert isinstance(ed, Europe) and {BuildStation, PayTunnel, DeclineTunnel} <= set(ed.move_types)
    assert Phase.TUNNEL in ed.phase_list
    assert ed.total_cards == 110 and ed.pieces == 45 and ed.stations_per_player == 3
    assert dict(ed.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}
    assert ed.end_threshold == 2 and ed.final_turns == 1 and ed.longest_path_bonus == 10
    assert ed.longest_path_name == "European Express"
    assert len(ed.ticket_deck()) == 40 and len(ed.long_tickets) == 6
    assert ed.draw_tickets == (3, 1)
    assert sorted(ed.options) == [
        "allow_single_draw",
        "deal_row_after_tickets",
        "first_player",
        "map",
        "max_consecutive_resets",
    ]
    assert find_edition("europe_digital").options["max_consecutive_resets"] == 3
    assert type(ttr_lab.GameState("europe", 3, seed=1)).__bases__ == (GameState,)  # with its accessors by name


@pytest.mark.parametrize(
    "options",
    [
        {"deal_row_after_tickets": True},
        {"first_player": "random"},
        {"first_player": 2},
        {"allow_single_draw": True},
        {"max_consecutive_resets": 0},
    ],
)
def test_options_as_usa(options):
    g = ttr_lab.new_game("europe", players=3, seed=5, **options)
    if options.get("deal_row_after_tickets"):
        assert g.row == (None,) * 5
    if options.get("first_player") == 2:
        assert g.current_player == 2
    g = random_game(5, 3, **options)
    assert g.is_over and g.problems() == []
    assert Record.from_state(g).replay().to_dict() == g.to_dict()


# ---------------------------------------------------------------------------- scenarios


def test_scenario_20_ferry_needs_its_locomotives():
    ferry = 43  # Constantinople-Sevastopol: ferry, 4 spaces, 2 locomotive symbols
    r = EUROPE.map.route(ferry)
    assert (r.kind, r.length, r.locomotives, r.color) == ("ferry", 4, 2, "gray")
    g = arrange(new_europe(), hands={0: {L: 3, "red": 3, "blue": 1}}, current=0)
    legal = set(g.legal_moves)
    assert claim(ferry, loco=2, red=2) in legal
    assert claim(ferry, loco=3, red=1) in legal
    assert claim(ferry, loco=1, red=3) not in legal
    rule, reason = g.why_illegal(claim(ferry, loco=1, red=3))
    assert rule == "B3" and "at least 2 locomotives" in reason
    rule, reason = g.why_illegal(claim(ferry, loco=2, red=1, blue=1))
    assert rule == "A4" and "mixed colours" in reason
    g.play(claim(ferry, loco=2, red=2))
    assert g.route_owner(ferry) == 0 and g.score(0) == 7 and g.pieces(0) == 41
    assert g.hand(0) == {L: 1, "red": 1, "blue": 1}


def _tunnel_21(stations=None, **hand):
    tunnel = 80  # München-Zürich: yellow tunnel, 2 spaces
    r = EUROPE.map.route(tunnel)
    assert (r.kind, r.color, r.length) == ("tunnel", "yellow", 2)
    g = arrange_eu(
        new_europe(), hands={0: hand}, deck_top=["yellow", L, "blue"], current=0, discard=[], stations=stations
    )
    return g, tunnel


def test_scenario_21_tunnel_pay_the_extra_cards():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    deck = g.deck_size()
    g.play(claim(tunnel, yellow=2))
    assert g.phase == Phase.TUNNEL and g.current_player == 0
    t = g.tunnel
    assert t.route == tunnel and t.paid == (("yellow", 2),) and t.color == "yellow"
    assert t.revealed == ("yellow", L, "blue") and t.extra == 2
    assert g.deck_size() == deck - 3 and g.hand(0) == {"yellow": 3, L: 1}  # C still in hand, reserved
    assert list(g.legal_moves) == [pay(loco=1, yellow=1), DeclineTunnel()]
    rule, reason = g.why_illegal(pay(yellow=2))
    assert rule == "B3" and "player has 1 yellow besides the tunnel payment" in reason
    g.play(pay(yellow=1, loco=1))
    assert g.route_owner(tunnel) == 0 and g.score(0) == 2 and g.pieces(0) == 43
    assert g.hand(0) == {}
    assert g.discard_size() == 4 + 3  # the 4 cards paid and the 3 revealed
    assert sorted(g.to_dict()["discards"]["train"]) == sorted(["yellow"] * 4 + [L] * 2 + ["blue"])
    assert g.phase == Phase.TURN and g.current_player == 1 and g.tunnel is None
    assert g.problems() == []


def test_scenario_21_tunnel_decline():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    deck = g.deck_size()
    g.play(claim(tunnel, yellow=2))
    g.play(DeclineTunnel())
    assert g.hand(0) == {"yellow": 3, L: 1}  # both yellows back in hand, nothing paid
    assert g.route_owner(tunnel) is None and g.score(0) == 0 and g.pieces(0) == 45
    assert g.current_player == 1 and g.phase == Phase.TURN  # the turn has ended
    assert g.deck_size() == deck - 3
    assert sorted(g.to_dict()["discards"]["train"]) == sorted(["yellow", L, "blue"])
    assert g.problems() == []


def test_scenario_21_cannot_pay_so_only_decline():
    g, tunnel = _tunnel_21(yellow=2, blue=3)
    g.play(claim(tunnel, yellow=2))
    assert list(g.legal_moves) == [DeclineTunnel()]


def test_scenario_21_undo_goes_back_before_the_reveal_without_rerolling():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    before = snapshot(g)
    g.play(claim(tunnel, yellow=2))
    revealed = g.tunnel.revealed
    g.pop()
    assert snapshot(g) == before and g.phase == Phase.TURN and g.tunnel is None
    g.play(claim(tunnel, yellow=2))
    assert g.tunnel.revealed == revealed
    g.play(DeclineTunnel())
    g.pop()
    g.pop()
    assert snapshot(g) == before


def test_scenario_21_other_moves_are_refused_during_the_tunnel_decision():
    g, tunnel = _tunnel_21(yellow=3, loco=1, red=1)
    g.play(claim(tunnel, yellow=2))
    for move in (DrawBlind(), DrawFaceUp(1), claim(1, red=1), station("Wien", red=1), ttr_lab.DrawTickets()):
        rule, reason = g.why_illegal(move)
        assert "tunnel claim is under way" in reason
        assert rule == "A1"
    assert g.why_illegal(pay(red=1, loco=1)) == ("B3", "the extra cards must be yellow or locomotives, not red")
    assert g.why_illegal(pay(loco=1)) == ("B3", "the tunnel needs exactly 2 more cards, not 1")


def test_scenario_22_all_locomotive_payment_matches_only_locomotives():
    tunnel = 14  # Barcelona-Pamplona: gray tunnel, 2 spaces
    r = EUROPE.map.route(tunnel)
    assert (r.kind, r.color, r.length) == ("tunnel", "gray", 2)
    g = arrange(new_europe(), hands={0: {L: 3, "red": 2}}, deck_top=["red", "red", L], current=0)
    g.play(claim(tunnel, loco=2))
    assert g.tunnel.extra == 1 and g.tunnel.color == L
    assert list(g.legal_moves) == [pay(loco=1), DeclineTunnel()]
    rule, reason = g.why_illegal(pay(red=1))
    assert rule == "B3" and "must be locomotives" in reason
    g.play(pay(loco=1))
    assert g.route_owner(tunnel) == 0 and g.hand(0) == {"red": 2} and g.score(0) == 2


def test_scenario_22_gray_tunnel_colour_is_the_colour_paid():
    tunnel = 14
    g = arrange(new_europe(), hands={0: {L: 3, "red": 3, "blue": 2}}, deck_top=["red", "blue", L], current=0)
    g.play(claim(tunnel, red=1, loco=1))
    assert g.tunnel.extra == 2 and g.tunnel.color == "red"  # red and the locomotive match, blue does not
    assert list(g.legal_moves) == [pay(loco=1, red=1), pay(loco=2), pay(red=2), DeclineTunnel()]
    assert g.why_illegal(pay(blue=2))[1] == "the extra cards must be red or locomotives, not blue"


def test_scenario_23_fewer_than_three_cards_to_reveal():
    tunnel = 80
    # one card in the deck and one in the discard: the discard is shuffled in
    g = arrange(
        new_europe(), hands={0: {"yellow": 2}}, deck_top=["yellow"], deck_size=1, discard=[L], rest=3, current=0
    )
    assert g.deck_size() + g.discard_size() == 2
    shuffles = g.shuffles
    g.play(claim(tunnel, yellow=2))
    assert g.phase == Phase.TUNNEL and len(g.tunnel.revealed) == 2 and g.tunnel.extra == 2
    assert g.shuffles == shuffles + 1
    assert card_total(g) == 110 and g.problems() == []
    assert list(g.legal_moves) == [DeclineTunnel()]
    g.play(DeclineTunnel())
    assert g.discard_size() == 2 and g.deck_size() == 0


def test_scenario_23_no_card_to_reveal_means_no_risk():
    tunnel = 80
    g = arrange(new_europe(), hands={0: {"yellow": 2}}, deck_size=0, discard=[], rest=3, current=0)
    assert g.deck_size() == g.discard_size() == 0
    g.play(claim(tunnel, yellow=2))
    assert g.route_owner(tunnel) == 0 and g.score(0) == 2
    assert g.phase == Phase.TURN and g.current_player == 1
    assert g.discard_size() == 2 and g.problems() == []


def test_scenario_24_station_costs():
    g = arrange(new_europe(), hands={0: {"red": 3, "blue": 2, L: 3}}, current=0)
    # first station: one card of any colour, in any of the 47 cities
    assert sum(isinstance(m, BuildStation) for m in g.legal_moves) == 47 * 3
    rule, reason = g.why_illegal(station("Wien", red=2))
    assert rule == "B3" and "costs exactly 1 card, not 2" in reason
    g.play(station("Wien", blue=1))
    assert g.stations() == {"Wien": 0} and g.score(0) == 0 and g.pieces(0) == 45
    assert g.hand(0) == {"red": 3, "blue": 1, L: 3} and g.current_player == 1
    g = arrange(g, current=0)
    rule, reason = g.why_illegal(station("Paris", red=1, blue=1))
    assert rule == "B3" and "mixed colours" in reason
    assert station("Paris", red=1, blue=1) not in g.legal_moves
    g.play(station("Paris", red=1, loco=1))
    g = arrange(g, current=0)
    assert g.why_illegal(station("Roma", red=2))[1] == "station number 3 costs exactly 3 cards, not 2"
    g.play(station("Roma", red=2, loco=1))
    assert g.stations_of(0) == ("Wien", "Paris", "Roma") and g.stations_left(0) == 0
    g = arrange(g, current=0)
    assert g.hand(0) == {"blue": 1, L: 1}
    rule, reason = g.why_illegal(station("Berlin", loco=1))
    assert rule == "B3" and "all 3 stations are already built" in reason
    assert not any(isinstance(m, BuildStation) for m in g.legal_moves)
    assert g.score(0) == 0 and g.pieces(0) == 45


def test_scenario_24_station_in_a_city_without_any_route_claimed():
    g = arrange(new_europe(), hands={0: {"red": 1}}, current=0)
    assert all(g.route_owner(r.id) is None for r in g.map.routes if "Lisboa" in r.ends)
    g.play(station("Lisboa", red=1))
    assert g.stations() == {"Lisboa": 0}
    assert station_borrowing(g, 0) == {"Lisboa": None}
    assert g.why_illegal(station("Atlantis", red=1))[1] == "there is no city 'Atlantis' on the europe map"


def _scenario_25(borrowable_berlin: bool = True):
    owners = {4: 0, 2: 0, 55: 0, 56: 2, 19: 3, 67: 3}
    if borrowable_berlin:
        owners[16] = 1
    g = arrange_eu(
        new_europe(),
        owners=owners,
        stations={0: ["Essen"], 1: ["Wien"], 3: ["Berlin"]},
        tickets={0: [21, 17], 3: [16]},  # London-Berlin 7, Frankfurt-Kobenhavn 5; Essen-Kyiv 10
        hands={0: {"red": 2}},
        current=0,
    )
    return g


def test_scenario_25_one_station_per_city():
    g = _scenario_25()
    rule, reason = g.why_illegal(station("Wien", red=2))
    assert rule == "B3" and "Wien already has a station (Player 2's)" in reason
    assert not any(isinstance(m, BuildStation) and m.city == "Wien" for m in g.legal_moves)
    assert any(isinstance(m, BuildStation) and m.city == "Roma" for m in g.legal_moves)


def test_scenario_25_a_station_borrows_one_opponent_route_for_all_tickets():
    g = _scenario_25()
    # Essen-Berlin (P2) completes London-Berlin (7); Essen-Kobenhavn (P3) would
    # complete Frankfurt-Kobenhavn (5): one route only, the better one
    assert g.borrowed_routes(0) == {"Essen": 16}
    out = g.outcome()
    p1 = out.players[0]
    hits = {t.ticket.id: t for t in p1.tickets}
    assert hits[21].completed and hits[21].points == 7 and 16 in hits[21].path
    assert not hits[17].completed and hits[17].points == -5
    assert ("station Essen borrows Berlin-Essen (route 16)", 0) in p1.adjustments
    assert ("unbuilt stations (2 x 4)", 8) in p1.adjustments
    # two players may borrow the same route: P4's Berlin station also uses Essen-Berlin
    assert g.borrowed_routes(3) == {"Berlin": 16}
    assert out.players[3].tickets[0].completed
    # P2's Wien station has no use
    assert g.borrowed_routes(1) == {"Wien": None}
    assert "station Essen borrows" in str(out)


def test_scenario_25_an_unclaimed_route_cannot_be_borrowed():
    g = _scenario_25(borrowable_berlin=False)
    assert g.route_owner(16) is None
    assert g.borrowed_routes(0) == {"Essen": 56}
    hits = {t.ticket.id: t for t in g.outcome().players[0].tickets}
    assert not hits[21].completed  # Essen-Berlin is unclaimed: no borrowing
    assert hits[17].completed and 56 in hits[17].path


def test_scenario_25_own_routes_are_never_borrowed_and_stations_choose_jointly():
    # P1 has stations in Essen and Berlin and owns Essen-Frankfurt, Essen-Berlin
    # and Warszawa-Wilno; P2 owns Amsterdam-Essen and Berlin-Warszawa.  Ticket
    # Amsterdam-Wilno needs both borrowed routes: neither station helps alone.
    m = EUROPE.map
    wilno = m.routes_between("Warszawa", "Wilno")[0].id
    g = arrange_eu(
        new_europe(),
        owners={55: 0, 16: 0, wilno: 0, 2: 1, 19: 1},
        stations={0: ["Essen", "Berlin"]},
        tickets={0: [2]},  # Amsterdam-Wilno 12
        current=0,
    )
    assert g.borrowed_routes(0) == {"Essen": 2, "Berlin": 19}
    t = g.outcome().players[0].tickets[0]
    assert t.completed and t.points == 12 and {2, 16, 19, wilno} <= set(t.path)


def test_scenario_26_stations_do_not_count_for_the_european_express():
    # P1: Frankfurt-Essen-Berlin-Warszawa-Kyiv = 2+2+4+4 = 12; P2 owns Kyiv-Bucuresti (4)
    g = arrange_eu(
        new_europe(),
        owners={55: 0, 16: 0, 19: 0, 67: 0, 33: 1},
        stations={0: ["Kyiv"]},
        tickets={0: [8]},  # Berlin-Bucuresti, completed through the borrowed route
        current=0,
    )
    assert g.borrowed_routes(0) == {"Kyiv": 33}
    assert longest_path(g, 0)[0] == 12
    out = g.outcome()
    p1 = out.players[0]
    assert p1.longest_path == 12 and 33 not in p1.longest_path_routes
    assert p1.tickets[0].completed and 33 in p1.tickets[0].path
    assert ("European Express", 10) in p1.bonuses
    assert out.players[1].longest_path == 4 and not out.players[1].bonuses


def test_scenario_27_fewest_stations_breaks_a_tie():
    # both own one 2-space route (both hold the Express); P1 built 1 station,
    # P2 built 2; both fail one ticket: P1 Angora-Kharkov (10), P2 Warszawa-Smolensk (6)
    g = arrange_eu(
        new_europe(players=2),
        owners={3: 0, 28: 1},
        stations={0: ["Lisboa"], 1: ["Cadiz", "Edinburgh"]},
        tickets={0: [3], 1: [37]},
    )
    out = g.outcome()
    p1, p2 = out.players
    assert ("unbuilt stations (2 x 4)", 8) in p1.adjustments
    assert ("unbuilt stations (1 x 4)", 4) in p2.adjustments
    assert p1.total == 2 - 10 + 10 + 8 == p2.total == 2 - 6 + 10 + 4
    assert p1.tickets_completed == p2.tickets_completed == 0
    assert out.winners == (0,) and out.ranking == ((0,), (1,))
    assert "fewest stations" in out.tiebreak[0]


def test_scenario_27_then_the_european_express_holder():
    # equal stations; P1 holds the Express alone: 4 + 8 + 10 - 12 = 10 = P2's 2 + 8
    g = arrange_eu(
        new_europe(players=2),
        owners={59: 0, 28: 1},
        stations={0: ["Lisboa"], 1: ["Cadiz"]},
        tickets={0: [9], 1: []},
    )
    out = g.outcome()
    assert out.scores == (10, 10)
    assert out.winners == (0,)
    h = arrange_eu(g, owners={28: 0, 3: 1}, stations={0: ["Lisboa"], 1: ["Cadiz"]}, tickets={0: [], 1: []})
    out = h.outcome()  # both hold the Express: a shared win
    assert out.scores == (20, 20) and out.winners == (0, 1)


def test_unbuilt_stations_score_four_each():
    g = new_europe(players=3)
    out = g.outcome()
    for p in out.players:
        assert ("unbuilt stations (3 x 4)", 12) in p.adjustments


def test_scenario_28_setup_long_and_regular_tickets_and_the_box():
    players = 4
    g = ttr_lab.new_game("europe", players=players, seed=3)
    assert g.ticket_deck_size == 40 - 3 * players
    assert g.box_size == 6 - players  # long tickets not dealt, unseen
    dealt_regular = []
    for seat in range(players):
        pend = g.pending_tickets
        assert [t.deck for t in pend] == ["long", "regular", "regular", "regular"]
        ids = sorted(t.id for t in pend)
        with pytest.raises(IllegalMoveError, match="must keep at least 2 of the 4 tickets at setup"):
            g.play(KeepTickets((ids[0],)))
        assert g.legal_moves.count() == 6 + 4 + 1
        # keep the long ticket and one regular ticket; return two regular ones
        long_id = pend[0].id
        keep = (long_id, pend[1].id) if seat % 2 == 0 else (pend[1].id, pend[2].id)
        dealt_regular += [t.id for t in pend[1:]]
        g.play(KeepTickets(keep))
    assert g.phase == Phase.TURN
    deck = set(g.to_dict()["ticket_deck"])
    returned = set(g.to_dict()["extra"]["box"])
    kept = {t for p in range(players) for t in g.to_dict()["tickets"][p]}
    assert len(kept) == 2 * players
    assert not (set(dealt_regular) - kept) & deck  # unkept tickets are not in the deck...
    assert set(dealt_regular) - kept <= returned  # ...they are in the box
    assert g.ticket_deck_size == 40 - 3 * players and g.box_size == 6 - players + 2 * players
    assert g.problems() == []
    assert "box" not in g.view(0).to_dict()


def test_scenario_29_the_eight_space_tunnel_scores_21():
    tunnel = 87  # Petrograd-Stockholm: gray tunnel, 8 spaces
    r = EUROPE.map.route(tunnel)
    assert (r.kind, r.color, r.length) == ("tunnel", "gray", 8)
    g = arrange(new_europe(), hands={0: {"red": 8}}, deck_top=["blue", "green", "white"], current=0)
    g.play(claim(tunnel, red=8))
    assert g.route_owner(tunnel) == 0 and g.score(0) == 21 and g.pieces(0) == 37
    assert g.phase == Phase.TURN and g.current_player == 1
    assert g.problems() == []


# ---------------------------------------------------------------------------- B3: station borrowing
# Seat 0 (2-player Europe) has a station in Amsterdam, where seat 1 owns
# Amsterdam-Bruxelles (route 1) and Amsterdam-Essen (route 2).  Seat 0's own
# routes form three networks: Amsterdam-Frankfurt-London; Essen-Berlin-
# Kobenhavn; Bruxelles-Paris-Zürich-München-Wien-Warszawa-Wilno.  Its tickets:
# Amsterdam-Wilno (12), Frankfurt-Kobenhavn (5), London-Berlin (7).
# Borrowing route 1 completes Amsterdam-Wilno: 12 - 5 - 7 = 0 points;
# borrowing route 2 completes the other two: 5 + 7 - 12 = 0 points as well.
SEAT0_ROUTES = (3, 4, 16, 29, 56, 79, 80, 85, 99, 100)
# seat 1: both Amsterdam routes, Zürich-Venezia-Zagrab-Budapest for its one
# ticket, and two lone ferries that bring its total to seat 0's
SEAT1_ROUTES = (1, 2, 98, 97, 40, 82, 8)


def borrowing_example() -> GameState:
    g = new_europe(players=2)
    held = {0: [2, 17, 21], 1: [40]}  # 40: Zürich-Budapest (6)
    owners = {**dict.fromkeys(SEAT0_ROUTES, 0), **dict.fromkeys(SEAT1_ROUTES, 1)}
    return arrange(
        g,
        owners=owners,
        tickets=held,
        extra={"stations": [["Amsterdam"], []], "box": sorted(g.edition.long_tickets)},
        current=0,
    )


def test_b3_equal_points_borrow_the_route_completing_more_tickets():
    h = borrowing_example()
    m = h.map
    assert (m.route(1).label(), m.route(2).label()) == ("Amsterdam-Bruxelles", "Amsterdam-Essen")
    tickets = [m.ticket(t) for t in h._tickets[0]]
    by_choice = {}
    for rid in (1, 2):
        results = [score_two_city(t, network(h, 0, [rid])) for t in tickets]
        by_choice[rid] = (sum(r.points for r in results), sum(r.completed for r in results))
    assert by_choice == {1: (0, 1), 2: (0, 2)}  # the same points, one ticket more through Essen
    assert station_borrowing(h, 0) == {"Amsterdam": 2}
    assert h.borrowed_routes(0) == {"Amsterdam": 2}
    score = h.outcome().players[0]
    assert score.tickets_completed == 2 and score.ticket_points == 0
    assert ("station Amsterdam borrows Amsterdam-Essen (route 2)", 0) in score.adjustments + score.bonuses


def test_b3_the_borrowing_choice_decides_the_winner():
    h = borrowing_example()
    out = h.outcome()
    p0, p1 = out.players
    assert out.scores == (51, 51)  # a tie on points
    assert (p0.tickets_completed, p1.tickets_completed) == (2, 1)
    assert out.winners == (0,)  # broken by completed tickets
    # borrowing Amsterdam-Bruxelles instead (the lower route id, as the old
    # engine did) gives the same 51 points but one completed ticket: the tie
    # would then go to the next tie-breaker, fewest stations built, and seat 1
    # (no station) would win.
    ed = h.edition
    holders = {0}  # the European Express: seat 0's 17-car trail
    assert p0.longest_path == 17 and p1.longest_path < 17
    old = [score_two_city(t, network(h, 0, [1])) for t in (h.map.ticket(t) for t in h._tickets[0])]
    assert sum(r.points for r in old) == p0.ticket_points and sum(r.completed for r in old) == 1
    as_old = (1, -1, 1)  # (completed tickets, -stations built, Express)
    assert ed.tiebreak_key(h, p0, holders) == (2, -1, 1)
    assert ed.tiebreak_key(h, p1, holders) == (1, 0, 0) > as_old


# ---------------------------------------------------------------------------- B3: one card check
# Stations and tunnels pay through the same card check as claims (A4).
def test_station_payment_naming_a_card_twice_is_refused():
    g = new_europe(players=2)
    h = arrange(g, hands={0: {"red": 1, "blue": 3}}, extra={"stations": [["Wien"], []]}, current=0)
    before, ply = snapshot(h), h.ply
    move = BuildStation("Berlin", (("red", 1), ("red", 1)))  # station 2 costs 2; the hand holds 1 red
    assert h.why_illegal(move) == ("B3", "card red is named twice")
    with pytest.raises(IllegalMoveError, match="card red is named twice") as e:
        h.play(move)
    assert e.value.rule == "B3"
    assert snapshot(h) == before and h.ply == ply
    assert BuildStation("Berlin", (("blue", 2),)) in h.legal_moves


def test_tunnel_payment_naming_a_card_twice_is_refused():
    h = tunnel_position(
        new_europe(players=2),
        revealed=["yellow", L, "green"],
        paid={"yellow": 2},
        route=80,
        hands={0: {"yellow": 3}, 1: {"yellow": 1, L: 1, "green": 1}},
    )
    assert h.tunnel.extra == 2
    before, text = snapshot(h), h.to_dict()
    move = PayTunnel((("yellow", 1), ("yellow", 1)))  # one yellow is free besides the payment
    assert h.why_illegal(move) == ("B3", "card yellow is named twice")
    with pytest.raises(IllegalMoveError, match="card yellow is named twice"):
        h.play(move)
    assert snapshot(h) == before and h.to_dict() == text and h.phase == Phase.TUNNEL


# ---------------------------------------------------------------------------- views and records


def test_view_shows_stations_and_the_tunnel_reveal():
    g, tunnel = _tunnel_21(stations={2: ["Wien"]}, yellow=3, loco=1)
    g.play(claim(tunnel, yellow=2))
    for seat in range(4):
        v = g.view(seat)
        assert v.stations() == {"Wien": 2}
        assert v.tunnel == g.tunnel
        d = v.to_dict()
        assert d["stations"] == {"Wien": 2}
        assert d["tunnel"] == {
            "route": tunnel,
            "paid": {"yellow": 2},
            "revealed": ["yellow", L, "blue"],
            "extra": 2,
            "color": "yellow",
        }
        assert "box" not in d and "decks" not in d
    assert list(g.view(0).legal_moves) == [pay(loco=1, yellow=1), DeclineTunnel()]
    assert g.view(1).legal_moves == ()


def test_tunnel_position_round_trips_through_json():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    g.play(claim(tunnel, yellow=2))
    text = dumps(g.to_dict())
    saved = json.loads(text)["extra"]["tunnel"]
    assert saved == {"route": 80, "paid": {"yellow": 2}, "revealed": ["yellow", L, "blue"]}
    again = ttr_lab.GameState.from_dict(json.loads(text))
    assert dumps(again.to_dict()) == text and snapshot(again) == snapshot(g)
    again.play(pay(loco=1, yellow=1))
    assert again.route_owner(tunnel) == 0


def _two_in_wien(d: dict) -> None:
    d["extra"]["stations"][0].append("Wien")
    d["extra"]["stations"][1].append("Wien")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["extra"]["stations"][0].extend(["Wien", "Roma", "Paris", "Berlin"]), "stations, at most 3"),
        (lambda d: d["extra"]["stations"][1].append("Atlantis"), "no such city"),
        (_two_in_wien, "two stations in Wien"),
        (lambda d: d["extra"]["box"].pop(), "missing"),
        (lambda d: d["extra"].pop("box"), "extra fields"),
        (
            lambda d: d["extra"].update(tunnel={"route": 80, "paid": {"yellow": 2}, "revealed": ["blue", L]}),
            "tunnel decision",
        ),
        (
            lambda d: d["extra"].update(tunnel={"route": 1, "paid": {"yellow": 2}, "revealed": ["yellow"]}),
            "not a tunnel",
        ),
    ],
)
def test_tampered_europe_positions_are_rejected(change, message):
    g = new_europe()
    d = json.loads(dumps(g.to_dict()))
    change(d)
    with pytest.raises(ttr_lab.RecordError, match=message):
        ttr_lab.GameState.from_dict(d)


def test_revealed_cards_are_counted_in_conservation():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    g.play(claim(tunnel, yellow=2))
    d = json.loads(dumps(g.to_dict()))
    d["extra"]["tunnel"]["revealed"] = ["yellow", L, "yellow"]  # a card out of nowhere
    with pytest.raises(ttr_lab.RecordError, match="13 yellow cards in play, expected 12"):
        ttr_lab.GameState.from_dict(d)


def test_records_replay_a_europe_game():
    g = random_game(17, 3)
    rec = Record.from_state(g)
    again = Record.loads(rec.dumps()).replay()
    assert dumps(again.to_dict()) == dumps(g.to_dict())
    assert rec.result == {"scores": list(g.outcome().scores), "winners": list(g.outcome().winners)}


def test_notation_of_europe_moves_round_trips():
    for text in ("station Wien red:2", "station Wien loco:1 red:1", "tunnel pay red:1", "tunnel decline"):
        assert str(ttr_lab.parse_move(text)) == text
    g = new_europe()
    assert g.describe(station("Wien", red=1)) == "build a station in Wien paying 1 red"


def test_custom_map_with_europe_rules(tmp_path):
    from .helpers import write_map

    path = write_map(
        tmp_path / "m.json",
        "ABCDEF",
        [(1, "A", "B", 2, "red"), (2, "B", "C", 3, "gray"), (3, "D", "E", 4, "blue"), (4, "E", "F", 1, "gray")],
        [(i, "A", "C", 5) for i in range(1, 16)],
    )
    g = ttr_lab.new_game("europe", players=2, seed=1, map=path)
    assert len(g.pending_tickets) == 3 and g.box_size == 0  # no long deck on this map
    g = past_setup(g)
    assert g.phase == Phase.TURN


# ---------------------------------------------------------------------------- bots


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_bots_finish_europe_games(seed):
    g = play_game("europe", [make_bot("greedy", 1), make_bot("random", 2)], seed=seed)
    assert g.is_over and g.problems() == []
    out = g.outcome()
    assert len(out.scores) == 2


def test_greedy_bot_pays_a_tunnel_when_it_can():
    g, tunnel = _tunnel_21(yellow=3, loco=1)
    g.play(claim(tunnel, yellow=2))
    bot = make_bot("greedy", 0)
    assert bot.choose(g.view(0)) == pay(loco=1, yellow=1)
    h, _ = _tunnel_21(yellow=2, blue=3)
    h.play(claim(tunnel, yellow=2))
    assert bot.choose(h.view(0)) == DeclineTunnel()


# ---------------------------------------------------------------------------- properties


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_random_game_conserves_everything_and_terminates(seed, players):
    g = ttr_lab.new_game("europe", players=players, seed=seed)
    rng = random.Random(seed)
    tunnels = 0
    for _ in range(5000):
        if g.is_over:
            break
        assert card_total(g) == 110
        for p in range(players):
            placed = sum(g.map.route(r).length for r in g.routes_of(p))
            assert g.pieces(p) + placed == 45
            assert g.score(p) == route_points(g, p)
            assert len(g.stations_of(p)) <= 3
        assert len(g.stations()) == sum(len(g.stations_of(p)) for p in range(players))
        assert g.problems() == []
        tunnels += g.phase == Phase.TUNNEL
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    assert g.is_over, "a random game always terminates"
    assert g.problems() == []
    g.outcome()


def _check_push_pop(g: GameState) -> None:
    before = snapshot(g)
    text = dumps(g.to_dict())
    moves = list(g.legal_moves)
    assert moves == sorted(moves), "legal moves are sorted"
    assert len(moves) == g.legal_moves.count() == len(set(moves))
    assert [g.legal_moves[i] for i in range(0, len(moves), 7)] == moves[::7]
    for m in moves:
        assert g.why_illegal(m) is None
        g.push(m)
        assert g.problems() == []
        g.pop()
        assert snapshot(g) == before
    assert dumps(g.to_dict()) == text


def _tunnel_positions(count: int = 6) -> list[GameState]:
    out, seed = [], 0
    while len(out) < count:
        g = ttr_lab.new_game("europe", players=3, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not g.is_over:
            if g.phase == Phase.TUNNEL:
                out.append(g.copy())
                break
            lm = g.legal_moves
            g.push(lm[rng.randrange(len(lm))])
    return out


def test_tunnel_phase_push_pop_and_round_trip():
    for g in _tunnel_positions():
        before = snapshot(g)
        text = dumps(g.to_dict())
        assert card_total(g) == 110 and g.problems() == []
        again = ttr_lab.GameState.from_dict(json.loads(text))
        assert snapshot(again) == before
        for m in g.legal_moves:
            assert g.why_illegal(m) is None
            g.push(m)
            assert g.problems() == [] and g.phase != Phase.TUNNEL
            g.pop()
            assert snapshot(g) == before


@SETTINGS
@given(seed=st.integers(0, 10**6), plies=st.integers(4, 300))
def test_generated_claims_and_stations_equal_a_brute_force_enumeration(seed, plies):
    """Every (route or city, card multiset of the right size) checked by
    why_illegal gives exactly the claims and stations that move generation lists."""
    _check_brute_force(random_game(seed, 4, plies))


def _check_brute_force(g: GameState) -> None:
    if g.phase == Phase.TUNNEL:
        hand = g.hand(g.current_player)
        names = sorted(hand)
        brute = set()
        for combo in combinations_with_replacement(names, g.tunnel.extra):
            m = PayTunnel(tuple(sorted((n, combo.count(n)) for n in set(combo))))
            if g.why_illegal(m) is None:
                brute.add(m)
        assert brute == {m for m in g.legal_moves if isinstance(m, PayTunnel)}
        return
    if g.phase != Phase.TURN:
        return
    hand = g.hand(g.current_player)
    names = sorted(hand)
    brute = set()
    for r in g.map.routes:
        for combo in combinations_with_replacement(names, r.length):
            m = ClaimRoute(r.id, tuple(sorted((n, combo.count(n)) for n in set(combo))))
            if g.why_illegal(m) is None:
                brute.add(m)
    n = len(g.stations_of(g.current_player)) + 1
    for city in g.map.cities:
        for k in range(1, 4):
            for combo in combinations_with_replacement(names, k):
                m = BuildStation(city.name, tuple(sorted((c, combo.count(c)) for c in set(combo))))
                if g.why_illegal(m) is None:
                    assert k == n
                    brute.add(m)
    generated = {m for m in g.legal_moves if isinstance(m, (ClaimRoute, BuildStation))}
    assert generated == brute


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 4)])
def test_early_positions_with_stations_to_build(seed, players):
    """Random games build their stations early: check those positions too."""
    g = ttr_lab.new_game("europe", players=players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not g.is_over and checked < 6:
        if any(isinstance(m, BuildStation) for m in g.legal_moves):
            _check_brute_force(g)
            _check_push_pop(g)
            checked += 1
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    assert checked == 6


def test_legal_station_moves_are_lazy():
    g = arrange(new_europe(), hands={0: dict.fromkeys(("red", "blue", "green", "white"), 2) | {L: 3}}, current=0)
    lm = g.legal_moves
    stations = [m for m in lm if isinstance(m, BuildStation)]
    assert len(stations) == 47 * 5
    i = next(i for i, m in enumerate(lm) if isinstance(m, BuildStation))
    assert lm[i] == stations[0] and lm[i + 5] == stations[5]
