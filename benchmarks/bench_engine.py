"""Engine benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_engine.py            # all figures
    python benchmarks/bench_engine.py --games 300

Figures (targets from the project's issue tracker, for one core):

* random 4-player games per second for every edition, every decision a
  uniformly random choice among all legal moves through the public API, and
  **each game scored at the end** (``outcome()``: tickets, longest path,
  bonuses); targets: USA >= 280, Europe >= 200, Rails & Sails World >= 150;
* the share of that time spent in the cyclic garbage collector, with no
  finished game kept and with every one kept (as a tournament or a long
  notebook session keeps them), and the objects it then tracks;
* legal-move listing time on mid-game positions;
* push + pop time;
* exact longest-path time on dense 45-car networks (target < 1 ms mean);
* memory held by a finished game with its whole undo history (target < 10 MB).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ttr_lab
from ttr_lab.analysis.trails import longest_trail_edges


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def random_game(
    edition: str, players: int, seed: int, rng: random.Random, *, validate: bool = False
) -> ttr_lab.GameState:
    """A game of uniformly random legal moves, played to the end and scored."""
    g = ttr_lab.new_game(edition, players=players, seed=seed)
    apply = g.play if validate else g.push
    while not g.is_over:
        moves = g.legal_moves
        apply(moves[rng.randrange(len(moves))])
    g.outcome()
    return g


def bench_random_games(edition: str, games: int, players: int = 4, *, validate: bool = False) -> tuple[float, float]:
    rng = random.Random(12345)
    plies = 0
    t0 = time.perf_counter()
    for seed in range(games):
        plies += random_game(edition, players, seed, rng, validate=validate).ply
    dt = time.perf_counter() - t0
    return games / dt, plies / games


def bench_gc_share(edition: str, games: int, keep: bool = True) -> tuple[float, int, float]:
    """Per cent of the time spent in garbage collections (every game kept, or
    none), with the objects the collector tracks afterwards and the time of a
    full collection over them (ms)."""
    spent, start = [0.0], [0.0]

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            start[0] = time.perf_counter()
        else:
            spent[0] += time.perf_counter() - start[0]

    kept = []
    rng = random.Random(7)
    gc.collect()
    gc.callbacks.append(watch)
    t0 = time.perf_counter()
    try:
        for seed in range(games):
            g = random_game(edition, 4, seed, rng)
            if keep:
                kept.append(g)
    finally:
        gc.callbacks.remove(watch)
    share = 100 * spent[0] / (time.perf_counter() - t0)
    gc.collect()
    tracked = len(gc.get_objects())
    t = time.perf_counter()
    gc.collect()
    return share, tracked, 1000 * (time.perf_counter() - t)


def mid_game_positions(count: int = 200) -> list[ttr_lab.GameState]:
    rng = random.Random(7)
    out = []
    seed = 0
    while len(out) < count:
        g = ttr_lab.new_game("usa", players=4, seed=seed)
        seed += 1
        stop = rng.randrange(20, 250)
        while not g.is_over and g.ply < stop:
            m = g.legal_moves
            g.push(m[rng.randrange(len(m))])
        if not g.is_over:
            out.append(g.copy())
    return out


def bench_legal_listing(positions: list[ttr_lab.GameState]) -> tuple[float, float]:
    counts = []
    t0 = time.perf_counter()
    for g in positions:
        g._legal = None  # force a fresh listing
        counts.append(len(list(g.legal_moves)))
    dt = time.perf_counter() - t0
    return dt / len(positions) * 1e6, statistics.mean(counts)


def bench_push_pop(positions: list[ttr_lab.GameState]) -> float:
    pairs = []
    for g in positions:
        moves = list(g.legal_moves)
        pairs.extend((g, m) for m in moves[:: max(1, len(moves) // 10)])
    t0 = time.perf_counter()
    for g, m in pairs:
        g.push(m)
        g.pop()
    return (time.perf_counter() - t0) / len(pairs) * 1e6


def dense_networks(count: int = 300, cars: int = 45) -> list[list[tuple[int, str, str, int]]]:
    """Connected-ish random 45-car networks on the USA map."""
    m = ttr_lab.load_map("usa")
    rng = random.Random(3)
    nets = []
    for _ in range(count):
        start = rng.choice(m.routes)
        chosen = [start]
        used = start.length
        cities = {start.a, start.b}
        while True:
            options = [
                r for r in m.routes if r not in chosen and (r.a in cities or r.b in cities) and used + r.length <= cars
            ]
            if not options:
                break
            r = rng.choice(options)
            chosen.append(r)
            used += r.length
            cities |= {r.a, r.b}
        nets.append([(r.id, r.a, r.b, r.length) for r in chosen])
    return nets


def bench_longest_path(nets: list) -> tuple[float, float, float]:
    times = []
    for edges in nets:
        t0 = time.perf_counter()
        longest_trail_edges(edges)
        times.append(time.perf_counter() - t0)
    return statistics.mean(times) * 1e3, max(times) * 1e3, statistics.mean(len(e) for e in nets)


def bench_memory() -> tuple[float, int]:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    g = random_game("usa", 4, 99, random.Random(99))
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert g.is_over
    return (after - before) / 1e6, g.ply


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument(
        "--editions",
        default="usa,1910,mega,big_cities,europe,rails_and_sails,great_lakes",
        help="comma-separated edition names",
    )
    args = ap.parse_args()
    print(f"ttr_lab {ttr_lab.__version__}, Python {sys.version.split()[0]}, {pin_one_core()}")
    targets = {"usa": 280, "europe": 200, "rails_and_sails": 150}
    for edition in args.editions.split(","):
        random_game(edition, 4, 0, random.Random(0))  # warm up the per-edition tables
        gps, plies = bench_random_games(edition, args.games)
        target = f"; target >= {targets[edition]}" if edition in targets else ""
        print(f"random 4-player games, scored, {edition:16s} {gps:8.1f} games/s  ({plies:.0f} plies/game{target})")
    for edition in ("usa", "europe", "rails_and_sails"):
        n = max(50, args.games // 2)
        shares = []
        for keep in (False, True):
            share, tracked, full = bench_gc_share(edition, n, keep)
            shares.append(f"{share:5.1f} %")
        print(
            f"garbage collection, {edition:16s} {shares[0]} of game time with no game kept, {shares[1]} with "
            f"{n} kept ({tracked} objects tracked, a full collection {full:.0f} ms)"
        )
    gps, _ = bench_random_games("usa", max(20, args.games // 3), validate=True)
    print(f"random 4-player USA games with play(): {gps:6.1f} games/s  (every move validated)")
    positions = mid_game_positions()
    us, n = bench_legal_listing(positions)
    print(f"legal-move listing, mid-game:       {us:8.1f} us      ({n:.0f} moves on average, fully listed)")
    print(f"push + pop:                         {bench_push_pop(positions):8.2f} us")
    mean, worst, edges = bench_longest_path(dense_networks())
    print(
        f"longest path, 45-car networks:      {mean:8.3f} ms mean, {worst:.3f} ms max ({edges:.1f} routes; target < 1 ms)"
    )
    mb, plies = bench_memory()
    print(f"finished game with full history:    {mb:8.2f} MB      ({plies} plies; target < 10 MB)")


if __name__ == "__main__":
    main()
