"""City labels that never overlap one another (standard library only).

:func:`place_labels` places every label of a map at a given scale (pixels
per board unit); :mod:`ttr_lab.board.frame` then sizes the plot's ranges to
hold the cities, the car spaces *and* the labels, so nothing is clipped.  The
plotly figure and the SVG both use the result, so a label sits at the same
place in both.

Placement is greedy over candidate positions with collision boxes:

* a label's box comes from a font-width model (:func:`text_width`: Arial /
  Liberation Sans advance widths, the font the board asks for, plus a pixel
  of halo each side);
* each city tries 8 positions around its dot, then rings 8 to 88 pixels
  farther out in 16 directions; a label 16 pixels or more away gets a leader
  line to its dot;
* hard rules: no overlap with a placed label, a city dot, a harbor badge's
  spot, an edge label or a leader line, and no leader crossing a label or a
  dot; soft costs: car spaces covered, distance, direction (right of the dot
  first), leaving the map's own bounds;
* the most crowded cities choose first; a city with no free spot tries a
  font a pixel smaller before taking the least crowded spot (and
  :func:`ttr_lab.board.frame.frame` then tries a smaller font for all).

The far-side names at the cut edge of a map across the date line are placed
first, beside their routes.  Returned boxes are in board units (see
:mod:`ttr_lab.board.geometry`).

>>> from ttr_lab.maps import load_map
>>> from ttr_lab.board.geometry import geometry
>>> usa = load_map("usa")
>>> labels, badges, failed = place_labels(usa, geometry(usa), 16.0)
>>> len(labels) == len(usa.cities), failed, sorted(lab.text for lab in labels)[:2]
(True, 0, ['Atlanta', 'Boston'])
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

from ..maps.loading import Map
from .geometry import Geometry, Point

__all__ = ["FONT", "CITY_PX", "WAYPOINT_PX", "EDGE_PX", "DOT_R", "BADGE_R", "text_width", "Label", "place_labels"]

#: The labels' font: Arial or a font with its metrics (Liberation Sans, Helvetica).
FONT = "Arial, 'Liberation Sans', Helvetica, sans-serif"
CITY_PX = 11.0  # font size of a city label
WAYPOINT_PX = 9.0
EDGE_PX = 9.0  # far-side names at the date line
DOT_R = 6.5  # a city dot's radius with its border, pixels
BADGE_R = 7.5  # a harbor badge's radius
_PAD = 1.5  # air between two labels
# Advance widths (1/1000 em) of ' ' .. '~' in Arial/Liberation Sans, the larger of regular and bold.
_W = (
    "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 "
    "333 333 584 584 584 611 1015 722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 667 778 722 667 "
    "611 722 667 944 667 667 611 333 278 333 584 556 333 556 611 556 611 556 333 611 611 278 278 556 278 889 "
    "611 611 611 611 389 556 333 611 556 778 556 556 500 389 280 389 584"
)
_WIDTHS = {chr(32 + i): int(w) / 1000 for i, w in enumerate(_W.split())}
_DIRS = (0, 180, 45, 315, 135, 225, 90, 270)  # east first, then west, the diagonals, north, south (y down)
_DIR_COST = dict(zip(_DIRS, (0.0, 0.25, 0.3, 0.35, 0.5, 0.55, 0.65, 0.75)))
_RINGS = (0.0, 8.0, 16.0, 28.0, 44.0, 64.0, 88.0, 116.0)
_LEADER_FROM = 16.0
_MAX_OVERFLOW = 14.0  # pixels a label may stick out of the map's own bounds (the plot grows to hold it)
# (cost, distance beyond the dot, direction in degrees), cheapest first: 8 directions next to the dot, then 16 on rings
_CANDIDATES = sorted(
    (2.2 * ring + _DIR_COST.get(deg, 0.6) + 0.02 * (deg % 45), extra, deg)
    for ring, extra in enumerate(_RINGS)
    for deg in (_DIRS if ring == 0 else tuple(range(0, 360, 45)) + tuple(range(22, 360, 45)))
)


def text_width(text: str, size: float) -> float:
    """Width in pixels of ``text`` at font size ``size`` (the font-width model)."""
    total = 0.0
    for ch in text:
        w = _WIDTHS.get(ch)
        if w is None:
            base = unicodedata.normalize("NFD", ch)[:1]
            w = _WIDTHS.get(base, 0.65)
        total += w
    return total * size


@dataclass(frozen=True, slots=True)
class Label:
    """A placed label: ``text`` centred at ``(x, y)``, ``w`` by ``h`` board units, font ``size`` px."""

    key: str  # the city's name, or "edge:<i>"
    text: str
    kind: str  # "city", "waypoint" or "edge"
    size: float
    x: float
    y: float
    w: float
    h: float
    leader: tuple[Point, Point] | None = None  # from the dot's edge to the box

    def box(self) -> tuple[float, float, float, float]:
        """``(x0, x1, y0, y1)`` in board units."""
        return (self.x - self.w / 2, self.x + self.w / 2, self.y - self.h / 2, self.y + self.h / 2)


# --------------------------------------------------------------------------- placement (pixels, y down)

Box = tuple[float, float, float, float]  # x0, x1, y0, y1 with y0 < y1


def _overlap(a: Box, b: Box, pad: float = 0.0) -> bool:
    return a[0] < b[1] + pad and b[0] < a[1] + pad and a[2] < b[3] + pad and b[2] < a[3] + pad


def _circle_hits(box: Box, c: Point, r: float) -> bool:
    dx = max(box[0] - c[0], 0.0, c[0] - box[1])
    dy = max(box[2] - c[1], 0.0, c[1] - box[3])
    return dx * dx + dy * dy < r * r


def _segment_hits(box: Box, p: Point, q: Point) -> bool:
    """Does segment p-q cross the box (Liang-Barsky clipping)?"""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, v in ((dx, box[0], box[1], p[0]), (dy, box[2], box[3], p[1])):
        if abs(d) < 1e-12:
            if v < lo or v > hi:
                return False
            continue
        a, b = (lo - v) / d, (hi - v) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True


def _nearest_on_box(box: Box, p: Point) -> Point:
    return (min(max(p[0], box[0]), box[1]), min(max(p[1], box[2]), box[3]))


class _Grid:
    """Points bucketed in 16 px cells, to count the car spaces under a box."""

    def __init__(self, points: list[Point]) -> None:
        self.cells: dict[tuple[int, int], list[Point]] = {}
        for p in points:
            self.cells.setdefault((int(p[0] // 16), int(p[1] // 16)), []).append(p)

    def count(self, box: Box) -> int:
        n = 0
        for i in range(int(box[0] // 16), int(box[1] // 16) + 1):
            for j in range(int(box[2] // 16), int(box[3] // 16) + 1):
                for x, y in self.cells.get((i, j), ()):
                    if box[0] <= x <= box[1] and box[2] <= y <= box[3]:
                        n += 1
        return n


class _Placer:
    def __init__(self, m: Map, geo: Geometry, scale: float, edge_px: float = EDGE_PX) -> None:
        self.m, self.geo, self.s, self.edge_px = m, geo, scale, edge_px
        self.x0, self.y1 = geo.bounds[0], geo.bounds[3]
        self.canvas = (
            -8.0,
            (geo.bounds[1] - geo.bounds[0]) * scale + 8,
            -8.0,
            (geo.bounds[3] - geo.bounds[2]) * scale + 8,
        )
        self.dots = {c.name: self.px(geo.xy[c.name]) for c in m.cities}
        self.radius = {c.name: DOT_R - (1.5 if c.waypoint else 0.0) for c in m.cities}
        self.dot_cells: dict[tuple[int, int], list[tuple[str, Point]]] = {}
        for n, p in self.dots.items():
            self.dot_cells.setdefault((int(p[0] // 32), int(p[1] // 32)), []).append((n, p))
        pts: list[Point] = []
        for spaces in geo.spaces.values():
            for sp in spaces:
                a, b = sp.ends()
                pts += [self.px((sp.x, sp.y)), self.px(a), self.px(b)]
        self.spaces = _Grid(pts)
        self.boxes: list[Box] = []  # labels and badge spots placed so far
        self.leaders: list[tuple[Point, Point, Box]] = []

    def px(self, p: Point) -> Point:
        return ((p[0] - self.x0) * self.s, (self.y1 - p[1]) * self.s)

    def unit(self, p: Point) -> Point:
        return (p[0] / self.s + self.x0, self.y1 - p[1] / self.s)

    def near_dots(self, box: Box) -> list[tuple[str, Point]]:
        """The city dots that may touch ``box`` (from the 32 px cells around it)."""
        out: list[tuple[str, Point]] = []
        for i in range(int((box[0] - DOT_R) // 32), int((box[1] + DOT_R) // 32) + 1):
            for j in range(int((box[2] - DOT_R) // 32), int((box[3] + DOT_R) // 32) + 1):
                out += self.dot_cells.get((i, j), ())
        return out

    def free(self, box: Box) -> bool:
        if any(_overlap(box, b, _PAD) for b in self.boxes):
            return False
        if any(_circle_hits(box, c, self.radius[n] + 1.0) for n, c in self.near_dots(box)):
            return False
        return not any(_overlap(box, span, 0.01) and _segment_hits(box, p, q) for p, q, span in self.leaders)

    def overflow(self, box: Box) -> float:
        c = self.canvas
        return max(c[0] - box[0], 0.0) + max(box[1] - c[1], 0.0) + max(c[2] - box[2], 0.0) + max(box[3] - c[3], 0.0)

    def badges(self) -> dict[str, Point]:
        """A spot beside every harbor city for its harbor badge, off the dots and the spaces."""
        spots: dict[str, Point] = {}
        for c in self.m.cities:
            if not c.harbor:
                continue
            cx, cy = self.dots[c.name]
            best: tuple[float, Point, Box] | None = None
            for k, deg in enumerate((315, 45, 225, 135, 0, 180, 270, 90)):
                d = DOT_R + BADGE_R + 1.5
                p = (cx + d * math.cos(math.radians(deg)), cy + d * math.sin(math.radians(deg)))
                box = (p[0] - BADGE_R, p[0] + BADGE_R, p[1] - BADGE_R, p[1] + BADGE_R)
                hits = sum(math.dist(p, q) < self.radius[n] + BADGE_R + 1 for n, q in self.dots.items())
                cost = (
                    100 * hits + 10 * sum(_overlap(box, b) for b in self.boxes) + 2 * self.spaces.count(box) + k * 0.1
                )
                if best is None or cost < best[0]:
                    best = (cost, p, box)
            assert best is not None
            self.boxes.append(best[2])
            spots[c.name] = self.unit(best[1])
        return spots

    def edge_labels(self) -> list[tuple[str, str, Box]]:
        """The far-side names where routes leave by the edge: beside each route, on the side it turns
        away from if that is clear, else the other side or a little farther, off dots, labels and spaces.
        Routes to one far city that leave close together share a label.
        """
        out: list[tuple[str, str, Box]] = []
        h = self.edge_px * 1.15 + 2
        lift = self.geo.thick * self.s / 2 + 1.0  # clear of the route's own spaces
        for side in ("left", "right"):
            ex = 0.0 if side == "left" else (self.geo.bounds[1] - self.geo.bounds[0]) * self.s
            seen: dict[str, float] = {}
            for x, y, name, s, rises in sorted(self.geo.edge_labels, key=lambda e: -e[1]):
                ey = self.px((x, y))[1]
                if s != side or (name in seen and ey - seen[name] < 3 * h):
                    continue
                seen[name] = ey
                text = f"‹ {name}" if side == "left" else f"{name} ›"
                w = text_width(text, self.edge_px) + 2
                x0 = ex + 1 if side == "left" else ex - 1 - w
                tops = (ey + lift, ey - lift - h) if rises else (ey - lift - h, ey + lift)
                best: tuple[float, Box] | None = None
                for k, top in enumerate(tops):
                    for shift in (0.0, 0.5 * h, 1.0 * h, 1.6 * h, 2.4 * h, 3.2 * h, 4.2 * h):
                        t = top + shift if top > ey else top - shift
                        box = (x0, x0 + w, t, t + h)
                        cost = 1.0 * k + 0.3 * shift / h + 2.5 * self.spaces.count(box) + 3.0 * self.overflow(box)
                        cost += 0 if self.free(box) else 1000
                        if best is None or cost < best[0]:
                            best = (cost, box)
                assert best is not None
                out.append((text, side, best[1]))
                self.boxes.append(best[1])
        return out

    def place(
        self, name: str, text: str, size: float, commit: bool = True
    ) -> tuple[Box, tuple[Point, Point] | None, bool]:
        """The best free spot for a label (``ok`` False: none was free, the least crowded one is taken)."""
        w, h = text_width(text, size) + 2, size * 1.15 + 2
        cx, cy = self.dots[name]
        r0 = self.radius[name] + 2.0
        best: tuple[float, Box, tuple[Point, Point] | None] | None = None
        fallback: tuple[float, Box, tuple[Point, Point] | None] | None = None
        spill: tuple[float, Box, tuple[Point, Point] | None] | None = None  # a board too small for any spot
        for base, extra, deg in _CANDIDATES:
            if best is not None and base >= best[0]:
                break
            a = math.radians(deg)
            ca, sa = math.cos(a), math.sin(a)
            d = r0 + extra + abs(ca) * w / 2 + abs(sa) * h / 2
            bx, by = cx + d * ca, cy + d * sa
            box = (bx - w / 2, bx + w / 2, by - h / 2, by + h / 2)
            leader = None
            if extra >= _LEADER_FROM:
                end = _nearest_on_box(box, (cx, cy))
                dist = math.dist(end, (cx, cy)) or 1.0
                start = (cx + (end[0] - cx) * self.radius[name] / dist, cy + (end[1] - cy) * self.radius[name] / dist)
                leader = (start, end)
            if self.overflow(box) > _MAX_OVERFLOW:
                if spill is None or self.overflow(box) < spill[0]:
                    spill = (self.overflow(box), box, leader)
                continue  # far outside the map: the plot would have to shrink for it
            free = self.free(box)
            if not free and best is not None:
                continue
            crossed = self._leader_crossings(leader, name) if leader is not None else (0, 0)
            if best is None or (free and not crossed[0]):
                cost = base + 2.5 * self.spaces.count(box) + 20.0 * self.overflow(box) + self._ambiguity(box, name)
                cost += 6.0 * crossed[1]  # a leader over another city's dot: allowed, but not liked
            if free and not crossed[0]:
                if best is None or cost < best[0]:
                    best = (cost, box, leader)
            elif best is None:
                crowd = 1000 * (self.conflicts(box) + crossed[0]) + cost
                if fallback is None or crowd < fallback[0]:
                    fallback = (crowd, box, leader)
        chosen = best or fallback or spill
        assert chosen is not None  # _CANDIDATES is not empty
        if commit:
            self.commit(chosen[1], chosen[2])
        return chosen[1], chosen[2], best is not None

    def _ambiguity(self, box: Box, own: str) -> float:
        """A cost when the label is as near another city's dot as its own (it would name the wrong city)."""
        mine = _box_dist(box, self.dots[own])
        near = min((_box_dist(box, c) for n, c in self.near_dots(_grow(box, 24.0)) if n != own), default=math.inf)
        return 0.0 if near > mine + 6.0 else 4.0 + (mine + 6.0 - near) * 0.3

    def commit(self, box: Box, leader: tuple[Point, Point] | None) -> None:
        self.boxes.append(box)
        if leader is not None:
            (x0, y0), (x1, y1) = leader
            self.leaders.append((leader[0], leader[1], (min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1))))

    def conflicts(self, box: Box) -> int:
        return sum(_overlap(box, b, _PAD) for b in self.boxes) + sum(
            _circle_hits(box, c, self.radius[n] + 1.0) for n, c in self.near_dots(box)
        )

    def _leader_crossings(self, leader: tuple[Point, Point], own: str) -> tuple[int, int]:
        """How many placed labels, and how many other cities' dots, a leader line crosses."""
        p, q = leader
        span = (min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1]))
        labels = sum(1 for b in self.boxes if _overlap(b, span, 0.01) and _segment_hits(b, p, q))
        dots = sum(1 for n, c in self.near_dots(span) if n != own and _seg_dist(c, p, q) < self.radius[n] + 1)
        return labels, dots


def _box_dist(box: Box, p: Point) -> float:
    return math.hypot(max(box[0] - p[0], 0.0, p[0] - box[1]), max(box[2] - p[1], 0.0, p[1] - box[3]))


def _grow(box: Box, d: float) -> Box:
    return (box[0] - d, box[1] + d, box[2] - d, box[3] + d)


def _seg_dist(c: Point, p: Point, q: Point) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / L2))
    return math.dist(c, (p[0] + t * dx, p[1] + t * dy))


def _crowding(m: Map, geo: Geometry) -> list[str]:
    """City names, most crowded first (neighbours within a few car lengths), then longest name."""
    near = 3 * geo.car
    xy = geo.xy

    def key(name: str) -> tuple[int, int, str]:
        n = sum(1 for o, q in xy.items() if o != name and math.dist(q, xy[name]) < near)
        return (-n, -len(name), name)

    return sorted((c.name for c in m.cities), key=key)


def place_labels(
    m: Map, geo: Geometry, scale: float, base: float = CITY_PX, give_up: bool = False, text: float = 1.0
) -> tuple[list[Label], dict[str, Point], int]:
    """Every label of ``m`` placed at ``scale`` px per unit, a harbor badge spot per harbor city,
    and how many labels found no free spot (with ``give_up``, stop at the first such label).

    City labels are ``base`` px (waypoints and edge labels smaller, their
    sizes times ``text``, the board's font factor); a city that finds no
    free spot tries a font a pixel smaller.
    """
    waypoints = {c.name for c in m.cities if c.waypoint}
    placer = _Placer(m, geo, scale, min(round(EDGE_PX * text, 1), base - 1))
    badges = placer.badges()
    labels = [
        _label(placer, f"edge:{i}", text, "edge", placer.edge_px, box, None)
        for i, (text, _side, box) in enumerate(placer.edge_labels())
    ]
    failed = 0
    for name in _crowding(m, geo):
        kind = "waypoint" if name in waypoints else "city"
        first = min(round(WAYPOINT_PX * text, 1), base - 2) if kind == "waypoint" else base
        for font in (first, first - 1):
            box, leader, placed = placer.place(name, name, font, commit=False)
            if placed:
                break
        failed += not placed
        if failed and give_up:
            break
        placer.commit(box, leader)
        labels.append(_label(placer, name, name, kind, font, box, leader))
    return labels, badges, failed


def _label(
    p: _Placer, key: str, text: str, kind: str, size: float, box: Box, leader: tuple[Point, Point] | None
) -> Label:
    (x0, y1), (x1, y0) = p.unit((box[0], box[2])), p.unit((box[1], box[3]))
    lead = (p.unit(leader[0]), p.unit(leader[1])) if leader else None
    return Label(key, text, kind, size, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, lead)
