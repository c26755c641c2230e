"""What an edition draws on the board: its mark styles and marks (standard library only).

The board (:func:`ttr_lab.render.board_figure`, :func:`ttr_lab.svg.board_svg`)
knows the base game: routes, owners, cities, highlights, paths, tickets and
each player's last claim.  Everything an edition adds (Europe's stations,
Rails & Sails' harbors, a classroom variant's closed routes) comes from the
edition through three hooks of :class:`ttr_lab.core.Edition`:

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

from dataclasses import dataclass
from typing import NamedTuple

from .errors import TtrError

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
    "check_styles",
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
