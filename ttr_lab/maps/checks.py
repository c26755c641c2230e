"""A map file's checks: :func:`map_from_dict` turns parsed JSON into a
:class:`~ttr_lab.maps.Map`, or raises a :class:`~ttr_lab.errors.MapDataError`
naming the file, the entry and the problem (every message is described for
teachers in ``maps/README.md``).  Use it from :mod:`ttr_lab.maps`.
"""

from __future__ import annotations

import reprlib
import unicodedata
from collections.abc import Mapping
from typing import Any

from ..errors import MapDataError
from .model import COLORS, MAX_ROUTE_LENGTH, ROUTE_KINDS, City, Map, Route, Ticket

__all__ = ["map_from_dict"]


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
