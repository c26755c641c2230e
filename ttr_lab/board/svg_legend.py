"""The SVG board's small pieces (standard library only): short numbers, the seats' marks and the legend.

Split out of :mod:`ttr_lab.board.drawing`, which draws the board with them.
The legend is laid out as plotly lays out a horizontal legend
(:func:`ttr_lab.board.frame.legend_rows`), its font and rows scaled with the
board's width (:func:`ttr_lab.board.frame.text_scale`); the samples keep
their size, as plotly's do.

>>> num(2.50), num(3.0)
('2.5', '3')
>>> mark("circle", 10, 10, 8, "#ffffff")
'<circle cx="10" cy="10" r="4" fill="#ffffff"/>'
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .frame import SIDE_PX, legend_px, legend_rows
from .geometry import THICK_PX
from .labels import text_width
from .scene import HIGHLIGHT, LAST_MOVE, ROUTE_COLORS, STYLES, Scene, contrast, highlight_pen

__all__ = ["EDGE", "num", "mark", "legend"]

EDGE = "#37474f"  # a space's thin dark edge
_HALO = "rgba(96,125,139,0.45)"


def num(v: float) -> str:
    """A coordinate, short."""
    return f"{v:.1f}".rstrip("0").rstrip(".") if abs(v) < 1e6 else "0"


def mark(symbol: str, x: float, y: float, size: float, color: str) -> str:
    """A seat's mark (the plotly marker of the same name), ``size`` pixels across."""
    r = size / 2
    if symbol == "circle":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{color}"/>'
    if symbol in ("cross", "x"):
        w = r * 0.55
        arms = [
            (-w, -r),
            (w, -r),
            (w, -w),
            (r, -w),
            (r, w),
            (w, w),
            (w, r),
            (-w, r),
            (-w, w),
            (-r, w),
            (-r, -w),
            (-w, -w),
        ]
        if symbol == "x":
            c = math.sqrt(0.5)
            arms = [((a - b) * c, (a + b) * c) for a, b in arms]
        pts = [(x + a, y + b) for a, b in arms]
    elif symbol == "diamond":
        pts = [(x, y - r * 1.15), (x + r, y), (x, y + r * 1.15), (x - r, y)]
    elif symbol == "square":
        r *= 0.88
        pts = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    elif symbol == "triangle-up":
        pts = [(x, y - r * 1.1), (x + r, y + r * 0.8), (x - r, y + r * 0.8)]
    else:  # pentagon
        pts = [(x + r * math.sin(2 * math.pi * k / 5), y - r * math.cos(2 * math.pi * k / 5)) for k in range(5)]
    d = "M" + " L".join(f"{num(a)},{num(b)}" for a, b in pts) + "Z"
    return f'<path d="{d}" fill="{color}"/>'


def _sample(scene: Scene, name: str, x: float, y: float) -> str:
    """The legend's little picture for entry ``name``, 30 x 12 px at (x, y)."""
    box = f'x="{num(x)}" y="{num(y)}" width="30" height="11"'
    style = next((k for k, v in STYLES.items() if v == name), None)
    if style is not None:
        fill = ROUTE_COLORS["blue" if style == "ship" else "gray"]
        if style == "ship":
            return f'<ellipse cx="{num(x + 15)}" cy="{num(y + 5.5)}" rx="14" ry="5.5" fill="{fill}" stroke="{EDGE}"/>'
        dash = (
            ' stroke-dasharray="1.6,1.6" stroke="#111111" stroke-width="1.6"'
            if style == "tunnel"
            else f' stroke="{EDGE}"'
        )
        extra = ""
        if style == "ferry":
            extra = f'<text x="{num(x + 15)}" y="{num(y + 5.5)}" dy="0.35em" text-anchor="middle" font-size="9" font-weight="bold">L</text>'
        if style == "paired":
            return (
                f'<rect x="{num(x)}" y="{num(y - 1)}" width="30" height="6" fill="{fill}" stroke="{EDGE}"/>'
                f'<rect x="{num(x)}" y="{num(y + 6)}" width="30" height="6" fill="{fill}" stroke="{EDGE}"/>'
            )
        return f'<rect {box} fill="{fill}"{dash}/>{extra}'
    for seat, seat_name in enumerate(scene.names):
        if name == f"claimed by {seat_name}":
            color = scene.seat_color[seat]
            glyph = mark(scene.seat_mark[seat], x + 15, y + 5.5, 8, contrast(color))
            return f'<rect {box} fill="{color}" stroke="#111111" stroke-width="1.8"/>{glyph}'
    if name == "highlight":  # the frame's dashed line, as plotly's legend shows a line trace
        lw, on, off = highlight_pen(THICK_PX)
        return (
            f'<path d="M{num(x)},{num(y + 5.5)} H{num(x + 30)}" stroke="{HIGHLIGHT}" stroke-width="{num(lw)}" '
            f'stroke-dasharray="{num(on)},{num(off)}"/>'
        )
    band = {LAST_MOVE: _HALO}
    band.update({p[0]: p[2] for p in scene.paths})
    if name in band:
        return f'<rect x="{num(x)}" y="{num(y)}" width="30" height="11" rx="5" fill="{band[name]}"/>'
    if name == "tickets":
        return f'<circle cx="{num(x + 15)}" cy="{num(y + 5.5)}" r="5" fill="none" stroke="#ff8f00" stroke-width="3"/>'
    return f'<circle cx="{num(x + 15)}" cy="{num(y + 5.5)}" r="5.5" fill="#9e9e9e" stroke="#111111"/>'


def legend(scene: Scene, names: list[str], top: float, width: float, k: float = 1.0) -> list[str]:
    """The legend's entries, their font and rows scaled by ``k`` (the samples keep their size, as plotly's)."""
    out = []
    _, col = legend_rows(names, width, k)
    font, row = legend_px(k)
    mid = row / 2 - 1.5  # an entry's middle, below its row's top (8.5 px at the default size)
    x, y = 0.0, 0.0
    for name in names:
        w = col or (text_width(name, font) + 46)
        if x and x + w > width + 1e-6:
            x, y = 0.0, y + row
        bx, by = SIDE_PX + 4 + x, top + 6 + y
        out.append(_sample(scene, name, bx, by + mid - 5.5))
        out.append(
            f'<text x="{num(bx + 40)}" y="{num(by + mid)}" dy="0.35em" font-size="{num(font)}" fill="#2a3f5f">{escape(name)}</text>'
        )
        x += w
    return out
