"""Caches of derived data, bounded by the memory they hold, shared by every edition with the same content.

Listing legal moves fast means remembering what was computed for a hand or a
row before.  Those caches must not grow without bound in a long session, and
editions that differ only in options that do not touch them (a tie-break, a
first player) should share them.  So:

* cache groups are kept per *content key* (an edition class and a map
  digest, plus any option the cached values depend on) in a registry of the
  :data:`GROUPS_KEPT` most recently used groups (and a few caches that depend
  on no edition are kept for the whole process, :func:`shared_cache`);
* every cache has an entry limit (it empties itself when full: the entries
  are cheap to recompute; emptying keeps memory flat, where dropping the
  older half fragmented it and saved few recomputations);
* and all of them together hold at most :func:`cache_budget` bytes (by
  default :data:`DEFAULT_BUDGET`).  Each cache estimates the bytes of its
  entries (keys, values and the dict's slot, measured on a few of the
  entries it holds each time it is full, :func:`entry_bytes`) and starts
  with room for a few entries (``cap``); when it is full, its room grows by
  half if every cache's room together still fits the budget; if not, it
  empties itself, and a cache with more than twice its room gives up half of it.
  Entries are thus weighted by their size, not counted: a cache of big
  entries gets fewer of them, and the caches in use share the budget.

Memory held by caches is thus bounded per process, whatever the number of
editions, maps and options used (``benchmarks/bench_memory.py`` measures a
long mixed session).  The budget trades speed for memory; set it with
:func:`set_cache_budget`.

>>> c = BoundedCache(4)
>>> [c.put(k, v) for v, k in enumerate("abcde")]
[0, 1, 2, 3, 4]
>>> list(c)          # full: emptied before "e" went in
['e']

A tuple of 100 big ints weighs about 3.7 kB, so a 4 MB budget gives such a
cache room for about a thousand of them, whatever its entry limit
(``tests/test_caches.py``):

>>> 3_000 < entry_bytes(0, tuple(range(1000, 1100))) < 4_000
True
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ...errors import TtrError

__all__ = [
    "BoundedCache",
    "cache_group",
    "shared_cache",
    "cache_sizes",
    "cache_bytes",
    "cache_budget",
    "set_cache_budget",
    "entry_bytes",
    "GROUPS_KEPT",
    "DEFAULT_BUDGET",
]

V = TypeVar("V")

#: cache groups kept (one group per edition class, map and relevant options)
GROUPS_KEPT = 16
#: bytes all the shared caches may hold together, by default (estimated)
DEFAULT_BUDGET = 32_000_000
_BUDGET = [DEFAULT_BUDGET]
_GROUPS: OrderedDict[Hashable, dict[str, BoundedCache]] = OrderedDict()
_SHARED: dict[str, BoundedCache] = {}  # caches kept for the whole process (shared_cache)
_SLOT = 48  # a dict entry's share of the table (hash, key and value pointers, free room)
_SAMPLED = 4  # entries measured each time a cache is full (one, once 64 have been)
_FIRST_CAP = 256  # the room a cache starts with (it grows when full)
_LEAST_CAP = 16  # the least room a cache is left with when the budget is short
_MAX_DEPTH = 6


def entry_bytes(key: Any, value: Any) -> int:
    """Estimated bytes of one cache entry: its key and value (tuples, lists,
    dicts, sets, numbers, and objects with ``__slots__`` or a ``__dict__``,
    followed a few levels deep, each object once; text is taken as shared:
    card names and labels come from the edition's tables) and its dict slot.

    >>> entry_bytes("k", None) < entry_bytes("k", tuple(range(1000, 1100)))
    True
    """
    seen: set[int] = set()
    small = range(-5, 257)  # CPython's shared small ints: free

    def size(o: Any, depth: int) -> int:
        if o is None or o is True or o is False or (type(o) is int and o in small) or id(o) in seen:
            return 0
        if type(o) is str:  # names and labels: shared with the edition's tables
            return 0
        seen.add(id(o))
        n = sys.getsizeof(o)
        if depth >= _MAX_DEPTH:
            return n
        if isinstance(o, (tuple, list, set, frozenset)):
            return n + sum(size(x, depth + 1) for x in o)
        if isinstance(o, dict):
            return n + sum(size(k, depth + 1) + size(v, depth + 1) for k, v in o.items())
        if isinstance(o, (int, float, str, bytes, complex)):
            return n
        for name in getattr(type(o), "__slots__", ()):
            n += size(getattr(o, name, None), depth + 1)
        d = getattr(o, "__dict__", None)
        if isinstance(d, dict):
            n += size(d, depth + 1)
        return n

    return _SLOT + size(key, 0) + size(value, 0)


class BoundedCache(dict[Any, Any]):
    """A dict of at most ``limit`` entries whose room grows while the shared
    budget allows (see the module doc).

    Store entries with :meth:`put`, or, on a hot path, check
    ``len(cache) >= cache.cap`` and call :meth:`make_room` before storing
    (as :meth:`put` does): that costs no more than a plain length check.
    """

    __slots__ = ("limit", "cap", "_per_entry", "_measured")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        #: entries it may hold now: grows (by half, up to ``limit``) while the budget has room
        self.cap = min(limit, _FIRST_CAP)
        self._per_entry = float(_SLOT)  # estimated bytes per entry, a running mean over the entries measured
        self._measured = 0

    @property
    def bytes(self) -> int:
        """Estimated bytes held: entries times the mean size of the entries measured."""
        return int(len(self) * self._per_entry)

    @property
    def reserved(self) -> int:
        """Estimated bytes it may come to hold: ``cap`` entries."""
        return int(self.cap * self._per_entry)

    def put(self, key: Hashable, value: V) -> V:
        """Store ``value`` under ``key`` (making room first if the cache is full); returns ``value``."""
        n = len(self)
        if n >= self.cap:
            self.make_room()
        elif not n & 31:  # and now and then between (values filled in after they are stored grow)
            self._measure(1)
        self[key] = value
        return value

    def make_room(self) -> None:
        """Called when the cache is full: grow its room if the budget allows, else empty it, and halve
        the room of a cache that holds more of the budget (see the module doc)."""
        self._measure(_SAMPLED if self._measured < 64 else 1)
        caches = _caches()
        if not any(c is self for c in caches):  # a group dropped from the registry: it only empties itself
            self.clear()
            return
        budget = _BUDGET[0]
        reserved = sum(c.reserved for c in caches)
        room = int((budget - reserved) / self._per_entry)
        if self.cap < self.limit and room >= _LEAST_CAP:  # grow by half, as far as the budget allows
            self.cap = min(self.limit, self.cap + self.cap // 2, self.cap + room)  # reserved stays near use
            return
        self.clear()
        while reserved > budget:  # estimates grew, or the budget is short: give back room, largest first
            largest = max(caches, key=lambda c: c.reserved)
            if largest.cap <= _LEAST_CAP:
                break
            reserved -= largest.reserved - largest.reserved // 2
            largest.shrink()
        others = [c for c in caches if c is not self]
        bigger = max(others, key=lambda c: c.reserved, default=None)
        if bigger is not None and bigger.reserved > 2 * self.reserved and bigger.cap > _LEAST_CAP:
            bigger.shrink()  # share the budget: the largest gives up half its room to this one
            self.cap = min(self.limit, 2 * self.cap)

    def shrink(self) -> None:
        """Halve the room (emptying the cache if it holds more than that)."""
        self.cap = max(_LEAST_CAP, self.cap // 2)
        if len(self) > self.cap:
            self.clear()

    def _measure(self, count: int = _SAMPLED) -> None:
        """Measure ``count`` of the oldest entries (the most filled in, for caches whose values fill
        in after they are stored) into the running mean of the bytes per entry."""
        for seen, (key, value) in enumerate(self.items()):
            if seen >= count:
                break
            self._measured += 1
            self._per_entry += (entry_bytes(key, value) - self._per_entry) / min(self._measured, 256)


def _caches() -> list[BoundedCache]:
    return [*_SHARED.values(), *(c for group in _GROUPS.values() for c in group.values())]


def _enforce_budget() -> None:
    """Halve the room of the largest caches until all of them fit the budget."""
    caches = _caches()
    while sum(c.reserved for c in caches) > _BUDGET[0]:
        largest = max(caches, key=lambda c: c.reserved)
        if largest.cap <= _LEAST_CAP:
            break
        largest.shrink()


def cache_budget() -> int:
    """Bytes all the shared caches may hold together (estimated)."""
    return _BUDGET[0]


def set_cache_budget(nbytes: int) -> int:
    """Set the shared caches' budget in bytes (1 MB to 4 GB); returns the old one.  Caches over it shrink now.

    >>> old = set_cache_budget(50_000_000)
    >>> cache_budget(), set_cache_budget(old) == 50_000_000
    (50000000, True)
    """
    if type(nbytes) is not int or not 10**6 <= nbytes <= 4 * 10**9:
        raise TtrError(f"cache budget: bytes from 1,000,000 to 4,000,000,000, not {nbytes!r}")
    old, _BUDGET[0] = _BUDGET[0], nbytes
    _enforce_budget()
    return old


def cache_group(key: Hashable, limits: dict[str, int]) -> dict[str, BoundedCache]:
    """The caches for content ``key``, created with these entry limits the
    first time; at most :data:`GROUPS_KEPT` groups are kept (least recently
    used dropped first, for editions no longer built)."""
    group = _GROUPS.get(key)
    if group is None:
        group = _GROUPS[key] = {name: BoundedCache(limit) for name, limit in limits.items()}
        while len(_GROUPS) > GROUPS_KEPT:
            _GROUPS.popitem(last=False)
    else:
        _GROUPS.move_to_end(key)
    return group


def shared_cache(name: str, limit: int) -> BoundedCache:
    """The process-wide cache called ``name`` (values that depend on no edition, such as
    counts of small numbers), created with this entry limit the first time; within the budget."""
    cache = _SHARED.get(name)
    if cache is None:
        cache = _SHARED[name] = BoundedCache(limit)
    return cache


def cache_sizes() -> dict[str, int]:
    """Entries held, by cache, over every group and shared cache (for benchmarks and tests)."""
    out: dict[str, int] = {name: len(cache) for name, cache in _SHARED.items()}
    for key, group in _GROUPS.items():
        for name, cache in group.items():
            out[f"{key}:{name}"] = len(cache)
    return out


def cache_bytes() -> int:
    """Estimated bytes held by every cache of every group (what the budget bounds)."""
    return sum(c.bytes for c in _caches())


def memo(cache: BoundedCache, key: Hashable, make: Callable[[], V]) -> V:
    """``cache[key]``, computed by ``make()`` and stored when missing."""
    value = cache.get(key)
    if value is None:
        value = cache.put(key, make())
    return value
