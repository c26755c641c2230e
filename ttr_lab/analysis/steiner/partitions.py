"""The subset dynamic programme of the exact Steiner forest
(:mod:`ttr_lab.analysis.steiner.search`): :class:`_Partitions`, the
cheapest partition of the groups into blocks by the blocks' values, kept up
to date as some values rise, and :func:`_splits`, every set's splits in two
(cached for up to ``_CACHED_SPLITS`` groups).  The method is described in
:mod:`ttr_lab.analysis.steiner`.

Blocks and sets are bitmasks of groups; ``val[C]`` is the value of block ``C``:

>>> val = [0.0, 3.0, 4.0, 6.0]    # blocks {0}, {1}, {0, 1}
>>> parts = _Partitions(val, 2)
>>> parts.best()
([3], 6.0)
>>> val[3] = 9.0
>>> parts.raised([3])
>>> parts.best()
([2, 1], 7.0)
"""

from __future__ import annotations

from collections.abc import Iterable


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
