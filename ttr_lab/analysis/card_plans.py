"""Card-aware cost: the cards and turns a ticket (or a whole network) still needs.

A route asks for cards; the player's hand covers some of them; the rest
must be drawn.  :func:`plan_cards` allocates a hand to a set of routes,
:func:`ticket_cards` does it for each ticket of a player (its cheapest way to
completion, a one-ticket Steiner forest) and :func:`network_cards` for the
cheapest network of all the player's tickets (the Steiner forest).

The model
---------
What a route takes (rules A4, B3, B4):

* a **coloured train route** of L spaces: L cards of its colour (in Rails &
  Sails a plain or an anchor train card), wilds standing in;
* a **gray route**: L cards of any *one* colour, wilds standing in;
* a **ferry** (Europe): as gray, but its locomotive spaces take wilds only;
* a **tunnel** (Europe): as its colour or gray; the extra cards a tunnel
  may ask for are not counted, but :attr:`CardPlan.tunnel_risk` gives their
  expectation (three cards revealed, each matching with the share of the
  colour and the wilds in the deck composition);
* a **ship route** (Rails & Sails): ship cards of its colour (one colour if
  gray) covering L *spaces*, a double-ship card covering two, wilds one;
* a **paired route** (Rails & Sails): 2L train cards forming L pairs, each
  pair of one colour (any colour), a wild completing any pair.

How the hand is allocated: cards of a route's own colour go to coloured
routes first (never worse: a gray route could use another colour); then the
colour of each gray route is chosen by an exhaustive search (memoised over
the multiset of leftover colour counts, colours being interchangeable for
gray routes) maximising the cards covered, paired routes taking the
leftover pairs (and a single card with a wild); wilds then cover what is
left, a ferry's locomotive spaces first, then the routes closest to being
claimable.  The count of cards covered is optimal, except that a double-ship
card is counted as two spaces even where an odd route would waste half of
it.  In Rails & Sails plain train cards are used before anchor cards, which
harbors need.  The allocation itself is in
:mod:`ttr_lab.analysis.card_allocation`.

Turns: one turn per claim plus one per two cards still to draw
(``ceil(missing / 2)``; a face-up wild takes a whole turn, not counted).  Ship
spaces still missing are counted one card each, so a plan may overcount
draws of double-ship cards.

Examples
--------
A USA hand of 2 red, 1 blue, 1 locomotive against Atlanta-Charleston (gray 2)
and Atlanta-Miami (blue 5):

>>> from ttr_lab.engine.rules import find_edition
>>> usa = find_edition("usa")
>>> p = plan_cards(usa, {"red": 2, "blue": 1, "loco": 1}, [1, 2])
>>> [(r.route, r.color, r.missing) for r in p.routes]
[(1, 'red', 0), (2, 'blue', 3)]
>>> p.needed, p.covered, p.missing, p.claims, p.draw_turns, p.turns
(7, 4, 3, 2, 2, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..engine.moves import CardList
from ..engine.view import PlayerView
from ..errors import TtrError
from ..maps.graphs import board_graph
from ..maps.loading import Ticket
from .card_allocation import _Allocator
from .network import route_access, tickets_of
from .steiner.forest import steiner_forest

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.rules import Edition
    from ..engine.state import GameState

__all__ = ["RouteCards", "CardPlan", "plan_cards", "ticket_cards", "network_cards", "hand_of"]


@dataclass(frozen=True)
class RouteCards:
    """One route of a plan: what it takes and what the hand gives it.

    ``kind`` is ``"train"``, ``"ferry"``, ``"tunnel"``, ``"ship"`` or
    ``"paired"``; ``color`` the colour it is paid in (chosen for a gray
    route; None when the hand gives it no coloured card); ``cards`` the
    cards (ship spaces) it takes; ``wilds_required`` a ferry's locomotives;
    ``from_hand`` the hand cards allocated to it; ``missing`` the cards still
    to draw for it.
    """

    route: int
    kind: str
    color: str | None
    cards: int
    wilds_required: int
    from_hand: CardList
    missing: int


@dataclass(frozen=True)
class CardPlan:
    """The hand allocated to some routes (see the module's model).

    ``needed`` cards in all, ``covered`` by the hand, ``missing`` still to
    draw; ``claims`` turns to claim, ``draw_turns`` = ``ceil(missing / 2)``,
    ``turns`` their sum; ``claimable_now`` the routes the allocation covers
    fully; ``pieces_short`` pieces (trains or ships) the routes need beyond
    the player's supply (0 when there are enough); ``tunnel_risk`` the
    expected extra cards of the tunnels among the routes.
    """

    routes: tuple[RouteCards, ...]
    needed: int
    covered: int
    missing: int
    claims: int
    draw_turns: int
    turns: int
    claimable_now: tuple[int, ...]
    pieces_short: int = 0
    tunnel_risk: float = 0.0


def hand_of(position: GameState | PlayerView, player: int) -> dict[str, int]:
    """The hand of ``player``: any seat's from a state, the view's own from a view."""
    hand = position.hand
    if callable(hand):
        return dict(hand(player))
    if player != position.player:
        raise TtrError(f"seat {position.player}'s view does not show seat {player}'s hand")
    return dict(hand)


def _merge(cards: list[tuple[str, int]]) -> CardList:
    out: dict[str, int] = {}
    for name, k in cards:
        out[name] = out.get(name, 0) + k
    return tuple(sorted((n, k) for n, k in out.items() if k))


def _tunnel_risk(ed: Edition, rows: list[dict[str, Any]]) -> float:
    """Expected extra cards of the tunnels (3 revealed, each matching the
    payment's colour or a wild with its share of the deck composition)."""
    total = sum(k for pile in ed.deck_composition for _, k in pile)
    count: dict[str | None, int] = {}
    for pile in ed.deck_composition:
        for c, k in pile:
            ct = ed.card_types[c]
            count[ct.color] = count.get(ct.color, 0) + k
    wild = count.get(None, 0)
    risk = 0.0
    for row in rows:
        if row["kind"] == "tunnel":
            colour = count.get(row["color"], 0) if row["color"] else 0
            risk += 3 * (colour + wild) / total
    return risk


def plan_cards(
    edition: Edition,
    hand: Mapping[str, int],
    routes: Iterable[int],
    *,
    trains: int | None = None,
    ships: int | None = None,
) -> CardPlan:
    """Allocate ``hand`` (card name -> count) to ``routes`` (ids) of ``edition``.

    ``trains``/``ships``: the player's pieces in supply, to report
    :attr:`CardPlan.pieces_short` (``trains`` counts every piece where the
    edition has no ships).  See the module doc for the model.

    >>> from ttr_lab.engine.rules import find_edition
    >>> europe = find_edition("europe")
    >>> r = europe.map.route(next(r.id for r in europe.map.routes if r.locomotives == 1 and r.length == 2))
    >>> p = plan_cards(europe, {"red": 3}, [r.id])      # a 2-space ferry with one locomotive space
    >>> p.routes[0].from_hand, p.missing
    ((('red', 1),), 1)
    """
    m = edition.map
    rs = [m.route(rid) for rid in dict.fromkeys(routes)]
    rows = _Allocator(edition, hand, rs).plan()
    out = tuple(
        RouteCards(
            route=row["r"].id,
            kind=row["kind"],
            color=row["color"],
            cards=row["cards"],
            wilds_required=row["req"],
            from_hand=_merge(row["hand"]),
            missing=row["cards"] - row["cov"],
        )
        for row in rows
    )
    needed = sum(r.cards for r in out)
    missing = sum(r.missing for r in out)
    short = 0
    if trains is not None:
        short += max(0, sum(r.length for r in rs if not (ships is not None and r.is_ship)) - trains)
    if ships is not None:
        short += max(0, sum(r.length for r in rs if r.is_ship) - ships)
    draws = (missing + 1) // 2
    return CardPlan(
        routes=out,
        needed=needed,
        covered=needed - missing,
        missing=missing,
        claims=len(out),
        draw_turns=draws,
        turns=len(out) + draws,
        claimable_now=tuple(r.route for r in out if r.missing == 0),
        pieces_short=short,
        tunnel_risk=_tunnel_risk(edition, rows),
    )


def _supply(position: GameState | PlayerView, player: int) -> tuple[int, int | None]:
    """(trains, ships or None) in supply: ships where the edition has them."""
    view = position if isinstance(position, PlayerView) else position.view(player)
    return position.edition.pieces_in_supply(view, player)


def ticket_cards(
    position: GameState | PlayerView, player: int, tickets: tuple[Ticket, ...] | None = None
) -> list[tuple[Ticket, CardPlan | None]]:
    """Each ticket of the player with the plan for its cheapest completion
    (a one-ticket Steiner forest: a shortest path, or a tour's cheapest
    tree), the whole hand offered to each ticket alone; None if it can no
    longer be completed.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> [(t.label(), p.needed, p.missing, p.turns) for t, p in ticket_cards(g, 0)]
    [('Duluth-El Paso', 10, 6, 7), ('Montréal-New Orleans', 13, 10, 10)]
    """
    tickets = tickets_of(position, player) if tickets is None else tickets
    hand = hand_of(position, player)
    trains, ships = _supply(position, player)
    owned, blocked = route_access(position, player)
    G = board_graph(position.map)
    out: list[tuple[Ticket, CardPlan | None]] = []
    for t in tickets:
        f = steiner_forest(G, [t.cities], owned=owned, blocked=blocked)
        plan = (
            None
            if f is None
            else plan_cards(position.edition, hand, cast("tuple[int, ...]", f.new_routes), trains=trains, ships=ships)
        )
        out.append((t, plan))
    return out


def network_cards(position: GameState | PlayerView, player: int) -> CardPlan | None:
    """The plan for the cheapest network of all the player's tickets (the
    Steiner forest); None if some ticket can no longer be completed.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> p = network_cards(g, 0)
    >>> p.needed, p.claims, p.turns
    (22, 9, 18)
    """
    tickets = tickets_of(position, player)
    owned, blocked = route_access(position, player)
    f = steiner_forest(board_graph(position.map), [t.cities for t in tickets], owned=owned, blocked=blocked)
    if f is None:
        return None
    trains, ships = _supply(position, player)
    return plan_cards(
        position.edition, hand_of(position, player), cast("tuple[int, ...]", f.new_routes), trains=trains, ships=ships
    )
