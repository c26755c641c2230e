"""Editions: one package per game system, found by name.

Each package subclasses :class:`~ttr_lab.core.Edition`, mixes in its own
rules (one module per rule) and registers itself with
:func:`~ttr_lab.core.register_edition`.  Importing this package registers
the built-in editions; a new edition is a new package here (see
``CONTRIBUTING.md``).

>>> from ttr_lab.editions import find_edition
>>> find_edition("big_cities")
find_edition('usa', variant='big_cities')
"""

from ..core import EDITIONS, Edition, edition_names, find_edition, register_edition
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
