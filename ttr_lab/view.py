"""What one player may see: :class:`PlayerView`.

A view shows the player's own hand, tickets and pending choice, and only the
public facts about everyone else (hand sizes, ticket counts, pieces, scores,
claimed routes, the face-up row, pile sizes).  Deck order, other hands and
other tickets are not reachable through it.  Bots decide from a view.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=3, seed=5)
>>> v = g.view(1)
>>> v.hand_sizes
(4, 4, 4)
>>> len(v.pending_tickets)      # seat 1 is not choosing yet
0
>>> sorted(v.to_dict())[:4]
['current', 'deck_sizes', 'discard_sizes', 'edition']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, LegalMoves, Phase

__all__ = ["PlayerView"]


class PlayerView:
    """A read-only window on a :class:`~ttr_lab.state.GameState` for one seat."""

    __slots__ = ("_state", "player")

    def __init__(self, state: "GameState", player: int) -> None:
        if not 0 <= player < state.n:
            raise ValueError(f"no seat {player} in a {state.n}-player game")
        self._state = state
        self.player = player

    # public facts
    @property
    def edition(self):  # noqa: ANN201
        return self._state.edition

    @property
    def map(self):  # noqa: ANN201
        return self._state.edition.map

    @property
    def phase(self) -> "Phase":
        return self._state.phase

    @property
    def current_player(self) -> int:
        return self._state.current_player

    @property
    def num_players(self) -> int:
        return self._state.n

    @property
    def player_names(self) -> tuple[str, ...]:
        return self._state.player_names

    @property
    def row(self) -> tuple[str | None, ...]:
        return self._state.row

    @property
    def deck_sizes(self) -> tuple[int, ...]:
        s = self._state
        return tuple(len(d) for d in s._decks)

    @property
    def discard_sizes(self) -> tuple[int, ...]:
        s = self._state
        return tuple(len(d) for d in s._discards)

    @property
    def ticket_deck_size(self) -> int:
        return self._state.ticket_deck_size

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(sum(h) for h in self._state._hands)

    @property
    def ticket_counts(self) -> tuple[int, ...]:
        return tuple(len(t) for t in self._state._tickets)

    @property
    def pieces(self) -> tuple[int, ...]:
        return tuple(self._state.pieces(p) for p in range(self._state.n))

    @property
    def scores(self) -> tuple[int, ...]:
        return self._state.scores

    def route_owners(self) -> dict[int, int]:
        return self._state.route_owners()

    def route_owner(self, route_id: int) -> int | None:
        return self._state.route_owner(route_id)

    def routes_of(self, player: int) -> tuple[int, ...]:
        return self._state.routes_of(player)

    @property
    def final_turns_left(self) -> int | None:
        return self._state.final_turns_left

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    # the player's own secrets
    @property
    def hand(self) -> dict[str, int]:
        return self._state.hand(self.player)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self._state._hands[self.player]

    @property
    def tickets(self):  # noqa: ANN201
        return self._state.tickets(self.player)

    @property
    def pending_tickets(self):  # noqa: ANN201
        s = self._state
        return s.pending_tickets if s.current_player == self.player else ()

    @property
    def is_my_turn(self) -> bool:
        return self._state.current_player == self.player and not self._state.is_over

    @property
    def legal_moves(self) -> "LegalMoves | tuple[()]":
        """The legal moves when this player is to decide, else ``()``.

        Legal moves never depend on hidden information (a blind draw does
        not say which card it will be), so this leaks nothing.
        """
        return self._state.legal_moves if self.is_my_turn else ()

    def why_illegal(self, move: Any) -> tuple[str, str] | None:
        if not self.is_my_turn:
            return ("A1", f"it is not {self._state.player_names[self.player]}'s decision")
        return self._state.why_illegal(move)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (hidden information left out)."""
        s = self._state
        return {
            "edition": s.edition.name,
            "player": self.player,
            "phase": s.phase.name.lower(),
            "current": s.current_player,
            "row": list(self.row),
            "deck_sizes": list(self.deck_sizes),
            "discard_sizes": list(self.discard_sizes),
            "ticket_deck_size": self.ticket_deck_size,
            "hand": self.hand,
            "tickets": [t.id for t in self.tickets],
            "pending_tickets": [t.id for t in self.pending_tickets],
            "hand_sizes": list(self.hand_sizes),
            "ticket_counts": list(self.ticket_counts),
            "pieces": list(self.pieces),
            "scores": list(self.scores),
            "owners": {str(k): v for k, v in sorted(self.route_owners().items())},
            "final_turns_left": self.final_turns_left,
        }

    def __repr__(self) -> str:
        return f"<PlayerView seat {self.player} of {self._state!r}>"
