"""Many games, on any executor: :func:`run_games`, :func:`iter_games`, :func:`run_detailed`.

Game ``i`` of a run seeded ``seed`` gets the seed :func:`~ttr_lab.simulate.games.game_seed`
``(seed, i)`` and line-up ``i`` modulo the number of line-ups, so the rows
depend only on the arguments, never on which executor plays the games or in
what order they finish.  Games go to the executor in batches (one task per
batch), so that scheduling costs little next to playing.

Every argument is checked before the first game (a :class:`TtrError` names
it and its range): ``games`` is 1 to :data:`~ttr_lab.engine.checks.MAX_GAMES`,
``start`` 0 to :data:`MAX_START`, ``batch_size`` 1 to :data:`MAX_BATCH`,
``seed`` 0 to ``2**128 - 1``.  A run is streamed: the games' specs and
batches are made as the executor takes them, with at most
:data:`~ttr_lab.simulate.executors.IN_FLIGHT` batches submitted at once, so a
long run costs no memory before its rows (:func:`iter_games` keeps none).

Examples
--------
>>> from ttr_lab.simulate import run_games
>>> df = run_games("usa", ["greedy", "random"], games=2, seed=1, progress=False)
>>> list(df.columns[:5]), len(df)
(['game', 'edition', 'players', 'seat', 'agent'], 4)
>>> bool(df.groupby("game")["winner"].sum().min() >= 1)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..bots.simple import BOTS, make_bot, parse_bot_spec
from ..editions import edition_names, find_edition
from ..engine.checks import MAX_GAMES, check_count, check_seed, take_at_most
from ..engine.moves import show_value
from ..errors import TtrError
from .executors import open_executor, run_tasks
from .games import GAME_COLUMNS, GameSpec, game_seed, play_batch

__all__ = ["Results", "run_games", "iter_games", "run_detailed", "check_agents", "default_batch_size"]

#: the first game of a run (``start``) is at most this (the ``game`` column stays a 64-bit int)
MAX_START = 10**15
#: the most games in one batch (one task of an executor)
MAX_BATCH = 10_000
#: the most agents in a line-up, and the most line-ups, of one run
MAX_LINEUPS = 100_000

CLAIM_COLUMNS = ("game", "seat", "agent", "route", "ply")
TICKET_COLUMNS = ("game", "seat", "agent", "ticket", "label", "value", "completed", "points", "path_cities")


@dataclass(frozen=True)
class Results:
    """The tables of a run: ``games`` (one row per game and seat), ``claims``
    (one row per claimed route: seat and ply) and ``tickets`` (one row per kept
    ticket: completed, points, the cities of the path that completed it)."""

    games: pd.DataFrame
    claims: pd.DataFrame
    tickets: pd.DataFrame


def check_agents(names: Sequence[str] | str, what: str = "agents") -> tuple[str, ...]:
    """The agent names (a list, or one string of comma-separated names),
    normalised, or a :class:`TtrError` naming the first unknown one.  An
    agent may be a bot spec with options (``"advisor:playouts=8"``, see
    :func:`~ttr_lab.bots.parse_bot_spec`; in a list, as a comma separates
    its options): its options are checked here, before any game."""
    if isinstance(names, str):
        names = [p for p in names.split(",") if p.strip()]
    out = []
    for name in take_at_most(names, MAX_LINEUPS, what):
        if not isinstance(name, str):
            raise TtrError(f"{what}: an agent is named by a string, not {show_value(name)}")
        key = name.strip().lower()
        if key.partition(":")[0].strip() not in BOTS:
            raise TtrError(f"unknown agent {show_value(name)} (known: {', '.join(sorted(BOTS))})")
        if parse_bot_spec(key)[1]:
            try:
                make_bot(key, 0)  # the bot checks its options' ranges now, not in the first game
            except TtrError as e:
                raise TtrError(f"agent {show_value(name)}: {e}") from None
        out.append(key)
    if not out:
        raise TtrError("no agents given")
    return tuple(out)


def _lineups(players: Any) -> list[tuple[str, ...]]:
    usage = "players is a list of agent names (one per seat) or a list of such line-ups"
    if isinstance(players, str):
        players = [p for p in players.split(",") if p.strip()]
    if not isinstance(players, (list, tuple)):
        raise TtrError(f"{usage}, not {show_value(players)}")
    players = take_at_most(players, MAX_LINEUPS, "players")
    if players and all(isinstance(p, str) for p in players):
        return [check_agents(players, "players")]
    if not players or not all(isinstance(p, (list, tuple)) for p in players):
        raise TtrError(usage)
    lineups = [check_agents(p, "players") for p in players]
    if len({len(lu) for lu in lineups}) != 1:
        raise TtrError("every line-up must have the same number of seats")
    return lineups


def check_options(options: Any) -> dict[str, Any]:
    """``options`` (None, or a mapping of option names to values) as a dict."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise TtrError(f"options is a dict of edition options ({{'map': 'my_map.json'}}...), not {show_value(options)}")
    return dict(options)


def _check_edition(edition: str, options: Mapping[str, Any], seats: int) -> str:
    if not isinstance(edition, str) or not edition.strip():
        raise TtrError(f"edition is a name ({', '.join(edition_names())}), not {show_value(edition)}")
    ed = find_edition(edition.strip().lower(), **dict(options))  # TtrError for an unknown edition or option
    if not ed.min_players <= seats <= ed.max_players:
        raise TtrError(f"{ed.name} is played by {ed.min_players} to {ed.max_players} players, not {seats}")
    return edition.strip().lower()


def default_batch_size(games: int) -> int:
    """Games per task: about 32 tasks a run, 1 to 20 games each (a game takes 0.05-0.5 s,
    a task costs a few milliseconds to schedule)."""
    return max(1, min(20, math.ceil(games / 32)))


@dataclass(frozen=True)
class _Plan:
    """A checked run: its games are made batch by batch (:meth:`batches`), never all at once."""

    edition: str
    lineups: list[tuple[str, ...]]
    games: int
    seed: int
    options: dict[str, Any]
    start: int
    size: int

    def batch_length(self, k: int) -> int:
        """How many games batch ``k`` holds."""
        return min(self.size, self.games - k * self.size)

    def batches(self) -> Iterator[list[GameSpec]]:
        """The batches in order, each made when it is asked for."""
        n = len(self.lineups)
        for first in range(self.start, self.start + self.games, self.size):
            last = min(first + self.size, self.start + self.games)
            yield [
                GameSpec(i, self.edition, self.lineups[i % n], game_seed(self.seed, i), self.options)
                for i in range(first, last)
            ]


def _plan(
    edition: str,
    players: Any,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None,
    start: int = 0,
    batch_size: int | None = None,
) -> _Plan:
    """Every argument of a run checked, before any game."""
    check_count(games, "games", high=MAX_GAMES)
    check_seed(seed)
    check_count(start, "start", low=0, high=MAX_START)
    size = default_batch_size(games) if batch_size is None else check_count(batch_size, "batch_size", high=MAX_BATCH)
    lineups = _lineups(players)
    opts = check_options(options)
    name = _check_edition(edition, opts, len(lineups[0]))
    return _Plan(name, lineups, games, seed, opts, start, size)


def _frames(rows: Mapping[str, list[dict[str, Any]]]) -> Results:
    games = pd.DataFrame(rows["games"], columns=list(GAME_COLUMNS))
    claims = pd.DataFrame(rows["claims"], columns=list(CLAIM_COLUMNS))
    tickets = pd.DataFrame(rows["tickets"], columns=list(TICKET_COLUMNS))
    return Results(games, claims, tickets)


def _check_on_chunk(on_chunk: Any) -> None:
    if on_chunk is not None and not callable(on_chunk):
        raise TtrError(f"on_chunk is a function called with each batch's rows, not {show_value(on_chunk)}")


def _iter_results(plan: _Plan, executor: Any, progress: bool) -> Iterator[Results]:
    with open_executor(executor) as ex:  # an unreachable scheduler fails here, before any output
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=plan.games, unit="game", desc=f"{plan.edition} {len(plan.lineups[0])}p")
        try:
            for i, rows in run_tasks(ex, play_batch, plan.batches()):
                if bar is not None:
                    bar.update(plan.batch_length(i))
                yield _frames(rows)
        finally:
            if bar is not None:
                bar.close()


def iter_games(
    edition: str,
    players: Any,
    games: int,
    seed: int = 0,
    *,
    executor: Any = None,
    options: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    start: int = 0,
) -> Iterator[pd.DataFrame]:
    """Like :func:`run_games`, but yields the per-seat rows of each batch as it finishes.

    Chunks arrive in the order batches finish; concatenated and sorted by
    ``game`` and ``seat`` they equal :func:`run_games`'s table.

    The arguments are checked when it is called, before the first chunk is asked for.

    >>> chunks = list(iter_games("usa", ["greedy", "greedy"], games=3, seed=2, batch_size=2, progress=False))
    >>> [len(c) for c in chunks]
    [4, 2]
    """
    plan = _plan(edition, players, games, seed, options, start, batch_size)
    return (res.games for res in _iter_results(plan, executor, progress))


def _sorted(frames: list[pd.DataFrame], columns: Sequence[str], keys: list[str]) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(columns))
    return pd.concat(frames, ignore_index=True).sort_values(keys, kind="stable").reset_index(drop=True)


def run_detailed(
    edition: str,
    players: Any,
    games: int,
    seed: int = 0,
    *,
    executor: Any = None,
    options: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    on_chunk: Callable[[Results], None] | None = None,
    start: int = 0,
) -> Results:
    """Play the games and return all three tables (:class:`Results`), sorted by game and seat."""
    plan = _plan(edition, players, games, seed, options, start, batch_size)
    _check_on_chunk(on_chunk)
    parts: list[Results] = []
    for res in _iter_results(plan, executor, progress):
        parts.append(res)
        if on_chunk is not None:
            on_chunk(res)
    return Results(
        _sorted([p.games for p in parts], GAME_COLUMNS, ["game", "seat"]),
        _sorted([p.claims for p in parts], CLAIM_COLUMNS, ["game", "route"]),
        _sorted([p.tickets for p in parts], TICKET_COLUMNS, ["game", "seat", "ticket"]),
    )


def run_games(
    edition: str,
    players: Any,
    games: int,
    seed: int = 0,
    *,
    executor: Any = None,
    options: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    on_chunk: Callable[[pd.DataFrame], None] | None = None,
    start: int = 0,
) -> pd.DataFrame:
    """Play ``games`` seeded games and return one row per game and seat.

    Parameters
    ----------
    edition : str
        An edition name or alias (``"usa"``, ``"europe"``, ``"rails_and_sails"``...).
    players : list of str, or list of line-ups
        Agent names (``make_bot`` names, or specs with options such as
        ``"advisor:playouts=8"``), one per seat; or several such line-ups,
        game ``i`` using line-up ``i % len(players)``.
    games : int
        How many games, 1 to :data:`~ttr_lab.engine.checks.MAX_GAMES` (1,000,000;
        a longer run is played in pieces with ``start``).
    seed : int
        Seeds the run: game ``i`` is seeded ``game_seed(seed, i)`` (0 to ``2**128 - 1``).
    executor : None, Executor, distributed.Client or str
        ``None`` plays here; a ``concurrent.futures`` executor (a process
        pool, ``client.get_executor()``), a ``distributed.Client`` or a
        scheduler address ``"tcp://host:8786"`` plays on it.
    options : dict
        Edition options (``{"map": "my_map.json"}``...).
    batch_size : int
        Games per task, 1 to :data:`MAX_BATCH` (default :func:`default_batch_size`).
    progress : bool
        Show a tqdm progress bar.
    on_chunk : callable
        Called with each batch's rows as they arrive (partial results).
    start : int
        Play games ``start`` to ``start + games - 1`` of the run: a long run
        split into pieces (``start=0, games=500`` then ``start=500,
        games=500``) gives the same rows as the whole run (0 to :data:`MAX_START`).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~ttr_lab.simulate.games.GAME_COLUMNS`: the agent,
        seat, final score and its parts (routes, tickets, bonuses,
        adjustments), tickets completed and failed, longest path, winner
        (the edition's tie-breakers apply; a shared win makes every tied
        seat a winner), rank, margin over the best other player, plies, the
        game's seed, edition and player count.  Sorted by game and seat: the
        same arguments give the same table on every executor.
    """
    _check_on_chunk(on_chunk)
    chunk_cb = None if on_chunk is None else (lambda res: on_chunk(res.games))
    return run_detailed(
        edition,
        players,
        games,
        seed,
        executor=executor,
        options=options,
        batch_size=batch_size,
        progress=progress,
        on_chunk=chunk_cb,
        start=start,
    ).games
