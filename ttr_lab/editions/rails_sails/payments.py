"""Paying for routes in Rails & Sails (rule B4): trains, ships, pairs.

A train route takes train cards of its colour (plain or with the anchor)
and wilds; a ship route takes ship cards and wilds, a double-ship card
covering two spaces, with no card superfluous; a paired route of L spaces
takes 2L train cards forming L one-colour pairs, a wild completing any pair.

Listing claims is the engine's hottest loop, so payments are counted per
route *class* (kind, colour, length): class counts are cached per edition by
the hand's counts (one part for train cards, one for ship cards), each with
the bitmask of the routes of the classes it can pay for; ANDed with the
bitmask of the routes still claimable (``_free``), that gives the claims.
The tables and the class counts are :mod:`.route_classes`' (the mixin
:class:`~.route_classes.RouteClasses`); this module lists the claims and
their payments and checks a payment.

Position fields (derived from the owners): ``_free`` (bitmask of route
indices someone can still claim) and ``_rs_blocked`` (per seat, the routes
whose double that seat owns, with 4-5 players).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...engine.moves import CardList, ClaimRoute, Move
from ...engine.rules import Field
from ...engine.rules.decks import R_CLAIM
from .cards import ANCHOR, NC, PLAIN, SHIP1, WILD
from .counting import _BITS8, _norm, _paired_payments
from .route_classes import RouteClasses

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["RSPayments", "R_RS"]

R_RS = "B4"


class RSPayments(RouteClasses):
    """Mixin: the claim engine of Rails & Sails."""

    route_kinds = frozenset({"train", "ship", "paired"})
    fields: ClassVar[tuple[Field, ...]] = (
        Field("_free", "", lambda ed, n: 0, derived=True),
        Field("_rs_blocked", "", lambda ed, n: (0,) * n, derived=True),
    )

    # ------------------------------------------------------------------ derived fields
    def derive(self, s: GameState) -> None:
        """``_free``: the routes still claimable by someone, as a bitmask of
        route indices (unclaimed and, with 2-3 players, not the other side of
        a claimed double, A4); with 4-5 players ``_rs_blocked`` holds, per
        player, the bitmask of the routes whose double that player owns.
        Kept up to date by :meth:`mark_taken`."""
        owners = s._owners
        partner = self.route_partner
        close = s.n < self.double_route_min_players
        free = 0
        for ri, o in enumerate(owners):
            if o < 0 and not (close and partner[ri] >= 0 and owners[partner[ri]] >= 0):
                free |= 1 << ri
        s._free = free
        blocked = [0] * s.n
        for ri, o in enumerate(owners):
            if o >= 0 and not close and partner[ri] >= 0:
                blocked[o] |= 1 << partner[ri]
        s._rs_blocked = tuple(blocked)

    def mark_taken(self, s: GameState, ri: int) -> None:
        """Keep the bitmasks in step: the route (and, with 2-3 players, its double) leaves ``_free``; with 4-5 the owner may not claim the double."""
        o = s._owners[ri]
        gone = 1 << ri
        pr = self.route_partner[ri]
        if pr >= 0:
            if s.n < self.double_route_min_players:
                gone |= 1 << pr
            else:
                s._rs_blocked = s._rs_blocked[:o] + (s._rs_blocked[o] | 1 << pr,) + s._rs_blocked[o + 1 :]
        s._free &= ~gone

    # ------------------------------------------------------------------ legal claims
    def claim_groups(self, s: GameState) -> list[Any]:
        """One lazy group per claimable route, its size the number of payments."""
        p = s._cur
        h = s._hands[p]
        M = self._rs_M
        w = h[WILD]
        if w > M:
            w = M
        tl = s._pieces[p]
        if tl > M:
            tl = M
        free = s._free
        tcards = h[PLAIN:SHIP1]
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
        sl = s._ships[p]
        skey = (h[SHIP1:WILD], w, sl if sl < M else M)
        sentry = self._rs_scache.get(skey)
        if sentry is None:
            sentry = self._ship_class_counts(*skey)
        m = (m | sentry[1]) & free & ~s._rs_blocked[p]
        if not m:
            return []
        cc += sentry[0]
        class_of = self._rs_class_of
        build = self._claim_builder(s)
        groups = []
        base = 0
        for byte in m.to_bytes(self._rs_nbytes, "little"):
            if byte:
                for b in _BITS8[byte]:
                    ri = base + b
                    groups.append((cc[class_of[ri]], build, ri))
            base += 8
        if self.custom_double_rule:  # the edition's own rule decides (the bitmasks know the base rule only)
            groups = self._open_groups(s, p, groups)
        return groups

    def _open_groups(self, s: GameState, p: int, groups: list[Any]) -> list[Any]:
        # apart from claim_groups: a comprehension there would make its locals closure cells (slower reads)
        rule = self.double_rule
        return [g for g in groups if rule(s, p, g[2]) is None]

    def open_routes(self, s: GameState) -> list[int]:
        """Indices of the routes some seat may still claim, in route order
        (:meth:`~ttr_lab.engine.rules.routes.Routes.open_routes`, from the bitmask).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("world", players=2, seed=1)
        >>> len(g.edition.open_routes(g)) == len(g.edition.routes)
        True
        """
        free, n = s._free, len(self.routes)
        out = [ri for ri in range(n) if free >> ri & 1]
        if self.custom_double_rule:
            rule, seats = self.double_rule, range(s.n)
            out = [ri for ri in out if any(rule(s, p, ri) is None for p in seats)]
        return out

    def claim_options(self, h: tuple[int, ...], ri: int) -> list[Move]:
        """Every payment of route index ``ri`` from hand ``h``, as sorted
        moves (cached by the cards that can pay for the route)."""
        col = self._rcol[ri]
        at = SHIP1 if self._rship[ri] else PLAIN
        if col >= 0 and not self._rpaired[ri]:
            key: tuple[Any, ...] = (ri, h[WILD], h[at + col], h[at + NC + col])
        else:
            key = (ri, h[WILD], h[at : at + 2 * NC])
        moves = self._rs_claims.get(key)
        if moves is None:
            moves = self._rs_claims.put(key, tuple(self._list_claims(h, ri)))
        return list(moves)

    def _list_claims(self, h: tuple[int, ...], ri: int) -> list[Move]:
        route = self.routes[ri]
        rid, label, L = route.id, self.route_labels[ri], route.length
        names = self._cname
        w = h[WILD]
        wname = names[WILD]
        col = self._rcol[ri]
        colours = range(NC) if col == -1 else ((col,) if col >= 0 else ())
        pays: list[CardList] = []
        if self._rship[ri]:
            if w >= L:
                pays.append(((wname, L),))
            half = (L + 1) // 2
            for c in colours:
                sc, d = h[SHIP1 + c], h[SHIP1 + NC + c]
                n1, n2 = names[SHIP1 + c], names[SHIP1 + NC + c]
                for dd in range(min(d, L // 2) + 1):
                    rem = L - 2 * dd
                    if rem == 0:
                        pays.append(((n2, dd),))
                        continue
                    for sp in range(max(0, rem - w), min(sc, rem) + 1):
                        if dd == 0 and sp == 0:
                            continue
                        pays.append(_norm([(n1, sp), (n2, dd), (wname, rem - sp)]))
                if L % 2 and d >= half:
                    pays.append(((n2, half),))
        elif self._rpaired[ri]:
            pnames = tuple((names[PLAIN + c], names[ANCHOR + c]) for c in range(NC))
            _paired_payments(h[PLAIN:ANCHOR], h[ANCHOR:SHIP1], w, 2 * L, pnames, wname, 0, 0, 0, [], pays)
        else:
            if w >= L:
                pays.append(((wname, L),))
            for c in colours:
                a, b = h[PLAIN + c], h[ANCHOR + c]
                if not a + b:
                    continue
                np_, na = names[PLAIN + c], names[ANCHOR + c]
                for k in range(min(w, L - 1) + 1):
                    m = L - k
                    for x in range(max(0, m - b), min(a, m) + 1):
                        pays.append(_norm([(np_, x), (na, m - x), (wname, k)]))
        pays.sort()  # one route: the moves sort as their cards do
        return [ClaimRoute._unchecked(rid, cards, label) for cards in pays]

    # ------------------------------------------------------------------ checks
    def check_payment(self, s: GameState, ri: int, cards: list[tuple[int, int]]) -> tuple[str, str] | None:
        """Rails & Sails payments (B4): the route's type of card plus wilds;
        ship cards count 1 or 2 with no card superfluous; paired routes take
        2L train cards in L pairs."""
        route = self.routes[ri]
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
                return (
                    R_RS,
                    f"a paired route of {L} spaces takes exactly {2 * L} train cards ({L} pairs), not {count}",
                )
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
            got = self.colors[next(iter(colors))]
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
