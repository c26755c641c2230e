"""Maps as data: load and validate a map file into frozen objects.

A map file is human-readable JSON (one entry per line) that a teacher can copy
and edit to make a classroom map.  The shipped maps live in the project's
top-level ``maps/`` folder and are packaged as ``ttr_lab.maps.files``.

File format (``"format": "ttr_lab.map", "version": 1``)::

    {"format": "ttr_lab.map", "version": 1, "id": "usa", "name": "...",
     "cities":  [{"name": "Atlanta", "lat": 33.75, "lon": -84.39}, ...],
     "routes":  [{"id": 1, "a": "Atlanta", "b": "Charleston", "length": 2,
                  "color": "gray", "kind": "train", "locomotives": 0,
                  "double_of": null}, ...],
     "tickets": [{"id": 1, "a": "Boston", "b": "Miami", "points": 12,
                  "deck": "base"}, ...],
     "tours":   [{"id": 58, "cities": ["A", "B", "C"], "points_in_order": 9,
                  "points_any_order": 6, "points_failed": -15,
                  "deck": "world_tour"}]}

Cities may carry ``"harbor": true`` and ``"waypoint": true`` (Rails & Sails).
Routes may carry ``"paired": true`` (Rails & Sails rough terrain).  Route
kinds are ``train``, ``tunnel``, ``ferry`` and ``ship``; colours are
``red orange yellow green blue pink white black gray``.  A ferry is gray and
has 1..length locomotive spaces; parallel routes of the same kind of travel
(land or ship) are a double route marked with ``double_of`` on both.  Every
field and every validation message is described for teachers in
``maps/README.md``.

Files are read through :mod:`ttr_lab.io.safeio`: only regular files, at most
:data:`~ttr_lab.io.safeio.MAP_LIMIT` bytes, UTF-8, strict JSON (no ``NaN``, no
key repeated in one object, no absurd nesting or numbers).  Names (cities,
the cities a route or ticket names, decks, the map's id and name) must not be
blank, start or end with whitespace, or contain control characters.

Examples
--------
>>> from ttr_lab.maps import load_map
>>> usa = load_map("usa")
>>> len(usa.cities), len(usa.routes)
(36, 100)
>>> usa.route(1)
Route(id=1, a='Atlanta', b='Charleston', length=2, color='gray', kind='train', locomotives=0, double_of=None, paired=False)
>>> len(usa.deck("base"))
30
>>> len(usa.digest), usa.digest == load_map("usa").digest
(64, True)
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MapDataError
from ..io.safeio import MAP_LIMIT, loads_json, read_text
from .checks import _brief, _short, map_from_dict
from .model import COLORS, ROUTE_KINDS, City, Map, Route, Ticket

if TYPE_CHECKING:  # pragma: no cover
    from importlib.abc import Traversable

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
]


_CHECKOUT_MAPS = Path(__file__).resolve().parents[2] / "maps"


@lru_cache(maxsize=1)
def _maps_root() -> Traversable:
    """The folder of shipped maps: the package ``ttr_lab.maps.files`` when installed.

    Running from a plain checkout (no ``pip install``), ``ttr_lab.maps.files`` does
    not exist: pyproject.toml maps the top-level ``maps/`` folder to it only
    in a built package.  Then the checkout's ``maps/`` folder is used.
    """
    try:
        return resources.files("ttr_lab.maps.files")
    except ModuleNotFoundError:
        if not _CHECKOUT_MAPS.is_dir():
            raise MapDataError(
                "ttr_lab.maps.files",
                "package",
                f"the shipped maps are missing (no package ttr_lab.maps.files, no {_CHECKOUT_MAPS})",
            ) from None
        return _CHECKOUT_MAPS


def available_maps() -> tuple[str, ...]:
    """Names of the maps shipped with ttr_lab.

    >>> available_maps()
    ('europe', 'rails_and_sails_great_lakes', 'rails_and_sails_world', 'usa')
    """
    return tuple(sorted(p.name[:-5] for p in _maps_root().iterdir() if p.name.endswith(".json")))


@cache
def _load_shipped(name: str) -> Map:
    """A shipped map (cached: the shipped files do not change while running)."""
    source = f"maps/{name}.json"
    with resources.as_file(_maps_root().joinpath(f"{name}.json")) as path:
        text = read_text(path, limit=MAP_LIMIT, error=MapDataError, what="map file", name=source)
    return _parse_text(text, source)


def _parse_text(text: str, source: str) -> Map:
    return map_from_dict(loads_json(text, where=source, error=MapDataError), source)


def load_map(name_or_path: str | Path) -> Map:
    """Load a shipped map by name (``"usa"``) or any map file by path.

    A ``str`` is a shipped map's name unless it contains ``/`` or ``\\`` or
    ends in ``.json``; a :class:`~pathlib.Path` is always a file.  Shipped maps
    are cached, so loading one twice returns the same object.  A file is read
    afresh on every call (never cached by path, so edits show up), through
    :func:`ttr_lab.io.safeio.read_text`: it must be a regular UTF-8 file of at
    most :data:`~ttr_lab.io.safeio.MAP_LIMIT` bytes.

    Raises
    ------
    MapDataError
        Naming the file (or the unknown map name), the entry and the problem.
    """
    text = str(name_or_path)
    if isinstance(name_or_path, str) and not any(sep in text for sep in "/\\") and not text.endswith(".json"):
        if text not in available_maps():
            raise MapDataError(
                _brief(text), "map", f"no shipped map named {_short(text)} (have: {', '.join(available_maps())})"
            )
        return _load_shipped(text)
    path = Path(name_or_path)
    return _parse_text(read_text(path, limit=MAP_LIMIT, error=MapDataError, what="map file", name=str(path)), str(path))
