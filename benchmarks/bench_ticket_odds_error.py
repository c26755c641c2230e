"""Ticket odds against long runs from the TRUE state (issue 23, point 3).
Prints figures, asserts nothing.

    python benchmarks/bench_ticket_odds_error.py                       # 3 editions, 40 positions each
    python benchmarks/bench_ticket_odds_error.py --editions usa --positions 80 --reference 200
    python benchmarks/bench_ticket_odds_error.py --before 86c230b      # the code before the fix, side by side

Positions: games of 2-4 players, each seat a playout-policy or greedy bot
(drawn per game), stopped at a random ply after the first claim, one random
seat's view (as ``benchmarks/bench_odds.py``), seeds from ``--seed``
(held out: the odds' constants were not set on them).  The tickets judged
are the view's **unsettled** ones: not connected yet and still possible
(``quick_inputs`` status ``"open"``, read from the view alone).  Among
them, the **uncertain** ones are those a pilot run (``ticket_odds``, 40
playouts, another seed, the code before the fix) puts between 5% and 95%:
in bot games most open tickets are near-certain, and the issue's worst
cases are uncertain ones.  Both selections read the view only, so they
favour neither version.

For each such ticket, the **stated** chance and 95% interval
(``ticket_odds(view, playouts=--playouts)``, before and after the fix)
against two references, each ``--reference`` continuations by the playout
policy (every seat):

* ``true``: from the true state as it is (the other hands, tickets and the
  deck order as dealt): the issue's reference;
* ``true, deck shuffled``: the true hands and tickets, the decks (the cards
  nobody holds) shuffled again for every continuation: what the seat could
  know at best, since the deck order is chance to every seat.

Figures per edition, in percentage points, stated minus reference: the mean
error with a 95% bootstrap interval (resampling positions: the tickets of a
position share their playouts), the RMS error, and the coverage (how often
the reference lies inside the stated interval).  The stated interval is the
Monte Carlo interval of the chance given the view; even a perfect estimate
misses a reference from one true state by the spread of the hidden cards
and tickets, so coverage against ``true`` stays below 95% for any method.

``--before REV`` loads ``ttr_lab/analysis/odds/tickets.py`` as it was at git
revision ``REV`` (the rest of the package as it is now) and runs it next to
the current one.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ttr_lab  # noqa: E402
from ttr_lab.analysis.odds import quick_inputs  # noqa: E402
from ttr_lab.analysis.odds import tickets as odds  # noqa: E402
from ttr_lab.bots.held_out import bot_position, reshuffled  # noqa: E402
from ttr_lab.bots.playout import play_out  # noqa: E402
from ttr_lab.engine.state import GameState  # noqa: E402

EDITIONS = ("usa", "europe", "rails_and_sails")
BEFORE = "86c230b"  # main before the fix


def completions(states: Iterable[GameState], seat: int, tids: list[int]) -> dict[int, float]:
    """Each ticket's share of completions when ``states`` are played to the end."""
    done = dict.fromkeys(tids, 0)
    n = 0
    for i, s in enumerate(states):
        for tid, ok in play_out(s, seed=i).tickets[seat]:
            if ok and tid in done:
                done[tid] += 1
        n += 1
    return {t: k / n for t, k in done.items()}


def load_before(rev: str) -> Callable[..., Any] | None:
    """``ticket_odds`` of odds.py at ``rev``, as a sibling module of the current package."""
    try:
        src = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:ttr_lab/analysis/odds/tickets.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"# no code before the fix ({rev}): {e}")
        return None
    path = Path(tempfile.mkdtemp()) / "odds_before.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("ttr_lab.analysis._odds_before", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod.ticket_odds  # type: ignore[no-any-return]


def collect(
    name: str, seeds: Iterable[int], want: int, args: argparse.Namespace, methods: dict[str, Any]
) -> list[dict]:
    """Rows, one per judged ticket, from up to ``want`` positions with an unsettled ticket."""
    rows: list[dict] = []
    pilot = methods.get("before", methods["after"])
    found = 0
    for seed in seeds:
        if found >= want:
            break
        g, seat = bot_position(name, seed)
        v = g.view(seat)
        tids = [t.id for t, inp in quick_inputs(v) if inp.status == "open"]
        if not tids:
            continue
        found += 1
        first = {o.ticket.id: o.probability for o in pilot(v, playouts=40, seed=seed + 1)}
        rng = random.Random(seed)
        refs = {
            "true": completions((g.copy() for _ in range(args.reference)), seat, tids),
            "shuffled": completions((reshuffled(g, rng) for _ in range(args.reference)), seat, tids),
        }
        stated = {}
        for label, fn in methods.items():
            t0 = time.process_time()
            stated[label] = {o.ticket.id: o for o in fn(v, playouts=args.playouts, seed=seed)}
            stated[label + "_cpu"] = time.process_time() - t0
        for tid in tids:
            row = {
                "edition": name,
                "seed": seed,
                "ticket": tid,
                "uncertain": 0.05 < first[tid] < 0.95,
                **{f"ref_{k}": r[tid] for k, r in refs.items()},
            }
            for label in methods:
                o = stated[label][tid]
                row[label] = (o.probability, o.low, o.high)
                row[label + "_cpu"] = stated[label + "_cpu"]
            rows.append(row)
    return rows


def summary(rows: list[dict], label: str, ref: str, boots: int = 2000) -> str:
    """Mean error [bootstrap 95%], RMS and coverage, in points, over ``rows``."""
    if not rows:
        return "no tickets"
    by_pos: dict[int, list[float]] = {}
    cover = 0
    for r in rows:
        p, lo, hi = r[label]
        by_pos.setdefault(r["seed"], []).append(p - r[ref])
        cover += lo - 1e-9 <= r[ref] <= hi + 1e-9
    errs = [e for es in by_pos.values() for e in es]
    groups = list(by_pos.values())
    rng = random.Random(0)
    means = sorted(statistics.fmean([e for g in rng.choices(groups, k=len(groups)) for e in g]) for _ in range(boots))
    lo, hi = means[int(0.025 * boots)], means[int(0.975 * boots) - 1]
    rms = math.sqrt(statistics.fmean(e * e for e in errs))
    return (
        f"{100 * statistics.fmean(errs):+6.1f} [{100 * lo:+5.1f}, {100 * hi:+5.1f}]  RMS {100 * rms:5.1f}"
        f"  coverage {cover}/{len(rows)} ({100 * cover / len(rows):.0f}%)"
    )


def report(rows: list[dict], methods: Iterable[str]) -> None:
    names = sorted({r["edition"] for r in rows}, key=lambda e: EDITIONS.index(e) if e in EDITIONS else 99)
    for name in names:
        mine = [r for r in rows if r["edition"] == name]
        positions = len({r["seed"] for r in mine})
        for group, sel in (("unsettled", mine), ("uncertain", [r for r in mine if r["uncertain"]])):
            npos = len({r["seed"] for r in sel})
            print(f"\n{name}: {group} tickets {len(sel)} in {npos} positions (of {positions})")
            for label in methods:
                for ref in ("ref_true", "ref_shuffled"):
                    print(f"  {label:6} vs {ref[4:]:9} {summary(sel, label, ref)}")
        for label in methods:
            cpu = statistics.fmean({r["seed"]: r[label + "_cpu"] for r in mine}.values())
            print(f"  {label}: {cpu:.2f} CPU s per ticket_odds call")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--editions", default=",".join(EDITIONS))
    ap.add_argument("--positions", type=int, default=40, help="positions with an unsettled ticket, per edition")
    ap.add_argument("--reference", type=int, default=80, help="continuations per reference")
    ap.add_argument("--playouts", type=int, default=100, help="ticket_odds' playouts")
    ap.add_argument("--seed", type=int, default=50_000, help="the first game seed")
    ap.add_argument("--before", default=BEFORE, help="git revision of odds.py before the fix ('' to skip)")
    args = ap.parse_args()
    methods: dict[str, Any] = {}
    if args.before:
        fn = load_before(args.before)
        if fn is not None:
            methods["before"] = fn
    methods["after"] = odds.ticket_odds
    print(f"# {ttr_lab.analysis.kernel_info()}")
    print(
        f"# {args.positions} positions per edition from seed {args.seed}, references {args.reference} continuations,"
        f" ticket_odds {args.playouts} playouts; stated minus reference, points"
    )
    rows: list[dict] = []
    for name in args.editions.split(","):
        t0 = time.time()
        got = collect(name, range(args.seed, args.seed + 100 * args.positions), args.positions, args, methods)
        print(f"# {name}: {len(got)} tickets, {time.time() - t0:.0f} s", flush=True)
        rows += got
    report(rows, methods)


if __name__ == "__main__":
    main()
