"""The three rule defects fixed with the editions-as-plug-ins engine, one
test group each (rules reference A3 "at any time", B3 stations):

* A3: a row left with three or more wilds, because no reset could succeed,
  is reset as soon as cards going back to a discard make a reset possible
  (after a claim, a station, a harbor or a tunnel decline), and an empty
  face-up slot is refilled as soon as a card can be drawn for it;
* B3: among borrowing choices worth as many ticket points, a station borrows
  the route that completes more tickets (the first tie-breaker);
* stations and tunnels pay through the same card check as claims, so a card
  named twice in a hand-made move is refused.

Positions are arranged through the public snapshot API (tests/helpers.arrange),
which refuses any position ``GameState.problems()`` calls impossible: every
"stuck" row below is one the engine accepts as reachable.
"""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab import (
    BuildHarbor,
    BuildStation,
    ChoosePieces,
    ClaimRoute,
    DeclineTunnel,
    DrawFaceUp,
    GameState,
    IllegalMoveError,
    PayTunnel,
    Phase,
)
from ttr_lab.editions.europe import station_borrowing
from ttr_lab.scoring import network, score_two_city

from .helpers import arrange, past_setup, snapshot

L, W = "loco", "wild"


# ---------------------------------------------------------------------------- positions
def usa(**options) -> GameState:
    return past_setup(ttr_lab.new_game("usa", players=2, seed=1, **options))


def europe(**options) -> GameState:
    return past_setup(ttr_lab.new_game("europe", players=2, seed=1, **options))


def world(**options) -> GameState:
    g = past_setup(ttr_lab.new_game("world", players=2, seed=1, **options))
    while g.phase == Phase.SETUP_PIECES:
        g.play(ChoosePieces(20))
    return g


def route_of(game: GameState, color: str, length: int) -> int:
    """A plain train route of this colour and length."""
    return next(r.id for r in game.edition.routes if r.kind == "train" and r.color == color and r.length == length)


def tunnel_position(game: GameState, *, revealed: list[str], paid: dict[str, int], route: int, **kw) -> GameState:
    """A pending tunnel claim by seat 0: ``arrange(game, **kw)``, then the
    ``revealed`` cards move from seat 1's hand to the tunnel's reveal."""
    d = arrange(game, current=0, **kw).to_dict()
    hand = d["hands"][1]
    for c in revealed:
        hand[c] -= 1
        if not hand[c]:
            del hand[c]
    d["phase"] = "tunnel"
    d["extra"]["tunnel"] = {"route": route, "paid": dict(paid), "revealed": list(revealed)}
    return GameState.from_dict(d)


def wilds(game: GameState) -> int:
    return sum(1 for c in game.row if c is not None and game.edition.card_types[game.edition.card_index[c]].wild)


def reset_could_succeed(game: GameState) -> bool:
    ed = game.edition
    return ed.any_cards(game) and not ed.reset_futile(game)


def stuck_row_was_reset(h: GameState, resets_before: int) -> None:
    """After the move: the row was reset, and it is not left with wilds a reset could remove."""
    assert h.resets > resets_before
    assert wilds(h) < 3 or not reset_could_succeed(h)
    assert h.problems() == []


# ---------------------------------------------------------------------------- A3: stuck rows
# Every stuck row below holds three wilds and the decks and discards hold too
# few other cards for a new row to show fewer (A3, the termination guard), so
# the position is legal.  The move returns other cards to a discard: now a
# reset can succeed, and it happens at once ("at any time").


def test_a3_stuck_row_is_reset_after_a_claim_usa():
    g = usa()
    h = arrange(g, row=[L, L, L, "red", "blue"], hands={0: {"green": 2}}, deck_size=0, discard=[], rest=1, current=0)
    assert wilds(h) == 3 and not reset_could_succeed(h) and h.problems() == []
    h.play(ClaimRoute(route_of(g, "green", 2), (("green", 2),)))
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_claim_europe():
    g = europe()
    h = arrange(g, row=[L, L, L, "red", "blue"], hands={0: {"green": 2}}, deck_size=0, discard=[], rest=1, current=0)
    assert not reset_could_succeed(h)
    h.play(ClaimRoute(route_of(g, "green", 2), (("green", 2),)))
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_claim_rails_and_sails():
    # the train pile holds only the row's three wilds: the train slots would show them again
    g = world()
    h = arrange(
        g,
        row=[W, W, W, "red-ship", "green-ship", "black-ship"],
        hands={0: {"green": 2}},
        deck_size={"trains": 0, "ships": 20},
        discard=[],
        rest=1,
        current=0,
    )
    assert h.deck_size(1) == 20 and not reset_could_succeed(h) and h.problems() == []
    h.play(ClaimRoute(route_of(g, "green", 2), (("green", 2),)))
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_station():
    h = arrange(
        europe(), row=[L, L, L, "red", "blue"], hands={0: {"green": 1}}, deck_size=0, discard=[], rest=1, current=0
    )
    assert not reset_could_succeed(h)
    h.play(BuildStation("Wien", (("green", 1),)))
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_harbor():
    casablanca_lagos = 49
    h = arrange(
        world(),
        owners={casablanca_lagos: 0},
        row=[W, W, W, "red-ship", "green-ship", "black-ship"],
        hands={0: {"green-anchor": 2, "green-ship": 2}},
        deck_size={"trains": 0, "ships": 20},
        discard=[],
        rest=1,
        current=0,
    )
    assert not reset_could_succeed(h)
    h.play(BuildHarbor("Casablanca", (("green-anchor", 2), ("green-ship", 2))))
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_tunnel_decline():
    # the three revealed cards are out of every pile while the player decides;
    # declining discards them, and with them a new row could show fewer wilds
    h = tunnel_position(
        europe(),
        revealed=["yellow", L, "green"],
        paid={"yellow": 2},
        route=80,  # München-Zürich, a yellow tunnel of 2
        row=[L, L, L, "red", "blue"],
        hands={0: {"yellow": 2}, 1: {"yellow": 1, L: 1, "green": 1}},
        deck_size=0,
        discard=[],
        rest=1,
    )
    assert h.phase == Phase.TUNNEL and not reset_could_succeed(h) and h.problems() == []
    h.play(DeclineTunnel())
    assert h.phase == Phase.TURN and h.hand(0) == {"yellow": 2}  # the payment went back to the hand
    stuck_row_was_reset(h, 0)


def test_a3_stuck_row_is_reset_after_a_tunnel_is_paid():
    h = tunnel_position(
        europe(),
        revealed=["yellow", L, "green"],
        paid={"yellow": 2},
        route=80,
        row=[L, L, L, "red", "blue"],
        hands={0: {"yellow": 4}, 1: {"yellow": 1, L: 1, "green": 1}},
        deck_size=0,
        discard=[],
        rest=1,
    )
    h.play(PayTunnel((("yellow", 2),)))
    assert h.route_owner(80) == 0
    stuck_row_was_reset(h, 0)


def test_a3_a_row_left_by_the_reset_cap_waits_for_the_next_check():
    """With ``max_consecutive_resets=3`` (C1, the digital rule) a series stops
    after three resets and the wilds stay face up *on purpose*: the cap exists
    to leave them there.  Cards going back to a discard do not start a new
    series (almost every turn discards cards, which would make the cap
    meaningless); the next check of the row does, when a face-up card is
    taken and replaced (or empty slots are filled)."""
    g = europe(max_consecutive_resets=3)
    h = arrange(g, row=[L, L, L, "red", "blue"], hands={0: {"green": 1}}, current=0)
    assert reset_could_succeed(h) and h.problems() == []  # legal under the cap, not without it
    with pytest.raises(ttr_lab.RecordError, match="three or more wilds although a reset could succeed"):
        arrange(europe(), row=[L, L, L, "red", "blue"], hands={0: {"green": 1}}, current=0)
    row = h.row
    h.play(BuildStation("Wien", (("green", 1),)))
    assert h.row == row and h.resets == 0 and h.problems() == []
    h.play(DrawFaceUp(4))  # seat 1 takes the red card: the replacement starts a new check
    assert h.resets >= 1 and (wilds(h) < 3 or h.resets == 3)
    assert h.problems() == []


# ---------------------------------------------------------------------------- A3: empty slots
# An empty slot with every deck and discard empty is legal; the first card
# that goes to a discard fills it.


def test_a3_empty_slot_is_refilled_after_a_claim():
    g = usa()
    h = arrange(
        g, row=[None, "white", L, "red", "blue"], hands={0: {"green": 2}}, deck_size=0, discard=[], rest=1, current=0
    )
    assert h.problems() == []
    h.play(ClaimRoute(route_of(g, "green", 2), (("green", 2),)))
    assert h.row == ("green", "white", L, "red", "blue")
    assert h.deck_size() + h.discard_size() == 1 and h.problems() == []


def test_a3_empty_slot_is_refilled_after_a_station():
    h = arrange(
        europe(),
        row=[None, "white", L, "red", "blue"],
        hands={0: {"green": 1}},
        deck_size=0,
        discard=[],
        rest=1,
        current=0,
    )
    h.play(BuildStation("Wien", (("green", 1),)))
    assert h.row == ("green", "white", L, "red", "blue")
    assert h.deck_size() + h.discard_size() == 0 and h.problems() == []


def test_a3_empty_slot_is_refilled_after_a_tunnel_decline():
    h = tunnel_position(
        europe(),
        revealed=["yellow", L, "green"],
        paid={"yellow": 2},
        route=80,
        row=[None, "white", L, "red", "blue"],
        hands={0: {"yellow": 2}, 1: {"yellow": 1, L: 1, "green": 1}},
        deck_size=0,
        discard=[],
        rest=1,
    )
    h.play(DeclineTunnel())
    assert None not in h.row and h.row[1:] == ("white", L, "red", "blue")
    assert h.deck_size() + h.discard_size() == 2 and h.problems() == []


def test_a3_empty_slot_is_refilled_after_a_harbor():
    h = arrange(
        world(),
        owners={49: 0},
        row=[None, "red", W, "red-ship", "green-ship", "black-ship"],
        hands={0: {"green-anchor": 2, "green-ship": 2}},
        deck_size={"trains": 0, "ships": 0},
        discard=[],
        rest=1,
        current=0,
    )
    assert h.problems() == []
    h.play(BuildHarbor("Casablanca", (("green-anchor", 2), ("green-ship", 2))))
    assert h.row == ("green-anchor", "red", W, "red-ship", "green-ship", "black-ship")  # a train slot: the train pile
    assert h.problems() == []


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
    g = europe()
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


# ---------------------------------------------------------------------------- one card check
def test_station_payment_naming_a_card_twice_is_refused():
    g = europe()
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
        europe(),
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


def test_claim_naming_a_card_twice_is_refused_the_same_way():
    g = usa()
    h = arrange(g, hands={0: {"green": 1}}, current=0)
    move = ClaimRoute(route_of(g, "green", 2), (("green", 1), ("green", 1)))
    assert h.why_illegal(move) == ("A4", "card green is named twice")
