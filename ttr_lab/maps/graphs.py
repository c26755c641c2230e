"""Boards as graphs: turn a :class:`~ttr_lab.maps.Map` into a networkx graph.

Every analysis in :mod:`ttr_lab.analysis` works on the graphs built here.  A
board is a :class:`networkx.MultiGraph` because a double route is two parallel
edges between the same two cities:

* nodes are city names, with attributes ``lat``, ``lon``, ``harbor`` and
  ``waypoint``;
* there is one edge per route, whose key is the route id, with attributes
  ``route`` (the id again), ``length``, ``color``, ``kind``, ``locomotives``,
  ``paired`` and ``double_of``.

Examples
--------
>>> from ttr_lab.maps import load_map
>>> from ttr_lab.maps import board_graph, routes_graph
>>> usa = load_map("usa")
>>> G = board_graph(usa)
>>> G.number_of_nodes(), G.number_of_edges()
(36, 100)
>>> G.edges["Atlanta", "Charleston", 1]["length"]
2
>>> H = routes_graph(usa, [1])
>>> sorted(H.nodes), list(H.edges(keys=True))
(['Atlanta', 'Charleston'], [('Atlanta', 'Charleston', 1)])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import networkx as nx

from ..errors import NotFoundError, WrongTypeError
from .loading import Map, Route

__all__ = ["board_graph", "routes_graph", "as_map", "route_attributes"]


def as_map(map_or_edition: Any) -> Map:
    """Return the :class:`~ttr_lab.maps.Map` behind ``map_or_edition``.

    Parameters
    ----------
    map_or_edition : Map or object with a ``.map`` attribute
        A map, or anything (an edition, a game) that carries one as ``.map``.

    Returns
    -------
    Map

    Raises
    ------
    TypeError
        When neither ``map_or_edition`` nor its ``.map`` is a Map.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ttr_lab.maps import load_map
    >>> usa = load_map("usa")
    >>> as_map(SimpleNamespace(map=usa)) is usa
    True
    >>> as_map(42)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.WrongTypeError: expected a Map or an object with a .map attribute, got int
    """
    if isinstance(map_or_edition, Map):
        return map_or_edition
    inner = getattr(map_or_edition, "map", None)
    if isinstance(inner, Map):
        return inner
    raise WrongTypeError(f"expected a Map or an object with a .map attribute, got {type(map_or_edition).__name__}")


def route_attributes(route: Route) -> dict[str, Any]:
    """The edge attributes stored for one route.

    Parameters
    ----------
    route : Route

    Returns
    -------
    dict
        Keys ``route``, ``length``, ``color``, ``kind``, ``locomotives``,
        ``paired`` and ``double_of``.

    Examples
    --------
    >>> from ttr_lab.maps import load_map
    >>> attrs = route_attributes(load_map("usa").route(1))
    >>> attrs["route"], attrs["length"], attrs["color"], attrs["kind"]
    (1, 2, 'gray', 'train')
    """
    return {
        "route": route.id,
        "length": route.length,
        "color": route.color,
        "kind": route.kind,
        "locomotives": route.locomotives,
        "paired": route.paired,
        "double_of": route.double_of,
    }


def _add_city(G: nx.MultiGraph, board: Map, name: str) -> None:
    city = board.city(name)
    G.add_node(name, lat=city.lat, lon=city.lon, harbor=city.harbor, waypoint=city.waypoint)


def board_graph(map_or_edition: Any) -> nx.MultiGraph:
    """The whole board as a multigraph: one node per city, one edge per route.

    Parameters
    ----------
    map_or_edition : Map or object with a ``.map`` attribute
        The map to convert.

    Returns
    -------
    networkx.MultiGraph
        Nodes in map order (every city, even one without routes); edges added in
        route order, keyed by route id.  ``G.graph["map"]`` is the map id.

    Examples
    --------
    A tiny four-city board:

    >>> from ttr_lab.maps import map_from_dict
    >>> tiny = map_from_dict({"format": "ttr_lab.map", "version": 1, "id": "tiny",
    ...     "name": "Tiny", "tickets": [],
    ...     "cities": [{"name": n, "lat": 0, "lon": i} for i, n in enumerate("ABCD")],
    ...     "routes": [
    ...         {"id": 1, "a": "A", "b": "B", "length": 3, "color": "red", "kind": "train"},
    ...         {"id": 2, "a": "B", "b": "C", "length": 2, "color": "gray", "kind": "train",
    ...          "double_of": 3},
    ...         {"id": 3, "a": "B", "b": "C", "length": 2, "color": "gray", "kind": "train",
    ...          "double_of": 2},
    ...         {"id": 4, "a": "C", "b": "D", "length": 6, "color": "blue", "kind": "train"}]})
    >>> G = board_graph(tiny)
    >>> list(G.nodes), G.number_of_edges()
    (['A', 'B', 'C', 'D'], 4)
    >>> sorted(G["B"]["C"])
    [2, 3]
    >>> G.nodes["D"]["lon"], G.edges["C", "D", 4]["color"]
    (3.0, 'blue')
    """
    board = as_map(map_or_edition)
    G = nx.MultiGraph(map=board.id)
    for city in board.cities:
        _add_city(G, board, city.name)
    for route in board.routes:
        G.add_edge(route.a, route.b, key=route.id, **route_attributes(route))
    return G


def routes_graph(map_or_edition: Any, route_ids: Iterable[int]) -> nx.MultiGraph:
    """The multigraph of some routes only, such as one player's network.

    Parameters
    ----------
    map_or_edition : Map or object with a ``.map`` attribute
        The map the routes belong to.
    route_ids : iterable of int
        Route ids; duplicates are ignored.

    Returns
    -------
    networkx.MultiGraph
        Only the cities touched by those routes (with the same attributes as
        in :func:`board_graph`), edges added in the order given.

    Raises
    ------
    KeyError
        When a route id is not on the map.

    Examples
    --------
    >>> from ttr_lab.maps import load_map
    >>> usa = load_map("usa")
    >>> G = routes_graph(usa, [1, 1])
    >>> G.number_of_edges(), G.nodes["Atlanta"]["harbor"]
    (1, False)
    >>> routes_graph(usa, [9999])
    Traceback (most recent call last):
    ...
    ttr_lab.errors.NotFoundError: no route 9999 on map usa
    """
    board = as_map(map_or_edition)
    G = nx.MultiGraph(map=board.id)
    for rid in dict.fromkeys(route_ids):
        if not board.has_route(rid):
            raise NotFoundError(f"no route {rid} on map {board.id}")
        route = board.route(rid)
        for end in route.ends:
            if end not in G:
                _add_city(G, board, end)
        G.add_edge(route.a, route.b, key=route.id, **route_attributes(route))
    return G
