"""Marker layers added on top of a board figure, drawn into the board's static SVG.

:class:`ttr_lab.board.BoardFigure` saves its board as an SVG beside the
interactive figure.  A figure that has had marker traces added on top (the
heatmaps of :mod:`ttr_lab.simulate.heatmaps`: a square on every car space,
a disc on every city, coloured by a value) still shows the board it was
drawn as, plus those markers: :func:`with_markers` draws them into the SVG,
where the figure draws them, with their colours, sizes, opacity and edges,
and a small colour bar for a colour scale.  Only what a static picture can
hold is drawn (no hover text), and a trace it cannot draw faithfully (lines,
text, another kind of trace) makes :func:`with_markers` answer None: no
picture rather than a wrong one.

The plot area is read from the SVG (the first nested ``<svg>``, as
:func:`ttr_lab.board.drawing.scene_svg` writes it) and the axis ranges from
the figure's layout, so a marker lands where plotly draws it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["with_markers"]

_PLOT = re.compile(r'<svg x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)" overflow="hidden">')
_SYMBOLS = ("circle", "square")
MAX_MARKERS = 20_000  # a layer with more points is not drawn (bounded work for a display)


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _each(value: Any, n: int) -> list[Any]:
    """A per-point property as a list of ``n`` (a scalar repeated)."""
    if isinstance(value, (list, tuple)):
        return list(value)[:n] + [value[-1] if value else None] * (n - len(value))
    return [value] * n


def _colors(marker: Any, n: int) -> tuple[list[str], tuple[Any, float, float] | None]:
    """Each point's colour, and (colorscale, cmin, cmax) when the colours come from numbers."""
    color = marker.color
    numbers = isinstance(color, (list, tuple)) and all(isinstance(c, (int, float)) for c in color)
    if not numbers:
        return [c if isinstance(c, str) else "#636efa" for c in _each(color, n)], None
    from plotly.colors import sample_colorscale

    values = [float(c) for c in color][:n]
    lo = float(marker.cmin) if marker.cmin is not None else min(values, default=0.0)
    hi = float(marker.cmax) if marker.cmax is not None else max(values, default=1.0)
    span = hi - lo if hi > lo else 1.0
    scale = marker.colorscale or "Viridis"
    if isinstance(scale, (list, tuple)):  # plotly keeps a named scale as ((position, colour), ...)
        scale = [[float(at), str(c)] for at, c in scale]
    fractions = [min(max((v - lo) / span, 0.0), 1.0) for v in values]
    return list(sample_colorscale(scale, fractions)) if fractions else [], (scale, lo, hi)


def _colorbar(scale: Any, lo: float, hi: float, title: str, width: float, k: int) -> list[str]:
    """A vertical colour bar in the plot's top-right corner: the scale, its ends and its title."""
    from plotly.colors import sample_colorscale

    stops = [i / 10 for i in range(11)]
    colors = sample_colorscale(scale, stops)
    gid = f"ttr-colorbar-{k}"
    x, y, w, h = width - 64.0 - 80.0 * k, 24.0, 12.0, 120.0
    out = [f'<linearGradient id="{gid}" x1="0" y1="1" x2="0" y2="0">']
    out += [f'<stop offset="{_num(s)}" stop-color="{c}"/>' for s, c in zip(stops, colors)]
    out.append("</linearGradient>")
    out.append(
        f'<rect x="{_num(x - 6)}" y="{_num(y - 18)}" width="74" height="{_num(h + 36)}" fill="#ffffff" '
        f'fill-opacity="0.85" stroke="#999999" stroke-width="0.5"/>'
    )
    out.append(
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" fill="url(#{gid})" '
        f'stroke="#444444" stroke-width="0.5"/>'
    )
    for value, yy in ((hi, y + 4), (lo, y + h)):
        out.append(f'<text x="{_num(x + w + 4)}" y="{_num(yy)}" font-size="10" fill="#2a3f5f">{value:.3g}</text>')
    out.append(f'<text x="{_num(x - 2)}" y="{_num(y - 6)}" font-size="10" fill="#2a3f5f">{escape(title[:18])}</text>')
    return out


def with_markers(svg: str, traces: Sequence[Any], xrange: Sequence[float], yrange: Sequence[float]) -> str | None:
    """``svg`` with the marker ``traces`` drawn on its plot area (``xrange``, ``yrange``: the figure's axes).

    None when a trace is not a plain marker layer (only ``scatter`` traces
    in ``markers`` mode with circle or square symbols are drawn), when the
    SVG has no plot area to draw on, or when a layer has more than
    :data:`MAX_MARKERS` points.
    """
    found = _PLOT.search(svg)
    if found is None or len(xrange) != 2 or len(yrange) != 2:
        return None
    px, py, width, height = (float(g) for g in found.groups())
    x0, x1 = float(xrange[0]), float(xrange[1])
    y0, y1 = float(yrange[0]), float(yrange[1])
    if not (x1 > x0 and y1 > y0):
        return None
    sx, sy = width / (x1 - x0), height / (y1 - y0)
    layer = [f'<svg x="{_num(px)}" y="{_num(py)}" width="{_num(width)}" height="{_num(height)}" overflow="hidden">']
    bars = 0
    for trace in traces:
        if getattr(trace, "type", None) != "scatter" or (trace.mode or "") != "markers":
            return None
        xs, ys = list(trace.x or ()), list(trace.y or ())
        n = min(len(xs), len(ys))
        if n > MAX_MARKERS:
            return None
        marker = trace.marker
        symbols = _each(marker.symbol or "circle", n)
        if any(s not in _SYMBOLS for s in symbols):
            return None
        colors, scale = _colors(marker, n)
        sizes = [float(s) if isinstance(s, (int, float)) else 6.0 for s in _each(marker.size, n)]
        opacity = float(marker.opacity) if isinstance(marker.opacity, (int, float)) else 1.0
        edge = float(marker.line.width) if isinstance(marker.line.width, (int, float)) else 0.0
        stroke = marker.line.color if isinstance(marker.line.color, str) else "#444444"
        name = escape(str(trace.name or ""))
        layer.append(f'<g class="marker-layer" data-name="{name}" opacity="{_num(opacity)}">')
        for x, y, color, size, symbol in zip(xs[:n], ys[:n], colors, sizes, symbols):
            if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (x, y)):
                continue
            cx, cy, r = (x - x0) * sx, (y1 - y) * sy, size / 2
            line = f' stroke="{stroke}" stroke-width="{_num(edge)}"' if edge > 0 else ""
            if symbol == "square":
                layer.append(
                    f'<rect x="{_num(cx - r)}" y="{_num(cy - r)}" width="{_num(size)}" height="{_num(size)}" '
                    f'fill="{color}"{line}/>'
                )
            else:
                layer.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="{color}"{line}/>')
        layer.append("</g>")
        if scale is not None and marker.showscale is True:  # as plotly: a colour bar only when asked for
            title = marker.colorbar.title.text if marker.colorbar.title.text else str(trace.name or "")
            layer += _colorbar(*scale, title=title, width=width, k=bars)
            bars += 1
    layer.append("</svg>")
    end = svg.rstrip().rfind("</svg>")
    return svg[:end] + "\n".join(layer) + "\n" + svg[end:]
