"""Two card piles and the row's refill choice (rules A2 and B4, resolution C15).

Rails & Sails has a train pile and a ship pile; the six-card row is dealt
three from each.  Taking a face-up card, the player chooses which pile turns
up the replacement (``faceup 3 refill ships``); an empty pile passes the
slot to the other.  A player may stop after one card (option
``allow_single_draw``, on by default here, C6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.moves import DrawFaceUp, Move
from ...engine.rules import Edition
from .payments import R_RS

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Piles"]


class Piles(Edition):
    """Mixin: the refill choice of a face-up pick."""

    controls = ("piles",)

    def faceup_moves(self, slot: int) -> tuple[Move, ...]:
        """The moves that take face-up ``slot``: one per pile, the one that refills it (B4: the taker chooses)."""
        return tuple(DrawFaceUp(slot, name) for name in sorted(self.pile_names))

    def check_refill(self, s: GameState, move: DrawFaceUp) -> tuple[str, str] | None:
        """Why the refill pile the move names is wrong, or None."""
        if move.refill not in self.pile_names:
            piles = " or ".join(f"'faceup {move.slot} refill {name}'" for name in sorted(self.pile_names))
            if move.refill is None:
                return (R_RS, f"choose the pile that turns up the replacement: {piles}")
            return (R_RS, f"unknown pile {str(move.refill)[:40]!r} for the replacement: {piles}")
        return None

    def refill_pile(self, s: GameState, move: DrawFaceUp, slot: int) -> int:
        """The pile the move names, else the slot's home pile."""
        return self._pile_by_name[move.refill]
