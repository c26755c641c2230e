"""Draw a board as a plotly figure: a pure function of a map or a game state.

:func:`board_figure` returns a new :class:`plotly.graph_objects.Figure`;
:func:`update_board` redraws an existing figure (or ``FigureWidget``) in
place, keeping the trace objects, and so their click callbacks, alive.  This
module imports plotly only: no ipywidgets, no IPython.  Where things go comes
from :mod:`ttr_lab.board.geometry` and :mod:`ttr_lab.board.frame` (with the
label placement of :mod:`ttr_lab.board.labels`), what is shown from
:mod:`ttr_lab.board.scene`, the trace dicts from :mod:`ttr_lab.board.traces`
and :mod:`ttr_lab.board.figure`, the in-place redraw from
:mod:`ttr_lab.board.plotly.update`, which route or city a click names from
:mod:`ttr_lab.board.plotly.clicks`; :mod:`ttr_lab.board` draws the same board without
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
where a label had to move away (:mod:`ttr_lab.board.labels`).

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
shown in brackets where it differs from the name, a ``uid`` made from it by
:func:`trace_uid` and the ``zorder`` of its layer, in brackets after)::

    routes                  CLICKABLE: a faint marker on every car space (two on a long one), customdata = route id [2]
    cities                  CLICKABLE: one marker per city, map order, customdata = name [2]
    <badge legend>          a badge beside each city of an edition's badge style (harbors) [2]
    highlight               dashed violet frame around each highlighted route [0]
    last move of <name>     [last:<i>] halo under the seat's last move (one per seat; if last_moves) [0]
    ferry marks             "L" on free locomotive spaces             (map has ferries) [1]
    color letters           R, G, B... in each free route's boxes    (if show_color_letters) [1]
    claimed by <name>       [seat:<i>] the seat's pieces, edged in black, and marks (one per seat, even when empty) [1]
    lengths                 the length on each route's middle space   (if show_lengths) [1]
    ticket lines, tickets   dotted lines and rings for ticket cities [1]
    <mark legend>           each other mark style of the edition, in its order: squares
                            behind cities (stations), rings round them, crosses on routes [1]
    label leaders           lines from a moved label to its city      (if any) [1]
    city labels             the placed names [3]
    edge labels             far-side city names at the cut edge       (wrapping maps) [3]
    <style description>     [legend:<style>] legend-only samples, no points
    last move (halo)        [legend:last] legend-only sample           (if last_moves)
    <path name>             [path:<i>] translucent band per path [0]

An edition's marks (:mod:`ttr_lab.board.marks`) are one trace per mark
style it declares, keyed by the style's legend; a bare map has none.  The
set of traces depends only on the map, the edition, the seats and the
options that stay for a game (``last_moves``, ``show_lengths``,
``show_color_letters``): an overlay that shows nothing (no highlight,
tickets or marks) is still there, with no points, an empty name and no
legend entry.  Paths
come last, one trace each; :func:`update_board` empties a path it no longer
shows and adds one beyond those the figure has at the end.  So no redraw
moves a trace, and the clickable ``routes`` and ``cities`` are always
``fig.data[0]`` and ``fig.data[1]`` (issue 19: a click sent while the
browser still showed the previous board named a trace by its index).
plotly draws each ``zorder`` in a layer of its own, lowest first, so the
order of ``fig.data`` is not the order of drawing.

The picture's size, margins and axis ranges also stay for a game: the
legend's room below the map is sized by the entries always shown (route
styles, seats, the last-move halo) and two spare rows, not by what the
legend shows now, and a longer legend scrolls
(:func:`ttr_lab.board.frame.board_frame`).

Only ``routes`` and ``cities`` answer hover and clicks; every other trace has
``hoverinfo="skip"``, so an overlay never steals a click.  Because ``routes``
has a point on every car space (nearly transparent, as big as the space is
thick), a click anywhere along a route picks that route; :func:`clicked_route`
maps a click (plotly's ``Points``: the point's index and the ``x``/``y`` the
browser clicked) to its route id, and answers None when the point at that
index is not where the browser drew it (:func:`clicked_city` likewise).
:func:`update_board` keeps trace *objects* alive, so
``fig.data[route_trace_index(fig)].on_click`` registered once keeps working
after every redraw.

Examples
--------
>>> from ttr_lab.maps import load_map
>>> from ttr_lab.board import board_figure, route_trace_index, route_at
>>> usa = load_map("usa")
>>> fig = board_figure(usa, owners={1: 0}, player_names=["Ada", "Bo"])
>>> k = route_trace_index(fig)
>>> len(fig.data[k].customdata) >= sum(r.length for r in usa.routes)  # points all along every route
True
>>> route_at(fig, 0), route_at(fig, len(fig.data[k].customdata) - 1)
(1, 100)
"""

from __future__ import annotations

from typing import Any, NamedTuple

try:
    import plotly.graph_objects as go
except ImportError as e:  # the [lab] extra is missing: say so, with the command that installs it
    from ...io.extras import missing_extra

    raise missing_extra("lab", "drawing a board with plotly (ttr_lab.board)", "plotly") from e

from ..drawing import PLOTLY_MIME, SVG_MIME, board_svg, scene_svg
from ..figure import build
from ..marks import PUBLIC
from ..options import BoardOptions
from ..scene import PATH_COLORS, PLAYER_COLORS, ROUTE_COLORS, SEAT_MARKS, Scene
from ..traces import trace_uid
from .clicks import STALE_CLICK, city_at, city_trace_index, clicked_city, clicked_route, route_at, route_trace_index
from .static import with_markers
from .update import update_board as _update_board

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
]


def board_figure(obj: Any, options: BoardOptions | None = None, /, **keywords: Any) -> BoardFigure:
    """Draw a map, an edition or a game state as a plotly figure.

    The options are one :class:`~ttr_lab.board.options.BoardOptions` value,
    or its fields as keywords (``board_figure(game, highlight=[1])``), or
    both (the keywords change the value's).

    Parameters
    ----------
    obj : Map, or anything with ``.map`` (an edition), or a game state
        A game state (or a player's view) is duck-typed: ``route_owners()``
        (route id -> seat), ``player_names`` and ``move_stack`` are used when
        the matching option is not given.  What its edition adds to the
        board (stations, harbors...) comes from the edition's hooks
        (:mod:`ttr_lab.board.marks`), for the ``viewer``.
    options : BoardOptions, optional
        All the options below, as one value.
    owners : mapping route id -> seat index, optional
        Claimed routes: their spaces drawn in the seat's colour, edged in
        black, with the seat's mark (:data:`SEAT_MARKS`).
    player_colors, player_names : sequences, optional
        Seat colours (default :data:`PLAYER_COLORS`) and names
        (default ``"Player 1"``...).  Every seat gets a legend entry.
    highlight : route ids (or Route objects)
        Drawn with a dashed violet frame around their spaces (:data:`ttr_lab.board.scene.HIGHLIGHT`).
    paths : sequences of route ids, or objects with ``.routes``
        Each drawn as a translucent band in its own colour; an object's
        ``.name`` (a str) becomes its legend entry.
    tickets : Ticket objects, ticket ids or tuples of city names
        Their cities get a ring and are joined by a dotted line.
    viewer : int, optional
        The seat the board is drawn for: the edition draws that seat's
        secret marks, nobody else's; ``-1`` (:data:`ttr_lab.board.marks.PUBLIC`)
        for nobody's.  Default: the whole game (a player's view: its own player).
    stations, harbors, ... : mapping city (or route id) -> seat, optional
        An edition's marks given by hand, by its styles' keywords
        (Europe's ``stations``: a square behind the city; Rails & Sails'
        ``harbors``: an anchor badge beside it), replacing the position's.
        Only where ``obj`` has an edition (a game, a view or an edition).
    last_moves : bool
        Halo each player's last claim or build, read from the state's
        ``move_stack``; where a move went is the edition's
        (``move_spot``), its seat the route's owner or the mark's.
        ``False`` draws no halo.
    title, width, height : optional
        Default: the map's name, 900 pixels wide, as tall as the map needs
        (at most 0.64 of the width) plus the title and the legend.
        ``title=""`` draws no title.  The text grows with the width: every
        font (labels, legend, title) is its default size times ``width /
        900`` kept within 1 and 2 (:func:`ttr_lab.board.frame.text_scale`),
        so 11 px city labels are 17.1 px at 1400 wide.
    show_lengths : bool
        Also write each route's length on its middle space.
    show_color_letters : bool
        Also write a colour code in every box of every unclaimed route, for
        colour-blind students: ``R`` red, ``O`` orange, ``Y`` yellow, ``G``
        green, ``B`` blue, ``P`` pink, ``W`` white, ``K`` black, nothing on
        gray (:data:`ttr_lab.board.letters.COLOR_LETTERS`); in dark or
        white ink, whichever reads better on the box.  Off by default.

    Returns
    -------
    plotly.graph_objects.Figure
        See the module docstring for the trace order.

    Raises
    ------
    WrongTypeError
        If ``obj`` is not a map, an edition or a state, or an option is not
        one of these or not of its type (also a ``TypeError``).
    NotFoundError
        If a route id, ticket id or city is not on the map (also a ``KeyError``).

    Examples
    --------
    >>> from ttr_lab.maps import load_map
    >>> fig = board_figure(load_map("usa"), highlight=[1], tickets=[("Boston", "Miami")])
    >>> [t.name for t in fig.data if t.name in ("highlight", "tickets", "routes", "cities")]
    ['routes', 'cities', 'highlight', 'tickets']

    Colour letters in the boxes, and a board for a projector (its text grows with the width):

    >>> fig = board_figure(load_map("usa"), show_color_letters=True, width=1400)
    >>> sorted(set(fig.data[[t.name for t in fig.data].index("color letters")].text))
    ['B', 'G', 'K', 'O', 'P', 'R', 'W', 'Y']
    >>> fig.layout.legend.font.size > 11
    True
    """
    scene = Scene(obj, options, **keywords)
    traces, layout = build(scene)
    fig = BoardFigure(data=traces, layout=layout)
    fig._ttr_static = _Static(scene, len(fig.data), fig._ttr_print(len(fig.data)), _describe(scene))
    return fig


def update_board(fig: Any, obj: Any, options: BoardOptions | None = None, /, **keywords: Any) -> Any:
    """Redraw ``fig`` in place (:func:`ttr_lab.board.plotly.update.update_board`, which see) and remember
    what it now shows, so a widget holding the figure can save the same board as a static SVG
    (:func:`drawn_svg`).

    >>> from ttr_lab.maps import load_map
    >>> usa = load_map("usa")
    >>> fig = update_board(board_figure(usa), usa, owners={1: 0})
    >>> 'claimed by Player 1' in drawn_svg(fig)
    True
    """
    opts = BoardOptions.of(options, **keywords)
    _update_board(fig, obj, opts)
    fig._ttr_drawn = (obj, opts)
    return fig


def drawn_svg(fig: Any) -> str | None:
    """The board ``fig`` shows as an SVG, as :func:`update_board` last drew it (None if it never did).

    The SVG holds what the figure holds: the board drawn from the same
    object with the same options (a widget's board, from its player's side
    of the table), so saving it beside a widget shows nobody more.
    """
    drawn = getattr(fig, "_ttr_drawn", None)
    if drawn is None:
        return None
    obj, options = drawn
    return board_svg(obj, options)


def _describe(scene: Scene) -> str:
    """A line of text for the board (a display's ``text/plain``)."""
    title = scene.options.title
    seats = ", ".join(scene.names)
    owned = len(scene.owners)
    what = scene.map.name if not title else f"{scene.map.name}: {title}"
    claimed = f", {owned} route{'s' if owned != 1 else ''} claimed" if owned else ""
    return f"<board of {what} ({seats}){claimed}>" if seats else f"<board of {what}>"


class _Static(NamedTuple):
    """What a BoardFigure's static SVG is drawn from, and the figure it was drawn for."""

    scene: Scene  # with its options
    traces: int  # how many traces the board had
    fingerprint: int  # of those traces and the layout
    text: str


class BoardFigure(go.Figure):
    """A :class:`plotly.graph_objects.Figure` of a board that a notebook also saves as a static SVG.

    :func:`board_figure` returns one.  It displays through its own bundle
    (:meth:`_repr_mimebundle_`, also as a cell's value): the interactive
    figure (``application/vnd.plotly.v1+json``, which JupyterLab shows), the
    same board as ``image/svg+xml`` (:func:`ttr_lab.board.drawing.scene_svg`,
    which GitHub, nbviewer, nbconvert's HTML and a notebook opened without a
    kernel show), as python-chess shows a board, and a line of
    ``text/plain``.  It never goes through plotly's renderers, which need
    nbformat (missing in Pyodide: "Mime type rendering requires
    nbformat>=4.2.0").

    The SVG is drawn from what the board showed when the figure was made.
    Marker layers added on top afterwards (a heatmap) are drawn into it
    (:func:`ttr_lab.board.plotly.static.with_markers`); any other change (a
    restyle, a new layout, a trace it cannot draw) leaves it out, so the
    SVG never shows a board the figure does not.  ``go.Figure(fig)`` is a
    plain figure.

    >>> from ttr_lab import new_game
    >>> fig = board_figure(new_game("usa", players=2, seed=1))
    >>> sorted(fig._repr_mimebundle_())
    ['application/vnd.plotly.v1+json', 'image/svg+xml', 'text/plain']
    >>> fig._repr_mimebundle_()["text/plain"]
    '<board of Ticket to Ride: USA (2004) and USA 1910 ticket decks (Player 1, Player 2)>'
    >>> _ = fig.add_scatter(x=[0, 1], y=[0, 1], mode="markers", marker={"color": [0.2, 0.8]})
    >>> "marker-layer" in fig._repr_mimebundle_()["image/svg+xml"]
    True
    >>> _ = fig.update_traces(marker_color="red", selector=0)
    >>> sorted(fig._repr_mimebundle_())
    ['application/vnd.plotly.v1+json', 'text/plain']
    """

    _ttr_static: _Static | None = None

    def _ttr_print(self, traces: int) -> int:
        """A fingerprint of the first ``traces`` traces and the layout (a change to either changes it)."""
        return hash((repr(self._data[:traces]), repr(self._layout)))

    def static_svg(self) -> str | None:
        """The board as a static SVG, as the figure shows it; None if it no longer shows the board it was drawn as."""
        static = self._ttr_static
        if static is None or len(self.data) < static.traces or self._ttr_print(static.traces) != static.fingerprint:
            return None
        svg = scene_svg(static.scene)
        added = self.data[static.traces :]
        if not added:
            return svg
        xaxis, yaxis = self.layout.xaxis.range, self.layout.yaxis.range
        return with_markers(svg, added, xaxis or (), yaxis or ())

    def _ipython_display_(self) -> None:
        """Display through :meth:`_repr_mimebundle_`, not plotly's renderers (which need nbformat)."""
        from IPython.display import display

        display(self._repr_mimebundle_(), raw=True)

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None, validate: bool = True, **kwargs: Any
    ) -> dict[str, Any]:
        def wanted(mime: str) -> bool:
            return (not include or mime in include) and not (exclude and mime in exclude)

        bundle: dict[str, Any] = {}
        if wanted(PLOTLY_MIME):  # the figure alone: no text/html, which would hide the SVG elsewhere
            import plotly.io as pio

            fig_dict = self.to_plotly_json() if not validate else self.to_dict()
            bundle.update(pio.renderers["plotly_mimetype"].to_mimebundle(fig_dict))
        svg = self.static_svg() if wanted(SVG_MIME) else None
        if svg is not None:
            bundle[SVG_MIME] = svg
        if wanted("text/plain"):
            static = self._ttr_static
            bundle["text/plain"] = static.text if static is not None else "<board>"
        return bundle
