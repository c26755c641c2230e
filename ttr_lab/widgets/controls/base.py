"""The base of the play widget's controls, and what a control may ask of the widget.

An edition names the controls its decisions need
(``game.edition.widget_controls``: Europe ``("build", "tunnel")``, Rails &
Sails ``("piles", "pieces", "exchange", "build")``); the play widget builds
exactly those, each from the factory registered under that name
(:func:`ttr_lab.widgets.controls.register_control`, or a ``ttr_lab.controls``
entry point of the package that brings the edition).

A control

* finds its moves among the library's legal moves by their notation verb
  (``move.verb``), or by the move classes the edition lists
  (``edition.move_types``), never by the type of the state;
* reads edition state only through the accessors its rule documents
  (``game.tunnel``, ``game.trains(p)``...), which exist because the edition
  declared the control;
* decides nothing: it hands a move to :meth:`Host.play_move`, and a refusal
  quotes the library's ``why_illegal`` through :meth:`Host.refuse`;
* asks its widget only what :class:`Host` lists (public methods, typed), so
  it works in any widget that offers them;
* shows a decision only while :attr:`Decision.private` says the person
  deciding is the one looking at the screen (hot-seat, hidden hands).

A control in a few lines (the classroom variant's ``block`` control, in
``tests/classroom_variant``, is a complete one)::

    class PassControl(Control):
        name = "pass"
        verbs = frozenset({"pass"})

        def __init__(self, host: Host) -> None:
            super().__init__(host)
            self.button = host.make_button("Pass", "ttr-pass", self.play)

        def row(self) -> list[Any]:
            return [self.button]

        def play(self) -> bool:
            if self.host.hand_hidden():
                return False
            return self.host.play_move("pass")

        def refresh(self, now: Decision) -> None:
            show(self.button, bool(now.with_verb("pass")))

    register_control("pass", PassControl)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ...engine.moves import CardList, Move

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Control", "Decision", "Host", "cards_of", "move_classes", "hand_made", "show"]


@dataclass(frozen=True)
class Decision:
    """Who decides now, and what of it the screen may show.

    ``seat`` is the person (not a bot) whose decision is due, ``None`` when
    the game is over.  ``private`` is True when that person's hand is shown,
    so their own information (legal moves, payments, secret choices) may be
    on the screen; ``moves`` are then the legal moves, otherwise ``()``.
    """

    seat: int | None
    private: bool
    moves: tuple[Move, ...] = ()

    def with_verb(self, *verbs: str) -> list[Move]:
        """The legal moves (when private) whose notation verb is one of ``verbs``."""
        return [m for m in self.moves if m.verb in verbs]


class Host(Protocol):
    """What a control may ask of the widget that hosts it (the play widget).

    This is the whole of it: a control calls nothing else of its host.
    Each method that acts returns True when it did what was asked, False
    when it refused (the reason is then on the screen, next to what was
    clicked).

    >>> from ttr_lab.widgets import PlayWidget
    >>> w = PlayWidget("europe", players=["You", "bot"], seed=1)
    >>> host: Host = w  # the play widget is a Host
    >>> host.refuse("Nothing to do here.", private=False), w.status.splitlines()[-1]
    (False, 'Nothing to do here.')
    """

    #: the game on the board (read it; change it only through :meth:`play_move`)
    game: GameState

    def play_move(self, move: Move | str) -> bool:
        """Play ``move`` (a move or its notation) for the seat to move, then let the bots
        move; False, with the library's reason shown, if the library refuses it."""
        ...

    def draw_blind(self, pile: str | None = None) -> bool:
        """Draw the top card of ``pile`` (``None`` where the edition has one pile)."""
        ...

    def refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        """Show ``text`` as a refusal next to what was clicked (with the text of ``rule``,
        quoted from the rules reference); return False.  A ``private`` refusal tells the
        decider's own secrets (their hand...): it is dropped when someone else may be looking."""
        ...

    def hand_hidden(self) -> bool:
        """True, and the screen says so, when the person to decide has not shown their hand
        (hot-seat with hidden hands): a control then does nothing, not even a refusal that
        would tell what is in that hand."""
        ...

    def make_button(self, text: str, css: str, action: Callable[[], Any], **style: Any) -> Any:
        """A button labelled ``text`` with CSS class ``css`` (what browser tests select), that
        calls ``action()`` when pressed; a refusal it causes is shown next to it.  ``style``:
        more ``ipywidgets.Button`` keywords (``button_style="success"``)."""
        ...

    def choose_payment(self, options: Sequence[Move], what: str) -> bool:
        """Ask which of ``options`` (legal moves that differ only in the cards they pay) to
        play, in the widget's payment box (Confirm, Cancel); ``what`` names the purchase
        (``"Build in Roma"``)."""
        ...


def cards_of(move: Move) -> CardList | None:
    """The cards a move pays (``move.cards``), or None for a move without cards."""
    cards = getattr(move, "cards", None)
    return cards if isinstance(cards, tuple) else None


def move_classes(edition: Any, verb: str | None = None, *, field: str | None = None) -> list[type[Move]]:
    """The edition's move classes with this ``verb`` and/or a field named ``field``."""
    out = []
    for cls in edition.move_types:
        if verb is not None and cls.verb != verb:
            continue
        if field is not None and field not in {f.name for f in dataclasses.fields(cls)}:
            continue
        out.append(cls)
    return out


def hand_made(cls: type[Move], **values: Any) -> Move | None:
    """A move of class ``cls`` with these field values (fields not given keep
    their defaults), to ask ``why_illegal`` about; None if ``cls`` needs a
    field that was not given."""
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in values:
            kwargs[f.name] = values[f.name]
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            return None
    maker: Any = cls
    move: Move = maker(**kwargs)
    return move


def show(widget: Any, on: bool) -> None:
    """Show or hide a widget (its layout's ``display``)."""
    widget.layout.display = "flex" if on else "none"


class Control:
    """One control of the play widget, for the decisions of one edition rule.

    Subclasses set :attr:`name` (the name editions declare), :attr:`verbs`
    (the moves they play: the widget offers no other button for them) and
    :attr:`replaces` (parts of the widget's own controls they take over:
    ``"deck"``, the single deck button; ``"pieces"``, the trains column of
    the score table), build their widgets in ``__init__`` (with
    :meth:`Host.make_button` for buttons) and override the methods below
    that they need: the widget calls :meth:`refresh` after every change,
    places :meth:`row` and :meth:`side`, and asks the others when it
    writes the prompt, the score table and the board.  A control is made
    by the factory registered under its name
    (:func:`~ttr_lab.widgets.controls.register_control`), called with the
    host: the class itself is such a factory.
    """

    name: ClassVar[str] = ""
    verbs: frozenset[str] = frozenset()
    replaces: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def game(self) -> GameState:
        """The host's game."""
        return self.host.game

    # ------------------------------------------------------------------ layout
    def row(self) -> list[Any]:
        """Widgets shown beside the face-up cards."""
        return []

    def side(self) -> list[Any]:
        """Widgets shown in the side panel (decision boxes)."""
        return []

    # ------------------------------------------------------------------ updates
    def refresh(self, now: Decision) -> None:
        """Bring the control up to date; show nothing private unless ``now.private``."""

    def prompt(self) -> str | None:
        """The prompt (``"{name}: ..."``) when this control's decision is due, else None."""
        return None

    def turn_hint(self) -> str:
        """Words added to the prompt of a turn (``" or click a city to build a station"``)."""
        return ""

    def score_columns(self, seat: int) -> list[tuple[str, str]]:
        """(header, cell) pairs the control adds to the score table for ``seat`` (public facts only)."""
        return []

    def highlight(self) -> Iterable[int]:
        """Route ids to light up on the board (public facts only)."""
        return ()

    def city_click(self, city: str) -> bool | None:
        """A click on ``city``'s marker on the board: act on it and return whether a move
        was played, or None when this control does not take city clicks (the default)."""
        return None

    def faceup_refill(self) -> str | None:
        """The pile that refills a face-up slot, where the player chooses it."""
        return None

    def after_move(self, move: Move) -> str:
        """Public news after ``move`` was played (``"Pieces revealed: ..."``), or ``""``."""
        return ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
