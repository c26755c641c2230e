"""The board drawn as SVG (standard library only): the drawing behind :mod:`ttr_lab.board`.

:func:`board_svg` draws the board that :func:`ttr_lab.board.board_figure`
draws, from the same geometry, scene and label placement: a box per car
space, owners' pieces with their marks, each player's last move, cities and
labels where the figure puts them, and the same legend.  :func:`scene_svg`
draws an already resolved :class:`~ttr_lab.board.scene.Scene` (a snapshot:
:mod:`ttr_lab.board` keeps one with each figure, for its static picture).
Shared by :mod:`ttr_lab.board` and :mod:`ttr_lab.board`, which the import
layers keep apart; the legend and the seats' marks are in
:mod:`ttr_lab.board.svg_legend`.

>>> import xml.etree.ElementTree as ET
>>> from ttr_lab.maps import load_map
>>> svg = board_svg(load_map("usa"), owners={1: 0}, player_names=["Ada", "Bo"])
>>> ET.fromstring(svg).tag
'{http://www.w3.org/2000/svg}svg'
>>> "claimed by Ada" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .frame import DEFAULT_WIDTH, SIDE_PX, TITLE_PX, Frame, board_frame, legend_height, text_scale, title_top
from .geometry import Space
from .labels import DOT_R, FONT
from .letters import color_letters, letter_px
from .marks import BoardMark, CityMark, MarkStyle, RouteMark
from .options import BoardOptions
from .scene import (
    HIGHLIGHT,
    ROUTE_COLORS,
    Scene,
    contrast,
    highlight_frames,
    highlight_pen,
    route_facts,
    style_of,
    tunnel_edge,
)
from .svg_legend import EDGE as _EDGE
from .svg_legend import legend as _legend
from .svg_legend import mark as _mark
from .svg_legend import num as _n

__all__ = ["board_svg", "scene_svg", "SVG_MIME", "PLOTLY_MIME"]

SVG_MIME = "image/svg+xml"
PLOTLY_MIME = "application/vnd.plotly.v1+json"


def _rgba(color: str, alpha: float) -> str:
    h = color.lstrip("#")
    if len(h) != 6 or not color.startswith("#"):
        return color
    try:
        r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return color
    return f"rgba({r},{g},{b},{alpha})"


class _Pen:
    """Writes SVG elements in plot pixels (board units mapped through the frame)."""

    def __init__(self, frame: Frame) -> None:
        self.f = frame
        self.out: list[str] = []

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.f.xrange[0]) * self.f.scale, (self.f.yrange[1] - y) * self.f.scale

    def add(self, text: str) -> None:
        self.out.append(text)

    def poly_d(self, pts: Iterable[tuple[float, float]], close: bool = True) -> str:
        q = [self.p(x, y) for x, y in pts]
        d = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in q)
        return d + ("Z" if close else "")

    def lines(self, pieces: Iterable[list[tuple[float, float]]], color: str, width: float, extra: str = "") -> None:
        d = " ".join(self.poly_d(piece, close=False) for piece in pieces)
        if d:
            self.add(
                f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{_n(width)}" '
                f'stroke-linecap="round" stroke-linejoin="round"{extra}/>'
            )


def _space(pen: _Pen, sp: Space, fill: str, stroke: str, width: float, dash: str = "") -> str:
    if sp.shape == "oval":
        x, y = pen.p(sp.x, sp.y)
        angle = -math.degrees(math.atan2(sp.uy, sp.ux))
        s = pen.f.scale
        return (
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(sp.length * s / 2)}" ry="{_n(sp.thick * s / 2)}" '
            f'transform="rotate({_n(angle)} {_n(x)} {_n(y)})" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>'
        )
    return f'<path d="{pen.poly_d(sp.polygon())}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>'


def _routes(pen: _Pen, scene: Scene, letters: bool = False) -> None:
    """Drawn in the figure's order: tracks, every space (a ``<g>`` per route, its description as a
    tooltip; with ``letters`` the colour letters of a free route), highlight frames (dashed, outside
    the spaces), last-move halos, path rings, then the claimed pieces with their marks."""
    geo, s = scene.geo, pen.f.scale
    routes = scene.map.routes
    codes: dict[int, list[str]] = {}
    for code in color_letters(scene) if letters else ():
        cx, cy = pen.p(code.space.x, code.space.y)
        codes.setdefault(code.route, []).append(
            f'<text x="{_n(cx)}" y="{_n(cy)}" dy="0.35em" text-anchor="middle" class="color-letter" font-size='
            f'"{_n(letter_px(code.space.thick * s))}" font-weight="bold" fill="{code.ink}">{code.letter}</text>'
        )
    pen.lines([p for r in routes if r.kind != "ship" for p in geo.lines[r.id]], "rgba(84,110,122,0.55)", 1.3)
    pen.lines([p for r in routes if r.kind == "ship" for p in geo.lines[r.id]], "rgba(100,181,246,0.6)", 2)
    for r in routes:
        tip = escape("\n".join(route_facts(r) + [_owner_words(scene, r.id)]))
        pen.add(f'<g data-route="{r.id}"><title>{tip}</title>')
        tunnel = style_of(r) == "tunnel"
        fill = ROUTE_COLORS[r.color]
        edge, width, dash = (tunnel_edge(fill), 1.6, ' stroke-dasharray="1.6,1.6"') if tunnel else (_EDGE, 0.9, "")
        for sp in geo.spaces[r.id]:
            pen.add(_space(pen, sp, fill, edge, width, dash))
            if sp.loco:
                x, y = pen.p(sp.x, sp.y)
                pen.add(
                    f'<text x="{_n(x)}" y="{_n(y)}" dy="0.35em" text-anchor="middle" '
                    f'font-size="{_n(max(6.0, 0.95 * geo.thick * s))}" font-weight="bold" fill="#111111">L</text>'
                )
        pen.out += codes.get(r.id, ())
        pen.add("</g>")
    if scene.highlight:
        lw, on, off = highlight_pen(geo.thick * s)
        d = " ".join(pen.poly_d(frame) for frame in highlight_frames(geo, scene.highlight))
        pen.add(
            f'<path d="{d}" fill="none" stroke="{HIGHLIGHT}" stroke-width="{_n(lw)}" stroke-dasharray="{_n(on)},'
            f'{_n(off)}" stroke-linejoin="round" data-highlight="{len(scene.highlight)}"/>'
        )
    for seat, move in scene.last.items():
        color = _rgba(scene.seat_color[seat], 0.5)
        if scene.on_route(move):
            pen.lines(geo.lines[int(move.target)], color, 17)
        else:
            x, y = pen.p(*geo.xy[str(move.target)])
            pen.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="15" fill="{color}"/>')
    for _name, ids, color in scene.paths:
        for rid in ids:
            for sp in geo.spaces[rid]:
                pen.add(_space(pen, sp, "none", color.replace("0.4", "0.8"), 5))
    mark = max(4.0, 0.85 * geo.thick * s)
    for rid, seat in scene.owners.items():
        color = scene.seat_color[seat]
        tip = escape("\n".join(route_facts(scene.map.route(rid)) + [_owner_words(scene, rid)]))
        pen.add(f'<g data-route="{rid}" data-seat="{seat}"><title>{tip}</title>')
        for sp in geo.spaces[rid]:
            pen.add(_space(pen, sp, color, "#111111", 1.8))
            x, y = pen.p(sp.x, sp.y)
            pen.add(_mark(scene.seat_mark[seat], x, y, mark, contrast(color)))
        pen.add("</g>")
    for style, marks in scene.marks:
        if style.on == "route":
            _crosses(pen, scene, style, marks)


def _crosses(pen: _Pen, scene: Scene, style: MarkStyle, marks: list[BoardMark]) -> None:
    """A route mark: a cross on the route's middle in its owner's colour, edged in black, its words as a tooltip."""
    size = max(12.0, 2.2 * scene.geo.thick * pen.f.scale)
    for k in marks:
        if not isinstance(k, RouteMark):
            continue
        x, y = pen.p(*scene.geo.mid[k.route])
        cross = _mark("x", x, y, size, scene.mark_color(k.owner)).replace("/>", ' stroke="#111111"/>')
        tip = escape(scene.mark_line(k))
        pen.add(f'<g data-mark="{escape(style.kind)}" data-route="{k.route}"><title>{tip}</title>{cross}</g>')


def _owner_words(scene: Scene, rid: int) -> str:
    owner = scene.owner_name(rid)
    words = f"claimed by {owner}" if owner else "free"
    for seat, move in scene.last.items():
        if move == ("route", rid):
            words += f" (last move of {scene.names[seat]})"
    for k in scene.route_marks(rid):
        words += "\n" + scene.mark_line(k)
        if k.owner is not None and scene.last.get(k.owner) == (k.kind, rid):
            words += f" (last move of {scene.names[k.owner]})"
    return words


def _cities(pen: _Pen, scene: Scene) -> None:
    geo = scene.geo
    for cities, _ in scene.tickets:
        pen.lines([[geo.xy[c] for c in cities]], "#b8860b", 1.5, ' stroke-dasharray="2,3"')
    for name in scene.ticket_notes:
        x, y = pen.p(*geo.xy[name])
        pen.add(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(DOT_R + 4.5)}" fill="none" stroke="#ff8f00" stroke-width="3"/>'
        )
    for style, marks in scene.marks:
        if style.on == "city" and style.shape != "badge":
            _city_marks(pen, scene, style, marks)
    for lab in pen.f.labels:
        if lab.leader:
            pen.lines([list(lab.leader)], "#607d8b", 0.9)
    for style, marks in scene.marks:
        if style.shape == "badge":
            _city_marks(pen, scene, style, marks)
    for c in scene.map.cities:
        x, y = pen.p(*geo.xy[c.name])
        tip = [c.name] + (["waypoint (no tickets)"] if c.waypoint else ["harbor city"] if c.harbor else [])
        tip += [scene.mark_line(k) for k in scene.city_marks(c.name)]
        tip += [f"ticket {t}" for t in scene.ticket_notes.get(c.name, ())]
        title = f"<title>{escape(chr(10).join(tip))}</title>"
        if c.waypoint:
            r = DOT_R - 2
            d = f"M{_n(x)},{_n(y - r)} L{_n(x + r)},{_n(y)} L{_n(x)},{_n(y + r)} L{_n(x - r)},{_n(y)}Z"
            pen.add(f'<path d="{d}" fill="#90caf9" stroke="#222222" stroke-width="1.5">{title}</path>')
        else:
            edge, width = ("#0d47a1", 3) if c.harbor else ("#222222", 1.5)
            r = DOT_R - 0.75 - width / 2
            pen.add(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#fff8e1" stroke="{edge}" '
                f'stroke-width="{width}">{title}</circle>'
            )
    for lab in pen.f.labels:
        x, y = pen.p(lab.x, lab.y)
        color = "#546e7a" if lab.kind == "edge" else "#0d47a1" if lab.kind == "waypoint" else "#1a1a1a"
        pen.add(
            f'<text x="{_n(x)}" y="{_n(y)}" dy="0.35em" text-anchor="middle" font-size="{_n(lab.size)}" '
            f'fill="{color}" stroke="#ffffff" stroke-width="2.5" stroke-linejoin="round" paint-order="stroke">'
            f"{escape(lab.text)}</text>"
        )


def _city_marks(pen: _Pen, scene: Scene, style: MarkStyle, marks: list[BoardMark]) -> None:
    """City marks in their owner's colour: a square behind the dot, a ring round it, or a badge
    beside the city (at its badge spot) with the style's glyph."""
    for k in marks:
        if not isinstance(k, CityMark):
            continue
        color = scene.mark_color(k.owner)
        x, y = pen.p(*scene.geo.xy[k.city])
        if style.shape == "square":
            h = DOT_R + 2.5
            pen.add(
                f'<rect x="{_n(x - h)}" y="{_n(y - h)}" width="{_n(2 * h)}" height="{_n(2 * h)}" '
                f'fill="{color}" stroke="#111111" stroke-width="1.5"/>'
            )
        elif style.shape == "ring":
            pen.add(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(DOT_R + 7)}" fill="none" stroke="{color}" stroke-width="3"/>'
            )
        else:
            spot = pen.f.badges.get(k.city)
            x, y = pen.p(*spot) if spot else (x + DOT_R + 9, y + DOT_R + 9)
            pen.add(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7.5" fill="{color}" stroke="#111111"/>'
                f'<text x="{_n(x)}" y="{_n(y)}" dy="0.35em" text-anchor="middle" font-size="10" fill="#ffffff">'
                f"{escape(style.glyph)}</text>"
            )


def board_svg(obj: Any, options: BoardOptions | None = None, /, **keywords: Any) -> str:
    """The board of a map, an edition or a game state (or a view) as an SVG document.

    Takes the options of :func:`ttr_lab.board.board_figure` (a
    :class:`~ttr_lab.board.options.BoardOptions`, keywords, or both) with
    the same meaning and defaults (``show_lengths`` is the figure's only),
    and draws the same board at the same size, the edition's marks
    included; raises the same errors
    (:class:`~ttr_lab.errors.NotFoundError`,
    :class:`~ttr_lab.errors.WrongTypeError`).  Each route's spaces and each
    city carry a ``<title>``, shown as a tooltip by browsers.  The text grows
    with ``width``; ``show_color_letters=True`` writes R, O, Y, G, B, P, W, K
    (black) in the boxes of every free route, nothing on gray, for
    colour-blind students (:mod:`ttr_lab.board.letters`):

    >>> from ttr_lab.maps import load_map
    >>> svg = board_svg(load_map("europe"), show_color_letters=True, width=1400)
    >>> svg.count('class="color-letter"') > 100, '>K</text>' in svg
    (True, True)
    """
    return scene_svg(Scene(obj, options, **keywords))


def scene_svg(scene: Scene) -> str:
    """The SVG document of a resolved :class:`~ttr_lab.board.scene.Scene` (what :func:`board_svg`
    draws), with the title and size of the scene's options."""
    opts = scene.options
    title, height, show_color_letters = opts.title, opts.height, opts.show_color_letters
    width = int(opts.width or DEFAULT_WIDTH)
    text = scene.map.name if title is None else title
    top = title_top(width, bool(text))
    k = text_scale(width)
    names = scene.legend_names()
    frame, bottom, total = board_frame(scene.map, width, height, top, scene.legend_base())  # as the figure's
    if not height:  # a legend longer than the figure's room (which scrolls there) makes the picture taller
        total += max(legend_height(names, width - 2 * SIDE_PX, k) + 4.0 - bottom, 0.0)
    total = float(height) if height else math.ceil(total)
    pen = _Pen(frame)
    _routes(pen, scene, show_color_letters)
    _cities(pen, scene)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_n(total)}" '
        f'viewBox="0 0 {width} {_n(total)}" font-family={quoteattr(FONT)} role="img" '
        f"aria-label={quoteattr(text or scene.map.name)}>",
        f"<title>{escape(text or scene.map.name)}</title>",
        f'<rect width="{width}" height="{_n(total)}" fill="#ffffff"/>',
    ]
    if text:
        head.append(
            f'<text x="{_n(SIDE_PX + 0.01 * width)}" y="{_n(25 * k)}" font-size="{_n(TITLE_PX * k)}" '
            f'fill="#2a3f5f">{escape(text)}</text>'
        )
    plot = [
        f'<svg x="{_n(SIDE_PX)}" y="{_n(top)}" width="{_n(frame.width)}" height="{_n(frame.height)}" overflow="hidden">',
        f'<rect width="{_n(frame.width)}" height="{_n(frame.height)}" fill="#f6f1e3"/>',
        *pen.out,
        "</svg>",
    ]
    legend = _legend(scene, names, top + frame.height, width - 2 * SIDE_PX, k)
    return "\n".join(head + plot + legend + ["</svg>"]) + "\n"
