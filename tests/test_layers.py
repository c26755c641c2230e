"""The import contracts in pyproject.toml are a design, and they bite (issue 21 D).

The layers cover every module of ``ttr_lab`` (subpackages included), and an import that breaks
the design is reported: a planted upward import (the board importing the analysis), an import of
an edition's package from outside ``ttr_lab.editions``, and one edition importing another.  The
plants go into a copy of the package in a temporary folder; the checkout is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ttr_lab"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed ([test] extra)")


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def _layers() -> list[str]:
    (layers,) = [c for c in _contracts() if c["type"] == "layers"]
    return [name.strip() for layer in layers["layers"] for name in layer.replace(":", "|").split("|")]


def test_every_module_sits_in_a_layer():
    (layers,) = [c for c in _contracts() if c["type"] == "layers"]
    assert layers["containers"] == ["ttr_lab"]
    assert layers.get("exhaustive") is True
    assert "ignore_imports" not in layers
    names = set(_layers())
    children = {p.stem for p in PACKAGE.glob("*.py")} | {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    children -= {"__init__", "__main__"}
    assert children == names, f"modules outside a layer: {sorted(children - names)}; stale: {sorted(names - children)}"
    assert not any("ignore_imports" in c for c in _contracts())


def _lint(tmp_path: Path) -> str:
    """Run lint-imports on a copy of the package (with the plants), with the project's contracts."""
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],  # the copy's pyproject.toml, found in cwd
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    return result.stdout + result.stderr


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(PACKAGE, tmp_path / "ttr_lab", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.h"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path / "ttr_lab"


def _plant(path: Path, line: str) -> None:
    text = path.read_text()
    head, sep, rest = text.partition("\nfrom __future__ import annotations\n")
    if sep:  # after the __future__ import, which must come first
        path.write_text(head + sep + line + "\n" + rest)
    else:
        path.write_text(line + "\n" + text)


def test_the_contracts_hold_and_a_planted_import_breaks_each(tmp_path):
    copy = _copy(tmp_path)
    out = _lint(tmp_path)
    assert "Layers import only downward KEPT" in out, out
    assert "Nothing outside ttr_lab.editions imports an edition's package KEPT" in out, out
    assert "Editions are independent of each other KEPT" in out, out

    _plant(copy / "board" / "geometry.py", "import ttr_lab.analysis  # noqa")  # upward: board -> analysis
    _plant(copy / "analysis" / "paths.py", "import ttr_lab.editions.europe  # noqa")  # an edition's package
    _plant(copy / "editions" / "usa" / "globetrotter.py", "import ttr_lab.editions.europe.marks  # noqa")
    out = _lint(tmp_path)
    assert "Layers import only downward BROKEN" in out, out
    assert "ttr_lab.board.geometry -> ttr_lab.analysis" in out, out
    assert "Nothing outside ttr_lab.editions imports an edition's package BROKEN" in out, out
    assert "ttr_lab.analysis.paths -> ttr_lab.editions.europe" in out, out
    assert "Editions are independent of each other BROKEN" in out, out
