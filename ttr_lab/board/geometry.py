"""Where the board's pieces go: cities, car spaces and route lines (standard library only).

Shared by the interactive plotly figure (:mod:`ttr_lab.board`) and the static
SVG (:mod:`ttr_lab.board`), so both draw the same board.  Imports nothing from
ttr_lab but :mod:`ttr_lab.maps`.

Coordinates are *board units*: x is the longitude in degrees from the map's
middle meridian (0 for a map across the date line, which is drawn from -180 to
180 like the printed World board), y the Mercator ordinate in degrees, so
shapes look as on a web map.  Sizes are chosen for :data:`NOMINAL_PX` pixels
across the map: a car space is about :data:`THICK_PX` pixels thick and every
space of a map has nearly the same length, as on a printed board.  A route too
short for its spaces bends into an arc (to the side with more room); routes
between the same two cities (a double route, or a train and a ship route) run
side by side; a Rails & Sails paired route has two rows of spaces.

Examples
--------
>>> from ttr_lab.maps import load_map
>>> usa = load_map("usa")
>>> geo = geometry(usa)
>>> la_ep = usa.routes_between("Los Angeles", "El Paso")[0]
>>> len(geo.spaces[la_ep.id]) == la_ep.length   # one box per car space
True
>>> all(s.shape == "box" for s in geo.spaces[la_ep.id])
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..maps.loading import Map, Route
from .paths import Line, Path, bend_for, click_points, segment_gap, simplify, turn

__all__ = ["NOMINAL_PX", "THICK_PX", "Space", "Geometry", "geometry", "mercator"]

#: Plot width in pixels that the board's sizes are chosen for (a 900 px figure).
NOMINAL_PX = 880.0
#: Thickness of a car space at the nominal width, in pixels.
THICK_PX = 9.0
_END_PX = 8.5  # from a city's centre to its route's first space
_GAP_PX = 2.5  # between two spaces of a route
_CLEAR_PX = 11.0  # a route keeps this far from the centre of a city it passes
_FAN_REACH = 2.4  # spaces start at most this many city gaps out, where lines leave at a narrow angle
_FAN_MAX = 0.35  # radians a line's end may turn to leave a city apart from its neighbours
_FAN_ARM = 2.0  # a fanned-out end turns back to its course within this many fan reaches
_OVAL_POINTS = 10
_HIT_PX = 30.0  # a space longer than this (in pixels) gets two click points
_SIMPLIFY_PX = 0.3  # a centre line keeps the points needed to stay this close to its arc

Point = tuple[float, float]


def mercator(lat: float) -> float:
    """The Mercator ordinate of a latitude, in degrees (clamped at 85°)."""
    lat = max(min(lat, 85.0), -85.0)
    return math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))


@dataclass(frozen=True, slots=True)
class Space:
    """One car space: a box (or a ship's oval) centred at ``(x, y)`` along ``(ux, uy)``."""

    route: int
    index: int  # 0 .. length-1 along the route
    row: int  # 0, or 0/1 for the two rows of a paired route
    x: float
    y: float
    ux: float
    uy: float
    length: float
    thick: float
    shape: str  # "box" or "oval"
    loco: bool  # a ferry's locomotive space

    def polygon(self) -> list[Point]:
        """Corner points (an oval as 10 points: smooth to half a pixel), counter-clockwise, not closed."""
        hl, ht = self.length / 2, self.thick / 2
        ux, uy, nx, ny = self.ux, self.uy, -self.uy, self.ux
        if self.shape == "oval":
            pts = []
            for k in range(_OVAL_POINTS):
                a = 2 * math.pi * k / _OVAL_POINTS
                c, s = hl * math.cos(a), ht * math.sin(a)
                pts.append((self.x + c * ux + s * nx, self.y + c * uy + s * ny))
            return pts
        return [
            (self.x + a * hl * ux + b * ht * nx, self.y + a * hl * uy + b * ht * ny)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]

    def ends(self) -> tuple[Point, Point]:
        """The middle points of the space's two short sides."""
        hl = self.length / 2
        return (self.x - hl * self.ux, self.y - hl * self.uy), (self.x + hl * self.ux, self.y + hl * self.uy)


class Geometry:
    """Every drawn position of one map (pure data, computed once per map).

    Attributes: ``xy`` (city -> point), ``wraps`` and ``half`` (a map across
    the date line is cut at x = ±half), ``thick`` (a space's thickness),
    ``car`` (a space's usual length), ``spaces`` (route id -> its spaces in
    order from its first city), ``lines`` (route id -> centre-line pieces, cut
    at the edge), ``mid`` (route id -> centre of its middle space),
    ``edge_labels`` ((x, y, far city, side, rises) where a route leaves by the
    edge; ``rises``: the route goes up as it comes in from the edge)
    and ``bounds`` (x0, x1, y0, y1) of the cities and spaces.
    """

    def __init__(self, m: Map) -> None:
        city = {c.name: c for c in m.cities}
        lons = [c.lon for c in m.cities] or [0.0]
        self.wraps = any(abs(city[r.a].lon - city[r.b].lon) > 180 for r in m.routes)
        self.lon0 = 0.0 if self.wraps else (min(lons) + max(lons)) / 2
        self.half = 180.0
        self.xy: dict[str, Point] = {c.name: (c.lon - self.lon0, mercator(c.lat)) for c in m.cities}
        pts = list(self.xy.values()) or [(0.0, 0.0)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if self.wraps:
            xs += [-self.half, self.half]
        span = max(max(xs) - min(xs), 1.5 * (max(ys) - min(ys)), 1e-6)
        px = span / NOMINAL_PX  # board units per pixel at the nominal size
        self.unit_px = px
        self.digits = max(0, math.ceil(-math.log10(px / 4)))  # decimals for about 1/4 px at the nominal size
        self._hit_digits = max(0, math.ceil(-math.log10(3 * px)))  # click points: within about 1 px
        self.thick, self.end, self.gap = THICK_PX * px, _END_PX * px, _GAP_PX * px
        self.car = self._car_length(m)
        self.spaces: dict[int, tuple[Space, ...]] = {}
        self.lines: dict[int, list[list[Point]]] = {}
        self.mid: dict[int, Point] = {}
        self.hits: dict[int, list[Point]] = {}
        self._spots: dict[int, list[tuple[float, float, float, float, float]]] = {}
        self._edges: dict[tuple[str, str, float], tuple[float, float, str, str, bool]] = {}
        groups: dict[frozenset[str], list[Route]] = {}
        for r in m.routes:
            groups.setdefault(frozenset((r.a, r.b)), []).append(r)
        self._chords = [(self._ends(g[0]), frozenset((g[0].a, g[0].b))) for g in groups.values()]
        laid = [self._lay_group(sorted(group, key=lambda r: r.id)) for group in groups.values()]
        self._fan_out(laid)
        for line, (m0, m1) in zip(laid, self._margins(laid)):
            path = Path(line.p0, line.p1, line.a0, line.a1, line.arms(_FAN_ARM * _FAN_REACH * self.end))
            for r, offset in zip(line.routes, line.offsets):
                self._place(r, path, offset, m0, m1)
        self.hits = click_points(self._spots, self.unit_px, _HIT_PX, self._wrap, self._hit_digits)
        bx = [p[0] for sp in self.spaces.values() for s in sp for p in s.polygon()]
        by = [p[1] for sp in self.spaces.values() for s in sp for p in s.polygon()]
        if self.wraps:
            bx = [-self.half, self.half]
        self.edge_labels = list(self._edges.values())
        self.bounds = (min(xs + bx), max(xs + bx), min(ys + by), max(ys + by))

    # ------------------------------------------------------------------ building

    def _ends(self, r: Route) -> tuple[Point, Point]:
        a, b = sorted((r.a, r.b))  # one direction for every route between two cities
        (x0, y0), (x1, y1) = self.xy[a], self.xy[b]
        if self.wraps and abs(x1 - x0) > self.half:
            x1 += -2 * self.half if x1 > x0 else 2 * self.half
        return (x0, y0), (x1, y1)

    def _car_length(self, m: Map) -> float:
        per_space = sorted((math.dist(*self._ends(r)) - 2 * self.end) / r.length for r in m.routes if r.length > 0) or [
            3 * self.thick
        ]
        q = per_space[len(per_space) // 4]
        return min(max(0.9 * q, 2.2 * self.thick), 3.6 * self.thick)

    def _width(self, r: Route) -> float:
        return 2 * self.thick + self.gap if r.paired else self.thick

    def _lay_group(self, group: list[Route]) -> Line:
        """Routes between two cities: one centre line, straight or bent, and each route's offset from it.

        A line bends when it is too short for its spaces, or to keep clear of
        a city it would pass over; of the lines that do both, the straightest wins.
        """
        p0, p1 = self._ends(group[0])
        widths = [self._width(r) for r in group]
        spacing = 0.35 * self.thick
        total = sum(widths) + spacing * (len(group) - 1)
        longest = max(r.length for r in group)
        shortest = longest * 0.8 * self.car + 2 * self.end  # spaces shrink by a fifth before a route bends
        d = math.dist(p0, p1)
        need = bend_for(d / (longest * 0.9 * self.car + 2 * self.end)) if d < shortest else 0.0
        bends = sorted({need, *(b for b in (2 * math.atan(2 * h) for h in (0.06, 0.12, 0.2, 0.3)) if b > need)})
        others = self._near(p0, p1, group[0])
        chord = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
        best: tuple[float, float, float] | None = None
        for bend in bends:
            if best is not None and best[0] <= bend:
                break  # a straighter line is already clear
            for side in (1, -1) if bend else (1,):
                a0, a1 = chord + side * bend, chord + math.pi - side * bend
                path = Path(p0, p1, a0, a1)
                score = self._crowding(path, others, total / 2) + self._crossing(path, group[0]) + bend
                score += 0.01 if side < 0 else 0.0
                if best is None or score < best[0]:
                    best = (score, a0, a1)
        assert best is not None
        offsets, at = [], -total / 2
        for w in widths:
            offsets.append(at + w / 2)
            at += w + spacing
        a, b = sorted((group[0].a, group[0].b))
        return Line(group, a, b, p0, p1, best[1], best[2], offsets, total / 2)

    def _fan_out(self, laid: list[Line]) -> None:
        """Turn lines that leave a city at a narrow angle a little apart (at most 20 degrees each end)."""
        leaving: dict[str, list[tuple[Line, int]]] = {}
        for line in laid:
            leaving.setdefault(line.a, []).append((line, 0))
            leaving.setdefault(line.b, []).append((line, 1))
        reach = _FAN_REACH * self.end
        for ends in leaving.values():
            if len(ends) < 2:
                continue
            start = {id(line) + k: line.angle(k) for line, k in ends}
            for _ in range(12):
                ends.sort(key=lambda e: e[0].angle(e[1]) % (2 * math.pi))
                moved = False
                for (l1, k1), (l2, k2) in zip(ends, ends[1:] + ends[:1]):
                    gap = (l2.angle(k2) - l1.angle(k1)) % (2 * math.pi)
                    want = math.asin(min(1.0, (l1.half + l2.half + self.gap) / reach))
                    if gap < want and gap < math.pi / 2:
                        push = (want - gap) / 2
                        for line, k, sign in ((l1, k1, -1), (l2, k2, 1)):
                            now = line.angle(k) + sign * push
                            dev = turn(now - start[id(line) + k])
                            line.set_angle(k, start[id(line) + k] + max(-_FAN_MAX, min(_FAN_MAX, dev)))
                        moved = True
                if not moved:
                    break

    def _margins(self, laid: list[Line]) -> list[tuple[float, float]]:
        """Where each line's first and last spaces start, away from its cities: farther out where
        another line leaves the same city at a narrow angle, so their spaces do not overlap."""
        leaving: dict[str, list[tuple[int, int, float, float]]] = {}  # city -> (line, end, angle, half width)
        for i, line in enumerate(laid):
            leaving.setdefault(line.a, []).append((i, 0, line.a0, line.half))
            leaving.setdefault(line.b, []).append((i, 1, line.a1, line.half))
        out = [[self.end, self.end] for _ in laid]
        for lines in leaving.values():
            for i, end, angle, hw in lines:
                need = self.end
                for j, _, other, ow in lines:
                    gap = abs(turn(angle - other))
                    if j != i and gap < math.pi / 2:
                        need = max(need, (hw + ow + self.gap) / max(math.sin(gap), 0.05))
                length = math.dist(laid[i].p0, laid[i].p1)
                out[i][end] = min(need, _FAN_REACH * self.end, 0.3 * length)
        return [(m0, m1) for m0, m1 in out]

    def _near(self, p0: Point, p1: Point, r: Route) -> list[Point]:
        """Cities other than the route's ends within reach of its line."""
        reach = math.dist(p0, p1) * 0.6 + self.thick * 4
        mid = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2)
        ends = (r.a, r.b)
        pts = []
        for n, q in self.xy.items():
            if n in ends:
                continue
            for dx in (0.0, 2 * self.half, -2 * self.half) if self.wraps else (0.0,):
                if math.dist((q[0] + dx, q[1]), mid) < reach:
                    pts.append((q[0] + dx, q[1]))
        return pts

    def _crossing(self, path: Path, r: Route) -> float:
        """How much of a bent ``path`` runs over other routes' lines (their straight chords); 0 for a straight one."""
        if path.straight:
            return 0.0
        pts = [path.at(path.length * k / 24)[:2] for k in range(3, 22)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        near = 1.5 * self.thick
        box = (min(xs) - near, max(xs) + near, min(ys) - near, max(ys) + near)
        ends = frozenset((r.a, r.b))
        hits = 0
        for (q0, q1), cities in self._chords:
            if cities == ends or max(q0[0], q1[0]) < box[0] or min(q0[0], q1[0]) > box[1]:
                continue
            if max(q0[1], q1[1]) < box[2] or min(q0[1], q1[1]) > box[3]:
                continue
            hits += sum(1 for p in pts if segment_gap(p, q0, q1) < near)
        return 0.5 * hits

    def _crowding(self, path: Path, cities: list[Point], half_width: float) -> float:
        """How far ``path`` (``half_width`` to each side) intrudes on the dots of ``cities``; 0 when clear."""
        clear = half_width + _CLEAR_PX * self.unit_px
        total = 0.0
        for k in range(1, 24):
            x, y, _, _ = path.at(path.length * k / 24)
            for q in cities:
                gap = math.dist((x, y), q)
                if gap < clear:
                    total += (clear - gap) / clear
        return 10 * total

    def _place(self, r: Route, path: Path, offset: float, m0: float, m1: float) -> None:
        n = max(r.length, 1)
        step = max(path.length - m0 - m1, 0.0) / n
        box = max(min(step - self.gap, 1.7 * self.car), 0.2 * self.thick)
        locos = {round((i + 0.5) * n / r.locomotives - 0.5) for i in range(r.locomotives)} if r.locomotives else set()
        rows = ((0, -(self.thick + self.gap) / 2), (1, (self.thick + self.gap) / 2)) if r.paired else ((0, 0.0),)
        spaces = []
        for j in range(n):
            s = m0 + (j + 0.5) * step
            for row, dr in rows:
                x, y, tx, ty = path.at(s, offset + dr)
                x = self._wrap(x)
                shape = "oval" if r.kind == "ship" else "box"
                spaces.append(Space(r.id, j, row, x, y, tx, ty, box, self.thick, shape, j in locos))
        self.spaces[r.id] = tuple(spaces)
        spots = []  # where a click lands on this route: the middle of each space, or two points on a long one
        for j in range(n):
            x, y, tx, ty = path.at(m0 + (j + 0.5) * step, offset)
            spots.append((self._wrap(x), y, tx, ty, box))
        self._spots[r.id] = spots
        x, y, _, _ = path.at(m0 + (n / 2) * step, offset)
        self.mid[r.id] = (self._wrap(x), y)
        line = [path.at(at, offset)[:2] for at in path.samples()]
        tol = _SIMPLIFY_PX * self.unit_px
        self.lines[r.id] = [[self._round(p) for p in simplify(piece, tol)] for piece in self._cut(line, r)]

    def _wrap(self, x: float) -> float:
        if self.wraps and abs(x) > self.half:
            x -= math.copysign(2 * self.half, x)
        return x

    def _cut(self, line: list[Point], r: Route) -> list[list[Point]]:
        """Cut a centre line where it leaves by the date line; note the far city at each cut."""
        if not self.wraps or all(abs(p[0]) <= self.half for p in line):
            return [line]
        pieces: list[list[Point]] = [[line[0]]]
        shift = 0.0
        a, b = sorted((r.a, r.b))
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            edge = math.copysign(self.half, x1 + shift)
            if abs(x1 + shift) > self.half:
                ye = y0 + (edge - (x0 + shift)) / (x1 - x0) * (y1 - y0)
                pieces[-1].append((edge, ye))
                pieces.append([(-edge, ye)])
                sides = ("right", "left") if edge > 0 else ("left", "right")
                self._edges.setdefault((a, b, edge), (edge, ye, b, sides[0], y0 > y1))
                self._edges.setdefault((a, b, -edge), (-edge, ye, a, sides[1], y1 > y0))
                shift -= 2 * edge
            pieces[-1].append((x1 + shift, y1))
        return pieces

    # ------------------------------------------------------------------ queries

    def polygons(self, ids: list[int]) -> list[list[Point]]:
        """The spaces of routes ``ids`` as polygons, route by route (rounded to a hundredth of a pixel or so)."""
        return [[self._round(p) for p in s.polygon()] for rid in ids for s in self.spaces[rid]]

    def _round(self, p: Point) -> Point:
        return (round(p[0], self.digits), round(p[1], self.digits))


_CACHE: dict[int, tuple[Map, Geometry]] = {}


def geometry(m: Map) -> Geometry:
    """The (cached) geometry of map ``m``."""
    cached = _CACHE.get(id(m))
    if cached is None or cached[0] is not m:
        if len(_CACHE) > 16:
            _CACHE.clear()
        cached = _CACHE[id(m)] = (m, Geometry(m))
    return cached[1]
