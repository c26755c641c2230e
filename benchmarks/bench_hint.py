"""The play widget's Advisor tab: time and honesty of the bars and the Hint.

    python benchmarks/bench_hint.py                  # 20 positions
    python benchmarks/bench_hint.py --positions 40 --hint 300

Prints figures, asserts nothing.  Positions: the seat to move every few
plies of 2-player USA games between the playout bot and the greedy bot
(plies 6-120).  For each, three questions as the Advisor tab asks them
(:func:`~ttr_lab.analysis.advise`, deterministic budgets):

* **old bars**: the budget before issue 19 D2, 16 playouts over the
  candidates (the bars showed the top move's chance, the hint its moves);
* **bars**: :data:`~ttr_lab.widgets.playing.tabs.ADVISOR_PLAYOUTS` playouts, all
  on the policy's own line of play (``candidates=1``), after every move;
* **hint**: :data:`~ttr_lab.widgets.advice.HINT_PLAYOUTS` (``--hint``) over
  the candidate moves, when Hint is pressed.

For each: the seconds (median, 90th percentile), the playouts behind the
number shown (the top move's), and how often the number may be shown
(:func:`~ttr_lab.widgets.advice.chance_words`: at least
:data:`~ttr_lab.widgets.advice.MIN_PLAYOUTS` games and a 95% interval at most
:data:`~ttr_lab.widgets.advice.MAX_WIDTH` wide).  The machine's load average
is printed too: the figures are wall-clock times.
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
from ttr_lab.analysis import advise
from ttr_lab.bots import make_bot
from ttr_lab.widgets.advice import HINT_PLAYOUTS, chance_words
from ttr_lab.widgets.playing.tabs import ADVISOR_PLAYOUTS


def positions(count: int, seed: int) -> list[ttr_lab.GameState]:
    """``count`` positions (the seat to move), every 7th ply from ply 6 of bot games."""
    out: list[ttr_lab.GameState] = []
    game_seed = seed
    while len(out) < count:
        g = ttr_lab.new_game("usa", players=2, seed=game_seed)
        bots = [make_bot("playout", game_seed), make_bot("greedy", game_seed + 1)]
        while not g.is_over and len(out) < count and g.ply <= 120:
            if g.ply >= 6 and g.ply % 7 == 6:
                out.append(g.copy())
            g.play(bots[g.current_player].choose(g.view(g.current_player)))
        game_seed += 1
    return out


def ask(view: object, **kw: object) -> tuple[float, int, bool]:
    """(seconds, playouts behind the top move, whether its chance may be shown)."""
    t = time.perf_counter()
    a = advise(view, seed=1, progress=False, **kw)  # type: ignore[arg-type]
    dt = time.perf_counter() - t
    m = a.moves[0]
    return dt, m.playouts, chance_words(m.win_probability, m.interval, m.playouts) is not None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--hint", type=int, default=HINT_PLAYOUTS, help="a Hint's playouts")
    args = ap.parse_args()
    if not 1 <= args.positions <= 1000 or not 1 <= args.hint <= 100_000:
        ap.error("--positions is 1-1000 and --hint 1-100000")
    games = positions(args.positions, args.seed)
    questions = {
        "old bars (16 over the candidates)": {"playouts": 16},
        f"bars ({ADVISOR_PLAYOUTS} on one line)": {"playouts": ADVISOR_PLAYOUTS, "candidates": 1},
        f"hint ({args.hint} over the candidates)": {"playouts": args.hint},
    }
    ask(games[0].view(games[0].current_player), playouts=8)  # imports and caches warmed
    print(f"{len(games)} positions (USA, 2 players), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'question':36} {'median s':>9} {'p90 s':>7} {'top move playouts':>18} {'number shown':>13}")
    for name, kw in questions.items():
        rows = [ask(g.view(g.current_player), **kw) for g in games]
        secs = sorted(r[0] for r in rows)
        p90 = secs[min(len(secs) - 1, int(0.9 * len(secs)))]
        n = statistics.median(r[1] for r in rows)
        shown = sum(r[2] for r in rows)
        print(f"{name:36} {statistics.median(secs):9.2f} {p90:7.2f} {n:18.0f} {shown:>6}/{len(rows)}")


if __name__ == "__main__":
    main()
