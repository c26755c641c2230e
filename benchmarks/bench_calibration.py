"""The advisor's calibration and stability: prints figures, asserts nothing.

    D=benchmarks/results/calibration
    python benchmarks/bench_calibration.py collect --games-seed 9000 --positions 1000 --playouts 24 --out $D/fit-9000.jsonl
    python benchmarks/bench_calibration.py fit $D/fit-*.jsonl        # the recalibration's constants
    python benchmarks/bench_calibration.py report $D/test-*.jsonl    # deciles, Brier vs the leader
    python benchmarks/bench_calibration.py bias --positions 80 --playouts 8    # where the bias comes from
    python benchmarks/bench_calibration.py stability --positions 100 --playouts 200

* **collect**: positions every ``--every`` plies of USA bot games (2, 3 and
  4 players in turn; each seat the playout policy, or the greedy bot with
  chance ``--greedy``), *with their history* (the seat remembers what it saw:
  face-up picks, the tickets others kept, their draws); one seat's view of
  each (any seat, at random: the seat to move gets the advice's top move,
  another seat the position's chances), :func:`~ttr_lab.analysis.advise` at
  ``--playouts`` (deterministic); one JSON line per position: the games
  seed and the position's index, the seat's raw win chance, the playouts
  behind it, the players, the pieces left, whether it won (ties shared) and
  whether it leads on points.  Resumable: positions already in ``--out``
  (same games seed) are checked and skipped, so a stopped run continues with
  the same command.  A position whose advice raises TtrError is recorded
  with its ``error`` (and left out of fit and report).
* **fit**: the recalibration's constants by maximum likelihood (logistic
  regression of the outcome on
  :func:`~ttr_lab.analysis.advisor.calibration.features`: the raw chance's
  logit, the logit of 1 / players and the fraction of pieces left to the
  seat with the fewest; see :func:`ttr_lab.analysis.advisor.calibrate`).
  Fit on games other than those reported.
* **report**: per decile of the predicted chance, the count, the mean
  prediction and the observed win rate with its 95% Wilson interval (as if
  positions were independent), the gap with a 95% interval from a bootstrap
  of whole games (a game's positions share its outcome), raw and
  recalibrated; Brier scores against the baseline "the current points
  leader wins" (ties shared) and against 1 / players, with bootstrap (of
  games) 95% intervals, of the scores and of the differences.
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
    """Appends to ``--out``; positions already there (the same games seed) are
    skipped, checked against the regenerated ones, so a run can be stopped
    and continued with the same command."""
    done = []
    if os.path.exists(args.out):
        done = [r for r in lines(args.out) if r.get("seed") == args.games_seed]
    out = open(args.out, "a")  # noqa: SIM115 - appended to line by line, closed at exit
    t = time.perf_counter()
    rng = random.Random(args.games_seed)
    src = games(args.games_seed, args.every, args.greedy)
    new = 0
    for k in range(args.positions):
        s, end, names = next(src)
        p = rng.randrange(s.num_players)
        if k < len(done):
            r = done[k]
            if (r["k"], r["ply"], r["players"], r["seat"]) != (k, s.ply, s.num_players, p):
                raise SystemExit(f"{args.out}: line {k} is not position {k} of games seed {args.games_seed}")
            continue
        row: dict = {"seed": args.games_seed, "k": k, "players": s.num_players, "seat": p, "ply": s.ply}
        try:
            a = advise(s.view(p), playouts=args.playouts, seed=k, progress=False, explain=False, calibrated=False)
        except ttr_lab.TtrError as e:  # recorded (and left out of fit / report), so a rerun skips it too
            out.write(json.dumps({**row, "error": str(e)}) + "\n")
            out.flush()
            print(f"position {k} (ply {s.ply}, seat {p}): {e}", flush=True)
            continue
        top = max(s.scores)
        leaders = [q for q, v in enumerate(s.scores) if v == top]
        row |= {
            "p": a.win_probabilities[p],
            "n": a.moves[0].playouts if a.moves else a.playouts,
            "mover": p == s.current_player,
            "pieces": list(s.view(p).pieces),
            "start": s.edition.pieces,
            "won": share(end, p),
            "leader": (1 / len(leaders)) if p in leaders else 0.0,
            "bot": names[p],
        }
        out.write(json.dumps(row) + "\n")
        out.flush()
        new += 1
        if new % 50 == 0:
            print(f"{k + 1} positions, {(time.perf_counter() - t) / new:.2f} s each new ({load()})", flush=True)
    print(f"{args.positions} positions ({len(done)} already there) in {time.perf_counter() - t:.0f} s ({load()})")


def lines(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def read(paths: list[str]) -> list[dict]:
    """The positions of the JSON lines files ``paths``, without those whose
    advice failed, each with ``game`` (games seed, game index: a game's
    positions are correlated, so intervals resample games)."""
    rows = []
    for path in paths:
        prev: dict = {}
        game = -1
        for r in lines(path):
            if not prev or r["seed"] != prev["seed"] or r["ply"] <= prev["ply"] or r["players"] != prev["players"]:
                game += 1
            r["game"] = (path, r["seed"], game)
            prev = r
            if "error" not in r:
                rows.append(r)
    return rows


def features(r: dict) -> tuple[float, ...]:
    from ttr_lab.analysis.advisor.calibration import features as f

    return f(r["p"], r["n"], r["players"], min(r["pieces"]) / r["start"])


def fit(args: argparse.Namespace) -> None:
    """Logistic regression by Newton's method (the parameters of
    :func:`~ttr_lab.analysis.advisor.calibration.features`)."""
    rows = read(args.files)
    X = [features(r) for r in rows]
    y = [r["won"] for r in rows]
    w = newton(X, y)
    print(
        f"fit on {len(rows)} positions ({len({r['game'] for r in rows})} games) of {' '.join(args.files)}: "
        f"CALIBRATION = ({', '.join(f'{x:.4f}' for x in w)})"
    )
    print(f"  monotone in the raw chance: {w[0] > 0} (the slope of its logit: {w[0]:.4f})")


def newton(X: list[tuple[float, ...]], y: list[float]) -> list[float]:
    k = len(X[0])
    w = [0.0] * k
    for _ in range(100):
        g = [0.0] * k
        H = [[0.0] * k for _ in range(k)]
        for x, t in zip(X, y):
            q = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x))))
            for i in range(k):
                g[i] += (t - q) * x[i]
                for j in range(k):
                    H[i][j] += q * (1 - q) * x[i] * x[j]
        step = solve(H, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-10:
            break
    return w


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


def resamples(rows: list[dict], times: int = 1000) -> list[list[dict]]:
    """Bootstrap samples of whole games (a game's positions share its outcome)."""
    rng = random.Random(0)
    by: dict = {}
    for r in rows:
        by.setdefault(r["game"], []).append(r)
    games = list(by.values())
    return [[r for _ in games for r in games[rng.randrange(len(games))]] for _ in range(times)]


def bounds(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]


def deciles(rows: list[dict], key: str, boots: list[list[dict]]) -> float:
    """Prints the table; returns the largest |predicted - observed| of a decile.
    The gap's interval resamples games; the observed rate's is Wilson's (as
    if positions were independent: too narrow)."""
    print("  decile      n   predicted  observed [Wilson 95%]     gap [games bootstrap 95%]")
    worst = 0.0

    def gap(sel: list[dict]) -> float:
        return statistics.fmean(r["won"] for r in sel) - statistics.fmean(r[key] for r in sel) if sel else 0.0

    def inside(rs: list[dict], d: int) -> list[dict]:
        return [r for r in rs if d / 10 <= r[key] < (d + 1) / 10 or (d == 9 and r[key] == 1.0)]

    for d in range(10):
        sel = inside(rows, d)
        if not sel:
            continue
        k = sum(r["won"] for r in sel)
        wl, wh = wilson(k, len(sel))  # type: ignore[arg-type]
        gl, gh = bounds([gap(inside(b, d)) for b in boots])
        worst = max(worst, abs(gap(sel)))
        print(
            f"  {d / 10:.1f}-{(d + 1) / 10:.1f}  {len(sel):5d}   {100 * statistics.fmean(r[key] for r in sel):6.1f}%"
            f"   {100 * k / len(sel):6.1f}% [{100 * wl:5.1f}, {100 * wh:5.1f}]   {100 * gap(sel):+5.1f}"
            f" [{100 * gl:+5.1f}, {100 * gh:+5.1f}]"
        )
    return worst


def brier(rows: list[dict], key: str) -> float:
    return statistics.fmean((r[key] - r["won"]) ** 2 for r in rows)


def brier_gain(rows: list[dict], a: str, b: str, boots: list[list[dict]]) -> str:
    """Brier(b) - Brier(a), with a bootstrap (of games) 95% interval."""
    lo, hi = bounds([brier(x, b) - brier(x, a) for x in boots])
    return f"{brier(rows, b) - brier(rows, a):+.4f} [{lo:+.4f}, {hi:+.4f}]"


def report(args: argparse.Namespace) -> None:
    from ttr_lab.analysis.advisor.calibration import calibrate

    rows = read(args.files)
    for r in rows:
        r["cal"] = calibrate(r["p"], r["n"], r["players"], min(r["pieces"]) / r["start"])
        r["prior"] = 1 / r["players"]
    boots = resamples(rows)
    movers = sum(r["mover"] for r in rows)
    print(
        f"calibration: {len(rows)} positions ({len({r['game'] for r in rows})} games) of {' '.join(args.files)} "
        f"({movers} seen by the seat to move; players {sorted({r['players'] for r in rows})}; playouts behind "
        f"a chance: median {statistics.median(r['n'] for r in rows):.0f})"
    )
    print("raw Monte Carlo chance:")
    raw = deciles(rows, "p", boots)
    print("recalibrated (advise's default):")
    cal = deciles(rows, "cal", boots)
    print(f"  largest decile gap: raw {100 * raw:.1f} points, recalibrated {100 * cal:.1f} points")
    for key, name in (("p", "raw"), ("cal", "recalibrated"), ("leader", "leader wins"), ("prior", "1 / players")):
        lo, hi = bounds([brier(b, key) for b in boots])
        print(f"  Brier {name:13s} {brier(rows, key):.4f} [{lo:.4f}, {hi:.4f}]")
    print("  differences, bootstrap of games 95%:")
    print(f"  Brier(leader) - Brier(recalibrated)    = {brier_gain(rows, 'cal', 'leader', boots)}")
    print(f"  Brier(leader) - Brier(raw)             = {brier_gain(rows, 'p', 'leader', boots)}")
    print(f"  Brier(1/players) - Brier(recalibrated) = {brier_gain(rows, 'cal', 'prior', boots)}")
    print(f"  Brier(raw) - Brier(recalibrated)       = {brier_gain(rows, 'cal', 'p', boots)}")
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
    from ttr_lab.analysis.hidden import iter_states
    from ttr_lab.bots.playout import run_playout

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
    ap.add_argument("files", nargs="*", help="fit / report: the collected JSON lines")
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
