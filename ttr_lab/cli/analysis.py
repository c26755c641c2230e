"""Command line analysis of a saved game: advice, ticket odds, a review.

Each command reads a game record or a position file and answers from one
seat's fair view (:meth:`~ttr_lab.engine.state.GameState.view`), as the notebooks
do: a record holds every hand, but the analysis sees only what that seat
may know.  ``--ply K`` looks at the position after the first K moves of a
record (default: after all of them).  ``review --seat S`` of a full record
also shows the moves as seat S saw them (the others' kept tickets unknown).

Examples (shell)::

    python -m ttr_lab advise game.json --ply 40 --seconds 2      # the player to move
    python -m ttr_lab advise game.json --ply 40 --seat 1 --playouts 200 --top 3
    python -m ttr_lab odds game.json --ply 40 --seat 0            # closed form
    python -m ttr_lab odds game.json --ply 40 --seat 0 --playouts 200  # and simulated
    python -m ttr_lab review game.json --playouts 24 --plies 30-60   # needs the [sim] extra
    python -m ttr_lab review game.json --seat 0 --save review.csv     # every column, for a spreadsheet

Budgets in ``--playouts`` give the same answer on every run (with the same
``--seed``); ``--seconds`` depends on the machine.  ``review`` without a
budget plays :data:`REVIEW_PLAYOUTS` a move where the compiled kernel plays
the edition (``ttr_lab.analysis.kernel_info()``), else
:data:`REVIEW_SECONDS` s a ply; it prints the budget it used.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from ..analysis import THRESHOLDS, advise, kernel_info, quick_odds, review, ticket_odds
from ..analysis.advisor.values import RANKING
from ..engine.state import GameState
from ..engine.view import PlayerView
from ..errors import TtrError
from ..io.numerals import is_numeral, read_number
from ..io.safeio import atomic_open
from ..records.saved import Record

__all__ = ["ANALYSIS_COMMANDS", "add_analysis_commands", "run_analysis"]

#: the commands this module adds to ``python -m ttr_lab``
ANALYSIS_COMMANDS = ("advise", "odds", "review")

#: a file reader: ``("record", Record)`` or ``("position", GameState)``
Reader = Callable[[str], tuple[str, Any]]


def _where(p: argparse.ArgumentParser, *, seat_help: str) -> None:
    p.add_argument("file", help="a game record or position file (JSON)")
    p.add_argument("--ply", type=int, help="the position after this many moves of a record (default: all)")
    p.add_argument("--seat", help=seat_help + "; a number or a player's name")
    p.add_argument("--seed", type=int, default=0, help="same seed and playouts, same answer (default 0)")


def add_analysis_commands(sub: Any) -> None:
    """Add ``advise``, ``odds`` and ``review`` to an argparse subparsers object."""
    adv = sub.add_parser("advise", help="win chances and the best moves from one seat's view")
    _where(adv, seat_help="the seat to advise (default: the seat to move, or a seat record's seat)")
    budget = adv.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=2.0, help="time budget (default 2)")
    budget.add_argument("--playouts", type=int, help="playout budget (deterministic)")
    adv.add_argument("--top", type=int, default=5, help="moves to show (default 5)")
    odds = sub.add_parser("odds", help="each ticket's chance of completion, from one seat's view")
    _where(odds, seat_help="whose tickets (default: the seat to move, or a seat record's seat)")
    odds.add_argument("--playouts", type=int, help="also simulate so many games (the closed form is instant)")
    rev = sub.add_parser("review", help="every player's win chance after every move; flagged mistakes ([sim] extra)")
    rev.add_argument("file", help="a game record (JSON)")
    rev.add_argument(
        "--seat", help="review from this seat's view only (a number or a player's name; default: each mover's own)"
    )
    rb = rev.add_mutually_exclusive_group()
    rb.add_argument(
        "--seconds-per-ply",
        type=float,
        help=f"time budget a ply (default: --playouts {REVIEW_PLAYOUTS} where the compiled kernel plays the "
        f"edition, else {REVIEW_SECONDS} s a ply)",
    )
    rb.add_argument("--playouts", type=int, help="playouts a move and ply (deterministic)")
    rev.add_argument("--plies", help="only these plies, e.g. 30-60 or 12,15,40 (1-based)")
    rev.add_argument("--seed", type=int, default=0, help="same seed and playouts, same review (default 0)")
    rev.add_argument("--all", action="store_true", help="print every reviewed ply, not only the flagged ones")
    rev.add_argument("--save", metavar="FILE", help="also write every reviewed ply, all columns, to FILE (.csv)")
    rev.add_argument("--no-progress", action="store_true", help="no progress bar")


def _position(args: argparse.Namespace, read: Reader) -> tuple[PlayerView, Record | None]:
    """The seat's view of the position the command names, and the record if any."""
    kind, loaded = read(args.file)
    if args.ply is not None and args.ply < 0:
        raise TtrError(f"--ply is a number of moves, 0 or more, not {args.ply}")
    if kind == "position":
        if args.ply is not None:
            raise TtrError(f"{args.file}: a position has no moves, so --ply does not apply")
        state: GameState = loaded
        args.seat = _seat_number(args.seat, state.player_names)
        return _seat_view(state, args.seat), None
    record: Record = loaded
    args.seat = _seat_number(args.seat, record.players)
    if args.ply is not None and args.ply > len(record):
        raise TtrError(f"--ply {args.ply}: the record has only {len(record)} moves")
    if record.seat is not None:  # a seat record shows one seat only
        return record.replay_view(args.seat, upto=args.ply), record
    return _seat_view(record.replay(upto=args.ply), args.seat), record


def _seat_number(text: str | None, names: Any) -> int | None:
    """``--seat``: a seat number, or a player's name (any case)."""
    if text is None:
        return None
    if is_numeral(text.strip(), signed=True):  # ASCII digits only: '²' is looked up as a name
        return int(text)
    found = [p for p, name in enumerate(names) if str(name).casefold() == text.strip().casefold()]
    if len(found) != 1:
        listed = ", ".join(f"{p} {name}" for p, name in enumerate(names))
        raise TtrError(f"--seat {text[:40]!r}: give a seat number or one player's name ({listed})")
    return found[0]


def _seat_view(state: GameState, seat: int | None) -> PlayerView:
    if seat is None:
        seat = state.current_player
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise TtrError(f"--seat {seat}: the game has seats 0 to {state.num_players - 1}")
    return state.view(seat)


def _at(view: PlayerView, record: Record | None) -> str:
    return f"ply {view.ply}" if record is not None else "the saved position"


def _names(view: PlayerView) -> list[str]:
    return [f"{name} (seat {p})" for p, name in enumerate(view.player_names)]


def _advise(args: argparse.Namespace, read: Reader) -> int:
    view, record = _position(args, read)
    if args.top < 0:
        raise TtrError(f"--top must be 0 or more, not {args.top}")
    if args.playouts is not None:
        a = advise(view, playouts=args.playouts, seed=args.seed)
    else:
        a = advise(view, seconds=args.seconds, seed=args.seed)
    names = _names(view)
    print(f"From {names[view.player]}'s view, {_at(view, record)}, {a.playouts} playouts:")
    for p, name in enumerate(names):
        print(f"  {name:28s} wins {100 * a.win_probabilities[p]:5.1f}%   expected score {a.expected_scores[p]:6.1f}")
    if not a.moves:
        print(f"{names[view.player]} is not to move: no moves to rank.")
    if a.moves:
        print(RANKING)
    for i, m in enumerate(a.moves[: args.top], 1):
        print(f"{i}. {m}")
        if m.explanation:
            print(f"   {m.explanation}")
    return 0


def _odds(args: argparse.Namespace, read: Reader) -> int:
    view, record = _position(args, read)
    name = _names(view)[view.player]
    if not view.tickets:
        print(f"{name} holds no tickets yet.")
        return 0
    quick = quick_odds(view)
    sim = ticket_odds(view, playouts=args.playouts, seed=args.seed) if args.playouts is not None else None
    print(f"{name}'s tickets, {_at(view, record)}: chance of completion by the end")
    head = f"  {'ticket':34s} {'points':>6s}  {'closed form':>11s}"
    print(head + (f"  {'simulated (95% interval)':>26s}" if sim else ""))
    for i, q in enumerate(quick):
        t = q.ticket
        line = f"  {t.label():34s} {t.points:6d}  {100 * q.probability:10.0f}%"
        if sim:
            s = sim[i]
            line += f"  {100 * s.probability:5.0f}% [{100 * s.low:.0f}, {100 * s.high:.0f}] of {s.playouts}"
        print(line)
    return 0


def _plies(text: str | None) -> list[int] | None:
    if text is None:
        return None
    out: list[int] = []
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            a = read_number(lo.strip(), what="--plies")
            b = read_number(hi.strip(), what="--plies") if sep else a
        except TtrError:
            raise TtrError(f"--plies wants numbers and ranges such as 30-60 or 12,15, not {text!r}") from None
        if a < 1 or b < a:
            raise TtrError(f"--plies: {part.strip()!r} is not a range of plies counted from 1")
        out.extend(range(a, b + 1))
    return out


#: review's default budget where the compiled kernel plays the edition: playouts a
#: move (deterministic; a whole 2-player USA game in well under 30 s of CPU, its flags
#: compared with 10x in benchmarks/README.md, "Game review") ...
REVIEW_PLAYOUTS = 50
#: ... and elsewhere (Python playouts), seconds a ply, so a review still ends in time
REVIEW_SECONDS = 0.25


def _review_budget(args: argparse.Namespace, record: Any) -> dict[str, Any]:
    """``--playouts`` or ``--seconds-per-ply`` as given, else the default:
    :data:`REVIEW_PLAYOUTS` where the kernel plays the record's edition,
    :data:`REVIEW_SECONDS` a ply elsewhere."""
    if args.playouts is not None:
        return {"playouts": args.playouts}
    if args.seconds_per_ply is not None:
        return {"seconds_per_ply": args.seconds_per_ply}
    info = kernel_info()
    edition = getattr(getattr(record.replay(upto=0), "edition", None), "name", None)
    if info.enabled and edition in info.editions:
        return {"playouts": REVIEW_PLAYOUTS}
    return {"seconds_per_ply": REVIEW_SECONDS}


def _review(args: argparse.Namespace, read: Reader) -> int:
    kind, record = read(args.file)
    if kind != "record":
        raise TtrError(f"{args.file}: a position, not a game record: it has no moves to review")
    args.seat = _seat_number(args.seat, record.players)
    if record.seat is not None:  # a seat record shows one seat only
        if args.seat is not None and args.seat != record.seat:
            raise TtrError(f"{args.file}: a seat record of seat {record.seat} shows no other seat's view")
        args.seat = record.seat
    plies = _plies(args.plies)
    if plies is not None and plies[-1] > len(record):
        raise TtrError(f"--plies: the record has only {len(record)} moves")
    budget = _review_budget(args, record)
    start = record.replay(upto=0)
    if args.seat is not None and (args.seat < 0 or args.seat >= start.num_players):
        raise TtrError(f"--seat {args.seat}: the game has seats 0 to {start.num_players - 1}")
    if args.seat is not None and record.seat is None:  # one seat's view: the moves as it saw them, too
        record = Record.from_state(record.replay(), seat=args.seat)
    if args.save is not None and not args.save.endswith(".csv"):
        raise TtrError(f"--save writes a .csv file, not {args.save!r}")
    # --save: a new temporary file beside FILE, made first (a folder that cannot be
    # written fails before the review), renamed over FILE only when all of it is
    # written; a failed or interrupted review leaves an existing FILE as it was
    saving = atomic_open(args.save, newline="", what="CSV file") if args.save is not None else nullcontext()
    with saving as out:
        df = review(record, args.seat, seed=args.seed, plies=plies, progress=not args.no_progress, **budget)
        if out is not None:
            df.to_csv(out, index=False)
    names = [f"{name} (seat {p})" for p, name in enumerate(start.player_names)]
    wins = [f"win_{p}" for p in range(len(names))]
    whose = "each mover's own view" if args.seat is None else f"{names[args.seat]}'s view"
    said = f"{budget['playouts']} playouts a move" if "playouts" in budget else f"{budget['seconds_per_ply']} s a ply"
    print(f"Review of {args.file}: {len(df)} plies from {whose}, at {said}")
    print(f"  flags by the drop in the mover's win chance: {_thresholds()}")
    rows = df if args.all else df[df["flag"] != ""]
    if len(rows):
        print(f"  {'ply':>4s}  {'mover':24s} {'move':30s} {'flag':10s} {'drop':>5s}  {'better':22s} win chances after")
    for r in rows.itertuples(index=False):
        drop = "" if r.drop != r.drop else f"{100 * r.drop:4.0f}%"  # NaN: not judged
        after = " ".join(f"{100 * getattr(r, w):3.0f}%" for w in wins)
        print(
            f"  {r.ply:4d}  {names[r.seat]:24s} {str(r.move)[:30]:30s} {r.flag:10s} {drop:>5s}  {str(r.best)[:22]:22s} {after}"
        )
    for p, name in enumerate(names):
        mine = df[(df["seat"] == p) & (df["flag"] != "")]["flag"].value_counts()
        counts = ", ".join(_count(int(mine.get(f, 0)), f) for f, _ in _flags())
        print(f"  {name}: {counts}")
    if args.save is not None:
        print(f"every reviewed ply saved to {args.save}")
    return 0


_PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _count(k: int, flag: str) -> str:
    return f"{k} {flag if k == 1 else _PLURAL[flag]}"


def _flags() -> tuple[tuple[str, float], ...]:
    return tuple(reversed(THRESHOLDS))


def _thresholds() -> str:
    return ", ".join(f"{f} >= {t:g} points" for f, t in _flags())


def run_analysis(args: argparse.Namespace, read: Reader) -> int:
    """Run one of :data:`ANALYSIS_COMMANDS`; ``read`` loads the file."""
    if args.command == "advise":
        return _advise(args, read)
    if args.command == "odds":
        return _odds(args, read)
    return _review(args, read)
