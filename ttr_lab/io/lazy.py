"""A package's names imported the first time they are used (PEP 562), in one place.

``import ttr_lab`` stays fast and needs no optional extra because a package
names what it exports without importing it: its ``__getattr__`` asks
:func:`lazy_attribute` with a table of *name -> module*, and its
``__dir__`` lists the table too (:func:`lazy_dir`).  ``submodules=True``
also lets ``package.sub`` import the submodule ``sub`` when first named.
An unknown name raises :class:`AttributeError`, as ``hasattr``, ``copy``
and ``pickle`` expect of a module.

>>> import types
>>> pkg = types.ModuleType("demo")
>>> table = {"dumps": "json"}
>>> lazy_attribute(vars(pkg), table, "dumps").__name__
'dumps'
>>> "dumps" in vars(pkg), lazy_dir(vars(pkg), table)[-1]
(True, 'dumps')
>>> lazy_attribute(vars(pkg), table, "nope")
Traceback (most recent call last):
...
AttributeError: module 'demo' has no attribute 'nope'
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_attribute", "lazy_dir"]


def lazy_attribute(
    namespace: MutableMapping[str, Any], table: Mapping[str, str], name: str, *, submodules: bool = False
) -> Any:
    """The value of ``name`` for the package whose globals are ``namespace``:
    imported from ``table[name]`` (a module, absolute or relative to the
    package) and kept in ``namespace``, so the next access is a plain
    global; with ``submodules``, else the package's submodule ``name``."""
    package = namespace["__name__"]
    module = table.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value
    if submodules and not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}") is not None:
        return importlib.import_module(f"{package}.{name}")  # importing a submodule sets the attribute itself
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


def lazy_dir(namespace: Mapping[str, Any], table: Mapping[str, str]) -> list[str]:
    """What ``dir(package)`` lists: its globals and the names not yet imported."""
    return sorted({*namespace, *table})
