"""Strength of the advisor at a fixed budget: resumable, shardable seat-swapped games.

Issue 8's target: the advisor beats greedy in >= 60% of >= 400 seat-swapped
2-player USA games at 1 s a move, and the best of the other bots in Europe
and Rails & Sails.  Wall-clock budgets depend on the machine's load, so the
run plays a fixed playout budget, the one 1 s a move gives on a quiet
machine (``budget``: the median of the playouts ``AdvisorBot(seconds=1.0)``
ran per searched move).

    python benchmarks/bench_strength.py budget --edition usa --players 2 --games 6
    nice -n 19 python benchmarks/bench_strength.py run --edition usa \\
        --hero advisor:playouts=200 --villain greedy --deals 0:100 \\
        --out benchmarks/results/usa_advisor_greedy_0_100.jsonl
    python benchmarks/bench_strength.py report benchmarks/results/*.jsonl

``run`` plays each deal seed twice, the hero in seat 0 then in seat 1 (same
game seed, same bot seeds, derived from the deal), appends one JSON line per
finished game and flushes; rerun the same command to resume (games already
in the file are skipped).  Shards are deal ranges written to separate files;
``report`` combines them: the hero's win share (ties count half) with a 95%
Wilson interval, by seat, mean seconds a game and the commits played.

Bot specs: ``greedy``, ``playout``, ``random``, ``advisor:playouts=N``,
``advisor:seconds=S`` (``,max_playouts=N``: a time budget with a cap, as
the widget's levels; ``,candidates=N``: so many candidate moves, 8 unless told), and the tree search ``ismcts:playouts=N`` or
``ismcts:seconds=S``, optionally with ``,caution=1``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ttr_lab  # noqa: E402
from ttr_lab.analysis import AdvisorBot, ISMCTSBot  # noqa: E402
from ttr_lab.analysis.advisor import ranking as advisor_module  # noqa: E402
from ttr_lab.analysis.odds import wilson  # noqa: E402
from ttr_lab.bots import make_bot  # noqa: E402
from ttr_lab.errors import TtrError  # noqa: E402

SIMPLE = ("greedy", "playout", "random")


def make(spec: str, seed: int) -> Any:
    """A bot from a spec (see the module doc).

    >>> make("advisor:playouts=50", 3)
    AdvisorBot(playouts=50)
    >>> make("advisor:seconds=1.0,max_playouts=400", 3)
    AdvisorBot(seconds=1.0, max_playouts=400)
    >>> make("greedy", 1)
    GreedyBot()
    >>> make("ismcts:playouts=200,caution=1", 2)
    ISMCTSBot(playouts=200)
    """
    unknown = TtrError(
        f"unknown bot spec {spec!r} (greedy, playout, random, advisor:playouts=N, advisor:seconds=S,"
        " ismcts:playouts=N[,caution=1], ismcts:seconds=S[,caution=1])"
    )
    name, _, arg = spec.partition(":")
    if name in SIMPLE and not arg:
        return make_bot(name, seed)
    kinds = {"advisor": AdvisorBot, "ismcts": ISMCTSBot}
    if name not in kinds:
        raise unknown
    kw: dict[str, Any] = {}
    for part in arg.split(","):
        key, _, value = part.partition("=")
        if key == "playouts" and value.isdigit():
            kw["playouts"] = int(value)
        elif key == "seconds" and value.replace(".", "", 1).isdigit():
            kw["seconds"] = float(value)
        elif key == "max_playouts" and name == "advisor" and value.isdigit():
            kw["max_playouts"] = int(value)
        elif key == "candidates" and name == "advisor" and value.isdigit():
            kw["candidates"] = int(value)
        elif key == "caution" and name == "ismcts" and value in ("0", "1"):
            kw["caution"] = value == "1"
        else:
            raise unknown
    if "playouts" not in kw and "seconds" not in kw:
        raise unknown
    return kinds[name](seed, **kw)


def commit() -> str:
    """The code's git commit, with ``+dirty`` when ttr_lab/ has uncommitted changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "ttr_lab"], cwd=ROOT, capture_output=True, text=True)
    except OSError:  # pragma: no cover
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def play(edition: str, bots: list[Any], seed: int, first: int = 0) -> tuple[ttr_lab.GameState, list[int]]:
    """Play one game (seat ``first`` moves first); returns the final state and the seat of each ply."""
    g = ttr_lab.new_game(edition, players=len(bots), seed=seed, first_player=first)
    seats = []
    while not g.is_over:
        p = g.current_player
        seats.append(p)
        g.play(bots[p].choose(g.view(p)))
    return g, seats


def bot_seeds(deal: int) -> tuple[int, int]:
    """The hero's and the villain's bot seeds for a deal (same in both seatings)."""
    return 1_000_003 * deal + 1, 1_000_003 * deal + 2


# ------------------------------------------------------------------ budget
def cmd_budget(a: argparse.Namespace) -> None:
    """Playouts per searched move of AdvisorBot(seconds=...), by phase of the game.

    Besides the raw count, each search's count scaled by its wall / CPU
    seconds (``quiet``): what the search would have run with the core to
    itself, to first order, when other jobs share the machine."""
    records: list[tuple[int, int, float]] = []  # (ply, playouts, playouts scaled by wall / cpu)
    real = advisor_module.advise

    def recording(view: Any, **kw: Any) -> Any:
        c0 = time.process_time()
        adv = real(view, **kw)
        cpu = max(1e-9, time.process_time() - c0)
        records.append((view.ply, adv.playouts, adv.playouts * max(1.0, adv.seconds / cpu)))
        return adv

    advisor_module.advise = recording  # type: ignore[assignment]  # this process only: counts, changes nothing
    print(f"budget: {a.edition}, {a.players} players, AdvisorBot(seconds={a.seconds}) vs greedy; start {load()}")
    phases: dict[str, list[tuple[int, float]]] = defaultdict(list)
    loads = [os.getloadavg()[0]]
    t0 = time.perf_counter()
    for k in range(a.games):
        deal, seat = a.seed + k // 2, k % 2
        hs, vs = bot_seeds(deal)
        bots = [make("greedy", vs) for _ in range(a.players)]
        bots[seat] = AdvisorBot(hs, seconds=a.seconds)
        start = len(records)
        g, _ = play(a.edition, bots, deal)
        plies = max(1, g.ply)
        for ply, n, q in records[start:]:
            phases[("early", "mid", "late")[min(2, 3 * ply // plies)]].append((n, q))
        loads.append(os.getloadavg()[0])
        mine = [n for _, n, _ in records[start:]]
        quiet = [q for _, _, q in records[start:]]
        print(
            f"  game {k + 1}: deal {deal} seat {seat}, {len(mine)} searched moves, median {statistics.median(mine)}"
            f" playouts (quiet {statistics.median(quiet):.0f}), {time.perf_counter() - t0:.0f} s so far, {load()}",
            flush=True,
        )
    phases["all"] = [(n, q) for _, n, q in records]
    print("phase   moves  q1  median  q3   quiet: q1  median  q3  (playouts per searched move)")
    for name in ("early", "mid", "late", "all"):
        xs = phases.get(name, [])
        if len(xs) >= 2:
            r1, rm, r3 = statistics.quantiles([n for n, _ in xs], n=4)
            q1, qm, q3 = statistics.quantiles([q for _, q in xs], n=4)
            print(f"{name:6s} {len(xs):6d} {r1:4.0f} {rm:6.0f} {r3:4.0f}   {q1:9.0f} {qm:6.0f} {q3:4.0f}")
    print(f"load (1 min) during the run {min(loads):.2f}-{max(loads):.2f}; end {load()}")
    print(
        f"the median: raw advisor:playouts={statistics.median(n for n, _ in phases['all']):.0f},"
        f" quiet-scaled advisor:playouts={statistics.median(q for _, q in phases['all']):.0f}"
    )


# ------------------------------------------------------------------ run
def done_games(path: Path) -> set[tuple[str, int, int, str, str]]:
    out = set()
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                out.add((r["edition"], r["deal"], r["hero_seat"], r["hero"], r["villain"]))
    return out


def deals(text: str) -> range:
    lo, _, hi = text.partition(":")
    if not lo.isdigit() or not hi.isdigit() or int(hi) <= int(lo):
        raise TtrError(f"--deals is A:B with 0 <= A < B, not {text!r}")
    return range(int(lo), int(hi))


def cmd_run(a: argparse.Namespace) -> None:
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = done_games(out)
    code = commit()
    make(a.hero, 0), make(a.villain, 0)  # a bad spec fails before any game
    hero = a.hero
    if a.z is not None:  # this process only: the caution rule's Z_DEVIATE, for a proposed change
        advisor_module.Z_DEVIATE = a.z
        hero = f"{hero} (z {a.z})"
    if a.delta is not None:  # ... and its DELTA_DEVIATE
        advisor_module.DELTA_DEVIATE = a.delta
        hero = f"{hero} (delta {a.delta})"
    print(f"run: {a.edition} {hero} vs {a.villain}, deals {a.deals}, {len(done)} games already in {out}; {load()}")
    with out.open("a") as f:
        for deal in deals(a.deals):
            for seat in range(a.players):  # each deal once per hero seat
                if (a.edition, deal, seat, hero, a.villain) in done:
                    continue
                hs, vs = bot_seeds(deal)
                bots = [make(a.villain, vs + 10 * p) for p in range(a.players)]
                bots[seat] = make(a.hero, hs)
                first = deal % a.players if a.alternate_first else 0
                t, c = time.perf_counter(), time.process_time()
                g, seats = play(a.edition, bots, deal, first)
                secs, cpu = time.perf_counter() - t, time.process_time() - c
                res = g.outcome()
                winners = list(res.winners)
                rec = {
                    "edition": a.edition,
                    "players": a.players,
                    "deal": deal,
                    "hero_seat": seat,
                    "hero": hero,
                    "villain": a.villain,
                    "winners": winners,
                    "scores": list(res.scores),
                    "hero_share": 1.0 / len(winners) if seat in winners else 0.0,
                    "seconds": round(secs, 2),
                    "cpu": round(cpu, 2),
                    "first": first,
                    "hero_moves": seats.count(seat),
                    "commit": code,
                }
                f.write(json.dumps(rec) + "\n")
                f.flush()
                print(
                    f"  deal {deal} seat {seat}: share {rec['hero_share']} scores {rec['scores']}"
                    f" {secs:.0f} s; {load()}",
                    flush=True,
                )


# ------------------------------------------------------------------ report
def summarize(paths: list[str]) -> list[str]:
    """Report lines, one block per (edition, players, hero, villain)."""
    groups: dict[tuple[str, int, str, str], dict[tuple[int, int], dict[str, Any]]] = defaultdict(dict)
    for p in paths:
        for line in Path(p).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                key = (r["edition"], r.get("players", 2), r["hero"], r["villain"])
                groups[key][(r["deal"], r["hero_seat"])] = r  # a game in two files counts once
    lines = []
    for (ed, players, hero, villain), games in sorted(groups.items()):
        rs = list(games.values())
        n = len(rs)
        k = sum(r["hero_share"] for r in rs)
        lo, hi = wilson(k, n)  # type: ignore[arg-type]  # ties count half
        lines.append(
            f"{ed} {players}p: {hero} vs {villain}: {100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] n={n}"
            f" ({sum(1 for r in rs if len(r['winners']) > 1)} ties)"
        )
        for seat in sorted({r["hero_seat"] for r in rs}):
            sub = [r for r in rs if r["hero_seat"] == seat]
            ks = sum(r["hero_share"] for r in sub)
            slo, shi = wilson(ks, len(sub))  # type: ignore[arg-type]
            lines.append(
                f"  hero seat {seat}: {100 * ks / len(sub):.1f}% [{100 * slo:.1f}, {100 * shi:.1f}] n={len(sub)}"
            )
        pairs = sum(1 for (d, s) in games if s == 0 and (d, 1) in games)
        margin = statistics.fmean(
            r["scores"][r["hero_seat"]] - max(x for i, x in enumerate(r["scores"]) if i != r["hero_seat"]) for r in rs
        )
        lines.append(
            f"  complete seat-swapped pairs {pairs}; mean score margin {margin:+.1f};"
            f" mean {statistics.fmean(r['seconds'] for r in rs):.1f} s/game"
            f" ({statistics.fmean(r.get('cpu', math.nan) for r in rs):.1f} CPU-s),"
            f" {statistics.fmean(r['hero_moves'] for r in rs):.1f} hero moves/game"
        )
        for first in sorted({r.get("first", 0) for r in rs}):
            sub = [r for r in rs if r.get("first", 0) == first]
            mover = sum(r["hero_share"] for r in sub if r["hero_seat"] == first)
            movers = sum(1 for r in sub if r["hero_seat"] == first)
            lines.append(
                f"  first player seat {first}: hero {100 * sum(r['hero_share'] for r in sub) / len(sub):.1f}% n={len(sub)}"
                f" (moving first {mover:g}/{movers})"
            )
        lines.append(f"  commits: {', '.join(sorted({r['commit'] for r in rs}))}")
    return lines


def cmd_report(a: argparse.Namespace) -> None:
    print("\n".join(summarize(a.files)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("budget", help="playouts AdvisorBot(seconds=S) runs per move here")
    b.add_argument("--edition", default="usa")
    b.add_argument("--players", type=int, default=2)
    b.add_argument("--games", type=int, default=6)
    b.add_argument("--seconds", type=float, default=1.0)
    b.add_argument("--seed", type=int, default=1000, help="first deal seed")
    r = sub.add_parser("run", help="play seat-swapped games, append JSON lines (resumable)")
    r.add_argument("--edition", default="usa")
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--hero", required=True)
    r.add_argument("--villain", default="greedy")
    r.add_argument("--deals", required=True, help="A:B, deal seeds A..B-1")
    r.add_argument("--out", required=True)
    r.add_argument(
        "--z", type=float, help="the advisor's caution rule's Z_DEVIATE in this run (default: the library's)"
    )
    r.add_argument(
        "--delta", type=float, help="the advisor's caution rule's DELTA_DEVIATE in this run (default: the library's)"
    )
    r.add_argument(
        "--alternate-first",
        action="store_true",
        help="the first player is seat (deal mod players): seat 1 moves first in odd deals (default: seat 0 always)",
    )
    p = sub.add_parser("report", help="combine JSONL shards")
    p.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    {"budget": cmd_budget, "run": cmd_run, "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    main()
