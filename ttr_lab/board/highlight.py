"""The highlight: a dashed frame round each highlighted route (standard library only).

Re-exported by :mod:`ttr_lab.board.scene`, whose scene lists the routes to
highlight; both drawings (the plotly figure and the SVG) frame them alike.

>>> highlight_pen(9.0)
(2.7, 9.0, 4.5)
"""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import Geometry

__all__ = ["HIGHLIGHT", "highlight_pen", "highlight_frames"]

#: The highlight: a dashed frame around each highlighted route, outside its boxes (which stay
#: visible), in an electric violet that no map colour uses.  Chosen for colour-blind viewers: in
#: CIELAB (simulated dichromacy, Machado et al. 2009) it stays at least 49 from every route colour
#: and the board under protanopia and deuteranopia (32 under tritanopia), where amber was 7 from
#: yellow and magenta 13 from blue.  The dashes are a second cue, not hue: no other overlay is a
#: dashed frame.
HIGHLIGHT = "#5500ff"
_FRAME_CLEAR = 0.1  # from a space's edge to the frame's line, in space thicknesses
_FRAME_WIDTH = 0.3  # the frame's line width
_FRAME_DASH = (1.0, 0.5)  # dash and gap


def highlight_pen(thick_px: float) -> tuple[float, float, float]:
    """Line width, dash and gap of the highlight frame, in pixels, for spaces ``thick_px`` thick.

    >>> highlight_pen(9.0)
    (2.7, 9.0, 4.5)
    """
    t = max(thick_px, 3.0)
    return round(_FRAME_WIDTH * t, 1), round(_FRAME_DASH[0] * t, 1), round(_FRAME_DASH[1] * t, 1)


def highlight_frames(geo: Geometry, ids: Iterable[int]) -> list[list[tuple[float, float]]]:
    """The highlight frames of routes ``ids``, in board units: a ring of points (the last joins the
    first) around each route's spaces, both rows of a paired route, far enough out that a line of
    :func:`highlight_pen`'s width leaves the spaces uncovered; a route cut by the date line gets
    a frame per piece.

    >>> from ttr_lab.board.geometry import geometry
    >>> from ttr_lab.maps import load_map
    >>> frames = highlight_frames(geometry(load_map("usa")), [1])
    >>> len(frames), len(frames[0]) >= 2 * (1 + load_map("usa").route(1).length)  # a point a joint, each side
    (1, True)
    """
    t = geo.thick
    clear = (_FRAME_CLEAR + _FRAME_WIDTH / 2) * t
    frames = []
    for rid in ids:
        runs: list[list[tuple[float, float, float, float, float, float]]] = []
        for j in sorted({sp.index for sp in geo.spaces[rid]}):
            row = [sp for sp in geo.spaces[rid] if sp.index == j]
            cx, cy = sum(sp.x for sp in row) / len(row), sum(sp.y for sp in row) / len(row)
            ux, uy, hl = row[0].ux, row[0].uy, row[0].length / 2
            w = max(abs((sp.x - cx) * -uy + (sp.y - cy) * ux) for sp in row) + t / 2 + clear
            if not runs or (geo.wraps and abs(cx - runs[-1][-1][0]) > geo.half):
                runs.append([])
            runs[-1].append((cx, cy, ux, uy, hl, w))
        for run in runs:
            sides = []
            for side in (1, -1):
                ends = []
                for k, (cx, cy, ux, uy, hl, w) in enumerate(run):
                    back = hl + (clear if k == 0 else 0.0)  # the ends go round the first and last space
                    ahead = hl + (clear if k == len(run) - 1 else 0.0)
                    nx, ny = -uy * w * side, ux * w * side
                    ends.append(
                        ((cx - back * ux + nx, cy - back * uy + ny), (cx + ahead * ux + nx, cy + ahead * uy + ny))
                    )
                pts = [ends[0][0]]
                for k, ((_, end), (start, _)) in enumerate(zip(ends, ends[1:])):
                    if (start[0] - end[0]) * run[k][2] + (start[1] - end[1]) * run[k][3] > 0:
                        pts += [end, start]  # a gap between the spaces' sides (the outside of a bend)
                    else:  # they overlap (straight on, the inside of a bend): where the two sides meet
                        pts.append(_meet(end, run[k][2:4], start, run[k + 1][2:4]))
                sides.append([*pts, ends[-1][1]])
            d = geo.digits
            frames.append([(round(x, d), round(y, d)) for x, y in sides[0] + sides[1][::-1]])
    return frames


def _meet(
    p: tuple[float, float], u: tuple[float, ...], q: tuple[float, float], v: tuple[float, ...]
) -> tuple[float, float]:
    """Where the line through ``p`` along ``u`` meets the one through ``q`` along ``v`` (their
    midpoint when they are nearly parallel)."""
    det = u[0] * v[1] - u[1] * v[0]
    if abs(det) < 1e-3:
        return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    k = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / det
    return p[0] + k * u[0], p[1] + k * u[1]
