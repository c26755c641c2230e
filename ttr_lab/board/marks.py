"""What an edition draws on the board: its mark styles and marks (standard library only).

The board (:func:`ttr_lab.board.board_figure`, :func:`ttr_lab.board.board_svg`)
knows the base game: routes, owners, cities, highlights, paths, tickets and
each player's last claim.  Everything an edition adds (Europe's stations,
Rails & Sails' harbors, a classroom variant's closed routes) comes from the
edition through three hooks of :class:`ttr_lab.engine.rules.Edition`:

``mark_styles``
    a declaration on each rule: the kinds of mark it draws, as
    :class:`MarkStyle` values (how a kind looks, its legend entry).  Every
    board of the edition has one plotly trace per style, empty while there
    is nothing to show, so no redraw moves a trace (issue 19).
``board_marks(position, viewer)``
    the marks of a position (a game state, or a player's view), as
    :class:`CityMark` and :class:`RouteMark` values, each naming its style's
    ``kind``.  ``viewer`` is the seat the board is drawn for (a view's own
    player), :data:`PUBLIC` for nobody's secrets (a spectator, a hot-seat
    screen with the hands hidden), or None for the whole game: a mark that
    seat may not see is left out, so it never reaches a drawing.
``move_spot(move)``
    where a move put something on the board, as a :class:`Spot`: the base
    game's claim is ``Spot(ROUTE, route id)``; an edition's own move names
    the kind and target of the mark it made (``Spot("station", "Paris")``).
    The board halos each player's last such move.

A style's ``keyword`` lets a caller give its marks by hand,
``board_figure(game, stations={"Paris": 0})`` (``{target: seat}``, replacing
the position's); the keyword is the edition's, so it works on a game, a
view or an edition, not on a bare map.

>>> STATION = MarkStyle("station", "stations", "city", "square", keyword="stations", rank=510)
>>> CityMark("station", "Paris", 0)
CityMark(kind='station', city='Paris', owner=0, label='')
>>> MarkStyle("tickets", "tickets", "city", "ring")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: mark style 'tickets': its legend 'tickets' is the board's own layer; choose another
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import NotFoundError, TtrError, WrongTypeError

__all__ = [
    "MarkStyle",
    "CityMark",
    "RouteMark",
    "BoardMark",
    "Spot",
    "ROUTE",
    "PUBLIC",
    "CITY_SHAPES",
    "ROUTE_SHAPES",
    "RESERVED",
    "MOST_MARKS",
    "check_styles",
    "resolve_marks",
]

#: ``Spot.kind`` of a claimed route (its seat is the route's owner)
ROUTE = "route"

#: ``viewer`` for a board that shows nobody's secrets (only the public marks)
PUBLIC = -1

#: How a city mark is drawn: a square behind the city's dot, a disc beside the
#: city (with the style's ``glyph``), or a ring round the dot; each in its owner's colour.
CITY_SHAPES = ("square", "badge", "ring")
#: How a route mark is drawn: a cross on the route's middle, in its owner's colour.
ROUTE_SHAPES = ("cross",)

#: The board's own layers (trace keys): a style's legend may not be one of these,
#: nor start with ``seat:``, ``last:``, ``path:`` or ``legend:``.
RESERVED = frozenset(
    {
        "routes",
        "cities",
        "highlight",
        "ferry marks",
        "color letters",
        "lengths",
        "ticket lines",
        "tickets",
        "label leaders",
        "city labels",
        "edge labels",
    }
)
_PREFIXES = ("seat:", "last:", "path:", "legend:")

#: at most this many marks on one board (an edition's and those given by hand)
MOST_MARKS = 10_000


@dataclass(frozen=True, slots=True)
class MarkStyle:
    """How one kind of mark looks, and its legend entry.

    ``kind``
        what a mark of this style is, in words (``"station"``): each mark
        names it, and a city's hover reads ``"station: Ada"`` (unless the
        mark has a label of its own); a :class:`Spot` names it too.
    ``legend``
        the legend entry (``"stations"``), shown while the board has such a
        mark; also the plotly trace's name and ``meta`` key.
    ``on``
        ``"city"`` or ``"route"``: what the marks stand on.
    ``shape``
        one of :data:`CITY_SHAPES` or :data:`ROUTE_SHAPES`.
    ``glyph``
        a character written on a ``"badge"`` (Rails & Sails' anchor).
    ``keyword``
        the board option giving these marks by hand (``stations=``), or ``""``.
    ``rank``
        the legend's order (tickets are 500, paths 300).
    """

    kind: str
    legend: str
    on: str
    shape: str
    glyph: str = ""
    keyword: str = ""
    rank: int = 600

    def __post_init__(self) -> None:
        where = f"mark style {self.kind!r}"
        for name in ("kind", "legend", "glyph", "keyword"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > 80:
                raise TtrError(f"{where}: {name} is a short str, not {type(value).__name__}")
        if not self.kind or not self.legend:
            raise TtrError(f"{where}: kind and legend are needed")
        if self.kind == ROUTE:
            raise TtrError(f"{where}: {ROUTE!r} is the kind of a claimed route; choose another")
        if self.legend in RESERVED or self.legend.startswith(_PREFIXES):
            raise TtrError(f"{where}: its legend {self.legend!r} is the board's own layer; choose another")
        shapes = {"city": CITY_SHAPES, "route": ROUTE_SHAPES}.get(self.on)
        if shapes is None:
            raise TtrError(f"{where}: on is 'city' or 'route', not {self.on!r}")
        if self.shape not in shapes:
            raise TtrError(f"{where}: a {self.on} mark's shape is one of {', '.join(shapes)}, not {self.shape!r}")
        if self.keyword and not self.keyword.isidentifier():
            raise TtrError(f"{where}: keyword {self.keyword!r} is not a Python name")
        if type(self.rank) is not int:
            raise TtrError(f"{where}: rank is an int, not {type(self.rank).__name__}")


@dataclass(frozen=True, slots=True)
class CityMark:
    """A mark on ``city`` of the style whose kind is ``kind``, belonging to seat ``owner``
    (None: nobody's, drawn in gray); ``label`` is its hover line (default ``"<kind>: <owner's name>"``)."""

    kind: str
    city: str
    owner: int | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class RouteMark:
    """A mark on route ``route`` (an id) of the style whose kind is ``kind``, belonging to seat
    ``owner`` (None: nobody's); ``label`` is a line of the route's hover (default ``"<kind>: <owner's name>"``)."""

    kind: str
    route: int
    owner: int | None = None
    label: str = ""


BoardMark = CityMark | RouteMark


class Spot(NamedTuple):
    """Where a move put something on the board: ``(ROUTE, route id)`` for a claimed route,
    else ``(kind, target)`` of the mark it made (a city name or a route id)."""

    kind: str
    target: int | str


def check_styles(styles: tuple[MarkStyle, ...], where: str) -> tuple[MarkStyle, ...]:
    """``styles`` if each is a :class:`MarkStyle` and their kinds, legends and keywords are
    different; else a :class:`~ttr_lab.errors.TtrError` naming ``where`` (an edition).

    >>> a = MarkStyle("station", "stations", "city", "square")
    >>> check_styles((a, MarkStyle("station", "depots", "city", "ring")), "Toy")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: Toy: two mark styles of kind 'station'
    """
    seen: dict[str, set[str]] = {"kind": set(), "legend": set(), "keyword": set()}
    for style in styles:
        if not isinstance(style, MarkStyle):
            raise TtrError(f"{where}: mark_styles holds MarkStyle values, not {type(style).__name__}")
        for attr, names in seen.items():
            value = getattr(style, attr)
            if value and value in names:
                raise TtrError(f"{where}: two mark styles of {attr} {value!r}")
            names.add(value)
    return styles


Layers = list[tuple[MarkStyle, list[BoardMark]]]


def resolve_marks(
    edition: Any, position: Any, viewer: int | None, given: Mapping[str, Any], options: frozenset[str], m: Any
) -> Layers:
    """The marks a board draws, a ``(style, marks)`` layer per style ``edition`` declares (none
    without an edition): its ``board_marks(position, viewer)`` (none without a position), where
    the marks ``given`` by a style's keyword (``{target: seat}``) replace the position's of that
    style.  Each mark is checked: a declared style, a city or a route of map ``m``, a seat or
    None for its owner.  ``options`` are the board's own options (no style's keyword may be
    one); a keyword no style has is an unknown option (a :class:`~ttr_lab.errors.WrongTypeError`).
    """
    styles: tuple[MarkStyle, ...] = tuple(getattr(edition, "board_mark_styles", ()) or ())
    name = getattr(edition, "name", "?")
    by_kind = {s.kind: s for s in styles}
    by_keyword = {s.keyword: s for s in styles if s.keyword}
    for s in styles:
        if s.keyword in options:
            raise TtrError(f"mark style {s.kind!r}: keyword {s.keyword!r} is a board option; choose another")
    for key in given:
        if key not in by_keyword:
            known = f"options: {', '.join(sorted(options - {'marks'}))}"
            if edition is None:
                raise WrongTypeError(
                    f"unknown board option {key!r} ({known}; an edition's marks, such as stations=, "
                    "need a game, a view or an edition, not a map alone)"
                )
            raise WrongTypeError(
                f"unknown board option {key!r} ({known}; {name}'s marks: {', '.join(sorted(by_keyword)) or 'none'})"
            )
    marks: list[Any] = []
    if position is not None and callable(getattr(edition, "board_marks", None)):
        marks = list(itertools.islice(edition.board_marks(position, viewer), MOST_MARKS + 1))
    kept = {by_keyword[k].kind for k in given}
    marks = [k for k in marks if getattr(k, "kind", None) not in kept]
    for key, value in given.items():
        s = by_keyword[key]
        if not isinstance(value, Mapping):
            raise WrongTypeError(f"board option {key}: a mapping {s.on} -> seat, not {type(value).__name__}")
        marks += [
            CityMark(s.kind, target, seat) if s.on == "city" else RouteMark(s.kind, target, seat)
            for target, seat in value.items()
            if seat is not None
        ]
    if len(marks) > MOST_MARKS:
        raise TtrError(f"a board draws at most {MOST_MARKS} marks ({name}'s and those given)")
    layers: dict[str, list[BoardMark]] = {s.kind: [] for s in styles}
    for k in marks:
        style = by_kind.get(k.kind) if isinstance(k, (CityMark, RouteMark)) else None
        if style is None:
            raise TtrError(
                f"{name}'s board marks: {k!r:.80} is not a CityMark or RouteMark of a declared style "
                f"({', '.join(by_kind) or 'none declared'})"
            )
        _check(k, style, m)
        layers[style.kind].append(k)
    return [(s, layers[s.kind]) for s in styles]


def _check(k: BoardMark, style: MarkStyle, m: Any) -> None:
    """A mark stands where its style says, on map ``m``, and names a seat (or none) and its words."""
    if isinstance(k, CityMark):
        if style.on != "city":
            raise TtrError(f"board mark {k!r:.80}: a {style.kind} stands on a route (a RouteMark)")
        if not isinstance(k.city, str) or not m.has_city(k.city):
            raise NotFoundError(f"{style.kind} mark: no city {k.city!r:.60} on map {m.id}")
    else:
        if style.on != "route":
            raise TtrError(f"board mark {k!r:.80}: a {style.kind} stands on a city (a CityMark)")
        if type(k.route) is not int or not m.has_route(k.route):
            raise NotFoundError(f"{style.kind} mark: no route {k.route!r:.60} on map {m.id}")
    if k.owner is not None and (type(k.owner) is not int or not 0 <= k.owner < MOST_MARKS):
        raise WrongTypeError(f"{style.kind} mark: its owner is a seat or None, not {k.owner!r:.60}")
    if not isinstance(k.label, str):
        raise WrongTypeError(f"{style.kind} mark: its label is a str, not {type(k.label).__name__}")
