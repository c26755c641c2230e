"""The board's overlay traces as plain dicts: highlight, last-move halos, paths, tickets, an edition's marks.

Split out of :mod:`ttr_lab.board.traces` (the spaces, the pieces and the
trace helpers); used by :mod:`ttr_lab.board.figure` and
:mod:`ttr_lab.board.plotly.update`.  Every overlay is one trace whatever it shows:
one that shows nothing has no points, an empty name and no legend entry, so
a redraw changes what traces hold, never which traces there are (issue 19);
an edition's marks are one trace per style it declares (:mod:`ttr_lab.board.marks`).
No plotly import.

>>> from ttr_lab.maps import load_map
>>> from ttr_lab.board.scene import Scene
>>> [t["name"] for t in under_traces(Scene(load_map("usa"), player_names=["Ada"]), 10.0)]
['', 'last move of Ada']
"""

from __future__ import annotations

from typing import Any

from .frame import Frame
from .labels import DOT_R
from .marks import CityMark, MarkStyle, RouteMark
from .scene import HIGHLIGHT, Scene, highlight_frames, highlight_pen
from .traces import center_lines, line, polys, scatter

__all__ = ["under_traces", "path_traces", "empty_path", "city_overlays", "badge_traces"]


def under_traces(scene: Scene, px: float) -> list[dict[str, Any]]:
    """The highlight frames (dashed, outside the spaces; always a trace, empty without a
    highlight) and the last-move halos (under the claimed pieces); ``px`` is pixels per board unit."""
    geo = scene.geo
    width, dash, gap = highlight_pen(geo.thick * px)
    outline = polys(highlight_frames(geo, scene.highlight))
    shown = bool(scene.highlight)
    traces = [
        line(
            "highlight" if shown else "",
            outline,
            HIGHLIGHT,
            width,
            meta="highlight",
            dash=f"{dash}px,{gap}px",
            legend=shown,
            legendrank=400,
        )
    ]
    for seat, name in enumerate(scene.names if scene.show_last else ()):
        move = scene.last.get(seat)
        color = _translucent(scene.seat_color[seat], 0.5)
        if move is not None and not scene.on_route(move):
            x, y = geo.xy[str(move.target)]
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
            ids = [int(move.target)] if move is not None else []
            xy = center_lines(scene, ids)
            traces.append(line(f"last move of {name}", xy, color, 17, meta=f"last:{seat}", legendgroup="last"))
    return traces


def path_traces(scene: Scene, px: float) -> list[dict[str, Any]]:
    """A translucent band round each path's spaces (``path:<i>``), in the path's colour."""
    traces = []
    for i, (name, ids, color) in enumerate(scene.paths):
        outline = polys(scene.geo.polygons(ids))
        traces.append(
            line(name, outline, color.replace("0.4", "0.8"), 5, legend=True, meta=f"path:{i}", legendrank=300 + i)
        )
    return traces


def empty_path(i: int) -> dict[str, Any]:
    """Path slot ``i`` showing nothing (a redraw with fewer paths than a board had before)."""
    return dict(line("", ([], []), "rgba(0,0,0,0)", 5, meta=f"path:{i}", legendrank=300 + i), uid=f"path-{i}")


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
    """Ticket lines and rings, the edition's marks but badges (a trace per style, each empty
    when there are none), and the leader lines of moved labels (if any); all unclickable."""
    geo, traces = scene.geo, []
    lx: list[Any] = []
    ly: list[Any] = []
    for cities, _ in scene.tickets:
        for c0, c1 in zip(cities, cities[1:]):
            lx += [geo.xy[c0][0], geo.xy[c1][0], None]
            ly += [geo.xy[c0][1], geo.xy[c1][1], None]
    ringed = list(scene.ticket_notes)
    traces.append(
        line(
            "ticket lines" if ringed else "",
            (lx, ly),
            "#b8860b",
            1.5,
            meta="ticket lines",
            dash="dot",
            legendgroup="tickets",
        )
    )
    traces.append(
        scatter(
            x=[geo.xy[c][0] for c in ringed] or [None],
            y=[geo.xy[c][1] for c in ringed] or [None],
            mode="markers",
            name="tickets" if ringed else "",
            meta="tickets",
            legendgroup="tickets",
            legendrank=500,
            showlegend=bool(ringed),
            hoverinfo="skip",
            marker=dict(symbol="circle-open", size=2 * DOT_R + 9, color="#ff8f00", line=dict(color="#ff8f00", width=3)),
        )
    )
    for style, marks in scene.marks:
        if style.shape != "badge":
            traces.append(_mark_trace(scene, style, marks, frame.scale))
    leaders = [lab.leader for lab in frame.labels if lab.leader]
    if leaders:
        d = geo.digits
        xs = [v if v is None else round(v, d) for p, q in leaders for v in (p[0], q[0], None)]
        ys = [v if v is None else round(v, d) for p, q in leaders for v in (p[1], q[1], None)]
        traces.append(line("label leaders", (xs, ys), "#607d8b", 0.9))
    return traces


def _mark_trace(scene: Scene, style: MarkStyle, marks: list[Any], px: float) -> dict[str, Any]:
    """A square behind each city, a ring round it, or a cross on each route's middle, in the owner's colour."""
    geo = scene.geo
    at = [geo.mid[k.route] if isinstance(k, RouteMark) else geo.xy[k.city] for k in marks]
    color = [scene.mark_color(k.owner) for k in marks] or "#111111"
    if style.shape == "square":
        marker = dict(symbol="square", size=2 * DOT_R + 5, color=color, line=dict(color="#111111", width=1.5))
    elif style.shape == "ring":
        marker = dict(symbol="circle-open", size=2 * DOT_R + 17, color=color, line=dict(width=3))
    else:  # a cross on the route
        size = round(max(12.0, 2.2 * geo.thick * px), 1)
        marker = dict(symbol="x", size=size, color=color, line=dict(color="#111111", width=1))
    return scatter(
        x=[p[0] for p in at] or [None],
        y=[p[1] for p in at] or [None],
        mode="markers",
        name=style.legend if marks else "",
        meta=style.legend,
        legendrank=style.rank,
        showlegend=bool(marks),
        hoverinfo="skip",
        marker=marker,
    )


def badge_traces(scene: Scene, frame: Frame) -> list[dict[str, Any]]:
    """The badges beside their cities (a harbor's anchor), a trace per badge style, each empty
    when there are none; drawn over the pieces, beside the clickable cities (``zorder`` 2)."""
    traces = []
    for style, marks in scene.marks:
        if style.shape != "badge":
            continue
        cs = [k.city for k in marks if isinstance(k, CityMark)]
        at = [frame.badges.get(c) or _beside(scene, frame, c) for c in cs]
        traces.append(
            scatter(
                x=[p[0] for p in at] or [None],
                y=[p[1] for p in at] or [None],
                mode="markers+text",
                name=style.legend if cs else "",
                meta=style.legend,
                legendrank=style.rank,
                showlegend=bool(cs),
                hoverinfo="skip",
                text=[style.glyph] * len(cs) or [""],
                textposition="middle center",
                textfont=dict(color="#ffffff", size=10),
                marker=dict(
                    symbol="circle",
                    size=15,
                    color=[scene.mark_color(k.owner) for k in marks] or "#111111",
                    line=dict(color="#111111", width=1),
                ),
                zorder=2,
            )
        )
    return traces


def _beside(scene: Scene, frame: Frame, city: str) -> tuple[float, float]:
    """Below and right of a city that has no badge spot (not a harbor city on this map)."""
    x, y = scene.geo.xy[city]
    d = (DOT_R + 9) / frame.scale
    return (x + d, y - d)
