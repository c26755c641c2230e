"""Statistics for tournaments, in the standard library: intervals, ranks, ratings.

* :func:`wilson` — the Wilson score interval of a proportion;
* :func:`mean_ci` — a mean with a normal-approximation interval;
* :func:`spearman` — Spearman's rank correlation (average ranks for ties);
* :func:`bootstrap` — a percentile bootstrap interval of any statistic;
* :func:`bradley_terry` — Bradley–Terry strengths by Hunter's MM algorithm.

Examples
--------
>>> lo, hi = wilson(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> spearman([1, 2, 3, 4], [10, 20, 30, 40])
1.0
>>> s = bradley_terry({("a", "b"): 30, ("b", "a"): 10})
>>> round(s["a"] / s["b"], 6)
3.0
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from statistics import NormalDist, fmean, stdev
from typing import Any, TypeVar

from ..engine.checks import check_count, check_number, check_seed
from ..errors import TtrError

__all__ = ["wilson", "mean_ci", "ranks", "spearman", "bootstrap", "bradley_terry", "elo_scale"]

K = TypeVar("K", bound=Hashable)


#: the most bootstrap replicates, and Bradley-Terry iterations, of one call
MAX_REPS = 1_000_000


def check_level(level: object) -> float:
    """``level`` if it is a confidence level: a number above 0 and below 1."""
    x = check_number(level, "level", low=0, high=1, low_open=True)
    if x >= 1:
        raise TtrError(f"level must be a confidence level above 0 and below 1, not {level!r}")
    return x


def _z(level: float) -> float:
    return NormalDist().inv_cdf(0.5 + check_level(level) / 2)


def wilson(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` (``(nan, nan)`` when ``n`` is 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    z = _z(level)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean with a normal-approximation interval (t is ~z for n > 30).

    >>> mean_ci([1.0, 2.0, 3.0])[0]
    2.0
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = fmean(values)
    if n == 1:
        return (m, math.nan, math.nan)
    half = _z(level) * stdev(values) / math.sqrt(n)
    return (m, m - half, m + half)


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, tied values sharing their average rank.

    >>> ranks([10, 30, 20, 20])
    [1.0, 4.0, 2.5, 2.5]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for k in range(i, j + 1):
            out[order[k]] = avg
        i = j + 1
    return out


def _pearson(x: Sequence[float], y: Sequence[float]) -> float:
    mx, my = fmean(x), fmean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long sequences (nan if either is constant)."""
    if len(x) != len(y):
        raise TtrError(f"spearman needs two sequences of the same length, not {len(x)} and {len(y)}")
    if len(x) < 2:
        return math.nan
    return _pearson(ranks(x), ranks(y))


def bootstrap(
    data: Sequence[Any],
    statistic: Callable[[Sequence[Any]], float],
    *,
    reps: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``(estimate, low, high)``: the statistic and its percentile bootstrap interval.

    Each replicate resamples ``data`` (the units, e.g. games) with
    replacement; replicates where the statistic is nan are left out.

    >>> est, lo, hi = bootstrap(list(range(100)), lambda xs: sum(xs) / len(xs), reps=200)
    >>> lo < est < hi
    True
    """
    check_count(reps, "reps", high=MAX_REPS)
    check_seed(seed)
    a = (1 - check_level(level)) / 2
    rng = random.Random(seed)
    est = statistic(data)
    n = len(data)
    reps_out = []
    for _ in range(reps):
        sample = [data[rng.randrange(n)] for _ in range(n)]
        v = statistic(sample)
        if not math.isnan(v):
            reps_out.append(v)
    if not reps_out:
        return (est, math.nan, math.nan)
    reps_out.sort()
    lo = reps_out[min(len(reps_out) - 1, int(a * len(reps_out)))]
    hi = reps_out[min(len(reps_out) - 1, int((1 - a) * len(reps_out)))]
    return (est, lo, hi)


def bradley_terry(wins: Mapping[tuple[K, K], float], *, iters: int = 1000, tol: float = 1e-10) -> dict[K, float]:
    """Bradley–Terry strengths from pairwise wins, by Hunter's (2004) MM algorithm.

    ``wins[(i, j)]`` is how often ``i`` beat ``j`` (a tie may count half to
    each).  Strengths are normalised to a geometric mean of 1, so
    ``P(i beats j) = s_i / (s_i + s_j)``.  A player who never wins gets a
    strength near 0; add a small prior (e.g. 0.5 win each way) to avoid it.
    ``iters`` is 1 to :data:`MAX_REPS`.
    """
    check_count(iters, "iters", high=MAX_REPS)
    check_number(tol, "tol", low=0, high=1)
    players = sorted({p for pair in wins for p in pair}, key=str)
    total_w = dict.fromkeys(players, 0.0)
    games: dict[tuple[K, K], float] = {}
    for (i, j), w in wins.items():
        if i == j:
            continue
        total_w[i] += w
        key = (i, j) if str(i) <= str(j) else (j, i)
        games[key] = games.get(key, 0.0) + w
    s = dict.fromkeys(players, 1.0)
    for _ in range(iters):
        new = {}
        for p in players:
            denom = 0.0
            for (i, j), n in games.items():
                if p in (i, j):
                    denom += n / (s[i] + s[j])
            new[p] = total_w[p] / denom if denom else s[p]
        logs = [math.log(v) for v in new.values() if v > 0]
        g = math.exp(fmean(logs)) if logs else 1.0
        new = {p: v / g for p, v in new.items()}
        delta = max(abs(new[p] - s[p]) for p in players) if players else 0.0
        s = new
        if delta < tol:
            break
    return s


def elo_scale(strengths: Mapping[K, float], base: float = 1500) -> dict[K, float]:
    """Bradley–Terry strengths on the Elo scale: ``base + 400 log10(s)``.

    >>> elo_scale({"a": 1.0, "b": 10.0})
    {'a': 1500.0, 'b': 1900.0}
    """
    return {k: base + 400 * math.log10(v) if v > 0 else -math.inf for k, v in strengths.items()}
