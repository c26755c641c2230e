"""Route centre lines for the board's geometry: straight lines, arcs and fanned-out curves (standard library only).

A :class:`Path` runs from one city to another, leaving each at a given
angle: straight when both angles point along the chord, else a cubic Bezier
curve measured by arc length.  A :class:`Line` is the centre line shared by
the routes between two cities while :mod:`ttr_lab.board.geometry` lays the
board out.

>>> p = Path((0.0, 0.0), (10.0, 0.0), 0.0, math.pi)
>>> p.straight, p.length, p.at(5.0)
(True, 10.0, (5.0, 0.0, 1.0, 0.0))
>>> bent = Path((0.0, 0.0), (10.0, 0.0), bend_for(0.8), math.pi - bend_for(0.8))
>>> round(bent.length / 10, 2)   # an arc a quarter longer than its chord
1.25
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..maps.loading import Route

__all__ = ["Path", "Line", "bend_for", "turn", "segment_gap", "simplify", "click_points"]

Point = tuple[float, float]
_MAX_BEND = 1.25  # half-angle (radians) of the deepest arc


class Path:
    """A route's centre line from ``p0`` to ``p1``, leaving ``p0`` at angle ``a0`` and ``p1`` at ``a1``.

    Straight when both angles point along the chord; else a cubic Bezier
    curve (an arc when the two ends turn by the same angle), measured by
    arc length from 48 samples.
    """

    def __init__(self, p0: Point, p1: Point, a0: float, a1: float, arms: tuple[float, float] | None = None) -> None:
        dx, dy = p1[0] - p0[0], p1[1] - p0[1]
        d = math.hypot(dx, dy)
        if d < 1e-9:
            p1, dx, dy, d = (p0[0] + 1e-6, p0[1]), 1e-6, 0.0, 1e-6
        self.p0, self.p1, self.a0, self.a1 = p0, p1, a0, a1
        chord = math.atan2(dy, dx)
        dev0 = abs(turn(a0 - chord))
        dev1 = abs(turn(a1 - chord - math.pi))
        self.straight = dev0 < 1e-6 and dev1 < 1e-6
        if self.straight:
            self.length = d
            return
        k = d / (3 * math.cos((dev0 + dev1) / 4) ** 2)
        k0, k1 = (min(k, arms[0]), min(k, arms[1])) if arms else (k, k)
        self.c0 = (p0[0] + k0 * math.cos(a0), p0[1] + k0 * math.sin(a0))
        self.c1 = (p1[0] + k1 * math.cos(a1), p1[1] + k1 * math.sin(a1))
        self.ts = [i / 48 for i in range(49)]
        self.cum = [0.0]
        prev = self._point(0.0)
        for t in self.ts[1:]:
            q = self._point(t)
            self.cum.append(self.cum[-1] + math.dist(prev, q))
            prev = q
        self.length = self.cum[-1]

    def _point(self, t: float) -> Point:
        u = 1 - t
        a, b, c, e = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        return (
            a * self.p0[0] + b * self.c0[0] + c * self.c1[0] + e * self.p1[0],
            a * self.p0[1] + b * self.c0[1] + c * self.c1[1] + e * self.p1[1],
        )

    def _tangent(self, t: float) -> Point:
        u = 1 - t
        a, b, c = 3 * u * u, 6 * u * t, 3 * t * t
        x = a * (self.c0[0] - self.p0[0]) + b * (self.c1[0] - self.c0[0]) + c * (self.p1[0] - self.c1[0])
        y = a * (self.c0[1] - self.p0[1]) + b * (self.c1[1] - self.c0[1]) + c * (self.p1[1] - self.c1[1])
        n = math.hypot(x, y) or 1.0
        return x / n, y / n

    def at(self, s: float, offset: float = 0.0) -> tuple[float, float, float, float]:
        """Point and unit tangent at arc length ``s``, ``offset`` to the left of the direction of travel."""
        if self.straight:
            ux, uy = (self.p1[0] - self.p0[0]) / self.length, (self.p1[1] - self.p0[1]) / self.length
            x, y, tx, ty = self.p0[0] + s * ux, self.p0[1] + s * uy, ux, uy
        else:
            s = min(max(s, 0.0), self.length)
            i = min(bisect.bisect_right(self.cum, s), len(self.cum) - 1)
            s0, s1 = self.cum[i - 1], self.cum[i]
            t = self.ts[i - 1] + (self.ts[i] - self.ts[i - 1]) * ((s - s0) / (s1 - s0) if s1 > s0 else 0.0)
            x, y = self._point(t)
            tx, ty = self._tangent(t)
        return x - ty * offset, y + tx * offset, tx, ty

    def samples(self) -> list[float]:
        """Arc lengths at which to draw the centre line."""
        if self.straight:
            return [0.0, self.length]
        return self.cum[::4]  # 13 points: smooth enough for a line under the spaces


def segment_gap(p: Point, q0: Point, q1: Point) -> float:
    """Distance from ``p`` to the segment q0-q1."""
    dx, dy = q1[0] - q0[0], q1[1] - q0[1]
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((p[0] - q0[0]) * dx + (p[1] - q0[1]) * dy) / n2))
    return math.dist(p, (q0[0] + t * dx, q0[1] + t * dy))


def turn(a: float) -> float:
    """An angle folded into (-pi, pi]."""
    return (a + math.pi) % (2 * math.pi) - math.pi


class Line:
    """The centre line of the routes between two cities ``a`` < ``b``: its ends, the angles it leaves them at."""

    def __init__(
        self,
        routes: list[Route],
        a: str,
        b: str,
        p0: Point,
        p1: Point,
        a0: float,
        a1: float,
        offsets: list[float],
        half: float,
    ) -> None:
        self.routes, self.a, self.b, self.p0, self.p1 = routes, a, b, p0, p1
        self.a0, self.a1, self.offsets, self.half = a0, a1, offsets, half
        self.laid = (a0, a1)  # the angles before fanning out

    def arms(self, short: float) -> tuple[float, float]:
        """Control arm lengths: an end turned to fan out gets a short arm, so the turn stays near its city."""
        return tuple(short if abs(turn(a - b)) > 1e-9 else math.inf for a, b in zip((self.a0, self.a1), self.laid))  # type: ignore[return-value]

    def angle(self, end: int) -> float:
        return self.a0 if end == 0 else self.a1

    def set_angle(self, end: int, value: float) -> None:
        if end == 0:
            self.a0 = value
        else:
            self.a1 = value


def bend_for(ratio: float) -> float:
    """The arc half-angle whose chord/arc ratio is ``ratio`` (sin t / t = ratio), capped."""
    if ratio >= 1.0:
        return 0.0
    lo, hi = 0.0, _MAX_BEND
    if math.sin(hi) / hi >= ratio:
        return hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if math.sin(mid) / mid > ratio:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _short(v: float, digits: int) -> float:
    """``v`` rounded, as an int when no decimals are kept (shorter in JSON)."""
    return round(v, digits) if digits else round(v)


def simplify(line: list[Point], tol: float) -> list[Point]:
    """The points of ``line`` needed to stay within ``tol`` of it (Douglas-Peucker).

    >>> simplify([(0.0, 0.0), (1.0, 0.01), (2.0, 0.0), (3.0, 1.0)], 0.1)
    [(0.0, 0.0), (2.0, 0.0), (3.0, 1.0)]
    """
    if len(line) < 3:
        return list(line)
    far, at = max((segment_gap(p, line[0], line[-1]), i) for i, p in enumerate(line[1:-1], 1))
    if far <= tol:
        return [line[0], line[-1]]
    return simplify(line[: at + 1], tol)[:-1] + simplify(line[at:], tol)


def click_points(
    spots: dict[int, list[tuple[float, float, float, float, float]]],
    px: float,
    long_px: float,
    wrap: Callable[[float], float],
    digits: int,
) -> dict[int, list[Point]]:
    """Click points of every route from its spaces' ``(x, y, ux, uy, length)``: one in the middle of
    each space, two on a space longer than ``long_px`` pixels or whose ends lie nearer another
    route's click point than its own (where routes run close).  ``px``: board units per pixel.

    >>> click_points({1: [(0.0, 0.0, 1.0, 0.0, 10.0)], 2: [(0.0, 3.0, 1.0, 0.0, 40.0)]}, 1.0, 30.0, float, 1)
    {1: [(0.0, 0.0)], 2: [(-10.0, 3.0), (10.0, 3.0)]}
    """
    two = {(rid, j) for rid, sp in spots.items() for j, s in enumerate(sp) if s[4] > long_px * px}
    cell = 40 * px
    points: dict[int, list[Point]] = {}
    for _ in range(4):
        points = {}
        grid: dict[tuple[int, int], list[tuple[float, float, int]]] = {}
        for rid, sp in spots.items():
            pts = points[rid] = []
            for j, (x, y, ux, uy, box) in enumerate(sp):
                pts += [
                    (wrap(x + f * box * ux), y + f * box * uy) for f in ((-0.25, 0.25) if (rid, j) in two else (0.0,))
                ]
            for x, y in pts:
                grid.setdefault((int(x // cell), int(y // cell)), []).append((x, y, rid))
        added = False
        for rid, sp in spots.items():
            for j, (x, y, ux, uy, box) in enumerate(sp):
                if (rid, j) not in two and _end_nearer_other(grid, cell, rid, (x, y), (ux, uy), box, 1.5 * px):
                    two.add((rid, j))
                    added = True
        if not added:
            break
    return {rid: [(_short(x, digits), _short(y, digits)) for x, y in pts] for rid, pts in points.items()}


def _end_nearer_other(
    grid: dict[tuple[int, int], list[tuple[float, float, int]]],
    cell: float,
    rid: int,
    mid: Point,
    u: Point,
    box: float,
    spare: float,
) -> bool:
    """Does an end of the space lie nearer (with ``spare`` to spare) another route's click point than its middle?"""
    for f in (-0.45, 0.45):
        ex, ey = mid[0] + f * box * u[0], mid[1] + f * box * u[1]
        own = math.dist((ex, ey), mid) + spare
        i, k = int(ex // cell), int(ey // cell)
        near = (p for di in (-1, 0, 1) for dk in (-1, 0, 1) for p in grid.get((i + di, k + dk), ()))
        if any(o != rid and math.dist((ex, ey), (ox, oy)) < own for ox, oy, o in near):
            return True
    return False
