"""What the kernel reads: an edition and a position as flat int32 arrays.

The kernel never sees a Python object of the game.  :func:`edition_spec`
and :func:`position_array` write what it needs as ``array("i")`` values in
the layouts below, and the C side checks every field before any work
(``ttr_lab/bots/kernel/_read.c``): a malformed array raises
:class:`~ttr_lab.errors.TtrError` naming the field, never a crash.

:func:`unsupported` says why the kernel cannot read an edition: it reads the
USA family (USA, 1910, Mega Game, Big Cities, with any of their options,
also on a custom map of plain train routes and two-city tickets), Europe
(its options, also on a custom map of train, ferry and tunnel routes and
two-city tickets) and Rails & Sails (World and Great Lakes, their options;
a custom map of train, ship and paired routes and tickets of up to 8
cities); any other edition, a subclass, a plug-in's rules or a change to
the position fields plays in Python.  The kernel *plays* only the editions
named in :data:`~ttr_lab.bots.kernel.run.EDITIONS`, those that pass the
referee checks.

Edition layout (version 4)
--------------------------
====  =========================================================================
0     magic ``0x54545231``; 1: version 4; 2: rules family (1: USA, 2: Europe,
      3: Rails & Sails)
3-7   cities, routes, card types, the wild card's index (the last), tickets
8-12  row size, pieces, end threshold, final turns, players for double routes
13-16 setup deal and keep, ticket draw and keep
17-23 Longest Path bonus, Globetrotter bonus, tie-break by path length (0/1),
      max consecutive resets (-1: none), deal the row after the tickets (0/1),
      allow a single draw (0/1), the longest route
24-26 stations per player (0: none), points per station left unbuilt,
      unkept initial tickets go to the box (0/1); all 0 in the USA family
then  route points per length 1..longest; the deck's count per card type (all
      piles); the alphabetical rank of each card's name (a claim's cards are in
      name order); the card piles (1 or 2), each pile's share of the row (in
      pile order, the row's slots in that order), each card type's pile (its
      discard's); per route (by index): id, city a, city b, length, colour card
      (-1 gray; Rails & Sails: the colour's index), index of its double (-1),
      locomotive spaces (a ferry's; 0), tunnel (0/1);
      per ticket: id, first city, last city, points, penalty; per city (by
      index): its rank by name among the cities a station may be built in (-1)
then  Rails & Sails only (family 3): the options harbor_wilds (0/1),
      tour_order (0 trail, 1 simple_path, 2 walk), tiebreak by completed
      tickets (0/1); pieces played, trains and ships per colour in the box, the
      fewest and most trains of the setup split; harbors per player, harbor
      points for 1, 2, 3+ completed tickets, the penalty per unbuilt harbor;
      the colours (6: the card types are plain trains, anchor trains, single
      ships, double ships, one per colour in that order, then the wild); per
      card type: kind (0 train, 1 ship, 2 wild), colour (-1 wild), spaces
      covered (1, a double ship 2), harbor symbol (0/1); per route: its kind
      (0 train, 1 ship, 2 paired); per city: its rank by name among the harbor cities (-1: none);
      per ticket: its cities (count 2-8, then the cities in printed order), its
      points in any order and when failed (a tour's; 0 and -penalty for two
      cities)
====  =========================================================================

Position layout (version 4)
---------------------------
====  =========================================================================
0-10  magic ``0x54545253``, version 4, players, phase, current seat, first
      seat, turn, final turns left (-1 before the last round), passes,
      resets, shuffles
then  the row (a card per slot, -1 empty); each hand (a count per card
      type); each route's owner (-1 none); pieces (Rails & Sails: trains in
      supply); scores; each pile's deck
      (size, then cards bottom to top); each pile's discard (the same; a
      card only in its own pile's); each seat's tickets
      (count, then ids in order); the pending tickets (the same); whether
      the setup deal is present (0/1) and then each seat's deal (count, ids);
      the ticket deck (count, then ids bottom to top); the ticket box (count,
      ids); each seat's stations (count, then city indices in building order);
      a pending tunnel: 0, or 1 then its route index, the claim's colour card
      (-1: wilds only), its coloured cards, its wilds (both still in the hand),
      the revealed cards (count 1-3, then the cards), the extra cards due and
      their colour card (the wild after a claim in wilds only).  The USA
      family and Rails & Sails write an empty ticket box, no stations and no
      tunnel.
then  Rails & Sails only: per seat, ships in supply, trains and ships in the
      box, the setup split (trains; -1 until chosen), pieces exchanged, its
      harbors (count, then city indices in building order)
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
([1414812243, 4, 3], True, True)
>>> unsupported(ttr_lab.find_edition("europe")) is None
True
>>> unsupported(ttr_lab.find_edition("rails_and_sails")) is None
True
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.rules import Edition
    from ...engine.state import GameState

__all__ = ["edition_spec", "position_array", "seed_text", "unsupported", "FIELDS", "EUROPE_FIELDS", "RS_FIELDS"]

MAGIC_TABLES = 0x54545231
MAGIC_STATE = 0x54545253
VERSION = 4

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
#: Europe's position fields: the USA family's, the box, the stations, a pending tunnel
EUROPE_FIELDS = (*FIELDS, "_box", "_stations", "_tunnel")
#: Rails & Sails' position fields: the USA family's, the pieces, exchanges and harbors (and derived ones)
RS_FIELDS = (
    *FIELDS,
    "_rs_blocked",
    "_ships",
    "_box",
    "_choice",
    "_exchanged",
    "_harbors",
    "_rs_touch",
)
#: the edition classes the kernel plays (all their variants), by rules family
_FAMILIES = {
    ("ttr_lab.editions.usa", "USA"): 1,
    ("ttr_lab.editions.europe", "Europe"): 2,
    ("ttr_lab.editions.rails_sails", "RailsSails"): 3,
    ("ttr_lab.editions.rails_sails", "GreatLakes"): 3,
}
_CARDS = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco")
_RS_COLORS = ("pink", "yellow", "green", "red", "black", "white")
_RS_CARDS = (
    *_RS_COLORS,
    *(f"{c}-anchor" for c in _RS_COLORS),
    *(f"{c}-ship" for c in _RS_COLORS),
    *(f"{c}-ship2" for c in _RS_COLORS),
    "wild",
)
_TOUR_ORDERS = ("trail", "simple_path", "walk")


def unsupported(ed: Edition) -> str | None:
    """Why the kernel cannot read ``ed``; None if it can (:data:`~ttr_lab.bots.kernel.run.EDITIONS`
    names the editions it plays: those that pass the referee checks)."""
    cls = type(ed)
    family = _FAMILIES.get((cls.__module__, cls.__qualname__))  # the class itself: not a subclass, not a plug-in
    if family is None:
        return f"the kernel plays the USA family, Europe and Rails & Sails only, not {ed.name}"
    if ed.field_attrs != {1: FIELDS, 2: EUROPE_FIELDS, 3: RS_FIELDS}[family]:
        return "the edition's position fields changed"
    if family == 3:
        return _rs_unsupported(ed)
    if tuple(c.name for c in ed.card_types) != _CARDS or len(ed.pile_names) != 1:
        return "other cards than the standard deck"
    m = ed.map
    if len(m.cities) > 128 or len(m.routes) > 256 or len(m.tickets) > 400:
        return "a map larger than the kernel's tables (128 cities, 256 routes, 400 tickets)"
    if family == 1 and any(r.locomotives or r.paired or r.kind != "train" for r in m.routes):
        return "routes other than plain train routes"
    if family == 2:
        if any(r.paired or r.kind not in ("train", "ferry", "tunnel") for r in m.routes):
            return "routes other than train, ferry and tunnel routes"
        if any(r.kind == "tunnel" and r.locomotives for r in m.routes):
            return "a tunnel with locomotive spaces"
        eu: Any = ed  # Europe's station attributes
        if not 0 <= eu.stations_per_player <= 3 or not 0 <= eu.unbuilt_station_points <= 100:
            return "other stations than up to 3 per player"
    if any(t.is_tour for t in m.tickets) or any(t.id > 100_000 for t in m.tickets):
        return "tickets other than two-city tickets"
    if max(ed.route_points) > 8 or max(ed.route_points.values()) > 100 or min(ed.route_points) < 1:
        return "routes longer than 8 or worth more than 100 points"
    if ed.row_size > 8 or ed.starting_cards != (4,) or ed.final_turns != 1:
        return "a row, a deal or a final round the kernel does not know"
    return None


def _rs_unsupported(ed: Edition) -> str | None:
    rs: Any = ed  # Rails & Sails' attributes
    m = ed.map
    if tuple(c.name for c in ed.card_types) != _RS_CARDS or tuple(ed.pile_names) != ("trains", "ships"):
        return "other cards than Rails & Sails' decks"
    if tuple(rs.colors) != _RS_COLORS:
        return "other colours than Rails & Sails'"
    if len(m.cities) > 128 or len(m.routes) > 256 or len(m.tickets) > 400:
        return "a map larger than the kernel's tables (128 cities, 256 routes, 400 tickets)"
    if any(r.locomotives or r.kind not in ("train", "ship") or (r.paired and r.is_ship) for r in m.routes):
        return "routes other than train, ship and paired train routes"
    if any(r.paired and (r.length > 3 or r.color != "gray") for r in m.routes):
        return "a paired route longer than 3 or of a colour"
    if any(r.color != "gray" and r.color not in _RS_COLORS for r in m.routes):
        return "a route of a colour no card has"
    if any(not 2 <= len(t.cities) <= 8 or t.id > 100_000 or len(set(t.cities)) != len(t.cities) for t in m.tickets):
        return "tickets of more than 8 cities, or naming a city twice"
    if max(ed.route_points) > 9 or max(ed.route_points.values()) > 100 or min(ed.route_points) < 1:
        return "routes longer than 9 or worth more than 100 points"
    if ed.row_size > 8 or ed.final_turns > 4 or rs.harbors > 3 or max(rs.harbor_points) > 3:
        return "a row, a final round or harbors the kernel does not know"
    if rs.total_pieces > 200 or rs.train_pieces > 200 or rs.ship_pieces > 200:
        return "more than 200 pieces"
    return None


def edition_spec(ed: Edition) -> array[int]:
    """The edition's tables for the kernel (see the module doc); ``ed`` must be supported."""
    m = ed.map
    family = _FAMILIES[(type(ed).__module__, type(ed).__qualname__)]
    index = {c.name: i for i, c in enumerate(m.cities)}
    lengths = sorted(ed.route_points)
    longest = lengths[-1]
    names = [c.name for c in ed.card_types]
    rank = {name: i for i, name in enumerate(sorted(names))}
    opts = ed.options
    cap = opts["max_consecutive_resets"]
    europe, rails = family == 2, family == 3
    eu: Any = ed  # Europe's station attributes; Rails & Sails' own
    spec = [
        MAGIC_TABLES,
        VERSION,
        family,
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
        eu.stations_per_player if europe else 0,
        eu.unbuilt_station_points if europe else 0,
        1 if europe and ed.ticket_box else 0,
    ]
    spec += [ed.route_points.get(L, 0) for L in range(1, longest + 1)]
    count = {c: k for pile in ed.deck_composition for c, k in pile}
    spec += [count.get(c, 0) for c in range(len(names))]
    spec += [rank[name] for name in names]
    spec += [len(ed.pile_names), *ed.row_split, *(ct.pile for ct in ed.card_types)]
    colour = {ct.color: i for i, ct in reversed(list(enumerate(ed.card_types))) if ct.color}  # the first card
    for i, r in enumerate(m.routes):
        spec += [r.id, index[r.a], index[r.b], r.length, -1 if r.color == "gray" else colour[r.color]]
        spec += [ed.route_partner[i], r.locomotives, 1 if r.kind == "tunnel" else 0]
    for t in m.tickets:
        spec += [t.id, index[t.a], index[t.b], t.points, t.penalty]
    rank = {name: k for k, name in enumerate(eu._station_cities)} if europe else {}
    spec += [rank.get(c.name, -1) for c in m.cities]
    if rails:
        spec += _rs_spec(eu, index)
    return array("i", spec)


def _rs_spec(rs: Any, index: dict[str, int]) -> list[int]:
    """Rails & Sails' block of the edition's tables (see the module doc)."""
    opts = rs.options
    lo, hi = rs.train_range
    spec = [1 if opts["harbor_wilds"] else 0, _TOUR_ORDERS.index(opts["tour_order"])]
    spec += [1 if opts["tiebreak"] == "completed_tickets" else 0]
    spec += [rs.total_pieces, rs.train_pieces, rs.ship_pieces, lo, hi]
    spec += [rs.harbors, *(rs.harbor_points.get(k, 0) for k in (1, 2, 3)), rs.unbuilt_harbor_penalty]
    spec.append(len(rs.colors))
    for ct in rs.card_types:
        kind = 2 if ct.wild else (1 if ct.kind == "ship" else 0)
        spec += [kind, -1 if ct.wild else rs.colors.index(ct.color), ct.value, 1 if ct.anchor else 0]
    spec += [2 if r.paired else (1 if r.is_ship else 0) for r in rs.map.routes]
    harbors = {name: k for k, name in enumerate(sorted(c.name for c in rs.map.cities if c.harbor))}
    spec += [harbors.get(c.name, -1) for c in rs.map.cities]
    for t in rs.map.tickets:
        spec += [len(t.cities), *(index[c] for c in t.cities)]
        spec += [t.points_any_order or 0, -t.penalty]
    return spec


#: (map, city name -> index) of the map asked last: one slot replaced whole (threads see a consistent pair)
_CITY_INDEX: list[tuple[Any, dict[str, int]]] = [(None, {})]


def _city_index(ed: Edition) -> dict[str, int]:
    m = ed.map
    last = _CITY_INDEX[0]
    if last[0] is m:
        return last[1]
    index = {c.name: i for i, c in enumerate(m.cities)}
    _CITY_INDEX[0] = (m, index)
    return index


def seed_text(state: GameState) -> bytes:
    """The prefix of the names of the game's shuffles: ``b"ttr_lab:<seed>:"``."""
    return f"ttr_lab:{state.seed}:".encode()


def position_array(state: GameState) -> array[int]:
    """The position of ``state`` for the kernel (see the module doc): TtrError if a
    field cannot be written (a value too large for 32 bits, a missing field)."""
    d: dict[str, Any] = state.__dict__
    try:  # one list, converted once (about twice as fast as extending the array field by field)
        vals = [MAGIC_STATE, VERSION, state.n, d["_phase"], d["_cur"], d["_first"], d["_turn"], d["_final"]]
        vals += (d["_passes"], d["_resets"], d["_shuffles"])
        vals += d["_row"]
        for h in d["_hands"]:
            vals += h
        vals += d["_owners"]
        vals += d["_pieces"]
        vals += d["_scores"]
        for cards in (*d["_decks"], *d["_discards"]):
            vals.append(len(cards))
            vals += cards
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
        rails = "_harbors" in d
        box = () if rails else d.get("_box", ())  # Rails & Sails' _box holds pieces: no ticket box
        vals.append(len(box))
        vals += box
        stations = d.get("_stations")
        if stations is None:  # the USA family: none
            vals += [0] * state.n
        else:
            index = _city_index(state.edition) if any(stations) else {}
            for cities in stations:
                vals.append(len(cities))
                vals += [index[c] for c in cities]
        tunnel = d.get("_tunnel")
        if not tunnel:
            vals.append(0)
        else:
            ri, paid, revealed, extra, x = tunnel
            wild = state.edition.wild_cards[0]
            color = [(c, k) for c, k in paid if c != wild]
            if len(color) > 1:
                raise TtrError("the position cannot be read for the kernel: a tunnel paid in two colours")
            wilds = sum(k for c, k in paid if c == wild)
            vals += [1, ri, color[0][0] if color else -1, color[0][1] if color else 0, wilds, len(revealed)]
            vals += revealed
            vals += [extra, x]
        if rails:
            index = _city_index(state.edition)
            for p in range(state.n):
                (tb, sb), harbors = d["_box"][p], d["_harbors"][p]
                vals += (d["_ships"][p], tb, sb, d["_choice"][p], d["_exchanged"][p], len(harbors))
                vals += [index[c] for c in harbors]
        out = array("i", vals)
    except TtrError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, OverflowError) as e:
        raise TtrError(f"the position cannot be read for the kernel: {type(e).__name__}: {e}") from None
    return out
