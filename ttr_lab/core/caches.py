"""Bounded caches of derived data, shared by every edition with the same content.

Listing legal moves fast means remembering what was computed for a hand or a
row before.  Those caches must not grow without bound in a long session, and
editions that differ only in options that do not touch them (a tie-break, a
first player) should share them.  So every cache here has a size limit
(cleared when full: the entries are cheap to recompute), and cache groups
are kept per *content key* (an edition class and a map digest, plus any
option the cached values depend on) in a small registry of the most
recently used groups.  Memory held by caches is thus bounded per process,
whatever the number of editions and options used.

>>> c = BoundedCache(2)
>>> c.put("a", 1), c.put("b", 2), c.put("c", 3)
(1, 2, 3)
>>> sorted(c)          # full: cleared before "c" went in
['c']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["BoundedCache", "cache_group", "cache_sizes", "GROUPS_KEPT"]

V = TypeVar("V")

#: cache groups kept (one group per edition class, map and relevant options)
GROUPS_KEPT = 16
_GROUPS: OrderedDict[Hashable, dict[str, BoundedCache]] = OrderedDict()


class BoundedCache(dict[Any, Any]):
    """A dict that empties itself before it would hold more than ``limit`` entries."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: Hashable, value: V) -> V:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def cache_group(key: Hashable, limits: dict[str, int]) -> dict[str, BoundedCache]:
    """The caches for content ``key``, created with these size limits the
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


def cache_sizes() -> dict[str, int]:
    """Entries held, by cache, over every group (for benchmarks and tests)."""
    out: dict[str, int] = {}
    for key, group in _GROUPS.items():
        for name, cache in group.items():
            out[f"{key}:{name}"] = len(cache)
    return out


def memo(cache: BoundedCache, key: Hashable, make: Callable[[], V]) -> V:
    """``cache[key]``, computed by ``make()`` and stored when missing."""
    value = cache.get(key)
    if value is None:
        value = cache.put(key, make())
    return value
