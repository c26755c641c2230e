"""benchmarks/attribute.py: the recorded games replay exactly (the figures need valgrind).

The benchmarks' own tests (benchmarks/tests) run in ``make test``, not in a bare ``pytest``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import attribute  # noqa: E402


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, str(ROOT), *args], capture_output=True, text=True)


@pytest.mark.parametrize("edition", ["usa", "rails_and_sails"])
def test_the_recorded_random_games_replay_move_for_move(tmp_path, edition):
    path = tmp_path / "games.json"
    assert run(attribute.RECORD, edition, "2", str(path)).returncode == 0
    played = json.loads(path.read_text())
    assert len(played) == 2 and all(len(p["picks"]) == len(p["moves"]) > 50 for p in played)
    for part in ("check", "full", "push", "listing", "outcome", "claim_groups"):
        done = run(attribute.REPLAY, edition, part, "2", str(path))
        assert done.returncode == 0, (part, done.stderr[-500:])
    assert run(attribute.REPLAY, edition, "no_such_part", "2", str(path)).returncode != 0  # no silent no-op
    # the check can fail: another pick at the first turn is another move
    played[0]["picks"][0] = 0 if played[0]["picks"][0] else 1
    path.write_text(json.dumps(played))
    done = run(attribute.REPLAY, edition, "check", "2", str(path))
    assert done.returncode != 0 and "AssertionError" in done.stderr
