"""The play widget's control for ``block N``: a dropdown of the free routes and a Block button.

It uses only the public side of the widget: the decision it is handed
(:class:`~ttr_lab.widgets.control_base.Decision`) and ``host.play_move``.
Needs the ``[lab]`` extra (ipywidgets).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ttr_lab.moves import Move
from ttr_lab.widgets.control_base import Control, Decision, Host, show

__all__ = ["BlockControl", "register_control", "unregister_control"]


class BlockControl(Control):
    """The block dropdown (the legal ``block`` moves, described) and its button."""

    name = "block"
    verbs = frozenset({"block"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.dropdown = W.Dropdown(options=[], layout=W.Layout(width="auto")).add_class("ttr-block")
        self.button = W.Button(description="Block").add_class("ttr-block-button")
        self.button.on_click(lambda _: self.block())
        self.box = W.VBox([W.HTML("<b>Block a route</b> (once a game):"), W.HBox([self.dropdown, self.button])])
        self.box.add_class("ttr-block-box")
        self.moves: list[Move] = []
        show(self.box, False)

    def side(self) -> list[Any]:
        return [self.box]

    def block(self, move: Move | None = None) -> bool:
        """Play the dropdown's choice (or ``move``)."""
        if move is None:
            if not self.moves or self.dropdown.value is None:
                return False
            move = self.moves[self.dropdown.value]
        return self.host.play_move(move)

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
    """Today's only way to add a control: the play widget's closed dict (issue 21 A3 asks for an open registry)."""
    from ttr_lab.widgets.controls import CONTROLS

    CONTROLS["block"] = BlockControl


def unregister_control() -> None:
    from ttr_lab.widgets.controls import CONTROLS

    if CONTROLS.get("block") is BlockControl:
        del CONTROLS["block"]
