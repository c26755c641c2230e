"""Loading the compiled kernel, and a playout's result from either path.

:func:`kernel_info` says whether playouts run compiled and why not;
:func:`kernel_playout` plays a position to the end with the kernel (None
when it cannot: no extension, ``TTR_LAB_KERNEL=0``, an edition it does not
play, a game with recorded chance); :func:`finish_of` reads the same result
off a game the Python engine played to the end.  :class:`Finish` is that
result: the scores, the winners and each seat's tickets, what the analysis
reads of a finished playout.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import TtrError
from .convert import edition_spec, position_array, seed_text, unsupported
from .rng import MASK64

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.rules import Edition
    from ...engine.state import GameState

__all__ = [
    "Finish",
    "KernelInfo",
    "kernel_info",
    "kernel_playout",
    "finish_of",
    "load",
    "read_tables",
    "play_arrays",
    "ENV",
    "REQUIRE_ENV",
]

#: ``TTR_LAB_KERNEL=0`` forces the pure-Python playouts (tests, benchmarks, comparisons)
ENV = "TTR_LAB_KERNEL"
#: ``TTR_LAB_REQUIRE_KERNEL=1``: the tests fail if the kernel is not built (``make test`` sets it
#: where a C compiler is found)
REQUIRE_ENV = "TTR_LAB_REQUIRE_KERNEL"
#: the editions the kernel plays (those passing the referee checks of tests/test_kernel*.py)
EDITIONS = ("usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes")

try:  # the optional extension (setup.py builds it where a C compiler is found)
    from . import _playout  # type: ignore[attr-defined]

    _MODULE: Any = _playout
    _ERROR = ""
except ImportError as e:  # not built: every playout runs in Python
    _MODULE = None
    _ERROR = f"the compiled kernel is not built ({e})"

_TABLES: dict[Any, Any] = {}
#: (edition, tables) asked last: one slot replaced whole, so threads see a consistent pair
_LAST: list[tuple[Any, Any]] = [(None, None)]


def load() -> Any:
    """The extension module ``ttr_lab.bots.kernel._playout``, or None if it is not built."""
    return _MODULE


def _forced_off() -> bool:
    return os.environ.get(ENV, "").strip() == "0"


@dataclass(frozen=True)
class KernelInfo:
    """Whether playouts run compiled: ``available`` (the extension is built),
    ``enabled`` (available and not switched off by ``TTR_LAB_KERNEL=0``),
    ``editions`` it plays, and ``reason`` in words."""

    available: bool
    enabled: bool
    editions: tuple[str, ...]
    reason: str
    path: str

    def __str__(self) -> str:
        return self.reason


def kernel_info() -> KernelInfo:
    """How playouts run here: compiled (the USA family, Europe, Rails & Sails) or in Python, and why.

    Without a C compiler at install time (or in Pyodide) the kernel is not
    built and every playout runs in Python with identical results, only
    slower; this is the one place that says so.

    >>> info = kernel_info()
    >>> isinstance(info.reason, str), info.enabled <= info.available
    (True, True)
    """
    mod = load()
    if mod is None:
        reason = f"{_ERROR}: playouts run in Python (identical results, slower)"
        return KernelInfo(False, False, (), reason, "")
    path = getattr(mod, "__file__", "") or ""
    if _forced_off():
        return KernelInfo(True, False, EDITIONS, f"{ENV}=0: playouts run in Python", path)
    names = ", ".join(EDITIONS)
    return KernelInfo(True, True, EDITIONS, f"compiled playouts for {names}; other editions in Python", path)


def tables(ed: Edition, preview: bool = False) -> Any:
    """The kernel's tables of ``ed`` (built once per edition), or None if it cannot play it
    (an edition not in :data:`EDITIONS` only with ``preview``: the referee tests of an edition
    being ported)."""
    mod = load()
    if mod is None or _forced_off() or not (preview or ed.name in EDITIONS):
        return None
    last = _LAST[0]  # the edition asked last, by identity (an edition's hash reads its options)
    if last[0] is ed:
        return last[1]
    try:
        t = _TABLES[ed]
        _LAST[0] = (ed, t)
        return t
    except KeyError:
        pass
    t = None
    if unsupported(ed) is None:
        t = read_tables(edition_spec(ed), ed.name)
    if len(_TABLES) >= 32:
        _TABLES.clear()
    _TABLES[ed] = t
    _LAST[0] = (ed, t)
    return t


def read_tables(spec: Any, name: str = "the edition") -> Any:
    """The kernel's tables read from ``spec`` (an int32 array, :func:`~ttr_lab.bots.kernel.convert.edition_spec`),
    checked in C: a malformed one is a TtrError naming the field.  The extension must be built."""
    mod = load()
    if mod is None:
        raise TtrError(_ERROR)
    try:
        return mod.Tables(spec)
    except (ValueError, TypeError, OverflowError, BufferError) as e:
        raise TtrError(f"the kernel refused the {name} tables: {e}") from None


def play_arrays(
    t: Any, position: Any, seed_text: bytes, seeds: Any, policy: int = 0, max_plies: int = 20000, record: bool = False
) -> tuple[Any, ...]:
    """``t.playout`` on a position given as an int32 array (:func:`~ttr_lab.bots.kernel.convert.position_array`),
    checked in C: a malformed position, seed or budget is a TtrError naming it, never a crash."""
    try:
        return tuple(t.playout(position, seed_text, seeds, policy, max_plies, record))
    except (ValueError, TypeError, OverflowError, BufferError) as e:
        raise TtrError(f"the kernel refused the position: {e}") from None
    except RuntimeError as e:
        raise TtrError(f"the kernel's playout failed: {e}") from None


@dataclass(frozen=True)
class Finish:
    """A playout's end: each seat's total, the winners (ties share), completed
    tickets, longest path (0 where scoring does not need it), and each seat's
    kept tickets as ``(ticket id, completed)``; ``plies``: the moves the
    playout made; ``compiled``
    if the kernel played it.  It stands where a finished game stood:
    :meth:`outcome` gives itself (``scores`` and ``winners``, as an
    :class:`~ttr_lab.engine.scoring.Outcome` has them)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    completed: tuple[int, ...]
    longest: tuple[int, ...]
    tickets: tuple[tuple[tuple[int, bool], ...], ...]
    plies: int
    compiled: bool

    def outcome(self) -> Finish:
        return self

    def same_game(self, other: Finish) -> bool:
        """The same result (whichever path played it)."""
        return (self.scores, self.winners, self.completed, self.longest, self.tickets, self.plies) == (
            other.scores,
            other.winners,
            other.completed,
            other.longest,
            other.tickets,
            other.plies,
        )


def finish_of(state: GameState, plies: int) -> Finish:
    """The :class:`Finish` of a game played to the end in Python (``plies``: the moves the playout made)."""
    out = state.outcome()
    return Finish(
        scores=out.scores,
        winners=out.winners,
        completed=tuple(ps.tickets_completed for ps in out.players),
        longest=tuple(ps.longest_path for ps in out.players),
        tickets=tuple(tuple((r.ticket.id, r.completed) for r in ps.tickets) for ps in out.players),
        plies=plies,
        compiled=False,
    )


def kernel_playout(
    state: GameState,
    seeds: tuple[int, ...] | tuple[bytes, ...],
    *,
    policy: int = 0,
    max_plies: int = 20000,
    record: bool = False,
    preview: bool = False,
) -> tuple[Finish, Any] | None:
    """Play ``state`` (left unchanged) to the end in the kernel: ``policy`` 0 is the
    playout policy (``seeds``: each seat's splitmix64 seed), 1 the random bot
    (``seeds``: each seat's ``random.Random`` seed as big-endian bytes).
    Returns the :class:`Finish` and, with ``record``, ``(moves, final
    position)`` as raw int32 bytes; None if the kernel cannot play it (``preview``: also an
    edition the kernel reads but does not play yet, for its referee tests)."""
    t = tables(state.edition, preview)
    if t is None or state._chance is not None:
        return None
    if policy == 0:
        try:
            seeds = tuple(int(s) & MASK64 for s in seeds)
        except (TypeError, ValueError, OverflowError) as e:
            raise TtrError(f"kernel_playout: a seat's seed must be an int for the playout policy ({e})") from None
    plies, over, totals, winners, completed, longest, done, moves, final = play_arrays(
        t, position_array(state), seed_text(state), seeds, policy, max_plies, record
    )
    if not over:
        raise TtrError(f"playout did not end within {max_plies} plies")
    finish = Finish(totals, winners, completed, longest, done, plies, True)
    return finish, (moves, final)
