"""Editions: one :class:`Edition` subclass per game system, found by name.

>>> from ttr_lab.editions import find_edition
>>> find_edition("big_cities")
find_edition('usa', variant='big_cities')
"""

from .base import EDITIONS, Edition, edition_names, find_edition, register_edition
from .usa import USA
from .europe import Europe
from .rails_sails import GreatLakes, RailsSails

__all__ = ["Edition", "USA", "Europe", "RailsSails", "GreatLakes", "find_edition", "register_edition", "edition_names", "EDITIONS"]
