"""``import ttr_lab`` loads neither networkx nor the analysis, the bots or the editions until they
are used (issue 21 D, issue 22 point 3: in Pyodide networkx is most of a 11-14 s import).

Each check runs in a fresh interpreter (what a module imported before would hide), on the
checkout this file belongs to.  The time it takes is in ``benchmarks/README.md``
(``python -X importtime``), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what a game and its scoring must not need
HEAVY = ("networkx", "plotly", "ipywidgets", "pandas", "numpy", "IPython")
LATER = (
    "ttr_lab.analysis",
    "ttr_lab.bots",
    "ttr_lab.bots.fdg",
    "ttr_lab.bots.playout",
    "ttr_lab.widgets",
    "ttr_lab.board.plotly",
)


def fresh(code: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONNOUSERSITE="1", PYTHONPATH=str(ROOT))
    prelude = (
        "import json, sys\n"
        "def loaded(*prefixes):\n"
        "    return sorted(m for m in sys.modules if m in prefixes or m.startswith(tuple(p + '.' for p in prefixes)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", prelude + code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_ttr_lab_loads_no_heavy_module_and_no_edition():
    out = fresh(
        "import ttr_lab\n"
        f"print(json.dumps({{'heavy': loaded(*{HEAVY!r}), 'later': loaded(*{LATER!r}), "
        "'editions': loaded('ttr_lab.editions'), 'file': ttr_lab.__file__}))\n"
    )
    assert Path(out["file"]).resolve().parent == ROOT / "ttr_lab"
    assert out == {**out, "heavy": [], "later": [], "editions": []}


GAME = """
import random
import ttr_lab
g = ttr_lab.new_game({edition!r}, players=3, seed=1)
after_new = loaded(*{heavy!r}, *{later!r})
rng = random.Random(1)
while not g.is_over:
    moves = g.legal_moves
    g.push(moves[rng.randrange(len(moves))])
outcome = g.outcome()
view = g.view(1)
print(json.dumps({{"new": after_new, "played": loaded(*{heavy!r}, *{later!r}), "over": g.is_over,
                  "scores": list(outcome.scores), "editions": loaded("ttr_lab.editions")}}))
"""


@pytest.mark.parametrize("edition", ["usa", "1910", "europe", "rails_and_sails", "great_lakes"])
def test_a_random_game_played_to_the_end_and_scored_needs_no_networkx(edition):
    out = fresh(GAME.format(edition=edition, heavy=HEAVY, later=LATER))
    assert out["new"] == [] and out["played"] == [] and out["over"] and len(out["scores"]) == 3
    own = {"usa": "usa", "1910": "usa", "europe": "europe"}.get(edition, "rails_sails")
    assert {m.split(".")[2] for m in out["editions"] if m.count(".") > 1} == {own}  # only the edition played


def test_the_public_names_are_there_when_used():
    out = fresh(
        "import ttr_lab\n"
        "names = {n: type(getattr(ttr_lab, n)).__name__ for n in ttr_lab.__all__}\n"
        "g = ttr_lab.new_game('europe', players=2, seed=1)\n"
        "extra = [ttr_lab.analysis.advise.__name__, ttr_lab.bots.make_bot('greedy').__class__.__name__,\n"
        "         ttr_lab.engine.reference.__name__, ttr_lab.BuildStation.verb, str(ttr_lab.parse_move('harbor Roma red:1'))]\n"
        "print(json.dumps({'names': names, 'dir': sorted(set(ttr_lab.__all__) - set(dir(ttr_lab))),\n"
        "                  'extra': extra, 'nx': loaded('networkx')}))\n"
    )
    assert out["dir"] == []
    assert out["names"]["score"] == "function" and out["names"]["BuildHarbor"] == "type"
    assert out["extra"] == ["advise", "GreedyBot", "ttr_lab.engine.reference", "station", "harbor Roma red:1"]
    assert "networkx" in out["nx"]  # the analysis does use it


def test_an_edition_move_is_read_before_its_edition_is_used():
    """The notation of every registered edition is known: parse_move loads them when a verb is new."""
    out = fresh(
        "import ttr_lab\n"
        "before = loaded('ttr_lab.editions')\n"
        "move = ttr_lab.parse_move('station Roma red:1')\n"
        "print(json.dumps({'before': before, 'move': type(move).__name__}))\n"
    )
    assert out == {"before": [], "move": "BuildStation"}


def test_an_unknown_name_is_an_attribute_error():
    import ttr_lab

    with pytest.raises(AttributeError, match="has no attribute 'no_such_thing'"):
        ttr_lab.no_such_thing  # noqa: B018
    assert not hasattr(ttr_lab, "_private_thing")


#: the optional extras' packages: importing one inside a function is how an extra stays optional
EXTRA_PACKAGES = {"plotly", "ipywidgets", "anywidget", "traitlets", "IPython", "pandas", "tqdm", "dask", "distributed"}
#: the other imports inside a function, each with its reason (issue 21 D: lazy imports only for
#: optional extras and display hooks); a display hook is a ``_repr_*_`` method or ``mimebundle``
ALLOWED = {
    ("__init__.py", "play"): "ttr_lab.widgets: the [lab] extra",
    ("__init__.py", "tutorial"): "ttr_lab.widgets: the [lab] extra",
    ("__init__.py", "scorer"): "ttr_lab.widgets: the [lab] extra",
    ("__init__.py", "recorder"): "ttr_lab.widgets: the [lab] extra",
    ("cli/commands.py", "_tournament"): "ttr_lab.simulate: the [sim] extra",
    ("io/registries.py", "_entry_points"): "importlib.metadata: tens of ms, only when entry points are read",
    ("widgets/playing/tabs.py", "_make_advisor"): "the analysis, only when the Advisor tab is asked for",
}


def test_lazy_imports_are_for_extras_and_display_hooks_only():
    import ast

    found = []
    for path in sorted((ROOT / "ttr_lab").rglob("*.py")):
        rel = path.relative_to(ROOT / "ttr_lab").as_posix()
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            display = fn.name == "mimebundle" or (fn.name.startswith("_repr_") and fn.name.endswith("_"))
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    modules = ["." * node.level + (node.module or "")]
                else:
                    continue
                if display or (rel, fn.name) in ALLOWED or all(m.split(".")[0] in EXTRA_PACKAGES for m in modules):
                    continue
                found.append(f"ttr_lab/{rel}:{node.lineno} {fn.name}: {', '.join(modules)}")
    assert found == [], "imports inside functions that could be at the top of their module"


def test_an_edition_phase_is_found_before_its_edition_is_used():
    """Rails & Sails' SETUP_PIECES and Europe's TUNNEL are registered by their editions' rules:
    asking for one loads the registered editions first (as an unknown move verb does)."""
    out = fresh(
        "import pickle\n"
        "from ttr_lab import Phase\n"
        "before = loaded('ttr_lab.editions')\n"
        "pieces, tunnel = Phase.SETUP_PIECES, Phase.named('tunnel')\n"
        "print(json.dumps({'before': before, 'names': [pieces.name, tunnel.name, Phase.of(int(tunnel)).name],\n"
        "                  'pickled': pickle.loads(pickle.dumps(pieces)) is pieces, 'nope': hasattr(Phase, 'NOPE')}))\n"
    )
    assert out == {"before": [], "names": ["SETUP_PIECES", "TUNNEL", "TUNNEL"], "pickled": True, "nope": False}
