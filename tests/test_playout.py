"""The playout policy (ttr_lab.bots.playout): legal, deterministic, view-only,
no hoarding, every edition.  Speed and strength are measured in
benchmarks/bench_analysis.py, not here."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.analysis.hidden import sample_states
from ttr_lab.bots import BOTS, make_bot, play_game
from ttr_lab.bots.playout import PlayoutBot, run_playout
from ttr_lab.engine.state import GameState

from .helpers import arrange, new_usa, random_game
from .test_bad_input import SPEC_IDS, SPECS, hidden_variants


def test_registered_as_a_bot():
    assert BOTS["playout"] is PlayoutBot
    assert isinstance(make_bot("playout", 3), PlayoutBot)
    assert repr(make_bot("playout")) == "PlayoutBot()"


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_move_is_legal_in_every_edition(name, opts, players):
    """play_game validates every move with GameState.play."""
    bots = [make_bot("playout" if p % 2 == 0 else "greedy", p) for p in range(players)]
    g = play_game(name, bots, seed=players, **opts)
    assert g.is_over and g.problems() == []


@pytest.mark.parametrize("name", ["usa", "europe", "rails_and_sails", "great_lakes"])
def test_run_playout_pushes_only_legal_moves_and_is_deterministic(name):
    a = run_playout(ttr_lab.new_game(name, players=4, seed=9), seed=2)
    b = run_playout(ttr_lab.new_game(name, players=4, seed=9), seed=2)
    assert a.is_over and a.move_stack == b.move_stack
    replay = ttr_lab.new_game(name, players=4, seed=9)
    for m in a.move_stack:
        replay.play(m)  # validated
    assert replay.to_dict() == a.to_dict()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 250))
def test_playouts_finish_from_any_position(spec, seed, players, plies):
    """From a random position (also loaded without history), the policy plays legally to the end."""
    name, opts = spec
    g = GameState.from_dict(random_game(name, seed, players, plies, **opts).to_dict())
    bots = [PlayoutBot(seed + p) for p in range(players)]
    views = [g.view(p) for p in range(players)]
    for _ in range(5000):
        if g.is_over:
            break
        p = g.current_player
        g.play(bots[p].choose(views[p]))
    assert g.is_over


def test_playouts_from_determinized_states():
    g = ttr_lab.new_game("europe", players=3, seed=4)
    for m in play_game("europe", [make_bot("greedy", i) for i in range(3)], seed=4).move_stack[:90]:
        g.play(m)
    for s in sample_states(g.view(0), 3, seed=1):
        done = run_playout(s, seed=5)
        assert done.is_over and done.problems() == []


@pytest.mark.parametrize("name", ["usa", "europe", "rails_and_sails"])
def test_the_policy_reads_only_its_view(name):
    """The same view gives the same move whatever the hidden information."""
    for plies in (8, 60, 140):
        g = GameState.from_dict(random_game(name, 3, 3, plies).to_dict())
        p = g.current_player
        want = PlayoutBot(1).choose(g.view(p))
        for other in list(hidden_variants(g, p))[:5]:
            assert PlayoutBot(1).choose(other.view(p)) == want


def test_no_hoarding():
    """Greedy often ends with a big hand; the policy spends its cards."""
    hands = []
    for seed in range(6):
        g = run_playout(ttr_lab.new_game("usa", players=2, seed=seed), seed=seed)
        hands += [g.hand_size(p) for p in range(2)]
    assert sum(hands) / len(hands) < 12


def test_claims_a_planned_route_the_hand_pays_for():
    g = new_usa(players=2, seed=1)  # seat 0: Duluth-El Paso and Montréal-New Orleans
    g = arrange(g, hands={0: {"yellow": 5, "loco": 1}}, current=0)
    move = PlayoutBot().choose(g.view(0))
    assert isinstance(move, ttr_lab.ClaimRoute) and g.map.route(move.route).label() == "El Paso-Oklahoma City"
    assert move.cards == (("yellow", 5),)  # no wild when colours suffice


def test_draws_the_face_up_card_the_plan_lacks():
    g = new_usa(players=2, seed=1)
    g = arrange(g, hands={0: {}}, row=["red", "yellow", "black", "pink", "orange"], current=0)
    move = PlayoutBot().choose(g.view(0))
    assert move == ttr_lab.DrawFaceUp(2)  # yellow: El Paso-Oklahoma City takes five


def test_rails_and_sails_split_follows_the_tickets():
    g = ttr_lab.new_game("rails_and_sails", players=2, seed=1)
    bots = [PlayoutBot(0), PlayoutBot(1)]
    while g.phase.name != "SETUP_PIECES":
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    move = bots[0].choose(g.view(0))
    assert isinstance(move, ttr_lab.ChoosePieces)
    lo, hi = g.edition.train_range
    assert lo <= move.trains <= hi
