"""The four FDG agents: registered by name, deterministic, and they finish every edition from their view alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab.bots import BOTS, make_bot, play_game
from ttr_lab.bots.fdg import AGENTS, FdgAgent
from ttr_lab.editions import edition_names, find_edition

ROOT = Path(__file__).resolve().parents[1]
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
    """bots.py names the agents only as lazy registry entries ("ttr_lab.bots.fdg:RouteFocus"), never imports them."""
    import ast

    import ttr_lab.bots.simple as bots

    tree = ast.parse(open(bots.__file__, encoding="utf-8").read())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert imported and not any("agents" in name for name in imported)
    assert BOTS.canonical("route_focus") == "route_focus"


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


#: each agent's seeded game against greedy (Europe, seed 5): the sha256 of its moves' notation
SEEDED_GAMES = """
import hashlib
from ttr_lab.bots import make_bot, play_game

def digests(names):
    out = {}
    for name in names:
        g = play_game("europe", [make_bot(name, seed=1), make_bot("greedy", seed=2)], seed=5)
        out[name] = hashlib.sha256(" ".join(map(str, g.move_stack)).encode()).hexdigest()
    return out
"""
PRINT = "import sys\nfor name, digest in digests(sys.argv[1:]).items(): print(name, digest)"


def seeded_games(*, hash_seed: str | None = None) -> dict[str, str]:
    """The digests of :data:`SEEDED_GAMES`, in this process or (with
    ``hash_seed``) in a fresh one with that ``PYTHONHASHSEED``."""
    if hash_seed is None:
        namespace: dict = {}
        exec(SEEDED_GAMES, namespace)
        return namespace["digests"](FDG)
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    argv = [sys.executable, "-c", SEEDED_GAMES + PRINT, *FDG]
    run = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return dict(line.split() for line in run.stdout.splitlines())


def test_agents_are_deterministic_across_processes():
    """Each agent's seeded game is the same here (after other tests used the
    process) and in two fresh processes whose string hashes differ
    (``PYTHONHASHSEED``): no choice depends on set or dict order of strings,
    on ``id()``, or on the global random state."""
    here = seeded_games()
    assert sorted(here) == sorted(FDG) and len(set(here.values())) == len(FDG)
    assert seeded_games(hash_seed="1") == here
    assert seeded_games(hash_seed="2") == here


def test_styles_differ():
    """Same seed, same opponent: the four agents play four different games."""
    games = {
        name: tuple(str(m) for m in play_game("usa", [make_bot(name, 0), make_bot("greedy", 0)], seed=4).move_stack)
        for name in FDG
    }
    assert len(set(games.values())) == 4


def test_agents_see_only_their_view():
    """Each decision is taken from a PlayerView: the agent never gets the state."""
    from ttr_lab.engine.state import GameState
    from ttr_lab.engine.view import PlayerView, view_class

    seen = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, view):
            seen.append(type(view))
            return self.inner.choose(view)

    play_game("rails_and_sails", [Spy(make_bot(n, i)) for i, n in enumerate(FDG[:3])], seed=2)
    # the edition's view class: PlayerView with Rails & Sails' public accessors, never a state
    assert seen and set(seen) == {view_class(ttr_lab.find_edition("rails_and_sails"))}
    assert issubclass(seen[0], PlayerView) and not issubclass(seen[0], GameState)


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
