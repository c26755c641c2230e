"""The base of the play widget's edition controls, and what they may ask of it.

An edition names the controls its decisions need
(``game.edition.widget_controls``: Europe ``("build", "tunnel")``, Rails &
Sails ``("piles", "pieces", "exchange", "build")``); the play widget builds
exactly those, from the registry in :mod:`ttr_lab.widgets.controls`.

A control

* finds its moves among the library's legal moves by their notation verb
  (``move.verb``), or by the move classes the edition lists
  (``edition.move_types``), never by the type of the state;
* reads edition state only through the accessors its rule documents
  (``game.tunnel``, ``game.trains(p)``...), which exist because the edition
  declared the control;
* decides nothing: it hands a move to :meth:`Host.play_move`, and a refusal
  quotes the library's ``why_illegal``;
* shows a decision only while :attr:`Decision.private` says the person
  deciding is the one looking at the screen (hot-seat, hidden hands).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..moves import CardList, Move

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

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
    """What a control may ask of the play widget."""

    game: GameState
    fig: Any

    def play_move(self, move: Move | str) -> bool: ...

    def draw_blind(self, pile: str | None = None) -> bool: ...

    def _refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool: ...

    def _blocked(self) -> bool: ...

    def _button(self, text: str, css: str, action: Callable[[], Any], **kw: Any) -> Any: ...

    def _choose_payment(self, options: Sequence[Move], what: str) -> bool: ...


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
    the score table).
    """

    name: ClassVar[str] = ""
    verbs: frozenset[str] = frozenset()
    replaces: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def game(self) -> GameState:
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

    def faceup_refill(self) -> str | None:
        """The pile that refills a face-up slot, where the player chooses it."""
        return None

    def after_move(self, move: Move) -> str:
        """Public news after ``move`` was played (``"Pieces revealed: ..."``), or ``""``."""
        return ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
