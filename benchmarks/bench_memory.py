"""Memory over a long mixed session: prints figures, asserts nothing.

    python benchmarks/bench_memory.py                 # 10,000 games
    python benchmarks/bench_memory.py --games 2000
    python benchmarks/bench_memory.py --root /path/to/other/checkout

Plays uniformly random games to the end, cycling through 7 editions and
variants (USA, USA 1910, Mega, Big Cities, Europe, Rails & Sails World and
Great Lakes), many combinations of options (each combination is a different
edition object, with its own tables and caches) and 2 to 5 seats (each
combination is played with every seat count in turn), the way a long notebook
session, a simulation or a classroom server does.  Every game is scored and
dropped.

Prints the process's resident memory (RSS) right after ``import ttr_lab``
(before any game), after the first ``--warmup`` games and every ``--every``
games, the rise from both, the entries and estimated bytes held by the shared
caches (see ``ttr_lab.engine.rules.caches``), the speed, and a SHA-256 digest of
every game's moves and scores, so two checkouts can be shown to play the same
seeded games (same ``--games``, same digest).

Target (issue 20, item 10): over 10,000 such games, memory grows by at most
50 MB from the start.  Run it with ``--root`` on another checkout to compare
two versions.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import random
import sys
import time
from pathlib import Path

EDITIONS = ("usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes")
SEATS = (2, 3, 4, 5)


def rss_mb() -> float:
    """Resident set size of this process, in MB (Linux /proc)."""
    import resource

    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 1e6


def option_sets() -> list[tuple[str, dict]]:
    """Editions with varied options: 7 editions x a few common options (70 combinations)."""
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
    assert tuple(own) == EDITIONS
    out = []
    for ed, extra in own.items():
        for a, b in itertools.product(common, extra):
            opts = {**a, **b}
            if ed.startswith("rails") or ed == "great_lakes":
                opts.pop("allow_single_draw", None)
            out.append((ed, opts))
    return out


def game_plan(i: int, combos: list[tuple[str, dict]]) -> tuple[str, dict, int]:
    """Game ``i``'s edition, options and seats: every combination meets every seat count."""
    ed, opts = combos[i % len(combos)]
    return ed, opts, SEATS[(i // len(combos)) % len(SEATS)]


def cache_report() -> str:
    try:
        from ttr_lab.engine.rules.caches import cache_bytes, cache_sizes
    except ImportError:  # an older checkout
        try:
            from ttr_lab.engine.rules.caches import cache_sizes
        except ImportError:
            return "shared caches: (not in this checkout)"
        cache_bytes = None
    sizes = cache_sizes()
    lines = [f"shared caches: {len(sizes)} caches, {sum(sizes.values())} entries in all"]
    if cache_bytes is not None:
        lines[0] += f", about {cache_bytes() / 1e6:.1f} MB (estimated)"
    lines[0] += "; the largest:"
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:6]:
        lines.append(f"  {n:7d}  {name}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--every", type=int, default=1000)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="checkout to measure")
    ap.add_argument("--budget", type=float, help="the shared caches' budget in MB (default: the library's)")
    args = ap.parse_args()
    if not 1 <= args.games <= 1_000_000 or not 1 <= args.warmup <= args.games or args.every < 1:
        ap.error("need 1 <= --warmup <= --games <= 1,000,000 and --every >= 1")
    sys.path.insert(0, args.root)
    import ttr_lab

    try:
        from ttr_lab.engine.rules.caches import cache_budget, set_cache_budget
    except ImportError:  # an older checkout: caches bounded by entries only
        budget = "none (an older checkout: each cache bounded by its entries)"
    else:
        if args.budget is not None:
            set_cache_budget(int(args.budget * 1e6))
        budget = f"{cache_budget() / 1e6:g} MB"
    gc.collect()
    start = rss_mb()
    combos = option_sets()
    rng = random.Random(2026)
    digest = hashlib.sha256()
    print(
        f"ttr_lab from {args.root}: {len(EDITIONS)} editions, {len(combos)} edition/option combinations,"
        f" {SEATS[0]}-{SEATS[-1]} seats, {args.games} games; the shared caches' budget: {budget}"
    )
    print(f"after      0 games: RSS {start:7.1f} MB (start, ttr_lab imported)")
    baseline, peak = None, start
    t0 = time.perf_counter()
    plies = 0
    for i in range(1, args.games + 1):
        ed, opts, seats = game_plan(i, combos)
        g = ttr_lab.new_game(ed, players=seats, seed=i, **opts)
        while not g.is_over:
            moves = g.legal_moves
            g.push(moves[rng.randrange(len(moves))])
        totals = [p.total for p in g.outcome().players]
        plies += len(g.move_stack)
        digest.update(f"{i} {ed} {seats} {' '.join(map(str, g.move_stack))} {totals}\n".encode())
        del g
        if i == args.warmup or i % args.every == 0 or i == args.games:
            gc.collect()
            now = rss_mb()
            peak = max(peak, now)
            since = "" if baseline is None else f", {now - baseline:+.1f} since game {args.warmup}"
            print(
                f"after {i:6d} games: RSS {now:7.1f} MB  ({now - start:+.1f} MB since the start{since})"
                f"  [{time.perf_counter() - t0:.0f} s]",
                flush=True,
            )
            if i == args.warmup:
                baseline = now
    elapsed = time.perf_counter() - t0
    print(f"peak RSS {peak:.1f} MB: {peak - start:+.1f} MB over the start (target: at most +50 MB)")
    print(f"speed: {args.games / elapsed:.1f} games/s, {plies / elapsed:.0f} plies/s (whole mix, this machine)")
    print(f"games digest (sha256 of moves and scores): {digest.hexdigest()}")
    print(cache_report())


if __name__ == "__main__":
    main()
