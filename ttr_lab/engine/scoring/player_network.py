"""A player's network of routes: adjacency, paths, components.

Networks are plain dicts, ``{city: [(route id, other city), ...]}``, built
from route objects in id order, so every answer is deterministic.

>>> from ttr_lab.maps import load_map
>>> usa = load_map("usa")
>>> adj = adjacency([usa.route(1), usa.route(2)])
>>> sorted(adj)
['Atlanta', 'Charleston', 'Miami']
>>> bfs_path(adj, "Miami", "Charleston")
(2, 1)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from ...maps.loading import Route

__all__ = ["Network", "adjacency", "bfs_path", "component", "edges_of"]

#: city -> (route id, other city) pairs
Network = Mapping[str, Sequence[tuple[int, str]]]


def adjacency(routes: Iterable[Route]) -> dict[str, list[tuple[int, str]]]:
    """The network of these routes (listed in id order)."""
    adj: dict[str, list[tuple[int, str]]] = {}
    for r in sorted(routes, key=lambda r: r.id):
        adj.setdefault(r.a, []).append((r.id, r.b))
        adj.setdefault(r.b, []).append((r.id, r.a))
    return adj


def bfs_path(adj: Network, a: str, b: str) -> tuple[int, ...] | None:
    """Fewest-routes path from a to b (route ids), deterministic; None if none."""
    if a not in adj or b not in adj:
        return None
    prev: dict[str, tuple[str, int] | None] = {a: None}
    queue = deque([a])
    while queue:
        city = queue.popleft()
        if city == b:
            path = []
            step = prev[city]
            while step is not None:
                city, rid = step
                path.append(rid)
                step = prev[city]
            return tuple(reversed(path))
        for rid, nxt in adj[city]:
            if nxt not in prev:
                prev[nxt] = (city, rid)
                queue.append(nxt)
    return None


def component(adj: Network, start: str) -> set[str]:
    """The cities joined to ``start``."""
    seen = {start}
    todo = [start]
    while todo:
        v = todo.pop()
        for _, u in adj.get(v, ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def edges_of(adj: Network) -> list[tuple[int, str, str]]:
    """``(route id, a, b)`` for every route of the network, by id."""
    seen: dict[int, tuple[int, str, str]] = {}
    for a, lst in adj.items():
        for rid, b in lst:
            if rid not in seen:
                seen[rid] = (rid, a, b)
    return [seen[r] for r in sorted(seen)]
