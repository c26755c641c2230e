"""Where a random game's machine instructions go: prints figures, asserts nothing.

    python benchmarks/attribute.py                      # Rails & Sails World
    python benchmarks/attribute.py --edition usa --root /path/to/other/checkout

Needs ``valgrind`` (Debian package ``valgrind``).  The scored random 4-player
games of the headline benchmark (``bench_engine.py``) are recorded once, as
move notation; then each *part* below replays the same games in a fresh
process under cachegrind: pushing the recorded moves and calling only that
part's hook at every turn.  A fresh process's caches fill as they do in a
real run, so cache misses are counted where they happen; instructions do not
depend on the machine's load; ``PYTHONHASHSEED`` is fixed so repeated runs
count the same.  Each figure is the difference between ``--games`` and
``--skip`` games, per game (the steady state, start-up and first games'
cold caches excluded), less a replay that only reads and parses the
recorded games (``parse``); a hook's line also shows its cost over ``push``:

* ``full``: listing, a random pick and scoring, as ``bench_engine.py`` plays;
* ``push``: the moves alone (dealing, applying, the undo history);
* ``outcome``: final scoring; ``listing``: every ply's legal moves counted;
* one line per turn hook of the edition (``claim_groups``, ``draw_groups``, ...).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import count_instructions  # noqa: E402

#: plays ``games`` scored random 4-player games as bench_engine.py does; writes their moves
RECORD = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
import ttr_lab
edition, games, out = sys.argv[2], int(sys.argv[3]), sys.argv[4]
rng = random.Random(12345)
played = []
for seed in range(games):
    g = ttr_lab.new_game(edition, players=4, seed=seed)
    picks = []
    while not g.is_over:
        moves = g.legal_moves
        i = rng.randrange(len(moves))
        picks.append(i)
        g.push(moves[i])
    played.append({"picks": picks, "moves": [str(m) for m in g.move_stack]})
with open(out, "w") as f:
    json.dump(played, f)
"""

#: replays the first ``games`` recorded games, doing only ``part``
REPLAY = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import ttr_lab
from ttr_lab import parse_move
edition, part, games, path = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
with open(path) as f:
    played = json.load(f)[:games]
played = [(p["picks"], [parse_move(m) for m in p["moves"]]) for p in played]  # every part parses
ed = ttr_lab.new_game(edition, players=4, seed=0).edition
hook = {f.__name__: f for f in ed._turn_action_fns}.get(part)
TURN = int(ttr_lab.Phase.TURN)
for seed, (picks, moves) in enumerate(played):
    g = ttr_lab.new_game(edition, players=4, seed=seed)
    if part == "full":
        for i in picks:
            g.push(g.legal_moves[i])
        g.outcome()
    elif part == "check":  # the picks replay the recorded moves (tests/test_bench_attribute.py)
        for i, m in zip(picks, moves):
            assert g.legal_moves[i] == m, (seed, g.ply, m)
            g.push(m)
        assert g.is_over
    elif part == "listing":
        for m in moves:
            len(g.legal_moves)
            g.push(m)
    elif part == "outcome":
        for m in moves:
            g.push(m)
        g.outcome()
    elif hook is not None:
        for m in moves:
            if g._phase == TURN:
                hook(g)
            g.push(m)
    elif part == "push":
        for m in moves:
            g.push(m)
    elif part != "parse":  # parse: only read and parse the games (the baseline)
        raise SystemExit(f"unknown part {part!r}")
"""


def instructions(root: str, edition: str, part: str, games: int, path: str) -> int:
    """Instructions of one replay process under cachegrind."""
    argv = [sys.executable, "-c", REPLAY, root, edition, part, str(games), path]
    return count_instructions(argv, env=dict(os.environ, PYTHONHASHSEED="0"))


def per_game(root: str, edition: str, part: str, skip: int, games: int, path: str) -> float:
    """Instructions a game of ``part``, games ``skip`` to ``games`` (millions)."""
    hi = instructions(root, edition, part, games, path)
    lo = instructions(root, edition, part, skip, path)
    return (hi - lo) / (games - skip) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edition", default="rails_and_sails")
    ap.add_argument("--root", default=str(ROOT), help="the checkout to measure")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--skip", type=int, default=10, help="games not counted (start-up, cold caches)")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import ttr_lab

    hooks = [f.__name__ for f in ttr_lab.new_game(args.edition, players=4, seed=0).edition._turn_action_fns]
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "games.json")
        subprocess.run([sys.executable, "-c", RECORD, args.root, args.edition, str(args.games), path], check=True)
        print(f"{args.edition}: instructions a scored random 4-player game, games {args.skip}-{args.games}")
        base = per_game(args.root, args.edition, "parse", args.skip, args.games, path)
        push = 0.0
        for part in ["full", "push", "outcome", "listing", *hooks]:
            n = per_game(args.root, args.edition, part, args.skip, args.games, path) - base
            if part == "push":
                push = n
            extra = "" if part in ("full", "push") else f"  (push + {n - push:6.2f} M)"
            print(f"  {part:20s} {n:7.2f} M{extra}", flush=True)


if __name__ == "__main__":
    main()
