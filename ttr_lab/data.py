"""Maps as data: load and validate a map file into frozen objects.

A map file is human-readable JSON (one entry per line) that a teacher can copy
and edit to make a classroom map.  The shipped maps live in the project's
top-level ``maps/`` folder and are packaged as ``ttr_lab.maps``.

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

Files are read through :mod:`ttr_lab.safeio`: only regular files, at most
:data:`~ttr_lab.safeio.MAP_LIMIT` bytes, UTF-8, strict JSON (no ``NaN``, no
key repeated in one object, no absurd nesting or numbers).  Names (cities,
the cities a route or ticket names, decks, the map's id and name) must not be
blank, start or end with whitespace, or contain control characters.

Examples
--------
>>> from ttr_lab.data import load_map
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

import hashlib
import json
import reprlib
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import MapDataError, NotFoundError
from .safeio import MAP_LIMIT, loads_json, read_text

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

COLORS = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "gray")
ROUTE_KINDS = ("train", "tunnel", "ferry", "ship")
MAX_ROUTE_LENGTH = 9


@dataclass(frozen=True)
class City:
    """A city (or a waypoint) with its real-world coordinates."""

    name: str
    lat: float
    lon: float
    harbor: bool = False
    waypoint: bool = False


@dataclass(frozen=True)
class Route:
    """A route between two cities.  A double route is two Route objects."""

    id: int
    a: str
    b: str
    length: int
    color: str
    kind: str = "train"
    locomotives: int = 0
    double_of: int | None = None
    paired: bool = False

    @property
    def ends(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def is_ship(self) -> bool:
        return self.kind == "ship"

    def label(self) -> str:
        """``"Atlanta-Charleston"``: the two ends joined by a dash."""
        return f"{self.a}-{self.b}"


@dataclass(frozen=True)
class Ticket:
    """A destination ticket (two cities) or a tour ticket (three or more).

    ``points`` is the value when completed (in order, for tours); a two-city
    ticket that fails costs ``points``.  Tours carry ``points_any_order`` and
    ``points_failed`` (negative).
    """

    id: int
    cities: tuple[str, ...]
    points: int
    deck: str
    points_any_order: int | None = None
    points_failed: int | None = None

    @property
    def is_tour(self) -> bool:
        return len(self.cities) > 2

    @property
    def a(self) -> str:
        return self.cities[0]

    @property
    def b(self) -> str:
        return self.cities[-1]

    @property
    def penalty(self) -> int:
        """Points lost when the ticket is not completed (a positive number)."""
        return -self.points_failed if self.points_failed is not None else self.points

    def label(self) -> str:
        return "-".join(self.cities)


@dataclass(frozen=True)
class Map:
    """A whole map: cities, routes and tickets, validated.

    :attr:`digest` identifies the content, so caches can be keyed by it: an
    edited copy of a map never passes for the original, whatever its file name.
    """

    id: str
    name: str
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    source: str = "<dict>"
    _city: Mapping[str, City] = field(init=False, repr=False, compare=False)
    _route: Mapping[int, Route] = field(init=False, repr=False, compare=False)
    _ticket: Mapping[int, Ticket] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_city", {c.name: c for c in self.cities})
        object.__setattr__(self, "_route", {r.id: r for r in self.routes})
        object.__setattr__(self, "_ticket", {t.id: t for t in self.tickets})

    @cached_property
    def digest(self) -> str:
        """SHA-256 (hex) of the map's content: id, name, cities, routes, tickets.

        Canonical JSON of the validated objects (sorted keys, fixed
        separators), so two loads of the same content agree whatever the
        file's layout, while any change to a city, route or ticket, or to
        the order of the tickets (which the shuffles see), changes it.
        :attr:`source` is not part of it.
        """
        content = {
            "format": "ttr_lab.map",
            "version": 1,
            "id": self.id,
            "name": self.name,
            "cities": [asdict(c) for c in self.cities],
            "routes": [asdict(r) for r in self.routes],
            "tickets": [asdict(t) for t in self.tickets],
        }
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        """The map in the file format (``map_from_dict(m.to_dict())`` gives the same map).

        >>> m = load_map("usa")
        >>> map_from_dict(m.to_dict()).digest == m.digest
        True
        """

        def city(c: City) -> dict[str, Any]:
            d: dict[str, Any] = {"name": c.name, "lat": c.lat, "lon": c.lon}
            d.update({k: True for k in ("harbor", "waypoint") if getattr(c, k)})
            return d

        def route(r: Route) -> dict[str, Any]:
            d: dict[str, Any] = {"id": r.id, "a": r.a, "b": r.b, "length": r.length, "color": r.color, "kind": r.kind}
            if r.locomotives:
                d["locomotives"] = r.locomotives
            if r.double_of is not None:
                d["double_of"] = r.double_of
            if r.paired:
                d["paired"] = True
            return d

        out: dict[str, Any] = {
            "format": "ttr_lab.map",
            "version": 1,
            "id": self.id,
            "name": self.name,
            "cities": [city(c) for c in self.cities],
            "routes": [route(r) for r in self.routes],
            "tickets": [
                {"id": k.id, "a": k.a, "b": k.b, "points": k.points, "deck": k.deck}
                for k in self.tickets
                if not k.is_tour
            ],
        }
        tours = [
            {
                "id": k.id,
                "cities": list(k.cities),
                "points_in_order": k.points,
                "points_any_order": k.points_any_order,
                "points_failed": k.points_failed,
                "deck": k.deck,
            }
            for k in self.tickets
            if k.is_tour
        ]
        if tours:
            out["tours"] = tours
        return out

    def city(self, name: str) -> City:
        return self._city[name]

    def route(self, route_id: int) -> Route:
        return self._route[route_id]

    def ticket(self, ticket_id: int) -> Ticket:
        return self._ticket[ticket_id]

    def has_city(self, name: str) -> bool:
        return name in self._city

    def has_route(self, route_id: int) -> bool:
        return route_id in self._route

    def has_ticket(self, ticket_id: int) -> bool:
        return ticket_id in self._ticket

    def deck(self, name: str) -> tuple[Ticket, ...]:
        """The tickets of one deck, in file order."""
        return tuple(t for t in self.tickets if t.deck == name)

    @property
    def decks(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.deck for t in self.tickets))

    def routes_between(self, a: str, b: str) -> tuple[Route, ...]:
        return tuple(r for r in self.routes if {r.a, r.b} == {a, b})

    def find_route(self, text: str) -> Route:
        """Find a route by id (``"57"``) or by ends (``"Seattle-Portland"``).

        Ends may be given in either order; for a double route the lower id
        comes first, and ``"Seattle-Portland/2"`` picks the second.
        """
        text = text.strip()
        if text.isdigit() and int(text) in self._route:
            return self._route[int(text)]
        base, _, nth = text.partition("/")
        for sep in ("-", "–"):
            parts = base.split(sep)
            for i in range(1, len(parts)):
                a, b = sep.join(parts[:i]).strip(), sep.join(parts[i:]).strip()
                found = self.routes_between(a, b)
                if found:
                    k = int(nth) - 1 if nth.isdigit() else 0
                    if 0 <= k < len(found):
                        return found[k]
        raise NotFoundError(f"no route {text!r} on map {self.id}")


def _fail(source: str, entry: str, problem: str) -> MapDataError:
    return MapDataError(source, entry, problem)


_CITY_FIELDS = {"name": str, "lat": (int, float), "lon": (int, float)}
_CITY_OPTIONAL = {"harbor": bool, "waypoint": bool}
_ROUTE_FIELDS = {"id": int, "a": str, "b": str, "length": int, "color": str, "kind": str}
_ROUTE_OPTIONAL = {"locomotives": int, "double_of": (int, type(None)), "paired": bool}
_TICKET_FIELDS = {"id": int, "a": str, "b": str, "points": int, "deck": str}
_TOUR_FIELDS = {
    "id": int,
    "cities": list,
    "points_in_order": int,
    "points_any_order": int,
    "points_failed": int,
    "deck": str,
}


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = 80


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters so a message stays readable.

    Big or deep values are not rendered in full first (:mod:`reprlib`).
    """
    text = repr(value[: limit + 1]) if isinstance(value, str) else _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _brief(value: Any, limit: int = 60) -> str:
    """``str(value)`` cut like :func:`_short`: for naming entries."""
    text = value if isinstance(value, str) else _short(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# Bidirectional embedding, override and isolate controls reorder what is shown.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _name_problem(value: str, what: str) -> str | None:
    """Why ``value`` is not a usable name (``what`` says which), or None.

    >>> _name_problem(" Dover", "city name")
    "city name ' Dover' has leading or trailing whitespace"
    >>> _name_problem("Do\\nver", "name")
    "name 'Do\\\\nver' contains a control character (U+000A)"
    >>> _name_problem("  ", "deck name"), _name_problem("Zürich", "name")
    ('empty deck name', None)
    """
    if not value.strip():
        return f"empty {what}"
    if value != value.strip():
        return f"{what} {_short(value)} has leading or trailing whitespace"
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            return f"{what} {_short(value)} contains a control character (U+{ord(ch):04X})"
    return None


def _check_fields(
    source: str, entry: str, obj: Any, required: Mapping[str, Any], optional: Mapping[str, Any] | None = None
) -> None:
    if not isinstance(obj, dict):
        raise _fail(source, entry, f"expected an object, got {type(obj).__name__}")
    optional = optional or {}
    for key, typ in required.items():
        if key not in obj:
            raise _fail(source, entry, f"missing field {key!r}")
        if not _is(obj[key], typ):
            raise _fail(source, entry, f"field {key!r} has wrong type: {_short(obj[key])}")
    for key, value in obj.items():
        if key in required:
            continue
        if key not in optional:
            allowed = ", ".join([*required, *optional])
            raise _fail(source, entry, f"unknown field {_short(key)} (allowed: {allowed})")
        if not _is(value, optional[key]):
            raise _fail(source, entry, f"field {key!r} has wrong type: {_short(value)}")


def _is(value: Any, typ: Any) -> bool:
    if isinstance(value, bool) and typ in (int, (int, float), (int, type(None))):
        return False
    return isinstance(value, typ)


def map_from_dict(data: Mapping[str, Any], source: str = "<dict>") -> Map:
    """Validate a decoded map file and build a :class:`Map`.

    Raises :class:`~ttr_lab.errors.MapDataError` naming ``source``, the entry
    and the problem.

    >>> map_from_dict({"format": "ttr_lab.map", "version": 1, "id": "x", "name": "x",
    ...     "cities": [{"name": "A", "lat": 0, "lon": 0}],
    ...     "routes": [{"id": 1, "a": "A", "b": "B", "length": 1, "color": "red",
    ...                 "kind": "train"}], "tickets": []}, "x.json")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: x.json: route 1 (A-B): unknown city 'B'
    """
    _check_fields(
        source,
        "header",
        data,
        {"format": str, "version": int, "id": str, "name": str, "cities": list, "routes": list, "tickets": list},
        {"about": str, "tours": list},
    )
    if data["format"] != "ttr_lab.map":
        raise _fail(source, "header", f"format must be 'ttr_lab.map', not {_short(data['format'])}")
    if data["version"] != 1:
        raise _fail(source, "header", f"unsupported version {_short(data['version'])} (this ttr_lab reads version 1)")
    for key in ("id", "name"):
        problem = _name_problem(data[key], key)
        if problem:
            raise _fail(source, "header", problem)

    def check_name(entry: str, value: str, what: str) -> None:
        problem = _name_problem(value, what)
        if problem:
            raise _fail(source, entry, problem)

    cities: list[City] = []
    names: set[str] = set()
    for i, c in enumerate(data["cities"]):
        entry = f"city #{i + 1}" + (f" ({_brief(c.get('name'))})" if isinstance(c, dict) and "name" in c else "")
        _check_fields(source, entry, c, _CITY_FIELDS, _CITY_OPTIONAL)
        check_name(entry, c["name"], "name")
        if c["name"] in names:
            raise _fail(source, entry, f"duplicate city name {_short(c['name'])}")
        if not (-90 <= c["lat"] <= 90) or not (-180 <= c["lon"] <= 180):
            raise _fail(source, entry, f"coordinates out of range: lat={_brief(c['lat'])}, lon={_brief(c['lon'])}")
        if c.get("waypoint") and c.get("harbor"):
            raise _fail(source, entry, "a waypoint cannot be a harbor city")
        names.add(c["name"])
        cities.append(
            City(c["name"], float(c["lat"]), float(c["lon"]), c.get("harbor", False), c.get("waypoint", False))
        )

    routes: list[Route] = []
    ids: set[int] = set()
    for i, r in enumerate(data["routes"]):
        entry = f"route #{i + 1}"
        if isinstance(r, dict) and "id" in r:
            entry = f"route {_brief(r['id'])}" + (
                f" ({_brief(r.get('a'))}-{_brief(r.get('b'))})" if "a" in r and "b" in r else ""
            )
        _check_fields(source, entry, r, _ROUTE_FIELDS, _ROUTE_OPTIONAL)
        if r["id"] in ids:
            raise _fail(source, entry, f"duplicate route id {_brief(r['id'])}")
        ids.add(r["id"])
        for end in ("a", "b"):
            check_name(entry, r[end], "city name")
            if r[end] not in names:
                raise _fail(source, entry, f"unknown city {_short(r[end])}")
        if r["a"] == r["b"]:
            raise _fail(source, entry, "a route must join two different cities")
        if not 1 <= r["length"] <= MAX_ROUTE_LENGTH:
            raise _fail(source, entry, f"bad length {_brief(r['length'])} (must be 1..{MAX_ROUTE_LENGTH})")
        if r["color"] not in COLORS:
            raise _fail(source, entry, f"bad colour {_short(r['color'])} (one of {', '.join(COLORS)})")
        if r["kind"] not in ROUTE_KINDS:
            raise _fail(source, entry, f"bad kind {_short(r['kind'])} (one of {', '.join(ROUTE_KINDS)})")
        locos = r.get("locomotives", 0)
        if r["kind"] == "ferry":
            if r["color"] != "gray":
                raise _fail(source, entry, f"a ferry must be gray, not {r['color']!r}")
            if not 1 <= locos <= r["length"]:
                raise _fail(source, entry, f"a ferry needs 1..{r['length']} locomotive spaces, not {_brief(locos)}")
        elif locos:
            raise _fail(source, entry, f"only ferries have locomotive spaces (got {_brief(locos)})")
        if r.get("paired") and (r["kind"] != "train" or r["color"] != "gray"):
            raise _fail(source, entry, "a paired route must be a gray train route")
        routes.append(
            Route(
                r["id"],
                r["a"],
                r["b"],
                r["length"],
                r["color"],
                r["kind"],
                locos,
                r.get("double_of"),
                r.get("paired", False),
            )
        )
    by_id = {r.id: r for r in routes}
    for r in routes:
        if r.double_of is None:
            continue
        entry = f"route {r.id} ({r.a}-{r.b})"
        other = by_id.get(r.double_of)
        if other is None:
            raise _fail(source, entry, f"double_of names unknown route {_brief(r.double_of)}")
        if other.id == r.id:
            raise _fail(source, entry, "double_of points to the route itself")
        if {other.a, other.b} != {r.a, r.b}:
            raise _fail(source, entry, f"double_of {r.double_of} does not join the same two cities")
        if other.is_ship != r.is_ship:
            raise _fail(
                source, entry, f"double_of {r.double_of}: a train route and a ship route are never a double route"
            )
        if other.double_of != r.id:
            raise _fail(source, entry, f"route {other.id} does not point back with double_of {r.id}")
    parallel: dict[tuple[frozenset[str], bool], list[Route]] = {}
    for r in routes:
        parallel.setdefault((frozenset(r.ends), r.is_ship), []).append(r)
    for group in parallel.values():
        if len(group) < 2:
            continue
        first, second = group[0], group[1]
        entry = f"route {second.id} ({second.a}-{second.b})"
        if len(group) > 2:
            ids_text = ", ".join(str(r.id) for r in group)
            raise _fail(source, entry, f"routes {ids_text} join the same two cities; a map has at most a double route")
        if second.double_of is None:
            raise _fail(
                source,
                entry,
                f"joins the same two cities as route {first.id}; mark a double route with double_of on both",
            )

    tickets: list[Ticket] = []
    tids: set[int] = set()
    waypoints = {c.name for c in cities if c.waypoint}

    def check_city(entry: str, name: str) -> None:
        check_name(entry, name, "city name")
        if name not in names:
            raise _fail(source, entry, f"unknown city {_short(name)}")
        if name in waypoints:
            raise _fail(source, entry, f"{_short(name)} is a waypoint; no ticket may name it")

    for i, t in enumerate(data["tickets"]):
        entry = f"ticket {_brief(t['id'])}" if isinstance(t, dict) and "id" in t else f"ticket #{i + 1}"
        _check_fields(source, entry, t, _TICKET_FIELDS)
        if t["id"] in tids:
            raise _fail(source, entry, f"duplicate ticket id {_brief(t['id'])}")
        tids.add(t["id"])
        check_city(entry, t["a"])
        check_city(entry, t["b"])
        if t["a"] == t["b"]:
            raise _fail(source, entry, "a ticket must name two different cities")
        if t["points"] <= 0:
            raise _fail(source, entry, f"points must be positive, not {_brief(t['points'])}")
        check_name(entry, t["deck"], "deck name")
        tickets.append(Ticket(t["id"], (t["a"], t["b"]), t["points"], t["deck"]))
    for i, t in enumerate(data.get("tours", [])):
        entry = f"tour {_brief(t['id'])}" if isinstance(t, dict) and "id" in t else f"tour #{i + 1}"
        _check_fields(source, entry, t, _TOUR_FIELDS)
        if t["id"] in tids:
            raise _fail(source, entry, f"duplicate ticket id {_brief(t['id'])}")
        tids.add(t["id"])
        for name in t["cities"]:
            if not isinstance(name, str):
                raise _fail(source, entry, f"city {_short(name)} is not a string")
        if len(t["cities"]) < 3 or len(set(t["cities"])) != len(t["cities"]):
            raise _fail(source, entry, "a tour names three or more different cities")
        for name in t["cities"]:
            check_city(entry, name)
        if not t["points_in_order"] >= t["points_any_order"] > 0 > t["points_failed"]:
            raise _fail(source, entry, "values must satisfy in_order >= any_order > 0 > failed")
        check_name(entry, t["deck"], "deck name")
        tickets.append(
            Ticket(
                t["id"], tuple(t["cities"]), t["points_in_order"], t["deck"], t["points_any_order"], t["points_failed"]
            )
        )
    return Map(data["id"], data["name"], tuple(cities), tuple(routes), tuple(tickets), source)


_CHECKOUT_MAPS = Path(__file__).resolve().parent.parent / "maps"


@lru_cache(maxsize=1)
def _maps_root() -> Traversable:
    """The folder of shipped maps: the package ``ttr_lab.maps`` when installed.

    Running from a plain checkout (no ``pip install``), ``ttr_lab.maps`` does
    not exist: pyproject.toml maps the top-level ``maps/`` folder to it only
    in a built package.  Then the checkout's ``maps/`` folder is used.
    """
    try:
        return resources.files("ttr_lab.maps")
    except ModuleNotFoundError:
        if not _CHECKOUT_MAPS.is_dir():
            raise MapDataError(
                "ttr_lab.maps",
                "package",
                f"the shipped maps are missing (no package ttr_lab.maps, no {_CHECKOUT_MAPS})",
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
    :func:`ttr_lab.safeio.read_text`: it must be a regular UTF-8 file of at
    most :data:`~ttr_lab.safeio.MAP_LIMIT` bytes.

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
