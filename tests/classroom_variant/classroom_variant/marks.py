"""The classroom variant on the board: the closed routes and the seat's own objective city.

It fills ttr_lab's board hooks (:mod:`ttr_lab.engine.rules.board_hooks`, with the
values of :mod:`ttr_lab.board.marks`):

* ``mark_styles``: a closed route (a cross on the route, in the blocker's
  colour) and an objective city (a ring round the city, in its seat's colour);
* ``board_marks(position, viewer)``: every closed route (public), and the
  objective city of ``viewer`` only (the whole game's when ``viewer`` is
  None; nobody's for :data:`~ttr_lab.board.marks.PUBLIC`); a player's view
  knows its own city alone;
* ``move_spot``: ``block N`` went on route N, so the board halos it as the
  blocker's last move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ttr_lab.board.marks import BoardMark, CityMark, MarkStyle, RouteMark, Spot
from ttr_lab.engine.moves import Move
from ttr_lab.engine.rules import Edition
from ttr_lab.engine.view import PlayerView

from .moves import BlockRoute
from .rules import closed_label, objective_label

if TYPE_CHECKING:  # pragma: no cover
    from ttr_lab.engine.state import GameState

__all__ = ["CLOSED", "OBJECTIVE", "ClassroomMarks"]

CLOSED = MarkStyle("closed route", "closed routes", "route", "cross", rank=530)
OBJECTIVE = MarkStyle("objective city", "objective city", "city", "ring", rank=540)


class ClassroomMarks(Edition):
    """Mixin: the variant's board marks (it reads the rules' public accessors)."""

    mark_styles: ClassVar[tuple[MarkStyle, ...]] = (CLOSED, OBJECTIVE)

    def board_marks(self, position: GameState | PlayerView, viewer: int | None) -> list[BoardMark]:
        out = super().board_marks(position, viewer)
        names = position.player_names
        for rid, p in sorted(position.blocked_routes().items()):
            label = closed_label(rid, self.route_labels[self.route_index[rid]], names[p])
            out.append(RouteMark(CLOSED.kind, rid, p, label))
        if isinstance(position, PlayerView):  # a view knows its own city only
            own = {position.player: position.to_dict()["my_objective"]} if viewer == position.player else {}
        else:
            own = {p: position.objective(p) for p in range(position.n) if viewer in (None, p)}
        for p, city in sorted(own.items()):
            if city:
                out.append(CityMark(OBJECTIVE.kind, city, p, objective_label(city, names[p])))
        return out

    def move_spot(self, move: Move) -> Spot | None:
        if isinstance(move, BlockRoute):
            return Spot(CLOSED.kind, move.route)
        return super().move_spot(move)
