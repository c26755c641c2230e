"""Ferries (rule B3): every payment includes a locomotive per locomotive space.

A ferry is a gray route whose map entry gives its locomotive spaces
(``"locomotives": 2``); the claim moves listed for it already include them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.rules import Edition

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Ferries", "R_EUROPE"]

R_EUROPE = "B3"


class Ferries(Edition):
    """Mixin: ferry routes and their locomotive minimum."""

    route_kinds = frozenset({"train", "ferry"})

    def route_min_wilds(self, ri: int) -> int:
        """A ferry's locomotive spaces: the locomotives every payment of route index ``ri`` includes."""
        return self.routes[ri].locomotives

    def check_payment(self, s: GameState, ri: int, cards: list[tuple[int, int]]) -> tuple[str, str] | None:
        """The basic payment (A4), with a ferry's locomotives paid as locomotives (B3)."""
        why = super().check_payment(s, ri, cards)
        if why:
            return why
        need = self.routes[ri].locomotives
        wilds = sum(k for c, k in cards if self._wild[c])
        if wilds < need:
            return (R_EUROPE, f"this ferry needs at least {need} locomotives, not {wilds}")
        return None
