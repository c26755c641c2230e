"""Long tickets and the box (rule B3).

Each player is dealt 1 long ticket and 3 regular ones and keeps at least 2
of the 4.  The long tickets not dealt, and every unkept initial ticket, go
to the *box*: out of the game, unseen.

Position field: ``_box`` (ticket ids in the box), hidden from every seat
(a determinization takes the box its ticket deal drew).

The long tickets are dealt through :meth:`~ttr_lab.engine.rules.hooks.EditionHooks.chance_pick`
(kind :data:`~ttr_lab.engine.rules.hooks.LONG_TICKETS`), so a record without a seed replays the deal;
the hooks :meth:`~LongTickets.setup_deal_size`, :meth:`~LongTickets.ticket_box_size`
and :meth:`~LongTickets.swap_ticket_aside` tell generic code about the box.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.rules import Edition, Field, Rebuild, Table
from ...engine.rules.accessors import Accessors
from ...engine.rules.hooks import LONG_TICKETS
from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["LongTickets", "LongTicketAccessors"]


def _load_box(ed: Any, n: int, data: Any) -> tuple[int, ...]:
    known = set(ed.ticket_universe())
    if not isinstance(data, list) or not all(type(t) is int and t in known for t in data):
        raise TtrError("expected a list of this edition's ticket ids")
    return tuple(data)


class LongTicketAccessors(Accessors):
    """The box's size, asked of a game or a view (public: its tickets are not).

    >>> import ttr_lab
    >>> ttr_lab.new_game("europe", players=3, seed=1).view(2).ext.box_size   # 6 long tickets, 3 dealt
    3
    """

    __slots__ = ()

    @property
    def box_size(self) -> int:
        """Tickets out of the game: long tickets not dealt, unkept initial tickets (also ``game.box_size``)."""
        return cast(LongTickets, self.state.edition).box_size(self.state)


class LongTickets(Edition):
    """Mixin: the long-ticket deal and the box."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_box",
            "box",
            lambda ed, n: (),
            lambda ed, v: list(v),
            _load_box,
            hidden="chance",
            from_view="box_from_view",
        ),
    )
    accessors = LongTicketAccessors
    long_tickets: tuple[int, ...] = ()
    regular_tickets: tuple[int, ...] = ()
    ticket_box = True
    #: regular tickets dealt to each seat at setup (after its long ticket)
    regular_dealt: int = 3

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
        """The regular tickets and the long ones (dealt apart)."""
        return self.regular_tickets + self.long_tickets

    def deal_setup_tickets(self, s: GameState) -> tuple[tuple[int, ...], ...]:
        """1 long ticket (the rest go to the box unseen) and 3 regular ones each."""
        longs = list(self.long_tickets)
        if longs:
            self.rng(s).shuffle(longs)
        deal = []
        for _ in range(s.n):
            first = (self.chance_pick(s, LONG_TICKETS, longs),) if longs else ()
            deal.append(first + self.take_tickets(s, self.regular_dealt))
        s._box = tuple(longs)
        return tuple(deal)

    def setup_deal_size(self) -> int:
        """A long ticket (where the map has them) and 3 regular ones."""
        return (1 if self.long_tickets else 0) + self.regular_dealt

    def ticket_box_size(self, view: PlayerView) -> int:
        """The box's size, which every view shows (its tickets are hidden from all)."""
        return int(view.box_size)

    def swap_ticket_aside(self, s: GameState, old: int, new: int) -> bool:
        """The box holds ``old``: put ``new`` in its place."""
        if old not in s._box:
            return super().swap_ticket_aside(s, old, new)
        s._box = tuple(new if t == old else t for t in s._box)
        return True

    def box_from_view(self, view: PlayerView, ctx: Rebuild) -> list[int]:
        """The box of the sample's ticket deal (nobody sees it)."""
        return list(ctx.ticket_box)

    def table_extra(self, t: Table) -> None:
        """At a table: the long tickets nobody holds are in the box."""
        super().table_extra(t)
        held = {x for ts in t.tickets for x in ts} | set(t.pending)
        t.extra["box"] = [x for x in self.ticket_universe() if x in set(self.long_tickets) and x not in held]

    def return_setup_tickets(self, s: GameState, returned: tuple[int, ...]) -> None:
        """Unkept initial tickets go to the box, not the deck (B3)."""
        s._box = s._box + returned

    def tickets_elsewhere(self, s: GameState) -> list[int]:
        """The tickets in the box."""
        return [*super().tickets_elsewhere(s), *s._box]

    def box_size(self, s: GameState) -> int:
        """Tickets out of the game (long tickets not dealt, unkept initial tickets)."""
        return len(s._box)

    def problems(self, s: GameState) -> list[str]:
        """The base checks, and no long ticket in the draw deck (the box holds the undealt ones)."""
        out = super().problems(s)
        longs = set(self.long_tickets)
        if any(t in longs for t in s._tdeck):
            out.append("a long ticket is in the draw deck")
        return out
