"""The cards of Rails & Sails (rule B4).

Two card piles, ``"trains"`` and ``"ships"``, and a six-card row (three of
each).  The cards, by their names in the move notation:

===============  ======  ==============================================  =====
name             pile    what it is                                      count
===============  ======  ==============================================  =====
``red``          trains  train card without the harbor symbol            7
``red-anchor``   trains  train card with the harbor (anchor) symbol      4
``red-ship``     ships   single-ship card (always has the anchor)        4
``red-ship2``    ships   double-ship card (covers 2 spaces, no anchor)   6
``wild``         trains  wild card (counts as bearing the anchor)        14
===============  ======  ==============================================  =====

with the first four for each of the colours pink, yellow, green, red, black
and white: 80 train cards and 60 ship cards.  Wilds discard to the train
pile.

>>> [c.name for c in RS_CARD_TYPES[:2]], RS_CARD_TYPES[WILD].name
(['pink', 'yellow'], 'wild')
"""

from __future__ import annotations

from ...engine.cards import CardType

__all__ = ["RS_COLORS", "RS_CARD_TYPES", "NC", "PLAIN", "ANCHOR", "SHIP1", "SHIP2", "WILD", "DECKS"]

#: The six colours of Rails & Sails, in card-index order.
RS_COLORS = ("pink", "yellow", "green", "red", "black", "white")


def _card_types() -> tuple[CardType, ...]:
    out = [CardType(c, c, pile=0, kind="train") for c in RS_COLORS]
    out += [CardType(f"{c}-anchor", c, pile=0, kind="train", anchor=True) for c in RS_COLORS]
    out += [CardType(f"{c}-ship", c, pile=1, kind="ship", value=1, anchor=True) for c in RS_COLORS]
    out += [CardType(f"{c}-ship2", c, pile=1, kind="ship", value=2, anchor=False) for c in RS_COLORS]
    out.append(CardType("wild", None, pile=0, kind="wild", anchor=True))  # wilds count as bearing the anchor (B4)
    return tuple(out)


#: Card types: plain trains 0-5, anchor trains 6-11, single ships 12-17,
#: double ships 18-23, wild 24.
RS_CARD_TYPES = _card_types()
NC = len(RS_COLORS)
PLAIN, ANCHOR, SHIP1, SHIP2, WILD = 0, NC, 2 * NC, 3 * NC, 4 * NC

#: per pile: (card index, count)
DECKS = (
    tuple((PLAIN + c, 7) for c in range(NC)) + tuple((ANCHOR + c, 4) for c in range(NC)) + ((WILD, 14),),
    tuple((SHIP1 + c, 4) for c in range(NC)) + tuple((SHIP2 + c, 6) for c in range(NC)),
)
