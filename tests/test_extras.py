"""A missing extra is named with a command that works from this repository (issue 19 C2).

ttr_lab is not on PyPI, so ``pip install 'ttr_lab[sim]'`` finds nothing.  Every
error that names a missing extra comes from :func:`ttr_lab.io.extras.missing_extra`:
from a checkout it says ``make lab`` (which sets up every lesson) or ``python -m
pip install -e '<checkout>[extra]'``; installed from a wheel, the extra's own
packages.  A missing package is simulated with ``sys.modules[name] = None``
(what importing it then raises: ImportError), in a subprocess where the
module that needs it is imported afresh.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_lab.errors import TtrError
from ttr_lab.io import extras
from ttr_lab.io.extras import install_hint, missing_extra

ROOT = Path(__file__).resolve().parents[1]
WRONG = re.compile(r"pip install\s+['\"]?ttr[_-]lab\b")  # the package index has no ttr_lab


def working_command(message: str, extra: str) -> None:
    """The message gives this checkout's commands, for this Python, and not the index's."""
    assert not WRONG.search(message), message
    assert f"`make {'app' if extra == 'app' else 'lab'}` in {ROOT}" in message, message
    assert f"-m pip install -e '{ROOT}[{extra}]'" in message, message
    assert sys.executable in message, message


def test_no_message_in_the_package_points_at_the_package_index():
    hits = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "ttr_lab").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WRONG.search(line)
    ]
    assert hits == []


@pytest.mark.parametrize("extra", sorted(extras.EXTRAS))
def test_the_hint_from_a_checkout_is_make_or_an_editable_install_of_it(extra):
    err = missing_extra(extra, "this lesson", "somepackage")
    assert isinstance(err, TtrError) and isinstance(err, ImportError)
    assert str(err).startswith(f"this lesson needs somepackage, from ttr_lab's [{extra}] extra, which is not installed")
    working_command(str(err), extra)


def test_installed_without_a_checkout_the_hint_lists_the_extras_packages(monkeypatch):
    monkeypatch.setattr(extras, "checkout_root", lambda: None)
    assert install_hint("sim").endswith("-m pip install pandas tqdm 'dask[distributed]'`")
    app = install_hint("app")  # [app] is [lab] plus voila
    assert all(p in app for p in ("plotly", "anywidget", "ipywidgets", "jupyterlab", "voila")), app
    assert not WRONG.search(app)


def test_an_unknown_extra_is_a_clear_error():
    with pytest.raises(TtrError, match=r"ttr_lab has no \[labs\] extra; it has \[lab\], \[sim\], \[app\]"):
        install_hint("labs")


# ---------------------------------------------------------------- each place that names an extra


def run_without(modules: list[str], code: str) -> subprocess.CompletedProcess:
    blocked = "".join(f"sys.modules[{m!r}] = None; " for m in modules)
    return subprocess.run(
        [sys.executable, "-c", f"import sys; {blocked}\n{code}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def error_line(proc: subprocess.CompletedProcess) -> str:
    lines = [line for line in proc.stderr.splitlines() if "MissingExtraError" in line]
    assert proc.returncode != 0 and lines, proc.stderr[-2000:]
    return lines[-1]


@pytest.mark.parametrize(
    "blocked, code, extra, words",
    [
        (["pandas"], "from ttr_lab.analysis.game_review import _pandas; _pandas()", "sim", "review needs pandas"),
        (
            ["plotly", "plotly.graph_objects"],
            "from ttr_lab.analysis import review_figure; review_figure(None)",
            "lab",
            "the review figure needs plotly",
        ),
        (["pandas"], "import ttr_lab.simulate", "sim", "ttr_lab.simulate needs pandas"),
        (["plotly"], "import ttr_lab.widgets", "lab", "the widgets needs plotly"),
        (["anywidget"], "import ttr_lab.widgets", "lab", "the widgets needs anywidget"),
        # ttr_lab.board itself draws SVGs without plotly: the plotly board is what needs it
        (
            ["plotly", "plotly.graph_objects"],
            "from ttr_lab.board import board_figure",
            "lab",
            "(ttr_lab.board) needs plotly",
        ),
        (["plotly", "plotly.graph_objects"], "import ttr_lab.board.plotly", "lab", "(ttr_lab.board) needs plotly"),
        (
            ["distributed"],
            "import ttr_lab.simulate.executors as x; x._probe = lambda *a: None\n"
            "with x.open_executor('tcp://127.0.0.1:1'): pass",
            "sim",
            "a scheduler address needs distributed",
        ),
    ],
)
def test_a_missing_package_names_its_extra_and_the_command(blocked, code, extra, words):
    line = error_line(run_without(blocked, code))
    assert words in line, line
    working_command(line, extra)


def test_the_tournament_command_without_pandas_says_how_to_install_it():
    proc = run_without(
        ["pandas"],
        "from ttr_lab.cli import main; sys.exit(main(['tournament', '--agents', 'random,greedy', '--games', '1']))",
    )
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "the tournament command needs" in out and "[sim] extra" in out, out[-2000:]
    working_command(out, "sim")
