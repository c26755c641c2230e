"""Time to a stable top move: prints figures, asserts nothing.

    python benchmarks/bench_stable.py --positions 40 --ladder 16 32 64 128 256 --reference 1024
    python benchmarks/bench_stable.py --agree usa --budgets 400:8 1000:10 --positions 40

``--agree EDITION`` (issue 23 part 4): for held-out mid-game positions of
EDITION (plies 30-150 of 2-4 player playout-policy games, ``--games-seed``
9000 unless told, the seat to move with its history, 2+ candidates), the
top move of :func:`~ttr_lab.analysis.advise` at each budget ``N:C`` (N
playouts over C candidates: the Hint's 10, the hard level's 8) against an
independent run (another seed) at 10N playouts; prints the agreement with
its 95% Wilson interval, the positions where either run leaves the policy's
move, and the advisor's playouts per CPU-second at each budget (with the
kernel where it plays the edition, ``TTR_LAB_KERNEL=0`` for Python).

For mid-game positions (plies 30-150 of 2-4 player USA playout-policy games,
the seat to move, with its history, 2+ candidate moves), the advisor's top
move (:func:`~ttr_lab.analysis.advisor.rank` of
:func:`~ttr_lab.analysis.advisor.evaluate_moves`, as
:func:`~ttr_lab.analysis.advise` does) at each budget of the ladder and at
a larger reference budget.  A position's *stable budget* is the smallest
budget of the ladder from which every larger budget of the ladder gives the
reference's move; a position whose largest ladder budget still disagrees
is not stable within the ladder.  The advisor keeps the playout policy's
own move unless another is clearly better, so many positions are stable at
once; the positions whose reference is another move are counted apart.
Printed: the share of positions stable
at each budget with its 95% Wilson interval, the median stable budget in
playouts, and in seconds at the rate each position's largest run measured
(advisor playouts per second), with the load average, since wall-clock
seconds depend on the machine.

Every budget of a position uses the same seed, so a budget's playouts of a
move begin with the smaller budgets' ones (``halving`` spends them in
rounds: the comparison is the anytime advisor's, not independent runs).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ttr_lab
from ttr_lab.analysis.advisor import evaluate_moves, rank
from ttr_lab.analysis.advisor.candidates import candidate_moves
from ttr_lab.analysis.odds import wilson
from ttr_lab.bots import make_bot


def load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


def positions(seed: int, edition: str = "usa"):
    """Forever: mid-game positions (with their history) of playout-policy games, 2-4 players."""
    i = 0
    while True:
        players = 2 + i % 3
        bots = [make_bot("playout", seed + 100 * i + p) for p in range(players)]
        g = ttr_lab.new_game(edition, players=players, seed=seed + i)
        rng = random.Random(f"stable:{seed}:{i}")
        stops = sorted(rng.sample(range(30, 151), 2))
        while not g.is_over:
            if stops and g.ply >= stops[0] and g.phase.name == "TURN":
                stops.pop(0)
                yield g.copy(stack=True)
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        i += 1


#: the caution rules --agree ranks the same playouts by: (z, delta); advise's own is
#: (Z_DEVIATE, DELTA_DEVIATE), marked in the output (3.0, 0.05 since issue 23)
RULES = ((2.0, 0.02), (2.0, 0.05), (3.0, 0.02), (3.0, 0.05), (2.0, 0.10))


def agree(edition: str, budgets: list[tuple[int, int]], count: int, games_seed: int, dump: str | None) -> None:
    """Top move at N playouts against an independent run at 10N, per budget.

    The search is advise's own (:func:`evaluate_moves` with the policy's move
    protected, the same seeds), so the top move under advise's rule
    (``Z_DEVIATE``, ``DELTA_DEVIATE``) is advise's; the other rules of
    :data:`RULES` re-rank the same playouts (the caution rule
    needs no new playouts), to see whether the flips are at its margin."""
    import json

    from ttr_lab.analysis import kernel_info
    from ttr_lab.analysis.advisor.values import DELTA_DEVIATE, Z_DEVIATE, paired

    own = (Z_DEVIATE, DELTA_DEVIATE)
    if own not in RULES:
        raise SystemExit(f"advise's rule {own} is not among RULES")

    print(f"agreement with 10x, {edition}, budgets {budgets} ({kernel_info()}; {load()})", flush=True)
    same = {(b, r): 0 for b in budgets for r in RULES}
    leave = {(b, r): [0, 0] for b in budgets for r in RULES}
    cpu = {b: [0.0, 0] for b in budgets}
    n = 0
    src = positions(games_seed, edition)
    t0 = time.perf_counter()
    out = open(dump, "a") if dump else None  # noqa: SIM115 - one line a position, flushed
    while n < count:
        s = next(src)
        v = s.view(s.current_player)
        if len(candidate_moves(v, limit=8)) < 2:
            continue
        line: dict[str, object] = {"position": n, "ply": v.ply, "players": v.num_players}
        for b in budgets:
            playouts, cands = b
            moves = candidate_moves(v, limit=cands)
            runs = []
            for k, budget in enumerate((playouts, 10 * playouts)):
                c = time.process_time()
                results, used = evaluate_moves(v, moves, playouts=budget, seed=n + 10**6 * k, protect=0)
                cpu[b][0] += time.process_time() - c
                cpu[b][1] += used
                runs.append(results)
            for r in RULES:
                tops = [rank(res, z=r[0], delta=r[1])[0][0] for res in runs]
                same[(b, r)] += tops[0] == tops[1]
                for k in (0, 1):
                    leave[(b, r)][k] += tops[k] != moves[0]
            info = []
            for res in runs:  # the best other move against the policy's: value difference, paired SE
                best = sorted(res[1:], key=lambda t: (t[2], t[1].key()), reverse=True)[0]
                d, se, _ = paired(best[1], res[0][1])
                info.append([str(best[0]), round(d, 4), round(se, 4), [str(rank(res)[0][0])]])
            line[f"{playouts}:{cands}"] = info
        if out is not None:
            out.write(json.dumps(line) + "\n")
            out.flush()
        n += 1
        if n % 5 == 0:
            done = ", ".join(f"{p}:{c} {same[((p, c), own)]}/{n}" for p, c in budgets)
            print(f"  {n} positions, {(time.perf_counter() - t0) / n:.1f} s each: {done} ({load()})", flush=True)
    print(f"{edition}: {n} held-out positions (plies 30-150, 2-4 players, games seed {games_seed}) ({load()})")
    for b in budgets:
        playouts, cands = b
        print(
            f"  {playouts:6d} vs {10 * playouts:6d} playouts, {cands} candidates "
            f"({cpu[b][1] / max(cpu[b][0], 1e-9):.0f} playouts per CPU-s, {cpu[b][0] / n:.1f} CPU-s a position):"
        )
        for r in RULES:
            k = same[(b, r)]
            lo, hi = wilson(k, n)
            mark = " (advise's rule)" if r == own else ""
            print(
                f"    z={r[0]:.1f} delta={r[1]:.2f}{mark}: top move agrees {k}/{n} = {100 * k / n:.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}]; leaves the policy's move {leave[(b, r)][0]} / {leave[(b, r)][1]}"
            )
    if out is not None:
        out.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agree", metavar="EDITION", help="agreement with a 10x budget for EDITION (see above)")
    ap.add_argument("--budgets", nargs="+", default=["400:8", "1000:10"], help="--agree: N:candidates")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--ladder", type=int, nargs="+", default=[16, 32, 64, 128, 256])
    ap.add_argument("--reference", type=int, default=1024)
    ap.add_argument("--candidates", type=int, default=8, help="as advise's default")
    ap.add_argument("--games-seed", type=int, default=None, help="8000 (ladder), 9000 (--agree)")
    ap.add_argument("--dump", help="--agree: append one JSON line a position to this file")
    args = ap.parse_args()
    if args.agree:
        budgets = [(int(b.split(":")[0]), int(b.split(":")[1])) for b in args.budgets]
        agree(args.agree, budgets, args.positions, 9000 if args.games_seed is None else args.games_seed, args.dump)
        return
    if args.games_seed is None:
        args.games_seed = 8000
    ladder = sorted(args.ladder)
    ref = args.reference
    print(f"time to a stable top move: ladder {ladder} playouts, reference {ref} ({load()})", flush=True)
    stable_at: list[float] = []  # inf: not stable within the ladder
    rates: list[float] = []
    seconds: list[float] = []
    deviating: list[float] = []  # the stable budgets where the reference is not the policy's own move
    src = positions(args.games_seed)
    t0 = time.perf_counter()
    while len(stable_at) < args.positions:
        s = next(src)
        v = s.view(s.current_player)
        moves = candidate_moves(v, limit=args.candidates)
        if len(moves) < 2:
            continue
        n = len(stable_at)
        tops, took = [], []
        for budget in [*ladder, ref]:
            t = time.perf_counter()
            results, _ = evaluate_moves(v, moves, playouts=budget, seed=n)
            took.append(time.perf_counter() - t)
            tops.append(rank(results)[0][0])
        k = len(ladder)
        while k > 0 and tops[k - 1] == tops[-1]:
            k -= 1
        budget_ok = ladder[k] if k < len(ladder) else math.inf
        stable_at.append(budget_ok)
        if tops[-1] != moves[0]:
            deviating.append(budget_ok)
        rate = ref / took[-1]
        rates.append(rate)
        seconds.append(budget_ok / rate)
        if len(stable_at) % 5 == 0:
            print(
                f"  {len(stable_at)} positions, {(time.perf_counter() - t0) / len(stable_at):.1f} s each, "
                f"median stable budget {quartiles(stable_at)[1]} ({load()})",
                flush=True,
            )
    n = len(stable_at)
    never = sum(1 for b in stable_at if b == math.inf)
    print(f"{n} positions (plies 30-150 of 2-4 player USA playout games, 2+ candidates) ({load()})")
    for budget in ladder:
        k = sum(1 for b in stable_at if b <= budget)
        lo, hi = wilson(k, n)
        print(f"  stable by {budget:5d} playouts: {k:3d}/{n} = {100 * k / n:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    lo, hi = wilson(never, n)
    print(f"  not stable within the ladder: {never}/{n} = {100 * never / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    if deviating:
        settled = sorted(deviating)
        print(
            f"  the reference is not the policy's own move in {len(deviating)}/{n}; their stable budgets "
            f"{', '.join(str(b) for b in settled)} playouts"
        )
    q = quartiles(stable_at)
    print(f"  stable budget: median {q[1]} playouts, quartiles {q[0]}-{q[2]} (inf: not within the ladder)")
    print(
        f"  advisor playouts/s at the reference budget: median {statistics.median(rates):.0f} "
        f"(range {min(rates):.0f}-{max(rates):.0f})"
    )
    sq = quartiles(seconds)
    finite = [x for x in seconds if x != math.inf]
    print(
        f"  time to a stable top move at those rates: median {sq[1]:.2f} s, quartiles {sq[0]:.2f}-{sq[2]:.2f} s, "
        f"max {max(finite, default=math.nan):.2f} s among the {len(finite)} stable within the ladder"
    )


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    """Lower quartile, median and upper quartile as order statistics (they may be inf)."""
    s = sorted(xs)
    return s[len(s) // 4], s[len(s) // 2], s[(3 * len(s)) // 4]


if __name__ == "__main__":
    main()
