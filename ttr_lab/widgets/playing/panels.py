"""What the play widget shows: the status line, the hand, tickets and scores,
the card row's labels, the decision boxes, and what the board draws.

Everything here reads the game through its public API and the widget's
:class:`~ttr_lab.widgets.controls.base.Decision` (who decides, and whether
their hand is on the screen); nothing private of anyone else is shown.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ...board.plotly import PLAYER_COLORS
from ...engine.moves import KeepTickets, Move
from ...engine.phases import Phase
from ...engine.scoring import ticket_status
from ..card_chips import card_label, card_look, chips
from ..controls.base import Decision, show
from ..messages import rule_details, wild_word
from .bots import level_of
from .layout import SIDE_PX, PlayParts
from .tickets import Overlay, TicketPaths

if TYPE_CHECKING:  # pragma: no cover
    from ..advice import SeatAdvisor

__all__ = ["PlayPanels", "PROMPTS"]

PROMPTS = {
    Phase.SETUP_TICKETS: "{name}: choose the tickets to keep (at least {k}) and press Keep; "
    "each one's cheapest path is drawn on the board.",
    Phase.KEEP_TICKETS: "{name}: choose the tickets to keep (at least {k}) and press Keep; "
    "each one's cheapest path is drawn on the board.",
    # one line at 1366x768 with an edition's hint ("or click a city to build a station"): the card row
    # shows where cards come from
    Phase.TURN: "{name}, your turn: take a card, click a route to claim it, or draw tickets.",
    Phase.SECOND_CARD: "{name}: take a second card (not a face-up {wild}) or draw from the deck.",
}


def _ticket_mark(completed: bool, over: bool) -> str:
    """A kept ticket's state in words: connected; not yet connected while the
    game goes on (there is time left); missed only once the game is over."""
    if completed:
        return '<span style="color:#2e7d32">✔ connected</span>'
    if over:
        return '<span style="color:#c62828">✘ missed</span>'
    return '<span style="color:#757575">… not yet connected</span>'


class PlayPanels(PlayParts):
    """The views of the play widget (a mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`)."""

    _decision: Decision
    _paths: TicketPaths
    _pending_claim: list[Move]
    _inspected: int | None
    _lines: list[str]
    _replaced: frozenset[str]
    _keep_ids: tuple[int, ...]
    _checks: list[Any]
    _over: bool
    _highlights: tuple[int, ...]
    _advisor: SeatAdvisor | None

    # ------------------------------------------------------------------ words
    def _whose(self, p: int) -> str:
        """``"Your"`` with one person at the screen, else ``"Ada's"``."""
        if len(self.humans) <= 1 and p in self.humans:
            return "Your"
        return f"{self.game.player_names[p]}'s"

    def _prompt(self) -> str:
        g = self.game
        if g.is_over:
            out = g.outcome()
            return f"Game over. Winner: {' and '.join(g.player_names[w] for w in out.winners)}."
        asked = [p for p in (c.prompt() for c in self.controls.values()) if p is not None]
        if asked:
            text = asked[0]
        else:
            text = PROMPTS.get(g.phase, "{name}: " + (g.phase.doc or g.phase.name.lower().replace("_", " ")))
            hint = "".join(c.turn_hint() for c in self.controls.values()) if g.phase == Phase.TURN else ""
            text = text.replace(", or draw tickets", f"{hint}, or draw tickets") if hint else text
        k = (
            min((len(m.tickets) for m in g.legal_moves if isinstance(m, KeepTickets)), default=0)
            if "{k}" in text
            else 0
        )
        text = text.format(name=g.player_names[g.current_player], k=k, wild=wild_word(g))
        now = self._decision
        if now.seat is not None and not now.private:
            text += " Press “Show my hand” first."
        return text

    def _status_html(self) -> str:
        news = " · ".join(
            f'<span class="ttr-private">{html.escape(t)}</span>' if private else html.escape(t)
            for t, private in self._news_parts()
        )
        return f'<div class="ttr-prompt"><b>{html.escape(self._prompt())}</b></div>' + (
            f'<div class="ttr-news ttr-message">{news}</div>' if news else ""
        )

    @staticmethod
    def _refusal_html(text: str, rule: str | None) -> str:
        return f'<div class="ttr-error">{html.escape(text)}</div>{rule_details(rule)}'

    # ------------------------------------------------------------------ the board
    def _board_options(self) -> dict[str, Any]:
        g, now = self.game, self._decision
        lit = {r for r in (getattr(m, "route", None) for m in self._pending_claim) if isinstance(r, int)}
        for c in self.controls.values():
            lit.update(c.highlight())
        if self._inspected is not None:
            lit.add(self._inspected)
        lit.update(self._highlights)
        if self._advisor is not None:
            lit.update(self._advisor.lit)  # the routes of the moves a Hint named
        opts: dict[str, Any] = {"highlight": sorted(lit), "width": self._width, "title": ""}
        opts["viewer"] = self._viewer() if self._hand_visible() else -1  # whose marks: the seat's, or public (-1)
        if self._letters:
            opts["show_color_letters"] = True
        if getattr(self, "_height", None) is not None:
            opts["height"] = self._height
        if now.seat is not None and now.private and now.with_verb("keep") and g.pending_tickets:  # the offer
            offer = self._paths.offer(g, now.seat)
            opts["paths"] = offer.overlays()
            opts["tickets"] = list(g.pending_tickets)
        elif self._show_paths.value and self._hand_visible():
            found = self._paths.for_player(g, self._viewer())
            paths: list[Any] = [p for p in found if p.cost]  # finished tickets need no path
            net = self._paths.network
            if net is not None and net.new_routes and len(paths) > 1:  # worth it for 2+ open tickets
                paths.append(Overlay(f"all tickets: cheapest network, {net.cost} more cars", net.routes))
            opts["paths"] = paths
            opts["tickets"] = [p.ticket for p in found]
        return opts

    # ------------------------------------------------------------------ the card row and decision boxes
    def _refresh_cards(self, now: Decision) -> None:
        g = self.game
        for i, (button, card) in enumerate(zip(self._faceup, g.row)):
            fill, ink = card_look(g, card)
            button.description = card_label(g, card)
            button.style.button_color, button.style.text_color = fill, ink
            if self._card_class[i]:
                button.remove_class(self._card_class[i])
            self._card_class[i] = f"ttr-card-{card or 'empty'}"
            button.add_class(self._card_class[i])
        self._deck.description = f"Deck ({g.deck_size()})"
        show(self._deck, "deck" not in self._replaced)
        self._draw_tickets.description = f"Draw tickets ({g.ticket_deck_size})"
        show(self._stop, bool(now.with_verb("stop")))
        self.other_moves.refresh(now)  # pass, and moves without a control of their own

    def _refresh_keep(self, now: Decision) -> None:
        g = self.game
        keeps = now.with_verb("keep")
        show(self._keep_box, bool(keeps))
        ids = tuple(t.id for t in g.pending_tickets) if keeps else ()
        offer = self._paths.offer(g, now.seat) if ids and now.seat is not None else None
        if ids != self._keep_ids:  # a new choice: fresh boxes, all ticked (none while hidden)
            old = self._checks
            self._keep_ids = ids
            self._checks = []
            for t, path in zip(g.pending_tickets if ids else (), offer.tickets if offer else ()):
                cost = "unreachable" if path.cost is None else f"{path.cost} cars"
                self._checks.append(
                    W.Checkbox(
                        value=True,
                        description=f"{t.label()} ({t.points} points): {cost}",
                        indent=False,
                        layout=W.Layout(width="auto"),
                    ).add_class(f"ttr-ticket-{t.id}")
                )
            self._keep_list.children = self._checks
            for box in old:
                box.close()
        head = "<b>Tickets to keep</b>"
        if offer is not None:
            head += f" (cheapest paths on the board; {html.escape(offer.line())})"
        self._keep_head.value = head + ":"

    def _refresh_controls(self, now: Decision) -> None:
        g = self.game
        self._refresh_cards(now)
        self._undo.disabled = not g.move_stack
        self._redo_button.disabled = not self._redo
        pay = self._pay
        if not self._pending_claim and pay.options:
            with pay.hold_sync():
                pay.options = []
        show(self._pay_box, bool(self._pending_claim))
        self._refresh_keep(now)
        for c in self.controls.values():
            c.refresh(now)
        self._status.value = self._status_html()

    # ------------------------------------------------------------------ side panel and tabs
    def _score_columns(self, q: int) -> list[tuple[str, str]]:
        """(header, cell) pairs for the pieces and buildings of seat ``q``."""
        cols = [] if "pieces" in self._replaced else [("trains", str(self.game.pieces(q)))]
        for c in sorted(self.controls.values(), key=lambda c: "pieces" not in c.replaces):
            cols += c.score_columns(q)
        return cols

    def _name_cell(self, q: int, mark: str = "") -> str:
        g = self.game
        colour = PLAYER_COLORS[q % len(PLAYER_COLORS)]
        name = g.player_names[q]
        tag = ""
        if q in self.bots:  # how well it plays: its level, else the bot's own name
            kind = str(getattr(self.bots[q], "name", "bot"))
            tag = level_of(kind) or kind
            tag = "" if tag in name.lower() else f' <span class="ttr-bot-tag">{html.escape(tag)}</span>'
        return f'<td style="color:{colour};font-weight:bold">{mark}{html.escape(name)}{tag}</td>'

    def _scores_html(self) -> str:
        g = self.game
        if g.is_over:  # the final totals, with their breakdown
            out = g.outcome()
            rows = []
            for q, ps in enumerate(out.players):
                won = "★" if q in out.winners else ""
                extra = sum(v for _, v in ps.bonuses + ps.adjustments)
                rows.append(
                    f"<tr><td>{won}</td>{self._name_cell(q)}<td>{ps.route_points}</td>"
                    f"<td>{ps.ticket_points:+d}</td><td>{extra:+d}</td><td><b>{ps.total}</b></td></tr>"
                )
            return (
                "<b>Final scores</b><table><tr><th></th><th>player</th><th>routes</th><th>tickets</th>"
                f"<th>bonus</th><th>total</th></tr>{''.join(rows)}</table>"
            )
        heads = ["score"] + [h for h, _ in self._score_columns(0)] + ["cards", "tickets"]
        if len(heads) > 5 or not self._fits_across(heads):  # a row per count, a column per player
            return self._scores_by_row(heads)
        rows = []
        for q in range(g.n):
            mark = "▶" if q == g.current_player else ""
            cells = "".join(f"<td>{html.escape(cell)}</td>" for _, cell in self._score_columns(q))
            rows.append(
                f"<tr><td>{mark}</td>{self._name_cell(q)}<td>{g.scores[q]}</td>{cells}"
                f"<td>{g.hand_size(q)}</td><td>{len(g.tickets(q))}</td></tr>"
            )
        heads_html = "".join(f"<th>{html.escape(h)}</th>" for h, _ in self._score_columns(0))
        turns = "" if g.final_turns_left is None else f"<br><b>Last round:</b> {g.final_turns_left} turns left"
        return (
            "<table><tr><th></th><th>player</th><th>score</th>"
            f"{heads_html}<th>cards</th><th>tickets</th></tr>{''.join(rows)}</table>{turns}"
        )

    def _fits_across(self, heads: list[str]) -> bool:
        """Whether the table with a column per count fits the side panel: its
        width estimated from the longest text of each column (12 px text,
        about 7 px a character, 6 px of padding a cell; Europe's "0 built, 3
        left" stations column is what overflows)."""
        g = self.game
        columns = [["▶"], [g.player_names[q] + " medium" * (q in self.bots) for q in range(g.n)]]
        values = [[h] for h in heads]
        for q in range(g.n):
            row = [str(g.scores[q])] + [c for _, c in self._score_columns(q)] + [str(g.hand_size(q)), "99"]
            for col, v in zip(values, row):
                col.append(v)
        width = sum(7 * max(map(len, col)) + 6 for col in columns + values)
        return width <= SIDE_PX - 10

    def _scores_by_row(self, heads: list[str]) -> str:
        """The score table turned: the players across (▶ whose turn), a row per count."""
        g = self.game
        values = [
            [str(g.scores[q])] + [c for _, c in self._score_columns(q)] + [str(g.hand_size(q)), str(len(g.tickets(q)))]
            for q in range(g.n)
        ]
        names = "".join(self._name_cell(q, "▶ " if q == g.current_player else "") for q in range(g.n))
        rows = "".join(
            f"<tr><th>{html.escape(h)}</th>{''.join(f'<td>{html.escape(v[i])}</td>' for v in values)}</tr>"
            for i, h in enumerate(heads)
        )
        turns = "" if g.final_turns_left is None else f"<br><b>Last round:</b> {g.final_turns_left} turns left"
        return f'<table class="ttr-scores-turned"><tr><th></th>{names}</tr>{rows}</table>{turns}'

    def _refresh_panels(self) -> None:
        g = self.game
        p = self._viewer()
        whose = html.escape(self._whose(p))
        visible = self._hand_visible()
        show(self._reveal, not visible)
        if visible:
            self._hand.value = (
                f"<b>{whose} hand</b>: {g.hand_size(p)} cards<br>{chips(g, g.hand(p)) or '<i>no cards</i>'}"
            )
            self._tickets.value = self._tickets_html(p)
        else:
            self._hand.value = f"<b>{whose} hand</b>: {g.hand_size(p)} cards (hidden)"
            self._tickets.value = f"<b>{whose} tickets</b>: {len(g.tickets(p))} (hidden)"
        self._scores.value = self._scores_html()
        lines = [html.escape(s) for s in self._lines[-12:]]
        start = len(self._lines) - len(lines) + 1
        self._log.value = (
            "<ol start='%d' style='margin:0'>%s</ol>" % (start, "".join(f"<li>{s}</li>" for s in lines))
            if lines
            else "<i>no moves yet</i>"
        )
        self._outcome.value = (
            f"<pre>{html.escape(str(g.outcome()))}</pre>"
            if g.is_over
            else "<i>The full breakdown appears here when the game ends.</i>"
        )
        if self._advisor is not None:  # the advice of the person to decide, from their view only
            now = self._decision
            self._advisor.update(now.seat, now.private)
        if g.is_over != self._over:  # show the breakdown when the game ends
            self._over = g.is_over
            self.show_tab("Score breakdown" if g.is_over else "Log")

    def _tickets_html(self, p: int) -> str:
        g = self.game
        whose = html.escape(self._whose(p))
        results = ticket_status(g, p)
        show_costs = self._show_paths.value
        costs = {t.ticket.id: t for t in self._paths.for_player(g, p)} if show_costs else {}
        items = []
        for r in results:
            mark = _ticket_mark(r.completed, g.is_over)
            extra = ""
            if r.ticket.id in costs and not r.completed:
                extra = f" — {costs[r.ticket.id].summary}"
            items.append(f"<li>{mark} {html.escape(r.ticket.label())} ({r.ticket.points}){html.escape(extra)}</li>")
        body = f"<ul style='margin:0;padding-left:18px'>{''.join(items)}</ul>" if items else " <i>none yet</i>"
        network = self._paths.network_html() if costs else ""
        return f"<b>{whose} tickets</b>:{body}{network}"
