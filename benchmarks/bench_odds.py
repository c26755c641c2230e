"""Ticket odds: the closed form (``quick_odds``) against the simulation
(``ticket_odds``, the playout policy from the seat's fair view).  Prints
figures, asserts nothing.

    python benchmarks/bench_odds.py --collect /tmp/odds-train.jsonl --seeds 0:400 --playouts 40
    python benchmarks/bench_odds.py --fit /tmp/odds-train.jsonl          # prints RATE and COEF for odds.py
    python benchmarks/bench_odds.py --collect /tmp/odds-test.jsonl --seeds 10000:10400 --playouts 40
    python benchmarks/bench_odds.py --check /tmp/odds-test.jsonl         # held-out figures

Positions: games of 2-4 players on USA, Europe and Rails & Sails, each seat
a playout-policy or greedy bot (drawn per game), stopped at a random ply
after the ticket choice; one random seat's view per position.  For each of
its tickets: the closed form's inputs (:func:`ttr_lab.analysis.odds.quick_inputs`)
and the completions in ``--playouts`` simulated games.

Figures (``--check``), in percentage points, closed form minus simulation:

* the mean difference over every ticket, with a 95% interval (clustered by
  position: the tickets of one position share their playouts);
* the mean absolute difference, raw and with the simulation's own noise
  removed (``sqrt(mean((q - k/n)^2 - k/n (1 - k/n) / (n - 1)))``, the
  root-mean-square difference from the simulation's true value);
* per bin of the closed form (tenths), the mean closed form, the mean
  simulated share, the difference with its 95% interval;
* the simulation's own 95% half-width for one position, to compare.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_lab.analysis.odds import QuickInputs, QuickModel, calibrated_probability, quick_inputs, ticket_odds
from ttr_lab.analysis.odds import tickets as odds
from ttr_lab.bots.held_out import bot_position

EDITIONS = ("usa", "europe", "rails_and_sails")


def inputs_to_json(inp: QuickInputs) -> dict:
    return dataclasses.asdict(inp)


def inputs_from_json(d: dict) -> QuickInputs:
    def model(m: dict) -> QuickModel:
        return QuickModel(
            tuple(tuple(x) for x in m["needs"]),  # type: ignore[misc]
            m["claims"],
            m["turns"],
            m["draws"],
            tuple(tuple(x) for x in m["pool"]),  # type: ignore[misc]
            m["pieces_ok"],
            m["done"],
            m["impossible"],
        )

    return QuickInputs(d["status"], model(d["ticket"]), model(d["network"]), d["players"])


def collect(path: str, seeds: range, playouts: int) -> None:
    t0 = time.perf_counter()
    done = 0
    with open(path, "a") as f:
        for s in seeds:
            g, seat = bot_position(EDITIONS[s % len(EDITIONS)], s)
            if g.is_over or g.phase.name in ("SETUP_TICKETS",):
                continue
            v = g.view(seat)
            if not v.tickets:
                continue
            inp = dict(quick_inputs(v))
            for o in ticket_odds(v, playouts=playouts, seed=s):
                row = {
                    "pos": s,
                    "edition": g.edition.name,
                    "players": g.num_players,
                    "ply": g.ply,
                    "ticket": o.ticket.id,
                    "k": o.completed,
                    "n": o.playouts,
                    "inputs": inputs_to_json(inp[o.ticket]),
                }
                f.write(json.dumps(row) + "\n")
            f.flush()
            done += 1
            if done % 20 == 0:
                print(f"{done} positions, {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"collected {done} positions x {playouts} playouts in {time.perf_counter() - t0:.0f} s")


def load(path: str) -> list[dict]:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    for r in rows:
        r["inp"] = inputs_from_json(r["inputs"])
    return rows


def fit(path: str, rates: tuple[float, ...] = (0.8, 1.0, 1.2, 1.4, 1.7, 2.0)) -> None:
    """Binomial logistic regression of the completions on the features, for each draw rate."""
    import numpy as np

    rows = [r for r in load(path) if r["inp"].status == "open"]
    k = np.array([r["k"] for r in rows], float)
    n = np.array([r["n"] for r in rows], float)
    best = None
    for rate in rates:
        X = np.array([(1.0, *odds.features(r["inp"], rate)) for r in rows])
        beta = np.zeros(X.shape[1])
        for _ in range(50):  # Newton's method with a small ridge
            p = 1 / (1 + np.exp(-np.clip(X @ beta, -50, 50)))
            grad = X.T @ (k - n * p) - 1e-3 * beta
            H = (X * (n * p * (1 - p))[:, None]).T @ X + 1e-3 * np.eye(X.shape[1])
            step = np.linalg.solve(H, grad)
            beta += step
            if np.abs(step).max() < 1e-9:
                break
        p = 1 / (1 + np.exp(-np.clip(X @ beta, -50, 50)))
        ll = float(np.sum(k * np.log(p + 1e-12) + (n - k) * np.log(1 - p + 1e-12)))
        print(f"rate {rate}: log-likelihood {ll:.1f}, coef {tuple(round(float(b), 4) for b in beta)}")
        if best is None or ll > best[0]:
            best = (ll, rate, beta)
    assert best is not None
    print(f"best: RATE = {best[1]}\nCOEF = {tuple(round(float(b), 4) for b in best[2])}  (n={len(rows)} open tickets)")


def check(path: str) -> None:
    rows = load(path)
    by_pos: dict[int, list[tuple[float, float, int]]] = {}
    for r in rows:
        q = calibrated_probability(r["inp"])
        by_pos.setdefault(r["pos"], []).append((q, r["k"] / r["n"], r["n"]))
    flat = [x for v in by_pos.values() for x in v]
    m = len(flat)
    diffs = [q - s for q, s, _ in flat]
    mean = sum(diffs) / m
    # cluster-robust standard error: positions are the independent units
    sums = [sum(q - s - mean for q, s, _ in v) for v in by_pos.values()]
    se = math.sqrt(sum(x * x for x in sums)) / m
    mae = sum(abs(d) for d in diffs) / m
    msq = sum((q - s) ** 2 - s * (1 - s) / (n - 1) for q, s, n in flat) / m
    half = [1.96 * math.sqrt(max(s * (1 - s), 0.25 / n) / n) for _, s, n in flat]
    print(f"held-out: {len(by_pos)} positions, {m} tickets, {flat[0][2]} playouts each")
    print(
        f"  mean difference (closed form - simulation): {100 * mean:+.2f} points "
        f"[{100 * (mean - 1.96 * se):+.2f}, {100 * (mean + 1.96 * se):+.2f}]"
    )
    print(f"  mean absolute difference: {100 * mae:.1f} points (raw, simulation noise included)")
    print(
        f"  root-mean-square difference from the simulation's true value (noise removed): {100 * math.sqrt(max(0, msq)):.1f} points"
    )
    print(f"  the simulation's own 95% half-width per ticket: mean {100 * sum(half) / m:.1f} points")
    opened = [x for x, r in zip(flat, rows) if r["inp"].status == "open"]
    print(
        f"  open tickets: {len(opened)}; certain (done / impossible): {m - len(opened)}, "
        f"their simulated share: done {share(rows, 'done')}, impossible {share(rows, 'impossible')}"
    )
    print("  per bin of the closed form (open tickets): bin, n, closed form, simulated, difference [95%]")
    bins: dict[int, list[tuple[float, float, int, int]]] = {}
    for r in rows:
        if r["inp"].status != "open":
            continue
        q = calibrated_probability(r["inp"])
        bins.setdefault(min(9, int(10 * q)), []).append((q, r["k"] / r["n"], r["n"], r["pos"]))
    for b in sorted(bins):
        v = bins[b]
        d = [q - s for q, s, _, _ in v]
        mu = sum(d) / len(d)
        cl: dict[int, float] = {}
        for (_q, _s, _, pos), x in zip(v, d):
            cl[pos] = cl.get(pos, 0.0) + x - mu
        e = math.sqrt(sum(x * x for x in cl.values())) / len(d)
        print(
            f"    {b / 10:.1f}-{(b + 1) / 10:.1f}  n={len(v):4d}  {100 * sum(q for q, *_ in v) / len(v):5.1f}  "
            f"{100 * sum(s for _, s, *_ in v) / len(v):5.1f}  {100 * mu:+5.1f} [{100 * (mu - 1.96 * e):+.1f}, {100 * (mu + 1.96 * e):+.1f}]"
        )
    opens = [r for r in rows if r["inp"].status == "open"]
    for label, fn in (
        ("calibrated", calibrated_probability),
        ("uncalibrated (calibrated=False)", lambda inp: odds.quick_probability(inp.ticket)),
    ):
        for which, sel in (("open tickets", opens), ("all tickets", rows)):
            mu, e = clustered([(r["pos"], fn(r["inp"]) - r["k"] / r["n"]) for r in sel])
            print(
                f"  {label}, {which} (n={len(sel)}): mean difference {100 * mu:+.2f} points "
                f"[{100 * (mu - 1.96 * e):+.2f}, {100 * (mu + 1.96 * e):+.2f}]"
            )


def clustered(pairs: list[tuple[int, float]]) -> tuple[float, float]:
    """Mean and standard error of the values, clustered by their position."""
    mu = sum(x for _, x in pairs) / len(pairs)
    cl: dict[int, float] = {}
    for pos, x in pairs:
        cl[pos] = cl.get(pos, 0.0) + x - mu
    return mu, math.sqrt(sum(v * v for v in cl.values())) / len(pairs)


def share(rows: list[dict], status: str) -> str:
    sel = [r for r in rows if r["inp"].status == status]
    k = sum(r["k"] for r in sel)
    n = sum(r["n"] for r in sel)
    return f"{k}/{n}" if n else "none"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--collect")
    ap.add_argument("--seeds", default="0:100")
    ap.add_argument("--playouts", type=int, default=40)
    ap.add_argument("--fit")
    ap.add_argument("--check")
    args = ap.parse_args()
    if args.collect:
        a, b = (int(x) for x in args.seeds.split(":"))
        collect(args.collect, range(a, b), args.playouts)
    if args.fit:
        fit(args.fit)
    if args.check:
        check(args.check)


if __name__ == "__main__":
    main()
