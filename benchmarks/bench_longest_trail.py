"""Benchmark ``longest_trail_edges`` on realistic single-player networks.

Builds dense 45-car networks on the USA map with a seeded RNG: start from a
random route, then keep adding a random unclaimed route that touches the
network (routes closing a cycle are favoured, and a player never owns both
halves of a double route) until no route fits in the cars left.  Prints the
network sizes and the mean / max time per call in milliseconds.

Run::

    python benchmarks/bench_longest_trail.py [--networks 300] [--repeat 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ttr_lab.analysis.trails import longest_trail_edges
from ttr_lab.maps import Route, load_map

__all__ = ["random_network", "main"]


def random_network(
    routes: tuple[Route, ...], rng: random.Random, *, cars: int = 45, cycle_bias: float = 4.0
) -> list[Route]:
    """Greedily grow one connected network that uses at most ``cars`` cars."""
    first = rng.choice([r for r in routes if r.length <= cars])
    chosen = [first]
    taken = {first.id}
    cities = {first.a, first.b}
    left = cars - first.length
    while True:
        blocked = taken | {r.double_of for r in chosen if r.double_of is not None}
        options = [r for r in routes if r.id not in blocked and r.length <= left and (r.a in cities or r.b in cities)]
        if not options:
            return chosen
        weights = [cycle_bias if (r.a in cities and r.b in cities) else 1.0 for r in options]
        pick = rng.choices(options, weights=weights)[0]
        chosen.append(pick)
        taken.add(pick.id)
        cities.update(pick.ends)
        left -= pick.length


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--map", default="usa")
    args = parser.parse_args(argv)

    board = load_map(args.map)
    rng = random.Random(args.seed)
    networks = [[(r.id, r.a, r.b, r.length) for r in random_network(board.routes, rng)] for _ in range(args.networks)]
    sizes = [len(n) for n in networks]
    cycles = [len(n) - len({c for e in n for c in e[1:3]}) + 1 for n in networks]
    times = []
    for edges in networks:
        longest_trail_edges(edges)  # warm-up
        start = time.perf_counter()
        for _ in range(args.repeat):
            longest_trail_edges(edges)
        times.append((time.perf_counter() - start) / args.repeat * 1000)
    print(f"map {args.map}: {len(networks)} networks of 45 cars, seed {args.seed}")
    print(f"routes per network: min {min(sizes)}, mean {statistics.mean(sizes):.1f}, max {max(sizes)}")
    print(f"independent cycles: mean {statistics.mean(cycles):.1f}, max {max(cycles)}")
    print(
        f"longest_trail_edges: mean {statistics.mean(times):.3f} ms, "
        f"median {statistics.median(times):.3f} ms, max {max(times):.3f} ms"
    )


if __name__ == "__main__":
    main()
