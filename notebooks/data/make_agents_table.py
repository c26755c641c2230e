"""Rebuild ``agents-games.csv.gz`` and ``agents-games-table.csv`` of notebooks/07-simulate.ipynb.

Every agent ``make_bot`` knows besides the advisor: the four FDG agents,
``random``, ``greedy`` and ``playout`` (the Monte Carlo playout policy), in
one seat-rotated tournament on USA at 2 and 3 players and Europe at 3
players (1,008 games at 2 players, 1,050 at 3: whole numbers of rotations
of seven agents), on a local Dask cluster of two worker processes.

Run from the repository root: ``.venv/bin/python notebooks/data/make_agents_table.py``
(a few minutes on two cores).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ttr_lab.simulate import tournament

AGENTS = ["route_focus", "one_step", "long_route", "destination_hungry", "greedy", "random", "playout"]
CELLS = [("usa", 2), ("usa", 3), ("europe", 3)]
GAMES = 1000  # rounded up to whole rotations: 1,008 at 2 players (42 line-ups), 1,050 at 3 (210)
SEED = 2022
HERE = Path(__file__).resolve().parent


def main() -> int:
    import pandas as pd
    from distributed import Client, LocalCluster

    from ttr_lab.simulate import Tournament, summarise

    parts = []
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        for ed, n in CELLS:
            t = time.perf_counter()
            parts.append(tournament(AGENTS, ed, players=n, games=GAMES, seed=SEED, executor=client, progress=False))
            print(f"{ed} {n}p: {time.perf_counter() - t:.0f} s", flush=True)
    games = pd.concat([p.games for p in parts], ignore_index=True)
    Tournament(games, summarise(games)).save(HERE / "agents-games.csv.gz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
