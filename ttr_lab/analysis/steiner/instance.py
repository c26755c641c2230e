"""The reduced instance of an exact Steiner forest or tree (after the board's
reductions of :mod:`ttr_lab.analysis.steiner.reduce`): :class:`_Instance`,
the compact graph with its shortest paths and dual ascents that the
searches of :mod:`ttr_lab.analysis.steiner.search` run on.  The method is
described in :mod:`ttr_lab.analysis.steiner`.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Sequence

_INF = float("inf")


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
