"""Jupyter widgets: play a game, inspect legal moves, step through a record.

Needs the ``lab`` extra (plotly, anywidget, ipywidgets).  Widgets are thin
controllers: clicks become moves, the rules library decides.

* :class:`PlayWidget` / :func:`play`: play a whole game on a clickable board;
  an edition's own decisions get the controls it names
  (``game.edition.widget_controls``), each made by the factory a package
  registered under that name (:func:`register_control`, or a
  ``ttr_lab.controls`` entry point: :mod:`ttr_lab.widgets.controls`);
* :class:`MoveInspector`: the legal moves, grouped, and "why is this illegal?";
* :class:`HistoryWidget`: a slider over a recorded game.
"""

from ..io.extras import require

require("lab", "the widgets", "plotly", "ipywidgets", "anywidget")  # an error naming the extra and its command

from .controls import CONTROLS, register_control, unregister_control  # noqa: E402
from .history import HistoryWidget  # noqa: E402
from .inspector import MoveInspector  # noqa: E402
from .playing.widget import PlayWidget, play  # noqa: E402

__all__ = ["PlayWidget", "play", "HistoryWidget", "MoveInspector", "CONTROLS", "register_control", "unregister_control"]
