"""A static board as SVG, with no plotly and no kernel (standard library only).

:func:`board_svg` draws the board that :func:`ttr_lab.board.board_figure`
draws, from the same geometry, scene and label placement: a box per car
space, owners' pieces with their marks, each player's last move, cities and
labels where the figure puts them, the edition's marks (stations, harbors:
:mod:`ttr_lab.board.marks`) and the same legend; its options are the
figure's (:class:`~ttr_lab.board.options.BoardOptions`).  It needs only the
standard library, so it works without the ``[lab]`` extra.

:func:`mimebundle` is the display bundle of a board built without
:mod:`ttr_lab.board` (and without plotly, when it is missing): the SVG
(which GitHub, nbviewer and a saved notebook show) beside the interactive
plotly figure (which JupyterLab prefers when it can run it), and the plain
text.  A game state and a player's view display through
:class:`ttr_lab.board.BoardFigure`, which carries the same two pictures.
The drawing itself is :mod:`ttr_lab.board.drawing`.

>>> import xml.etree.ElementTree as ET
>>> from ttr_lab.maps import load_map
>>> svg = board_svg(load_map("usa"), owners={1: 0}, player_names=["Ada", "Bo"])
>>> ET.fromstring(svg).tag
'{http://www.w3.org/2000/svg}svg'
>>> "claimed by Ada" in svg
True
"""

from __future__ import annotations

from typing import Any

from .drawing import PLOTLY_MIME, SVG_MIME, board_svg
from .marks import PUBLIC
from .options import BoardOptions

__all__ = ["board_svg", "mimebundle", "BoardOptions", "PUBLIC"]


def mimebundle(
    obj: Any, include: Any = None, exclude: Any = None, options: BoardOptions | None = None, **keywords: Any
) -> dict[str, Any]:
    """A display bundle for Jupyter: the static SVG, the plotly figure (when plotly is installed), the text.

    ``{"image/svg+xml": ..., "application/vnd.plotly.v1+json": ..., "text/plain": repr(obj)}``,
    filtered by IPython's ``include`` and ``exclude`` (collections of MIME
    types); ``options`` and ``keywords`` are :func:`board_svg`'s (a
    :class:`~ttr_lab.board.options.BoardOptions`, ``tickets=``,
    ``highlight=``...), given to the figure too.  JupyterLab shows the interactive figure;
    GitHub, nbviewer and a saved notebook opened without a kernel show the
    SVG.  Without plotly (no ``[lab]`` extra, or Pyodide without it) the
    bundle is the SVG and the text, which is what a game state and a
    player's view display then.

    >>> from ttr_lab import new_game
    >>> bundle = mimebundle(new_game("usa", players=2, seed=1), exclude={"application/vnd.plotly.v1+json"})
    >>> sorted(bundle)
    ['image/svg+xml', 'text/plain']
    """

    def wanted(mime: str) -> bool:
        return (not include or mime in include) and not (exclude and mime in exclude)

    opts = BoardOptions.of(options, **keywords)
    bundle: dict[str, Any] = {}
    if wanted(SVG_MIME):
        bundle[SVG_MIME] = board_svg(obj, opts)
    if wanted(PLOTLY_MIME):
        try:
            import plotly.graph_objects as go
            import plotly.io as pio
        except ImportError:  # no [lab] extra: the SVG and the text
            pass
        else:
            from .figure import build_from  # render.board_figure's own traces, without importing render

            traces, layout = build_from(obj, opts)
            fig = go.Figure(data=traces, layout=layout)
            bundle.update(pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict()))
    if wanted("text/plain"):
        bundle["text/plain"] = repr(obj)
    return bundle
