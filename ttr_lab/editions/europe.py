"""Ticket to Ride Europe (RULES.md B3): ferries, tunnels, stations.

* **Setup**: 4 cards each and 5 face up; each player is dealt 1 long ticket
  and 3 regular ones and keeps at least 2 of the 4.  The long tickets not
  dealt and every unkept initial ticket go to the *box*, out of the game.
* **Ferries** need at least as many locomotives as their locomotive spaces
  (the generic payment check reads ``route.locomotives``).
* **Tunnels**: the claim move pays ``C``; the engine reveals up to 3 cards
  from the deck.  When some match (a locomotive, or ``C``'s colour) the phase
  becomes ``TUNNEL``: ``C`` stays reserved in the hand, :attr:`EuropeState.tunnel`
  shows the reveal, and the player answers ``tunnel pay ...`` or
  ``tunnel decline``.  Undo goes back before the reveal without re-rolling.
* **Stations**: ``station CITY cards`` (the n-th costs n cards of one colour,
  locomotives allowed) in any city without a station.  At the end each
  station borrows one opponent route at its city, chosen jointly for the
  owner's best ticket score; unbuilt stations score 4 each.
* **European Express**: 10 points to each player with the longest trail of
  own routes (stations never count).  Tie-breakers: completed tickets, then
  fewest stations built, then the European Express.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("europe", players=3, seed=4)
>>> type(g).__name__, len(g.pending_tickets)
('EuropeState', 4)
>>> [t.deck for t in g.pending_tickets]
['long', 'regular', 'regular', 'regular']
>>> g.legal_moves.count()           # keep 2, 3 or 4 of the 4
11
>>> g.stations(), g.tunnel
({}, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar, Mapping

from ..errors import TtrError
from ..moves import BuildStation, ClaimRoute, DeclineTunnel, PayTunnel
from ..view import PlayerView
from .base import Edition, register_edition
from .usa import USA_CARD_TYPES

# ``ttr_lab.state`` imports this package; by the time this module runs the
# package has already bound ``Edition`` and ``find_edition``, so the import
# below completes (the package ``__init__`` imports ``editions`` first).
from ..state import GameState  # noqa: E402  isort: skip

__all__ = ["Europe", "EuropeState", "EuropeView", "TunnelClaim", "station_borrowing"]

_TURN, _TUNNEL = 1, 4
R_EUROPE = "B3"


@register_edition
class Europe(Edition):
    """Ticket to Ride Europe.

    Options (as USA): ``max_consecutive_resets`` (C1), ``first_player`` (C2),
    ``deal_row_after_tickets`` (C3), ``allow_single_draw`` (C6), ``map`` (a
    custom map: its ``regular`` and ``long`` ticket decks are used when
    present, otherwise every two-city ticket is regular).
    """

    name: ClassVar[str] = "europe"
    map_id: ClassVar[str] = "europe"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "ttr_europe": {},
        "europe_digital": {"max_consecutive_resets": 3},
    }
    longest_path_name: ClassVar[str] = "European Express"
    #: stations per player, and points for each one left unbuilt
    stations_per_player: int = 3
    unbuilt_station_points: int = 4

    def _setup_parameters(self) -> None:
        self.card_types = USA_CARD_TYPES
        self.deck_composition = (tuple((i, 12) for i in range(8)) + ((8, 14),),)
        self.route_points = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}
        self.pieces = 45
        self.setup_tickets = (4, 2)  # 1 long + 3 regular, keep >= 2
        self.draw_tickets = (3, 1)
        self.longest_path_bonus = 10
        m = self.map
        decks = m.decks
        self.long_tickets = tuple(t.id for t in m.deck("long")) if "long" in decks else ()
        if "regular" in decks:
            self.regular_tickets = tuple(t.id for t in m.deck("regular"))
        else:
            self.regular_tickets = tuple(t.id for t in m.tickets if not t.is_tour and t.id not in self.long_tickets)

    @property
    def title(self) -> str:
        return "Ticket to Ride Europe"

    def ticket_deck(self) -> tuple[int, ...]:
        """The regular tickets (the draw deck); long tickets are dealt apart."""
        return self.regular_tickets

    # --- scoring hooks ----------------------------------------------------------
    def score_tickets(self, state, player, adj):  # noqa: ANN001, ANN201
        """Tickets over own routes plus the routes the stations borrow (C11)."""
        from ..scoring import _adjacency, _owned, score_two_city

        borrowed = [rid for rid in station_borrowing(state, player).values() if rid is not None]
        if borrowed:
            index = self.route_index
            adj = _adjacency(state, _owned(state, player) + [index[r] for r in borrowed])
        return tuple(score_two_city(state.map.ticket(t), adj) for t in state._tickets[player])

    def score_adjustments(self, state, player):  # noqa: ANN001, ANN201
        """Each station and the route it borrows (0 points), then +4 per unbuilt station."""
        out: list[tuple[str, int]] = []
        m = self.map
        for city, rid in station_borrowing(state, player).items():
            if rid is None:
                out.append((f"station {city} borrows no route", 0))
            else:
                out.append((f"station {city} borrows {m.route(rid).label()} (route {rid})", 0))
        unbuilt = self.stations_per_player - len(_stations_of(state, player))
        if unbuilt:
            each = self.unbuilt_station_points
            out.append((f"unbuilt stations ({unbuilt} x {each})", unbuilt * each))
        return tuple(out)

    def tiebreak_key(self, state, score, holders):  # noqa: ANN001, ANN201
        """Completed tickets, then fewest stations built, then the European Express (B3)."""
        built = len(_stations_of(state, score.player))
        return (score.tickets_completed, -built, 1 if score.player in holders else 0)

    def tiebreak_text(self, shared: bool) -> str:
        if shared:
            return "tied on points and on every tie-breaker: a shared win"
        return "tie on points broken by completed tickets, then fewest stations built, then the European Express"


def _stations_of(state: Any, player: int) -> tuple[str, ...]:
    st = getattr(state, "_stations", None)
    return st[player] if st else ()


def station_borrowing(state: Any, player: int) -> dict[str, int | None]:
    """Which opponent route each of ``player``'s stations borrows: ``{city: route id or None}``.

    Every combination (one route or none per station) is tried, and the one
    giving the best ticket score wins; ties prefer fewer borrowed routes, then
    lower route ids.  Only connectivity matters for tickets, so candidates are
    reduced to the pairs of own-network components they join.
    """
    cities = _stations_of(state, player)
    if not cities:
        return {}
    ed = state.edition
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
    by_city = state._city_routes
    options: list[list[tuple[int, str, str] | None]] = []
    for city in cities:
        seen: dict[tuple[str, str], tuple[int, str, str]] = {}
        for ri in by_city.get(city, ()):
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
    tickets = [ed.map.ticket(t) for t in state._tickets[player]]
    ends = [(find(t.a), find(t.b), t.points, t.penalty) for t in tickets]
    best: tuple[int, int] | None = None
    choice: tuple = (None,) * len(cities)
    for combo in product(*options):
        up: dict[str, str] = {}

        def root(x: str) -> str:
            while x in up:
                x = up[x]
            return x

        used = 0
        for c in combo:
            if c is not None:
                used += 1
                ra, rb = root(c[1]), root(c[2])
                if ra != rb:
                    up[ra] = rb
        total = sum(pts if root(a) == root(b) else -pen for a, b, pts, pen in ends)
        key = (total, -used)
        if best is None or key > best:
            best, choice = key, combo
    return {city: (c[0] if c is not None else None) for city, c in zip(cities, choice)}


@dataclass(frozen=True)
class TunnelClaim:
    """A tunnel claim waiting for the player's answer (public information).

    ``paid`` is the payment of the claim move (still in the hand, reserved),
    ``revealed`` the cards turned up, ``extra`` how many more cards of
    ``color`` (or locomotives) are needed; ``color`` is the locomotive card's
    name when the claim was paid with locomotives only.
    """

    route: int
    paid: tuple[tuple[str, int], ...]
    revealed: tuple[str, ...]
    extra: int
    color: str


def _station_moves(arg: tuple[str, list[tuple[tuple[str, int], ...]]]) -> list[BuildStation]:
    city, options = arg
    return [BuildStation(city, cards) for cards in options]


def _identity(moves: list) -> list:
    return moves


class EuropeState(GameState):
    """A Europe position: the base position plus stations, the box and a
    pending tunnel claim (all immutable values, so push/pop snapshots them)."""

    __slots__ = ()

    # ------------------------------------------------------------------ tables and setup
    def _build_tables(self) -> None:
        super()._build_tables()
        ed = self.edition
        self._is_tunnel = tuple(r.kind == "tunnel" for r in ed.routes)
        self._station_cities = tuple(sorted(c.name for c in ed.map.cities if not c.waypoint))
        self._station_city_set = frozenset(self._station_cities)
        by_city: dict[str, list[int]] = {}
        for i, r in enumerate(ed.routes):
            by_city.setdefault(r.a, []).append(i)
            by_city.setdefault(r.b, []).append(i)
        self._city_routes = {c: tuple(v) for c, v in by_city.items()}

    def _setup(self) -> None:
        self._stations: tuple[tuple[str, ...], ...] = tuple(() for _ in range(self.n))
        self._box: tuple[int, ...] = ()
        self._tunnel: tuple = ()
        super()._setup()

    def _deal_setup_tickets(self) -> tuple[tuple[int, ...], ...]:
        """1 long ticket (the rest go to the box unseen) and 3 regular ones each."""
        longs = list(self.edition.long_tickets)
        if longs:
            self._rng().shuffle(longs)
        deal = []
        for _ in range(self.n):
            first = (longs.pop(),) if longs else ()
            deal.append(first + self._tdeck[-1:-4:-1])
            self._tdeck = self._tdeck[:-3]
        self._box = tuple(longs)
        return tuple(deal)

    def _return_setup_tickets(self, returned: tuple[int, ...]) -> None:
        """Unkept initial tickets go to the box, not the deck (B3)."""
        self._box = self._box + returned

    # ------------------------------------------------------------------ public read API
    def stations(self) -> dict[str, int]:
        """``{city: seat}`` for every station built."""
        return {c: p for p, cities in enumerate(self._stations) for c in cities}

    def stations_of(self, player: int) -> tuple[str, ...]:
        """A player's station cities, in building order."""
        return self._stations[player]

    def stations_left(self, player: int) -> int:
        return self.edition.stations_per_player - len(self._stations[player])

    def borrowed_routes(self, player: int) -> dict[str, int | None]:
        """What each station would borrow if the game ended now."""
        return station_borrowing(self, player)

    @property
    def box_size(self) -> int:
        """Tickets out of the game (long tickets not dealt, unkept initial tickets)."""
        return len(self._box)

    @property
    def tunnel(self) -> TunnelClaim | None:
        """The pending tunnel claim (phase ``TUNNEL``), else ``None``."""
        if not self._tunnel:
            return None
        ri, paid, revealed, extra, x = self._tunnel
        name = self.card_name
        return TunnelClaim(
            route=self.edition.routes[ri].id,
            paid=tuple(sorted((name(c), k) for c, k in paid)),
            revealed=tuple(name(c) for c in revealed),
            extra=extra,
            color=name(x),
        )

    def view(self, player: int) -> "EuropeView":
        return EuropeView(self, player)

    # ------------------------------------------------------------------ stations
    def _station_payments(self, hand: tuple[int, ...], n: int) -> list[tuple[tuple[str, int], ...]]:
        """Every way to pay ``n`` cards: one colour plus locomotives, or locomotives only."""
        types = self.edition.card_types
        wild = self._wild
        wilds = sum(k for c, k in enumerate(hand) if wild[c])
        wname = types[self.edition.wild_cards[0]].name
        out = []
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

    def _station_owner(self, city: str) -> int | None:
        for p, cities in enumerate(self._stations):
            if city in cities:
                return p
        return None

    def _action_groups(self) -> list:
        """One lazy group per city without a station: its size is the number
        of payments (the same for every city)."""
        p = self._cur
        n = len(self._stations[p]) + 1
        if n > self.edition.stations_per_player:
            return []
        hand = self._hands[p]
        if sum(hand) < n:
            return []
        options = self._station_payments(hand, n)
        if not options:
            return []
        k = len(options)
        taken = {c for cities in self._stations for c in cities}
        return [(k, _station_moves, (city, options)) for city in self._station_cities if city not in taken]

    def _check_station(self, move: BuildStation) -> tuple[str, str] | None:
        if self._phase != _TURN:
            return self._phase_error("station")
        if move.city not in self._station_city_set:
            return (R_EUROPE, f"there is no city {move.city!r} on the {self.map.id} map")
        owner = self._station_owner(move.city)
        if owner is not None:
            return (R_EUROPE, f"{move.city} already has a station ({self.player_names[owner]}'s); one station per city")
        p = self._cur
        n = len(self._stations[p]) + 1
        if n > self.edition.stations_per_player:
            return (R_EUROPE, f"all {self.edition.stations_per_player} stations are already built")
        cards = self._cards_or_error(move.cards)
        if isinstance(cards, tuple):
            return cards
        total = sum(k for _, k in cards)
        if total != n:
            return (R_EUROPE, f"station number {n} costs exactly {n} card{'s' if n > 1 else ''}, not {total}")
        if len({c for c, _ in cards if not self._wild[c]}) > 1:
            return (R_EUROPE, "mixed colours: every non-wild card must be of one colour")
        hand = self._hands[p]
        for c, k in cards:
            if hand[c] < k:
                return (R_EUROPE, f"player has {hand[c]} {self.card_name(c)}, not {k}")
        return None

    def _cards_or_error(self, cards: tuple[tuple[str, int], ...]) -> list[tuple[int, int]] | tuple[str, str]:
        out = self._card_indices(cards)
        if isinstance(out, tuple):
            return (R_EUROPE, out[1])
        merged: dict[int, int] = {}
        for c, k in out:
            merged[c] = merged.get(c, 0) + k
        return list(merged.items())

    def _apply_station(self, move: BuildStation) -> None:
        p = self._cur
        index = self.edition.card_index
        self._pay([(index[name], k) for name, k in move.cards])
        self._stations = self._stations[:p] + (self._stations[p] + (move.city,),) + self._stations[p + 1 :]
        self._passes = 0
        self._end_turn()

    # ------------------------------------------------------------------ tunnels
    def _apply_claim(self, move: ClaimRoute) -> None:
        ed = self.edition
        ri = ed.route_index[move.route]
        if not self._is_tunnel[ri]:
            GameState._apply_claim(self, move)
            return
        index = ed.card_index
        paid = [(index[name], k) for name, k in move.cards]
        wild = self._wild
        colors = [c for c, _ in paid if not wild[c]]
        x = colors[0] if colors else ed.wild_cards[0]
        revealed = []
        for _ in range(3):  # min(3, deck + discard); C is still in the hand
            c = self._take(0)
            if c < 0:
                break
            revealed.append(c)
        extra = sum(1 for c in revealed if wild[c] or c == x)
        if not extra:
            self._pay(paid)
            self._discard(revealed)
            self._complete_claim(ri)
            return
        self._tunnel = (ri, tuple(sorted(paid)), tuple(revealed), extra, x)
        self._phase = _TUNNEL
        self._passes = 0

    def _extra_phase_groups(self, ph: int) -> list:
        if ph != _TUNNEL:  # pragma: no cover - Europe has no other extra phase
            return super()._extra_phase_groups(ph)
        moves: list = self._tunnel_payments()
        moves.append(DeclineTunnel())
        return [(len(moves), _identity, moves)]

    def _free_cards(self) -> list[int]:
        """The current hand minus the cards reserved by the tunnel claim."""
        free = list(self._hands[self._cur])
        for c, k in self._tunnel[1]:
            free[c] -= k
        return free

    def _tunnel_payments(self) -> list[PayTunnel]:
        _, _, _, extra, x = self._tunnel
        types = self.edition.card_types
        free = self._free_cards()
        wild_idx = self.edition.wild_cards[0]
        wname = types[wild_idx].name
        wilds = free[wild_idx]
        out = []
        if self._wild[x]:
            if wilds >= extra:
                out.append(PayTunnel(((wname, extra),)))
            return out
        xname = types[x].name
        for use in range(max(0, extra - wilds), min(extra, free[x]) + 1):
            w = extra - use
            cards = [(xname, use)] if use else []
            if w:
                cards.append((wname, w))
            out.append(PayTunnel(tuple(sorted(cards))))
        out.sort()
        return out

    def _check_pay_tunnel(self, move: PayTunnel) -> tuple[str, str] | None:
        if self._phase != _TUNNEL:
            return self._phase_error("tunnel")
        cards = self._cards_or_error(move.cards)
        if isinstance(cards, tuple):
            return cards
        _, _, _, extra, x = self._tunnel
        total = sum(k for _, k in cards)
        if total != extra:
            return (R_EUROPE, f"the tunnel needs exactly {extra} more card{'s' if extra > 1 else ''}, not {total}")
        for c, _ in cards:
            if not self._wild[c] and c != x:
                if self._wild[x]:
                    return (R_EUROPE, "the claim was paid with locomotives only: the extra cards must be locomotives")
                return (R_EUROPE, f"the extra cards must be {self.card_name(x)} or locomotives, not {self.card_name(c)}")
        free = self._free_cards()
        for c, k in cards:
            if free[c] < k:
                return (R_EUROPE, f"player has {free[c]} {self.card_name(c)} besides the tunnel payment, not {k}")
        return None

    def _apply_pay_tunnel(self, move: PayTunnel) -> None:
        ri, paid, revealed, _, _ = self._tunnel
        index = self.edition.card_index
        self._tunnel = ()
        self._pay(list(paid) + [(index[name], k) for name, k in move.cards])
        self._discard(list(revealed))
        self._complete_claim(ri)

    def _check_decline(self, move: DeclineTunnel) -> tuple[str, str] | None:
        if self._phase != _TUNNEL:
            return self._phase_error("tunnel")
        return None

    def _apply_decline(self, move: DeclineTunnel) -> None:
        revealed = self._tunnel[2]
        self._tunnel = ()
        self._discard(list(revealed))
        self._passes = 0
        self._end_turn()

    _checks = {
        **GameState._checks,
        BuildStation: _check_station,
        PayTunnel: _check_pay_tunnel,
        DeclineTunnel: _check_decline,
    }
    _apply = {
        **GameState._apply,
        ClaimRoute: _apply_claim,
        BuildStation: _apply_station,
        PayTunnel: _apply_pay_tunnel,
        DeclineTunnel: _apply_decline,
    }

    # ------------------------------------------------------------------ snapshots and checks
    def _cards_elsewhere(self) -> list[int]:
        return list(self._tunnel[2]) if self._tunnel else []

    def _ticket_extra(self) -> list[int]:
        return list(self._box)

    def _ticket_universe(self) -> tuple[int, ...]:
        return self.edition.regular_tickets + self.edition.long_tickets

    def _extra_to_dict(self) -> dict[str, Any]:
        return {
            "stations": [list(s) for s in self._stations],
            "box": list(self._box),
            "tunnel": None if not self._tunnel else {
                "route": self.edition.routes[self._tunnel[0]].id,
                "paid": {self.card_name(c): k for c, k in self._tunnel[1]},
                "revealed": [self.card_name(c) for c in self._tunnel[2]],
            },
        }

    def _extra_from_dict(self, data: dict[str, Any]) -> None:
        if set(data) != {"stations", "box", "tunnel"}:
            raise TtrError(f"europe positions have extra fields stations, box and tunnel, got {sorted(data)}")
        stations = data["stations"]
        if not isinstance(stations, list) or len(stations) != self.n or not all(
            isinstance(s, list) and all(isinstance(c, str) for c in s) for s in stations
        ):
            raise TtrError("stations: expected one list of city names per player")
        self._stations = tuple(tuple(s) for s in stations)
        box = data["box"]
        if not isinstance(box, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in box):
            raise TtrError("box: expected a list of ticket ids")
        self._box = tuple(box)
        tunnel = data["tunnel"]
        if tunnel is None:
            self._tunnel = ()
            return
        if not isinstance(tunnel, dict) or set(tunnel) != {"route", "paid", "revealed"}:
            raise TtrError("tunnel: expected null or {route, paid, revealed}")
        ed = self.edition
        index = ed.card_index
        rid = tunnel["route"]
        if not isinstance(rid, int) or isinstance(rid, bool) or rid not in ed.route_index:
            raise TtrError(f"tunnel: unknown route {rid!r}")
        ri = ed.route_index[rid]
        if not self._is_tunnel[ri]:
            raise TtrError(f"tunnel: route {rid} is not a tunnel")
        paid, revealed = tunnel["paid"], tunnel["revealed"]
        if not isinstance(paid, dict) or not all(
            n in index and isinstance(k, int) and not isinstance(k, bool) and k > 0 for n, k in paid.items()
        ):
            raise TtrError("tunnel.paid: expected {card name: count}")
        if not isinstance(revealed, list) or not all(n in index for n in revealed) or not 1 <= len(revealed) <= 3:
            raise TtrError("tunnel.revealed: expected 1 to 3 card names")
        pay = tuple(sorted((index[n], k) for n, k in paid.items()))
        colors = [c for c, _ in pay if not self._wild[c]]
        if len(set(colors)) > 1:
            raise TtrError("tunnel.paid: mixed colours")
        x = colors[0] if colors else ed.wild_cards[0]
        shown = tuple(index[n] for n in revealed)
        extra = sum(1 for c in shown if self._wild[c] or c == x)
        if not extra:
            raise TtrError("tunnel: nothing revealed matches, so no tunnel decision is due")
        self._tunnel = (ri, pay, shown, extra, x)

    def _piece_problems(self) -> list[str]:
        """Trains (base check), then stations, the box and a pending tunnel."""
        out = super()._piece_problems()
        ed = self.edition
        seen: set[str] = set()
        for p, cities in enumerate(self._stations):
            if len(cities) > ed.stations_per_player:
                out.append(f"player {p} has {len(cities)} stations, at most {ed.stations_per_player}")
            for c in cities:
                if c not in self._station_city_set:
                    out.append(f"player {p}'s station in {c!r}: no such city")
                elif c in seen:
                    out.append(f"two stations in {c}")
                seen.add(c)
        longs = set(ed.long_tickets)
        if any(t in longs for t in self._tdeck):
            out.append("a long ticket is in the draw deck")
        if (self._phase == _TUNNEL) != bool(self._tunnel):
            out.append("a tunnel decision is due exactly when a tunnel claim is pending")
        if self._tunnel:
            hand = self._hands[self._cur]
            for c, k in self._tunnel[1]:
                if hand[c] < k:
                    out.append(f"the tunnel payment reserves {k} {self.card_name(c)}, the hand holds {hand[c]}")
            if sum(k for _, k in self._tunnel[1]) != ed.route_length[self._tunnel[0]]:
                out.append("the tunnel payment does not match the route length")
        return out


Europe.state_class = EuropeState


class EuropeView(PlayerView):
    """A Europe player's view: adds the stations and a pending tunnel reveal
    (both public)."""

    __slots__ = ()

    def stations(self) -> dict[str, int]:
        return self._state.stations()

    def stations_left(self, player: int) -> int:
        return self._state.stations_left(player)

    @property
    def tunnel(self) -> TunnelClaim | None:
        return self._state.tunnel

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["stations"] = self.stations()
        t = self.tunnel
        d["tunnel"] = None if t is None else {
            "route": t.route, "paid": dict(t.paid), "revealed": list(t.revealed), "extra": t.extra, "color": t.color,
        }
        return d
