"""What the kernel reads: an edition and a position as flat int32 arrays.

The kernel never sees a Python object of the game.  :func:`edition_spec`
and :func:`position_array` write what it needs as ``array("i")`` values in
the layouts below, and the C side checks every field before any work
(``ttr_lab/bots/kernel/_read.c``): a malformed array raises
:class:`~ttr_lab.errors.TtrError` naming the field, never a crash.

:func:`unsupported` says why an edition is not (yet) the kernel's: only the
USA family (USA, 1910, Mega Game, Big Cities, with any of their options,
also on a custom map of plain train routes and two-city tickets) passes the
referee checks so far; any other edition, a subclass, a plug-in's rules or
a change to the position fields plays in Python.

Edition layout (version 1)
--------------------------
====  =========================================================================
0     magic ``0x54545231``; 1: version 1; 2: rules family (1: USA)
3-7   cities, routes, card types, the wild card's index (the last), tickets
8-12  row size, pieces, end threshold, final turns, players for double routes
13-16 setup deal and keep, ticket draw and keep
17-23 Longest Path bonus, Globetrotter bonus, tie-break by path length (0/1),
      max consecutive resets (-1: none), deal the row after the tickets (0/1),
      allow a single draw (0/1), the longest route
then  route points per length 1..longest; the deck's count per card type; the
      alphabetical rank of each card's name (a claim's cards are in name order);
      per route (by index): id, city a, city b, length, colour card (-1 gray),
      index of its double (-1); per ticket: id, city a, city b, points, penalty
====  =========================================================================

Position layout (version 1)
---------------------------
====  =========================================================================
0-10  magic ``0x54545253``, version 1, players, phase, current seat, first
      seat, turn, final turns left (-1 before the last round), passes,
      resets, shuffles
then  the row (a card per slot, -1 empty); each hand (a count per card
      type); each route's owner (-1 none); pieces; scores; the deck (size,
      then cards bottom to top); the discard (the same); each seat's tickets
      (count, then ids in order); the pending tickets (the same); whether
      the setup deal is present (0/1) and then each seat's deal (count, ids);
      the ticket deck (count, then ids bottom to top)
====  =========================================================================

The game's shuffles are named by its seed (``random.Random(f"ttr_lab:{seed}:{k}")``,
:meth:`~ttr_lab.engine.rules.decks.Decks.rng`): :func:`seed_text` gives the
prefix.  The fields are read from the position itself (``_decks``,
``_hands``...: the deck order is no seat's to see, and the kernel only
ever gets determinized states, see :mod:`ttr_lab.analysis.advisor`).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=3, seed=5)
>>> a = position_array(g)
>>> a[:3].tolist(), len(a) > 100, unsupported(g.edition) is None
([1414812243, 1, 3], True, True)
>>> unsupported(ttr_lab.find_edition("europe"))
'the kernel plays the USA family only so far, not europe'
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.rules import Edition
    from ...engine.state import GameState

__all__ = ["edition_spec", "position_array", "seed_text", "unsupported", "FIELDS"]

MAGIC_TABLES = 0x54545231
MAGIC_STATE = 0x54545253
VERSION = 1

#: the position fields of the USA family, in the engine's order: any change plays in Python
FIELDS = (
    "_shuffles",
    "_decks",
    "_discards",
    "_hands",
    "_row",
    "_resets",
    "_phase",
    "_cur",
    "_first",
    "_turn",
    "_final",
    "_passes",
    "_owners",
    "_free",
    "_pieces",
    "_scores",
    "_tickets",
    "_pending",
    "_setup_deal",
    "_tdeck",
)
_PHASES = (0, 1, 2, 3, 9)
#: the one edition class the kernel plays (ttr_lab.editions.usa.USA, all its variants)
_FAMILY = ("ttr_lab.editions.usa", "USA")
_CARDS = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco")


def unsupported(ed: Edition) -> str | None:
    """Why the kernel does not play ``ed``; None if it does."""
    cls = type(ed)
    if (cls.__module__, cls.__qualname__) != _FAMILY:  # the class itself: not a subclass, not a plug-in
        return f"the kernel plays the USA family only so far, not {ed.name}"
    if ed.field_attrs != FIELDS:
        return "the edition's position fields changed"
    if tuple(c.name for c in ed.card_types) != _CARDS or len(ed.pile_names) != 1:
        return "other cards than the standard deck"
    m = ed.map
    if len(m.cities) > 128 or len(m.routes) > 256 or len(m.tickets) > 400:
        return "a map larger than the kernel's tables (128 cities, 256 routes, 400 tickets)"
    if any(r.locomotives or r.paired or r.kind != "train" for r in m.routes):
        return "routes other than plain train routes"
    if any(t.is_tour for t in m.tickets) or any(t.id > 100_000 for t in m.tickets):
        return "tickets other than two-city tickets"
    if max(ed.route_points) > 8 or max(ed.route_points.values()) > 100 or min(ed.route_points) < 1:
        return "routes longer than 8 or worth more than 100 points"
    if ed.row_size > 8 or ed.starting_cards != (4,) or ed.final_turns != 1:
        return "a row, a deal or a final round the kernel does not know"
    return None


def edition_spec(ed: Edition) -> array[int]:
    """The edition's tables for the kernel (see the module doc); ``ed`` must be supported."""
    m = ed.map
    index = {c.name: i for i, c in enumerate(m.cities)}
    lengths = sorted(ed.route_points)
    longest = lengths[-1]
    names = [c.name for c in ed.card_types]
    rank = {name: i for i, name in enumerate(sorted(names))}
    opts = ed.options
    cap = opts["max_consecutive_resets"]
    spec = [
        MAGIC_TABLES,
        VERSION,
        1,
        len(m.cities),
        len(m.routes),
        len(names),
        ed.wild_cards[0],
        len(m.tickets),
        ed.row_size,
        ed.pieces,
        ed.end_threshold,
        ed.final_turns,
        ed.double_route_min_players,
        *ed.setup_tickets,
        *ed.draw_tickets,
        ed.longest_path_bonus,
        getattr(ed, "globetrotter_bonus", 0),
        1 if ed.uses_path_tiebreak else 0,
        -1 if cap is None else cap,
        1 if opts["deal_row_after_tickets"] else 0,
        1 if opts["allow_single_draw"] else 0,
        longest,
    ]
    spec += [ed.route_points.get(L, 0) for L in range(1, longest + 1)]
    count = dict(ed.deck_composition[0])
    spec += [count.get(c, 0) for c in range(len(names))]
    spec += [rank[name] for name in names]
    colour = {ct.color: i for i, ct in enumerate(ed.card_types) if ct.color}
    for i, r in enumerate(m.routes):
        spec += [r.id, index[r.a], index[r.b], r.length, -1 if r.color == "gray" else colour[r.color]]
        spec.append(ed.route_partner[i])
    for t in m.tickets:
        spec += [t.id, index[t.a], index[t.b], t.points, t.penalty]
    return array("i", spec)


def seed_text(state: GameState) -> bytes:
    """The prefix of the names of the game's shuffles: ``b"ttr_lab:<seed>:"``."""
    return f"ttr_lab:{state.seed}:".encode()


def position_array(state: GameState) -> array[int]:
    """The position of ``state`` for the kernel (see the module doc): TtrError if a
    field cannot be written (a value too large for 32 bits, a missing field)."""
    d: dict[str, Any] = state.__dict__
    try:  # one list, converted once (about twice as fast as extending the array field by field)
        (deck,) = d["_decks"]
        (disc,) = d["_discards"]
        vals = [MAGIC_STATE, VERSION, state.n, d["_phase"], d["_cur"], d["_first"], d["_turn"], d["_final"]]
        vals += (d["_passes"], d["_resets"], d["_shuffles"])
        vals += d["_row"]
        for h in d["_hands"]:
            vals += h
        vals += d["_owners"]
        vals += d["_pieces"]
        vals += d["_scores"]
        vals.append(len(deck))
        vals += deck
        vals.append(len(disc))
        vals += disc
        for ts in d["_tickets"]:
            vals.append(len(ts))
            vals += ts
        vals.append(len(d["_pending"]))
        vals += d["_pending"]
        setup = d["_setup_deal"]
        vals.append(1 if setup else 0)
        for ts in setup:
            vals.append(len(ts))
            vals += ts
        vals.append(len(d["_tdeck"]))
        vals += d["_tdeck"]
        out = array("i", vals)
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        raise TtrError(f"the position cannot be read for the kernel: {type(e).__name__}: {e}") from None
    return out
