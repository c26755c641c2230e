"""Moves: small immutable values, one per decision, with a text notation.

A turn that draws two cards is two decisions (two moves); drawing tickets is
``DrawTickets`` followed by ``KeepTickets``.  ``state.phase`` says which kind of
decision is due.

Notation (``str(move)``; :func:`parse_move` reads it back):

==============================  ==========================================
``faceup 3``                    take face-up card in slot 3 (slots 1..5)
``faceup 3 refill ships``       ... and refill the slot from the ship pile
``blind``  / ``blind ships``    draw the top card of a pile
``stop``                        stop after one card (where the rules allow)
``claim 57 (Seattle-Portland) red:2 loco:1``
                                claim route 57 paying 2 red + 1 locomotive;
                                the bracketed route name is optional
``tickets``                     draw destination tickets
``keep 3 17``                   keep these drawn tickets (by id)
``station Wien red:2``          build a station (Europe)
``tunnel pay red:1``            pay a tunnel's extra cards (Europe)
``tunnel decline``              decline a tunnel's extra cards (Europe)
``harbor Lagos red:2 ...``      build a harbor (Rails & Sails)
``exchange trains 3``           take 3 trains from the box (Rails & Sails)
``pieces 20``                   choose 20 trains at setup (Rails & Sails)
``pass``                        no legal action: the turn passes
==============================  ==========================================

Examples
--------
>>> from ttr_lab.moves import parse_move, ClaimRoute
>>> m = parse_move("claim 57 (Seattle-Portland) red:2 loco:1")
>>> m
ClaimRoute(route=57, cards=(('loco', 1), ('red', 2)))
>>> str(m)
'claim 57 (Seattle-Portland) loco:1 red:2'
>>> parse_move(str(m)) == m
True
>>> sorted([parse_move("tickets"), parse_move("faceup 2"), parse_move("blind")])
[DrawFaceUp(slot=2), DrawBlind(), DrawTickets()]
"""

from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, field, fields
from typing import ClassVar, Iterable

from .errors import InvalidMoveError

__all__ = [
    "Move",
    "Pass",
    "DrawFaceUp",
    "DrawBlind",
    "StopDrawing",
    "ClaimRoute",
    "DrawTickets",
    "KeepTickets",
    "BuildStation",
    "PayTunnel",
    "DeclineTunnel",
    "BuildHarbor",
    "ExchangePieces",
    "ChoosePieces",
    "Cards",
    "cards_from_text",
    "cards_to_text",
    "parse_move",
]

Cards = tuple  # tuple[tuple[str, int], ...], sorted by card name, counts > 0


def normalize_cards(cards: Iterable[tuple[str, int]] | dict[str, int]) -> tuple[tuple[str, int], ...]:
    """Merge and sort a card multiset into the canonical tuple form.

    >>> normalize_cards({"red": 2, "loco": 1})
    (('loco', 1), ('red', 2))
    """
    items = cards.items() if isinstance(cards, dict) else cards
    merged: dict[str, int] = {}
    for name, n in items:
        if n:
            merged[name] = merged.get(name, 0) + n
    return tuple(sorted(merged.items()))


def cards_to_text(cards: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{name}:{n}" for name, n in cards)


_CARD_TOKEN = re.compile(r"^([a-z][a-z0-9_+\-]*):(\d+)$")


def cards_from_text(tokens: Iterable[str], text: str = "") -> tuple[tuple[str, int], ...]:
    out = []
    for tok in tokens:
        m = _CARD_TOKEN.match(tok)
        if not m:
            raise InvalidMoveError(f"bad card token {tok!r} in {text!r} (expected name:count, e.g. red:2)")
        n = int(m.group(2))
        if n <= 0:
            raise InvalidMoveError(f"card count must be positive in {tok!r} ({text!r})")
        out.append((m.group(1), n))
    return normalize_cards(out)


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    """Base class.  Moves sort by kind, then by their fields."""

    rank: ClassVar[int] = 99

    def sort_key(self) -> tuple:
        return (self.rank, self._fields())

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            if not f.repr:
                continue
            value = getattr(self, f.name)
            if f.default is not MISSING and value == f.default:
                continue
            parts.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _fields(self) -> tuple:
        return ()

    def __lt__(self, other: "Move") -> bool:
        return self.sort_key() < other.sort_key()

    def __le__(self, other: "Move") -> bool:
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: "Move") -> bool:
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: "Move") -> bool:
        return self.sort_key() >= other.sort_key()


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Move):
    """No legal action exists: the turn passes with no effect (RULES A1)."""

    rank: ClassVar[int] = 0

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class ChoosePieces(Move):
    """Rails & Sails setup: keep ``trains`` trains (the rest of the pieces are ships)."""

    trains: int
    rank: ClassVar[int] = 1

    def _fields(self) -> tuple:
        return (self.trains,)

    def __str__(self) -> str:
        return f"pieces {self.trains}"


@dataclass(frozen=True, slots=True, repr=False)
class DrawFaceUp(Move):
    """Take the face-up card in ``slot`` (1-based); ``refill`` names the pile
    that turns up the replacement where the player chooses (Rails & Sails)."""

    slot: int
    refill: str | None = None
    rank: ClassVar[int] = 2

    def _fields(self) -> tuple:
        return (self.slot, self.refill or "")

    def __str__(self) -> str:
        return f"faceup {self.slot}" + (f" refill {self.refill}" if self.refill else "")


@dataclass(frozen=True, slots=True, repr=False)
class DrawBlind(Move):
    """Draw the top card of a pile (``None`` = the only pile)."""

    pile: str | None = None
    rank: ClassVar[int] = 3

    def _fields(self) -> tuple:
        return (self.pile or "",)

    def __str__(self) -> str:
        return "blind" + (f" {self.pile}" if self.pile else "")


@dataclass(frozen=True, slots=True, repr=False)
class StopDrawing(Move):
    """End a card draw after one card (Rails & Sails, or option ``allow_single_draw``)."""

    rank: ClassVar[int] = 4

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True, repr=False)
class ClaimRoute(Move):
    """Claim route ``route`` (its id) paying ``cards`` ((name, count) pairs)."""

    route: int
    cards: tuple[tuple[str, int], ...]
    label: str = field(default="", compare=False, repr=False)
    rank: ClassVar[int] = 5

    def _fields(self) -> tuple:
        return (self.route, self.cards)

    def __str__(self) -> str:
        name = f" ({self.label})" if self.label else ""
        return f"claim {self.route}{name} {cards_to_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class PayTunnel(Move):
    """Pay the extra cards a tunnel asks for (Europe)."""

    cards: tuple[tuple[str, int], ...]
    rank: ClassVar[int] = 6

    def _fields(self) -> tuple:
        return (self.cards,)

    def __str__(self) -> str:
        return f"tunnel pay {cards_to_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class DeclineTunnel(Move):
    """Decline a tunnel's extra cards: the claim fails, the turn ends (Europe)."""

    rank: ClassVar[int] = 7

    def __str__(self) -> str:
        return "tunnel decline"


@dataclass(frozen=True, slots=True, repr=False)
class BuildStation(Move):
    """Build a station in ``city`` paying ``cards`` (Europe)."""

    city: str
    cards: tuple[tuple[str, int], ...]
    rank: ClassVar[int] = 8

    def _fields(self) -> tuple:
        return (self.city, self.cards)

    def __str__(self) -> str:
        return f"station {self.city} {cards_to_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class BuildHarbor(Move):
    """Build a harbor in ``city`` paying ``cards`` (Rails & Sails)."""

    city: str
    cards: tuple[tuple[str, int], ...]
    rank: ClassVar[int] = 9

    def _fields(self) -> tuple:
        return (self.city, self.cards)

    def __str__(self) -> str:
        return f"harbor {self.city} {cards_to_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class ExchangePieces(Move):
    """Take ``count`` pieces of kind ``take`` (trains/ships) from the box (Rails & Sails)."""

    take: str
    count: int
    rank: ClassVar[int] = 10

    def _fields(self) -> tuple:
        return (self.take, self.count)

    def __str__(self) -> str:
        return f"exchange {self.take} {self.count}"


@dataclass(frozen=True, slots=True, repr=False)
class DrawTickets(Move):
    """Draw destination tickets."""

    rank: ClassVar[int] = 11

    def __str__(self) -> str:
        return "tickets"


@dataclass(frozen=True, slots=True, repr=False)
class KeepTickets(Move):
    """Keep these of the tickets just drawn (ids, sorted)."""

    tickets: tuple[int, ...]
    rank: ClassVar[int] = 12

    def __post_init__(self) -> None:
        object.__setattr__(self, "tickets", tuple(sorted(self.tickets)))

    @classmethod
    def from_sorted(cls, tickets: tuple[int, ...]) -> "KeepTickets":
        """Fast constructor for an already sorted tuple (move generation)."""
        move = object.__new__(cls)
        object.__setattr__(move, "tickets", tickets)
        return move

    def _fields(self) -> tuple:
        return (self.tickets,)

    def __str__(self) -> str:
        return " ".join(["keep", *map(str, self.tickets)])


_CITY_AND_CARDS = re.compile(r"^(?P<city>.+?)((?:\s+[a-z][a-z0-9_+\-]*:\d+)+)$")


def _city_and_cards(rest: str, text: str) -> tuple[str, tuple[tuple[str, int], ...]]:
    m = _CITY_AND_CARDS.match(rest.strip())
    if not m:
        raise InvalidMoveError(f"expected a city then cards in {text!r}")
    return m.group("city").strip(), cards_from_text(m.group(2).split(), text)


def parse_move(text: str) -> Move:
    """Parse the notation produced by ``str(move)``.

    Raises :class:`~ttr_lab.errors.InvalidMoveError` quoting the text.

    >>> parse_move("keep 17 3")
    KeepTickets(tickets=(3, 17))
    >>> parse_move("fly to the moon")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.InvalidMoveError: unknown move 'fly to the moon' (expected one of: pass, faceup, blind, stop, claim, tickets, keep, station, tunnel, harbor, exchange, pieces)
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move's notation is a string, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move text")
    verb, args = words[0], words[1:]
    try:
        if verb == "pass" and not args:
            return Pass()
        if verb == "stop" and not args:
            return StopDrawing()
        if verb == "tickets" and not args:
            return DrawTickets()
        if verb == "faceup" and len(args) in (1, 3):
            if len(args) == 3 and args[1] != "refill":
                raise InvalidMoveError(f"expected 'faceup N refill PILE' in {text!r}")
            slot = int(args[0])
            if slot < 1:
                raise InvalidMoveError(f"face-up slots are numbered from 1 in {text!r}")
            return DrawFaceUp(slot, args[2] if len(args) == 3 else None)
        if verb == "blind" and len(args) <= 1:
            return DrawBlind(args[0] if args else None)
        if verb == "claim" and args:
            route = int(args[0])
            rest = args[1:]
            label = ""
            if rest and rest[0].startswith("("):
                joined = " ".join(rest)
                end = joined.find(")")
                if end < 0:
                    raise InvalidMoveError(f"unclosed '(' in {text!r}")
                label = joined[1:end]
                rest = joined[end + 1 :].split()
            if not rest:
                raise InvalidMoveError(f"a claim needs cards, e.g. 'claim 5 red:2', in {text!r}")
            return ClaimRoute(route, cards_from_text(rest, text), label)
        if verb == "keep":
            ids = [int(a) for a in args]
            if len(set(ids)) != len(ids):
                raise InvalidMoveError(f"a ticket is named twice in {text!r}")
            return KeepTickets(tuple(ids))
        if verb == "station" and args:
            city, cards = _city_and_cards(" ".join(args), text)
            return BuildStation(city, cards)
        if verb == "harbor" and args:
            city, cards = _city_and_cards(" ".join(args), text)
            return BuildHarbor(city, cards)
        if verb == "tunnel" and args == ["decline"]:
            return DeclineTunnel()
        if verb == "tunnel" and len(args) >= 2 and args[0] == "pay":
            return PayTunnel(cards_from_text(args[1:], text))
        if verb == "exchange" and len(args) == 2 and args[0] in ("trains", "ships"):
            return ExchangePieces(args[0], int(args[1]))
        if verb == "pieces" and len(args) == 1:
            return ChoosePieces(int(args[0]))
    except ValueError as e:
        if isinstance(e, InvalidMoveError):
            raise
        raise InvalidMoveError(f"bad number in {text!r}") from e
    verbs = "pass, faceup, blind, stop, claim, tickets, keep, station, tunnel, harbor, exchange, pieces"
    if verb in verbs.split(", "):
        raise InvalidMoveError(f"malformed {verb!r} move {text!r}")
    raise InvalidMoveError(f"unknown move {text!r} (expected one of: {verbs})")
