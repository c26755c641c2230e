"""The playout policy's tables and hand accounting (:mod:`ttr_lab.bots.playout`).

Per edition, built once: the routes as indices, the board as adjacency
lists, each card type's kind (ship?, colour) and value, the face-up and
blind draw moves; the cheapest path with per-route costs (Dijkstra on the
indices) and on the empty board (cached); what a hand covers per kind of
card, whether it pays a route, and its cheapest payment (fewest wilds).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any, cast

from ...engine.moves import ClaimRoute, DrawBlind, DrawFaceUp

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView

__all__ = ["Key", "hand_spaces", "affordable", "cheapest_payment"]

_INF = float("inf")
Key = tuple[bool, "str | None"]  # (ship?, colour): the kind of card a route takes


class _Tables:
    """Per-edition tables the bot reads instead of the map (built once per edition)."""

    def __init__(self, ed: Any) -> None:
        m = ed.map
        self.index = {c.name: i for i, c in enumerate(m.cities)}
        self.routes = m.routes
        self.rid = tuple(r.id for r in m.routes)
        self.rlen = tuple(r.length for r in m.routes)
        self.rship = tuple(r.is_ship for r in m.routes)
        self.partner = ed.route_partner
        self.ri = dict(ed.route_index)
        self.by_length = sorted(range(len(m.routes)), key=lambda i: (-self.rlen[i], i))
        self.adj: list[list[tuple[int, int]]] = [[] for _ in m.cities]
        for i, r in enumerate(m.routes):
            a, b = self.index[r.a], self.index[r.b]
            self.adj[a].append((b, i))
            self.adj[b].append((a, i))
        types = ed.card_types
        self.wild = ed.wild_cards[0]
        self.wild_name = types[self.wild].name
        self.key: list[Key | None] = [None if ct.wild else (ct.kind == "ship", ct.color) for ct in types]
        self.value = tuple(ct.value for ct in types)
        self.anchor = tuple(ct.anchor and not ct.wild for ct in types)
        #: card name -> (key or None for a wild, anchor?) for reading the row
        self.face = {ct.name: (self.key[c], self.anchor[c]) for c, ct in enumerate(types)}
        self.any_key: tuple[Key, Key] = ((False, "any"), (True, "any"))
        refills = (None,) if len(ed.pile_names) == 1 else ed.pile_names
        self.faceup = {(s, q): DrawFaceUp(s, q) for s in range(1, ed.row_size + 1) for q in refills}
        self.blind = [DrawBlind(None if len(ed.pile_names) == 1 else q) for q in ed.pile_names]
        self.piles = ed.pile_names
        self.builds = ed.builds_on_tickets  # pieces built on ticket cities (Rails & Sails' harbors)
        self.end = ed.end_threshold
        self.static: dict[tuple[int, int], tuple[float, list[int]]] = {}
        self.have: dict[tuple[int, ...], dict[Key, int]] = {}
        self.lengths = [float(L) for L in self.rlen]
        points: dict[int, int] = {}
        for L, pts in ed.route_points.items():
            points[pts] = -1 if pts in points else L
        self.inverse_points = {pts: L for pts, L in points.items() if L > 0}


_TABLES: dict[Any, _Tables] = {}


def _tables(ed: Any) -> _Tables:
    key = (ed.name, ed.map.digest)
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) > 16:
            _TABLES.clear()
        t = _TABLES[key] = _Tables(ed)
    return t


def _path(T: _Tables, cost: list[float], a: int, b: int) -> tuple[float, list[int]]:
    """Cheapest a-b path (route indices) with per-route costs (negative: closed)."""
    dist = {a: 0.0}
    back: dict[int, tuple[int, int]] = {}
    heap = [(0.0, a)]
    adj = T.adj
    while heap:
        d, u = heapq.heappop(heap)
        if u == b:
            out = []
            while u != a:
                u, ri = back[u]
                out.append(ri)
            return d, out
        if d > dist[u]:
            continue
        for v, ri in adj[u]:
            c = cost[ri]
            if c >= 0 and d + c < dist.get(v, _INF):
                dist[v] = d + c
                back[v] = (u, ri)
                heapq.heappush(heap, (d + c, v))
    return _INF, []


def _static_path(T: _Tables, a: int, b: int) -> tuple[float, list[int]]:
    """The cheapest path on the empty board (cached per edition)."""
    got = T.static.get((a, b))
    if got is None:
        got = T.static[(a, b)] = _path(T, T.lengths, a, b)
    return got


def hand_spaces(T: _Tables, h: tuple[int, ...]) -> dict[Key, int]:
    """Spaces the hand covers per (ship?, colour), wilds apart (cached by hand; do not change it)."""
    have = T.have.get(h)
    if have is None:
        if len(T.have) > 20_000:
            T.have.clear()
        have = T.have[h] = {}
        for c, k in enumerate(h):
            key = T.key[c]
            if k and key is not None:
                have[key] = have.get(key, 0) + k * T.value[c]
    return have


def affordable(T: _Tables, have: dict[Key, int], W: int, ri: int) -> bool:
    """Whether the hand can pay route index ``ri`` (a count; the payment is listed after)."""
    r = T.routes[ri]
    L = r.length
    if r.locomotives > W:
        return False
    if r.paired:
        xs = [v for k, v in have.items() if not k[0]]
        singles = sum(x % 2 for x in xs)
        used = min(singles, W)
        return sum(x // 2 for x in xs) + used + (W - used) // 2 >= L
    if r.color != "gray":
        return have.get((r.is_ship, r.color), 0) + W >= L
    return W >= L or any(v + W >= L for k, v in have.items() if k[0] == r.is_ship)


def cheapest_payment(view: PlayerView, T: _Tables, ri: int, surplus: dict[Key, int] | None = None) -> ClaimRoute | None:
    """The claim of route index ``ri`` with the fewest wilds (then anchor
    cards), or None; with ``surplus``, only a payment without wilds using
    at most these spaces of each kind of card."""
    ed = view.edition
    pays = cast("list[ClaimRoute]", ed.claim_options(view.hand_counts, ri))  # type: ignore[attr-defined]
    if surplus is not None:
        index = ed.card_index
        ok = []
        for m in pays:
            use: dict[Key, int] = {}
            for name, k in m.cards:
                c = index[name]
                key = T.key[c]
                if key is None:
                    break
                use[key] = use.get(key, 0) + k * T.value[c]
            else:
                if all(surplus.get(key, 0) >= v for key, v in use.items()):
                    ok.append(m)
        pays = ok
    if not pays:
        return None
    wild = T.wild_name
    best, rank = None, None
    for m in pays:  # the fewest wilds, then the fewest anchor cards
        r = (sum(k for n, k in m.cards if n == wild), sum(k for n, k in m.cards if n.endswith("anchor")))
        if rank is None or r < rank:
            best, rank = m, r
    return best
