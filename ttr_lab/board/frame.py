"""The frame of a board picture: its size in pixels and the ranges it shows (standard library only).

:func:`frame` places the labels (:mod:`ttr_lab.board.labels`) for a plot of
a given size, then sets the ranges to hold every city, car space, label and
badge with a small margin, so no label is clipped at the plot's edge.  The
labels are placed 3% larger than they are drawn, so a plot a little smaller
than planned still holds them.  :func:`board_frame` adds the title and the
legend around the plot.  The legend's room below the map is sized by the
entries every board of a game shows (its route styles, its seats, the last
move) plus :data:`SPARE_ROWS` rows for what comes and goes (a highlight,
paths, tickets, an edition's marks), never by the entries shown now: so a
board keeps its plot area, axis ranges and aspect at every redraw of a game
(issue 19), and a legend longer than its room scrolls (plotly) rather than
moving the map.  The rows are worked out as plotly lays out a horizontal
legend.

Text grows with the picture: :func:`text_scale` is the picture's width over
:data:`DEFAULT_WIDTH` (900 px), kept within 1 and 2, and every font of the
board (city, waypoint and edge labels, the legend, the title) is its default
size times that factor, so a board sized for a projector gets larger labels
(labels are placed at the size they are drawn, so they still do not overlap).
Below 900 px the fonts stay at their default sizes, the smallest that read
well.

>>> text_scale(600), text_scale(900), round(text_scale(1400), 3), text_scale(3000)
(1.0, 1.0, 1.556, 2.0)

>>> from ttr_lab.maps import load_map
>>> f = frame(load_map("usa"), 880)
>>> all(f.inside(lab.box()) for lab in f.labels)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..maps.loading import Map
from .geometry import Geometry, Point, geometry
from .labels import BADGE_R, CITY_PX, Label, place_labels, text_width

__all__ = [
    "SIDE_PX",
    "LEGEND_PX",
    "LEGEND_ROW_PX",
    "SPARE_ROWS",
    "TITLE_PX",
    "DEFAULT_WIDTH",
    "Frame",
    "frame",
    "board_frame",
    "text_scale",
    "title_top",
    "legend_rows",
    "legend_height",
]

Box = tuple[float, float, float, float]
SIDE_PX = 10.0  # left and right margins of a board picture
LEGEND_PX = 11.0  # legend font size
LEGEND_ROW_PX = 20.0
SPARE_ROWS = 2  # legend rows kept free for the entries that come and go during a game
TITLE_PX = 16  # title font size
DEFAULT_WIDTH = 900  # a board picture's width when none is given
_TEXT_BOUNDS = (1.0, 2.0)  # text_scale's range
_MAX_ASPECT = 0.64  # a board taller than this (height / width) is fitted by its height


@dataclass(frozen=True, slots=True)
class Frame:
    """A plot ``width`` by ``height`` pixels showing ``xrange`` by ``yrange`` at ``scale`` px per unit."""

    width: float
    height: float
    xrange: tuple[float, float]
    yrange: tuple[float, float]
    scale: float
    labels: tuple[Label, ...]
    badges: dict[str, Point]  # harbor city -> where its harbor badge goes

    def inside(self, box: tuple[float, float, float, float]) -> bool:
        x0, x1, y0, y1 = box
        eps = 1e-9
        return (
            x0 >= self.xrange[0] - eps
            and x1 <= self.xrange[1] + eps
            and y0 >= self.yrange[0] - eps
            and y1 <= self.yrange[1] + eps
        )


_MARGIN_PX = 6.0  # between the outermost drawing and the plot's edge
_SAFETY = 0.97  # labels are placed a little larger than they will be drawn
_FRAMES: dict[tuple[int, float, float | None, float], tuple[Map, Frame]] = {}


def text_scale(width: float) -> float:
    """The factor on every font of a board ``width`` pixels wide: ``width / 900`` within 1 and 2."""
    lo, hi = _TEXT_BOUNDS
    return min(max(float(width) / DEFAULT_WIDTH, lo), hi)


def title_top(width: float, has_title: bool = True) -> float:
    """The top margin of a board picture: room for the title at its scaled size (8 px without one)."""
    return round(40.0 * text_scale(width), 1) if has_title else 8.0


def frame(m: Map, width: float, height: float | None = None, text: float = 1.0) -> Frame:
    """Labels placed and ranges set for a plot ``width`` (by ``height``, or as tall as the map needs) pixels.

    The ranges hold every city, space and label with a small margin; when
    both sizes are given the map is centred in the plot.  ``text`` is the
    factor on the label fonts (:func:`text_scale` of the picture's width).
    Cached per map, size and factor.
    """
    key = (id(m), float(width), None if height is None else float(height), float(text))
    cached = _FRAMES.get(key)
    if cached is not None and cached[0] is m:
        return cached[1]
    geo = geometry(m)
    x0, x1, y0, y1 = geo.bounds
    start = _fit(width, height, x1 - x0, y1 - y0, 2 * _MARGIN_PX)
    bases = tuple(round((CITY_PX - d) * text, 1) for d in (0, 2, 3))
    for base in bases:  # a smaller font all over only if some label found no room
        scale = start
        for _ in range(6):
            labels, badges, failed = place_labels(m, geo, scale * _SAFETY, base, give_up=base != bases[-1], text=text)
            ext = _extent(geo, labels, badges, _MARGIN_PX / (scale * _SAFETY))
            fitted = _fit(width, height, ext[1] - ext[0], ext[3] - ext[2], 0.0)
            if fitted >= scale * _SAFETY * 0.999:
                break
            scale = fitted
        else:  # pragma: no cover - labels stay within a few pixels of the map, so this converges
            fitted = scale * _SAFETY
        if not failed:
            break
    if height is None:
        height = float(math.ceil((ext[3] - ext[2]) * fitted - 1e-6))
    xr, yr = _center(ext, width, height, fitted)
    f = Frame(width, height, xr, yr, fitted, tuple(labels), badges)
    if len(_FRAMES) > 32:
        _FRAMES.clear()
    _FRAMES[key] = (m, f)
    return f


def _fit(width: float, height: float | None, dx: float, dy: float, margin: float) -> float:
    s = (width - margin) / max(dx, 1e-9)
    if height is not None:
        s = min(s, (height - margin) / max(dy, 1e-9))
    return max(s, 1e-9)


def _extent(geo: Geometry, labels: list[Label], badges: dict[str, Point], pad: float) -> Box:
    x0, x1, y0, y1 = geo.bounds
    for lab in labels:
        b = lab.box()
        x0, x1, y0, y1 = min(x0, b[0]), max(x1, b[1]), min(y0, b[2]), max(y1, b[3])
    r = BADGE_R / _MARGIN_PX * pad
    for bx, by in badges.values():
        x0, x1, y0, y1 = min(x0, bx - r), max(x1, bx + r), min(y0, by - r), max(y1, by + r)
    return (x0 - pad, x1 + pad, y0 - pad, y1 + pad)


def _center(ext: Box, width: float, height: float, s: float) -> tuple[tuple[float, float], tuple[float, float]]:
    x0, x1, y0, y1 = ext
    extra_x = max(width / s - (x1 - x0), 0.0) / 2
    extra_y = max(height / s - (y1 - y0), 0.0) / 2
    return (x0 - extra_x, x1 + extra_x), (y0 - extra_y, y1 + extra_y)


# --------------------------------------------------------------------------- the whole picture


def legend_px(text: float = 1.0) -> tuple[float, float]:
    """The legend's font size and row height at text factor ``text`` (:func:`text_scale`)."""
    return round(LEGEND_PX * text, 1), round(LEGEND_ROW_PX * text, 1)


def legend_item_px(name: str, text: float = 1.0) -> float:
    """Width of one horizontal legend entry: its sample, then its text."""
    return text_width(name, legend_px(text)[0]) + 46.0


def legend_rows(names: list[str], width: float, text: float = 1.0) -> tuple[int, float]:
    """Rows and column width of a horizontal legend wrapped at ``width`` pixels (as plotly lays it out).

    One row if every entry fits; else a grid whose columns are as wide as the widest entry.
    """
    widths = [legend_item_px(n, text) for n in names]
    if sum(widths) <= width:
        return 1, 0.0
    col = max(widths)
    cols = max(1, int(width // col))
    return -(-len(names) // cols), col


def legend_height(names: list[str], width: float, text: float = 1.0, spare: int = 0) -> float:
    """Height of a horizontal legend of ``names`` wrapped at ``width`` pixels, plus ``spare``
    empty rows (0 if there is nothing at all)."""
    if not names and not spare:
        return 0.0
    rows = legend_rows(names, width, text)[0] if names else 0
    return (rows + spare) * legend_px(text)[1] + 8.0


def board_frame(
    m: Map, width: float, height: float | None, top: float, legend: list[str], spare: int = SPARE_ROWS
) -> tuple[Frame, float, float]:
    """The frame of a ``width`` x ``height`` picture with ``top`` pixels of title and a legend below.

    Returns ``(frame, bottom margin, total height)``.  The plot is as tall as
    the map needs at this width (at most 0.64 of the picture's width).  The
    legend's room below it holds ``legend`` (the entries always shown) and
    ``spare`` more rows; with a ``height``, the legend takes whatever the
    map leaves, and the map is scaled down only when it would leave less
    than that room.  Nothing here depends on what a board shows at the
    moment, so every redraw of a game has the same plot area and ranges.
    Fonts are scaled by :func:`text_scale` of ``width``.

    >>> from ttr_lab.maps import load_map
    >>> usa = load_map("usa")
    >>> f, bottom, total = board_frame(usa, 620, None, 8.0, ["claimed by Ada", "claimed by Bo"])
    >>> f.width, f.height, bottom, total
    (600.0, 383.0, 72.0, 463.0)
    >>> f, bottom, total = board_frame(usa, 620, 496, 8.0, ["claimed by Ada", "claimed by Bo"])
    >>> f.height, bottom, total  # the same map; the legend has the rest
    (383.0, 105.0, 496.0)
    """
    k = text_scale(width)
    plot_w = width - 2 * SIDE_PX
    room = legend_height(legend, plot_w, k, spare) + 4.0
    f = frame(m, plot_w, text=k)
    if f.height > _MAX_ASPECT * width:
        f = frame(m, plot_w, float(round(_MAX_ASPECT * width)), text=k)
    if height is not None:
        avail = max(float(height) - top - room, 60.0)
        if f.height > avail:
            f = frame(m, plot_w, avail, text=k)
        room = max(float(height) - top - f.height, 0.0)
    return f, room, top + f.height + room
