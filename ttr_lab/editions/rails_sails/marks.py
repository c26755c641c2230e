"""Rails & Sails on the board: each harbor an anchor badge beside its city, in its owner's colour.

The board's hooks (:mod:`ttr_lab.engine.rules.board_hooks`) for the harbors rule:
the ``harbor`` mark style, the harbors built (public: every viewer sees
them) and a harbor built as a move's spot, so the board halos it as the
builder's last move.  ``board_figure(game, harbors={"Miami": 0})`` draws
harbors given by hand (the style's keyword).

>>> import ttr_lab
>>> g = ttr_lab.new_game("world", players=2, seed=1)
>>> [s.legend for s in g.edition.board_mark_styles], g.edition.board_marks(g, None)
(['harbors'], [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...board.marks import BoardMark, CityMark, MarkStyle, Spot
from ...engine.moves import Move
from ...engine.rules import Edition
from .harbors import BuildHarbor

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["HARBOR", "HarborMarks"]

#: a harbor: a badge with an anchor beside the city (where the map's labels leave room)
HARBOR = MarkStyle("harbor", "harbors", "city", "badge", glyph="⚓", keyword="harbors", rank=520)


class HarborMarks(Edition):
    """Mixin: the harbors on the board (public marks)."""

    mark_styles: ClassVar[tuple[MarkStyle, ...]] = (HARBOR,)

    def board_marks(self, position: GameState | PlayerView, viewer: int | None) -> list[BoardMark]:
        built = position.buildings().get(HARBOR.kind, {})
        return [*super().board_marks(position, viewer), *(CityMark(HARBOR.kind, c, p) for c, p in built.items())]

    def move_spot(self, move: Move) -> Spot | None:
        if isinstance(move, BuildHarbor):
            return Spot(HARBOR.kind, move.city)
        return super().move_spot(move)
