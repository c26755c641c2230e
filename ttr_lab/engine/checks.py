"""Checks of the arguments people pass: seeds, counts, time budgets, numbers.

Every public function that takes a seed, a count or a budget checks it here
*before any work starts*, and refuses a value of the wrong type or outside
its documented range with a :class:`~ttr_lab.errors.TtrError` that names
the argument and the range.  The engine checks a game's seed here too
(:func:`check_seed`), so a seed means the same everywhere.

The rules, the same for every argument:

* a whole number is an ``int``: not a ``bool`` (``True`` is not 1 here), not
  a float (``1.5``, ``nan``, ``inf``), not a string (``"10"``);
* a number of seconds (or any real parameter) is an ``int`` or a ``float``,
  never a ``bool``, finite and inside its range;
* every range is closed and bounded: a budget without an upper bound would
  let one mistyped argument (``seconds=float("inf")``, ``playouts=10**30``)
  run until the machine is killed.

The upper bounds are generous (hours of work, a few hundred MB at most):

=======================  ===================================================
:data:`MAX_SEED`          every seed, as the engine takes it (``2**128 - 1``)
:data:`MAX_BOT_SEED`      a bot's seed (``2**256 - 1``)
:data:`MAX_PLAYOUTS`      playouts of one search or one odds estimate
:data:`MAX_SECONDS`       a wall-clock budget (one day)
:data:`MAX_CANDIDATES`    candidate moves a search considers
:data:`MAX_SAMPLES`       states :func:`~ttr_lab.analysis.sample_states` returns
:data:`MAX_GAMES`         games of one simulation run
=======================  ===================================================

>>> check_count(40, "playouts", high=MAX_PLAYOUTS)
40
>>> check_count(10**30, "playouts", high=MAX_PLAYOUTS)
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: playouts must be a whole number from 1 to 10,000,000, not 1000000000000000000000000000000
>>> check_seconds(float("inf"))
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: seconds must be a number of seconds above 0 and at most 86,400, not inf
>>> check_seed("10")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: seed must be an int from 0 to 2**128 - 1, not '10'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import islice
from typing import Any, TypeVar

from ..errors import TtrError, WrongTypeError
from .move_cards import show_value

__all__ = [
    "MAX_SEED",
    "MAX_BOT_SEED",
    "MAX_PLAYOUTS",
    "MAX_SECONDS",
    "MAX_CANDIDATES",
    "MAX_SAMPLES",
    "MAX_GAMES",
    "check_seed",
    "check_count",
    "check_seconds",
    "check_number",
    "check_budget",
    "take_at_most",
    "check_instance",
]

T = TypeVar("T")

#: the largest seed (a game's, a search's, a run's): 128 bits
MAX_SEED = 2**128 - 1
#: the largest seed of a bot (:func:`~ttr_lab.bots.make_bot`): wider than a
#: game's, as bots' seeds are often derived from a game's (``seed * 101 + seat``)
MAX_BOT_SEED = 2**256 - 1
#: the most playouts one search (:func:`~ttr_lab.analysis.advise`,
#: :func:`~ttr_lab.analysis.ismcts`) or one :func:`~ttr_lab.analysis.ticket_odds`
#: plays: a playout takes 2-20 ms, so this is hours of work
MAX_PLAYOUTS = 10_000_000
#: the longest wall-clock budget, in seconds (one day)
MAX_SECONDS = 86_400
#: the most candidate moves a search weighs (a position has at most a few hundred legal moves)
MAX_CANDIDATES = 1_000
#: the most states :func:`~ttr_lab.analysis.sample_states` returns at once
#: (about 8 KB each); :func:`~ttr_lab.analysis.iter_states` streams any number
MAX_SAMPLES = 10_000
#: the most games of one simulation run (:func:`~ttr_lab.simulate.run_games`
#: and friends): a day of work on one machine, a table of a few hundred MB;
#: a longer run is played in pieces (``start=``)
MAX_GAMES = 1_000_000


def _bound(n: float) -> str:
    """A bound for a message: ``2**128 - 1``, ``10,000,000``, ``0.5``."""
    if isinstance(n, int) and n > 2**40 and (n + 1) & n == 0:
        return f"2**{n.bit_length()} - 1"
    return f"{n:,}"


def check_seed(value: object, name: str = "seed", *, high: int = MAX_SEED) -> int:
    """``value`` if it is a seed: an ``int`` from 0 to :data:`MAX_SEED` (what
    :func:`~ttr_lab.new_game` takes; None, which ``new_game`` reads as "an
    unguessable seed", is the caller's to handle before), or to ``high``
    (a bot's seed: :data:`MAX_BOT_SEED`)."""
    if type(value) is not int or not 0 <= value <= high:
        raise TtrError(f"{name} must be an int from 0 to {_bound(high)}, not {show_value(value)}")
    return value


def check_count(value: object, name: str, *, low: int = 1, high: int) -> int:
    """``value`` if it is an ``int`` from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise TtrError(f"{name} must be a whole number from {_bound(low)} to {_bound(high)}, not {show_value(value)}")
    return value


def check_number(value: object, name: str, *, low: float, high: float, low_open: bool = False) -> float:
    """``value`` as a float if it is a finite ``int`` or ``float`` from ``low``
    (excluded when ``low_open``) to ``high``."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        x = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf  # type: ignore[arg-type]
        ok = math.isfinite(x) and (low < x if low_open else low <= x) and x <= high
    if not ok:
        above = f"above {_bound(low)}" if low_open else f"from {_bound(low)}"
        raise TtrError(f"{name} must be a number {above} and at most {_bound(high)}, not {show_value(value)}")
    return float(value)  # type: ignore[arg-type]


def check_seconds(value: object, name: str = "seconds", *, high: float = MAX_SECONDS) -> float:
    """``value`` as a float if it is a time budget: above 0, at most ``high`` seconds."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        x = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf  # type: ignore[arg-type]
        ok = math.isfinite(x) and 0 < x <= high
    if not ok:
        raise TtrError(
            f"{name} must be a number of seconds above 0 and at most {_bound(high)}, not {show_value(value)}"
        )
    return float(value)  # type: ignore[arg-type]


def check_budget(
    seconds: object,
    playouts: object,
    *,
    max_playouts: int = MAX_PLAYOUTS,
    max_seconds: float = MAX_SECONDS,
    seconds_name: str = "seconds",
) -> None:
    """A search's budget: ``playouts`` (None, or a count from 1 to
    ``max_playouts``) and ``seconds`` (a time budget up to ``max_seconds``,
    checked even when ``playouts`` decides)."""
    if playouts is not None:
        check_count(playouts, "playouts", high=max_playouts)
    check_seconds(seconds, seconds_name, high=max_seconds)


def take_at_most(items: Any, limit: int, name: str) -> list[Any]:
    """The items of ``items`` (any iterable but a string) as a list, refusing
    more than ``limit`` of them (an endless iterator is not read past ``limit + 1``)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise TtrError(f"{name} must be a list (or other iterable), not {show_value(items)}")
    out = list(islice(iter(items), limit + 1))
    if len(out) > limit:
        raise TtrError(f"{name} must have at most {_bound(limit)} entries")
    return out


def check_instance(value: object, cls: type[T], name: str, what: str) -> T:
    """``value`` if it is a ``cls``, else a :class:`~ttr_lab.errors.WrongTypeError`
    saying what ``name`` must be (``what``)."""
    if not isinstance(value, cls):
        raise WrongTypeError(f"{name} must be {what}, not {type(value).__name__}")
    return value
