"""Rebuild the FDG results files of notebooks/07-simulate.ipynb.

The four FDG agents (route_focus, one_step, long_route, destination_hungry)
play a seat-rotated tournament on USA, USA 1910, Europe and Rails & Sails
(World) at 2, 3 and 4 players, up to 1,008 games a cell (a whole number of
seat rotations), on a local Dask cluster of two worker processes.  Writes, in
this folder:

* ``fdg-table.csv``       the tournament table, one row per cell and agent;
* ``fdg-games.csv.gz``    the per-game rows (one per game and seat);
* ``fdg-cities.csv``      city desirability per cell;
* ``fdg-routes.csv``      route claim rate and mean ply per cell;
* ``fdg-consistency.csv`` Spearman of city rankings between player counts, with bootstrap intervals.

Run from the repository root::

    .venv/bin/python notebooks/data/make_fdg_table.py            # play what is missing, then write
    .venv/bin/python notebooks/data/make_fdg_table.py --write    # write from what is cached, play nothing

The games of a cell are played in pieces of 168 (``run_detailed(start=...)``,
so a cell played in pieces has the rows of one run of 1,008 games), round
robin over the cells: piece 1 of every cell, then piece 2 of every cell...
so that a run stopped early leaves every cell with about the same number of
games.  Every finished piece is saved as CSV in ``$FDG_CACHE`` (default
``/tmp/fdg-cells``) and the table is rewritten after each, so an interrupted
run loses at most the pieces in progress, and resumes where it stopped.  A
cell has as many games as the pieces finished; the files say how many.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pandas as pd

from ttr_lab.editions import find_edition
from ttr_lab.simulate import Results, run_detailed, schedule, summarise
from ttr_lab.simulate.analytics import city_stats, consistency, route_stats

AGENTS = ["route_focus", "one_step", "long_route", "destination_hungry"]
EDITIONS = ["usa", "1910", "europe", "rails_and_sails"]
PLAYERS = [2, 3, 4]
GAMES = 1008
PIECE = 168  # a whole number of seat rotations at 2 (12 line-ups), 3 and 4 players (24)
SEED = 2017
HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("FDG_CACHE", "/tmp/fdg-cells"))
TABLES = ("games", "claims", "tickets")


def piece_path(ed: str, n: int, start: int, table: str) -> Path:
    return CACHE / f"{ed}-{n}p-{start:04d}-{table}.csv.gz"


def load_piece(ed: str, n: int, start: int) -> Results | None:
    paths = [piece_path(ed, n, start, t) for t in TABLES]
    if not all(p.exists() for p in paths):
        return None
    games = pd.read_csv(paths[0], dtype={"edition": str})  # "1910" stays a name
    claims = pd.read_csv(paths[1])
    tickets = pd.read_csv(paths[2], dtype={"path_cities": str, "label": str}, keep_default_na=False)
    return Results(games, claims, tickets)


def save_piece(ed: str, n: int, start: int, res: Results) -> None:
    for table in TABLES:
        tmp = piece_path(ed, n, start, table).with_suffix(".tmp")
        getattr(res, table).to_csv(tmp, index=False, compression="gzip")
        tmp.replace(piece_path(ed, n, start, table))


def load_cells() -> dict[tuple[str, int], Results]:
    """Every cell's finished pieces, joined (pieces in order, stopping at the first missing one)."""
    cells = {}
    for ed in EDITIONS:
        for n in PLAYERS:
            parts = []
            for start in range(0, GAMES, PIECE):
                res = load_piece(ed, n, start)
                if res is None:
                    break
                parts.append(res)
            if parts:
                cells[(ed, n)] = Results(
                    *(pd.concat([getattr(p, t) for p in parts], ignore_index=True) for t in TABLES)
                )
    return cells


def play() -> None:
    from distributed import Client, LocalCluster

    CACHE.mkdir(parents=True, exist_ok=True)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        for start in range(0, GAMES, PIECE):
            for ed in EDITIONS:
                for n in PLAYERS:
                    if load_piece(ed, n, start) is not None:
                        continue
                    t = time.perf_counter()
                    res = run_detailed(
                        ed, schedule(AGENTS, n), PIECE, SEED, executor=client, progress=False, start=start
                    )
                    dt = time.perf_counter() - t
                    save_piece(ed, n, start, res)
                    print(
                        f"{time.strftime('%H:%M:%S')} {ed} {n}p games {start}-{start + PIECE - 1}: "
                        f"{dt:.0f} s ({PIECE / dt:.2f} games/s), load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
                    write_table(load_cells())


def ngames(res: Results) -> int:
    return int(res.games["game"].nunique())


def write_table(cells: dict[tuple[str, int], Results]) -> None:
    games = pd.concat([r.games for r in cells.values()], ignore_index=True)
    table = summarise(games)
    cell_games = {k: ngames(r) for k, r in cells.items()}
    table.insert(2, "cell_games", [cell_games[(str(e), int(n))] for e, n in zip(table["edition"], table["players"])])
    table.to_csv(HERE / "fdg-table.csv", index=False, float_format="%.4f")


def write(cells: dict[tuple[str, int], Results]) -> None:
    write_table(cells)
    games = pd.concat([r.games for r in cells.values()], ignore_index=True)
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
                cons.append(
                    {
                        "edition": ed,
                        "a": a,
                        "b": b,
                        "rho": rho,
                        "lo": lo,
                        "hi": hi,
                        "games_a": ngames(cells[(ed, a)]),
                        "games_b": ngames(cells[(ed, b)]),
                    }
                )
    pd.concat(cities).to_csv(HERE / "fdg-cities.csv", index=False, float_format="%.4f")
    pd.concat(routes).to_csv(HERE / "fdg-routes.csv", index=False, float_format="%.4f")
    pd.DataFrame(cons).to_csv(HERE / "fdg-consistency.csv", index=False, float_format="%.4f")


def main(argv: list[str]) -> int:
    if "--write" not in argv:
        play()
    cells = load_cells()
    write(cells)
    for (ed, n), res in cells.items():
        print(f"{ed} {n}p: {ngames(res)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
