"""The advisor's budgets (issue 23 part 4): as many playouts as fit in the
time asked, bounded by a maximum; a count stays deterministic; the answer
says how many playouts it used.  No timed asserts: where the clock matters
it is replaced by a fake one that ticks a fixed step a reading."""

from __future__ import annotations

import math

import pytest

import ttr_lab
from ttr_lab.analysis import advise
from ttr_lab.analysis.advisor import AdvisorBot, evaluate_moves
from ttr_lab.analysis.advisor import ranking as advisor_module
from ttr_lab.analysis.advisor.candidates import candidate_moves
from ttr_lab.analysis.advisor.values import MAX_TIMED_PLAYOUTS
from ttr_lab.bots import make_bot
from ttr_lab.engine.checks import MAX_PLAYOUTS
from ttr_lab.errors import TtrError

A_DAY = 86_400.0


def mid_game(seed: int = 5, ply: int = 40) -> ttr_lab.GameState:
    g = ttr_lab.new_game("usa", players=2, seed=seed)
    bots = [make_bot("playout", 10 + p) for p in range(2)]
    while g.ply < ply or g.phase.name != "TURN":
        p = g.current_player
        g.push(bots[p].choose(g.view(p)))
    return g


@pytest.fixture(scope="module")
def view():
    g = mid_game()
    return g.view(g.current_player)


class Counter:
    """Counts the playouts the advisor plays (wrapping play_out)."""

    def __init__(self, monkeypatch):
        self.n = 0
        real = advisor_module.play_out

        def counted(*a, **k):
            self.n += 1
            return real(*a, **k)

        monkeypatch.setattr(advisor_module, "play_out", counted)


class FakeClock:
    """``time`` for the advisor module: perf_counter advances ``step`` a reading."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def perf_counter(self) -> float:
        self.t += self.step
        return self.t


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_playouts": 0},
        {"max_playouts": -5},
        {"max_playouts": MAX_PLAYOUTS + 1},
        {"max_playouts": 2.5},
        {"max_playouts": "100"},
        {"max_playouts": True},
        {"seconds": 0},
        {"seconds": -1.0},
        {"seconds": math.nan},
        {"seconds": math.inf},
        {"seconds": A_DAY + 1},
        {"seconds": "1"},
        {"playouts": 0},
        {"playouts": MAX_PLAYOUTS + 1},
    ],
)
def test_a_bad_budget_is_refused_before_any_playout(view, monkeypatch, kwargs):
    def no_playout(*a, **k):
        raise AssertionError("a playout was played before the budget was checked")

    monkeypatch.setattr(advisor_module, "play_out", no_playout)
    name = next(iter(kwargs))
    with pytest.raises(TtrError, match=name):
        advise(view, **kwargs)
    with pytest.raises(TtrError, match=name):
        evaluate_moves(view, None, **kwargs)
    with pytest.raises(TtrError, match=name):
        AdvisorBot(1, **kwargs)


def test_a_time_budget_stops_at_its_maximum_and_says_how_many_it_played(view, monkeypatch):
    count = Counter(monkeypatch)
    a = advise(view, seconds=A_DAY, max_playouts=120, seed=3, explain=False, progress=False)
    assert a.playouts == count.n  # it says how many it played ...
    assert 0 < a.playouts <= 120  # ... and the maximum bounds them
    assert not a.timed_out
    assert "120 playouts" in str(a) or f"{a.playouts} playouts" in str(a)
    assert sum(m.playouts for m in a.moves) == a.playouts  # each move's share adds up


def test_a_time_budget_that_does_not_run_out_is_the_count(view):
    """The two paths play the same playouts in the same order: a time budget
    that reaches its maximum gives exactly the advice of that count."""
    timed = advise(view, seconds=A_DAY, max_playouts=90, seed=7, progress=False)
    counted = advise(view, playouts=90, seed=7, progress=False)
    assert timed == counted and timed.playouts == counted.playouts
    assert [m.playouts for m in timed.moves] == [m.playouts for m in counted.moves]


def test_the_count_path_is_reproducible(view):
    one = advise(view, playouts=60, seed=11, progress=False)
    two = advise(view, playouts=60, seed=11, progress=False)
    assert one == two and one.playouts == two.playouts
    assert [(m.move, m.playouts, m.win_probability) for m in one.moves] == [
        (m.move, m.playouts, m.win_probability) for m in two.moves
    ]
    assert not one.timed_out  # a count never runs out of time


def test_the_clock_stops_a_time_budget_and_the_answer_says_so(view, monkeypatch):
    """A fake clock ticks 0.01 s a reading: a 1-second budget stops far below
    the maximum; the count it reports is the count it played, and the
    playouts each move shows are those it got."""
    count = Counter(monkeypatch)
    monkeypatch.setattr(advisor_module, "time", FakeClock(0.01))
    a = advise(view, seconds=1.0, max_playouts=50_000, seed=2, explain=False, progress=False)
    assert a.timed_out
    assert a.playouts == count.n < 50_000
    assert sum(m.playouts for m in a.moves) == a.playouts
    assert "as many as the time allowed" in str(a)
    assert all(m.playouts >= 1 for m in a.moves)


def test_the_default_budget_is_time_with_the_default_maximum(view, monkeypatch):
    """``advise(view)`` asks for time, bounded by MAX_TIMED_PLAYOUTS: a clock
    that never advances cannot make it play more."""

    class Frozen:
        @staticmethod
        def perf_counter() -> float:
            return 0.0

    count = Counter(monkeypatch)
    monkeypatch.setattr(advisor_module, "time", Frozen)
    # a small maximum keeps the test short; the default's value is checked apart
    a = advise(view, max_playouts=200, explain=False, progress=False)
    assert a.playouts == count.n <= 200 and not a.timed_out
    import inspect

    assert inspect.signature(advise).parameters["max_playouts"].default == MAX_TIMED_PLAYOUTS
    assert inspect.signature(advise).parameters["seconds"].default > 0
    assert inspect.signature(advise).parameters["playouts"].default is None


def test_evaluate_moves_bounds_a_time_budget_too(view, monkeypatch):
    count = Counter(monkeypatch)
    moves = candidate_moves(view, limit=4)
    _, used = evaluate_moves(view, moves, seconds=A_DAY, max_playouts=40, seed=1, halving=False)
    assert used == count.n <= 40


def test_the_advisor_bot_passes_its_maximum(view, monkeypatch):
    count = Counter(monkeypatch)
    bot = AdvisorBot(4, seconds=A_DAY, max_playouts=64, candidates=4)
    assert repr(bot) == f"AdvisorBot(seconds={A_DAY}, max_playouts=64)"
    bot.choose(view)
    assert 0 < count.n <= 64
    # the same as the count where the clock does not stop it: the same move
    assert bot.choose(view) == AdvisorBot(4, playouts=64, candidates=4).choose(view)


def test_the_widgets_budgets_are_time_with_a_maximum():
    """The Hint and the hard level ask for time, bounded by their maximums."""
    from ttr_lab.widgets.advice import HINT_PLAYOUTS, HINT_SECONDS, SeatAdvisor
    from ttr_lab.widgets.playing.bots import HARD_BUDGET, HARD_SECONDS, make_opponent

    hard = make_opponent("hard", seed=1)
    assert hard.playouts is None and hard.max_playouts == HARD_BUDGET and hard.seconds == HARD_SECONDS
    g = mid_game(seed=6, ply=30)
    s = SeatAdvisor(g, playouts=48)
    assert s.panel.hint_playouts is None  # a Hint asks for time ...
    assert s.panel.hint_seconds == HINT_SECONDS and s.panel.hint_max == HINT_PLAYOUTS  # ... with a maximum
    # the hard level plays the budget whose stability was measured for the Hint (bots.py keeps its
    # own constants so that it does not import the analysis)
    assert (HARD_BUDGET, HARD_SECONDS) == (HINT_PLAYOUTS, HINT_SECONDS)
    assert SeatAdvisor(g, playouts=48, hint_playouts=30).panel.hint_playouts == 30  # a count stays possible


def test_the_hint_says_how_many_games_it_played(monkeypatch):
    """The Hint's basis line gives the playouts it used, and says when the
    clock stopped it (a fake clock)."""
    from ttr_lab.widgets.advice import SeatAdvisor

    g = mid_game(seed=6, ply=30)
    s = SeatAdvisor(g, playouts=48)
    s.panel.hint_max = 80  # a short test; the clock is real and the maximum is reached first
    s.panel.hint_seconds = A_DAY
    s.update(g.current_player, True)
    a = s.panel.hint()
    assert not a.timed_out and a.playouts <= 80
    assert f"From {a.playouts} games played out to the end," in s.panel.hints.value
    monkeypatch.setattr(advisor_module, "time", FakeClock(0.05))
    g.push(g.legal_moves[0])
    while g.current_player != s.seat and not g.is_over:
        g.push(g.legal_moves[0])
    s.panel.hint_max, s.panel.hint_seconds = 5000, 2.0
    s.update(g.current_player, True)
    a = s.panel.hint()
    assert a.timed_out and a.playouts < 5000
    assert f"From {a.playouts} games played out to the end (as many as the time allowed)," in s.panel.hints.value


def test_reviews_default_budget_is_the_kernels_count_else_time(monkeypatch):
    """``python -m ttr_lab review`` without a budget: REVIEW_PLAYOUTS a move
    where the compiled kernel plays the edition (deterministic), a time a ply
    elsewhere (Python playouts); a budget given is kept."""
    import argparse

    from ttr_lab.analysis import kernel_info
    from ttr_lab.cli.analysis import REVIEW_PLAYOUTS, REVIEW_SECONDS, _review_budget
    from ttr_lab.records import Record

    def args(**kw):
        return argparse.Namespace(**{"playouts": None, "seconds_per_ply": None, **kw})

    usa = Record.from_state(mid_game(seed=3, ply=8))
    europe = Record.from_state(ttr_lab.new_game("europe", players=2, seed=3))
    if kernel_info().enabled and "usa" in kernel_info().editions:
        assert _review_budget(args(), usa) == {"playouts": REVIEW_PLAYOUTS}
    if "europe" not in kernel_info().editions:
        assert _review_budget(args(), europe) == {"seconds_per_ply": REVIEW_SECONDS}
    assert _review_budget(args(playouts=7), usa) == {"playouts": 7}
    assert _review_budget(args(seconds_per_ply=0.1), usa) == {"seconds_per_ply": 0.1}
    monkeypatch.setenv("TTR_LAB_KERNEL", "0")  # Python playouts: the clock keeps a review short
    assert _review_budget(args(), usa) == {"seconds_per_ply": REVIEW_SECONDS}
