"""What one player may see: :class:`PlayerView`.

A view shows the player's own hand, tickets and pending choice, and only the
public facts about everyone else (hand sizes, ticket counts, pieces, scores,
claimed routes, the face-up row, pile sizes, and what each edition marks
public: stations, harbors, a tunnel's reveal...).  Deck order, other hands,
other tickets and the game's seed are not reachable through it.  Bots decide
from a view.

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
>>> v.player = 0
Traceback (most recent call last):
...
AttributeError: property 'player' of 'PlayerView' object has no setter
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .data import Map, Ticket
from .errors import TtrError
from .moves import show_value
from .phases import Phase

if TYPE_CHECKING:  # pragma: no cover
    from .core import Edition
    from .state import GameState, LegalMoves

__all__ = ["PlayerView"]


class PlayerView:
    """A read-only window on a game state for one seat."""

    __slots__ = ("_state", "_player")

    def __init__(self, state: GameState, player: int) -> None:
        if type(player) is not int or not 0 <= player < state.n:
            raise TtrError(f"no seat {show_value(player)} in a {state.n}-player game")
        self._state = state
        self._player = player

    @property
    def player(self) -> int:
        """The seat this view belongs to (fixed)."""
        return self._player

    def __getattr__(self, name: str) -> Any:
        """A public accessor of the edition's rules (``view.stations()``)."""
        if name.startswith("_"):
            raise AttributeError(name)
        state = object.__getattribute__(self, "_state")
        api = state.edition.state_api.get(name)
        if api is None or not api.public:
            raise AttributeError(f"a {state.edition.name} player's view has no attribute {name!r}")
        fn = getattr(state.edition, api.method)
        if api.prop:
            return fn(state)
        return functools.partial(fn, state)

    def __dir__(self) -> list[str]:
        public = [k for k, a in self._state.edition.state_api.items() if a.public]
        return sorted({*super().__dir__(), *public})

    # public facts
    @property
    def edition(self) -> Edition:
        return self._state.edition

    @property
    def map(self) -> Map:
        return self._state.edition.map

    @property
    def phase(self) -> Phase:
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
        return tuple(len(d) for d in self._state._decks)

    @property
    def discard_sizes(self) -> tuple[int, ...]:
        return tuple(len(d) for d in self._state._discards)

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

    def buildings(self) -> dict[str, dict[str, int]]:
        return self._state.buildings()

    def route_open_to(self, route_id: int, player: int) -> bool:
        return self._state.route_open_to(route_id, player)

    @property
    def final_turns_left(self) -> int | None:
        return self._state.final_turns_left

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def ply(self) -> int:
        return self._state.ply

    # the player's own secrets
    @property
    def hand(self) -> dict[str, int]:
        return self._state.hand(self._player)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self._state._hands[self._player]

    @property
    def tickets(self) -> tuple[Ticket, ...]:
        return self._state.tickets(self._player)

    @property
    def pending_tickets(self) -> tuple[Ticket, ...]:
        s = self._state
        return s.pending_tickets if s.current_player == self._player else ()

    @property
    def is_my_turn(self) -> bool:
        return self._state.current_player == self._player and not self._state.is_over

    @property
    def legal_moves(self) -> LegalMoves | tuple[()]:
        """The legal moves when this player is to decide, else ``()``.

        Legal moves never depend on hidden information (a blind draw does
        not say which card it will be), so this leaks nothing.
        """
        return self._state.legal_moves if self.is_my_turn else ()

    def why_illegal(self, move: Any) -> tuple[str, str] | None:
        if not self.is_my_turn:
            return ("A1", f"it is not {self._state.player_names[self._player]}'s decision")
        return self._state.why_illegal(move)

    def describe(self, move: Any) -> str:
        return self._state.describe(move)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (hidden information left out)."""
        s = self._state
        d = {
            "edition": s.edition.name,
            "player": self._player,
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
        d.update(s.edition.view_fields(s, self._player))
        return d

    def __repr__(self) -> str:
        s = self._state
        return (
            f"<PlayerView seat {self._player} of a {s.edition.name} game, {s.n} players, ply {s.ply}, {s.phase.name}>"
        )
