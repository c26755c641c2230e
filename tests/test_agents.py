"""The four FDG agents: registered by name, deterministic, and they finish every edition from their view alone."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab.agents import AGENTS, FdgAgent
from ttr_lab.bots import BOTS, make_bot, play_game
from ttr_lab.editions import edition_names, find_edition

FDG = ["route_focus", "one_step", "long_route", "destination_hungry"]
#: one name per distinct edition (aliases left out)
EDITIONS = sorted({repr(find_edition(n)): n for n in sorted(edition_names(), key=len, reverse=True)}.values())


def test_registered_by_name_after_import():
    for name in FDG:
        assert name in BOTS
        bot = make_bot(name, seed=3)
        assert isinstance(bot, FdgAgent) and bot.name == name
    assert sorted(AGENTS) == sorted(FDG)


def test_bots_module_imports_nothing_from_agents():
    import ttr_lab.bots as bots

    source = open(bots.__file__, encoding="utf-8").read()
    assert "agents" not in source


def test_unknown_agent_is_a_clear_error():
    with pytest.raises(ttr_lab.TtrError, match="unknown bot"):
        make_bot("route_fokus")


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_agent_finishes_every_edition(edition):
    """Every agent in every edition: 4 players, all four agents at the table."""
    game = play_game(edition, [make_bot(n, seed=i) for i, n in enumerate(FDG)], seed=11, max_plies=5000)
    assert game.is_over
    out = game.outcome()
    assert len(out.players) == 4 and out.winners


@pytest.mark.parametrize("players", [2, 3])
def test_agents_finish_smaller_tables(players):
    for edition in ("usa", "europe", "rails_and_sails"):
        lineup = [FDG[(players + i) % 4] for i in range(players)]
        game = play_game(edition, [make_bot(n, seed=i) for i, n in enumerate(lineup)], seed=12, max_plies=5000)
        assert game.is_over


@pytest.mark.parametrize("name", FDG)
def test_agents_are_deterministic(name):
    def moves(seed):
        g = play_game("europe", [make_bot(name, seed=1), make_bot("greedy", seed=2)], seed=seed)
        return [str(m) for m in g.move_stack]

    assert moves(5) == moves(5)


def test_styles_differ():
    """Same seed, same opponent: the four agents play four different games."""
    games = {
        name: tuple(str(m) for m in play_game("usa", [make_bot(name, 0), make_bot("greedy", 0)], seed=4).move_stack)
        for name in FDG
    }
    assert len(set(games.values())) == 4


def test_agents_see_only_their_view():
    """Each decision is taken from a PlayerView: the agent never gets the state."""
    from ttr_lab.view import PlayerView

    seen = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, view):
            seen.append(type(view))
            return self.inner.choose(view)

    play_game("rails_and_sails", [Spy(make_bot(n, i)) for i, n in enumerate(FDG[:3])], seed=2)
    assert seen and set(seen) == {PlayerView}


def test_long_route_never_draws_tickets_and_destination_hungry_does():
    def tickets_drawn(name):
        g = play_game("usa", [make_bot(name, 0), make_bot("greedy", 1)], seed=8)
        return sum(1 for i, m in enumerate(g.move_stack) if str(m) == "tickets" and _mover(g, i) == 0)

    def _mover(g, ply):
        copy = ttr_lab.new_game("usa", players=list(g.player_names), seed=g.seed)
        for m in g.move_stack[:ply]:
            copy.push(m)
        return copy.current_player

    assert tickets_drawn("long_route") == 0
    assert tickets_drawn("destination_hungry") >= 1
