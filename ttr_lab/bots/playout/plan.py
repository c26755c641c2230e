"""The playout policy's plan (:mod:`ttr_lab.bots.playout`): the routes to claim, kept up to date.

:class:`PlayoutPlan`, the mixin :class:`~ttr_lab.bots.playout.PlayoutBot` builds
on: the routes of a network joining each of the bot's tickets (each
ticket's cheapest path with the routes already planned or owned free, the
most valuable tickets first; a ticket whose path is still open keeps it),
the open other sides of planned doubles, and the pieces in supply.  The plan
is checked only when a claim changed the scores (its length read off the
points it gained) and made again only when a planned route was taken or
closed, or the tickets changed.  ``_needs``: the spaces of cards a set of
routes takes, per (ship?, colour).

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots.playout import PlayoutBot
>>> from ttr_lab.bots.playout.tables import _tables
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> bots = [PlayoutBot(1), PlayoutBot(2)]
>>> while g.phase.name != "TURN":
...     g.push(bots[g.current_player].choose(g.view(g.current_player)))
>>> bot, view = bots[0], g.view(0)
>>> T = _tables(view.edition)
>>> bot._check(view, T)
>>> sorted(bot.paths) == sorted(t.id for t in view.tickets), bot.trains
(True, 45)
>>> 0 < sum(T.rlen[ri] for ri in bot.plan) <= bot.trains
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .tables import _INF, Key, _path, _Tables

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView

__all__ = ["PlayoutPlan"]


class PlayoutPlan:
    """Mixin: the plan of :class:`~ttr_lab.bots.playout.PlayoutBot` (its fields are set there)."""

    plan: list[int]
    alt: dict[int, int]
    paths: dict[int, list[int]]
    trains: int
    ships: int
    lowest: int
    pieces_of: list[int]
    done: bool
    _sig: Any
    _stale: bool
    _touch: set[str] | None

    # ------------------------------------------------------------------ the plan
    def _costs(self, view: PlayerView, T: _Tables) -> list[float]:
        """Per route: 0 owned, -1 closed to this seat (the edition's ``closed_routes``), else its length."""
        me = view.player
        owners = view.route_owners()
        cost = list(T.lengths)
        for rid, o in owners.items():
            cost[T.ri[rid]] = 0.0 if o == me else -1.0
        for rid in view.edition.closed_routes(view, owners):
            cost[T.ri[rid]] = -1.0
        return cost

    def _legs(self, T: _Tables, cost: list[float], t: Any) -> tuple[float, list[int]]:
        total, routes = 0.0, []
        for x, y in zip(t.cities, t.cities[1:]):
            d, path = _path(T, cost, T.index[x], T.index[y])
            if d == _INF:
                return _INF, []
            total += d
            routes += path
        return total, routes

    def _replan(self, view: PlayerView, T: _Tables) -> None:
        """Plan every ticket again; a ticket whose path is still open keeps it."""
        cost = self._costs(view, T)
        pieces = self.trains + self.ships
        plan: list[int] = []
        paths = {}
        for t in sorted(view.tickets, key=lambda t: (-t.points, t.id)):
            old = self.paths.get(t.id)
            if old is not None and all(cost[ri] >= 0 for ri in old):
                d, routes = sum(cost[ri] for ri in old), old
            else:
                d, routes = self._legs(T, cost, t)
            if d == _INF:
                continue
            paths[t.id] = routes
            if 0 < d <= pieces - sum(T.rlen[ri] for ri in plan):
                for ri in routes:
                    if cost[ri] > 0:
                        plan.append(ri)
                        cost[ri] = 0.0
        self.paths = paths
        self.plan = sorted(plan, key=lambda ri: (-T.rlen[ri], ri))
        self.done = not self.plan
        self._alternates(view, T)

    def _check(self, view: PlayerView, T: _Tables) -> None:
        """Keep the plan up to date.  Only a claim (the scores change) or new
        tickets (``_stale``, set when keeping) can spoil it; the length of a
        claim is read off the score it gained (route points grow with the
        length), so only planned routes of that length are looked at."""
        me = view.player
        sig = view.scores
        old = self._sig
        if sig == old and not self._stale:
            return
        self._sig = sig
        self._touch = None
        lengths: set[int] | None = None
        if old is not None and not self._stale and len(old) == len(sig):
            lengths = set()
            for q, (a, b) in enumerate(zip(old, sig)):
                if a != b:
                    L = T.inverse_points.get(b - a)
                    if L is None:  # an exchange, or points of another kind: look at everything
                        lengths = None
                        break
                    lengths.add(L)
                    self.pieces_of[q] -= L
        if lengths is None:
            self.pieces_of = list(view.pieces)
        if lengths is None or sig[me] != old[me]:  # type: ignore[index]
            self.trains, self.ships = self._supply(view)
        self.lowest = min(p for q, p in enumerate(self.pieces_of) if q != me)
        if self._stale:
            self._stale = False
            self._replan(view, T)
            return
        keep = []
        for ri in self.plan:
            if (lengths is None or T.rlen[ri] in lengths) and not view.route_open_to(T.rid[ri], me):
                if view.route_owner(T.rid[ri]) == me:
                    continue  # claimed it
                self._replan(view, T)
                return
            keep.append(ri)
        changed = len(keep) != len(self.plan)
        self.plan = keep
        self.done = not keep
        if changed or lengths is None or any(T.rlen[ri] in lengths for ri in self.alt):
            self._alternates(view, T)

    def _alternates(self, view: PlayerView, T: _Tables) -> None:
        me = view.player
        self.alt = {}
        for ri in self.plan:
            p = T.partner[ri]
            if p >= 0 and view.route_open_to(T.rid[p], me):
                self.alt[ri] = p

    def _supply(self, view: PlayerView) -> tuple[int, int]:
        """(trains, ships) in supply; every piece is a train where the edition has no ships."""
        me = view.player
        trains, ships = view.edition.pieces_in_supply(view, me)
        if ships is None:
            return (self.pieces_of[me] if self.pieces_of else trains), 0
        return trains, ships

    # ------------------------------------------------------------------ the cards routes need
    def _needs(self, T: _Tables, have: dict[Key, int], routes: list[int]) -> dict[Key, int]:
        """Spaces the routes take per (ship?, colour); a gray route takes
        the colour held most beyond the other needs (``"any"`` if none), a
        double route the colour of its sides held more."""
        need: dict[Key, int] = {}
        grays = []
        alt = self.alt
        for ri in routes:
            r = T.routes[ri]
            if r.color == "gray":
                grays.append(r)
                continue
            k = (r.is_ship, r.color)
            p = alt.get(ri)
            if p is not None and T.routes[p].color != "gray":
                k2 = (r.is_ship, T.routes[p].color)
                if have.get(k2, 0) - need.get(k2, 0) > have.get(k, 0) - need.get(k, 0):
                    k = k2
            need[k] = need.get(k, 0) + r.length
        for r in grays:
            best: Key = (r.is_ship, "any")
            most = 0
            for k, v in have.items():
                if k[0] == r.is_ship and v - need.get(k, 0) > most:
                    best, most = k, v - need.get(k, 0)
            need[best] = need.get(best, 0) + r.length * (2 if r.paired else 1)
        return need
