"""Rebuild the FDG results files of notebooks/07-simulate.ipynb.

The four FDG agents (route_focus, one_step, long_route, destination_hungry)
play a seat-rotated tournament on USA, USA 1910, Europe and Rails & Sails
(World) at 2, 3 and 4 players, 1,008 games a cell (a whole number of seat
rotations), on a local Dask cluster of two worker processes.  Writes, in
this folder:

* ``fdg-table.csv``       the tournament table, one row per cell and agent;
* ``fdg-games.csv.gz``    the per-game rows (one per game and seat);
* ``fdg-cities.csv``      city desirability per cell;
* ``fdg-routes.csv``      route claim rate and mean ply per cell;
* ``fdg-consistency.csv`` Spearman of city rankings between player counts, with bootstrap intervals.

Run from the repository root: ``.venv/bin/python notebooks/data/make_fdg_table.py``
(about an hour on two cores).  Finished cells are cached in ``$FDG_CACHE``
(default ``/tmp/fdg-cells``), so an interrupted run resumes.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from pathlib import Path

import pandas as pd

from ttr_lab.editions import find_edition
from ttr_lab.simulate import run_detailed, schedule, summarise
from ttr_lab.simulate.analytics import city_stats, consistency, route_stats

AGENTS = ["route_focus", "one_step", "long_route", "destination_hungry"]
EDITIONS = ["usa", "1910", "europe", "rails_and_sails"]
PLAYERS = [2, 3, 4]
GAMES = 1008
SEED = 2017
HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("FDG_CACHE", "/tmp/fdg-cells"))


def main() -> int:
    from distributed import Client, LocalCluster

    CACHE.mkdir(parents=True, exist_ok=True)
    cells = {}
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        for ed in EDITIONS:
            for n in PLAYERS:
                path = CACHE / f"{ed}-{n}.pkl"
                if path.exists():
                    cells[(ed, n)] = pickle.loads(path.read_bytes())
                    continue
                lineups = schedule(AGENTS, n)
                t = time.perf_counter()
                res = run_detailed(ed, lineups, GAMES, SEED, executor=client, progress=False)
                dt = time.perf_counter() - t
                print(f"{ed} {n}p: {GAMES} games in {dt:.0f} s ({GAMES / dt:.1f} games/s)", flush=True)
                path.write_bytes(pickle.dumps(res))
                cells[(ed, n)] = res
                write(cells)
    write(cells)
    return 0


def write(cells: dict) -> None:
    games = pd.concat([r.games for r in cells.values()], ignore_index=True)
    summarise(games).to_csv(HERE / "fdg-table.csv", index=False, float_format="%.4f")
    games.drop(columns=["lineup"]).to_csv(HERE / "fdg-games.csv.gz", index=False)
    cities, routes, cons = [], [], []
    for (ed, n), res in cells.items():
        m = find_edition(ed).map
        c = city_stats(res, m)
        c.insert(0, "players", n)
        c.insert(0, "edition", ed)
        cities.append(c)
        r = route_stats(res, m)
        r.insert(0, "players", n)
        r.insert(0, "edition", ed)
        routes.append(r)
    for ed in EDITIONS:
        for a, b in [(2, 4), (2, 3), (3, 4)]:
            if (ed, a) in cells and (ed, b) in cells:
                m = find_edition(ed).map
                rho, lo, hi = consistency(cells[(ed, a)], cells[(ed, b)], m, reps=500, seed=SEED)
                cons.append({"edition": ed, "a": a, "b": b, "rho": rho, "lo": lo, "hi": hi, "games": GAMES})
    pd.concat(cities).to_csv(HERE / "fdg-cities.csv", index=False, float_format="%.4f")
    pd.concat(routes).to_csv(HERE / "fdg-routes.csv", index=False, float_format="%.4f")
    pd.DataFrame(cons).to_csv(HERE / "fdg-consistency.csv", index=False, float_format="%.4f")


if __name__ == "__main__":
    sys.exit(main())
