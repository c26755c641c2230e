"""MoveInspector: the legal moves of a position, grouped, and a "why not?" box.

The inspector lists ``game.legal_moves`` (draws, claims by route with their
card options, tickets) and answers ``game.why_illegal`` for a move typed in
notation, quoting the rule from the rules reference.  It decides nothing
itself: every answer comes from the library.  Moves are grouped by their
notation verb (``move.verb``).

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

from ..engine.moves import Move, cards_to_text, parse_move
from ..errors import InvalidMoveError
from .controls.base import cards_of
from .messages import rule_details

__all__ = ["MoveInspector", "group_moves"]

_GROUPS = ("draws", "claims", "tickets", "other")
_GROUP_OF = {"faceup": "draws", "blind": "draws", "claim": "claims", "tickets": "tickets", "keep": "tickets"}


def _group(move: Move) -> str:
    return _GROUP_OF.get(move.verb, "other")


def _route(move: Move) -> int | None:
    """The route a claim names (``move.route``), else None."""
    route = getattr(move, "route", None) if move.verb == "claim" else None
    return route if isinstance(route, int) else None


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
        self._concealed = False
        self._ply: int | None = None
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
        self._concealed = False
        if self._ply != g.ply:  # a new position: the last question is stale
            self._ply = g.ply
            self._text.value = ""
            self._answer.value = ""
        groups = group_moves(g)
        self._moves = [m for k in _GROUPS for m in groups[k]]
        rows = []
        for k in _GROUPS:
            if groups[k]:
                routes = len({_route(m) for m in groups[k]}) if k == "claims" else 0
                extra = f" on {routes} route{'s' if routes != 1 else ''}" if routes else ""
                rows.append(f"<tr><td>{k}</td><td>{len(groups[k])}{extra}</td></tr>")
        self._summary.value = (
            f"<b>{len(self._moves)} legal moves</b> for "
            f"{html.escape(g.player_names[g.current_player])} ({g.phase.name})"
            f"<table>{''.join(rows)}</table>"
        )
        self._set_options([(self._label(m), i) for i, m in enumerate(self._moves)])
        self._why.disabled = False

    def conceal(self, message: str) -> None:
        """Show ``message`` instead of the moves (they are private), and keep
        nothing of them in the widget: no list, no question, no answer."""
        self._concealed = True
        self._ply = None
        self._moves = []
        self._summary.value = f"<i>{html.escape(message)}</i>" if message else ""
        self._set_options([])
        self._text.value = ""
        self._answer.value = ""
        self._why.disabled = True

    def check(self, text: str) -> str:
        """The library's verdict on a move in notation, as a sentence."""
        return self._verdict(text)[0]

    @property
    def selected(self) -> Move | None:
        """The selected legal move, if any."""
        i = self._select.value
        return None if i is None else self._moves[i]

    def _set_options(self, options: list[tuple[str, int]]) -> None:
        with self.hold_sync():
            self._select.options = options
            self._select.value = None

    def _verdict(self, text: str) -> tuple[str, str | None]:
        """(sentence, rule cited or None)."""
        try:
            move = parse_move(text)
        except InvalidMoveError as e:
            return f"Cannot read it: {e}", "notation"
        why = self.game.why_illegal(move)
        if why is not None:
            return f"Illegal (rule {why[0]}): {why[1]}", why[0]
        return f"Legal: {self.game.describe(move)}", None

    def _label(self, move: Move) -> str:
        g = self.game
        route = _route(move)
        if route is not None and g.map.has_route(route):
            r = g.map.route(route)
            return f"claim · {r.label()} ({r.length} {r.color}, #{r.id}) · {cards_to_text(cards_of(move) or ())}"
        slot = getattr(move, "slot", None) if move.verb == "faceup" else None
        if isinstance(slot, int) and 1 <= slot <= len(g.row):
            return f"draw · face-up {slot} ({g.row[slot - 1]})" + _refill_tail(move)
        return f"{_group(move)} · {move.describe(g)}"

    def _selected(self, change: dict[str, Any]) -> None:
        move = self.selected
        if move is not None:
            self._text.value = str(move)
        if self._on_select is not None:
            self._on_select(_route(move) if move is not None else None)

    def _play_selected(self) -> None:
        move = self.selected
        if move is None:
            self._answer.value = "Select a move first."
        elif self._on_play is not None:
            self._on_play(move)

    def _explain(self) -> None:
        text = self._text.value.strip()
        if self._concealed or not text:
            self._answer.value = ""
            return
        sentence, rule = self._verdict(text)
        self._answer.value = html.escape(sentence) + (rule_details(rule) if rule else "")

    def __repr__(self) -> str:
        return f"<MoveInspector: {len(self._moves)} legal moves>"


def _refill_tail(move: Move) -> str:
    """``", refill from trains"`` for a face-up pick that names its refill pile."""
    refill = getattr(move, "refill", None)
    return f", refill from {refill}" if isinstance(refill, str) else ""
