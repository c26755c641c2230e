"""Run All goes through every lesson: no cell raises on purpose.

JupyterLab's Run All stops at the first cell that raises, even one tagged
``raises-exception`` (seen in JupyterLite's JupyterLab 4.6.4, tests/e2e/test_lite.py): a
student pressing Run All on lesson 01 stopped at its deliberate illegal move, and every
cell below it stayed unrun.  A lesson shows an error by catching it and printing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted(NOTEBOOKS.glob("student/*.ipynb"))


def test_there_are_lessons():
    assert len(LESSONS) >= 10


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_no_cell_raises_on_purpose(path: Path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    tagged = [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and "raises-exception" in cell.get("metadata", {}).get("tags", [])
    ]
    errors = [
        i
        for i, cell in enumerate(nb["cells"])
        if any(out.get("output_type") == "error" for out in cell.get("outputs", []))
    ]
    assert tagged == [] and errors == [], f"{path.name}: cells {tagged or errors} raise: Run All would stop there"
