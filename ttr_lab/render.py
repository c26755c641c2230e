"""Draw a board as a plotly figure: a pure function of a map or a game state.

:func:`board_figure` returns a new :class:`plotly.graph_objects.Figure`;
:func:`update_board` redraws an existing figure (or ``FigureWidget``) in
place, keeping the trace objects, and so their click callbacks, alive.  This
module imports plotly only: no ipywidgets, no IPython.  Where things go comes
from :mod:`ttr_lab.board_geometry` and :mod:`ttr_lab.board_frame` (with the
label placement of :mod:`ttr_lab.board_labels`), what is shown from
:mod:`ttr_lab.board_scene`, the trace dicts from :mod:`ttr_lab.render_traces`
and :mod:`ttr_lab.render_figure`, the in-place redraw from
:mod:`ttr_lab.render_update`; :mod:`ttr_lab.svg` draws the same board without
plotly.

The board is drawn as the printed one is: one box per car space in the
route's colour (the boxes are the count), tunnels with a dotted dark edge,
ferries with an ``L`` on each locomotive space, ships as ovals, paired routes
as two rows of boxes, double routes side by side, and a route too short for
its boxes bent into an arc.  A claimed space is filled in its owner's colour,
edged in black and carries the owner's mark (circle, diamond, square,
triangle, cross...), so pieces are never taken for card colours.  Each
player's last claim or build has a halo in their colour.  City labels are
placed so that none overlaps another or leaves the plot, with leader lines
where a label had to move away (:mod:`ttr_lab.board_labels`).

Cities sit at their real coordinates in a Web-Mercator-like plane.  A map
whose routes cross the date line (Rails & Sails World) is drawn from -180 to
180 degrees like the printed board: each Pacific route leaves by one edge and
comes back by the other, and small "‹ Tokyo" labels at the edge name the city
on the far side.

The board that never changes is in ``layout.shapes`` (under every trace,
never re-sent by a redraw): ``tracks`` (the thin line under land routes),
``sea lanes`` (under ship routes) and ``<style> <colour>``, the unclaimed
spaces, one path per (style, colour) on the map.

Trace order (one ``scatter`` trace each; every trace has a unique ``meta`` key,
shown in brackets where it differs from the name)::

    highlight               dashed violet frame around each highlighted route (if highlight)
    last move of <name>     [last:<i>] halo under the seat's last move (one per seat; if last_moves)
    <path name>             [path:<i>] translucent band per path      (if paths)
    ferry marks             "L" on free locomotive spaces             (map has ferries)
    color letters           R, G, B... in each free route's boxes    (if show_color_letters)
    claimed by <name>       [seat:<i>] the seat's pieces, edged in black, and marks (one per seat, even when empty)
    lengths                 the length on each route's middle space   (if show_lengths)
    ticket lines, tickets   dotted lines and rings for ticket cities  (if tickets)
    stations                square behind each station city           (if stations)
    label leaders           lines from a moved label to its city      (if any)
    routes                  CLICKABLE: a faint marker on every car space (two on a long one), customdata = route id
    harbors                 anchor badge beside each harbor city      (if harbors)
    cities                  CLICKABLE: one marker per city, map order, customdata = name
    city labels             the placed names
    edge labels             far-side city names at the cut edge       (wrapping maps)
    <style description>     [legend:<style>] legend-only samples, no points
    last move (halo)        [legend:last] legend-only sample           (if last_moves)

Only ``routes`` and ``cities`` answer hover and clicks; every other trace has
``hoverinfo="skip"``, so an overlay never steals a click.  Because ``routes``
has a point on every car space (nearly transparent, as big as the space is
thick), a click anywhere along a route picks that route; :func:`route_at`
maps the clicked point back to its route id.  The index of ``routes``
depends on the overlays and the number of seats (pass ``player_names`` from
the start to fix it), so find it with :func:`route_trace_index`.
:func:`update_board` keeps trace *objects* alive, so
``fig.data[route_trace_index(fig)].on_click`` registered once keeps working
after every redraw.

Examples
--------
>>> from ttr_lab.data import load_map
>>> from ttr_lab.render import board_figure, route_trace_index, route_at
>>> usa = load_map("usa")
>>> fig = board_figure(usa, owners={1: 0}, player_names=["Ada", "Bo"])
>>> k = route_trace_index(fig)
>>> len(fig.data[k].customdata) >= sum(r.length for r in usa.routes)  # points all along every route
True
>>> route_at(fig, 0), route_at(fig, len(fig.data[k].customdata) - 1)
(1, 100)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from .board_drawing import PLOTLY_MIME, SVG_MIME, scene_svg
from .board_scene import PATH_COLORS, PLAYER_COLORS, ROUTE_COLORS, SEAT_MARKS, Scene
from .errors import NotFoundError
from .render_figure import build
from .render_traces import CITIES, ROUTES
from .render_update import update_board

__all__ = [
    "BoardFigure",
    "PLAYER_COLORS",
    "ROUTE_COLORS",
    "PATH_COLORS",
    "SEAT_MARKS",
    "board_figure",
    "update_board",
    "route_trace_index",
    "city_trace_index",
    "route_at",
    "city_at",
]


def board_figure(
    obj: Any,
    *,
    owners: Mapping[int, int] | None = None,
    player_colors: Sequence[str] | None = None,
    player_names: Sequence[str] | None = None,
    highlight: Iterable[Any] = (),
    paths: Iterable[Any] = (),
    tickets: Iterable[Any] = (),
    stations: Mapping[str, int] | None = None,
    harbors: Mapping[str, int] | None = None,
    last_moves: bool = True,
    title: str | None = None,
    width: int | None = None,
    height: int | None = None,
    show_lengths: bool = False,
    show_color_letters: bool = False,
) -> BoardFigure:
    """Draw a map, an edition or a game state as a plotly figure.

    Parameters
    ----------
    obj : Map, or anything with ``.map`` (an edition), or a game state
        A game state (or a player's view) is duck-typed: ``route_owners()``
        (route id -> seat), ``player_names``, ``buildings()`` (kind -> city
        -> seat: stations, harbors) and ``move_stack`` are used when the
        matching keyword is not given.
    owners : mapping route id -> seat index, optional
        Claimed routes: their spaces drawn in the seat's colour, edged in
        black, with the seat's mark (:data:`SEAT_MARKS`).
    player_colors, player_names : sequences, optional
        Seat colours (default :data:`PLAYER_COLORS`) and names
        (default ``"Player 1"``...).  Every seat gets a legend entry.
    highlight : route ids (or Route objects)
        Drawn with a dashed violet frame around their spaces (:data:`ttr_lab.board_scene.HIGHLIGHT`).
    paths : sequences of route ids, or objects with ``.routes``
        Each drawn as a translucent band in its own colour; an object's
        ``.name`` (a str) becomes its legend entry.
    tickets : Ticket objects, ticket ids or tuples of city names
        Their cities get a ring and are joined by a dotted line.
    stations, harbors : mapping city -> seat, optional
        Stations (a square behind the city) and harbors (an anchor badge
        beside it, never on a city).
    last_moves : bool
        Halo each player's last claim or build, read from the state's
        ``move_stack`` (a claim's seat is its route's owner, a build's the
        building's).  ``False`` draws no halo.
    title, width, height : optional
        Default: the map's name, 900 pixels wide, as tall as the map needs
        (at most 0.64 of the width) plus the title and the legend.
        ``title=""`` draws no title.  The text grows with the width: every
        font (labels, legend, title) is its default size times ``width /
        900`` kept within 1 and 2 (:func:`ttr_lab.board_frame.text_scale`),
        so 11 px city labels are 17.1 px at 1400 wide.
    show_lengths : bool
        Also write each route's length on its middle space.
    show_color_letters : bool
        Also write a colour code in every box of every unclaimed route, for
        colour-blind students: ``R`` red, ``O`` orange, ``Y`` yellow, ``G``
        green, ``B`` blue, ``P`` pink, ``W`` white, ``K`` black, nothing on
        gray (:data:`ttr_lab.board_letters.COLOR_LETTERS`); in dark or
        white ink, whichever reads better on the box.  Off by default.

    Returns
    -------
    plotly.graph_objects.Figure
        See the module docstring for the trace order.

    Raises
    ------
    WrongTypeError
        If ``obj`` is not a map, an edition or a state (also a ``TypeError``).
    NotFoundError
        If a route id, ticket id or city is not on the map (also a ``KeyError``).

    Examples
    --------
    >>> from ttr_lab.data import load_map
    >>> fig = board_figure(load_map("usa"), highlight=[1], tickets=[("Boston", "Miami")])
    >>> [t.name for t in fig.data if t.name in ("highlight", "tickets", "routes", "cities")]
    ['highlight', 'tickets', 'routes', 'cities']

    Colour letters in the boxes, and a board for a projector (its text grows with the width):

    >>> fig = board_figure(load_map("usa"), show_color_letters=True, width=1400)
    >>> sorted(set(fig.data[[t.name for t in fig.data].index("color letters")].text))
    ['B', 'G', 'K', 'O', 'P', 'R', 'W', 'Y']
    >>> fig.layout.legend.font.size > 11
    True
    """
    scene = Scene(
        obj,
        owners=owners,
        player_colors=player_colors,
        player_names=player_names,
        highlight=highlight,
        paths=paths,
        tickets=tickets,
        stations=stations,
        harbors=harbors,
        last_moves=last_moves,
    )
    traces, layout = build(
        scene,
        title=title,
        width=width,
        height=height,
        show_lengths=show_lengths,
        show_color_letters=show_color_letters,
    )
    fig = BoardFigure(data=traces, layout=layout)
    if _is_position(obj):
        static = dict(title=title, width=width, height=height, show_color_letters=show_color_letters)
        fig._ttr_static = (scene, static, fig._ttr_print())
    return fig


def _is_position(obj: Any) -> bool:
    """A game state or a player's view (what ``_repr_mimebundle_`` shows as a static board too)."""
    return callable(getattr(obj, "route_owners", None)) and hasattr(obj, "player_names")


class BoardFigure(go.Figure):
    """A :class:`plotly.graph_objects.Figure` of a board that a notebook also saves as a static SVG.

    :func:`board_figure` returns one.  Drawn from a game state or a
    player's view (not a bare map: that board is the same in every
    notebook), its display bundle holds the interactive figure
    (``application/vnd.plotly.v1+json``, which JupyterLab shows) and the
    same board as ``image/svg+xml`` (:func:`ttr_lab.board_drawing.scene_svg`,
    which GitHub, nbviewer and a notebook opened without a kernel show), as
    python-chess shows a board.  The SVG is drawn from the position as it
    was when the figure was made, and left out once the figure has been
    changed (a heatmap drawn over it, a restyle), so it never shows a
    board the figure does not.  ``go.Figure(fig)`` is a plain figure.

    Where the SVG goes: IPython displays a game state or a view through its
    ``_repr_mimebundle_`` (which calls this one), so ``g`` as a cell's value
    saves both pictures; a figure itself, ``board_figure(g)`` as a cell's
    value, is displayed by plotly's own ``_ipython_display_`` (its
    renderers) and saves the interactive figure only, which keeps lessons
    full of boards from doubling in size.

    >>> from ttr_lab import new_game
    >>> fig = board_figure(new_game("usa", players=2, seed=1))
    >>> sorted(fig._repr_mimebundle_())
    ['application/vnd.plotly.v1+json', 'image/svg+xml']
    >>> _ = fig.add_scatter(x=[0], y=[0])
    >>> sorted(fig._repr_mimebundle_())
    ['application/vnd.plotly.v1+json']
    """

    _ttr_static: tuple[Scene, dict[str, Any], int] | None = None

    def _ttr_print(self) -> int:
        """A fingerprint of the figure's data and layout (a change to either changes it)."""
        return hash((repr(self._data), repr(self._layout)))

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None, validate: bool = True, **kwargs: Any
    ) -> dict[str, Any]:
        import plotly.io as pio

        def wanted(mime: str) -> bool:
            return (not include or mime in include) and not (exclude and mime in exclude)

        bundle: dict[str, Any] = {}
        if wanted(PLOTLY_MIME):  # the figure alone: no text/html, which would hide the SVG elsewhere
            fig_dict = self.to_plotly_json() if not validate else self.to_dict()
            bundle.update(pio.renderers["plotly_mimetype"].to_mimebundle(fig_dict))
        static = self._ttr_static
        if static is not None and wanted(SVG_MIME) and static[2] == self._ttr_print():
            bundle[SVG_MIME] = scene_svg(static[0], **static[1])
        return bundle


# --------------------------------------------------------------------------- lookups


def _trace_index(fig: Any, name: str) -> int:
    for i, t in enumerate(fig.data):
        if t.meta == name or (t.meta is None and t.name == name):
            return i
    raise NotFoundError(f"figure has no {name!r} trace (was it made by board_figure?)")


def route_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"routes"`` trace.

    >>> from ttr_lab.data import load_map
    >>> fig = board_figure(load_map("usa"))
    >>> fig.data[route_trace_index(fig)].name
    'routes'
    """
    return _trace_index(fig, ROUTES)


def city_trace_index(fig: Any) -> int:
    """Index in ``fig.data`` of the clickable ``"cities"`` trace."""
    return _trace_index(fig, CITIES)


def route_at(fig: Any, point_index: int) -> int:
    """The route id of point ``point_index`` of the ``"routes"`` trace (a point per car space).

    In a click callback: ``route_at(fig, points.point_inds[0])``.
    """
    return int(fig.data[route_trace_index(fig)].customdata[point_index])


def city_at(fig: Any, point_index: int) -> str:
    """The city name of point ``point_index`` of the ``"cities"`` trace."""
    return str(fig.data[city_trace_index(fig)].customdata[point_index])
