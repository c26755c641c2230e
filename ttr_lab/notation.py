"""Moves described in words for people (the notation itself is in :mod:`ttr_lab.moves`).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> describe_move(g, ttr_lab.parse_move("claim 1 red:1 loco:1"))
'claim Atlanta-Charleston (route 1, 2 gray) paying 1 loco + 1 red'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .moves import (
    BuildHarbor, BuildStation, ChoosePieces, ClaimRoute, DeclineTunnel, DrawBlind, DrawFaceUp,
    DrawTickets, ExchangePieces, KeepTickets, Move, Pass, PayTunnel, StopDrawing,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["describe_move", "cards_in_words"]


def cards_in_words(cards: tuple[tuple[str, int], ...]) -> str:
    return " + ".join(f"{k} {name}" for name, k in cards) or "nothing"


def describe_move(state: "GameState", move: Move) -> str:
    """A short sentence for the move in this position."""
    m = state.map
    if isinstance(move, DrawFaceUp):
        i = move.slot - 1
        card = state.row[i] if 0 <= i < len(state.row) else None
        text = f"take the face-up {card or 'card'} (slot {move.slot})"
        return text + (f", refill from the {move.refill} pile" if move.refill else "")
    if isinstance(move, DrawBlind):
        return "draw blind" + (f" from the {move.pile} pile" if move.pile else " from the deck")
    if isinstance(move, ClaimRoute):
        if m.has_route(move.route):
            r = m.route(move.route)
            what = f"{r.label()} (route {r.id}, {r.length} {r.color}{'' if r.kind == 'train' else ' ' + r.kind})"
        else:
            what = f"route {move.route}"
        return f"claim {what} paying {cards_in_words(move.cards)}"
    if isinstance(move, KeepTickets):
        names = [m.ticket(t).label() if m.has_ticket(t) else str(t) for t in move.tickets]
        return "keep " + ", ".join(names)
    if isinstance(move, DrawTickets):
        return "draw destination tickets"
    if isinstance(move, StopDrawing):
        return "stop after one card"
    if isinstance(move, Pass):
        return "pass (no legal action)"
    if isinstance(move, BuildStation):
        return f"build a station in {move.city} paying {cards_in_words(move.cards)}"
    if isinstance(move, PayTunnel):
        return f"pay the tunnel's extra {cards_in_words(move.cards)}"
    if isinstance(move, DeclineTunnel):
        return "decline the tunnel (take the cards back)"
    if isinstance(move, BuildHarbor):
        return f"build a harbor in {move.city} paying {cards_in_words(move.cards)}"
    if isinstance(move, ExchangePieces):
        return f"take {move.count} {move.take} from the box"
    if isinstance(move, ChoosePieces):
        return f"play with {move.trains} trains"
    return str(move)
