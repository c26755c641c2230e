"""Where the tickets are, as one seat knows it: the ticket side of
:mod:`ttr_lab.analysis.hidden`, with the Metropolis moves that draw
another seat's unseen tickets from their posterior given its play (the
likelihood is :mod:`ttr_lab.analysis.hidden.ticket_likelihood`).

The ticket deck is a queue (draws from the top, returns underneath, A5;
Europe's unkept initial tickets go to the box, B3).  :class:`TicketTracker`
replays the seat's history with one *token* per physical ticket: a token's
identity is known (the seat's own tickets, the ones it was offered) or
unknown until a sample deals one.  Which of its drawn tickets another seat
kept is drawn at random among the choices that agree with what the seat
later saw: if the seat draws a ticket another seat returned, the token at
that place must be that ticket (found by a first replay that follows the
places only).

Examples
--------
>>> import ttr_lab, random
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> g.play(g.legal_moves[0]); g.play(g.legal_moves[0])
>>> v = g.view(0)
>>> deal = TicketTracker(v, v.history()).deal_retrying(random.Random(1))
>>> deal.tickets[0] == tuple(t.id for t in v.tickets), len(deal.tickets[1]), len(deal.deck)
(True, 2, 26)
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.moves import ClaimRoute, DrawTickets
from ...engine.phases import Phase
from ...errors import TtrError
from .ticket_chain import Metropolis, Retry
from .ticket_chain import Token as _Token
from .ticket_likelihood import ClaimLikelihood, ticket_weight

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView, SeenHistory

__all__ = ["TicketDeal", "TicketTracker", "ClaimLikelihood", "ticket_weight", "Retry"]

RETRIES = 200


@dataclass(frozen=True)
class TicketDeal:
    """Every ticket placed: ``tickets`` per seat (in the order kept),
    ``pending`` (the chooser's), ``setup_deal`` (during setup), ``deck``
    (bottom to top) and Europe's ``box``."""

    tickets: tuple[tuple[int, ...], ...]
    pending: tuple[int, ...]
    setup_deal: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    box: tuple[int, ...]


class TicketTracker:
    """The seat's ticket history, replayed to deal the unknown tickets."""

    def __init__(self, view: PlayerView, hist: SeenHistory) -> None:
        ed = view.edition
        self.view, self.hist = view, hist
        self.me, self.n = view.player, view.num_players
        self.universe = tuple(ed.ticket_universe())
        self.allowed = {
            "deck": frozenset(ed.ticket_deck()),
            "long": frozenset(ed.long_tickets),
            "any": frozenset(self.universe),
        }
        self.to_box = ed.ticket_box  # unkept initial tickets go to the box
        self.draw = ed.draw_tickets[0]
        st = hist.start
        if st.phase == Phase.SETUP_TICKETS:
            self.deal_size = ed.setup_deal_size()
        self.req: dict[int, dict[int, int]] = {}
        self._replay(None)  # the first replay: which returned places the seat later sees

    # ------------------------------------------------------------------ the replay
    def _replay(self, rng: random.Random | None) -> dict[str, Any]:
        st, me, n = self.hist.start, self.me, self.n
        assigned: dict[int, _Token] = {}

        def known(i: int) -> _Token:
            t = assigned[i] = _Token("any", i)
            return t

        deck = [_Token("deck") for _ in range(st.ticket_deck_size)]
        hands: list[list[list[_Token]]] = [
            [[known(t.id) for t in st.tickets]] if q == me else [[_Token("any") for _ in range(st.ticket_counts[q])]]
            for q in range(n)
        ]
        start = st.phase == Phase.SETUP_TICKETS and not any(st.ticket_counts)
        box = [_Token("long" if start else "any") for _ in range(self.view.edition.ticket_box_size(st))]
        choosers: list[int] = []
        keeps: list[tuple[int, Any, list[_Token], Any]] = []  # another seat's choices and draws
        deals: dict[int, list[_Token]] = {}
        pending: list[_Token] = []
        cur = st.current_player
        hidden = len(self.universe) - st.ticket_deck_size - sum(st.ticket_counts) - len(box)
        if st.phase == Phase.SETUP_TICKETS:
            first = st.counters["first_player"]
            q = cur
            while True:
                choosers.append(q)
                q = (q + 1) % n
                if q == first:
                    break
            for q in choosers:
                if q == me and q == cur:
                    deals[q] = [known(t.id) for t in st.pending_tickets]
                else:
                    shape = (["long"] if self.to_box and self.allowed["long"] else []) + ["deck"] * (
                        self.deal_size - (1 if self.to_box and self.allowed["long"] else 0)
                    )
                    deals[q] = [_Token(p) for p in shape]
            if sum(len(d) for d in deals.values()) != hidden:
                raise TtrError("the tickets dealt at setup do not add up")
            pending = deals[cur]
        elif st.phase == Phase.KEEP_TICKETS:
            pending = (
                [known(t.id) for t in st.pending_tickets] if cur == me else [_Token("deck") for _ in range(hidden)]
            )

        def observe(tokens: list[_Token], ids: tuple[int, ...]) -> None:
            for t, i in zip(tokens, ids):
                if rng is None:
                    if t.tag is not None:
                        self.req.setdefault(t.tag[0], {})[t.tag[1]] = i
                elif t.id is None:
                    if i in assigned or i not in self.allowed[t.pool]:
                        raise Retry
                    t.id = i
                    assigned[i] = t
                elif t.id != i:
                    raise Retry

        final = {q: set(self.view.routes_of(q)) for q in range(n)}
        claimed = {q: list(st.routes_of(q)) for q in range(n)}
        for ply in self.hist.plies:
            q = ply.seat
            if isinstance(ply.move, ClaimRoute) and ply.move.route in final[q]:
                claimed[q].append(ply.move.route)
            if isinstance(ply.move, DrawTickets):
                if rng is not None and q != me:  # the seat asked for more: its tickets were done
                    keeps.append((q, None, [t for g in hands[q] for t in g], frozenset(claimed[q])))  # type: ignore[arg-type]
                pending = [deck.pop() for _ in range(min(self.draw, len(deck)))]
            elif ply.kept is not None:
                setup = bool(choosers) and choosers[0] == q
                if q == me:
                    observe(pending, ply.offered)
                    keep = set(ply.move.tickets)  # type: ignore[union-attr]
                    kept = [t for t, i in zip(pending, ply.offered) if i in keep]  # by place: both replays alike
                    returned = [t for t, i in zip(pending, ply.offered) if i not in keep]
                else:
                    kept, returned = self._split(ply.ply, pending, ply.kept, rng, assigned)
                    keeps.append((q, setup, kept, returned))
                hands[q].append(kept)
                if setup and self.to_box:
                    box += returned
                else:
                    deck = list(reversed(returned)) + deck
                pending = []
                if setup:
                    choosers.pop(0)
                    pending = deals[choosers[0]] if choosers else []
        if self.view.pending_tickets:  # the seat is choosing now: it sees what it chooses from
            observe(pending, tuple(t.id for t in self.view.pending_tickets))
        return {
            "deck": deck,
            "hands": hands,
            "pending": pending,
            "deals": deals,
            "choosers": choosers,
            "box": box,
            "assigned": assigned,
            "keeps": keeps,
        }

    def _split(
        self, ply: int, pending: list[_Token], kept: int, rng: random.Random | None, assigned: dict[int, _Token]
    ) -> tuple[list[_Token], list[_Token]]:
        """Another seat kept ``kept`` of ``pending``: which (at random, agreeing with what the seat saw later)."""
        r = len(pending) - kept
        if rng is None:  # the first replay follows places: returned places get tags
            return pending[:kept], [_Token("any", tag=(ply, j)) for j in range(r)]
        req = self.req.get(ply, {})

        def fits(combo: tuple[int, ...]) -> bool:
            for j, y in req.items():
                t = pending[combo[j]]
                if t.id != y and (t.id is not None or y in assigned or y not in self.allowed[t.pool]):
                    return False
            return True

        combos = [c for c in itertools.combinations(range(len(pending)), r) if fits(c)]
        if not combos:
            raise Retry
        combo = rng.choice(combos)
        for j, y in req.items():
            t = pending[combo[j]]
            if t.id is None:
                t.id = y
                assigned[y] = t
        back = set(combo)
        return [t for i, t in enumerate(pending) if i not in back], [pending[i] for i in combo]

    # ------------------------------------------------------------------ a deal
    def deal(self, rng: random.Random, like: ClaimLikelihood | None = None, sweeps: int = 0) -> TicketDeal:
        """One placement of every ticket; raises :class:`Retry` when a random choice led nowhere.

        With ``like``, the tickets never seen are then moved by ``sweeps``
        Metropolis sweeps towards the posterior given the claims (see
        :class:`ClaimLikelihood`)."""
        out, unseen = self.start(rng)
        if like is not None and sweeps > 0:
            Metropolis(self, out, unseen, like).run(sweeps, rng)
        return self.deal_of(out)

    def start(self, rng: random.Random) -> tuple[dict[str, Any], list[_Token]]:
        """A replay with the unseen tickets dealt uniformly: the tokens (the
        replay's ``out``) and the unseen ones; raises :class:`Retry`."""
        out = self._replay(rng)
        assigned: dict[int, _Token] = out["assigned"]
        held = [out["deals"][q] for q in out["choosers"][1:]] + [out["pending"], out["deck"], out["box"]]
        tokens = [t for groups in out["hands"] for g in groups for t in g] + [t for part in held for t in part]
        free = [i for i in self.universe if i not in assigned]
        unseen: list[_Token] = []
        for pool in ("long", "deck", "any"):
            want = [t for t in tokens if t.id is None and t.pool == pool]
            ok = [i for i in free if i in self.allowed[pool]]
            if len(ok) < len(want):
                raise Retry
            rng.shuffle(ok)
            for t, i in zip(want, ok):
                t.id = i
            unseen += want
            taken = set(ok[: len(want)])
            free = [i for i in free if i not in taken]
        if not self._longs_ok(out):
            raise Retry
        return out, unseen

    def deal_of(self, out: dict[str, Any]) -> TicketDeal:
        """The :class:`TicketDeal` of a replay's tokens as they are now."""
        ids = lambda ts: tuple(t.id for t in ts)
        tickets = tuple(
            ids(groups[0]) + tuple(i for g in groups[1:] for i in sorted(ids(g))) for groups in out["hands"]
        )
        setup: tuple[tuple[int, ...], ...] = ()
        if self.view.phase == Phase.SETUP_TICKETS:
            setup = tuple(ids(out["deals"][q]) if q in out["deals"] else tickets[q] for q in range(self.n))
        return TicketDeal(tickets, ids(out["pending"]), setup, ids(out["deck"]), ids(out["box"]))  # type: ignore[arg-type]

    def _longs_ok(self, out: dict[str, Any]) -> bool:
        """Europe: at most one long ticket dealt to each player."""
        longs = self.allowed["long"]
        if not (longs and self.to_box):
            return True
        for q, groups in enumerate(out["hands"]):
            mine = [t for g in groups for t in g] + (out["deals"].get(q, []) if q in out["choosers"] else [])
            if sum(t.id in longs for t in mine) > 1:
                return False
        return True

    def deal_retrying(self, rng: random.Random, like: ClaimLikelihood | None = None, sweeps: int = 0) -> TicketDeal:
        for _ in range(RETRIES):
            try:
                return self.deal(rng, like, sweeps)
            except Retry:
                continue
        raise TtrError(f"no consistent ticket placement found in {RETRIES} attempts")
