"""The tabs under the play widget's board (Log, Legal moves, Score
breakdown, and the opt-in Advisor) and the advisor's wiring.

A mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`.  A tab is filled
before it is shown; the Legal moves tab is emptied while the hand of the
person to decide is hidden.  With ``advisor=True`` (or a playout count) the
Advisor tab holds a :class:`~ttr_lab.widgets.advice.SeatAdvisor`, whose Hint
lights its recommended claim on the board.

>>> from ttr_lab.widgets import PlayWidget
>>> w = PlayWidget("usa", players=["You", "easy"], seed=7)
>>> w.tab
'Log'
>>> w.show_tab("Legal moves"); w.tab
'Legal moves'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import WrongTypeError
from ..controls.base import Decision
from .layout import PlayParts

__all__ = ["PlayTabs", "ADVISOR_PLAYOUTS"]

#: the advisor's playouts for the win chances after each move with ``advisor=True``: enough
#: to show them (at least widgets.advice.MIN_PLAYOUTS, 40, and a 95% interval at most 30 points
#: wide): a median of 0.6 s with 7 processes on 2 cores (benchmarks/bench_hint.py); a Hint asks
#: for as many as fit in widgets.advice.HINT_SECONDS, at most widgets.advice.HINT_PLAYOUTS
ADVISOR_PLAYOUTS = 48


class PlayTabs(PlayParts):
    """The tabs and the advisor (a mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`)."""

    _inspected: int | None
    _decision: Decision
    _redraw_board: Callable[[], None]

    # ------------------------------------------------------------------ public API: tabs
    @property
    def tab(self) -> str:
        """The tab shown under the board: ``"Log"``, ``"Legal moves"`` or ``"Score breakdown"``."""
        return str(self._tab_bar.value)

    def show_tab(self, name: str) -> None:
        """Show tab ``name`` (filled before it is shown)."""
        tabs = tuple(self._tab_bar.options)
        if name not in tabs:
            raise WrongTypeError(f"no tab {name!r} (tabs: {', '.join(tabs)})")
        if self._tab_bar.value == name:
            self._show_tab(name)
        else:
            self._tab_bar.value = name  # its observer shows it

    # ------------------------------------------------------------------ the advisor
    def _make_advisor(self, advisor: Any) -> Any:
        """The Advisor tab's :class:`~ttr_lab.widgets.advice.SeatAdvisor` (None when off)."""
        if advisor is False or advisor is None:
            return None
        if advisor is not True and (type(advisor) is not int or advisor < 1):
            raise WrongTypeError(f"advisor is True, False or a number of playouts (at least 1), not {advisor!r}")
        from ..advice import SeatAdvisor  # the analysis is loaded only when asked for

        playouts = ADVISOR_PLAYOUTS if advisor is True else int(advisor)
        return SeatAdvisor(self.game, playouts=playouts, seed=self.game.seed, on_hint=lambda _a: self._relight())

    def _relight(self) -> None:
        self._redraw_board()

    # ------------------------------------------------------------------ tabs

    def _inspect(self, route_id: int | None) -> None:
        if route_id == self._inspected:
            return
        self._inspected = route_id
        self._redraw_board()

    def _show_tab(self, name: str) -> None:
        """Fill tab ``name``, then show it; a route the Legal moves tab lit goes dark."""
        self._inspect(None)
        self._refresh_inspector(name)
        body = {"Log": self._log, "Legal moves": self.inspector, "Score breakdown": self._outcome}.get(name)
        if body is None and self._advisor is not None:  # the Advisor tab
            body = self._advisor.widget
        if self._tab_body.children != (body,):
            self._tab_body.children = (body,)

    def _refresh_inspector(self, tab: str | None = None) -> None:
        """The Legal moves tab: the decider's moves while it is open and their
        hand is shown; emptied otherwise, so nothing stale stays in the page."""
        now, g = self._decision, self.game
        if now.seat is not None and not now.private:
            name = g.player_names[now.seat]
            self.inspector.conceal(f"{name}'s legal moves are hidden with the hand: press “Show my hand” first.")
        elif (tab or self.tab) == "Legal moves":
            self.inspector.refresh()
        else:
            self.inspector.conceal("")
