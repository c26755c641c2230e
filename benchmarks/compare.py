"""Two checkouts side by side in one run: prints figures, asserts nothing.

    python benchmarks/compare.py --before /path/to/old/checkout [--after .] [--rounds 3]
    python benchmarks/compare.py --before /path/to/old/checkout --instructions

Runs the same measurement on both checkouts in alternating subprocesses
(before, after, before, after, ...), each pinned to the same core, so both see
the same machine load; prints every round and the best of each.  The
measurement is the headline engine figure: uniformly random 4-player games
played to the end and scored with ``outcome()``, per edition.

``--gc`` measures the cyclic garbage collector instead: the share of the
time of ``--games`` games spent in collections, with every finished game kept
and with none kept, the full collections while playing, and the objects it
tracks at the end.

``--instructions`` counts machine instructions instead of time (needs
``valgrind``, Debian package ``valgrind``): each checkout plays 5 and then 15
games under cachegrind, and the difference over the 10 extra games is the
cost of a game without the start-up (imports, map loading, compiling), which
a plain count over a few games would mix in.  Counts do not depend on the
machine's load, so they compare reliably on a busy machine; they do not
weigh cache misses or branch mispredictions, so wall clock can still differ.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

#: what both measurements start with: the checkout first on the path, one core, and a
#: scored random 4-player game
PRELUDE = r"""
import gc, os, random, sys, time
sys.path.insert(0, sys.argv[1])
try:
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
except (AttributeError, OSError):
    pass
import ttr_lab
def play(edition, seed, rng):
    g = ttr_lab.new_game(edition, players=4, seed=seed)
    while not g.is_over:
        moves = g.legal_moves
        g.push(moves[rng.randrange(len(moves))])
    g.outcome()
    return g
"""

MEASURE = (
    PRELUDE
    + r"""
for edition in sys.argv[3].split(","):
    rng = random.Random(12345)
    g = ttr_lab.new_game(edition, players=4, seed=0)  # warm up the edition's tables
    t0 = time.perf_counter()
    for seed in range(int(sys.argv[2])):
        play(edition, seed, rng)
    print(edition, int(sys.argv[2]) / (time.perf_counter() - t0))
"""
)

MEASURE_GC = (
    PRELUDE
    + r"""
for edition in sys.argv[3].split(","):
    for keep in (False, True):
        ttr_lab.new_game(edition, players=4, seed=0)
        spent, start, full = [0.0], [0.0], [0]
        def watch(phase, info):
            if phase == "start":
                start[0] = time.perf_counter()
            else:
                spent[0] += time.perf_counter() - start[0]
                full[0] += info["generation"] == 2
        kept, rng = [], random.Random(7)
        gc.collect()
        gc.callbacks.append(watch)
        t0 = time.perf_counter()
        for seed in range(int(sys.argv[2])):
            g = play(edition, seed, rng)
            if keep:
                kept.append(g)
        dt = time.perf_counter() - t0
        gc.callbacks.remove(watch)
        gc.collect()
        print(edition, "kept" if keep else "none", 100 * spent[0] / dt, full[0], len(gc.get_objects()))
        del kept, g
"""
)


def gc_figures(root: str, games: int, editions: str) -> list[str]:
    """Per edition and keep mode: the collector's share, full collections, tracked objects."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE_GC, root, str(games), editions], capture_output=True, text=True, check=True
    ).stdout
    rows = []
    for line in out.splitlines():
        ed, mode, share, full, tracked = line.split()
        kept = "every game kept" if mode == "kept" else "no game kept   "
        rows.append(f"{ed:16s} {kept}: GC {float(share):5.1f} % of the time, {full} full, {tracked} tracked")
    return rows


def run(root: str, games: int, editions: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, root, str(games), editions], capture_output=True, text=True, check=True
    ).stdout
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines()}


def count_instructions(argv: list[str], env: dict[str, str] | None = None) -> int:
    """Machine instructions of one process (``argv``) under cachegrind (its ``I refs``)."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *argv]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stderr
    line = next(ln for ln in err.splitlines() if "I   refs" in ln or "I refs" in ln)
    return int(line.split(":")[1].replace(",", "").strip())


def instructions(root: str, games: int, edition: str) -> int:
    """Machine instructions of ``games`` scored random games plus start-up, under cachegrind."""
    return count_instructions([sys.executable, "-c", MEASURE, root, str(games), edition])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--editions", default="usa,europe,rails_and_sails")
    ap.add_argument("--instructions", action="store_true", help="count instructions per game with valgrind")
    ap.add_argument("--gc", action="store_true", help="the garbage collector's share, games kept and not")
    args = ap.parse_args()
    if args.gc:
        for r in range(1, args.rounds + 1):
            for label, root in (("before", args.before), ("after", args.after)):
                for row in gc_figures(root, args.games, args.editions):
                    print(f"round {r} {label:6s} {row}", flush=True)
        return
    if args.instructions:
        for ed in args.editions.split(","):
            per = {}
            for label, root in (("before", args.before), ("after", args.after)):
                per[label] = (instructions(root, 15, ed) - instructions(root, 5, ed)) / 10
            b, a = per["before"], per["after"]
            print(f"  {ed:16s} before {b / 1e6:7.2f}M  after {a / 1e6:7.2f}M instructions/game  ({b / a:.2f}x fewer)")
        return
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    for r in range(1, args.rounds + 1):
        for label, root in (("before", args.before), ("after", args.after)):
            figures = run(root, args.games, args.editions)
            for ed, gps in figures.items():
                best[label][ed] = max(best[label].get(ed, 0.0), gps)
            shown = "  ".join(f"{ed} {gps:6.1f}" for ed, gps in figures.items())
            print(f"round {r} {label:6s} {shown}  games/s")
    print(f"best of {args.rounds} rounds, {args.games} scored random 4-player games per edition and round:")
    for ed in best["after"]:
        b, a = best["before"][ed], best["after"][ed]
        print(f"  {ed:16s} before {b:7.1f}  after {a:7.1f} games/s  ({a / b:.2f}x)")


if __name__ == "__main__":
    main()
