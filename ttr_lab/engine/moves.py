"""Moves: small immutable values, one per decision, with a text notation.

A turn that draws two cards is two decisions (two moves); drawing tickets is
``DrawTickets`` followed by ``KeepTickets``.  ``state.phase`` says which kind of
decision is due.

Every move class carries its own notation: a ``verb`` (the first word), a
``parse`` classmethod reading the words after it, ``__str__`` writing it,
a sort ``rank`` and ``describe(state)`` in words.  Defining a subclass with a
``verb`` registers it, so :func:`parse_move` reads the moves of every edition
without knowing them: an edition defines its own moves in its own package
(Europe's ``BuildStation``, Rails & Sails' ``BuildHarbor``...).  The base
class, the registry and :func:`parse_move` live in :mod:`ttr_lab.engine.move_base`;
this module re-exports them.

The base moves and their notation:

==============================  ==========================================
``faceup 3``                    take face-up card in slot 3 (slots 1..5)
``faceup 3 refill ships``       ... and refill the slot from the ship pile
``blind``  / ``blind ships``    draw the top card of a pile
``stop``                        stop after one card (where the rules allow)
``claim 57 (Kansas City-Oklahoma City) red:1 loco:1``
                                claim route 57 paying 1 red + 1 locomotive;
                                the bracketed route name is optional (and
                                checked when given)
``tickets``                     draw destination tickets
``keep 3 17``                   keep these drawn tickets (by id)
``pass``                        no legal action: the turn passes
==============================  ==========================================

A record may add what chance produced to a move (see :mod:`ttr_lab.records.chance`;
:func:`parse_move` ignores it): ``blind =red``,
``faceup 3 =loco/red,blue,green,white,black`` (the refill, then the row a
reset deals), ``tickets =3,17,25``, ``claim 45 red:3 =red,loco,blue`` (a
tunnel's reveal), ``?`` for what the recording seat could not see
(``blind =?``), and another seat's hidden decisions (``keep ? ?``,
``pieces ?``).

Examples
--------
>>> from ttr_lab.engine.moves import parse_move, ClaimRoute
>>> m = parse_move("claim 57 (Kansas City-Oklahoma City) red:1 loco:1")
>>> m
ClaimRoute(route=57, cards=(('loco', 1), ('red', 1)))
>>> str(m)
'claim 57 (Kansas City-Oklahoma City) loco:1 red:1'
>>> parse_move(str(m)) == m
True
>>> sorted([parse_move("tickets"), parse_move("faceup 2"), parse_move("blind")])
[DrawFaceUp(slot=2), DrawBlind(), DrawTickets()]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidMoveError
from ..io.numerals import read_number
from .move_base import MAX_MOVE_TEXT, Move, move_classes, parse_move, refuse_malformed, unregister_move
from .move_cards import (
    MAX_COUNT,
    CardList,
    _clip,
    card_list_problem,
    cards_from_text,
    cards_in_words,
    cards_to_text,
    city_and_cards,
    is_count,
    normalize_cards,
    show_value,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = [
    "Move",
    "Pass",
    "DrawFaceUp",
    "DrawBlind",
    "StopDrawing",
    "ClaimRoute",
    "DrawTickets",
    "KeepTickets",
    "CardList",
    "move_classes",
    "unregister_move",
    "normalize_cards",
    "cards_from_text",
    "cards_to_text",
    "cards_in_words",
    "city_and_cards",
    "card_list_problem",
    "is_count",
    "show_value",
    "MAX_COUNT",
    "parse_move",
    "refuse_malformed",
    "MAX_MOVE_TEXT",
]


_new = object.__new__
_set = object.__setattr__  # (a frozen dataclass's fields are set around its __setattr__)


def _int_arg(word: str, text: str) -> int:
    return read_number(word, what=f"bad number in {_clip(text)!r}", error=InvalidMoveError)


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Move):
    """No legal action exists: the turn passes with no effect (rule A1)."""

    verb: ClassVar[str] = "pass"
    rank: ClassVar[float] = 0

    def __str__(self) -> str:
        return "pass"

    def describe(self, state: GameState) -> str:
        return "pass (no legal action)"


@dataclass(frozen=True, slots=True, repr=False)
class DrawFaceUp(Move):
    """Take the face-up card in ``slot`` (1-based); ``refill`` names the pile
    that turns up the replacement where the player chooses (Rails & Sails)."""

    slot: int
    refill: str | None = None
    verb: ClassVar[str] = "faceup"
    rank: ClassVar[float] = 2

    def __post_init__(self) -> None:  # the common case checked inline (move generation builds many)
        slot, refill = self.slot, self.refill
        if (
            type(slot) is not int
            or not -MAX_COUNT <= slot <= MAX_COUNT
            or (refill is not None and type(refill) is not str)
        ):
            refuse_malformed(self)

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "refill"):
            return None
        slot = _int_arg(args[0], text)
        if slot < 1:
            raise InvalidMoveError(f"face-up slots are numbered from 1 in {_clip(text)!r}")
        return cls(slot, args[2] if len(args) == 3 else None)

    def problem(self) -> str | None:
        if not is_count(self.slot):
            return f"a face-up slot is a whole number, not {show_value(self.slot)}"
        if self.refill is not None and not isinstance(self.refill, str):
            return f"a refill pile is named by a string, not {show_value(self.refill)}"
        return None

    def _fields(self) -> tuple[Any, ...]:
        return (self.slot, self.refill or "")

    def __str__(self) -> str:
        return f"faceup {self.slot}" + (f" refill {self.refill}" if self.refill else "")

    def describe(self, state: GameState) -> str:
        i = self.slot - 1
        row = state.row
        card = row[i] if 0 <= i < len(row) else None
        text = f"take the face-up {card or 'card'} (slot {self.slot})"
        return text + (f", refill from the {self.refill} pile" if self.refill else "")


@dataclass(frozen=True, slots=True, repr=False)
class DrawBlind(Move):
    """Draw the top card of a pile (``None`` = the only pile)."""

    pile: str | None = None
    verb: ClassVar[str] = "blind"
    rank: ClassVar[float] = 3

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        return cls(args[0] if args else None) if len(args) <= 1 else None

    def problem(self) -> str | None:
        if self.pile is not None and not isinstance(self.pile, str):
            return f"a pile is named by a string, not {show_value(self.pile)}"
        return None

    def _fields(self) -> tuple[Any, ...]:
        return (self.pile or "",)

    def __str__(self) -> str:
        return "blind" + (f" {self.pile}" if self.pile else "")

    def describe(self, state: GameState) -> str:
        return "draw blind" + (f" from the {self.pile} pile" if self.pile else " from the deck")


@dataclass(frozen=True, slots=True, repr=False)
class StopDrawing(Move):
    """End a card draw after one card (Rails & Sails, or option ``allow_single_draw``)."""

    verb: ClassVar[str] = "stop"
    rank: ClassVar[float] = 4

    def __str__(self) -> str:
        return "stop"

    def describe(self, state: GameState) -> str:
        return "stop after one card"


@dataclass(frozen=True, slots=True, repr=False)
class ClaimRoute(Move):
    """Claim route ``route`` (its id) paying ``cards`` ((name, count) pairs)."""

    route: int
    cards: CardList
    label: str = field(default="", compare=False, repr=False)
    verb: ClassVar[str] = "claim"
    rank: ClassVar[float] = 5

    def __post_init__(self) -> None:  # the common case checked inline (move generation builds many)
        route, cards = self.route, self.cards
        if type(route) is int and -MAX_COUNT <= route <= MAX_COUNT and type(cards) is tuple:
            for card in cards:
                if type(card) is not tuple or len(card) != 2 or type(card[0]) is not str:
                    break
                k = card[1]
                if type(k) is not int or not 0 < k <= MAX_COUNT:
                    break
            else:
                return
        refuse_malformed(self)

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if not args:
            return None
        route = _int_arg(args[0], text)
        rest = args[1:]
        label = ""
        if rest and rest[0].startswith("("):
            end = next((i for i, w in enumerate(rest) if w.endswith(")")), -1)
            if end < 0:
                raise InvalidMoveError(f"unclosed '(' in {_clip(text)!r}")
            label = " ".join(rest[: end + 1])[1:-1]
            rest = rest[end + 1 :]
        if not rest:
            raise InvalidMoveError(f"a claim needs cards, e.g. 'claim 5 red:2', in {_clip(text)!r}")
        return cls(route, cards_from_text(rest, text), label)

    def problem(self) -> str | None:
        if not is_count(self.route):
            return f"a route is named by its whole-number id, not {show_value(self.route)}"
        return card_list_problem(self.cards)

    @classmethod
    def _unchecked(cls, route: int, cards: CardList, label: str = "") -> ClaimRoute:
        """The engine's move generation (payments built from its own tables):
        the move without the constructor's checks, which cost more than
        building it.  Never for values from outside the engine."""
        move = _new(cls)
        _set(move, "route", route)
        _set(move, "cards", cards)
        _set(move, "label", label)
        return move

    def _fields(self) -> tuple[Any, ...]:
        return (self.route, self.cards)

    def __str__(self) -> str:
        name = f" ({self.label})" if self.label else ""
        return f"claim {self.route}{name} {cards_to_text(self.cards)}"

    def describe(self, state: GameState) -> str:
        m = state.map
        if m.has_route(self.route):
            r = m.route(self.route)
            what = f"{r.label()} (route {r.id}, {r.length} {r.color}{'' if r.kind == 'train' else ' ' + r.kind})"
        else:
            what = f"route {self.route}"
        return f"claim {what} paying {cards_in_words(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class DrawTickets(Move):
    """Draw destination tickets."""

    verb: ClassVar[str] = "tickets"
    rank: ClassVar[float] = 11

    def __str__(self) -> str:
        return "tickets"

    def describe(self, state: GameState) -> str:
        return "draw destination tickets"


@dataclass(frozen=True, slots=True, repr=False)
class KeepTickets(Move):
    """Keep these of the tickets just drawn (ids, sorted)."""

    tickets: tuple[int, ...]
    verb: ClassVar[str] = "keep"
    rank: ClassVar[float] = 12

    def __post_init__(self) -> None:
        refuse_malformed(self)
        object.__setattr__(self, "tickets", tuple(sorted(self.tickets)))

    @classmethod
    def from_sorted(cls, tickets: tuple[int, ...]) -> KeepTickets:
        """Fast constructor for a tuple already in increasing order (move
        generation); it checks the tuple as the constructor does, and its order.

        >>> KeepTickets.from_sorted((3, 1))
        Traceback (most recent call last):
        ...
        ttr_lab.errors.InvalidMoveError: malformed KeepTickets move: from_sorted takes ids in increasing order, not (3, 1)
        """
        move = _new(cls)
        _set(move, "tickets", tickets)
        if type(tickets) is tuple:
            last = -MAX_COUNT - 1
            for t in tickets:
                if type(t) is not int or not last < t <= MAX_COUNT:
                    break
                last = t
            else:
                return move
        refuse_malformed(move)  # wrong types, a ticket named twice
        if list(tickets) != sorted(tickets):
            raise InvalidMoveError(
                f"malformed KeepTickets move: from_sorted takes ids in increasing order, not {show_value(tickets)}"
            )
        return move

    @classmethod
    def _unchecked(cls, tickets: tuple[int, ...]) -> KeepTickets:
        """The engine's move generation (ids in increasing order, from the
        tickets drawn): the move without any check.  Never for values from
        outside the engine."""
        move = _new(cls)
        _set(move, "tickets", tickets)
        return move

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        ids = [_int_arg(a, text) for a in args]
        if len(set(ids)) != len(ids):
            raise InvalidMoveError(f"a ticket is named twice in {_clip(text)!r}")
        return cls(tuple(ids))

    def problem(self) -> str | None:
        if not isinstance(self.tickets, tuple) or not all(is_count(t) for t in self.tickets):
            return f"tickets are a tuple of whole-number ids, not {show_value(self.tickets)}"
        if len(set(self.tickets)) != len(self.tickets):
            return "a ticket is named twice"
        return None

    def _fields(self) -> tuple[Any, ...]:
        return (self.tickets,)

    def __str__(self) -> str:
        return " ".join(["keep", *map(str, self.tickets)])

    def describe(self, state: GameState) -> str:
        m = state.map
        names = [m.ticket(t).label() if m.has_ticket(t) else str(t) for t in self.tickets]
        return "keep " + ", ".join(names)

    def announce(self, state: GameState) -> str:
        k = len(self.tickets)
        return f"keep {k} ticket{'s' if k != 1 else ''}"
