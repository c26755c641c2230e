"""The legal moves of a position as a lazy, sorted, countable view.

Listing every payment of every route would be slow, so the rules hand over
*groups*: a count and a function that builds the group's moves when they are
needed.  :class:`LegalMoves` counts without building, indexes by building
one group, and tests membership by asking the rules (``why_illegal``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import OutOfRangeError, TtrError
from .moves import Move

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["LegalMoves"]


class LegalMoves:
    """A lazy, sorted, countable view of the legal moves of a position.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> moves = g.legal_moves
    >>> len(moves) == moves.count() == len(list(moves))
    True
    >>> moves[0] in moves
    True
    """

    __slots__ = ("_state", "_groups", "_total")

    def __init__(self, state: GameState, groups: list[tuple[int, Callable[[Any], list[Move]], Any]]) -> None:
        self._state = state
        self._groups = groups
        self._total = sum([g[0] for g in groups])

    def count(self) -> int:
        return self._total

    __len__ = count

    def __bool__(self) -> bool:
        return self._total > 0

    def __iter__(self) -> Iterator[Move]:
        for _, build, arg in self._groups:
            yield from build(arg)

    def __getitem__(self, i: int) -> Move:
        if type(i) is not int:
            raise TtrError(f"legal moves are indexed by a whole number, not {i!r}")
        if i < 0:
            i += self._total
        if not 0 <= i < self._total:
            raise OutOfRangeError(f"legal move index {i} out of range ({self._total} moves)")
        for n, build, arg in self._groups:
            if i < n:
                return build(arg)[i]
            i -= n
        raise AssertionError("unreachable")  # pragma: no cover

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._state.why_illegal(move) is None

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in list(self)[:6])
        more = ", ..." if self._total > 6 else ""
        return f"<LegalMoves ({self._total}): {shown}{more}>"
