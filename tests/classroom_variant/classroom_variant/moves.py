"""The classroom variant's one new move: ``block N`` closes free route N for the rest of the game.

Defining :class:`BlockRoute` registers its verb with :func:`ttr_lab.parse_move`
(today's mechanism: ``Move.__init_subclass__``, a side effect of importing this
module; :func:`classroom_variant.unregister` forgets it again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ttr_lab.engine.moves import Move
from ttr_lab.errors import InvalidMoveError
from ttr_lab.io.numerals import read_number

if TYPE_CHECKING:  # pragma: no cover
    from ttr_lab.engine.state import GameState

__all__ = ["BlockRoute"]


@dataclass(frozen=True, slots=True, repr=False)
class BlockRoute(Move):
    """Close free route ``route`` (by id): nobody may claim it for the rest of the game.

    Each player may block one route per game, as the whole of a turn.
    """

    route: int
    verb: ClassVar[str] = "block"
    rank: ClassVar[float] = 10.5  # after the claims and builds, before drawing tickets

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if len(args) != 1:
            return None
        return cls(read_number(args[0], what=f"bad route number in {text[:60]!r}", error=InvalidMoveError))

    def problem(self) -> str | None:
        if type(self.route) is not int:
            return f"a route is given by its id, a whole number, not {self.route!r}"[:200]
        return None

    def _fields(self) -> tuple[Any, ...]:
        return (self.route,)

    def __str__(self) -> str:
        return f"block {self.route}"

    def describe(self, state: GameState) -> str:
        ed = state.edition
        ri = ed.route_index.get(self.route) if type(self.route) is int else None
        where = f" ({ed.route_labels[ri]})" if ri is not None else ""
        return f"block route {self.route}{where}: nobody may claim it"
