"""Ticket analysis of a game position (the public API of a state or a view).

For one player: which routes are theirs (free) and which are closed to them
(claimed by others, or the other side of a double route they may not take),
the cheapest way to finish each ticket, the cheapest network finishing all
of them, and which claims would help most next.

*The cheapest network for all tickets* is a **Steiner forest**
(:func:`~ttr_lab.analysis.steiner_forest`): every ticket (its two cities,
or all the cities of a Rails & Sails tour) must be connected in itself, but
not to the other tickets.  That is what scoring asks for, and it is solved
exactly, whatever the number of cities.  The **Steiner tree**
(``kind="tree"``: every ticket city in one network) stays available for the
classroom contrast: it costs as much as the forest or more.

Every function takes a :class:`~ttr_lab.engine.state.GameState` or a
:class:`~ttr_lab.engine.view.PlayerView` (a view knows its own player's tickets
only).

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.analysis.network import ticket_paths, ticket_network
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> [(t.label(), p.cost) for t, p in ticket_paths(g, 0)]
[('Duluth-El Paso', 10), ('Montréal-New Orleans', 13)]
>>> forest, tree = ticket_network(g, 0), ticket_network(g, 0, kind="tree")
>>> forest.cost, forest.components, tree.cost   # the two tickets share routes: 22 < 10 + 13
(22, ((0, 1),), 22)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..errors import TtrError
from ..maps.graphs import board_graph
from ..maps.loading import Ticket
from .paths import TicketPath, shortest_ticket_path
from .steiner.forest import SteinerForest, steiner_forest
from .trees import SteinerTree, steiner_tree

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.state import GameState
    from ..engine.view import PlayerView

__all__ = [
    "route_access",
    "tickets_of",
    "ticket_paths",
    "ticket_network",
    "cards_needed",
    "NextClaim",
    "next_claims",
]

#: what the position functions read: a game state or one player's view
Position = Any  # GameState | PlayerView (a Union would need both at run time)


def tickets_of(position: GameState | PlayerView, player: int) -> tuple[Ticket, ...]:
    """The kept tickets of ``player``: any seat's from a state, only the
    view's own seat's from a view (other tickets are secret).

    >>> import ttr_lab
    >>> v = ttr_lab.new_game("usa", players=2, seed=1).view(0)
    >>> tickets_of(v, 0)
    ()
    >>> tickets_of(v, 1)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: seat 0's view does not show seat 1's tickets
    """
    tickets = position.tickets
    if callable(tickets):  # a state
        return tuple(tickets(player))
    if player != position.player:
        raise TtrError(f"seat {position.player}'s view does not show seat {player}'s tickets")
    return tuple(tickets)


def route_access(position: GameState | PlayerView, player: int) -> tuple[frozenset[int], frozenset[int]]:
    """``(owned, blocked)`` route ids for ``player`` in this position.

    Blocked routes are claimed by someone else, or closed to the player by
    the double-route rule (A4).
    """
    owned, blocked = set(), set()
    owners = position.route_owners()
    for r in position.map.routes:
        o = owners.get(r.id)
        if o == player:
            owned.add(r.id)
        elif o is not None or not position.route_open_to(r.id, player):
            blocked.add(r.id)
    return frozenset(owned), frozenset(blocked)


def ticket_paths(
    position: GameState | PlayerView, player: int, tickets: tuple[Ticket, ...] | None = None
) -> list[tuple[Ticket, TicketPath | None]]:
    """Each ticket (the player's by default) with its cheapest completion path
    (None when it can no longer be completed).  Tours use their first and
    last cities; :func:`ticket_network` joins every city of a tour."""
    G = board_graph(position.map)
    owned, blocked = route_access(position, player)
    tickets = tickets_of(position, player) if tickets is None else tickets
    return [(t, shortest_ticket_path(G, t.a, t.b, owned=owned, blocked=blocked)) for t in tickets]


def ticket_network(
    position: GameState | PlayerView,
    player: int,
    *,
    kind: str | None = None,
    method: str = "exact",
    tickets: tuple[Ticket, ...] | None = None,
) -> SteinerForest | SteinerTree | None:
    """The cheapest network completing every ticket of the player; None if impossible.

    Parameters
    ----------
    position : GameState or PlayerView
    player : int
    kind : ``"forest"`` or ``"tree"``
        ``"forest"`` (the default with the exact method): each ticket
        connected in itself, :func:`~ttr_lab.analysis.steiner_forest`;
        ``"tree"``: every ticket city in one network,
        :func:`~ttr_lab.analysis.steiner_tree`.
    method : ``"exact"`` (the default), or networkx's 2-approximations
        ``"approx"``, ``"kou"``, ``"mehlhorn"``, which exist for the tree
        only (``kind`` then defaults to ``"tree"``).  Nothing is
        approximated unless asked for.
    tickets : the tickets to join (default: the player's kept tickets)

    Examples
    --------
    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=3)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[-1])
    >>> f = ticket_network(g, 0)
    >>> t = ticket_network(g, 0, kind="tree")
    >>> a = ticket_network(g, 0, method="approx")
    >>> f.cost <= t.cost <= a.cost
    True
    >>> ticket_network(g, 0, kind="forest", method="approx")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: the Steiner forest is solved exactly only; method='approx' approximates the tree (kind='tree')
    """
    if kind is None:
        kind = "forest" if method == "exact" else "tree"
    if kind not in ("forest", "tree"):
        raise TtrError(f"kind is 'forest' or 'tree', not {kind!r}")
    if kind == "forest" and method != "exact":
        raise TtrError(
            f"the Steiner forest is solved exactly only; method={method!r} approximates the tree (kind='tree')"
        )
    tickets = tickets_of(position, player) if tickets is None else tickets
    owned, blocked = route_access(position, player)
    G = board_graph(position.map)
    if kind == "forest":
        return steiner_forest(G, [t.cities for t in tickets], owned=owned, blocked=blocked)
    cities = [c for t in tickets for c in t.cities]
    return steiner_tree(G, cities, owned=owned, blocked=blocked, method=method)


def cards_needed(position: GameState | PlayerView, routes: Iterable[int]) -> dict[str, int]:
    """The cards a set of routes asks for, by colour: ``{"red": 4, "any": 3}``
    ("any" for gray routes, which take any one colour each; ship routes are
    listed as e.g. ``"red ships"``; a paired route needs two cards a space).
    This ignores the hand; :mod:`ttr_lab.analysis.card_plans` allocates it.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> cards_needed(g, [1, 2])   # Atlanta-Charleston (gray 2), Atlanta-Miami (blue 5)
    {'any': 2, 'blue': 5}
    """
    need: dict[str, int] = {}
    for rid in routes:
        r = position.map.route(rid)
        key = "any" if r.color == "gray" else r.color
        if r.kind == "ship":
            key += " ships"
        need[key] = need.get(key, 0) + r.length * (2 if r.paired else 1)
    return dict(sorted(need.items()))


@dataclass(frozen=True)
class NextClaim:
    """A route worth claiming next: the unfinished tickets the cheapest
    network needs it for, and the points those tickets are worth."""

    route: int
    tickets: tuple[int, ...]
    points: int


def _served(
    net: SteinerForest, tickets: tuple[Ticket, ...], routes: dict[int, tuple[str, str]]
) -> dict[int, list[Ticket]]:
    """For each new route of the forest, the tickets it disconnects when
    removed (in an optimal forest every new route serves at least one)."""
    out: dict[int, list[Ticket]] = {}
    ids = cast("tuple[int, ...]", net.routes)
    for r in cast("tuple[int, ...]", net.new_routes):
        up: dict[str, str] = {}
        for other in ids:
            if other != r:
                a, b = _find(up, routes[other][0]), _find(up, routes[other][1])
                if a != b:
                    up[a] = b
        out[r] = [t for t in tickets if len({_find(up, c) for c in t.cities}) > 1]
    return out


def _find(up: dict[str, str], x: str) -> str:
    while up.get(x, x) != x:
        x = up[x]
    return x


def next_claims(position: GameState | PlayerView, player: int) -> list[NextClaim]:
    """The routes the cheapest network for all the player's tickets (the
    Steiner forest) still needs, best first: most ticket points served (the
    tickets the route's removal would disconnect), then shortest route.

    Tickets that can no longer be completed are left out (the forest of the
    others is used).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> best = next_claims(g, 0)[0]       # a route both tickets use
    >>> best.route, best.tickets, best.points
    (58, (9, 17), 23)
    """
    tickets = tickets_of(position, player)
    owned, blocked = route_access(position, player)
    G = board_graph(position.map)
    alive = tuple(t for t in tickets if steiner_forest(G, [t.cities], owned=owned, blocked=blocked) is not None)
    net = steiner_forest(G, [t.cities for t in alive], owned=owned, blocked=blocked)
    if net is None or not net.new_routes:
        return []
    ends = {r.id: (r.a, r.b) for r in position.map.routes}
    serve = _served(net, alive, ends)
    out = [NextClaim(r, tuple(t.id for t in ts), sum(t.points for t in ts)) for r, ts in serve.items()]
    out.sort(key=lambda c: (-c.points, position.map.route(c.route).length, c.route))
    return out
