"""Seat records (ttr_lab.records.seat_binding, ttr_lab.records.replay): a record kept from one seat
leaves what that seat could not see unknown, and still replays, to that
seat's view.

The property: a seat record of a random game (any edition, player count and
seat, finished or not) replays to a view equal to the true game's view from
that seat, and its history as that seat saw it is the same, so the
determinization of the analysis accepts it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.errors import RecordError
from ttr_lab.records import Record

from .test_bad_input import SPEC_IDS, SPECS
from .test_outcomes import bot_game, players_for

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seen(view) -> list:
    return [(p.seat, p.move, p.kept, p.offered, p.events) for p in view.history().plies]


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(data=st.data())
def test_a_seat_record_replays_to_the_seats_view(name, opts, data):
    n = data.draw(st.sampled_from(players_for(name, opts)), label="players")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    plies = data.draw(st.sampled_from([None, None, 3, 40, 150]), label="plies")
    g = bot_game(name, opts, n, seed, plies, bot=data.draw(st.sampled_from(["random", "greedy"])))
    seat = data.draw(st.integers(0, n - 1), label="seat")
    rec = Record.loads(Record.from_state(g, seat=seat).dumps())
    assert rec.seed is None and rec.seat == seat and rec.result is None
    view = rec.replay_view()
    assert view.player == seat
    assert view.to_dict() == g.view(seat).to_dict()


@pytest.mark.parametrize("name", ["usa", "europe", "rails_and_sails"])
def test_the_seats_history_and_the_determinization(name):
    from ttr_lab.analysis.hidden import sample_states

    g = bot_game(name, {}, 3, 4, bot="greedy")
    for seat in range(3):
        view = Record.from_state(g, seat=seat).replay_view()
        true = g.view(seat)
        assert seen(view) == seen(true)
        assert view.history().start.to_dict() == true.history().start.to_dict()
        for s in sample_states(view, 2, seed=1):
            assert s.problems() == [] and s.view(seat).to_dict() == view.to_dict()


def test_what_a_seat_record_leaves_unknown():
    g = ttr_lab.new_game("usa", players=2, seed=3)
    for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2", "blind", "tickets"]:
        g.play(m)
    rec = Record.from_state(g, seat=1)
    assert rec.moves == [
        "keep ? ?",
        "keep 5 16",
        "blind =?",
        "blind =?",
        "faceup 2 =blue",
        "blind =orange",
        "tickets =?,?,?",
    ]
    assert rec.deal["hands"][0] is None and rec.deal["tickets"][0] is None
    assert rec.deal["hands"][1] == {"orange": 1, "yellow": 1, "green": 1, "loco": 1}
    assert rec.replay_view().to_dict() == g.view(1).to_dict()
    with pytest.raises(RecordError, match="no other seat's view"):
        rec.replay_view(0)


def test_an_unrevealed_piece_split_is_a_question_mark():
    g = ttr_lab.new_game("world", players=3, seed=2)
    while g.phase == ttr_lab.Phase.SETUP_TICKETS:
        g.play(g.legal_moves[0])
    g.play("pieces 20")
    rec = Record.from_state(g, seat=1)
    assert rec.moves[-1] == "pieces ?"
    assert rec.replay_view().to_dict() == g.view(1).to_dict()
    g.play("pieces 15")
    g.play("pieces 25")  # revealed together: the record writes them
    rec = Record.from_state(g, seat=1)
    assert rec.moves[-3:] == ["pieces 20", "pieces 15", "pieces 25"]
    rec.moves[-3] = "pieces ?"
    with pytest.raises(RecordError, match="revealed at ply") as e:
        rec.replay_view()
    assert e.value.ply == len(rec.moves) - 2


def test_undo_and_redo_on_a_seat_replay_reproduce_it():
    g = bot_game("europe", {}, 4, 7, bot="greedy")
    r = Record.from_state(g, seat=2).replay()
    end = r.to_dict()
    undone = [r.pop() for _ in range(80)]
    for m in reversed(undone):
        r.play(m)
    assert r.to_dict() == end


def seat_record() -> Record:
    g = ttr_lab.new_game("usa", players=2, seed=3)
    for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2"]:
        g.play(m)
    return Record.from_state(g, seat=1)


@pytest.mark.parametrize(
    "ply, text, match",
    [
        (4, "blind =?", None),  # another seat's blind draw: fine
        (2, "keep ? ?", "another seat's hidden decision"),  # the recording seat's own keep
        (1, "keep ? ? ? ?", "keeps 4 of the 3 tickets"),
        (5, "faceup 2 =?", "could not see"),
        (3, "blind =loco,loco", "more card"),
    ],
)
def test_bad_seat_records_name_their_ply(ply, text, match):
    rec = seat_record()
    rec.moves[ply - 1] = text
    if match is None:
        rec.replay_view()
        return
    with pytest.raises(RecordError, match=match) as e:
        rec.replay_view()
    assert e.value.ply == ply


def test_a_payment_no_hidden_card_explains_is_refused():
    g = ttr_lab.new_game("usa", players=2, seed=3)
    for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2"]:
        g.play(m)
    rec = Record.from_state(g, seat=1)
    # seat 0 holds 4 + 2 unseen cards: it cannot pay 6 locomotives when 13 are in sight or elsewhere
    deal = dict(rec.deal)
    deal["hands"] = [None, {"loco": 4}]
    deal["rows"] = [["loco", "loco", "loco", "red", "red"]]
    rec = Record("usa", {}, ["A", "B"], None, ["keep 20 24", "keep 5 16", "claim 100 loco:6"], deal=deal, seat=1)
    with pytest.raises(RecordError):
        rec.replay_view()


def test_a_seat_record_has_no_seed():
    rec = seat_record()
    rec.seed = 5
    with pytest.raises(RecordError, match="a seat record has no seed"):
        rec.replay()
