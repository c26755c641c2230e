"""How a game or a seat's view shows itself in Jupyter: the board, through :mod:`ttr_lab.board`.

:func:`mimebundle` is the display hook of
:class:`~ttr_lab.engine.state.GameState` and
:class:`~ttr_lab.engine.view.PlayerView`: the interactive plotly board with
its static SVG where plotly is installed (the ``lab`` extra), else the
standard-library SVG (:func:`ttr_lab.board.svg.mimebundle`), and the object's
text.  Plotly is imported only when a board is shown, as
``chess.Board._repr_svg_`` draws only when asked.
"""

from __future__ import annotations

from typing import Any

__all__ = ["mimebundle"]


def mimebundle(obj: Any, include: Any = None, exclude: Any = None, **options: Any) -> dict[str, Any]:
    """The MIME bundle of ``obj`` (a game or a view), its board drawn with ``options``
    (:func:`ttr_lab.board.board_figure`'s keywords), its ``text/plain`` its ``repr``.

    >>> import ttr_lab
    >>> sorted(mimebundle(ttr_lab.new_game("usa", players=2, seed=1)))
    ['application/vnd.plotly.v1+json', 'image/svg+xml', 'text/plain']
    """
    try:
        from ..board.plotly import board_figure  # lazy display hook
    except ImportError:  # no [lab] extra (or a browser kernel without plotly): the SVG still shows the board
        from ..board import svg

        return svg.mimebundle(obj, include, exclude, **options)
    bundle: dict[str, Any] = board_figure(obj, **options)._repr_mimebundle_(include, exclude)
    bundle["text/plain"] = repr(obj)
    return bundle
