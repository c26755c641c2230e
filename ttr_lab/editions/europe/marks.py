"""Europe on the board: each station a square behind its city, in its owner's colour.

The board's hooks (:mod:`ttr_lab.engine.rules.board_hooks`) for the stations rule:
the ``station`` mark style, the stations built (public: every viewer sees
them) and a station built as a move's spot, so the board halos it as the
builder's last move.  ``board_figure(europe_game, stations={"Paris": 0})``
draws stations given by hand (the style's keyword).

>>> import ttr_lab
>>> g = ttr_lab.new_game("europe", players=2, seed=1)
>>> g.edition.board_marks(g, None)
[]
>>> g.edition.move_spot(BuildStation("Paris", (("red", 1),)))
Spot(kind='station', target='Paris')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...board.marks import BoardMark, CityMark, MarkStyle, Spot
from ...engine.moves import Move
from ...engine.rules import Edition
from .stations import BuildStation

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["STATION", "StationMarks"]

#: a station: a square behind the city's dot
STATION = MarkStyle("station", "stations", "city", "square", keyword="stations", rank=510)


class StationMarks(Edition):
    """Mixin: the stations on the board (public marks)."""

    mark_styles: ClassVar[tuple[MarkStyle, ...]] = (STATION,)

    def board_marks(self, position: GameState | PlayerView, viewer: int | None) -> list[BoardMark]:
        built = position.buildings().get(STATION.kind, {})
        return [*super().board_marks(position, viewer), *(CityMark(STATION.kind, c, p) for c, p in built.items())]

    def move_spot(self, move: Move) -> Spot | None:
        if isinstance(move, BuildStation):
            return Spot(STATION.kind, move.city)
        return super().move_spot(move)
