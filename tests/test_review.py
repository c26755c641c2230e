"""Game review (ttr_lab.analysis.game_review): win chances after every ply and
flagged moves, judged from the mover's view against the playout policy."""

from __future__ import annotations

import math

import pytest

pd = pytest.importorskip("pandas")

import ttr_lab  # noqa: E402
from ttr_lab.analysis.game_review import (  # noqa: E402
    CONFIRM_MIN,
    FLAG_Z,
    THRESHOLDS,
    classify,
    review,
    review_figure,
)
from ttr_lab.bots import make_bot, play_game  # noqa: E402
from ttr_lab.engine.state import GameState  # noqa: E402
from ttr_lab.records import Record  # noqa: E402

from .helpers import arrange, new_usa  # noqa: E402
from .test_advisor import short_first  # noqa: E402


def last_turn(cars: int = 16) -> GameState:
    """Seat 0's last turn, holding the cards for a 6-car route (see test_advisor);
    with 16 cars of its own, a claim of 5 or 6 cars wins more often than a draw."""
    g = new_usa(players=2, seed=3)
    six = next(r for r in g.map.routes if r.length == 6 and r.color != "gray")
    sixes = {r.id for r in g.map.routes if r.length == 6 and r.color in (six.color, "gray")}
    theirs = short_first(g, 43, 1, sixes)
    colour = {r.id for r in g.map.routes if r.color == six.color}
    mine = short_first(g, cars, 0, sixes | colour | set(theirs), longest=True)
    g = arrange(g, hands={0: {six.color: 6}}, current=0, owners={**theirs, **mine})
    d = g.to_dict()
    d["final_turns_left"] = 1
    return GameState.from_dict(d)


@pytest.fixture
def uniform_guesses(monkeypatch):
    """last_turn's seat 1 owns arbitrary short routes: the claims-weighted
    guesses of its tickets read them, as they should, as finished tickets,
    and seat 0 cannot win whatever it does; these tests guess uniformly."""
    import functools
    import sys

    from ttr_lab.analysis.advisor import evaluate_moves

    monkeypatch.setattr(
        sys.modules["ttr_lab.analysis.game_review"], "evaluate_moves", functools.partial(evaluate_moves, weighted=False)
    )


def test_a_known_blunder_is_flagged_and_the_policy_move_is_not(uniform_guesses):
    g = last_turn()
    policy = make_bot("playout", 0).choose(g.view(0))
    assert isinstance(policy, ttr_lab.ClaimRoute)  # the policy claims on its last turn
    bad = g.copy()
    bad.play(ttr_lab.DrawBlind())  # instead: two blind cards, and the game ends
    bad.play(next(m for m in bad.legal_moves if isinstance(m, ttr_lab.DrawBlind)))
    assert bad.is_over
    df = review(bad, playouts=30, seed=1)
    first = df.iloc[0]
    assert first["move"] == "blind" and first["best"] == str(policy)
    assert first["drop"] > 1.96 * first["drop_se"] and first["flag"] in ("mistake", "blunder")
    good = g.copy()
    good.play(policy)
    df = review(good, playouts=10, seed=1)
    assert df.iloc[0]["drop"] == 0.0 and df.iloc[0]["flag"] == ""


def test_review_of_a_record_is_well_formed_and_deterministic():
    g = play_game("usa", [make_bot("greedy", 1), make_bot("playout", 2), make_bot("greedy", 3)], seed=4)
    rec = Record.from_state(g)
    df = review(rec, playouts=4, seed=2, plies=range(20, 26))
    assert list(df["ply"]) == list(range(20, 26))
    assert df.equals(review(rec, playouts=4, seed=2, plies=range(20, 26)).assign(seconds=df["seconds"]))
    wins = df[[f"win_{q}" for q in range(3)]].sum(axis=1)
    assert all(abs(w - 1) < 1e-9 for w in wins)
    for _, row in df.iterrows():
        assert row["move"] == str(g.move_stack[row["ply"] - 1])
        assert row["view"] == row["seat"]
        if row["best"] == "":
            assert row["drop"] == 0.0
    # one seat's view: its own moves judged, the others' only watched
    mine = review(rec, player=1, playouts=4, seed=2, plies=range(20, 26))
    assert set(mine["view"]) == {1}
    assert all(math.isnan(d) == (s != 1) for d, s in zip(mine["drop"], mine["seat"]))


def test_a_seat_record_is_reviewed_from_its_seat_as_the_full_record_is():
    """A seat record holds only what its seat saw; reviewed, it gives the same
    numbers as the full record reviewed from that seat, and shows the moves
    as the seat saw them (the others' kept tickets unknown)."""
    g = play_game("usa", [make_bot("greedy", 1), make_bot("greedy", 2)], seed=3)
    full, seat = Record.from_state(g), Record.loads(Record.from_state(g, seat=0).dumps())
    a = review(full, player=0, playouts=3, seed=1, plies=range(1, 30))
    b = review(seat, playouts=3, seed=1, plies=range(1, 30))
    numbers = [c for c in a.columns if c not in ("move", "seconds")]
    assert a[numbers].equals(b[numbers]) and set(b["view"]) == {0}
    assert list(b["move"]) == seat.moves[:29]
    hidden = [m for m, s in zip(b["move"], b["seat"]) if s == 1 and m.startswith("keep")]
    assert hidden and all("?" in m for m in hidden)
    with pytest.raises(ttr_lab.TtrError, match="seat record of seat 0"):
        review(seat, player=1, playouts=3)
    # the full record reviewed from seat 0 shows no more of the others' moves than seat 0 saw
    assert [m.split(" =")[0] for m in b["move"]] == list(a["move"])


def test_classify_and_thresholds():
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]
    assert classify(0.04, 0.0) == "" and classify(0.05, 0.0) == "inaccuracy"
    assert classify(0.10, 0.0) == "mistake" and classify(0.20, 0.0) == "blunder"
    assert classify(0.30, 0.2) == ""  # not significant
    assert classify(math.nan, math.nan) == ""


def test_a_flag_needs_the_drop_less_its_noise_to_reach_the_threshold():
    """The flag is the worst threshold the drop's lower bound, drop - FLAG_Z
    standard errors, reaches: a drop just over a threshold but within its noise
    gets the flag below (or none).  Before issue 23, 0.12 +- 0.03 was a mistake."""
    assert FLAG_Z == 1.96
    assert classify(0.12, 0.03) == "inaccuracy"  # 12 - 5.9 = 6.1 points surely lost
    assert classify(0.10, 0.01) == "inaccuracy" and classify(0.20, 0.05) == "mistake"
    assert classify(0.16, 0.02) == "mistake" and classify(0.25, 0.01) == "blunder"
    assert classify(0.115, 0.036) == ""  # 11.5 - 7.1 = 4.4 points: within the noise of a 5-point inaccuracy
    assert classify(0.06, 0.005) == "inaccuracy" and classify(0.06, 0.0) == "inaccuracy"


def test_bad_input():
    g = new_usa(players=2)
    g.play(g.legal_moves[0])
    for bad in (dict(player=2), dict(player=-1), dict(playouts=0), dict(seconds_per_ply=0)):
        with pytest.raises(ttr_lab.TtrError):
            review(g, **bad)
    with pytest.raises(ttr_lab.TtrError):
        review("not a game")


def test_the_figure_has_a_line_per_player_and_clickable_plies(uniform_guesses):
    pytest.importorskip("plotly")
    g = last_turn()
    g.play(ttr_lab.DrawBlind())
    g.play(next(m for m in g.legal_moves if isinstance(m, ttr_lab.DrawBlind)))
    df = review(g, playouts=20, seed=1)
    fig = review_figure(df, names=["Ada", "Bob"], current=1)
    names = [t.name for t in fig.data]
    assert names[:2] == ["Ada", "Bob"] and df.iloc[0]["flag"] in names
    assert list(fig.data[0].customdata) == list(df["ply"])


def injected_keep(seed: int) -> tuple[GameState, int]:
    """A 2-player USA game of the playout policy where the seat to move, leading
    with 8-14 pieces left, draws tickets and keeps all three (the policy keeps
    the fewest and cheapest); the game then goes on with the policy.  Returns
    the finished game and the ply of the bad keep."""
    from ttr_lab.bots.playout import PlayoutBot

    g = new_usa(players=2, seed=seed)
    bots = [PlayoutBot(p) for p in range(2)]
    at = 0
    while not g.is_over:
        v = g.view(g.current_player)
        if not at and g.phase.name == "TURN" and 8 <= v.pieces[v.player] <= 14 and v.scores[v.player] >= max(v.scores):
            g.push(ttr_lab.DrawTickets())
            at = g.ply + 1
            g.push(max(g.legal_moves, key=lambda m: (len(m.tickets), str(m))))
            continue
        g.push(bots[g.current_player].choose(v))
    return g, at


@pytest.mark.parametrize("seed", [1, 10])
def test_an_injected_bad_keep_is_flagged_on_two_seeds(seed):
    """Known bad moves injected into bot games: measured at 300 playouts a
    move (benchmarks/bench_review.py's truth, seed 99; the guessed states of
    50c8211), the keep costs the mover 33 +- 3 points of win chance (game 1)
    and 34 +- 3 points (game 10).  The review at 16 playouts a move, with its
    confirmation rerun, flags both as at least a mistake, on two seeds.
    (Games 3 and 8, used before: with the chain's guessed states of issue 23
    game 8's keep costs 17 +- 3 points, a mistake the 16-playout review does
    not surely see; game 3's, 30 +- 3, is flagged on both seeds, once only as
    an inaccuracy: the flag is the least the move surely cost.)"""
    g, at = injected_keep(seed)
    assert at
    for s in (1, 2):
        row = review(g, playouts=16, seed=s, plies=[at]).iloc[0]
        assert row["move"].startswith("keep") and len(row["move"].split()) == 4  # all three kept
        assert row["flag"] in ("mistake", "blunder"), (s, row["drop"], row["drop_se"])


def test_a_suspicious_drop_is_confirmed_with_more_playouts():
    g, at = injected_keep(8)
    once = review(g, playouts=4, seed=3, plies=[at], confirm=1).iloc[0]
    again = review(g, playouts=4, seed=3, plies=[at]).iloc[0]
    assert once["playouts"] == 8
    if 100 * once["drop"] >= 5:  # seen in 4 playouts a move: played again, flagged or not, with 40 a move
        assert again["playouts"] == 8 + max(8 * 4, CONFIRM_MIN * 2)
    else:
        assert again["playouts"] == 8
    # at 48 playouts a move only a drop that is not yet significant is played again, x4
    big = review(g, playouts=48, seed=3, plies=[at], confirm=1).iloc[0]
    big_again = review(g, playouts=48, seed=3, plies=[at]).iloc[0]
    rerun = 100 * big["drop"] >= 5 and not big["flag"]
    assert big_again["playouts"] == 96 + (96 * 4 if rerun else 0)
    assert 0 <= again["drop_se"] and not math.isnan(again["margin_drop"])
