"""The advisor's calibration and stability: prints figures, asserts nothing.

    python benchmarks/bench_calibration.py collect --games-seed 5000 --positions 1000 --out /tmp/calib-test.jsonl
    python benchmarks/bench_calibration.py fit /tmp/calib-train.jsonl          # the recalibration's constants
    python benchmarks/bench_calibration.py report /tmp/calib-test.jsonl        # deciles, Brier vs the leader
    python benchmarks/bench_calibration.py bias --positions 80 --playouts 8    # where the bias comes from
    python benchmarks/bench_calibration.py stability --positions 100 --playouts 200

* **collect**: positions every ``--every`` plies of USA bot games (2, 3 and
  4 players in turn; each seat the playout policy, or the greedy bot with
  chance ``--greedy``), *with their history* (the seat remembers what it saw:
  face-up picks, the tickets others kept, their draws); one seat's view of
  each (any seat, at random: the seat to move gets the advice's top move,
  another seat the position's chances), :func:`~ttr_lab.analysis.advise` at
  ``--playouts`` (deterministic); one JSON line per position: the seat's raw
  win chance, the playouts behind it, the players, whether it won (ties
  shared) and whether it leads on points.
* **fit**: the recalibration's three constants by maximum likelihood
  (logistic regression of the outcome on the raw chance's logit and the
  logit of 1 / players; see :func:`ttr_lab.analysis.advisor.calibrate`).
  Fit on games other than those reported.
* **report**: per decile of the predicted chance, the count, the mean
  prediction and the observed win rate with its 95% Wilson interval, raw
  and recalibrated; Brier scores against the baseline "the current points
  leader wins" (ties shared) and against 1 / players, with bootstrap 95%
  intervals of the differences.
* **bias**: the seat to move's mean predicted chance (playouts of the
  policy, no move choice) from the true state (a diagnostic that reads
  hidden information), from determinized states with the true tickets, and
  from determinized states (uniform and weighted) against its observed wins.
* **stability**: mid-game positions (plies 30-150), the top move at
  ``--playouts`` and at 10x that budget (other seeds); the agreement rate
  with its Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
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


def load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


def share(g: ttr_lab.GameState, seat: int) -> float:
    w = g.outcome().winners
    return 1.0 / len(w) if seat in w else 0.0


def interval(k: float, n: int) -> str:
    lo, hi = wilson(k, n)  # type: ignore[arg-type]
    return f"{100 * k / max(1, n):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={n})"


def games(seed: int, every: int, greedy: float, mid: bool = False):
    """Forever: (position with its history, finished game, bots) from USA bot games of 2, 3 and 4 players."""
    i = 0
    while True:
        players = 2 + i % 3
        rng = random.Random(f"calib:{seed}:{i}")
        names = ["greedy" if rng.random() < greedy else "playout" for _ in range(players)]
        bots = [make_bot(n, seed + 100 * i + p) for p, n in enumerate(names)]
        g = ttr_lab.new_game("usa", players=players, seed=seed + i)
        snaps = []
        while not g.is_over:
            if g.ply % every == every - 1 and g.phase.name == "TURN" and (not mid or 30 <= g.ply <= 150):
                snaps.append(g.copy(stack=True))
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        for s in snaps:
            yield s, g, names
        i += 1


def collect(args: argparse.Namespace) -> None:
    out = open(args.out, "a")  # noqa: SIM115 - appended to line by line, closed at exit
    t = time.perf_counter()
    rng = random.Random(args.games_seed)
    src = games(args.games_seed, args.every, args.greedy)
    for k in range(args.positions):
        s, end, names = next(src)
        p = rng.randrange(s.num_players)
        a = advise(s.view(p), playouts=args.playouts, seed=k, progress=False, explain=False, calibrated=False)
        n = a.moves[0].playouts if a.moves else a.playouts
        top = max(s.scores)
        leaders = [q for q, v in enumerate(s.scores) if v == top]
        row = {
            "p": a.win_probabilities[p],
            "n": n,
            "players": s.num_players,
            "mover": p == s.current_player,
            "ply": s.ply,
            "won": share(end, p),
            "leader": (1 / len(leaders)) if p in leaders else 0.0,
            "bot": names[p],
        }
        out.write(json.dumps(row) + "\n")
        out.flush()
        if k % 50 == 49:
            print(f"{k + 1} positions, {(time.perf_counter() - t) / (k + 1):.2f} s each ({load()})", flush=True)
    print(f"collected {args.positions} positions in {time.perf_counter() - t:.0f} s ({load()})")


def read(path: str) -> list[dict]:
    return [json.loads(line) for line in open(path) if line.strip()]


def logit(x: float) -> float:
    return math.log(x / (1 - x))


def features(r: dict) -> tuple[float, float, float]:
    from ttr_lab.analysis.advisor_calibration import _smoothed

    return (logit(_smoothed(r["p"], r["n"], r["players"])), logit(1 / r["players"]), 1.0)


def fit(args: argparse.Namespace) -> None:
    """Logistic regression by Newton's method (3 parameters)."""
    rows = read(args.file)
    X = [features(r) for r in rows]
    y = [r["won"] for r in rows]
    w = [1.0, 0.0, 0.0]
    for _ in range(50):
        g = [0.0] * 3
        H = [[0.0] * 3 for _ in range(3)]
        for x, t in zip(X, y):
            z = sum(a * b for a, b in zip(w, x))
            q = 1 / (1 + math.exp(-z))
            for i in range(3):
                g[i] += (t - q) * x[i]
                for j in range(3):
                    H[i][j] += q * (1 - q) * x[i] * x[j]
        step = solve(H, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-10:
            break
    print(f"fit on {len(rows)} positions of {args.file}: CALIBRATION = ({w[0]:.4f}, {w[1]:.4f}, {w[2]:.4f})")


def solve(A: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[piv] = M[piv], M[c]
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def deciles(rows: list[dict], key: str) -> float:
    """Prints the table; returns the largest |predicted - observed| of a decile."""
    print("  decile      n   predicted  observed [95%]            gap")
    worst = 0.0
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        sel = [r for r in rows if lo <= r[key] < hi or (d == 9 and r[key] == 1.0)]
        if not sel:
            continue
        pred = statistics.fmean(r[key] for r in sel)
        k = sum(r["won"] for r in sel)
        wl, wh = wilson(k, len(sel))  # type: ignore[arg-type]
        gap = k / len(sel) - pred
        worst = max(worst, abs(gap))
        print(
            f"  {lo:.1f}-{hi:.1f}  {len(sel):5d}   {100 * pred:6.1f}%   {100 * k / len(sel):6.1f}% "
            f"[{100 * wl:5.1f}, {100 * wh:5.1f}]   {100 * gap:+5.1f}"
        )
    return worst


def brier_gain(rows: list[dict], a: str, b: str) -> str:
    """Brier(b) - Brier(a), with a bootstrap 95% interval."""
    rng = random.Random(0)
    d = [(r[b] - r["won"]) ** 2 - (r[a] - r["won"]) ** 2 for r in rows]
    boots = sorted(statistics.fmean(d[rng.randrange(len(d))] for _ in d) for _ in range(1000))
    return f"{statistics.fmean(d):+.4f} [{boots[24]:+.4f}, {boots[974]:+.4f}]"


def report(args: argparse.Namespace) -> None:
    from ttr_lab.analysis.advisor_calibration import calibrate

    rows = read(args.file)
    for r in rows:
        r["cal"] = calibrate(r["p"], r["n"], r["players"])
        r["prior"] = 1 / r["players"]
    movers = sum(r["mover"] for r in rows)
    print(
        f"calibration: {len(rows)} positions of {args.file} ({movers} seen by the seat to move; "
        f"players {sorted({r['players'] for r in rows})}; playouts behind a chance: median "
        f"{statistics.median(r['n'] for r in rows):.0f})"
    )
    print("raw Monte Carlo chance:")
    raw = deciles(rows, "p")
    print("recalibrated (advise's default):")
    cal = deciles(rows, "cal")
    print(f"  largest decile gap: raw {100 * raw:.1f} points, recalibrated {100 * cal:.1f} points")
    for key, name in (("p", "raw"), ("cal", "recalibrated"), ("leader", "leader wins"), ("prior", "1 / players")):
        print(f"  Brier {name:13s} {statistics.fmean((r[key] - r['won']) ** 2 for r in rows):.4f}")
    print(f"  Brier(leader) - Brier(recalibrated) = {brier_gain(rows, 'cal', 'leader')} (bootstrap 95%)")
    print(f"  Brier(leader) - Brier(raw)          = {brier_gain(rows, 'p', 'leader')}")
    print(f"  Brier(1/players) - Brier(recalibrated) = {brier_gain(rows, 'cal', 'prior')}")
    for part, sel in (
        ("the seat to move", [r for r in rows if r["mover"]]),
        ("another seat", [r for r in rows if not r["mover"]]),
    ):
        if sel:
            print(
                f"  {part}: predicted {100 * statistics.fmean(r['cal'] for r in sel):.1f}% "
                f"(raw {100 * statistics.fmean(r['p'] for r in sel):.1f}%), observed "
                f"{interval(sum(r['won'] for r in sel), len(sel))}"
            )
    for n in sorted({r["players"] for r in rows}):
        sel = [r for r in rows if r["players"] == n]
        print(
            f"  {n} players: predicted {100 * statistics.fmean(r['cal'] for r in sel):.1f}% "
            f"(raw {100 * statistics.fmean(r['p'] for r in sel):.1f}%), observed "
            f"{interval(sum(r['won'] for r in sel), len(sel))}"
        )


def bias(args: argparse.Namespace) -> None:
    from ttr_lab.analysis.determinize import iter_states
    from ttr_lab.playout import run_playout

    src = games(args.games_seed, args.every, args.greedy)
    pos = [next(src) for _ in range(args.positions)]
    obs = [share(end, s.current_player) for s, end, _ in pos]
    print(
        f"bias: {len(pos)} positions, {args.playouts} playouts each, the seat to move's view; "
        f"observed {interval(sum(obs), len(obs))} ({load()})"
    )
    for kind in ("true state (diagnostic)", "true tickets (diagnostic)", "uniform", "weighted"):
        pred = []
        for i, (s, _, _) in enumerate(pos):
            p = s.current_player
            states = (
                None if kind.startswith("true state") else iter_states(s.view(p), seed=i, weighted=kind == "weighted")
            )
            w = 0.0
            for j in range(args.playouts):
                if states is None:
                    start = s.copy()
                elif kind.startswith("true tickets"):
                    x, truth = next(states).to_dict(), s.to_dict()
                    for key in ("tickets", "ticket_deck", "pending", "setup_deal"):
                        x[key] = truth[key]
                    start = ttr_lab.GameState.from_dict(x, "diagnostic")
                else:
                    start = next(states)
                w += share(run_playout(start, seed=j), p)
            pred.append(w / args.playouts)
        brier = statistics.fmean((a - b) ** 2 for a, b in zip(pred, obs))
        print(f"  {kind:26s} predicted {100 * statistics.fmean(pred):5.1f}%  Brier {brier:.3f}", flush=True)


def stability(args: argparse.Namespace) -> None:
    """The same playouts as :func:`advise` (``evaluate_moves`` of its
    candidates), ranked by the advisor's rule and, for comparison, by the
    earlier one (z=1, no minimum gain)."""
    from ttr_lab.analysis.advisor import candidate_moves, evaluate_moves, rank

    src = games(args.games_seed, 17, 0.0, mid=True)
    rules = {"advisor (z=2, delta=0.02)": {}, "earlier (z=1, delta=0)": {"z": 1.0, "delta": 0.0}}
    same = dict.fromkeys(rules, 0)
    deviates = {k: [0, 0] for k in rules}
    n = 0
    t = time.perf_counter()
    while n < args.positions:
        s, _, _ = next(src)
        v = s.view(s.current_player)
        moves = candidate_moves(v, limit=10)
        if len(moves) < 2:
            continue
        small, _ = evaluate_moves(v, moves, playouts=args.playouts, seed=n, protect=0)
        big, _ = evaluate_moves(v, moves, playouts=10 * args.playouts, seed=10_000 + n, protect=0)
        n += 1
        for name, kw in rules.items():
            a, b = rank(small, **kw)[0][0], rank(big, **kw)[0][0]
            same[name] += a == b
            deviates[name][0] += a != moves[0]
            deviates[name][1] += b != moves[0]
        if n % 5 == 0:
            agree = ", ".join(f"{name.split()[0]} {same[name]}/{n}" for name in rules)
            print(f"  {n} positions, {(time.perf_counter() - t) / n:.1f} s each, agree: {agree} ({load()})", flush=True)
    print(
        f"stability: {n} mid-game positions (plies 30-150 of 2-4 player USA playout games, 2+ candidates), "
        f"top move at {args.playouts} playouts vs at {10 * args.playouts} (other seeds) ({load()})"
    )
    for name in rules:
        d0, d1 = deviates[name]
        print(
            f"  {name}: agree {interval(same[name], n)}; top move other than the policy's: "
            f"{d0} at {args.playouts}, {d1} at {10 * args.playouts}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["collect", "fit", "report", "bias", "stability"])
    ap.add_argument("file", nargs="?", help="fit / report: the collected JSON lines")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--playouts", type=int, default=32)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--greedy", type=float, default=0.25, help="the chance that a seat is the greedy bot")
    ap.add_argument("--games-seed", type=int, default=5000)
    ap.add_argument("--out", default="", help="collect / stability: append JSON lines here")
    args = ap.parse_args()
    {"collect": collect, "fit": fit, "report": report, "bias": bias, "stability": stability}[args.what](args)


if __name__ == "__main__":
    main()
