"""Scenarios 17-19: the USA 1910 variants (docs/rules.md B2)."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab import DrawTickets, IllegalMoveError, KeepTickets, Phase

from .helpers import arrange, past_setup, write_map

BIG_CITIES = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}


def _classroom(tmp_path):
    """Three separate two-city lines; tickets 1-7 join A-B, 8-14 C-D, 15-19 E-F, 20-40 G-H."""
    tickets = [(i, "A", "B", 2) for i in range(1, 8)] + [(i, "C", "D", 2) for i in range(8, 15)]
    tickets += [(i, "E", "F", 2) for i in range(15, 20)] + [(i, "G", "H", 1) for i in range(20, 41)]
    routes = [(1, "A", "B", 1, "red"), (2, "C", "D", 1, "blue"), (3, "E", "F", 1, "green"), (4, "G", "H", 6, "gray")]
    return write_map(tmp_path / "classroom.json", "ABCDEFGH", routes, tickets)


def test_scenario_17_1910_deck_and_globetrotter(tmp_path):
    assert len(ttr_lab.find_edition("1910").ticket_deck()) == 35
    g = ttr_lab.new_game("1910", players=3, seed=1)
    dealt = sum(len(t) for t in g.to_dict()["setup_deal"])
    assert g.ticket_deck_size + dealt == 35
    # P1 completes 7 tickets, P2 7 and P3 5: P1 and P2 score the Globetrotter
    path = _classroom(tmp_path)
    g = past_setup(ttr_lab.new_game("1910", players=3, seed=2, map=path))
    g = arrange(g, owners={1: 0, 2: 1, 3: 2}, tickets={0: range(1, 8), 1: range(8, 15), 2: range(15, 20)})
    out = g.outcome()
    assert [p.tickets_completed for p in out.players] == [7, 7, 5]
    bonuses = [dict(p.bonuses) for p in out.players]
    assert bonuses[0] == {"Globetrotter": 15} and bonuses[1] == {"Globetrotter": 15} and bonuses[2] == {}
    assert all("Longest Path" not in b for b in bonuses)
    assert out.scores == (1 + 14 + 15, 1 + 14 + 15, 1 + 10)


def test_scenario_18_mega_game(tmp_path):
    ed = ttr_lab.find_edition("mega")
    assert len(ed.ticket_deck()) == 69
    g = ttr_lab.new_game("mega", players=3, seed=4)
    dealt = sorted(t.id for t in g.pending_tickets)
    assert len(dealt) == 5
    with pytest.raises(IllegalMoveError, match="must keep at least 3 of the 5 tickets at setup"):
        g.play(KeepTickets(tuple(dealt[:2])))
    g.play(KeepTickets(tuple(dealt[:3])))
    g = past_setup(g)
    g.play(DrawTickets())
    drawn = [t.id for t in g.pending_tickets]
    assert len(drawn) == 4 and g.phase == Phase.KEEP_TICKETS
    g.play(KeepTickets((drawn[0],)))
    assert g.phase == Phase.TURN
    # both bonuses are scored (on a classroom map with the Mega rules)
    path = _classroom(tmp_path)
    g = past_setup(ttr_lab.new_game("mega", players=2, seed=2, map=path))
    g = arrange(g, owners={1: 0, 4: 1}, tickets={0: range(1, 8), 1: range(20, 22)})
    out = g.outcome()
    assert dict(out.players[0].bonuses) == {"Globetrotter": 15}
    assert dict(out.players[1].bonuses) == {"Longest Path": 10}


def test_scenario_19_big_cities():
    ed = ttr_lab.find_edition("big_cities")
    deck = [ed.map.ticket(t) for t in ed.ticket_deck()]
    assert len(deck) == 35
    assert all(set(t.cities) & BIG_CITIES for t in deck)
    g = ttr_lab.new_game("big_cities", players=2, seed=5)
    dealt = sorted(t.id for t in g.pending_tickets)
    assert len(dealt) == 4
    with pytest.raises(IllegalMoveError, match="must keep at least 2 of the 4"):
        g.play(KeepTickets((dealt[0],)))
    g = past_setup(g)
    g.play(DrawTickets())
    assert len(g.pending_tickets) == 4
    g.play(KeepTickets((g.pending_tickets[0].id,)))
    from ttr_lab.bots import make_bot, play_game

    done = play_game("big_cities", [make_bot("greedy", 1), make_bot("greedy", 2)], seed=6)
    assert all(p.bonuses == () for p in done.outcome().players)  # no bonus card


def test_1910_reprinted_values_in_the_mega_deck():
    mega = ttr_lab.find_edition("mega")
    values = {frozenset(t.cities): t.points for t in (mega.map.ticket(i) for i in mega.ticket_deck())}
    assert values[frozenset({"Los Angeles", "Miami"})] == 19
    assert values[frozenset({"Los Angeles", "New York"})] == 20
    assert values[frozenset({"Seattle", "New York"})] == 20
    assert values[frozenset({"Sault St. Marie", "Oklahoma City"})] == 8
    for pair, pts in [
        ({"Boston", "Washington"}, 4),
        ({"Montréal", "Chicago"}, 7),
        ({"Vancouver", "Portland"}, 2),
        ({"Winnipeg", "Omaha"}, 6),
    ]:
        assert values[frozenset(pair)] == pts  # the Mystery Train tickets


def test_tiebreak_without_the_card_uses_path_length_or_a_shared_win(tmp_path):
    """B2: without a Longest Path card (1910, Big Cities), ties after completed
    tickets go to the longer path (option tiebreak='shared': a shared win)."""
    path = write_map(
        tmp_path / "m.json",
        "ABCDE",
        [(1, "A", "B", 2, "red"), (2, "C", "D", 1, "blue"), (3, "A", "E", 1, "gray")],
        [(i, "A", "B", 1) for i in range(1, 7)],
    )
    for option, winners in (("longest_path", (0,)), ("shared", (0, 1))):
        g = past_setup(ttr_lab.new_game("big_cities", players=2, seed=1, map=path, tiebreak=option))
        # P1: a 2-car route (2 points); P2: two separate 1-car routes (1 + 1 points)
        g = arrange(g, owners={1: 0, 2: 1, 3: 1}, tickets={})
        out = g.outcome()
        assert out.scores == (2, 2)
        assert out.winners == winners, option
