"""The board: where things go and how they look, as data, SVG and plotly figures.

Standard library only, except :mod:`ttr_lab.board.plotly` (the ``lab`` extra):

==================  ==============================================================
``geometry``        positions of cities and route boxes (``paths``: their polylines)
``labels``          city labels placed clear of routes (``letters``: the glyph widths)
``frame``           the figure's frame: width, margins, title, legend room
``scene``           what a board shows (owners, marks, highlights, colours), drawn once
``marks``           marks an edition or a lesson adds (``PUBLIC``: what every seat may see)
``options``         :class:`BoardOptions`, one value for every drawing option
``highlight``       route and city highlights
``figure``          the board as plain plotly-style dicts (``traces``, ``overlays``)
``drawing``         the MIME bundles a game or a view shows in Jupyter (``svg_legend``)
``svg``             :func:`board_svg`: the board as SVG, no plotly
``plotly``          :func:`board_figure`: the clickable plotly figure (``update``, ``static``)
==================  ==============================================================

The names below are imported when first used, so ``import ttr_lab.board`` loads
neither plotly nor the drawing code:

>>> from ttr_lab.board import board_svg
>>> import ttr_lab
>>> board_svg(ttr_lab.load_map("usa")).startswith("<svg")
True
"""

from typing import Any

from ..io.lazy import lazy_attribute, lazy_dir

__all__ = [
    "BoardFigure",
    "BoardOptions",
    "PUBLIC",
    "PLAYER_COLORS",
    "ROUTE_COLORS",
    "PATH_COLORS",
    "SEAT_MARKS",
    "board_figure",
    "update_board",
    "drawn_svg",
    "route_trace_index",
    "city_trace_index",
    "route_at",
    "city_at",
    "clicked_route",
    "clicked_city",
    "trace_uid",
    "STALE_CLICK",
    "board_svg",
    "mimebundle",
]

_PLOTLY = (
    "BoardFigure board_figure update_board drawn_svg route_trace_index city_trace_index route_at city_at "
    "clicked_route clicked_city trace_uid STALE_CLICK"
)
#: names imported the first time they are used (PEP 562): plotly's are the ``lab`` extra's
_LAZY = {
    **dict.fromkeys(_PLOTLY.split(), ".plotly"),
    "BoardOptions": ".options",
    "PUBLIC": ".marks",
    "PLAYER_COLORS": ".scene",
    "ROUTE_COLORS": ".scene",
    "PATH_COLORS": ".scene",
    "SEAT_MARKS": ".scene",
    "board_svg": ".svg",
    "mimebundle": ".svg",
}


def __getattr__(name: str) -> Any:
    return lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return lazy_dir(globals(), _LAZY)
