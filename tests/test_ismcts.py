"""SO-ISMCTS (ttr_lab.analysis.ismcts_search): well-formed, deterministic, blind to
what the seat cannot see, and a bot that finishes a game."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab.analysis import Advice, ISMCTSBot, candidate_moves, ismcts
from ttr_lab.analysis.ismcts_search import _clearly_better, _Node, _search, _widen, observed
from ttr_lab.bots import make_bot, play_game

from .helpers import bot_game, new_usa


def check(a: Advice, view) -> None:
    assert abs(sum(a.win_probabilities) - 1) < 1e-9
    assert len(a.win_probabilities) == len(a.expected_scores) == view.num_players
    legal = list(view.legal_moves) if view.is_my_turn else []
    assert [m.move for m in a.moves if m.move not in legal] == []
    assert len({m.move for m in a.moves}) == len(a.moves)
    visits = [m.playouts for m in a.moves]
    assert visits == sorted(visits, reverse=True)  # ranked by visits
    for m in a.moves:
        lo, hi = m.interval
        assert 0 <= lo <= m.win_probability <= hi <= 1
        assert abs(sum(m.win_probabilities) - 1) < 1e-9
    if a.moves:  # every iteration goes through one root move
        assert sum(visits) == a.playouts


@pytest.mark.parametrize(
    "name, players, plies",
    [
        ("usa", 2, 0),
        ("usa", 2, 50),
        ("usa", 3, 90),
        ("europe", 3, 70),
        ("rails_and_sails", 2, 0),
        ("rails_and_sails", 2, 80),
    ],
)
def test_the_answer_is_well_formed_and_deterministic(name, players, plies):
    g = bot_game(name, 7, players, plies)
    v = g.view(g.current_player)
    a = ismcts(v, playouts=16, seed=3)
    check(a, v)
    assert a.moves and a.playouts == 16
    assert a.moves[0].explanation
    assert ismcts(v, playouts=16, seed=3) == a  # same seed, same budget: same answer


def test_bad_input():
    # a finished game and the budgets every search refuses: tests/test_search_contract.py
    v = new_usa(players=2).view(0)
    for bad in (
        dict(playouts=4, candidates=0),
        dict(playouts=4, c=-1.0),
        dict(playouts=4, c=float("nan")),
        dict(playouts=4, margin=-0.1),
    ):
        with pytest.raises(ttr_lab.TtrError):
            ismcts(v, **bad)
    with pytest.raises(ttr_lab.TtrError):
        ISMCTSBot(playouts=0)
    with pytest.raises(ttr_lab.TtrError):
        ISMCTSBot(seconds=-2.0)


def test_a_seconds_budget_stops():
    v = bot_game("usa", 5, 2, 40).view(0)
    v = v if v.is_my_turn else bot_game("usa", 5, 2, 41).view(1)
    a = ismcts(v, seconds=0.05, seed=1)
    check(a, v)
    assert a.playouts >= 1 and a.seconds < 5


def test_other_seats_moves_are_keyed_by_what_the_seat_sees():
    """A ticket keep of another seat is keyed by its count (which tickets is
    secret), a public move by itself, the seat's own keep by itself."""
    g = ttr_lab.new_game("usa", players=2, seed=1)  # seat 0 keeps its setup tickets
    keeps = [m for m in g.legal_moves if isinstance(m, ttr_lab.KeepTickets)]
    twos = [m for m in keeps if len(m.tickets) == 2]
    assert len(twos) >= 2
    assert observed(twos[0], g, 1) == observed(twos[1], g, 1) == ("KeepTickets", "keep 2 tickets")
    three = max(keeps, key=lambda m: len(m.tickets))
    assert observed(three, g, 1) == ("KeepTickets", "keep 3 tickets")  # three tickets are not two
    assert observed(twos[0], g, 0) == twos[0] != observed(twos[1], g, 0)
    h = bot_game("usa", 3, 2, 40)
    public = [m for m in h.legal_moves if isinstance(m, (ttr_lab.ClaimRoute, ttr_lab.DrawBlind, ttr_lab.DrawFaceUp))]
    assert public and all(observed(m, h, 1 - h.current_player) == m for m in public)


def test_the_tree_shares_the_other_seats_secret_keeps_and_widens_slowly():
    """At setup (both seats keep tickets), the root seat's keeps lead to the
    other seat's keeps, keyed by count alone, so at most three (2, 3 tickets
    in USA) children; below the root the children grow with the visits."""
    g = ttr_lab.new_game("usa", players=2, seed=1)
    root, first, used = _search(g.view(0), 60, 1.0, 1, 8, 0.7)
    assert used == 60 == root.visits
    assert set(first) == set(root.children) <= set(g.legal_moves)
    below = [k for child in root.children.values() for k in child.children]
    assert below and {k for k in below if not isinstance(k, ttr_lab.Move)} == set(below)
    assert {k[1] for k in below} <= {"keep 2 tickets", "keep 3 tickets"}  # type: ignore[index]

    def walk(node):
        yield node
        for c in node.children.values():
            yield from walk(c)

    for child in root.children.values():  # the other seat's keeps: always both legal, so widened by visits
        assert 1 <= len(child.children) <= _widen(child.visits - 1)
        for node in walk(child):
            assert all(0 < c.visits <= c.avail <= node.visits for c in node.children.values())
    assert [_widen(v) for v in (0, 1, 2, 7, 8, 18)] == [1, 1, 2, 2, 3, 4]


def test_caution_keeps_the_policy_move_unless_another_is_clearly_better():
    v = bot_game("usa", 7, 2, 50).view(0)
    v = v if v.is_my_turn else bot_game("usa", 7, 2, 51).view(1)
    policy = candidate_moves(v, limit=8)[0]
    kept = 0
    for seed in range(12):  # the cases the rule is for: the plain answer is not the policy's move
        plain = ismcts(v, playouts=40, seed=seed, explain=False)
        safe = ismcts(v, playouts=40, seed=seed, explain=False, caution=True)
        assert sorted(map(str, (m.move for m in safe.moves))) == sorted(map(str, (m.move for m in plain.moves)))
        if plain.moves[0].move != policy:
            assert safe.moves[0].move in (policy, plain.moves[0].move)
            kept += safe.moves[0].move == policy
    assert kept >= 1
    a, b = _Node(2), _Node(2)
    a.visits = b.visits = 100
    a.values, a.squares = [65.0, 35.0], [65.0, 35.0]  # 0/1 values: 65% against 35% (4.4 SEs)
    b.values, b.squares = [35.0, 65.0], [35.0, 65.0]
    assert _clearly_better(a, b, 0) and not _clearly_better(b, a, 0) and not _clearly_better(a, b, 1)
    b.values, b.squares = [55.0, 45.0], [55.0, 45.0]  # 10 points at n=100 (1.5 SEs): not clearly better
    assert not _clearly_better(a, b, 0)
    b.values, b.squares = [45.0, 55.0], [45.0, 55.0]  # 20 points (2.9 SEs): not by Z_DEVIATE's 3
    assert not _clearly_better(a, b, 0)


def test_the_bot_plays_a_game_against_greedy_to_the_end():
    bot = ISMCTSBot(1, playouts=3, candidates=4)
    g = play_game("usa", [bot, make_bot("greedy", 2)], seed=6)
    assert g.is_over and g.outcome().ranking
    assert bot.calls > 0
    assert repr(bot) == "ISMCTSBot(playouts=3)"
