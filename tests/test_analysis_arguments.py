"""Budgets and argument types of the public analysis and simulation functions
(issue 20, items 6 and 7).

Every count and budget is checked against its documented range before any
work starts, and every argument of the wrong type is refused, each with a
:class:`~ttr_lab.errors.TtrError` naming the argument (and, for a number,
its range).  Before the checks, ``advise(seconds=inf)`` or
``playouts=10**30`` never returned, ``run_games(..., 10**20)`` grew past
900 MB, and ``advise(seed=None)``, ``run_games(players=None)`` raised a raw
``TypeError`` while ``advise(seed=1.5)`` or ``candidates=0`` were silently
accepted.

A refused call must come back at once: each test runs under a watchdog
(:func:`watchdog`) that turns a call still running after a few seconds into
a failure, so a budget that is not checked fails the test instead of hanging
the suite.
"""

from __future__ import annotations

import itertools
import math
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab.analysis import (
    Knowledge,
    advise,
    candidate_moves,
    ismcts,
    iter_states,
    quick_odds,
    review,
    sample_states,
    simulate_quick_model,
    ticket_odds,
)
from ttr_lab.analysis.advisor import AdvisorBot, evaluate_moves
from ttr_lab.analysis.ismcts_search import ISMCTSBot
from ttr_lab.analysis.odds import QuickModel
from ttr_lab.bots import make_bot, play_game
from ttr_lab.engine.checks import MAX_CANDIDATES, MAX_PLAYOUTS, MAX_SAMPLES, MAX_SECONDS, MAX_SEED
from ttr_lab.errors import TtrError

#: a refusal takes microseconds; anything still running after this is working
WATCHDOG = 5


class Hung(Exception):
    """The call was still running when the watchdog fired: it did not check its arguments first."""


@contextmanager
def watchdog(seconds: float = WATCHDOG):
    def fire(_sig, _frame):
        raise Hung(f"still running after {seconds} s: the argument was not refused before the work")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def endless(item: object = None, *, most: int = 2_000_000):
    """An iterator without end, for arguments read one entry at a time; it
    fails the test after ``most`` entries (a reader that does not stop would
    otherwise fill the memory faster than the watchdog fires)."""
    for i in itertools.count():
        if i >= most:
            raise Hung(f"read {most:,} entries: the argument's length was not bounded")
        yield item


def refused(call, *words: str) -> str:
    """The TtrError message of ``call()``, which must come at once and name ``words``."""
    try:
        with watchdog():
            call()
    except TtrError as e:
        message = str(e)
    except Hung as e:  # reported without a traceback: the interrupted frames can be odd
        pytest.fail(str(e), pytrace=False)
    else:
        pytest.fail("accepted: no TtrError", pytrace=False)
    for w in words:
        assert w in message, f"{w!r} not in {message!r}"
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def view():
    g = ttr_lab.new_game("usa", players=2, seed=1)
    while g.phase.name == "SETUP_TICKETS":
        g.play(g.legal_moves[0])
    return g.view(0)


@pytest.fixture(scope="module")
def finished():
    return play_game("usa", [make_bot("greedy", 1), make_bot("random", 2)], seed=3)


HUGE = 10**30
INF = math.inf

# ------------------------------------------------------------------ 20.6: budgets


@pytest.mark.parametrize(
    ("name", "call", "words"),
    [
        ("advise seconds=inf", lambda v: advise(v, seconds=INF, progress=False), ("seconds", "86,400")),
        ("advise seconds=1e300", lambda v: advise(v, seconds=1e300, progress=False), ("seconds", "86,400")),
        ("advise seconds=10**400", lambda v: advise(v, seconds=10**400, progress=False), ("seconds",)),
        ("advise seconds=nan", lambda v: advise(v, seconds=math.nan, progress=False), ("seconds",)),
        ("advise playouts=10**30", lambda v: advise(v, playouts=HUGE, progress=False), ("playouts", "10,000,000")),
        ("advise playouts=0", lambda v: advise(v, playouts=0, progress=False), ("playouts", "from 1")),
        ("advise include=endless", lambda v: advise(v, playouts=2, include=endless()), ("include",)),
        ("evaluate_moves seconds=inf", lambda v: evaluate_moves(v, None, seconds=INF), ("seconds",)),
        ("evaluate_moves playouts=10**30", lambda v: evaluate_moves(v, None, playouts=HUGE), ("playouts",)),
        ("ismcts seconds=inf", lambda v: ismcts(v, seconds=INF), ("seconds", "86,400")),
        ("ismcts playouts=10**30", lambda v: ismcts(v, playouts=HUGE), ("playouts", "10,000,000")),
        ("ismcts c=inf", lambda v: ismcts(v, playouts=2, c=INF), ("c must",)),
        ("ticket_odds playouts=10**30", lambda v: ticket_odds(v, playouts=HUGE), ("playouts", "10,000,000")),
        ("sample_states n=10**30", lambda v: sample_states(v, HUGE), ("n must", "10,000")),
        ("sample_states sweeps=10**30", lambda v: sample_states(v, 1, weighted=True, sweeps=HUGE), ("sweeps",)),
        ("sample_states lam=inf", lambda v: sample_states(v, 1, weighted=True, lam=INF), ("lam",)),
        ("iter_states sweeps=10**30", lambda v: iter_states(v, weighted=True, sweeps=HUGE), ("sweeps",)),
        ("candidate_moves limit=10**30", lambda v: candidate_moves(v, limit=HUGE), ("limit", "1,000")),
        ("AdvisorBot seconds=inf", lambda v: AdvisorBot(1, seconds=INF), ("seconds",)),
        ("AdvisorBot playouts=10**30", lambda v: AdvisorBot(1, playouts=HUGE), ("playouts",)),
        ("ISMCTSBot seconds=inf", lambda v: ISMCTSBot(1, seconds=INF), ("seconds",)),
        ("ISMCTSBot playouts=10**30", lambda v: ISMCTSBot(1, playouts=HUGE), ("playouts",)),
        (
            "simulate_quick_model samples=10**30",
            lambda v: simulate_quick_model(QuickModel((("red", 2),), 1, 3, 4, (("red", 3), ("wild", 2))), HUGE),
            ("samples",),
        ),
        (
            "simulate_quick_model pool of 10**9",
            lambda v: simulate_quick_model(QuickModel((("red", 2),), 1, 3, 4, (("red", 10**9),)), 10),
            ("pool",),
        ),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_a_budget_out_of_range_is_refused_at_once(view, name, call, words):
    refused(lambda: call(view), *words)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"playouts": HUGE}, ("playouts", "100,000")),
        ({"seconds_per_ply": INF}, ("seconds_per_ply", "3,600")),
        ({"seconds_per_ply": 10**9}, ("seconds_per_ply", "3,600")),
        ({"playouts": 2, "confirm": HUGE}, ("confirm", "10")),
        ({"playouts": 2, "confirm": 0}, ("confirm",)),
        ({"playouts": 2, "plies": endless(3)}, ("plies", "100,000")),
        ({"playouts": 2, "plies": ["3"]}, ("plies",)),
        ({"playouts": 2, "plies": [2.5]}, ("plies",)),
        ({"playouts": 2, "plies": 7}, ("plies",)),
        ({"playouts": 2, "seed": -1}, ("seed",)),
        ({"playouts": 2, "seed": "1"}, ("seed",)),
    ],
)
def test_review_budgets_and_plies_are_checked_first(finished, kwargs, words):
    refused(lambda: review(finished, progress=False, **kwargs), *words)


def test_review_takes_numpy_plies(finished):
    np = pytest.importorskip("numpy")
    a = review(finished, playouts=2, plies=np.array([3, 4]), progress=False)
    b = review(finished, playouts=2, plies=[3, 4], progress=False)
    assert list(a["ply"]) == [3, 4] and a.drop(columns="seconds").equals(b.drop(columns="seconds"))


def test_the_largest_values_in_range_are_taken(view):
    """The bounds are inclusive: the largest seed and candidates, and the
    smallest budgets, work (and give an answer)."""
    a = advise(view, playouts=2, seed=MAX_SEED, candidates=MAX_CANDIDATES, progress=False, explain=False)
    assert a.moves and a.moves[0].move in view.legal_moves
    assert ismcts(view, playouts=2, seed=MAX_SEED, candidates=MAX_CANDIDATES, explain=False).playouts == 2
    assert [o.playouts for o in ticket_odds(view, playouts=1, seed=MAX_SEED)] == [1] * len(view.tickets)
    assert sample_states(view, 0) == []
    assert len(sample_states(view, 1, seed=MAX_SEED)) == 1
    assert advise(view, seconds=0.05, progress=False, explain=False).playouts >= 1
    assert MAX_PLAYOUTS >= 10**6 and MAX_SECONDS >= 3600 and MAX_SAMPLES >= 1000


# ------------------------------------------------------------------ 20.7: types


SEEDS = [None, "10", math.nan, math.inf, 1.5, True, -1, 2**128, [3]]
COUNTS = [None, "10", 0, -1, math.nan, math.inf, 1.5, True]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_advise_seed_must_be_a_seed(view, seed):
    """TypeError before for None and '10'; nan, inf, 1.5 and True silently accepted."""
    refused(lambda: advise(view, playouts=2, seed=seed, progress=False), "seed", "2**128 - 1")


@pytest.mark.parametrize("candidates", COUNTS, ids=repr)
def test_advise_candidates_must_be_a_count(view, candidates):
    """TypeError before for None and '10'; 0, -1, nan, inf and 1.5 silently accepted."""
    refused(lambda: advise(view, playouts=2, candidates=candidates, progress=False), "candidates", "1,000")


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
@pytest.mark.parametrize(
    "call",
    [
        lambda v, s: ticket_odds(v, playouts=2, seed=s),
        lambda v, s: ismcts(v, playouts=2, seed=s),
        lambda v, s: sample_states(v, 1, seed=s),
        lambda v, s: iter_states(v, seed=s),
        lambda v, s: evaluate_moves(v, None, playouts=2, seed=s),
    ],
    ids=["ticket_odds", "ismcts", "sample_states", "iter_states", "evaluate_moves"],
)
def test_every_search_checks_its_seed(view, call, seed):
    refused(lambda: call(view, seed), "seed")


@pytest.mark.parametrize(
    ("argument", "value"),
    [("playouts", x) for x in ("10", 1.5, True, [2], math.nan)] + [("seconds", x) for x in ("10", True, [2], "inf")],
    ids=repr,
)
def test_budgets_of_the_wrong_type(view, argument, value):
    refused(lambda: advise(view, progress=False, **{argument: value}), argument)
    refused(lambda: ismcts(view, **{argument: value}), argument)
    refused(lambda: AdvisorBot(1, **{argument: value}), argument)


def test_no_seconds_at_all_is_refused(view):
    """``playouts=None`` means "use the time budget"; then ``seconds=None`` is no budget."""
    refused(lambda: advise(view, seconds=None, progress=False), "seconds")
    refused(lambda: ismcts(view, seconds=None), "seconds")


@pytest.mark.parametrize(
    "call",
    [
        lambda g: advise(g, playouts=2),
        lambda g: ismcts(g, playouts=2),
        lambda g: ticket_odds(g, playouts=2),
        lambda g: sample_states(g, 1),
        lambda g: quick_odds(g),
        lambda g: candidate_moves(g),
        lambda g: advise(None, playouts=2),
        lambda g: Knowledge(g),
    ],
    ids=["advise", "ismcts", "ticket_odds", "sample_states", "quick_odds", "candidate_moves", "None", "Knowledge"],
)
def test_a_whole_game_is_not_a_view(view, call):
    """A GameState holds every secret: the analyses take one seat's view and say so."""
    g = ttr_lab.new_game("usa", players=2, seed=1)
    refused(lambda: call(g), "view", "game.view(seat)")


@pytest.mark.parametrize("seed", [None, "3", -1, 1.5, True], ids=repr)
def test_bots_check_their_seeds(seed):
    refused(lambda: make_bot("greedy", seed), "seed")
    refused(lambda: AdvisorBot(seed, playouts=2), "seed")
    refused(lambda: ISMCTSBot(seed, playouts=2), "seed")


def test_bot_seeds_derived_from_a_large_game_seed_are_taken(view):
    """A bot's seed may be wider than a game's (bots derive theirs from a
    game's seed); the search seeds they derive stay in range."""
    big = MAX_SEED * 101 + 3
    assert make_bot("greedy", big).choose(view) in view.legal_moves
    assert AdvisorBot(big, playouts=2).choose(view) in view.legal_moves
    assert ISMCTSBot(big, playouts=2).choose(view) in view.legal_moves


# ------------------------------------------------------------------ the command line


def test_the_command_line_refuses_an_endless_budget_in_one_line(finished, tmp_path):
    """``python -m ttr_lab advise FILE --seconds inf`` never returned; now one
    error line and a non-zero exit, before any playout."""
    from ttr_lab.records import Record

    path = tmp_path / "game.json"
    Record.from_state(finished).save(path)
    root = Path(__file__).resolve().parents[1]
    for args in (
        ["advise", str(path), "--ply", "20", "--seconds", "inf"],
        ["advise", str(path), "--ply", "20", "--playouts", str(HUGE)],
        ["odds", str(path), "--ply", "20", "--playouts", str(HUGE)],
        ["review", str(path), "--seconds-per-ply", "inf", "--plies", "3"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "ttr_lab", *args], cwd=root, capture_output=True, text=True, timeout=120
        )
        lines = [x for x in proc.stderr.splitlines() if x.strip()]
        assert proc.returncode != 0 and len(lines) == 1, (args, proc.stderr)
        assert ("seconds" in lines[0] or "playouts" in lines[0]) and "Traceback" not in proc.stderr


# ------------------------------------------------------------------ bot specs: budgets in a name


def test_a_bot_spec_sets_a_budget_the_bot_checks():
    """``make_bot("advisor:playouts=50")`` builds the advisor with that budget;
    a budget out of range, a Unicode digit or an option the bot lacks is one
    TtrError naming it."""
    assert repr(make_bot("advisor:playouts=50", 3)) == "AdvisorBot(playouts=50)"
    assert repr(make_bot("Advisor: seconds=0.5")) == "AdvisorBot(seconds=0.5)"
    assert make_bot("advisor:playouts=9,candidates=3").candidates == 3
    refused(lambda: make_bot("advisor:playouts=99999999"), "playouts", "10,000,000")
    refused(lambda: make_bot(f"advisor:playouts={10**30}"), "playouts", "at most 9")
    refused(lambda: make_bot("advisor:seconds=999999"), "seconds", "86,400")
    refused(lambda: make_bot("advisor:candidates=0"), "candidates", "1,000")
    refused(lambda: make_bot("advisor:playouts=²"), "playouts", "digits 0-9")
    refused(lambda: make_bot("advisor:playouts=1e9"), "playouts")
    refused(lambda: make_bot("advisor:seconds=inf"), "seconds")
    refused(lambda: make_bot("advisor:caution=1"), "advisor takes playouts=")
    refused(lambda: make_bot("advisor:playouts=3,playouts=4"), "advisor takes")
    refused(lambda: make_bot("greedy:playouts=3"), "greedy takes no options")
    refused(lambda: make_bot("advisor:" + "9" * 10**6), "at most 200 characters")
    refused(lambda: make_bot(None), "bot")


def test_a_run_takes_bot_specs_and_checks_them_before_the_first_game():
    pytest.importorskip("pandas")
    from ttr_lab.simulate import run_games

    df = run_games("usa", ["advisor:playouts=2,candidates=2", "greedy"], 1, seed=2, progress=False)
    assert list(df["agent"]) == ["advisor:playouts=2,candidates=2", "greedy"]
    refused(
        lambda: run_games("usa", ["advisor:playouts=0", "greedy"], 10**6, progress=False),
        "agent 'advisor:playouts=0'",
        "playouts",
    )
