"""Ticket to Ride Rails & Sails: the World map and the Great Lakes map
(RULES.md B4, B5; resolutions C6, C7, C8, C9, C15).

Two card piles, ``"trains"`` and ``"ships"``, and a six-card row (three of
each).  The cards, by their names in the move notation:

===============  ======  ==============================================  =====
name             pile    what it is                                      count
===============  ======  ==============================================  =====
``red``          trains  train card without the harbor symbol            7
``red-anchor``   trains  train card with the harbor (anchor) symbol      4
``red-ship``     ships   single-ship card (always has the anchor)        4
``red-ship2``    ships   double-ship card (covers 2 spaces, no anchor)   6
``wild``         trains  wild card (counts as bearing the anchor)        14
===============  ======  ==============================================  =====

with the first four for each of the colours pink, yellow, green, red, black
and white: 80 train cards and 60 ship cards.  Wilds discard to the train
pile.

Moves particular to Rails & Sails (see :mod:`ttr_lab.moves` for the notation):
``pieces 20`` (setup: play with 20 trains, the rest of the pieces are
ships), ``faceup 3 refill trains`` (the player picks the pile that refills
the slot), ``blind ships``, ``stop`` (one card is enough, C6),
``harbor Lagos red-anchor:2 red-ship:1 wild:1`` and ``exchange trains 2``.

Options (both maps): ``allow_single_draw`` (default True, C6),
``harbor_wilds`` (default True: wilds may replace harbor cards, C7),
``tour_order`` (``"trail"``, the default, ``"simple_path"`` or ``"walk"``:
what "in order" means for a tour, C9), ``tiebreak`` (``"shared"``, the
default, or ``"completed_tickets"``), plus the common options
``first_player``, ``max_consecutive_resets``, ``deal_row_after_tickets`` and
``map``.

One engineering rule is added (``[rec]``, the rules are silent): a turn on
which the only legal actions were piece exchanges, and whose exchange opens
no claim, counts like a pass, so a game in which nobody can draw, claim,
build or take tickets still ends after one full round of such turns (A1).

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("world", players=2, seed=1)
>>> g.edition.name, g.edition.row_size, g.row.count(None)
('rails_and_sails', 6, 0)
>>> g.hand_size(0), len(g.pending_tickets)
(10, 5)
>>> while g.phase == ttr_lab.Phase.SETUP_TICKETS:
...     g.play(g.legal_moves[0])
>>> g.phase.name, [str(m) for m in g.legal_moves][:2]
('SETUP_PIECES', ['pieces 10', 'pieces 11'])
>>> g.play("pieces 20"); g.play("pieces 15")
>>> g.trains(0), g.ships(0), g.box(0), g.pieces(0)
(20, 40, (5, 10), 60)
>>> ttr_lab.find_edition("great_lakes").starting_cards
(2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import compress
from operator import or_
from typing import Any, ClassVar, Mapping

from ..cards import CardType
from ..errors import TtrError
from ..moves import BuildHarbor, ChoosePieces, ClaimRoute, DrawFaceUp, ExchangePieces, Move
from ..state import _OVER, _PIECES, _SETUP_TICKETS, _TURN, R_CLAIM, GameState, _identity
from .base import Edition, register_edition

__all__ = [
    "RailsSails",
    "GreatLakes",
    "RailsSailsState",
    "RS_COLORS",
    "RS_CARD_TYPES",
    "TourResult",
    "tour_in_order",
    "score_tour",
]

#: The six colours of Rails & Sails, in card-index order.
RS_COLORS = ("pink", "yellow", "green", "red", "black", "white")


def _card_types() -> tuple[CardType, ...]:
    out = [CardType(c, c, pile=0, kind="train") for c in RS_COLORS]
    out += [CardType(f"{c}-anchor", c, pile=0, kind="train", anchor=True) for c in RS_COLORS]
    out += [CardType(f"{c}-ship", c, pile=1, kind="ship", value=1, anchor=True) for c in RS_COLORS]
    out += [CardType(f"{c}-ship2", c, pile=1, kind="ship", value=2, anchor=False) for c in RS_COLORS]
    out.append(CardType("wild", None, pile=0, kind="wild", anchor=True))  # wilds count as bearing the anchor (B4)
    return tuple(out)


#: Card types: plain trains 0-5, anchor trains 6-11, single ships 12-17,
#: double ships 18-23, wild 24.
RS_CARD_TYPES = _card_types()
_NC = len(RS_COLORS)
_PLAIN, _ANCHOR, _SHIP1, _SHIP2, _WILDI = 0, _NC, 2 * _NC, 3 * _NC, 4 * _NC

# rule tags (RULES.md)
R_RS = "B4"

_TOUR_ORDERS = ("trail", "simple_path", "walk")
_TIEBREAKS = ("shared", "completed_tickets")


# ---------------------------------------------------------------------- editions
@register_edition
class RailsSails(Edition):
    """Ticket to Ride Rails & Sails, World map (RULES.md B4)."""

    name: ClassVar[str] = "rails_and_sails"
    map_id: ClassVar[str] = "rails_and_sails_world"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "rails_sails": {},
        "rails_&_sails": {},
        "world": {},
        "rails_and_sails_world": {},
        "rails_sails_world": {},
    }
    option_defaults: ClassVar[Mapping[str, Any]] = {
        **Edition.option_defaults,
        "allow_single_draw": True,  # C6: "draw up to two cards"
        "harbor_wilds": True,  # C7
        "tour_order": "trail",  # C9
        "tiebreak": "shared",  # B4: the rulebook gives no tie-breaker
    }
    #: ticket decks (map deck labels) shuffled together at setup
    decks: ClassVar[tuple[str, ...]] = ("world", "world_tour")
    title: ClassVar[str] = "Rails & Sails: World"

    # parameters particular to Rails & Sails
    train_pieces: int = 25  #: trains per colour in the box
    ship_pieces: int = 50  #: ships per colour in the box
    harbors: int = 3  #: harbors per player
    harbor_points: Mapping[int, int] = {1: 20, 2: 30, 3: 40}  #: completed tickets showing the city -> points (3 = 3 or more)
    unbuilt_harbor_penalty: int = 4
    colors: tuple[str, ...] = RS_COLORS

    def _check_options(self, opts: dict[str, Any]) -> None:
        super()._check_options(opts)
        if not isinstance(opts["harbor_wilds"], bool):
            raise TtrError(f"harbor_wilds must be True or False, not {opts['harbor_wilds']!r}")
        if opts["tour_order"] not in _TOUR_ORDERS:
            raise TtrError(f"tour_order must be one of {', '.join(map(repr, _TOUR_ORDERS))}, not {opts['tour_order']!r}")
        if opts["tiebreak"] not in _TIEBREAKS:
            raise TtrError(f"tiebreak must be one of {', '.join(map(repr, _TIEBREAKS))}, not {opts['tiebreak']!r}")

    def _setup_parameters(self) -> None:
        self.card_types = RS_CARD_TYPES
        self.pile_names = ("trains", "ships")
        trains = tuple((_PLAIN + c, 7) for c in range(_NC)) + tuple((_ANCHOR + c, 4) for c in range(_NC)) + ((_WILDI, 14),)
        ships = tuple((_SHIP1 + c, 4) for c in range(_NC)) + tuple((_SHIP2 + c, 6) for c in range(_NC))
        self.deck_composition = (trains, ships)
        self.row_size = 6
        self.row_split = (3, 3)
        self.starting_cards = (3, 7)
        self.setup_tickets = (5, 3)
        self.draw_tickets = (4, 1)
        self.route_points = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}  # C8
        self.end_threshold = 6
        self.final_turns = 2
        self.double_route_min_players = 4
        self.longest_path_bonus = 0  # B4: no end-of-game bonus
        self.globetrotter_bonus = 0
        self._set_map_parameters()
        self.pieces = self.total_pieces
        #: the legal numbers of trains a player may choose at setup
        self.train_range = (max(0, self.total_pieces - self.ship_pieces), min(self.train_pieces, self.total_pieces))

    def _set_map_parameters(self) -> None:
        self.total_pieces = 60  # t + s = 60, t <= 25, s <= 50 -> 10 <= t <= 25

    state_class: ClassVar[type | None] = None  # set below (RailsSailsState)

    def ticket_deck(self) -> tuple[int, ...]:
        """The map's decks named in ``decks``; a custom map without them uses every ticket."""
        ids = tuple(t.id for t in self.map.tickets if t.deck in self.decks)
        return ids or tuple(t.id for t in self.map.tickets)

    # --- scoring hooks ------------------------------------------------------
    def score_tickets(self, state, player, adj):  # noqa: ANN001, ANN201
        """Two-city tickets as in A7; tours by :func:`score_tour` (B4, C9)."""
        from ..scoring import score_two_city

        mode = self.options["tour_order"]
        out = []
        for t in state._tickets[player]:
            ticket = state.map.ticket(t)
            out.append(score_tour(ticket, adj, mode) if ticket.is_tour else score_two_city(ticket, adj))
        return tuple(out)

    def score_adjustments(self, state, player):  # noqa: ANN001, ANN201
        """Harbors by completed tickets showing their city, -4 per unbuilt
        harbor, and the points paid for piece exchanges (B4)."""
        from ..scoring import ticket_status

        results = ticket_status(state, player)
        out = []
        built = state._harbors[player]
        for city in built:
            n = sum(1 for r in results if r.completed and city in r.ticket.cities)
            pts = self.harbor_points[min(n, 3)] if n else 0
            out.append((f"harbor {city} ({n} completed ticket{'' if n == 1 else 's'})", pts))
        unbuilt = self.harbors - len(built)
        if unbuilt:
            out.append((f"unbuilt harbors ({unbuilt})", -self.unbuilt_harbor_penalty * unbuilt))
        k = state._exchanged[player]
        if k:
            out.append((f"pieces exchanged ({k})", -k))
        return tuple(out)

    def tiebreak_key(self, state, score, holders):  # noqa: ANN001, ANN201
        if self.options["tiebreak"] == "completed_tickets":
            return (score.tickets_completed,)
        return ()

    def tiebreak_text(self, shared: bool) -> str:
        if shared:
            if self.options["tiebreak"] == "completed_tickets":
                return "tied on points and on completed tickets: a shared win"
            return "tied on points: a shared win (the rulebook has no tie-breaker)"
        return "tie on points broken by completed tickets"


@register_edition
class GreatLakes(RailsSails):
    """Ticket to Ride Rails & Sails, Great Lakes map (RULES.md B5)."""

    name: ClassVar[str] = "great_lakes"
    map_id: ClassVar[str] = "rails_and_sails_great_lakes"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "rails_and_sails_great_lakes": {},
        "rails_sails_great_lakes": {},
    }
    decks: ClassVar[tuple[str, ...]] = ("great_lakes",)
    title: ClassVar[str] = "Rails & Sails: Great Lakes"
    train_pieces: int = 33
    ship_pieces: int = 32
    harbor_points: Mapping[int, int] = {1: 10, 2: 20, 3: 30}  # printed on the Great Lakes board (B5)

    def _set_map_parameters(self) -> None:
        self.starting_cards = (2, 2)
        self.total_pieces = 50  # t + s = 50, t <= 33, s <= 32 -> 18 <= t <= 33


# ---------------------------------------------------------------------- tours
def _tour_result_class() -> type:
    global _TOUR_RESULT
    if _TOUR_RESULT is None:
        from ..scoring import TicketResult

        @dataclass(frozen=True)
        class TourResult(TicketResult):
            """A tour ticket at scoring time; ``how`` says which value applied:
            ``"in order"``, ``"any order"`` or ``"failed"``."""

            how: str = ""

            def __str__(self) -> str:
                mark = "hit " if self.completed else "miss"
                return f"{mark} {self.ticket.label()} {self.points:+d} (tour, {self.how})"

        TourResult.__module__ = __name__
        _TOUR_RESULT = TourResult
    return _TOUR_RESULT


_TOUR_RESULT: type | None = None


def __getattr__(name: str) -> Any:
    if name == "TourResult":
        return _tour_result_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _edges_of(adj: Mapping[str, list[tuple[int, str]]]) -> list[tuple[int, str, str]]:
    seen: dict[int, tuple[int, str, str]] = {}
    for a, lst in adj.items():
        for rid, b in lst:
            if rid not in seen:
                seen[rid] = (rid, a, b)
    return [seen[r] for r in sorted(seen)]


def _component(adj: Mapping[str, list[tuple[int, str]]], start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        v = todo.pop()
        for _, u in adj.get(v, ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def tour_in_order(adj: Mapping[str, list[tuple[int, str]]], cities: tuple[str, ...], mode: str = "trail") -> tuple[int, ...] | None:
    """Route ids of a way through ``cities`` in the printed order, or None.

    ``adj`` maps a city to its ``(route id, other city)`` pairs (the owner's
    network).  ``mode`` (C9): ``"trail"`` uses each route at most once (cities
    may repeat), ``"simple_path"`` visits no city twice, ``"walk"`` may reuse
    routes.  Other cities may lie between the tour's cities.

    >>> adj = {"A": [(1, "B")], "B": [(1, "A"), (2, "C"), (3, "D")], "C": [(2, "B")], "D": [(3, "B")]}
    >>> tour_in_order(adj, ("A", "B", "D"))
    (1, 3)
    >>> tour_in_order(adj, ("A", "C", "D")) is None      # C is a dead end
    True
    >>> tour_in_order(adj, ("A", "C", "D"), "walk")
    (1, 2, 2, 3)
    """
    if any(c not in adj for c in cities):
        return None
    if mode == "walk":
        from ..scoring import _bfs_path

        if not set(cities) <= _component(adj, cities[0]):
            return None
        out: list[int] = []
        for a, b in zip(cities, cities[1:]):
            out.extend(_bfs_path(adj, a, b) or ())  # type: ignore[arg-type]
        return tuple(out)
    comp = _component(adj, cities[0])
    if not set(cities) <= comp:
        return None
    # the component's routes, with dead ends that hold no tour city cut off:
    # a trail entering such a branch could never come back out
    edges = [e for e in _edges_of(adj) if e[1] in comp]
    targets = set(cities)
    deg: dict[str, int] = {}
    for _, a, b in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    alive = [True] * len(edges)
    inc: dict[str, list[int]] = {}
    for i, (_, a, b) in enumerate(edges):
        inc.setdefault(a, []).append(i)
        inc.setdefault(b, []).append(i)
    leaves = [v for v, d in deg.items() if d == 1 and v not in targets]
    while leaves:
        v = leaves.pop()
        for i in inc[v]:
            if alive[i]:
                alive[i] = False
                _, a, b = edges[i]
                u = b if a == v else a
                deg[v] -= 1
                deg[u] -= 1
                if deg[u] == 1 and u not in targets:
                    leaves.append(u)
    edges = [e for i, e in enumerate(edges) if alive[i]]
    nbrs: dict[str, list[tuple[int, str, int]]] = {}
    for i, (rid, a, b) in enumerate(edges):
        nbrs.setdefault(a, []).append((i, b, rid))
        nbrs.setdefault(b, []).append((i, a, rid))
    k = len(cities)
    simple = mode == "simple_path"
    index = {c: j for j, c in enumerate(sorted({v for e in edges for v in e[1:]}))}
    failed: set[tuple[str, int, int, int]] = set()
    path: list[int] = []

    def reachable(v: str, goal: str, used: int) -> bool:
        seen = {v}
        todo = [v]
        while todo:
            x = todo.pop()
            if x == goal:
                return True
            for i, u, _ in nbrs.get(x, ()):
                if not used >> i & 1 and u not in seen:
                    seen.add(u)
                    todo.append(u)
        return False

    def search(v: str, nxt: int, used: int, visited: int) -> bool:
        if v == cities[nxt]:
            nxt += 1
            if nxt == k:
                return True
        key = (v, nxt, used, visited)
        if key in failed:
            return False
        if not reachable(v, cities[nxt], used):
            failed.add(key)
            return False
        for i, u, rid in nbrs.get(v, ()):
            if used >> i & 1:
                continue
            if simple and visited >> index[u] & 1:
                continue
            path.append(rid)
            if search(u, nxt, used | 1 << i, visited | 1 << index[u] if simple else 0):
                return True
            path.pop()
        failed.add(key)
        return False

    start = cities[0]
    if start not in index:  # an isolated first city: only possible if every city is the same
        return None
    if search(start, 0, 0, (1 << index[start]) if simple else 0):
        return tuple(path)
    return None


def score_tour(ticket, adj, mode: str = "trail"):  # noqa: ANN001, ANN201
    """A tour ticket's result (B4, C9): the in-order value if the network
    holds a way through the cities in printed order, else the any-order value
    if they are all connected, else the (negative) failed value."""
    cls = _tour_result_class()
    way = tour_in_order(adj, ticket.cities, mode)
    if way is not None:
        return cls(ticket, True, ticket.points, way, "in order")
    cities = ticket.cities
    if cities[0] in adj and set(cities) <= _component(adj, cities[0]):
        from ..scoring import _bfs_path

        ids: list[int] = []
        for a, b in zip(cities, cities[1:]):
            ids.extend(_bfs_path(adj, a, b) or ())  # type: ignore[arg-type]
        return cls(ticket, True, ticket.points_any_order, tuple(ids), "any order")
    return cls(ticket, False, ticket.points_failed, (), "failed")


# ---------------------------------------------------------------------- payment arithmetic
def _ways(m: int, a: int, b: int) -> int:
    """Number of (x, y) with x + y = m, 0 <= x <= a, 0 <= y <= b."""
    lo = m - b if m > b else 0
    hi = a if a < m else m
    return hi - lo + 1 if hi >= lo else 0


_COUNT_CACHE: dict[tuple, Any] = {}
_EXCHANGES: dict[tuple[int, int], list[Move]] = {}  # exchange moves by (ships, trains) takeable


def _train_count(a: int, b: int, w: int, L: int) -> int:
    """Payments of a plain train route of length L with one colour's plain
    (a) and anchor (b) train cards plus wilds, using at least one coloured card."""
    key = (0, a if a < L else L, b if b < L else L, w if w < L else L, L)
    n = _COUNT_CACHE.get(key)
    if n is None:
        n = 0
        top = w if w < L else L - 1
        for k in range(top + 1):
            n += _ways(L - k, a, b)
        _COUNT_CACHE[key] = n
    return n


def _ship_count(s: int, d: int, w: int, L: int) -> int:
    """Payments of a ship route of length L with one colour's single (s) and
    double (d) ship cards plus wilds, using at least one coloured card: the
    values sum to L, or to L + 1 with double-ship cards only (no card superfluous)."""
    half = (L + 1) // 2
    key = (1, s if s < L else L, d if d < half else half, w if w < L else L, L)
    n = _COUNT_CACHE.get(key)
    if n is None:
        n = 0
        for dd in range(min(d, L // 2) + 1):
            rem = L - 2 * dd
            if rem == 0:
                n += 1
                continue
            n += _ways(rem, s, w)
            if dd == 0 and w >= rem:
                n -= 1  # the all-wild payment is counted once, without a colour
        if L % 2 and d >= half:
            n += 1
        _COUNT_CACHE[key] = n
    return n


def _paired_dp(prof: tuple[tuple[int, int], ...], w: int, N: int) -> tuple[tuple[int, int, int], ...]:
    """``(cards, colours with an odd count, multisets)`` of coloured train
    cards from the colours ``prof`` ((plain, anchor) counts), at most N cards
    and at most ``w`` odd colours; memoised by prefix (profiles are sorted)."""
    key = ("d", prof, w, N)
    out = _COUNT_CACHE.get(key)
    if out is None:
        if not prof:
            out = ((0, 0, 1),)
        else:
            a, b = prof[-1]
            ways = [_ways(t, a, b) for t in range(min(a + b, N) + 1)]
            dp: dict[tuple[int, int], int] = {}
            for size, odd, cnt in _paired_dp(prof[:-1], w, N):
                for t in range(min(a + b, N - size) + 1):
                    o = odd + (t & 1)
                    if o <= w:
                        k = (size + t, o)
                        dp[k] = dp.get(k, 0) + cnt * ways[t]
            out = tuple((size, odd, cnt) for (size, odd), cnt in dp.items())
        if len(_COUNT_CACHE) > 200_000:  # keep memory bounded in long sessions
            _COUNT_CACHE.clear()
        _COUNT_CACHE[key] = out
    return out


def _paired_counts(plain: Any, anchor: Any, w: int, N: int) -> tuple[int, ...]:
    """Payments of a paired route of each length L = 0..N//2: 2L train cards
    forming L one-colour pairs, a wild completing any pair (each colour with
    an odd count needs one wild).  ``plain``/``anchor``: counts by colour."""
    prof = tuple(sorted(zip(plain, anchor)))
    prof = prof[prof.count((0, 0)) :]
    if w > N:
        w = N
    key = ("p", prof, w, N)
    out = _COUNT_CACHE.get(key)
    if out is None:
        dp = _paired_dp(prof, w, N)
        out = tuple(
            sum(cnt for size, odd, cnt in dp if odd <= 2 * L - size <= w) if L else 0 for L in range(N // 2 + 1)
        )
        if len(_COUNT_CACHE) > 200_000:
            _COUNT_CACHE.clear()
        _COUNT_CACHE[key] = out
    return out


#: byte value -> the positions of its set bits
_BITS8 = tuple(tuple(i for i in range(8) if v >> i & 1) for v in range(256))


def _norm(cards: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(c for c in cards if c[1]))


def _paired_payments(plain: Any, anchor: Any, w: int, N: int, names: tuple[tuple[str, str], ...], wname: str,
                     c: int, size: int, odd: int, chosen: list[tuple[str, int]], out: list) -> None:
    """Append to ``out`` every payment of N train cards in one-colour pairs
    (colours from ``c`` on; ``chosen`` holds the cards of the colours before)."""
    if c == len(plain):
        k = N - size
        if odd <= k <= w:
            out.append(_norm(chosen + [(wname, k)]))
        return
    a, b = plain[c], anchor[c]
    for t in range(min(a + b, N - size) + 1):
        o = odd + (t & 1)
        if o > w:
            continue
        for x in range(max(0, t - b), min(a, t) + 1):
            chosen.append((names[c][0], x))
            chosen.append((names[c][1], t - x))
            _paired_payments(plain, anchor, w, N, names, wname, c + 1, size + t, o, chosen, out)
            del chosen[-2:]


# ---------------------------------------------------------------------- state
class RailsSailsState(GameState):
    """The game state of Rails & Sails (both maps).

    Besides the common position it holds, per player: ships in supply
    (``_pieces`` holds the trains), the pieces left in the box as
    ``(trains, ships)``, the cities of the harbors built, the secret piece
    choice made at setup (-1 = not yet), and the pieces exchanged so far.
    """

    # ------------------------------------------------------------------ tables
    def _build_tables(self) -> None:
        super()._build_tables()
        ed = self.edition
        ct = ed.card_types
        colors = ed.colors
        self._ckind = tuple(2 if c.wild else (1 if c.kind == "ship" else 0) for c in ct)
        self._ccol = tuple(-1 if c.wild else colors.index(c.color) for c in ct)
        self._cval = tuple(c.value for c in ct)
        self._canchor = tuple(c.anchor for c in ct)
        self._cname = tuple(c.name for c in ct)
        self._rship = tuple(r.is_ship for r in ed.routes)
        self._rpaired = tuple(r.paired for r in ed.routes)
        # route colour: index into colors, -1 gray, -2 a colour no card has
        self._rcol = tuple(-1 if r.color == "gray" else (colors.index(r.color) if r.color in colors else -2) for r in ed.routes)
        # Route classes: routes of one class have the same payments.  Class
        # order: unpaired train classes, paired classes, ship classes; a class
        # key is (colour index or -1 gray or -2 no card's colour, length), and
        # sorting the keys puts a part's classes in the order _part_counts
        # lays them out: colour -2, -1, then 0..5, each by length.
        self._rs_M = max([r.length for r in ed.routes] + [1])  # counts above this cannot matter
        rcol = self._rcol
        tkeys = sorted({(rcol[i], r.length) for i, r in enumerate(ed.routes) if not r.is_ship and not r.paired})
        pkeys = sorted({r.length for r in ed.routes if r.paired})
        skeys = sorted({(rcol[i], r.length) for i, r in enumerate(ed.routes) if r.is_ship})
        self._rs_pkeys = tuple(pkeys)
        class_of = []
        for i, r in enumerate(ed.routes):
            if r.paired:
                class_of.append(len(tkeys) + pkeys.index(r.length))
            elif r.is_ship:
                class_of.append(len(tkeys) + len(pkeys) + skeys.index((rcol[i], r.length)))
            else:
                class_of.append(tkeys.index((rcol[i], r.length)))
        self._rs_class_of = tuple(class_of)
        # per part (0 trains, 2 ships) and colour (-2, -1, 0..5): the class lengths
        self._rs_lens = {
            part: {c: tuple(L for col, L in keys if col == c) for c in range(-2, _NC)}
            for part, keys in ((0, tkeys), (2, skeys))
        }
        self._rs_ntrain = len(tkeys)
        # per class, the bitmask of its routes (ship classes also on their own)
        cmask = [0] * (len(tkeys) + len(pkeys) + len(skeys))
        for ri, ci in enumerate(class_of):
            cmask[ci] |= 1 << ri
        self._rs_cmask = tuple(cmask)
        self._rs_smask = self._rs_cmask[len(tkeys) + len(pkeys) :]
        self._rs_paired_mask = sum(1 << i for i, r in enumerate(ed.routes) if r.paired)
        self._rs_nbytes = (len(ed.routes) + 7) // 8
        self._rs_pzeros = (0,) * len(pkeys)
        # per-edition caches of derived data, shared by all games of the edition
        # (train cards, wilds, trains) -> see _train_class_counts
        self._rs_tcache: dict[tuple, tuple] = {}
        # (ship cards, wilds, ships) -> (ship class counts, bitmask of their routes)
        self._rs_scache: dict[tuple, tuple] = {}
        # one colour's share of a part's class counts, by (part, colour, x, y, wilds, pieces) ...
        self._rs_ccache: dict[tuple, tuple] = {}
        # ... and the same by (part, wilds, pieces), then in a list at 100 * (colour + 2) + 10 * x + y
        self._rs_segtab: dict[tuple[int, int, int], list] = {}
        self._rs_harbor_cache: dict[tuple, int] = {}
        self._rs_nharbors = ed.harbors
        self._rs_hwild = ed.options["harbor_wilds"]
        # row slot (a card index, -1 empty) -> 0 empty, 1 a card that may be a
        # second pick, 2 a wild; indexing with -1 reads the final 0
        self._rs_slot_state = (tuple(2 if c.wild else 1 for c in ct) + (0,)).__getitem__
        self._rs_pattern_cache: dict[tuple[int, ...], tuple[list[Move], list[Move]]] = {}
        self._rs_blind_order = tuple(sorted(range(len(ed.pile_names)), key=lambda q: ed.pile_names[q]))
        self._rs_blind_all = [self._blind[q] for q in self._rs_blind_order]  # never mutated: callers concatenate
        self._harbor_cities = frozenset(c.name for c in ed.map.cities if c.harbor)
        self._rs_route_harbors = tuple(frozenset(c for c in (r.a, r.b) if c in self._harbor_cities) for r in ed.routes)
        self._choose_moves = tuple(ChoosePieces(t) for t in range(ed.train_range[0], ed.train_range[1] + 1))

    def _faceup_moves(self, slot: int) -> tuple[Move, ...]:
        return tuple(DrawFaceUp(slot, name) for name in sorted(self.edition.pile_names))

    def _row_picks(self) -> tuple[list[Move], list[Move]]:
        """Face-up picks allowed as a first and as a second card, cached by
        the row's pattern (each slot empty, wild or other): at most 3**6
        entries, where caching by row contents would keep growing."""
        pattern = tuple(map(self._rs_slot_state, self._row))
        picks = self._rs_pattern_cache.get(pattern)
        if picks is None:
            faceup = self._faceup
            first = [m for i, k in enumerate(pattern) if k for m in faceup[i]]
            second = [m for i, k in enumerate(pattern) if k == 1 for m in faceup[i]]
            picks = self._rs_pattern_cache[pattern] = (first, second)
        return picks

    def _blind_picks(self) -> list[Move]:
        """Blind draws from the piles that have cards, in notation order
        (``blind ships`` before ``blind trains``) so the legal moves stay sorted."""
        decks, discards = self._decks, self._discards
        if len(decks) == 2 and (decks[0] or discards[0]) and (decks[1] or discards[1]):
            return self._rs_blind_all  # both piles have cards: the usual case
        blind = self._blind
        return [blind[q] for q in self._rs_blind_order if decks[q] or discards[q]]

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        ed = self.edition
        n = self.n
        self._pieces = (0,) * n  # trains in supply (none until the choices are revealed)
        self._ships = (0,) * n
        self._box = ((ed.train_pieces, ed.ship_pieces),) * n
        self._harbors: tuple[tuple[str, ...], ...] = ((),) * n
        self._choice = (-1,) * n
        self._exchanged = (0,) * n
        super()._setup()

    def _start_play(self) -> None:
        """After the tickets: every player secretly chooses trains and ships (B4)."""
        self._cur = self._first
        self._phase = _PIECES

    # ------------------------------------------------------------------ public read API
    def pieces(self, player: int) -> int:
        """Pieces in supply, trains and ships together (0 until the setup choices are revealed)."""
        return self._pieces[player] + self._ships[player]

    def trains(self, player: int) -> int:
        return self._pieces[player]

    def ships(self, player: int) -> int:
        return self._ships[player]

    def box(self, player: int) -> tuple[int, int]:
        """``(trains, ships)`` of the player's colour left in the box (the exchange pool)."""
        return self._box[player]

    def harbors(self) -> dict[str, int]:
        """``{city: seat}`` for every harbor built."""
        return {c: p for p, cities in enumerate(self._harbors) for c in cities}

    def harbors_of(self, player: int) -> tuple[str, ...]:
        return self._harbors[player]

    def harbors_left(self, player: int) -> int:
        return self.edition.harbors - len(self._harbors[player])

    def exchanged(self, player: int) -> int:
        """Pieces exchanged so far (each cost a point)."""
        return self._exchanged[player]

    def pieces_chosen(self, player: int) -> bool:
        """Whether ``player`` has made the setup choice (public; the number is not)."""
        return self._choice[player] >= 0

    # ------------------------------------------------------------------ legal moves
    def _extra_phase_groups(self, ph: int) -> list:
        if ph == _PIECES:
            moves = list(self._choose_moves)
            return [(len(moves), _identity, moves)]
        return super()._extra_phase_groups(ph)

    def _pieces_for_route(self, p: int, ri: int) -> int:
        return self._ships[p] if self._rship[ri] else self._pieces[p]

    def _claim_groups(self) -> list:
        """One lazy group per claimable route, its size the number of payments.

        Payments depend only on the route's class (type, colour, length), so
        class counts are cached per edition by the hand's counts (one part
        for train cards, one for ship cards), each with the bitmask of the
        routes of the classes it can pay for.  ANDed with the bitmask of the
        routes still claimable (``_free``), that gives the claimable routes.
        """
        p = self._cur
        h = self._hands[p]
        M = self._rs_M
        w = h[_WILDI]
        if w > M:
            w = M
        tl = self._pieces[p]
        if tl > M:
            tl = M
        free = self._free
        tcards = h[_PLAIN:_SHIP1]
        key = (tcards, w, tl)
        entry = self._rs_tcache.get(key)
        if entry is None:
            entry = self._train_class_counts(tcards, w, tl)
        if free & self._rs_paired_mask:  # paired routes still open: with their counts
            if entry[1] is None:
                entry = self._add_paired(entry, tcards, w, tl)
            cc = entry[1]
            m = entry[3]
        else:
            cc = entry[0]
            m = entry[2]
        sl = self._ships[p]
        key = (h[_SHIP1:_WILDI], w, sl if sl < M else M)
        sentry = self._rs_scache.get(key)
        if sentry is None:
            sentry = self._ship_class_counts(*key)
        m = (m | sentry[1]) & free & ~self._rs_blocked[p]
        if not m:
            return []
        cc += sentry[0]
        class_of = self._rs_class_of
        build = self._claim_options
        groups = []
        base = 0
        for byte in m.to_bytes(self._rs_nbytes, "little"):
            if byte:
                for b in _BITS8[byte]:
                    ri = base + b
                    groups.append((cc[class_of[ri]], build, ri))
            base += 8
        return groups

    def _derive_free(self) -> None:
        """The routes still claimable by someone, as a bitmask of route
        indices (``_free``): unclaimed and, with 2-3 players, not the other
        side of a claimed double (A4).  With 4-5 players ``_rs_blocked``
        holds, per player, the bitmask of the routes whose double that player
        owns; ``_rs_touch`` the harbor cities at the ends of each player's
        routes.  All derived from the owners and kept up to date by
        :meth:`_mark_taken`."""
        owners = self._owners
        partner = self.edition.route_partner
        close = self.n < self.edition.double_route_min_players
        free = 0
        for ri, o in enumerate(owners):
            if o < 0 and not (close and partner[ri] >= 0 and owners[partner[ri]] >= 0):
                free |= 1 << ri
        self._free = free
        blocked = [0] * self.n
        touch: list[frozenset[str]] = [frozenset()] * self.n
        for ri, o in enumerate(owners):
            if o >= 0:
                if not close and partner[ri] >= 0:
                    blocked[o] |= 1 << partner[ri]
                if self._rs_route_harbors[ri]:
                    touch[o] = touch[o] | self._rs_route_harbors[ri]
        self._rs_blocked = tuple(blocked)
        self._rs_touch = tuple(touch)

    def _mark_taken(self, ri: int) -> None:
        o = self._owners[ri]
        ends = self._rs_route_harbors[ri]
        if ends:  # the harbor cities this route lets its owner build in
            self._rs_touch = self._rs_touch[:o] + (self._rs_touch[o] | ends,) + self._rs_touch[o + 1 :]
        gone = 1 << ri
        pr = self.edition.route_partner[ri]
        if pr >= 0:
            if self.n < self.edition.double_route_min_players:
                gone |= 1 << pr
            else:
                self._rs_blocked = self._rs_blocked[:o] + (self._rs_blocked[o] | 1 << pr,) + self._rs_blocked[o + 1 :]
        self._free &= ~gone

    def _colour_seg(self, part: int, c: int, x: int, y: int, w: int, lim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Colour ``c``'s share of one part's class counts (part 0: train
        classes, ``x``/``y`` plain/anchor train cards; part 2: ship classes,
        ``x``/``y`` single/double ship cards), cached per edition: the counts
        of the colour's own classes (with the all-wild payment) and the
        payments it adds to each gray class (with a card of the colour).
        ``c`` = -2 (no card's colour) and -1 (gray) give the all-wild counts."""
        key = (part, c, x, y, w, lim)
        v = self._rs_ccache.get(key)
        if v is None:
            count = _train_count if part == 0 else _ship_count
            lens = self._rs_lens[part]
            own = tuple((count(x, y, w, L) if c >= 0 and x + y else 0) + (1 if L <= w else 0) if L <= lim else 0 for L in lens[c])
            gray = tuple(count(x, y, w, L) if L <= lim and c >= 0 and x + y else 0 for L in lens[-1])
            if len(self._rs_ccache) > 100_000:
                self._rs_ccache.clear()
            v = self._rs_ccache[key] = (own, gray)
        return v

    def _part_counts(self, part: int, cards: tuple[int, ...], w: int, lim: int) -> tuple[int, ...]:
        """Class counts of one part, in class order: the classes of no card's
        colour, gray, then colours 0..5 (each by length)."""
        tab = self._rs_segtab.get((part, w, lim))
        if tab is None:
            tab = self._rs_segtab[(part, w, lim)] = [None] * (100 * (_NC + 2))
        parts = [(tab[0] or self._seg(tab, part, -2, 0, 0, w, lim))[0], ()]
        shares = [(tab[100] or self._seg(tab, part, -1, 0, 0, w, lim))[0]]
        i = 200
        for c in range(_NC):
            x = cards[c]
            y = cards[_NC + c]
            if x or y:
                if x > 9:
                    x = 9
                if y > 9:
                    y = 9
                j = i + 10 * x + y
                own, gray = tab[j] or self._seg(tab, part, c, x, y, w, lim, j)
                parts.append(own)
                shares.append(gray)
            else:
                parts.append((tab[i] or self._seg(tab, part, c, 0, 0, w, lim, i))[0])
            i += 100
        parts[1] = tuple(map(sum, zip(*shares))) if len(shares) > 1 else shares[0]
        return sum(parts, ())

    def _seg(self, tab: list, part: int, c: int, x: int, y: int, w: int, lim: int, j: int | None = None) -> tuple:
        v = tab[(c + 2) * 100 if j is None else j] = self._colour_seg(part, c, x, y, w, lim)
        return v

    def _train_class_counts(self, cards: tuple[int, ...], w: int, tl: int) -> tuple:
        """The train part of the class counts for these train cards (plain
        then anchor, by colour), wilds and trains in supply, as the cache
        entry ``(counts, counts with the paired classes' (or None), bitmask
        of the routes of the classes with payments, the same with paired)``
        (tuples of ints only, so the garbage collector soon stops tracking
        the cache entries)."""
        cache = self._rs_tcache
        if len(cache) > 100_000:  # bound the cache in long sessions
            cache.clear()
        counts = self._part_counts(0, cards, w, tl) + self._rs_pzeros
        out = cache[(cards, w, tl)] = (counts, None, reduce(or_, compress(self._rs_cmask, counts), 0), None)
        return out

    def _add_paired(self, entry: tuple, cards: tuple[int, ...], w: int, tl: int) -> tuple:
        """Complete a train-part cache entry with the paired route classes."""
        pkeys = self._rs_pkeys
        top = pkeys[-1] if tl > pkeys[-1] else tl
        if top > 0:
            vec = _paired_counts(cards[:_NC], cards[_NC:], w, 2 * top)
            paired = tuple([vec[L] if L <= top else 0 for L in pkeys])
        else:
            paired = self._rs_pzeros
        counts = entry[0][: self._rs_ntrain] + paired
        out = self._rs_tcache[(cards, w, tl)] = (entry[0], counts, entry[2], reduce(or_, compress(self._rs_cmask, counts), 0))
        return out

    def _ship_class_counts(self, cards: tuple[int, ...], w: int, sl: int) -> tuple:
        """The ship part of the class counts (single then double ship cards,
        by colour) as the cache entry ``(counts, bitmask of the routes of the
        classes with payments)``."""
        cache = self._rs_scache
        if len(cache) > 100_000:
            cache.clear()
        counts = self._part_counts(2, cards, w, sl)
        out = cache[(cards, w, sl)] = (counts, reduce(or_, compress(self._rs_smask, counts), 0))
        return out

    def _claim_options(self, ri: int) -> list[Move]:
        ed = self.edition
        h = self._hands[self._cur]
        route = ed.routes[ri]
        rid, label, L = route.id, ed.route_labels[ri], route.length
        names = self._cname
        w = h[_WILDI]
        wname = names[_WILDI]
        col = self._rcol[ri]
        colours = range(_NC) if col == -1 else ((col,) if col >= 0 else ())
        pays: list[tuple[tuple[str, int], ...]] = []
        if self._rship[ri]:
            if w >= L:
                pays.append(((wname, L),))
            half = (L + 1) // 2
            for c in colours:
                s, d = h[_SHIP1 + c], h[_SHIP2 + c]
                n1, n2 = names[_SHIP1 + c], names[_SHIP2 + c]
                for dd in range(min(d, L // 2) + 1):
                    rem = L - 2 * dd
                    if rem == 0:
                        pays.append(((n2, dd),))
                        continue
                    for sp in range(max(0, rem - w), min(s, rem) + 1):
                        if dd == 0 and sp == 0:
                            continue
                        pays.append(_norm([(n1, sp), (n2, dd), (wname, rem - sp)]))
                if L % 2 and d >= half:
                    pays.append(((n2, half),))
        elif self._rpaired[ri]:
            pnames = tuple((names[_PLAIN + c], names[_ANCHOR + c]) for c in range(_NC))
            _paired_payments(h[_PLAIN:_ANCHOR], h[_ANCHOR:_SHIP1], w, 2 * L, pnames, wname, 0, 0, 0, [], pays)
        else:
            if w >= L:
                pays.append(((wname, L),))
            for c in colours:
                a, b = h[_PLAIN + c], h[_ANCHOR + c]
                if not a + b:
                    continue
                np_, na = names[_PLAIN + c], names[_ANCHOR + c]
                for k in range(min(w, L - 1) + 1):
                    m = L - k
                    for x in range(max(0, m - b), min(a, m) + 1):
                        pays.append(_norm([(np_, x), (na, m - x), (wname, k)]))
        pays.sort()  # one route: the moves sort as their cards do
        return [ClaimRoute(rid, cards, label) for cards in pays]

    def _harbor_count(self, h: tuple[int, ...]) -> int:
        """Harbor payments in hand: 2 train + 2 ship cards of one colour, all
        with the anchor, wilds replacing any (C7)."""
        w = h[_WILDI] if self._rs_hwild else 0
        key = (h[_ANCHOR:_SHIP2], w if w < 4 else 4)
        n = self._rs_harbor_cache.get(key)
        if n is not None:
            return n
        if len(self._rs_harbor_cache) > 100_000:
            self._rs_harbor_cache.clear()
        n = 1 if w >= 4 else 0
        for c in range(_NC):
            X = min(2, h[_ANCHOR + c])
            Y = min(2, h[_SHIP1 + c])
            if X + Y + w < 4:
                continue
            for x in range(X + 1):
                for y in range(Y + 1):
                    if x + y and 4 - x - y <= w:
                        n += 1
        self._rs_harbor_cache[key] = n
        return n

    def _harbor_options(self, city: str) -> list[Move]:
        h = self._hands[self._cur]
        names = self._cname
        w = h[_WILDI] if self._rs_hwild else 0
        wname = names[_WILDI]
        pays = []
        if w >= 4:
            pays.append(((wname, 4),))
        for c in range(_NC):
            X = min(2, h[_ANCHOR + c])
            Y = min(2, h[_SHIP1 + c])
            for x in range(X + 1):
                for y in range(Y + 1):
                    k = 4 - x - y
                    if x + y and k <= w:
                        pays.append(_norm([(names[_ANCHOR + c], x), (names[_SHIP1 + c], y), (wname, k)]))
        pays.sort()  # one city: the moves sort as their cards do
        return [BuildHarbor(city, cards) for cards in pays]

    def _harbor_sites(self, p: int) -> list[str]:
        """Harbor cities free of harbors where ``p`` owns a route ending (B4)."""
        sites = self._rs_touch[p]
        if not sites:
            return []
        taken = [c for cities in self._harbors for c in cities]
        return sorted(sites.difference(taken) if taken else sites)

    def _exchange_options(self, _: Any = None) -> list[Move]:
        p = self._cur
        tb, sb = self._box[p]
        key = (min(sb, self._pieces[p]), min(tb, self._ships[p]))
        out = _EXCHANGES.get(key)
        if out is None:
            out = [ExchangePieces("ships", k) for k in range(1, key[0] + 1)]
            out += [ExchangePieces("trains", k) for k in range(1, key[1] + 1)]
            _EXCHANGES[key] = out
        return out

    def _exchange_count(self, p: int) -> int:
        tb, sb = self._box[p]
        return min(sb, self._pieces[p]) + min(tb, self._ships[p])

    def _action_groups(self) -> list:
        p = self._cur
        groups: list = []
        if len(self._harbors[p]) < self._rs_nharbors and self._rs_touch[p]:
            n = self._harbor_count(self._hands[p])
            if n:
                build = self._harbor_options
                groups = [(n, build, city) for city in self._harbor_sites(p)]
        tb, sb = self._box[p]
        t, s = self._pieces[p], self._ships[p]
        k = (sb if sb < t else t) + (tb if tb < s else s)
        if k:
            groups.append((k, self._exchange_options, None))
        return groups

    def _only_exchanges_possible(self) -> bool:
        """Whether the current player could do nothing but exchange pieces."""
        if self._tdeck or any(c >= 0 for c in self._row) or any(self._pile_has_cards(q) for q in range(len(self._decks))):
            return False
        if self._claim_groups():
            return False
        p = self._cur
        if len(self._harbors[p]) < self.edition.harbors and self._harbor_count(self._hands[p]) and self._harbor_sites(p):
            return False
        return True

    # ------------------------------------------------------------------ validation
    def _check_refill(self, move: DrawFaceUp) -> tuple[str, str] | None:
        if move.refill not in self.edition.pile_names:
            piles = " or ".join(f"'faceup {move.slot} refill {name}'" for name in sorted(self.edition.pile_names))
            if move.refill is None:
                return (R_RS, f"choose the pile that turns up the replacement: {piles}")
            return (R_RS, f"unknown pile {move.refill!r} for the replacement: {piles}")
        return None

    def _refill_pile(self, move: DrawFaceUp, slot: int) -> int:
        return self._pile_by_name[move.refill]

    def _check_payment(self, ri: int, cards: list[tuple[int, int]]) -> tuple[str, str] | None:
        """Rails & Sails payments (B4): the route's type of card plus wilds;
        ship cards count 1 or 2 with no card superfluous; paired routes take
        2L train cards in L pairs."""
        route = self.edition.routes[ri]
        L = route.length
        ship = self._rship[ri]
        kind, ccol, names = self._ckind, self._ccol, self._cname
        for c, _ in cards:
            if ship and kind[c] == 0:
                return (R_RS, f"a ship route takes ship cards and wilds, not the train card {names[c]}")
            if not ship and kind[c] == 1:
                return (R_RS, f"a train route takes train cards and wilds, not the ship card {names[c]}")
        colors = {ccol[c] for c, _ in cards if kind[c] != 2}
        wilds = sum(k for c, k in cards if kind[c] == 2)
        count = sum(k for _, k in cards)
        if self._rpaired[ri]:
            if count != 2 * L:
                return (R_RS, f"a paired route of {L} spaces takes exactly {2 * L} train cards ({L} pairs), not {count}")
            per: dict[int, int] = {}
            for c, k in cards:
                if kind[c] != 2:
                    per[ccol[c]] = per.get(ccol[c], 0) + k
            odd = sum(1 for v in per.values() if v % 2)
            if odd > wilds:
                return (R_RS, "the cards must form pairs of one colour each (a wild completes any pair)")
            return None
        if len(colors) > 1:
            return (R_CLAIM, "mixed colours: every non-wild card must be of one colour")
        want = self._rcol[ri]
        if colors and want != -1 and colors != {want}:
            got = self.edition.colors[next(iter(colors))]
            return (R_CLAIM, f"a {route.color} route takes {route.color} cards (and wilds), not {got} ones")
        if ship:
            value = sum(self._cval[c] * k for c, k in cards)
            if value < L:
                return (R_RS, f"the cards cover {value} spaces; the route needs {L}")
            low = min(self._cval[c] for c, _ in cards)
            if value - low >= L:
                return (R_RS, f"a card is superfluous: the cards cover {value} spaces and the route needs {L}")
            return None
        if count != L:
            return (R_CLAIM, f"must pay exactly {L} cards, not {count}")
        return None

    def _check_harbor(self, move: BuildHarbor) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("harbor")
        ed = self.edition
        m = self.map
        city = move.city
        if not m.has_city(city):
            return (R_RS, f"there is no city {city!r} on the {m.id} map")
        if city not in self._harbor_cities:
            return (R_RS, f"{city} is not a harbor city")
        for q, cities in enumerate(self._harbors):
            if city in cities:
                return (R_RS, f"{city} already has a harbor ({self.player_names[q]}'s); one harbor per city")
        p = self._cur
        if len(self._harbors[p]) >= ed.harbors:
            return (R_RS, f"the player has built all {ed.harbors} harbors")
        routes = ed.routes
        if not any(o == p and city in (routes[i].a, routes[i].b) for i, o in enumerate(self._owners)):
            return (R_RS, f"the player owns no route ending in {city}")
        cards = self._hand_cards(move.cards, R_RS)
        if isinstance(cards, tuple):
            return cards
        if sum(k for _, k in cards) != 4:
            return (R_RS, "a harbor costs exactly 4 cards: 2 train cards and 2 ship cards")
        kind, names = self._ckind, self._cname
        trains = ships = 0
        for c, k in cards:
            if kind[c] == 2:
                if not ed.options["harbor_wilds"]:
                    return ("C7", "wilds cannot pay for a harbor (option harbor_wilds=False)")
                continue
            if not self._canchor[c]:
                what = "double-ship cards have" if kind[c] == 1 else f"the train card {names[c]} has"
                return (R_RS, f"{what} no harbor symbol; a harbor takes cards with the anchor")
            if kind[c] == 0:
                trains += k
            else:
                ships += k
        if len({self._ccol[c] for c, _ in cards if kind[c] != 2}) > 1:
            return (R_RS, "mixed colours: the harbor cards must all be of one colour")
        if trains > 2 or ships > 2:
            return (R_RS, f"a harbor takes 2 train cards and 2 ship cards (wilds replace any), not {trains} and {ships}")
        return None

    def _check_exchange(self, move: ExchangePieces) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("exchange")
        if move.take not in ("trains", "ships"):
            return (R_RS, f"exchange takes 'trains' or 'ships', not {move.take!r}")
        if not isinstance(move.count, int) or move.count < 1:
            return (R_RS, "exchange at least 1 piece")
        p = self._cur
        tb, sb = self._box[p]
        have, give = (tb, self._ships[p]) if move.take == "trains" else (sb, self._pieces[p])
        other = "ships" if move.take == "trains" else "trains"
        if move.count > have:
            return (R_RS, f"the box holds only {have} of the player's {move.take}")
        if move.count > give:
            return (R_RS, f"the player has only {give} {other} in supply to put back")
        return None

    def _check_choose(self, move: ChoosePieces) -> tuple[str, str] | None:
        if self._phase != _PIECES:
            if self._phase == _SETUP_TICKETS:
                return ("B4", "pieces are chosen after the initial tickets")
            return ("B4", "pieces are chosen only at setup")
        lo, hi = self.edition.train_range
        t = move.trains
        if not isinstance(t, int) or not lo <= t <= hi:
            ed = self.edition
            return (R_RS, f"choose {lo} to {hi} trains (with {ed.total_pieces} pieces in all, at most "
                          f"{ed.train_pieces} trains and {ed.ship_pieces} ships), not {t}")
        return None

    _checks = {
        **GameState._checks,
        BuildHarbor: _check_harbor,
        ExchangePieces: _check_exchange,
        ChoosePieces: _check_choose,
    }

    # ------------------------------------------------------------------ move effects
    def _use_pieces(self, p: int, ri: int, n: int) -> None:
        if self._rship[ri]:
            self._ships = self._ships[:p] + (self._ships[p] - n,) + self._ships[p + 1 :]
        else:
            self._pieces = self._pieces[:p] + (self._pieces[p] - n,) + self._pieces[p + 1 :]

    def _total_pieces(self, p: int) -> int:
        return self._pieces[p] + self._ships[p]

    def _apply_choose(self, move: ChoosePieces) -> None:
        p = self._cur
        self._choice = self._choice[:p] + (move.trains,) + self._choice[p + 1 :]
        nxt = (p + 1) % self.n
        if nxt != self._first:
            self._cur = nxt
            return
        # every player has chosen: reveal together (B4)
        ed = self.edition
        self._pieces = tuple(self._choice)
        self._ships = tuple(ed.total_pieces - t for t in self._choice)
        self._box = tuple((ed.train_pieces - t, ed.ship_pieces - (ed.total_pieces - t)) for t in self._choice)
        GameState._start_play(self)

    def _apply_harbor(self, move: BuildHarbor) -> None:
        p = self._cur
        index = self.edition.card_index
        self._pay([(index[name], k) for name, k in move.cards])
        self._harbors = self._harbors[:p] + (self._harbors[p] + (move.city,),) + self._harbors[p + 1 :]
        self._passes = 0
        self._fill_empty_slots()
        self._end_turn()

    def _apply_exchange(self, move: ExchangePieces) -> None:
        p = self._cur
        stuck = self._only_exchanges_possible()
        k = move.count
        tb, sb = self._box[p]
        if move.take == "trains":
            self._pieces = self._pieces[:p] + (self._pieces[p] + k,) + self._pieces[p + 1 :]
            self._ships = self._ships[:p] + (self._ships[p] - k,) + self._ships[p + 1 :]
            box = (tb - k, sb + k)
        else:
            self._ships = self._ships[:p] + (self._ships[p] + k,) + self._ships[p + 1 :]
            self._pieces = self._pieces[:p] + (self._pieces[p] - k,) + self._pieces[p + 1 :]
            box = (tb + k, sb - k)
        self._box = self._box[:p] + (box,) + self._box[p + 1 :]
        self._exchanged = self._exchanged[:p] + (self._exchanged[p] + k,) + self._exchanged[p + 1 :]
        self._scores = self._scores[:p] + (self._scores[p] - k,) + self._scores[p + 1 :]
        # [rec] a turn on which nothing but an exchange was possible, and that
        # still leaves the player no claim, counts toward the all-pass end (A1)
        self._passes = self._passes + 1 if stuck and not self._claim_groups() else 0
        self._end_turn()

    _apply = {
        **GameState._apply,
        BuildHarbor: _apply_harbor,
        ExchangePieces: _apply_exchange,
        ChoosePieces: _apply_choose,
    }

    # ------------------------------------------------------------------ records
    def _score_offset(self, player: int) -> int:
        return -self._exchanged[player]

    def _extra_to_dict(self) -> dict[str, Any]:
        return {
            "ships": list(self._ships),
            "box": [{"trains": t, "ships": s} for t, s in self._box],
            "harbors": [list(h) for h in self._harbors],
            "piece_choices": [c if c >= 0 else None for c in self._choice],
            "exchanged": list(self._exchanged),
        }

    def _extra_from_dict(self, data: dict[str, Any]) -> None:
        keys = {"ships", "box", "harbors", "piece_choices", "exchanged"}
        if set(data) != keys:
            raise TtrError(f"expected fields {sorted(keys)}, got {sorted(data)}")
        n = self.n

        def nonneg(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool) and v >= 0

        for key in keys:
            if not isinstance(data[key], list) or len(data[key]) != n:
                raise TtrError(f"{key}: expected a list with one entry per player")
        if not all(nonneg(v) for v in data["ships"]):
            raise TtrError("ships: expected counts >= 0")
        if not all(nonneg(v) for v in data["exchanged"]):
            raise TtrError("exchanged: expected counts >= 0")
        box = []
        for p, b in enumerate(data["box"]):
            if not isinstance(b, dict) or set(b) != {"trains", "ships"} or not all(nonneg(v) for v in b.values()):
                raise TtrError(f"box[{p}]: expected {{'trains': n, 'ships': n}}")
            box.append((b["trains"], b["ships"]))
        lo, hi = self.edition.train_range
        choices = []
        for p, c in enumerate(data["piece_choices"]):
            if c is None:
                choices.append(-1)
            elif isinstance(c, int) and not isinstance(c, bool) and lo <= c <= hi:
                choices.append(c)
            else:
                raise TtrError(f"piece_choices[{p}]: expected None or {lo}..{hi}, got {c!r}")
        harbors = []
        for p, h in enumerate(data["harbors"]):
            if not isinstance(h, list) or not all(isinstance(c, str) for c in h):
                raise TtrError(f"harbors[{p}]: expected a list of city names")
            harbors.append(tuple(h))
        self._ships = tuple(data["ships"])
        self._box = tuple(box)
        self._choice = tuple(choices)
        self._harbors = tuple(harbors)
        self._exchanged = tuple(data["exchanged"])

    def _piece_problems(self) -> list[str]:
        out = []
        ed = self.edition
        routes = ed.routes
        setup = self._phase in (_SETUP_TICKETS, _PIECES)
        for p in range(self.n):
            placed_t = placed_s = 0
            for i, o in enumerate(self._owners):
                if o == p:
                    if self._rship[i]:
                        placed_s += routes[i].length
                    else:
                        placed_t += routes[i].length
            tb, sb = self._box[p]
            if self._pieces[p] + placed_t + tb != ed.train_pieces:
                out.append(f"player {p} has {self._pieces[p]} trains in supply, {placed_t} placed and {tb} in the box, expected {ed.train_pieces} in all")
            if self._ships[p] + placed_s + sb != ed.ship_pieces:
                out.append(f"player {p} has {self._ships[p]} ships in supply, {placed_s} placed and {sb} in the box, expected {ed.ship_pieces} in all")
            if min(self._pieces[p], self._ships[p]) < 0:
                out.append(f"player {p} has a negative number of pieces")
            if setup and self._pieces[p] + self._ships[p] + placed_t + placed_s:
                out.append(f"player {p} has pieces out of the box before the setup choices are revealed")
            if not setup and self._phase != _OVER and self._choice[p] < 0:
                out.append(f"player {p} has not chosen pieces, but play has started")
            if len(self._harbors[p]) > ed.harbors:
                out.append(f"player {p} has built {len(self._harbors[p])} harbors, at most {ed.harbors}")
        if self._phase == _PIECES:
            # the players before the current chooser (from the first player) have chosen, the rest not
            q = self._first
            while q != self._cur:
                if self._choice[q] < 0:
                    out.append(f"player {q} should have chosen pieces already")
                q = (q + 1) % self.n
            while True:
                if self._choice[q] >= 0:
                    out.append(f"player {q} has chosen pieces before their turn to choose")
                q = (q + 1) % self.n
                if q == self._first:
                    break
        elif self._phase == _SETUP_TICKETS and any(c >= 0 for c in self._choice):
            out.append("pieces are chosen before the initial tickets")
        built = [c for h in self._harbors for c in h]
        for c in sorted(set(built)):
            if built.count(c) > 1:
                out.append(f"{c} has {built.count(c)} harbors")
            if c not in self._harbor_cities:
                out.append(f"{c} is not a harbor city")
        return out


RailsSails.state_class = RailsSailsState
