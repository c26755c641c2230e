"""The planning every FDG 2017 agent shares (:mod:`ttr_lab.bots.fdg`): the
base class :class:`FdgAgent`.

Cheapest paths over the routes still open to the player (own routes free),
a network for a set of tickets, the unfinished tickets with their paths; the
decisions (which tickets to keep, which claim, when to draw tickets, which
card to draw) as methods the four styles override.  The styles themselves,
and the notes on what the paper gives and what is our reading, are in
:mod:`ttr_lab.bots.fdg`.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move
from .drawing import Needs, hand_spaces, needed_draw
from .simple import choose_by_phase

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.view import PlayerView
    from ..maps.loading import Map, Ticket

__all__ = ["FdgAgent", "Needs", "INF"]

INF = float("inf")
_ADJ_CACHE: dict[int, tuple[Map, dict[str, list[tuple[int, str, int]]]]] = {}


def _adjacency(m: Map) -> dict[str, list[tuple[int, str, int]]]:
    """``city -> [(route id, other city, length)]`` for a map (cached per map object)."""
    hit = _ADJ_CACHE.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    adj: dict[str, list[tuple[int, str, int]]] = {c.name: [] for c in m.cities}
    for r in m.routes:
        adj[r.a].append((r.id, r.b, r.length))
        adj[r.b].append((r.id, r.a, r.length))
    if len(_ADJ_CACHE) > 32:
        _ADJ_CACHE.clear()
    _ADJ_CACHE[id(m)] = (m, adj)
    return adj


class FdgAgent:
    """The planning the four agents share; a subclass sets the style.

    Parameters
    ----------
    seed : int
        Seeds the agent's own tie-breaking draws (blind piles, face-up slots).
    """

    name = "fdg"
    #: keep more than the minimum at setup / after a draw, while the plan fits
    greedy_keep = False
    #: draw new tickets when every ticket is done or impossible
    redraw_tickets = True
    #: pieces to keep in reserve before drawing tickets
    ticket_reserve = 12

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._open_key: tuple[int, int] | None = None
        self._weights: dict[int, int] = {}
        self._paths: dict[tuple[str, str], tuple[float, list[int]]] = {}
        self._memo_key: tuple[int, int] = (-1, -1)
        self._memo: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # ------------------------------------------------------------ the board as this player sees it
    def weights(self, view: PlayerView) -> dict[int, int]:
        """``route id -> cost`` of every route this player may still use (own routes cost 0).

        Routes only ever get claimed, so the table is recomputed only when the
        number of claimed routes changes.
        """
        memo = self.memo(view)
        if "weights" in memo:
            return self._weights
        memo["weights"] = True
        owners = view.route_owners()
        key = (view.player, len(owners))
        if key != self._open_key:
            me = view.player
            w: dict[int, int] = {}
            for r in view.map.routes:
                o = owners.get(r.id)
                if o == me:
                    w[r.id] = 0
                elif o is None and view.route_open_to(r.id, me):
                    w[r.id] = r.length
            self._weights, self._open_key = w, key
            self._paths = {}
        return self._weights

    def memo(self, view: PlayerView) -> dict[Any, Any]:
        """Values computed for this decision (cleared when the position moves on)."""
        key = (view.player, view.ply)
        if key != self._memo_key:
            self._memo_key = key
            self._memo = {}
        return self._memo

    def path(self, view: PlayerView, a: str, b: str, weights: dict[int, int] | None = None) -> tuple[float, list[int]]:
        """Cheapest path from ``a`` to ``b``: ``(cars still to place, route ids)``."""
        if weights is None:  # paths change only when routes are claimed: kept until then
            w = self.weights(view)
            hit = self._paths.get((a, b))
            if hit is None:
                hit = self._paths[(a, b)] = self._dijkstra(view, a, b, w)
            return hit
        return self._dijkstra(view, a, b, weights)

    def _dijkstra(self, view: PlayerView, a: str, b: str, w: dict[int, int]) -> tuple[float, list[int]]:
        adj = _adjacency(view.map)
        if a not in adj or b not in adj:
            return INF, []
        dist = {a: 0}
        back: dict[str, tuple[str, int]] = {}
        heap = [(0, a)]
        while heap:
            d, c = heapq.heappop(heap)
            if c == b:
                break
            if d > dist[c]:
                continue
            for rid, other, _ in adj[c]:
                cost = w.get(rid)
                if cost is None:
                    continue
                nd = d + cost
                if nd < dist.get(other, INF):
                    dist[other] = nd
                    back[other] = (c, rid)
                    heapq.heappush(heap, (nd, other))
        if b not in dist:
            return INF, []
        routes = []
        c = b
        while c != a:
            c, rid = back[c]
            routes.append(rid)
        routes.reverse()
        return dist[b], routes

    def ticket_plan(
        self, view: PlayerView, ticket: Ticket, weights: dict[int, int] | None = None
    ) -> tuple[float, list[int]]:
        """Cars still to place and routes to use for a ticket (a tour: each leg in order)."""
        total: float = 0
        routes: list[int] = []
        cities = ticket.cities
        for a, b in zip(cities, cities[1:]):
            cost, legs = self.path(view, a, b, weights)
            if cost == INF:
                return INF, []
            total += cost
            routes.extend(r for r in legs if r not in routes)
        return total, routes

    def network_plan(self, view: PlayerView, tickets: Iterable[Ticket]) -> tuple[float, list[int], list[Ticket]]:
        """One network for several tickets: each ticket's path reuses the routes
        already planned (they cost 0), most valuable ticket first.  Returns the
        cars still to place, the routes to claim, and the tickets left out
        (unreachable or over the pieces left)."""
        tickets = tuple(tickets)
        memo = self.memo(view)
        key = ("network", tuple(t.id for t in tickets))
        if key not in memo:
            memo[key] = self._network_plan(view, tickets)
        total, planned, dropped = memo[key]
        return total, list(planned), list(dropped)

    def _network_plan(self, view: PlayerView, tickets: Sequence[Ticket]) -> tuple[float, list[int], list[Ticket]]:
        w = dict(self.weights(view))
        budget = view.pieces[view.player]
        total: float = 0
        planned: list[int] = []
        dropped: list[Ticket] = []
        for t in sorted(tickets, key=lambda t: (-t.points, t.id)):
            cost, routes = self.ticket_plan(view, t, w)
            if cost == INF or total + cost > budget:
                dropped.append(t)
                continue
            total += cost
            for r in routes:
                if w[r]:
                    w[r] = 0
                    planned.append(r)
        return total, planned, dropped

    def unfinished(self, view: PlayerView) -> list[tuple[Ticket, float, list[int]]]:
        """Kept tickets not yet joined that can still be: ``(ticket, cost, routes to claim)``."""
        memo = self.memo(view)
        if "unfinished" in memo:
            return cast(list[tuple["Ticket", float, list[int]]], memo["unfinished"])
        out = memo["unfinished"] = []
        pieces = view.pieces[view.player]
        w = self.weights(view)
        for t in view.tickets:
            cost, routes = self.ticket_plan(view, t)
            if 0 < cost <= pieces:
                out.append((t, cost, [r for r in routes if w[r]]))
        return out

    # ------------------------------------------------------------ the decision
    def choose(self, view: PlayerView) -> Move:
        return choose_by_phase(view, self.keep, self.targets, self.turn, self.draw)

    # the style: subclasses override these
    def targets(self, view: PlayerView) -> list[int]:
        """Routes wanted now, most wanted first."""
        want: list[int] = []
        for _, _, routes in sorted(self.unfinished(view), key=lambda x: (-x[0].points, x[0].id)):
            want.extend(r for r in routes if r not in want)
        return want

    def ticket_score(self, view: PlayerView, ticket: Ticket, cost: float) -> float:
        """Smaller is better when choosing tickets to keep."""
        return cost / max(ticket.points, 1)

    def keep(self, view: PlayerView, moves: list[Move]) -> Move:
        need = min(len(m.tickets) for m in moves if isinstance(m, KeepTickets))
        pending = list(view.pending_tickets)
        scored = sorted(
            ((self.ticket_score(view, t, self.ticket_plan(view, t)[0]), t.id, t) for t in pending),
            key=lambda x: (x[0], x[1]),
        )
        keep = [t for _, _, t in scored[:need]]
        if self.greedy_keep:
            current = list(view.tickets)
            for _, _, t in scored[need:]:
                cost, _, dropped = self.network_plan(view, current + keep + [t])
                if not dropped and cost <= view.pieces[view.player] - self.ticket_reserve // 2:
                    keep.append(t)
        choice = KeepTickets(tuple(sorted(t.id for t in keep)))
        return choice if choice in moves else moves[0]

    def claim_value(self, view: PlayerView, claim: ClaimRoute, targets: list[int]) -> tuple[float, ...]:
        """Larger is better among the claims this agent is willing to make."""
        L = view.map.route(claim.route).length
        rank = targets.index(claim.route) if claim.route in targets else len(targets)
        return (-rank, L, -view.edition.wilds_in(claim.cards), -claim.route)

    def willing(self, view: PlayerView, claims: list[ClaimRoute], targets: list[int]) -> list[ClaimRoute]:
        """The claims worth making now (the rest of the turn draws cards)."""
        wanted = [c for c in claims if c.route in targets]
        if wanted:
            return wanted
        if view.final_turns_left is not None or not targets:
            return claims  # nothing to plan for: points now
        return []

    def wants_tickets(self, view: PlayerView, targets: list[int]) -> bool:
        return (
            self.redraw_tickets
            and not targets
            and view.final_turns_left is None
            and view.pieces[view.player] > self.ticket_reserve
        )

    def turn(self, view: PlayerView, moves: list[Move], targets: list[int]) -> Move:
        claims = [m for m in moves if isinstance(m, ClaimRoute)]
        pool = self.willing(view, claims, targets)
        if pool:
            return max(pool, key=lambda c: self.claim_value(view, c, targets))
        build = view.edition.suggested_action(view, moves)  # e.g. a harbor in a ticket city
        if build is not None:
            return build
        if self.wants_tickets(view, targets):
            draw = DrawTickets()
            if draw in moves:
                return draw
        if not any(isinstance(m, (DrawBlind, DrawFaceUp)) for m in moves) and claims:
            return max(claims, key=lambda c: self.claim_value(view, c, targets))  # no card left to draw
        return self.draw(view, moves, targets)

    # ------------------------------------------------------------ drawing cards
    def needs(self, view: PlayerView, targets: Sequence[int]) -> tuple[Needs, Needs]:
        """Spaces to pay on the target routes, and spaces the hand covers, per (ship?, colour)."""
        m = view.map
        want: Needs = {}
        for rid in targets:
            r = m.route(rid)
            key = (r.is_ship, None if r.color == "gray" else r.color)
            want[key] = want.get(key, 0) + r.length
        return want, hand_spaces(view)

    def draw(self, view: PlayerView, moves: list[Move], targets: Sequence[int]) -> Move:
        chosen = needed_draw(view, moves, *self.needs(view, targets))
        if chosen is not None:
            return chosen
        blind = [mv for mv in moves if isinstance(mv, DrawBlind)]
        if blind:
            return blind[0]
        faceup = [mv for mv in moves if isinstance(mv, DrawFaceUp)]
        if faceup:
            return faceup[self.rng.randrange(len(faceup))]
        others = [mv for mv in moves if not isinstance(mv, DrawTickets)] or moves
        return others[self.rng.randrange(len(others))]
