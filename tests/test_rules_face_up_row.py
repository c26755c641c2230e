"""docs/rules.md A2 and A3 in every edition: the face-up row after cards go
back to a discard (a claim, a station, a harbor, a tunnel paid or declined).

* A2 (empty slots): an empty face-up slot, left when every pile had run out,
  is refilled as soon as a card can be drawn for it;
* A3 (the reset "at any time"): a row left with three or more wilds, because
  no reset could succeed, is reset as soon as a reset can succeed; a row
  left by the reset cap (C1) waits for the next check of the row.

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
    PayTunnel,
    Phase,
)

from .helpers import arrange, past_setup, tunnel_position

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


# ---------------------------------------------------------------------------- A2: empty slots
# An empty slot with every deck and discard empty is legal (A2, "Engine
# decision: empty slots"); the first card that goes to a discard fills it.


def test_a2_empty_slot_is_refilled_after_a_claim():
    g = usa()
    h = arrange(
        g, row=[None, "white", L, "red", "blue"], hands={0: {"green": 2}}, deck_size=0, discard=[], rest=1, current=0
    )
    assert h.problems() == []
    h.play(ClaimRoute(route_of(g, "green", 2), (("green", 2),)))
    assert h.row == ("green", "white", L, "red", "blue")
    assert h.deck_size() + h.discard_size() == 1 and h.problems() == []


def test_a2_empty_slot_is_refilled_after_a_station():
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


def test_a2_empty_slot_is_refilled_after_a_tunnel_decline():
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


def test_a2_empty_slot_is_refilled_after_a_harbor():
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
