"""Card types and payment arithmetic shared by every edition.

Cards are small integers indexing an edition's ``card_types``; a hand is a
tuple of counts, one per card type.  Moves name cards by their text name
(``"red"``, ``"loco"``), so a move means the same thing in every position.

Examples
--------
>>> from ttr_lab.engine.cards import STANDARD_CARD_TYPES, basic_payment_options
>>> [c.name for c in STANDARD_CARD_TYPES][-2:]
['black', 'loco']
>>> # a 3-space gray route, hand: 2 red, 1 blue, 1 locomotive
>>> basic_payment_options(color=None, length=3, counts=[2, 1], wilds=1)
[(0, 2, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CardType",
    "USA_COLORS",
    "STANDARD_CARD_TYPES",
    "basic_payment_options",
]

#: The eight train-card colours of USA and Europe, in card-index order.
USA_COLORS = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black")


@dataclass(frozen=True)
class CardType:
    """One kind of card.

    ``color`` is ``None`` for a wild; ``pile`` indexes the edition's piles;
    ``kind`` is ``"train"``, ``"ship"`` or ``"wild"``; ``value`` is the number
    of spaces it covers (2 for a double-ship card); ``anchor`` marks the
    harbor symbol (Rails & Sails).
    """

    name: str
    color: str | None
    pile: int = 0
    kind: str = "train"
    value: int = 1
    anchor: bool = False

    @property
    def wild(self) -> bool:
        return self.color is None


#: The cards of USA and Europe: the eight colours (indices 0-7), then the locomotive (8).
STANDARD_CARD_TYPES = tuple(CardType(c, c) for c in USA_COLORS) + (CardType("loco", None, kind="wild"),)


def basic_payment_options(
    *, color: int | None, length: int, counts: list[int] | tuple[int, ...], wilds: int, min_wilds: int = 0
) -> list[tuple[int | None, int, int]]:
    """Every payment of a plain route (rule A4): one colour, wilds standing in.

    ``color`` is the index (into ``counts``) of the route's colour, or ``None``
    for a gray route; ``counts`` are the player's non-wild cards by colour;
    ``wilds`` the player's wild cards; ``min_wilds`` the wilds every payment
    must include (a ferry's locomotive spaces, B3).  Payments differ by the
    colour used and the number of wilds; an all-wild payment counts once.
    Returns ``(colour index or None, coloured cards, wilds)`` triples.

    >>> basic_payment_options(color=None, length=2, counts=[1, 0, 2], wilds=2)
    [(None, 0, 2), (0, 1, 1), (2, 2, 0), (2, 1, 1)]
    """
    out: list[tuple[int | None, int, int]] = []
    if wilds >= length:
        out.append((None, 0, length))
    top = min(wilds, length - 1)
    colors = range(len(counts)) if color is None else (color,)
    for ci in colors:
        c = counts[ci]
        if not c:
            continue
        lo = max(length - c if c < length else 0, min_wilds)
        for k in range(lo, top + 1):
            out.append((ci, length - k, k))
    return out
