"""The exact searches of :mod:`ttr_lab.analysis.steiner`: the tree search
(:class:`_TreeSearch`, A* over Dreyfus-Wagner labels guided by a dual
ascent) and the forest as the cheapest partition into trees
(:class:`_Forest`, with :class:`_Partitions`, the subset dynamic
programme of :mod:`ttr_lab.analysis.steiner.partitions`).  The method is
described in :mod:`ttr_lab.analysis.steiner`.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from .instance import _INF, _Instance
from .partitions import _Partitions

# These two only make the search faster; the tests switch them off to check that.
_UPPER_BOUNDS = True  # start from a heuristic network and prune what cannot beat it
_DUAL_BOUNDS = True  # guide the tree search and bound the forest's blocks with dual ascents
# the forest's blocks of at most so many groups get a dual ascent of their own
# (larger blocks almost never gain from one on the shipped boards)
_DUAL_BLOCKS = 5


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
