"""Game review (``ttr_lab.analysis.review``): does it flag known bad moves,
how often does it flag ordinary ones, and how much do its numbers move
between reruns?  Prints figures, asserts nothing.

    nice -n 10 python benchmarks/bench_review.py --games 24 --playouts 48 --truth 300 > /tmp/review-bench.log
    python benchmarks/bench_review.py --whole 6 --playouts 50      # a whole game's time and flag stability

``--whole N`` (issue 23 part 4): N whole 2-player USA games (greedy against
the playout policy, seats alternating, seeds from ``--first``) reviewed
from each mover's view at ``--playouts`` a move (seed 1) and again at 10x
(seed 2); prints each review's wall and CPU seconds at the smaller budget
(with the kernel where it plays the edition), and the flags' stability:
plies with the same flag (the label) at both budgets, and among the plies
either review flags, the share both flag, each with its 95% Wilson interval.

Games: playout-policy games on USA, 2 and 3 players alternately.  At a few
known plies per game one seat plays a **known bad move** instead of the
policy's, then the game goes on with the policy:

* ``late tickets``: new tickets with 15 pieces or fewer, all of them kept;
* ``worst candidate``: the advisor's candidate moves
  (:func:`~ttr_lab.analysis.advisor.candidates.candidate_moves`) played out
  16 times each on shared states, the worst kept;
* ``skipped claim`` (a pass-like move, giving up a needed route): where the
  policy claims a route, a blind draw instead;
* ``wasteful claim``: a claim off the ticket network paying the most wilds.

Injections are tried at plies where the mover's win chance (the policy's,
16 playouts) is between 15% and 85%: a seat that has already won or lost
cannot throw much away.  Some plies of the same games, unmodified, are the
controls.  Each injection and control is reviewed twice (seeds 1 and 2, at
``--playouts`` per move, with the review's confirmation rerun) and judged by
a **truth**: the same paired comparison at ``--truth`` playouts per move with
another seed.

Figures, each a share with its 95% Wilson interval:

* detection: injections flagged (any flag) in the first review, among all
  injections and among those whose true drop is at least 10 points (a
  mistake) and at least 5 points;
* false flags: controls flagged, and flags on plies (injected or not) whose
  true drop is under 5 points;
* the rerun swing: the mean and largest absolute difference, between the two
  reviews, of the mover's win chance after the ply and of the drop; the share
  of plies with the same flag.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ttr_lab
from ttr_lab.analysis import next_claims
from ttr_lab.analysis.advisor.candidates import candidate_moves
from ttr_lab.analysis.advisor.ranking import evaluate_moves, paired
from ttr_lab.analysis.game_review import CONFIRM, THRESHOLDS, review
from ttr_lab.analysis.odds import wilson
from ttr_lab.bots.playout import PlayoutBot

KINDS = ("late tickets", "worst candidate", "skipped claim", "wasteful claim")
KEEP = ("seat", "move", "drop", "drop_se", "flag", "best", "playouts", "margin_drop", "margin_se")


class _W:
    def __init__(self, stats: object) -> None:
        self.values = stats.win_values  # type: ignore[attr-defined]


def interval(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / max(1, n):.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"


def bad_move(g: ttr_lab.GameState, kind: str) -> list[ttr_lab.Move] | None:
    """The moves of a known-bad choice of this kind for the seat to move, or None."""
    v = g.view(g.current_player)
    if g.phase.name != "TURN":
        return None
    legal = list(v.legal_moves)
    policy = PlayoutBot(0).choose(v)
    if kind == "late tickets":
        if v.pieces[v.player] > 15 or ttr_lab.DrawTickets() not in legal or policy == ttr_lab.DrawTickets():
            return None
        h = g.copy()
        h.push(ttr_lab.DrawTickets())
        keep = max(h.legal_moves, key=lambda m: (len(m.tickets), str(m)))
        return [ttr_lab.DrawTickets(), keep]
    if kind == "skipped claim":
        if not isinstance(policy, ttr_lab.ClaimRoute):
            return None
        blind = [m for m in legal if isinstance(m, ttr_lab.DrawBlind)]
        return blind[:1] or None
    if kind == "wasteful claim":
        net = {c.route for c in next_claims(v, v.player)}
        wilds = {v.edition.card_types[i].name for i in v.edition.wild_cards}
        off = [m for m in legal if isinstance(m, ttr_lab.ClaimRoute) and m.route not in net and m != policy]
        off = [m for m in off if sum(k for n, k in m.cards if n in wilds) >= 1]
        if not off:
            return None
        return [max(off, key=lambda m: (sum(k for n, k in m.cards if n in wilds), str(m)))]
    cands = [m for m in candidate_moves(v) if m != policy]
    if len(cands) < 2:
        return None
    res, _ = evaluate_moves(v, cands, playouts=16 * len(cands), seed=5, halving=False)
    worst = min(res, key=lambda r: (r[1].key(), str(r[0])))
    return [worst[0]]  # type: ignore[list-item]


def chance(g: ttr_lab.GameState) -> float:
    v = g.view(g.current_player)
    res, _ = evaluate_moves(v, None, playouts=16, seed=3, halving=False)
    return res[0][1].wins[v.player] / max(1, res[0][1].n)


def truth(before: ttr_lab.GameState, move: ttr_lab.Move, playouts: int) -> tuple[float, float]:
    v = before.view(before.current_player)
    policy = PlayoutBot(0).choose(v)
    if policy == move:
        return 0.0, 0.0
    res, _ = evaluate_moves(v, [move, policy], playouts=2 * playouts, seed=99, halving=False)
    d, se, _ = paired(_W(res[1][1]), _W(res[0][1]))
    return d, se


def run(
    games: int, playouts: int, truth_playouts: int, per_game: int, controls: int, first: int = 7000, dump: str = ""
) -> None:
    out = open(dump, "a") if dump else None  # noqa: SIM115 - appended to as the run goes, closed at the end
    rng = random.Random(first + 11)
    rows: list[dict] = []
    t0 = time.perf_counter()
    k_next = 0
    for i in range(games):
        n = 2 + i % 2
        g = ttr_lab.new_game("usa", players=n, seed=first + i)
        bots = [PlayoutBot(100 * i + p) for p in range(n)]
        marks: dict[int, tuple[str, ttr_lab.GameState, ttr_lab.Move]] = {}
        lo, hi = 6 * n, 60 * n
        targets = sorted(rng.sample(range(lo, hi), per_game + controls))
        ctrl = set(rng.sample(targets, controls))
        while not g.is_over:
            at = g.ply + 1
            if g.ply in targets and g.phase.name == "TURN" and at not in marks:
                before = g.copy(stack=True)
                p = g.current_player
                if g.ply in ctrl:
                    mv = bots[p].choose(g.view(p))
                    marks[at] = ("control", before, mv)
                    g.push(mv)
                    continue
                moves = None
                if 0.15 <= chance(g) <= 0.85:
                    for j in range(len(KINDS)):
                        kind = KINDS[(k_next + j) % len(KINDS)]
                        moves = bad_move(g, kind)
                        if moves:
                            k_next += j + 1
                            break
                if moves:
                    g.push(moves[0])
                    if len(moves) > 1:  # late tickets: the keep is the bad decision (the policy keeps the fewest)
                        at, before = g.ply + 1, g.copy(stack=True)
                        g.push(moves[1])
                    marks[at] = (kind, before, moves[-1])
                    continue
            p = g.current_player
            g.push(bots[p].choose(g.view(p)))
        if not marks:
            continue
        plies = sorted(marks)
        df1 = review(g, playouts=playouts, seed=1, plies=plies, progress=False).set_index("ply")
        df2 = review(g, playouts=playouts, seed=2, plies=plies, progress=False).set_index("ply")
        for at in plies:
            kind, before, mv = marks[at]
            d, se = truth(before, mv, truth_playouts)
            rec = {"game": first + i, "ply": at, "kind": kind, "truth": d, "truth_se": se}
            for tag, df in (("r1", df1), ("r2", df2)):
                r = df.loc[at]
                rec[tag] = {c: (r[c].item() if hasattr(r[c], "item") else r[c]) for c in KEEP}
                rec[tag]["win"] = float(r[f"win_{int(r['seat'])}"])
            rows.append(rec)
            if out is not None:
                out.write(json.dumps(rec) + "\n")
                out.flush()
        print(
            f"game {i + 1}/{games}: {len(plies)} plies reviewed, {len(rows)} in all, {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    if out is not None:
        out.close()
    print(
        f"\nreview check: {games} USA playout-policy games (2 and 3 players) from seed {first}, review at "
        f"{playouts} playouts per move, truth at {truth_playouts}; {time.perf_counter() - t0:.0f} s"
    )
    report(rows)


def report(rows: list[dict]) -> None:
    """The figures (see the module doc) from the reviewed plies (as dumped)."""
    inj = [r for r in rows if r["kind"] != "control"]
    ctl = [r for r in rows if r["kind"] == "control"]
    both = [(r, t) for r in rows for t in ("r1", "r2")]  # each ply as reviewed by each rerun
    print(f"  thresholds {THRESHOLDS}, significance 1.96 standard errors, confirmation x{CONFIRM}")
    for kind in KINDS:
        sel = [r for r in inj if r["kind"] == kind]
        if sel:
            print(
                f"  {kind:16s} n={len(sel):3d}  true drop mean {100 * statistics.fmean(r['truth'] for r in sel):5.1f} "
                f"points, flagged {interval(sum(1 for r in sel if r['r1']['flag']), len(sel))}"
            )
    print(f"  detection, all injections (first review): {interval(sum(1 for r in inj if r['r1']['flag']), len(inj))}")
    for cut in (20, 10, 5):
        real = [r for r in inj if 100 * r["truth"] >= cut]
        print(
            f"  detection, injections with a true drop >= {cut} points: first review "
            f"{interval(sum(1 for r in real if r['r1']['flag']), len(real))}, "
            f"rerun {sum(1 for r in real if r['r2']['flag'])}/{len(real)}"
        )
    print(f"  injections with a true drop < 5 points: {sum(1 for r in inj if 100 * r['truth'] < 5)}")
    print(
        f"  controls (unmodified plies) flagged: first review {interval(sum(1 for r in ctl if r['r1']['flag']), len(ctl))}"
        f", rerun {sum(1 for r in ctl if r['r2']['flag'])}/{len(ctl)}; controls whose move differs from the "
        f"reference policy's: {sum(1 for r in ctl if r['r1']['best'])}"
    )
    small = [r for r in rows if 100 * r["truth"] < 5]
    print(
        f"  false flags (plies with a true drop < 5 points, injected or not, flagged): first review "
        f"{interval(sum(1 for r in small if r['r1']['flag']), len(small))}, rerun "
        f"{sum(1 for r in small if r['r2']['flag'])}/{len(small)}"
    )
    flagged = [(r, t) for r, t in both if r[t]["flag"]]
    if flagged:
        hit = 0
        for r, t in flagged:
            band = next((name for name, pts in THRESHOLDS if 100 * r["truth"] >= pts), "")
            hit += r[t]["flag"] == band
        print(f"  flags in the true drop's band: {interval(hit, len(flagged))}")
    win_swing = [abs(r["r1"]["win"] - r["r2"]["win"]) for r in rows]
    drop_swing = [abs(r["r1"]["drop"] - r["r2"]["drop"]) for r in rows]
    same = sum(1 for r in rows if r["r1"]["flag"] == r["r2"]["flag"])
    print(
        f"  rerun with another seed: the mover's win chance after the ply moves by {100 * statistics.fmean(win_swing):.1f} "
        f"points on average (median {100 * statistics.median(win_swing):.1f}, max {100 * max(win_swing):.1f}), "
        f"the drop by {100 * statistics.fmean(drop_swing):.1f} (max {100 * max(drop_swing):.1f}); "
        f"same flag {interval(same, len(rows))}"
    )
    err = [abs(r[t]["drop"] - r["truth"]) for r, t in both if r["kind"] != "control"]
    print(f"  |review drop - true drop| on injections: mean {100 * statistics.fmean(err):.1f} points")
    print(f"  playouts per reviewed ply: mean {statistics.fmean(r[t]['playouts'] for r, t in both):.0f}")


def looks(g: ttr_lab.GameState, playouts: int, seed: int) -> tuple[dict[int, dict], float]:
    """Each judged ply's first look at ``playouts`` a move and, where its drop
    reaches the lowest threshold, the confirmation look (CONFIRM times the
    playouts, the same states and seeds first: exactly what review's rerun
    plays); and the CPU seconds of both."""
    c = time.process_time()
    first = review(g, playouts=playouts, seed=seed, progress=False, confirm=1)
    first = first[first["drop"] == first["drop"]]  # judged (NaN: another seat's view)
    rows = {int(r.ply): {"move": r.move, "best": r.best, "d1": r.drop, "se1": r.drop_se} for r in first.itertuples()}
    low = THRESHOLDS[-1][1]
    again = [k for k, r in rows.items() if 100 * r["d1"] >= low]
    if again:
        more = review(g, playouts=CONFIRM * playouts, seed=seed, progress=False, confirm=1, plies=again)
        for r in more.itertuples():
            rows[int(r.ply)] |= {"d4": r.drop, "se4": r.drop_se}
    return rows, time.process_time() - c


#: the flag rules compared by ``--whole``: ``now`` is review's rule before issue 23's fix
#: (significant at 1.96 SE and at least the threshold); a number z flags the worst
#: threshold that the drop's lower bound, drop - z SE, reaches
RULES: tuple[str | float, ...] = ("now", 1.0, 1.645, 1.96)


def classify_by(rule: str | float, drop: float, se: float) -> str:
    """A drop's flag under ``rule`` (see :data:`RULES`)."""
    if rule == "now":
        if not drop > 1.96 * se:
            return ""
        return next((name for name, points in THRESHOLDS if 100 * drop >= points), "")
    low = 100 * (drop - float(rule) * se)
    return next((name for name, points in THRESHOLDS if low >= points), "")


def flag_of(rule: str | float, r: dict, prefix: str = "") -> str:
    """A ply's flag under ``rule``, from its first look and, when that gives
    no flag but a drop of at least the lowest threshold, its confirmation look
    (as review plays them at 40+ playouts a move)."""
    first = classify_by(rule, r[prefix + "d1"], r[prefix + "se1"])
    if first or r.get(prefix + "d4") is None:
        return first
    return classify_by(rule, r[prefix + "d4"], r[prefix + "se4"])


def whole(games: int, playouts: int, first: int, dump: str = "") -> None:
    """Whole games reviewed at ``playouts`` and at 10x: time and flag stability
    under each flag rule (see :func:`flag_of`); ``dump``: a JSON line a judged ply."""
    import os

    from ttr_lab.analysis import kernel_info
    from ttr_lab.bots import make_bot, play_game

    print(f"whole-game review, 2-player USA, {playouts} vs {10 * playouts} playouts a move ({kernel_info()})")
    rules = RULES
    plies = 0
    same = dict.fromkeys(rules, 0)
    level = dict.fromkeys(rules, 0)
    flagged: dict[str | float, list[int]] = {r: [0, 0, 0, 0] for r in rules}  # small, big, both, either
    cpus, reals = [], []
    for i in range(games):
        bots = [make_bot("greedy", first + i), make_bot("playout", first + 100 + i)]
        g = play_game("usa", bots if i % 2 == 0 else bots[::-1], seed=first + i)
        c = time.process_time()
        review(g, playouts=playouts, seed=1, progress=False)  # the review as a user runs it
        reals.append(time.process_time() - c)
        small, cpu = looks(g, playouts, 1)
        big, _ = looks(g, 10 * playouts, 2)
        cpus.append(cpu)
        plies += len(small)
        for k, r in small.items():
            both = r | {"big_" + key: v for key, v in big[k].items()}
            for rule in rules:
                a, b = flag_of(rule, both), flag_of(rule, both, "big_")
                same[rule] += bool(a) == bool(b)
                level[rule] += a == b
                counts = flagged[rule]
                counts[0] += bool(a)
                counts[1] += bool(b)
                counts[2] += bool(a and b)
                counts[3] += bool(a or b)
                both[str(rule)] = [a, b]
            if dump:
                with open(dump, "a") as f:
                    f.write(json.dumps({"game": first + i, "ply": k} | both, default=float) + "\n")
        load = "load average %.1f %.1f %.1f" % os.getloadavg()
        print(
            f"  game {i + 1}: {len(small)} judged plies, the review at {playouts} {reals[-1]:.1f} CPU-s; "
            + "; ".join(f"{r}: flags {flagged[r][0]}/{flagged[r][1]} at 10x, both {flagged[r][2]}" for r in rules)
            + f" ({load})",
            flush=True,
        )
    print(f"{games} games, {plies} judged plies, {playouts} vs {10 * playouts} playouts a move:")
    print(
        f"  the review's CPU time ({'kernel' if kernel_info().enabled else 'Python'}): median "
        f"{statistics.median(reals):.1f} s (max {max(reals):.1f})"
    )
    for rule in rules:
        s, b, both, either = flagged[rule]
        print(
            f"  rule {rule}: flagged {s} at {playouts}, {b} at {10 * playouts}; flagged or not as at 10x "
            f"{interval(same[rule], plies)}, the same label {interval(level[rule], plies)}; "
            f"of the flags at {playouts}, flagged at 10x too: {interval(both, s) if s else 'none'}; "
            f"of the flags at 10x, flagged at {playouts} too: {interval(both, b) if b else 'none'}; "
            f"both of either: {interval(both, either) if either else 'none'}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--whole", type=int, default=0, help="whole games to review at --playouts and at 10x")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--playouts", type=int, default=48)
    ap.add_argument("--truth", type=int, default=300)
    ap.add_argument("--per-game", type=int, default=5, help="injections tried per game")
    ap.add_argument("--controls", type=int, default=2, help="unmodified plies per game")
    ap.add_argument("--first", type=int, default=7000, help="the first game's seed")
    ap.add_argument("--dump", default="", help="append each reviewed ply as a JSON line to this file")
    ap.add_argument("--report", nargs="*", help="only print the figures of these dumps")
    args = ap.parse_args()
    if args.whole:
        whole(args.whole, args.playouts, args.first, args.dump)
        return
    if args.report:
        rows = []
        for path in args.report:
            with open(path) as f:
                rows += [json.loads(line) for line in f]
        print(f"review check: {len(rows)} reviewed plies from {', '.join(args.report)}")
        report(rows)
        return
    run(args.games, args.playouts, args.truth, args.per_game, args.controls, args.first, args.dump)


if __name__ == "__main__":
    main()
