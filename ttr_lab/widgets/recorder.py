"""Recording mode: enter a game move by move as it is played at a table or on a website.

``RecorderWidget("usa", players=["Me", "Ann", "Bo"], seat="Me", first="Ann",
hand={...}, row=[...], tickets=[...])`` starts from what the recording seat
sees of the deal (its own hand and tickets, the face-up row, who starts) and
keeps a **seat record** (:class:`ttr_lab.records.Record` with ``seat``):

* type each move in notation with what came up, as it happens:
  ``blind =red`` (your draw), ``faceup 3 =loco`` (the new face-up card),
  ``tickets =3,17,25`` (the tickets you were offered), ``claim 45 red:3``;
* another seat's hidden things stay unknown: ``blind``, ``tickets`` and
  ``keep 2`` by another seat are written ``blind =?``, ``tickets =?,?,?``,
  ``keep ? ?`` for you;
* every entry is replayed and checked (:meth:`Record.replay_view`): a
  move the rules refuse or an outcome no card can explain is refused with
  its reason, and the record is unchanged;
* **Advise** asks :func:`ttr_lab.analysis.advise` about the seat's view;
* at the end, :meth:`RecorderWidget.score_table` opens the table-game
  scorer (:mod:`ttr_lab.widgets.scorer`) with the routes and your tickets
  filled in; add the others' tickets as they show them.

The widget is thin: the record, the rules and the checks are the library's.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..core.setup import seat_names
from ..errors import TtrError
from ..outcomes import split_outcome
from ..records import Record
from ..render import board_figure, update_board
from ..table_score import _by_seat, _edition
from ..view import PlayerView
from .figure import FigureWidget
from .scorer import ScorerWidget

__all__ = ["RecorderWidget", "recorder"]


class RecorderWidget(W.VBox):
    """A seat record entered move by move (see the module doc)."""

    def __init__(
        self,
        edition: Any = "usa",
        players: Any = ("Me", "Opponent"),
        *,
        seat: Any = 0,
        first: Any = 0,
        hand: dict[str, int] | None = None,
        row: list[str] | None = None,
        tickets: list[int] | None = None,
        width: int = 620,
    ) -> None:
        super().__init__()
        ed = _edition(edition, None)
        names = seat_names(players, ed)
        me = next(iter(_by_seat("seat", {seat: 0}, names)))
        start = next(iter(_by_seat("first", {first: 0}, names)))
        n = len(names)
        deal = {
            "first": start,
            "hands": [dict(hand or {}) if p == me else None for p in range(n)],
            "rows": [list(row or [])],
            "tickets": [list(tickets or []) if p == me else None for p in range(n)],
        }
        self.record = Record(ed.name, {}, list(names), None, [], deal=deal, seat=me)
        self.seat, self.names, self._width = me, names, width
        self.view: PlayerView = self.record.replay_view()  # checks the deal (RecordError naming the field)
        self.entry = W.Text(placeholder="blind =red, faceup 3 =loco, tickets =3,17,25, claim 45 red:3 ...")
        self.entry.add_class("ttr-recorder-entry")
        self.entry.layout.width = "420px"
        enter = W.Button(description="Enter").add_class("ttr-recorder-enter")
        enter.on_click(lambda _b: self.enter(self.entry.value))
        undo = W.Button(description="Undo last").add_class("ttr-recorder-undo")
        undo.on_click(lambda _b: self.undo())
        advise = W.Button(description="Advise").add_class("ttr-recorder-advise")
        advise.on_click(lambda _b: self.advise())
        self.status = W.HTML().add_class("ttr-recorder-status")
        self.message = W.HTML().add_class("ttr-recorder-message")
        self.moves_log = W.HTML().add_class("ttr-recorder-log")
        self.advice = W.HTML().add_class("ttr-recorder-advice")
        self.fig = FigureWidget(board_figure(ed.map, player_names=names, width=width, title=""))
        side = W.VBox([self.status, W.HBox([self.entry, enter]), W.HBox([undo, advise]), self.message, self.moves_log])
        self.children = [W.HBox([self.fig, side]), self.advice]
        self.add_class("ttr-recorder")
        self.refresh()

    # ------------------------------------------------------------------ entries
    def _written(self, text: str) -> str:
        """Another seat's blind or ticket draw and kept tickets become unknowns for this seat."""
        move, out = split_outcome(text)
        words = move.split()
        if self.view.current_player == self.seat or not words or out is not None:
            return text
        if words[0] == "blind":
            return f"{move} =?"
        if words == ["tickets"]:
            k = self.view.edition.draw_tickets[0]
            return "tickets =" + ",".join(["?"] * min(k, self.view.ticket_deck_size))
        if words[0] == "keep" and len(words) == 2 and words[1].isdigit():
            return "keep " + " ".join(["?"] * int(words[1]))
        return text

    def enter(self, text: str) -> bool:
        """Add one move (with its outcome); False, with the reason shown, if the replay refuses it."""
        text = " ".join(str(text).split())
        if not text:
            return False
        written = self._written(text)
        self.record.moves.append(written)
        try:
            view = self.record.replay_view()
        except TtrError as e:
            self.record.moves.pop()
            self._say(str(e), True)
            return False
        self.view = view
        self.entry.value = ""
        self._say(f"ply {len(self.record.moves)}: {written}")
        self.refresh()
        return True

    def undo(self) -> bool:
        """Take the last entry back."""
        if not self.record.moves:
            return False
        self.record.moves.pop()
        self.view = self.record.replay_view()
        self._say("")
        self.refresh()
        return True

    def _say(self, text: str, error: bool = False) -> None:
        style = "color:#b71c1c" if error else "color:#1b5e20"
        self.message.value = f'<span style="{style}">{html.escape(text, quote=False)}</span>' if text else ""

    # ------------------------------------------------------------------ display
    def refresh(self) -> None:
        v = self.view
        who = self.names[v.current_player] if not v.is_over else "nobody (the game is over)"
        hand = ", ".join(f"{k} {c}" for c, k in v.hand.items()) or "no cards"
        mine = ", ".join(t.label() for t in v.tickets) or "none yet"
        self.status.value = (
            f"<b>{html.escape(who)}</b> to move ({v.phase.name.lower().replace('_', ' ')})<br>"
            f"your hand: {html.escape(hand)}<br>your tickets: {html.escape(mine)}<br>"
            f"face-up: {html.escape(', '.join(c or '-' for c in v.row))}"
        )
        last = self.record.moves[-12:]
        first = len(self.record.moves) - len(last)
        self.moves_log.value = "<br>".join(f"{first + i + 1}. {html.escape(m)}" for i, m in enumerate(last))
        update_board(self.fig, v, width=self._width, title="")

    def advise(self, seconds: float = 2.0, **kwargs: Any) -> Any:
        """The advisor on this seat's view (its moves only when it is this seat's turn)."""
        from ..analysis import advise

        if self.view.current_player != self.seat or self.view.is_over:
            self._say("the advisor ranks your moves: ask when it is your turn", True)
            return None
        advice = advise(self.view, seconds=seconds, progress=False, **kwargs)
        self.advice.value = f"<pre style='font-size:12px'>{html.escape(str(advice))}</pre>"
        return advice

    def score_table(self) -> ScorerWidget:
        """The table-game scorer with the board's routes and buildings and this seat's tickets filled in."""
        v = self.view
        w = ScorerWidget(v.edition, list(self.names), width=self._width)
        for rid, q in v.route_owners().items():
            w.routes[q].append(rid)
        for kind, cities in v.buildings().items():
            for city, q in cities.items():
                getattr(w, kind + "s")[q].append(city)
        w.tickets[self.seat] = [t.id for t in v.tickets]
        w.refresh()
        return w


def recorder(edition: Any = "usa", players: Any = ("Me", "Opponent"), **kwargs: Any) -> RecorderWidget:
    """The recording widget (see the module doc)."""
    return RecorderWidget(edition, players, **kwargs)
