"""Invariants of every edition over random seeded games (hypothesis):
conservation of every card and piece type, exact undo, JSON round trips,
deterministic replay, score recounts and termination.

``GameState.problems()`` checks conservation through each edition's hooks
(cards by type and pile, pieces in supply + placed (+ box), stations,
harbors, tickets in deck + hands + box, running score = recount)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.records import Record, dumps

from .helpers import random_game, snapshot

EDITIONS = ["usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes"]
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("edition", EDITIONS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_conservation_at_every_ply_and_termination(edition, seed, players):
    g = ttr_lab.new_game(edition, players=players, seed=seed)
    rng = random.Random(seed)
    total_cards = g.edition.total_cards
    for _ in range(6000):
        if g.is_over:
            break
        assert g.problems() == [], f"ply {g.ply}"
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    assert g.is_over, "a random game always terminates"
    assert g.problems() == []
    assert total_cards == sum(n for pile in g.edition.deck_composition for _, n in pile)
    out = g.outcome()
    assert len(out.scores) == players and out.winners


@pytest.mark.parametrize("edition", EDITIONS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 400))
def test_every_legal_move_pushed_then_popped_restores_the_exact_state(edition, seed, players, plies):
    g = random_game(edition, seed, players, plies)
    before, text = snapshot(g), dumps(g.to_dict())
    moves = list(g.legal_moves)
    assert moves == sorted(moves) and len(moves) == len(set(moves)) == g.legal_moves.count()
    for m in moves:
        assert g.why_illegal(m) is None, m
        g.push(m)
        assert g.problems() == []
        g.pop()
        assert snapshot(g) == before
    assert dumps(g.to_dict()) == text


@pytest.mark.parametrize("edition", EDITIONS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 400))
def test_positions_round_trip_through_json(edition, seed, players, plies):
    g = random_game(edition, seed, players, plies)
    text = dumps(g.to_dict())
    again = ttr_lab.GameState.from_dict(json.loads(text))
    assert type(again) is type(g)
    assert dumps(again.to_dict()) == text
    assert snapshot(again) == snapshot(g)
    r1, r2 = random.Random(3), random.Random(3)
    for _ in range(40):
        if g.is_over:
            break
        m = g.legal_moves[r1.randrange(len(g.legal_moves))]
        assert again.legal_moves[r2.randrange(len(again.legal_moves))] == m
        g.push(m)
        again.push(m)
    assert dumps(again.to_dict()) == dumps(g.to_dict())


@pytest.mark.parametrize("edition", EDITIONS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_replay_is_deterministic_and_undo_reaches_the_start(edition, seed, players):
    g = random_game(edition, seed, players)
    rec = Record.from_state(g)
    assert Record.loads(rec.dumps()).dumps() == rec.dumps()
    assert dumps(rec.replay().to_dict()) == dumps(g.to_dict())
    while g.move_stack:
        g.pop()
    assert snapshot(g) == snapshot(ttr_lab.new_game(edition, players=players, seed=seed))


@pytest.mark.parametrize("edition", EDITIONS)
def test_views_hide_hidden_information(edition):
    g = random_game(edition, 5, 3, 60)
    for p in range(3):
        d = g.view(p).to_dict()
        text = json.dumps(d)
        assert "decks" not in d and "ticket_deck" not in d
        assert d["hand"] == g.hand(p)
        others = [q for q in range(3) if q != p]
        assert all(str(q) not in d.get("hands", {}) for q in others)
        assert "box" not in text


@pytest.mark.parametrize("edition", EDITIONS)
def test_bots_finish_every_edition(edition):
    from ttr_lab.bots import make_bot, play_game

    g = play_game(edition, [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)], seed=11)
    assert g.is_over and g.problems() == []
    assert str(g.outcome())
