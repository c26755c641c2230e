"""Chance outcomes: the transient slot ``GameState._chance`` (never part of a position).

A game draws every shuffle from its seed, so a replay from the seed never
re-rolls.  A game played at a table has no seed: what chance produced is
written down instead (:mod:`ttr_lab.records.chance`).  When a state's ``_chance``
holds a :class:`Chance`, the rules consult it at the points where a card or
a ticket leaves a pile: :meth:`~ttr_lab.engine.rules.decks.Decks.take` (every card
turned up or drawn), :meth:`~ttr_lab.engine.rules.tickets.Tickets.take_tickets` (a
ticket draw and the setup deal), an edition's own setup chance
(:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.chance_pick`: Europe's long tickets,
a plug-in's dealt field), each face-up row dealt (:meth:`Chance.new_row`)
and the first player.  It can

* **record** (``record=True``): keep what each take produced in :attr:`log`
  (groups of ``(card, unseen)``, a new group for each row dealt after the
  move's first card) and :attr:`tlog`;
* **force** (:meth:`force`, before a push): the next takes remove the named
  cards from the pile, wherever they lie in it (after the discard is
  shuffled in when the deck is empty), instead of the top card, and raise
  :class:`~ttr_lab.errors.TtrError` when a named card cannot be there;
  :data:`UNKNOWN` stands for a card or ticket the recording seat did not
  see: the topmost one not named later in the same move;
* **remember** (:attr:`table`): every take is stored under its position key
  (pile, shuffles so far, pile size, turn), so the same move pushed again
  from the same position (undo and redo, :meth:`PlayerView.history`)
  turns up the same cards without forcing; :attr:`fixups` maps a position
  (the tuple of its field values) to the one a seat record's late binding
  made of it before the next move (applied by ``GameState.push``).

Without a ``_chance`` (every game played from a seed) none of this runs:
each hook is one attribute check.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> g._chance is None
True
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Chance", "UNKNOWN"]

#: a forced card or ticket the recording seat did not see ("?")
UNKNOWN = -2

Key = tuple[Any, ...]


def _rindex(seq: tuple[int, ...], x: int) -> int:
    """The index of the last (topmost) ``x`` in ``seq``, -1 if none."""
    for i in range(len(seq) - 1, -1, -1):
        if seq[i] == x:
            return i
    return -1


class Chance:
    """The chance slot of one game state (see the module doc)."""

    __slots__ = ("log", "tlog", "queue", "gi", "pos", "tqueue", "picks", "table", "fixups", "first", "deal")

    def __init__(
        self,
        *,
        record: bool = False,
        table: dict[Key, Any] | None = None,
        fixups: dict[tuple[Any, ...], tuple[Any, ...]] | None = None,
    ) -> None:
        #: recorded cards of the current move: groups of (card, unseen)
        self.log: list[list[tuple[int, bool]]] | None = [[]] if record else None
        #: recorded ticket takes of the current move, each top first
        self.tlog: list[tuple[int, ...]] | None = [] if record else None
        self.queue: list[list[int]] | None = None
        self.gi = self.pos = 0
        self.tqueue: list[tuple[int, ...]] | None = None
        #: forced picks of an edition's own setup chance, per kind, in draw order
        self.picks: dict[str, list[Any]] | None = None
        self.table: dict[Key, Any] = {} if table is None else table
        self.fixups: dict[tuple[Any, ...], tuple[Any, ...]] = {} if fixups is None else fixups
        self.first: int | None = None
        #: the setup deal this state was forced to, as a record writes it (or None)
        self.deal: dict[str, Any] | None = None

    def passive(self) -> Chance:
        """A chance for a copy of the state: the same table and fixups, nothing forced or recorded."""
        other = Chance(table=self.table, fixups=self.fixups)
        other.deal = self.deal
        return other

    def bind(self, s: GameState, snap: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """Apply the fixup of ``s``'s position, if any; return the position (as a snapshot)."""
        if snap is None:
            snap = tuple(s.__dict__.values())
        if self.fixups:
            fixed = self.fixups.get(snap)
            if fixed is not None:
                s._restore(fixed)
                s._legal = None
                return fixed
        return snap

    # ------------------------------------------------------------------ forcing
    def force(
        self,
        cards: list[list[int]] | None = None,
        tickets: list[tuple[int, ...]] | None = None,
        picks: dict[str, list[Any]] | None = None,
    ) -> None:
        """Force the next takes: card groups (card indices or UNKNOWN), ticket takes
        (each top first), an edition's own picks (``{kind: [value or UNKNOWN]}``,
        :meth:`pick`).  ``None`` leaves that kind unforced (the table, else the
        top); an empty list forces "none"."""
        self.queue = ([list(g) for g in cards] or [[]]) if cards is not None else None
        self.gi = self.pos = 0
        self.tqueue = list(tickets) if tickets is not None else None
        self.picks = {k: list(v) for k, v in picks.items()} if picks is not None else None

    def restart(self) -> None:
        """Forget the current move's log and forced outcomes (before the next push)."""
        if self.log is not None:
            self.log = [[]]
            self.tlog = []
        self.queue = self.tqueue = self.picks = None
        self.gi = self.pos = 0

    def left(self) -> str | None:
        """What the forced outcome lists that the move did not turn up (None: all used)."""
        q = self.queue
        if q is not None:
            rest = len(q[self.gi]) - self.pos + sum(len(g) for g in q[self.gi + 1 :])
            if rest:
                return f"the outcome lists {rest} more card{'s' if rest > 1 else ''} than the move turned up"
        if self.tqueue:
            return "the outcome lists tickets, but the move drew none"
        for kind, picks in (self.picks or {}).items():
            if picks:
                return f"the deal lists {kind.replace('_', ' ')} that were not dealt"
        return None

    def _next(self) -> int | None:
        q = self.queue
        if q is None:
            return None
        group = q[self.gi]
        if self.pos >= len(group):
            if not any(q):
                raise TtrError("the move turned up a card, but the record gives no outcome for it")
            more = "" if self.gi + 1 >= len(q) else " before the next row"
            raise TtrError(f"the move turned up more cards{more} than its outcome lists")
        card = group[self.pos]
        self.pos += 1
        return card

    def _reserved(self) -> Counter[int]:
        """Cards the rest of the forced outcome names (an unseen card must not be one of them)."""
        q = self.queue
        out: Counter[int] = Counter()
        if q is not None:
            out.update(c for c in q[self.gi][self.pos :] if c >= 0)
            for g in q[self.gi + 1 :]:
                out.update(c for c in g if c >= 0)
        return out

    def new_row(self) -> None:
        """A face-up row is being dealt: after the move's first card it starts a new group."""
        if self.log is not None and self.log[-1]:
            self.log.append([])
        q = self.queue
        if q is not None and (self.pos or self.gi):
            if self.pos < len(q[self.gi]):
                raise TtrError("the outcome lists more cards before the row was dealt than the move turned up")
            if self.gi + 1 >= len(q):
                raise TtrError("a face-up row was dealt (a reset, or the setup), but the outcome lists no row for it")
            self.gi += 1
            self.pos = 0

    # ------------------------------------------------------------------ cards
    def take(self, ed: Any, s: GameState, pile: int) -> int:
        """A card from ``pile`` (``Decks.take`` with this chance set)."""
        deck = s._decks[pile]
        if not deck:
            deck = ed.reshuffle(s, pile)
            if not deck:
                return -1
        key = (pile, s._shuffles, len(deck), s._turn)
        want = self._next()
        i = len(deck) - 1
        if want is None:
            got = self.table.get(key)
            if got is not None:
                j = _rindex(deck, got)
                i = j if j >= 0 else i
        elif want == UNKNOWN:
            reserved = self._reserved()
            while i > 0 and reserved[deck[i]] > 0:
                reserved[deck[i]] -= 1
                i -= 1
        else:
            if ed._card_pile[want] != pile:
                raise TtrError(
                    f"the outcome names {ed.card_name(want)}, a {ed.pile_names[ed._card_pile[want]]} card, "
                    f"where a card of the {ed.pile_names[pile]} pile was turned up"
                )
            i = _rindex(deck, want)
            if i < 0:
                raise TtrError(_missing(ed, s, want, deck))
        card = deck[i]
        s._decks = s._decks[:pile] + (deck[:i] + deck[i + 1 :],) + s._decks[pile + 1 :]
        self.table[key] = card
        if self.log is not None:
            self.log[-1].append((card, want == UNKNOWN))
        return card

    # ------------------------------------------------------------------ tickets
    def take_tickets(self, ed: Any, s: GameState, k: int) -> tuple[int, ...]:
        """``k`` tickets from the ticket deck, top first (``Tickets.take_tickets`` with this chance set)."""
        deck = s._tdeck
        key = ("tickets", s._turn, s._cur, len(deck))
        want: tuple[int, ...] | None = None
        if self.tqueue:
            want = self.tqueue.pop(0)
            if len(want) != k:
                raise TtrError(f"the draw takes {k} ticket{'s' if k != 1 else ''}, the outcome lists {len(want)}")
        elif self.tqueue is None:
            got = self.table.get(key)
            if got is not None and all(t in deck for t in got):
                want = got
        else:
            raise TtrError("the move draws tickets, but the outcome lists none")
        if want is None:
            out = deck[-1 : -k - 1 : -1]
            deck = deck[: len(deck) - k]
        elif len(deck) < k:
            raise TtrError(f"the ticket deck holds {len(deck)} tickets, fewer than the {k} the outcome lists")
        else:
            named = Counter(t for t in want if t >= 0)  # and the later takes' (an unseen one must not be one)
            named.update(t for take in self.tqueue or () for t in take if t >= 0)
            taken = []
            for t in want:
                if t == UNKNOWN:
                    i = len(deck) - 1
                    while i > 0 and named[deck[i]] > 0:
                        i -= 1
                else:
                    i = _rindex(deck, t)
                    if i < 0:
                        raise TtrError(_missing_ticket(ed, s, t))
                    named[t] -= 1
                taken.append(deck[i])
                deck = deck[:i] + deck[i + 1 :]
            out = tuple(taken)
        s._tdeck = deck
        self.table[key] = out
        if self.tlog is not None:
            self.tlog.append(out)
        return out

    def pick(self, kind: str, options: list[Any]) -> Any:
        """One of ``options`` for an edition's own setup chance ``kind``, removed
        from it (:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.chance_pick`): the
        forced one, else the last one not forced later (UNKNOWN or unforced)."""
        queue = self.picks.get(kind) if self.picks is not None else None
        want = queue.pop(0) if queue else None
        if want is None or want == UNKNOWN:
            later = set(queue or ())
            free = [x for x in options if x not in later] or options
            got = free[-1]
            options.remove(got)
            return got
        if want not in options:
            raise TtrError(f"{kind.replace('_', ' ')}: the deal names {str(want)[:60]}, which is not left to deal")
        options.remove(want)
        return want


def _missing(ed: Any, s: GameState, card: int, deck: tuple[int, ...]) -> str:
    """Why ``card`` cannot be turned up: where every copy of it is."""
    name = ed.card_name(card)
    where = Counter[str]()
    where["in the face-up row"] = s._row.count(card)
    where["on the discard"] = sum(d.count(card) for d in s._discards)
    for p, h in enumerate(s._hands):
        where[f"in {s.player_names[p]}'s hand"] = h[card]
    where["turned up by the tunnel"] = sum(1 for c in ed.cards_elsewhere(s) if c == card)
    total = sum(k for pile in ed.deck_composition for c, k in pile if c == card)
    said = ", ".join(f"{k} {w}" for w, k in where.items() if k)
    return f"no {name} card is left to turn up: the game has {total}" + (f" ({said})" if said else "")


def _missing_ticket(ed: Any, s: GameState, t: int) -> str:
    if t not in set(ed.ticket_universe()):
        return f"ticket {t} is not in the {ed.name} ticket deck"
    for p, held in enumerate(s._tickets):
        if t in held:
            return f"ticket {t} is held by {s.player_names[p]}, not in the ticket deck"
    if t in s._pending:
        return f"ticket {t} is being chosen from, not in the ticket deck"
    return f"ticket {t} is not in the ticket deck"
