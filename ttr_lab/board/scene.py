"""What a board drawing shows, resolved from a map or a game state (standard library only).

:class:`Scene` turns a drawn object and its :class:`~ttr_lab.board.options.BoardOptions`
(the arguments of :func:`ttr_lab.board.board_figure` and
:func:`ttr_lab.board.board_svg`) into plain facts: who owns which route, the
seats' names, colours and marks, highlights, paths, ticket cities, the
edition's marks and each player's last move.  The plotly figure and the SVG
are two drawings of one scene.

A game state (or a player's view) is duck-typed: ``.map``,
``route_owners()``, ``player_names`` and ``move_stack`` (or a view's
``history``, for the last moves) are read when present.  What an edition
adds to the board (stations, harbors, a closed route) comes from its hooks
(:mod:`ttr_lab.board.marks`): this module knows no edition's marks.

>>> from ttr_lab.maps import load_map
>>> scene = Scene(load_map("usa"), owners={1: 0}, player_names=["Ada", "Bo"])
>>> scene.names, scene.owners
(['Ada', 'Bo'], {1: 0})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..errors import NotFoundError, TtrError, WrongTypeError
from ..maps.loading import Map, Route, Ticket
from .geometry import Geometry, geometry
from .highlight import HIGHLIGHT, highlight_frames, highlight_pen
from .marks import PUBLIC, ROUTE, BoardMark, CityMark, MarkStyle, RouteMark, Spot, resolve_marks
from .options import MOST, BoardOptions

__all__ = [
    "PLAYER_COLORS",
    "ROUTE_COLORS",
    "PATH_COLORS",
    "HIGHLIGHT",
    "SEAT_MARKS",
    "STYLES",
    "LAST_MOVE",
    "NOBODY",
    "Scene",
    "resolve_map",
    "route_facts",
    "contrast",
    "tunnel_edge",
    "style_of",
    "highlight_frames",
    "highlight_pen",
]

#: Seat colours: blue, red, green, yellow, black, then purple and orange.  A
#: claimed space is also edged in black and carries the seat's mark, so it is
#: never taken for a card colour.
PLAYER_COLORS = ("#1565c0", "#d32f2f", "#2e7d32", "#f9a825", "#263238", "#7b1fa2", "#ef6c00")

#: The mark each seat's pieces carry (plotly symbol names; the SVG draws the same shapes).
SEAT_MARKS = ("circle", "diamond", "square", "triangle-up", "cross", "x", "pentagon")

#: Map colour names as drawn.
ROUTE_COLORS = {
    "red": "#e53935",
    "orange": "#fb8c00",
    "yellow": "#fdd835",
    "green": "#43a047",
    "blue": "#1e88e5",
    "pink": "#f06292",
    "white": "#ffffff",
    "black": "#212121",
    "gray": "#9e9e9e",
}

#: Translucent colours for ``paths`` overlays, used in turn.
PATH_COLORS = (
    "rgba(0,188,212,0.45)",
    "rgba(233,30,99,0.40)",
    "rgba(124,179,66,0.45)",
    "rgba(255,152,0,0.45)",
    "rgba(94,53,177,0.40)",
    "rgba(121,85,72,0.45)",
)

#: Route styles in drawing order, and how the legend names them.
STYLES = {
    "train": "train route: one box a car",
    "tunnel": "tunnel: dotted dark edge",
    "ferry": "ferry: L = locomotive space",
    "ship": "ship route: ovals",
    "paired": "paired route: two rows, 2 cards a space",
}


#: The colour of a mark that belongs to no seat.
NOBODY = "#78909c"

#: The legend entry of the last-move halo.
LAST_MOVE = "last move (halo)"


def style_of(r: Route) -> str:
    return "paired" if r.paired else r.kind


def contrast(color: str) -> str:
    """Dark or white ink, whichever reads better on ``color`` (``#rrggbb``)."""
    h = color.lstrip("#")
    if len(h) != 6 or not color.startswith("#"):
        return "#ffffff"
    try:
        r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#ffffff"
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def tunnel_edge(color: str) -> str:
    """A tunnel's dotted edge on a space of ``color``: dark, or light on the black spaces."""
    h = color.lstrip("#")
    try:
        r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#111111"
    return "#e0e0e0" if 0.299 * r + 0.587 * g + 0.114 * b < 60 else "#111111"


def resolve_map(obj: Any) -> Map:
    """The map of a Map, an edition or a game state (or a view)."""
    if isinstance(obj, Map):
        return obj
    for holder in (obj, getattr(obj, "edition", None)):
        m = getattr(holder, "map", None)
        if m is not None and not callable(m) and hasattr(m, "routes") and hasattr(m, "cities"):
            return m  # type: ignore[no-any-return]
    if hasattr(obj, "routes") and hasattr(obj, "cities") and hasattr(obj, "route"):
        return obj  # type: ignore[no-any-return]
    raise WrongTypeError(f"a board needs a Map, an edition or a game state, not {type(obj).__name__}")


def _from_obj(obj: Any, name: str) -> Any:
    value = getattr(obj, name, None)
    if callable(value):
        value = value()
    return value


def _route_id(m: Map, item: Any) -> int:
    rid = getattr(item, "id", item)
    if not isinstance(rid, int) or isinstance(rid, bool) or not m.has_route(rid):
        raise NotFoundError(f"no route {item!r} on map {m.id}")
    return rid


def _ticket_cities(m: Map, t: Any) -> tuple[tuple[str, ...], str]:
    if isinstance(t, int) and not isinstance(t, bool):
        t = m.ticket(t)
    if isinstance(t, Ticket) or hasattr(t, "cities"):
        cities = tuple(t.cities)
        label = "–".join(cities) + (f" ({t.points})" if hasattr(t, "points") else "")
    else:
        cities = tuple(t)
        label = "–".join(cities)
    for c in cities:
        if not m.has_city(c):
            raise NotFoundError(f"no city {c!r} on map {m.id}")
    return cities, label


def route_facts(r: Route) -> list[str]:
    """A route in words, two short lines (for hover texts and SVG titles)."""
    kind = "paired" if r.paired else r.kind
    facts = f"{r.length} {r.color}" + ("" if kind == "train" else f" {kind}")
    if r.kind == "ferry":
        facts += f", {r.locomotives} locomotive space{'s' if r.locomotives != 1 else ''}"
    if r.double_of is not None:
        facts += f", double of {r.double_of}"
    return [f"{r.a} – {r.b} #{r.id}", facts]


class Scene:
    """Everything one drawing shows, resolved and checked (unknown routes and cities raise ``NotFoundError``).

    ``Scene(obj, options)`` or ``Scene(obj, **keywords)`` (:meth:`BoardOptions.of
    <ttr_lab.board.options.BoardOptions.of>`).  The edition's marks
    (:mod:`ttr_lab.board.marks`) are ``marks``: one ``(style, marks)`` layer per
    style the edition declares, in its order, empty while it shows nothing.
    """

    def __init__(self, obj: Any, options: BoardOptions | None = None, /, **keywords: Any) -> None:
        opts = BoardOptions.of(options, **keywords)
        self.options = opts
        self.map: Map = resolve_map(obj)
        m = self.map
        self.geo: Geometry = geometry(m)
        owners = _from_obj(obj, "route_owners") if opts.owners is None else opts.owners
        player_names = _from_obj(obj, "player_names") if opts.player_names is None else opts.player_names
        self.owners = {_route_id(m, k): v for k, v in dict(owners or {}).items() if v is not None}
        self.edition, position = _edition_of(obj)
        self.viewer = _viewer(obj, opts.viewer)
        #: the edition's marks: a ``(style, marks)`` layer per style it declares, in its order
        self.marks = resolve_marks(self.edition, position, self.viewer, opts.given_marks(), _OPTION_NAMES, m)
        used = [*self.owners.values(), *(k.owner for _, ks in self.marks for k in ks if k.owner is not None)]
        n_seats = max(len(player_names or ()), max(used) + 1 if used else 0)
        if n_seats > MOST:
            raise TtrError(f"a board draws at most {MOST} seats, not {n_seats}")
        seats = getattr(position, "player_names", None)
        if seats is not None and self.viewer is not None and self.viewer >= len(seats):
            raise TtrError(f"board option viewer={self.viewer}: there is no such seat in this game")
        self.names = [
            str(player_names[i]) if player_names and i < len(player_names) else f"Player {i + 1}"
            for i in range(n_seats)
        ]
        colors = tuple(opts.player_colors or PLAYER_COLORS)
        self.seat_color = [colors[i % len(colors)] for i in range(n_seats)]
        self.seat_mark = [SEAT_MARKS[i % len(SEAT_MARKS)] for i in range(n_seats)]
        self.highlight = [_route_id(m, h) for h in opts.highlight]
        self.styles = [s for s in STYLES if any(style_of(r) == s for r in m.routes)]
        self.paths: list[tuple[str, list[int], str]] = []
        for i, p in enumerate(opts.paths):
            ids = [_route_id(m, r) for r in getattr(p, "routes", p)]
            name = getattr(p, "name", None)
            self.paths.append(
                (name if isinstance(name, str) else f"path {i + 1}", ids, PATH_COLORS[i % len(PATH_COLORS)])
            )
        self.tickets = [_ticket_cities(m, t) for t in opts.tickets]
        self.ticket_notes: dict[str, list[str]] = {}
        for cities, label in self.tickets:
            for c in cities:
                self.ticket_notes.setdefault(c, []).append(label)
        #: seat -> Spot: each player's last claim (``(ROUTE, id)``) or mark made (``(kind, target)``)
        self.last: dict[int, Spot] = self._last_moves(obj) if opts.last_moves else {}
        self.show_last = opts.last_moves

    # ------------------------------------------------------------------ the edition's marks
    def style_of_kind(self, kind: str) -> MarkStyle | None:
        return next((s for s, _ in self.marks if s.kind == kind), None)

    def mark_color(self, owner: int | None) -> str:
        """A mark's colour: its owner's, or :data:`NOBODY` for a mark of no seat."""
        return self.seat_color[owner] if owner is not None else NOBODY

    def mark_line(self, k: BoardMark) -> str:
        """A mark's line in a hover or tooltip: its label, or ``"<kind>: <owner's name>"``."""
        if k.label:
            return k.label
        return f"{k.kind}: {self.names[k.owner]}" if k.owner is not None else k.kind

    def city_marks(self, city: str) -> list[BoardMark]:
        """The marks on ``city``, in style order."""
        return [k for _, ks in self.marks for k in ks if isinstance(k, CityMark) and k.city == city]

    def route_marks(self, rid: int) -> list[BoardMark]:
        """The marks on route ``rid``, in style order."""
        return [k for _, ks in self.marks for k in ks if isinstance(k, RouteMark) and k.route == rid]

    def on_route(self, spot: Spot) -> bool:
        """Whether a last move's spot is a route (else a city)."""
        style = self.style_of_kind(spot.kind)
        return spot.kind == ROUTE or (style is not None and style.on == "route")

    def _last_moves(self, obj: Any) -> dict[int, Spot]:
        """Walk the public history back; where each move went is the edition's
        (:meth:`move_spot`), its seat the owner of the piece or mark there now."""
        spot_of = getattr(self.edition, "move_spot", None)
        if not callable(spot_of):
            return {}
        stack = _from_obj(obj, "move_stack")
        if stack is None and hasattr(obj, "history") and hasattr(obj, "route_owners"):  # a player's view
            plies = getattr(_from_obj(obj, "history"), "plies", ())
            stack = [p.move for p in plies if getattr(p, "move", None) is not None]  # claims and builds are public
        if not isinstance(stack, Sequence):
            return {}
        owner = {(k.kind, k.city if isinstance(k, CityMark) else k.route): k.owner for _, ks in self.marks for k in ks}
        last: dict[int, Spot] = {}
        for move in reversed(stack):
            spot = spot_of(move)
            if spot is None:
                continue
            spot = Spot(*spot)
            seat = self.owners.get(spot.target) if spot.kind == ROUTE else owner.get(spot)  # type: ignore[arg-type]
            if seat is not None and seat not in last:
                last[seat] = spot
            if len(last) == len(self.names):
                break
        return last

    def last_route_of(self) -> dict[int, int]:
        """route id -> seat, for the routes that are a player's last move."""
        return {int(v.target): s for s, v in self.last.items() if self.on_route(v)}

    def legend_names(self) -> list[str]:
        """The legend's entries in order (both drawings show these, and size the picture by them)."""
        items = [(100 + i, STYLES[s]) for i, s in enumerate(self.styles)]
        items += [(200 + i, f"claimed by {n}") for i, n in enumerate(self.names)]
        items += [(300 + i, p[0]) for i, p in enumerate(self.paths)]
        if self.highlight:
            items.append((400, "highlight"))
        if self.show_last and self.names:
            items.append((450, LAST_MOVE))
        if self.tickets:
            items.append((500, "tickets"))
        items += [(style.rank, style.legend) for style, ks in self.marks if ks]
        return [n for _, n in sorted(items)]

    def legend_base(self) -> list[str]:
        """The legend entries every board of this game shows, whatever its overlays: the route
        styles, the seats and the last-move halo.  Both drawings size the legend's room by these
        (and a few spare rows, :func:`ttr_lab.board.frame.board_frame`), never by the entries
        shown now, so a redraw never moves the map.

        >>> from ttr_lab.maps import load_map
        >>> Scene(load_map("usa"), player_names=["Ada"], highlight=[1]).legend_base()
        ['train route: one box a car', 'claimed by Ada', 'last move (halo)']
        """
        items = [STYLES[s] for s in self.styles] + [f"claimed by {n}" for n in self.names]
        return items + ([LAST_MOVE] if self.show_last and self.names else [])

    def owner_name(self, rid: int) -> str | None:
        seat = self.owners.get(rid)
        return self.names[seat] if seat is not None else None


_OPTION_NAMES = frozenset(f.name for f in dataclasses.fields(BoardOptions))


def _edition_of(obj: Any) -> tuple[Any, Any]:
    """(the edition, the position) of what is drawn: a game state or a view gives both, an
    edition itself no position, a map neither.  Duck-typed: an edition has ``board_mark_styles``."""
    if hasattr(obj, "board_mark_styles"):
        return obj, None
    ed = getattr(obj, "edition", None)
    if ed is not None and hasattr(ed, "board_mark_styles") and hasattr(obj, "route_owners"):
        return ed, obj
    return None, None


def _viewer(obj: Any, viewer: int | None) -> int | None:
    """The seat a board is drawn for: a view's own player (or PUBLIC), else the option."""
    own = getattr(obj, "player", None)
    if type(own) is int and hasattr(obj, "route_owners") and not hasattr(obj, "move_stack"):  # a player's view
        if viewer is not None and viewer not in (own, PUBLIC):
            raise TtrError(f"board option viewer={viewer}: this is seat {own}'s view, drawn for seat {own} only")
        return own if viewer is None else viewer
    return viewer
