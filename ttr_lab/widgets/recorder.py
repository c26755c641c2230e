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
from dataclasses import replace
from typing import Any

import ipywidgets as W

from ..analysis import advise
from ..board.plotly import board_figure, update_board
from ..engine.position import options_to_json
from ..engine.rules.setup import seat_names
from ..engine.view import PlayerView
from ..errors import InvalidMoveError, TtrError
from ..io.numerals import read_number
from ..records.chance import split_outcome
from ..records.saved import MAX_ENTRY_TEXT, Record
from ..tabletop.editor import _one_seat
from ..tabletop.score_sheet import _edition
from .advice import HINT_PLAYOUTS, HINT_SECONDS, hint_html
from .figure import FigureWidget
from .scorer import ScorerWidget
from .static import game_text, widget_bundle

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
        options: dict[str, Any] | None = None,
        width: int = 620,
    ) -> None:
        super().__init__()
        ed = _edition(edition, options)
        names = seat_names(players, ed)
        me = _one_seat("seat", seat, names)
        start = _one_seat("first", first, names)
        n = len(names)
        deal = {
            "first": start,
            "hands": [dict(hand or {}) if p == me else None for p in range(n)],
            "rows": [list(row or [])],
            "tickets": [list(tickets or []) if p == me else None for p in range(n)],
        }
        opts = options_to_json(ed)
        opts["first_player"] = start  # who starts is the deal's: the record's option says the same
        self.record = Record(ed.name, opts, list(names), None, [], deal=deal, seat=me)
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
        self.fig = FigureWidget(board_figure(ed, player_names=names, width=width, title=""))
        side = W.VBox(
            [
                self.status,
                W.HBox([self.entry, enter]),
                W.HBox([undo, advise]),
                self.message,
                self.advice,
                self.moves_log,
            ]
        )
        self.children = [W.HBox([self.fig, side])]  # the advice next to its button, not below the fold
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
        if words[0] == "keep" and len(words) == 2 and words[1] != "?":
            # bounded before it is written out: 'keep 30000000' is refused, not expanded
            ed = self.view.edition
            most = max(ed.setup_tickets[0], ed.draw_tickets[0])
            who = self.names[self.view.current_player]
            k = read_number(
                words[1],
                what=f"{text[:40]!r}: {who} keeps tickets you do not see, so give how many (1 to {most})",
                error=InvalidMoveError,
                low=1,
                high=most,
            )
            return "keep " + " ".join(["?"] * k)
        return text

    def enter(self, text: Any) -> bool:
        """Add one move (with its outcome); False, with the reason shown, if the replay refuses it.

        A refused entry changes nothing: the entry is checked on a copy of the
        record, which is extended only when the whole replay accepts it."""
        text = text if isinstance(text, str) else str(text)
        if len(text) > MAX_ENTRY_TEXT:
            self._say(f"an entry of {len(text)} characters is too long (at most {MAX_ENTRY_TEXT})", True)
            return False
        text = " ".join(text.split())
        if not text:
            self._say("type a move in notation first, e.g. blind =red or claim 45 red:3", True)
            return False
        try:
            written = self._written(text)
            view = replace(self.record, moves=[*self.record.moves, written]).replay_view()
        except TtrError as e:
            self._say(str(e), True)
            return False
        self.record.moves.append(written)
        self.view = view
        self.entry.value = ""
        self._say(f"ply {len(self.record.moves)}: {written}")
        self.refresh()
        return True

    def undo(self) -> bool:
        """Take the last entry back."""
        if not self.record.moves:
            return False
        self.view = replace(self.record, moves=self.record.moves[:-1]).replay_view()
        self.record.moves.pop()
        self._say("")
        self.refresh()
        return True

    def _say(self, text: str, error: bool = False) -> None:
        style = "color:#b71c1c" if error else "color:#1b5e20"
        self.message.value = f'<span style="{style}">{html.escape(text, quote=False)}</span>' if text else ""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, and for a notebook saved without it the board as a static SVG (as the
        widget draws it, nothing more) and a line of public facts (:mod:`ttr_lab.widgets.static`)."""
        text = f"{game_text(type(self).__name__, self.view)}; entered from {self.names[self.seat]}'s seat"
        return widget_bundle(super()._repr_mimebundle_(**kwargs), self.fig, text, **kwargs)

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

    def advise(self, seconds: float | None = None, **kwargs: Any) -> Any:
        """The advisor on this seat's view (its moves only when it is this seat's turn).

        On another seat's turn it says at once whose turn it is and returns
        None; on this seat's turn the box says "thinking" (and for how long)
        before the advisor starts, then shows its answer as the play widget's
        Hint does (:func:`~ttr_lab.widgets.advice.hint_html`).  The budget is
        the Hint's (:data:`~ttr_lab.widgets.advice.HINT_SECONDS`, at most
        :data:`~ttr_lab.widgets.advice.HINT_PLAYOUTS` playouts) unless
        ``seconds`` or ``playouts`` is given."""
        v, me = self.view, self.names[self.seat]
        if v.is_over:
            return self._no_advice("the game is over: nothing to advise (score_table() scores it)")
        if v.current_player != self.seat:
            who = self.names[v.current_player]
            return self._no_advice(
                f"it is {who}'s turn: the advisor ranks {me}'s moves (this record is kept from {me}'s seat); "
                f"ask again when it is {me}'s turn"
            )
        if seconds is not None:
            kwargs["seconds"] = seconds
        elif kwargs.get("playouts") is None:  # the Hint's budget: its seconds, at most its playouts
            kwargs["seconds"] = HINT_SECONDS
            kwargs.setdefault("max_playouts", HINT_PLAYOUTS)
        budget = (
            f"{kwargs['playouts']} games played out"
            if kwargs.get("playouts") is not None
            else f"about {kwargs['seconds']} s"
        )
        self.advice.value = f"<i>thinking about {html.escape(me)}'s moves ({html.escape(budget)})...</i>"
        self._say("")
        try:
            advice = advise(v, progress=False, **kwargs)
        except TtrError as e:
            return self._no_advice(str(e))
        self.advice.value = hint_html(advice, v)
        return advice

    def _no_advice(self, why: str) -> None:
        """Say why there is no advice, in the message line and in the advice box (no stale advice stays)."""
        self._say(why, True)
        self.advice.value = f"<i>{html.escape(why, quote=False)}</i>"
        return None

    def score_table(self) -> ScorerWidget:
        """The table-game scorer with the board's routes and buildings and this seat's tickets filled in."""
        v = self.view
        w = ScorerWidget(v.edition, list(self.names), width=self._width)
        for rid, q in v.route_owners().items():
            w.routes[q].append(rid)
        fact = dict(v.edition.buildings)  # a kind of building -> its fact (``station`` -> ``stations``)
        for kind, cities in v.buildings().items():
            for city, q in cities.items():
                w.built[fact[kind]][q].append(city)
        w.tickets[self.seat] = [t.id for t in v.tickets]
        w.refresh()
        return w


def recorder(edition: Any = "usa", players: Any = ("Me", "Opponent"), **kwargs: Any) -> RecorderWidget:
    """The recording widget (see the module doc)."""
    return RecorderWidget(edition, players, **kwargs)
