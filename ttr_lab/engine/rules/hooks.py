"""The edition hooks generic code asks instead of probing editions.

Analysis, records, the table scorer, the position editor and the bots know
nothing of any edition's own rules: where an edition changes what they must
do, they call one of these hooks, and the edition's rule mixins override it
(each calls ``super()`` for the rules below it).  The defaults here are the
base game's (rules A1-A7).

=======================  =====================================================
hook                     asked by
=======================  =====================================================
``extra_from_view``      determinization: the position's edition fields,
                         rebuilt from a view (each :class:`Field`'s
                         ``from_view`` method)
``cards_in_sight``       determinization, odds: cards a view shows beside the
                         hands, row and discards (Europe: a tunnel's reveal)
``pieces_in_supply``     analysis, bots: the pieces a seat has left, by kind
``ticket_box_size``      ticket tracking: the tickets out of play (Europe)
``setup_deal_size``      ticket tracking, records: tickets dealt per seat
``swap_ticket_aside``    a seat record's late binding (Europe's box)
``chance_pick``          an edition's own setup chance, recorded and forced
                         by records (:mod:`ttr_lab.records.replay`)
``table_pieces``         the table scorer and the editor: pieces in supply
``table_extra``          the table scorer and the editor: the edition's
                         own facts (``table_facts``, ``seat_facts``)
``ticket_sites``,        the fast playout policy: pieces built on cities
``can_build``,           that score with tickets (Rails & Sails' harbors),
``ticket_build``,        when ``builds_on_tickets``
``builds_left``
``choose_split``         the playout policy: a setup split of the pieces
``closed_routes``        bots: the free routes a seat may not claim
=======================  =====================================================

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> g.edition.pieces_in_supply(g.view(0), 1), g.edition.setup_deal_size()
((45, None), 3)
>>> sorted(ttr_lab.find_edition("world").scorer_facts)
['exchanged', 'harbors']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import NotFoundError, TtrError
from ..moves import CardList, Move
from .base import EditionBase
from .declarations import Field, Rebuild, Table

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..view import PlayerView

__all__ = ["EditionHooks", "table_cities", "LONG_TICKETS"]

#: the :meth:`~EditionHooks.chance_pick` kind of the tickets dealt apart at
#: setup (:attr:`~ttr_lab.engine.rules.base.EditionBase.long_tickets`): a record's deal
#: lists each seat's first, and a replay without a seed forces them
LONG_TICKETS = "long_tickets"


class EditionHooks(EditionBase):
    """The hooks' defaults (the base game's); see the module doc."""

    #: facts a person states at a table for this edition's own fields:
    #: ``score(edition, **facts)`` takes them (keyword -> what it is)
    table_facts: ClassVar[Mapping[str, str]] = {}
    #: facts :func:`~ttr_lab.tabletop.seat_view` takes for this edition's own
    #: fields and pieces (keyword -> what it is)
    seat_facts: ClassVar[Mapping[str, str]] = {
        "trains": "{player: trains left}: checked against the routes owned",
    }
    #: whether the edition has pieces built on cities that score with the
    #: builder's tickets (Rails & Sails' harbors): see :meth:`ticket_sites`
    builds_on_tickets: ClassVar[bool] = False
    #: whether the edition's rules change ``double_rule`` (set with the claiming rule's tables)
    custom_double_rule: bool

    # ------------------------------------------------------------------ views and determinization
    def extra_from_view(self, view: PlayerView, ctx: Rebuild) -> dict[str, Any]:
        """A saved position's ``"extra"`` object for a complete state consistent
        with ``view``: each keyed field's ``from_view`` method, in the
        edition's field order (so ``ctx.rng`` is drawn from in a fixed order).

        >>> import random, ttr_lab
        >>> g = ttr_lab.new_game("europe", players=2, seed=1)
        >>> ex = g.edition.extra_from_view(g.view(0), Rebuild(random.Random(0)))
        >>> ex["stations"], ex["tunnel"]
        ([[], []], None)
        """
        out: dict[str, Any] = {}
        for f in self.fields_added:
            if not f.key:
                continue
            if not f.from_view:
                raise TtrError(
                    f"determinization cannot rebuild the {self.name} position field {f.key!r}: "
                    "its Field names no from_view method"
                )
            out[f.key] = getattr(self, f.from_view)(view, ctx)
        return out

    def cards_in_sight(self, view: PlayerView) -> tuple[tuple[str, ...], Mapping[int, CardList]]:
        """Cards ``view`` shows besides the hands, the face-up row and the
        discards: ``(aside, held)``, the names of cards turned up and lying
        apart (Europe: a tunnel's three cards), and cards known to be in a
        seat's hand (Europe: the payment the tunnel's claimer set aside).

        >>> import ttr_lab
        >>> ttr_lab.find_edition("usa").cards_in_sight(ttr_lab.new_game("usa", players=2, seed=1).view(0))
        ((), {})
        """
        return (), {}

    def pieces_in_supply(self, view: PlayerView, player: int) -> tuple[int, int | None]:
        """``(trains, ships)`` ``player`` has left to place, as ``view`` shows
        them; ``ships`` is None in an edition without ship pieces (every
        piece is a train; Rails & Sails has both).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("world", players=2, seed=1)
        >>> g.edition.pieces_in_supply(g.view(0), 1)   # before the setup split
        (0, 0)
        """
        return int(view.pieces[player]), None

    def ticket_box_size(self, view: PlayerView) -> int:
        """How many tickets are out of play, unseen by every seat (Europe's
        box: undealt long tickets and unkept initial ones); 0 by default.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("europe", players=3, seed=1)   # 6 long tickets, 3 dealt
        >>> g.edition.ticket_box_size(g.view(0)), g.edition.ticket_box
        (3, True)
        """
        return 0

    def setup_deal_size(self) -> int:
        """How many tickets each seat is dealt at setup (its first ones are
        :attr:`~EditionBase.long_tickets` where the edition has them).

        >>> import ttr_lab
        >>> ttr_lab.find_edition("europe").setup_deal_size()
        4
        """
        return int(self.setup_tickets[0])

    def swap_ticket_aside(self, s: GameState, old: int, new: int) -> bool:
        """Put ticket ``new`` where the edition keeps ``old`` aside from the
        deck, the hands and the pending choice (Europe's box), for a seat
        record's late binding (:mod:`ttr_lab.records.seat_binding`); False if ``old`` is
        not there.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("europe", players=2, seed=1)
        >>> old = g.to_dict()["extra"]["box"][0]
        >>> g.edition.swap_ticket_aside(g, old, 99), g.to_dict()["extra"]["box"][0]
        (True, 99)
        """
        return False

    # ------------------------------------------------------------------ bots
    def closed_routes(self, view: PlayerView, owners: Mapping[int, int] | None = None) -> set[int]:
        """Ids of the free routes ``view``'s seat may not claim: those for
        which :meth:`~ttr_lab.engine.state.GameState.route_open_to` is False, for a
        whole board at once (bots planning paths ask it every turn).
        ``owners`` is ``view.route_owners()`` if the caller has it.

        Under the base double-route rule (A4, :meth:`double_rule`) only the
        other route of a claimed double can be closed (to its owner; to
        everyone with fewer than ``double_route_min_players``), so only those
        are asked; where an edition's rules change ``double_rule`` every free
        route is asked.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> while g.phase.name == "SETUP_TICKETS":
        ...     g.play(g.legal_moves[0])
        >>> claim = next(m for m in g.legal_moves if m.verb == "claim" and g.map.route(m.route).double_of)
        >>> g.play(claim)   # with 2 players, its twin is closed to both
        >>> [g.edition.closed_routes(g.view(p)) == {g.map.route(claim.route).double_of} for p in (0, 1)]
        [True, True]
        """
        me = view.player
        owners = view.route_owners() if owners is None else owners
        open_to = view.route_open_to
        if self.custom_double_rule:  # an edition's own rule: ask it everywhere
            return {r.id for r in self.routes if r.id not in owners and not open_to(r.id, me)}
        close = view.num_players < self.double_route_min_players
        partner, routes, index = self.route_partner, self.routes, self.route_index
        out = set()
        for rid, o in owners.items():
            p = partner[index[rid]]
            if p >= 0 and (o == me or close) and routes[p].id not in owners:
                out.add(routes[p].id)
        return out

    def ticket_sites(self, view: PlayerView) -> set[str]:
        """Cities where ``view``'s seat may build a piece that scores with its
        tickets (Rails & Sails: free harbor cities its tickets show, at the
        end of its routes, while it has harbors left); none by default.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("world", players=2, seed=1)
        >>> g.edition.builds_on_tickets, g.edition.ticket_sites(g.view(0))   # no routes yet
        (True, set())
        """
        return set()

    def can_build(self, hand: tuple[int, ...]) -> bool:
        """Whether ``hand`` (card counts) pays for such a piece anywhere (a quick test; False by default).

        >>> import ttr_lab
        >>> ed = ttr_lab.find_edition("world")
        >>> hand = [0] * len(ed.card_types)
        >>> hand[ed.card_index["wild"]] = 4     # four wilds pay a harbor (option harbor_wilds)
        >>> ed.can_build(tuple(hand)), str(ed.ticket_build(tuple(hand), "Athina"))
        (True, 'harbor Athina wild:4')
        """
        return False

    def ticket_build(self, hand: tuple[int, ...], city: str) -> Move | None:
        """The move building such a piece in ``city`` that ``hand`` (card
        counts) pays with the fewest wilds; None if it cannot (the default;
        an example is :meth:`can_build`'s).

        >>> import ttr_lab
        >>> ed = ttr_lab.find_edition("world"); hand = [0] * len(ed.card_types); hand[ed.card_index["wild"]] = 4
        >>> str(ed.ticket_build(tuple(hand), "Athina"))
        'harbor Athina wild:4'
        >>> ttr_lab.find_edition("usa").ticket_build(tuple(hand), "Denver") is None
        True
        """
        return None

    def builds_left(self, view: PlayerView) -> int:
        """How many such pieces ``view``'s seat may still build (0 by default).

        >>> import ttr_lab
        >>> [ttr_lab.new_game(e, players=2, seed=1).edition.builds_left(ttr_lab.new_game(e, players=2, seed=1).view(0))
        ...  for e in ("usa", "world")]
        [0, 3]
        """
        return 0

    def choose_split(self, view: PlayerView, moves: list[Move], need: Callable[[], tuple[float, float]]) -> Move | None:
        """If ``moves`` are a setup split of the pieces into trains and ships
        (Rails & Sails' ``pieces N``), the one closest to ``need()``'s
        ``(train spaces, ship spaces)`` (called only then); else None (the default).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.choose_split(g.view(0), list(g.legal_moves), lambda: (1.0, 1.0)) is None
        True
        """
        return None

    # ------------------------------------------------------------------ records: the edition's own setup chance
    @property
    def dealt_fields(self) -> tuple[Field, ...]:
        """The fields set by chance at setup (``Field.dealt``): a record's deal carries them.

        >>> import ttr_lab
        >>> ttr_lab.find_edition("europe").dealt_fields   # Europe's long tickets are part of the ticket deal
        ()
        """
        return tuple(f for f in self.fields_added if f.dealt and f.key)

    def chance_pick(self, s: GameState, kind: str, options: list[Any]) -> Any:
        """One of ``options`` for the edition's own setup chance ``kind``
        (shuffle ``options`` with :meth:`rng` first): the last one, or, when
        a record replays without a seed, the one its deal names (see
        :class:`~ttr_lab.engine.rules.chance.Chance`); it is removed from ``options``.
        A :class:`Field` with ``dealt=True`` is drawn this way, one pick of
        kind ``Field.key`` per entry, so records carry it.

        >>> import random, ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> cities = ["Boston", "Miami", "Denver"]
        >>> g.edition.chance_pick(g, "city", cities), cities
        ('Denver', ['Boston', 'Miami'])
        """
        ch = s._chance
        if ch is None:
            return options.pop()
        return ch.pick(kind, options)

    # ------------------------------------------------------------------ the table scorer and the editor
    @property
    def scorer_facts(self) -> Mapping[str, str]:
        """Every fact :func:`~ttr_lab.tabletop.score` takes for this edition (its rules' ``table_facts``).

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> sorted(ed.scorer_facts)
        ['stations']
        """
        return MappingProxyType(dict(self._plugins["table_facts"] or {}))

    @property
    def editor_facts(self) -> Mapping[str, str]:
        """Every fact :func:`~ttr_lab.tabletop.seat_view` takes for this edition (its rules' ``seat_facts``).

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> sorted(ed.editor_facts)
        ['stations', 'trains']
        """
        return MappingProxyType(dict(self._plugins["seat_facts"] or {}))

    def table_pieces(self, t: Table) -> None:
        """Fill ``t.pieces`` (the pieces in supply of each seat, a saved
        position's ``"pieces"``) from the routes owned, checked, and any
        position field that follows from them.  The base game: every piece
        is a train; ``trains`` (seat_view) are checked against the routes.

        >>> import ttr_lab
        >>> t = Table(("Ada", "Bob"), {1: 0}, {"trains": {"Ada": 43}})
        >>> ttr_lab.find_edition("usa").table_pieces(t); t.pieces
        [43, 45]
        """
        names, n = t.players, len(t.players)
        routes = {r.id: r for r in self.routes}
        placed = [
            sum(routes[r].length for r, q in t.owners.items() if q == p and not routes[r].is_ship) for p in range(n)
        ]
        for p in range(n):
            if placed[p] > self.pieces:
                raise TtrError(f"routes[{names[p]}]: {placed[p]} trains placed, but a player has {self.pieces}")
        t.pieces = [self.pieces - placed[p] for p in range(n)]
        for p, left in sorted(t.by_seat("trains").items()):
            if left != t.pieces[p]:
                raise TtrError(
                    f"trains[{names[p]}]: {left} trains left, but {names[p]} owns routes of {placed[p]} cars "
                    f"({self.pieces} - {placed[p]} = {t.pieces[p]})"
                )

    def table_extra(self, t: Table) -> None:
        """Fill ``t.extra`` (a saved position's ``"extra"``: every keyed
        field) from the facts stated, and add to ``t.scores`` any running
        score beside the route points.  Each rule fills its own fields and
        calls ``super()``; a fact it needs that was not given is an error
        naming it, or a documented default.  The base game has none.

        >>> import ttr_lab
        >>> t = Table(("Ada", "Bob"), {}, {"stations": {"Bob": ["Berlin"]}}, tickets=[[], []])
        >>> ttr_lab.find_edition("europe").table_extra(t)
        >>> t.extra["stations"], t.extra["tunnel"], len(t.extra["box"])
        ([[], ['Berlin']], None, 6)
        """


def table_cities(
    ed: EditionBase, t: Table, key: str, most: int, check: Callable[[int, str], None] | None = None
) -> list[list[str]]:
    """A ``{player: [cities]}`` fact (stations, harbors) per seat, checked:
    real cities, one piece per city, at most ``most`` a player, and
    ``check(seat, city)`` (raising a :class:`~ttr_lab.errors.TtrError`) for each.

    >>> import ttr_lab
    >>> t = Table(("Ada", "Bob"), {}, {"stations": {"Bob": ["Berlin"]}})
    >>> table_cities(ttr_lab.find_edition("europe"), t, "stations", 3)
    [[], ['Berlin']]
    """
    names = t.players
    given = t.by_seat(key)
    out: list[list[str]] = [[] for _ in names]
    where: dict[str, int] = {}
    for seat in sorted(given):
        cities = given[seat]
        if isinstance(cities, (str, bytes, Mapping)) or not isinstance(cities, (list, tuple, set, frozenset)):
            raise TtrError(f"{key}[{names[seat]}] is a list, not {type(cities).__name__}")
        cities = list(cities)
        if len(cities) > most:
            raise TtrError(f"{key}[{names[seat]}]: {len(cities)} {key}, but a player has {most}")
        for c in cities:
            if not isinstance(c, str) or not ed.map.has_city(c):
                raise NotFoundError(f"{key}[{names[seat]}]: there is no city {str(c)[:60]!r} on the {ed.map.id} map")
            if c in where:
                raise TtrError(f"{key}: {c} has two {key} ({names[where[c]]}'s and {names[seat]}'s); one per city")
            where[c] = seat
            out[seat].append(c)
            if check is not None:
                check(seat, c)
    return out
