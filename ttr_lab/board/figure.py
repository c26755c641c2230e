"""A board's plotly figure as plain dicts: the clickable traces, the labels, the legend and the layout.

:func:`build` turns a :class:`~ttr_lab.board.scene.Scene` into the trace
dicts and the layout dict of :func:`ttr_lab.board.board_figure` (the trace
order is documented in :mod:`ttr_lab.board`), with the title and size of
the scene's :class:`~ttr_lab.board.options.BoardOptions`; :func:`build_from`
takes the drawn object and the options.  No plotly import: ``go.Figure``
validates the result.
"""

from __future__ import annotations

from typing import Any

from ..maps.loading import Map
from .frame import DEFAULT_WIDTH, SIDE_PX, TITLE_PX, Frame, board_frame, legend_px, text_scale, title_top
from .labels import DOT_R, FONT
from .options import BoardOptions
from .overlays import badge_traces, city_overlays, path_traces, under_traces
from .scene import LAST_MOVE, ROUTE_COLORS, STYLES, Scene, route_facts
from .traces import CITIES, EDGE, HALO, ROUTES, layer, line, scatter, space_traces, static_shapes, trace_uid

__all__ = ["build", "build_from"]

_UIREVISION = "ttr_lab-board"
_SHADOW = "1px 1px 1px #fff, -1px -1px 1px #fff, 1px -1px 1px #fff, -1px 1px 1px #fff"


# --------------------------------------------------------------------------- clickable traces and labels


def _route_owner(scene: Scene, rid: int) -> str:
    """The changing lines of a route's hover: who owns it (and whose last move it was), then the
    edition's marks on it (likewise); empty while free and unmarked."""
    owner = scene.owner_name(rid)
    text = ""
    if owner:
        text = f"<br>claimed by {owner}"
        for seat, move in scene.last.items():
            if move == ("route", rid):
                text += f" (last move of {scene.names[seat]})"
    for k in scene.route_marks(rid):
        text += "<br>" + scene.mark_line(k)
        if k.owner is not None and scene.last.get(k.owner) == (k.kind, rid):
            text += f" (last move of {scene.names[k.owner]})"
    return text


_HOVERS: dict[int, tuple[Map, list[str], list[str]]] = {}


def _route_hovers(scene: Scene) -> tuple[list[str], list[str]]:
    """Every hit point's route name (as the move notation writes it) and facts (cached per map)."""
    m = scene.map
    cached = _HOVERS.get(id(m))
    if cached is None or cached[0] is not m:
        names: list[str] = []
        facts: list[str] = []
        for r in m.routes:
            n = len(scene.geo.hits[r.id])
            names += [f"{r.label()} #{r.id}"] * n
            facts += [route_facts(r)[1]] * n
        if len(_HOVERS) > 16:
            _HOVERS.clear()
        cached = _HOVERS[id(m)] = (m, names, facts)
    return cached[1], cached[2]


def _routes_trace(scene: Scene, px: float) -> dict[str, Any]:
    """The clickable trace: faint markers along every route (``Geometry.hits``), in map order, customdata = route id.

    The hover is the route's name (``hovertext``, the same for the whole
    game) and its facts and owner (``text``), so a claim re-sends only the
    ``text`` of the points and their marker colours (the owner's, white
    while free, which the widgets' tests and the browser test read).  The
    markup is in the ``hovertemplate``, once, not on every point.
    """
    xs: list[float] = []
    ys: list[float] = []
    ids: list[int] = []
    fills: list[str] = []
    texts: list[str] = []
    names, facts = _route_hovers(scene)
    hit = max(8.0, 1.6 * scene.geo.thick * px)
    for r in scene.map.routes:
        owner = _route_owner(scene, r.id)
        seat = scene.owners.get(r.id)
        fill = scene.seat_color[seat] if seat is not None else "#ffffff"
        for x, y in scene.geo.hits[r.id]:
            xs.append(x)
            ys.append(y)
            ids.append(r.id)
            fills.append(fill)
            texts.append(facts[len(texts)] + owner)
    return scatter(
        x=xs,
        y=ys,
        mode="markers",
        name=ROUTES,
        meta=ROUTES,
        customdata=ids,
        hovertext=names,
        text=texts,
        hovertemplate="<b>%{hovertext}</b><br>%{text}<extra></extra>",
        hoverlabel=dict(bgcolor="#ffffff", bordercolor="#37474f", font=dict(color="#111111")),
        showlegend=False,
        marker=dict(symbol="circle", size=round(hit, 1), color=fills, opacity=0.01, line=dict(width=0)),
    )


def _lengths_trace(scene: Scene, px: float) -> dict[str, Any]:
    routes = scene.map.routes
    return scatter(
        x=[scene.geo.mid[r.id][0] for r in routes],
        y=[scene.geo.mid[r.id][1] for r in routes],
        mode="text",
        text=[str(r.length) for r in routes],
        textposition="middle center",
        textfont=dict(size=max(6.0, 0.95 * scene.geo.thick * px), color="#111111", family=FONT),
        name="lengths",
        meta="lengths",
        showlegend=False,
        hoverinfo="skip",
    )


def _one(values: list[Any]) -> Any:
    """A per-point property as one value when every point has the same (a shorter figure)."""
    return values[0] if values and all(v == values[0] for v in values) else values


def _city_hover(scene: Scene, name: str) -> str:
    c = scene.map.city(name)
    lines = [f"<b>{c.name}</b>"]
    if c.waypoint:
        lines.append("waypoint (no tickets)")
    elif c.harbor:
        lines.append("harbor city")
    for k in scene.city_marks(name):
        lines.append(scene.mark_line(k))
        if k.owner is not None and scene.last.get(k.owner) == (k.kind, name):
            lines.append(f"{scene.names[k.owner]}'s last move")
    lines += [f"ticket {t}" for t in scene.ticket_notes.get(name, ())]
    return "<br>".join(lines)


def _cities_trace(scene: Scene) -> dict[str, Any]:
    """The clickable cities: one point per city, in map order, customdata = name."""
    cities, geo, d = scene.map.cities, scene.geo, scene.geo.digits
    return scatter(
        x=[round(geo.xy[c.name][0], d) for c in cities],
        y=[round(geo.xy[c.name][1], d) for c in cities],
        mode="markers",
        name=CITIES,
        meta=CITIES,
        customdata=[c.name for c in cities],
        hovertext=[_city_hover(scene, c.name) for c in cities],
        hovertemplate="%{hovertext}<extra></extra>",
        marker=dict(
            symbol=_one(["diamond" if c.waypoint else "circle" for c in cities]),
            size=_one([2 * DOT_R - 4 if c.waypoint else 2 * DOT_R - 1.5 for c in cities]),
            color=_one(["#90caf9" if c.waypoint else "#fff8e1" for c in cities]),
            line=dict(
                color=_one(["#0d47a1" if c.harbor else "#222222" for c in cities]),
                width=_one([3 if c.harbor else 1.5 for c in cities]),
            ),
        ),
        showlegend=False,
    )


def _label_traces(frame: Frame, d: int) -> list[dict[str, Any]]:
    traces = []
    for name, kinds, color in (("city labels", ("city", "waypoint"), None), ("edge labels", ("edge",), "#546e7a")):
        labs = [lab for lab in frame.labels if lab.kind in kinds]
        if not labs:
            continue
        traces.append(
            scatter(
                x=[round(lab.x, d) for lab in labs],
                y=[round(lab.y, d) for lab in labs],
                mode="text",
                text=[lab.text for lab in labs],
                customdata=[lab.key for lab in labs],
                textposition="middle center",
                textfont=dict(
                    family=FONT,
                    size=_one([round(lab.size, 1) for lab in labs]),
                    color=color or _one(["#0d47a1" if lab.kind == "waypoint" else "#1a1a1a" for lab in labs]),
                    shadow=_SHADOW,
                ),
                name=name,
                meta=name,
                showlegend=False,
                hoverinfo="skip",
            )
        )
    return traces


def _legend_traces(scene: Scene) -> list[dict[str, Any]]:
    """Legend-only samples (no points) of each route style on the map, and of the last-move halo."""
    traces = []
    for i, style in enumerate(scene.styles):
        edge = dict(color="#111111", width=1.6, dash="dot") if style == "tunnel" else dict(color=EDGE, width=0.9)
        traces.append(
            scatter(
                x=[None],
                y=[None],
                mode="lines",
                fill="toself",
                fillcolor=ROUTE_COLORS["gray"] if style != "ship" else ROUTE_COLORS["blue"],
                line=edge,
                name=STYLES[style],
                meta=f"legend:{style}",
                legendgroup=f"kind:{style}",
                legendrank=100 + i,
                hoverinfo="skip",
            )
        )
    if scene.show_last and scene.names:
        traces.append(
            line(
                LAST_MOVE,
                ([None], [None]),
                HALO,
                10,
                legend=True,
                meta="legend:last",
                legendrank=450,
                legendgroup="last",
            )
        )
    return traces


# --------------------------------------------------------------------------- figure


def build(scene: Scene) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The traces and the layout of a board, as plain dicts (title and size: the scene's options).

    The clickable ``routes`` and ``cities`` come first, then the same
    traces for every board of a game whatever it shows (the order is in
    :mod:`ttr_lab.board`), then one per path; each has ``uid``
    :func:`~ttr_lab.board.traces.trace_uid` of its ``meta`` key and the
    ``zorder`` of its layer (:func:`~ttr_lab.board.traces.layer`, or the
    one an edition's mark trace says).
    """
    opts = scene.options
    title, height = opts.title, opts.height
    has_title = title is None or bool(title)
    width = int(opts.width or DEFAULT_WIDTH)
    top = title_top(width, has_title)
    frame, bottom, total = board_frame(scene.map, width, height, top, scene.legend_base())
    px = frame.scale
    traces = [_routes_trace(scene, px), _cities_trace(scene)] + badge_traces(scene, frame)
    traces += under_traces(scene, px) + space_traces(scene, px, opts.show_color_letters, opts.show_lengths)
    if opts.show_lengths:
        traces.append(_lengths_trace(scene, px))
    traces += city_overlays(scene, frame)
    traces += _label_traces(frame, scene.geo.digits) + _legend_traces(scene) + path_traces(scene, px)
    for t in traces:
        z = t.pop("zorder", None)
        t["uid"] = trace_uid(t["meta"])
        z = layer(t["meta"]) if z is None else z
        if z:
            t["zorder"] = z
    return traces, _layout(scene, frame, title, width, int(height or round(total)), top, bottom)


def _layout(
    scene: Scene, frame: Frame, title: str | None, width: int, height: int, top: float, bottom: float
) -> dict[str, Any]:
    m = scene.map
    axis = dict(visible=False, showgrid=False, zeroline=False, fixedrange=False)
    k = text_scale(width)
    hover: dict[str, Any] = dict(align="left")
    if k != 1:  # plotly's 13 px hover text, scaled (left unset at the default size)
        hover["font"] = dict(size=round(13 * k, 1))
    return dict(
        # no plotly template: its 7 kB would be sent with every board; the few looks it gave are set here
        template="none",
        title=dict(
            text=m.name if title is None else title,
            x=0.01,
            font=dict(size=TITLE_PX if k == 1 else round(TITLE_PX * k, 1)),
        ),
        font=dict(family=FONT, color="#2a3f5f"),
        hoverlabel=hover,
        width=width,
        height=height,
        autosize=False,
        margin=dict(l=SIDE_PX, r=SIDE_PX, t=top, b=bottom, pad=0, autoexpand=False),
        xaxis=dict(axis, range=list(frame.xrange)),
        yaxis=dict(axis, range=list(frame.yrange), scaleanchor="x", scaleratio=1),
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
            y=0,
            yanchor="top",
            traceorder="normal",
            font=dict(size=legend_px(k)[0]),
            maxheight=max(round(bottom - 4), 30),  # a longer legend scrolls: it never takes the map's room
            bgcolor="rgba(255,255,255,0)",
            itemsizing="constant",
        ),
        meta=dict(ttr_lab="board", map=m.id),
        shapes=static_shapes(scene),
    )


def build_from(
    obj: Any, options: BoardOptions | None = None, /, **keywords: Any
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The traces and layout of ``board_figure(obj, options, **keywords)``, as plain dicts."""
    return build(Scene(obj, options, **keywords))
