"""Draw a board as a plotly figure: a pure function of a map or a game state.

:func:`board_figure` returns a new :class:`plotly.graph_objects.Figure`;
:func:`update_board` redraws an existing figure (or ``FigureWidget``) in
place, keeping the trace objects, and so their click callbacks, alive.  This
module imports plotly only: no ipywidgets, no IPython, and no other ttr_lab
module but :mod:`ttr_lab.data`.

Cities sit at their real coordinates in a Web-Mercator-like plane (x is the
longitude in degrees, y the Mercator ordinate), drawn on plain x/y axes with
equal aspect and no basemap.  A map whose routes cross the date line (Rails &
Sails World) is drawn from -180 to 180 degrees like the printed board: each
Pacific route is cut at the edge into two pieces, and small "‹ Tokyo" labels
at the edge name the city on the far side.

Trace order (one ``scatter`` trace each; every trace has a unique ``meta`` key,
shown in brackets where it differs from the name)::

    highlight               glow under highlighted routes       (if highlight)
    sea lanes               pale band under ship routes         (map has ships)
    outline <kind>          dark edge under white routes and all tunnels
    <kind> <colour>         unclaimed route lines, one per (kind, colour) on the map
    claimed outline         dark edge under claimed routes
    claimed by <name>       [seat:<i>] one per seat, drawn even when empty
    <path name>             [path:<i>] one translucent trace per path (if paths)
    ticket lines, tickets   dotted lines and stars for ticket cities (if tickets)
    stations                square behind each station city     (if stations)
    harbors                 anchor badge beside each harbor city (if harbors)
    routes                  CLICKABLE: one badge per route, map order, customdata = id
    cities                  CLICKABLE: one marker per city, map order, customdata = name
    edge labels             far-side city names at the cut edge (wrapping maps)
    <style description>     [legend:<kind>] legend-only samples, no points

Only ``routes`` and ``cities`` answer hover and clicks; every other trace has
``hoverinfo="skip"``, so an overlay never steals a click.  The index of
``routes`` depends on the overlays and the number of seats (pass
``player_names`` from the start to fix it), so find it with
:func:`route_trace_index` rather than hard-coding it.  :func:`update_board`
keeps trace *objects* alive, so ``fig.data[route_trace_index(fig)].on_click``
registered once keeps working after every redraw.

Examples
--------
>>> from ttr_lab.data import load_map
>>> from ttr_lab.render import board_figure, route_trace_index, route_at
>>> usa = load_map("usa")
>>> fig = board_figure(usa, owners={1: 0}, player_names=["Ada", "Bo"])
>>> len(fig.data) > 0
True
>>> k = route_trace_index(fig)
>>> len(fig.data[k].customdata) == len(usa.routes), route_at(fig, 0)
(True, 1)
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from .data import COLORS, City, Map, Route, Ticket
from .errors import NotFoundError, WrongTypeError

__all__ = [
    "PLAYER_COLORS",
    "ROUTE_COLORS",
    "PATH_COLORS",
    "board_figure",
    "update_board",
    "route_trace_index",
    "city_trace_index",
    "route_at",
    "city_at",
]

#: Seat colours: blue, red, green, yellow, black, then purple and orange.
PLAYER_COLORS = ("#1565c0", "#d32f2f", "#2e7d32", "#f9a825", "#263238", "#7b1fa2", "#ef6c00")

#: Map colour names as drawn.  White is drawn with a dark edge underneath.
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

_DASH = {"train": "solid", "tunnel": "dash", "ferry": "dashdot", "ship": "dot", "paired": "longdash"}
_SYMBOL = {"train": "circle", "tunnel": "square", "ferry": "diamond", "ship": "circle", "paired": "hexagon"}
_LEGEND = {
    "train": "train route",
    "tunnel": "tunnel (dashed, dark edge)",
    "ferry": "ferry (nL = locomotive spaces)",
    "ship": "ship route (dotted, sea lane)",
    "paired": "paired route (long dashes)",
}
_STYLES = tuple(_DASH)
_EDGE = "#37474f"
_LINE_WIDTH = 4.0
_UIREVISION = "ttr_lab-board"
_LABEL_POSITIONS = (
    "middle right",
    "top right",
    "top center",
    "top left",
    "middle left",
    "bottom left",
    "bottom center",
    "bottom right",
)


# --------------------------------------------------------------------------- geometry


class _Geometry:
    """Projected city points and route pieces for one map (pure data).

    Web-Mercator-like: x is longitude in degrees, y the Mercator ordinate in
    degree units, so shapes look as on a web map.
    """

    def __init__(self, m: Map) -> None:
        city = {c.name: c for c in m.cities}
        lons = [c.lon for c in m.cities]
        self.wraps = any(abs(city[r.a].lon - city[r.b].lon) > 180 for r in m.routes)
        self.lon0 = 0.0 if self.wraps else (min(lons) + max(lons)) / 2
        self.half = 180.0  # x of the cut edge, for wrapping maps
        self.xy = {c.name: (c.lon - self.lon0, _mercator(c.lat)) for c in m.cities}
        xs = [p[0] for p in self.xy.values()]
        ys = [p[1] for p in self.xy.values()]
        if self.wraps:
            xs += [-self.half, self.half]
        self.bounds = (min(xs), max(xs), min(ys), max(ys))
        self.extent = max(max(xs) - min(xs), max(ys) - min(ys), 1e-6)
        self.unit = 0.0045 * self.extent  # half the gap between side-by-side routes
        self.pieces: dict[int, list[tuple[float, float, float, float]]] = {}
        self.mid: dict[int, tuple[float, float]] = {}
        self.far: dict[tuple, tuple[float, float, str, str]] = {}  # edge label: x, y, text, side
        self.toward: dict[str, list[tuple[float, float]]] = {n: [] for n in city}
        groups: dict[frozenset, list[Route]] = {}
        for r in m.routes:
            groups.setdefault(frozenset((r.a, r.b)), []).append(r)
        for group in groups.values():
            group.sort(key=lambda r: r.id)
            n = len(group)
            for i, r in enumerate(group):
                k = i - (n - 1) / 2  # -0.5, +0.5 for a double route
                self._place(r, 2 * k * self.unit, 0.5 + k * 0.32 / max(n - 1, 1))

    def _place(self, r: Route, offset: float, t_mid: float) -> None:
        """Offset route ``r`` sideways, find its badge point and cut it at the edge."""
        a, b = sorted((r.a, r.b))  # one direction for every route of a pair
        (x0, y0), (x1, y1) = self.xy[a], self.xy[b]
        if self.wraps and abs(x1 - x0) > self.half:
            x1 += -2 * self.half if x1 > x0 else 2 * self.half
        dx, dy = x1 - x0, y1 - y0
        n = math.hypot(dx, dy) or 1.0
        self.toward[a].append((dx / n, dy / n))
        self.toward[b].append((-dx / n, -dy / n))
        ox, oy = -dy / n * offset, dx / n * offset
        x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
        mx, my = x0 + t_mid * (x1 - x0), y0 + t_mid * (y1 - y0)
        if self.wraps and abs(mx) > self.half:
            mx -= math.copysign(2 * self.half, mx)
        self.mid[r.id] = (mx, my)
        if not self.wraps or abs(x1) <= self.half:
            self.pieces[r.id] = [(x0, y0, x1, y1)]
            return
        edge = math.copysign(self.half, x1)
        ye = y0 + (edge - x0) / (x1 - x0) * (y1 - y0)
        self.pieces[r.id] = [(x0, y0, edge, ye), (-edge, ye, x1 - 2 * edge, y1)]
        inward = ("right", "left") if edge > 0 else ("left", "right")
        self.far.setdefault((a, b, edge), (edge, ye, b, inward[0]))
        self.far.setdefault((a, b, -edge), (-edge, ye, a, inward[1]))

    def label_position(self, name: str) -> str:
        """Put a city label on the side away from its routes and close cities."""
        vx = vy = 0.0
        for ux, uy in self.toward[name]:
            vx, vy = vx + ux, vy + uy
        x, y = self.xy[name]
        for px, py in self.xy.values():
            d = math.hypot(px - x, py - y)
            if 0 < d < 12 * self.unit:
                vx, vy = vx + 1.5 * (px - x) / d, vy + 1.5 * (py - y) / d
        if math.hypot(vx, vy) < 0.3:
            return "top center"
        angle = math.degrees(math.atan2(-vy, -vx)) % 360
        return _LABEL_POSITIONS[int(((angle + 22.5) % 360) // 45)]

    def aspect(self) -> float:
        x0, x1, y0, y1 = self.bounds
        return (x1 - x0 + 0.12 * self.extent) / (y1 - y0 + 0.12 * self.extent)


def _mercator(lat: float) -> float:
    lat = max(min(lat, 85.0), -85.0)
    return math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))


_GEOMETRY: dict[int, tuple[Map, _Geometry]] = {}


def _geometry(m: Map) -> _Geometry:
    cached = _GEOMETRY.get(id(m))
    if cached is None or cached[0] is not m:
        if len(_GEOMETRY) > 16:
            _GEOMETRY.clear()
        cached = _GEOMETRY[id(m)] = (m, _Geometry(m))
    return cached[1]


def _segments(geo: _Geometry, ids: Iterable[int]) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for rid in ids:
        for x0, y0, x1, y1 in geo.pieces[rid]:
            xs += [x0, x1, None]
            ys += [y0, y1, None]
    return xs, ys


# --------------------------------------------------------------------------- inputs


def _resolve_map(obj: Any) -> Map:
    if isinstance(obj, Map):
        return obj
    for holder in (obj, getattr(obj, "edition", None)):
        m = getattr(holder, "map", None)
        if m is not None and not callable(m) and hasattr(m, "routes") and hasattr(m, "cities"):
            return m
    if hasattr(obj, "routes") and hasattr(obj, "cities") and hasattr(obj, "route"):
        return obj
    raise WrongTypeError(f"board_figure needs a Map, an edition or a game state, not {type(obj).__name__}")


def _from_obj(obj: Any, name: str) -> Any:
    value = getattr(obj, name, None)
    if callable(value):
        value = value()
    return value


def _route_id(m: Map, item: Any) -> int:
    rid = getattr(item, "id", item)
    if not isinstance(rid, int) or not m.has_route(rid):
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


def _contrast(color: str) -> str:
    """Dark or white text, whichever reads better on ``color`` (``#rrggbb``)."""
    h = color.lstrip("#")
    if len(h) != 6 or not color.startswith("#"):
        return "#ffffff"
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _style(r: Route) -> str:
    return "paired" if r.paired else r.kind


def _route_text(r: Route) -> str:
    return f"{r.length}({r.locomotives}L)" if r.kind == "ferry" else str(r.length)


def _route_hover(r: Route, owner: str | None) -> str:
    kind = "paired train" if r.paired else r.kind
    lines = [f"<b>{r.a} – {r.b}</b> (route {r.id})", f"length {r.length}, {r.color} {kind}"]
    if r.kind == "ferry":
        lines.append(f"{r.locomotives} locomotive space{'s' if r.locomotives != 1 else ''}")
    if r.double_of is not None:
        lines.append(f"double route (other: {r.double_of})")
    lines.append(f"claimed by {owner}" if owner else "unclaimed")
    return "<br>".join(lines)


def _scatter(**props: Any) -> dict:
    """A scatter trace as a plain dict: validated once, by ``go.Figure``."""
    return {"type": "scatter", **{k: v for k, v in props.items() if v is not None}}


def _line(
    name: str,
    xs: list,
    ys: list,
    color: str,
    width: float,
    *,
    dash: str = "solid",
    group: str | None = None,
    legend: bool = False,
    meta: str | None = None,
    rank: int | None = None,
) -> dict:
    return _scatter(
        x=xs or [None],
        y=ys or [None],
        mode="lines",
        name=name,
        meta=meta or name,
        line=dict(color=color, width=width, dash=dash),
        hoverinfo="skip",
        legendgroup=group,
        showlegend=legend,
        legendrank=rank,
    )


# --------------------------------------------------------------------------- figure


class _Board:
    """Everything one drawing needs, resolved from ``board_figure``'s arguments."""

    def __init__(
        self,
        obj: Any,
        owners: Any,
        player_colors: Any,
        player_names: Any,
        highlight: Iterable[Any],
        stations: Any,
        harbors: Any,
    ) -> None:
        self.map = m = _resolve_map(obj)
        self.geo = _geometry(m)
        if owners is None:
            owners = _from_obj(obj, "route_owners")
        if player_names is None:
            player_names = _from_obj(obj, "player_names")
        built = _from_obj(obj, "buildings") or {}
        if stations is None:
            stations = built.get("station")
        if harbors is None:
            harbors = built.get("harbor")
        self.owners = {_route_id(m, k): v for k, v in dict(owners or {}).items() if v is not None}
        self.stations = _city_map(m, stations)
        self.harbors = _city_map(m, harbors)
        used = [*self.owners.values(), *self.stations.values(), *self.harbors.values()]
        n_seats = max(len(player_names or ()), max(used) + 1 if used else 0)
        self.names = [
            player_names[i] if player_names and i < len(player_names) else f"Player {i + 1}" for i in range(n_seats)
        ]
        colors = tuple(player_colors or PLAYER_COLORS)
        self.seat_color = [colors[i % len(colors)] for i in range(n_seats)]
        self.highlight = [_route_id(m, h) for h in highlight]
        self.kinds = [s for s in _STYLES if any(_style(r) == s for r in m.routes)]
        self.ticket_notes: dict[str, list[str]] = {}

    def segments(self, ids: Iterable[int]) -> tuple[list, list]:
        return _segments(self.geo, ids)


def _city_map(m: Map, value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        return {}
    for c in value:
        if not m.has_city(c):
            raise NotFoundError(f"no city {c!r} on map {m.id}")
    return {c: s for c, s in value.items() if s is not None}


def _route_line_traces(b: _Board) -> list[dict]:
    """Glow, sea lanes, dark edges, unclaimed lines, then claimed lines per seat."""
    m, owners = b.map, b.owners
    traces = []
    if b.highlight:
        traces.append(_line("highlight", *b.segments(b.highlight), "rgba(255,214,0,0.65)", 16, legend=True, rank=400))
    ships = [r.id for r in m.routes if r.kind == "ship"]
    if ships:
        traces.append(_line("sea lanes", *b.segments(ships), "rgba(100,181,246,0.35)", 10, group="kind:ship"))
    for kind in b.kinds:
        edged = [
            r.id
            for r in m.routes
            if _style(r) == kind and r.id not in owners and (r.color == "white" or kind == "tunnel")
        ]
        if any(_style(r) == kind and (r.color == "white" or kind == "tunnel") for r in m.routes):
            traces.append(_line(f"outline {kind}", *b.segments(edged), _EDGE, _LINE_WIDTH + 3, group=f"kind:{kind}"))
    for kind in b.kinds:
        for color in (c for c in COLORS if any(_style(r) == kind and r.color == c for r in m.routes)):
            ids = [r.id for r in m.routes if _style(r) == kind and r.color == color and r.id not in owners]
            traces.append(
                _line(
                    f"{kind} {color}",
                    *b.segments(ids),
                    ROUTE_COLORS[color],
                    _LINE_WIDTH,
                    dash=_DASH[kind],
                    group=f"kind:{kind}",
                )
            )
    traces.append(_line("claimed outline", *b.segments(owners), "#111111", _LINE_WIDTH + 6))
    for seat, name in enumerate(b.names):
        ids = [rid for rid, s in owners.items() if s == seat]
        traces.append(
            _line(
                f"claimed by {name}",
                *b.segments(ids),
                b.seat_color[seat],
                _LINE_WIDTH + 3,
                group=f"seat:{seat}",
                legend=True,
                meta=f"seat:{seat}",
                rank=200 + seat,
            )
        )
    return traces


def _path_traces(b: _Board, paths: Iterable[Any]) -> list[dict]:
    traces = []
    for i, p in enumerate(paths):
        ids = [_route_id(b.map, r) for r in getattr(p, "routes", p)]
        name = getattr(p, "name", None)
        name = name if isinstance(name, str) else f"path {i + 1}"
        traces.append(
            _line(
                name,
                *b.segments(ids),
                PATH_COLORS[i % len(PATH_COLORS)],
                _LINE_WIDTH + 8,
                legend=True,
                meta=f"path:{i}",
                rank=300 + i,
            )
        )
    return traces


def _city_overlay_traces(b: _Board, tickets: Iterable[Any]) -> list[dict]:
    """Ticket lines and stars, station squares and harbor badges (all unclickable)."""
    geo, traces = b.geo, []
    tickets = list(tickets)
    if tickets:
        lx: list = []
        ly: list = []
        starred: dict[str, None] = {}
        for t in tickets:
            cities, label = _ticket_cities(b.map, t)
            for c in cities:
                starred[c] = None
                b.ticket_notes.setdefault(c, []).append(label)
            for c0, c1 in zip(cities, cities[1:]):
                lx += [geo.xy[c0][0], geo.xy[c1][0], None]
                ly += [geo.xy[c0][1], geo.xy[c1][1], None]
        traces.append(_line("ticket lines", lx, ly, "#b8860b", 1.5, dash="dot", group="tickets"))
        traces.append(
            _scatter(
                x=[geo.xy[c][0] for c in starred],
                y=[geo.xy[c][1] for c in starred],
                mode="markers",
                name="tickets",
                meta="tickets",
                legendgroup="tickets",
                legendrank=500,
                hoverinfo="skip",
                marker=dict(symbol="star", size=24, color="#ffc107", line=dict(color="#8d6e00", width=1.5)),
            )
        )
    if b.stations:
        cs = list(b.stations)
        traces.append(
            _scatter(
                x=[geo.xy[c][0] for c in cs],
                y=[geo.xy[c][1] for c in cs],
                mode="markers",
                name="stations",
                meta="stations",
                legendrank=510,
                hoverinfo="skip",
                marker=dict(
                    symbol="square",
                    size=20,
                    color=[b.seat_color[b.stations[c]] for c in cs],
                    line=dict(color="#111111", width=1.5),
                ),
            )
        )
    if b.harbors:
        cs = list(b.harbors)
        d = 3.2 * geo.unit
        traces.append(
            _scatter(
                x=[geo.xy[c][0] + d for c in cs],
                y=[geo.xy[c][1] - d for c in cs],
                mode="markers+text",
                name="harbors",
                meta="harbors",
                legendrank=520,
                hoverinfo="skip",
                text=["⚓"] * len(cs),
                textposition="middle center",
                textfont=dict(color="#ffffff", size=11),
                marker=dict(
                    symbol="circle",
                    size=17,
                    color=[b.seat_color[b.harbors[c]] for c in cs],
                    line=dict(color="#111111", width=1),
                ),
            )
        )
    return traces


def _routes_trace(b: _Board, show_lengths: bool) -> dict:
    """The clickable badges: one point per route, in map order, customdata = route id."""
    lit = set(b.highlight)
    cols: dict[str, list] = {k: [] for k in ("x", "y", "fill", "edge", "size", "symbol", "text", "ink", "hover")}
    for r in b.map.routes:
        x, y = b.geo.mid[r.id]
        seat = b.owners.get(r.id)
        fill = b.seat_color[seat] if seat is not None else "#ffffff"
        edge = _EDGE if (r.color == "white" or seat is not None) else ROUTE_COLORS[r.color]
        size = (20 if r.kind == "ferry" else 16) - (0 if show_lengths else 6)
        for k, v in (
            ("x", x),
            ("y", y),
            ("fill", fill),
            ("ink", _contrast(fill)),
            ("edge", "#ffb300" if r.id in lit else edge),
            ("size", size + 6 * (r.id in lit)),
            ("symbol", _SYMBOL[_style(r)]),
            ("text", _route_text(r)),
            ("hover", _route_hover(r, b.names[seat] if seat is not None else None)),
        ):
            cols[k].append(v)
    return _scatter(
        x=cols["x"],
        y=cols["y"],
        mode="markers+text" if show_lengths else "markers",
        name="routes",
        meta="routes",
        customdata=[r.id for r in b.map.routes],
        hovertext=cols["hover"],
        hovertemplate="%{hovertext}<extra></extra>",
        text=cols["text"] if show_lengths else None,
        textposition="middle center",
        textfont=dict(size=9, color=cols["ink"]),
        showlegend=False,
        marker=dict(
            symbol=cols["symbol"],
            size=cols["size"],
            color=cols["fill"],
            line=dict(color=cols["edge"], width=2.5),
            opacity=0.95,
        ),
    )


def _cities_trace(b: _Board) -> dict:
    """The clickable cities: one point per city, in map order, customdata = name."""
    cities, geo = b.map.cities, b.geo
    names = [c.name for c in cities]
    return _scatter(
        x=[geo.xy[n][0] for n in names],
        y=[geo.xy[n][1] for n in names],
        mode="markers+text",
        name="cities",
        meta="cities",
        customdata=names,
        text=names,
        textposition=[geo.label_position(n) for n in names],
        hovertext=[_city_hover(c, b) for c in cities],
        hovertemplate="%{hovertext}<extra></extra>",
        textfont=dict(
            size=[8 if c.waypoint else 10 for c in cities],
            color=["#1565c0" if c.waypoint else "#1a1a1a" for c in cities],
            shadow="1px 1px 1px #fff, -1px -1px 1px #fff, 1px -1px 1px #fff, -1px 1px 1px #fff",
        ),
        marker=dict(
            symbol=["diamond" if c.waypoint else "circle" for c in cities],
            size=[8 if c.waypoint else 11 for c in cities],
            color=["#90caf9" if c.waypoint else "#fff8e1" for c in cities],
            line=dict(
                color=["#0d47a1" if c.harbor else "#222222" for c in cities],
                width=[3 if c.harbor else 1.5 for c in cities],
            ),
        ),
        showlegend=False,
    )


def _city_hover(c: City, b: _Board) -> str:
    lines = [f"<b>{c.name}</b>"]
    if c.waypoint:
        lines.append("waypoint (no tickets)")
    elif c.harbor:
        lines.append("harbor city")
    if c.name in b.stations:
        lines.append(f"station: {b.names[b.stations[c.name]]}")
    if c.name in b.harbors:
        lines.append(f"harbor: {b.names[b.harbors[c.name]]}")
    lines += [f"ticket {t}" for t in b.ticket_notes.get(c.name, ())]
    return "<br>".join(lines)


def _legend_traces(b: _Board) -> list[dict]:
    """Legend-only samples (no points) of each route style on the map."""
    traces = []
    if b.geo.far:
        far = list(b.geo.far.values())
        traces.append(
            _scatter(
                x=[f[0] for f in far],
                y=[f[1] for f in far],
                mode="text",
                name="edge labels",
                meta="edge labels",
                text=[f"{f[2]} ›" if f[3] == "right" else f"‹ {f[2]}" for f in far],
                textposition=["middle left" if f[3] == "right" else "middle right" for f in far],
                textfont=dict(size=8, color="#546e7a"),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    for i, kind in enumerate(b.kinds):
        traces.append(
            _scatter(
                x=[None],
                y=[None],
                mode="lines+markers",
                name=_LEGEND[kind],
                meta=f"legend:{kind}",
                legendgroup=f"kind:{kind}",
                legendrank=100 + i,
                hoverinfo="skip",
                line=dict(color=ROUTE_COLORS["gray"], width=_LINE_WIDTH, dash=_DASH[kind]),
                marker=dict(symbol=_SYMBOL[kind], size=10, color="#ffffff", line=dict(color=_EDGE, width=2)),
            )
        )
    return traces


def board_figure(
    obj: Any,
    *,
    owners: Mapping[int, int] | None = None,
    player_colors: Sequence[str] | None = None,
    player_names: Sequence[str] | None = None,
    highlight: Iterable[Any] = (),
    paths: Iterable[Any] = (),
    tickets: Iterable[Any] = (),
    stations: Mapping[str, int] | None = None,
    harbors: Mapping[str, int] | None = None,
    title: str | None = None,
    width: int | None = None,
    height: int | None = None,
    show_lengths: bool = True,
) -> go.Figure:
    """Draw a map, an edition or a game state as a plotly figure.

    Parameters
    ----------
    obj : Map, or anything with ``.map`` (an edition), or a game state
        A game state (or a player's view) is duck-typed: ``route_owners()``
        (route id -> seat), ``player_names`` and ``buildings()`` (kind ->
        city -> seat: stations, harbors) are used when the matching keyword
        is not given.
    owners : mapping route id -> seat index, optional
        Claimed routes, drawn thick in the seat's colour.
    player_colors, player_names : sequences, optional
        Seat colours (default :data:`PLAYER_COLORS`) and names
        (default ``"Player 1"``...).  Every seat gets a legend entry.
    highlight : route ids (or Route objects)
        Drawn with a yellow glow and a larger badge.
    paths : sequences of route ids, or objects with ``.routes``
        Each drawn as a thick translucent line in its own colour; an object's
        ``.name`` (a str) becomes its legend entry.
    tickets : Ticket objects, ticket ids or tuples of city names
        Their cities get a star and are joined by a dotted line.
    stations, harbors : mapping city -> seat, optional
        Stations (a square behind the city) and harbors (an anchor badge).
    title, width, height : optional
        Default: the map's name, 900 pixels wide, height to suit the map
        (600 for USA).  ``title=""`` draws no title.
    show_lengths : bool
        Write each route's length in its midpoint badge.

    Returns
    -------
    plotly.graph_objects.Figure
        See the module docstring for the trace order.

    Raises
    ------
    TypeError
        If ``obj`` is not a map, an edition or a state.
    KeyError
        If a route id, ticket id or city is not on the map.

    Examples
    --------
    >>> from ttr_lab.data import load_map
    >>> fig = board_figure(load_map("usa"), highlight=[1], tickets=[("Boston", "Miami")])
    >>> [t.name for t in fig.data if t.name in ("highlight", "tickets", "routes", "cities")]
    ['highlight', 'tickets', 'routes', 'cities']
    """
    b = _Board(obj, owners, player_colors, player_names, highlight, stations, harbors)
    traces = _route_line_traces(b) + _path_traces(b, paths) + _city_overlay_traces(b, tickets)
    traces += [_routes_trace(b, show_lengths), _cities_trace(b)] + _legend_traces(b)
    return go.Figure(data=traces, layout=_layout(b.map, b.geo, title, width, height))


def _layout(m: Map, geo: _Geometry, title: str | None, width: int | None, height: int | None) -> dict:
    x0, x1, y0, y1 = geo.bounds
    pad = 0.06 * geo.extent
    xrange = [-geo.half - pad / 4, geo.half + pad / 4] if geo.wraps else [x0 - pad, x1 + pad]
    has_title = title is None or bool(title)
    width = width or 900
    if height is None:  # fit the map's shape, leaving room for the title and the legend
        height = int(min(620, max(420, (width - 20) / geo.aspect() + (40 if has_title else 10) + 60)))
    axis = dict(visible=False, showgrid=False, zeroline=False)
    return dict(
        title=dict(text=m.name if title is None else title, x=0.01, font=dict(size=16)),
        width=width,
        height=height,
        autosize=False,
        margin=dict(l=10, r=10, t=40 if has_title else 10, b=10),
        xaxis=dict(axis, range=xrange),
        yaxis=dict(axis, range=[y0 - pad, y1 + pad], scaleanchor="x", scaleratio=1),
        plot_bgcolor="#f6f1e3",
        paper_bgcolor="#ffffff",
        hovermode="closest",
        clickmode="event",
        showlegend=True,
        uirevision=_UIREVISION,
        legend=dict(
            orientation="h",
            x=0,
            xanchor="left",
            y=-0.01,
            yanchor="top",
            font=dict(size=10),
            bgcolor="rgba(255,255,255,0.8)",
            itemsizing="constant",
        ),
        meta=dict(ttr_lab="board", map=m.id),
    )


# --------------------------------------------------------------------------- lookups


def _trace_index(fig: Any, name: str) -> int:
    for i, t in enumerate(fig.data):
        if t.meta == name or (t.meta is None and t.name == name):
            return i
    raise NotFoundError(f"figure has no {name!r} trace (was it made by board_figure?)")


def route_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"routes"`` trace.

    >>> from ttr_lab.data import load_map
    >>> fig = board_figure(load_map("usa"))
    >>> fig.data[route_trace_index(fig)].name
    'routes'
    """
    return _trace_index(fig, "routes")


def city_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"cities"`` trace."""
    return _trace_index(fig, "cities")


def route_at(fig: Any, point_index: int) -> int:
    """The route id of point ``point_index`` of the ``"routes"`` trace.

    In a click callback: ``route_at(fig, points.point_inds[0])``.
    """
    return int(fig.data[route_trace_index(fig)].customdata[point_index])


def city_at(fig: Any, point_index: int) -> str:
    """The city name of point ``point_index`` of the ``"cities"`` trace."""
    return str(fig.data[city_trace_index(fig)].customdata[point_index])


# --------------------------------------------------------------------------- update


def _key(trace: Any) -> tuple[str, str]:
    return (trace.type, str(trace.meta if trace.meta is not None else trace.name))


def update_board(fig: Any, obj: Any, **options: Any) -> Any:
    """Redraw ``fig`` (a ``go.Figure`` or ``go.FigureWidget``) in place.

    Takes the same options as :func:`board_figure`.  Traces are matched by
    their ``meta`` key and updated property by property inside
    ``fig.batch_update()``, so trace objects (and callbacks registered with
    ``on_click``) survive; traces that appear or disappear (a new path, a
    highlight) are added or removed.  The axis ranges are left alone unless
    the map changed, so the user's zoom stays.  A ``FigureWidget``'s synced
    state is refreshed too, so a late or reloaded view is not stale.

    Returns ``fig``.

    >>> from ttr_lab.data import load_map
    >>> usa = load_map("usa")
    >>> fig = board_figure(usa, player_names=["Ada", "Bo"])
    >>> k = route_trace_index(fig)
    >>> _ = update_board(fig, usa, owners={1: 0}, player_names=["Ada", "Bo"])
    >>> route_trace_index(fig) == k, fig.data[k].marker.color[0]
    (True, '#1565c0')
    """
    new = board_figure(obj, **options)
    same_map = getattr(fig.layout.meta, "get", lambda k: None)("map") == new.layout.meta["map"]
    old = {_key(t): t for t in fig.data}
    if len(old) != len(fig.data):  # not one of ours: start afresh
        old = {}
    wanted = [_key(t) for t in new.data]
    if [_key(t) for t in fig.data] != wanted:
        fig.data = [t for t in fig.data if _key(t) in old and _key(t) in set(wanted)]
        missing = [t for t in new.data if _key(t) not in old]
        if missing:
            fig.add_traces(missing)
        current = {_key(t): t for t in fig.data}
        fig.data = [current[k] for k in wanted]
        fresh = {_key(t) for t in missing}
    else:
        fresh = set()
    batch = fig.batch_update() if hasattr(fig, "batch_update") else contextlib.nullcontext()
    with batch:
        for target, source in zip(fig.data, new.data):
            if _key(target) not in fresh:
                _assign(target, source.to_plotly_json())
        layout = new.layout.to_plotly_json()
        if same_map:
            for axis in ("xaxis", "yaxis"):
                layout[axis].pop("range", None)
        for k, v in layout.items():
            if k in ("xaxis", "yaxis") and same_map:
                for sub, sv in v.items():
                    if fig.layout[k][sub] != sv and _plain(fig.layout[k][sub]) != sv:
                        fig.layout[k][sub] = sv
            elif _plain(fig.layout[k]) != v:
                fig.layout[k] = v
    if hasattr(fig, "_widget_data"):
        # A FigureWidget syncs _widget_data/_widget_layout only when built or
        # displayed; edits above travel as one-off messages.  Refresh the
        # snapshot so a view that connects later (Voila, a reload) is not stale.
        # Private plotly API; the front end ignores it for live views.
        fig._widget_data = copy.deepcopy(fig._data)
        fig._widget_layout = copy.deepcopy(fig._layout_obj._props)
    return fig


def _plain(value: Any) -> Any:
    return value.to_plotly_json() if hasattr(value, "to_plotly_json") else value


def _assign(trace: Any, props: dict) -> None:
    props = {k: v for k, v in props.items() if k not in ("type", "uid")}
    current = trace.to_plotly_json()
    for k in current:
        if k not in props and k not in ("type", "uid"):
            trace[k] = None
    for k, v in props.items():
        if current.get(k) != v:
            trace[k] = v
