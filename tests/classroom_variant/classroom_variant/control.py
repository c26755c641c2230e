"""The play widget's control for ``block N``: a dropdown of the free routes and a Block button.

It uses only the public side of the widget: the decision it is handed
(:class:`~ttr_lab.widgets.controls.base.Decision`) and the
:class:`~ttr_lab.widgets.controls.base.Host` protocol (``make_button``,
``hand_hidden``, ``refuse``, ``play_move``).  ttr_lab finds it by the
``ttr_lab.controls`` entry point in this package's ``pyproject.toml``, or
after :func:`register_control`.  Needs the ``[lab]`` extra (ipywidgets).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ttr_lab.engine.moves import Move
from ttr_lab.widgets import controls
from ttr_lab.widgets.controls import Control, Decision, Host, show

__all__ = ["BlockControl", "register_control", "unregister_control"]


class BlockControl(Control):
    """The block dropdown (the legal ``block`` moves, described) and its button."""

    name = "block"
    verbs = frozenset({"block"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.dropdown = W.Dropdown(options=[], layout=W.Layout(width="auto")).add_class("ttr-block")
        self.button = host.make_button("Block", "ttr-block-button", self.block)
        self.box = W.VBox([W.HTML("<b>Block a route</b> (once a game):"), W.HBox([self.dropdown, self.button])])
        self.box.add_class("ttr-block-box")
        self.moves: list[Move] = []
        show(self.box, False)

    def side(self) -> list[Any]:
        return [self.box]

    def block(self, move: Move | None = None) -> bool:
        """Play the dropdown's choice (or ``move``)."""
        h = self.host
        if h.hand_hidden():
            return False
        if move is None:
            if not self.moves or self.dropdown.value is None:
                return h.refuse("No route can be blocked now.")
            move = self.moves[self.dropdown.value]
        return h.play_move(move)

    def refresh(self, now: Decision) -> None:
        moves = now.with_verb("block")
        show(self.box, bool(moves))
        if moves == self.moves:
            return
        self.moves = moves
        g = self.game
        with self.dropdown.hold_sync():
            self.dropdown.options = [(m.describe(g), i) for i, m in enumerate(moves)]
            self.dropdown.value = 0 if moves else None

    def turn_hint(self) -> str:
        return " or block a route (once a game)" if self.moves else ""

    def score_columns(self, seat: int) -> list[tuple[str, str]]:
        rid = self.game.view(seat).to_dict()["blocked"][seat]  # public
        return [("blocked", "–" if rid is None else str(rid))]


def register_control() -> None:
    """Make the play widget build :class:`BlockControl` for an edition naming ``block``."""
    controls.register_control("block", BlockControl)


def unregister_control() -> None:
    """Forget the control (for tests)."""
    if controls.CONTROLS.get("block") is BlockControl:
        controls.unregister_control("block")
