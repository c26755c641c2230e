"""The exact longest trail of a network: the core of the longest-path bonus (rule A7).

A longest *trail* uses each route at most once but may pass through a city
many times.  :mod:`ttr_lab.analysis.trails` is the networkx front end for
lessons; this module is the fast core that scoring uses.

How :func:`longest_trail_edges` stays fast (the proofs are in the private
helpers' docstrings):

1. Components are solved separately, biggest total first; a component whose
   total cannot beat the best so far is skipped.
2. A component with 0 or 2 odd-degree cities is one Euler trail (Hierholzer).
3. Otherwise a longest trail joins two odd cities and the routes it leaves
   out form a T-join, so *total - cheapest T-join* bounds it (Edmonds and
   Johnson: a cheapest T-join pairs the odd cities by shortest paths).
   Cities of degree 2 are contracted away first.  If removing a cheapest
   T-join leaves the network connected, its Euler trail is optimal; this
   settles most real networks.
4. Else a branch-and-bound search over trails from odd cities closes the
   gap, pruned by the same T-join bound on the routes still unused and by a
   table of visited states (bitmask of used routes).

Examples
--------
A tiny four-city network (rules reference, scenario 14):

>>> longest_trail_edges([(1, "A", "B", 3), (2, "B", "C", 2), (3, "C", "A", 4),
...                      (4, "C", "D", 6)])
(15, (2, 1, 3, 4))
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from heapq import heappop, heappush
from typing import Any

from ...errors import TtrError

__all__ = ["longest_trail_edges"]

# An internal edge: (end a, end b, weight, route ids in order from a to b).
_Edge = tuple[int, int, Any, tuple[Any, ...]]

_INF = float("inf")


class _Done(Exception):
    """Raised inside the search when the upper bound is reached."""


def _oriented(edge: _Edge, start: int) -> tuple[Any, ...]:
    """The route ids of ``edge`` in the order met when walking from ``start``."""
    return edge[3] if edge[0] == start else edge[3][::-1]


def _euler(edges: list[_Edge], start: int) -> tuple[Any, ...]:
    """Hierholzer: an Euler trail (or circuit) of connected ``edges`` from ``start``."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b, _w, _s) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        if a != b:
            adj.setdefault(b, []).append((i, a))
    used = [False] * len(edges)
    ptr = dict.fromkeys(adj, 0)
    stack: list[tuple[int, int, int]] = [(start, -1, start)]  # (city, edge, came from)
    out: list[tuple[Any, ...]] = []
    while stack:
        v, ei, frm = stack[-1]
        lst, p = adj[v], ptr[v]
        while p < len(lst) and used[lst[p][0]]:
            p += 1
        ptr[v] = p
        if p == len(lst):
            stack.pop()
            if ei >= 0:
                out.append(_oriented(edges[ei], frm))
        else:
            e, o = lst[p]
            used[e] = True
            stack.append((o, e, v))
    return tuple(rid for seq in reversed(out) for rid in seq)


def _contract(edges: list[_Edge]) -> list[_Edge]:
    """Replace every city of degree 2 (two distinct non-loop routes) by one edge.

    Valid when the component has four or more odd cities: a longest trail is
    then open with odd ends (see :func:`_solve_component`), so it never ends at
    an even city, and a trail through a degree-2 city uses both its routes in
    a row.  Degrees of the other cities do not change.
    """
    live: dict[int, _Edge] = dict(enumerate(edges))
    inc: dict[int, list[int]] = {}
    for i, (a, b, _w, _s) in enumerate(edges):
        inc.setdefault(a, []).append(i)
        if a != b:
            inc.setdefault(b, []).append(i)
    nxt = len(edges)
    for v in list(inc):
        ids = inc[v]
        if len(ids) != 2 or any(live[i][0] == live[i][1] for i in ids):
            continue
        e1, e2 = sorted(ids)
        x = live[e1][0] if live[e1][1] == v else live[e1][1]
        y = live[e2][1] if live[e2][0] == v else live[e2][0]
        seq = _oriented(live[e1], x) + _oriented(live[e2], v)
        live[nxt] = (x, y, live[e1][2] + live[e2][2], seq)
        del live[e1], live[e2]
        inc[v] = []
        inc[x].remove(e1)
        inc[y].remove(e2)
        inc[x].append(nxt)
        if x != y:
            inc[y].append(nxt)
        nxt += 1
    return [live[i] for i in sorted(live)]


def _relabel(edges: list[_Edge], odd: list[int]) -> tuple[list[_Edge], list[int], int]:
    """Number the cities of ``edges`` 0..n-1 (first-seen order); n is returned."""
    ids = {v: k for k, v in enumerate(dict.fromkeys(c for e in edges for c in e[:2]))}
    return [(ids[a], ids[b], w, s) for a, b, w, s in edges], [ids[v] for v in odd], len(ids)


class _Graph:
    """A contracted component, cities numbered 0..n-1, with the distance
    tools behind the T-join bounds."""

    def __init__(self, edges: list[_Edge], n: int) -> None:
        self.edges, self.n = edges, n
        self.adj: list[list[tuple[int, int, Any]]] = [[] for _ in range(n)]
        for i, (a, b, w, _s) in enumerate(edges):
            if a != b:
                self.adj[a].append((i, b, w))
                self.adj[b].append((i, a, w))
        self.dist: list[Any] = [None] * n  # rows filled on demand
        self.pred: list[Any] = [None] * n
        self.memo: dict[int, tuple[Any, int]] = {}

    def dijkstra(self, src: int) -> None:
        d: list[Any] = [_INF] * self.n
        p = [-1] * self.n
        d[src] = 0
        heap = [(0, src)]
        while heap:
            dv, v = heappop(heap)
            if dv > d[v]:
                continue
            for ei, o, w in self.adj[v]:
                nd = dv + w
                if nd < d[o]:
                    d[o] = nd
                    p[o] = ei
                    heappush(heap, (nd, o))
        self.dist[src], self.pred[src] = d, p

    def match(self, mask: int, free: int) -> Any:
        """Cheapest pairing of the cities in ``mask`` by shortest paths,
        leaving at most ``free`` of them unpaired (exact bitmask DP)."""
        key = mask << 2 | free
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if not mask:
            return 0
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        val, pick = (self.match(rest, free - 1), -1) if free else (_INF, -1)
        row, m = self.dist[i], rest
        while m:
            b = m & -m
            m ^= b
            j = b.bit_length() - 1
            cand = row[j] + self.match(rest ^ b, free)
            if cand < val:
                val, pick = cand, j
        self.memo[key] = (val, pick)
        return val

    def tjoin(self, mask: int, free: int) -> int:
        """The routes (a bitmask of edge indices) of the pairing found by
        :meth:`match`: the symmetric difference of its shortest paths."""
        removed = 0
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            j = self.memo[mask << 2 | free][1]
            mask ^= low
            if j < 0:
                free -= 1
                continue
            mask ^= 1 << j
            v = j
            while v != i:
                ei = self.pred[i][v]
                removed ^= 1 << ei
                a, b = self.edges[ei][0], self.edges[ei][1]
                v = a if b == v else b
        return removed


def _pieces(edges: list[_Edge], n: int) -> list[list[_Edge]]:
    """Split ``edges`` into connected components (union-find)."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, _w, _s in edges:
        parent[find(a)] = find(b)
    parts: dict[int, list[_Edge]] = {}
    for e in edges:
        parts.setdefault(find(e[0]), []).append(e)
    return list(parts.values())


def _euler_piece(edges: list[_Edge]) -> tuple[Any, tuple[Any, ...]]:
    """Total and Euler trail of a connected piece with at most two odd cities."""
    deg: dict[int, int] = {}
    for a, b, _w, _s in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    odd = [v for v, d in deg.items() if d & 1]
    return sum(e[2] for e in edges), _euler(edges, odd[0] if odd else edges[0][0])


def _search(g: _Graph, starts: list[tuple[Any, int]], best: tuple[Any, tuple[Any, ...]]) -> tuple[Any, tuple[Any, ...]]:
    """Branch and bound over trails beating ``best``.

    ``starts`` holds ``(upper, city)`` pairs, best first: no trail from
    ``city`` is longer than ``upper``.  Bound: at a trail ending at c with
    unused routes U, let F be the rest of the trail (ending at e) and R = U - F
    the routes never used.  odd(R) = odd(U) xor odd(F), and odd(F) is empty
    or {c, e}.  In every case odd(R) is X = odd(U) xor {c} give or take one
    city, so w(R) >= cheapest pairing of X leaving one city free, with
    distances of the whole component (shortest paths in U are no shorter).
    From one start, the routes used determine the current city (the odd
    cities of a trail are its two ends), so ``used`` alone keys the table of
    visited states.
    """
    for v in range(g.n):
        if g.dist[v] is None:
            g.dijkstra(v)
    adj: list[list[tuple[int, int, Any, int, int]]] = [[] for _ in range(g.n)]
    odd_mask = 0
    for i, (a, b, w, _s) in enumerate(g.edges):
        flip = 0 if a == b else (1 << a | 1 << b)
        odd_mask ^= flip
        adj[a].append((1 << i, b, w, i, flip))
        if a != b:
            adj[b].append((1 << i, a, w, i, flip))
    for lst in adj:
        lst.sort(key=lambda t: (-t[2], t[3]))  # long routes first: good trails early
    memo, match = g.memo, g.match
    best_len = [best[0]]
    best_path: list[list[tuple[int, int]]] = [[]]
    path: list[tuple[int, int]] = []
    upper = [None]
    seen: set[int] = set()

    def dfs(c: int, used: int, cur: Any, rem: Any, om: int) -> None:
        if cur > best_len[0]:
            best_len[0] = cur
            best_path[0] = path[:]
            if cur >= upper[0]:
                raise _Done
        if used in seen:  # from one start, the routes used fix where we are
            return
        seen.add(used)
        key = (om ^ 1 << c) << 2 | 1
        hit = memo.get(key)
        need = hit[0] if hit is not None else match(key >> 2, 1)
        if cur + rem - need <= best_len[0]:
            return
        for bit, o, w, ei, flip in adj[c]:
            if used & bit:
                continue
            path.append((ei, c))
            dfs(o, used | bit, cur + w, rem - w, om ^ flip)
            path.pop()

    total = sum(e[2] for e in g.edges)
    for ub, s in starts:
        if ub <= best_len[0]:
            break
        upper[0] = ub
        seen.clear()
        try:
            dfs(s, 0, 0, total, odd_mask)
        except _Done:
            pass
    if best_len[0] == best[0]:
        return best
    seq = tuple(rid for ei, c in best_path[0] for rid in _oriented(g.edges[ei], c))
    return best_len[0], seq


def _solve_component(edges: list[_Edge]) -> tuple[Any, tuple[Any, ...]]:
    """Longest trail of one connected component.

    Take a longest trail T that, among longest ones, has the most routes.  If
    an end x of an open T had an unused route, adding it would give a better
    trail, so deg(x) = deg_T(x) is odd.  If T is closed and some city on it
    had an unused route, starting T there and adding the route would be
    better, so T covers the whole component, which is then all-even.  Hence:
    0 odd cities → Euler circuit; 2 → Euler trail; more → T is open between
    two odd cities, and the unused routes R = E - T have every other odd city
    as an odd city: R is a T-join, so w(T) <= total - (cheapest T-join).  A
    cheapest T-join is a cheapest pairing by shortest paths (Edmonds and
    Johnson).  When removing one leaves the network connected, its Euler
    trail meets the bound; otherwise a search closes the gap.
    """
    deg: dict[int, int] = {}
    for a, b, _w, _s in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    odd = [v for v, d in deg.items() if d & 1]
    if len(odd) <= 2:
        return _euler_piece(edges)
    edges, odd, n = _relabel(_contract(edges), odd)
    g = _Graph(edges, n)
    for v in odd:
        g.dijkstra(v)
    odd_mask = sum(1 << v for v in odd)
    g.match(odd_mask, 2)  # fills the memo that tjoin reads
    removed = g.tjoin(odd_mask, 2)
    kept = [e for i, e in enumerate(edges) if not removed >> i & 1]
    pieces = _pieces(kept, n)
    if len(pieces) == 1:
        return _euler_piece(kept)
    # The bound may be out of reach: search, starting from the best piece.
    first = (edges[0][2], edges[0][3])  # any single edge is a trail
    incumbent = max([first, *(_euler_piece(p) for p in pieces)], key=lambda t: t[0])
    total = sum(e[2] for e in edges)
    # Most promising start first; a trail ending at the last start is found
    # from its other end, so the last one is dropped.
    starts = sorted(((total - g.match(odd_mask ^ 1 << v, 1), -v, v) for v in odd), reverse=True)
    return _search(g, [(ub, v) for ub, _i, v in starts[:-1]], incumbent)


def longest_trail_edges(edges: Sequence[tuple[Hashable, Hashable, Hashable, Any]]) -> tuple[Any, tuple[Any, ...]]:
    """Exact longest trail of a network given as ``(route_id, u, v, length)``.

    Parameters
    ----------
    edges : sequence of (route_id, u, v, length)
        One tuple per route; ``u`` and ``v`` are hashable city names.
        Parallel routes, loops (``u == v``) and several components are fine.
        Lengths must be non-negative numbers.

    Returns
    -------
    (total_length, route_ids)
        A longest trail (each route at most once, cities may repeat) and its
        route ids in the order walked.  Among equally long trails the result
        depends only on the input order, so repeated calls agree.
        ``(0, ())`` for no edges.

    Raises
    ------
    TtrError
        When an entry is not a 4-tuple or a length is negative.

    Examples
    --------
    >>> longest_trail_edges([])
    (0, ())
    >>> star = [(1, "A", "B", 1), (2, "A", "C", 2), (3, "A", "D", 3)]
    >>> longest_trail_edges(star)
    (5, (2, 3))
    >>> longest_trail_edges([(7, "A", "B", 2), (8, "A", "B", 2)])
    (4, (7, 8))
    """
    vid: dict[Hashable, int] = {}
    comp_of: list[int] = []  # union-find parent per city index

    def find(x: int) -> int:
        while comp_of[x] != x:
            comp_of[x] = comp_of[comp_of[x]]
            x = comp_of[x]
        return x

    inner: list[_Edge] = []
    for item in edges:
        try:
            rid, u, v, w = item
        except (TypeError, ValueError):
            raise TtrError(f"expected (route_id, u, v, length), got {item!r}") from None
        try:
            valid = w >= 0
        except TypeError:
            valid = False
        if not valid:
            raise TtrError(f"route {rid!r} has a negative or invalid length {w!r}")
        for city in (u, v):
            if city not in vid:
                vid[city] = len(vid)
                comp_of.append(vid[city])
        a, b = vid[u], vid[v]
        comp_of[find(a)] = find(b)
        inner.append((a, b, w, (rid,)))
    if not inner:
        return 0, ()
    parts: dict[int, list[_Edge]] = {}
    for e in inner:
        parts.setdefault(find(e[0]), []).append(e)
    comps = sorted(parts.values(), key=lambda es: -sum(e[2] for e in es))  # stable
    best: tuple[Any, tuple[Any, ...]] = (-1, ())
    for comp in comps:
        if sum(e[2] for e in comp) <= best[0]:
            break  # this part, and every smaller one, cannot do better
        found = _solve_component(comp)
        if found[0] > best[0]:
            best = found
    return best
