"""Command line: play a seeded bot game, replay or validate a record, analyse it.

Examples (shell)::

    python -m ttr_lab play --edition usa --bots greedy,greedy,random --seed 7
    python -m ttr_lab play --seed 7 --save game.json
    python -m ttr_lab replay game.json          # prints the final breakdown
    python -m ttr_lab validate game.json        # exit 1 with the ply on error
    python -m ttr_lab validate position.json    # a saved position is checked too
    python -m ttr_lab editions                  # what can be played
    python -m ttr_lab tournament --agents greedy,destination_hungry --edition europe --players 3 --games 200
    python -m ttr_lab advise game.json --ply 40 --seconds 2   # analysis: see ttr_lab.cli.analysis
    python -m ttr_lab odds game.json --ply 40 --seat 0
    python -m ttr_lab review game.json --playouts 24

The same commands run as ``ttr-lab`` (the console script); ``--version``
says which ttr_lab it is.

Every failure is one line on stderr (``error: ...``) and a non-zero exit:
1 for a game, record or file problem (also an output that cannot be written:
a closed standard output, a full disk), 2 for a malformed command line, 130
for Ctrl-C (also while the command starts: :mod:`ttr_lab.io.cli_guard`).  When
the output is cut short (``... | head -1``) the command stops quietly, as
command-line tools do, with the exit status of a broken pipe (141).  Every
command that reads a game record checks all of it first, the same way
(:func:`read_game_file`): a record that does not replay fails every command.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NoReturn

from ..bots.simple import BOTS, make_bot, play_game
from ..editions import edition_names, find_edition
from ..engine.position import POSITION_FORMAT
from ..engine.state import GameState
from ..errors import TtrError
from ..io import cli_guard
from ..io.extras import missing_extra
from ..io.numerals import is_numeral, read_number
from ..io.safeio import RECORD_LIMIT, load_json, record_error
from ..records.saved import RECORD_FORMAT, Record
from .analysis import ANALYSIS_COMMANDS, add_analysis_commands, run_analysis

__all__ = ["main", "read_game_file"]

#: the exit status of a command whose output pipe was closed (128 + SIGPIPE)
BROKEN_PIPE = 128 + getattr(signal, "SIGPIPE", 13)
#: the exit status of a command stopped by Ctrl-C (128 + SIGINT)
INTERRUPTED = cli_guard.INTERRUPTED


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        _fail(f"{message} (see '{self.prog} --help')")
        raise SystemExit(2)


def _fail(message: str) -> None:
    text = " ".join(str(message).split())  # one line, whatever the message holds
    try:
        print(f"error: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # standard error closed or full too: the exit status still tells
        pass


def _prog() -> str:
    """How the user ran us, for usage lines: ``ttr-lab`` (the console script) or ``python -m ttr_lab``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "ttr-lab" if name.lower().removesuffix(".exe") == "ttr-lab" else "python -m ttr_lab"


def _parser() -> argparse.ArgumentParser:
    version = sys.modules["ttr_lab"].__version__  # the package is loaded: we are in it
    p = _Parser(prog=_prog(), description="ttr_lab: an unofficial Ticket to Ride teaching kit")
    p.add_argument("--version", action="version", version=f"ttr_lab {version}")
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
    val = sub.add_parser("validate", help="check that a record replays, or that a position is possible (exit 1 if not)")
    val.add_argument("file")
    sub.add_parser("editions", help="list edition names and aliases")
    tour = sub.add_parser(
        "tournament", help="a seat-rotated tournament between agents: win rates with 95%% intervals, ratings"
    )
    tour.add_argument("--agents", required=True, help=f"comma-separated agent names ({', '.join(BOTS)})")
    tour.add_argument(
        "--edition", default="usa", help="edition name or alias (see 'editions'); comma-separated for several"
    )
    tour.add_argument("--players", default="2", help="players per game; comma-separated for several (2,3,4)")
    tour.add_argument("--games", type=int, default=120, help="games per edition and player count")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster (tcp://host:8786)")
    tour.add_argument("--workers", type=int, default=0, help="run on N local processes (default: in this process)")
    tour.add_argument(
        "--batch-size", type=int, metavar="N", help="games per task (default: chosen from the games and workers)"
    )
    tour.add_argument(
        "--save", metavar="FILE", help="write the per-game rows to FILE (.csv or .csv.gz) and the table beside it"
    )
    tour.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_analysis_commands(sub)
    return p


def _option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise TtrError(f"--option wants NAME=VALUE, got {text!r}")
    low = value.lower()
    parsed: object = value
    if low in ("none", "null"):
        parsed = None
    elif low in ("true", "false"):
        parsed = low == "true"
    elif is_numeral(value, max_digits=19, signed=True):  # ASCII digits only: '²' stays text
        parsed = int(value)
    return name, parsed


def _print_moves(record: Record) -> None:
    for ply, text in enumerate(record.moves, 1):
        print(f"{ply:4d}. {text}")


def read_game_file(path: str) -> tuple[str, Any]:
    """A record or position file, checked in full: ``("record", Record)`` or ``("position", GameState)``.

    Every command reads its file here, so each refuses a bad file the same
    way: a position must be possible (``GameState.from_dict``), and a record
    must replay to its end, every move legal (``Record.replay``; the error
    names the ply), whatever part of it the command looks at.
    """
    data = load_json(path, limit=RECORD_LIMIT, error=record_error, what="game record or position file")
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == POSITION_FORMAT:
        return "position", GameState.from_dict(data, where=path)
    if isinstance(kind, str) and kind != RECORD_FORMAT:
        raise TtrError(
            f"{path}: a {kind[:40]!r} file, not a game record ({RECORD_FORMAT!r}) or a position ({POSITION_FORMAT!r})"
        )
    record = Record.from_dict(data, where=path)
    record.replay()  # all of it: 'review --plies 1-3' or 'advise --ply 10' refuses an illegal ply 31 as well
    return "record", record


def _play(args: argparse.Namespace) -> int:
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    bots = [make_bot(name, seed=args.seed * 101 + i) for i, name in enumerate(names)]
    options: dict[str, Any] = dict(_option(o) for o in args.option)
    game = play_game(args.edition, bots, seed=args.seed, **options)
    record = Record.from_state(game, headers={"Bots": ",".join(names)})
    if args.save:  # saved first: a file that cannot be written fails the command before any output
        record.save(args.save)
    if args.moves:
        _print_moves(record)
    print(game.outcome())
    if args.save:
        print(f"record saved to {args.save} ({len(record)} moves)")
    return 0


def _replay_or_validate(args: argparse.Namespace) -> int:
    kind, loaded = read_game_file(args.file)
    if kind == "position":
        state: GameState = loaded
        if args.command == "replay":
            raise TtrError(f"{args.file}: a position, not a game record: it has no moves to replay (try 'validate')")
        due = "game over" if state.is_over else f"{state.phase.name.lower()} due"
        print(f"{args.file}: OK, position of {state.edition.name}, {due}")
        return 0
    record: Record = loaded
    game = record.replay()
    if args.command == "replay" and record.seat is not None:
        return _replay_seat(record, game)
    if args.command == "validate":
        status = "finished" if game.is_over else f"unfinished, {game.phase.name.lower()} due"
        print(f"{args.file}: OK, {len(record)} moves, game {status}")
        return 0
    if args.moves:
        _print_moves(record)
    print(game.outcome() if game.is_over else f"game unfinished after {len(record)} moves\n{game.outcome()}")
    return 0


def _replay_seat(record: Record, game: GameState) -> int:
    """A seat record: only what its seat knows (its own tickets; everyone's
    routes and route points), never a breakdown of the others' secrets."""
    seat = record.seat
    assert seat is not None
    view = game.view(seat)
    state = "game over" if view.is_over else f"unfinished, {view.phase.name.lower()} due"
    print(f"seat record of {view.player_names[seat]} (seat {seat}): {len(record)} moves, {state}")
    print("the other seats' tickets and hands are unknown: their totals cannot be scored from this record")
    for p, name in enumerate(view.player_names):
        print(f"  {name}: {len(view.routes_of(p))} routes, {view.scores[p]} route points")
    for r in view.ticket_status():
        print(f"  {'done' if r.completed else 'open'}: {r.ticket.label()} ({r.ticket.points} points)")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    try:
        from ..simulate import tournament
    except ImportError as e:
        raise missing_extra("sim", "the tournament command", e.name) from None
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    editions = [e.strip() for e in args.edition.split(",") if e.strip()]
    try:
        players = [read_number(n.strip(), what="--players") for n in args.players.split(",") if n.strip()]
    except TtrError:
        raise TtrError(f"--players wants whole numbers, comma-separated, not {args.players!r}") from None
    if args.scheduler and args.workers:
        raise TtrError("use --scheduler or --workers, not both")
    if args.workers < 0:
        raise TtrError(f"--workers must be 0 or more, not {args.workers}")
    if args.batch_size is not None and args.batch_size < 1:
        raise TtrError(f"--batch-size must be 1 or more, not {args.batch_size}")
    pool = None
    executor: Any = args.scheduler or None
    if args.workers:
        pool = executor = ProcessPoolExecutor(args.workers)
    try:
        result = tournament(
            agents,
            editions,
            players,
            args.games,
            args.seed,
            executor=executor,
            batch_size=args.batch_size,
            progress=not args.no_progress,
        )
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    if args.save:  # saved before printing, as 'play' does
        table_path = result.save(args.save)
    print(result)
    if args.save:
        print(f"results saved to {args.save} and {table_path}")
    return 0


def _run(args: argparse.Namespace) -> int:
    if args.command in ANALYSIS_COMMANDS:
        return run_analysis(args, read_game_file)
    if args.command == "tournament":
        return _tournament(args)
    if args.command == "editions":
        for name in edition_names():
            print(f"{name:16s} {find_edition(name)!r}")
        return 0
    if args.command == "play":
        return _play(args)
    return _replay_or_validate(args)


def _quiet_stdout(stdout: Any) -> None:
    """The output cannot be written: send what is left to /dev/null, so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no real stdout (an embedding, a test's capture)
        pass


class _OutputError(TtrError):
    """Standard output cannot be written (a full disk, an I/O error): the OSError is its cause."""


class _Output:
    """Standard output, with a failed write or flush told apart from every other OSError."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.strerror or str(e)) from e

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.strerror or str(e)) from e

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C in the instants while _main hands SIGINT over
        _fail("interrupted")
        return INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    stdout = sys.stdout
    try:
        cli_guard.release()  # from here Ctrl-C is a KeyboardInterrupt: caught below, after the clean-up
        if stdout is None:  # started with standard output closed ('>&-'): nothing could be printed
            raise TtrError("standard output is closed: nothing can be printed (send it to /dev/null instead)")
        sys.stdout = _Output(stdout)  # type: ignore[assignment]
        args = _parser().parse_args(argv)
        status = _run(args)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not at interpreter exit
        return status
    except BrokenPipeError:
        _quiet_stdout(stdout)
        return BROKEN_PIPE
    except _OutputError as e:
        _quiet_stdout(stdout)
        _fail(f"cannot write the output: {e}")
        return 1
    except TtrError as e:
        _fail(str(e))
        return 1
    except KeyboardInterrupt:
        _fail("interrupted")
        return INTERRUPTED
    except Exception as e:  # never expected (a bug): still one line, not a traceback
        _fail(f"internal error ({type(e).__name__}: {e}); please report it")
        return 1
    finally:
        if stdout is not None:
            sys.stdout = stdout
        cli_guard.arm()  # Ctrl-C while the interpreter exits: the same one line


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
