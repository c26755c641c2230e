"""Map analytics drawn on the board: route and city heatmaps on :func:`ttr_lab.board.board_figure`.

The board is drawn by the public :func:`~ttr_lab.board.board_figure`; the
heat is one extra trace on top, placed from the board's own ``routes`` trace
(one point per car space, ``customdata`` = route id) and ``cities`` trace
(``customdata`` = city name), so it sits exactly where the board draws them.

Examples
--------
>>> from ttr_lab.maps import load_map
>>> m = load_map("usa")
>>> fig = route_heatmap(m, {1: 0.9, 2: 0.1}, title="claims")
>>> fig.data[-1].name
'claim rate'
>>> fig = city_heatmap(m, {"Chicago": 3.0, "Miami": 1.0})
>>> fig.data[-1].name, len(fig.data[-1].x)
('desirability', 36)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go

from ..board.plotly import board_figure
from ..errors import TtrError

__all__ = ["route_heatmap", "city_heatmap"]


def _trace(fig: go.Figure, name: str) -> Any:
    for t in fig.data:
        if t.name == name:
            return t
    raise TtrError(f"the board has no {name!r} trace to place the heatmap on")  # pragma: no cover


def route_heatmap(
    obj: Any,
    values: Mapping[int, float],
    *,
    label: str = "claim rate",
    colorscale: str = "YlOrRd",
    hover: Mapping[int, str] | None = None,
    **board: Any,
) -> go.Figure:
    """The board with every car space of each route coloured by ``values[route id]``.

    Parameters
    ----------
    obj : Map, edition or game
        What :func:`~ttr_lab.board.board_figure` draws.
    values : mapping route id -> number
        Routes left out are drawn as 0.
    label : str
        The trace's name and the colour bar's title.
    hover : mapping route id -> str, optional
        Extra hover text per route.
    **board
        Passed to :func:`~ttr_lab.board.board_figure` (``title=``, ``width=``...).
    """
    fig = board_figure(obj, last_moves=False, **board)
    routes = _trace(fig, "routes")
    ids = [int(r) for r in routes.customdata]
    z = [float(values.get(r, 0.0)) for r in ids]
    text = [
        f"route {r}: {label} {values.get(r, 0.0):.3g}" + (f"<br>{hover[r]}" if hover and r in hover else "")
        for r in ids
    ]
    fig.add_trace(
        go.Scatter(
            x=list(routes.x),
            y=list(routes.y),
            mode="markers",
            name=label,
            marker={
                "color": z,
                "colorscale": colorscale,
                "size": 9,
                "symbol": "square",
                "line": {"width": 0},
                "colorbar": {"title": {"text": label}, "thickness": 12},
                "cmin": 0,
            },
            text=text,
            hoverinfo="text",
            showlegend=False,
            zorder=4,  # on top: the board draws its layers at zorder 0-3 (ttr_lab.board)
        )
    )
    return fig


def city_heatmap(
    obj: Any,
    values: Mapping[str, float],
    *,
    label: str = "desirability",
    colorscale: str = "Viridis",
    max_size: float = 30,
    **board: Any,
) -> go.Figure:
    """The board with a disc on every city, sized and coloured by ``values[city]``."""
    fig = board_figure(obj, last_moves=False, **board)
    cities = _trace(fig, "cities")
    names = [str(c) for c in cities.customdata]
    z = [float(values.get(c, 0.0)) for c in names]
    top = max(z) if z and max(z) > 0 else 1.0
    fig.add_trace(
        go.Scatter(
            x=list(cities.x),
            y=list(cities.y),
            mode="markers",
            name=label,
            marker={
                "color": z,
                "colorscale": colorscale,
                "size": [6 + max_size * v / top for v in z],
                "opacity": 0.8,
                "line": {"width": 1, "color": "black"},
                "colorbar": {"title": {"text": label}, "thickness": 12},
            },
            text=[f"{c}: {label} {v:.3g}" for c, v in zip(names, z)],
            hoverinfo="text",
            showlegend=False,
            zorder=4,  # on top of the board's layers
        )
    )
    return fig
