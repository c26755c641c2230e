"""Ticket-network benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_analysis.py              # all figures
    python benchmarks/bench_analysis.py --hands 100 --old-hands 3

Figures (targets from the project's issue tracker, for one core):

* exact Steiner forest (:func:`ttr_lab.analysis.steiner_forest`, each ticket
  joined in itself) and exact Steiner tree (:func:`ttr_lab.analysis.steiner_tree`,
  every ticket city in one network) for random hands of 1 to 8 tickets of
  every shipped map, on the empty board, through the public API; targets for
  8-ticket hands (16 cities, 8 groups): at most 50 ms mean and 1 s max,
  forest and tree;
* the textbook Dreyfus-Wagner the exact tree used before, side by side, on the
  hands it can still run (at most 10 cities; it took 1.45 s mean on 5-ticket
  World hands);
* 18 cities on the Rails & Sails World map, from tours and from any tickets:
  forest and tree (target < 2 s).

A hand is k two-city tickets of the map with 2k different cities (the most
cities k tickets can have); with ``--any-tickets`` it is any k tickets (World
tours included, cities shared).  "cities" is the mean number of distinct
ticket cities.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ttr_lab
from ttr_lab.analysis import steiner_forest, steiner_tree, ticket_graph
from ttr_lab.analysis.trees import _dreyfus_wagner
from ttr_lab.maps import board_graph

MAPS = ["usa", "europe", "rails_and_sails_world", "rails_and_sails_great_lakes"]


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def timed(fn, *args, **kwargs) -> float:
    t0 = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t0


def fmt(times: list[float]) -> str:
    if not times:
        return f"{'-':>8s} {'-':>8s} {0:>4d}"
    return f"{statistics.mean(times) * 1e3:8.1f} {max(times) * 1e3:8.1f} {len(times):4d}"


def hands(board: ttr_lab.maps.Map, tickets: int, count: int, any_tickets: bool) -> list[list[list[str]]]:
    rng = random.Random(f"{board.id}-{tickets}")
    pool = list(board.tickets) if any_tickets else [t for t in board.tickets if len(t.cities) == 2]
    out: list[list[list[str]]] = []
    while len(out) < count:
        hand = [list(t.cities) for t in rng.sample(pool, tickets)]
        if any_tickets or len({c for g in hand for c in g}) == 2 * tickets:
            out.append(hand)
    return out


def bench_map(name: str, count: int, old_count: int, any_tickets: bool) -> None:
    board = ttr_lab.load_map(name)
    G = board_graph(board)
    H = ticket_graph(G)
    print(f"\n{name} ({G.number_of_nodes()} cities, {G.number_of_edges()} routes)")
    print(
        f"{'tickets':>7s} {'cities':>6s} | {'forest: mean':>12s} {'max':>8s} {'n':>4s} | "
        f"{'tree: mean':>10s} {'max':>8s} {'n':>4s} | {'old tree: mean':>14s} {'max':>8s} {'n':>4s}   (ms)"
    )
    for k in range(1, 9):
        forest, tree, old, cities = [], [], [], []
        for hand in hands(board, k, count, any_tickets):
            terms = list(dict.fromkeys(c for g in hand for c in g))
            cities.append(len(terms))
            forest.append(timed(steiner_forest, G, hand))
            tree.append(timed(steiner_tree, G, terms))
            if len(old) < old_count and len(terms) <= 10:
                old.append(timed(_dreyfus_wagner, H, terms, "length"))
        print(f"{k:7d} {statistics.mean(cities):6.1f} | {fmt(forest):>27s} | {fmt(tree):>25s} | {fmt(old):>29s}")


def eighteen_cities(count: int) -> None:
    world = ttr_lab.load_map("rails_and_sails_world")
    G = board_graph(world)
    tours = [t for t in world.tickets if len(t.cities) > 2]
    print("\nrails_and_sails_world, 18 ticket cities (target < 2 s)")
    print(
        f"{'hand':>26s} | {'forest: mean':>12s} {'max':>8s} {'n':>4s} | {'tree: mean':>10s} {'max':>8s} {'n':>4s}   (ms)"
    )
    for label, pool in (("tours only", tours), ("any tickets", list(world.tickets))):
        rng = random.Random(f"18-{label}")
        forest, tree, groups = [], [], []
        while len(forest) < count:
            picked, cities = [], []
            order = pool[:]
            rng.shuffle(order)
            for t in order:
                joined = list(dict.fromkeys(cities + list(t.cities)))
                if len(joined) <= 18:
                    picked.append(list(t.cities))
                    cities = joined
            if len(cities) != 18:
                continue
            groups.append(len(picked))
            forest.append(timed(steiner_forest, G, picked))
            tree.append(timed(steiner_tree, G, cities))
        label = f"{label} ({statistics.mean(groups):.1f} tickets)"
        print(f"{label:>26s} | {fmt(forest):>27s} | {fmt(tree):>25s}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=50, help="random hands per map and hand size")
    ap.add_argument("--old-hands", type=int, default=5, help="hands per row timed with the old Dreyfus-Wagner")
    ap.add_argument("--maps", default=",".join(MAPS), help="comma-separated map ids")
    ap.add_argument("--any-tickets", action="store_true", help="hands of any tickets, cities shared")
    args = ap.parse_args()
    print(f"ttr_lab {ttr_lab.__version__}, Python {sys.version.split()[0]}, {pin_one_core()}")
    # warm up (imports, map loading)
    steiner_forest(board_graph(ttr_lab.load_map("usa")), [["Boston", "Miami"]])
    for name in args.maps.split(","):
        bench_map(name, args.hands, args.old_hands, args.any_tickets)
    eighteen_cities(max(5, args.hands // 2))


if __name__ == "__main__":
    main()
