"""Harbors (rule B4, resolution C7).

``harbor CITY cards``: in a harbor city at the end of one of the player's
routes, paying 2 train cards and 2 ship cards of one colour, all with the
harbor symbol (wilds may replace any of them: option ``harbor_wilds``, C7).
At most 3 per player and one per city.  At the end a harbor scores by the
number of its owner's completed tickets showing its city (World: 20 / 30 /
40 for 1 / 2 / 3 or more; Great Lakes 10 / 20 / 30); each unbuilt harbor
costs 4.

Position fields: ``_harbors`` (per seat, harbor cities in building order)
and the derived ``_rs_touch`` (per seat, the harbor cities its routes reach,
as a bitmask over the map's harbor cities in name order: an int, so the
position's undo snapshots hold no frozensets, which the garbage collector
would track for ever).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.moves import CardList, Move, card_list_problem, cards_in_words, cards_to_text, city_and_cards, show_value
from ...engine.phases import Phase
from ...engine.rules import Field, Rebuild, Table
from ...engine.rules.accessors import Accessors
from ...engine.rules.caches import BoundedCache, cache_group
from ...engine.rules.hooks import table_cities
from ...engine.scoring.results import TicketResult
from ...errors import TtrError
from .cards import ANCHOR, NC, SHIP1, SHIP2, WILD
from .counting import _norm
from .payments import R_RS, RSPayments

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["Harbors", "HarborAccessors", "BuildHarbor"]

_TURN = int(Phase.TURN)


@dataclass(frozen=True, slots=True, repr=False)
class BuildHarbor(Move):
    """Build a harbor in ``city`` paying ``cards`` (Rails & Sails)."""

    city: str
    cards: CardList
    verb: ClassVar[str] = "harbor"
    rank: ClassVar[float] = 9

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        return cls(*city_and_cards(args, text)) if args else None

    def problem(self) -> str | None:
        if not isinstance(self.city, str):
            return f"a city is named by a string, not {show_value(self.city)}"
        return card_list_problem(self.cards)

    def _fields(self) -> tuple[Any, ...]:
        return (self.city, self.cards)

    def __str__(self) -> str:
        return f"harbor {self.city} {cards_to_text(self.cards)}"

    def describe(self, state: GameState) -> str:
        return f"build a harbor in {self.city} paying {cards_in_words(self.cards)}"


def _load_harbors(ed: Any, n: int, data: Any) -> tuple[tuple[str, ...], ...]:
    if (
        not isinstance(data, list)
        or len(data) != n
        or not all(isinstance(h, list) and len(h) <= 100 and all(isinstance(c, str) for c in h) for h in data)
    ):
        raise TtrError("expected one list of city names per player")
    return tuple(tuple(h) for h in data)


class HarborAccessors(Accessors):
    """The harbors, asked of a game or a view (public).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("world", players=2, seed=1)
    >>> g.ext.harbors(), g.view(0).ext.harbors_left(1)
    ({}, 3)
    """

    __slots__ = ()

    def _harbor_rules(self) -> Harbors:
        return cast(Harbors, self.state.edition)

    def harbors(self) -> dict[str, int]:
        """``{city: seat}`` for every harbor built."""
        return self._harbor_rules().harbors_built(self.state)

    def harbors_of(self, player: int) -> tuple[str, ...]:
        """A player's harbor cities, in building order."""
        return self._harbor_rules().harbors_of(self.state, player)

    def harbors_left(self, player: int) -> int:
        """How many harbors ``player`` may still build."""
        return self._harbor_rules().harbors_left(self.state, player)


class Harbors(RSPayments):
    """Mixin: building harbors and scoring them."""

    moves = {BuildHarbor: ("check_harbor", "apply_harbor")}
    turn_actions = {"harbor_groups": BuildHarbor.rank}
    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_harbors",
            "harbors",
            lambda ed, n: ((),) * n,
            lambda ed, v: [list(h) for h in v],
            _load_harbors,
            from_view="harbors_from_view",
        ),
        Field("_rs_touch", "", lambda ed, n: (0,) * n, derived=True),
    )
    accessors = HarborAccessors
    building = (("harbor", "harbors"),)
    controls = ("build",)
    table_facts = {"harbors": "{player: [harbor cities]}: the harbors built (default: none)"}
    seat_facts = table_facts
    builds_on_tickets = True
    harbors: int = 3  #: harbors per player
    harbor_points: Mapping[int, int] = {
        1: 20,
        2: 30,
        3: 40,
    }  #: completed tickets showing the city -> points (3 = 3 or more)
    unbuilt_harbor_penalty: int = 4

    _harbor_cities: frozenset[str]
    _harbor_names: tuple[str, ...]  # the harbor cities in name order: bit i of a mask is the i-th
    _harbor_bit: dict[str, int]
    _rs_route_harbors: tuple[int, ...]  # per route, the mask of its harbor-city ends
    _rs_harbor_cache: BoundedCache

    def _check_options(self, opts: dict[str, Any]) -> None:
        super()._check_options(opts)
        if not isinstance(opts["harbor_wilds"], bool):
            raise TtrError(f"harbor_wilds must be True or False, not {opts['harbor_wilds']!r}")

    def _build_tables(self) -> None:
        super()._build_tables()
        self._harbor_cities = frozenset(c.name for c in self.map.cities if c.harbor)
        self._harbor_names = tuple(sorted(self._harbor_cities))
        self._harbor_bit = {c: 1 << i for i, c in enumerate(self._harbor_names)}
        bit = self._harbor_bit
        self._rs_route_harbors = tuple(bit.get(r.a, 0) | bit.get(r.b, 0) for r in self.routes)
        # harbor payment counts by the anchor cards and wilds in hand (bounded, shared by the map's editions)
        key = ("harbors", self.map.digest, self.options["harbor_wilds"])
        self._rs_harbor_cache = cache_group(key, {"counts": 20_000})["counts"]

    # ------------------------------------------------------------------ public read API
    def harbors_built(self, s: GameState) -> dict[str, int]:
        """``{city: seat}`` for every harbor built (``game.harbors()``)."""
        return {c: p for p, cities in enumerate(s._harbors) for c in cities}

    def harbors_of(self, s: GameState, player: int) -> tuple[str, ...]:
        """A player's harbor cities, in building order."""
        return tuple(s._harbors[s.seat(player)])

    def harbors_left(self, s: GameState, player: int) -> int:
        """How many harbors ``player`` may still build."""
        return self.harbors - len(s._harbors[s.seat(player)])

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The base view, and every harbor built (public)."""
        return {**super().view_fields(s, player), "harbors": self.harbors_built(s)}

    def harbors_from_view(self, view: PlayerView, ctx: Rebuild) -> list[list[str]]:
        """The harbors, as the view shows them (public)."""
        return [list(view.harbors_of(q)) for q in range(view.num_players)]

    def table_extra(self, t: Table) -> None:
        """The harbors stated (none by default), checked: harbor cities at the end of an owner's route."""
        super().table_extra(t)
        names, routes = t.players, self.map.route

        def check(seat: int, city: str) -> None:
            if city not in self._harbor_cities:
                raise TtrError(f"harbors[{names[seat]}]: {city} is not a harbor city")
            if not any(o == seat and city in (routes(r).a, routes(r).b) for r, o in t.owners.items()):
                raise TtrError(f"harbors[{names[seat]}]: {names[seat]} owns no route ending in {city} (B4)")

        t.extra["harbors"] = table_cities(self, t, "harbors", self.harbors, check)

    # ------------------------------------------------------------------ derived: cities reached
    def derive(self, s: GameState) -> None:
        """The base rules' derived fields, and ``_rs_touch``: per seat, the harbor cities its routes reach."""
        super().derive(s)
        touch = [0] * s.n
        for ri, o in enumerate(s._owners):
            if o >= 0 and self._rs_route_harbors[ri]:
                touch[o] = touch[o] | self._rs_route_harbors[ri]
        s._rs_touch = tuple(touch)

    def mark_taken(self, s: GameState, ri: int) -> None:
        """The base rules' derived fields, and the harbor cities the new owner's route reaches."""
        super().mark_taken(s, ri)
        ends = self._rs_route_harbors[ri]
        if ends:  # the harbor cities this route lets its owner build in
            o = s._owners[ri]
            s._rs_touch = s._rs_touch[:o] + (s._rs_touch[o] | ends,) + s._rs_touch[o + 1 :]

    # ------------------------------------------------------------------ legal moves
    def harbor_count(self, h: tuple[int, ...]) -> int:
        """Harbor payments in hand: 2 train + 2 ship cards of one colour, all
        with the anchor, wilds replacing any (C7)."""
        w = h[WILD] if self.options["harbor_wilds"] else 0
        key = (h[ANCHOR:SHIP2], w if w < 4 else 4)
        n = self._rs_harbor_cache.get(key)
        if n is not None:
            return int(n)
        n = 1 if w >= 4 else 0
        for c in range(NC):
            X = min(2, h[ANCHOR + c])
            Y = min(2, h[SHIP1 + c])
            if X + Y + w < 4:
                continue
            for x in range(X + 1):
                for y in range(Y + 1):
                    if x + y and 4 - x - y <= w:
                        n += 1
        cache = self._rs_harbor_cache  # at most 20,000 entries, within the shared caches' budget
        if len(cache) >= cache.cap:
            cache.make_room()
        cache[key] = n
        return n

    def harbor_options(self, h: tuple[int, ...], city: str) -> list[Move]:
        """Every payment of a harbor from hand ``h``."""
        names = self._cname
        w = h[WILD] if self.options["harbor_wilds"] else 0
        wname = names[WILD]
        pays: list[CardList] = []
        if w >= 4:
            pays.append(((wname, 4),))
        for c in range(NC):
            X = min(2, h[ANCHOR + c])
            Y = min(2, h[SHIP1 + c])
            for x in range(X + 1):
                for y in range(Y + 1):
                    k = 4 - x - y
                    if x + y and k <= w:
                        pays.append(_norm([(names[ANCHOR + c], x), (names[SHIP1 + c], y), (wname, k)]))
        pays.sort()  # one city: the moves sort as their cards do
        return [BuildHarbor(city, cards) for cards in pays]

    def harbor_sites(self, s: GameState, p: int) -> list[str]:
        """Harbor cities free of harbors where ``p`` owns a route ending (B4)."""
        sites = s._rs_touch[p]
        if not sites:
            return []
        bit = self._harbor_bit
        for cities in s._harbors:
            for c in cities:
                sites &= ~bit.get(c, 0)
        names = self._harbor_names
        return [names[i] for i in range(sites.bit_length()) if sites >> i & 1]

    def harbor_groups(self, s: GameState) -> list[Any]:
        """One lazy group per harbor city the current player may build in now."""
        p = s._cur  # a legal-move generator: fields read directly, for speed
        if len(s._harbors[p]) >= self.harbors or not s._rs_touch[p]:
            return []
        h = s._hands[p]
        n = self.harbor_count(h)
        if not n:
            return []
        return [(n, lambda city: self.harbor_options(h, city), city) for city in self.harbor_sites(s, p)]

    def check_harbor(self, s: GameState, move: BuildHarbor) -> tuple[str, str] | None:
        """Why building a harbor in ``move.city`` is illegal now, or None (B4)."""
        if s.phase != _TURN:
            return self.phase_error(s)
        m = self.map
        city = move.city
        if not m.has_city(city):
            return (R_RS, f"there is no city {city[:60]!r} on the {m.id} map")
        if city not in self._harbor_cities:
            return (R_RS, f"{city} is not a harbor city")
        for q, cities in enumerate(s._harbors):
            if city in cities:
                return (R_RS, f"{city} already has a harbor ({s.player_names[q]}'s); one harbor per city")
        p = s.current_player
        if len(s._harbors[p]) >= self.harbors:
            return (R_RS, f"the player has built all {self.harbors} harbors")
        if not s._rs_touch[p] & self._harbor_bit[city]:
            return (R_RS, f"the player owns no route ending in {city}")
        cards = self.hand_cards(s, move.cards, R_RS)
        if isinstance(cards, tuple):
            return cards
        if sum(k for _, k in cards) != 4:
            return (R_RS, "a harbor costs exactly 4 cards: 2 train cards and 2 ship cards")
        kind, names = self._ckind, self._cname
        trains = ships = 0
        for c, k in cards:
            if kind[c] == 2:
                if not self.options["harbor_wilds"]:
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
            return (
                R_RS,
                f"a harbor takes 2 train cards and 2 ship cards (wilds replace any), not {trains} and {ships}",
            )
        return None

    def apply_harbor(self, s: GameState, move: BuildHarbor) -> None:
        """Build the harbor and pay; the action is done."""
        p = s.current_player
        s._harbors = s._harbors[:p] + (s._harbors[p] + (move.city,),) + s._harbors[p + 1 :]
        self.pay(s, self.card_ids(move.cards))
        self.action_done(s)

    def suggested_action(self, view: PlayerView, moves: list[Move]) -> Move | None:
        """A harbor in a city one of the player's tickets shows, paid with the fewest wilds."""
        mine = {c for t in view.tickets for c in t.cities}
        good = [mv for mv in moves if type(mv) is BuildHarbor and mv.city in mine]
        if good:
            return min(good, key=lambda mv: (self.wilds_in(mv.cards), mv))
        return super().suggested_action(view, moves)

    # ------------------------------------------------------------------ hooks for the fast playout policy
    def ticket_sites(self, view: PlayerView) -> set[str]:
        """Free harbor cities the seat's tickets show, at the end of its routes, while it has harbors left."""
        me = view.player
        if view.harbors_left(me) <= 0:
            return set()
        taken = view.harbors()
        cities = {c for t in view.tickets for c in t.cities if c in self._harbor_cities and c not in taken}
        ends = {c for r in view.routes_of(me) for c in self.routes[self.route_index[r]].ends}
        return cities & ends

    def can_build(self, hand: tuple[int, ...]) -> bool:
        """Whether ``hand`` pays for a harbor."""
        return sum(hand) >= 4 and self.harbor_count(hand) > 0

    def ticket_build(self, hand: tuple[int, ...], city: str) -> Move | None:
        """The harbor in ``city`` paid with the fewest wilds (then the first in move order)."""
        opts = self.harbor_options(hand, city)
        return min(opts, key=lambda m: (self.wilds_in(m.cards), m)) if opts else None  # type: ignore[attr-defined]

    def builds_left(self, view: PlayerView) -> int:
        """How many harbors ``view``'s seat may still build."""
        return int(view.harbors_left(view.player))

    # ------------------------------------------------------------------ scoring and consistency
    def score_terms(self, s: GameState, player: int, tickets: tuple[TicketResult, ...]) -> tuple[tuple[str, int], ...]:
        """Harbors by completed tickets showing their city, then -4 per unbuilt harbor (B4)."""
        out = []
        built = s._harbors[player]
        for city in built:
            n = sum(1 for r in tickets if r.completed and city in r.ticket.cities)
            pts = self.harbor_points[min(n, 3)] if n else 0
            out.append((f"harbor {city} ({n} completed ticket{'' if n == 1 else 's'})", pts))
        unbuilt = self.harbors - len(built)
        if unbuilt:
            out.append((f"unbuilt harbors ({unbuilt})", -self.unbuilt_harbor_penalty * unbuilt))
        return tuple(out) + super().score_terms(s, player, tickets)

    def problems(self, s: GameState) -> list[str]:
        """The base checks, and the harbors': at most ``harbors`` each, one per city, at the end of an own route."""
        out = super().problems(s)
        built = [c for h in s._harbors for c in h]
        for p, cities in enumerate(s._harbors):
            if len(cities) > self.harbors:
                out.append(f"player {p} has built {len(cities)} harbors, at most {self.harbors}")
            routes = self.routes
            for c in cities:
                if c in self._harbor_cities and not any(
                    o == p and c in (routes[i].a, routes[i].b) for i, o in enumerate(s._owners)
                ):
                    out.append(f"player {p}'s harbor in {c} is not at the end of one of their routes")
        for c in sorted(set(built)):
            if built.count(c) > 1:
                out.append(f"{c} has {built.count(c)} harbors")
            if c not in self._harbor_cities:
                out.append(f"{c[:60]} is not a harbor city")
        return out
