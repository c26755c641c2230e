"""Command line: play a seeded bot game, replay or validate a record.

Examples (shell)::

    python -m ttr_lab play --edition usa --bots greedy,greedy,random --seed 7
    python -m ttr_lab play --seed 7 --save game.json
    python -m ttr_lab replay game.json          # prints the final breakdown
    python -m ttr_lab validate game.json        # exit 1 with the ply on error
    python -m ttr_lab editions                  # what can be played
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .bots import BOTS, make_bot, play_game
from .editions import edition_names, find_edition
from .errors import TtrError
from .records import Record

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ttr_lab", description="ttr_lab: an unofficial Ticket to Ride teaching kit"
    )
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a seeded game between bots and print the final breakdown")
    play.add_argument("--edition", default="usa", help="edition name or alias (see 'editions')")
    play.add_argument(
        "--bots", default="greedy,greedy,random,random", help=f"comma-separated, one per seat ({', '.join(BOTS)})"
    )
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="edition option, e.g. max_consecutive_resets=3",
    )
    play.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    play.add_argument("--moves", action="store_true", help="print every move")
    rep = sub.add_parser("replay", help="replay a record file and print the final breakdown")
    rep.add_argument("file")
    rep.add_argument("--moves", action="store_true", help="print every move")
    val = sub.add_parser("validate", help="check that a record file replays (exit 1 if not)")
    val.add_argument("file")
    sub.add_parser("editions", help="list edition names and aliases")
    return p


def _option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise TtrError(f"--option wants NAME=VALUE, got {text!r}")
    low = value.lower()
    parsed: object = value
    if low in ("none", "null"):
        parsed = None
    elif low in ("true", "false"):
        parsed = low == "true"
    elif value.lstrip("-").isdigit():
        parsed = int(value)
    return name, parsed


def _print_moves(record: Record) -> None:
    for ply, text in enumerate(record.moves, 1):
        print(f"{ply:4d}. {text}")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "editions":
            for name in edition_names():
                print(f"{name:16s} {find_edition(name)!r}")
            return 0
        if args.command == "play":
            names = [b.strip() for b in args.bots.split(",") if b.strip()]
            bots = [make_bot(name, seed=args.seed * 101 + i) for i, name in enumerate(names)]
            options = dict(_option(o) for o in args.option)
            game = play_game(args.edition, bots, seed=args.seed, **options)
            record = Record.from_state(game, headers={"Bots": ",".join(names)})
            if args.moves:
                _print_moves(record)
            print(game.outcome())
            if args.save:
                record.save(args.save)
                print(f"record saved to {args.save} ({len(record)} moves)")
            return 0
        record = Record.load(args.file)
        game = record.replay()
        if args.command == "validate":
            state = "finished" if game.is_over else f"unfinished, {game.phase.name.lower()} due"
            print(f"{args.file}: OK, {len(record)} moves, game {state}")
            return 0
        if args.moves:
            _print_moves(record)
        print(game.outcome() if game.is_over else f"game unfinished after {len(record)} moves\n{game.outcome()}")
        return 0
    except (TtrError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
