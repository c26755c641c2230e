"""Shared pytest configuration.

* ``--runslow`` runs the tests marked ``slow`` (they build clean virtual
  environments from PyPI: packaging and Binder).  ``make test`` and CI pass it;
  a quick local ``pytest`` leaves them out.
* Test modules whose optional dependencies are missing are not collected,
  so the core tests run with networkx alone.
"""

from __future__ import annotations

import importlib.util

import pytest


def _missing(*modules: str) -> bool:
    return any(importlib.util.find_spec(m) is None for m in modules)


# modules that need the [lab] extra (plotly, ipywidgets, anywidget)
_LAB_TESTS = ["test_render.py", "test_widgets.py", "test_widgets_editions.py", "e2e"]
collect_ignore = _LAB_TESTS if _missing("plotly", "ipywidgets", "anywidget") else []
if _missing("hypothesis"):
    collect_ignore.append("test_properties.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="also run the tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (make test does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
