"""Opponents for the play widget, by names a player understands.

A seat is played by the computer when its name is a bot of
:data:`ttr_lab.bots.BOTS` (``"random"``, ``"greedy"``, ``"bot"``, the FDG
agents...) or a level: ``"easy"``, ``"medium"`` or ``"hard"`` (also
``"easy bot"``...).  A level names the bot that plays it:

* **easy**: ``random``, a bot that picks any legal move;
* **medium**: ``greedy``, which follows the cheapest path for its tickets;
* **hard**: ``advisor``, which plays the advisor's top move
  (:class:`~ttr_lab.analysis.advisor.AdvisorBot`) with at most
  :data:`HARD_BUDGET` playouts a move over :data:`HARD_CANDIDATES` candidate
  moves, and at most :data:`HARD_SECONDS`
  seconds (where the compiled kernel plays the edition the playouts run out
  first, so a game number replays the same moves; in Python the clock keeps
  its turn short); ``playout``, then ``greedy``, where
  :data:`ttr_lab.bots.BOTS` has no advisor.

A seat named just ``"bot"`` plays at the widget's ``level`` (medium unless
told).

>>> bot_name("easy"), bot_name("Medium bot"), bot_name("bot", level="easy"), bot_name("Ada")
('random', 'greedy', 'random', None)
>>> bot_name("hard"), make_opponent("hard", seed=1)
('advisor', AdvisorBot(seconds=2.0, max_playouts=2000))
>>> level_of("random"), level_of("greedy")
('easy', 'medium')
>>> bot_name("bot", level="impossible")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: unknown level 'impossible' (known: easy, medium, hard)
"""

from __future__ import annotations

from typing import Any

from ...bots.simple import BOTS, make_bot
from ...errors import TtrError

__all__ = [
    "LEVELS",
    "HARD_BUDGET",
    "HARD_CANDIDATES",
    "HARD_SECONDS",
    "bot_name",
    "level_of",
    "make_opponent",
    "level_names",
]

#: level -> the bots that may play it, best first (the first that BOTS knows is used)
LEVELS: dict[str, tuple[str, ...]] = {
    "easy": ("random",),
    "medium": ("greedy",),
    "hard": ("advisor", "playout", "greedy"),
}

#: the advisor's most playouts a move as the hard opponent, over HARD_CANDIDATES moves
#: (about 0.3-0.5 CPU-s with the compiled kernel on USA and Europe, 0.6-1.3 on Rails &
#: Sails).  Its top
#: move against an independent run at 10x (20,000) on 40 held-out mid-game positions
#: (benchmarks/bench_stable.py --agree; benchmarks/README.md, "The advisor's budgets with
#: the kernel", with n, intervals and the runs' commits): USA 77.5% [62.5, 87.7] with the
#: caution rule of issue 23's start (Z_DEVIATE 2, DELTA_DEVIATE 0.02), 85.0% [70.9, 92.9]
#: with the rule adopted with these budgets (3 and 0.05: the flips were at the rule's
#: margin); Europe 82.5% and 85.0%; Rails & Sails World 80.0%, Great Lakes 77.5% with the
#: latter.  400 playouts over 8: USA 67.5% and 82.5%.  Against
#: the playout bot, seat-swapped 2-player USA, with that rule: 84.4% [75.8, 90.3]
#: (n=96; 62.5% [47.0, 75.8] at 24 playouts before the kernel)
HARD_BUDGET = 2000
#: ... the candidate moves it plays out (the Hint's 10, the budget measured)
HARD_CANDIDATES = 10
#: ... and its most seconds a move: the compiled kernel plays HARD_BUDGET well within
#: it (the same moves on any machine but a badly overloaded one); in Python (a browser,
#: no compiler) the clock decides and the bot plays fewer (about 200-400 here)
HARD_SECONDS = 2.0

#: options a level's bot is built with, by bot name
_OPTIONS: dict[str, dict[str, Any]] = {
    "advisor": {"seconds": HARD_SECONDS, "max_playouts": HARD_BUDGET, "candidates": HARD_CANDIDATES}
}


def level_names() -> tuple[str, ...]:
    """The levels, easiest first: ``('easy', 'medium', 'hard')``."""
    return tuple(LEVELS)


def _level_bot(level: str) -> str:
    key = str(level).strip().lower()
    if key not in LEVELS:
        raise TtrError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    return next((b for b in LEVELS[key] if b in BOTS), "greedy")


def bot_name(seat: str, *, level: str = "medium") -> str | None:
    """The :func:`~ttr_lab.bots.make_bot` name that plays a seat called ``seat``, or None for a person."""
    key = str(seat).strip().lower()
    if key.endswith(" bot"):
        key = key[: -len(" bot")].strip()
    if key == "bot":
        return _level_bot(level)
    if key in LEVELS:
        return _level_bot(key)
    return key if key in BOTS else None


def level_of(bot: str) -> str | None:
    """The level a bot plays at (``"greedy"`` -> ``"medium"``), or None if it is not a level's bot."""
    for level in LEVELS:
        if _level_bot(level) == bot:
            return level
    return None


def make_opponent(seat: str, seed: int, *, level: str = "medium") -> Any:
    """The bot for seat name ``seat`` (see :func:`bot_name`), or None for a person."""
    name = bot_name(seat, level=level)
    if name is None:
        return None
    options = _OPTIONS.get(name)
    return BOTS[name](seed, **options) if options else make_bot(name, seed=seed)
