"""Jupyter widgets: play a game, inspect legal moves, step through a record.

Needs the ``lab`` extra (plotly, anywidget, ipywidgets).  Widgets are thin
controllers: clicks become moves, the rules library decides.

* :class:`PlayWidget` / :func:`play`: play a whole game on a clickable board;
  an edition's own decisions get the controls it names
  (``game.edition.widget_controls``), from :data:`CONTROLS`;
* :class:`MoveInspector`: the legal moves, grouped, and "why is this illegal?";
* :class:`HistoryWidget`: a slider over a recorded game.
"""

from .controls import CONTROLS
from .history import HistoryWidget
from .inspector import MoveInspector
from .play_widget import PlayWidget, play

__all__ = ["PlayWidget", "play", "HistoryWidget", "MoveInspector", "CONTROLS"]
