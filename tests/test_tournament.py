"""Tournaments: balanced seats, intervals that cover at their level, ratings that recover known strengths, the CLI."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter

import pandas as pd
import pytest

import ttr_lab
from ttr_lab.simulate import schedule, summarise, tournament
from ttr_lab.simulate.stats import bootstrap, bradley_terry, elo_scale, mean_ci, ranks, spearman, wilson


@pytest.mark.parametrize(
    ("agents", "players"), [(list("abcd"), 2), (list("abcd"), 3), (list("abcd"), 4), (list("ab"), 3)]
)
def test_every_agent_plays_every_seat_equally(agents, players):
    lineups = schedule(agents, players)
    seats = Counter((seat, a) for lu in lineups for seat, a in enumerate(lu))
    assert len(set(seats.values())) == 1 and len(seats) == len(agents) * players
    assert all(set(lu) >= set(agents) or len(agents) > players for lu in lineups)


def test_wilson_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(81, 263)
    assert (lo, hi) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    assert all(math.isnan(v) for v in wilson(0, 0))


def test_wilson_covers_at_its_level():
    rng = random.Random(1)
    for p, n in [(0.3, 100), (0.1, 60), (0.5, 40)]:
        reps = 4000
        hits = 0
        for _ in range(reps):
            k = sum(rng.random() < p for _ in range(n))
            lo, hi = wilson(k, n)
            hits += lo <= p <= hi
        assert 0.93 <= hits / reps <= 0.97, (p, n, hits / reps)


def _fake_tournament(rng, probs, games):
    """Per-seat rows of a fake tournament: one winner per game, drawn with known odds."""
    agents = list(probs)
    rows = []
    for g in range(games):
        lineup = agents[g % len(agents) :] + agents[: g % len(agents)]
        winner = rng.choices(agents, weights=[probs[a] for a in agents])[0]
        for seat, a in enumerate(lineup):
            won = a == winner
            rows.append(
                {
                    "edition": "fake",
                    "players": len(agents),
                    "game": g,
                    "seat": seat,
                    "agent": a,
                    "winner": won,
                    "rank": 1 if won else 2,
                    "score": 100 + 20 * won,
                    "margin": 20 if won else -20 - rng.random(),
                }
            )
    return pd.DataFrame(rows)


def test_tournament_win_intervals_cover_known_odds():
    """Fake agents whose win probabilities we control: each table's 95% interval covers the truth ~95% of the time."""
    probs = {"strong": 0.5, "middle": 0.3, "weak": 0.2}
    rng = random.Random(7)
    reps, hits = 200, Counter()
    for _ in range(reps):
        table = summarise(_fake_tournament(rng, probs, 120)).set_index("agent")
        for a, p in probs.items():
            hits[a] += table.loc[a, "win_lo"] <= p <= table.loc[a, "win_hi"]
    for a in probs:
        assert 0.91 <= hits[a] / reps <= 0.99, (a, hits[a] / reps)


def test_bradley_terry_recovers_known_strengths():
    rng = random.Random(3)
    true = {"a": 1.0, "b": 2.0, "c": 4.0}
    wins = Counter()
    for _ in range(30000):
        i, j = rng.sample(list(true), 2)
        if rng.random() < true[i] / (true[i] + true[j]):
            wins[(i, j)] += 1
        else:
            wins[(j, i)] += 1
    s = bradley_terry(wins)
    assert s["b"] / s["a"] == pytest.approx(2.0, rel=0.06)
    assert s["c"] / s["a"] == pytest.approx(4.0, rel=0.06)
    elo = elo_scale(s)
    assert elo["c"] > elo["b"] > elo["a"]


def test_small_statistics():
    assert ranks([3, 1, 2]) == [3.0, 1.0, 2.0]
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ttr_lab.TtrError):
        spearman([1, 2], [1])
    m, lo, hi = mean_ci([float(x) for x in range(101)])
    assert m == 50 and lo < 50 < hi
    est, lo, hi = bootstrap([0, 1] * 50, lambda xs: sum(xs) / len(xs), reps=300)
    assert est == 0.5 and 0.35 < lo < 0.5 < hi < 0.65


def test_a_real_tournament_and_its_file(tmp_path):
    t = tournament(["greedy", "long_route"], "usa", players=2, games=3, seed=5, progress=False, save=tmp_path / "r.csv")
    assert len(t.games) == 8  # rounded up to whole rotations: 4 games of 2 seats
    assert (t.games.groupby(["agent", "seat"]).size() == 2).all()
    assert list(t.table["games"]) == [4, 4]
    back = pd.read_csv(tmp_path / "r.csv")
    assert len(back) == 8 and set(back["agent"]) == {"greedy", "long_route"}
    table = pd.read_csv(tmp_path / "r-table.csv")
    assert list(table["agent"]) == ["greedy", "long_route"]
    assert "usa, 2 players" in str(t)
    with pytest.raises(ttr_lab.TtrError, match="csv"):
        t.save(tmp_path / "r.parquet")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["--agents", "greedy", "--edition", "narnia"], "narnia"),
        (["--agents", "greedy", "--games", "0"], "games must be a whole number from 1 to 1,000,000"),
        (["--agents", "greedy", "--scheduler", "tcp://127.0.0.1:9"], "no Dask scheduler answers"),
        (["--agents", "greedy", "--players", "two"], "--players wants whole numbers"),
        (["--agents", "greedy", "--batch-size", "0"], "--batch-size must be 1 or more"),
    ],
)
def test_cli_errors_are_one_line(args, message, capsys):
    from ttr_lab.cli import main

    assert main(["tournament", *args]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]


def test_cli_in_a_subprocess_prints_the_table_and_saves(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ttr_lab",
            "tournament",
            "--agents",
            "greedy,destination_hungry",
            "--edition",
            "europe",
            "--players",
            "3",
            "--games",
            "6",
            "--save",
            str(tmp_path / "t.csv.gz"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "europe, 3 players" in out.stdout and "destination_hungry" in out.stdout
    assert "6/6" in out.stderr  # the progress bar
    assert len(pd.read_csv(tmp_path / "t.csv.gz")) == 18
    bad = subprocess.run(
        [sys.executable, "-m", "ttr_lab", "tournament", "--agents", "nobody"], capture_output=True, text=True
    )
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "unknown agent" in bad.stderr


def test_cli_batch_size_changes_the_tasks_not_the_rows(tmp_path, capsys):
    from ttr_lab.cli import main

    common = ["tournament", "--agents", "random,greedy", "--games", "4", "--seed", "3", "--no-progress"]
    assert main([*common, "--save", str(tmp_path / "a.csv")]) == 0
    assert main([*common, "--batch-size", "1", "--workers", "2", "--save", str(tmp_path / "b.csv")]) == 0
    capsys.readouterr()
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
