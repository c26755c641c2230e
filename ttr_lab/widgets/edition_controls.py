"""Controls for the moves of Europe and Rails & Sails, mixed into PlayWidget.

Every control only builds a :class:`~ttr_lab.moves.Move` from the ones the
library lists in ``game.legal_moves`` (or asks ``why_illegal`` about a probe)
and hands it to ``PlayWidget.play_move``; no rule lives here.

* a click on a city marker: the legal ``BuildStation`` / ``BuildHarbor``
  moves for that city, with a payment choice like a route claim;
* the tunnel decision (``Phase.TUNNEL``): revealed cards, the extra needed,
  Pay options and Decline;
* Rails & Sails: the refill-pile toggle, one blind button per pile, Stop,
  the setup split (``Phase.SETUP_PIECES``) and piece exchange.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..editions.europe import BuildStation, DeclineTunnel, PayTunnel
from ..editions.rails_sails import BuildHarbor, ChoosePieces, ExchangePieces
from ..moves import DrawBlind, Move, StopDrawing, cards_in_words
from ..render import ROUTE_COLORS, city_at, city_trace_index
from ..state import Phase

__all__ = ["EditionControls", "card_label", "card_look"]

_GREY = ("#b0bec5", "#111111")


def _ink(fill: str) -> str:
    h = fill.lstrip("#")
    light = sum(w * int(h[i : i + 2], 16) for w, i in ((0.299, 0), (0.587, 2), (0.114, 4))) > 150
    return "#111111" if light else "#ffffff"


def _card_type(game: Any, name: str | None) -> Any:
    ed = game.edition
    i = ed.card_index.get(name) if name else None
    return ed.card_types[i] if i is not None else None


def card_look(game: Any, name: str | None) -> tuple[str, str]:
    """(fill, text colour) of a card: its colour's fill, grey for wilds and empty slots."""
    if name is None:
        return "#eeeeee", "#777777"
    ct = _card_type(game, name)
    colour = ct.color if ct is not None else name
    if colour in ROUTE_COLORS:
        return ROUTE_COLORS[colour], _ink(ROUTE_COLORS[colour])
    return _GREY


def card_label(game: Any, name: str | None) -> str:
    """A card's name for people: plain colours and locomotives as they are,
    Rails & Sails cards spelled out (``red-ship2`` -> ``red double ship``)."""
    if name is None:
        return "—"
    ct = _card_type(game, name)
    if ct is None or ct.color is None or ct.name == ct.color:
        return name
    if ct.kind == "ship":
        return f"{ct.color} {'double ship' if ct.value == 2 else 'ship ⚓'}"
    return f"{ct.color} train{' ⚓' if ct.anchor else ''}"


def chips(game: Any, hand: dict[str, int]) -> str:
    """A hand as coloured chips; with several piles, one line per kind (trains, ships, wilds)."""

    def chip(name: str, k: int) -> str:
        fill, ink = card_look(game, name)
        ct = _card_type(game, name)
        shape = "12px" if ct is not None and ct.kind == "ship" else "4px"
        return (
            f'<span class="ttr-card ttr-card-{name}" style="background:{fill};color:{ink};'
            f"border:1px solid #555;border-radius:{shape};padding:1px 6px;margin:1px;"
            f'display:inline-block">{html.escape(card_label(game, name))} × {k}</span>'
        )

    if len(game.edition.pile_names) < 2:
        return " ".join(chip(n, k) for n, k in hand.items())
    rows = []
    for kind, title in (("train", "trains"), ("ship", "ships"), ("wild", "wilds")):
        part = [chip(n, k) for n, k in hand.items() if getattr(_card_type(game, n), "kind", "train") == kind]
        if part:
            total = sum(k for n, k in hand.items() if getattr(_card_type(game, n), "kind", "train") == kind)
            rows.append(f'<div class="ttr-hand-{title}"><i>{title} ({total}):</i> {" ".join(part)}</div>')
    return "".join(rows)


class EditionControls:
    """Mixin for :class:`~ttr_lab.widgets.play.PlayWidget` (needs ``game``,
    ``play_move``, ``refresh``, ``_refuse``, ``_button``, ``_message``,
    ``_pending_claim`` and the payment box)."""

    # ------------------------------------------------------------------ layout
    def _build_edition_controls(self) -> None:
        g = self.game
        piles = g.edition.pile_names
        self._multi_pile = len(piles) > 1
        self._refill = W.ToggleButtons(
            options=[(f"refill from {p}", p) for p in sorted(piles)],
            value="trains" if "trains" in piles else sorted(piles)[0],
            style={"button_width": "auto"},
        ).add_class("ttr-refill")
        self._blinds = (
            [
                self._button(f"{p} deck", f"ttr-deck-{p}", lambda i=i: self.draw_blind(piles[i]))
                for i, p in enumerate(piles)
            ]
            if self._multi_pile
            else []
        )
        self._stop = self._button(
            "Stop (keep one card)", "ttr-stop", lambda: self.play_move(StopDrawing()), button_style="warning"
        )
        # tunnel
        self._tunnel_info = W.HTML().add_class("ttr-tunnel-info")
        self._tunnel_pay = W.ToggleButtons(options=[], style={"button_width": "auto"}).add_class("ttr-tunnel-options")
        self._tunnel_box = W.VBox(
            [
                self._tunnel_info,
                self._tunnel_pay,
                W.HBox(
                    [
                        self._button("Pay", "ttr-tunnel-pay", self.pay_tunnel, button_style="success"),
                        self._button("Decline", "ttr-tunnel-decline", self.decline_tunnel, button_style="danger"),
                    ]
                ),
            ]
        ).add_class("ttr-tunnel-box")
        # setup split
        self._pieces_slider = W.IntSlider(
            value=0, min=0, max=1, description="trains", continuous_update=True
        ).add_class("ttr-pieces-slider")
        self._pieces_label = W.HTML().add_class("ttr-pieces-label")
        self._pieces_slider.observe(lambda _c: self._label_pieces(), "value")
        self._pieces_box = W.VBox(
            [
                W.HTML("<b>Split your pieces (secret until all have chosen):</b>"),
                self._pieces_slider,
                self._pieces_label,
                self._button("Choose", "ttr-choose-pieces", self.choose_pieces, button_style="primary"),
            ]
        ).add_class("ttr-pieces-box")
        self._pieces_values: tuple[int, ...] = ()
        # exchange
        self._exchange = W.Dropdown(options=[], layout=W.Layout(width="auto")).add_class("ttr-exchange")
        self._exchange_box = W.VBox(
            [
                W.HTML("<b>Exchange pieces</b> (−1 point each):"),
                W.HBox([self._exchange, self._button("Exchange", "ttr-exchange-button", self.exchange)]),
            ]
        ).add_class("ttr-exchange-box")
        self._exchange_moves: list[ExchangePieces] = []
        self.fig.data[city_trace_index(self.fig)].on_click(self._on_city_click)

    def _edition_row(self) -> list[W.Widget]:
        """Controls shown next to the face-up cards."""
        return [self._refill, *self._blinds, self._stop] if self._multi_pile else [self._stop]

    def _edition_side(self) -> list[W.Widget]:
        """Decision boxes for the side panel."""
        return [self._tunnel_box, self._pieces_box, self._exchange_box]

    # ------------------------------------------------------------------ public API
    def click_city(self, city: str) -> bool:
        """What a click on a city's marker does: build a station or harbor (or ask how to pay)."""
        g = self.game
        options = [m for m in g.legal_moves if isinstance(m, (BuildStation, BuildHarbor)) and m.city == city]
        if len(options) == 1:
            return self.play_move(options[0])
        if not options:
            probe = self._probe_build(city)
            if probe is None:
                return self._refuse(
                    f"Nothing to build in {city}: the {g.edition.name} edition has no stations or harbors."
                )
            rule, reason = g.why_illegal(probe) or ("?", "no payment is possible")
            what = "a station" if isinstance(probe, BuildStation) else "a harbor"
            return self._refuse(f"Cannot build {what} in {city} (rule {rule}): {reason}")
        self._pending_claim = options
        self._pay.options = [(cards_in_words(m.cards), i) for i, m in enumerate(options)]
        self._pay.value = 0
        what = "station" if isinstance(options[0], BuildStation) else "harbor"
        self._message = f"{what.capitalize()} in {city}: {len(options)} ways to pay; pick one and press Confirm."
        self.refresh()
        return True

    def draw_blind(self, pile: str | None = None) -> bool:
        """Draw the top card of ``pile`` (``"trains"``/``"ships"``; ``None`` where there is one pile)."""
        return self.play_move(DrawBlind(pile))

    def pay_tunnel(self, index: int | None = None) -> bool:
        """Pay the tunnel's extra cards with the chosen option (or option ``index``)."""
        moves = [m for m in self.game.legal_moves if isinstance(m, PayTunnel)]
        if not moves:
            probe = (
                PayTunnel(((self.game.tunnel.color, self.game.tunnel.extra),))
                if getattr(self.game, "tunnel", None)
                else PayTunnel((("loco", 1),))
            )
            rule, reason = self.game.why_illegal(probe) or ("?", "no payment is possible")
            return self._refuse(f"Cannot pay the tunnel (rule {rule}): {reason}")
        i = self._tunnel_pay.value if index is None else index
        return self.play_move(moves[i or 0])

    def decline_tunnel(self) -> bool:
        """Decline the tunnel: the claim fails and the cards go back to the hand."""
        return self.play_move(DeclineTunnel())

    def choose_pieces(self, trains: int | None = None) -> bool:
        """Setup split: keep ``trains`` trains (default: the slider's value)."""
        return self.play_move(ChoosePieces(self._pieces_slider.value if trains is None else trains))

    def exchange(self, move: ExchangePieces | None = None) -> bool:
        """Exchange pieces: the dropdown's choice (or ``move``)."""
        if move is None:
            if not self._exchange_moves or self._exchange.value is None:
                return self._refuse("No exchange is possible now.")
            move = self._exchange_moves[self._exchange.value]
        return self.play_move(move)

    # ------------------------------------------------------------------ helpers
    def _on_city_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            self.click_city(city_at(self.fig, points.point_inds[0]))

    def _probe_build(self, city: str) -> Move | None:
        """A build move to ask ``why_illegal`` about, paid from the hand where it can be."""
        g = self.game
        hand = g.hand(g.current_player)
        wild = g.card_name(g.edition.wild_cards[0])
        if hasattr(g, "stations_left"):
            n = max(1, len(g.stations_of(g.current_player)) + 1) if hasattr(g, "stations_of") else 1
            colours = {c: k for c, k in hand.items() if c != wild}
            colour = max(colours, key=colours.get) if colours else "red"
            k = min(colours.get(colour, 0), n) or (0 if hand.get(wild, 0) >= n else n)
            w = min(hand.get(wild, 0), n - k)
            return BuildStation(city, tuple(sorted(c for c in ((colour, k), (wild, w)) if c[1])))
        if hasattr(g, "harbors_left"):
            best, cards = -1, ()
            for ct in g.edition.card_types:
                if ct.kind != "train" or not ct.anchor:
                    continue
                ship = f"{ct.color}-ship"
                have = min(hand.get(ct.name, 0), 2) + min(hand.get(ship, 0), 2)
                if have > best:
                    t, s = min(hand.get(ct.name, 0), 2), min(hand.get(ship, 0), 2)
                    w = 4 - t - s
                    best, cards = have, ((ct.name, t), (ship, s), (wild, w))
            cards = tuple(sorted(c for c in cards if c[1])) if cards else ((wild, 4),)
            return BuildHarbor(city, cards)
        return None

    def _label_pieces(self) -> None:
        g = self.game
        total = getattr(g.edition, "total_pieces", 0)
        t = self._pieces_slider.value
        self._pieces_label.value = f"{t} trains and {total - t} ships" if total else f"{t} trains"

    def _edition_extra_types(self) -> tuple[type, ...]:
        """Move types that have controls of their own (not extra buttons)."""
        return (StopDrawing, PayTunnel, DeclineTunnel, BuildStation, BuildHarbor, ExchangePieces, ChoosePieces)

    def _refresh_edition_controls(self, person: bool, visible: bool) -> None:
        g = self.game
        legal = list(g.legal_moves) if person and g.phase != Phase.TURN else []
        turn = person and g.phase == Phase.TURN
        show = lambda w, on: setattr(w.layout, "display", "flex" if on else "none")
        # piles and stop
        if self._multi_pile:
            self._deck.layout.display = "none"
            for b, p in zip(self._blinds, g.edition.pile_names):
                b.description = f"{p} deck ({g.deck_size(g.edition.pile_names.index(p))})"
        show(self._stop, person and g.phase == Phase.SECOND_CARD and StopDrawing() in legal)
        # tunnel
        tunnel = getattr(g, "tunnel", None) if g.phase == Phase.TUNNEL else None
        show(self._tunnel_box, bool(person and tunnel))
        if person and tunnel:
            pays = [m for m in legal if isinstance(m, PayTunnel)]
            opts = [(cards_in_words(m.cards), i) for i, m in enumerate(pays)]
            if list(self._tunnel_pay.options) != opts:
                self._tunnel_pay.options = opts
                self._tunnel_pay.value = 0 if opts else None
            route = g.map.route(tunnel.route).label() if g.map.has_route(tunnel.route) else tunnel.route
            shown = (
                " ".join(
                    f'<span class="ttr-card" style="background:{card_look(g, c)[0]};'
                    f"color:{card_look(g, c)[1]};border:1px solid #555;border-radius:4px;"
                    f'padding:1px 6px">{html.escape(c)}</span>'
                    for c in tunnel.revealed
                )
                or "<i>none</i>"
            )
            need = (
                f"<b>{tunnel.extra} more</b> {html.escape(tunnel.color)} or locomotive card"
                f"{'s' if tunnel.extra != 1 else ''}"
                if tunnel.color != "loco"
                else f"<b>{tunnel.extra} more</b> locomotive{'s' if tunnel.extra != 1 else ''}"
            )
            can = "" if pays else "<br><i>You cannot pay: decline.</i>"
            self._tunnel_info.value = (
                f"<b>Tunnel {html.escape(str(route))}</b>: paid "
                f"{html.escape(cards_in_words(tunnel.paid))}<br>revealed: {shown}"
                f"<br>needed: {need}{can}"
            )
        # setup split
        choosing = person and visible and g.phase == Phase.SETUP_PIECES
        show(self._pieces_box, choosing)
        if choosing:
            values = tuple(sorted(m.trains for m in legal if isinstance(m, ChoosePieces)))
            if values and values != self._pieces_values:
                self._pieces_values = values
                s = self._pieces_slider
                s.min, s.max = min(s.min, values[0]), max(s.max, values[-1])
                s.value = min(max(20, values[0]), values[-1])  # the rulebook's first-game suggestion
                s.min, s.max = values[0], values[-1]
                self._label_pieces()
        # exchange
        moves: list[ExchangePieces] = []
        if turn and hasattr(g, "box"):
            tb, sb = g.box(g.current_player)
            if tb or sb:
                moves = [m for m in g.legal_moves if isinstance(m, ExchangePieces)]
        show(self._exchange_box, bool(moves))
        if moves != self._exchange_moves:
            self._exchange_moves = moves
            self._exchange.options = [
                (
                    f"take {m.count} {m.take} from the box "
                    f"(return {m.count} {'ships' if m.take == 'trains' else 'trains'})",
                    i,
                )
                for i, m in enumerate(moves)
            ]
            self._exchange.value = 0 if moves else None

    def _score_columns(self, q: int) -> list[tuple[str, str]]:
        """(header, cell) pairs for the pieces columns of seat ``q``."""
        g = self.game
        if hasattr(g, "ships"):  # Rails & Sails
            if g.phase == Phase.SETUP_PIECES:
                mark = "chosen" if g.pieces_chosen(q) else "…"
                cols = [("trains", mark), ("ships", mark)]
            else:
                cols = [("trains", str(g.trains(q))), ("ships", str(g.ships(q)))]
            return cols + [("harbors", f"{len(g.harbors_of(q))}/{len(g.harbors_of(q)) + g.harbors_left(q)}")]
        cols = [("trains", str(g.pieces(q)))]
        if hasattr(g, "stations_left"):
            cols.append(("stations", f"{len(g.stations_of(q))} built, {g.stations_left(q)} left"))
        return cols
