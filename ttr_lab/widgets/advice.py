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
from ..analysis.advice_types import RANKING

__all__ = ["AdvicePanel", "SeatAdvisor", "bars_html", "hint_html"]

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
        mark = " <i>(the policy's move)</i>" if m.policy else ""
        items.append(
            f"<li><b>{html.escape(str(m.move))}</b>{mark}: {100 * m.win_probability:.0f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%, {m.playouts} playouts)<br>"
            f"<span style='color:#444'>{html.escape(m.explanation)}</span></li>"
        )
    note = f"<div style='color:#666;font-size:85%'>{html.escape(RANKING)}</div>"
    return "<ol style='margin:0;padding-left:20px'>" + "".join(items) + "</ol>" + note


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
        #: Hint shows the last refresh's advice (set by an owner that refreshes after every move)
        self.reuse = False
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
        """Recompute and show the top moves (what the Hint button does); with
        :attr:`reuse`, the advice of the last :meth:`refresh` is shown instead."""
        a = self.advice if self.reuse and self.advice is not None else self._ask()
        if a is not None:
            self.hints.value = hint_html(a, self.top)
            if self.on_hint is not None:
                self.on_hint(a)
        return a


class SeatAdvisor:
    """The play widget's "Advisor" tab: one :class:`AdvicePanel`, shown for the
    person to decide, from **their** view only.

    :meth:`update` is told who decides now and whether their hand is on the
    screen.  A bot's turn, a finished game or a hidden hand show a note and no
    advice (the panel's bars and hint are emptied, so nothing of an earlier
    seat's advice stays in the page).  The advice is recomputed only when the
    position or the seat changes (``playouts`` per question: deterministic,
    and small so a click stays responsive).  ``on_hint`` receives the
    :class:`Advice` of a Hint; :attr:`lit` holds the routes the hinted moves
    claim (the play widget lights them on the board) until the position changes.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> a = SeatAdvisor(g, playouts=8)
    >>> a.update(None, False)
    >>> a.seat is None and "no advice" in a.note.value
    True
    >>> a.update(g.current_player, True)
    >>> a.seat == g.current_player and "%" in a.panel.bars.value
    True
    """

    def __init__(
        self,
        game: Any,
        *,
        playouts: int = 16,
        seed: int = 0,
        top: int = 3,
        on_hint: Callable[[Advice], None] | None = None,
    ) -> None:
        self.game = game
        self.seat: int | None = None
        self.lit: tuple[int, ...] = ()
        self._on_hint = on_hint
        self.note = W.HTML().add_class("ttr-advice-note")
        self.panel = AdvicePanel(game, 0, playouts=playouts, seed=seed, top=top, on_hint=self._hinted)
        self.panel.reuse = True  # refreshed at every new position: a Hint costs nothing more
        self.panel.widget.add_class("ttr-advice")
        self.panel.button.add_class("ttr-hint")
        self.widget = W.VBox([self.note]).add_class("ttr-advisor")
        self._key: tuple[Any, ...] | None = None

    def update(self, seat: int | None, private: bool) -> None:
        """Show the advice for ``seat`` (the person to decide; None: nobody),
        if their hand is on the screen (``private``); else a note and nothing else."""
        g = self.game
        if seat is None or not private:
            self.seat, self._key, self.lit = None, None, ()
            self.panel.bars.value = self.panel.hints.value = ""
            self.panel.advice = None
            if g.is_over:
                why = "The game is over"
            elif seat is None:
                why = "It is not a person's turn"
            else:
                why = f"{html.escape(g.player_names[seat])}'s hand is hidden: press “Show my hand” first"
            self.note.value = f"<i>{why}: no advice.</i>"
            self.widget.children = (self.note,)
            return
        key = (seat, g.ply, tuple(str(m) for m in g.move_stack))
        self.note.value = f"<b>The advisor, from {html.escape(g.player_names[seat])}'s view</b>"
        self.widget.children = (self.note, self.panel.widget)
        if key != self._key:
            self.seat, self._key, self.lit = seat, key, ()
            self.panel.seat = seat
            self.panel.refresh()

    def _hinted(self, advice: Advice) -> None:
        routes = (getattr(m.move, "route", None) for m in advice.moves[: self.panel.top])
        self.lit = tuple(r for r in routes if isinstance(r, int))
        if self._on_hint is not None:
            self._on_hint(advice)
