"""Shortest ticket paths on a board graph (networkx only).

A *ticket graph* is the board seen by one player: routes the player owns cost
nothing, routes nobody may use any more are removed, every other route costs
its length in cars, and between two cities only the cheapest usable route is
kept.  Shortest paths on it answer "how many more cars to complete this
ticket, and along which routes?".

Examples
--------
A four-city board: the player owns A-B; C-D is blocked.

>>> import networkx as nx
>>> G = nx.MultiGraph()
>>> G.add_edge("A", "B", key=1, route=1, length=3)
1
>>> G.add_edge("B", "C", key=2, route=2, length=2)
2
>>> G.add_edge("A", "C", key=3, route=3, length=6)
3
>>> G.add_edge("C", "D", key=4, route=4, length=1)
4
>>> p = shortest_ticket_path(G, "A", "C", owned={1}, blocked={4})
>>> p.routes, p.cost, p.new_routes
((1, 2), 2, (2,))
>>> shortest_ticket_path(G, "A", "D", blocked={4}) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass

import networkx as nx

from ..errors import TtrError

__all__ = ["TicketPath", "UnknownCityError", "ticket_graph", "shortest_ticket_path", "distance_table"]


class UnknownCityError(TtrError):
    """A ticket names a city that is not on the board (a ``ValueError``).

    Attributes
    ----------
    cities : tuple
        The unknown cities, in the order given.

    Examples
    --------
    >>> str(UnknownCityError(["Atlantis", "Lemuria"]))
    'unknown cities: Atlantis, Lemuria'
    """

    def __init__(self, cities: Iterable[Hashable]) -> None:
        self.cities = tuple(cities)
        super().__init__(f"unknown cities: {', '.join(map(str, self.cities))}")


@dataclass(frozen=True)
class TicketPath:
    """A cheapest way to join two cities.

    ``cities`` and ``routes`` run from the first city to the second; ``cost``
    is the number of cars still to place (owned routes are free);
    ``new_routes`` are the routes of the path not yet owned.
    """

    cities: tuple[Hashable, ...]
    routes: tuple[int, ...]
    cost: int
    new_routes: tuple[int, ...]


def ticket_graph(
    G: nx.Graph, *, owned: Collection[int] = (), blocked: Collection[int] = (), weight: str = "length"
) -> nx.Graph:
    """A simple weighted graph of the board as one player can still use it.

    Each edge keeps the cheapest usable route between its cities (owned
    routes cost 0; ties go to the lower route id) with attributes ``weight``
    (the cost) and ``route`` (its id).  ``G`` is not changed.

    >>> import networkx as nx
    >>> G = nx.MultiGraph()
    >>> G.add_edge("A", "B", key=1, route=1, length=4)
    1
    >>> G.add_edge("A", "B", key=2, route=2, length=4)
    2
    >>> dict(ticket_graph(G, owned={2}).edges[("A", "B")])
    {'length': 0, 'route': 2}
    """
    owned, blocked = set(owned), set(blocked)
    H = nx.Graph()
    H.add_nodes_from(G.nodes(data=True))
    edges = G.edges(keys=True, data=True) if G.is_multigraph() else ((u, v, None, d) for u, v, d in G.edges(data=True))
    for u, v, key, data in edges:
        rid = data.get("route", key if key is not None else (u, v))
        if rid in blocked:
            continue
        cost = 0 if rid in owned else data[weight]
        old = H.get_edge_data(u, v)
        if old is None or (cost, rid) < (old[weight], old["route"]):
            H.add_edge(u, v, **{weight: cost, "route": rid})
    return H


def shortest_ticket_path(
    G: nx.Graph,
    a: Hashable,
    b: Hashable,
    *,
    owned: Collection[int] = (),
    blocked: Collection[int] = (),
    weight: str = "length",
) -> TicketPath | None:
    """The cheapest way to join ``a`` and ``b``, or None if they cannot be
    joined; a city not on the board raises :class:`UnknownCityError`.

    ``G`` is a board graph (:func:`ttr_lab.maps.board_graph`) or an
    already-built :func:`ticket_graph`.
    """
    unknown = [c for c in (a, b) if c not in G]
    if unknown:
        raise UnknownCityError(unknown)
    H = ticket_graph(G, owned=owned, blocked=blocked, weight=weight)
    if a not in H or b not in H:
        return None
    try:
        cities = nx.dijkstra_path(H, a, b, weight=weight)
    except nx.NetworkXNoPath:
        return None
    edges = [H.edges[u, v] for u, v in zip(cities, cities[1:])]
    routes = tuple(e["route"] for e in edges)
    return TicketPath(
        cities=tuple(cities),
        routes=routes,
        cost=sum(e[weight] for e in edges),
        new_routes=tuple(r for r, e in zip(routes, edges) if e[weight] > 0),
    )


def distance_table(
    G: nx.Graph, cities: Iterable[Hashable], *, weight: str = "length"
) -> dict[tuple[Hashable, Hashable], float]:
    """Cars needed between every pair of ``cities`` on an empty board
    (``inf`` where they cannot be joined).

    >>> import networkx as nx
    >>> G = nx.path_graph(3); nx.set_edge_attributes(G, 2, "length")
    >>> distance_table(G, [0, 2])
    {(0, 0): 0, (0, 2): 4, (2, 0): 4, (2, 2): 0}
    """
    H = ticket_graph(G, weight=weight)
    cities = list(cities)
    out: dict[tuple[Hashable, Hashable], float] = {}
    for a in cities:
        lengths = nx.single_source_dijkstra_path_length(H, a, weight=weight) if a in H else {}
        for b in cities:
            out[(a, b)] = lengths.get(b, float("inf"))
    return out
