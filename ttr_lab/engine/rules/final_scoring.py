"""Final scoring hooks (rule A7): tickets, the longest-path bonus, tie-breakers.

:func:`ttr_lab.engine.scoring.outcome` adds up what these hooks say; an edition
overrides them to score its own way (stations, tours, harbors, Globetrotter).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..scoring import network, score_two_city
from ..scoring.results import PlayerScore, TicketResult
from .consistency import Consistency

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["FinalScoring"]

Bonuses = tuple[list[list[tuple[str, int]]], set[int]]


class FinalScoring(Consistency):
    """Tickets over the player's own routes, the longest-path bonus, and B1's tie-breakers."""

    longest_path_name: ClassVar[str] = "Longest Path"
    #: points for the longest path (0: no bonus card in this edition)
    longest_path_bonus: int = 10

    @property
    def uses_path_tiebreak(self) -> bool:
        """Whether tie-breaks compare longest-path lengths (no bonus card in play).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.uses_path_tiebreak
        False
        """
        return not self.longest_path_bonus and self.options.get("tiebreak") == "longest_path"

    @property
    def needs_longest_path(self) -> bool:
        """Whether scoring computes each player's longest path.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.needs_longest_path
        True
        """
        return bool(self.longest_path_bonus) or self.uses_path_tiebreak

    def ticket_results(self, s: GameState, player: int) -> tuple[TicketResult, ...]:
        """Each kept ticket of ``player`` as a TicketResult (A7).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])
        >>> [r.completed for r in ed.ticket_results(g, 0)]
        [False, False]
        """
        adj = network(s, player)
        m = self.map
        return tuple(score_two_city(m.ticket(t), adj) for t in s._tickets[player])

    def score_terms(self, s: GameState, player: int, tickets: tuple[TicketResult, ...]) -> tuple[tuple[str, int], ...]:
        """Points that are neither routes, tickets nor bonuses (stations, harbors...).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.score_terms(g, 0, ())
        ()
        """
        return ()

    def bonuses(self, s: GameState, scores: list[PlayerScore]) -> Bonuses:
        """Bonuses that compare players, per seat, and the seats holding the
        longest-path card (every tied player holds it, A7).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> out = g.outcome()
        >>> ed.bonuses(g, list(out.players))
        ([[], []], set())
        """
        out: list[list[tuple[str, int]]] = [[] for _ in scores]
        holders: set[int] = set()
        if self.longest_path_bonus:
            best = max(sc.longest_path for sc in scores)
            if best > 0:
                holders = {sc.player for sc in scores if sc.longest_path == best}
                for p in sorted(holders):
                    out[p].append((self.longest_path_name, self.longest_path_bonus))
        return out, holders

    def tiebreak_key(self, s: GameState, score: PlayerScore, holders: set[int]) -> tuple[Any, ...]:
        """Larger is better; compared after the total (B1: completed tickets,
        then the Longest Path card holder; without the card, path length or a
        shared win by option ``tiebreak``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.tiebreak_key(g, g.outcome().players[0], set())
        (0, 0)
        """
        if self.longest_path_bonus:
            return (score.tickets_completed, 1 if score.player in holders else 0)
        if self.options.get("tiebreak") == "longest_path":
            return (score.tickets_completed, score.longest_path)
        return (score.tickets_completed,)

    def tiebreak_text(self, shared: bool) -> str:
        """How ties were broken, in words (``shared``: a tie that no tie-breaker broke).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.tiebreak_text(False)
        'tie on points broken by completed tickets, then the Longest Path card'
        """
        if shared:
            return "tied on points and on every tie-breaker: a shared win"
        if self.longest_path_bonus:
            return "tie on points broken by completed tickets, then the Longest Path card"
        return "tie on points broken by completed tickets, then longest path length"
