"""The ``"piles"`` control: several draw piles (Rails & Sails' trains and ships).

One deck button per pile (instead of the single deck button), and a toggle
naming the pile that refills a face-up slot taken (``faceup 3 refill ships``).
"""

from __future__ import annotations

import functools
from typing import Any

import ipywidgets as W

from .base import Control, Decision, Host

__all__ = ["PilesControl"]


class PilesControl(Control):
    """The refill toggle and one deck button per pile."""

    name = "piles"
    verbs = frozenset({"blind"})
    replaces = frozenset({"deck"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        piles = self.game.edition.pile_names
        first = sorted(piles)
        self.refill = W.ToggleButtons(
            options=[(f"refill from {p}", p) for p in first],
            value="trains" if "trains" in piles else first[0],
            style={"button_width": "auto"},
        ).add_class("ttr-refill")
        self.decks = [
            host.make_button(f"{p} deck", f"ttr-deck-{p}", functools.partial(host.draw_blind, p)) for p in piles
        ]

    def row(self) -> list[Any]:
        return [self.refill, *self.decks]

    def faceup_refill(self) -> str | None:
        value = self.refill.value
        return str(value) if value is not None else None

    def refresh(self, now: Decision) -> None:
        g = self.game
        for i, (button, pile) in enumerate(zip(self.decks, g.edition.pile_names)):
            button.description = f"{pile} deck ({g.deck_size(i)})"
