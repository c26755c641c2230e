"""HistoryWidget: step through a recorded game with a slider.

The record is replayed once (every move validated); the widget keeps that
game and moves along it with ``pop`` and ``push``, so each step costs one
move, not a replay from the start.  Each move is told as every player
learned it at the table (``move.announce``): "Ada kept 2 tickets".

The board is a plain plotly figure shown through plotly's mime type (an
``Output`` widget holding ``application/vnd.plotly.v1+json``), not a
``FigureWidget``: nothing on it is clicked, and a ``FigureWidget`` carries
plotly's whole 5 MB JavaScript in its widget state, which a page sends again
on every reload (a page with a play widget and a history then had twice
that, and the front end's 4 s deadline for the widgets' state was missed on
a busy machine).  :attr:`HistoryWidget.fig` is the ``go.Figure``, redrawn in
place by :func:`ttr_lab.board.update_board`.

**Review** (a button, since a review takes a while): every player's win
chance after every ply (:func:`ttr_lab.analysis.review`, each ply from the
mover's own view, ``review_playouts`` playouts per move), plotted under the
board (:func:`ttr_lab.analysis.review_figure`) with the flagged moves marked.
Clicking a point moves the slider to its ply, so that plot, and only it, is
a small ``FigureWidget`` (its JavaScript bundle joins the page only when a
review is asked for); a dotted line follows the slider.

>>> import ttr_lab
>>> from ttr_lab.bots import make_bot, play_game
>>> from ttr_lab.records import Record
>>> g = play_game("usa", [make_bot("random", 1), make_bot("random", 2)], seed=3)
>>> h = HistoryWidget(Record.from_state(g))
>>> h.goto(4)
>>> h.game.ply, h.move_text.startswith("4. ")
(4, True)
>>> df = h.review(plies=range(1, 6))
>>> len(df), h.plot is not None
(5, True)
>>> h.click_ply(3)
>>> h.slider.value, h.game.ply
(3, 3)
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import ipywidgets as W
import plotly.graph_objects as go

from ..analysis import review, review_figure
from ..board.plotly import PLAYER_COLORS, board_figure, update_board
from ..engine.moves import ClaimRoute, Move, parse_move
from ..engine.state import GameState
from ..errors import RecordError, TtrError
from ..records.saved import Record
from .figure import FigureWidget
from .messages import move_line
from .static import game_text, widget_bundle

__all__ = ["HistoryWidget", "PLOTLY_MIME"]

PLOTLY_MIME = "application/vnd.plotly.v1+json"


class HistoryWidget(W.VBox):
    """A slider over the plies of a game record, redrawing the board.

    Parameters
    ----------
    record : Record, GameState, or a path to a saved record
        A game state is recorded with :meth:`Record.from_state`.  A seat
        record (kept from one seat, as the recorder keeps it) shows what
        everyone saw; its review is from that seat's view.
    ply : int, optional
        Where to start (default: the end of the game).
    width : int
        Board width in pixels (default 720).
    review_playouts : int
        Playouts per move and ply for the Review button (default 8: a
        2-player USA game of 110-140 plies then took 8-15 s on one busy core).
    seed : int
        The review's seed (same seed, same review).
    """

    def __init__(
        self,
        record: Record | GameState | str | Path,
        *,
        ply: int | None = None,
        width: int = 720,
        review_playouts: int = 8,
        seed: int = 0,
    ) -> None:
        if isinstance(record, GameState):
            record = Record.from_state(record)
        elif isinstance(record, (str, Path)):
            record = Record.load(record)
        self.record = record
        self._moves: list[Move] = []
        self._texts: list[str] = []
        if record.seat is not None:  # a seat record: replayed as its seat saw it (the others' secrets filled in)
            self.game = record.replay()
            self._moves = list(self.game.move_stack)
            while self.game.ply:
                self.game.pop()
        else:
            self.game = record.replay(upto=0)
        for i, text in enumerate(record.moves, 1):  # the one replay: validate and describe
            g = self.game
            try:
                move = self._moves[i - 1] if record.seat is not None else parse_move(text)
                line = move_line(g, move)  # as the table learned it: never another seat's secret
                g.play(move)
            except TtrError as e:
                raise RecordError(f"ply {i} ({text!r})", str(e), ply=i) from e
            if record.seat is None:
                self._moves.append(move)
            self._texts.append(f"{i}. {line}")
        n = len(self._moves)
        self._width = width
        self.fig = go.Figure(board_figure(self.game, width=width, viewer=-1))
        self.board = W.Output(layout=W.Layout(min_height=f"{self.fig.layout.height or 400}px")).add_class(
            "ttr-history-board"
        )
        self.slider = W.IntSlider(
            value=n, min=0, max=n, description="ply", continuous_update=True, layout=W.Layout(width="60%")
        ).add_class("ttr-history-slider")
        self.slider.observe(lambda c: self.goto(c["new"]), "value")
        back = W.Button(description="◀", layout=W.Layout(width="40px")).add_class("ttr-history-back")
        forward = W.Button(description="▶", layout=W.Layout(width="40px")).add_class("ttr-history-forward")
        back.on_click(lambda _b: self._step(-1))
        forward.on_click(lambda _b: self._step(1))
        self._move = W.HTML().add_class("ttr-history-move")
        self._scores = W.HTML().add_class("ttr-scores")
        self.review_playouts, self.seed = int(review_playouts), int(seed)
        self.reviewed: Any = None  #: the review's DataFrame, once asked for
        self.plot: Any = None  #: the review's FigureWidget, once asked for
        self._review_button = W.Button(
            description="Review", tooltip="every player's win chance after every ply (takes a while)"
        ).add_class("ttr-history-review")
        self._review_button.on_click(lambda _b: self.review())
        self._review_box = W.VBox([self._review_button]).add_class("ttr-history-review-box")
        super().__init__([W.HBox([back, self.slider, forward]), self._move, self.board, self._scores, self._review_box])
        self.add_class("ttr-history")
        self.goto(n if ply is None else ply)

    @property
    def move_text(self) -> str:
        """The last move played at the current ply (empty at the start)."""
        k = self.game.ply
        return self._texts[k - 1] if k else ""

    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` moves (0 = the start)."""
        ply = max(0, min(int(ply), len(self._moves)))
        g = self.game
        while g.ply > ply:
            g.pop()
        while g.ply < ply:
            g.push(self._moves[g.ply])  # validated by the replay in __init__
        if self.slider.value != ply:
            self.slider.value = ply  # calls goto again, which finds nothing to do
        self._redraw()

    def review(self, plies: Any = None) -> Any:
        """Review the game (what the Review button does) and show the plot
        under the board; returns the DataFrame (``plies``: only those)."""

        self._review_button.description, self._review_button.disabled = "Reviewing...", True
        try:
            df = review(self.record, playouts=self.review_playouts, seed=self.seed, plies=plies, progress=False)
        finally:
            self._review_button.description, self._review_button.disabled = "Review", False
        fig = review_figure(df, names=self.game.player_names, current=self.game.ply)
        fig.update_layout(width=self._width, height=260, margin={"t": 20, "b": 40})
        self.reviewed, self.plot = df, FigureWidget(fig)
        self.plot.add_class("ttr-history-review-plot")
        for trace in self.plot.data:
            trace.on_click(self._on_review_click)
        self._review_box.children = (self._review_button, self.plot)
        return df

    def click_ply(self, ply: int) -> None:
        """What a click on the review plot's point for ``ply`` does: go there."""
        self.goto(ply)

    def _on_review_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            self.click_ply(int(trace.customdata[points.point_inds[0]]))

    def _step(self, delta: int) -> None:
        self.goto(self.game.ply + delta)

    def _redraw(self) -> None:
        g = self.game
        n = len(self._moves)
        last = f"<b>{html.escape(self.move_text)}</b>" if g.ply else "<i>start of the game</i>"
        self._move.value = f"ply {g.ply} of {n}: {last}"
        cells = "".join(
            f'<td style="color:{PLAYER_COLORS[p % len(PLAYER_COLORS)]}">'
            f"{html.escape(name)}: {g.scores[p]} points, {g.pieces(p)} trains</td>"
            for p, name in enumerate(g.player_names)
        )
        self._scores.value = f"<table><tr>{cells}</tr></table>"
        latest = self._moves[g.ply - 1] if g.ply else None
        highlight = [latest.route] if isinstance(latest, ClaimRoute) else []
        update_board(self.fig, g, highlight=highlight, width=self._width, viewer=-1)  # public marks
        if getattr(self, "plot", None) is not None and self.plot.layout.shapes:  # the review's line follows
            self.plot.layout.shapes[0].update(x0=g.ply, x1=g.ply)
        figure = json.loads(self.fig.to_json(validate=False))  # plain JSON: numpy arrays become lists
        self.board.outputs = (
            {
                "output_type": "display_data",
                "data": {
                    PLOTLY_MIME: {"data": figure["data"], "layout": figure["layout"], "config": {"displaylogo": False}},
                    "text/plain": f"<board at ply {g.ply}>",
                },
                "metadata": {},
            },
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, and for a notebook saved without it the board as a static SVG (as the
        widget draws it, nothing more) and a line of public facts (:mod:`ttr_lab.widgets.static`)."""
        text = f"{game_text(type(self).__name__, self.game)} (of {len(self._moves)} plies)"
        return widget_bundle(super()._repr_mimebundle_(**kwargs), self.fig, text, **kwargs)

    def __repr__(self) -> str:
        return f"<HistoryWidget {self.record.edition}: {len(self._moves)} plies, at ply {self.game.ply}>"
