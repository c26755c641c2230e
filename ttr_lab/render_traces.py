"""The board's plotly pieces as plain dicts: the spaces (layout shapes) and the overlay traces.

Used by :mod:`ttr_lab.render_figure`, which adds the clickable traces, the
labels and the layout; the trace order is documented in :mod:`ttr_lab.render`.
No plotly import: these are dicts, validated once by ``go.Figure``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board_frame import Frame
from .board_geometry import Space
from .board_labels import DOT_R, FONT
from .board_letters import DARK_INK, color_letters, letter_px
from .board_scene import (
    HIGHLIGHT,
    ROUTE_COLORS,
    Scene,
    contrast,
    highlight_frames,
    highlight_pen,
    style_of,
    tunnel_edge,
)
from .data import COLORS, Map

__all__ = [
    "scatter",
    "line",
    "polys",
    "center_lines",
    "edge",
    "static_shapes",
    "space_traces",
    "under_traces",
    "city_overlays",
    "harbor_trace",
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
    """The colour letters of the free routes (:mod:`ttr_lab.board_letters`), one text point a box."""
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


# --------------------------------------------------------------------------- overlays


def under_traces(scene: Scene, px: float) -> list[dict[str, Any]]:
    """The highlight frames (dashed, outside the spaces), path rings around their spaces and the
    last-move halos (under the claimed pieces); ``px`` is pixels per board unit."""
    geo, traces = scene.geo, []
    if scene.highlight:
        width, dash, gap = highlight_pen(geo.thick * px)
        outline = polys(highlight_frames(geo, scene.highlight))
        traces.append(
            line("highlight", outline, HIGHLIGHT, width, dash=f"{dash}px,{gap}px", legend=True, legendrank=400)
        )
    for seat, name in enumerate(scene.names if scene.show_last else ()):
        move = scene.last.get(seat)
        color = _translucent(scene.seat_color[seat], 0.5)
        if move is not None and move[0] != "route":
            x, y = geo.xy[move[1]]
            traces.append(
                scatter(
                    x=[x],
                    y=[y],
                    mode="markers",
                    name=f"last move of {name}",
                    meta=f"last:{seat}",
                    marker=dict(symbol="circle", size=30, color=color, line=dict(width=0)),
                    hoverinfo="skip",
                    showlegend=False,
                    legendgroup="last",
                )
            )
        else:
            ids = [move[1]] if move is not None else []
            xy = center_lines(scene, ids)
            traces.append(line(f"last move of {name}", xy, color, 17, meta=f"last:{seat}", legendgroup="last"))
    for i, (name, ids, color) in enumerate(scene.paths):
        outline = polys(geo.polygons(ids))
        traces.append(
            line(name, outline, color.replace("0.4", "0.8"), 5, legend=True, meta=f"path:{i}", legendrank=300 + i)
        )
    return traces


def _translucent(color: str, alpha: float) -> str:
    h = color.lstrip("#")
    if len(h) != 6:
        return color
    try:
        r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return color
    return f"rgba({r},{g},{b},{alpha})"


def city_overlays(scene: Scene, frame: Frame) -> list[dict[str, Any]]:
    """Ticket lines and rings, station squares (all unclickable)."""
    geo, traces = scene.geo, []
    if scene.tickets:
        lx: list[Any] = []
        ly: list[Any] = []
        for cities, _ in scene.tickets:
            for c0, c1 in zip(cities, cities[1:]):
                lx += [geo.xy[c0][0], geo.xy[c1][0], None]
                ly += [geo.xy[c0][1], geo.xy[c1][1], None]
        ringed = list(scene.ticket_notes)
        traces.append(line("ticket lines", (lx, ly), "#b8860b", 1.5, dash="dot", legendgroup="tickets"))
        traces.append(
            scatter(
                x=[geo.xy[c][0] for c in ringed],
                y=[geo.xy[c][1] for c in ringed],
                mode="markers",
                name="tickets",
                meta="tickets",
                legendgroup="tickets",
                legendrank=500,
                hoverinfo="skip",
                marker=dict(
                    symbol="circle-open", size=2 * DOT_R + 9, color="#ff8f00", line=dict(color="#ff8f00", width=3)
                ),
            )
        )
    if scene.stations:
        cs = list(scene.stations)
        traces.append(
            scatter(
                x=[geo.xy[c][0] for c in cs],
                y=[geo.xy[c][1] for c in cs],
                mode="markers",
                name="stations",
                meta="stations",
                legendrank=510,
                hoverinfo="skip",
                marker=dict(
                    symbol="square",
                    size=2 * DOT_R + 5,
                    color=[scene.seat_color[scene.stations[c]] for c in cs],
                    line=dict(color="#111111", width=1.5),
                ),
            )
        )
    leaders = [lab.leader for lab in frame.labels if lab.leader]
    if leaders:
        d = geo.digits
        xs = [v if v is None else round(v, d) for p, q in leaders for v in (p[0], q[0], None)]
        ys = [v if v is None else round(v, d) for p, q in leaders for v in (p[1], q[1], None)]
        traces.append(line("label leaders", (xs, ys), "#607d8b", 0.9))
    return traces


def harbor_trace(scene: Scene, frame: Frame) -> list[dict[str, Any]]:
    if not scene.harbors:
        return []
    cs = list(scene.harbors)
    at = [frame.badges.get(c) or _beside(scene, frame, c) for c in cs]
    return [
        scatter(
            x=[p[0] for p in at],
            y=[p[1] for p in at],
            mode="markers+text",
            name="harbors",
            meta="harbors",
            legendrank=520,
            hoverinfo="skip",
            text=["⚓"] * len(cs),
            textposition="middle center",
            textfont=dict(color="#ffffff", size=10),
            marker=dict(
                symbol="circle",
                size=15,
                color=[scene.seat_color[scene.harbors[c]] for c in cs],
                line=dict(color="#111111", width=1),
            ),
        )
    ]


def _beside(scene: Scene, frame: Frame, city: str) -> tuple[float, float]:
    """Below and right of a city that has no harbor spot (not a harbor city on this map)."""
    x, y = scene.geo.xy[city]
    d = (DOT_R + 9) / frame.scale
    return (x + d, y - d)
