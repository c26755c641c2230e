"""benchmarks/bench_stable.py --agree: the rule it marks as advise's is the advisor's own.

Before c50b97b it marked the first of its RULES (z 2, delta 0.02), the rule
before issue 23, while the advisor used Z_DEVIATE 3 and DELTA_DEVIATE 0.05.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_stable  # noqa: E402

from ttr_lab.analysis.advisor.values import DELTA_DEVIATE, Z_DEVIATE  # noqa: E402


def test_agree_marks_the_advisor_s_own_caution_rule(capsys, tmp_path):
    dump = tmp_path / "agree.jsonl"
    bench_stable.agree("usa", [(6, 2)], count=1, games_seed=9000, dump=str(dump))
    out = capsys.readouterr().out
    marked = [line for line in out.splitlines() if "(advise's rule)" in line]
    assert len(marked) == 1, out
    z, delta = map(float, re.search(r"z=([\d.]+) delta=([\d.]+)", marked[0]).groups())
    assert (z, delta) == (Z_DEVIATE, DELTA_DEVIATE), marked[0]
    assert len(dump.read_text().splitlines()) == 1  # one line a position
