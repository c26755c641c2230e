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

import heapq
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from ..errors import TtrError
from .paths import ticket_graph

__all__ = ["SteinerForest", "UnknownCityError", "steiner_forest", "exact_steiner_edges"]

_INF = float("inf")

# These two only make the search faster; the tests switch them off to check that.
_UPPER_BOUNDS = True  # start from a heuristic network and prune what cannot beat it
_DUAL_BOUNDS = True  # guide the tree search and bound the forest's blocks with dual ascents
# the forest's blocks of at most so many groups get a dual ascent of their own
# (larger blocks almost never gain from one on the shipped boards)
_DUAL_BLOCKS = 5


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
        A board graph (:func:`ttr_lab.graph.board_graph`): edges carry a
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
    ttr_lab.analysis.steiner.UnknownCityError: unknown cities: Atlantis
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


def _join_groups(sets: Iterable[set[int]]) -> list[set[int]]:
    """Merge groups that share a city (they end up in one piece anyway) and
    drop the groups of one city."""
    out: list[set[int] | None] = []
    owner: dict[int, int] = {}
    for s in sets:
        s = set(s)
        if len(s) < 2:
            continue
        for h in {owner[x] for x in s if x in owner}:
            other = out[h]
            assert other is not None
            s |= other
            out[h] = None
        for x in s:
            owner[x] = len(out)
        out.append(s)
    return [s for s in out if s is not None and len(s) > 1]


def _reduce(
    adj: dict[int, dict[int, tuple[float, tuple[int, ...]]]], groups: list[set[int]], fixed: list[int]
) -> list[set[int]]:
    """Shrink the instance in place without changing its optimum.

    * a city on no group with at most one route is never needed: remove it;
    * one with exactly two routes is passed through or not used at all: the
      two routes become one (the cheaper one is kept if they are parallel);
    * a group city with a single route must use it: the route is bought
      (``fixed``) and the city merged into its neighbour, which takes its
      place in the groups (joining the neighbour's groups, if any).

    Returns the groups left (each of two or more cities).
    """
    member = {x: gi for gi, s in enumerate(groups) for x in s}
    work = list(adj)
    while work:
        x = work.pop()
        nbrs = adj.get(x)
        if nbrs is None:
            continue
        deg = len(nbrs)
        if x not in member:
            if deg > 2:
                continue
            del adj[x]
            for y in nbrs:
                del adj[y][x]
                work.append(y)
            if deg == 2:
                (u, (c1, e1)), (w, (c2, e2)) = nbrs.items()
                old = adj[u].get(w)
                if old is None or c1 + c2 < old[0]:
                    adj[u][w] = adj[w][u] = (c1 + c2, e1 + e2)
        elif deg == 1:
            ((u, (_, es)),) = nbrs.items()
            fixed.extend(es)
            del adj[x]
            del adj[u][x]
            gi = member.pop(x)
            s = groups[gi]
            s.discard(x)
            hj = member.get(u)
            if hj is not None and hj != gi:
                t = groups[hj]
                s |= t
                t.clear()
                for y in s:
                    member[y] = gi
            s.add(u)
            member[u] = gi
            if len(s) < 2:
                s.clear()
                del member[u]
            work.append(u)
            work.extend(adj[u])
    return [s for s in groups if len(s) > 1]


class _Instance:
    """A reduced instance: vertices 0..n-1, undirected edges (each made of one
    or more H edges) and their two arcs, and the groups as vertex lists."""

    def __init__(self, adj: dict[int, dict[int, tuple[float, tuple[int, ...]]]], groups: list[set[int]]) -> None:
        verts = sorted(adj)
        num = {x: i for i, x in enumerate(verts)}
        n = self.n = len(verts)
        self.nbrs: list[list[tuple[int, float, int]]] = [[] for _ in range(n)]
        self.paths: list[tuple[int, ...]] = []  # reduced edge -> H edges
        self.ecost: list[float] = []
        self.ends: list[tuple[int, int]] = []
        for x in verts:
            for y, (c, es) in adj[x].items():
                if x < y:
                    eid = len(self.paths)
                    self.paths.append(es)
                    self.ecost.append(c)
                    self.ends.append((num[x], num[y]))
                    self.nbrs[num[x]].append((num[y], c, eid))
                    self.nbrs[num[y]].append((num[x], c, eid))
        # arcs: a = 2 * eid + (0 for low->high, 1 for high->low)
        self.acost: list[float] = []
        self.inarcs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for v in range(n):
            for w, _, eid in self.nbrs[v]:
                if v < w:
                    self.inarcs[w].append((v, 2 * eid))
                    self.inarcs[v].append((w, 2 * eid + 1))
        self.outarcs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for w in range(n):
            for u, a in self.inarcs[w]:
                self.outarcs[u].append((w, a))
        for c in self.ecost:
            self.acost.extend((c, c))
        self.tails = [0] * len(self.acost)
        self.heads = [0] * len(self.acost)
        for w in range(n):
            for u, a in self.inarcs[w]:
                self.tails[a], self.heads[a] = u, w
        self.groups = [sorted(num[x] for x in s) for s in groups]
        comp = [-1] * n
        for v in range(n):
            if comp[v] < 0:
                comp[v] = v
                stack = [v]
                while stack:
                    u = stack.pop()
                    for w, _, _ in self.nbrs[u]:
                        if comp[w] < 0:
                            comp[w] = v
                            stack.append(w)
        self.comp = comp

    # -- shortest paths ---------------------------------------------------------

    def dijkstra(self, sources: Iterable[int]) -> tuple[list[float], list[int]]:
        """Distances from ``sources`` and, for each vertex, the edge it was
        reached by (-1 for the sources and the unreached)."""
        dist = [_INF] * self.n
        via = [-1] * self.n
        heap = []
        for s in sources:
            dist[s] = 0
            heap.append((0.0, s))
        heapq.heapify(heap)
        nbrs = self.nbrs
        while heap:
            d, v = heapq.heappop(heap)
            if d > dist[v]:
                continue
            for w, c, eid in nbrs[v]:
                nd = d + c
                if nd < dist[w]:
                    dist[w] = nd
                    via[w] = eid
                    heapq.heappush(heap, (nd, w))
        return dist, via

    def connect(
        self, terms: Sequence[int], free: Collection[int] = (), arc_cost: Sequence[float] | None = None
    ) -> set[int]:
        """Edges joining ``terms`` greedily: from the first, repeatedly the
        cheapest path to the nearest city not yet joined (``free`` edges cost
        0; ``arc_cost``, by arc, replaces the edges' costs)."""
        tree = {terms[0]}
        todo = set(terms[1:]) - tree
        chosen: set[int] = set()
        nbrs, free_edges = self.nbrs, set(free)
        while todo:
            dist = dict.fromkeys(tree, 0.0)
            via: dict[int, tuple[int, int]] = {}
            heap = [(0.0, v) for v in tree]
            heapq.heapify(heap)
            hit = -1
            while heap:
                d, v = heapq.heappop(heap)
                if d > dist[v]:
                    continue
                if v in todo:
                    hit = v
                    break
                for w, c, eid in nbrs[v]:
                    if eid in free_edges or eid in chosen:
                        c = 0
                    elif arc_cost is not None:
                        c = arc_cost[2 * eid + (v > w)]
                    nd = d + c
                    if nd < dist.get(w, _INF):
                        dist[w] = nd
                        via[w] = (v, eid)
                        heapq.heappush(heap, (nd, w))
            if hit < 0:  # pragma: no cover - callers pass connected groups
                raise AssertionError("group split over two components")
            v = hit
            while v not in tree:
                tree.add(v)
                todo.discard(v)
                v, eid = via[v]
                chosen.add(eid)
        return chosen

    def trim(self, chosen: set[int], terms: Collection[int]) -> set[int]:
        """A tree no dearer than ``chosen`` holding ``terms``: the minimum
        spanning tree of the cities ``chosen`` touches, without dead ends."""
        ends, ecost = self.ends, self.ecost
        verts = {x for e in chosen for x in ends[e]}
        among = sorted(
            (e for v in verts for w, _, e in self.nbrs[v] if v < w and w in verts), key=lambda e: (ecost[e], e)
        )
        root = {v: v for v in verts}

        def find(x: int) -> int:
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x

        tree: dict[int, list[int]] = {v: [] for v in verts}
        for e in among:
            u, w = ends[e]
            a, b = find(u), find(w)
            if a != b:
                root[a] = b
                tree[u].append(e)
                tree[w].append(e)
        kept = {e for es in tree.values() for e in es}
        leaves = [v for v, es in tree.items() if len(es) == 1 and v not in terms]
        while leaves:
            v = leaves.pop()
            live = [e for e in tree[v] if e in kept]
            if len(live) != 1:
                continue
            e = live[0]
            kept.discard(e)
            u, w = ends[e]
            o = w if u == v else u
            if o not in terms and sum(1 for f in tree[o] if f in kept) == 1:
                leaves.append(o)
        return kept

    def prune(self, chosen: set[int], groups: Sequence[Sequence[int]]) -> set[int]:
        """Drop edges no group needs, dearest first."""
        for eid in sorted(chosen, key=lambda e: (-self.ecost[e], e)):
            rest = chosen - {eid}
            if self.joins(rest, groups):
                chosen = rest
        return chosen

    def joins(self, edges: Iterable[int], groups: Sequence[Sequence[int]]) -> bool:
        """Whether ``edges`` connect every group."""
        root: dict[int, int] = {}

        def find(x: int) -> int:
            root.setdefault(x, x)
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x

        for e in edges:
            u, v = self.ends[e]
            root[find(u)] = find(v)
        return all(len({find(x) for x in g}) == 1 for g in groups)

    def cost(self, edges: Iterable[int]) -> float:
        return sum(self.ecost[e] for e in edges)

    # -- dual ascent ------------------------------------------------------------

    def ascend(
        self,
        rc: list[float],
        root: int,
        terms: Iterable[int],
        cuts: list[tuple[int, int, float]] | None,
        tbit: dict[int, int] | None = None,
    ) -> float:
        """Wong's dual ascent for joining ``terms`` to ``root``, continuing from
        the arcs' reduced costs ``rc`` (changed in place).

        While some city cannot be reached from the root along arcs of reduced
        cost 0, take the set ``W`` of vertices reaching it that way with the
        fewest arcs entering it, and raise the weight of ``W`` by the smallest
        reduced cost among those arcs, which pay for it.  Every directed tree
        from the root to the cities enters every such ``W``, so the weights'
        sum is a lower bound on joining them.  Each ``W`` is appended to
        ``cuts`` as (vertex bitmask, bitmask of ``tbit`` cities in ``W``, weight).
        """
        inarcs, tails, heads = self.inarcs, self.tails, self.heads

        def grow(W: int, stack: list[int]) -> int:
            while stack:
                w = stack.pop()
                for u, a in inarcs[w]:
                    if not rc[a] and not W >> u & 1:
                        W |= 1 << u
                        stack.append(u)
            return W

        def entering(W: int) -> list[int]:
            into = []
            m = W
            while m:
                low = m & -m
                for u, a in inarcs[low.bit_length() - 1]:
                    if not W >> u & 1:
                        into.append(a)
                m ^= low
            return into

        # each city not reached yet: the vertices reaching it at reduced cost 0
        # and the arcs entering them
        active: dict[int, tuple[int, list[int]]] = {}
        for t in terms:
            W = grow(1 << t, [t])
            if not W >> root & 1:
                active[t] = (W, entering(W))
        total = 0.0
        while active:
            W, into = min(active.values(), key=lambda e: len(e[1]))
            y = min(rc[a] for a in into)
            fresh = []
            for a in into:
                rc[a] -= y
                if not rc[a]:
                    fresh.append(a)
            total += y
            if cuts is not None:
                tm = 0
                if tbit is not None:
                    for x, b in tbit.items():
                        if W >> x & 1:
                            tm |= b
                cuts.append((W, tm, y))
            # the arcs just saturated extend the sets they enter
            for t, (Wt, _) in list(active.items()):
                stack = []
                for a in fresh:
                    u = tails[a]
                    if Wt >> heads[a] & 1 and not Wt >> u & 1:
                        Wt |= 1 << u
                        stack.append(u)
                if stack:
                    Wt = grow(Wt, stack)
                    if Wt >> root & 1:
                        del active[t]
                    else:
                        active[t] = (Wt, entering(Wt))
        return total

    def ascend_paths(self, rc: list[float], zero: int, terms: Iterable[int]) -> tuple[float, int]:
        """Dual ascent joining ``terms`` one city at a time to a root, continuing
        from the reduced costs ``rc`` (changed in place); ``zero`` is the
        bitmask of the vertices the root reaches at reduced cost 0.  Returns
        the rise of the bound and the new ``zero``.

        With a single city growing its cut, the cuts are the balls of a
        Dijkstra run backwards from the city on the reduced costs, up to the
        distance ``d`` of the vertices ``zero``: the bound rises by ``d``, and
        an arc ``u -> w`` pays for the balls holding ``w`` but not ``u``.
        """
        inarcs, outarcs, n = self.inarcs, self.outarcs, self.n
        pop, push = heapq.heappop, heapq.heappush
        total = 0.0
        for t in terms:
            if zero >> t & 1:
                continue
            dist = [_INF] * n
            dist[t] = 0.0
            settled: list[int] = []
            heap = [(0.0, t)]
            reach = _INF
            while heap:
                d, w = pop(heap)
                if d > dist[w]:
                    continue
                if zero >> w & 1:
                    reach = d
                    break
                settled.append(w)
                for u, a in inarcs[w]:
                    nd = d + rc[a]
                    if nd < dist[u]:
                        dist[u] = nd
                        push(heap, (nd, u))
            if reach == _INF:  # pragma: no cover - callers pass connected cities
                raise AssertionError("city cut off from the root")
            total += reach
            stack = []
            for w in settled:
                dw = dist[w]
                for u, a in inarcs[w]:
                    du = dist[u]
                    if du > reach:
                        du = reach
                    if du > dw:
                        rc[a] -= du - dw
                        if not rc[a] and zero >> u & 1 and not zero >> w & 1:
                            zero |= 1 << w
                            stack.append(w)
            while stack:  # the root now reaches the city at reduced cost 0
                u = stack.pop()
                for w, a in outarcs[u]:
                    if not rc[a] and not zero >> w & 1:
                        zero |= 1 << w
                        stack.append(w)
        return total, zero


class _TreeSearch:
    """Exact Steiner tree of some cities of an instance: A* over Dreyfus-Wagner
    labels, guided by a dual ascent (see the module notes).

    The first city is the root; the others get one bit each.  A label
    ``(v, I)`` (``I`` a bitmask of those cities) is the cheapest tree found
    holding the vertex ``v`` and the cities ``I``, coded ``I * n + v``; the
    label of a city always holds its own bit.  Its key is its cost plus the
    weight of the dual cuts the rest of the tree, from the root to ``v`` and
    to the cities not in ``I``, must still enter: every cut holding ``v`` or
    such a city.  That bound is consistent (a route ``u - v`` pays for the
    cuts it enters, and the tree of a merged label for the cuts holding its
    cities), so a settled label has its final cost and the first settled
    ``(root, all)`` is an optimal tree.
    """

    def __init__(self, inst: _Instance, terms: Sequence[int]) -> None:
        self.inst = inst
        self.root = terms[0]
        others = [t for t in dict.fromkeys(terms[1:]) if t != self.root]
        self.tbit = {t: 1 << b for b, t in enumerate(others)}
        self.full = (1 << len(others)) - 1
        self.cuts: list[tuple[int, int, float]] = []
        self.terms = [self.root, *others]
        self.rc = list(inst.acost)
        self.lower = inst.ascend(self.rc, self.root, others, self.cuts, self.tbit) if _DUAL_BOUNDS else 0.0
        # per vertex: the weights of the cuts not holding it, summed by the
        # cities they hold (a label's bound is the total minus those whose
        # cities it holds already)
        n = inst.n
        self.outside: list[list[tuple[int, float]]] = []
        for v in range(n):
            agg: dict[int, float] = {}
            for W, tm, y in self.cuts:
                if not W >> v & 1:
                    agg[tm] = agg.get(tm, 0) + y
            self.outside.append(sorted(agg.items()))

    def heuristic(self) -> tuple[float, set[int]]:
        """A good tree: shortest paths from the root on the costs, and on the
        reduced costs the dual ascent left (they lead along its tight arcs)."""
        inst, terms = self.inst, self.terms
        best: tuple[float, set[int]] = (_INF, set())
        for arc_cost in (None, self.rc):
            tree = inst.trim(inst.connect(terms, arc_cost=arc_cost), set(terms))
            c = inst.cost(tree)
            if c < best[0]:
                best = (c, tree)
        return best

    def solve(self, budget: float = _INF, guess: bool = True) -> tuple[float, list[int] | None]:
        """``(cost, reduced edges)`` of an optimal tree if it costs less than
        ``budget``, else ``(a lower bound >= budget, None)``; ``guess``: start
        from :meth:`heuristic`."""
        if self.lower >= budget:
            return self.lower, None
        upper, tree = self.heuristic() if guess else (_INF, set())
        if not _UPPER_BOUNDS:
            upper = _INF
        cost, edges = self.run(min(budget, upper))
        if edges is not None:
            return cost, edges
        if upper < budget:  # nothing beats the heuristic tree
            return upper, sorted(tree)
        return cost, None

    def run(self, threshold: float) -> tuple[float, list[int] | None]:
        """``(cost, reduced edges)`` of an optimal tree if it costs less than
        ``threshold``, else ``(a lower bound >= threshold, None)``."""
        inst = self.inst
        if self.lower >= threshold:
            return self.lower, None
        if not self.full:
            return 0.0, []
        n = inst.n
        nbrs = inst.nbrs
        tb = [0] * n
        for t, b in self.tbit.items():
            tb[t] = b
        lower, outside = self.lower, self.outside
        best: dict[int, float] = {}
        back: dict[int, tuple[int, int]] = {}
        done: set[int] = set()
        perm: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        heap: list[tuple[float, float, int]] = []
        push, pop = heapq.heappush, heapq.heappop

        def relax(v: int, I: int, cost: float, src: int, how: int) -> None:
            code = I * n + v
            if cost < best.get(code, _INF) and code not in done:  # (settled: final, bar rounding)
                z = 0.0
                for tm, y in outside[v]:
                    if not tm & ~I:
                        z += y
                key = cost + lower - z
                if key >= threshold:
                    return
                best[code] = cost
                back[code] = (src, how)
                push(heap, (key, -cost, code))

        for t, b in self.tbit.items():
            relax(t, b, 0.0, -1, -1)
        goal = self.full * n + self.root
        while heap:
            _, negcost, code = pop(heap)
            if code in done:
                continue
            done.add(code)
            if code == goal:
                break
            cost = -negcost
            I, v = divmod(code, n)
            for w, c, eid in nbrs[v]:
                relax(w, I | tb[w], cost + c, code, eid)
            room = threshold - cost
            own = ~tb[v]
            for J, cJ in perm[v]:
                if cJ < room and not I & J & own:
                    relax(v, I | J, cost + cJ, code, -2 - J * n - v)
            perm[v].append((I, cost))
        else:
            return threshold, None
        out: list[int] = []
        stack = [goal]
        while stack:
            src, how = back[stack.pop()]
            if src < 0:
                continue
            stack.append(src)
            if how >= 0:
                out.append(how)
            else:
                stack.append(-2 - how)
        return best[goal], out


def _pieces(inst: _Instance) -> list[list[list[int]]]:
    """The groups, split by connected component of the reduced board."""
    by: dict[int, list[list[int]]] = {}
    for g in inst.groups:
        by.setdefault(inst.comp[g[0]], []).append(g)
    return list(by.values())


def _solve_piece(inst: _Instance, groups: list[list[int]]) -> list[int]:
    """Reduced edges of an optimal forest for groups on one component."""
    if len(groups) == 1:
        _, edges = _TreeSearch(inst, groups[0]).solve()
        assert edges is not None
        return edges
    return _Forest(inst, groups).solve()


class _Forest:
    """Exact Steiner forest of several groups on one component.

    An optimal forest splits the groups into *blocks*, each joined by an
    optimal Steiner tree of its cities: the optimum is the cheapest partition
    of the groups into blocks.  :meth:`bounds` gives every block a lower
    bound on its tree; the cheapest partition by those bounds (a subset DP)
    is then a lower bound on the optimum.  While it is below the best forest
    known, the blocks of that partition not solved yet are solved exactly by
    :class:`_TreeSearch`, or proved too dear for that partition to win, and
    the DP runs again.  It ends when the bound reaches the best forest known,
    or when the cheapest partition is made of solved blocks only.
    """

    def __init__(self, inst: _Instance, groups: list[list[int]]) -> None:
        self.inst = inst
        self.groups = groups
        self.k = len(groups)
        self.cities = [t for g in groups for t in g]
        self.whole = _TreeSearch(inst, self.cities)
        self.paths_from: dict[int, list[int]] = {}  # city -> edge each vertex is reached by

    def heuristic(self) -> tuple[float, set[int]]:
        """A good forest, the cheaper of: each group joined by shortest paths,
        where routes already taken are free, longest groups first (and last);
        and a good tree of all groups (:meth:`_TreeSearch.heuristic`); in
        either, every route no group needs is dropped."""
        inst, groups = self.inst, self.groups
        spread = [inst.dijkstra([g[0]])[0] for g in groups]
        far = [max(d[x] for x in g) for d, g in zip(spread, groups)]
        order = sorted(range(self.k), key=lambda i: -far[i])
        candidates = [self.whole.heuristic()[1]]
        for o in (order, order[::-1]):
            chosen: set[int] = set()
            for i in o:
                chosen |= inst.connect(groups[i], chosen)
            candidates.append(chosen)
        best: tuple[float, set[int]] = (_INF, set())
        for chosen in candidates:
            chosen = inst.prune(chosen, groups)
            c = inst.cost(chosen)
            if c < best[0]:
                best = (c, chosen)
        return best

    def path(self, a: int, b: int) -> list[int]:
        """The edges of a shortest path from ``a`` to ``b`` (after :meth:`bounds`)."""
        via, ends = self.paths_from[a], self.inst.ends
        out = []
        while b != a:
            e = via[b]
            out.append(e)
            u, w = ends[e]
            b = u if w == b else w
        return out

    def bounds(self, upper: float = _INF) -> list[float]:
        """A lower bound on the Steiner tree of every block (a bitmask of
        groups; index 0 unused), the best of:

        * the dual bound of the tree of all groups, minus what attaching the
          groups outside the block to its cities costs at most (the block's
          tree plus those attachments joins all groups);
        * for a group of two cities alone, their distance;
        * the bound of every block with one group less;
        * the block's dual ascent, grown from that of the block without its
          last group by joining that group's cities one at a time
          (:meth:`_Instance.ascend_paths`), for blocks of at most
          ``_DUAL_BLOCKS`` groups that may be part of a forest cheaper than
          ``upper`` by the other bounds.
        """
        inst, groups, k = self.inst, self.groups, self.k
        full = (1 << k) - 1
        cities = self.cities
        dist: dict[int, list[float]] = {}
        for t in cities:
            dist[t], via = inst.dijkstra([t])
            self.paths_from[t] = via
        to_group = [[min(dist[t][x] for x in g) for t in cities] for g in groups]
        # where each group's cities sit in ``cities``; the length of the pairs
        at: list[tuple[int, int, float]] = []
        i = 0
        for g in groups:
            at.append((i, i + len(g), dist[g[0]][g[1]] if len(g) == 2 else -1.0))
            i += len(g)
        whole = self.whole.lower
        val = [0.0] * (full + 1)
        near: list[list[float]] = [[]] * (full + 1)  # block -> distance of each city to the block's cities
        for C in range(1, full + 1):
            hi = C.bit_length() - 1
            parent = C ^ (1 << hi)
            near_C = near[C] = list(map(min, near[parent], to_group[hi])) if parent else to_group[hi]
            attach = 0.0
            for gi, (i, j, pair) in enumerate(at):
                if C >> gi & 1:
                    continue
                if pair >= 0:  # two cities: both to the block, or one and then the other
                    x, y = near_C[i], near_C[i + 1]
                    attach += x + y if x + y < pair + min(x, y) else pair + min(x, y)
                else:
                    attach += _attach(groups[gi], near_C[i:j], dist)
            lb = whole - attach
            if parent:
                for j in range(k):
                    if C >> j & 1:
                        lb = max(lb, val[C ^ (1 << j)])
            elif at[hi][2] > lb:
                lb = at[hi][2]
            val[C] = lb
        if not _DUAL_BOUNDS:
            return val
        # dual ascents for the blocks that may still matter
        rest = _Partitions(val, k).cost if upper < _INF else [0.0] * (full + 1)
        # block -> (bound, reduced costs, what the root reaches at reduced cost 0)
        rcs: dict[int, tuple[float, list[float], int]] = {}

        def ascent(C: int) -> tuple[float, list[float], int]:
            got = rcs.get(C)
            if got is None:
                hi = C.bit_length() - 1
                parent = C ^ (1 << hi)
                g = groups[hi]
                if parent:
                    dual, rc, zero = ascent(parent)
                    rc = list(rc)
                else:  # the root is the group's first city
                    dual, rc, zero = 0.0, list(inst.acost), 1 << g[0]
                rise, zero = inst.ascend_paths(rc, zero, g)
                got = rcs[C] = (dual + rise, rc, zero)
            return got

        for C in range(1, full + 1):
            if C.bit_count() <= _DUAL_BLOCKS and val[C] + rest[full ^ C] < upper:
                dual = ascent(C)[0]
                if dual > val[C]:
                    val[C] = dual
            for j in range(k):  # the bound of a block is at least its sub-blocks'
                if C >> j & 1 and val[C ^ (1 << j)] > val[C]:
                    val[C] = val[C ^ (1 << j)]
        return val

    def solve(self) -> list[int]:
        """Reduced edges of an optimal forest."""
        k = self.k
        full = (1 << k) - 1
        upper, upper_edges = self.heuristic()
        if not _UPPER_BOUNDS:
            upper = _INF
        best_edges = sorted(upper_edges)
        val = self.bounds(upper)
        exact: dict[int, list[int]] = {}  # solved blocks: their trees
        for j, g in enumerate(self.groups):
            if len(g) == 2:  # a shortest path
                exact[1 << j] = self.path(g[0], g[1])
                val[1 << j] = self.inst.cost(exact[1 << j])
        parts = _Partitions(val, k)
        searches: dict[int, _TreeSearch] = {full: self.whole}
        while True:
            part, bound = parts.best()
            if bound >= upper:
                return best_edges
            todo = [C for C in part if C not in exact]
            if not todo:  # the cheapest partition is made of known trees
                return sorted({e for C in part for e in exact[C]})
            for C in todo:
                # the most its tree may cost for this partition to beat the best forest
                budget = upper - (bound - val[C])
                search = searches.get(C)
                if search is None:
                    blocked = [t for j in range(k) if C >> j & 1 for t in self.groups[j]]
                    search = searches[C] = _TreeSearch(self.inst, blocked)
                cost, edges = search.solve(budget, guess=False)
                bound += max(cost, val[C]) - val[C]
                val[C] = max(cost, val[C])
                if edges is not None:
                    exact[C] = edges
            if all(C in exact for C in part) and bound < upper:
                upper, best_edges = bound, sorted({e for C in part for e in exact[C]})
            parts.raised(todo)


def _attach(h: list[int], near: list[float], dist: dict[int, list[float]]) -> float:
    """An upper bound on joining the cities ``h`` to a tree holding cities at
    distances ``near``: Prim's algorithm from the tree."""
    todo = dict(zip(h, near))
    total = 0.0
    while todo:
        x = min(todo, key=todo.__getitem__)
        total += todo.pop(x)
        row = dist[x]
        for y in todo:
            if row[y] < todo[y]:
                todo[y] = row[y]
    return total


class _Partitions:
    """The cheapest partition of ``k`` groups into blocks by the sum of
    ``val`` (a subset DP), kept up to date as some blocks' values rise."""

    def __init__(self, val: list[float], k: int) -> None:
        self.val, self.k = val, k
        self.splits = _splits(k) if k <= _CACHED_SPLITS else None
        self.cost = [0.0] * (1 << k)  # every set's cheapest partition
        self.split = [0] * (1 << k)  # ... and the part of it split off, 0 for none
        for S in range(1, 1 << k):
            self._update(S)

    def _update(self, S: int) -> None:
        F = self.cost
        best, split = self.val[S], 0
        if self.splits is not None:
            for X, B in self.splits[S]:
                c = F[X] + F[B]
                if c < best:
                    best, split = c, B
        else:  # the same splits, enumerated on the fly
            low = S & -S
            rest = S ^ low
            A = (rest - 1) & rest
            while rest:
                B = rest ^ A
                c = F[A | low] + F[B]
                if c < best:
                    best, split = c, B
                if not A:
                    break
                A = (A - 1) & rest
        F[S], self.split[S] = best, split

    def raised(self, blocks: Iterable[int]) -> None:
        """Recompute after the values of ``blocks`` changed."""
        full = (1 << self.k) - 1
        todo: set[int] = set()
        for C in blocks:
            other = full ^ C
            A = other
            while True:
                todo.add(C | A)
                if not A:
                    break
                A = (A - 1) & other
        for S in sorted(todo):
            self._update(S)

    def best(self, S: int = 0) -> tuple[list[int], float]:
        """The cheapest partition of ``S`` (all groups by default) and its cost."""
        S = S or (1 << self.k) - 1
        out: list[int] = []
        stack = [S]
        while stack:
            T = stack.pop()
            B = self.split[T]
            if B:
                stack.extend((T ^ B, B))
            else:
                out.append(T)
        return out, self.cost[S]


def _splits(k: int) -> list[list[tuple[int, int]]]:
    """For every set ``S`` of ``k`` groups, its splits in two ``(X, B)``, ``X``
    holding the lowest group of ``S`` (cached)."""
    out = _SPLITS.get(k)
    if out is None:
        out = [[] for _ in range(1 << k)]
        for S in range(1, 1 << k):
            low = S & -S
            rest = S ^ low
            if not rest:
                continue
            A = (rest - 1) & rest  # A runs over the proper subsets of rest
            pairs = out[S]
            while True:
                pairs.append((A | low, rest ^ A))
                if not A:
                    break
                A = (A - 1) & rest
        _SPLITS[k] = out
    return out


_SPLITS: dict[int, list[list[tuple[int, int]]]] = {}
_CACHED_SPLITS = 10  # up to 10 groups: 29,524 splits kept; beyond, enumerated on the fly
