"""The Metropolis chain over another seat's unseen tickets, and a chain that
draws one guessed ticket placement after another.

A placement starts from a replay of the seat's ticket history with the
tickets never seen dealt uniformly (:meth:`TicketTracker.start
<ttr_lab.analysis.hidden.TicketTracker.start>`); :class:`Metropolis` then
swaps unseen tickets between another seat and the places the seat cannot
tell apart, each swap kept with probability ``min(1, likelihood ratio)``
(the likelihood is :class:`~ttr_lab.analysis.hidden.ClaimLikelihood`'s), so
the placements tend to the posterior given the other seats' play.

:class:`TicketChain` draws a stream of placements (``iter_states(...,
weighted=True)``) from ``chains`` independent chains taken in turn.  Each
starts afresh (a new replay: which tickets the other seats kept, re-drawn)
with ``sweeps`` sweeps every ``restart`` of its placements; in between, its
next placement is the chain moved on (thinning): the tickets no likelihood
factor reads (the ticket deck's order) shuffled, an exact Gibbs step, then
``thin`` sweeps that propose every unseen ticket of the other seats.  Every
placement has had at least ``sweeps`` sweeps, so each is drawn from the
same posterior as a fresh run of as many sweeps (a Markov chain moved on by
a kernel that leaves its target unchanged stays on target), at a fraction
of the cost.  Placements of one chain are correlated; taking the chains in
turn keeps the first ``chains`` placements independent (a small budget's
states are as varied as fresh ones), and the cards are dealt afresh for
every state.  ``restart=1`` gives a fresh placement for every state (with
``sweeps=30``, the sampler before the chain, draw for draw).  Tested in
``tests/test_ticket_chain.py``: the marginals of the guessed tickets
against fresh runs of twice the sweeps.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from .ticket_knowledge import TicketDeal, TicketTracker
    from .ticket_likelihood import ClaimLikelihood

__all__ = ["Metropolis", "TicketChain", "Retry", "Token", "RESTART", "THIN", "CHAINS"]

#: placements per fresh start of a :class:`TicketChain` (1: every placement afresh)
RESTART = 64
#: Metropolis sweeps between two placements of a chain
THIN = 4
#: independent chains taken in turn: the first CHAINS states are fresh starts,
#: so a small budget sees as many ticket guesses as the sampler before the chain gave it
CHAINS = 16


class Retry(TtrError):
    """A random choice of this attempt led nowhere: draw again."""


class Token:
    """One physical ticket of the replay: its id (None until dealt), the
    pool it comes from, and a tag (the first replay's returned places)."""

    __slots__ = ("id", "pool", "tag")

    def __init__(self, pool: str, id: int | None = None, tag: tuple[int, int] | None = None) -> None:
        self.id, self.pool, self.tag = id, pool, tag


class Metropolis:
    """Swap the ids of two unseen tickets (one held by another seat) with
    the Metropolis rule: a symmetric proposal over the placements the seat
    cannot tell apart, kept with probability ``min(1, posterior ratio)``
    (the claims of the seats holding them, and every choice of tickets they
    took part in).  Built once per replay; :meth:`run` moves the tokens'
    ids in place and can be called again to move the chain on."""

    def __init__(
        self,
        tracker: TicketTracker,
        out: dict[str, Any],
        unseen: list[Token],
        like: ClaimLikelihood,
        every: bool = False,
    ) -> None:
        self.tracker, self.out, self.unseen, self.like = tracker, out, unseen, like
        me = tracker.me
        owner: dict[int, int] = {}
        held: dict[int, list[Token]] = {}
        for q, groups in enumerate(out["hands"]):
            if q != me:
                held[q] = [t for g in groups for t in g]
                for t in held[q]:
                    owner[id(t)] = q
        self.held = held
        self.keeps: list[tuple[int, Any, list[Token], Any]] = out["keeps"]
        in_keep: dict[int, list[int]] = {}
        for k, (_, setup, kept, back) in enumerate(self.keeps):
            for t in kept + (back if setup is not None else []):
                in_keep.setdefault(id(t), []).append(k)
        # per unseen token, looked up once: its owner, its keep records, the ids it may take
        self.own = [owner.get(id(t)) for t in unseen]
        self.kin = [in_keep.get(id(t), []) for t in unseen]
        self.alw = [tracker.allowed[t.pool] for t in unseen]
        # the tokens proposed for a swap: another seat's that the likelihood reads
        # (a fresh placement's); a chain's (``every``): all of them, so a seat
        # that claimed nothing gets new tickets too (any symmetric proposal has
        # the same target)
        self.mov = [
            i for i, q in enumerate(self.own) if q is not None and (every or like.informative(q) or self.kin[i])
        ]
        # the tokens no factor of the likelihood reads (the deck's, the box's, ...), by pool:
        # given the others, their ids are exchangeable (see :meth:`shuffle`)
        self.free: list[list[int]] = []
        for pool in ("long", "deck", "any"):
            idx = [i for i, t in enumerate(unseen) if t.pool == pool and self.own[i] is None and not self.kin[i]]
            if len(idx) > 1:
                self.free.append(idx)
        self.logw = {q: self.claims(q) for q in held}
        self.logk = [self.keep(k) for k in range(len(self.keeps))]

    def claims(self, q: int) -> float:
        return self.like.logw(q, [t.id for t in self.held[q]])  # type: ignore[misc]

    def keep(self, k: int) -> float:
        q, setup, kept, back = self.keeps[k]
        if setup is None:  # a draw of new tickets, with these routes
            return self.like.draw_logw(back, [t.id for t in kept])  # type: ignore[misc]
        return self.like.keep_logw(q, setup, [t.id for t in kept], [t.id for t in back])  # type: ignore[misc]

    def shuffle(self, rng: random.Random) -> None:
        """A Gibbs step: the ids of the tokens no likelihood factor reads (in
        the ticket deck, say) put in a uniformly random order within each
        pool, the exact conditional given the rest (kept only if Europe's
        one-long-ticket rule still holds: a symmetric proposal)."""
        unseen = self.unseen
        for idx in self.free:
            ids = [unseen[i].id for i in idx]
            new = ids[:]
            rng.shuffle(new)
            for i, x in zip(idx, new):
                unseen[i].id = x
            if not self.tracker._longs_ok(self.out):
                for i, x in zip(idx, ids):
                    unseen[i].id = x

    def run(self, sweeps: int, rng: random.Random) -> None:
        """``sweeps`` sweeps: each proposes, on average, one move of every movable ticket."""
        mov, unseen, own, kin, alw, logw, logk = (
            self.mov,
            self.unseen,
            self.own,
            self.kin,
            self.alw,
            self.logw,
            self.logk,
        )
        nm, nu = len(mov), len(unseen)
        if not nm or nu < 2:
            return
        claims, keep, out = self.claims, self.keep, self.out
        below = getattr(rng, "_randbelow", rng.randrange)  # randrange(n) is _randbelow(n): the same draws
        rand, exp, longs_ok = rng.random, math.exp, self.tracker._longs_ok
        for _ in range(sweeps * nm):
            ia = mov[below(nm)]
            ib = below(nu)
            qa, qb = own[ia], own[ib]
            if qa == qb:
                continue
            a, b = unseen[ia], unseen[ib]
            xa, xb = a.id, b.id
            if xa not in alw[ib] or xb not in alw[ia]:
                continue
            a.id, b.id = xb, xa
            na = claims(qa)  # type: ignore[arg-type]
            terms: list[float] = [na - logw[qa]]  # type: ignore[index]
            if qb is not None:
                nb = claims(qb)
                terms.append(nb - logw[qb])
            d = sum(terms)  # sums as the plain form's sum() does them: the same floats, the same accept/reject
            ka, kb = kin[ia], kin[ib]
            newk = [(k, keep(k)) for k in (set(ka) | set(kb))] if ka or kb else []
            delta = d + sum([x - logk[k] for k, x in newk])
            if (delta >= 0 or rand() < exp(delta)) and longs_ok(out):
                logw[qa] = na  # type: ignore[index]
                if qb is not None:
                    logw[qb] = nb
                for k, x in newk:
                    logk[k] = x
            else:
                a.id, b.id = xa, xb


class TicketChain:
    """Guessed ticket placements one after another (see the module doc):
    ``chains`` independent chains taken in turn, each started afresh with
    ``sweeps`` sweeps every ``restart`` of its placements and else moved on
    by ``thin`` sweeps from its previous one."""

    def __init__(self, tracker: TicketTracker, like: ClaimLikelihood, sweeps: int, *, restart: int = RESTART,
                 thin: int = THIN, chains: int = CHAINS) -> None:  # fmt: skip
        self.tracker, self.like, self.sweeps = tracker, like, sweeps
        self.restart, self.thin = max(1, restart), thin
        self._chains: list[Metropolis | None] = [None] * max(1, chains)
        self._left = [0] * len(self._chains)
        self._turn = 0

    def next(self, rng: random.Random) -> TicketDeal:
        """The next placement; raises :class:`Retry` when a fresh start led nowhere."""
        i = self._turn
        chain = self._chains[i]
        if self._left[i] <= 0 or chain is None:
            self._chains[i] = None
            out, unseen = self.tracker.start(rng)
            chain = Metropolis(self.tracker, out, unseen, self.like, every=self.restart > 1)
            if self.sweeps > 0:
                chain.run(self.sweeps, rng)
            self._chains[i], self._left[i] = chain, self.restart
        else:
            chain.shuffle(rng)
            chain.run(self.thin, rng)
        self._left[i] -= 1
        self._turn = (i + 1) % len(self._chains)
        return self.tracker.deal_of(chain.out)
