"""Train stations (rule B3, resolutions C11 and C12).

``station CITY cards``: the n-th station costs n cards of one colour
(locomotives stand in), in any city without a station.  At the end each
station may borrow one opponent route at its city, the same for all of its
owner's tickets, chosen to give the owner the most ticket points and, among
choices giving as many, the most completed tickets (the first tie-breaker).
Borrowed routes never count for the European Express.  Each station left
unbuilt scores 4.

Position field: ``_stations`` (per seat, station cities in building order).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.moves import CardList, Move, card_list_problem, cards_in_words, cards_to_text, city_and_cards, show_value
from ...engine.phases import Phase
from ...engine.rules import Edition, Field, Rebuild, Table
from ...engine.rules.accessors import Accessors, secret
from ...engine.rules.hooks import table_cities
from ...engine.scoring import network, score_two_city
from ...engine.scoring.results import TicketResult
from ...errors import TtrError
from .ferries import R_EUROPE

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["Stations", "StationsAccessors", "BuildStation", "station_borrowing"]

_TURN = int(Phase.TURN)


@dataclass(frozen=True, slots=True, repr=False)
class BuildStation(Move):
    """Build a station in ``city`` paying ``cards`` (Europe)."""

    city: str
    cards: CardList
    verb: ClassVar[str] = "station"
    rank: ClassVar[float] = 8

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if not args:
            return None
        return cls(*city_and_cards(args, text))

    def problem(self) -> str | None:
        if not isinstance(self.city, str):
            return f"a city is named by a string, not {show_value(self.city)}"
        return card_list_problem(self.cards)

    def _fields(self) -> tuple[Any, ...]:
        return (self.city, self.cards)

    def __str__(self) -> str:
        return f"station {self.city} {cards_to_text(self.cards)}"

    def describe(self, state: GameState) -> str:
        return f"build a station in {self.city} paying {cards_in_words(self.cards)}"


def _station_moves(arg: tuple[str, list[CardList]]) -> list[Move]:
    city, options = arg
    return [BuildStation(city, cards) for cards in options]


def _load_stations(ed: Any, n: int, data: Any) -> tuple[tuple[str, ...], ...]:
    if (
        not isinstance(data, list)
        or len(data) != n
        or not all(isinstance(s, list) and len(s) <= 100 and all(isinstance(c, str) for c in s) for s in data)
    ):
        raise TtrError("expected one list of city names per player")
    return tuple(tuple(s) for s in data)


def _root(up: dict[str, str], x: str) -> str:
    while x in up:
        x = up[x]
    return x


def station_borrowing(state: GameState, player: int) -> dict[str, int | None]:
    """Which opponent route each of ``player``'s stations borrows: ``{city: route id or None}``.

    Every combination (one route or none per station) is tried; the one
    giving the most ticket points wins, then the one completing the most
    tickets, then the one borrowing fewer routes, then lower route ids.
    Only connectivity matters for tickets, so candidates are reduced to the
    pairs of own-network components they join.
    """
    ed: Any = state.edition  # Europe, with the station tables
    cities = state._stations[player]
    if not cities:
        return {}
    routes = ed.routes
    owners = state._owners
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for i, o in enumerate(owners):
        if o == player:
            ra, rb = find(routes[i].a), find(routes[i].b)
            if ra != rb:
                parent[ra] = rb
    options: list[list[tuple[int, str, str] | None]] = []
    for city in cities:
        seen: dict[tuple[str, str], tuple[int, str, str]] = {}
        for ri in ed._city_routes.get(city, ()):
            o = owners[ri]
            if o < 0 or o == player:
                continue
            a, b = find(routes[ri].a), find(routes[ri].b)
            if a == b:
                continue
            key = (a, b) if a < b else (b, a)
            rid = routes[ri].id
            if key not in seen or rid < seen[key][0]:
                seen[key] = (rid, a, b)
        options.append([None, *sorted(seen.values())])
    tickets = state.tickets(player)
    ends = [(find(t.a), find(t.b), t.points, t.penalty) for t in tickets]
    best: tuple[int, int, int] | None = None
    choice: tuple[Any, ...] = (None,) * len(cities)
    for combo in product(*options):
        up: dict[str, str] = {}  # union-find over the components, for this combination
        used = 0
        for c in combo:
            if c is not None:
                used += 1
                ra, rb = _root(up, c[1]), _root(up, c[2])
                if ra != rb:
                    up[ra] = rb
        joined = [_root(up, a) == _root(up, b) for a, b, _, _ in ends]
        total = sum(pts if ok else -pen for ok, (_, _, pts, pen) in zip(joined, ends))
        rank = (total, sum(joined), -used)
        if best is None or rank > best:
            best, choice = rank, combo
    return {city: (c[0] if c is not None else None) for city, c in zip(cities, choice)}


class StationsAccessors(Accessors):
    """The stations, asked of a game or a view (``game.ext``; also ``game.stations()``...).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("europe", players=2, seed=1)
    >>> g.ext.stations(), g.view(1).ext.stations_left(0)
    ({}, 3)
    """

    __slots__ = ()

    def _station_rules(self) -> Stations:
        return cast(Stations, self.state.edition)

    def stations(self) -> dict[str, int]:
        """``{city: seat}`` for every station built."""
        return self._station_rules().stations(self.state)

    def stations_of(self, player: int) -> tuple[str, ...]:
        """A player's station cities, in building order."""
        return self._station_rules().stations_of(self.state, player)

    def stations_left(self, player: int) -> int:
        """How many stations ``player`` may still build."""
        return self._station_rules().stations_left(self.state, player)

    @secret
    def borrowed_routes(self, player: int) -> dict[str, int | None]:
        """What each of ``player``'s stations would borrow if the game ended now,
        ``{city: route id or None}`` (it reads the player's tickets: a game's only)."""
        return self._station_rules().borrowed_routes(self.state, player)


class Stations(Edition):
    """Mixin: building stations and what they borrow at the end."""

    moves = {BuildStation: ("check_station", "apply_station")}
    turn_actions = {"station_groups": BuildStation.rank}
    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_stations",
            "stations",
            lambda ed, n: tuple(() for _ in range(n)),
            lambda ed, v: [list(s) for s in v],
            _load_stations,
            from_view="stations_from_view",
        ),
    )
    accessors = StationsAccessors
    building = (("station", "stations"),)
    controls = ("build",)
    table_facts = {"stations": "{player: [cities]}: the stations built (default: none)"}
    seat_facts = table_facts
    #: stations per player, and points for each one left unbuilt
    stations_per_player: int = 3
    unbuilt_station_points: int = 4

    _station_cities: tuple[str, ...]
    _station_city_set: frozenset[str]
    _city_routes: dict[str, tuple[int, ...]]

    def _build_tables(self) -> None:
        super()._build_tables()
        self._station_cities = tuple(sorted(c.name for c in self.map.cities if not c.waypoint))
        self._station_city_set = frozenset(self._station_cities)
        by_city: dict[str, list[int]] = {}
        for i, r in enumerate(self.routes):
            by_city.setdefault(r.a, []).append(i)
            by_city.setdefault(r.b, []).append(i)
        self._city_routes = {c: tuple(v) for c, v in by_city.items()}

    # ------------------------------------------------------------------ public read API
    def stations(self, s: GameState) -> dict[str, int]:
        """``{city: seat}`` for every station built."""
        return {c: p for p, cities in enumerate(s._stations) for c in cities}

    def stations_of(self, s: GameState, player: int) -> tuple[str, ...]:
        """A player's station cities, in building order."""
        return tuple(s._stations[s.seat(player)])

    def stations_left(self, s: GameState, player: int) -> int:
        """How many stations ``player`` may still build."""
        return self.stations_per_player - len(s._stations[s.seat(player)])

    def borrowed_routes(self, s: GameState, player: int) -> dict[str, int | None]:
        """What each station would borrow if the game ended now (uses the player's tickets: private)."""
        return station_borrowing(s, s.seat(player))

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The base view, and every station built (public)."""
        return {**super().view_fields(s, player), "stations": self.stations(s)}

    # ------------------------------------------------------------------ hooks (public: the stations)
    def stations_from_view(self, view: PlayerView, ctx: Rebuild) -> list[list[str]]:
        """The stations, as the view shows them (public)."""
        return [list(view.stations_of(q)) for q in range(view.num_players)]

    def table_extra(self, t: Table) -> None:
        """The stations stated (``stations={player: [cities]}``; none by default), checked."""
        super().table_extra(t)
        t.extra["stations"] = table_cities(self, t, "stations", self.stations_per_player)

    # ------------------------------------------------------------------ legal moves
    def station_payments(self, hand: tuple[int, ...], n: int) -> list[CardList]:
        """Every way to pay ``n`` cards: one colour plus locomotives, or locomotives only."""
        types = self.card_types
        wild = self._wild
        wilds = sum(k for c, k in enumerate(hand) if wild[c])
        wname = types[self.wild_cards[0]].name
        out: list[CardList] = []
        if wilds >= n:
            out.append(((wname, n),))
        for c, k in enumerate(hand):
            if not k or wild[c]:
                continue
            name = types[c].name
            for use in range(max(1, n - wilds), min(n, k) + 1):
                w = n - use
                out.append(tuple(sorted(((name, use), (wname, w)))) if w else ((name, use),))
        out.sort()
        return out

    def station_groups(self, s: GameState) -> list[Any]:
        """One lazy group per city without a station: its size is the number
        of payments (the same for every city)."""
        p = s._cur  # a legal-move generator: fields read directly, for speed
        n = len(s._stations[p]) + 1
        if n > self.stations_per_player:
            return []
        hand = s._hands[p]
        if sum(hand) < n:
            return []
        options = self.station_payments(hand, n)
        if not options:
            return []
        k = len(options)
        taken = {c for cities in s._stations for c in cities}
        return [(k, _station_moves, (city, options)) for city in self._station_cities if city not in taken]

    def check_station(self, s: GameState, move: BuildStation) -> tuple[str, str] | None:
        """Why building a station is illegal now, or None (B3: a free city, the n-th station costs n cards of one colour)."""
        if s.phase != _TURN:
            return self.phase_error(s)
        if move.city not in self._station_city_set:
            return (R_EUROPE, f"there is no city {move.city[:60]!r} on the {self.map.id} map")
        for q, cities in enumerate(s._stations):
            if move.city in cities:
                return (R_EUROPE, f"{move.city} already has a station ({s.player_names[q]}'s); one station per city")
        p = s.current_player
        n = len(s._stations[p]) + 1
        if n > self.stations_per_player:
            return (R_EUROPE, f"all {self.stations_per_player} stations are already built")
        cards = self.hand_cards(s, move.cards, R_EUROPE)
        if isinstance(cards, tuple):
            return cards
        total = sum(k for _, k in cards)
        if total != n:
            return (R_EUROPE, f"station number {n} costs exactly {n} card{'s' if n > 1 else ''}, not {total}")
        if len({c for c, _ in cards if not self._wild[c]}) > 1:
            return (R_EUROPE, "mixed colours: every non-wild card must be of one colour")
        return None

    def apply_station(self, s: GameState, move: BuildStation) -> None:
        """Build the station and pay; the action is done."""
        p = s.current_player
        s._stations = s._stations[:p] + (s._stations[p] + (move.city,),) + s._stations[p + 1 :]
        self.pay(s, self.card_ids(move.cards))
        self.action_done(s)

    # ------------------------------------------------------------------ scoring
    def ticket_results(self, s: GameState, player: int) -> tuple[TicketResult, ...]:
        """Tickets over own routes plus the routes the stations borrow (C11)."""
        borrowed = [rid for rid in station_borrowing(s, player).values() if rid is not None]
        if not borrowed:
            return super().ticket_results(s, player)
        adj = network(s, player, borrowed)
        return tuple(score_two_city(t, adj) for t in s.tickets(player))

    def score_terms(self, s: GameState, player: int, tickets: tuple[TicketResult, ...]) -> tuple[tuple[str, int], ...]:
        """Each station and the route it borrows (0 points), then +4 per unbuilt station."""
        out = list(super().score_terms(s, player, tickets))
        m = self.map
        for city, rid in station_borrowing(s, player).items():
            if rid is None:
                out.append((f"station {city} borrows no route", 0))
            else:
                out.append((f"station {city} borrows {m.route(rid).label()} (route {rid})", 0))
        unbuilt = self.stations_per_player - len(s._stations[player])
        if unbuilt:
            each = self.unbuilt_station_points
            out.append((f"unbuilt stations ({unbuilt} x {each})", unbuilt * each))
        return tuple(out)

    # ------------------------------------------------------------------ consistency
    def problems(self, s: GameState) -> list[str]:
        """The base checks, and the stations': at most ``stations_per_player`` each, one per city, on the map."""
        out = super().problems(s)
        if s.phase == int(Phase.SETUP_TICKETS) and any(s._stations):
            out.append("the initial tickets are being chosen, but stations are built")
        seen: set[str] = set()
        for p, cities in enumerate(s._stations):
            if len(cities) > self.stations_per_player:
                out.append(f"player {p} has {len(cities)} stations, at most {self.stations_per_player}")
            for c in cities:
                if c not in self._station_city_set:
                    out.append(f"player {p}'s station in {c[:60]!r}: no such city")
                elif c in seen:
                    out.append(f"two stations in {c}")
                seen.add(c)
        return out
