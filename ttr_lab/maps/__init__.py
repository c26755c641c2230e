"""Maps as data: the map files, their value objects, their checks, and boards as graphs.

=============  ====================================================================
``loading``    :func:`load_map`, :func:`available_maps`: a map file into frozen objects
``model``      :class:`City`, :class:`Route`, :class:`Ticket`, :class:`Map`
``checks``     a map file's checks, each error naming the entry (``maps/README.md``)
``graphs``     :func:`board_graph`, :func:`routes_graph`: a map as a networkx graph
``files``      the shipped map files (the repository's ``maps/`` folder)
=============  ====================================================================

The graphs (networkx) are imported when first named.

>>> from ttr_lab.maps import load_map
>>> len(load_map("usa").routes)
100
"""

from typing import Any

from ..io.lazy import lazy_attribute, lazy_dir
from .loading import COLORS, ROUTE_KINDS, City, Map, Route, Ticket, available_maps, load_map, map_from_dict

__all__ = [
    "COLORS",
    "ROUTE_KINDS",
    "City",
    "Route",
    "Ticket",
    "Map",
    "load_map",
    "map_from_dict",
    "available_maps",
    "board_graph",
    "routes_graph",
    "as_map",
    "route_attributes",
]

#: names imported the first time they are used (PEP 562): an optional extra, or networkx
_LAZY = {"board_graph": ".graphs", "routes_graph": ".graphs", "as_map": ".graphs", "route_attributes": ".graphs"}


def __getattr__(name: str) -> Any:
    return lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return lazy_dir(globals(), _LAZY)
