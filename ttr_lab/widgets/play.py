"""PlayWidget: play a whole game in Jupyter against bots or hot-seat.

A thin controller over a :class:`~ttr_lab.state.GameState`: a click on the
board, a card button or a ticket checkbox becomes a :class:`~ttr_lab.moves.Move`,
which goes through ``game.play``.  Legality comes from the library only
(``legal_moves`` and ``why_illegal``); an illegal click shows the rule, the
reason and the rule's text from the rules reference, and changes nothing.
The board is a plotly ``FigureWidget`` redrawn with
:func:`ttr_lab.render.update_board`, which also refreshes the synced figure
state, so a reloaded page or Voila shows the true position.

An edition's own decisions have controls of their own, built from the names
the edition declares (``game.edition.widget_controls``) through the registry
:data:`ttr_lab.widgets.controls.CONTROLS`: a click on a city builds a station
or a harbor, the tunnel decision, the refill toggle and one deck button per
pile, the setup split, piece exchanges.  They are in :attr:`PlayWidget.controls`.

Hot-seat with hidden hands (``hide_hands=True``): the widget shows, and so
sends to the browser, only what the person in front of the screen may know.
Until the person to decide presses "Show my hand", nothing of theirs is on
the page (hand, tickets, the tickets to choose from, legal moves, payments,
a secret choice) and no move is taken.  Log lines say only what every player
learns of a move (``move.announce``): "Ada kept 2 tickets", never which.

>>> w = PlayWidget("usa", players=["You", "bot"], seed=7)
>>> w
<PlayWidget usa: You vs bot, seed 7, ply 0, You to keep tickets>
>>> w.play_move(w.game.legal_moves[0])
True
>>> w.game.phase.name, w.game.current_player
('TURN', 0)
"""

from __future__ import annotations

import difflib
import functools
import html
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as W
import plotly.graph_objects as go

from ..errors import IllegalMoveError, InvalidMoveError
from ..moves import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Move,
    StopDrawing,
    cards_in_words,
    parse_move,
)
from ..render import PLAYER_COLORS, board_figure, city_at, city_trace_index, route_at, route_trace_index, update_board
from ..scoring import ticket_status
from ..state import GameState, Phase, new_game
from .cards import card_label, card_look, chips
from .control_base import Control, Decision, cards_of, show
from .control_build import BuildControl
from .control_exchange import ExchangeControl
from .control_pieces import PiecesControl
from .control_tunnel import TunnelControl
from .controls import make_controls
from .inspector import MoveInspector
from .messages import move_line, rule_details, rule_heading

__all__ = ["PlayWidget", "play", "BOT_NAMES"]

#: Seat names played by a bot (``make_bot(name)``), compared case-insensitively.
BOT_NAMES = ("bot", "random", "greedy")
_KWARGS = ("players", "seed", "options", "bots", "hide_hands", "show_paths", "width")
_MAX_EXTRA = 6  # at most this many buttons for moves without a control of their own
_PROMPTS = {
    Phase.SETUP_TICKETS: "{name}: choose the tickets to keep (at least {k}) and press Keep.",
    Phase.KEEP_TICKETS: "{name}: choose the tickets to keep (at least {k}) and press Keep.",
    Phase.TURN: "{name}, your turn: take a face-up card or draw from the deck, "
    "click a route's marker to claim it, or draw tickets.",
    Phase.SECOND_CARD: "{name}: take a second card (not a face-up locomotive) or draw from the deck.",
}
#: verbs of the moves the widget's own controls play (cards, claims, tickets, stop)
_OWN_VERBS = frozenset({"faceup", "blind", "claim", "tickets", "keep", "stop"})
_C = TypeVar("_C", bound=Control)


def _check_kwargs(cls: str, kwargs: dict[str, Any], known: Sequence[str]) -> None:
    for key in kwargs:
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise TypeError(f"{cls}() got an unexpected keyword argument {key!r}{hint} (known: {', '.join(known)})")


class _TicketPath:
    """One ticket's cheapest completion, for the board and the ticket list."""

    def __init__(self, ticket: Any, found: Any, cards: dict[str, int] | None = None) -> None:
        self.ticket = ticket
        self.routes = tuple(found.routes) if found else ()
        self.cost = found.cost if found else None
        wanted = ", ".join(f"{k} {n}" for k, n in (cards or {}).items())
        self.name = f"{ticket.label()}: {self.cost} more cars" if found else f"{ticket.label()}: unreachable"
        self.summary = (f"{self.cost} more cars" + (f": {wanted}" if wanted else "")) if found else "unreachable"


class _Overlay:
    """A named list of routes for ``board_figure(paths=...)``."""

    def __init__(self, name: str, routes: Sequence[int]) -> None:
        self.name, self.routes = name, tuple(routes)


class _TicketPaths:
    """:func:`ttr_lab.analysis.position.ticket_paths`, remembered for the last position.

    Own routes cost nothing; routes the player may no longer use (claimed by
    others, or a double route's other side when the rules close it) are
    blocked, as the library's ``route_open_to`` says.
    """

    def __init__(self) -> None:
        self._key: tuple[Any, ...] = ()
        self._paths: list[_TicketPath] = []
        self.network: Any = None  # exact Steiner tree for all the tickets
        self.approx: Any = None  # networkx's approximation, for comparison

    def for_player(self, g: GameState, p: int) -> list[_TicketPath]:
        key = (p, tuple(sorted(g.route_owners().items())), tuple(t.id for t in g.tickets(p)))
        if key != self._key:
            from ..analysis.position import cards_needed, ticket_network, ticket_paths

            self._key = key
            self._paths = [
                _TicketPath(t, found, cards_needed(g, found.new_routes) if found else None)
                for t, found in ticket_paths(g, p)
            ]
            self.network = ticket_network(g, p) if g.tickets(p) else None
            self.approx = ticket_network(g, p, method="approx") if self.network else None
        return self._paths

    def network_html(self) -> str:
        """One line on the cheapest single network joining every ticket."""
        if self.network is None:
            return ""
        n, a = self.network, self.approx
        return (
            f"<div class='ttr-network'>All tickets together: <b>{n.cost}</b> more cars "
            f"(exact Steiner tree, {len(n.new_routes)} new routes); networkx's approximation: {a.cost}</div>"
        )


class PlayWidget(W.VBox):
    """Play Ticket to Ride on a clickable board.

    Parameters
    ----------
    edition : str or GameState
        ``"usa"`` (or another edition name), or a game to continue.
    players : list of names or an int
        Seats named ``"bot"``, ``"random"`` or ``"greedy"`` are played by
        :func:`ttr_lab.bots.make_bot`; every other seat is a person (hot-seat).
    seed : int
        Seeds the game's shuffles; bot ``i`` gets ``seed + i``.
    options : dict, optional
        Edition options (``{"variant": "1910"}``).
    bots : dict seat -> bot, optional
        Bots to use instead of the ones named by ``players``.
    hide_hands : bool
        Hot-seat: hide each hand (and everything else private) until its
        owner presses "Show my hand".
    show_paths : bool
        Draw the shortest way to complete each of the viewer's tickets.
    width : int
        Board width in pixels (default 720).

    Attributes
    ----------
    game : GameState
    controls : dict name -> :class:`~ttr_lab.widgets.control_base.Control`
        The edition's own controls, as ``game.edition.widget_controls`` names them.
    inspector : MoveInspector
        The "Legal moves" tab.
    """

    def __init__(self, edition: str | GameState = "usa", **kwargs: Any) -> None:
        _check_kwargs(type(self).__name__, kwargs, _KWARGS)
        if isinstance(edition, GameState):
            if "players" in kwargs or "seed" in kwargs or "options" in kwargs:
                raise TypeError("PlayWidget(game) takes its players, seed and options from the game")
            self.game = edition
        else:
            players = kwargs.get("players", ("You", "bot", "bot"))
            self.game = new_game(
                edition,
                players if isinstance(players, int) else list(players),
                seed=kwargs.get("seed", 0),
                **dict(kwargs.get("options") or {}),
            )
        g = self.game
        self.bots: dict[int, Any] = dict(kwargs.get("bots") or {})
        names = [n.strip().lower() for n in g.player_names]
        if kwargs.get("bots") is None and any(n in BOT_NAMES for n in names):
            from ..bots import make_bot

            self.bots = {p: make_bot(n, seed=g.seed + p) for p, n in enumerate(names) if n in BOT_NAMES}
        self.humans = tuple(p for p in range(g.n) if p not in self.bots)
        self._redo: list[Move] = []
        self._lines: list[str] = []
        self._pending_claim: list[Move] = []
        self._inspected: int | None = None
        self._last_human = self.humans[0] if self.humans else 0
        self._revealed: int | None = None
        self._message = ""
        self._message_private = False  # the message may tell the decider's own secrets
        self._rule: str | None = None  # the rule a refusal cites
        self._decision = Decision(None, False)
        self._over = False
        self._keep_ids: tuple[int, ...] = ()
        self._checks: list[Any] = []
        self._paths = _TicketPaths()
        self._width = int(kwargs.get("width", 720))
        self._build(bool(kwargs.get("hide_hands")), bool(kwargs.get("show_paths")))
        self.refresh()

    # ------------------------------------------------------------------ layout
    def _button(self, text: str, css: str, action: Callable[[], Any], **kw: Any) -> Any:
        b = W.Button(description=text, layout=W.Layout(width="auto"), **kw).add_class(css)
        b.on_click(lambda _b: action())
        return b

    def _build(self, hide: bool, paths: bool) -> None:
        g = self.game
        self.fig = go.FigureWidget(board_figure(g, width=self._width))
        self.fig.data[route_trace_index(self.fig)].on_click(self._on_route_click)
        self.fig.data[city_trace_index(self.fig)].on_click(self._on_city_click)
        self._status = W.HTML().add_class("ttr-status")
        self._faceup = [
            self._button("", f"ttr-faceup-{i + 1}", functools.partial(self.click_faceup, i + 1))
            for i in range(len(g.row))
        ]
        for button in self._faceup:  # a white card needs an edge
            button.layout.border = "1px solid #555"
            button.layout.min_width = "64px"
        self._card_class = [""] * len(g.row)
        self._deck = self._button("Deck", "ttr-deck", lambda: self.draw_blind())
        self._stop = self._button(
            "Stop (keep one card)", "ttr-stop", lambda: self.play_move(StopDrawing()), button_style="warning"
        )
        self._draw_tickets = self._button("Draw tickets", "ttr-draw-tickets", lambda: self.play_move(DrawTickets()))
        self._extra = W.HBox([]).add_class("ttr-extra-moves")  # pass, and moves without a control of their own
        self._pay = W.ToggleButtons(options=[], style={"button_width": "auto"}).add_class("ttr-payment")
        self._pay_box = W.VBox(
            [
                W.HTML("<b>Pay with:</b>"),
                self._pay,
                W.HBox(
                    [
                        self._button("Confirm", "ttr-confirm", self._confirm_claim, button_style="success"),
                        self._button("Cancel", "ttr-cancel", self._cancel_claim),
                    ]
                ),
            ]
        ).add_class("ttr-pay-box")
        self._keep_list = W.VBox([])
        self._keep_box = W.VBox(
            [
                W.HTML("<b>Tickets to keep:</b>"),
                self._keep_list,
                self._button("Keep", "ttr-keep", self._keep, button_style="primary"),
            ]
        ).add_class("ttr-keep-box")
        self.controls: dict[str, Control] = make_controls(self)
        self._replaced = frozenset(part for c in self.controls.values() for part in c.replaces)
        self._their_verbs = _OWN_VERBS.union(*(c.verbs for c in self.controls.values()))
        self._hand = W.HTML().add_class("ttr-hand")
        self._reveal = self._button("Show my hand", "ttr-reveal", self._reveal_hand)
        self._tickets = W.HTML().add_class("ttr-tickets")
        self._scores = W.HTML().add_class("ttr-scores")
        self._undo = self._button("↶ Undo", "ttr-undo", self.undo)
        self._redo_button = self._button("↷ Redo", "ttr-redo", self.redo)
        self._hide = W.Checkbox(
            value=hide, description="hidden hands", indent=False, layout=W.Layout(width="auto")
        ).add_class("ttr-hide")
        self._show_paths = W.Checkbox(
            value=paths, description="ticket paths", indent=False, layout=W.Layout(width="auto")
        ).add_class("ttr-paths")
        self._hide.observe(lambda _c: self._toggle(), "value")
        self._show_paths.observe(lambda _c: self.refresh(), "value")
        self._log = W.HTML().add_class("ttr-log")
        self._outcome = W.HTML().add_class("ttr-outcome")
        self.inspector = MoveInspector(g, on_select=self._inspect, on_play=self.play_move)
        self._tabs = W.Tab([self._log, self.inspector, self._outcome], titles=("Log", "Legal moves", "Score breakdown"))
        self._tabs.observe(lambda _c: self._refresh_inspector(), "selected_index")
        side = W.VBox(
            [
                self._pay_box,
                *[w for c in self.controls.values() for w in c.side()],
                self._keep_box,
                self._hand,
                self._reveal,
                self._tickets,
                self._scores,
                W.HBox([self._undo, self._redo_button]),
                W.HBox([self._hide, self._show_paths]),
            ],
            layout=W.Layout(width="320px", margin="0 0 0 8px"),
        ).add_class("ttr-side")
        row = [w for c in self.controls.values() for w in c.row()]
        cards = W.HBox([*self._faceup, self._deck, self._draw_tickets, *row, self._stop, self._extra]).add_class(
            "ttr-cards"
        )
        super().__init__([self._status, cards, W.HBox([self.fig, side]), self._tabs])
        self.add_class("ttr-play")

    # ------------------------------------------------------------------ public API
    @property
    def status(self) -> str:
        """The prompt (what decision is due) and the last message, as text."""
        heading = rule_heading(self._rule) if self._rule and self._message.startswith("⚠") else None
        return "\n".join(s for s in (self._prompt(), self._message, heading) if s)

    def play_move(self, move: Move | str) -> bool:
        """Play ``move`` (a Move or its notation) for the seat to move, then let bots move.

        Returns False, with the reason in :attr:`status`, if the library
        refuses it (or the hand of the person to decide is hidden).
        """
        g = self.game
        try:
            move = parse_move(move) if isinstance(move, str) else move
        except InvalidMoveError as e:
            return self._refuse(f"Cannot read that move: {e}", rule="notation")
        if not isinstance(move, Move):
            return self._refuse(f"Not a move: {move!r}"[:200], rule="notation")
        if self._blocked():
            return False
        line = move_line(g, move)
        try:
            g.play(move)
        except IllegalMoveError as e:
            return self._refuse(f"Not allowed (rule {e.rule}): {e.reason}", rule=e.rule)
        self._lines.append(line)
        self._redo.clear()
        self._pending_claim = []
        self._say(line + self._news(move) + self._run_bots())
        self.refresh()
        return True

    def click_route(self, route_id: int) -> bool:
        """What a click on a route's marker does: claim it (or ask how to pay)."""
        if self._blocked():
            return False
        g = self.game
        options = [m for m in g.legal_moves if m.verb == "claim" and getattr(m, "route", None) == route_id]
        if len(options) == 1:
            return self.play_move(options[0])
        if not options:
            rule, reason = g.why_illegal(self._probe_claim(route_id)) or ("?", "no payment is possible")
            return self._refuse(f"Cannot claim {self._route_name(route_id)} (rule {rule}): {reason}", rule=rule)
        return self._choose_payment(options, self._route_name(route_id))

    def click_faceup(self, slot: int) -> bool:
        """What a click on face-up card ``slot`` (1-based) does; where the player
        chooses the refill pile (Rails & Sails), the refill toggle names it."""
        refills = [r for r in (c.faceup_refill() for c in self.controls.values()) if r is not None]
        return self.play_move(DrawFaceUp(slot, refills[0] if refills else None))

    def draw_blind(self, pile: str | None = None) -> bool:
        """Draw the top card of ``pile`` (``"trains"``/``"ships"``; ``None`` where there is one pile)."""
        return self.play_move(DrawBlind(pile))

    def click_city(self, city: str) -> bool:
        """What a click on a city's marker does: build a station or harbor (or ask how to pay)."""
        build = self._control("build", BuildControl)
        if build is None:
            ed = self.game.edition.name
            return self._refuse(f"Nothing to build in {city}: the {ed} edition has no stations or harbors.")
        return build.click(city)

    def pay_tunnel(self, index: int | None = None) -> bool:
        """Pay the tunnel's extra cards with the chosen option (or option ``index``)."""
        tunnel = self._control("tunnel", TunnelControl)
        return tunnel.pay(index) if tunnel else self._refuse(f"The {self.game.edition.name} edition has no tunnels.")

    def decline_tunnel(self) -> bool:
        """Decline the tunnel: the claim fails and the cards go back to the hand."""
        tunnel = self._control("tunnel", TunnelControl)
        return tunnel.decline() if tunnel else self._refuse(f"The {self.game.edition.name} edition has no tunnels.")

    def choose_pieces(self, trains: int | None = None) -> bool:
        """Setup split: keep ``trains`` trains (default: the slider's value)."""
        pieces = self._control("pieces", PiecesControl)
        if pieces is None:
            return self._refuse(f"The {self.game.edition.name} edition has no choice of pieces.")
        return pieces.choose(trains)

    def exchange(self, move: Move | None = None) -> bool:
        """Exchange pieces: the dropdown's choice (or ``move``)."""
        ex = self._control("exchange", ExchangeControl)
        if ex is None:
            return self._refuse(f"The {self.game.edition.name} edition has no piece exchanges.")
        return ex.exchange(move)

    @property
    def _exchange_moves(self) -> list[Move]:
        """The exchange dropdown's moves (``controls["exchange"].moves``)."""
        ex = self._control("exchange", ExchangeControl)
        return ex.moves if ex else []

    def undo(self) -> bool:
        """Step back to the previous decision of a person, taking back bot moves too."""
        g = self.game
        if not g.move_stack:
            return self._refuse("Nothing to undo.")
        popped = []
        while g.move_stack:
            popped.append(g.pop())
            if not self.humans or (not g.is_over and g.current_player in self.humans):
                break
        else:  # only bot moves before this decision: put them back
            if g.current_player not in self.humans:
                for move in reversed(popped):
                    g.push(move)
                return self._refuse("Nothing to undo: no earlier decision of yours.")
        self._redo.extend(popped)
        self._lines = self._lines[: g.ply]
        self._pending_claim = []
        self._revealed = None  # whoever pressed Undo: the hand to decide is hidden again
        self._say(f"Undone: back to ply {g.ply}.")
        self.refresh(run_bots=False)
        return True

    def redo(self) -> bool:
        """Replay the moves taken back by :meth:`undo`, up to the next person's decision."""
        g = self.game
        if not self._redo:
            return self._refuse("Nothing to redo.")
        while self._redo:
            move = self._redo.pop()
            self._lines.append(move_line(g, move))
            g.play(move)
            if not self.humans or g.is_over or g.current_player in self.humans:
                break
        self._revealed = None
        self._say(f"Redone: forward to ply {g.ply}.")
        self.refresh()
        return True

    def refresh(self, *, run_bots: bool = True) -> None:
        """Bring every control up to date with :attr:`game` (after changing it directly)."""
        g = self.game
        if len(self._lines) != g.ply:  # the game was changed behind our back
            self._lines = self._replayed_lines()
            self._redo.clear()
        if run_bots and self.bots and not g.is_over and g.current_player in self.bots:
            self._say(self._message + self._run_bots(), private=self._message_private, rule=self._rule)
        if not g.is_over and g.current_player in self.humans:
            self._last_human = g.current_player
        if self._revealed is not None and self._revealed != self._viewer():
            self._revealed = None  # a new person at the screen: their hand starts hidden
        now = self._decide()
        if not now.private:
            self._forget_private()
        self._decision = now
        self._refresh_controls(now)
        self._refresh_panels()
        update_board(self.fig, g, **self._board_options())
        self._refresh_inspector()

    def __repr__(self) -> str:
        g = self.game
        who = " vs ".join(g.player_names)
        return f"<PlayWidget {g.edition.name}: {who}, seed {g.seed}, ply {g.ply}, {self._short_state()}>"

    # ------------------------------------------------------------------ moves
    def _control(self, name: str, kind: type[_C]) -> _C | None:
        c = self.controls.get(name)
        return c if isinstance(c, kind) else None

    def _run_bots(self) -> str:
        g, done = self.game, []
        while not g.is_over and g.current_player in self.bots:
            p = g.current_player
            move = self.bots[p].choose(g.view(p))
            line = move_line(g, move)
            g.play(move)
            self._lines.append(line)
            done.append(line + self._news(move))
        return ("\n" + "; ".join(done)) if done else ""

    def _news(self, move: Move) -> str:
        """What the controls announce after ``move`` (the pieces revealed...)."""
        return "".join(c.after_move(move) for c in self.controls.values())

    def _replayed_lines(self) -> list[str]:
        """Log lines for the moves played behind the widget's back, each
        announced in the position before it (on a copy of the game)."""
        g = self.game
        lines = self._lines[: g.ply]
        replay = g.copy(stack=True)
        later = []
        while replay.ply > len(lines):
            later.append(replay.pop())
        for move in reversed(later):
            lines.append(move_line(replay, move))
            replay.push(move)
        return lines

    def _say(self, text: str, *, private: bool = False, rule: str | None = None) -> None:
        """Set the message under the prompt; a ``private`` one may tell the
        decider's own secrets, and is dropped when their hand is hidden."""
        self._message, self._message_private, self._rule = text, private, rule

    def _refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        """Show a refusal (with the rule it cites, quoted from the reference); return False."""
        self._say("⚠ " + text, private=private, rule=rule)
        self._status.value = self._status_html()
        return False

    def _blocked(self) -> bool:
        """Refuse, and say why, when the person to decide has not shown their hand."""
        g = self.game
        if g.is_over or g.current_player not in self.humans or self._hand_visible():
            return False
        name = g.player_names[g.current_player]
        self._refuse(f"{name}'s hand is hidden: press “Show my hand” first (only {name} should look).", private=False)
        return True

    def _choose_payment(self, options: Sequence[Move], what: str) -> bool:
        """Ask which of ``options`` (moves that differ in their cards) to play."""
        self._pending_claim = list(options)
        with self._pay.hold_sync():
            self._pay.options = [(cards_in_words(cards_of(m) or ()), i) for i, m in enumerate(options)]
            self._pay.value = 0
        self._say(f"{what}: {len(options)} ways to pay; pick one and press Confirm.", private=True)
        self.refresh()
        return True

    def _probe_claim(self, route_id: int) -> ClaimRoute:
        """A payment to ask ``why_illegal`` about: the route's colour (or the
        commonest colour) from the hand, then wilds, so the reason is useful."""
        g = self.game
        if not g.map.has_route(route_id):
            return ClaimRoute(route_id, ())
        route, hand = g.map.route(route_id), g.hand(g.current_player)
        wild = g.card_name(g.edition.wild_cards[0])
        colours = {c: k for c, k in hand.items() if c != wild}
        colour = route.color
        if colour == "gray" and colours:  # any one colour will do: try the commonest
            colour = max(colours, key=lambda c: colours[c])
        k = min(colours.get(colour, 0), route.length)
        w = min(hand.get(wild, 0), route.length - k)
        return ClaimRoute(route_id, tuple(sorted(c for c in ((colour, k), (wild, w)) if c[1])))

    def _route_name(self, route_id: int) -> str:
        m = self.game.map
        return f"{m.route(route_id).label()} (route {route_id})" if m.has_route(route_id) else f"route {route_id}"

    def _on_route_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            self.click_route(route_at(self.fig, points.point_inds[0]))

    def _on_city_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            self.click_city(city_at(self.fig, points.point_inds[0]))

    def _confirm_claim(self) -> bool:
        if not self._pending_claim:
            return self._refuse("No claim to confirm: click a route first.")
        return self.play_move(self._pending_claim[self._pay.value or 0])

    def _cancel_claim(self) -> None:
        self._pending_claim = []
        self._say("Claim cancelled.")
        self.refresh()

    def _keep(self) -> bool:
        return self.play_move(KeepTickets(tuple(sorted(t for t, c in zip(self._keep_ids, self._checks) if c.value))))

    # ------------------------------------------------------------------ who is looking
    def _viewer(self) -> int:
        g = self.game
        return g.current_player if not g.is_over and g.current_player in self.humans else self._last_human

    def _hand_visible(self) -> bool:
        return not self._hide.value or self._revealed == self._viewer()

    def _decide(self) -> Decision:
        g = self.game
        if g.is_over or g.current_player not in self.humans:
            return Decision(None, False)
        private = self._hand_visible()
        return Decision(g.current_player, private, tuple(g.legal_moves) if private else ())

    def _forget_private(self) -> None:
        """The hand to decide is hidden: drop what the screen held of anyone's secrets."""
        self._pending_claim = []
        self._inspected = None
        if self._message_private:
            self._say("")

    def _reveal_hand(self) -> None:
        self._revealed = self._viewer()
        self.refresh()

    def _toggle(self) -> None:
        """Hands hidden or shown: either way, whoever looks must show their hand again."""
        self._revealed = None
        self.refresh()

    def _inspect(self, route_id: int | None) -> None:
        if route_id == self._inspected:
            return
        self._inspected = route_id
        update_board(self.fig, self.game, **self._board_options())

    # ------------------------------------------------------------------ views
    def _short_state(self) -> str:
        g = self.game
        if g.is_over:
            return "game over"
        name = g.player_names[g.current_player]
        keep = g.phase in (Phase.SETUP_TICKETS, Phase.KEEP_TICKETS)
        return f"{name} to {'keep tickets' if keep else 'play'}"

    def _prompt(self) -> str:
        g = self.game
        if g.is_over:
            out = g.outcome()
            return f"Game over. Winner: {' and '.join(g.player_names[w] for w in out.winners)}."
        asked = [p for p in (c.prompt() for c in self.controls.values()) if p is not None]
        if asked:
            text = asked[0]
        else:
            text = _PROMPTS.get(g.phase, "{name}: " + (g.phase.doc or g.phase.name.lower().replace("_", " ")))
            hint = "".join(c.turn_hint() for c in self.controls.values()) if g.phase == Phase.TURN else ""
            text = text.replace(", or draw tickets", f"{hint}, or draw tickets") if hint else text
        k = (
            min((len(m.tickets) for m in g.legal_moves if isinstance(m, KeepTickets)), default=0)
            if "{k}" in text
            else 0
        )
        text = text.format(name=g.player_names[g.current_player], k=k)
        now = self._decision
        if now.seat is not None and not now.private:
            text += " Press “Show my hand” first."
        return text

    def _status_html(self) -> str:
        msg = html.escape(self._message).replace("\n", "<br>")
        refused = self._message.startswith("⚠")
        cls = "ttr-error" if refused else "ttr-message"
        return (
            f'<div class="ttr-prompt"><b>{html.escape(self._prompt())}</b></div>'
            + (f'<div class="{cls}">{msg}</div>' if msg else "")
            + (rule_details(self._rule) if refused else "")
        )

    def _board_options(self) -> dict[str, Any]:
        g = self.game
        lit = {r for r in (getattr(m, "route", None) for m in self._pending_claim) if isinstance(r, int)}
        for c in self.controls.values():
            lit.update(c.highlight())
        if self._inspected is not None:
            lit.add(self._inspected)
        opts: dict[str, Any] = {"highlight": sorted(lit), "width": self._width}
        if self._show_paths.value and self._hand_visible():
            found = self._paths.for_player(g, self._viewer())
            paths: list[Any] = [p for p in found if p.cost]  # finished tickets need no path
            net = self._paths.network
            if net is not None and net.new_routes and len(paths) > 1:  # worth it for 2+ open tickets
                paths.append(_Overlay(f"all tickets: cheapest network, {net.cost} more cars", net.routes))
            opts["paths"] = paths
            opts["tickets"] = [p.ticket for p in found]
        return opts

    def _extra_moves(self, now: Decision) -> list[Move]:
        """Legal moves without a control of their own (pass, ...)."""
        return [m for m in now.moves if m.verb not in self._their_verbs]

    def _refresh_controls(self, now: Decision) -> None:
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
        extra = self._extra_moves(now)
        if len(extra) > _MAX_EXTRA:  # too many for buttons: use the Legal moves tab
            extra = []
        if [b.description for b in self._extra.children] != [str(m) for m in extra]:
            old = self._extra.children
            self._extra.children = [
                self._button(str(m), f"ttr-move-{m.verb}", functools.partial(self.play_move, m)) for m in extra
            ]
            for b in old:  # a closed widget leaves the browser too
                b.close()
        self._undo.disabled = not g.move_stack
        self._redo_button.disabled = not self._redo
        if not self._pending_claim and self._pay.options:
            with self._pay.hold_sync():
                self._pay.options = []
        show(self._pay_box, bool(self._pending_claim))
        keeps = now.with_verb("keep")
        show(self._keep_box, bool(keeps))
        ids = tuple(t.id for t in g.pending_tickets) if keeps else ()
        if ids != self._keep_ids:  # a new choice: fresh boxes, all ticked (none while hidden)
            old = self._checks
            self._keep_ids = ids
            self._checks = [
                W.Checkbox(
                    value=True, description=f"{t.label()} ({t.points})", indent=False, layout=W.Layout(width="auto")
                ).add_class(f"ttr-ticket-{t.id}")
                for t in (g.pending_tickets if ids else ())
            ]
            self._keep_list.children = self._checks
            for box in old:
                box.close()
        for c in self.controls.values():
            c.refresh(now)
        self._status.value = self._status_html()

    def _score_columns(self, q: int) -> list[tuple[str, str]]:
        """(header, cell) pairs for the pieces and buildings of seat ``q``."""
        cols = [] if "pieces" in self._replaced else [("trains", str(self.game.pieces(q)))]
        for c in sorted(self.controls.values(), key=lambda c: "pieces" not in c.replaces):
            cols += c.score_columns(q)
        return cols

    def _refresh_panels(self) -> None:
        g = self.game
        p = self._viewer()
        name = html.escape(g.player_names[p])
        visible = self._hand_visible()
        show(self._reveal, not visible)
        if visible:
            self._hand.value = (
                f"<b>Hand of {name}</b>: {g.hand_size(p)} cards<br>{chips(g, g.hand(p)) or '<i>no cards</i>'}"
            )
            self._tickets.value = self._tickets_html(p)
        else:
            self._hand.value = f"<b>Hand of {name}</b>: {g.hand_size(p)} cards (hidden)"
            self._tickets.value = f"<b>Tickets of {name}</b>: {len(g.tickets(p))} (hidden)"
        rows = []
        for q, who in enumerate(g.player_names):
            mark = "▶" if q == g.current_player and not g.is_over else ""
            colour = PLAYER_COLORS[q % len(PLAYER_COLORS)]
            kind = "bot" if q in self.bots else "person"
            pieces = "".join(f"<td>{cell}</td>" for _, cell in self._score_columns(q))
            rows.append(
                f'<tr><td>{mark}</td><td style="color:{colour};font-weight:bold">{html.escape(who)}</td>'
                f"<td>{kind}</td><td>{g.scores[q]}</td>{pieces}<td>{g.hand_size(q)}</td>"
                f"<td>{len(g.tickets(q))}</td></tr>"
            )
        turns = "" if g.final_turns_left is None else f"<br><b>Final round:</b> {g.final_turns_left} turns left"
        heads = "".join(f"<th>{h}</th>" for h, _ in self._score_columns(0))
        self._scores.value = (
            "<table><tr><th></th><th>player</th><th></th><th>score</th>"
            f"{heads}<th>cards</th><th>tickets</th></tr>{''.join(rows)}</table>{turns}"
        )
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
        if g.is_over != self._over:  # show the breakdown when the game ends
            self._over = g.is_over
            self._tabs.selected_index = 2 if g.is_over else 0

    def _tickets_html(self, p: int) -> str:
        g = self.game
        name = html.escape(g.player_names[p])
        results = ticket_status(g, p)
        costs = {t.ticket.id: t for t in self._paths.for_player(g, p)} if self._show_paths.value else {}
        items = []
        for r in results:
            mark = (
                '<span style="color:#2e7d32">✔ hit</span>'
                if r.completed
                else '<span style="color:#c62828">✘ miss</span>'
            )
            extra = ""
            if r.ticket.id in costs and not r.completed:
                extra = f" — {costs[r.ticket.id].summary}"
            items.append(f"<li>{mark} {html.escape(r.ticket.label())} ({r.ticket.points}){html.escape(extra)}</li>")
        body = f"<ul style='margin:0'>{''.join(items)}</ul>" if items else " <i>none yet</i>"
        network = self._paths.network_html() if costs else ""
        return f"<b>Tickets of {name}</b>:{body}{network}"

    def _refresh_inspector(self) -> None:
        """The Legal moves tab: the decider's moves while it is open and their
        hand is shown; emptied otherwise, so nothing stale stays in the page."""
        now, g = self._decision, self.game
        if now.seat is not None and not now.private:
            name = g.player_names[now.seat]
            self.inspector.conceal(f"{name}'s legal moves are hidden with the hand: press “Show my hand” first.")
        elif self._tabs.selected_index == 1:
            self.inspector.refresh()
        else:
            self.inspector.conceal("")


def play(
    edition: str | GameState = "usa",
    *,
    players: Sequence[str] | int = ("You", "bot", "bot"),
    seed: int = 0,
    **kwargs: Any,
) -> PlayWidget:
    """One line to play: ``ttr_lab.play("usa", players=["You", "bot"], seed=7)``.

    Takes the same keyword arguments as :class:`PlayWidget`.
    """
    if isinstance(edition, GameState):
        return PlayWidget(edition, **kwargs)
    return PlayWidget(edition, players=players, seed=seed, **kwargs)
