"""Destination tickets (rules A5 and B1): the initial choice and later draws.

Position fields: ``_tickets`` (kept tickets per seat), ``_pending`` (the
tickets the current player is choosing from), ``_setup_deal`` (each seat's
initial tickets while the setup choice goes round) and ``_tdeck`` (the
ticket deck, bottom to top).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import DrawTickets, KeepTickets, Move
from ..phases import Phase
from .base import Field
from .claiming import Claiming
from .decks import R_TICKETS

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Tickets"]

_SETUP, _TURN, _KEEP = int(Phase.SETUP_TICKETS), int(Phase.TURN), int(Phase.KEEP_TICKETS)
_DRAW = [DrawTickets()]


def _identity(moves: list[Move]) -> list[Move]:
    return moves


class Tickets(Claiming):
    """Dealing, drawing and keeping tickets."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_tickets", "", lambda ed, n: tuple(() for _ in range(n))),
        Field("_pending", "", lambda ed, n: ()),
        Field("_setup_deal", "", lambda ed, n: ()),
        Field("_tdeck", "", lambda ed, n: ()),
    )
    moves = {DrawTickets: ("check_tickets", "apply_tickets"), KeepTickets: ("check_keep", "apply_keep")}
    phases = {Phase.SETUP_TICKETS: "keep_groups", Phase.KEEP_TICKETS: "keep_groups"}
    turn_actions = {"ticket_draw_groups": DrawTickets.rank}
    #: the section of the rules reference with this edition's setup (cited when too few tickets are kept)
    setup_rule: ClassVar[str] = "B1"

    # --------------------------------------------------------------- setup (B1)
    def take_tickets(self, s: GameState, k: int) -> tuple[int, ...]:
        """The top ``k`` tickets of the ticket deck, top first (the one place
        tickets leave it; with a chance slot set they may be recorded or forced).

        A deck shorter than ``k`` deals what remains (rule A5): never a
        ticket that stays in the deck as well.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.ticket_deck_size
        >>> len(ed.take_tickets(g, 3)), g.ticket_deck_size == n - 3
        (3, True)
        """
        deck = s._tdeck
        k = max(0, min(k, len(deck)))
        ch = s._chance
        if ch is not None:
            return ch.take_tickets(self, s, k)
        s._tdeck = deck[: len(deck) - k]
        return deck[-1 : -k - 1 : -1]

    def deal_setup_tickets(self, s: GameState) -> tuple[tuple[int, ...], ...]:
        """Deal each player's initial tickets from the top of the ticket deck.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> [len(t) for t in ed.deal_setup_tickets(g)]
        [3, 3]
        """
        k = self.setup_tickets[0]
        return tuple(self.take_tickets(s, k) for _ in range(s.n))

    def return_setup_tickets(self, s: GameState, returned: tuple[int, ...]) -> None:
        """Unkept initial tickets go to the bottom of the deck, the first returned lowest.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.ticket_deck_size
        >>> ed.return_setup_tickets(g, (1, 2))
        >>> g.ticket_deck_size - n
        2
        """
        s._tdeck = tuple(reversed(returned)) + s._tdeck

    def start_play(self, s: GameState) -> None:
        """Every player has chosen tickets: the first turn begins.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.start_play(g)
        >>> g.phase.name, g.current_player
        ('TURN', 0)
        """
        if self.options["deal_row_after_tickets"]:
            self.deal_row(s)
        self.set_decision(s, _TURN, s._first)

    # --------------------------------------------------------------- legal moves
    def keep_min(self, s: GameState) -> int:
        """How many tickets the current choice must keep (setup: ``setup_tickets[1]``, a draw: ``draw_tickets[1]``; at most the tickets offered).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.keep_min(g), len(g.pending_tickets)
        (2, 3)
        """
        k = self.setup_tickets[1] if s._phase == _SETUP else self.draw_tickets[1]
        return min(k, len(s._pending))

    def keep_groups(self, s: GameState) -> list[Any]:
        """The legal keeps of a ticket choice: every subset of the pending tickets at least :meth:`keep_min` long.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.keep_groups(g)[0][0]    # keep 2 or 3 of 3
        4
        """
        pend = sorted(s._pending)
        make = KeepTickets._unchecked
        out: list[Move] = [make(c) for k in range(self.keep_min(s), len(pend) + 1) for c in combinations(pend, k)]
        out.sort()
        return [(len(out), _identity, out)]

    def ticket_draw_groups(self, s: GameState) -> list[Any]:
        """A ticket draw, while the ticket deck has tickets (A5).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.ticket_draw_groups(g)[0][2]
        [DrawTickets()]
        """
        return [(1, _identity, _DRAW)] if s._tdeck else []

    # --------------------------------------------------------------- checks
    def check_tickets(self, s: GameState, move: DrawTickets) -> tuple[str, str] | None:
        """Why drawing tickets is illegal now, or None (A5).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.check_tickets(g, ttr_lab.DrawTickets())
        ('A5', 'players are choosing their initial tickets; expected a keep move')
        """
        if s._phase != _TURN:
            return self.phase_error(s)
        if not s._tdeck:
            return (R_TICKETS, "the ticket deck is empty")
        return None

    def check_keep(self, s: GameState, move: KeepTickets) -> tuple[str, str] | None:
        """Why keeping ``move.tickets`` is illegal now, or None (A5, B1).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.check_keep(g, ttr_lab.KeepTickets(tuple(t.id for t in g.pending_tickets[:1])))
        ('B1', 'must keep at least 2 of the 3 tickets at setup')
        """
        if s._phase not in (_SETUP, _KEEP):
            return self.phase_error(s)
        pend = set(s._pending)
        extra = [t for t in move.tickets if t not in pend]
        if extra:
            return (
                R_TICKETS,
                f"ticket {extra[0]} is not among the tickets drawn ({', '.join(map(str, sorted(pend)))})",
            )
        need = self.keep_min(s)
        if len(move.tickets) < need:
            where = "at setup" if s._phase == _SETUP else "after a draw"
            rule = self.setup_rule if s._phase == _SETUP else R_TICKETS
            return (rule, f"must keep at least {need} of the {len(pend)} tickets {where}")
        return None

    # --------------------------------------------------------------- effects
    def apply_tickets(self, s: GameState, move: DrawTickets) -> None:
        """Draw tickets (A5): the current player chooses from them next (phase ``KEEP_TICKETS``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.apply_tickets(g, ttr_lab.DrawTickets())
        >>> g.phase.name, len(g.pending_tickets)
        ('KEEP_TICKETS', 3)
        """
        s._pending = self.take_tickets(s, min(self.draw_tickets[0], len(s._tdeck)))
        self.reset_passes(s)
        self.set_decision(s, _KEEP)

    def apply_keep(self, s: GameState, move: KeepTickets) -> None:
        """Keep ``move.tickets``: the others go back under the deck; at setup the next seat chooses (B1) or play starts, after a draw the turn ends.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.apply_keep(g, ttr_lab.KeepTickets(tuple(t.id for t in g.pending_tickets)))
        >>> len(g.tickets(0)), g.current_player
        (3, 1)
        """
        p = s._cur
        kept = move.tickets
        returned = tuple(t for t in s._pending if t not in kept)
        s._tickets = s._tickets[:p] + (s._tickets[p] + kept,) + s._tickets[p + 1 :]
        s._pending = ()
        if s._phase == _SETUP:
            self.return_setup_tickets(s, returned)
            nxt = (p + 1) % s.n
            if nxt == s._first:
                s._setup_deal = ()
                self.start_play(s)
            else:
                self.set_decision(s, _SETUP, nxt)
                s._pending = s._setup_deal[nxt]
        else:
            # returned tickets go to the bottom, the first returned lowest (A5)
            s._tdeck = tuple(reversed(returned)) + s._tdeck
            self.end_turn(s)
