"""Trails: the longest continuous route, cut routes and Euler trails.

The *longest continuous route* bonus of Ticket to Ride asks for a longest
**trail** in a player's network: a walk that uses each route at most once but
may pass through a city many times.  :func:`longest_trail_edges` is the exact,
fast core used by game scoring; :func:`longest_trail` is its networkx front
end.  :func:`cut_routes`, :func:`odd_degree_cities` and
:func:`euler_trail_exists` support the graph-theory lessons.

How the search is kept small (each step is proved in the comments below):

1. Components are solved separately, biggest total length first, and a
   component whose total cannot beat the best found so far is skipped.
2. A component with 0 or 2 odd-degree cities has an Euler trail: the answer
   is the whole component, found by Hierholzer's algorithm, no search.
3. Otherwise a longest trail runs between two odd-degree cities, so cities of
   degree 2 are contracted away and the depth-first search starts only at
   odd-degree cities (all but the last one, by symmetry).
4. The search prunes with a parity bound: the routes left unused must fix
   the parity of every odd city except the two trail ends.

Examples
--------
A tiny four-city network (RULES.md scenario 14):

>>> longest_trail_edges([(1, "A", "B", 3), (2, "B", "C", 2), (3, "C", "A", 4),
...                      (4, "C", "D", 6)])
(15, (2, 1, 3, 4))
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any, Hashable, Sequence

import networkx as nx

__all__ = [
    "longest_trail_edges",
    "longest_trail",
    "cut_routes",
    "odd_degree_cities",
    "euler_trail_exists",
]

# An internal edge: (end a, end b, weight, route ids in order from a to b).
_Edge = tuple[int, int, Any, tuple]


class _Done(Exception):
    """Raised inside the search when the upper bound is reached."""


def _oriented(edge: _Edge, start: int) -> tuple:
    """The route ids of ``edge`` in the order met when walking from ``start``."""
    return edge[3] if edge[0] == start else edge[3][::-1]


def _euler(edges: list[_Edge], start: int) -> tuple:
    """Hierholzer: an Euler trail (or circuit) of connected ``edges`` from ``start``."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b, _w, _s) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        if a != b:
            adj.setdefault(b, []).append((i, a))
    used = [False] * len(edges)
    ptr = dict.fromkeys(adj, 0)
    stack: list[tuple[int, int, int]] = [(start, -1, start)]  # (city, edge, came from)
    out: list[tuple] = []
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


def _min_tjoin(edges: list[_Edge], n: int, odd: list[int]) -> tuple[Any, int]:
    """Cheapest route set R whose odd cities are ``odd`` but at most two.

    A T-join of least weight is a union of shortest paths pairing up T
    (Edmonds & Johnson), so: Dijkstra from every odd city, then an exact
    bitmask DP over pairings that may leave two cities free.  Returns the
    weight and R as a bitmask of edge indices.
    """
    adj: list[list[tuple[int, int, Any]]] = [[] for _ in range(n)]
    for i, (a, b, w, _s) in enumerate(edges):
        if a != b:
            adj[a].append((i, b, w))
            adj[b].append((i, a, w))
    dist, pred = [], []
    for src in odd:
        d: list[Any] = [None] * n
        p = [-1] * n
        d[src] = 0
        heap = [(0, src)]
        while heap:
            dv, v = heappop(heap)
            if dv > d[v]:
                continue
            for ei, o, w in adj[v]:
                nd = dv + w
                if d[o] is None or nd < d[o]:
                    d[o] = nd
                    p[o] = ei
                    heappush(heap, (nd, o))
        dist.append([d[t] for t in odd])
        pred.append(p)
    memo: dict[int, tuple[Any, int]] = {}

    def best(mask: int, free: int) -> Any:
        key = mask << 2 | free
        if key in memo:
            return memo[key][0]
        if not mask:
            return 0
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        val, pick = (best(rest, free - 1), -1) if free else (None, -1)
        row, m = dist[i], rest
        while m:
            b = m & -m
            m ^= b
            j = b.bit_length() - 1
            sub = best(rest ^ b, free)
            if sub is not None and (val is None or row[j] + sub < val):
                val, pick = row[j] + sub, j
        memo[key] = (val, pick)
        return val

    full = (1 << len(odd)) - 1
    cost = best(full, 2)
    removed, mask, free = 0, full, 2
    while mask:  # replay the DP choices, XOR-ing in the shortest paths
        low = mask & -mask
        i = low.bit_length() - 1
        j = memo[mask << 2 | free][1]
        mask ^= low
        if j < 0:
            free -= 1
            continue
        mask ^= 1 << j
        v = odd[j]
        while v != odd[i]:
            ei = pred[i][v]
            removed ^= 1 << ei
            a, b = edges[ei][0], edges[ei][1]
            v = a if b == v else b
    return cost, removed


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


def _euler_piece(edges: list[_Edge]) -> tuple[Any, tuple]:
    """Total and Euler trail of a connected piece with at most two odd cities."""
    deg: dict[int, int] = {}
    for a, b, _w, _s in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    odd = [v for v, d in deg.items() if d & 1]
    return sum(e[2] for e in edges), _euler(edges, odd[0] if odd else edges[0][0])


def _search(edges: list[_Edge], n: int, starts: list[int], upper: Any,
            best: tuple[Any, tuple]) -> tuple[Any, tuple]:
    """Branch and bound over trails from ``starts``, beating ``best``."""
    adj: list[list[tuple[int, int, Any, int]]] = [[] for _ in range(n)]
    par = [0] * n  # parity of unused degree (loops never change it)
    for i, (a, b, w, _s) in enumerate(edges):
        adj[a].append((1 << i, b, w, i))
        if a != b:
            adj[b].append((1 << i, a, w, i))
            par[a] ^= 1
            par[b] ^= 1
    for lst in adj:
        lst.sort(key=lambda t: (-t[2], t[3]))  # long routes first: good trails early
    wmin = min(e[2] for e in edges)
    total = sum(e[2] for e in edges)
    best_len = [best[0]]
    best_path: list[list[tuple[int, int]]] = [[]]
    path: list[tuple[int, int]] = []
    odd_cnt = [sum(par)]

    def dfs(c: int, used: int, cur: Any, rem: Any) -> None:
        if cur > best_len[0]:
            best_len[0] = cur
            best_path[0] = path[:]
            if cur >= upper:
                raise _Done
        # Unused routes left behind must fix the parity of every odd city
        # but c and the trail's end: at least (odd_others // 2) routes.
        if cur + rem - ((odd_cnt[0] - par[c]) >> 1) * wmin <= best_len[0]:
            return
        for bit, o, w, ei in adj[c]:
            if used & bit:
                continue
            path.append((ei, c))
            if o != c:
                par[c] ^= 1
                par[o] ^= 1
                d = (2 * par[c] - 1) + (2 * par[o] - 1)
                odd_cnt[0] += d
                dfs(o, used | bit, cur + w, rem - w)
                odd_cnt[0] -= d
                par[c] ^= 1
                par[o] ^= 1
            else:
                dfs(c, used | bit, cur + w, rem - w)
            path.pop()

    try:
        for s in starts:
            dfs(s, 0, 0, total)
    except _Done:
        pass
    if best_len[0] == best[0]:
        return best
    seq = tuple(rid for ei, c in best_path[0] for rid in _oriented(edges[ei], c))
    return best_len[0], seq


def _solve_component(edges: list[_Edge]) -> tuple[Any, tuple]:
    """Longest trail of one connected component.

    Take a longest trail T that, among longest ones, has the most routes.  If
    an end x of an open T had an unused route, adding it would give a better
    trail, so deg(x) = deg_T(x) is odd.  If T is closed and some city on it
    had an unused route, starting T there and adding the route would be
    better, so T covers the whole component, which is then all-even.  Hence:
    0 odd cities → Euler circuit; 2 → Euler trail; more → T is open between
    two odd cities, and the unused routes R = E - T have every other odd city
    as an odd city: R is a T-join, so w(T) <= total - (cheapest T-join).
    When removing a cheapest T-join leaves the network connected, its Euler
    trail meets that bound; otherwise a search closes the gap.
    """
    deg: dict[int, int] = {}
    for a, b, _w, _s in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    odd = [v for v, d in deg.items() if d & 1]
    if len(odd) <= 2:
        return _euler_piece(edges)
    edges, odd, n = _relabel(_contract(edges), odd)
    cost, removed = _min_tjoin(edges, n, odd)
    kept = [e for i, e in enumerate(edges) if not removed >> i & 1]
    pieces = _pieces(kept, n)
    if len(pieces) == 1:
        found = _euler_piece(kept)
    else:  # the bound may be out of reach: search, starting from the best piece
        first = (edges[0][2], edges[0][3])  # any single edge is a trail
        incumbent = max([first, *(_euler_piece(p) for p in pieces)], key=lambda t: t[0])
        total = sum(e[2] for e in edges)
        # a trail ending at odd[-1] is found from its other end
        found = _search(edges, n, odd[:-1], total - cost, incumbent)
    return found


def longest_trail_edges(edges: Sequence[tuple[Hashable, Hashable, Hashable, Any]]) -> tuple[Any, tuple]:
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
    ValueError
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
            raise ValueError(f"expected (route_id, u, v, length), got {item!r}") from None
        if not w >= 0:
            raise ValueError(f"route {rid!r} has a negative or invalid length {w!r}")
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
    best: tuple[Any, tuple] = (-1, ())
    for comp in comps:
        if sum(e[2] for e in comp) <= best[0]:
            continue
        found = _solve_component(comp)
        if found[0] > best[0]:
            best = found
    return best


def _edge_list(G: nx.Graph, weight: str) -> list[tuple[Any, Any, Any, Any]]:
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

    Examples
    --------
    >>> G = nx.MultiGraph([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
    >>> odd_degree_cities(G)
    ['C', 'D']
    """
    return sorted((v for v, d in G.degree() if d % 2), key=str)


def euler_trail_exists(G: nx.Graph) -> bool:
    """Whether one trail can use every route: all routes in one connected
    piece, and 0 or 2 cities of odd degree.  Isolated cities are ignored and
    a graph without routes has the empty trail.

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
