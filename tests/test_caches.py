"""The shared caches are bounded by the bytes they hold, not by their entries (issue 20, item 10).

``benchmarks/bench_memory.py`` gives the figure for a long mixed session
(10,000 games); here: entries are weighted by their size, every cache's room
together stays within the budget, and the byte estimate is close to what
the caches really hold (measured with tracemalloc by emptying them).
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections import OrderedDict

import pytest

import ttr_lab
from ttr_lab.engine.rules import caches, registry
from ttr_lab.engine.rules.caches import cache_budget, cache_bytes, cache_group, entry_bytes, set_cache_budget
from ttr_lab.errors import TtrError


@pytest.fixture
def fresh(monkeypatch):
    """An empty registry of cache groups, empty shared caches, and the budget restored afterwards."""
    monkeypatch.setattr(caches, "_GROUPS", OrderedDict())
    monkeypatch.setattr(registry, "_CACHE", OrderedDict())  # editions built before hold the old groups' caches
    for cache in caches._SHARED.values():  # the process-wide caches (Rails & Sails counts) start empty
        cache.clear()
    old = cache_budget()
    yield
    set_cache_budget(old)


def test_entries_are_weighted_by_their_size(fresh):
    set_cache_budget(4_000_000)
    group = cache_group(("test", "weights"), {"small": 100_000, "big": 100_000})
    small, big = group["small"], group["big"]
    for i in range(20_000):
        small.put(i, i + 1000)
        big.put(i, tuple(range(1000 + i, 1100 + i)))
    assert 3_000 < entry_bytes(0, tuple(range(1000, 1100))) < 4_000
    assert 60 < entry_bytes(0, 1000) < 200
    assert small.cap > 5 * big.cap and 256 <= big.cap < 1100  # same limit, room by size
    assert small.reserved + big.reserved <= 4_000_000 * 1.05 and cache_bytes() <= 4_000_000 * 1.05  # estimates drift
    assert len(small) <= small.cap and len(big) <= big.cap


def test_many_groups_share_one_budget(fresh):
    set_cache_budget(2_000_000)
    for g in range(caches.GROUPS_KEPT + 4):  # more groups than kept: the oldest are dropped
        cache = cache_group(("test", g), {"rows": 50_000})["rows"]
        for i in range(5_000):
            cache.put(i, tuple(range(1000 + i, 1020 + i)))
        assert sum(c.reserved for c in caches._caches()) <= 2_000_000 * 1.05  # estimates drift a little
    assert len(caches._GROUPS) == caches.GROUPS_KEPT


def test_the_estimate_is_what_the_caches_hold(fresh):
    """Rails & Sails games fill the real caches; emptying them frees about what they were said to hold."""
    set_cache_budget(6_000_000)
    rng = random.Random(5)
    tracemalloc.start()
    try:
        for seed in range(12):
            g = ttr_lab.new_game("rails_and_sails", players=4, seed=seed)
            while not g.is_over:
                moves = g.legal_moves
                g.push(moves[rng.randrange(len(moves))])
        del g, moves
        gc.collect()
        said = cache_bytes()
        before = tracemalloc.get_traced_memory()[0]
        for c in caches._caches():
            c.clear()
        gc.collect()
        freed = before - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert said > 1_000_000, "the games filled the caches"
    print(f"estimated {said} bytes, freed {freed} bytes")
    assert 0.6 * freed <= said <= 1.5 * freed, (said, freed)
    assert sum(c.reserved for c in caches._caches()) <= 6_000_000 * 1.05


def test_the_budget_is_bounded():
    for bad in (0, 999_999, 5 * 10**9, 1.5e7, "24000000", True):
        with pytest.raises(TtrError, match="cache budget"):
            set_cache_budget(bad)  # type: ignore[arg-type]
