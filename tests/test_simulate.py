"""run_games and friends: same seeds, same rows on every executor; bad input is one clear TtrError."""

from __future__ import annotations

import math
import os
import signal
import warnings
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest

import ttr_lab
from ttr_lab.maps import load_map
from ttr_lab.simulate import GAME_COLUMNS, iter_games, run_detailed, run_games
from ttr_lab.simulate.analytics import city_stats, consistency, route_stats, structure_summary, ticket_stats
from ttr_lab.simulate.runner import default_batch_size
from ttr_lab.simulate.stats import bootstrap, bradley_terry, wilson

LINEUP = ["route_focus", "destination_hungry"]


@pytest.fixture(scope="module")
def reference():
    return run_detailed("usa", LINEUP, games=6, seed=11, progress=False)


def test_rows_and_columns(reference):
    df = reference.games
    assert list(df.columns) == list(GAME_COLUMNS)
    assert len(df) == 12 and list(df["game"]) == [g for g in range(6) for _ in range(2)]
    parts = df["route_points"] + df["ticket_points"] + df["bonus_points"] + df["adjustments"]
    assert (parts == df["score"]).all()
    assert (df.groupby("game")["winner"].sum() >= 1).all()
    best = df.groupby("game")["score"].transform("max")
    assert (df.loc[df["winner"], "score"] == best[df["winner"]]).all()
    assert (df["edition"] == "usa").all() and (df["players"] == 2).all()
    assert df.groupby("game")["seed"].nunique().eq(1).all() and df["seed"].nunique() == 6


def test_claims_and_tickets_agree_with_the_rows(reference):
    per_seat = reference.claims.groupby(["game", "seat"]).size()
    rows = reference.games.set_index(["game", "seat"])["routes_claimed"]
    assert (per_seat.reindex(rows.index, fill_value=0) == rows).all()
    done = reference.tickets.groupby(["game", "seat"])["completed"].sum()
    assert (
        done.reindex(rows.index, fill_value=0) == reference.games.set_index(["game", "seat"])["tickets_completed"]
    ).all()
    assert (reference.claims["ply"] >= 0).all()


def test_same_seed_same_rows_in_process_and_on_a_process_pool(reference):
    with ProcessPoolExecutor(2) as ex:
        pooled = run_games("usa", LINEUP, games=6, seed=11, executor=ex, batch_size=2, progress=False)
    pd.testing.assert_frame_equal(pooled, reference.games)


def test_chunks_add_up_to_the_table(reference):
    chunks = list(iter_games("usa", LINEUP, games=6, seed=11, batch_size=4, progress=False))
    assert [len(c) for c in chunks] == [8, 4]
    joined = pd.concat(chunks).sort_values(["game", "seat"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(joined, reference.games)
    seen = []
    run_games("usa", LINEUP, games=6, seed=11, batch_size=3, progress=False, on_chunk=seen.append)
    assert [len(c) for c in seen] == [6, 6]


def test_a_run_in_pieces_has_the_rows_of_one_run(reference):
    first = run_detailed("usa", LINEUP, games=4, seed=11, progress=False)
    rest = run_detailed("usa", LINEUP, games=2, seed=11, progress=False, start=4)
    assert list(rest.games["game"].unique()) == [4, 5]
    for table in ("games", "claims", "tickets"):
        joined = pd.concat([getattr(first, table), getattr(rest, table)], ignore_index=True)
        pd.testing.assert_frame_equal(joined, getattr(reference, table))


def test_progress_bar(capsys, reference):
    df = run_games("usa", LINEUP, games=2, seed=11, progress=True)
    pd.testing.assert_frame_equal(df, reference.games.iloc[:4].reset_index(drop=True))
    assert "2/2" in capsys.readouterr().err


def test_lineups_rotate_and_seeds_differ():
    df = run_games("usa", [["greedy", "random"], ["random", "greedy"]], games=4, seed=0, progress=False)
    assert list(df[df["seat"] == 0]["agent"]) == ["greedy", "random", "greedy", "random"]
    other = run_games("usa", [["greedy", "random"], ["random", "greedy"]], games=4, seed=1, progress=False)
    assert set(df["seed"]).isdisjoint(other["seed"])


def test_batch_size_default():
    assert default_batch_size(1) == 1 and default_batch_size(1008) == 20 and default_batch_size(64) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["greedy", "nobody"]}, "unknown agent 'nobody'"),
        ({"edition": "narnia"}, "narnia"),
        ({"games": 0}, "games must be a whole number from 1 to 1,000,000, not 0"),
        ({"games": -3}, "games must be a whole number from 1 to 1,000,000"),
        ({"games": 2.5}, "games must be a whole number from 1 to 1,000,000"),
        ({"games": 10**20}, "games must be a whole number from 1 to 1,000,000, not 100000000000000000000"),
        ({"games": True}, "games must be a whole number"),
        ({"games": "2"}, "games must be a whole number"),
        ({"players": ["greedy"]}, "2 to 5 players"),
        ({"players": None}, "players is a list of agent names"),
        ({"players": 2}, "players is a list of agent names"),
        ({"players": ["greedy", 7]}, "players is a list of agent names"),
        ({"players": [["greedy", 7]]}, "an agent is named by a string, not 7"),
        ({"players": [["greedy", "random"], ["greedy"]]}, "same number of seats"),
        ({"batch_size": 0}, "batch_size must be a whole number from 1 to 10,000"),
        ({"batch_size": 10**30}, "batch_size must be a whole number from 1 to 10,000"),
        ({"start": -1}, "start must be a whole number from 0 to 1,000,000,000,000,000"),
        ({"start": 10**30}, "start must be a whole number from 0 to 1,000,000,000,000,000"),
        ({"seed": None}, "seed must be an int from 0 to 2[*][*]128 - 1, not None"),
        ({"seed": "1"}, "seed must be an int from 0 to 2[*][*]128 - 1, not '1'"),
        ({"seed": 1.5}, "seed must be an int"),
        ({"seed": -1}, "seed must be an int"),
        ({"seed": 2**128}, "seed must be an int"),
        ({"seed": 10**5000}, "seed must be an int"),
        ({"options": [1]}, "options is a dict of edition options"),
        ({"options": "x"}, "options is a dict of edition options"),
        ({"options": {1: 2}}, "options is a dict of edition options"),
        ({"on_chunk": 5}, "on_chunk is a function"),
        ({"executor": "tcp://127.0.0.1:9"}, "no Dask scheduler answers at tcp://127.0.0.1:9"),
        ({"executor": "localhost:8786"}, "looks like 'tcp://host:8786'"),
        ({"executor": 42}, "executor must be"),
        ({"options": {"no_such_option": 1}}, "unknown option"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    args = {"edition": "usa", "players": ["greedy", "random"], "games": 2, "seed": 0, "progress": False}
    args.update(kwargs)
    with pytest.raises(ttr_lab.TtrError, match=message) as err:
        run_games(args.pop("edition"), args.pop("players"), args.pop("games"), args.pop("seed"), **args)
    assert "\n" not in str(err.value)


def _kill_one_worker(pool):
    def kill(chunk):
        if not kill.done:
            kill.done = True
            os.kill(next(iter(pool._processes)), signal.SIGKILL)

    kill.done = False
    return kill


def test_a_killed_pool_worker_loses_no_game(reference):
    with ProcessPoolExecutor(2) as pool:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            df = run_games(
                "usa",
                LINEUP,
                games=6,
                seed=11,
                executor=pool,
                batch_size=1,
                progress=False,
                on_chunk=_kill_one_worker(pool),
            )
    pd.testing.assert_frame_equal(df, reference.games)
    assert any("worker died" in str(w.message) for w in caught)


def test_analytics_tables(reference):
    m = load_map("usa")
    routes = route_stats(reference, m)
    assert len(routes) == len(m.routes) and routes["claims"].sum() == len(reference.claims)
    cities = city_stats(reference, m)
    assert set(cities["city"]) == {c.name for c in m.cities} and (cities["paths"] >= 0).all()
    tickets = ticket_stats(reference)
    assert (tickets["lo"] <= tickets["completion"]).all() and (tickets["completion"] <= tickets["hi"]).all()
    assert tickets["completion"].is_monotonic_increasing
    summary = structure_summary(reference, m)
    assert -1 <= summary["route_betweenness_vs_claims"] <= 1
    rho, lo, hi = consistency(reference, reference, m, reps=50)
    assert rho == pytest.approx(1.0) and -1 <= lo <= hi <= 1


def test_import_ttr_lab_loads_no_simulation_dependency():
    import subprocess
    import sys

    code = (
        "import sys, ttr_lab; print(sorted(m for m in ('pandas', 'dask', 'distributed', 'tqdm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_heatmaps_sit_on_the_board(reference):
    pytest.importorskip("plotly")
    from ttr_lab.simulate.heatmaps import city_heatmap, route_heatmap

    m = load_map("usa")
    routes = route_stats(reference, m)
    fig = route_heatmap(m, dict(zip(routes["route"], routes["claim_rate"])), title="claims")
    board = next(t for t in fig.data if t.name == "routes")
    heat = fig.data[-1]
    assert heat.name == "claim rate" and list(heat.x) == list(board.x) and len(heat.marker.color) == len(board.x)
    cities = city_stats(reference, m)
    fig = city_heatmap(m, dict(zip(cities["city"], cities["paths"])))
    assert len(fig.data[-1].x) == len(m.cities)


# ------------------------------------------------------------------ budgets (issue 20, item 6)


def test_a_run_is_checked_when_called_and_streamed():
    """``iter_games`` refuses bad arguments when it is called (not at the
    first chunk); a run of the most games allowed is made batch by batch:
    the first chunk arrives without the run's specs ever being built (they
    took ~300 MB for 10**6 games, and ``games=10**20`` grew past 900 MB)."""
    import tracemalloc

    from ttr_lab.engine.checks import MAX_GAMES

    from .test_analysis_arguments import refused

    refused(lambda: iter_games("usa", ["random", "greedy"], 10**20, progress=False), "games", "1,000,000")
    refused(lambda: run_games("usa", ["random", "greedy"], 10**20, progress=False), "games", "1,000,000")
    tracemalloc.start()
    try:
        chunks = iter_games("usa", ["random", "greedy"], MAX_GAMES, seed=5, batch_size=1, progress=False)
        first = next(chunks)
        chunks.close()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert list(first["game"]) == [0, 0]
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB for the first game of a long run"
    one = run_games("usa", ["random", "greedy"], 1, seed=5, progress=False)
    pd.testing.assert_frame_equal(first.reset_index(drop=True), one)


def test_run_tasks_takes_tasks_as_it_submits_them():
    """At most ``in_flight`` tasks are taken from the iterator ahead of the results."""
    from concurrent.futures import ThreadPoolExecutor

    from ttr_lab.simulate.executors import run_tasks

    taken = []

    def tasks():
        for i in range(200):
            taken.append(i)
            yield i

    with ThreadPoolExecutor(2) as ex:
        results = run_tasks(ex, lambda x: x * x, tasks(), in_flight=4)
        first = next(results)
        assert len(taken) <= 5
        rest = list(results)
    assert sorted([first, *rest]) == [(i, i * i) for i in range(200)]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"games": 10**20}, ("games", "1,000,000")),
        ({"players": 10**6}, ("players", "2 to 10")),
        ({"players": [2, 10**6]}, ("players",)),
        ({"players": None}, ("players",)),
        ({"players": True}, ("players",)),
        ({"edition": None}, ("edition",)),
        ({"edition": ["usa", "narnia"]}, ("narnia",)),
        ({"edition": ["usa", 7]}, ("edition",)),
        ({"edition": "usa", "players": [2, 6]}, ("2 to 5 players",)),
        ({"seed": None}, ("seed",)),
        ({"seed": 1.5}, ("seed",)),
        ({"options": "x"}, ("options",)),
        ({"agents": None}, ("agents",)),
        ({"agents": 7}, ("agents",)),
        ({"agents": ["greedy", 7]}, ("agents", "7")),
        ({"games": 10**6, "players": 5, "agents": ["greedy", "random", "one_step", "long_route"]}, ("games",)),
    ],
)
def test_a_tournament_checks_every_cell_before_the_first_game(monkeypatch, kwargs, words):
    """Before, ``players=10**6`` built its schedule (endless), ``players=None``
    raised a TypeError, and a bad second edition came after the first cell's games."""
    import ttr_lab.simulate.tournaments as tm

    from .test_analysis_arguments import refused

    played = []
    monkeypatch.setattr(tm, "run_games", lambda *a, **k: played.append(a))
    args = {"agents": ["greedy", "random"], "edition": "usa", "players": 2, "games": 2, "seed": 0, "progress": False}
    args.update(kwargs)
    refused(lambda: tm.tournament(args.pop("agents"), **args), *words)
    assert played == []


def test_a_schedule_too_large_is_refused_before_it_is_made():
    from ttr_lab.simulate import schedule

    from .test_analysis_arguments import refused

    assert len(schedule(["a", "b", "c"], 5)) == 150  # onto maps from 5 seats to 3 agents
    assert len(schedule(["a", "b", "c", "d"], 3)) == 24
    refused(lambda: schedule([f"a{i}" for i in range(30)], 5), "line-ups", "100,000")
    refused(lambda: schedule(["a", "b"], 10**6), "players")


@pytest.mark.parametrize(
    "call",
    [
        lambda: bootstrap([1, 2, 3], sum, reps=10**30),
        lambda: bootstrap([1, 2, 3], sum, seed="1"),
        lambda: bootstrap([1, 2, 3], sum, level=1.5),
        lambda: bradley_terry({("a", "b"): 1.0}, iters=10**30),
        lambda: wilson(3, 10, level=math.nan),
    ],
    ids=["bootstrap reps", "bootstrap seed", "bootstrap level", "bradley_terry iters", "wilson level"],
)
def test_statistics_budgets_are_checked(call):
    from .test_analysis_arguments import refused

    refused(call)


def test_consistency_reps_are_checked(reference):
    from .test_analysis_arguments import refused

    refused(lambda: consistency(reference, reference, load_map("usa"), reps=10**30), "reps")
    refused(lambda: consistency(reference, reference, load_map("usa"), seed=None), "seed")
