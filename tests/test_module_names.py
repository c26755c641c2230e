"""No module of the package is hidden behind a name its package binds to something else.

``import ttr_lab.x as m`` looks ``x`` up on the package, so a function of the
same name (as ``ttr_lab.scorer``, the widget opener, once hid ``ttr_lab/scorer.py``)
would hand back the function instead of the module.
"""

from __future__ import annotations

import importlib
import pkgutil
import types

import ttr_lab


def _modules() -> list[str]:
    """Every module of the package but ``__main__``; those whose optional
    dependencies (the extras) are missing here are left out."""
    names = []
    for info in pkgutil.walk_packages(ttr_lab.__path__, "ttr_lab.", onerror=lambda name: None):
        if info.name == "ttr_lab.__main__":
            continue
        try:
            importlib.import_module(info.name)
        except ModuleNotFoundError as e:
            if (e.name or "").startswith("ttr_lab"):
                raise
            continue
        names.append(info.name)
    return names


def test_the_walk_finds_the_package() -> None:
    names = _modules()
    assert "ttr_lab.engine.state" in names and "ttr_lab.analysis.advisor" in names
    assert len(names) > 50


def test_every_module_is_what_its_package_name_gives() -> None:
    shadowed = []
    for name in _modules():
        module = importlib.import_module(name)
        parent_name, _, leaf = name.rpartition(".")
        parent = importlib.import_module(parent_name)
        bound = getattr(parent, leaf, None)
        if bound is not module:
            shadowed.append(f"{name} (the package's {leaf!r} is {type(bound).__name__})")
    assert not shadowed, "modules hidden by a same-named attribute: " + ", ".join(shadowed)


def test_the_search_functions_keep_their_names() -> None:
    from ttr_lab.analysis import ismcts

    search = importlib.import_module("ttr_lab.analysis.ismcts_search")
    assert isinstance(search, types.ModuleType)
    assert ismcts is search.ismcts and callable(ismcts)
