"""Trails: the longest continuous route, cut routes and Euler trails.

The *longest continuous route* bonus of Ticket to Ride asks for a longest
**trail** in a player's network: a walk that uses each route at most once but
may pass through a city many times.  :func:`longest_trail` finds one
exactly in a networkx graph, with the fast core :func:`longest_trail_edges`
(from :mod:`ttr_lab.engine.scoring.trail`, where its method is explained).
:func:`cut_routes`, :func:`odd_degree_cities` and :func:`euler_trail_exists`
support the graph-theory lessons.

Examples
--------
A tiny four-city network (rules reference, scenario 14):

>>> longest_trail_edges([(1, "A", "B", 3), (2, "B", "C", 2), (3, "C", "A", 4),
...                      (4, "C", "D", 6)])
(15, (2, 1, 3, 4))
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..engine.scoring.trail import longest_trail_edges

__all__ = [
    "longest_trail_edges",
    "longest_trail",
    "cut_routes",
    "odd_degree_cities",
    "euler_trail_exists",
]


def _edge_list(G: nx.Graph, weight: str) -> list[tuple[Any, Any, Any, Any]]:
    """``(route_id, u, v, length)`` for every edge of ``G``."""
    if G.is_multigraph():
        return [(d.get("route", k), u, v, d.get(weight, 1)) for u, v, k, d in G.edges(keys=True, data=True)]
    return [(d.get("route", (u, v)), u, v, d.get(weight, 1)) for u, v, d in G.edges(data=True)]


def longest_trail(G: nx.Graph, *, weight: str = "length") -> tuple[Any, list]:
    """Longest trail of a (multi)graph whose edges carry ``route`` ids.

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph
        Undirected; edge attribute ``route`` names the route (default: the
        edge key, or ``(u, v)`` for a simple graph).
    weight : str, keyword-only
        Edge attribute holding the length (missing counts as 1).

    Returns
    -------
    (length, route_ids)
        See :func:`longest_trail_edges`.

    Examples
    --------
    >>> G = nx.MultiGraph()
    >>> G.add_edge("A", "B", key=1, route=1, length=3)
    1
    >>> G.add_edge("B", "C", key=2, route=2, length=2)
    2
    >>> G.add_edge("C", "D", key=3, route=3, length=6)
    3
    >>> longest_trail(G)
    (11, [1, 2, 3])
    """
    total, seq = longest_trail_edges(_edge_list(G, weight))
    return total, list(seq)


def cut_routes(G: nx.Graph) -> list:
    """Routes whose removal disconnects their component (bridges).

    Parallel routes are never bridges, nor are loops.

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph
        Edge attribute ``route`` names the route (default as in
        :func:`longest_trail`).

    Returns
    -------
    list
        Sorted route ids.

    Examples
    --------
    >>> G = nx.MultiGraph()
    >>> for rid, u, v in [(1, "A", "B"), (2, "B", "C"), (3, "B", "C"), (4, "C", "D")]:
    ...     _ = G.add_edge(u, v, key=rid, route=rid)
    >>> cut_routes(G)
    [1, 4]
    """
    simple = nx.Graph()
    simple.add_nodes_from(G)
    ids: dict[frozenset, list] = {}
    for rid, u, v, _w in _edge_list(G, "length"):
        if u != v:
            simple.add_edge(u, v)
            ids.setdefault(frozenset((u, v)), []).append(rid)
    found = [ids[frozenset(e)][0] for e in nx.bridges(simple) if len(ids[frozenset(e)]) == 1]
    return sorted(found)


def odd_degree_cities(G: nx.Graph) -> list:
    """Cities with an odd number of route ends (a loop counts twice).

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph

    Returns
    -------
    list
        The cities, sorted by name.

    Examples
    --------
    >>> G = nx.MultiGraph([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
    >>> odd_degree_cities(G)
    ['C', 'D']
    """
    return sorted((v for v, d in G.degree() if d % 2), key=str)


def euler_trail_exists(G: nx.Graph) -> bool:
    """Whether one trail can use every route (Euler's theorem).

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph

    Returns
    -------
    bool
        True when all routes lie in one connected piece with 0 or 2 cities of
        odd degree.  Isolated cities are ignored; a graph without routes has
        the empty trail.

    Examples
    --------
    >>> euler_trail_exists(nx.MultiGraph([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")]))
    True
    >>> euler_trail_exists(nx.MultiGraph([("A", "B"), ("A", "C"), ("A", "D")]))
    False
    """
    touched = [v for v, d in G.degree() if d > 0]
    if not touched:
        return True
    if not nx.is_connected(G.subgraph(touched)):
        return False
    return len(odd_degree_cities(G)) in (0, 2)
