"""Recording mode (ttr_lab.widgets.recorder): a game entered move by move from
one seat, the others' hidden draws and keeps left unknown, replays to the
seat's view; refused entries change nothing; the end goes to the scorer."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from ttr_lab.outcomes import split_outcome
from ttr_lab.records import Record
from ttr_lab.widgets.recorder import recorder

from .test_outcomes import bot_game


@pytest.mark.parametrize("name, seed", [("usa", 4), ("europe", 6)])
def test_a_game_entered_from_one_seat_replays_to_its_view(name, seed):
    g = bot_game(name, {}, 3, seed, plies=60, bot="greedy")
    seat = 1
    full = Record.from_state(g, outcomes=True, seed=False)
    if len(full.deal["rows"]) != 1:
        pytest.skip("the setup row was reset")
    w = recorder(
        name,
        list(g.player_names),
        seat=seat,
        first=full.deal["first"],
        hand=full.deal["hands"][seat],
        row=full.deal["rows"][0],
        tickets=full.deal["tickets"][seat],
    )
    for ply, text in enumerate(full.moves):
        move, _out = split_outcome(text)
        words = move.split()
        other = w.view.current_player != seat
        if other and words[0] in ("blind", "tickets"):
            text = move  # a person does not see another's draw
        elif other and words[0] == "keep":
            text = f"keep {len(words) - 1}"
        assert w.enter(text), (ply, text, w.message.value)
    assert w.record.moves == Record.from_state(g, seat=seat).moves
    assert w.view.to_dict() == g.view(seat).to_dict()


def test_a_refused_entry_changes_nothing():
    g = bot_game("usa", {}, 2, 3, plies=0)
    full = Record.from_state(g, outcomes=True, seed=False)
    w = recorder(
        "usa",
        list(g.player_names),
        seat=0,
        first=full.deal["first"],
        hand=full.deal["hands"][0],
        row=full.deal["rows"][0],
        tickets=full.deal["tickets"][0],
    )
    before = w.view.to_dict()
    assert not w.enter("claim 99999 red:1")
    assert w.record.moves == [] and w.view.to_dict() == before and "ply 1" in w.message.value
    assert not w.enter("blind =red")  # tickets are kept first
    assert w.record.moves == []


def test_the_end_goes_to_the_scorer():
    g = bot_game("usa", {}, 2, 5, bot="greedy")
    full = Record.from_state(g, outcomes=True, seed=False)
    w = recorder(
        "usa",
        list(g.player_names),
        seat=0,
        first=full.deal["first"],
        hand=full.deal["hands"][0],
        row=full.deal["rows"][0],
        tickets=full.deal["tickets"][0],
    )
    w.record.moves = list(Record.from_state(g, seat=0).moves)
    w.view = w.record.replay_view()
    assert w.view.is_over
    table = w.score_table()
    table.tickets[1] = list(g._tickets[1])  # the other player shows their tickets at the end
    table.refresh()
    assert table.outcome == g.outcome()


def test_advise_reads_the_seats_view_and_only_on_its_turn():
    from ttr_lab.analysis import advise

    g = bot_game("usa", {}, 2, 7, plies=0)
    full = Record.from_state(g, outcomes=True, seed=False)
    first = full.deal["first"]
    w = recorder(
        "usa",
        list(g.player_names),
        seat=first,
        first=first,
        hand=full.deal["hands"][first],
        row=full.deal["rows"][0],
        tickets=full.deal["tickets"][first],
    )
    advice = w.advise(playouts=8, seed=1)
    assert advice is not None and advice.moves
    assert advice.moves[0].move in w.view.legal_moves
    # exactly what the advisor says on the seat's own view of the real game
    assert str(advice) == str(advise(g.view(first), playouts=8, seed=1, progress=False))
    assert str(advice.moves[0].move) in w.advice.value
    w.enter(str(advice.moves[0].move))  # the seat keeps its tickets: the other seat is due
    assert w.view.current_player != first
    assert w.advise(playouts=8, seed=1) is None and "your turn" in w.message.value
