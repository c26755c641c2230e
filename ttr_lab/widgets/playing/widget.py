"""PlayWidget: play a whole game in Jupyter against bots or hot-seat.

A thin controller over a :class:`~ttr_lab.engine.state.GameState`: a click on the
board, a card button or a ticket checkbox becomes a :class:`~ttr_lab.engine.moves.Move`,
which goes through ``game.play``.  Legality comes from the library only
(``legal_moves`` and ``why_illegal``); an illegal click shows, next to what
was clicked, a sentence for people built from the library's answer
("Atlanta–Miami needs 5 blue cards; you hold 0 blue and 1 locomotive"), the
rule's reason as the library gives it, and the rule's text from the rules
reference, and changes nothing.

The board is one plotly ``FigureWidget`` (the only one on the page: each
carries plotly's 5 MB JavaScript), redrawn with
:func:`ttr_lab.board.update_board`, which also refreshes the synced figure
state, so a reloaded page or Voila shows the true position.  Each player's
last claim has a halo on the board, so the bots' moves are seen as well as
read.  The layout (:mod:`~ttr_lab.widgets.playing.layout`) fits a laptop
screen; the views are in :mod:`~ttr_lab.widgets.playing.panels`; the moves
(clicks, undo, bots) in :mod:`~ttr_lab.widgets.playing.moves`, who is looking
and what they are told in :mod:`~ttr_lab.widgets.playing.seats`, the tabs and
the advisor in :mod:`~ttr_lab.widgets.playing.tabs`.

An edition's own decisions have controls of their own, built from the names
the edition declares (``game.edition.widget_controls``) by the factories
registered under those names (:func:`ttr_lab.widgets.controls.register_control`);
they are in :attr:`PlayWidget.controls`.  A legal move no control plays is
offered by :attr:`PlayWidget.other_moves` (a button, or a dropdown when
there are many).

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
from typing import Any

import ipywidgets as W

from ...engine.moves import DrawBlind, Move, parse_move
from ...engine.state import GameState, Phase, new_game
from ...errors import IllegalMoveError, InvalidMoveError, WrongTypeError
from ..controls import Control, Decision, make_controls
from ..messages import drawn_cards, move_line, rule_heading
from ..static import game_text, widget_bundle
from .bots import bot_name, make_opponent
from .layout import BOARD_PX, PlayLayout
from .moves import PlayMoves
from .panels import PlayPanels
from .seats import Note, PlaySeats
from .tabs import ADVISOR_PLAYOUTS, PlayTabs
from .tickets import TicketPaths

__all__ = ["PlayWidget", "play", "BOT_NAMES", "ADVISOR_PLAYOUTS"]

#: seat names always played by a bot (any name :func:`ttr_lab.widgets.playing.bots.bot_name` knows is one)
BOT_NAMES = ("bot", "random", "greedy", "easy", "medium", "hard")
_KWARGS = (
    "players",
    "seed",
    "options",
    "bots",
    "level",
    "hide_hands",
    "show_paths",
    "width",
    "advisor",
    "color_letters",
)


def _check_kwargs(cls: str, kwargs: dict[str, Any], known: Sequence[str]) -> None:
    for key in kwargs:
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise WrongTypeError(
                f"{cls}() got an unexpected keyword argument {key!r}{hint} (known: {', '.join(known)})"
            )


class PlayWidget(PlayMoves, PlaySeats, PlayTabs, PlayPanels, PlayLayout, W.VBox):
    """Play Ticket to Ride on a clickable board.

    Parameters
    ----------
    edition : str or GameState
        ``"usa"`` (or another edition name), or a game to continue.
    players : list of names or an int
        Seats named ``"easy"``, ``"medium"`` or ``"hard"`` (or ``"bot"``, or
        a bot's own name: ``"random"``, ``"greedy"``...) are played by the
        computer (:mod:`ttr_lab.widgets.playing.bots`); every other seat is a
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
    color_letters : bool
        Write each free route's colour as a letter in its boxes (R, G, B...;
        :func:`~ttr_lab.board.board_figure`'s ``show_color_letters``), for
        players who cannot tell some route colours apart; legible from a
        board about 900 pixels wide.
    advisor : bool or int
        Add an "Advisor" tab (off by default): every player's win chance and
        a "Hint" button with one recommended move, its chance and why, for the
        person to decide, from their own view only
        (:class:`~ttr_lab.widgets.advice.SeatAdvisor`); never for a bot's seat
        nor with the hand hidden.  ``True`` asks :data:`ADVISOR_PLAYOUTS`
        playouts after each move, an int that many (a chance from fewer than
        40 is not shown); a Hint asks with at least 200.

    Attributes
    ----------
    game : GameState
    controls : dict name -> :class:`~ttr_lab.widgets.controls.base.Control`
        The edition's own controls, as ``game.edition.widget_controls`` names them.
    other_moves : :class:`~ttr_lab.widgets.controls.more.OtherMoves`
        The legal moves no control plays (in the card row).
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
        self._letters = bool(kwargs.get("color_letters"))
        self._advisor = self._make_advisor(kwargs.get("advisor", False))
        self.controls: dict[str, Control] = make_controls(self)
        self._replaced = frozenset(part for c in self.controls.values() for part in c.replaces)
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

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, and for a notebook saved without it the board as a static SVG (as the
        widget draws it, nothing more) and a line of public facts (:mod:`ttr_lab.widgets.static`)."""
        text = game_text(type(self).__name__, self.game)
        return widget_bundle(super()._repr_mimebundle_(**kwargs), self.fig, text, **kwargs)

    def __repr__(self) -> str:
        g = self.game
        who = " vs ".join(g.player_names)
        return f"<PlayWidget {g.edition.name}: {who}, seed {g.seed}, ply {g.ply}, {self._short_state()}>"

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
