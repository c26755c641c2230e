"""Scenarios 1-16: USA and the rules every edition shares (docs/rules.md
A2-A7, B1, C1, C5), one test each (``test_scenario_NN_...``), plus the
rules they touch.  Positions are arranged through the public snapshot API
(``tests/helpers.arrange``), which checks conservation on every arrangement."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, IllegalMoveError, KeepTickets, Phase
from ttr_lab.engine.scoring import longest_path

from .helpers import arrange, new_usa, past_setup, write_map

L = "loco"


def claim(route: int, **cards: int) -> ClaimRoute:
    return ClaimRoute(route, tuple(sorted((k, v) for k, v in cards.items() if v)))


def test_scenario_01_face_up_locomotive_ends_the_draw():
    g = arrange(new_usa(), row=[L, "red", "blue", "green", "yellow"], deck_top=["orange"], current=0)
    before = g.hand_size(0)
    g.play(DrawFaceUp(1))
    assert g.hand_size(0) == before + 1
    assert g.hand(0)[L] >= 1
    assert g.row[0] == "orange"  # slot refilled from the deck
    assert g.current_player == 1 and g.phase == Phase.TURN  # the action has ended


def test_scenario_02_replacement_locomotive_cannot_be_second_card():
    g = arrange(new_usa(), row=["red", "blue", "green", "yellow", "black"], deck_top=[L, "white"], current=0)
    g.play(DrawFaceUp(1))
    assert g.row[0] == L and g.phase == Phase.SECOND_CARD
    rule, reason = g.why_illegal(DrawFaceUp(1))
    assert rule == "A2" and "wild" in reason
    with pytest.raises(IllegalMoveError, match=r"cannot be taken as the second card \(rule A2\)"):
        g.play(DrawFaceUp(1))
    assert DrawBlind() in g.legal_moves
    assert DrawFaceUp(1) not in list(g.legal_moves)
    g.play(DrawBlind())
    assert g.hand(0).get("white", 0) >= 1 and g.current_player == 1


def test_scenario_03_blind_locomotive_counts_as_one_card():
    g = arrange(
        new_usa(), row=["red", "blue", "green", "yellow", "black"], deck_top=[L, "blue"], current=0, hands={0: {}}
    )
    g.play(DrawBlind())
    assert g.phase == Phase.SECOND_CARD  # a blind wild does not end the draw
    g.play(DrawBlind())
    assert g.hand(0) == {L: 1, "blue": 1}
    assert g.current_player == 1


def test_scenario_04_reset_between_first_and_second_pick():
    g = arrange(
        new_usa(),
        row=[L, L, "red", "blue", "green"],
        deck_top=[L, "white", "white", "black", "black", "orange"],
        current=0,
        discard=[],
    )
    g.play(DrawFaceUp(3))  # takes red; the replacement is the third locomotive
    assert g.resets == 1
    assert g.discard_size() == 5  # the whole 3-locomotive row was discarded
    assert g.row == ("white", "white", "black", "black", "orange")
    assert g.phase == Phase.SECOND_CARD  # the second card comes from the new row
    g.play(DrawFaceUp(5))
    assert g.hand(0)["orange"] >= 1


@pytest.mark.parametrize("cap, resets, row_locos", [(None, 4, 1), (3, 3, 3)])
def test_scenario_05_repeated_resets_and_the_cap_option(cap, resets, row_locos):
    deal_3l = [L, L, L, "red", "blue"]
    deck_top = [L] + deal_3l * 3 + [L, "green", "green", "yellow", "yellow"]
    g = arrange(
        new_usa(max_consecutive_resets=cap),
        row=[L, L, "red", "blue", "green"],
        deck_top=deck_top,
        current=0,
        discard=[],
        hands={p: {} for p in range(4)},
    )
    g.play(DrawFaceUp(3))  # the row now shows 3 locomotives
    assert g.resets == resets
    assert g.row.count(L) == row_locos


def test_scenario_05_termination_guard_stops_an_endless_reset():
    # every non-wild card is in a hand: no deal could ever hold fewer than 3 wilds
    g = new_usa(seed=5)
    cards = dict.fromkeys(("red", "orange", "yellow", "green", "blue", "pink", "white", "black"), 12)
    g = arrange(
        g,
        row=[L, L, "red", "red", "red"],
        deck_top=[L] * 12,
        current=0,
        discard=[],
        hands={0: {}, 1: {**cards, "red": 9}, 2: {}, 3: {}},
    )
    g.play(DrawFaceUp(3))
    assert g.row.count(L) >= 3 and g.resets == 0


def test_scenario_06_empty_deck_reshuffles_discard_before_second_draw():
    g = arrange(
        new_usa(),
        row=["red", "blue", "green", "yellow", "black"],
        deck_size=1,
        discard=["white"] * 12 + ["pink"] * 8,
        rest=3,
        current=0,
        hands={p: {} for p in range(4)},
    )
    assert g.deck_size() == 1 and g.discard_size() == 20
    shuffles = g.shuffles
    g.play(DrawBlind())
    g.play(DrawBlind())
    assert g.shuffles == shuffles + 1
    assert g.discard_size() == 0 and g.deck_size() == 19


def test_scenario_07_no_cards_left_only_face_up_locomotive_and_tickets():
    g = arrange(new_usa(), row=[L, L, None, None, None], deck_size=0, rest=3, current=0, hands={0: {}})
    assert g.deck_size() == 0 and g.discard_size() == 0
    assert list(g.legal_moves) == [DrawFaceUp(1), DrawFaceUp(2), DrawTickets()]
    assert g.why_illegal(DrawBlind())[0] == "A2"


def test_scenario_08_no_legal_second_pick_ends_the_action():
    g = arrange(new_usa(), row=["red", L, None, None, None], deck_size=0, rest=3, current=0, hands={0: {}})
    g.play(DrawFaceUp(1))
    assert g.hand(0) == {"red": 1}
    assert g.current_player == 1 and g.phase == Phase.TURN


def test_scenario_09_gray_route_payment():
    g = arrange(new_usa(), hands={0: {"red": 2, "blue": 1, L: 1}}, current=0)
    route = 14  # Calgary-Vancouver, gray, 3
    assert g.map.route(route).color == "gray" and g.map.route(route).length == 3
    assert claim(route, red=2, loco=1) in g.legal_moves
    with pytest.raises(IllegalMoveError, match="mixed colours"):
        g.play(claim(route, red=1, blue=1, loco=1))
    with pytest.raises(IllegalMoveError, match="exactly 3 cards"):
        g.play(claim(route, red=2))
    g.play(claim(route, red=2, loco=1))
    assert g.route_owner(route) == 0 and g.hand(0) == {"blue": 1}
    assert g.score(0) == 4


def test_scenario_09_coloured_route_takes_its_colour():
    g = arrange(new_usa(), hands={0: {"red": 4, "orange": 1, L: 3}}, current=0)
    with pytest.raises(IllegalMoveError, match="orange route takes orange cards"):
        g.play(claim(4, red=4))
    assert claim(4, orange=1, loco=3) in g.legal_moves


def test_claim_naming_a_card_twice_is_refused_the_same_way():
    """A4: a payment names each card once; stations and tunnels pay through
    the same check (test_rules_europe, B3: one card check)."""
    g = past_setup(ttr_lab.new_game("usa", players=2, seed=1))
    h = arrange(g, hands={0: {"green": 1}}, current=0)
    green_2 = next(r.id for r in g.edition.routes if r.kind == "train" and r.color == "green" and r.length == 2)
    move = ClaimRoute(green_2, (("green", 1), ("green", 1)))
    assert h.why_illegal(move) == ("A4", "card green is named twice")


@pytest.mark.parametrize("players", [3, 4])
def test_scenario_10_double_routes_by_player_count(players):
    g = new_usa(players=players)
    hands = {p: {"yellow": 2, "red": 2} for p in range(players)}
    g = arrange(g, owners={10: 1}, hands=hands, current=0)
    assert g.route_owner(10) == 1
    if players == 3:
        rule, reason = g.why_illegal(claim(11, yellow=2))
        assert rule == "A4" and "only one route of a double route" in reason
    else:
        assert claim(11, yellow=2) in g.legal_moves
    g2 = arrange(g, current=1)
    rule, reason = g2.why_illegal(claim(11, yellow=2))
    assert rule == "A4"
    assert ("both routes" in reason) if players == 4 else ("only one route" in reason)


def test_scenario_11_fewer_tickets_than_the_draw():
    g = arrange(new_usa(), current=0, ticket_deck_size=2)
    bottom_before = g.to_dict()["ticket_deck"]
    g.play(DrawTickets())
    drawn = [t.id for t in g.pending_tickets]
    assert len(drawn) == 2 and g.ticket_deck_size == 0
    assert KeepTickets(()) not in g.legal_moves
    with pytest.raises(IllegalMoveError, match="at least 1"):
        g.play(KeepTickets(()))
    g.play(KeepTickets((drawn[0],)))
    assert g.to_dict()["ticket_deck"] == [drawn[1]]  # the returned ticket went to the bottom
    assert set(bottom_before) == set(drawn)
    g2 = arrange(g, current=g.current_player, ticket_deck_size=0)
    assert g2.why_illegal(DrawTickets()) == ("A5", "the ticket deck is empty")
    assert DrawTickets() not in list(g2.legal_moves)


def test_scenario_11_returned_tickets_go_under_the_deck():
    g = arrange(new_usa(), current=0)
    deck = g.to_dict()["ticket_deck"]
    g.play(DrawTickets())
    drawn = [t.id for t in g.pending_tickets]
    assert drawn == deck[::-1][:3]  # drawn from the top
    g.play(KeepTickets((drawn[1],)))
    assert g.to_dict()["ticket_deck"][:2] == [drawn[2], drawn[0]]


def test_scenario_12_initial_tickets_keep_at_least_two():
    g = ttr_lab.new_game("usa", players=2, seed=3)
    dealt = sorted(t.id for t in g.pending_tickets)
    assert len(dealt) == 3
    with pytest.raises(IllegalMoveError, match="must keep at least 2 of the 3 tickets at setup"):
        g.play(KeepTickets((dealt[0],)))
    assert g.legal_moves.count() == 4  # three pairs and all three
    g.play(KeepTickets(tuple(dealt[:2])))
    g.play(KeepTickets(tuple(sorted(t.id for t in g.pending_tickets))))
    assert g.phase == Phase.TURN and len(g.tickets(0)) == 2 and len(g.tickets(1)) == 3


def _fill(game, targets, exclude=()):
    """Owners giving each seat exactly ``targets[seat]`` cars, single routes only."""
    owners, cars = {}, dict.fromkeys(targets, 0)
    for seat, goal in targets.items():
        for r in sorted(game.map.routes, key=lambda r: -r.length):
            if r.double_of is None and r.id not in exclude and r.id not in owners and cars[seat] + r.length <= goal:
                owners[r.id] = seat
                cars[seat] += r.length
    assert cars == targets
    return owners


def _finish_turn(g):
    g.play(g.legal_moves[0])
    while g.phase in (Phase.SECOND_CARD, Phase.KEEP_TICKETS):
        g.play(g.legal_moves[0])


def test_scenario_13_final_round():
    g = new_usa(players=4)
    two = 1  # Atlanta-Charleston, gray, 2
    g = arrange(g, owners=_fill(g, {1: 41}, exclude={two}), current=1, hands={1: {"red": 2}})
    assert g.pieces(1) == 4
    g.play(claim(two, red=2))
    assert g.pieces(1) == 2 and g.final_turns_left == 4
    turns = []
    while not g.is_over:
        turns.append(g.current_player)
        _finish_turn(g)
    assert turns == [2, 3, 0, 1]  # P3, P4, P1 and P2 each get one more turn


def test_scenario_13_second_trigger_in_final_round_changes_nothing():
    g = new_usa(players=4)
    two, one = 1, 3  # Atlanta-Charleston (2), Atlanta-Nashville (1)
    g = arrange(
        g, owners=_fill(g, {2: 44, 1: 41}, exclude={two, one}), current=1, hands={1: {"red": 2}, 2: {"blue": 1}}
    )
    g.play(claim(two, red=2))
    assert g.final_turns_left == 4
    g.play(claim(one, blue=1))  # P3 reaches 0 trains in the final round
    assert g.pieces(2) == 0 and g.final_turns_left == 3
    turns = [1, 2]
    while not g.is_over:
        turns.append(g.current_player)
        _finish_turn(g)
    assert turns == [1, 2, 3, 0, 1]


def _classroom(tmp_path, routes, tickets=()):
    return write_map(tmp_path / "classroom.json", "ABCDEFGH", routes, tickets)


def test_scenario_14_longest_path_loop_and_tail(tmp_path):
    path = _classroom(
        tmp_path,
        [
            (1, "A", "B", 3, "red"),
            (2, "B", "C", 2, "red"),
            (3, "A", "C", 4, "red"),
            (4, "C", "D", 6, "red"),
            (5, "E", "F", 6, "blue"),
            (6, "F", "G", 6, "blue"),
            (7, "G", "H", 3, "blue"),
        ],
        [(i, "A", "D", 5) for i in range(1, 13)],
    )
    g = past_setup(ttr_lab.new_game("usa", players=2, seed=1, map=path))
    g = arrange(g, owners={1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 1, 7: 1})
    length, routes = longest_path(g, 0)
    assert length == 15 and sorted(routes) == [1, 2, 3, 4]
    assert longest_path(g, 1)[0] == 15
    out = g.outcome()
    assert dict(out.players[0].bonuses)["Longest Path"] == 10
    assert dict(out.players[1].bonuses)["Longest Path"] == 10


def test_scenario_15_tie_breakers(tmp_path):
    tickets = [(i, "A", "B", 1) for i in range(1, 7)] + [
        (7, "C", "D", 1),
        (8, "C", "D", 1),
        (9, "C", "D", 1),
        (10, "C", "D", 1),
        (11, "C", "D", 2),
    ]
    tickets += [(12 + i, "E", "F", 1) for i in range(10)]
    path = _classroom(
        tmp_path,
        [(1, "A", "B", 2, "red"), (2, "C", "D", 2, "blue"), (3, "E", "F", 3, "green"), (4, "G", "H", 1, "gray")],
        tickets,
    )
    g = past_setup(ttr_lab.new_game("usa", players=2, seed=2, map=path))
    # P1: route 2 + six 1-point tickets + 10 = 18; P2: 2 + (1+1+1+1+2) + 10 = 18
    a = arrange(g, owners={1: 0, 2: 1}, tickets={0: range(1, 7), 1: range(7, 12)})
    out = a.outcome()
    assert out.scores == (18, 18)
    assert out.winners == (0,) and out.ranking == ((0,), (1,))
    # tickets tie too: the Longest Path card decides (P1 route of 3 holds it)
    b = arrange(g, owners={3: 0, 2: 1}, tickets={0: range(12, 17), 1: [7, 8, 9, 10, 11]})
    out = b.outcome()
    assert [p.tickets_completed for p in out.players] == [5, 5]
    assert out.scores[0] == 4 + 5 + 10 and out.scores[1] == 2 + 6
    # make the totals equal by giving P2 more ticket points
    c = arrange(g, owners={3: 0, 2: 1, 4: 1}, tickets={0: range(12, 17), 1: [7, 8, 9, 10, 11]})
    out = c.outcome()
    assert out.scores[0] > out.scores[1]


def test_scenario_15_card_holder_breaks_a_full_tie(tmp_path):
    tickets = [(1, "A", "B", 1), (2, "A", "B", 1), (3, "C", "D", 1), (4, "C", "D", 12)] + [
        (5 + i, "E", "F", 1) for i in range(6)
    ]
    path = _classroom(tmp_path, [(1, "A", "B", 3, "red"), (2, "C", "D", 2, "blue"), (3, "E", "F", 1, "green")], tickets)
    g = past_setup(ttr_lab.new_game("usa", players=2, seed=2, map=path))
    # P1: 4 + 2 + 10 = 16 with the card; P2: 2 + 13 + 1 (route 3) = 16, 2 tickets each
    g = arrange(g, owners={1: 0, 2: 1}, tickets={0: [1, 2], 1: [3, 4]})
    out = g.outcome()
    assert out.scores == (16, 15)
    g = arrange(g, owners={1: 0, 2: 1, 3: 1}, tickets={0: [1, 2], 1: [3, 4]})
    out = g.outcome()
    assert out.scores == (16, 16)
    assert [p.tickets_completed for p in out.players] == [2, 2]
    assert out.winners == (0,), "the Longest Path card holder wins a full tie"


def test_scenario_16_not_enough_trains():
    g = new_usa()
    owners = {}
    cars = 0
    for r in g.map.routes:
        if r.double_of is None and cars + r.length <= 42:
            owners[r.id] = 0
            cars += r.length
    g = arrange(g, owners=owners, current=0, hands={0: {"pink": 4, L: 2}})
    assert g.pieces(0) == 3
    four = next(r.id for r in g.map.routes if r.length == 4 and r.color == "pink" and g.route_owner(r.id) is None)
    rule, reason = g.why_illegal(claim(four, pink=4))
    assert rule == "A4" and "not enough pieces" in reason
    assert not any(isinstance(m, ClaimRoute) and g.map.route(m.route).length > 3 for m in g.legal_moves)
