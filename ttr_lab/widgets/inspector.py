"""MoveInspector: the legal moves of a position, grouped, and a "why not?" box.

The inspector lists ``game.legal_moves`` (draws, claims by route with their
card options, tickets) and answers ``game.why_illegal`` for a move typed in
notation.  It decides nothing itself: every answer comes from the library.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=7)
>>> ins = MoveInspector(g)
>>> ins.check("tickets")
'Illegal (rule A5): players are choosing their initial tickets; expected a keep move'
>>> ins.check(str(g.legal_moves[0]))
'Legal: keep Dallas-New York, Los Angeles-New York'
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..errors import InvalidMoveError
from ..moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move, cards_to_text, parse_move

__all__ = ["MoveInspector", "group_moves"]

_GROUPS = ("draws", "claims", "tickets", "other")


def _group(move: Move) -> str:
    if isinstance(move, (DrawFaceUp, DrawBlind)):
        return "draws"
    if isinstance(move, ClaimRoute):
        return "claims"
    if isinstance(move, (DrawTickets, KeepTickets)):
        return "tickets"
    return "other"


def group_moves(game: Any) -> dict[str, list[Move]]:
    """The legal moves of ``game`` by group: draws, claims, tickets, other.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=7)
    >>> {k: len(v) for k, v in group_moves(g).items()}
    {'draws': 0, 'claims': 0, 'tickets': 4, 'other': 0}
    """
    out: dict[str, list[Move]] = {k: [] for k in _GROUPS}
    for m in game.legal_moves:
        out[_group(m)].append(m)
    return out


class MoveInspector(W.VBox):
    """List the legal moves of ``game`` and explain why a typed move is illegal.

    Parameters
    ----------
    game : GameState
    on_select : callable(route id or None), optional
        Called when the selected move changes (a claim gives its route id),
        e.g. to highlight the route on a board.
    on_play : callable(Move), optional
        Called by the "Play it" button with the selected move.
    """

    def __init__(
        self,
        game: Any,
        *,
        on_select: Callable[[int | None], Any] | None = None,
        on_play: Callable[[Move], Any] | None = None,
    ) -> None:
        self.game = game
        self._on_select = on_select
        self._on_play = on_play
        self._moves: list[Move] = []
        self._summary = W.HTML().add_class("ttr-inspector-summary")
        self._select = W.Select(options=[], rows=10, layout=W.Layout(width="100%")).add_class("ttr-legal-moves")
        self._select.observe(self._selected, "value")
        self._play = W.Button(description="Play it", disabled=on_play is None).add_class("ttr-inspector-play")
        self._play.on_click(lambda _b: self._play_selected())
        self._text = W.Text(
            placeholder="a move in notation, e.g. claim 57 red:2 loco:1",
            continuous_update=False,
            layout=W.Layout(width="60%"),
        ).add_class("ttr-why-text")
        self._why = W.Button(description="Why (not)?").add_class("ttr-why")
        self._why.on_click(lambda _b: self._explain())
        self._text.observe(lambda _c: self._explain(), "value")
        self._answer = W.HTML().add_class("ttr-why-answer")
        super().__init__([self._summary, self._select, self._play, W.HBox([self._text, self._why]), self._answer])
        self.add_class("ttr-inspector")
        self.refresh()

    def refresh(self) -> None:
        """Re-read the legal moves (after the game changed)."""
        g = self.game
        groups = group_moves(g)
        self._moves = [m for k in _GROUPS for m in groups[k]]
        rows = []
        for k in _GROUPS:
            if groups[k]:
                routes = len({m.route for m in groups[k]}) if k == "claims" else 0
                extra = f" on {routes} route{'s' if routes != 1 else ''}" if routes else ""
                rows.append(f"<tr><td>{k}</td><td>{len(groups[k])}{extra}</td></tr>")
        self._summary.value = (
            f"<b>{len(self._moves)} legal moves</b> for "
            f"{html.escape(g.player_names[g.current_player])} ({g.phase.name})"
            f"<table>{''.join(rows)}</table>"
        )
        with self.hold_sync():
            self._select.options = [(self._label(m), i) for i, m in enumerate(self._moves)]
            self._select.value = None

    def check(self, text: str) -> str:
        """The library's verdict on a move in notation, as a sentence."""
        try:
            move = parse_move(text)
        except InvalidMoveError as e:
            return f"Cannot read it: {e}"
        why = self.game.why_illegal(move)
        if why is not None:
            return f"Illegal (rule {why[0]}): {why[1]}"
        return f"Legal: {self.game.describe(move)}"

    @property
    def selected(self) -> Move | None:
        """The selected legal move, if any."""
        i = self._select.value
        return None if i is None else self._moves[i]

    def _label(self, move: Move) -> str:
        g = self.game
        if isinstance(move, ClaimRoute):
            r = g.map.route(move.route)
            return f"claim · {r.label()} ({r.length} {r.color}, #{r.id}) · {cards_to_text(move.cards)}"
        if isinstance(move, DrawFaceUp):
            return f"draw · face-up {move.slot} ({g.row[move.slot - 1]})"
        if isinstance(move, KeepTickets):
            return f"tickets · keep {', '.join(g.map.ticket(t).label() for t in move.tickets)}"
        return f"{_group(move)} · {move}"

    def _selected(self, change: dict) -> None:
        move = self.selected
        if move is not None:
            self._text.value = str(move)
        if self._on_select is not None:
            self._on_select(move.route if isinstance(move, ClaimRoute) else None)

    def _play_selected(self) -> None:
        move = self.selected
        if move is None:
            self._answer.value = "Select a move first."
        elif self._on_play is not None:
            self._on_play(move)

    def _explain(self) -> None:
        text = self._text.value.strip()
        self._answer.value = html.escape(self.check(text)) if text else ""

    def __repr__(self) -> str:
        return f"<MoveInspector: {len(self._moves)} legal moves>"
