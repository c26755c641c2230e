"""The four playing styles of de Mesentier Silva, Lee, Togelius and Nealen.

"AI-based Playtesting of Contemporary Board Games" (FDG 2017, doi
10.1145/3102071.3102105) defines four agents with distinct styles and plays
them against each other on several maps, variants and player counts; Smith
and Anton ("Artificial Intelligence Approaches to Build Ticket to Ride Maps",
AAAI 2022, 36(11):12844-12851) reuse the same four, describing them as
"popular strategies human players use: one-step thinking, long route
exploitation, route focus, and destination hungry".

What we used: the FDG paper's abstract (the copies on paperzz.com and
docslib.org), the agents' names as the paper and Smith & Anton give them,
and Smith & Anton's abstract.  The paper's section defining the agents was
not available to us as text, so each agent below is *our reading* of its
name and of those descriptions; where we had to fill a gap, the class
docstring says so.  All four share the planning below (cheapest paths over
the routes still open to the player, own routes free) and differ in which
tickets they keep, which routes they want, when they draw tickets and which
claim they prefer.

Every agent decides from its :class:`~ttr_lab.engine.view.PlayerView` alone and
plays every edition to the end: a decision of an edition's own (Europe's
tunnel payment, Rails & Sails' secret train/ship split) goes to
``view.edition.default_choice``, where the paper is silent; Rails & Sails
harbors are built when ``view.edition.suggested_action`` proposes one (a
harbor in a ticket city); Europe's stations are never built (each unbuilt
one scores 4 points at the end).

:data:`ttr_lab.bots.BOTS` names the agents (lazy entries: this module is
imported the first time one is made), so ``make_bot("route_focus")`` works
after ``import ttr_lab``.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots import make_bot, play_game
>>> names = ["route_focus", "one_step", "long_route", "destination_hungry"]
>>> g = play_game("usa", [make_bot(n, seed=i) for i, n in enumerate(names)], seed=3)
>>> g.is_over
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.moves import ClaimRoute
from .fdg_base import INF, FdgAgent

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.view import PlayerView
    from ..maps.loading import Ticket

__all__ = ["FdgAgent", "RouteFocus", "OneStepThinking", "LongRouteExploitation", "DestinationHungry", "AGENTS"]


class RouteFocus(FdgAgent):
    """Route Focus: one ticket at a time.

    Keeps the fewest tickets the rules allow, choosing the cheapest in cars
    per point; then works on a single ticket, the most valuable one still
    possible, claiming the routes of its cheapest path (the longest first)
    and drawing the colours that path needs; moves on to the next ticket
    when it is joined, and draws new tickets once all are done or impossible.

    Gaps filled: the order of the tickets (most points first) and the order
    of the routes within a path (longest first) are ours; with no ticket
    left to work on and none to draw, it claims the longest route it can.
    """

    name = "route_focus"

    def targets(self, view: PlayerView) -> list[int]:
        todo = self.unfinished(view)
        if not todo:
            return []
        _, _, routes = min(todo, key=lambda x: (-x[0].points, x[1], x[0].id))
        m = view.map
        return sorted(routes, key=lambda r: (-m.route(r).length, r))


class OneStepThinking(FdgAgent):
    """One Step Thinking: the best move for this turn only, no plan.

    Every turn it scores each claim it can make now: the route's points, plus
    the points of a ticket the claim completes, plus a bonus when the route
    lies on the cheapest path of an unfinished ticket; it claims the best
    one when that route helps a ticket (or late in the game); otherwise it
    draws the face-up card that best fits the routes of its tickets' paths.
    It keeps the tickets whose cities are nearest (fewest cars), and draws
    new ones once its tickets are done.

    Gaps filled: the score of a claim (route points + completed ticket +
    half the ticket's points for a route on its path) is ours.
    """

    name = "one_step"

    def ticket_score(self, view: PlayerView, ticket: Ticket, cost: float) -> float:
        return cost

    def claim_value(self, view: PlayerView, claim: ClaimRoute, targets: list[int]) -> tuple[float, ...]:
        r = view.map.route(claim.route)
        points = float(view.edition.route_points[r.length])
        for t, cost, routes in self.unfinished(view):
            if claim.route in routes:
                # the route is on the ticket's cheapest path, which stays cheapest: cost drops by its length
                points += t.points if cost == r.length else t.points / 2
        return (points, -view.edition.wilds_in(claim.cards), -claim.route)

    def targets(self, view: PlayerView) -> list[int]:
        want: list[int] = []
        for _, _, routes in sorted(self.unfinished(view), key=lambda x: (x[1], x[0].id)):
            want.extend(r for r in routes if r not in want)
        return want


class LongRouteExploitation(FdgAgent):
    """Long Route Exploitation: long routes are worth more points per car.

    Keeps the fewest tickets the rules allow, preferring tickets whose
    cheapest path uses long routes; claims the longest route it can pay for
    (5 and 6 car routes on a ticket path first, then any of length 4 or
    more), collects the colours of the longest open routes, never draws
    tickets, and so uses its pieces fast and ends the game early.

    Gaps filled: the threshold "4 cars or more" and the preference for the
    long routes of its own tickets' paths are ours.
    """

    name = "long_route"
    redraw_tickets = False
    min_length = 4

    def ticket_score(self, view: PlayerView, ticket: Ticket, cost: float) -> float:
        if cost == INF:
            return INF
        _, routes = self.ticket_plan(view, ticket)
        m = view.map
        long_cars = sum(m.route(r).length for r in routes if m.route(r).length >= self.min_length)
        return cost / max(ticket.points, 1) - long_cars / 10

    def targets(self, view: PlayerView) -> list[int]:
        m = view.map
        on_path = {r for _, _, routes in self.unfinished(view) for r in routes}
        pieces = view.pieces[view.player]
        w = self.weights(view)
        long_open = [
            rid
            for rid, cost in w.items()
            if cost and m.route(rid).length >= self.min_length and m.route(rid).length <= pieces
        ]
        long_open.sort(key=lambda r: (-m.route(r).length, r not in on_path, r))
        short_on_path = sorted((r for r in on_path if r not in long_open), key=lambda r: (-m.route(r).length, r))
        return long_open[:6] + short_on_path

    def willing(self, view: PlayerView, claims: list[ClaimRoute], targets: list[int]) -> list[ClaimRoute]:
        m = view.map
        longest = [c for c in claims if m.route(c.route).length >= self.min_length]
        return longest or super().willing(view, claims, targets)

    def claim_value(self, view: PlayerView, claim: ClaimRoute, targets: list[int]) -> tuple[float, ...]:
        L = view.map.route(claim.route).length
        return (L, claim.route in targets, -view.edition.wilds_in(claim.cards), -claim.route)


class DestinationHungry(FdgAgent):
    """Destination Hungry: as many tickets as its pieces can join.

    Keeps every dealt ticket that still fits one network (each ticket's
    cheapest path reusing the routes already planned, within the pieces
    left), and keeps drawing tickets while the planned network leaves
    pieces to spare; claims only the routes of that network (longest
    first) and draws the colours it needs.

    Gaps filled: the network is built greedily, most valuable ticket first
    (not an exact Steiner forest), and "pieces to spare" means at least 12
    pieces beyond the plan, both ours; with nothing left to plan it claims
    the longest route it can.
    """

    name = "destination_hungry"
    greedy_keep = True

    def targets(self, view: PlayerView) -> list[int]:
        _, planned, _ = self.network_plan(view, view.tickets)
        m = view.map
        return sorted(planned, key=lambda r: (-m.route(r).length, r))

    def wants_tickets(self, view: PlayerView, targets: list[int]) -> bool:
        if view.final_turns_left is not None or view.ticket_deck_size == 0:
            return False
        cost, _, _ = self.network_plan(view, view.tickets)
        return view.pieces[view.player] - cost > self.ticket_reserve and (
            not targets or view.ply < 4 * view.num_players
        )


#: the agents by their make_bot names
AGENTS: dict[str, type[FdgAgent]] = {
    cls.name: cls for cls in (RouteFocus, OneStepThinking, LongRouteExploitation, DestinationHungry)
}
