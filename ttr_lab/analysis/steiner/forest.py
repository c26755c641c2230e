"""Exact ticket networks: Steiner forests and Steiner trees on a board.

A player does not need *one* network joining every ticket city: each ticket
(two cities, or the three or more cities of a Rails & Sails tour) only has to
be connected in itself.  The cheapest set of routes doing that is a *Steiner
forest*; when every city must lie in one network it is a *Steiner tree*.
Both problems are NP-hard, but a hand of tickets is small and so is a board:
:func:`steiner_forest` and the exact method of
:func:`~ttr_lab.analysis.steiner_tree` always return an optimum, in a few
milliseconds for a full hand (see ``benchmarks/bench_analysis.py``).

How
---
1. **The board a player sees** (:func:`~ttr_lab.analysis.ticket_graph`):
   owned routes cost 0, blocked routes are gone, parallel routes keep the
   cheapest.
2. **Reductions**, which keep every optimum: each owned network becomes one
   city; a city on no ticket with one route is dropped, one with two routes
   becomes a single longer route; a ticket city with a single route must use
   it, so the route is bought and the city merged into its neighbour;
   tickets sharing a city are joined into one group.
3. **Trees: A* over Dreyfus-Wagner labels** (Hougardy, Silvanus and Vygen,
   *Dijkstra meets Steiner*, 2017).  With one city as the root, a label
   ``(v, I)`` is the cheapest tree found holding the city ``v`` and the
   ticket cities ``I``; labels grow along a route (``(v, I) -> (w, I)``) and
   two labels merge at a city (``(v, I) + (v, J) -> (v, I | J)``).  Labels
   are settled in the order of their cost plus a lower bound on the rest of
   the tree read off a *dual ascent* (Wong 1984): weights on sets of cities
   that every tree from the root must enter, paid for by the routes entering
   them.  The bound is consistent, so a settled label is final and the first
   settled ``(root, every city)`` is optimal; labels that cannot beat a
   heuristic tree are never stored.  On these boards the dual bound is
   usually the optimum itself, or one car short, so few labels are settled.
4. **Forests: the cheapest partition into trees.**  An optimal forest
   splits the groups into blocks, each joined by an optimal tree.  Every
   block gets a lower bound on its tree (its own dual ascent, grown group by
   group from its sub-blocks'; the whole tree's dual bound minus the cost of
   attaching the other groups; its sub-blocks' bounds); a subset DP finds the
   partition with the cheapest sum of bounds, a lower bound on the forest.
   While it is below the best forest known, the blocks of that partition are
   solved exactly by the tree search (or shown too dear), and the DP is run
   again.  The undirected linear programme of Steiner forests is far too
   weak on these boards (about two thirds of the optimum) to do without the
   partition.

Nothing is approximated: switching the heuristics and the dual bounds off
changes the running time, never the answer (the tests check it).

Examples
--------
Four cities in a line, A-B-C-D, plus a long direct A-D route.  Tickets A-B and
C-D need only two routes; joining A, B, C and D in one network needs three.

>>> import networkx as nx
>>> G = nx.MultiGraph()
>>> for rid, (u, v, length) in enumerate([("A", "B", 1), ("B", "C", 5),
...                                        ("C", "D", 1), ("A", "D", 9)], start=1):
...     _ = G.add_edge(u, v, key=rid, route=rid, length=length)
>>> f = steiner_forest(G, [["A", "B"], ["C", "D"]])
>>> f.routes, f.cost, f.components
((1, 3), 2, ((0,), (1,)))
>>> steiner_forest(G, [["A", "B"], ["C", "D"]], owned={2}).components
((0, 1),)
>>> steiner_forest(G, [["A", "D"]], blocked={2, 4}) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from ...errors import TtrError
from ..paths import UnknownCityError, ticket_graph
from .instance import _Instance
from .reduce import _join_groups, _reduce
from .search import _pieces, _solve_piece

__all__ = ["SteinerForest", "UnknownCityError", "steiner_forest", "exact_steiner_edges"]


@dataclass(frozen=True)
class SteinerForest:
    """The cheapest routes joining the cities of every ticket.

    Attributes
    ----------
    groups : tuple of tuple
        The tickets' cities, as given (duplicates removed).
    routes : tuple
        Route ids of the network, sorted, owned routes included.
    cost : int or float
        Cars still to place: the total length of the routes not yet owned.
    new_routes : tuple
        The routes of ``routes`` not yet owned, sorted.
    components : tuple of tuple of int
        Which groups share a connected piece of the network: indices into
        ``groups``, each tuple sorted, the tuples ordered by their first index.
    cities : tuple
        Every city the network touches, and every ticket city (sorted by name).
    """

    groups: tuple[tuple[Hashable, ...], ...]
    routes: tuple[Hashable, ...]
    cost: float
    new_routes: tuple[Hashable, ...]
    components: tuple[tuple[int, ...], ...]
    cities: tuple[Hashable, ...]


def steiner_forest(
    G: nx.Graph,
    groups: Iterable[Iterable[Hashable]],
    *,
    owned: Collection[int] = (),
    blocked: Collection[int] = (),
    weight: str = "length",
) -> SteinerForest | None:
    """The cheapest set of routes that connects the cities of every group.

    Each group (a ticket's two cities, a tour's cities) must be connected in
    itself; different groups may share routes or stay apart, whichever is
    cheaper.  The answer is exact.

    Parameters
    ----------
    G : networkx.MultiGraph or networkx.Graph
        A board graph (:func:`ttr_lab.maps.board_graph`): edges carry a
        ``route`` id (or are keyed by it) and a ``weight`` attribute.
    groups : iterable of iterables of cities
        The groups to connect; duplicate cities are ignored, and a group of
        one city (or none) is connected already.
    owned : collection of route ids
        Routes the player owns: they cost nothing.
    blocked : collection of route ids
        Routes the player may not use.
    weight : str
        The edge attribute giving a route's cost (non-negative).

    Returns
    -------
    SteinerForest or None
        None when some group cannot be connected any more.

    Raises
    ------
    UnknownCityError
        (a :class:`~ttr_lab.errors.TtrError`) when a city is not on the board;
        the message names it.

    Examples
    --------
    A square A-B-C-D-A with a cheap diagonal: the tickets A-C and B-D share it.

    >>> import networkx as nx
    >>> G = nx.MultiGraph()
    >>> for rid, (u, v, length) in enumerate([("A", "B", 2), ("B", "C", 2), ("C", "D", 2),
    ...                                        ("D", "A", 2), ("A", "C", 1)], start=1):
    ...     _ = G.add_edge(u, v, key=rid, route=rid, length=length)
    >>> f = steiner_forest(G, [["A", "C"], ["B", "D"]])
    >>> f.cost, f.components
    (5, ((0, 1),))
    >>> steiner_forest(G, [["A", "Atlantis"]])
    Traceback (most recent call last):
    ...
    ttr_lab.analysis.paths.UnknownCityError: unknown cities: Atlantis
    """
    gs = tuple(tuple(dict.fromkeys(g)) for g in groups)
    H = ticket_graph(G, owned=owned, blocked=blocked, weight=weight)
    missing = [c for c in dict.fromkeys(c for g in gs for c in g) if c not in H]
    if missing:
        raise UnknownCityError(missing)
    edges = exact_steiner_edges(H, gs, weight=weight)
    if edges is None:
        return None
    owned = set(owned)
    net = nx.Graph()
    net.add_nodes_from(c for g in gs for c in g)
    net.add_edges_from(edges)
    piece = {c: i for i, comp in enumerate(nx.connected_components(net)) for c in comp}
    by_piece: dict[int, list[int]] = {}
    for i, g in enumerate(gs):
        by_piece.setdefault(piece[g[0]] if g else -1 - i, []).append(i)
    data = [H.edges[u, v] for u, v in edges]
    return SteinerForest(
        groups=gs,
        routes=_sorted(d["route"] for d in data),
        cost=sum(d[weight] for d in data),
        new_routes=_sorted(d["route"] for d in data if d["route"] not in owned),
        components=tuple(sorted(tuple(ix) for ix in by_piece.values())),
        cities=_sorted(net.nodes),
    )


def _sorted(items: Iterable[Hashable]) -> tuple[Hashable, ...]:
    items = list(dict.fromkeys(items))
    try:
        return tuple(sorted(items))  # type: ignore[type-var]
    except TypeError:
        return tuple(sorted(items, key=str))


# ----------------------------------------------------------------- the solver


def exact_steiner_edges(
    H: nx.Graph, groups: Sequence[Sequence[Hashable]], *, weight: str = "length"
) -> list[tuple[Hashable, Hashable]] | None:
    """Edges of a cheapest subgraph of ``H`` in which every group is connected.

    The engine behind :func:`steiner_forest` and the exact
    :func:`~ttr_lab.analysis.steiner_tree` (one group holding every city).

    Parameters
    ----------
    H : networkx.Graph
        A simple graph with non-negative edge costs in ``weight``, such as a
        :func:`~ttr_lab.analysis.ticket_graph`.
    groups : sequence of sequences of nodes of ``H``
        The groups to connect, each in itself.
    weight : str
        The edge attribute holding the costs.

    Returns
    -------
    list of (u, v) or None
        Edges of ``H`` (each once, no dead ends beyond the groups' cities),
        or None when some group lies in two connected components.

    Raises
    ------
    UnknownCityError
        When a city of a group is not a node of ``H``.
    ValueError
        When an edge has a negative cost.

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.Graph([("A", "B", {"w": 1}), ("B", "C", {"w": 1}), ("C", "D", {"w": 5})])
    >>> sorted(exact_steiner_edges(H, [["A", "C"]], weight="w"))
    [('A', 'B'), ('B', 'C')]
    """
    return _Solver(H, groups, weight).solve()


class _Solver:
    """One Steiner forest instance: reduce, search, lift the answer back."""

    def __init__(self, H: nx.Graph, groups: Sequence[Sequence[Hashable]], weight: str) -> None:
        self.nodes: list[Hashable] = list(H.nodes)
        index = {x: i for i, x in enumerate(self.nodes)}
        missing = [c for c in dict.fromkeys(c for g in groups for c in g) if c not in index]
        if missing:
            raise UnknownCityError(missing)
        # hedges[e] = (i, j, cost): the edges of H by index
        self.hedges: list[tuple[int, int, float]] = []
        for u, v, d in H.edges(data=True):
            c = d[weight]
            if c < 0:
                raise TtrError(f"negative {weight} {c} on edge {u!r}-{v!r}")
            self.hedges.append((index[u], index[v], c))
        self.groups = [sorted({index[c] for c in g}) for g in groups]
        self.rep: list[int] = []  # vertex -> its owned network's representative (see reduce)

    # -- top level ------------------------------------------------------------

    def solve(self) -> list[tuple[Hashable, Hashable]] | None:
        """Edges of H of an optimal forest, or None if some group is split."""
        reduced = self.reduce()
        if reduced is None:
            return None
        inst, chosen = reduced
        if inst is not None:
            for piece in _pieces(inst):
                chosen.extend(e for r in _solve_piece(inst, piece) for e in inst.paths[r])
        return self._lift(chosen)

    def reduce(self) -> tuple[_Instance | None, list[int]] | None:
        """The reduced instance (None if no group is left to join) and the
        edges of H every optimal forest uses; None if some group is split."""
        hedges = self.hedges
        N = len(self.nodes)
        # 1. contract the zero-cost (owned) edges
        root = list(range(N))

        def find(x: int) -> int:
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x

        for i, j, c in hedges:
            if c == 0:
                a, b = find(i), find(j)
                if a != b:
                    root[a] = b
        rep = [find(x) for x in range(N)]
        adj: dict[int, dict[int, tuple[float, tuple[int, ...]]]] = {}
        for e, (i, j, c) in enumerate(hedges):
            a, b = rep[i], rep[j]
            if c == 0 or a == b:
                continue
            old = adj.setdefault(a, {}).get(b)
            if old is None or c < old[0]:
                adj[a][b] = (c, (e,))
                adj.setdefault(b, {})[a] = (c, (e,))
        groups = _join_groups([{rep[x] for x in g} for g in self.groups])
        # 2. every group within one connected piece; drop pieces without groups
        seen: dict[int, int] = {}
        for s in groups:
            for x in s:
                if x in seen:
                    continue
                stack = [x]
                seen[x] = x
                while stack:
                    y = stack.pop()
                    for z in adj.get(y, ()):
                        if z not in seen:
                            seen[z] = x
                            stack.append(z)
            if len({seen[x] for x in s}) > 1:
                return None
        adj = {x: nbrs for x, nbrs in adj.items() if x in seen}
        # 3. reductions
        fixed: list[int] = []
        groups = _reduce(adj, groups, fixed)
        self.rep = rep
        return (_Instance(adj, groups) if groups else None), fixed

    def _lift(self, chosen: list[int]) -> list[tuple[Hashable, Hashable]]:
        """The H edges of the answer: the bought edges, a spanning tree of the
        owned edges of every owned network they (or the groups) touch, minus
        dead ends off the groups' cities."""
        hedges, rep = self.hedges, self.rep
        keep = set(chosen)
        touched = {rep[x] for e in keep for x in hedges[e][:2]}
        touched |= {rep[x] for g in self.groups if len(g) > 1 for x in g}
        root = {x: x for x in range(len(self.nodes)) if rep[x] in touched}

        def find(x: int) -> int:
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x

        for e, (i, j, c) in enumerate(hedges):
            if c == 0 and rep[i] in touched:
                a, b = find(i), find(j)
                if a != b:
                    root[a] = b
                    keep.add(e)
        deg: dict[int, list[int]] = {}
        for e in keep:
            i, j, _ = hedges[e]
            deg.setdefault(i, []).append(e)
            deg.setdefault(j, []).append(e)
        needed = {x for g in self.groups if len(g) > 1 for x in g}
        stack = [x for x, es in deg.items() if len(es) == 1 and x not in needed]
        while stack:
            x = stack.pop()
            live = [e for e in deg[x] if e in keep]
            if len(live) != 1 or x in needed:
                continue
            e = live[0]
            keep.discard(e)
            i, j, _ = hedges[e]
            y = j if i == x else i
            if sum(1 for f in deg[y] if f in keep) == 1:
                stack.append(y)
        out = []
        for e in sorted(keep):
            i, j, _ = hedges[e]
            out.append((self.nodes[i], self.nodes[j]))
        return out
