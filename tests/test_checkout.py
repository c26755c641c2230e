"""A plain copy of the checkout works without installing: ``ttr_lab/``,
``maps/`` and ``docs/`` copied to a folder, run with ``python -S`` (no
site-packages, no .pth files, so no editable install) and a PYTHONPATH of
that folder plus networkx's site-packages directory only, from another
working directory.  The shipped maps and the rules reference are then found
in the checkout's ``maps/`` and ``docs/`` folders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import networkx
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """The plain copy, and the environment to run it in."""
    base = tmp_path_factory.mktemp("checkout")
    copy = base / "ttr_lab_checkout"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for folder in ("ttr_lab", "maps", "docs"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=ignore)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    site = Path(networkx.__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = os.pathsep.join([str(copy), str(site)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return copy, elsewhere, env


def run(checkout, *args: str) -> subprocess.CompletedProcess:
    _, elsewhere, env = checkout
    out = subprocess.run(
        [sys.executable, "-S", *args], capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return out


def test_the_copy_is_what_runs(checkout):
    copy, _, _ = checkout
    out = run(
        checkout,
        "-c",
        "import sys, ttr_lab, ttr_lab.engine.reference; ttr_lab.engine.reference.explain('A1'); ttr_lab.new_game('usa', 2); "
        "print(ttr_lab.__file__, sys.flags.no_site, 'ttr_lab.docs' in sys.modules or 'ttr_lab.maps.files' in sys.modules)",
    )
    where, no_site, data_packages = out.stdout.split()
    assert Path(where).resolve() == (copy / "ttr_lab" / "__init__.py").resolve()
    assert no_site == "1"
    assert data_packages == "False"  # not installed: maps and docs come from the checkout's folders


def test_editions_command(checkout):
    out = run(checkout, "-m", "ttr_lab", "editions")
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert {"usa", "europe", "rails_and_sails", "great_lakes", "1910", "mega"} <= set(names)


def test_a_new_game_from_the_copy(checkout):
    out = run(
        checkout,
        "-c",
        "import ttr_lab; g = ttr_lab.new_game('europe', 3, seed=1); "
        "print(g.map.id, len(g.map.routes), len(g.pending_tickets), g.problems())",
    )
    assert out.stdout.split() == ["europe", "101", "4", "[]"]


def test_the_rules_reference_from_the_copy(checkout):
    out = run(checkout, "-c", "import ttr_lab.engine.reference as r; print(r.explain('A4').splitlines()[0])")
    assert out.stdout.strip() == "### A4. Claiming a route"


def test_every_shipped_map_and_a_bot_game_from_the_copy(checkout):
    code = (
        "import ttr_lab; from ttr_lab.bots import make_bot, play_game; "
        "print(ttr_lab.available_maps()); "
        "g = play_game('world', [make_bot('greedy', 1), make_bot('random', 2)], seed=3); "
        "print(g.is_over)"
    )
    out = run(checkout, "-c", code)
    maps, over = out.stdout.splitlines()
    assert maps == str(tuple(sorted(p.stem for p in (ROOT / "maps").glob("*.json"))))
    assert over == "True"
