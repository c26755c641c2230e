"""The position editor on the board: set up a game in progress from one seat's facts.

``EditorWidget("usa", players=["Me", "Ann", "Bo"], seat="Me")``: pick a
player and click their routes (and, in Europe and Rails & Sails, station or
harbor cities) on the board; fill in your hand, your tickets, the face-up
row, the cards in the deck and on the discard, each opponent's hand size and
ticket count.  **Make the view** calls :func:`ttr_lab.tabletop.seat_view`:
the result (:attr:`EditorWidget.view`) is a :class:`~ttr_lab.engine.view.PlayerView`
from your seat, the unknowns left unknown, which the advisor and the ticket
odds accept; an impossible position is refused with the reason.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..engine.view import PlayerView
from ..errors import TtrError
from ..io.numerals import is_numeral, read_number
from ..tabletop.editor import _one_seat, seat_view
from .scorer import ScorerWidget

__all__ = ["EditorWidget", "editor"]


class EditorWidget(ScorerWidget):
    """The scorer's board and clicks, with the facts of a position in progress (see the module doc).

    The route, station and harbor clicks and the ticket search are the
    scorer's (the tickets are this seat's); the breakdown shows the
    scores so far."""

    def __init__(self, edition: Any = "usa", players: Any = ("Me", "Opponent"), *, seat: Any = 0, **kw: Any) -> None:
        super().__init__(edition, players, **kw)
        ed = self.edition
        self.me = _one_seat("seat", seat, self.names)
        self.player.value = self.me
        cards = [c.name for c in ed.card_types]
        self.hand = {
            c: W.BoundedIntText(min=0, max=ed.total_cards, description=c, layout=W.Layout(width="150px")) for c in cards
        }
        self.row = [
            W.Dropdown(options=["(empty)", *cards], value=cards[0], layout=W.Layout(width="110px"))
            for _ in range(ed.row_size)
        ]
        self.deck = W.Text(value="", placeholder="the rest", description="Deck")
        self.discard = W.Text(value="0", description="Discard", placeholder="a count, or card names")
        others = [p for p in range(len(self.names)) if p != self.me]
        self.hand_sizes = {
            p: W.BoundedIntText(min=0, max=ed.total_cards, value=4, description=self.names[p]) for p in others
        }
        self.ticket_counts = {p: W.BoundedIntText(min=0, max=99, value=2, description=self.names[p]) for p in others}
        make = W.Button(description="Make the view", button_style="primary").add_class("ttr-editor-make")
        make.on_click(lambda _b: self.make_view())
        self.result = W.HTML().add_class("ttr-editor-result")
        self.view: PlayerView | None = None
        facts = W.VBox(
            [
                W.HTML(f"<b>{html.escape(self.names[self.me])}'s hand</b>"),
                W.GridBox(list(self.hand.values()), layout=W.Layout(grid_template_columns="repeat(3, 160px)")),
                W.HTML("<b>Face-up row</b>"),
                W.HBox(self.row),
                W.HBox([self.deck, self.discard]),
                W.HTML("<b>Opponents' hand sizes</b>"),
                W.HBox(list(self.hand_sizes.values())),
                W.HTML("<b>Opponents' ticket counts</b>"),
                W.HBox(list(self.ticket_counts.values())),
                make,
                self.result,
            ]
        )
        self.children = [*self.children, facts]
        self.remove_class("ttr-scorer")
        self.add_class("ttr-editor")

    def facts(self) -> dict[str, Any]:
        """The keyword arguments of :func:`ttr_lab.tabletop.seat_view` the form holds."""
        kw: dict[str, Any] = {"players": list(self.names), "seat": self.me}
        placed: dict[str, list[list[Any]]] = {"routes": self.routes, **self.built}
        for key, held in placed.items():
            if any(held):
                kw[key] = {p: list(v) for p, v in enumerate(held)}
        kw["hand"] = {c: w.value for c, w in self.hand.items() if w.value}
        kw["tickets"] = list(self.tickets[self.me])
        kw["row"] = [None if d.value == "(empty)" else d.value for d in self.row]
        if self.deck.value.strip():
            kw["deck"] = _number("deck", self.deck.value)
        text = self.discard.value.strip()
        kw["discard"] = _number("discard", text) if is_numeral(text) or not text else text.replace(",", " ").split()
        kw["hand_sizes"] = {p: w.value for p, w in self.hand_sizes.items()}
        kw["ticket_counts"] = {p: w.value for p, w in self.ticket_counts.items()}
        return kw

    def make_view(self) -> PlayerView | None:
        """Build the view from the form (:func:`ttr_lab.tabletop.seat_view`); None, with the reason shown, if impossible."""
        try:
            self.view = seat_view(self.edition, **self.facts())
        except TtrError as e:
            self.view = None
            self.result.value = f'<span style="color:#b71c1c">refused: {html.escape(str(e), quote=False)}</span>'
            return None
        v = self.view
        self.result.value = (
            f"<span style='color:#1b5e20'>a view from {html.escape(self.names[self.me])}'s seat: "
            f"hand sizes {v.hand_sizes}, ticket counts {v.ticket_counts}, trains left {v.pieces}, "
            f"deck {sum(v.deck_sizes)}</span>"
        )
        return v


def _number(what: str, text: str) -> int:
    """A number of cards typed in a box: ASCII digits only (``²`` is refused, not a crash)."""
    return read_number(text.strip() or "0", what=f"{what} is a number of cards", error=TtrError)


def editor(edition: Any = "usa", players: Any = ("Me", "Opponent"), **kwargs: Any) -> EditorWidget:
    """The position editor widget (see the module doc)."""
    return EditorWidget(edition, players, **kwargs)
