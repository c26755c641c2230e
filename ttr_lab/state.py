"""The game as a step-by-step state object.

:class:`GameState` is a position plus its move stack, like ``chess.Board``:
list the legal moves, ``play`` one (validated), ``push`` one (trusted),
``pop`` to undo, ``why_illegal`` to explain, ``view(player)`` for what one
player may see, ``to_dict``/``from_dict`` for a full snapshot.

Every position field holds an immutable value (ints and tuples), so a
snapshot is a shallow copy of the object's ``__dict__``: ``pop`` restores it
exactly, decks included.  Shuffles use a random generator derived from the
game seed and the number of shuffles so far, so replaying a game never
re-rolls anything.

Examples
--------
>>> import ttr_lab
>>> game = ttr_lab.new_game("usa", players=3, seed=7)
>>> game.phase
<Phase.SETUP_TICKETS: 0>
>>> game.legal_moves.count()     # keep 2 or 3 of the 3 dealt tickets
4
>>> game.play(game.legal_moves[0])
>>> game.current_player
1
>>> game.pop()
KeepTickets(tickets=(6, 15))
>>> game.current_player
0
"""

from __future__ import annotations

import random
from enum import IntEnum
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .cards import basic_payment_options
from .editions import Edition, find_edition
from .errors import IllegalMoveError, InvalidMoveError, TtrError
from .moves import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Move,
    Pass,
    StopDrawing,
    parse_move,
)

if TYPE_CHECKING:  # pragma: no cover
    from .scoring import Outcome
    from .view import PlayerView

__all__ = ["Phase", "GameState", "LegalMoves", "new_game"]


class Phase(IntEnum):
    """What kind of decision is due."""

    SETUP_TICKETS = 0  #: a player chooses which dealt tickets to keep
    TURN = 1  #: the current player chooses an action
    SECOND_CARD = 2  #: the current player draws a second card
    KEEP_TICKETS = 3  #: the current player keeps some of the tickets drawn
    TUNNEL = 4  #: the current player pays a tunnel's extra cards or declines
    SETUP_PIECES = 5  #: a player splits pieces into trains and ships
    GAME_OVER = 9  #: nothing more to do


_SETUP_TICKETS, _TURN, _SECOND, _KEEP, _TUNNEL, _PIECES, _OVER = 0, 1, 2, 3, 4, 5, 9

# Rules cited by IllegalMoveError (sections of RULES.md)
R_TURN, R_DRAW, R_RESET, R_CLAIM, R_TICKETS, R_END = "A1", "A2", "A3", "A4", "A5", "A6"


class LegalMoves:
    """A lazy, sorted, countable view of the legal moves of a position.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> moves = g.legal_moves
    >>> len(moves) == moves.count() == len(list(moves))
    True
    >>> moves[0] in moves
    True
    """

    __slots__ = ("_state", "_groups", "_total")

    def __init__(self, state: "GameState", groups: list[tuple[int, Callable[[Any], list[Move]], Any]]) -> None:
        self._state = state
        self._groups = groups
        self._total = sum([g[0] for g in groups])

    def count(self) -> int:
        return self._total

    __len__ = count

    def __bool__(self) -> bool:
        return self._total > 0

    def __iter__(self) -> Iterator[Move]:
        for _, build, arg in self._groups:
            yield from build(arg)

    def __getitem__(self, i: int) -> Move:
        if i < 0:
            i += self._total
        if not 0 <= i < self._total:
            raise IndexError(f"legal move index {i} out of range ({self._total} moves)")
        for n, build, arg in self._groups:
            if i < n:
                return build(arg)[i]
            i -= n
        raise AssertionError("unreachable")  # pragma: no cover

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._state.why_illegal(move) is None

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in list(self)[:6])
        more = ", ..." if self._total > 6 else ""
        return f"<LegalMoves ({self._total}): {shown}{more}>"


def _identity(moves: list[Move]) -> list[Move]:
    return moves


class GameState:
    """A game position with its history.

    The position lives in the instance ``__dict__`` (immutable values only);
    the history and the legal-move cache live in slots, so a snapshot is a
    plain copy of ``__dict__`` and creates no reference cycles.

    Parameters
    ----------
    edition : an :class:`~ttr_lab.editions.Edition` or a name (``"usa"``)
    players : number of players (2..5) or a list of names
    seed : seeds every shuffle of the game
    **options : edition options when ``edition`` is a name
    """

    __slots__ = ("__dict__", "__weakref__", "_stack", "_moves", "_legal")

    def __new__(cls, edition: Edition | str = "usa", *args: Any, **kwargs: Any) -> "GameState":
        """``GameState("europe", ...)`` builds the edition's own state class."""
        if cls is GameState:
            opts = {k: v for k, v in kwargs.items() if k != "seed"}
            cls = find_edition(edition, **opts).state_class or GameState
        return object.__new__(cls)

    def __init__(self, edition: Edition | str = "usa", players: int | list[str] | tuple[str, ...] = 4, *, seed: int = 0, **options: Any) -> None:
        ed = find_edition(edition, **options)
        if isinstance(players, int):
            names = tuple(f"Player {i + 1}" for i in range(players))
        else:
            names = tuple(str(p) for p in players)
        n = len(names)
        if not ed.min_players <= n <= ed.max_players:
            raise TtrError(f"{ed.name} is played by {ed.min_players}-{ed.max_players} players, not {n}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TtrError(f"seed must be an int, not {seed!r}")
        self.edition = ed
        self.n = n
        self.player_names = names
        self.seed = seed
        self._init_tables()
        fp = ed.options["first_player"]
        if fp == "random":
            fp = random.Random(f"ttr_lab:{seed}:first").randrange(n)
        elif fp >= n:
            raise TtrError(f"first_player {fp} is not a seat of a {n}-player game")
        ncards = len(ed.card_types)
        npiles = len(ed.pile_names)
        self._phase = _SETUP_TICKETS
        self._cur = fp
        self._first = fp
        self._shuffles = 0
        self._resets = 0
        self._decks: tuple[tuple[int, ...], ...] = ()
        self._discards: tuple[tuple[int, ...], ...] = tuple(() for _ in range(npiles))
        self._row: tuple[int, ...] = tuple(-1 for _ in range(ed.row_size))
        self._hands = tuple(tuple(0 for _ in range(ncards)) for _ in range(n))
        self._tickets: tuple[tuple[int, ...], ...] = tuple(() for _ in range(n))
        self._pending: tuple[int, ...] = ()
        self._setup_deal: tuple[tuple[int, ...], ...] = ()
        self._tdeck: tuple[int, ...] = ()
        self._owners = tuple(-1 for _ in ed.routes)
        self._derive_free()
        self._pieces = tuple(ed.pieces for _ in range(n))
        self._scores = tuple(0 for _ in range(n))
        self._final = -1
        self._passes = 0
        self._turn = 0
        self._extra: tuple = ()
        self._legal: LegalMoves | None = None
        self._stack: list[dict[str, Any]] = []
        self._moves: list[Move] = []
        self._setup()

    # ------------------------------------------------------------------ tables
    def _init_tables(self) -> None:
        """Per-edition lookup tables, computed once per edition and shared."""
        ed = self.edition
        tables = ed.__dict__.get("_state_tables")
        if tables is None:
            before = set(self.__dict__)
            self._build_tables()
            tables = {k: v for k, v in self.__dict__.items() if k not in before}
            ed.__dict__["_state_tables"] = tables
        else:
            self.__dict__.update(tables)

    def _build_tables(self) -> None:
        ed = self.edition
        self._wild = tuple(ct.wild for ct in ed.card_types)
        self._card_pile = tuple(ct.pile for ct in ed.card_types)
        self._color_card = {ct.color: i for i, ct in enumerate(ed.card_types) if ct.color and ct.kind == "train"}
        self._route_color = tuple(None if r.color == "gray" else self._color_card.get(r.color) for r in ed.routes)
        self._route_order = tuple(sorted(range(len(ed.routes)), key=lambda i: ed.routes[i].id))
        if list(self._route_order) != list(range(len(ed.routes))):
            raise TtrError(f"map {ed.map.source}: routes must be listed in increasing id order")
        classes: dict[tuple[int | None, int, int], list[int]] = {}
        for i, r in enumerate(ed.routes):
            classes.setdefault((self._route_color[i], r.length, r.locomotives), []).append(i)
        # shortest first, so the scan can stop at the first length out of reach
        self._route_classes = tuple(
            (color, L, m, tuple(members))
            for (color, L, m), members in sorted(classes.items(), key=lambda kv: (kv[0][1], kv[0][0] is None, kv[0][0] or 0, kv[0][2]))
        )
        self._faceup = tuple(self._faceup_moves(s + 1) for s in range(ed.row_size))
        single = len(ed.pile_names) == 1
        self._blind = tuple(DrawBlind(None if single else name) for name in ed.pile_names)
        self._pile_by_name = {None: 0} if single else {name: i for i, name in enumerate(ed.pile_names)}
        # face-up picks by row contents: a derived-data cache shared by all games
        # of the edition (rows are immutable tuples, the moves immutable values)
        self._row_cache: dict[tuple[int, ...], tuple[list[Move], list[Move]]] = {}
        class_of = [0] * len(ed.routes)
        for ci, (*_, members) in enumerate(self._route_classes):
            for ri in members:
                class_of[ri] = ci
        self._route_class_of = tuple(class_of)

    def _faceup_moves(self, slot: int) -> tuple[Move, ...]:
        """The moves that take face-up ``slot`` (editions with a refill choice have several)."""
        return (DrawFaceUp(slot),)

    # ------------------------------------------------------------------ setup
    def _rng(self) -> random.Random:
        rng = random.Random(f"ttr_lab:{self.seed}:{self._shuffles}")
        self._shuffles += 1
        return rng

    def _setup(self) -> None:
        ed = self.edition
        decks = []
        for comp in ed.deck_composition:
            cards = [c for c, k in comp for _ in range(k)]
            self._rng().shuffle(cards)
            decks.append(tuple(cards))
        self._decks = tuple(decks)
        for p in range(self.n):
            for pile, k in enumerate(ed.starting_cards):
                for _ in range(k):
                    self._give(p, self._take(pile))
        if not ed.options["deal_row_after_tickets"]:
            self._deal_row()
        tickets = list(ed.ticket_deck())
        self._rng().shuffle(tickets)
        self._tdeck = tuple(tickets)
        self._setup_deal = self._deal_setup_tickets()
        self._pending = self._setup_deal[self._cur]

    def _deal_setup_tickets(self) -> tuple[tuple[int, ...], ...]:
        """Deal each player's initial tickets from the top of the ticket deck
        (hook: Europe adds a long ticket)."""
        deal = []
        k = self.edition.setup_tickets[0]
        for _ in range(self.n):
            deal.append(self._tdeck[-1 : -k - 1 : -1])
            self._tdeck = self._tdeck[:-k]
        return tuple(deal)

    # ------------------------------------------------------------------ cards
    def _take(self, pile: int) -> int:
        """Top card of a pile, reshuffling its discard if the deck is empty; -1 if none."""
        deck = self._decks[pile]
        if not deck:
            disc = self._discards[pile]
            if not disc:
                return -1
            cards = list(disc)
            self._rng().shuffle(cards)
            deck = tuple(cards)
            self._discards = self._discards[:pile] + ((),) + self._discards[pile + 1 :]
        self._decks = self._decks[:pile] + (deck[:-1],) + self._decks[pile + 1 :]
        return deck[-1]

    def _pile_has_cards(self, pile: int) -> bool:
        return bool(self._decks[pile] or self._discards[pile])

    def _take_for_slot(self, pile: int) -> int:
        """A card for a row slot from ``pile``, falling back to the other piles (A2)."""
        if self._pile_has_cards(pile):
            return self._take(pile)
        for other in range(len(self._decks)):
            if self._pile_has_cards(other):
                return self._take(other)
        return -1

    def _give(self, p: int, card: int) -> None:
        h = self._hands[p]
        h = h[:card] + (h[card] + 1,) + h[card + 1 :]
        self._hands = self._hands[:p] + (h,) + self._hands[p + 1 :]

    def _discard(self, cards: list[int]) -> None:
        if not cards:
            return
        if len(self._discards) == 1:
            self._discards = (self._discards[0] + tuple(cards),)
            return
        disc = list(self._discards)
        for c in cards:
            pile = self._card_pile[c]
            disc[pile] = disc[pile] + (c,)
        self._discards = tuple(disc)

    def _set_slot(self, i: int, card: int) -> None:
        self._row = self._row[:i] + (card,) + self._row[i + 1 :]

    def _deal_row(self) -> None:
        """Deal a whole row (setup, or after a reset), then check for a reset."""
        row = []
        for pile, k in enumerate(self.edition.row_split):
            for _ in range(k):
                row.append(self._take_for_slot(pile))
        self._row = tuple(row)
        self._check_reset()

    def _fill_empty_slots(self) -> None:
        """Refill slots left empty when every pile had run out (after a claim).

        The rules are silent here; refilling as soon as cards exist again
        keeps the row full, as the physical game would.  [rec]
        """
        if -1 not in self._row or not any(self._pile_has_cards(p) for p in range(len(self._decks))):
            return
        split = self.edition.row_split
        for i, card in enumerate(self._row):
            if card == -1:
                pile = 0 if len(split) == 1 else self._slot_home_pile(i)
                self._set_slot(i, self._take_for_slot(pile))
        self._check_reset()

    def _slot_home_pile(self, i: int) -> int:
        acc = 0
        for pile, k in enumerate(self.edition.row_split):
            acc += k
            if i < acc:
                return pile
        return 0  # pragma: no cover

    def _check_reset(self) -> None:
        """Three or more wilds in the row: discard the row and deal a new one (A3)."""
        wilds = self.edition.wild_cards
        if sum([self._row.count(w) for w in wilds]) < 3:
            return
        cap = self.edition.options["max_consecutive_resets"]
        done = 0
        while sum([self._row.count(w) for w in wilds]) >= 3:
            piles = range(len(self._decks))
            if not any(self._pile_has_cards(p) for p in piles):
                return
            if cap is not None and done >= cap:
                return
            if self._reset_futile():
                return
            self._discard([c for c in self._row if c >= 0])
            row = []
            for pile, k in enumerate(self.edition.row_split):
                for _ in range(k):
                    row.append(self._take_for_slot(pile))
            self._row = tuple(row)
            done += 1
            self._resets += 1

    def _reset_futile(self) -> bool:
        """A3 termination guard: whether every possible new row would again
        show three or more wilds.  Each pile deals its share of the row (a
        pile with no cards passes the slot to the first pile that has some,
        A2), from its deck and discard plus the row cards going back to it;
        count the fewest wilds such a deal could hold.  With one pile this is
        "fewer than row_size - 2 non-wilds could be dealt"."""
        wild, npiles = self._wild, len(self._decks)
        n = [len(self._decks[p]) + len(self._discards[p]) for p in range(npiles)]
        nw = [sum(1 for c in self._decks[p] + self._discards[p] if not wild[c]) for p in range(npiles)]
        for c in self._row:
            if c >= 0:
                p = self._card_pile[c]
                n[p] += 1
                nw[p] += not wild[c]
        wilds = 0
        for pile, k in enumerate(self.edition.row_split):
            for _ in range(k):
                q = pile if n[pile] else next((r for r in range(npiles) if n[r]), -1)
                if q < 0:
                    return wilds >= 3
                n[q] -= 1
                if nw[q]:
                    nw[q] -= 1
                else:
                    wilds += 1
        return wilds >= 3

    # ------------------------------------------------------------------ public read API
    @property
    def phase(self) -> Phase:
        return Phase(self._phase)

    @property
    def current_player(self) -> int:
        """The seat whose decision is due (also during setup)."""
        return self._cur

    @property
    def map(self):  # noqa: ANN201
        return self.edition.map

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def move_stack(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        return len(self._moves)

    def card_name(self, card: int) -> str:
        return self.edition.card_types[card].name

    def hand(self, player: int) -> dict[str, int]:
        """A player's cards by name (zero counts left out)."""
        return {self.card_name(i): k for i, k in enumerate(self._hands[player]) if k}

    def hand_size(self, player: int) -> int:
        return sum(self._hands[player])

    @property
    def row(self) -> tuple[str | None, ...]:
        """The face-up cards by name, ``None`` for an empty slot."""
        return tuple(self.card_name(c) if c >= 0 else None for c in self._row)

    def deck_size(self, pile: int = 0) -> int:
        return len(self._decks[pile])

    def discard_size(self, pile: int = 0) -> int:
        return len(self._discards[pile])

    @property
    def ticket_deck_size(self) -> int:
        return len(self._tdeck)

    def tickets(self, player: int):  # noqa: ANN201
        """The tickets a player has kept (``Ticket`` objects)."""
        return tuple(self.map.ticket(t) for t in self._tickets[player])

    @property
    def pending_tickets(self):  # noqa: ANN201
        """Tickets drawn (or dealt) and awaiting the current player's choice."""
        return tuple(self.map.ticket(t) for t in self._pending)

    def pieces(self, player: int) -> int:
        return self._pieces[player]

    def score(self, player: int) -> int:
        """The running score (route points so far)."""
        return self._scores[player]

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores

    def route_owner(self, route_id: int) -> int | None:
        o = self._owners[self.edition.route_index[route_id]]
        return None if o < 0 else o

    def route_owners(self) -> dict[int, int]:
        """``{route id: seat}`` for every claimed route."""
        routes = self.edition.routes
        return {routes[i].id: o for i, o in enumerate(self._owners) if o >= 0}

    def routes_of(self, player: int) -> tuple[int, ...]:
        routes = self.edition.routes
        return tuple(routes[i].id for i, o in enumerate(self._owners) if o == player)

    @property
    def final_turns_left(self) -> int | None:
        """Turns left in the final round once it has started, else ``None``."""
        return None if self._final < 0 else self._final

    @property
    def resets(self) -> int:
        """How many three-wild resets have happened so far."""
        return self._resets

    @property
    def shuffles(self) -> int:
        return self._shuffles

    @property
    def turn_number(self) -> int:
        return self._turn

    # ------------------------------------------------------------------ legal moves
    @property
    def legal_moves(self) -> LegalMoves:
        lm = self._legal
        if lm is None:
            lm = self._legal = LegalMoves(self, self._legal_groups())
        return lm

    def _legal_groups(self) -> list:
        ph = self._phase
        if ph == _TURN:
            groups = self._turn_groups()
            if not groups:
                return [(1, _identity, [Pass()])]
            return groups
        if ph == _SECOND:
            moves = self._second_picks()
            if self.edition.options["allow_single_draw"] and moves:
                moves.append(StopDrawing())
            return [(len(moves), _identity, moves)]
        if ph in (_SETUP_TICKETS, _KEEP):
            moves = self._keep_choices()
            return [(len(moves), _identity, moves)]
        if ph == _OVER:
            return []
        return self._extra_phase_groups(ph)

    def _extra_phase_groups(self, ph: int) -> list:  # pragma: no cover - editions
        raise TtrError(f"phase {ph} not handled by {self.edition.name}")

    def _keep_min(self) -> int:
        k = self.edition.setup_tickets[1] if self._phase == _SETUP_TICKETS else self.edition.draw_tickets[1]
        return min(k, len(self._pending))

    def _keep_choices(self) -> list[Move]:
        pend = sorted(self._pending)
        out: list[Move] = []
        make = KeepTickets.from_sorted
        for k in range(self._keep_min(), len(pend) + 1):
            out.extend([make(c) for c in combinations(pend, k)])
        out.sort()
        return out

    def _row_picks(self) -> tuple[list[Move], list[Move]]:
        """Face-up picks allowed as a first and as a second card, cached by row
        (a row is a tuple of card indices, so equal rows share the entry)."""
        row = self._row
        picks = self._row_cache.get(row)
        if picks is None:
            wild, faceup = self._wild, self._faceup
            first = [m for i, c in enumerate(row) if c >= 0 for m in faceup[i]]
            second = [m for i, c in enumerate(row) if c >= 0 and not wild[c] for m in faceup[i]]
            if len(self._row_cache) > 50_000:  # bound the cache in long sessions
                self._row_cache.clear()
            picks = self._row_cache[row] = (first, second)
        return picks

    def _blind_picks(self) -> list[Move]:
        decks, discards, blind = self._decks, self._discards, self._blind
        if len(decks) == 1:
            return [blind[0]] if decks[0] or discards[0] else []
        return [blind[p] for p in range(len(decks)) if decks[p] or discards[p]]

    def _first_picks(self) -> list[Move]:
        return self._row_picks()[0] + self._blind_picks()

    def _second_picks(self) -> list[Move]:
        return self._row_picks()[1] + self._blind_picks()

    def _turn_groups(self) -> list:
        groups: list = []
        first = self._first_picks()
        if first:
            groups.append((len(first), _identity, first))
        groups.extend(self._claim_groups())
        groups.extend(self._action_groups())
        if self._tdeck:
            groups.append((1, _identity, [DrawTickets()]))
        return groups

    def _action_groups(self) -> list:
        """Hook: groups for edition actions (stations, harbors, exchanges)."""
        return []

    def route_open_to(self, route_id: int, player: int) -> bool:
        """Whether ``player`` could ever still claim this route: it is free and
        the double-route rule allows it (cards and pieces aside).  Analysis
        uses this to know which routes a ticket path may still take."""
        ri = self.edition.route_index[route_id]
        return self._owners[ri] < 0 and self._double_rule(player, ri) is None

    def _double_rule(self, p: int, ri: int) -> tuple[str, str] | None:
        ed = self.edition
        partner = ed.route_partner[ri]
        if partner >= 0:
            po = self._owners[partner]
            if po >= 0 and self.n < ed.double_route_min_players:
                return (R_CLAIM, f"with {self.n} players only one route of a double route is used, and the other is claimed")
            if po == p:
                return (R_CLAIM, "no player may own both routes of a double route")
        return None

    def _claimable(self, p: int, ri: int) -> tuple[str, str] | None:
        """Why route index ``ri`` cannot be claimed by ``p`` now, ignoring cards."""
        ed = self.edition
        if self._owners[ri] >= 0:
            return (R_CLAIM, f"route {ed.routes[ri].id} ({ed.route_labels[ri]}) is already claimed")
        why = self._double_rule(p, ri)
        if why:
            return why
        if self._pieces_for_route(p, ri) < ed.route_length[ri]:
            return (R_CLAIM, f"not enough pieces: route needs {ed.route_length[ri]}, player has {self._pieces_for_route(p, ri)}")
        return None

    def _pieces_for_route(self, p: int, ri: int) -> int:
        return self._pieces[p]

    def _claim_groups(self) -> list:
        """One group per claimable route, its size the number of payments.

        Routes are visited by (colour, length) class, so a class the hand
        cannot pay for is skipped whole; the groups are then put in route-id
        order so the legal moves come out sorted.
        """
        p = self._cur
        hand = self._hands[p]
        ed = self.edition
        wild_idx = ed.wild_cards[0]
        wilds = hand[wild_idx]
        counts = hand[:wild_idx]
        total = wilds + sum(counts)
        limit = min(total, self._pieces[p])
        owners = self._owners
        partner = ed.route_partner
        found = []
        build = self._claim_options
        for (color, L, m, _), members in zip(self._route_classes, self._free):
            if L > limit:
                break
            if not members:
                continue
            if color is None:
                n = 1 if wilds >= L else 0
                top = wilds if wilds < L else L - 1
                for c in counts:
                    if c:
                        lo = L - c if c < L else 0
                        if lo < m:
                            lo = m
                        if top >= lo:
                            n += top - lo + 1
            else:
                c = counts[color]
                if c + wilds < L:
                    continue
                top = wilds if wilds < L else L - 1
                lo = L - c if c < L else 0
                if lo < m:
                    lo = m
                n = (1 if wilds >= L else 0) + (top - lo + 1 if top >= lo else 0)
            if not n:
                continue
            for ri in members:
                pr = partner[ri]
                if pr >= 0 and owners[pr] == p:
                    continue  # no player may own both routes of a double
                found.append((ri, n))
        found.sort()
        return [(n, build, ri) for ri, n in found]

    def _claim_options(self, ri: int) -> list[Move]:
        ed = self.edition
        hand = self._hands[self._cur]
        wild_idx = ed.wild_cards[0]
        names = ed.card_types
        route = ed.routes[ri]
        label = ed.route_labels[ri]
        out = []
        wname = names[wild_idx].name
        for color, k, w in basic_payment_options(
            color=self._route_color[ri], length=route.length, counts=hand[:wild_idx], wilds=hand[wild_idx], min_wilds=route.locomotives
        ):
            cards = []
            if color is not None:
                cards.append((names[color].name, k))
            if w:
                cards.append((wname, w))
            cards.sort()
            out.append(ClaimRoute(route.id, tuple(cards), label))
        out.sort()
        return out

    # ------------------------------------------------------------------ validation
    def why_illegal(self, move: Move | str) -> tuple[str, str] | None:
        """``None`` if ``move`` is legal, else ``(rule, reason)``.

        ``rule`` is the RULES.md section that forbids it.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.why_illegal("tickets")
        ('A5', 'players are choosing their initial tickets; expected a keep move')
        """
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except InvalidMoveError as e:
                return ("notation", str(e))
        if not isinstance(move, Move):
            return ("notation", f"not a move: {move!r}")
        ph = self._phase
        if ph == _OVER:
            return (R_END, "the game is over")
        check = self._checks.get(type(move))
        if check is None:
            return (R_TURN, f"{type(move).__name__} is not an action of {self.edition.name}")
        return check(self, move)

    def _phase_error(self, expected: str) -> tuple[str, str]:
        what = {
            _SETUP_TICKETS: "players are choosing their initial tickets; expected a keep move",
            _TURN: "it is the start of a turn; expected an action",
            _SECOND: "a card draw is under way; expected a second card",
            _KEEP: "tickets were drawn; expected a keep move",
            _TUNNEL: "a tunnel claim is under way; expected to pay or decline",
            _PIECES: "players are choosing their pieces",
        }.get(self._phase, f"phase {self.phase.name}")
        rule = R_TICKETS if self._phase in (_SETUP_TICKETS, _KEEP) else R_TURN
        return (rule, what)

    def _check_pass(self, move: Pass) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("pass")
        if self._turn_groups():
            return (R_TURN, "a player may pass only when no action is legal")
        return None

    def _check_faceup(self, move: DrawFaceUp) -> tuple[str, str] | None:
        ph = self._phase
        if ph not in (_TURN, _SECOND):
            return self._phase_error("draw")
        if not 1 <= move.slot <= len(self._row):
            return (R_DRAW, f"there is no face-up slot {move.slot} (slots 1-{len(self._row)})")
        card = self._row[move.slot - 1]
        if card < 0:
            return (R_DRAW, f"face-up slot {move.slot} is empty")
        if ph == _SECOND and self._wild[card]:
            return (R_DRAW, "a face-up wild card cannot be taken as the second card")
        return self._check_refill(move)

    def _check_refill(self, move: DrawFaceUp) -> tuple[str, str] | None:
        if move.refill is not None:
            return (R_DRAW, f"{self.edition.name} has one deck; a refill pile cannot be chosen")
        return None

    def _check_blind(self, move: DrawBlind) -> tuple[str, str] | None:
        if self._phase not in (_TURN, _SECOND):
            return self._phase_error("draw")
        pile = self._pile_by_name.get(move.pile)
        if pile is None:
            return (R_DRAW, f"unknown pile {move.pile!r} (piles: {', '.join(self.edition.pile_names)})")
        if not self._pile_has_cards(pile):
            return (R_DRAW, "the draw pile and its discard are empty")
        return None

    def _check_stop(self, move: StopDrawing) -> tuple[str, str] | None:
        if self._phase != _SECOND:
            return (R_DRAW, "stopping is only possible after the first card of a draw")
        if not self.edition.options["allow_single_draw"]:
            return (R_DRAW, "the second card is mandatory while one can be drawn (option allow_single_draw is off; C6)")
        return None

    def _check_tickets(self, move: DrawTickets) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("tickets")
        if not self._tdeck:
            return (R_TICKETS, "the ticket deck is empty")
        return None

    def _check_keep(self, move: KeepTickets) -> tuple[str, str] | None:
        if self._phase not in (_SETUP_TICKETS, _KEEP):
            return self._phase_error("keep")
        pend = set(self._pending)
        extra = [t for t in move.tickets if t not in pend]
        if extra:
            return (R_TICKETS, f"ticket {extra[0]} is not among the tickets drawn ({', '.join(map(str, sorted(pend)))})")
        if len(set(move.tickets)) != len(move.tickets):
            return (R_TICKETS, "a ticket is named twice")
        need = self._keep_min()
        if len(move.tickets) < need:
            where = "at setup" if self._phase == _SETUP_TICKETS else "after a draw"
            rule = "B1" if self._phase == _SETUP_TICKETS else R_TICKETS
            return (rule, f"must keep at least {need} of the {len(pend)} tickets {where}")
        return None

    def _check_claim(self, move: ClaimRoute) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("claim")
        ri = self.edition.route_index.get(move.route)
        if ri is None:
            return (R_CLAIM, f"there is no route {move.route} on the {self.map.id} map")
        why = self._claimable(self._cur, ri)
        if why:
            return why
        cards = self._hand_cards(move.cards, R_CLAIM)
        if isinstance(cards, tuple):
            return cards  # (rule, reason)
        if not cards:
            return (R_CLAIM, "a claim needs cards")
        return self._check_payment(ri, cards)

    def _hand_cards(self, cards: Any, rule: str) -> list[tuple[int, int]] | tuple[str, str]:
        """Card names to ``(index, count)`` pairs, checked against the current
        player's hand; or ``(rule, reason)``.  A card named twice is refused,
        so a hand-made move cannot pass the check twice with the same cards."""
        index = self.edition.card_index
        hand = self._hands[self._cur]
        out = []
        seen = set()
        for name, k in cards:
            c = index.get(name)
            if c is None:
                return (rule, f"unknown card {name!r} (cards: {', '.join(index)})")
            if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
                return (rule, f"card count must be positive ({name}:{k})")
            if c in seen:
                return (rule, f"card {name} is named twice")
            seen.add(c)
            if hand[c] < k:
                return (rule, f"player has {hand[c]} {name}, not {k}")
            out.append((c, k))
        return out

    def _card_indices(self, cards: tuple[tuple[str, int], ...]):  # noqa: ANN202
        index = self.edition.card_index
        out = []
        for name, k in cards:
            c = index.get(name)
            if c is None:
                return (R_CLAIM, f"unknown card {name!r} (cards: {', '.join(index)})")
            if k <= 0:
                return (R_CLAIM, f"card count must be positive ({name}:{k})")
            out.append((c, k))
        return out

    def _check_payment(self, ri: int, cards: list[tuple[int, int]]) -> tuple[str, str] | None:
        """Basic payment (A4): exactly L cards, one colour (the route's), wilds stand in."""
        route = self.edition.routes[ri]
        n = sum(k for _, k in cards)
        colors = {c for c, _ in cards if not self._wild[c]}
        if len(colors) > 1:
            return (R_CLAIM, "mixed colours: every non-wild card must be of one colour")
        if n != route.length:
            return (R_CLAIM, f"must pay exactly {route.length} cards, not {n}")
        want = self._route_color[ri]
        if colors and want is not None and colors != {want}:
            return (R_CLAIM, f"a {route.color} route takes {route.color} cards (and wilds), not {self.card_name(colors.pop())}")
        wilds = sum(k for c, k in cards if self._wild[c])
        if wilds < route.locomotives:
            return ("B3", f"this ferry needs at least {route.locomotives} locomotives, not {wilds}")
        return None

    _checks: dict[type, Callable[["GameState", Any], tuple[str, str] | None]] = {
        Pass: _check_pass,
        DrawFaceUp: _check_faceup,
        DrawBlind: _check_blind,
        StopDrawing: _check_stop,
        DrawTickets: _check_tickets,
        KeepTickets: _check_keep,
        ClaimRoute: _check_claim,
    }

    # ------------------------------------------------------------------ play / push / pop
    def play(self, move: Move | str) -> None:
        """Validate and play a move (or its notation).

        Raises :class:`~ttr_lab.errors.IllegalMoveError` naming the rule and
        leaves the game unchanged.
        """
        if isinstance(move, str):
            move = parse_move(move)
        why = self.why_illegal(move)
        if why is not None:
            raise IllegalMoveError(move, rule=why[0], reason=why[1])
        self.push(move)

    def push(self, move: Move) -> None:
        """Play a move without checking it (the fast path for bots and search)."""
        self._stack.append(self.__dict__.copy())
        self._moves.append(move)
        self._legal = None
        self._apply[type(move)](self, move)

    def pop(self) -> Move:
        """Undo the last move, restoring the exact previous position."""
        if not self._moves:
            raise IndexError("pop from an empty move stack")
        move = self._moves.pop()
        self.__dict__ = self._stack.pop()
        self._legal = None
        return move

    def peek(self) -> Move | None:
        return self._moves[-1] if self._moves else None

    def copy(self, *, stack: bool = False) -> "GameState":
        """An independent copy; with ``stack=True`` it can also undo."""
        other = object.__new__(type(self))
        other.__dict__ = self.__dict__.copy()
        other._legal = None
        other._moves = list(self._moves) if stack else []
        # the copy owns its snapshots: pop() adopts a snapshot as the live __dict__
        other._stack = [dict(s) for s in self._stack] if stack else []
        return other

    # ------------------------------------------------------------------ move effects
    def _end_turn(self) -> None:
        p = self._cur
        if self._final >= 0:
            self._final -= 1
            if self._final == 0:
                self._game_over()
                return
        elif self._total_pieces(p) <= self.edition.end_threshold:
            self._final = self.n * self.edition.final_turns
        if self._passes >= self.n:
            self._game_over()
            return
        self._turn += 1
        self._cur = (p + 1) % self.n
        self._phase = _TURN

    def _total_pieces(self, p: int) -> int:
        return self._pieces[p]

    def _game_over(self) -> None:
        self._phase = _OVER
        self._turn += 1

    def _after_first_card(self, wild_face_up: bool) -> None:
        if wild_face_up or not self._second_picks():
            self._end_turn()
        else:
            self._phase = _SECOND

    def _apply_faceup(self, move: DrawFaceUp) -> None:
        i = move.slot - 1
        card = self._row[i]
        self._give(self._cur, card)
        pile = self._refill_pile(move, i)
        self._set_slot(i, self._take_for_slot(pile))
        self._check_reset()
        self._passes = 0
        if self._phase == _TURN:
            self._after_first_card(self._wild[card])
        else:
            self._end_turn()

    def _refill_pile(self, move: DrawFaceUp, slot: int) -> int:
        return 0

    def _apply_blind(self, move: DrawBlind) -> None:
        card = self._take(self._pile_by_name[move.pile])
        self._give(self._cur, card)
        self._passes = 0
        if self._phase == _TURN:
            self._after_first_card(False)
        else:
            self._end_turn()

    def _apply_stop(self, move: StopDrawing) -> None:
        self._end_turn()

    def _apply_pass(self, move: Pass) -> None:
        self._passes += 1
        self._end_turn()

    def _apply_tickets(self, move: DrawTickets) -> None:
        k = min(self.edition.draw_tickets[0], len(self._tdeck))
        self._pending = self._tdeck[-1 : -k - 1 : -1]
        self._tdeck = self._tdeck[:-k]
        self._passes = 0
        self._phase = _KEEP

    def _apply_keep(self, move: KeepTickets) -> None:
        p = self._cur
        kept = move.tickets
        returned = tuple(t for t in self._pending if t not in kept)
        self._tickets = self._tickets[:p] + (self._tickets[p] + kept,) + self._tickets[p + 1 :]
        self._pending = ()
        if self._phase == _SETUP_TICKETS:
            self._return_setup_tickets(returned)
            nxt = (p + 1) % self.n
            if nxt == self._first:
                self._setup_deal = ()
                self._start_play()
            else:
                self._cur = nxt
                self._pending = self._setup_deal[nxt]
        else:
            # returned tickets go to the bottom, the first returned lowest (A5)
            self._tdeck = tuple(reversed(returned)) + self._tdeck
            self._end_turn()

    def _return_setup_tickets(self, returned: tuple[int, ...]) -> None:
        self._tdeck = tuple(reversed(returned)) + self._tdeck

    def _start_play(self) -> None:
        if self.edition.options["deal_row_after_tickets"]:
            self._deal_row()
        self._cur = self._first
        self._phase = _TURN

    def _apply_claim(self, move: ClaimRoute) -> None:
        ed = self.edition
        ri = ed.route_index[move.route]
        index = ed.card_index
        self._pay([(index[name], k) for name, k in move.cards])
        self._complete_claim(ri)

    def _pay(self, cards: list[tuple[int, int]]) -> None:
        p = self._cur
        h = list(self._hands[p])
        spent = []
        for c, k in cards:
            h[c] -= k
            spent.extend([c] * k)
        self._hands = self._hands[:p] + (tuple(h),) + self._hands[p + 1 :]
        self._discard(spent)

    def _complete_claim(self, ri: int) -> None:
        p = self._cur
        ed = self.edition
        L = ed.route_length[ri]
        self._owners = self._owners[:ri] + (p,) + self._owners[ri + 1 :]
        self._mark_taken(ri)
        self._use_pieces(p, ri, L)
        self._scores = self._scores[:p] + (self._scores[p] + ed.route_points[L],) + self._scores[p + 1 :]
        self._passes = 0
        self._fill_empty_slots()
        self._end_turn()

    def _derive_free(self) -> None:
        """Recompute ``_free``: per route class, the routes nobody can claim
        any more are left out (claimed ones, and with few players the other
        side of a claimed double).  Derived from the owners; kept up to date by
        :meth:`_mark_taken` so move generation skips claimed routes."""
        owners = self._owners
        partner = self.edition.route_partner
        close = self.n < self.edition.double_route_min_players
        self._free = tuple(
            tuple(ri for ri in members if owners[ri] < 0 and not (close and partner[ri] >= 0 and owners[partner[ri]] >= 0))
            for *_, members in self._route_classes
        )

    def _mark_taken(self, ri: int) -> None:
        cls = self._route_class_of
        gone = [ri]
        pr = self.edition.route_partner[ri]
        if pr >= 0 and self.n < self.edition.double_route_min_players:
            gone.append(pr)
        free = list(self._free)
        for r in gone:
            ci = cls[r]
            free[ci] = tuple(x for x in free[ci] if x != r)
        self._free = tuple(free)

    def _use_pieces(self, p: int, ri: int, n: int) -> None:
        self._pieces = self._pieces[:p] + (self._pieces[p] - n,) + self._pieces[p + 1 :]

    _apply: dict[type, Callable[["GameState", Any], None]] = {
        Pass: _apply_pass,
        DrawFaceUp: _apply_faceup,
        DrawBlind: _apply_blind,
        StopDrawing: _apply_stop,
        DrawTickets: _apply_tickets,
        KeepTickets: _apply_keep,
        ClaimRoute: _apply_claim,
    }

    # ------------------------------------------------------------------ results and views
    def outcome(self) -> "Outcome":
        """Final scores with the full breakdown (also mid-game, as if it ended now)."""
        from .scoring import outcome

        return outcome(self)

    def view(self, player: int) -> "PlayerView":
        """What ``player`` may see: own hand and tickets, public information."""
        from .view import PlayerView

        return PlayerView(self, player)

    def describe(self, move: Move) -> str:
        """A sentence for people: ``"claim Seattle-Portland (1) with 1 red"``."""
        from .notation import describe_move

        return describe_move(self, move)

    def to_dict(self) -> dict[str, Any]:
        """A full position snapshot (JSON-ready); see :mod:`ttr_lab.records`."""
        from .records import position_to_dict

        return position_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameState":
        from .records import position_from_dict

        return position_from_dict(data)

    def problems(self) -> list[str]:
        """Conservation violations (an empty list for every reachable position)."""
        from .records import position_problems

        return position_problems(self)

    # hooks for editions with more state (see ttr_lab.records)
    def _extra_to_dict(self) -> dict[str, Any]:
        return {}

    def _extra_from_dict(self, data: dict[str, Any]) -> None:
        if data:
            raise TtrError(f"{self.edition.name} positions have no extra fields, got {sorted(data)}")

    def _piece_problems(self) -> list[str]:
        out = []
        ed = self.edition
        for p in range(self.n):
            placed = sum(ed.route_length[i] for i, o in enumerate(self._owners) if o == p)
            if placed + self._pieces[p] != ed.pieces:
                out.append(f"player {p} has {self._pieces[p]} trains and {placed} placed, expected {ed.pieces} in all")
        return out

    def _cards_elsewhere(self) -> list[int]:
        """Cards outside decks, discards, row and hands (e.g. a tunnel's reveal)."""
        return []

    def _ticket_extra(self) -> list[int]:
        """Tickets held somewhere besides deck, hands and pending (e.g. the box)."""
        return []

    def _ticket_universe(self) -> tuple[int, ...]:
        return self.edition.ticket_deck()

    def _score_offset(self, player: int) -> int:
        """Running-score points that are not route points (e.g. exchanges)."""
        return 0

    def __repr__(self) -> str:
        return (
            f"<GameState {self.edition.name} {self.n} players seed={self.seed} ply={self.ply} "
            f"phase={self.phase.name} current={self._cur}>"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Show the board in Jupyter (plotly is imported only here)."""
        try:
            from .render import board_figure
        except ImportError:  # plotly missing: plain text only
            return {"text/plain": repr(self)}
        bundle = board_figure(self)._repr_mimebundle_(include, exclude)
        bundle["text/plain"] = repr(self)
        return bundle


def new_game(edition: Edition | str = "usa", players: int | list[str] = 4, *, seed: int = 0, **options: Any) -> GameState:
    """Start a game: ``new_game("usa", players=4, seed=7)``.

    >>> g = new_game("europe" if False else "usa", players=["Ada", "Bob"], seed=3)
    >>> g.player_names
    ('Ada', 'Bob')
    """
    return GameState(edition, players, seed=seed, **options)
