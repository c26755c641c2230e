"""Candidate moves for the advisor (:mod:`ttr_lab.analysis.advisor`): the
seat's legal moves pruned to a short list worth playing out.

The list, most promising first: the playout policy's own choice; a claim of
each of the first four routes of the cheapest ticket network (the Steiner
forest, :func:`~ttr_lab.analysis.network.next_claims`) and of the two
longest routes the hand pays for, each with its payment of fewest wilds
(then the colour the hand holds most of); one face-up draw per kind of card;
a blind draw; new tickets; two of the edition's own moves.  When the
decision is something else (choosing tickets, a tunnel, the setup split),
every legal move, up to ``limit``.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> len(candidate_moves(g.view(0))) == len(g.legal_moves)   # choosing tickets: every keep
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from ...bots.playout import PlayoutBot
from ...engine.checks import MAX_CANDIDATES, MAX_SEED, check_count, check_instance
from ...engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, Move, StopDrawing
from ...engine.view import PlayerView
from ...errors import TtrError
from ..network import next_claims

__all__ = ["candidate_moves", "SearchBot"]


# ------------------------------------------------------------------ candidates
def _legal(view: PlayerView) -> list[Move]:
    return list(view.legal_moves) if view.is_my_turn else []


def candidate_moves(view: PlayerView, *, limit: int = 10) -> list[Move]:
    """The pruned candidate moves for the view's seat, most promising first
    (see the module doc); ``[]`` when the seat is not to move.  ``limit``
    is 1 to :data:`~ttr_lab.engine.checks.MAX_CANDIDATES`."""
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_count(limit, "limit", high=MAX_CANDIDATES)

    moves = _legal(view)
    if len(moves) <= 1:
        return moves
    out: list[Move] = []

    def add(m: Move | None) -> None:
        if m is not None and m not in out and len(out) < limit:
            out.append(m)

    add(PlayoutBot(0).choose(view))
    claims: dict[int, list[ClaimRoute]] = {}
    draws: list[Move] = []
    tickets: list[Move] = []
    other: list[Move] = []
    for m in moves:
        if isinstance(m, ClaimRoute):
            claims.setdefault(m.route, []).append(m)
        elif isinstance(m, (DrawFaceUp, DrawBlind, StopDrawing)):
            draws.append(m)
        elif isinstance(m, DrawTickets):
            tickets.append(m)
        else:
            other.append(m)
    if not claims and not draws and not tickets:  # choosing tickets, a tunnel, the setup split...
        for m in other:
            add(m)
        return out
    hand = view.hand
    ed = view.edition
    wilds = {ed.card_types[i].name for i in ed.wild_cards}

    def pay(rid: int) -> ClaimRoute:
        def cost(m: ClaimRoute) -> tuple[int, int, str]:
            wild = sum(k for n, k in m.cards if n in wilds)
            spare = min((hand.get(n, 0) - k for n, k in m.cards), default=0)
            return (wild, -spare, str(m))

        return min(claims[rid], key=cost)

    if view.player == view.current_player and view.tickets:
        try:
            forest = [c.route for c in next_claims(view, view.player)]
        except TtrError:  # pragma: no cover - a view always shows its own tickets
            forest = []
        for rid in forest[:4]:
            if rid in claims:
                add(pay(rid))
    longest = sorted(claims, key=lambda rid: (-view.map.route(rid).length, rid))
    for rid in longest[:2]:
        add(pay(rid))
    seen: set[tuple[str | None, str | None]] = set()
    for m in draws:
        if isinstance(m, DrawFaceUp):
            kind = (view.row[m.slot - 1] if 0 < m.slot <= len(view.row) else None, m.refill)
            if kind in seen:
                continue
            seen.add(kind)
        add(m)
    for m in tickets + other[:2]:
        add(m)
    return out


class SearchBot(ABC):
    """What the advisor's and ISMCTS's bots share: a forced move (one
    candidate) is played without a search, else :meth:`search`'s top move,
    with a seed per ply (``(seed * 7919 + ply) % (MAX_SEED + 1)``); ``calls``
    counts the searches."""

    name = "search"

    def __init__(self, seed: int, playouts: int | None, seconds: float, candidates: int) -> None:
        self.seed, self.playouts, self.seconds, self.candidates = seed, playouts, seconds, candidates
        self._fallback = PlayoutBot(seed)
        self.calls = 0

    @abstractmethod
    def search(self, view: PlayerView, seed: int) -> Any:  # pragma: no cover - each bot has its own
        """The search's answer (an :class:`~.values.Advice`) for ``view``."""

    def choose(self, view: PlayerView) -> Move:
        moves = candidate_moves(view, limit=self.candidates)
        if len(moves) <= 1:  # forced (or only the policy's idea): no search needed
            return moves[0] if moves else self._fallback.choose(view)
        self.calls += 1
        move: Move = self.search(view, (self.seed * 7919 + view.ply) % (MAX_SEED + 1)).moves[0].move
        return move
