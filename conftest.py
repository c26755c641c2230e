"""Root pytest configuration: the package's doctests without the optional extras.

pytest collects the doctests of every module of ``ttr_lab``; a module that
imports an optional dependency at the top (plotly, ipywidgets, anywidget:
the ``[lab]`` extra) is left out when that dependency is not installed, so
``pytest`` runs with networkx alone.  The tests' own options live in
``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

_OPTIONAL = re.compile(r"^(?:import|from)\s+(plotly|ipywidgets|anywidget|traitlets|pandas|dask|tqdm)\b", re.M)


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


def pytest_ignore_collect(collection_path: Path, config: object) -> bool | None:
    if collection_path.suffix != ".py" or "ttr_lab" not in collection_path.parts:
        return None
    try:
        text = collection_path.read_text(encoding="utf-8")
    except OSError:
        return None
    needs = set(_OPTIONAL.findall(text))
    if "widgets" in collection_path.parts:  # importing any widget module imports the package's widgets
        needs |= {"plotly", "ipywidgets", "anywidget"}
    return True if any(_missing(m) for m in needs) else None
