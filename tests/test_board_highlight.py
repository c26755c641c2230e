"""The highlight is unmistakable: a colour no route of any shipped map uses, distinct from every route
colour for colour-blind viewers too, and a dashed frame (a cue that is not hue) drawn around the
route's spaces, never over them, the same in the plotly figure, the SVG and both legends."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from ttr_lab.board import board_figure, board_svg
from ttr_lab.board.geometry import THICK_PX, geometry
from ttr_lab.board.scene import HIGHLIGHT, ROUTE_COLORS, highlight_frames, highlight_pen
from ttr_lab.maps import available_maps, load_map

MAPS = available_maps()
NS = {"s": "http://www.w3.org/2000/svg"}

# Machado, Oliveira & Fernandes (2009), severity 1, on linear RGB
_DICHROMACY = {
    "normal vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.01182, 0.04294, 0.968881)),
}


def _rgb(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` or ``rgb(a)(r,g,b[,a])`` as integers (alpha dropped)."""
    c = color.strip().lower()
    if c.startswith("#") and len(c) == 7:
        return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
    r, g, b = (int(float(v)) for v in c[c.index("(") + 1 : c.index(")")].split(",")[:3])
    return r, g, b


def _lab(rgb: tuple[int, int, int], matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    lin = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
    r, g, b = (min(max(sum(m * v for m, v in zip(row, lin)), 0.0), 1.0) for row in matrix)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _route_colors() -> dict[str, set[str]]:
    """Each shipped map's route colours as drawn (lower-case ``#rrggbb``)."""
    return {name: {ROUTE_COLORS[r.color].lower() for r in load_map(name).routes} for name in MAPS}


def test_the_highlight_colour_is_no_route_colour_of_any_shipped_map():
    for name, colors in _route_colors().items():
        assert HIGHLIGHT.lower() not in colors, name
        assert _rgb(HIGHLIGHT) not in {_rgb(c) for c in colors}, name


@pytest.mark.parametrize("name", MAPS)
def test_both_drawings_stroke_the_highlight_in_a_colour_no_space_of_the_map_is_filled_with(name):
    m = load_map(name)
    rid = m.routes[0].id
    fig = board_figure(m, highlight=[rid])
    fills = {_rgb(s.fillcolor) for s in fig.layout.shapes if s.fillcolor}
    assert fills >= {_rgb(ROUTE_COLORS[r.color]) for r in m.routes}
    lit = [t for t in fig.data if t.name == "highlight"]
    assert len(lit) == 1 and _rgb(lit[0].line.color) not in fills
    root = ET.fromstring(board_svg(m, highlight=[rid]))
    drawn = {
        _rgb(e.get("fill")) for e in root.iter() if (e.get("fill") or "none") != "none" and "(" not in e.get("fill")
    }
    frames = [e for e in root.iter(f"{{{NS['s']}}}path") if e.get("stroke") == HIGHLIGHT]
    assert frames and {_rgb(e.get("stroke")) for e in frames}.isdisjoint(drawn)


def test_the_highlight_stays_far_from_every_route_colour_for_colour_blind_viewers():
    """CIELAB distance (CIE76) after simulating each dichromacy: at least 40 (two colours ~20 apart look alike
    on a busy board; the old amber was 7 from yellow under deuteranopia, magenta 13 from blue)."""
    colors = set().union(*_route_colors().values()) | {"#f6f1e3"}  # and the board's background
    for vision, matrix in _DICHROMACY.items():
        hl = _lab(_rgb(HIGHLIGHT), matrix)
        for c in colors:
            assert math.dist(hl, _lab(_rgb(c), matrix)) >= 40, (vision, c)
    amber = _lab(_rgb("#ffc107"), _DICHROMACY["deuteranopia"])
    assert math.dist(amber, _lab(_rgb(ROUTE_COLORS["yellow"]), _DICHROMACY["deuteranopia"])) < 40  # the test bites


def test_the_highlight_is_dashed_in_both_drawings_and_both_legends():
    usa = load_map("usa")
    fig = board_figure(usa, highlight=[1])
    lit = next(t for t in fig.data if t.name == "highlight")
    assert lit.showlegend and lit.line.dash not in (None, "solid") and lit.fill is None  # plotly's legend: this line
    root = ET.fromstring(board_svg(usa, highlight=[1]))
    frames = [e for e in root.iter(f"{{{NS['s']}}}path") if e.get("stroke") == HIGHLIGHT]
    assert len(frames) == 2  # the frame on the board, the legend's sample
    assert all(e.get("stroke-dasharray") and e.get("fill", "none") == "none" for e in frames)
    width, dash, gap = highlight_pen(THICK_PX)
    assert 0 < width < THICK_PX / 2 and dash > 0 and gap > 0


def _seg_dist(p, q, a, b) -> float:
    """Distance between segments pq and ab (0 if they cross)."""

    def cross(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    if (cross(p, q, a) > 0) != (cross(p, q, b) > 0) and (cross(a, b, p) > 0) != (cross(a, b, q) > 0):
        return 0.0

    def to_seg(o, s, t):
        dx, dy = t[0] - s[0], t[1] - s[1]
        k = max(0.0, min(1.0, ((o[0] - s[0]) * dx + (o[1] - s[1]) * dy) / (dx * dx + dy * dy or 1.0)))
        return math.dist(o, (s[0] + k * dx, s[1] + k * dy))

    return min(to_seg(p, a, b), to_seg(q, a, b), to_seg(a, p, q), to_seg(b, p, q))


def _inside(pt, poly) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@pytest.mark.parametrize("name", MAPS)
def test_the_frame_goes_round_every_route_and_leaves_its_spaces_uncovered(name):
    """The frame's line, as wide as drawn at the nominal size, keeps half a pixel off each of the route's
    spaces (so the boxes, the car count, stay visible) and encloses them."""
    m = load_map(name)
    geo = geometry(m)
    half = highlight_pen(THICK_PX)[0] / 2 * geo.unit_px
    margin = 0.5 * geo.unit_px
    for r in m.routes:
        frames = highlight_frames(geo, [r.id])
        assert 1 <= len(frames) <= 2, r.id
        edges = [(f[i], f[(i + 1) % len(f)]) for f in frames for i in range(len(f))]
        for sp in geo.spaces[r.id]:
            poly = sp.polygon()
            sides = list(zip(poly, poly[1:] + poly[:1]))
            gap = min(_seg_dist(p, q, a, b) for p, q in edges for a, b in sides)
            assert gap >= half + margin, (name, r.id, sp.index, gap / geo.unit_px)
            if not geo.wraps or len(frames) == 1:
                assert any(_inside((sp.x, sp.y), f) for f in frames), (name, r.id, sp.index)


def test_a_highlight_of_several_routes_has_a_frame_each():
    usa = load_map("usa")
    ids = [r.id for r in usa.routes[:5]]
    assert len(highlight_frames(geometry(usa), ids)) == 5
    fig = board_figure(usa, highlight=ids)
    lit = next(t for t in fig.data if t.name == "highlight")
    assert sum(v is None for v in lit.x) == 5
