"""The board's plotly pieces as plain dicts: the spaces (layout shapes) and the overlay traces.

Used by :mod:`ttr_lab.board.figure`, which adds the clickable traces, the
labels and the layout; the trace order is documented in :mod:`ttr_lab.board`.
Every overlay is one trace whatever it shows: one that shows nothing has no
points, an empty name and no legend entry (issue 19: a redraw changes what
traces hold, never which traces there are or their order).
No plotly import: these are dicts, validated once by ``go.Figure``.

>>> trace_uid("seat:1"), trace_uid("routes"), layer("cities"), layer("path:0")
('seat-1', 'routes', 2, 0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..maps.loading import COLORS, Map
from .geometry import Space
from .labels import FONT
from .letters import DARK_INK, color_letters, letter_px
from .scene import ROUTE_COLORS, Scene, contrast, style_of, tunnel_edge

__all__ = [
    "scatter",
    "line",
    "polys",
    "center_lines",
    "edge",
    "static_shapes",
    "space_traces",
    "trace_uid",
    "layer",
    "ROUTES",
    "CITIES",
    "LETTERS",
    "EDGE",
    "HALO",
]

ROUTES = "routes"  # meta keys of the two clickable traces
CITIES = "cities"
LETTERS = "color letters"  # meta key of the colour letters' trace

EDGE = "#37474f"  # a space's thin dark edge
HALO = "rgba(96,125,139,0.45)"  # the legend's sample of a last-move halo


def scatter(**props: Any) -> dict[str, Any]:
    """A scatter trace as a plain dict (validated once, by ``go.Figure`` or on assignment)."""
    return {"type": "scatter", **{k: v for k, v in props.items() if v is not None}}


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def trace_uid(key: str) -> str:
    """The ``uid`` of the board trace whose ``meta`` key is ``key``: the key with every character
    but letters, digits, ``_`` and ``-`` made a ``-``.  plotly draws the trace as
    ``<g class="trace scatter trace<uid>">``, so a browser finds a trace by it."""
    return _UNSAFE.sub("-", str(key))


#: ``zorder`` of each kind of trace (plotly draws each value in a layer of its own, lowest first):
#: 0 under the pieces (highlight, last-move halos, paths), 1 the pieces and what sits on them,
#: 2 the clickable routes and cities (and an edition's badges, which say so), 3 the labels
_LAYERS = {"routes": 2, "cities": 2, "city labels": 3, "edge labels": 3}


def layer(key: str) -> int:
    """The ``zorder`` of the board trace whose ``meta`` key is ``key`` (see :data:`_LAYERS`)."""
    if key in _LAYERS:
        return _LAYERS[key]
    return 0 if key == "highlight" or key.startswith(("last:", "path:")) else 1


def polys(polys: Iterable[list[tuple[float, float]]]) -> tuple[list[Any], list[Any]]:
    xs: list[Any] = []
    ys: list[Any] = []
    for poly in polys:
        xs += [p[0] for p in poly] + [poly[0][0], None]
        ys += [p[1] for p in poly] + [poly[0][1], None]
    return xs, ys


def center_lines(scene: Scene, ids: Iterable[int]) -> tuple[list[Any], list[Any]]:
    xs: list[Any] = []
    ys: list[Any] = []
    for rid in ids:
        for piece in scene.geo.lines[rid]:
            xs += [p[0] for p in piece] + [None]
            ys += [p[1] for p in piece] + [None]
    return xs, ys


def line(name: str, xy: tuple[list[Any], list[Any]], color: str, width: float, **extra: Any) -> dict[str, Any]:
    return scatter(
        x=xy[0] or [None],
        y=xy[1] or [None],
        mode="lines",
        name=name,
        meta=extra.pop("meta", name),
        line=dict(color=color, width=width, dash=extra.pop("dash", "solid")),
        hoverinfo="skip",
        showlegend=extra.pop("legend", False),
        **extra,
    )


# --------------------------------------------------------------------------- the spaces


def edge(style: str, color: str) -> dict[str, Any]:
    """The outline of a space: tunnels dotted (light on dark spaces), others a thin dark edge."""
    if style == "tunnel":
        return dict(color=tunnel_edge(ROUTE_COLORS[color]), width=1.6, dash="dot")
    return dict(color=EDGE, width=0.9)


def _path_d(pieces: Iterable[list[tuple[float, float]]], close: bool) -> str:
    z = "Z" if close else ""
    return " ".join("M" + "L".join(f"{x},{y}" for x, y in piece) + z for piece in pieces)


def _oval_d(sp: Space, digits: int) -> str:
    """A ship's oval space as a closed path of two cubic Bezier halves (within 3% of an ellipse)."""
    hl, k = sp.length / 2, 4 / 3 * sp.thick / 2
    ax, ay, nx, ny = hl * sp.ux, hl * sp.uy, -k * sp.uy, k * sp.ux

    def pt(x: float, y: float) -> str:
        return f"{round(sp.x + x, digits)},{round(sp.y + y, digits)}"

    return (
        f"M{pt(ax, ay)}C{pt(ax + nx, ay + ny)} {pt(-ax + nx, -ay + ny)} {pt(-ax, -ay)}"
        f"C{pt(-ax - nx, -ay - ny)} {pt(ax - nx, ay - ny)} {pt(ax, ay)}Z"
    )


_SHAPES: dict[int, tuple[Map, list[dict[str, Any]]]] = {}


def static_shapes(scene: Scene) -> list[dict[str, Any]]:
    """The board that never changes, as layout shapes under every trace: tracks, sea lanes and
    every space in its colour (claimed pieces are drawn over them).  Cached per map, so a redraw
    neither rebuilds nor re-sends them."""
    m, geo = scene.map, scene.geo
    cached = _SHAPES.get(id(m))
    if cached is not None and cached[0] is m:
        return cached[1]
    base = dict(type="path", xref="x", yref="y", layer="below")
    land = [p for r in m.routes if r.kind != "ship" for p in geo.lines[r.id]]
    shapes = [dict(base, name="tracks", path=_path_d(land, False), line=dict(color="rgba(84,110,122,0.55)", width=1.3))]
    ships = [p for r in m.routes if r.kind == "ship" for p in geo.lines[r.id]]
    if ships:
        shapes.append(
            dict(base, name="sea lanes", path=_path_d(ships, False), line=dict(color="rgba(100,181,246,0.6)", width=2))
        )
    for style in scene.styles:
        for color in (c for c in COLORS if any(style_of(r) == style and r.color == c for r in m.routes)):
            ids = [r.id for r in m.routes if style_of(r) == style and r.color == color]
            if style == "ship":  # ovals as two Bezier curves each: smooth, and 7 points rather than 10
                path = " ".join(_oval_d(sp, geo.digits) for rid in ids for sp in geo.spaces[rid])
            else:
                path = _path_d(geo.polygons(ids), True)
            shapes.append(
                dict(
                    base,
                    name=f"{style} {color}",
                    path=path,
                    fillcolor=ROUTE_COLORS[color],
                    line=edge(style, color),
                )
            )
    if len(_SHAPES) > 16:
        _SHAPES.clear()
    _SHAPES[id(m)] = (m, shapes)
    return shapes


def space_traces(scene: Scene, px: float, letters: bool = False, lengths: bool = False) -> list[dict[str, Any]]:
    """Free locomotive marks, the colour letters (if ``letters``; not on the middle boxes, where
    ``lengths`` writes the length), then per seat its claimed pieces (edged in black) and their marks."""
    m, geo, owners = scene.map, scene.geo, scene.owners
    traces = []
    locos = [sp for r in m.routes if r.kind == "ferry" for sp in geo.spaces[r.id] if sp.loco]
    d = geo.digits
    if locos:
        traces.append(
            scatter(
                x=[round(sp.x, d) for sp in locos],
                y=[round(sp.y, d) for sp in locos],
                mode="text",
                text=["L"] * len(locos),
                textposition="middle center",
                textfont=dict(size=max(6.0, 0.95 * geo.thick * px), color="#111111", family=FONT, weight="bold"),
                name="ferry marks",
                meta="ferry marks",
                showlegend=False,
                hoverinfo="skip",
            )
        )
    if letters:
        traces.append(_letters_trace(scene, px, lengths))
    mark = round(max(4.0, 0.85 * geo.thick * px), 1)
    for seat, name in enumerate(scene.names):
        ids = [rid for rid, s in owners.items() if s == seat]
        xs, ys = polys(geo.polygons(ids))
        sizes: list[float] = [0] * len(xs)  # no marks on the outlines' corners
        for rid in ids:
            for sp in geo.spaces[rid]:
                xs += [round(sp.x, d), None]
                ys += [round(sp.y, d), None]
                sizes += [mark, 0]
        color = scene.seat_color[seat]
        traces.append(
            scatter(
                x=xs or [None],
                y=ys or [None],
                mode="lines+markers",
                fill="toself",
                fillcolor=color,
                line=dict(color="#111111", width=1.6),  # the black edge of a claimed piece
                marker=dict(symbol=scene.seat_mark[seat], size=sizes or [0], color=contrast(color), line=dict(width=0)),
                name=f"claimed by {name}",
                meta=f"seat:{seat}",
                legendgroup=f"seat:{seat}",
                legendrank=200 + seat,
                showlegend=True,
                hoverinfo="skip",
            )
        )
    return traces


def _letters_trace(scene: Scene, px: float, lengths: bool) -> dict[str, Any]:
    """The colour letters of the free routes (:mod:`ttr_lab.board.letters`), one text point a box."""
    d = scene.geo.digits
    found = color_letters(scene)
    if lengths:  # the middle box (two of an even route) shows the length
        n = {r.id: r.length for r in scene.map.routes}
        found = [x for x in found if x.space.index not in ((n[x.route] - 1) // 2, n[x.route] // 2)]
    sizes = [letter_px(x.space.thick * px) for x in found] or [6.0]
    inks = [x.ink for x in found] or [DARK_INK]
    return scatter(
        x=[round(x.space.x, d) for x in found] or [None],
        y=[round(x.space.y, d) for x in found] or [None],
        mode="text",
        text=[x.letter for x in found] or [""],
        customdata=[x.route for x in found] or [None],
        textposition="middle center",
        textfont=dict(
            size=sizes[0] if len(set(sizes)) == 1 else sizes,
            color=inks[0] if len(set(inks)) == 1 else inks,
            family=FONT,
            weight="bold",
        ),
        name=LETTERS,
        meta=LETTERS,
        showlegend=False,
        hoverinfo="skip",
    )
