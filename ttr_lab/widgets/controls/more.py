"""The moves no control plays: a button each, or a list to choose from when there are many.

The play widget plays the base game's moves with its own controls (the
card buttons, a click on a route, the ticket box, Stop: :data:`WIDGET_VERBS`)
and an edition's moves with the controls the edition names.  Any other
legal move (``pass``, or the new move of a plug-in whose package brings no
control) is offered in the card row by :class:`OtherMoves`: a button per
move while they fit (:data:`MAX_BUTTONS` in all), and for a verb with more
moves than that a dropdown of them, each described by the library
(``move.describe(game)``), with a button to play the one chosen.  So every
legal move can be played from the page, not only from the Legal moves tab.

>>> from ttr_lab.engine.moves import DrawFaceUp, Pass
>>> buttons, menus = OtherMoves.split([Pass(), *(DrawFaceUp(i) for i in range(1, 7))])
>>> [str(m) for m in buttons], {verb: len(moves) for verb, moves in menus.items()}
(['pass'], {'faceup': 6})
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import ipywidgets as W

from ...engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move, StopDrawing
from .base import Control, Decision, Host

__all__ = ["OtherMoves", "MAX_BUTTONS", "WIDGET_VERBS"]

#: at most this many buttons for moves without a control; a verb with more moves gets a dropdown
MAX_BUTTONS = 6
#: the verbs of the moves the play widget plays with its own controls
WIDGET_VERBS = frozenset(cls.verb for cls in (DrawFaceUp, DrawBlind, StopDrawing, ClaimRoute, DrawTickets, KeepTickets))


class OtherMoves(Control):
    """The card row's box (CSS class ``ttr-extra-moves``) of the legal moves no control plays.

    ``taken`` are the verbs played elsewhere: :data:`WIDGET_VERBS` and
    every control's :attr:`~ttr_lab.widgets.controls.base.Control.verbs`.
    A move's button has the CSS class ``ttr-move-<verb>``; a verb's
    dropdown ``ttr-moves-<verb>`` and its button ``ttr-moves-<verb>-play``.
    """

    name = "moves"

    def __init__(self, host: Host, taken: Iterable[str] = WIDGET_VERBS) -> None:
        super().__init__(host)
        self.taken = frozenset(taken)
        self.box = W.HBox([]).add_class("ttr-extra-moves")
        #: the moves offered now (in the library's order)
        self.moves: list[Move] = []
        self._menus: dict[str, tuple[Any, list[Move]]] = {}

    def row(self) -> list[Any]:
        return [self.box]

    @staticmethod
    def split(moves: Iterable[Move]) -> tuple[list[Move], dict[str, list[Move]]]:
        """The moves shown as buttons, and those shown as a dropdown per verb: a
        verb's moves are buttons while all the buttons fit in :data:`MAX_BUTTONS`."""
        by_verb: dict[str, list[Move]] = {}
        for m in moves:
            by_verb.setdefault(m.verb, []).append(m)
        buttons: list[Move] = []
        menus: dict[str, list[Move]] = {}
        for verb, group in by_verb.items():
            if len(buttons) + len(group) <= MAX_BUTTONS:
                buttons += group
            else:
                menus[verb] = group
        return buttons, menus

    def choose(self, verb: str, index: int | None = None) -> bool:
        """Play the move chosen in ``verb``'s dropdown (or its move ``index``)."""
        h = self.host
        if h.hand_hidden():
            return False
        menu = self._menus.get(verb)
        if menu is None:
            return h.refuse(f"There is no list of {verb!r} moves now.")
        dropdown, moves = menu
        i = dropdown.value if index is None else index
        if type(i) is not int or not 0 <= i < len(moves):
            return h.refuse(f"Choose a {verb!r} move in the list first.")
        return h.play_move(moves[i])

    def refresh(self, now: Decision) -> None:
        """Offer the moves no control plays (none while the decider's hand is hidden)."""
        extra = [m for m in now.moves if m.verb not in self.taken]
        if extra == self.moves:
            return
        self.moves = extra
        h, g = self.host, self.game
        buttons, menus = self.split(extra)
        children = [h.make_button(str(m), f"ttr-move-{m.verb}", functools.partial(h.play_move, m)) for m in buttons]
        self._menus = {}
        for verb, group in menus.items():
            dropdown = W.Dropdown(
                options=[(m.describe(g), i) for i, m in enumerate(group)],
                value=0,
                layout=W.Layout(width="auto", max_width="280px"),
            ).add_class(f"ttr-moves-{verb}")
            play = h.make_button(verb, f"ttr-moves-{verb}-play", functools.partial(self.choose, verb))
            self._menus[verb] = (dropdown, group)
            children.append(W.HBox([dropdown, play]).add_class("ttr-moves-menu"))
        old = self.box.children
        self.box.children = children
        _close(old)  # a closed widget leaves the browser too

    def holds(self, widget: Any) -> bool:
        """Whether ``widget`` is one of this box's buttons (a refusal it causes goes by the card row)."""
        return any(widget is c or widget in getattr(c, "children", ()) for c in self.box.children)


def _close(widgets: Iterable[Any]) -> None:
    todo = list(widgets)
    while todo:
        w = todo.pop()
        todo.extend(getattr(w, "children", ()))
        w.close()
