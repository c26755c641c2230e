"""Long tickets and the box (rule B3).

Each player is dealt 1 long ticket and 3 regular ones and keeps at least 2
of the 4.  The long tickets not dealt, and every unkept initial ticket, go
to the *box*: out of the game, unseen.

Position field: ``_box`` (ticket ids in the box).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...core import Api, Edition, Field
from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ...state import GameState

__all__ = ["LongTickets"]


def _load_box(ed: Any, n: int, data: Any) -> tuple[int, ...]:
    known = set(ed.ticket_universe())
    if not isinstance(data, list) or not all(type(t) is int and t in known for t in data):
        raise TtrError("expected a list of this edition's ticket ids")
    return tuple(data)


class LongTickets(Edition):
    """Mixin: the long-ticket deal and the box."""

    fields: ClassVar[tuple[Field, ...]] = (Field("_box", "box", lambda ed, n: (), lambda ed, v: list(v), _load_box),)
    api = {"box_size": Api("box_size", prop=True)}
    long_tickets: tuple[int, ...] = ()
    regular_tickets: tuple[int, ...] = ()

    def _setup_parameters(self) -> None:
        super()._setup_parameters()
        m = self.map
        decks = m.decks
        self.long_tickets = tuple(t.id for t in m.deck("long")) if "long" in decks else ()
        if "regular" in decks:
            self.regular_tickets = tuple(t.id for t in m.deck("regular"))
        else:
            self.regular_tickets = tuple(t.id for t in m.tickets if not t.is_tour and t.id not in self.long_tickets)

    def ticket_deck(self) -> tuple[int, ...]:
        """The regular tickets (the draw deck); long tickets are dealt apart."""
        return self.regular_tickets

    def ticket_universe(self) -> tuple[int, ...]:
        return self.regular_tickets + self.long_tickets

    def deal_setup_tickets(self, s: GameState) -> tuple[tuple[int, ...], ...]:
        """1 long ticket (the rest go to the box unseen) and 3 regular ones each."""
        longs = list(self.long_tickets)
        if longs:
            self.rng(s).shuffle(longs)
        deal = []
        ch = s._chance
        for _ in range(s.n):
            first = () if not longs else (longs.pop(),) if ch is None else (ch.pick_long(self, s, longs),)
            deal.append(first + self.take_tickets(s, 3))
        s._box = tuple(longs)
        return tuple(deal)

    def return_setup_tickets(self, s: GameState, returned: tuple[int, ...]) -> None:
        """Unkept initial tickets go to the box, not the deck (B3)."""
        s._box = s._box + returned

    def tickets_elsewhere(self, s: GameState) -> list[int]:
        return [*super().tickets_elsewhere(s), *s._box]

    def box_size(self, s: GameState) -> int:
        """Tickets out of the game (long tickets not dealt, unkept initial tickets)."""
        return len(s._box)

    def problems(self, s: GameState) -> list[str]:
        out = super().problems(s)
        longs = set(self.long_tickets)
        if any(t in longs for t in s._tdeck):
            out.append("a long ticket is in the draw deck")
        return out
