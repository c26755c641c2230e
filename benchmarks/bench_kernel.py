"""The compiled playout kernel against the pure-Python path, side by side in one run (issue 23).

    python benchmarks/bench_kernel.py                      # the table, default sample
    python benchmarks/bench_kernel.py --rounds 7 --games 40

Prints figures, asserts nothing.  CPU time of this process
(``time.process_time``), pinned to one core.  Each round plays the same
starts both ways, interleaved (kernel and ``TTR_LAB_KERNEL=0``, which goes
first alternating by round, after one warm-up game each), so a busy machine slows both alike; the speed-up of a
workload is the ratio of the two CPU times per round, given as the median
over rounds with a 95% bootstrap interval of the mean ratio (2,000
resamples of the rounds).

Workloads (targets from issue 23):

* **playout USA 4p**: :func:`ttr_lab.bots.playout.play_out` (the playout policy
  to the end, scored) from fresh 4-player USA games (target >= 40x);
* **playout Europe 4p**, **playout R&S World 4p**, **playout R&S Lakes 4p**:
  the same (target >= 20x; while the kernel does not play an edition, both
  paths run in Python and the ratio is 1);
* **random USA 4p**, **random Europe 4p**, **random R&S World / Lakes 4p**:
  random scored games, the random bot (``make_bot("random")``) against the
  engine, or the kernel's policy 1 (the same games) (target >= 50x today's
  engine on USA; the other editions' random games, stations, tunnels,
  harbors and exchanges included, are shown against the same 20x).

Every game is checked to be the same both ways (scores and plies).
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
from ttr_lab.bots import RandomBot
from ttr_lab.bots.kernel import ENV, kernel_info
from ttr_lab.bots.kernel.run import finish_of, kernel_playout
from ttr_lab.bots.playout import play_out

#: (label, edition, players, kind, target)
WORKLOADS = (
    ("playout USA 4p", "usa", 4, "playout", 40),
    ("playout Europe 4p", "europe", 4, "playout", 20),
    ("playout R&S World 4p", "rails_sails", 4, "playout", 20),
    ("playout R&S Lakes 4p", "great_lakes", 4, "playout", 20),
    ("random USA 4p, scored", "usa", 4, "random", 50),
    ("random Europe 4p, scored", "europe", 4, "random", 20),
    ("random R&S World 4p, scored", "rails_sails", 4, "random", 20),
    ("random R&S Lakes 4p, scored", "great_lakes", 4, "random", 20),
)


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    except (AttributeError, OSError):
        return "not pinned"


def python_random_game(g, seed: int) -> tuple:
    n = g.num_players
    bots = [RandomBot(seed + p) for p in range(n)]
    start = g.ply
    while not g.is_over:
        p = g.current_player
        g.push(bots[p].choose(g.view(p)))
    f = finish_of(g, g.ply - start)
    return f.scores, f.plies


def kernel_random_game(g, seed: int) -> tuple | None:
    seeds = tuple((seed + p).to_bytes(32, "big") for p in range(g.num_players))
    got = kernel_playout(g, seeds, policy=1)
    return None if got is None else (got[0].scores, got[0].plies)


def one_side(starts, kind: str, compiled: bool) -> tuple[float, list]:
    if compiled:
        os.environ.pop(ENV, None)
    else:
        os.environ[ENV] = "0"
    out = []
    t0 = time.process_time()
    for g, seed in starts:
        if kind == "playout":
            f = play_out(g.copy(), seed=seed)
            out.append((f.scores, f.plies, f.compiled))
        else:
            got = kernel_random_game(g, seed) if compiled else None
            out.append((*got, True) if got is not None else (*python_random_game(g.copy(), seed), False))
    return time.process_time() - t0, out


def bootstrap_mean(xs: list[float], reps: int = 2000, seed: int = 1) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(reps))
    return means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--games", type=int, default=20, help="games per workload and round, each way (default 20)")
    ap.add_argument("--only", default="", help="workloads whose label contains this text")
    args = ap.parse_args()
    if not 1 <= args.rounds <= 100 or not 1 <= args.games <= 10_000:
        ap.error("--rounds is 1 to 100 and --games 1 to 10,000")
    print(f"bench_kernel: {pin_one_core()}; {kernel_info().reason}")
    print(f"{args.rounds} rounds x {args.games} games per workload, each way; CPU time\n")
    work = [w for w in WORKLOADS if args.only.lower() in w[0].lower()]
    ratios: dict[str, list[float]] = {w[0]: [] for w in work}
    rates: dict[str, list[tuple[float, float]]] = {w[0]: [] for w in work}
    compiled_any: dict[str, bool] = {}
    for rnd in range(args.rounds):
        for label, edition, n, kind, _ in work:
            starts = [
                (ttr_lab.new_game(edition, players=n, seed=10_000 * rnd + i), 7 * i + rnd) for i in range(args.games)
            ]
            if rnd == 0:  # warm both paths (tables, caches) before timing
                one_side(starts[:1], kind, True)
                one_side(starts[:1], kind, False)
            if rnd % 2 == 0:  # which side goes first alternates
                fast, a = one_side(starts, kind, True)
                slow, b = one_side(starts, kind, False)
            else:
                slow, b = one_side(starts, kind, False)
                fast, a = one_side(starts, kind, True)
            if [x[:2] for x in a] != [x[:2] for x in b]:
                raise SystemExit(f"{label}: the kernel's games differ from Python's (round {rnd})")
            compiled_any[label] = any(x[2] for x in a)
            ratios[label].append(slow / fast)
            rates[label].append((args.games / fast, args.games / slow))
        print(f"round {rnd + 1}/{args.rounds} done", flush=True)
    os.environ.pop(ENV, None)
    print()
    head = f"{'workload':<28} {'kernel games/CPU-s':>19} {'Python games/CPU-s':>19} {'speed-up (median)':>18}"
    print(head + f" {'95% CI of mean':>16} {'target':>7}  compiled")
    for label, *_rest, target in work:
        k = statistics.median(r[0] for r in rates[label])
        p = statistics.median(r[1] for r in rates[label])
        lo, hi = bootstrap_mean(ratios[label])
        med = statistics.median(ratios[label])
        print(
            f"{label:<28} {k:>19.1f} {p:>19.2f} {med:>17.1f}x {f'[{lo:.1f}, {hi:.1f}]':>16} {f'>={target}x':>7}"
            f"  {'yes' if compiled_any[label] else 'no (Python both ways)'}"
        )
    print(f"\nsample: {args.rounds} rounds x {args.games} games per workload each way; every game the same both ways")


if __name__ == "__main__":
    main()
