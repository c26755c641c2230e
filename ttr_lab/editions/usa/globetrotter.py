"""The Globetrotter bonus (rule B2): points to whoever completed the most tickets.

USA 1910 and the Mega Game award it; every tied player scores it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.rules import Edition
from ...engine.scoring.results import PlayerScore

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Globetrotter"]


class Globetrotter(Edition):
    """Mixin: ``globetrotter_bonus`` points to each player with the most completed tickets."""

    #: points of the Globetrotter card (0: not in play)
    globetrotter_bonus: int = 0

    def bonuses(self, s: GameState, scores: list[PlayerScore]) -> tuple[list[list[tuple[str, int]]], set[int]]:
        """The base bonuses, and the Globetrotter (option ``variant``: the most completed tickets)."""
        out, holders = super().bonuses(s, scores)
        if self.globetrotter_bonus:
            most = max(sc.tickets_completed for sc in scores)
            if most > 0:
                for sc in scores:
                    if sc.tickets_completed == most:
                        out[sc.player].append(("Globetrotter", self.globetrotter_bonus))
        return out, holders
