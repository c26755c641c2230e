"""The map's value objects: :class:`City`, :class:`Route`, :class:`Ticket`
and :class:`Map` (frozen), with the colours and kinds of route a map may use.
Loading and checking a map file is in :mod:`ttr_lab.maps`
(:mod:`ttr_lab.maps.checks` holds the checks); import these from there.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from ..errors import NotFoundError, WrongTypeError
from ..io.numerals import is_numeral

__all__ = ["COLORS", "ROUTE_KINDS", "MAX_ROUTE_LENGTH", "City", "Route", "Ticket", "Map"]

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

        >>> from ttr_lab.maps import load_map, map_from_dict
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
        try:
            return self._city[name]
        except (KeyError, TypeError):
            raise NotFoundError(f"there is no city {str(name)[:60]!r} on the {self.id} map") from None

    def route(self, route_id: int) -> Route:
        try:
            return self._route[route_id]
        except (KeyError, TypeError):
            raise NotFoundError(
                f"there is no route {str(route_id)[:40]} on the {self.id} map "
                "(routes are numbered; find_route('Seattle-Portland') looks one up by its ends)"
            ) from None

    def ticket(self, ticket_id: int) -> Ticket:
        try:
            return self._ticket[ticket_id]
        except (KeyError, TypeError):
            raise NotFoundError(f"there is no ticket {str(ticket_id)[:40]} on the {self.id} map") from None

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
        """The routes joining cities ``a`` and ``b`` (none, one, or a double);
        a city not on the map raises NotFoundError."""
        for c in (a, b):
            self.city(c)
        return self._between(a, b)

    def _between(self, a: str, b: str) -> tuple[Route, ...]:
        return tuple(r for r in self.routes if {r.a, r.b} == {a, b})

    def find_route(self, text: str) -> Route:
        """Find a route by id (``"57"``) or by ends (``"Seattle-Portland"``).

        Ends may be given in either order; for a double route the lower id
        comes first, and ``"Seattle-Portland/2"`` picks the second.
        """
        if not isinstance(text, str):
            raise WrongTypeError(f"find_route takes a route id or 'City-City' as text, not a {type(text).__name__}")
        text = text.strip()
        if is_numeral(text) and int(text) in self._route:
            return self._route[int(text)]
        base, _, nth = text.partition("/")
        if nth and not is_numeral(nth, max_digits=2):
            raise NotFoundError(f"no route {text[:80]!r} on map {self.id} (after '/' comes 1 or 2 for a double route)")
        for sep in ("-", "–"):
            parts = base.split(sep)
            for i in range(1, len(parts)):
                a, b = sep.join(parts[:i]).strip(), sep.join(parts[i:]).strip()
                found = self._between(a, b)  # a split of the text that names no city finds nothing
                if found:
                    k = int(nth) - 1 if nth else 0
                    if 0 <= k < len(found):
                        return found[k]
        raise NotFoundError(f"no route {text[:80]!r} on map {self.id}")
