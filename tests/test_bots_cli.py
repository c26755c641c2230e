"""Bots (deterministic, view-only, finish games) and the command line."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

import ttr_lab
from ttr_lab.bots import GreedyBot, RandomBot, make_bot, play_game
from ttr_lab.cli import main
from ttr_lab.records import Record, save_position

from .test_bad_input import edition_specs

#: the variants of editions with a ``variant`` option (the USA 1910 variants), from the registry
VARIANTS = [(name, opts) for name, opts in edition_specs() if "variant" in opts]


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


@pytest.mark.parametrize("name, opts", VARIANTS, ids=[o["variant"] for _, o in VARIANTS])
def test_bots_play_the_1910_variants(name, opts):
    g = play_game(name, [make_bot("greedy", 1), make_bot("greedy", 2), make_bot("random", 3)], seed=9, **opts)
    assert g.is_over and g.problems() == []
    assert g.edition.options["variant"] == opts["variant"]


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
        "import sys, ttr_lab, ttr_lab.bots, ttr_lab.records, ttr_lab.engine.scoring; "
        "bad = [m for m in ('plotly', 'ipywidgets', 'IPython', 'anywidget') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------- the command line's failures
def run_cli(*args: str, cwd=None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ttr_lab", *args], capture_output=True, text=True, cwd=cwd, timeout=300, **kw
    )


def assert_one_line_failure(out: subprocess.CompletedProcess, *expected: str) -> str:
    assert out.returncode != 0
    assert "Traceback" not in out.stderr and "Exception ignored" not in out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for text in expected:
        assert text in lines[0]
    assert out.stdout == ""
    return lines[0]


def test_play_save_to_a_missing_folder_fails_on_one_line(tmp_path):
    out = run_cli("play", "--seed", "1", "--bots", "random,random", "--save", "/nonexistent/x.json", cwd=tmp_path)
    assert_one_line_failure(out, "/nonexistent/x.json", "cannot write")
    assert out.returncode == 1


def test_a_closed_output_pipe_stops_quietly(tmp_path):
    # the reader goes away before anything is written: every write fails
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttr_lab", "play", "--seed", "3", "--moves", "--bots", "greedy,random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) == 141  # 128 + SIGPIPE, as a tool killed by the pipe
    assert err == ""


def test_play_piped_into_head_prints_no_traceback(tmp_path):
    cmd = f"{shlex.quote(sys.executable)} -m ttr_lab play --seed 3 --moves --bots greedy,random | head -1"
    out = subprocess.run(
        ["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert out.stdout.startswith("   1. ") and out.stdout.count("\n") == 1
    assert out.stderr == ""  # no traceback, no "Exception ignored ... BrokenPipeError"
    assert out.returncode in (0, 141)  # 0 when the whole output fit in the pipe before head left


def test_validate_a_position_file(tmp_path):
    g = ttr_lab.new_game("europe", players=3, seed=1)
    g.play(g.legal_moves[0])
    path = tmp_path / "pos.json"
    save_position(g, path)
    assert main(["validate", str(path)]) == 0
    out = run_cli("validate", str(path))
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout == f"{path}: OK, position of europe, setup_tickets due\n"
    d = json.loads(path.read_text())
    d["pieces"][0] = -1
    path.write_text(json.dumps(d))
    line = assert_one_line_failure(run_cli("validate", str(path)), str(path), "inconsistent position")
    assert "negative number of trains" in line
    over = play_game("usa", [make_bot("random", 1), make_bot("random", 2)], seed=2)
    save_position(over, path)
    assert run_cli("validate", str(path)).stdout == f"{path}: OK, position of usa, game over\n"
    assert_one_line_failure(run_cli("replay", str(path)), "a position, not a game record")


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "5", "--bots", "random,random", "--save", str(path)]) == 0
    return path


FAILURES = [
    (["play", "--edition", "chess"], "unknown edition 'chess'"),
    (["play", "--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["play", "--bots", ""], "usa is played by 2-5 players, not 0"),
    (["play", "--bots", "random"], "usa is played by 2-5 players, not 1"),
    (["play", "--option", "nonsense"], "--option wants NAME=VALUE"),
    (["play", "--option", "=3"], "--option wants NAME=VALUE"),
    (["play", "--option", "colour=red"], "unknown option 'colour'"),
    (["play", "--option", "max_consecutive_resets=lots"], "max_consecutive_resets must be None or an int"),
    (["play", "--option", "first_player=" + "9" * 30], "first_player must be a seat index"),
    (["play", "--seed", "abc"], "invalid int value: 'abc'"),
    (["play", "--seed", "-1"], "seed must be an int"),
    (["play", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "the following arguments are required: command"),
    (["replay"], "the following arguments are required: file"),
    (["replay", "{missing}"], "cannot read: No such file or directory"),
    (["validate", "{missing}"], "cannot read: No such file or directory"),
    (["validate", "{malformed}"], "invalid JSON"),
    (["replay", "{malformed}"], "invalid JSON"),
    (["validate", "{folder}"], "not a regular file (a directory)"),
    (["replay", "{folder}"], "not a regular file (a directory)"),
    (["validate", "/dev/zero"], "not a regular file (a character device)"),
    (["validate", "{list}"], "expected a JSON object"),
    (["validate", "{map}"], "a 'ttr_lab.map' file, not a game record"),
    (["validate", "{illegal}"], "ply 4"),
    (["replay", "{illegal}"], "ply 4"),
    (["validate", "{multiline}"], "unknown edition"),
]


@pytest.mark.parametrize("args, expected", FAILURES, ids=[" ".join(a) or "(nothing)" for a, _ in FAILURES])
def test_every_failure_is_one_line_and_a_non_zero_exit(args, expected, tmp_path, record_file):
    d = json.loads(record_file.read_text())
    files = {
        "missing": tmp_path / "missing.json",
        "malformed": tmp_path / "malformed.json",
        "folder": tmp_path,
        "list": tmp_path / "list.json",
        "map": tmp_path / "map.json",
        "illegal": tmp_path / "illegal.json",
        "multiline": tmp_path / "multiline.json",
    }
    files["malformed"].write_text('{"format": "ttr_lab.record",')
    files["list"].write_text("[]")
    files["map"].write_text(json.dumps({"format": "ttr_lab.map", "id": "x"}))
    files["illegal"].write_text(json.dumps({**d, "moves": d["moves"][:3] + ["claim 1 pink:9"]}))
    files["multiline"].write_text(json.dumps({**d, "edition": "line one\nline two"}))
    args = [a.format(**files) for a in args]
    out = run_cli(*args, cwd=tmp_path)
    line = assert_one_line_failure(out, expected)
    assert out.returncode == (2 if "(see 'python -m ttr_lab" in line else 1)
    # the same through main() in this process
    if out.returncode == 1:
        assert main(args) == 1
    else:
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2
