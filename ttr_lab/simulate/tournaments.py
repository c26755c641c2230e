"""Tournaments: seats rotated, seeds fixed, a table per agent with intervals and ratings.

:func:`schedule` lists the line-ups so that every agent sits in every seat
equally often; :func:`tournament` plays them (on any executor, see
:func:`~ttr_lab.simulate.run_games`) and :func:`summarise` turns the per-game
rows into the table: per agent, games, wins, the win rate with its 95%
Wilson interval, the mean score margin (to the best other player) with its
interval, and a Bradley–Terry rating fitted from every pair of seats in
every game (on the Elo scale).

Examples
--------
>>> schedule(["a", "b"], 2)
[('a', 'b'), ('b', 'a')]
>>> len(schedule(["a", "b", "c", "d"], 3))
24
>>> from ttr_lab.simulate import tournament
>>> t = tournament(["greedy", "random"], "usa", players=2, games=4, seed=0, progress=False)
>>> list(t.table["agent"]), int(t.table["games"].sum())
(['greedy', 'random'], 8)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.checks import MAX_GAMES, check_count, check_seed, take_at_most
from ..errors import TtrError
from ..io.safeio import atomic_open
from .executors import open_executor
from .runner import _check_edition, check_agents, check_options, run_games
from .stats import bradley_terry, elo_scale, mean_ci, wilson

__all__ = ["schedule", "pairwise_wins", "summarise", "Tournament", "tournament", "TABLE_COLUMNS"]

TABLE_COLUMNS = (
    "edition",
    "players",
    "agent",
    "games",
    "wins",
    "win_rate",
    "win_lo",
    "win_hi",
    "margin",
    "margin_lo",
    "margin_hi",
    "score",
    "rating",
)


#: the most seats of a game a schedule is made for, and the most line-ups of one schedule
MAX_SEATS = 10
MAX_LINEUPS = 100_000
#: the most editions, or player counts, of one tournament
MAX_CELLS = 100


def _schedule_size(k: int, n: int) -> int:
    """How many line-ups :func:`schedule` makes for ``k`` agents and ``n`` seats
    (ordered choices, or the onto maps from seats to agents by inclusion-exclusion)."""
    if k >= n:
        return math.perm(k, n)
    return sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1))


def schedule(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Line-ups in which every agent plays every seat equally often.

    With at least as many agents as seats, every ordered choice of distinct
    agents; with fewer, every assignment of agents to seats that uses each
    agent at least once.  Both sets are closed under permuting the seats and
    under relabelling the agents, so each agent sits in each seat equally often.
    """
    agents = list(dict.fromkeys(agents))
    check_count(players, "players", high=MAX_SEATS)
    size = _schedule_size(len(agents), players)
    if size > MAX_LINEUPS:
        raise TtrError(
            f"{len(agents)} agents in {players} seats make {size:,} line-ups, more than {MAX_LINEUPS:,}: "
            "use fewer agents or seats"
        )
    if len(agents) >= players:
        return list(itertools.permutations(agents, players))
    every = set(agents)
    return [lu for lu in itertools.product(agents, repeat=players) if set(lu) == every]


def pairwise_wins(games: pd.DataFrame) -> dict[tuple[str, str], float]:
    """``(a, b) -> times a finished ahead of b`` over every pair of seats of
    different agents in every game (a shared rank counts half each way)."""
    wins: dict[tuple[str, str], float] = {}
    tables: dict[tuple[Any, Any, Any], list[tuple[str, int]]] = {}
    for key, agent, rank in zip(zip(games["edition"], games["players"], games["game"]), games["agent"], games["rank"]):
        tables.setdefault(key, []).append((agent, int(rank)))
    for seats in tables.values():
        for (a, ra), (b, rb) in itertools.combinations(seats, 2):
            if a == b:
                continue
            if ra < rb:
                wins[(a, b)] = wins.get((a, b), 0.0) + 1
            elif rb < ra:
                wins[(b, a)] = wins.get((b, a), 0.0) + 1
            else:
                wins[(a, b)] = wins.get((a, b), 0.0) + 0.5
                wins[(b, a)] = wins.get((b, a), 0.0) + 0.5
    return wins


def summarise(games: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """The tournament table from per-seat rows, one row per edition, player count and agent."""
    rows = []
    for (edition, players), cell in games.groupby(["edition", "players"], sort=True):
        wins = pairwise_wins(cell)
        agents = sorted(cell["agent"].unique())
        prior = {(a, b): 0.5 for a in agents for b in agents if a != b}  # keeps a winless agent finite
        ratings = elo_scale(bradley_terry({k: wins.get(k, 0.0) + prior[k] for k in prior})) if len(agents) > 1 else {}
        for agent, g in cell.groupby("agent", sort=True):
            n = len(g)
            w = int(g["winner"].sum())
            lo, hi = wilson(w, n, level)
            m, mlo, mhi = mean_ci([float(x) for x in g["margin"]], level)
            rows.append(
                {
                    "edition": edition,
                    "players": int(players),
                    "agent": agent,
                    "games": n,
                    "wins": w,
                    "win_rate": w / n,
                    "win_lo": lo,
                    "win_hi": hi,
                    "margin": m,
                    "margin_lo": mlo,
                    "margin_hi": mhi,
                    "score": float(g["score"].mean()),
                    "rating": ratings.get(agent, math.nan),
                }
            )
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


@dataclass(frozen=True)
class Tournament:
    """A tournament's per-seat rows (``games``) and its table (``table``)."""

    games: pd.DataFrame
    table: pd.DataFrame

    def save(self, path: str | Path) -> Path:
        """Write the per-game rows as CSV (``.csv`` or ``.csv.gz``); the table goes
        beside it as ``<name>-table.csv``.  Returns the table's path."""
        p = Path(path)
        if not p.name.endswith((".csv", ".csv.gz")):
            raise TtrError(f"results are saved as .csv or .csv.gz, not {p.name!r}")
        gz = p.name.endswith(".gz")
        stem = p.name[: -len(".csv.gz")] if gz else p.name[: -len(".csv")]
        table_path = p.with_name(stem + "-table.csv")
        # each file replaced only by a whole one (an interrupted save loses nothing)
        with atomic_open(p, binary=True) as f:
            self.games.to_csv(f, index=False, compression="gzip" if gz else None)
        with atomic_open(table_path, newline="") as f:
            self.table.to_csv(f, index=False, float_format="%.4f")
        return table_path

    def __str__(self) -> str:
        return format_table(self.table)


def format_table(table: pd.DataFrame) -> str:
    """The table as text: one line per agent, grouped by edition and player count."""
    lines = []
    for (edition, players), cell in table.groupby(["edition", "players"], sort=True):
        lines.append(f"{edition}, {players} players")
        lines.append(
            f"  {'agent':20s} {'games':>6s} {'win rate (95% CI)':>22s} {'margin (95% CI)':>24s} {'rating':>7s}"
        )
        for r in cell.sort_values("rating", ascending=False).itertuples():
            win = f"{r.win_rate:6.1%} [{r.win_lo:5.1%}, {r.win_hi:5.1%}]"
            mar = f"{r.margin:+6.1f} [{r.margin_lo:+6.1f}, {r.margin_hi:+6.1f}]"
            lines.append(f"  {r.agent:20s} {r.games:6d} {win:>22s} {mar:>24s} {r.rating:7.0f}")
    return "\n".join(lines)


def tournament(
    agents: Sequence[str],
    edition: str | Sequence[str] = "usa",
    players: int | Sequence[int] = 2,
    games: int = 120,
    seed: int = 0,
    *,
    executor: Any = None,
    options: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    save: str | Path | None = None,
) -> Tournament:
    """Play a seat-rotated tournament and summarise it.

    Parameters
    ----------
    agents : list of str
        Agent names (``make_bot`` names); at least one.
    edition, players : str or list, int or list
        Editions and player counts; every combination is a cell of the table.
    games : int
        Games per cell, rounded up to a whole number of rotations
        (:func:`schedule`), so that every agent plays every seat equally;
        1 to :data:`~ttr_lab.engine.checks.MAX_GAMES`, rotations included.
    seed : int
        Seeds every cell (game ``i`` of a cell gets the same seed in every cell).
    executor, options, batch_size, progress
        As for :func:`~ttr_lab.simulate.run_games`.
    save : path
        Write the per-game rows and the table as CSV (see :meth:`Tournament.save`).
    """
    names = check_agents(agents)
    editions = [edition] if isinstance(edition, str) else take_at_most(edition, MAX_CELLS, "edition")
    counts = [players] if type(players) is int else take_at_most(players, MAX_CELLS, "players")
    check_count(games, "games", high=MAX_GAMES)
    check_seed(seed)
    opts = check_options(options)
    cells = []  # every cell checked (edition, options, seats, schedule, games) before the first game
    for ed in editions:
        for n in counts:
            check_count(n, "players", low=2, high=MAX_SEATS)
            name = _check_edition(ed, opts, n)
            lineups = schedule(names, n)
            total = math.ceil(games / len(lineups)) * len(lineups)
            if total > MAX_GAMES:
                raise TtrError(
                    f"games: {games} games in {len(lineups):,} seat rotations make {total:,} games a cell, "
                    f"more than {MAX_GAMES:,}"
                )
            cells.append((name, lineups, total))
    frames = []
    with open_executor(executor) as ex:  # one connection for every cell
        for name, lineups, total in cells:
            frames.append(
                run_games(
                    name, lineups, total, seed, executor=ex, options=opts, batch_size=batch_size, progress=progress
                )
            )
    rows = pd.concat(frames, ignore_index=True)
    result = Tournament(rows, summarise(rows))
    if save is not None:
        result.save(save)
    return result
