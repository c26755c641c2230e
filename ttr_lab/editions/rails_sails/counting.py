"""Counting and listing payments of Rails & Sails routes (rule B4): pure arithmetic.

Used by :mod:`.payments` to count the payments of each route class from the
hand's card counts, and to list the payments of one route.  Results are
memoised in a shared cache bounded by its entries and by the shared caches'
byte budget (:func:`ttr_lab.engine.rules.caches.shared_cache`).
"""

from __future__ import annotations

from typing import Any

from ...engine.moves import CardList
from ...engine.rules.caches import shared_cache

__all__: list[str] = []  # private to the Rails & Sails package


def _ways(m: int, a: int, b: int) -> int:
    """Number of (x, y) with x + y = m, 0 <= x <= a, 0 <= y <= b."""
    lo = m - b if m > b else 0
    hi = a if a < m else m
    return hi - lo + 1 if hi >= lo else 0


# at most 50,000 entries, within the shared caches' budget; a full cache
# (len(cache) >= cache.cap) asks for room first: cache.make_room()
_COUNT_CACHE = shared_cache("rails_and_sails counts", 50_000)


def _train_count(a: int, b: int, w: int, L: int) -> int:
    """Payments of a plain train route of length L with one colour's plain
    (a) and anchor (b) train cards plus wilds, using at least one coloured card."""
    key = (0, a if a < L else L, b if b < L else L, w if w < L else L, L)
    n = _COUNT_CACHE.get(key)
    if n is None:
        n = 0
        top = w if w < L else L - 1
        for k in range(top + 1):
            n += _ways(L - k, a, b)
        if len(_COUNT_CACHE) >= _COUNT_CACHE.cap:
            _COUNT_CACHE.make_room()
        _COUNT_CACHE[key] = n
    return n


def _ship_count(s: int, d: int, w: int, L: int) -> int:
    """Payments of a ship route of length L with one colour's single (s) and
    double (d) ship cards plus wilds, using at least one coloured card: the
    values sum to L, or to L + 1 with double-ship cards only (no card superfluous)."""
    half = (L + 1) // 2
    key = (1, s if s < L else L, d if d < half else half, w if w < L else L, L)
    n = _COUNT_CACHE.get(key)
    if n is None:
        n = 0
        for dd in range(min(d, L // 2) + 1):
            rem = L - 2 * dd
            if rem == 0:
                n += 1
                continue
            n += _ways(rem, s, w)
            if dd == 0 and w >= rem:
                n -= 1  # the all-wild payment is counted once, without a colour
        if L % 2 and d >= half:
            n += 1
        if len(_COUNT_CACHE) >= _COUNT_CACHE.cap:
            _COUNT_CACHE.make_room()
        _COUNT_CACHE[key] = n
    return n


def _paired_dp(prof: tuple[tuple[int, int], ...], w: int, N: int) -> tuple[tuple[int, int, int], ...]:
    """``(cards, colours with an odd count, multisets)`` of coloured train
    cards from the colours ``prof`` ((plain, anchor) counts), at most N cards
    and at most ``w`` odd colours; memoised by prefix (profiles are sorted)."""
    key = ("d", prof, w, N)
    out = _COUNT_CACHE.get(key)
    if out is None:
        if not prof:
            out = ((0, 0, 1),)
        else:
            a, b = prof[-1]
            ways = [_ways(t, a, b) for t in range(min(a + b, N) + 1)]
            dp: dict[tuple[int, int], int] = {}
            for size, odd, cnt in _paired_dp(prof[:-1], w, N):
                for t in range(min(a + b, N - size) + 1):
                    o = odd + (t & 1)
                    if o <= w:
                        k = (size + t, o)
                        dp[k] = dp.get(k, 0) + cnt * ways[t]
            out = tuple((size, odd, cnt) for (size, odd), cnt in dp.items())
        if len(_COUNT_CACHE) >= _COUNT_CACHE.cap:
            _COUNT_CACHE.make_room()
        _COUNT_CACHE[key] = out
    return out


def _paired_counts(plain: Any, anchor: Any, w: int, N: int) -> tuple[int, ...]:
    """Payments of a paired route of each length L = 0..N//2: 2L train cards
    forming L one-colour pairs, a wild completing any pair (each colour with
    an odd count needs one wild).  ``plain``/``anchor``: counts by colour."""
    prof = tuple(sorted(zip(plain, anchor)))
    prof = prof[prof.count((0, 0)) :]
    if w > N:
        w = N
    key = ("p", prof, w, N)
    out = _COUNT_CACHE.get(key)
    if out is None:
        dp = _paired_dp(prof, w, N)
        out = tuple(
            sum(cnt for size, odd, cnt in dp if odd <= 2 * L - size <= w) if L else 0 for L in range(N // 2 + 1)
        )
        if len(_COUNT_CACHE) >= _COUNT_CACHE.cap:
            _COUNT_CACHE.make_room()
        _COUNT_CACHE[key] = out
    return out


#: byte value -> the positions of its set bits
_BITS8 = tuple(tuple(i for i in range(8) if v >> i & 1) for v in range(256))


def _norm(cards: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(c for c in cards if c[1]))


def _paired_payments(
    plain: Any,
    anchor: Any,
    w: int,
    N: int,
    names: tuple[tuple[str, str], ...],
    wname: str,
    c: int,
    size: int,
    odd: int,
    chosen: list[tuple[str, int]],
    out: list[CardList],
) -> None:
    """Append to ``out`` every payment of N train cards in one-colour pairs
    (colours from ``c`` on; ``chosen`` holds the cards of the colours before)."""
    if c == len(plain):
        k = N - size
        if odd <= k <= w:
            out.append(_norm(chosen + [(wname, k)]))
        return
    a, b = plain[c], anchor[c]
    for t in range(min(a + b, N - size) + 1):
        o = odd + (t & 1)
        if o > w:
            continue
        for x in range(max(0, t - b), min(a, t) + 1):
            chosen.append((names[c][0], x))
            chosen.append((names[c][1], t - x))
            _paired_payments(plain, anchor, w, N, names, wname, c + 1, size + t, o, chosen, out)
            del chosen[-2:]
