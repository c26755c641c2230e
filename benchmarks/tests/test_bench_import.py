"""benchmarks/bench_import.py: its interval for a median, and one real side-by-side run.

The benchmarks' own tests (benchmarks/tests) run in ``make test``, not in a bare ``pytest``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_import  # noqa: E402


@pytest.mark.parametrize("n, lo, hi", [(25, 8, 18), (41, 14, 28), (10, 2, 9)])
def test_the_median_interval_is_the_order_statistics_of_the_binomial_table(n, lo, hi):
    """The 95% ranks (1-based) of the standard table: 8 and 18 of 25, 14 and 28 of 41, 2 and 9 of 10."""
    xs = [float(i) for i in range(1, n + 1)]
    random.Random(n).shuffle(xs)
    m, a, b = bench_import.median_interval(xs)
    assert (a, b) == (lo, hi) and m == (n + 1) / 2


def test_the_interval_covers_the_median_about_95_times_in_100():
    rng = random.Random(7)
    covered = 0
    for _ in range(2000):
        _, a, b = bench_import.median_interval([rng.expovariate(1.0) for _ in range(25)])
        covered += a <= 0.6931471805599453 <= b  # the median of the exponential distribution
    assert 0.94 <= covered / 2000 <= 0.99  # the exact coverage with ranks 8 and 18 is 95.7%


def test_a_run_against_a_revision_prints_both_sides():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_import.py"), "--before", "HEAD", "--runs", "6", "--top", "3"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "before" in done.stdout and done.stdout.count("after - before, paired") == 2
    assert "largest self times after" in done.stdout
