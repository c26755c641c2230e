"""The advisor in a notebook: a win-chance bar for every player and a Hint panel.

:class:`AdvicePanel` shows what :func:`ttr_lab.analysis.advise` finds from
**one seat's fair view** (``game.view(seat)``, never the whole state): a bar
per player with its win chance, and, after "Hint", the top moves with their
win chances, intervals and explanations.  It is a small box to embed in the
play widget or anywhere else:

    panel = AdvicePanel(game, seat=0, playouts=40)
    panel.refresh()       # recompute the win chances (after a move)
    panel.hint()          # the top moves, as the Hint button does
    display(panel.widget)

``on_refresh`` / ``on_hint`` callbacks receive the :class:`Advice`.  Nothing
hidden from the seat is read, and the HTML holds only the seat's view's
win chances, its own moves and the explanations (which name only routes,
the seat's own tickets and counts of guessed hands).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> p = AdvicePanel(g, 0, playouts=8)
>>> a = p.refresh()
>>> "Player 1" in p.bars.value and abs(sum(a.win_probabilities) - 1) < 1e-9
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..analysis import Advice, advise

__all__ = ["AdvicePanel", "bars_html", "hint_html"]

#: bar colours, by seat (the board's player colours are the play widget's business)
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")


def bars_html(advice: Advice, names: tuple[str, ...]) -> str:
    """A horizontal bar per player with its win chance (percent)."""
    rows = []
    for q, w in enumerate(advice.win_probabilities):
        pct = 100 * w
        rows.append(
            "<div style='display:flex;align-items:center;gap:6px;margin:2px 0'>"
            f"<span style='width:90px'>{html.escape(names[q])}</span>"
            "<span style='flex:1;background:#eee;height:12px;position:relative'>"
            f"<span style='position:absolute;left:0;top:0;bottom:0;width:{pct:.1f}%;"
            f"background:{COLOURS[q % len(COLOURS)]}'></span></span>"
            f"<span style='width:40px;text-align:right'>{pct:.0f}%</span></div>"
        )
    note = f"<div style='color:#666;font-size:85%'>from seat {advice.player}'s view, {advice.playouts} playouts</div>"
    return "".join(rows) + note


def hint_html(advice: Advice, top: int = 3) -> str:
    """The top moves, each with its win chance, interval and explanation."""
    if not advice.moves:
        return "<i>Not this seat's turn: no hint.</i>"
    items = []
    for m in advice.moves[:top]:
        lo, hi = m.interval
        items.append(
            f"<li><b>{html.escape(str(m.move))}</b>: {100 * m.win_probability:.0f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%, {m.playouts} playouts)<br>"
            f"<span style='color:#444'>{html.escape(m.explanation)}</span></li>"
        )
    return "<ol style='margin:0;padding-left:20px'>" + "".join(items) + "</ol>"


class AdvicePanel:
    """Win-chance bars and a Hint button for ``seat`` of ``game`` (see the module doc).

    ``playouts`` (deterministic) or ``seconds`` per question; ``top`` moves in a hint.
    """

    def __init__(
        self,
        game: Any,
        seat: int,
        *,
        playouts: int | None = None,
        seconds: float = 1.0,
        seed: int = 0,
        top: int = 3,
        on_refresh: Callable[[Advice], None] | None = None,
        on_hint: Callable[[Advice], None] | None = None,
    ) -> None:
        self.game, self.seat = game, seat
        self.playouts, self.seconds, self.seed, self.top = playouts, seconds, seed, top
        self.on_refresh, self.on_hint = on_refresh, on_hint
        self.advice: Advice | None = None
        self.bars = W.HTML()
        self.hints = W.HTML()
        self.button = W.Button(description="Hint", tooltip="the advisor's top moves from this seat's view")
        self.button.on_click(lambda _: self.hint())
        self.widget = W.VBox([self.bars, self.button, self.hints])

    def _ask(self) -> Advice | None:
        view = self.game.view(self.seat)
        if view.is_over:
            self.bars.value = "<i>The game is over.</i>"
            self.hints.value = ""
            return None
        self.advice = advise(view, playouts=self.playouts, seconds=self.seconds, seed=self.seed, progress=False)
        self.bars.value = bars_html(self.advice, view.player_names)
        return self.advice

    def refresh(self) -> Advice | None:
        """Recompute the win chances for the current position; clears the hint."""
        a = self._ask()
        self.hints.value = ""
        if a is not None and self.on_refresh is not None:
            self.on_refresh(a)
        return a

    def hint(self) -> Advice | None:
        """Recompute and show the top moves (what the Hint button does)."""
        a = self._ask()
        if a is not None:
            self.hints.value = hint_html(a, self.top)
            if self.on_hint is not None:
                self.on_hint(a)
        return a
