"""Late binding: the hidden cards and tickets of a seat record's replay.

A record kept from one seat leaves unknown what that seat could not see:
the other seats' starting hands and blind draws (``blind =?``), the tickets
they were offered and kept (``tickets =?,?,?``, ``keep ? ?``).  Its replay
fills each unknown with an arbitrary hidden card or ticket (the topmost one
the outcome does not name), and binds the filling late, before each move,
when a fact the seat saw needs it:

* another seat pays with a card its filled hand lacks: one of its cards of
  unseen origin (of the same pile, one the payment does not need) is
  swapped with a matching card still hidden: in the deck, or among another
  seat's cards of unseen origin;
* a card the seat saw turned up (a refill, a reset row, a tunnel's reveal,
  its own blind draw) is not in the deck: it is swapped in from another
  seat's cards of unseen origin, for a deck card the move does not need;
* a ticket the seat was offered is not in the ticket deck: it is swapped in
  from where the filling put it (another seat's hand or pending choice, or
  where the edition keeps tickets aside: Europe's box,
  :meth:`~ttr_lab.engine.rules.hooks.EditionHooks.swap_ticket_aside`), for a ticket
  of the deck whose place the seat does not know.

**The invariant.** Every swap exchanges two things the seat has not seen,
so the seat's view is identical whatever the filling: ``replay_view()``
equals the view of the true game from that seat, move for move (its hand,
tickets, pending choice and every public fact: row, discards, pile sizes,
hand sizes, ticket counts, pieces, scores, routes, buildings).  Each swap
is also stored as a *fixup* of the position it changed (see
:mod:`ttr_lab.engine.rules.chance`), so undoing and replaying a move on the replayed
state, or :meth:`~ttr_lab.engine.view.PlayerView.history`, reproduces it exactly.
Only the view is meaningful: the hidden parts are one filling among many;
:func:`ttr_lab.analysis.hidden.sample_states` draws others from the view.

The checks are counts: an outcome or a payment that no hidden card can
explain (a fourth locomotive when the other eleven are in sight) is refused
with the ply.  Which deck a card of unseen origin came from across
reshuffles is not followed (determinization does that from the view).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..engine.moves import Move

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.state import GameState

__all__ = ["SeatBinder"]


class SeatBinder:
    """The late binding of one seat record's replay (see the module doc)."""

    def __init__(self, state: GameState, seat: int) -> None:
        ed = state.edition
        self.me = seat
        self.pile = ed._card_pile
        #: per seat, the cards of unseen origin in its (filled) hand, by card index
        self.unseen: list[Counter[int]] = [Counter() for _ in range(state.n)]
        for q in range(state.n):
            if q != seat:
                self.unseen[q] = Counter({c: k for c, k in enumerate(state._hands[q]) if k})
        #: tickets whose place the seat knows (its own, and where the ones it returned went)
        self.known: set[int] = set(state._setup_deal[seat]) if state._setup_deal else set()
        self.long = frozenset(ed.long_tickets)

    # ------------------------------------------------------------------ before a move
    def before(self, s: GameState, move: Move, cards: list[tuple[int, int]], tickets: list[int]) -> bool:
        """Bind what the move needs: ``cards`` are ``(card or -2, pile)`` in
        take order, ``tickets`` the ticket ids the move's outcome names.
        Returns whether the position changed."""
        q = s._cur
        need: Counter[int] = Counter()  # what the mover's hand must keep for the move
        if q != self.me:
            for c, k in s.edition.cards_needed(s, move):
                need[c] += k
        firsts: list[Counter[int]] = []  # per pile, the named cards the move turns up from the deck
        for pile in range(len(s._decks)):
            taken = [c for c, p in cards if p == pile][: len(s._decks[pile])]
            firsts.append(Counter(c for c in taken if c >= 0))
        changed = q != self.me and self._payment(s, q, need, firsts)
        changed |= self._deck_cards(s, firsts, q, need)
        changed |= self._tickets(s, [t for t in tickets if t >= 0])
        return changed

    def _swap_hand(self, s: GameState, q: int, old: int, new: int) -> None:
        h = list(s._hands[q])
        h[old] -= 1
        h[new] += 1
        s._hands = s._hands[:q] + (tuple(h),) + s._hands[q + 1 :]
        u = self.unseen[q]
        u[old] -= 1
        u[new] += 1

    def _swap_deck(self, s: GameState, pile: int, old: int, new: int) -> None:
        deck = s._decks[pile]
        i = max(i for i, c in enumerate(deck) if c == old)
        s._decks = s._decks[:pile] + (deck[:i] + (new,) + deck[i + 1 :],) + s._decks[pile + 1 :]

    def _hidden(self, s: GameState, c: int, skip: tuple[int, ...], firsts: list[Counter[int]]) -> int | None:
        """Where a hidden ``c`` can be taken from: another seat (its index) whose
        cards of unseen origin hold one, else the deck (-1) if it holds one the
        move does not turn up; None if nowhere."""
        for r in range(s.n):
            if r not in skip and r != self.me and self.unseen[r][c] > 0:
                return r
        pile = self.pile[c]
        return -1 if s._decks[pile].count(c) > firsts[pile][c] else None

    def _payment(self, s: GameState, q: int, need: Counter[int], firsts: list[Counter[int]]) -> bool:
        """Make seat ``q``'s hand hold the cards it pays, swapping cards of unseen origin."""
        changed = False
        for c, k in sorted(need.items()):
            while s._hands[q][c] < k:
                hand, pile = s._hands[q], self.pile[c]
                spare = [
                    v for v, n in self.unseen[q].items() if n and v != c and self.pile[v] == pile and hand[v] > need[v]
                ]
                where = self._hidden(s, c, (q,), firsts)
                if not spare or where is None:
                    return changed  # no hidden card can pay: the move is refused with its reason
                v = min(spare)
                if where < 0:
                    self._swap_deck(s, pile, c, v)
                else:
                    self._swap_hand(s, where, c, v)
                self._swap_hand(s, q, v, c)
                changed = True
        return changed

    def _free(self, s: GameState, r: int, c: int, q: int, need: Counter[int]) -> int:
        """Seat ``r``'s cards ``c`` of unseen origin that the mover ``q``'s payment does not need."""
        u = self.unseen[r][c]
        if r == q:
            known = s._hands[q][c] - u
            u -= max(0, need[c] - known)
        return u

    def _deck_cards(self, s: GameState, firsts: list[Counter[int]], q: int, need: Counter[int]) -> bool:
        """Make each deck hold the named cards the move turns up from it (before a reshuffle)."""
        changed = False
        for pile, want in enumerate(firsts):
            for c, k in sorted(want.items()):
                while s._decks[pile].count(c) < k:
                    deck = Counter(s._decks[pile])
                    other = next((r for r in range(s.n) if r != self.me and self._free(s, r, c, q, need) > 0), None)
                    spare = [d for d in reversed(s._decks[pile]) if d != c and deck[d] > want[d]]
                    if other is None or not spare:
                        return changed  # the forced take says what is wrong
                    self._swap_deck(s, pile, spare[0], c)
                    self._swap_hand(s, other, c, spare[0])
                    changed = True
        return changed

    def _tickets(self, s: GameState, named: list[int]) -> bool:
        """Put the tickets the seat was offered at the top of the ticket deck,
        in order (the deck is a queue: its places follow the true game's, so
        another seat's unseen draw takes what the true one took)."""
        changed = False
        for j, t in enumerate(named):
            deck = s._tdeck
            pos = len(deck) - 1 - j
            if pos < 0 or deck[pos] == t or t in self.long:
                continue
            x = deck[pos]
            if t in deck:
                k = deck.index(t)
                swapped = list(deck)
                swapped[k], swapped[pos] = x, t
                s._tdeck = tuple(swapped)
            elif self._ticket_swap(s, t, x):
                s._tdeck = deck[:pos] + (t,) + deck[pos + 1 :]
            else:
                continue  # not in a hidden place: the forced draw says what is wrong
            changed = True
        return changed

    def _ticket_swap(self, s: GameState, t: int, x: int) -> bool:
        """Put ticket ``x`` where the filling holds ``t`` (a hidden place); False if ``t`` is not in one."""
        me = self.me

        def sub(seq: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x if y == t else y for y in seq)

        for q, held in enumerate(s._tickets):
            if q != me and t in held:
                s._tickets = s._tickets[:q] + (sub(held),) + s._tickets[q + 1 :]
                return True
        if s._cur != me and t in s._pending:
            if s._setup_deal:
                s._setup_deal = tuple(sub(d) if i == s._cur else d for i, d in enumerate(s._setup_deal))
            s._pending = sub(s._pending)
            return True
        for q, d in enumerate(s._setup_deal):
            if q != me and t in d:
                s._setup_deal = s._setup_deal[:q] + (sub(d),) + s._setup_deal[q + 1 :]
                return True
        return t not in self.known and s.edition.swap_ticket_aside(s, t, x)  # e.g. Europe's box

    # ------------------------------------------------------------------ after a move
    def after(
        self, s: GameState, q: int, hand: tuple[int, ...], gained: list[tuple[int, bool]], pending: tuple[int, ...]
    ) -> None:
        """Follow the move just played by seat ``q``: ``hand`` is its hand
        before the move, ``gained`` the cards the move put in it (card, of
        unseen origin), ``pending`` the tickets it was choosing from before."""
        if q == self.me:
            self.known.update(pending)  # kept, or returned to a place the seat knows
            if s._cur == self.me:
                self.known.update(s._pending)  # drawn: the seat sees them
            return
        # tickets another seat draws or chooses from go where the seat cannot follow them
        self.known.difference_update(pending)
        self.known.difference_update(s._pending)
        u = self.unseen[q]
        got: Counter[int] = Counter()
        for card, unseen in gained:
            got[card] += 1
            if unseen:
                u[card] += 1
        now = s._hands[q]
        for c, k in enumerate(now):
            paid = hand[c] + got[c] - k
            if paid > 0:  # paid from the cards known to be there first, then from those of unseen origin
                known = hand[c] + got[c] - u[c]
                u[c] -= max(0, paid - known)
