"""The compiled playout kernel (issue 23): its generators, its switch, its presence.

The referee checks (the same games move for move, every kernel move legal)
are in ``tests/test_kernel_referee.py``; malformed input in
``tests/test_kernel_fuzz.py``.  A test that needs the extension skips where
it is not built, unless ``TTR_LAB_REQUIRE_KERNEL=1`` (``make test`` sets it
where a C compiler is found): then its absence fails
:func:`test_the_kernel_is_built_where_it_is_required`.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

import ttr_lab
from ttr_lab.bots.kernel import ENV, REQUIRE_ENV, SplitMix64, kernel_info
from ttr_lab.bots.kernel.run import load
from ttr_lab.bots.playout import PlayoutBot, play_out, run_playout

needs_kernel = pytest.mark.skipif(not kernel_info().enabled, reason="the compiled kernel is not built here (or is off)")


def test_the_kernel_is_built_where_it_is_required():
    """A silent fallback cannot pass as done: where the test run says the kernel is built, it is."""
    info = kernel_info()
    if os.environ.get(REQUIRE_ENV) == "1":
        assert info.available, info.reason
        assert info.enabled, info.reason
        assert set(info.editions) == {"usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes"}
    else:
        assert info.enabled <= info.available
    assert isinstance(str(info), str) and info.reason


def test_kernel_info_is_in_the_analysis():
    from ttr_lab.analysis import kernel_info as from_analysis

    assert from_analysis is kernel_info


def test_splitmix64_is_the_reference_generator():
    # Vigna's splitmix64.c from state 0: its first outputs
    r = SplitMix64(0)
    assert [hex(r.next64()) for _ in range(3)] == ["0xe220a8397b1dcdaf", "0x6e789e6aa1b965f4", "0x6c45d188009454f"]
    r = SplitMix64(2**64 + 5)  # the state is the seed modulo 2**64
    assert r.next64() == SplitMix64(5).next64()
    r = SplitMix64(1)
    draws = [r.random() for _ in range(1000)]
    assert all(0 <= x < 1 for x in draws) and 0.45 < sum(draws) / 1000 < 0.55
    r = SplitMix64(2)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert min(counts) > 850


@needs_kernel
@pytest.mark.parametrize("seed", [0, 1, 7919, 2**63 + 11, 2**64 - 1])
def test_the_kernel_draws_the_same_splitmix64_numbers(seed):
    r = SplitMix64(seed)
    assert load().splitmix(seed, 200) == tuple(r.next64() for _ in range(200))


@needs_kernel
def test_the_kernel_shuffles_as_the_engine_does():
    """random.Random(text).shuffle, text as the engine names its shuffles (SHA-512 seeding, MT19937)."""
    rng = random.Random(4)
    seeds = [0, 1, 99, 2**64 - 1, 2**128 - 1, *(rng.getrandbits(rng.choice([8, 40, 64, 128])) for _ in range(40))]
    for seed in seeds:
        for k in (0, 1, 7):
            n = rng.choice([0, 1, 2, 3, 17, 64, 110, 200])
            cards = [rng.randrange(9) for _ in range(n)]
            text = f"ttr_lab:{seed}:{k}"
            want = list(cards)
            random.Random(text).shuffle(want)
            assert load().mt_shuffle(text.encode(), list(cards)) == tuple(want), (seed, k, n)


def test_the_playout_bot_draws_from_splitmix64():
    assert isinstance(PlayoutBot(3).rng, SplitMix64)
    assert PlayoutBot(3).rng.next64() == SplitMix64(3).next64()


@pytest.mark.parametrize("edition", ["usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes"])
def test_play_out_is_run_playout_with_or_without_the_kernel(edition, monkeypatch):
    """The same result compiled and in Python (TTR_LAB_KERNEL=0), and as run_playout's game scores."""
    g = ttr_lab.new_game(edition, players=3, seed=11)
    end = run_playout(g.copy(), seed=5)
    out = end.outcome()
    fast = play_out(g.copy(), seed=5)
    compiled = kernel_info().enabled  # False where the kernel is not built, or TTR_LAB_KERNEL=0 already
    monkeypatch.setenv(ENV, "0")
    slow = play_out(g.copy(), seed=5)
    assert not slow.compiled
    assert fast.compiled == compiled
    assert fast.same_game(slow)
    assert fast.scores == out.scores and fast.winners == out.winners and fast.plies == end.ply
    assert [[t for t, _ in seat] for seat in fast.tickets] == [[t.id for t in end.tickets(p)] for p in range(3)]


def test_kernel_info_says_when_it_is_switched_off(monkeypatch):
    monkeypatch.setenv(ENV, "0")
    info = kernel_info()
    assert not info.enabled
    assert "Python" in info.reason


def test_other_editions_play_in_python():
    """A plug-in's edition (here a subclass of Rails & Sails, which may change any rule) plays in Python."""
    from typing import Any, ClassVar

    from ttr_lab.editions.rails_sails import RailsSails
    from ttr_lab.engine.rules import register_edition
    from ttr_lab.engine.rules.registry import unregister_edition

    class _Variant(RailsSails):
        name: ClassVar[str] = "rails_and_sails_variant"
        aliases: ClassVar[dict[str, Any]] = {}

    register_edition(_Variant)
    try:
        g = ttr_lab.new_game("rails_and_sails_variant", players=2, seed=3)
        assert not play_out(g, seed=1).compiled
        assert (
            play_out(ttr_lab.new_game("rails_and_sails", players=2, seed=3), seed=1).compiled == kernel_info().enabled
        )
    finally:
        unregister_edition(_Variant.name)


@needs_kernel
def test_a_game_with_recorded_chance_plays_in_python():
    from ttr_lab.engine.rules.chance import Chance

    g = ttr_lab.new_game("usa", players=2, seed=3)
    g._chance = Chance()
    assert not play_out(g, seed=1).compiled


@needs_kernel
@pytest.mark.parametrize(("seeds", "policy"), [(("x", "y"), 0), ((1.5j, 2), 0), ((b"\0" * 400, b"1"), 1), ((1, 2), 1)])
def test_a_seed_the_kernel_cannot_take_is_a_ttr_error(seeds, policy):
    from ttr_lab.bots.kernel.run import kernel_playout
    from ttr_lab.errors import TtrError

    g = ttr_lab.new_game("europe", players=2, seed=3)
    with pytest.raises(TtrError, match="seed"):
        kernel_playout(g, seeds, policy=policy)


@needs_kernel
def test_the_kernel_leaves_the_position_as_it_was():
    g = ttr_lab.new_game("usa", players=4, seed=8)
    before = g.to_dict()
    assert play_out(g, seed=2).compiled
    assert g.to_dict() == before


def test_without_the_extension_the_same_analysis_runs_in_python(tmp_path):
    """A fresh interpreter where the extension cannot be imported (as without a compiler, or in
    Pyodide): kernel_info says so, and a playout gives the result the kernel gives here."""
    code = (
        "import sys, json\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'ttr_lab.bots.kernel._playout':\n"
        "            raise ImportError('no compiler')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import ttr_lab\n"
        "from ttr_lab.analysis import kernel_info\n"
        "from ttr_lab.bots.playout import play_out\n"
        "end = play_out(ttr_lab.new_game('usa', players=3, seed=11), seed=5)\n"
        "info = kernel_info()\n"
        "print(json.dumps([info.available, info.reason, end.compiled, list(end.scores)]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    import json

    available, reason, compiled, scores = json.loads(proc.stdout)
    assert not available and not compiled and "not built" in reason
    assert tuple(scores) == play_out(ttr_lab.new_game("usa", players=3, seed=11), seed=5).scores


@needs_kernel
@pytest.mark.parametrize("edition", ["rails_and_sails", "great_lakes"])
def test_rails_and_sails_positions_read_and_written_back_unchanged(edition):
    """Layout version 4 (issue 23, Rails & Sails): positions from whole games (every phase,
    2-5 players, the options, harbors built, pieces exchanged) read by the kernel (kg_read's
    checks) and written back (a playout of 0 plies) field for field; the tables read too."""
    from ttr_lab.bots import make_bot
    from ttr_lab.bots.kernel.convert import position_array, seed_text, unsupported
    from ttr_lab.bots.kernel.run import play_arrays, tables

    seen: set[str] = set()
    options = ({}, {"harbor_wilds": False, "tour_order": "walk"}, {"tour_order": "simple_path", "first_player": 1})
    for i in range(40):
        rng = random.Random(f"rs-layout:{edition}:{i}")
        n = 2 + i % 4
        g = ttr_lab.new_game(edition, players=n, seed=i, **options[i % 3])
        assert unsupported(g.edition) is None
        bots = [make_bot(rng.choice(["greedy", "random", "playout"]), rng.randrange(1000)) for _ in range(n)]
        for _ in range(rng.choice([0, 3, 7, rng.randrange(400)])):
            if g.is_over:
                break
            g.push(bots[g.current_player].choose(g.view(g.current_player)))
        t = tables(g.edition, preview=True)
        assert t is not None and tables(g.edition) is t  # refereed: played (run.EDITIONS)
        pos = position_array(g)
        seeds = tuple(bytes([p]) for p in range(n))
        assert play_arrays(t, pos, seed_text(g), seeds, 1, 0, True)[8] == pos.tobytes(), i
        seen.add(g.phase.name)
        seen.update(k for k in ("_harbors", "_exchanged") if any(g.__dict__[k][p] for p in range(n)))
    assert {"SETUP_TICKETS", "SETUP_PIECES", "TURN", "_harbors", "_exchanged"} <= seen, seen
