"""Ticket to Ride Rails & Sails: the World map and the Great Lakes map
(RULES.md B4, B5; resolutions C6, C7, C8, C9, C15).

Two card piles, ``"trains"`` and ``"ships"``, and a six-card row (three of
each).  The cards, by their names in the move notation:

===============  =====  ==========================================  ======
name             pile   what it is                                  count
===============  =====  ==========================================  ======
``red``          trains train card without the harbor symbol         7
``red-anchor``   trains train card with the harbor (anchor) symbol   4
``red-ship``     ships  single-ship card (always has the anchor)     4
``red-ship2``    ships  double-ship card (covers 2 spaces, no anchor) 6
``wild``         trains wild card (counts as bearing the anchor)    14
===============  =====  ==========================================  ======

for each of the colours pink, yellow, green, red, black and white: 80 train
cards and 60 ship cards.

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
which the only legal actions were piece exchanges counts like a pass, so a
game in which nobody can draw, claim, build or take tickets still ends after
one full round of such turns (A1).

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

from collections import deque
from dataclasses import dataclass
from itertools import chain, compress
from operator import itemgetter
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


def _cached(key: tuple, make: Any) -> Any:
    v = _COUNT_CACHE.get(key)
    if v is None:
        if len(_COUNT_CACHE) > 200_000:  # keep memory bounded in long sessions
            _COUNT_CACHE.clear()
        v = _COUNT_CACHE[key] = make()
    return v


def _wild_vec(w: int, lim: int, M: int) -> tuple[int, ...]:
    """1 at each length L <= lim that wilds alone can pay."""
    key = ("w", w, lim, M)
    v = _COUNT_CACHE.get(key)
    if v is None:
        v = _cached(key, lambda: tuple(1 if 1 <= L <= lim and L <= w else 0 for L in range(M + 1)))
    return v


def _train_vec(a: int, b: int, w: int, lim: int, M: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per length L (0..M): payments of a route of this colour (with the
    all-wild payment) and those using at least one card of the colour."""
    if a > M:
        a = M
    if b > M:
        b = M
    key = ("t", a, b, w, lim, M)
    v = _COUNT_CACHE.get(key)
    if v is None:
        def make() -> tuple:
            col = [0] * (M + 1)
            for L in range(1, lim + 1):
                if a + b and a + b + w >= L:
                    col[L] = _train_count(a, b, w, L)
            full = tuple(n + (1 if 1 <= L <= lim and L <= w else 0) for L, n in enumerate(col))
            return (full, tuple(col))

        v = _cached(key, make)
    return v


def _ship_vec(s: int, d: int, w: int, lim: int, M: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """As :func:`_train_vec` for ship routes (single and double ship cards)."""
    if s > M:
        s = M
    if d > (M + 1) // 2:
        d = (M + 1) // 2
    key = ("s", s, d, w, lim, M)
    v = _COUNT_CACHE.get(key)
    if v is None:
        def make() -> tuple:
            col = [0] * (M + 1)
            for L in range(1, lim + 1):
                if s + d and s + 2 * d + w >= L:
                    col[L] = _ship_count(s, d, w, L)
            full = tuple(n + (1 if 1 <= L <= lim and L <= w else 0) for L, n in enumerate(col))
            return (full, tuple(col))

        v = _cached(key, make)
    return v


def _paired_vec(plain: tuple[int, ...], anchor: tuple[int, ...], w: int, lim: int, M: int) -> tuple[int, ...]:
    """Per length L (0..M, counted up to ``lim``): payments of a paired route."""
    N = 2 * lim
    prof = tuple(sorted((a if a < N else N, b if b < N else N) for a, b in zip(plain, anchor) if a + b))
    if w > N:
        w = N
    key = ("p", prof, w, lim, M)
    v = _COUNT_CACHE.get(key)
    if v is None:
        def make() -> tuple:
            # dp[(cards, colours with an odd count)] = multisets of coloured cards
            dp = {(0, 0): 1}
            for a, b in prof:
                ways = [_ways(t, a, b) for t in range(min(a + b, N) + 1)]
                new: dict[tuple[int, int], int] = {}
                for (size, odd), cnt in dp.items():
                    for t in range(min(a + b, N - size) + 1):
                        o = odd + (t & 1)
                        if o <= w:
                            k = (size + t, o)
                            new[k] = new.get(k, 0) + cnt * ways[t]
                dp = new
            out = [0] * (M + 1)
            for L in range(1, lim + 1):
                out[L] = sum(cnt for (size, odd), cnt in dp.items() if odd <= 2 * L - size <= w)
            return tuple(out)

        v = _cached(key, make)
    return v


def _norm(cards: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(c for c in cards if c[1]))


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
        # class layout: per length 0..M, 8 train slots (6 colours, gray, a
        # colour no card has), the paired slot, then 8 ship slots; the count
        # vectors of _train_class_counts, _paired_class_counts and
        # _ship_class_counts use the same slots
        M = self._rs_M = max([r.length for r in ed.routes] + [1])
        T = _NC + 3  # slots in the train part (with the paired slot)
        classes: dict[int, list[int]] = {}
        for i, r in enumerate(ed.routes):
            col = self._rcol[i]
            slot = col if col >= 0 else (_NC if col == -1 else _NC + 1)
            if r.paired:
                slot = _NC + 2
            elif r.is_ship:
                slot += T
            classes.setdefault(slot * (M + 1) + r.length, []).append(i)
        flat = sorted(classes)
        self._rs_class_members = tuple(tuple(classes[f]) for f in flat)
        P0, S0 = (_NC + 2) * (M + 1), T * (M + 1)
        tflat = [f for f in flat if f < P0]
        pflat = [f - P0 for f in flat if P0 <= f < S0]
        sflat = [f - S0 for f in flat if f >= S0]
        self._rs_pclasses = tuple(range(len(tflat), len(tflat) + len(pflat)))
        self._rs_pzeros = (0,) * len(pflat)

        def getter(idx: list[int]) -> Any:
            if len(idx) == 1:
                return lambda v, _i=idx[0]: (v[_i],)
            if not idx:
                return lambda v: ()
            return itemgetter(*idx)

        self._rs_tgetter = getter(tflat)
        self._rs_pgetter = getter(pflat)
        self._rs_sgetter = getter(sflat)
        class_of = [0] * len(ed.routes)
        for ci, f in enumerate(flat):
            for ri in classes[f]:
                class_of[ri] = ci
        self._rs_class_of = tuple(class_of)
        self._rs_paired_max = max([r.length for r in ed.routes if r.paired] + [0])
        self._rs_zeros = (0,) * (M + 1)
        # class counts by (cards, wilds, pieces): shared by the edition's games
        self._rs_tcache: dict[tuple, tuple[int, ...]] = {}
        self._rs_scache: dict[tuple, tuple[int, ...]] = {}
        self._rs_pcache: dict[tuple, tuple[int, ...]] = {}
        self._rs_harbor_cache: dict[tuple, int] = {}
        self._rs_htable = bytes(min(i, 2) for i in range(256))
        self._rs_blind_order = tuple(sorted(range(len(ed.pile_names)), key=lambda q: ed.pile_names[q]))
        self._harbor_cities = frozenset(c.name for c in ed.map.cities if c.harbor)
        self._choose_moves = tuple(ChoosePieces(t) for t in range(ed.train_range[0], ed.train_range[1] + 1))

    def _faceup_moves(self, slot: int) -> tuple[Move, ...]:
        return tuple(DrawFaceUp(slot, name) for name in sorted(self.edition.pile_names))

    def _blind_picks(self) -> list[Move]:
        """Blind draws from the piles that have cards, in notation order
        (``blind ships`` before ``blind trains``) so the legal moves stay sorted."""
        decks, discards, blind = self._decks, self._discards, self._blind
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

        Payment counts depend only on the route's class (type, colour,
        length, paired), so they come from per-colour count vectors, cached
        per edition by the hand's card counts; the routes of each class that
        are still claimable are kept in ``_free``.
        """
        p = self._cur
        h = self._hands[p]
        w = h[_WILDI]
        M = self._rs_M
        if w > M:
            w = M
        tl = self._pieces[p]
        if tl > M:
            tl = M
        tcards = h[_PLAIN:_SHIP1]
        key = (tcards, w, tl)
        tc = self._rs_tcache.get(key)
        if tc is None:
            tc = self._train_class_counts(*key)
        free = self._free
        if self._rs_pclasses and any(free[ci] for ci in self._rs_pclasses):
            key = (tcards, w, tl if tl < self._rs_paired_max else self._rs_paired_max)
            pc = self._rs_pcache.get(key)
            if pc is None:
                pc = self._paired_class_counts(*key)
            tc += pc
        else:
            tc += self._rs_pzeros
        sl = self._ships[p]
        key = (h[_SHIP1:_WILDI], w, sl if sl < M else M)
        sc = self._rs_scache.get(key)
        if sc is None:
            sc = self._ship_class_counts(*key)
        cc = tc + sc
        found = [(ri, n) for n, members in zip(compress(cc, cc), compress(free, cc)) for ri in members]
        if not found:
            return found
        blocked = self._rs_blocked[p]
        if blocked:  # no player may own both routes of a double (A4)
            found = [x for x in found if x[0] not in blocked]
        found.sort()
        build = self._claim_options
        return [(n, build, ri) for ri, n in found]

    def _derive_free(self) -> None:
        """Per route class (see ``_build_tables``), the routes still claimable
        by someone: unclaimed and, with 2-3 players, not the other side of a
        claimed double (A4).  With 4-5 players, ``_rs_blocked`` holds per
        player the routes whose double that player owns.  Both are derived
        from the owners and kept up to date by :meth:`_mark_taken`."""
        owners = self._owners
        partner = self.edition.route_partner
        close = self.n < self.edition.double_route_min_players
        self._free = tuple(
            tuple(ri for ri in members if owners[ri] < 0 and not (close and partner[ri] >= 0 and owners[partner[ri]] >= 0))
            for members in self._rs_class_members
        )
        blocked: list[frozenset[int]] = [frozenset()] * self.n
        if not close:
            for ri, o in enumerate(owners):
                if o >= 0 and partner[ri] >= 0:
                    blocked[o] = blocked[o] | {partner[ri]}
        self._rs_blocked = tuple(blocked)

    def _mark_taken(self, ri: int) -> None:
        gone = [ri]
        pr = self.edition.route_partner[ri]
        if pr >= 0:
            if self.n < self.edition.double_route_min_players:
                gone.append(pr)
            else:
                p = self._owners[ri]
                self._rs_blocked = self._rs_blocked[:p] + (self._rs_blocked[p] | {pr},) + self._rs_blocked[p + 1 :]
        free = list(self._free)
        cls = self._rs_class_of
        for r in gone:
            ci = cls[r]
            free[ci] = tuple([x for x in free[ci] if x != r])
        self._free = tuple(free)

    def _train_class_counts(self, cards: tuple[int, ...], w: int, tl: int) -> tuple[int, ...]:
        """Payment counts of the (unpaired) train route classes for these
        train cards (plain then anchor, by colour), wilds and trains in supply
        (both capped at the longest route); cached per edition."""
        M = self._rs_M
        wv = _wild_vec(w, tl, M)
        parts = []
        vs = []
        for c in range(_NC):
            a, b = cards[c], cards[_NC + c]
            if a or b:
                u, v = _train_vec(a, b, w, tl, M)
                parts.append(u)
                vs.append(v)
            else:
                parts.append(wv)
        parts.append(tuple(map(sum, zip(*vs, wv))) if vs else wv)
        parts.append(wv)
        cache = self._rs_tcache
        if len(cache) > 100_000:  # bound the cache in long sessions
            cache.clear()
        out = cache[(cards, w, tl)] = self._rs_tgetter(tuple(chain.from_iterable(parts)))
        return out

    def _paired_class_counts(self, cards: tuple[int, ...], w: int, lim: int) -> tuple[int, ...]:
        """Payment counts of the paired route classes (lengths up to ``lim``)."""
        M = self._rs_M
        vec = _paired_vec(cards[:_NC], cards[_NC:], w, lim, M) if lim > 0 else self._rs_zeros
        cache = self._rs_pcache
        if len(cache) > 100_000:
            cache.clear()
        out = cache[(cards, w, lim)] = self._rs_pgetter(vec)
        return out

    def _ship_class_counts(self, cards: tuple[int, ...], w: int, sl: int) -> tuple[int, ...]:
        """As :meth:`_train_class_counts` for the ship route classes (single
        then double ship cards, by colour)."""
        M = self._rs_M
        wv = _wild_vec(w, sl, M)
        parts = []
        vs = []
        for c in range(_NC):
            s1, s2 = cards[c], cards[_NC + c]
            if s1 or s2:
                u, v = _ship_vec(s1, s2, w, sl, M)
                parts.append(u)
                vs.append(v)
            else:
                parts.append(wv)
        parts.append(tuple(map(sum, zip(*vs, wv))) if vs else wv)
        parts.append(wv)
        cache = self._rs_scache
        if len(cache) > 100_000:
            cache.clear()
        out = cache[(cards, w, sl)] = self._rs_sgetter(tuple(chain.from_iterable(parts)))
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
            N = 2 * L
            plain, anchor = h[_PLAIN:_ANCHOR], h[_ANCHOR:_SHIP1]
            chosen: list[tuple[str, int]] = []

            def rec(c: int, size: int, odd: int) -> None:
                if c == _NC:
                    k = N - size
                    if odd <= k <= w:
                        pays.append(_norm(chosen + [(wname, k)]))
                    return
                a, b = plain[c], anchor[c]
                for t in range(min(a + b, N - size) + 1):
                    o = odd + (t & 1)
                    if o > w:
                        continue
                    for x in range(max(0, t - b), min(a, t) + 1):
                        chosen.append((names[_PLAIN + c], x))
                        chosen.append((names[_ANCHOR + c], t - x))
                        rec(c + 1, size + t, o)
                        del chosen[-2:]

            rec(0, 0, 0)
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
        out = [ClaimRoute(rid, cards, label) for cards in pays]
        out.sort()
        return out

    def _harbor_count(self, h: tuple[int, ...]) -> int:
        """Harbor payments in hand: 2 train + 2 ship cards of one colour, all
        with the anchor, wilds replacing any (C7)."""
        w = h[_WILDI] if self.edition.options["harbor_wilds"] else 0
        key = (bytes(h[_ANCHOR:_SHIP2]).translate(self._rs_htable), w if w < 4 else 4)
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
        w = h[_WILDI] if self.edition.options["harbor_wilds"] else 0
        wname = names[_WILDI]
        out = []
        if w >= 4:
            out.append(BuildHarbor(city, ((wname, 4),)))
        for c in range(_NC):
            X = min(2, h[_ANCHOR + c])
            Y = min(2, h[_SHIP1 + c])
            for x in range(X + 1):
                for y in range(Y + 1):
                    k = 4 - x - y
                    if x + y and k <= w:
                        out.append(BuildHarbor(city, _norm([(names[_ANCHOR + c], x), (names[_SHIP1 + c], y), (wname, k)])))
        out.sort()
        return out

    def _harbor_sites(self, p: int) -> list[str]:
        """Harbor cities free of harbors where ``p`` owns a route ending (B4)."""
        routes = self.edition.routes
        hc = self._harbor_cities
        taken = {c for cities in self._harbors for c in cities}
        sites = set()
        for i, o in enumerate(self._owners):
            if o == p:
                r = routes[i]
                for c in (r.a, r.b):
                    if c in hc and c not in taken:
                        sites.add(c)
        return sorted(sites)

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
        if len(self._harbors[p]) < self.edition.harbors:
            n = self._harbor_count(self._hands[p])
            if n:
                build = self._harbor_options
                groups.extend((n, build, city) for city in self._harbor_sites(p))
        k = self._exchange_count(p)
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

    def _rs_cards(self, cards: Any, rule: str) -> list[tuple[int, int]] | tuple[str, str]:
        """Card names to ``(index, count)`` pairs, checked against the current hand."""
        index = self.edition.card_index
        hand = self._hands[self._cur]
        out = []
        seen = set()
        for name, k in cards:
            c = index.get(name)
            if c is None:
                return (rule, f"unknown card {name!r} (cards: {', '.join(index)})")
            if not isinstance(k, int) or k <= 0:
                return (rule, f"card count must be positive ({name}:{k})")
            if c in seen:
                return (rule, f"card {name} is named twice")
            seen.add(c)
            if hand[c] < k:
                return (rule, f"player has {hand[c]} {name}, not {k}")
            out.append((c, k))
        return out

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
            return (R_CLAIM, f"a {route.color} route takes {route.color} cards (and wilds), not {names[cards[0][0] if kind[cards[0][0]] != 2 else cards[-1][0]]}")
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

    def _check_claim(self, move: ClaimRoute) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("claim")
        ri = self.edition.route_index.get(move.route)
        if ri is None:
            return (R_CLAIM, f"there is no route {move.route} on the {self.map.id} map")
        why = self._claimable(self._cur, ri)
        if why:
            return why
        cards = self._rs_cards(move.cards, R_CLAIM)
        if isinstance(cards, tuple):
            return cards
        if not cards:
            return (R_CLAIM, "a claim needs cards")
        return self._check_payment(ri, cards)

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
        cards = self._rs_cards(move.cards, R_RS)
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
        ClaimRoute: _check_claim,
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
        # [rec] a turn that could only exchange counts toward the all-pass end (A1)
        self._passes = self._passes + 1 if stuck else 0
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
