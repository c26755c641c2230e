"""Spanning and Steiner trees: the cheapest network joining a set of cities.

Connecting all the cities of your tickets is a *Steiner tree* problem, not a
spanning-tree one: the network may pass through other cities, and it need not
reach every city on the board.  :func:`steiner_tree` solves it exactly (with
the goal-directed Dreyfus-Wagner search of :mod:`ttr_lab.analysis.steiner`,
fast for every city of a full hand of tickets) or approximately with
networkx's 2-approximations, for comparison in class.  Tickets that need not
share a network are a Steiner *forest*: see
:func:`ttr_lab.analysis.steiner_forest`.

Examples
--------
A star: the cheapest network joining A, B and C goes through the hub H.

>>> import networkx as nx
>>> G = nx.MultiGraph()
>>> for rid, (u, v, L) in enumerate([("A", "H", 1), ("B", "H", 1), ("C", "H", 1),
...                                   ("A", "B", 3), ("B", "C", 3)], start=1):
...     _ = G.add_edge(u, v, key=rid, route=rid, length=L)
>>> t = steiner_tree(G, ["A", "B", "C"])
>>> t.routes, t.cost
((1, 2, 3), 3)
>>> minimum_spanning_routes(G.subgraph(["A", "B", "C"]))
((4, 5), 6)
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import networkx as nx

from ..errors import TtrError
from .paths import ticket_graph
from .steiner.forest import UnknownCityError, exact_steiner_edges

__all__ = ["SteinerTree", "steiner_tree", "minimum_spanning_routes"]


@dataclass(frozen=True)
class SteinerTree:
    """A network joining the terminals: its routes (ids, sorted), its cost in
    cars still to place, every city it touches, and the routes not yet owned."""

    routes: tuple[int, ...]
    cost: int
    cities: tuple[Hashable, ...]
    new_routes: tuple[int, ...]
    method: str


def steiner_tree(
    G: nx.Graph,
    terminals: Iterable[Hashable],
    *,
    owned: Collection[int] = (),
    blocked: Collection[int] = (),
    weight: str = "length",
    method: str = "exact",
) -> SteinerTree | None:
    """The cheapest set of routes joining every terminal city.

    Parameters
    ----------
    G : a board graph (:func:`ttr_lab.maps.board_graph`), multi or simple
    terminals : the cities to join (duplicates are ignored)
    owned, blocked : route ids the player owns (cost 0) or may not use
    method : ``"exact"`` (an optimum, any number of cities: see
        :mod:`ttr_lab.analysis.steiner`), ``"kou"`` or ``"mehlhorn"``
        (networkx's 2-approximations; ``"approx"`` means ``"mehlhorn"``)

    Returns None when the terminals cannot all be joined.  An unknown city
    raises :class:`~ttr_lab.analysis.steiner.UnknownCityError` (a
    ``ValueError``) naming it.
    """
    methods = {"exact": None, "approx": "mehlhorn", "kou": "kou", "mehlhorn": "mehlhorn"}
    if method not in methods:
        raise TtrError(f"{method} is not a valid choice for an algorithm (choose from {', '.join(methods)})")
    terms = list(dict.fromkeys(terminals))
    H = ticket_graph(G, owned=owned, blocked=blocked, weight=weight)
    missing = [t for t in terms if t not in H]
    if missing:
        raise UnknownCityError(missing)
    if len(terms) <= 1:
        edges: list[tuple[Hashable, Hashable]] = []
    elif method == "exact":
        found = exact_steiner_edges(H, [terms], weight=weight)
        if found is None:
            return None
        edges = found
    else:
        if not all(nx.has_path(H, terms[0], t) for t in terms[1:]):
            return None
        # networkx's methods need every node reachable from the terminals
        part = H.subgraph(nx.node_connected_component(H, terms[0]))
        T = nx.algorithms.approximation.steiner_tree(part, terms, weight=weight, method=methods[method])
        edges = list(T.edges())
    return _result(H, edges, terms, weight, method)


def _result(
    H: nx.Graph, edges: list[tuple[Hashable, Hashable]], terms: list[Hashable], weight: str, method: str
) -> SteinerTree:
    routes = sorted({H.edges[u, v]["route"] for u, v in edges})
    cost = sum(H.edges[u, v][weight] for u, v in {tuple(sorted((u, v), key=str)) for u, v in edges})
    cities = sorted({c for e in edges for c in e} | set(terms), key=str)
    new = sorted({H.edges[u, v]["route"] for u, v in edges if H.edges[u, v][weight] > 0})
    return SteinerTree(tuple(routes), cost, tuple(cities), tuple(new), method)


def _dreyfus_wagner(H: nx.Graph, terms: list[Hashable], weight: str) -> list[tuple[Hashable, Hashable]]:
    """Edges of a minimum Steiner tree (Dreyfus-Wagner, O(3^k n + 2^k n^2)).

    The textbook algorithm, no longer used by :func:`steiner_tree`: it stays
    as an independent reference for the tests and the benchmarks (it takes
    seconds beyond ten cities).
    """
    nodes = list(H.nodes)
    dist: dict[Hashable, Any] = {}
    paths: dict[Hashable, Any] = {}
    for s in nodes:
        d, p = nx.single_source_dijkstra(H, s, weight=weight)
        dist[s], paths[s] = d, p
    INF = float("inf")
    root, rest = terms[-1], terms[:-1]
    k = len(rest)
    full = (1 << k) - 1
    # dp[S][v]: cheapest tree joining the terminals in S and the node v
    dp: list[dict[Hashable, Any]] = [dict() for _ in range(full + 1)]
    back: list[dict[Hashable, Any]] = [dict() for _ in range(full + 1)]
    merged: list[dict[Hashable, Any]] = [dict() for _ in range(full + 1)]  # how best[S][u] was merged
    for i, t in enumerate(rest):
        S = 1 << i
        for v in nodes:
            dp[S][v] = dist[t].get(v, INF)
            back[S][v] = ("path", t)
    for S in range(1, full + 1):
        if S & (S - 1) == 0:
            continue
        low = S & -S
        best: dict[Hashable, Any] = {}
        how: dict[Hashable, Any] = {}
        for v in nodes:
            b, arg = INF, None
            D = (S - 1) & S
            while D:
                if D & low:  # each split once: the part holding the lowest terminal
                    c = dp[D][v] + dp[S ^ D][v]
                    if c < b:
                        b, arg = c, ("merge", D)
                D = (D - 1) & S
            best[v], how[v] = b, arg
        merged[S] = how
        # move the merge point along a shortest path
        for v in nodes:
            b, arg = best[v], how[v]
            for u in nodes:
                c = best[u] + dist[u].get(v, INF)
                if c < b:
                    b, arg = c, ("move", u)
            dp[S][v], back[S][v] = b, arg
    edges: list[tuple[Hashable, Hashable]] = []

    def add_path(a: Hashable, b: Hashable) -> None:
        p = paths[a][b]
        edges.extend(zip(p, p[1:]))

    def collect(S: int, v: Hashable) -> None:
        kind, arg = back[S][v]
        if kind == "path":
            add_path(arg, v)
        elif kind == "merge":
            collect(arg, v)
            collect(S ^ arg, v)
        else:  # move: the tree for S merged at u, then a shortest path u -> v
            u = arg
            _, D = merged[S][u]
            collect(D, u)
            collect(S ^ D, u)
            add_path(u, v)

    if k == 0:
        return []
    collect(full, root)
    return edges


def minimum_spanning_routes(G: nx.Graph, *, weight: str = "length") -> tuple[tuple[int, ...], int]:
    """A minimum spanning tree (forest) of the board: route ids and total length.

    It joins *every* city, which is why it is not the answer to "connect my
    tickets" (see :func:`steiner_tree`).
    """
    H = ticket_graph(G, weight=weight)
    T = nx.minimum_spanning_tree(H, weight=weight)
    routes = sorted(d["route"] for _, _, d in T.edges(data=True))
    return tuple(routes), sum(d[weight] for _, _, d in T.edges(data=True))
