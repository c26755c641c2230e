"""Memory over a long mixed session: prints figures, asserts nothing.

    python benchmarks/bench_memory.py                 # 10,000 games
    python benchmarks/bench_memory.py --games 2000

Plays uniformly random 4-player games to the end, cycling through every
edition and through many combinations of options (each combination is a
different edition object, with its own tables and caches), the way a long
notebook session or a simulation does.  Every game is scored and dropped.
Prints the process's resident memory (RSS) after the first ``--warmup``
games and every ``--every`` games, and the entries held by the shared caches
(see ``ttr_lab.core.caches``).

Target (the foundation issue): over 10,000 such games, memory grows by at
most 50 MB after warm-up.  Run it with ``--root`` on another checkout to
compare two versions.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import sys
import time
from pathlib import Path


def rss_mb() -> float:
    """Resident set size of this process, in MB (Linux /proc)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import resource

    return pages * resource.getpagesize() / 1e6


def option_sets() -> list[tuple[str, dict]]:
    """Editions with varied options: 7 editions x a few common options."""
    common = [
        {},
        {"max_consecutive_resets": 3},
        {"first_player": "random"},
        {"deal_row_after_tickets": True},
        {"allow_single_draw": True},
        {"max_consecutive_resets": 3, "deal_row_after_tickets": True},
        {"first_player": 1, "max_consecutive_resets": 2},
    ]
    own = {
        "usa": [{"tiebreak": "shared"}],
        "1910": [{"tiebreak": "shared"}],
        "mega": [{}],
        "big_cities": [{"tiebreak": "shared"}],
        "europe": [{}],
        "rails_and_sails": [{"tour_order": "walk"}, {"harbor_wilds": False}, {"tiebreak": "completed_tickets"}],
        "great_lakes": [{"tour_order": "simple_path"}, {"harbor_wilds": False}],
    }
    out = []
    for ed, extra in own.items():
        for a, b in itertools.product(common, extra):
            opts = {**a, **b}
            if ed.startswith("rails") or ed == "great_lakes":
                opts.pop("allow_single_draw", None)
            out.append((ed, opts))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--every", type=int, default=2000)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="checkout to measure")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import ttr_lab

    combos = option_sets()
    rng = random.Random(2026)
    print(f"ttr_lab from {args.root}: {len(combos)} edition/option combinations, {args.games} games")
    start = None
    t0 = time.perf_counter()
    for i in range(1, args.games + 1):
        ed, opts = combos[i % len(combos)]
        g = ttr_lab.new_game(ed, players=4, seed=i, **opts)
        while not g.is_over:
            moves = g.legal_moves
            g.push(moves[rng.randrange(len(moves))])
        g.outcome()
        del g
        if i == args.warmup:
            gc.collect()
            start = rss_mb()
            print(f"after {i:6d} games: RSS {start:7.1f} MB (baseline)")
        elif start is not None and (i % args.every == 0 or i == args.games):
            gc.collect()
            now = rss_mb()
            print(
                f"after {i:6d} games: RSS {now:7.1f} MB  ({now - start:+.1f} MB since the baseline)"
                f"  [{time.perf_counter() - t0:.0f} s]"
            )
    try:
        from ttr_lab.core.caches import cache_sizes
    except ImportError:  # an older checkout
        return
    sizes = cache_sizes()
    print(f"shared caches: {len(sizes)} caches, {sum(sizes.values())} entries in all; the largest:")
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:6]:
        print(f"  {n:7d}  {name}")


if __name__ == "__main__":
    main()
