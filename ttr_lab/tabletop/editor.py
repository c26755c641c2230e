"""The position editor: a game in progress, from the facts one seat knows.

At a table (or from a photo of one) a player knows who owns which routes;
their own hand and tickets; the face-up row; how many cards are in the
deck, on the discard and in each opponent's hand; how many tickets each
opponent holds; perhaps the cards on the discard; the trains left (which
must agree with the routes owned); and the facts of the edition's own rules
(its ``editor_facts``: Europe's stations, Rails & Sails' harbors, ships and
exchanges, a plug-in edition's own, read by its rules' table hooks
:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.table_pieces` and
:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.table_extra`).  :func:`seat_view`
turns those facts into a :class:`~ttr_lab.engine.view.PlayerView` from that seat,
with the unknowns left unknown.

It builds a complete :class:`~ttr_lab.engine.state.GameState` whose hidden parts
(the other hands and tickets, the deck order, the discard's cards not given)
are filled arbitrarily but consistently, checked by
:meth:`GameState.from_dict`, and returns ``state.view(seat)``.  **Only the
view is meaningful**: the filling is one of many;
:func:`ttr_lab.analysis.hidden.sample_states` resamples the hidden parts
from the view (the view starts the seat's memory here: it has no history).
The discard's cards are public in a view (every card reaches it face up):
give them (``discard=[...]``) when you know them, else the ones not given
are a filling too.

Impossible positions are refused with the reason (a
:class:`~ttr_lab.errors.TtrError`): too many cards of a colour, more routes
than trains, trains left that do not match the routes, a double route owned
both ways (by one player, or at all with 2-3 players), a ticket both mine
and another's (or pending), counts that do not add up to the deck.

>>> v = seat_view("usa", players=["Me", "Ann", "Bo"], seat=0,
...               routes={"Me": [1], "Ann": [57]}, hand={"red": 3, "loco": 1}, tickets=[1, 14],
...               row=["blue", "blue", "green", "white", "black"], deck=83,
...               discard=["red", "red"], hand_sizes={"Ann": 7, "Bo": 9}, ticket_counts={"Ann": 2, "Bo": 3})
>>> v.hand, [t.id for t in v.tickets], v.hand_sizes, v.ticket_counts, v.pieces
({'red': 3, 'loco': 1}, [1, 14], (4, 7, 9), (2, 2, 3), (43, 43, 45))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.phases import Phase
from ..engine.position import position_to_dict
from ..engine.rules import EditionBase, Table
from ..engine.rules.setup import seat_names
from ..engine.state import GameState
from ..engine.view import PlayerView
from ..errors import NotFoundError, RecordError, TtrError
from .score_sheet import PlayerKey, _by_seat, _edition, _extra, _facts, _items, _owners

__all__ = ["seat_view", "filled_state"]

Sizes = int | Mapping[str, int]


def _one_seat(what: str, key: Any, names: tuple[str, ...]) -> int:
    """A player given by name or seat number -> the seat (``seat=[]`` is refused by name)."""
    if type(key) is not int and not isinstance(key, str):
        raise TtrError(f"{what} is a player's name or seat number, not {type(key).__name__}")
    seat: int = next(iter(_by_seat(what, {key: 0}, names)))
    return seat


def _pile_sizes(ed: Any, what: str, value: Any) -> list[int]:
    """A count for the one pile, or ``{pile name: count}`` (Rails & Sails: trains, ships)."""
    piles = ed.pile_names
    if type(value) is int and (len(piles) == 1 or value == 0):
        out = [value] * len(piles)
    elif isinstance(value, Mapping) and set(value) <= set(piles):
        out = [value.get(p, 0) for p in piles]
    else:
        form = "a number" if len(piles) == 1 else f"{{{', '.join(repr(p) + ': n' for p in piles)}}}"
        raise TtrError(f"{what} is {form}, not {str(value)[:60]!r}")
    if not all(type(k) is int and 0 <= k <= ed.total_cards for k in out):
        raise TtrError(f"{what}: card counts are whole numbers from 0 to {ed.total_cards}")
    return out


def _cards(ed: Any, what: str, value: Any) -> list[int]:
    """Card names (a list) or ``{name: count}`` -> card indices."""
    index = ed.card_index
    items = list(value.items()) if isinstance(value, Mapping) else [(c, 1) for c in _items(what, value)]
    out = []
    for name, k in items:
        if not isinstance(name, str) or name not in index:
            raise NotFoundError(f"{what}: no card {str(name)[:40]!r} in {ed.name} (cards: {', '.join(index)})")
        if type(k) is not int or not 0 <= k <= ed.total_cards:
            raise TtrError(f"{what}: {name}: a count from 0 to {ed.total_cards}, not {str(k)[:40]}")
        out += [index[name]] * k
    return out


def filled_state(
    edition: EditionBase | str,
    *,
    players: int | Sequence[str],
    seat: PlayerKey,
    routes: Mapping[PlayerKey, Sequence[int]] | None = None,
    hand: Mapping[str, int] | None = None,
    tickets: Sequence[int] = (),
    pending: Sequence[int] | int = (),
    row: Sequence[str | None] = (),
    deck: Sizes | None = None,
    discard: Sizes | Sequence[str] = 0,
    hand_sizes: Mapping[PlayerKey, Sizes] | None = None,
    ticket_counts: Mapping[PlayerKey, int] | None = None,
    to_move: PlayerKey | None = None,
    phase: str = "turn",
    final_turns_left: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    **facts: Any,
) -> GameState:
    """The complete state behind :func:`seat_view` (its hidden parts are an arbitrary filling)."""
    ed: Any = _edition(edition, options)
    names = seat_names(players, ed)
    n = len(names)
    me = _one_seat("seat", seat, names)
    cur = me if to_move is None else _one_seat("to_move", to_move, names)
    rng = random.Random(f"ttr_lab.tabletop:{seed}")
    d = position_to_dict(GameState(ed, list(names), seed=seed))  # the base skeleton; every entry is set below
    given = _facts(ed, facts, ed.editor_facts)
    owner = _owners(ed, n, names, _by_seat("routes", routes, names))
    d["owners"] = {str(r): s for r, s in sorted(owner.items())}
    points = [0] * n
    for r, s in owner.items():
        points[s] += ed.route_points[ed.map.route(r).length]
    t = Table(names, owner, given, seat=me, rng=rng, scores=points)
    ed.table_pieces(t)
    try:
        ph = Phase.named(phase)
    except TtrError as e:
        raise TtrError(f"phase: {e}") from e
    if ph not in (Phase.TURN, Phase.SECOND_CARD, Phase.KEEP_TICKETS):
        raise TtrError(f"phase: the editor makes positions in play (turn, second_card, keep_tickets), not {phase!r}")
    _fill_cards(ed, d, names, me, rng, hand or {}, row, deck, discard, hand_sizes)
    _fill_tickets(ed, d, names, me, cur, rng, tickets, pending, ticket_counts, ph)
    t.tickets, t.pending = d["tickets"], d["pending"]
    ed.table_extra(t)
    d.update(pieces=t.pieces, scores=t.scores, extra=_extra(ed, t))
    if final_turns_left is not None and (type(final_turns_left) is not int or final_turns_left < 1):
        raise TtrError("final_turns_left is a number of turns (1 or more), or None before the final round")
    d.update(phase=ph.name.lower(), current=cur, turn=n, final_turns_left=final_turns_left, setup_deal=[])
    try:
        return GameState.from_dict(d, "position")
    except RecordError as e:
        raise TtrError(f"impossible position: {e.problem}") from e


def _fill_cards(
    ed: Any,
    d: dict[str, Any],
    names: tuple[str, ...],
    me: int,
    rng: random.Random,
    hand: Mapping[str, int],
    row: Sequence[str | None],
    deck: Any,
    discard: Any,
    hand_sizes: Any,
) -> None:
    n, npiles = len(names), len(ed.pile_names)
    pile = ed._card_pile
    if not isinstance(hand, Mapping):
        raise TtrError(f"hand is {{card: count}}, not {type(hand).__name__}")
    mine = _cards(ed, "hand", hand)
    if not isinstance(row, (list, tuple)) or len(row) != ed.row_size:
        raise TtrError(f"row lists the {ed.row_size} face-up cards (None for an empty slot), not {str(row)[:80]!r}")
    index = ed.card_index
    for i, c in enumerate(row):
        if c is not None and c not in index:
            raise NotFoundError(f"row[{i}]: no card {str(c)[:40]!r} in {ed.name} (cards: {', '.join(index)})")
    shown = [index[c] for c in row if c is not None]
    if isinstance(discard, (list, tuple)):
        seen = _cards(ed, "discard", discard)
        disc = [sum(1 for c in seen if pile[c] == k) for k in range(npiles)]
    else:
        seen, disc = [], _pile_sizes(ed, "discard", discard)
    left = Counter({c: k for comp in ed.deck_composition for c, k in comp})
    used = Counter(mine) + Counter(shown) + Counter(seen)
    for c, k in sorted(used.items()):
        if k > left[c]:
            raise TtrError(
                f"too many {ed.card_name(c)} cards: the game has {left[c]}, but the hand holds {mine.count(c)}, "
                f"the row shows {shown.count(c)} and the discard {seen.count(c)}"
            )
    left -= used
    sizes = _by_seat("hand_sizes", hand_sizes, names)
    hands_p = [[0] * npiles for _ in range(n)]
    for q in range(n):
        if q == me:
            if q in sizes and sum(_pile_sizes(ed, "hand_sizes", sizes[q])) != len(mine):
                raise TtrError(f"hand_sizes[{names[q]}]: your hand holds {len(mine)} cards")
            continue
        hands_p[q] = _pile_sizes(ed, f"hand_sizes[{names[q]}]", sizes.get(q, 0))
    pools = [[c for c in sorted(left.elements()) if pile[c] == k] for k in range(npiles)]
    decks = [0] * npiles
    for k in range(npiles):
        want = sum(h[k] for h in hands_p) + (disc[k] - sum(1 for c in seen if pile[c] == k))
        room = len(pools[k]) - want
        if deck is None:
            decks[k] = room
        else:
            decks[k] = _pile_sizes(ed, "deck", deck)[k]
        what = f" of the {ed.pile_names[k]} pile" if npiles > 1 else ""
        if room < 0 or decks[k] != room:
            hidden = " + ".join(f"{names[q]} {hands_p[q][k]}" for q in range(n) if q != me)
            raise TtrError(
                f"the card counts do not add up: {len(pools[k])} cards{what} are not in your hand, the row or "
                f"the discard as given, but the deck ({decks[k] if deck is not None else '?'}), the rest of the "
                f"discard ({disc[k] - sum(1 for c in seen if pile[c] == k)}) and the other hands ({hidden}) hold "
                f"{want + (decks[k] if deck is not None else 0)}"
            )
        rng.shuffle(pools[k])
    cards = ed.card_types
    hands: list[dict[str, int]] = [{} for _ in range(n)]
    for c in mine:
        hands[me][cards[c].name] = hands[me].get(cards[c].name, 0) + 1
    for q in range(n):
        for k in range(npiles):
            for _ in range(hands_p[q][k]):
                c = pools[k].pop()
                hands[q][cards[c].name] = hands[q].get(cards[c].name, 0) + 1
    discards = {}
    for k, p in enumerate(ed.pile_names):
        own = [cards[c].name for c in seen if pile[c] == k]
        rest = [cards[pools[k].pop()].name for _ in range(disc[k] - len(own))]
        discards[p] = rest + own
    d["hands"] = [dict(sorted(h.items())) for h in hands]
    d["row"] = list(row)
    d["discards"] = discards
    d["decks"] = {p: [cards[c].name for c in pools[k]] for k, p in enumerate(ed.pile_names)}


def _fill_tickets(
    ed: Any,
    d: dict[str, Any],
    names: tuple[str, ...],
    me: int,
    cur: int,
    rng: random.Random,
    tickets: Sequence[int],
    pending: Sequence[int] | int,
    counts: Any,
    ph: Phase,
) -> None:
    n = len(names)
    universe = list(ed.ticket_universe())
    known = set(universe)
    longs = set(ed.long_tickets)
    mine = _items("tickets", tickets)
    pend = list(pending) if isinstance(pending, (list, tuple)) else None
    for what, ids in (("tickets", mine), ("pending", pend or [])):
        for t in ids:
            if type(t) is not int or t not in known:
                raise NotFoundError(f"{what}: there is no ticket {str(t)[:40]} in {ed.name}")
    twice = sorted(t for t, k in Counter(mine + (pend or [])).items() if k > 1)
    if twice:
        both = "both yours and pending" if pend and twice[0] in pend and twice[0] in mine else "given twice"
        raise TtrError(f"tickets: ticket {twice[0]} is {both}")
    if sum(t in longs for t in mine) > 1:
        raise TtrError("tickets: more than one long ticket, but each player is dealt one")
    given = _by_seat("ticket_counts", counts, names)
    if me in given and given[me] != len(mine):
        raise TtrError(f"ticket_counts[{names[me]}]: you hold {len(mine)} tickets (those given)")
    keep = ph == Phase.KEEP_TICKETS
    if keep and cur == me and not pend:
        raise TtrError("pending: a ticket choice of yours is due: list the tickets you are choosing from")
    if pend and (not keep or cur != me):
        raise TtrError("pending: tickets are pending only while you choose (phase keep_tickets, to_move you)")
    if keep and cur != me and not (type(pending) is int and 1 <= pending <= ed.draw_tickets[0]):
        raise TtrError(f"pending: another seat is choosing: give how many tickets it drew (1-{ed.draw_tickets[0]})")
    free = [t for t in universe if t not in set(mine) | set(pend or []) and t not in longs]
    rng.shuffle(free)
    held: list[list[int]] = [[] for _ in range(n)]
    held[me] = mine
    for q in range(n):
        if q == me:
            continue
        k = given.get(q, 0)
        if type(k) is not int or not 0 <= k <= len(free):
            raise TtrError(
                f"ticket_counts[{names[q]}]: {str(k)[:40]} tickets cannot be held (at most {len(free)} left)"
            )
        held[q] = [free.pop() for _ in range(k)]
    d["tickets"] = held
    d["pending"] = pend if pend else [free.pop() for _ in range(pending if keep and type(pending) is int else 0)]
    d["ticket_deck"] = free  # the long tickets nobody holds are out of play (the edition's table_extra)


def seat_view(edition: EditionBase | str, *, players: int | Sequence[str], seat: PlayerKey, **facts: Any) -> PlayerView:
    """A position in progress from the facts ``seat`` knows, as that seat's view (see the module doc).

    Keyword arguments (players by name or seat): ``routes``
    (``{player: [...]}``); ``hand`` (``{card: count}``),
    ``tickets`` (ids), ``pending`` (ids you are choosing from); ``row`` (the
    face-up cards, None for an empty slot); ``deck`` (cards in the deck;
    default: the rest), ``discard`` (a count, or the cards on it);
    ``hand_sizes`` and ``ticket_counts`` (``{player: n}``; Rails & Sails hand
    sizes ``{"trains": a, "ships": b}``); ``trains`` (``{player: left}``,
    checked); ``to_move``, ``phase`` (``"turn"``, ``"second_card"``,
    ``"keep_tickets"``), ``final_turns_left``, ``options``, ``seed`` (of the
    filling); and the edition's own facts (``edition.editor_facts``):
    ``stations`` (Europe), ``harbors``, ``ships``, ``exchanged`` (Rails &
    Sails), a plug-in edition's own (a fact another edition has is an error).
    """
    state = filled_state(edition, players=players, seat=seat, **facts)
    return state.view(_one_seat("seat", seat, state.player_names))
