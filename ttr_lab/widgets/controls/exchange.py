"""The ``"exchange"`` control: exchange pieces with the box (Rails & Sails).

A dropdown over the legal ``exchange`` moves, described by the library,
shown when there are any.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ...engine.moves import Move
from .base import Control, Decision, Host, show

__all__ = ["ExchangeControl"]


class ExchangeControl(Control):
    """The exchange dropdown and button."""

    name = "exchange"
    verbs = frozenset({"exchange"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.dropdown = W.Dropdown(options=[], layout=W.Layout(width="auto")).add_class("ttr-exchange")
        self.box = W.VBox(
            [
                W.HTML("<b>Exchange pieces</b> (−1 point each):"),
                W.HBox([self.dropdown, host.make_button("Exchange", "ttr-exchange-button", self.exchange)]),
            ]
        ).add_class("ttr-exchange-box")
        self.moves: list[Move] = []
        show(self.box, False)

    def side(self) -> list[Any]:
        return [self.box]

    def exchange(self, move: Move | None = None) -> bool:
        """Play the dropdown's choice (or ``move``)."""
        h = self.host
        if h.hand_hidden():
            return False
        if move is None:
            if not self.moves or self.dropdown.value is None:
                return h.refuse("No exchange is possible now.")
            move = self.moves[self.dropdown.value]
        return h.play_move(move)

    def refresh(self, now: Decision) -> None:
        moves = now.with_verb("exchange")
        show(self.box, bool(moves))
        if moves == self.moves:
            return
        self.moves = moves
        g = self.game
        with self.dropdown.hold_sync():
            self.dropdown.options = [(m.describe(g), i) for i, m in enumerate(moves)]
            self.dropdown.value = 0 if moves else None
