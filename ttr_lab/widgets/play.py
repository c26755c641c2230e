"""PlayWidget: play a whole game in Jupyter against bots or hot-seat.

A thin controller over a :class:`~ttr_lab.state.GameState`: a click on the
board, a card button or a ticket checkbox becomes a :class:`~ttr_lab.moves.Move`,
which goes through ``game.play``.  Legality comes from the library only
(``legal_moves`` and ``why_illegal``); an illegal click shows, next to what
was clicked, a sentence for people built from the library's answer
("Atlanta–Miami needs 5 blue cards; you hold 0 blue and 1 locomotive"), the
rule's reason as the library gives it, and the rule's text from the rules
reference, and changes nothing.

The board is one plotly ``FigureWidget`` (the only one on the page: each
carries plotly's 5 MB JavaScript), redrawn with
:func:`ttr_lab.render.update_board`, which also refreshes the synced figure
state, so a reloaded page or Voila shows the true position.  Each player's
last claim has a halo on the board, so the bots' moves are seen as well as
read.  The layout (:mod:`~ttr_lab.widgets.play_layout`) fits a laptop
screen; the views are in :mod:`~ttr_lab.widgets.play_panels`.

An edition's own decisions have controls of their own, built from the names
the edition declares (``game.edition.widget_controls``) through the registry
:data:`ttr_lab.widgets.controls.CONTROLS`; they are in :attr:`PlayWidget.controls`.

Hot-seat with hidden hands (``hide_hands=True``): the widget shows, and so
sends to the browser, only what the person in front of the screen may know.
Until the person to decide presses "Show my hand", nothing of theirs is on
the page (hand, tickets, the tickets to choose from and their paths, legal
moves, payments, a secret choice, the card a blind draw gave them) and no
move is taken.  Log lines say only what every player learns of a move
(``move.announce``): "Ada kept 2 tickets", never which.

>>> w = PlayWidget("usa", players=["You", "easy"], seed=7)
>>> w
<PlayWidget usa: You vs easy, seed 7, ply 0, You to keep tickets>
>>> w.play_move(w.game.legal_moves[0])
True
>>> w.game.phase.name, w.game.current_player
('TURN', 0)
>>> w.play_move("blind"), w.status.splitlines()[-1].startswith("You drew a")
(True, True)
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, TypeVar

import ipywidgets as W

from ..errors import IllegalMoveError, InvalidMoveError, WrongTypeError
from ..moves import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, Move, cards_in_words, parse_move
from ..render import city_trace_index, route_at, route_trace_index
from ..state import GameState, Phase, new_game
from .control_base import Control, Decision, cards_of
from .control_build import BuildControl
from .control_exchange import ExchangeControl
from .control_pieces import PiecesControl
from .control_tunnel import TunnelControl
from .controls import make_controls
from .messages import claim_refusal, drawn_cards, move_line, rule_heading, wild_word
from .play_bots import bot_name, make_opponent
from .play_layout import BOARD_PX, PlayLayout
from .play_panels import PlayPanels
from .play_tickets import TicketPaths

__all__ = ["PlayWidget", "play", "BOT_NAMES", "ADVISOR_PLAYOUTS"]

#: seat names always played by a bot (any name :func:`ttr_lab.widgets.play_bots.bot_name` knows is one)
BOT_NAMES = ("bot", "random", "greedy", "easy", "medium", "hard")
_KWARGS = ("players", "seed", "options", "bots", "level", "hide_hands", "show_paths", "width", "advisor")
#: the advisor's playouts per question with ``advisor=True`` (about 0.5 s on a laptop core)
ADVISOR_PLAYOUTS = 16
#: verbs of the moves the widget's own controls play (cards, claims, tickets, stop)
_OWN_VERBS = frozenset({"faceup", "blind", "claim", "tickets", "keep", "stop"})
_C = TypeVar("_C", bound=Control)
Note = tuple[str, "int | None"]  # a line of news, and the seat it is private to (None: public)


def _check_kwargs(cls: str, kwargs: dict[str, Any], known: Sequence[str]) -> None:
    for key in kwargs:
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise WrongTypeError(
                f"{cls}() got an unexpected keyword argument {key!r}{hint} (known: {', '.join(known)})"
            )


class PlayWidget(PlayPanels, PlayLayout, W.VBox):
    """Play Ticket to Ride on a clickable board.

    Parameters
    ----------
    edition : str or GameState
        ``"usa"`` (or another edition name), or a game to continue.
    players : list of names or an int
        Seats named ``"easy"``, ``"medium"`` or ``"hard"`` (or ``"bot"``, or
        a bot's own name: ``"random"``, ``"greedy"``...) are played by the
        computer (:mod:`ttr_lab.widgets.play_bots`); every other seat is a
        person (hot-seat).
    seed : int
        Seeds the game's shuffles; bot ``i`` gets ``seed + i``.
    options : dict, optional
        Edition options (``{"variant": "1910"}``).
    bots : dict seat -> bot, optional
        Bots to use instead of the ones named by ``players``.
    level : ``"easy"``, ``"medium"`` (default) or ``"hard"``
        How well the seats named ``"bot"`` play.
    hide_hands : bool
        Hot-seat: hide each hand (and everything else private) until its
        owner presses "Show my hand".
    show_paths : bool
        Draw the shortest way to complete each of the viewer's tickets.
    width : int
        Board width in pixels (default 620, which fits a laptop screen).
    advisor : bool or int
        Add an "Advisor" tab (off by default): every player's win chance and
        a "Hint" button with the top moves and why, for the person to decide,
        from their own view only (:class:`~ttr_lab.widgets.advice.SeatAdvisor`);
        never for a bot's seat nor with the hand hidden.  ``True`` asks
        :data:`ADVISOR_PLAYOUTS` playouts after each move, an int that many.

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
                raise WrongTypeError("PlayWidget(game) takes its players, seed and options from the game")
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
        self.level = str(kwargs.get("level") or "medium")
        self.bots: dict[int, Any] = dict(kwargs.get("bots") or {})
        if kwargs.get("bots") is None:
            for p, name in enumerate(g.player_names):
                bot = make_opponent(name, g.seed + p, level=self.level)
                if bot is not None:
                    self.bots[p] = bot
        else:
            bot_name("bot", level=self.level)  # an unknown level is an error either way
        self.humans = tuple(p for p in range(g.n) if p not in self.bots)
        self._redo: list[Move] = []
        self._lines: list[str] = []
        self._pending_claim: list[Move] = []
        self._inspected: int | None = None
        self._highlights: tuple[int, ...] = ()  # more routes to light up (the tutorial's)
        self._last_human = self.humans[0] if self.humans else 0
        self._revealed: int | None = None
        self._notes: list[Note] = []
        self._refused: tuple[str, str | None, int | None] | None = None  # text, rule, private to
        self._anchor: tuple[Any, ...] = ("cards", None)
        self._decision = Decision(None, False)
        self._over = False
        self._keep_ids: tuple[int, ...] = ()
        self._checks: list[Any] = []
        self._paths = TicketPaths()
        self._width = int(kwargs.get("width", BOARD_PX))
        self._advisor = self._make_advisor(kwargs.get("advisor", False))
        self.controls: dict[str, Control] = make_controls(self)
        self._replaced = frozenset(part for c in self.controls.values() for part in c.replaces)
        self._their_verbs = _OWN_VERBS.union(*(c.verbs for c in self.controls.values()))
        W.VBox.__init__(self, self._build(bool(kwargs.get("hide_hands")), bool(kwargs.get("show_paths"))))
        self.add_class("ttr-play")
        self.refresh()

    # ------------------------------------------------------------------ public API
    @property
    def status(self) -> str:
        """The prompt (what decision is due), the news, and a refusal with its rule, as text."""
        parts: list[str | None] = [self._prompt(), *(t for t, _ in self._news_parts())]
        if self._refused is not None:
            text, rule, _ = self._refused
            parts += [text, rule_heading(rule) if rule else None]
        return "\n".join(s for s in parts if s)

    @property
    def tab(self) -> str:
        """The tab shown under the board: ``"Log"``, ``"Legal moves"`` or ``"Score breakdown"``."""
        return str(self._tab_bar.value)

    def show_tab(self, name: str) -> None:
        """Show tab ``name`` (filled before it is shown)."""
        tabs = tuple(self._tab_bar.options)
        if name not in tabs:
            raise WrongTypeError(f"no tab {name!r} (tabs: {', '.join(tabs)})")
        if self._tab_bar.value == name:
            self._show_tab(name)
        else:
            self._tab_bar.value = name  # its observer shows it

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
        seat, line = g.current_player, move_line(g, move)
        before = g.hand(seat) if isinstance(move, DrawBlind) else None
        try:
            g.play(move)
        except IllegalMoveError as e:
            return self._refuse(self._refusal_words(move, e.rule, e.reason), rule=e.rule)
        self._lines.append(line)
        self._redo.clear()
        self._pending_claim, self._inspected, self._refused = [], None, None
        notes: list[Note] = [(line + self._news(move), None)]
        if before is not None:
            drawn = drawn_cards(g, before, g.hand(seat))
            if drawn:
                pile = f"the {move.pile} deck" if isinstance(move, DrawBlind) and move.pile else "the deck"
                notes.append((f"You drew {' and '.join(_a(c) for c in drawn)} from {pile}.", seat))
        self._notes = notes + self._run_bots()
        self.refresh()
        return True

    def click_route(self, route_id: int) -> bool:
        """What a click on a route does: claim it (or ask how to pay, or say why not)."""
        self._anchor = self._route_anchor(route_id)
        return self._claim(route_id)

    def click_faceup(self, slot: int) -> bool:
        """What a click on face-up card ``slot`` (1-based) does; where the player
        chooses the refill pile (Rails & Sails), the refill toggle names it."""
        self._anchor = ("cards", slot)
        refills = [r for r in (c.faceup_refill() for c in self.controls.values()) if r is not None]
        return self.play_move(DrawFaceUp(slot, refills[0] if refills else None))

    def draw_blind(self, pile: str | None = None) -> bool:
        """Draw the top card of ``pile`` (``"trains"``/``"ships"``; ``None`` where there is one pile)."""
        return self.play_move(DrawBlind(pile))

    def click_city(self, city: str) -> bool:
        """What a click on a city's marker does: build a station or harbor (or ask how to pay)."""
        if self._anchor[0] != "board":
            self._anchor = self._city_anchor(city)
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
        self._pending_claim, self._inspected, self._refused = [], None, None
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
        self._revealed, self._refused = None, None
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
            self._notes = self._notes + self._run_bots()
        if not g.is_over and g.current_player in self.humans:
            self._last_human = g.current_player
        if self._revealed is not None and self._revealed != self._viewer():
            self._revealed = None  # a new person at the screen: their hand starts hidden
        now = self._decide()
        if not now.private:
            self._forget_private()
        seen = self._viewer() if self._hand_visible() else None
        self._notes = [(t, q) for t, q in self._notes if q is None or q == seen]  # never for another's eyes
        self._decision = now
        self._refresh_controls(now)
        self._refresh_panels()
        self._redraw_board()
        self._refresh_inspector()
        self._refresh_refusal()

    def __repr__(self) -> str:
        g = self.game
        who = " vs ".join(g.player_names)
        return f"<PlayWidget {g.edition.name}: {who}, seed {g.seed}, ply {g.ply}, {self._short_state()}>"

    # ------------------------------------------------------------------ moves
    def _make_advisor(self, advisor: Any) -> Any:
        """The Advisor tab's :class:`~ttr_lab.widgets.advice.SeatAdvisor` (None when off)."""
        if advisor is False or advisor is None:
            return None
        if advisor is not True and (type(advisor) is not int or advisor < 1):
            raise WrongTypeError(f"advisor is True, False or a number of playouts (at least 1), not {advisor!r}")
        from .advice import SeatAdvisor  # the analysis is loaded only when asked for

        playouts = ADVISOR_PLAYOUTS if advisor is True else int(advisor)
        return SeatAdvisor(self.game, playouts=playouts, seed=self.game.seed, on_hint=lambda _a: self._relight())

    def _relight(self) -> None:
        self._redraw_board()

    def _control(self, name: str, kind: type[_C]) -> _C | None:
        c = self.controls.get(name)
        return c if isinstance(c, kind) else None

    def _claim(self, route_id: int) -> bool:
        if self._blocked():
            return False
        g = self.game
        options = [m for m in g.legal_moves if m.verb == "claim" and getattr(m, "route", None) == route_id]
        if len(options) == 1:
            return self.play_move(options[0])
        if not options:
            rule, reason = g.why_illegal(self._probe_claim(route_id)) or ("?", "no payment is possible")
            return self._refuse(self._refusal_words(ClaimRoute(route_id, ()), rule, reason), rule=rule)
        return self._choose_payment(options, self._route_name(route_id))

    def _refusal_words(self, move: Move, rule: str, reason: str) -> str:
        """A refusal for people: the claim's needs in words, else the library's reason."""
        g = self.game
        you = "you" if len(self.humans) <= 1 else g.player_names[g.current_player]
        route = getattr(move, "route", None)
        if move.verb == "claim" and isinstance(route, int):
            return claim_refusal(g, route, rule, reason, you=you)
        if move.verb == "faceup" and rule == "A2" and "wild" in reason:
            return f"A face-up {wild_word(g)} cannot be your second card (rule {rule}: {reason})."
        return f"Not allowed (rule {rule}): {reason}"

    def _run_bots(self) -> list[Note]:
        g, done = self.game, list[Note]()
        while not g.is_over and g.current_player in self.bots:
            p = g.current_player
            move = self.bots[p].choose(g.view(p))
            line = move_line(g, move)
            g.play(move)
            self._lines.append(line)
            done.append((line + self._news(move), None))
        return done

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
        """Set the news under the prompt; a ``private`` line may tell the
        decider's own secrets, and is dropped when their hand is hidden."""
        g = self.game
        self._notes = [(text, g.current_player if private else None)] if text else []

    def _news_parts(self) -> list[tuple[str, bool]]:
        return [(t, q is not None) for t, q in self._notes]

    def _refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        """Show a refusal next to what was clicked (with the rule it cites,
        quoted from the reference); return False."""
        g = self.game
        self._refused = (text, rule, g.current_player if private else None)
        self._place_refusal(self._anchor)
        self._anchor = ("cards", None)
        self._refresh_refusal()
        self._status.value = self._status_html()
        return False

    def _refresh_refusal(self) -> None:
        r = self._refused
        if r is not None and r[2] is not None and (r[2] != self._viewer() or not self._hand_visible()):
            self._refused = r = None  # it told someone else's secrets
        self._refusal_text.value = self._refusal_html(r[0], r[1]) if r else ""
        self._refusal.layout.display = "flex" if r else "none"

    def _clear_refusal(self) -> None:
        self._refused = None
        self._refresh_refusal()

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
        self._refused = None
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

    # ------------------------------------------------------------------ clicks on the board
    def _point_anchor(self, k: int, i: int) -> tuple[Any, ...]:
        trace = self.fig.data[k]
        at = self._anchor_point(float(trace.x[i]), float(trace.y[i])) if i < len(trace.x) else None
        return ("board", *at) if at else ("cards", None)

    def _route_anchor(self, route_id: int) -> tuple[Any, ...]:
        k = route_trace_index(self.fig)
        ids = list(self.fig.data[k].customdata)
        where = [i for i, r in enumerate(ids) if r == route_id]
        return self._point_anchor(k, where[len(where) // 2]) if where else ("cards", None)

    def _city_anchor(self, city: str) -> tuple[Any, ...]:
        k = city_trace_index(self.fig)
        names = list(self.fig.data[k].customdata)
        return self._point_anchor(k, names.index(city)) if city in names else ("cards", None)

    def _on_route_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            i = points.point_inds[0]
            self._anchor = self._point_anchor(route_trace_index(self.fig), i)
            self._claim(route_at(self.fig, i))

    def _on_city_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            k = city_trace_index(self.fig)
            self._anchor = self._point_anchor(k, points.point_inds[0])
            self.click_city(str(self.fig.data[k].customdata[points.point_inds[0]]))

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
        self._notes = [(t, q) for t, q in self._notes if q is None]
        if self._refused is not None and self._refused[2] is not None:
            self._refused = None

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
        self._redraw_board()

    def _show_tab(self, name: str) -> None:
        """Fill tab ``name``, then show it; a route the Legal moves tab lit goes dark."""
        self._inspect(None)
        self._refresh_inspector(name)
        body = {"Log": self._log, "Legal moves": self.inspector, "Score breakdown": self._outcome}.get(name)
        if body is None and self._advisor is not None:  # the Advisor tab
            body = self._advisor.widget
        if self._tab_body.children != (body,):
            self._tab_body.children = (body,)

    def _refresh_inspector(self, tab: str | None = None) -> None:
        """The Legal moves tab: the decider's moves while it is open and their
        hand is shown; emptied otherwise, so nothing stale stays in the page."""
        now, g = self._decision, self.game
        if now.seat is not None and not now.private:
            name = g.player_names[now.seat]
            self.inspector.conceal(f"{name}'s legal moves are hidden with the hand: press “Show my hand” first.")
        elif (tab or self.tab) == "Legal moves":
            self.inspector.refresh()
        else:
            self.inspector.conceal("")

    def _short_state(self) -> str:
        g = self.game
        if g.is_over:
            return "game over"
        name = g.player_names[g.current_player]
        keep = g.phase in (Phase.SETUP_TICKETS, Phase.KEEP_TICKETS)
        return f"{name} to {'keep tickets' if keep else 'play'}"


def _a(card: str) -> str:
    """``"a red card"``, ``"an orange card"``, ``"a locomotive"``."""
    noun = card if card in ("locomotive", "wild") or " " in card else f"{card} card"
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def play(
    edition: str | GameState = "usa",
    *,
    players: Sequence[str] | int = ("You", "bot", "bot"),
    seed: int = 0,
    **kwargs: Any,
) -> PlayWidget:
    """One line to play: ``ttr_lab.play("usa", players=["You", "hard"], seed=7)``.

    Takes the same keyword arguments as :class:`PlayWidget`.
    """
    if isinstance(edition, GameState):
        return PlayWidget(edition, **kwargs)
    return PlayWidget(edition, players=players, seed=seed, **kwargs)
