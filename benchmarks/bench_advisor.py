"""Playout policy and advisor benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_advisor.py --only speed          # playout vs greedy games/s per edition
    python benchmarks/bench_advisor.py --only strength --games 40 --playouts 24
    python benchmarks/bench_advisor.py --only calibration --positions 400
    python benchmarks/bench_advisor.py --only stability --positions 40
    python benchmarks/bench_advisor.py --only rate --positions 5       # advise's playouts per CPU-second

Figures (targets from the project's issue tracker).  The calibration, bias
and stability parts here take positions *without their history* (a copy of
the state, so the seat forgets what it saw); ``bench_calibration.py`` measures
them with the history, as a seat at the table knows it, and is the one the
README's current figures come from.

* **speed**: 4-player games per second of the playout policy and of the
  greedy bot, per edition, in one run on one core (target: playout >= 10x
  greedy's 17 / 14 / 9 games/s for USA / Europe / Rails & Sails);
* **strength**: win rates, seat-swapped 2-player USA games (each deal played
  twice, seats exchanged), with 95% Wilson intervals: playout vs greedy, and
  the advisor (``--playouts`` per move) vs greedy and vs the playout policy
  it searches with; ties count half;
* **advisor**: playouts per second of :func:`ttr_lab.analysis.advise` on
  mid-game positions;
* **calibration**: positions every ``--every`` plies of playout-policy games
  (2 and 3 players); the win chance of one seat (the seat to move: the
  advice's top move) against who won; deciles table, Brier score, and the
  baseline "the current points leader wins" (ties shared);
* **review**: known-bad moves injected into playout games (late tickets
  kept in full, claims off the ticket network paying wilds): the share
  flagged, against a ground truth at ``--truth`` playouts, and the swing of
  the drop between two reruns with different seeds;
* **bias**: the mover's mean predicted win chance against its observed
  wins, from playouts of the true state (a diagnostic reading hidden
  information) and of determinized states (uniform and weighted), which
  shows where the advisor's overconfidence comes from;
* **rate** (issue 23 part 4): :func:`~ttr_lab.analysis.advise`'s playouts
  per CPU-second (its default 10 candidates, a count budget) on mid-game
  2-player USA positions (ply 60 of playout-policy games), with the
  compiled kernel and with ``TTR_LAB_KERNEL=0`` in one run, interleaved
  position by position (target: >= 5,000 with the kernel), and the share of
  the time spent drawing the guessed states;
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
    if which in ("both", "advisor-playout"):
        from ttr_lab.analysis import AdvisorBot

        match(
            f"advisor ({playouts} playouts/move) vs playout",
            pairs,
            lambda i: (AdvisorBot(i, playouts=playouts), make_bot("playout", 1000 + i)),
            seed=700,
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


def bias(count: int, every: int, playouts: int) -> None:
    """Where calibration goes wrong: the mover's mean predicted win chance
    against its observed wins, from playouts of the TRUE state (a diagnostic
    that reads hidden information, never used by the advisor) and of states
    determinized from the mover's view, uniform and weighted."""
    from ttr_lab.analysis.hidden import iter_states
    from ttr_lab.bots.playout import run_playout

    pos = positions(count, every, seed=2000)
    obs = [share(end, s.current_player) for s, end in pos]
    kinds = [("true state (diagnostic)", None), ("determinized", False), ("determinized, weighted", True)]
    print(f"bias: {len(pos)} positions, {playouts} playouts each, mover's view ({load()})")
    for name, weighted in kinds:
        pred = []
        for i, (s, _) in enumerate(pos):
            p = s.current_player
            states = None if weighted is None else iter_states(s.view(p), seed=i, weighted=weighted)
            w = 0.0
            for j in range(playouts):
                start = s.copy() if states is None else next(states)
                w += share(run_playout(start, seed=j), p)
            pred.append(w / playouts)
        brier = statistics.fmean((a - b) ** 2 for a, b in zip(pred, obs))
        print(
            f"  {name:24s} predicted {100 * statistics.fmean(pred):5.1f}%  observed {interval(sum(obs), len(obs))}"
            f"  Brier {brier:.3f}"
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


# ---------------------------------------------------------------- review
def inject(g: ttr_lab.GameState, rng: random.Random) -> str | None:
    """Play a known-bad move for the seat to move, if one applies: new tickets
    late (15 pieces or fewer, then keep them all), or a claim off the ticket
    network paying the most wilds.  Returns its kind."""
    from ttr_lab.analysis import next_claims

    v = g.view(g.current_player)
    if g.phase.name != "TURN":
        return None
    legal = list(v.legal_moves)
    if v.pieces[v.player] <= 15 and ttr_lab.DrawTickets() in legal and rng.random() < 0.7:
        g.play(ttr_lab.DrawTickets())
        keeps = list(g.legal_moves)
        g.play(max(keeps, key=lambda m: (len(m.tickets), str(m))))
        return "late tickets"
    net = {c.route for c in next_claims(v, v.player)}
    wilds = {v.edition.card_types[i].name for i in v.edition.wild_cards}
    off = [m for m in legal if isinstance(m, ttr_lab.ClaimRoute) and m.route not in net]
    off = [m for m in off if sum(k for n, k in m.cards if n in wilds) >= 1]
    if not off:
        return None
    g.play(max(off, key=lambda m: (sum(k for n, k in m.cards if n in wilds), str(m))))
    return "wasteful claim"


def review_check(games: int, playouts: int, truth: int) -> None:
    from ttr_lab.analysis import review
    from ttr_lab.analysis.advisor.ranking import evaluate_moves, paired
    from ttr_lab.bots.playout import PlayoutBot

    rng = random.Random(7)
    rows = []
    t = time.perf_counter()
    for i in range(games):
        g = ttr_lab.new_game("usa", players=2, seed=4000 + i)
        bots = [make_bot("playout", 10 * i + p) for p in range(2)]
        marks = {}
        targets = set(rng.sample(range(15, 90), 6))
        while not g.is_over:
            if g.ply in targets and g.ply not in marks:
                before, at = g.copy(), g.ply + 1
                kind = inject(g, rng)
                if kind is not None:
                    marks[at] = (kind, before)
                    continue
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        if not marks:
            continue
        df1 = review(g, playouts=playouts, seed=1, plies=marks, progress=False)
        df2 = review(g, playouts=playouts, seed=2, plies=marks, progress=False)
        for (_, r1), (_, r2) in zip(df1.iterrows(), df2.iterrows()):
            kind, before = marks[int(r1["ply"])]
            v = before.view(before.current_player)
            bad = g.move_stack[int(r1["ply"]) - 1]
            res, _ = evaluate_moves(v, [bad, PlayoutBot(0).choose(v)], playouts=2 * truth, seed=99, halving=False)

            class W:
                def __init__(self, st):
                    self.values = st.win_values

            d, se, _ = paired(W(res[1][1]), W(res[0][1]))
            rows.append((kind, d, se, r1["drop"], r1["flag"], r2["drop"], r2["flag"]))
    dt = time.perf_counter() - t
    print(
        f"review check: {len(rows)} injected moves in {games} 2-player USA playout games, review at {playouts} "
        f"playouts per move, ground truth at {truth} ({dt:.0f} s, {load()})"
    )
    really = [r for r in rows if r[1] >= 0.05 and r[1] > 1.96 * r[2]]
    for kind in sorted({r[0] for r in rows}):
        sel = [r for r in rows if r[0] == kind]
        print(
            f"  {kind}: n={len(sel)}, true drop mean {100 * statistics.fmean(r[1] for r in sel):.1f} points, "
            f"flagged {interval(sum(1 for r in sel if r[4]), len(sel))}"
        )
    print(
        f"  truly bad (true drop >= 5 points, significant): {len(really)}; "
        f"detected (any flag): {interval(sum(1 for r in really if r[4]), len(really))}"
    )
    print(
        f"  flagged although not truly bad: {sum(1 for r in rows if r[4] and r not in really)} of "
        f"{len(rows) - len(really)}"
    )
    swing = [abs(r[3] - r[5]) for r in rows]
    agree = sum(1 for r in rows if r[4] == r[6])
    print(
        f"  rerun with another seed: mean |drop1 - drop2| = {100 * statistics.fmean(swing):.1f} points "
        f"(max {100 * max(swing):.1f}); same flag {interval(agree, len(rows))}"
    )


def rate(count: int, edition: str = "usa") -> None:
    """advise()'s playouts per CPU-second, kernel and Python, interleaved (``--edition``)."""
    from ttr_lab.analysis import kernel_info
    from ttr_lab.analysis.hidden import iter_states

    print(f"advisor rate, mid-game 2-player {edition} ({kernel_info()}; {load()})", flush=True)
    budgets = {"kernel": 4000, "python": 400}
    cpu = dict.fromkeys(budgets, 0.0)
    done = dict.fromkeys(budgets, 0)
    states_cpu = states = 0.0
    for i in range(count):
        g = ttr_lab.new_game(edition, players=2, seed=600 + i)
        bots = [make_bot("playout", 700 + 10 * i + p) for p in range(2)]
        while g.ply < 60 or g.phase.name != "TURN":
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        v = g.view(g.current_player)
        for kind, budget in budgets.items():
            if kind == "python":
                os.environ["TTR_LAB_KERNEL"] = "0"
            try:
                c = time.process_time()
                a = advise(v, playouts=budget, seed=i, explain=False, progress=False)
                cpu[kind] += time.process_time() - c
                done[kind] += a.playouts
            finally:
                os.environ.pop("TTR_LAB_KERNEL", None)
        it = iter_states(v, seed=i, weighted=True)
        c = time.process_time()
        for _ in range(200):
            next(it)
        states_cpu += time.process_time() - c
        states += 200
    for kind in budgets:
        print(
            f"  {kind:6s}: {done[kind]} playouts in {cpu[kind]:.1f} CPU-s over {count} positions = "
            f"{done[kind] / cpu[kind]:.0f} playouts per CPU-second"
        )
    print(f"  ratio {done['kernel'] / cpu['kernel'] / (done['python'] / cpu['python']):.1f}x ({load()})")
    from ttr_lab.analysis.hidden.determinize import SWEEPS
    from ttr_lab.analysis.hidden.ticket_chain import CHAINS, RESTART, THIN

    print(
        f"  a guessed state (weighted): {1000 * states_cpu / states:.2f} CPU-ms each ({states:.0f} drawn, 200 a"
        f" position: {CHAINS} chains, a fresh start of {SWEEPS} sweeps every {RESTART} states of each, {THIN} between)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="speed,strength,calibration,stability")
    ap.add_argument("--games", type=int, default=20, help="games per edition and bot (speed); deal pairs (strength)")
    ap.add_argument("--playouts", type=int, default=24, help="advisor playouts per move / position")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--edition", default="usa", help="rate: the edition (default usa)")
    ap.add_argument("--every", type=int, default=15)
    ap.add_argument("--truth", type=int, default=200, help="review: ground-truth playouts per move")
    ap.add_argument("--which", default="both", help="strength: playout, advisor, advisor-playout or both (all three)")
    args = ap.parse_args()
    parts = args.only.split(",")
    if "speed" in parts:
        print(pin_one_core())
        speed(args.games)
    if "strength" in parts:
        strength(args.games, args.playouts, args.which)
    if "calibration" in parts:
        calibration(args.positions, args.every, args.playouts)
    if "bias" in parts:
        bias(args.positions, args.every, args.playouts)
    if "stability" in parts:
        stability(args.positions, args.playouts)
    if "review" in parts:
        review_check(args.games, args.playouts, args.truth)
    if "rate" in parts:
        rate(args.positions, args.edition)


if __name__ == "__main__":
    main()
