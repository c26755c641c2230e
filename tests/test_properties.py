"""Invariants of every edition over random seeded games (hypothesis):
conservation of every card, exact undo, JSON round trips, deterministic
replay (also from a record holding only the seed and the moves), hidden
information, score recounts and termination.

``GameState.problems()`` checks conservation through each edition's hooks;
the card count here is done again from scratch, by the test, so a hook that
forgets a place cards can be is caught.  The editions come from the registry
(every registered edition, plus each variant of an edition with a
``variant`` option: the USA 1910 variants)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.records import Record, dumps

from .helpers import random_game, snapshot
from .test_bad_input import assert_views_hide_secrets, edition_specs

SPECS = edition_specs()
SPEC_IDS = [name + "".join(f"-{v}" for v in opts.values()) for name, opts in SPECS]
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: every field an edition adds to a saved position, and the cards it holds
#: outside decks, discards, row and hands (None: it holds no cards).  A new
#: field must be added here, saying whether it holds cards.
CARDS_IN_EXTRA = {
    "tunnel": lambda v: list(v["revealed"]) if v else [],  # Europe: the reveal while the player decides
    "stations": None,
    "box": None,  # Europe: long tickets; Rails & Sails: pieces
    "ships": None,
    "exchanged": None,
    "harbors": None,
    "piece_choices": None,
}


def card_census(g: ttr_lab.GameState) -> Counter[str]:
    """Every card of the game by name, wherever it is, checking each pile holds only its own cards."""
    ed = g.edition
    names = [ct.name for ct in ed.card_types]
    out: Counter[str] = Counter()
    for pile, (deck, discard) in enumerate(zip(g._decks, g._discards)):
        for c in deck + discard:
            assert ed.card_types[c].pile == pile, f"{names[c]} in pile {pile}"
            out[names[c]] += 1
    out.update(names[c] for c in g._row if c >= 0)
    for hand in g._hands:
        for c, k in enumerate(hand):
            assert k >= 0
            out[names[c]] += k
    for f in ed.fields_added:
        if f.key:
            assert f.key in CARDS_IN_EXTRA, f"{ed.name} has a position field {f.key!r}: does it hold cards?"
            take = CARDS_IN_EXTRA[f.key]
            if take is not None:
                out.update(take(f.dump(ed, getattr(g, f.attr))))
    return out


def composition(ed) -> Counter[str]:
    out: Counter[str] = Counter()
    for pile in ed.deck_composition:
        for c, k in pile:
            out[ed.card_types[c].name] += k
    return out


def test_the_edition_list_comes_from_the_registry():
    from ttr_lab.editions import EDITIONS

    assert {name for name, _ in SPECS} == set(EDITIONS)
    assert len(SPECS) >= len(EDITIONS) + 3  # the three USA 1910 variants


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_conservation_at_every_ply_and_termination(name, opts, seed, players):
    g = ttr_lab.new_game(name, players=players, seed=seed, **opts)
    ed = g.edition
    want = composition(ed)
    assert sum(want.values()) == ed.total_cards
    fields = ed.field_attrs
    rng = random.Random(seed)
    for _ in range(6000):
        assert tuple(g.__dict__) == fields, f"ply {g.ply}: a state holds its edition's fields only, in order"
        assert card_census(g) == want, f"ply {g.ply}"
        if g.is_over:
            break
        assert g.problems() == [], f"ply {g.ply}"
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    assert g.is_over, "a random game always terminates"
    assert g.problems() == []
    while g.ply > 0 and g.ply % 7:  # undo keeps the fields too
        g.pop()
        assert tuple(g.__dict__) == fields and card_census(g) == want
    out = g.outcome()
    assert len(out.scores) == players and out.winners


def test_the_census_counts_a_pending_tunnel_reveal():
    """The census is not vacuous: in a TUNNEL decision the three revealed
    cards are in no pile and no hand, and only the reveal accounts for them."""
    from .test_bad_input import europe_tunnel

    g = europe_tunnel()
    ed = g.edition
    assert card_census(g) == composition(ed)
    piles = Counter()
    for seq in g._decks + g._discards + (g._row,):
        piles.update(c for c in seq if c >= 0)
    in_hands = sum(sum(h) for h in g._hands)
    assert sum(piles.values()) + in_hands == ed.total_cards - 3


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 400))
def test_every_legal_move_pushed_then_popped_restores_the_exact_state(name, opts, seed, players, plies):
    g = random_game(name, seed, players, plies, **opts)
    before, text = snapshot(g), dumps(g.to_dict())
    moves = list(g.legal_moves)
    assert moves == sorted(moves) and len(moves) == len(set(moves)) == g.legal_moves.count()
    for m in moves:
        assert g.why_illegal(m) is None, m
        g.push(m)
        assert g.problems() == []
        assert tuple(g.__dict__) == g.edition.field_attrs
        g.pop()
        assert snapshot(g) == before
    assert dumps(g.to_dict()) == text


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(1, 300))
def test_the_flat_undo_history_holds_every_position_and_pops_back_to_each(name, opts, seed, players, plies):
    """The history keeps each ply's field values one after another in one
    list: ``_snapshot(i)`` is the position before move ``i``, and popping
    walks back through exactly those positions (also after a copy)."""
    g = ttr_lab.new_game(name, players=players, seed=seed, **opts)
    rng = random.Random(seed)
    seen = []
    while not g.is_over and g.ply < plies:
        seen.append(tuple(g.__dict__.values()))
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    k = len(g.edition.field_attrs)
    assert len(g._stack) == g.ply * k == len(seen) * k
    assert [g._snapshot(i) for i in range(g.ply)] == seen
    assert g._snapshot(-1) == seen[-1]
    with pytest.raises(ttr_lab.TtrError):
        g._snapshot(g.ply)
    other = g.copy(stack=True)
    for position in reversed(seen):
        g.pop()
        assert tuple(g.__dict__.values()) == position
    assert g._stack == [] and other.ply == len(seen)
    other.pop()
    assert tuple(other.__dict__.values()) == seen[-1]


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 400))
def test_positions_round_trip_through_json(name, opts, seed, players, plies):
    g = random_game(name, seed, players, plies, **opts)
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


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_replay_is_deterministic_and_undo_reaches_the_start(name, opts, seed, players):
    g = random_game(name, seed, players, **opts)
    rec = Record.from_state(g)
    assert Record.loads(rec.dumps()).dumps() == rec.dumps()
    assert dumps(rec.replay().to_dict()) == dumps(g.to_dict())
    while g.move_stack:
        g.pop()
    assert snapshot(g) == snapshot(ttr_lab.new_game(name, players=players, seed=seed, **opts))


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**64), players=st.integers(2, 5), plies=st.integers(0, 300))
def test_a_record_of_only_the_seed_and_the_moves_replays_identically(name, opts, seed, players, plies):
    """Nothing but the seed and the moves decides a game: a record stripped of
    its headers, its result and every option left at its default (only the
    edition and the players, which name the game, stay) replays to the very
    same position."""
    g = random_game(name, seed, players, plies, **opts)
    full = json.loads(Record.from_state(g, headers={"Event": "x", "Round": "2"}).dumps())
    ed = g.edition
    stripped = {
        "format": full["format"],
        "version": full["version"],
        "edition": full["edition"],
        "options": {k: v for k, v in full["options"].items() if v != type(ed).option_defaults.get(k)},
        "players": full["players"],
        "seed": full["seed"],
        "headers": {},
        "moves": full["moves"],
    }
    assert set(stripped["options"]) <= set(opts)
    again = Record.loads(json.dumps(stripped)).replay()
    assert dumps(again.to_dict()) == dumps(g.to_dict())
    assert snapshot(again) == snapshot(g)
    assert again.move_stack == g.move_stack


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), plies=st.integers(0, 300))
def test_views_hide_hidden_information(name, opts, seed, players, plies):
    """No view holds another seat's hand (card names with counts), tickets or
    pending tickets, and none changes when those change (nothing derivable)."""
    g = random_game(name, seed, players, plies, **opts)
    tried = assert_views_hide_secrets(g)
    d = g.to_dict()
    # with two seats and the card and ticket decks empty, the other seat's hand
    # and tickets are all that is left: derivable, so nothing can vary
    assert tried > 0 or (players == 2 and not any(d["decks"].values()) and not d["ticket_deck"])
    for p in range(players):
        assert "box" not in g.view(p).to_dict()  # Europe's unkept long tickets are nobody's to see


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
def test_bots_finish_every_edition(name, opts):
    from ttr_lab.bots import make_bot, play_game

    g = play_game(name, [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)], seed=11, **opts)
    assert g.is_over and g.problems() == []
    assert str(g.outcome())
