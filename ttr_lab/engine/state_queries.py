"""The read-only queries of a game position: the mixin :class:`StateQueries`,
which :class:`~ttr_lab.engine.state.GameState` inherits (its playing, undo and
snapshot methods, and the queries the edition's rules answer with the state
itself: ``row``, ``pieces``, ``route_open_to``, are in :mod:`ttr_lab.engine.state`).

Each query reads the position's fields (declared here) and the edition's
tables; none changes anything.  A seat that is not in the game, or a pile or
a route that is not on the board, is a :class:`~ttr_lab.errors.TtrError`.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=3, seed=7)
>>> g.hand_size(0), g.deck_size(), g.ticket_deck_size, g.score(2)
(4, 93, 21, 0)
>>> g.route_owner(1) is None and g.routes_of(0) == ()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import OutOfRangeError, TtrError
from .moves import show_value
from .phases import Phase

if TYPE_CHECKING:  # pragma: no cover
    from ..maps.loading import Map, Ticket
    from .moves import Move
    from .rules import Edition

__all__ = ["StateQueries"]

_OVER = int(Phase.GAME_OVER)


class StateQueries:
    """What a :class:`~ttr_lab.engine.state.GameState` answers about its position
    from its fields and the edition's tables, without changing it: the phase
    and whose decision it is, hands, decks, tickets, scores, route owners and
    counters."""

    __slots__ = ()

    # GameState's slots that the queries read (declared here for the type checker)
    edition: Edition
    n: int
    _moves: list[Move]
    # the base rules' position fields (editions add theirs; see Edition.fields_added)
    _phase: int
    _cur: int
    _first: int
    _turn: int
    _final: int
    _passes: int
    _shuffles: int
    _resets: int
    _decks: tuple[tuple[int, ...], ...]
    _discards: tuple[tuple[int, ...], ...]
    _row: tuple[int, ...]
    _hands: tuple[tuple[int, ...], ...]
    _tickets: tuple[tuple[int, ...], ...]
    _pending: tuple[int, ...]
    _setup_deal: tuple[tuple[int, ...], ...]
    _tdeck: tuple[int, ...]
    _owners: tuple[int, ...]
    _pieces: tuple[int, ...]
    _scores: tuple[int, ...]

    # ------------------------------------------------------------------ public read API
    @property
    def phase(self) -> Phase:
        return Phase.of(self._phase)

    @property
    def current_player(self) -> int:
        """The seat whose decision is due (also during setup)."""
        return self._cur

    @property
    def first_player(self) -> int:
        """The seat that took the first turn (``first_player`` option, C2)."""
        return self._first

    @property
    def map(self) -> Map:
        return self.edition.map

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def move_stack(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        return len(self._moves)

    def seat(self, player: int) -> int:
        """``player`` checked as a seat of this game."""
        if type(player) is not int or not 0 <= player < self.n:
            raise TtrError(f"no seat {show_value(player)} in a {self.n}-player game (seats 0-{self.n - 1})")
        return player

    def card_name(self, card: int) -> str:
        types = self.edition.card_types
        if type(card) is not int or not 0 <= card < len(types):
            raise OutOfRangeError(f"no card type {show_value(card)} in {self.edition.name} (types 0-{len(types) - 1})")
        return types[card].name

    def hand(self, player: int) -> dict[str, int]:
        """A player's cards by name (zero counts left out)."""
        h = self._hands[self.seat(player)]
        return {self.card_name(i): k for i, k in enumerate(h) if k}

    def hand_counts(self, player: int) -> tuple[int, ...]:
        """A player's cards as a count per card type, in the edition's ``card_types`` order."""
        return self._hands[self.seat(player)]

    def hand_size(self, player: int) -> int:
        return sum(self._hands[self.seat(player)])

    def _pile(self, pile: int) -> int:
        if type(pile) is not int or not 0 <= pile < len(self.edition.pile_names):
            names = ", ".join(f"{i} {n}" for i, n in enumerate(self.edition.pile_names))
            raise OutOfRangeError(f"no card pile {show_value(pile)} in {self.edition.name} (piles: {names})")
        return pile

    def deck_size(self, pile: int = 0) -> int:
        return len(self._decks[self._pile(pile)])

    def discard_size(self, pile: int = 0) -> int:
        return len(self._discards[self._pile(pile)])

    @property
    def ticket_deck_size(self) -> int:
        return len(self._tdeck)

    def tickets(self, player: int) -> tuple[Ticket, ...]:
        """The tickets a player has kept."""
        return tuple(self.map.ticket(t) for t in self._tickets[self.seat(player)])

    @property
    def pending_tickets(self) -> tuple[Ticket, ...]:
        """Tickets drawn (or dealt) and awaiting the current player's choice."""
        return tuple(self.map.ticket(t) for t in self._pending)

    def score(self, player: int) -> int:
        """The running score (route points so far, and any other points already counted)."""
        return self._scores[self.seat(player)]

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores

    def route_owner(self, route_id: int) -> int | None:
        ri = self.edition.route_index.get(route_id) if type(route_id) is int else None
        if ri is None:
            raise TtrError(f"there is no route {show_value(route_id)} on the {self.map.id} map")
        o = self._owners[ri]
        return None if o < 0 else o

    def route_owners(self) -> dict[int, int]:
        """``{route id: seat}`` for every claimed route."""
        routes = self.edition.routes
        return {routes[i].id: o for i, o in enumerate(self._owners) if o >= 0}

    def routes_of(self, player: int) -> tuple[int, ...]:
        routes = self.edition.routes
        p = self.seat(player)
        return tuple(routes[i].id for i, o in enumerate(self._owners) if o == p)

    def buildings(self) -> dict[str, dict[str, int]]:
        """Pieces built on cities, by kind: ``{"station": {city: seat}}`` (empty where the edition has none)."""
        return {kind: getattr(self, api)() for kind, api in self.edition.buildings}

    @property
    def final_turns_left(self) -> int | None:
        """Turns left in the final round once it has started, else ``None``."""
        return None if self._final < 0 else self._final

    @property
    def resets(self) -> int:
        """How many three-wild resets have happened so far."""
        return self._resets

    @property
    def shuffles(self) -> int:
        return self._shuffles

    @property
    def turn_number(self) -> int:
        return self._turn
