"""Which card to draw for the routes a bot wants: what the greedy and the FDG bots share.

Both bots count the spaces still to pay on the routes they want, per
*(ship route?, colour)* (:data:`Needs`), against the spaces their hand
covers (:func:`hand_spaces`: a card covers one space, a double ship two),
then draw the face-up card of the kind short the most
(:func:`needed_draw`), refilling from the pile needed more where the
refill is the player's choice (Rails & Sails).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> v = g.view(0)
>>> sum(hand_spaces(v).values()) == sum(v.hand.values()) - v.hand.get("locomotive", 0)
True
>>> shortfall({(False, "red"): 4, (True, "blue"): 2}, {(False, "red"): 1})
{False: 3, True: 2}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.moves import DrawBlind, DrawFaceUp, Move

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.view import PlayerView

__all__ = ["Needs", "hand_spaces", "shortfall", "refill_choice", "needed_draw"]

#: spaces to pay (or covered by the hand) per (ship route?, colour; None: gray)
Needs = dict[tuple[bool, "str | None"], int]


def hand_spaces(view: PlayerView) -> Needs:
    """The spaces the seat's hand covers per (ship?, colour), wilds left out."""
    types, index = view.edition.card_types, view.edition.card_index
    have: Needs = {}
    for name, k in view.hand.items():
        ct = types[index[name]]
        if not ct.wild:
            key = (ct.kind == "ship", ct.color)
            have[key] = have.get(key, 0) + k * ct.value
    return have


def shortfall(want: Needs, have: Needs) -> dict[bool, int]:
    """Spaces still unpaid on train routes (False) and ship routes (True)."""
    short: dict[bool, int] = {}
    for key, n in want.items():
        short[key[0]] = short.get(key[0], 0) + max(0, n - have.get(key, 0))
    return short


def refill_choice(view: PlayerView, moves: list[Move], take: DrawFaceUp, want: Needs, have: Needs) -> Move:
    """``take``, refilled from the pile whose kind of card is needed more where the
    refill is the player's choice (Rails & Sails)."""
    if take.refill is None:
        return take
    short, ships = shortfall(want, have), view.edition.ship_piles
    options = [mv for mv in moves if isinstance(mv, DrawFaceUp) and mv.slot == take.slot]
    return max(options, key=lambda mv: (short.get(mv.refill in ships, 0), mv.refill not in ships))


def needed_draw(view: PlayerView, moves: list[Move], want: Needs, have: Needs) -> Move | None:
    """The face-up card (not a wild) of the kind short the most, the first such
    slot on a tie; else, with several blind piles, the pile of the kind needed
    more; else None (the caller draws as it likes)."""
    types, index = view.edition.card_types, view.edition.card_index
    row = view.row
    best: tuple[int, DrawFaceUp] | None = None
    for mv in moves:
        if isinstance(mv, DrawFaceUp):
            card = row[mv.slot - 1]
            face = types[index[card]] if card else None
            if face is None or face.wild:
                continue
            short = want.get((face.kind == "ship", face.color), 0) - have.get((face.kind == "ship", face.color), 0)
            if short > 0 and (best is None or short > best[0]):
                best = (short, mv)
    if best is not None:
        return refill_choice(view, moves, best[1], want, have)
    blind = [mv for mv in moves if isinstance(mv, DrawBlind)]
    if len(blind) > 1:  # several piles: the kind of card needed more
        short_by, ships = shortfall(want, have), view.edition.ship_piles
        return max(blind, key=lambda mv: (short_by.get(mv.pile in ships, 0), mv.pile not in ships))
    return None
