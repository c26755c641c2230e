"""What another seat's play tells about its unseen tickets: the likelihood
that :mod:`ttr_lab.analysis.hidden` weights its guesses by
(``weighted=True``), a documented Bayesian update.

Three kinds of evidence, each a factor of the likelihood (see
:class:`ClaimLikelihood`):

* **claims**: each claimed route is a draw of a route in proportion to how
  nearly it lies on the way of the seat's tickets (the detour, in cars),
  normalised over the whole map, so tickets the claims nearly complete
  explain them better than tickets that need much else too (the Occam
  factor);
* **choices**: the seat kept these tickets of those it was offered, with
  odds ``exp(BETA * value)`` for the playout policy's own value of a choice
  (points less 0.6 a car of the union of the paths);
* **draws**: the seat asked for more tickets; the playout policy does so
  only when its tickets are connected, so each ticket held then and not
  connected by the seat's routes counts ``DRAW_UNDONE``.

The model is the playout policy's behaviour, simplified; its constants are
set by the benchmarks (``benchmarks/bench_calibration.py --only bias``).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> ticket_weight(g.view(0), 1, (1, 2))   # no routes claimed: no evidence
0.0
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from ...bots.playout import PlayoutBot
from ...bots.playout.tables import _static_path, _tables  # the policy's own paths on the empty board
from ...errors import TtrError
from ...maps.graphs import board_graph
from ..paths import ticket_graph

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView

__all__ = ["ClaimLikelihood", "ticket_weight", "BETA", "DRAW_UNDONE"]

#: the keep choice's likelihood: so much log-odds per point of the policy's value
BETA = 1.0
CAR_COST = PlayoutBot.car_cost
#: the chance that a seat asks for new tickets with one of its tickets not connected (given up)
DRAW_UNDONE = 0.1

_DIST: dict[str, dict[Any, dict[Any, float]]] = {}


def _distances(view: PlayerView) -> dict[Any, dict[Any, float]]:
    """Cars between every two cities on the empty board (cached per map)."""
    m = view.map
    d = _DIST.get(m.digest)
    if d is None:
        if len(_DIST) > 8:
            _DIST.clear()
        H = ticket_graph(board_graph(m))
        d = _DIST[m.digest] = {a: dict(x) for a, x in nx.all_pairs_dijkstra_path_length(H, weight="length")}
    return d


_DETOURS: dict[str, dict[int, tuple[float, ...]]] = {}


def _detours(view: PlayerView, ticket: int) -> tuple[float, ...]:
    """The detour of every route of the map (in the map's order) for one
    ticket: ``d(a, u) + L + d(v, b) - d(a, b)`` cars, the better direction,
    the smallest over a tour's consecutive cities (cached per map)."""
    m = view.map
    table = _DETOURS.get(m.digest)
    if table is None:
        if len(_DETOURS) > 8:
            _DETOURS.clear()
        table = _DETOURS[m.digest] = {}
    out = table.get(ticket)
    if out is None:
        d, t, inf = _distances(view), m.ticket(ticket), math.inf
        pairs = [(t.cities[i], t.cities[i + 1]) for i in range(len(t.cities) - 1)]
        row = []
        for r in m.routes:
            best = inf
            for a, b in pairs:
                da, db = d.get(a, {}), d.get(b, {})
                via = min(da.get(r.a, inf) + db.get(r.b, inf), da.get(r.b, inf) + db.get(r.a, inf)) + r.length
                best = min(best, via - da.get(b, inf))
            row.append(best)
        out = table[ticket] = tuple(row)
    return out


class ClaimLikelihood:
    """The likelihood of every other seat's claimed routes given its tickets, for one view.

    The model (a documented Bayesian update): a player claims routes on the
    way of its tickets, and the fewer routes its tickets need, the more
    surely each claim is one of them.  A route from ``u`` to ``v`` (``L``
    cars) lies on the way of a ticket ``a``-``b`` with a *detour* of
    ``d(a, u) + L + d(v, b) - d(a, b)`` cars (the better direction; tours by
    consecutive cities; ``d`` on the empty board), 0 on a shortest path.
    With tickets ``T``, a route's weight is ``L * exp(-lam * min(cap,
    detour))``, its smallest detour over ``T`` (the cap leaves some chance of
    a claim for its points or to block), and each claim is a draw of a
    route in proportion to its weight over every route of the map:

        P(claims | T) = prod over claimed r of  w_T(r) / sum over all routes of w_T

    The normaliser is the *Occam factor*: tickets whose ways cover the
    claims but also much else (a long ticket across the board) explain the
    claims less well than tickets the claims nearly complete, which is what
    a player pursuing its tickets looks like.  Times the uniform prior of the
    seat's samples, it gives the posterior that ``weighted=True`` samples
    from (by the Metropolis sweeps of :meth:`TicketTracker.deal`).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> like = ClaimLikelihood(g.view(0))
    >>> like.logw(1, (1, 2)), like.informative(1)   # no routes claimed: no evidence
    (0.0, False)
    """

    def __init__(self, view: PlayerView, *, lam: float = 0.5, cap: float = 6.0, beta: float | None = None) -> None:
        beta = BETA if beta is None else beta
        if not (lam >= 0 and cap >= 0 and beta >= 0):
            raise TtrError(f"lam, cap and beta are non-negative numbers, not {lam!r}, {cap!r} and {beta!r}")
        self.view, self.lam, self.cap, self.beta = view, float(lam), float(cap), float(beta)
        self._T = _tables(view.edition)
        self._pieces = float(view.edition.pieces)
        self._legs: dict[int, frozenset[int]] = {}
        self._kmemo: dict[tuple[Any, ...], float] = {}
        self._masks: dict[int, tuple[int, int]] = {}
        self._unary: list[int] | None = None
        self._done: dict[tuple[frozenset[int], int], bool] = {}
        m = view.map
        index = {r.id: i for i, r in enumerate(m.routes)}
        self._length = [float(r.length) for r in m.routes]
        self._claimed = {q: [index[r] for r in view.routes_of(q)] for q in range(view.num_players)}
        floor = math.exp(-self.lam * self.cap)
        self._floor = tuple(x * floor for x in self._length)
        self._weights: dict[int, tuple[float, ...]] = {}
        self._memo: dict[tuple[int, ...], float] = {}

    def informative(self, player: int) -> bool:
        """Whether ``player`` has claimed anything (else every hand is as likely)."""
        return bool(self._claimed[player]) and self.lam > 0

    def weights(self, ticket: int) -> tuple[float, ...]:
        """Every route's weight ``L * exp(-lam * min(cap, detour))`` for one ticket."""
        out = self._weights.get(ticket)
        if out is None:
            lam, cap = self.lam, self.cap
            out = tuple(
                x * math.exp(-lam * min(cap, max(0.0, dt))) for x, dt in zip(self._length, _detours(self.view, ticket))
            )
            self._weights[ticket] = out
        return out

    def logw(self, player: int, tickets: Iterable[int]) -> float:
        """The log-likelihood of ``player``'s claims if it holds ``tickets``
        (0.0 for a player that claimed nothing)."""
        claimed = self._claimed[player]
        if not claimed:
            return 0.0
        key = (player, *sorted(tickets))
        out = self._memo.get(key)
        if out is None:
            rows = [self.weights(t) for t in key[1:]]
            w = self._floor if not rows else rows[0] if len(rows) == 1 else tuple(map(max, *rows))
            out = sum(math.log(w[i]) for i in claimed) - len(claimed) * math.log(sum(w))
            if len(self._memo) > 50_000:
                self._memo.clear()
            self._memo[key] = out
        return out

    # ---------------------------------------------------------------- the choice of tickets
    def _routes_of(self, ticket: int) -> frozenset[int]:
        got = self._legs.get(ticket)
        if got is None:
            T, t = self._T, self.view.map.ticket(ticket)
            routes: set[int] = set()
            for x, y in zip(t.cities, t.cities[1:]):
                routes.update(_static_path(T, T.index[x], T.index[y])[1])
            got = self._legs[ticket] = frozenset(routes)
        return got

    def _mask(self, ticket: int) -> tuple[int, int]:
        """A ticket's points and the cars of its paths as a mask: each route
        ``L`` cars long owns ``L`` bits of its own, so the cars of a union of
        paths are the bits set in the masks' OR (``int.bit_count``)."""
        got = self._masks.get(ticket)
        if got is None:
            unary = self._unary
            if unary is None:
                unary, at = [], 0
                for length in self._T.rlen:
                    unary.append(((1 << length) - 1) << at)
                    at += length
                self._unary = unary
            mask = 0
            for ri in self._routes_of(ticket):
                mask |= unary[ri]
            got = self._masks[ticket] = (self.view.map.ticket(ticket).points, mask)
        return got

    def _value(self, setup: bool, picked: Iterable[tuple[int, int]]) -> float:
        points = union = 0
        for p, mask in picked:
            points += p
            union |= mask
        cars = float(union.bit_count())
        v = points - CAR_COST * cars
        return v - 3 * max(0.0, cars - 0.8 * self._pieces) if setup else v

    def value(self, setup: bool, tickets: Iterable[int]) -> float:
        """The playout policy's value of keeping ``tickets`` (its points less
        0.6 a car of the union of their paths on the empty board, less 3 a car
        beyond 80% of the pieces at setup)."""
        return self._value(setup, [self._mask(t) for t in tickets])

    def keep_logw(self, player: int, setup: bool, kept: list[int], returned: list[int]) -> float:
        """The log-likelihood of ``player`` keeping ``kept`` of ``kept + returned``:
        ``exp(beta * value)`` of the kept set over every set of that size."""
        if not returned or self.beta == 0:
            return 0.0
        key = (setup, tuple(sorted(kept)), tuple(sorted(returned)))
        out = self._kmemo.get(key)
        if out is None:
            offered = [self._mask(t) for t in key[1] + key[2]]
            beta, value = self.beta, self._value
            vals = [beta * value(setup, c) for c in itertools.combinations(offered, len(kept))]
            top = max(vals)
            out = vals[0] - top - math.log(sum(math.exp(x - top) for x in vals))  # vals[0]: the kept set
            if len(self._kmemo) > 50_000:
                self._kmemo.clear()
            self._kmemo[key] = out
        return out

    def draw_logw(self, routes: frozenset[int], tickets: Iterable[int]) -> float:
        """The log-likelihood of a seat drawing new tickets while holding
        ``tickets`` with ``routes`` claimed: the playout policy asks for more
        only when its tickets are connected (or given up), so each ticket
        not connected counts ``log(DRAW_UNDONE)``."""
        out = 0.0
        for t in tickets:
            key = (routes, t)
            ok = self._done.get(key)
            if ok is None:
                if len(self._done) > 50_000:
                    self._done.clear()
                ok = self._done[key] = _connects(self.view, routes, t)
            if not ok:
                out += math.log(DRAW_UNDONE)
        return out


def _connects(view: PlayerView, routes: frozenset[int], ticket: int) -> bool:
    """Whether ``routes`` join every consecutive pair of cities of a ticket."""
    m = view.map
    up: dict[str, str] = {}

    def find(x: str) -> str:
        while up.get(x, x) != x:
            x = up[x] = up.get(up[x], up[x])
        return x

    for rid in routes:
        r = m.route(rid)
        up[find(r.a)] = find(r.b)
    t = m.ticket(ticket)
    return all(find(a) == find(b) for a, b in zip(t.cities, t.cities[1:]))


def ticket_weight(
    view: PlayerView, player: int, tickets: tuple[int, ...], *, lam: float = 0.5, cap: float = 6.0
) -> float:
    """The log-likelihood of the routes ``player`` claimed if it holds
    ``tickets`` (the model of :class:`ClaimLikelihood`).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> ticket_weight(g.view(0), 1, (1, 2))   # no routes claimed: no evidence
    0.0
    """
    return ClaimLikelihood(view, lam=lam, cap=cap).logw(player, tickets)
