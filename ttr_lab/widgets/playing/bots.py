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
('advisor', AdvisorBot(seconds=2.0, max_playouts=4000))
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

#: the advisor's most playouts a move as the hard opponent, over HARD_CANDIDATES moves:
#: the Hint's budget (widgets.advice.HINT_PLAYOUTS, where its stability is noted; about
#: 0.7-0.9 CPU-s with the compiled kernel on USA and Europe; on Rails & Sails the clock
#: often ends the search first); a literal here, so that the levels do not import the
#: analysis (tests/test_advisor_budget.py checks the two agree).  Against the playout bot,
#: seat-swapped 2-player games, the caution rule of issue 23: at 4,000, USA 81.7% [73.7,
#: 87.7] (n=115), Rails & Sails World 95.8% [69.9, 99.6] (n=12); at 2,000 (the cap
#: before), USA 84.4% [75.8, 90.3] (n=96), World 87.2% [74.8, 94.0] (n=47); 62.5% [47.0,
#: 75.8] at 24 playouts before the kernel (USA)
HARD_BUDGET = 4000
#: ... the candidate moves it plays out (the Hint's 10, the budget measured)
HARD_CANDIDATES = 10
#: ... and its most seconds a move: the compiled kernel plays HARD_BUDGET within it here
#: on USA and Europe (a numbered game replays the same moves), not always on Rails &
#: Sails (about 3,100-4,000 playouts); in Python (a browser, no compiler) the clock
#: decides and the bot plays fewer (about 200-400 here)
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
