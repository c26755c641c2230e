"""Playout policy and advisor benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_advisor.py --only speed          # playout vs greedy games/s per edition
    python benchmarks/bench_advisor.py --only strength --games 40 --playouts 24
    python benchmarks/bench_advisor.py --only calibration --positions 400
    python benchmarks/bench_advisor.py --only stability --positions 40

Figures (targets from the project's issue tracker):

* **speed**: 4-player games per second of the playout policy and of the
  greedy bot, per edition, in one run on one core (target: playout >= 10x
  greedy's 17 / 14 / 9 games/s for USA / Europe / Rails & Sails);
* **strength**: win rates, seat-swapped 2-player USA games (each deal played
  twice, seats exchanged), with 95% Wilson intervals: playout vs greedy, and
  the advisor (``--playouts`` per move) vs greedy; ties count half;
* **advisor**: playouts per second of :func:`ttr_lab.analysis.advise` on
  mid-game positions;
* **calibration**: positions every ``--every`` plies of playout-policy games
  (2 and 3 players); the win chance of one seat (the seat to move: the
  advice's top move) against who won; deciles table, Brier score, and the
  baseline "the current points leader wins" (ties shared);
* **stability**: mid-game positions, the top move at ``--playouts`` and at
  10x that budget, agreement rate with its interval.
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
from ttr_lab.analysis import advise
from ttr_lab.analysis.odds import wilson
from ttr_lab.bots import make_bot


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    except (AttributeError, OSError):  # pragma: no cover
        return "not pinned"


def load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


def play(edition: str, bots: list, seed: int, players: int | None = None) -> ttr_lab.GameState:
    g = ttr_lab.new_game(edition, players=players or len(bots), seed=seed)
    while not g.is_over:
        p = g.current_player
        g.push(bots[p].choose(g.view(p)))
    return g


def share(g: ttr_lab.GameState, seat: int) -> float:
    w = g.outcome().winners
    return 1.0 / len(w) if seat in w else 0.0


def interval(k: float, n: int) -> str:
    lo, hi = wilson(k, n)  # type: ignore[arg-type]
    return f"{100 * k / max(1, n):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={n})"


# ---------------------------------------------------------------- speed
def speed(games: int) -> None:
    print(f"4-player games per second, one core ({load()})")
    for ed in ("usa", "europe", "rails_and_sails"):
        row = []
        for name in ("greedy", "playout"):
            t = time.perf_counter()
            for i in range(games):
                play(ed, [make_bot(name, 10 * i + p) for p in range(4)], seed=i)
            rate = games / (time.perf_counter() - t)
            row.append(rate)
            print(f"  {ed:16s} {name:8s} {rate:7.1f} games/s  ({games} games)", flush=True)
        print(f"  {ed:16s} playout / greedy = {row[1] / row[0]:.1f}x")


# ---------------------------------------------------------------- strength
def match(name: str, pairs: int, make, seed: int = 0) -> None:
    """``pairs`` deals, each played twice with seats swapped; ``make(seat, i)`` -> (hero, villain)."""
    k, n, t = 0.0, 0, time.perf_counter()
    for i in range(pairs):
        for hero_seat in (0, 1):
            hero, villain = make(i)
            bots = [hero, villain] if hero_seat == 0 else [villain, hero]
            g = play("usa", bots, seed=seed + i)
            k += share(g, hero_seat)
            n += 1
        print(f"  {name}: {interval(k, n)} after {n} games, {(time.perf_counter() - t) / n:.1f} s/game", flush=True)
    print(f"{name}, 2-player USA, seat-swapped: {interval(k, n)} ({load()})")


def strength(pairs: int, playouts: int, which: str) -> None:
    if which in ("both", "playout"):
        match("playout vs greedy", pairs * 5, lambda i: (make_bot("playout", i), make_bot("greedy", 1000 + i)))
    if which in ("both", "advisor"):
        from ttr_lab.analysis import AdvisorBot

        match(
            f"advisor ({playouts} playouts/move) vs greedy",
            pairs,
            lambda i: (AdvisorBot(i, playouts=playouts), make_bot("greedy", 1000 + i)),
            seed=500,
        )


# ---------------------------------------------------------------- positions
def positions(
    count: int, every: int, seed: int, mid: bool = False
) -> list[tuple[ttr_lab.GameState, ttr_lab.GameState]]:
    """(position, finished game) pairs from playout-policy games of 2 and 3 players."""
    out = []
    i = 0
    while len(out) < count:
        players = 2 + i % 2
        g = ttr_lab.new_game("usa", players=players, seed=seed + i)
        bots = [make_bot("playout", 100 * i + p) for p in range(players)]
        snaps = []
        while not g.is_over:
            if g.ply % every == every - 1 and (not mid or 30 <= g.ply <= 150):
                snaps.append(g.copy())
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        out.extend((s, g) for s in snaps)
        i += 1
    return out[:count]


def calibration(count: int, every: int, playouts: int) -> None:
    pos = positions(count, every, seed=2000)
    rows = []
    t = time.perf_counter()
    used = 0
    for s, end in pos:
        p = s.current_player
        a = advise(s.view(p), playouts=playouts, seed=len(rows), progress=False, explain=False)
        used += a.playouts
        scores = s.scores
        top = max(scores)
        leaders = [q for q, v in enumerate(scores) if v == top]
        rows.append((a.win_probabilities[p], share(end, p), (1 / len(leaders)) if p in leaders else 0.0))
    dt = time.perf_counter() - t
    print(
        f"calibration: {len(rows)} positions (every {every} plies of 2- and 3-player playout games), "
        f"{playouts} playouts each; advisor {used / dt:.0f} playouts/s ({load()})"
    )
    print("  decile      n   predicted  observed [95%]")
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        sel = [r for r in rows if lo <= r[0] < hi or (d == 9 and r[0] == 1.0)]
        if not sel:
            continue
        pred = statistics.fmean(r[0] for r in sel)
        k = sum(r[1] for r in sel)
        wl, wh = wilson(k, len(sel))  # type: ignore[arg-type]
        print(
            f"  {lo:.1f}-{hi:.1f}  {len(sel):5d}   {100 * pred:6.1f}%   {100 * k / len(sel):6.1f}% "
            f"[{100 * wl:.1f}, {100 * wh:.1f}]"
        )
    brier = statistics.fmean((r[0] - r[1]) ** 2 for r in rows)
    base = statistics.fmean((r[2] - r[1]) ** 2 for r in rows)
    # a bootstrap interval of the difference
    rng = random.Random(0)
    diffs = []
    for _ in range(400):
        smp = [rows[rng.randrange(len(rows))] for _ in rows]
        diffs.append(statistics.fmean((r[2] - r[1]) ** 2 - (r[0] - r[1]) ** 2 for r in smp))
    diffs.sort()
    print(
        f"  Brier score: advisor {brier:.3f}, 'current points leader wins' {base:.3f}; "
        f"baseline - advisor = {base - brier:.3f} [{diffs[9]:.3f}, {diffs[389]:.3f}] (bootstrap 95%)"
    )


def stability(count: int, playouts: int) -> None:
    pos = positions(count, 17, seed=3000, mid=True)
    same = 0
    n = 0
    t = time.perf_counter()
    for i, (s, _) in enumerate(pos):
        v = s.view(s.current_player)
        small = advise(v, playouts=playouts, seed=i, progress=False, explain=False)
        if len(small.moves) < 2:
            continue
        big = advise(v, playouts=10 * playouts, seed=10_000 + i, progress=False, explain=False)
        same += small.moves[0].move == big.moves[0].move
        n += 1
    print(
        f"stability: top move at {playouts} playouts = top move at {10 * playouts}: {interval(same, n)} "
        f"of mid-game positions with 2+ candidates, {(time.perf_counter() - t) / max(1, n):.1f} s/position ({load()})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="speed,strength,calibration,stability")
    ap.add_argument("--games", type=int, default=20, help="games per edition and bot (speed); deal pairs (strength)")
    ap.add_argument("--playouts", type=int, default=24, help="advisor playouts per move / position")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--every", type=int, default=15)
    ap.add_argument("--which", default="both", help="strength: playout, advisor or both")
    args = ap.parse_args()
    parts = args.only.split(",")
    if "speed" in parts:
        print(pin_one_core())
        speed(args.games)
    if "strength" in parts:
        strength(args.games, args.playouts, args.which)
    if "calibration" in parts:
        calibration(args.positions, args.every, args.playouts)
    if "stability" in parts:
        stability(args.positions, args.playouts)


if __name__ == "__main__":
    main()
