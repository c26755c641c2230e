"""Determinization: complete game states consistent with what one seat knows.

:func:`sample_states` turns a :class:`~ttr_lab.engine.view.PlayerView` into full
:class:`~ttr_lab.engine.state.GameState` objects (the other hands, the other
tickets, the deck order filled in) for Monte Carlo analysis.  It reads the
view only, and builds every state through :meth:`GameState.from_dict`, so
each sample passes ``problems() == []``.

What the seat knows (the knowledge model)
-----------------------------------------
Public: everything a :class:`~ttr_lab.engine.view.PlayerView` shows, the cards on
each discard pile (every card reaches a discard face up: a payment, a
tunnel's reveal, a reset row), how many cards of each pile every hand holds
(trains and ships have different backs), and the game's history as the seat
saw it (:meth:`~ttr_lab.engine.view.PlayerView.history`).  Private: its own hand,
tickets and pending tickets, the cards it drew blind and the tickets it was
offered, kept and returned.

Cards.  The seat remembers, for every other hand, the *known cards*: a
face-up card taken is known to be there; a claim shows its cards (a
declined tunnel's stay known); a payment removes them.  Every other card a
hand holds is *unseen*, and remembered with the deck it came from: the deck
is shuffled once at the start and again each time the discard replaces the
empty deck, and the seat knows what each of those decks held (the full
composition less the cards it saw dealt, or the discard at the reshuffle).
A sample deals each deck's unseen cards at random to the unseen cards drawn
from it and to what is left of the current deck; a card an opponent paid
that was not known is taken from one of its unseen cards of a deck that
still holds such a card (the deck chosen in proportion to its share).  So
every sample has a history that explains every public event; when a random
choice leads nowhere the sample is drawn again.

Tickets.  The ticket deck is a queue: draws take the top, returned tickets
go under it (unkept initial tickets of Europe go to the box, out of play).
The seat knows its own tickets, and where the ones it returned went.  A
sample follows every ticket in the queue; which tickets another seat kept is
drawn at random (subject to the seat later drawing a ticket it returned),
and tickets never seen are dealt at random to the places still unknown (in
Europe the draw deck holds regular tickets only, and a player holds at most
one long ticket).  A position loaded without its history starts the seat's
memory there: what it knew before is forgotten, which is still consistent.

``weighted=True`` draws the other seats' unseen tickets from their
posterior given the routes each has claimed (a Bayesian update: the uniform
prior above times the likelihood of
:class:`~ttr_lab.analysis.hidden.ClaimLikelihood`): a chain starts from a
uniform deal, then ``sweeps`` Metropolis sweeps swap unseen tickets between
another seat and the places the seat cannot tell apart (the deck, the other
seats), each swap kept with probability ``min(1, likelihood ratio)``; each
next state moves the chain on by ``thin`` sweeps, and every ``restart``
states it starts afresh (:mod:`~ttr_lab.analysis.hidden.ticket_chain`).
Only tickets never seen move, so every state stays consistent; the cards
are dealt afresh for every state.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots import play_game, make_bot
>>> g = ttr_lab.new_game("usa", players=3, seed=2)
>>> for _ in range(40):
...     g.play(make_bot("greedy", 0).choose(g.view(g.current_player)))
>>> samples = sample_states(g.view(0), 3, seed=1)
>>> [s.problems() for s in samples]
[[], [], []]
>>> all(s.view(0).to_dict() == g.view(0).to_dict() for s in samples)
True
>>> [s.hand(1) == g.hand(1) for s in samples]  # the other hands are guesses
[False, False, False]
>>> [t.id for t in samples[0].tickets(0)] == [t.id for t in g.tickets(0)]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ...engine.checks import MAX_SAMPLES, check_count, check_instance, check_number, check_seed
from ...engine.moves import ClaimRoute
from ...engine.state import GameState
from ...engine.view import PlayerView
from ...errors import TtrError
from .build import build, position
from .ticket_chain import RESTART, THIN, TicketChain
from .ticket_knowledge import Retry, TicketDeal, TicketTracker
from .ticket_likelihood import ClaimLikelihood

__all__ = ["sample_states", "iter_states", "Knowledge"]

#: attempts at one sample before giving up (a random choice can lead nowhere:
#: the opponents' hidden cards are resolved payment by payment, and late in a
#: game with a reshuffle most attempts can fail; 4 of 9,040 calibration
#: positions ran out of 200, one of them failing 98% of its attempts,
#: ``tests/data/tight-hidden-cards.json``; an attempt takes well under 1 ms)
RETRIES = 2000
#: Metropolis sweeps over the other seats' unseen tickets at each fresh start of
#: the weighted chain (30 until issue 23: far from the posterior, whose ticket
#: marginals 120 sweeps reach within noise, ``tests/test_ticket_chain.py``)
SWEEPS = 120
#: the most Metropolis sweeps per state (``sweeps``), and the largest ``lam``
MAX_SWEEPS = 1000
MAX_LAM = 100.0
#: the most states per fresh start of the weighted chain (``restart``)
MAX_RESTART = 1000
_Retry = Retry


class Knowledge:
    """What one seat knows, read once from its view; :meth:`sample` completes it."""

    def __init__(self, view: PlayerView) -> None:
        check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
        self.view = view
        ed = self.ed = view.edition
        self.me = view.player
        self.n = view.num_players
        hist = view.history()
        self.start = hist.start
        self.plies = hist.plies
        self.npiles = len(ed.pile_names)
        self.pile_of = {ct.name: ct.pile for ct in ed.card_types}
        self.events = self._card_events()
        self.start_cards = self._start_cards()
        self.epochs = self._epochs()
        self.tickets = TicketTracker(view, hist)
        #: a position's "pieces" (the first kind in supply: trains), public
        self.supply = [ed.pieces_in_supply(view, q)[0] for q in range(self.n)]
        self._template: GameState | None = None

    # ------------------------------------------------------------------ cards
    def _card_events(self) -> list[tuple[Any, ...]]:
        me = self.me
        out: list[tuple[Any, ...]] = []
        for ply in self.plies:
            q = ply.seat
            if isinstance(ply.move, ClaimRoute) and q != me:
                out.append(("show", q, ply.move.cards))
            for ev in ply.events:
                kind = ev[0]
                if kind == "reshuffle":
                    out.append(ev)
                elif kind == "draw":
                    out.append(("hidden", ev[1], q) if ev[2] is None else ("reveal", ev[1], ev[2]))
                elif kind in ("take", "pay") and q != me:
                    out.append((kind, q, ev[1]))
        return out

    def _start_cards(self) -> tuple[list[Counter[str]], dict[int, Counter[tuple[int, int]]], dict[int, Counter[str]]]:
        """What the seat had not seen at the start, per pile; the unseen cards
        of each other hand, as a multiset of (pile, deck 0); the known ones."""
        st, ed = self.start, self.ed
        seen: Counter[str] = Counter(st.hand)
        seen.update(c for c in st.row if c is not None)
        for k in range(self.npiles):
            seen.update(st.discard_cards(k))
        known: dict[int, Counter[str]] = {q: Counter() for q in range(self.n) if q != self.me}
        aside, in_hand = ed.cards_in_sight(st)  # e.g. a tunnel's reveal, and its claimer's payment
        seen.update(aside)
        for q, cards in in_hand.items():
            if q != self.me:
                known[q].update(dict(cards))
        for held in known.values():
            seen.update(held)
        pools: list[Counter[str]] = []
        for comp in ed.deck_composition:
            pool: Counter[str] = Counter()
            for c, count in comp:
                name = ed.card_types[c].name
                pool[name] = count - seen[name]
                if pool[name] < 0:
                    raise TtrError(f"more {name} cards seen than the game has")
            pools.append(pool)
        slots: dict[int, Counter[tuple[int, int]]] = {}
        for q in known:
            slots[q] = Counter()
            for k in range(self.npiles):
                mine = sum(v for c, v in known[q].items() if self.pile_of[c] == k)
                slots[q][(k, 0)] = st.pile_hand_sizes[q][k] - mine
        return pools, slots, known

    def _epochs(self) -> list[list[Counter[str]]]:
        """Per pile, the hidden part of every deck shuffled so far: what it
        held (deck 0: what the seat did not see at the start; later ones: the
        discard at the reshuffle) less every card later turned face up from it."""
        pools = [[pool] for pool in self.start_cards[0]]
        cur = [0] * self.npiles
        for ev in self.events:
            if ev[0] == "reshuffle":
                pools[ev[1]].append(Counter(ev[2]))
                cur[ev[1]] += 1
            elif ev[0] == "reveal":
                pool = pools[ev[1]][cur[ev[1]]]
                pool[ev[2]] -= 1
                if pool[ev[2]] < 0:
                    raise TtrError(f"a {ev[2]} card was seen that the deck could not hold")
        return pools

    def deal_cards(self, rng: random.Random) -> tuple[list[Counter[str]], list[list[str]]]:
        """The hands (the seat's own as it is) and the decks (bottom to top) of one sample."""
        _, slots0, known0 = self.start_cards
        slots = {q: Counter(c) for q, c in slots0.items()}
        known = {q: Counter(c) for q, c in known0.items()}
        pools = [[Counter(c) for c in pile] for pile in self.epochs]
        size = [[sum(c.values()) for c in pile] for pile in pools]
        cur = [0] * self.npiles
        pile_of = self.pile_of

        def resolve(q: int, name: str, count: int) -> None:
            """Make ``count`` more ``name`` cards of q's hand known, from its
            unseen ones: from a deck chosen in proportion to the expected
            number of such cards among q's cards from it."""
            k = pile_of[name]
            mine = slots[q]
            for _ in range(count):
                options = [
                    (e, n * pools[k][e][name] / size[k][e])
                    for (kk, e), n in mine.items()
                    if kk == k and n and pools[k][e][name] > 0
                ]
                if not options:
                    raise _Retry
                pick = rng.random() * sum(w for _, w in options)
                e = options[-1][0]
                for e_, w in options:
                    pick -= w
                    if pick <= 0:
                        e = e_
                        break
                pools[k][e][name] -= 1
                size[k][e] -= 1
                mine[(k, e)] -= 1
                known[q][name] += 1

        for ev in self.events:
            kind = ev[0]
            if kind == "reveal":
                continue  # already taken out of its deck's hidden part (see _epochs)
            if kind == "hidden":
                slots[ev[2]][(ev[1], cur[ev[1]])] += 1
            elif kind == "reshuffle":
                cur[ev[1]] += 1
            elif kind == "take":
                known[ev[1]][ev[2]] += 1
            else:  # show or pay: the hand holds these cards; a payment then removes them
                q = ev[1]
                for name, count in ev[2]:
                    if count > known[q][name]:
                        resolve(q, name, count - known[q][name])
                    if kind == "pay":
                        known[q][name] -= count
        hands = [Counter(self.view.hand) if q == self.me else Counter(known[q]) for q in range(self.n)]
        decks: list[list[str]] = []
        for k in range(self.npiles):
            for e, pool in enumerate(pools[k]):
                cards = sorted(pool.elements())
                rng.shuffle(cards)
                takers = [q for q in slots for _ in range(slots[q][(k, e)])]
                if len(cards) < len(takers) or (e < cur[k] and len(cards) != len(takers)):
                    raise TtrError(f"the unseen cards of pile {k} do not add up (deck {e})")
                for q in takers:
                    hands[q][cards.pop()] += 1
                if e == cur[k]:
                    if len(cards) != self.view.deck_sizes[k]:
                        raise TtrError(
                            f"pile {k}: {len(cards)} unseen cards left for a deck of {self.view.deck_sizes[k]}"
                        )
                    decks.append(cards)
        return hands, decks

    # ------------------------------------------------------------------ the position
    def position(
        self, hands: list[Counter[str]], decks: list[list[str]], deal: TicketDeal, seed: int, rng: random.Random
    ) -> dict[str, Any]:
        """The saved position of a sample (:func:`~.build.position`)."""
        return position(self, hands, decks, deal, seed, rng)

    def sample(
        self,
        rng: random.Random,
        deal: TicketDeal | None = None,
        like: ClaimLikelihood | None = None,
        sweeps: int = 0,
        chain: TicketChain | None = None,
    ) -> GameState:
        """One complete state (drawing again when a random choice leads nowhere);
        the tickets given (``deal``), the next of ``chain``, or drawn (moved
        towards the posterior of ``like`` by ``sweeps`` Metropolis sweeps)."""
        for _ in range(RETRIES):
            try:
                if deal is not None:
                    d = deal
                elif chain is not None:
                    d = chain.next(rng)
                else:
                    d = self.tickets.deal(rng, like, sweeps)
                hands, decks = self.deal_cards(rng)
            except _Retry:
                continue
            return build(self, hands, decks, d, rng.getrandbits(64), rng)
        raise TtrError(f"no consistent state found in {RETRIES} attempts")


def _check(view: object, seed: object, sweeps: object, lam: object, restart: object = 1, thin: object = 0) -> None:
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_seed(seed)
    check_count(sweeps, "sweeps", low=0, high=MAX_SWEEPS)
    check_number(lam, "lam", low=0, high=MAX_LAM)
    check_count(restart, "restart", low=1, high=MAX_RESTART)
    check_count(thin, "thin", low=0, high=MAX_SWEEPS)


def iter_states(
    view: PlayerView,
    *,
    seed: int = 0,
    weighted: bool = False,
    sweeps: int = SWEEPS,
    lam: float = 0.5,
    restart: int = RESTART,
    thin: int = THIN,
) -> Iterator[GameState]:
    """Complete states consistent with ``view``, one after another, forever
    (see the module doc).  With ``weighted=True`` the other seats' unseen
    tickets are drawn from their posterior given the claims, by a chain
    (:class:`~.ticket_chain.TicketChain`) that starts afresh with ``sweeps``
    sweeps every ``restart`` states and moves on by ``thin`` sweeps in
    between (``restart=1``: every state afresh).  The arguments are checked
    (as :func:`sample_states` says) when it is called, not at the first state."""
    _check(view, seed, sweeps, lam, restart, thin)
    know = Knowledge(view)
    like = ClaimLikelihood(view, lam=lam) if weighted else None
    chain = TicketChain(know.tickets, like, sweeps, restart=restart, thin=thin) if like is not None else None
    return _forever(know, like, random.Random(f"ttr_lab.determinize:{seed}"), sweeps, chain)


def _forever(
    know: Knowledge, like: ClaimLikelihood | None, rng: random.Random, sweeps: int, chain: TicketChain | None
) -> Iterator[GameState]:
    while True:
        yield know.sample(rng, like=like, sweeps=sweeps, chain=chain)


def sample_states(
    view: PlayerView,
    n: int,
    *,
    seed: int = 0,
    weighted: bool = False,
    sweeps: int = SWEEPS,
    lam: float = 0.5,
    restart: int = RESTART,
    thin: int = THIN,
) -> list[GameState]:
    """``n`` complete states consistent with everything ``view``'s seat knows.

    Parameters
    ----------
    view : PlayerView
        The seat's view; nothing else is read.
    n : int
        How many states, 0 to :data:`~ttr_lab.engine.checks.MAX_SAMPLES` (10,000;
        :func:`iter_states` gives any number, one at a time).
    seed : int
        Same seed, same view: same samples (0 to ``2**128 - 1``, as a game's seed).
    weighted : bool
        Draw the other seats' unseen tickets from their posterior given
        the routes they claimed (:class:`~.ticket_knowledge.ClaimLikelihood`).
    sweeps : int
        Metropolis sweeps at each fresh start of the chain when ``weighted``
        (each proposes a move of every unseen ticket of the other seats
        once, on average), 0 to :data:`MAX_SWEEPS`.
    lam : float
        The likelihood's rate per car of detour, 0 to :data:`MAX_LAM`.
    restart, thin : int
        When ``weighted``: the states per fresh start of the chain (1 to
        :data:`MAX_RESTART`; 1 draws every state afresh), and the sweeps that
        move it on between two states (0 to :data:`MAX_SWEEPS`).

    Raises
    ------
    TtrError
        An argument of the wrong type or out of its range, before any state is drawn.
    """
    check_count(n, "n", low=0, high=MAX_SAMPLES)
    it = iter_states(view, seed=seed, weighted=weighted, sweeps=sweeps, lam=lam, restart=restart, thin=thin)
    return [next(it) for _ in range(n)]
