"""The ``"tunnel"`` control: pay a tunnel's extra cards or decline.

While ``game.tunnel`` holds a pending claim (its reveal is public), the box
shows the revealed cards and the extra needed, the legal ``tunnel`` moves
that pay (those with cards) as options, and Decline (the one without).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ...engine.moves import Move, cards_in_words
from ..card_chips import card_chip
from .base import Control, Decision, Host, cards_of, hand_made, move_classes, show

__all__ = ["TunnelControl"]


class TunnelControl(Control):
    """The tunnel decision box."""

    name = "tunnel"
    verbs = frozenset({"tunnel"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        ed = self.game.edition
        self._pay_class = next(iter(move_classes(ed, "tunnel", field="cards")), None)
        self._decline_class = next((c for c in move_classes(ed, "tunnel") if c is not self._pay_class), None)
        self.info = W.HTML().add_class("ttr-tunnel-info")
        self.options = W.ToggleButtons(options=[], style={"button_width": "auto"}).add_class("ttr-tunnel-options")
        self.box = W.VBox(
            [
                self.info,
                self.options,
                W.HBox(
                    [
                        host.make_button("Pay", "ttr-tunnel-pay", self.pay, button_style="success"),
                        host.make_button("Decline", "ttr-tunnel-decline", self.decline, button_style="danger"),
                    ]
                ),
            ]
        ).add_class("ttr-tunnel-box")
        self._pays: list[Move] = []
        show(self.box, False)

    def side(self) -> list[Any]:
        return [self.box]

    # ------------------------------------------------------------------ actions
    @staticmethod
    def _split(moves: Any) -> tuple[list[Move], list[Move]]:
        tunnel = [m for m in moves if m.verb == "tunnel"]
        return [m for m in tunnel if cards_of(m) is not None], [m for m in tunnel if cards_of(m) is None]

    def pay(self, index: int | None = None) -> bool:
        """Pay with the chosen option (or option ``index``)."""
        h, g = self.host, self.game
        if h.hand_hidden():
            return False
        pays, _ = self._split(g.legal_moves)
        if not pays:
            t = g.tunnel
            wild = g.card_name(g.edition.wild_cards[0])
            cards = ((t.color, t.extra),) if t is not None else ((wild, 1),)
            probe = hand_made(self._pay_class, cards=cards) if self._pay_class else None
            why = g.why_illegal(probe) if probe is not None else None
            rule, reason = why or ("?", "no payment is possible")
            return h.refuse(f"Cannot pay the tunnel (rule {rule}): {reason}", rule=rule)
        i = self.options.value if index is None else index
        return h.play_move(pays[i or 0])

    def decline(self) -> bool:
        """Decline: the claim fails and the cards stay in the hand."""
        h = self.host
        if h.hand_hidden():
            return False
        _, declines = self._split(self.game.legal_moves)
        probe = declines[0] if declines else (hand_made(self._decline_class) if self._decline_class else None)
        if probe is None:
            return h.refuse("There is no tunnel decision to decline.")
        return h.play_move(probe)

    # ------------------------------------------------------------------ display
    def prompt(self) -> str | None:
        return "{name}: the tunnel asks for more cards: pay them or decline." if self.game.tunnel else None

    def highlight(self) -> list[int]:
        t = self.game.tunnel
        return [t.route] if t is not None else []

    def refresh(self, now: Decision) -> None:
        g = self.game
        tunnel = g.tunnel
        due = bool(now.private and tunnel is not None and now.with_verb("tunnel"))
        show(self.box, due)
        pays = self._split(now.moves)[0] if due else []
        opts = [(cards_in_words(cards_of(m) or ()), i) for i, m in enumerate(pays)]
        if pays != self._pays:
            self._pays = pays
            with self.options.hold_sync():
                self.options.options = opts
                self.options.value = 0 if opts else None
        if not due or tunnel is None:
            self.info.value = ""
            return
        route = g.map.route(tunnel.route).label() if g.map.has_route(tunnel.route) else str(tunnel.route)
        revealed = " ".join(card_chip(g, c) for c in tunnel.revealed) or "<i>none</i>"
        s = "s" if tunnel.extra != 1 else ""
        wild = g.card_name(g.edition.wild_cards[0])
        need = (
            f"<b>{tunnel.extra} more</b> {html.escape(tunnel.color)} or {html.escape(wild)} card{s}"
            if tunnel.color != wild
            else f"<b>{tunnel.extra} more</b> {html.escape(wild)} card{s}"
        )
        cannot = "" if pays else "<br><i>You cannot pay: decline.</i>"
        self.info.value = (
            f"<b>Tunnel {html.escape(route)}</b>: paid {html.escape(cards_in_words(tunnel.paid))}"
            f"<br>revealed: {revealed}<br>needed: {need}{cannot}"
        )
