"""benchmarks/bench_strength.py: the JSON lines, resuming, and the report.

The benchmarks' own tests (benchmarks/tests) run in ``make test``, not in a bare ``pytest``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from ttr_lab.errors import TtrError

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bench_strength", ROOT / "benchmarks" / "bench_strength.py")
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_run_resume_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    args = ["run", "--edition", "usa", "--hero", "greedy", "--villain", "random", "--deals", "3:4", "--out", str(out)]
    bench.main(args)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["deal"], r["hero_seat"]) for r in rows] == [(3, 0), (3, 1)]
    for r in rows:
        assert r["hero"] == "greedy" and r["villain"] == "random" and r["edition"] == "usa"
        share = 1.0 / len(r["winners"]) if r["hero_seat"] in r["winners"] else 0.0
        assert r["hero_share"] == share and len(r["scores"]) == 2 and r["hero_moves"] > 0
    # the same deal replays the same game: drop the second line, resume, get it back
    out.write_text(out.read_text().splitlines()[0] + "\n")
    bench.main(args)
    again = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(again) == 2
    clock = {"seconds", "cpu"}  # the wall and CPU time a game took: all else replays
    assert {k: v for k, v in again[1].items() if k not in clock} == {k: v for k, v in rows[1].items() if k not in clock}
    assert clock <= again[1].keys()
    bench.main(args)  # nothing left to play
    assert len(out.read_text().splitlines()) == 2
    capsys.readouterr()
    bench.main(["report", str(out), str(out)])  # a game in two files counts once
    text = capsys.readouterr().out
    k = sum(r["hero_share"] for r in rows)
    assert f"usa 2p: greedy vs random: {50 * k:.1f}%" in text and "n=2" in text
    assert "hero seat 0" in text and "hero seat 1" in text and "complete seat-swapped pairs 1" in text


def test_specs() -> None:
    assert repr(bench.make("advisor:playouts=7", 1)) == "AdvisorBot(playouts=7)"
    assert repr(bench.make("advisor:seconds=0.5", 1)) == "AdvisorBot(seconds=0.5)"
    ism = bench.make("ismcts:playouts=9,caution=1", 1)
    assert repr(ism) == "ISMCTSBot(playouts=9)" and ism.caution is True
    assert bench.make("ismcts:seconds=0.5", 1).caution is False
    for bad in (
        "advisor",
        "advisor:budget=3",
        "advisor:playouts=3,caution=1",
        "ismcts:caution=1",
        "ismcts:playouts=x",
        "advisor:seconds=fast",
        "greedy:x",
        "nobody",
    ):
        with pytest.raises(TtrError):
            bench.make(bad, 0)
    with pytest.raises(TtrError):
        bench.deals("5:5")
    assert bench.deals("2:4") == range(2, 4)
