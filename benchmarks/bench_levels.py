"""The play widget's levels: how long one bot turn takes (the kernel is busy meanwhile).

    python benchmarks/bench_levels.py                       # every level, USA and Rails & Sails
    python benchmarks/bench_levels.py --playouts 8 16 24    # the hard bot at other budgets
    python benchmarks/bench_levels.py --games 4 --maps usa

Prints figures, asserts nothing.  Each game is 2 players: the level's bot
(``ttr_lab.widgets.playing.bots.make_opponent``, built as the widget builds
it) against ``greedy`` in the other seat; every ``choose()`` of the level's
bot is timed, from the first ticket choice to the end of the game.  Forced
moves (one candidate) are answered without a search and count too: they
are bot turns as a player waits for them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ttr_lab
from ttr_lab.bots import make_bot
from ttr_lab.widgets.playing import bots as play_bots


def turn_times(edition: str, seed: int, bot) -> list[float]:
    g = ttr_lab.new_game(edition, players=2, seed=seed)
    other = make_bot("greedy", seed + 1)
    out: list[float] = []
    while not g.is_over:
        p = g.current_player
        view = g.view(p)
        if p == 0:
            t0 = time.perf_counter()
            move = bot.choose(view)
            out.append(time.perf_counter() - t0)
        else:
            move = other.choose(view)
        g.play(move)
    return out


def summary(name: str, ms: list[float], games: int) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"{name:<34} mean {statistics.mean(ms):7.1f} ms  median {statistics.median(ms):7.1f}  "
        f"p95 {p95:7.1f}  max {ms[-1]:7.1f}   (n={len(ms)} turns, {games} games)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--maps", nargs="+", default=["usa", "rails_and_sails"])
    ap.add_argument("--playouts", type=int, nargs="*", default=[], help="hard bot budgets besides the widget's")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; hard = {play_bots.HARD_BUDGET}")
    for edition in args.maps:
        for level in play_bots.level_names():
            ms: list[float] = []
            for s in range(args.games):
                ms += [1000 * t for t in turn_times(edition, 100 + s, play_bots.make_opponent(level, 100 + s))]
            print(summary(f"{edition} {level} ({play_bots.bot_name(level)})", ms, args.games))
        for n in args.playouts:
            from ttr_lab.analysis.advisor import AdvisorBot

            ms = []
            for s in range(args.games):
                ms += [1000 * t for t in turn_times(edition, 100 + s, AdvisorBot(100 + s, playouts=n))]
            print(summary(f"{edition} advisor {n} playouts", ms, args.games))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
