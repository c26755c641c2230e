"""What every search from one seat's view promises, the advisor's
(:func:`~ttr_lab.analysis.advise`) and the tree search's
(:func:`~ttr_lab.analysis.ismcts`) alike: blind to what the seat cannot see,
win chances for a seat not to move, and the library's error for a finished
game or a budget that is not one."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab.analysis import advise, ismcts
from ttr_lab.bots import make_bot, play_game
from ttr_lab.engine.state import GameState

from .helpers import bot_game, new_usa
from .test_bad_input import hidden_variants

SEARCHES = pytest.mark.parametrize("search", [advise, ismcts], ids=["advise", "ismcts"])


@SEARCHES
def test_the_answer_is_the_same_whatever_the_hidden_cards_and_tickets(search):
    """Positions differing only in what the seat cannot see (another hand, other
    tickets, the deck order) give identical answers for the same seed."""
    g = GameState.from_dict(bot_game("usa", 11, 3, 60).to_dict())
    p = g.current_player
    base = search(g.view(p), playouts=16, seed=5)
    assert base.moves
    tried = 0
    for other in hidden_variants(g, p):
        assert other.to_dict() != g.to_dict()
        assert search(other.view(p), playouts=16, seed=5) == base
        tried += 1
        if tried >= 3:
            break
    assert tried == 3


@SEARCHES
def test_a_seat_not_to_move_gets_win_chances_and_no_moves(search):
    g = bot_game("usa", 2, 2, 30)
    q = 1 - g.current_player
    a = search(g.view(q), playouts=12, seed=1)
    assert a.moves == () and a.best is None
    assert abs(sum(a.win_probabilities) - 1) < 1e-9 and a.playouts == 12


@SEARCHES
def test_a_finished_game_and_bad_budgets_are_refused(search):
    done = play_game("usa", [make_bot("playout", 1), make_bot("playout", 2)], seed=4)
    with pytest.raises(ttr_lab.TtrError, match="over"):
        search(done.view(0), playouts=5)
    v = new_usa(players=2).view(0)
    for bad in (dict(playouts=0), dict(playouts=-3), dict(playouts=2.5), dict(seconds=0), dict(seconds=-1.0)):
        with pytest.raises(ttr_lab.TtrError):
            search(v, **bad)
