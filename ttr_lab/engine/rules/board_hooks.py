"""The board hooks: what an edition draws on the board, and where a move went.

The board (:mod:`ttr_lab.board`, :mod:`ttr_lab.board`) draws the base game
itself; an edition's own pieces and marks (Europe's stations, Rails &
Sails' harbors, a variant's closed route) reach it only through these
hooks, with the value types of :mod:`ttr_lab.board.marks`:

=====================  =========================================================
``mark_styles``        declared by a rule (merged over the MRO, base rules
                       first): the :class:`~ttr_lab.board.marks.MarkStyle` of
                       each kind of mark it draws; read as
                       :attr:`BoardHooks.board_mark_styles`
``board_marks``        the marks of a position, for a viewer (hidden
                       information stays hidden)
``move_spot``          where a move put something (a claimed route, a mark):
                       the board halos each player's last such move
=====================  =========================================================

Each rule mixin overriding a hook calls ``super()`` and adds its own.

>>> import ttr_lab
>>> g = ttr_lab.new_game("europe", players=2, seed=1)
>>> [s.legend for s in g.edition.board_mark_styles], g.edition.board_marks(g, None)
(['stations'], [])
>>> g.edition.move_spot(ttr_lab.ClaimRoute(5, (("red", 2),)))
Spot(kind='route', target=5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...board.marks import ROUTE, BoardMark, MarkStyle, Spot, check_styles
from ..moves import ClaimRoute, Move
from .base import EditionBase
from .declarations import merged

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..view import PlayerView

__all__ = ["BoardHooks"]


class BoardHooks(EditionBase):
    """The board hooks' defaults: the base game draws no marks; a claim went on its route."""

    #: the kinds of mark this rule draws (each rule declares its own; see :attr:`board_mark_styles`)
    mark_styles: ClassVar[tuple[MarkStyle, ...]] = ()
    _board_styles: ClassVar[tuple[MarkStyle, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._board_styles = check_styles(tuple(merged(cls, "mark_styles")), cls.__name__)

    @property
    def board_mark_styles(self) -> tuple[MarkStyle, ...]:
        """Every kind of mark this edition draws, in order: each rule's ``mark_styles``, base rules first.

        Every board of the edition has one layer (a plotly trace) per style,
        empty while there is nothing to show, and a legend entry while there is.

        >>> import ttr_lab
        >>> ttr_lab.find_edition("usa").board_mark_styles
        ()
        """
        return self._board_styles

    def board_marks(self, position: GameState | PlayerView, viewer: int | None) -> list[BoardMark]:
        """The marks the board draws for ``position`` (a game state, or a
        player's view): :class:`~ttr_lab.board.marks.CityMark` and
        :class:`~ttr_lab.board.marks.RouteMark` values of this edition's
        :attr:`board_mark_styles`.

        ``viewer`` is the seat the board is drawn for (a view's own
        player), :data:`~ttr_lab.board.marks.PUBLIC` (-1) for nobody's
        secrets, or None for the whole game.  Leave out every mark ``viewer``
        may not see: the board draws what this returns, and a widget sends
        it to the browser.  A view shows only what its player may know;
        a game state shows everything, so a hook reading one filters by
        ``viewer``.  Read the position through its public methods
        (``buildings()``, ``player_names``, the edition's accessors).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.board_marks(g, None)
        []
        """
        return []

    def move_spot(self, move: Move) -> Spot | None:
        """Where ``move`` put something on the board: ``Spot(ROUTE, id)`` for a
        claimed route (the base game), ``Spot(kind, target)`` for a mark of
        style ``kind`` it made (``Spot("station", "Paris")``), or None.  The
        board halos each seat's last such move, in the colour of the seat
        owning the piece or mark there.

        >>> import ttr_lab
        >>> ttr_lab.find_edition("usa").move_spot(ttr_lab.DrawBlind()) is None
        True
        """
        if isinstance(move, ClaimRoute):
            return Spot(ROUTE, move.route)
        return None
