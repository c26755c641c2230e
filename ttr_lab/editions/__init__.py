"""Editions: one package per game system, found by name.

Each package subclasses :class:`~ttr_lab.engine.rules.Edition` and mixes in its own
rules (one module per rule).  Importing a package registers nothing: the
registry (:data:`~ttr_lab.engine.rules.registry.EDITIONS`) names the built-in
editions as lazy entries (``"usa"`` is ``ttr_lab.editions.usa:USA``), so an
edition's package is imported the first time the edition is asked for.  A
new edition is a new package, here or installed apart (see
``CONTRIBUTING.md``); the classes below are imported when first named.

>>> from ttr_lab.editions import find_edition
>>> find_edition("big_cities")
find_edition('usa', variant='big_cities')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.rules import EDITIONS, Edition, edition_names, find_edition, register_edition
from ..io.lazy import lazy_attribute, lazy_dir

if TYPE_CHECKING:  # pragma: no cover
    from .europe import Europe
    from .rails_sails import GreatLakes, RailsSails
    from .usa import USA

__all__ = [
    "Edition",
    "USA",
    "Europe",
    "RailsSails",
    "GreatLakes",
    "find_edition",
    "register_edition",
    "edition_names",
    "EDITIONS",
]

#: the built-in editions' classes, imported when first named (PEP 562)
_CLASSES = {"USA": ".usa", "Europe": ".europe", "RailsSails": ".rails_sails", "GreatLakes": ".rails_sails"}


def __getattr__(name: str) -> Any:
    return lazy_attribute(globals(), _CLASSES, name)


def __dir__() -> list[str]:
    return lazy_dir(globals(), _CLASSES)
