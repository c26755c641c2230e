"""Simulation speed: games per second per agent on one core, and the speed-up of a local Dask cluster.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_simulate.py            # both parts
    .venv/bin/python benchmarks/bench_simulate.py --agents   # games/s per agent only
    .venv/bin/python benchmarks/bench_simulate.py --scale --repeats 5

* **Per agent**: each agent plays itself (every seat), in this process, on
  each edition; games per second of wall time and per second of this
  process's CPU time (on a loaded machine the CPU figure is the one that
  says what a free core would do), and plies per game; then the mixed
  workload of the FDG table (the four FDG agents, seats rotated) at 2, 3
  and 4 players.
* **Scale**: the same mixed workload (the four FDG agents, USA, 3 players)
  on a ``LocalCluster`` of 1 and then 2 worker processes (one thread each,
  on 127.0.0.1), ``repeats`` times each, alternating; prints every time, the
  best and the median, and the speed-ups best/best and median/median.  The
  machine's load average is printed too, with the CPU time the workers got
  (their share of the cores): other work on the cores makes the figures
  meaningless, so measure on a quiet machine.
* **Batching**: the scheduling overhead of one Dask task, from a run of
  one-game batches against the same run in batches of 20.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from ttr_lab.simulate import run_games, schedule

FDG = ["route_focus", "one_step", "long_route", "destination_hungry"]
EDITIONS = ["usa", "1910", "europe", "rails_and_sails"]


def _timed(edition: str, lineups: list, games: int) -> tuple[float, float, float]:
    """(games per wall second, games per CPU second of this process, mean plies)."""
    t, c = time.perf_counter(), time.process_time()
    df = run_games(edition, lineups, games, seed=1, progress=False)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return games / wall, games / cpu, float(df["plies"].mean())


def per_agent(games: int, agents: list[str]) -> None:
    print(f"games per second on one core, wall / CPU (self-play, 2 players, {games} games each, load {_load()})")
    print(f"{'agent':20s} " + " ".join(f"{e:>22s}" for e in EDITIONS))
    for agent in agents:
        cells = []
        for ed in EDITIONS:
            wall, cpu, plies = _timed(ed, [[agent, agent]], games)
            cells.append(f"{wall:6.2f} / {cpu:6.2f} ({plies:4.0f} pl)")
        print(f"{agent:20s} " + " ".join(f"{c:>22s}" for c in cells), flush=True)
    print(f"the FDG table's workload (the four FDG agents, seats rotated), {games} games each, load {_load()}")
    for n in (2, 3, 4):
        cells = []
        for ed in EDITIONS:
            wall, cpu, plies = _timed(ed, schedule(FDG, n), games)
            cells.append(f"{wall:6.2f} / {cpu:6.2f} ({plies:4.0f} pl)")
        print(f"{'FDG mix, %d players' % n:20s} " + " ".join(f"{c:>22s}" for c in cells), flush=True)


def _load() -> str:
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:  # pragma: no cover
        return "?"


def scale(games: int, repeats: int, batch: int) -> None:
    from distributed import Client, LocalCluster

    lineups = schedule(FDG, 3)
    times: dict[int, list[float]] = {1: [], 2: []}
    clusters = {
        n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
        for n in (1, 2)
    }
    try:
        clients = {n: Client(c, set_as_default=False) for n, c in clusters.items()}
        for n, client in clients.items():  # warm up: imports and map caches in every worker
            run_games("usa", lineups, 2 * n, seed=99, executor=client, batch_size=1, progress=False)
        print(f"scale: {games} games (USA, 3 players, the four FDG agents), batches of {batch}")
        for r in range(repeats):
            for n in (1, 2):
                cpu0 = sum(clients[n].run(time.process_time).values())
                t = time.perf_counter()
                run_games("usa", lineups, games, seed=r, executor=clients[n], batch_size=batch, progress=False)
                times[n].append(time.perf_counter() - t)
                cpu = sum(clients[n].run(time.process_time).values()) - cpu0
                print(
                    f"  repeat {r + 1}: {n} worker(s) {times[n][-1]:6.1f} s, workers' CPU {cpu:6.1f} s "
                    f"({cpu / times[n][-1] / n:4.0%} of {n} core(s))  (load {_load()})",
                    flush=True,
                )
        for n in (1, 2):
            print(
                f"{n} worker(s): best {min(times[n]):.1f} s, median {statistics.median(times[n]):.1f} s "
                f"({games / min(times[n]):.2f} games/s at best), n={len(times[n])}"
            )
        print(
            f"speed-up 1 -> 2 workers: best/best {min(times[1]) / min(times[2]):.2f}x, "
            f"median/median {statistics.median(times[1]) / statistics.median(times[2]):.2f}x"
        )
        # batching: what one task costs to schedule
        small = 40
        t = time.perf_counter()
        run_games("usa", lineups, small, seed=5, executor=clients[1], batch_size=1, progress=False)
        one = time.perf_counter() - t
        t = time.perf_counter()
        run_games("usa", lineups, small, seed=5, executor=clients[1], batch_size=20, progress=False)
        twenty = time.perf_counter() - t
        print(
            f"batching, {small} games on 1 worker: batches of 1 {one:.2f} s, of 20 {twenty:.2f} s "
            f"(overhead about {(one - twenty) / (small - 2) * 1000:.0f} ms a task)"
        )
    finally:
        for c in clients.values():
            c.close()
        for c in clusters.values():
            c.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agents", action="store_true", help="only games/s per agent")
    p.add_argument("--scale", action="store_true", help="only the 1 -> 2 worker speed-up")
    p.add_argument("--games", type=int, default=20, help="games per agent and edition")
    p.add_argument("--bots", default=",".join([*FDG, "greedy", "random", "playout"]), help="agents to time")
    p.add_argument("--scale-games", type=int, default=96)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--batch", type=int, default=4)
    a = p.parse_args()
    both = not (a.agents or a.scale)
    if a.agents or both:
        per_agent(a.games, a.bots.split(","))
    if a.scale or both:
        scale(a.scale_games, a.repeats, a.batch)


if __name__ == "__main__":
    main()
