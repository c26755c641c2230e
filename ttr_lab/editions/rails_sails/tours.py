"""Tour tickets (rule B4, resolution C9): three or more cities, in order.

A tour scores its in-order value if the owner's network holds a way through
the cities in the printed order, its any-order value if they are merely
connected, and its (negative) failed value otherwise.  What "in order" means
is option ``tour_order`` (C9): ``"trail"`` (each route at most once, the
default), ``"simple_path"`` (no city twice) or ``"walk"`` (routes reusable).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.rules import Edition
from ...engine.scoring import network, score_two_city
from ...engine.scoring.player_network import Network, bfs_path, component, edges_of
from ...engine.scoring.results import TicketResult, TourResult
from ...maps.loading import Ticket

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Tours", "tour_in_order", "score_tour", "TourResult"]

TOUR_ORDERS = ("trail", "simple_path", "walk")


def tour_in_order(adj: Network, cities: Sequence[str], mode: str = "trail") -> tuple[int, ...] | None:
    """Route ids of a way through ``cities`` in the printed order, or None.

    ``adj`` maps a city to its ``(route id, other city)`` pairs (the owner's
    network).  ``mode`` (C9): ``"trail"`` uses each route at most once (cities
    may repeat), ``"simple_path"`` visits no city twice, ``"walk"`` may reuse
    routes.  Other cities may lie between the tour's cities.

    >>> adj = {"A": [(1, "B")], "B": [(1, "A"), (2, "C"), (3, "D")], "C": [(2, "B")], "D": [(3, "B")]}
    >>> tour_in_order(adj, ("A", "B", "D"))
    (1, 3)
    >>> tour_in_order(adj, ("A", "C", "D")) is None      # C is a dead end
    True
    >>> tour_in_order(adj, ("A", "C", "D"), "walk")
    (1, 2, 2, 3)
    """
    if any(c not in adj for c in cities):
        return None
    if mode == "walk":
        if not set(cities) <= component(adj, cities[0]):
            return None
        out: list[int] = []
        for a, b in zip(cities, cities[1:]):
            out.extend(bfs_path(adj, a, b) or ())
        return tuple(out)
    comp = component(adj, cities[0])
    if not set(cities) <= comp:
        return None
    # the component's routes, with dead ends that hold no tour city cut off:
    # a trail entering such a branch could never come back out
    edges = [e for e in edges_of(adj) if e[1] in comp]
    targets = set(cities)
    deg: dict[str, int] = {}
    for _, a, b in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    alive = [True] * len(edges)
    inc: dict[str, list[int]] = {}
    for i, (_, a, b) in enumerate(edges):
        inc.setdefault(a, []).append(i)
        inc.setdefault(b, []).append(i)
    leaves = [v for v, d in deg.items() if d == 1 and v not in targets]
    while leaves:
        v = leaves.pop()
        for i in inc[v]:
            if alive[i]:
                alive[i] = False
                _, a, b = edges[i]
                u = b if a == v else a
                deg[v] -= 1
                deg[u] -= 1
                if deg[u] == 1 and u not in targets:
                    leaves.append(u)
    edges = [e for i, e in enumerate(edges) if alive[i]]
    nbrs: dict[str, list[tuple[int, str, int]]] = {}
    for i, (rid, a, b) in enumerate(edges):
        nbrs.setdefault(a, []).append((i, b, rid))
        nbrs.setdefault(b, []).append((i, a, rid))
    k = len(cities)
    simple = mode == "simple_path"
    index = {c: j for j, c in enumerate(sorted({v for e in edges for v in e[1:]}))}
    failed: set[tuple[str, int, int, int]] = set()
    path: list[int] = []

    def reachable(v: str, goal: str, used: int) -> bool:
        seen = {v}
        todo = [v]
        while todo:
            x = todo.pop()
            if x == goal:
                return True
            for i, u, _ in nbrs.get(x, ()):
                if not used >> i & 1 and u not in seen:
                    seen.add(u)
                    todo.append(u)
        return False

    def search(v: str, nxt: int, used: int, visited: int) -> bool:
        if v == cities[nxt]:
            nxt += 1
            if nxt == k:
                return True
        key = (v, nxt, used, visited)
        if key in failed:
            return False
        if not reachable(v, cities[nxt], used):
            failed.add(key)
            return False
        for i, u, rid in nbrs.get(v, ()):
            if used >> i & 1:
                continue
            if simple and visited >> index[u] & 1:
                continue
            path.append(rid)
            if search(u, nxt, used | 1 << i, visited | 1 << index[u] if simple else 0):
                return True
            path.pop()
        failed.add(key)
        return False

    start = cities[0]
    if start not in index:  # an isolated first city: only possible if every city is the same
        return None
    if search(start, 0, 0, (1 << index[start]) if simple else 0):
        return tuple(path)
    return None


def score_tour(ticket: Ticket, adj: Network, mode: str = "trail") -> TourResult:
    """A tour ticket's result (B4, C9): the in-order value if the network
    holds a way through the cities in printed order, else the any-order value
    if they are all connected, else the (negative) failed value."""
    way = tour_in_order(adj, ticket.cities, mode)
    if way is not None:
        return TourResult(ticket, True, ticket.points, way, "in order")
    cities = ticket.cities
    if cities[0] in adj and set(cities) <= component(adj, cities[0]):
        ids: list[int] = []
        for a, b in zip(cities, cities[1:]):
            ids.extend(bfs_path(adj, a, b) or ())
        return TourResult(ticket, True, ticket.points_any_order or 0, tuple(ids), "any order")
    return TourResult(ticket, False, -ticket.penalty, (), "failed")


class Tours(Edition):
    """Mixin: tour tickets scored by :func:`score_tour` (B4, C9)."""

    def ticket_results(self, s: GameState, player: int) -> tuple[TicketResult, ...]:
        """Two-city tickets as in A7; tours by :func:`score_tour`."""
        adj = network(s, player)
        mode = self.options["tour_order"]
        out: list[TicketResult] = []
        for ticket in s.tickets(player):
            out.append(score_tour(ticket, adj, mode) if ticket.is_tour else score_two_city(ticket, adj))
        return tuple(out)
