"""The board's reductions of an exact Steiner forest or tree
(:func:`_reduce`, which keep every optimum) and the groups joined where they
share a city (:func:`_join_groups`), before
:class:`~ttr_lab.analysis.steiner.instance._Instance` is built.  The method
is described in :mod:`ttr_lab.analysis.steiner`.
"""

from __future__ import annotations

from collections.abc import Iterable


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
