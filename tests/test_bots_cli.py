"""Bots (deterministic, view-only, finish games) and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ttr_lab.bots import GreedyBot, RandomBot, make_bot, play_game
from ttr_lab.cli import main
from ttr_lab.records import Record


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_games_finish_and_are_deterministic(players):
    bots = lambda: [make_bot("greedy" if i % 2 == 0 else "random", seed=i) for i in range(players)]
    a = play_game("usa", bots(), seed=players)
    b = play_game("usa", bots(), seed=players)
    assert a.is_over and a.problems() == []
    assert [str(m) for m in a.move_stack] == [str(m) for m in b.move_stack]


def test_greedy_beats_random_most_of_the_time():
    wins = 0
    for seed in range(8):
        g = play_game("usa", [GreedyBot(seed), RandomBot(seed)], seed=seed)
        wins += g.outcome().winners == (0,)
    assert wins >= 7


def test_bots_only_use_the_view():
    class Spy:
        name = "spy"

        def __init__(self):
            self.inner = GreedyBot(0)
            self.seen = set()

        def choose(self, view):
            self.seen.add(type(view).__name__)
            return self.inner.choose(view)

    spy = Spy()
    play_game("usa", [spy, RandomBot(1)], seed=2)
    assert spy.seen == {"PlayerView"}


@pytest.mark.parametrize("variant", ["1910", "mega", "big_cities"])
def test_bots_play_the_1910_variants(variant):
    g = play_game(variant, [make_bot("greedy", 1), make_bot("greedy", 2), make_bot("random", 3)], seed=9)
    assert g.is_over and g.problems() == []


def test_unknown_bot():
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_cli_play_save_replay_validate(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["play", "--seed", "4", "--bots", "greedy,random", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Winner:" in out and "record saved" in out
    rec = Record.load(path)
    assert rec.headers == {"Bots": "greedy,random"}
    assert main(["validate", str(path)]) == 0
    assert "OK" in capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    assert "Winner:" in capsys.readouterr().out
    d = json.loads(path.read_text())
    d["moves"][3] = "claim 1 pink:9"
    path.write_text(json.dumps(d))
    assert main(["validate", str(path)]) == 1
    assert "ply 4" in capsys.readouterr().err


def test_cli_options_and_editions(capsys):
    assert main(["play", "--seed", "1", "--bots", "random,random", "--option", "max_consecutive_resets=3"]) == 0
    assert main(["editions"]) == 0
    assert "big_cities" in capsys.readouterr().out
    assert main(["play", "--option", "nonsense"]) == 1


def test_python_dash_m_entry_point(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "ttr_lab", "play", "--seed", "2", "--bots", "greedy,greedy"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert "Winner:" in out.stdout


def test_core_imports_no_jupyter_or_plotly():
    code = (
        "import sys, ttr_lab, ttr_lab.bots, ttr_lab.records, ttr_lab.scoring; "
        "bad = [m for m in ('plotly', 'ipywidgets', 'IPython', 'anywidget') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
