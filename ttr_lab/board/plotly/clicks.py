"""Which route or city a click on a plotly board names (re-exported by :mod:`ttr_lab.board.plotly`).

The clickable traces of a board :func:`~ttr_lab.board.plotly.board_figure` drew
are found by their ``meta`` key (:func:`route_trace_index`,
:func:`city_trace_index`); a point's route or city is its ``customdata``
(:func:`route_at`, :func:`city_at`).  A click from the browser is matched by
:func:`clicked_route` and :func:`clicked_city`, which also check that the point
is where the browser drew it, and answer None when the board changed under the
click (a widget then shows :data:`STALE_CLICK`, issue 19).  No plotly import:
a figure is read through its ``data``.
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import NotFoundError
from ..traces import CITIES, ROUTES

__all__ = [
    "STALE_CLICK",
    "route_trace_index",
    "city_trace_index",
    "route_at",
    "city_at",
    "clicked_route",
    "clicked_city",
]

#: What a widget says when a click cannot be matched to the board the person saw (issue 19).
STALE_CLICK = "The board was updating when you clicked, so that click was not used: click again."


def _trace_index(fig: Any, name: str) -> int:
    for i, t in enumerate(fig.data):
        if t.meta == name or (t.meta is None and t.name == name):
            return i
    raise NotFoundError(f"figure has no {name!r} trace (was it made by board_figure?)")


def route_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"routes"`` trace (0 in a board this module drew).

    >>> from ttr_lab.maps import load_map
    >>> from ttr_lab.board.plotly import board_figure
    >>> fig = board_figure(load_map("usa"))
    >>> fig.data[route_trace_index(fig)].name
    'routes'
    """
    return _trace_index(fig, ROUTES)


def city_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"cities"`` trace (1 in a board this module drew)."""
    return _trace_index(fig, CITIES)


def route_at(fig: Any, point_index: int) -> int:
    """The route id of point ``point_index`` of the ``"routes"`` trace (a point per car space).

    For a click from the browser use :func:`clicked_route`, which also checks
    that the point is the one the person clicked.
    """
    return int(fig.data[route_trace_index(fig)].customdata[point_index])


def city_at(fig: Any, point_index: int) -> str:
    """The city name of point ``point_index`` of the ``"cities"`` trace."""
    return str(fig.data[city_trace_index(fig)].customdata[point_index])


def _near(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-6)
    except (TypeError, ValueError):
        return False


def _clicked(fig: Any, points: Any, name: str) -> Any:
    """The ``customdata`` (route id, city name) of the point a click on trace ``name`` names, or
    None when the click cannot be matched to what the person saw: the trace the browser named is
    not that clickable trace, the point is not there, or the browser's ``x``/``y`` for the point
    differ from the figure's (the board changed after the browser drew it).  A click never names
    a point by index alone: plotly's ``Points`` carry the index and the coordinates clicked."""
    inds = list(getattr(points, "point_inds", None) or ())
    xs = list(getattr(points, "xs", None) or ())
    ys = list(getattr(points, "ys", None) or ())
    try:
        k = _trace_index(fig, name)
    except NotFoundError:
        return None
    if not inds or not xs or not ys or getattr(points, "trace_index", k) != k:
        return None
    trace, i = fig.data[k], inds[0]
    ids = trace.customdata
    if ids is None or not isinstance(i, int) or not 0 <= i < len(ids) or i >= len(trace.x) or i >= len(trace.y):
        return None
    if not (_near(xs[0], trace.x[i]) and _near(ys[0], trace.y[i])):
        return None
    return ids[i]


def clicked_route(fig: Any, points: Any) -> int | None:
    """The route id a click on the ``"routes"`` trace names (``points``: plotly's ``Points`` of
    an ``on_click`` callback), or None if the click cannot be matched to the board the person saw
    (show :data:`STALE_CLICK` then, and change nothing).

    >>> from types import SimpleNamespace as Click
    >>> from ttr_lab.maps import load_map
    >>> from ttr_lab.board.plotly import board_figure
    >>> fig = board_figure(load_map("usa"))
    >>> t = fig.data[route_trace_index(fig)]
    >>> clicked_route(fig, Click(point_inds=[7], xs=[t.x[7]], ys=[t.y[7]], trace_index=0)) == t.customdata[7]
    True
    >>> clicked_route(fig, Click(point_inds=[7], xs=[t.x[8]], ys=[t.y[8]], trace_index=0)) is None  # drawn elsewhere
    True
    """
    rid = _clicked(fig, points, ROUTES)
    return None if rid is None else int(rid)


def clicked_city(fig: Any, points: Any) -> str | None:
    """The city a click on the ``"cities"`` trace names, or None (as :func:`clicked_route`)."""
    city = _clicked(fig, points, CITIES)
    return None if city is None else str(city)
