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

Position fields (derived from the owners): ``_free`` (bitmask of route
indices someone can still claim) and ``_rs_blocked`` (per seat, the routes
whose double that seat owns, with 4-5 players).
"""

from __future__ import annotations

from functools import reduce
from itertools import compress
from operator import or_
from typing import TYPE_CHECKING, Any, ClassVar

from ...core import Edition, Field
from ...core.caches import cache_group
from ...core.decks import R_CLAIM
from ...moves import CardList, ClaimRoute, Move
from .cards import ANCHOR, NC, PLAIN, SHIP1, WILD
from .counting import _BITS8, _norm, _paired_counts, _paired_payments, _ship_count, _train_count

if TYPE_CHECKING:  # pragma: no cover
    from ...state import GameState

__all__ = ["RSPayments", "R_RS"]

R_RS = "B4"
_CACHE_LIMIT = 15_000  # entries per cache, shared by the editions of one map; cleared when full


class RSPayments(Edition):
    """Mixin: the claim engine of Rails & Sails."""

    route_kinds = frozenset({"train", "ship", "paired"})
    fields: ClassVar[tuple[Field, ...]] = (
        Field("_free", "", lambda ed, n: 0),
        Field("_rs_blocked", "", lambda ed, n: (0,) * n),
    )
    colors: tuple[str, ...] = ()

    _ckind: tuple[int, ...]
    _ccol: tuple[int, ...]
    _cval: tuple[int, ...]
    _canchor: tuple[bool, ...]
    _cname: tuple[str, ...]
    _rship: tuple[bool, ...]
    _rpaired: tuple[bool, ...]
    _rcol: tuple[int, ...]

    def _build_tables(self) -> None:
        super()._build_tables()
        ct = self.card_types
        colors = self.colors
        routes = self.routes
        self._ckind = tuple(2 if c.wild else (1 if c.kind == "ship" else 0) for c in ct)
        self._ccol = tuple(-1 if c.wild else colors.index(c.color) for c in ct)
        self._cval = tuple(c.value for c in ct)
        self._canchor = tuple(c.anchor for c in ct)
        self._cname = tuple(c.name for c in ct)
        self._rship = tuple(r.is_ship for r in routes)
        self._rpaired = tuple(r.paired for r in routes)
        # route colour: index into colors, -1 gray, -2 a colour no card has
        self._rcol = tuple(
            -1 if r.color == "gray" else (colors.index(r.color) if r.color in colors else -2) for r in routes
        )
        # Route classes: routes of one class have the same payments.  Class
        # order: unpaired train classes, paired classes, ship classes; a class
        # key is (colour index or -1 gray or -2 no card's colour, length), and
        # sorting the keys puts a part's classes in the order _part_counts
        # lays them out: colour -2, -1, then 0..5, each by length.
        self._rs_M = max([r.length for r in routes] + [1])  # counts above this cannot matter
        rcol = self._rcol
        tkeys = sorted({(rcol[i], r.length) for i, r in enumerate(routes) if not r.is_ship and not r.paired})
        pkeys = sorted({r.length for r in routes if r.paired})
        skeys = sorted({(rcol[i], r.length) for i, r in enumerate(routes) if r.is_ship})
        self._rs_pkeys = tuple(pkeys)
        class_of = []
        for i, r in enumerate(routes):
            if r.paired:
                class_of.append(len(tkeys) + pkeys.index(r.length))
            elif r.is_ship:
                class_of.append(len(tkeys) + len(pkeys) + skeys.index((rcol[i], r.length)))
            else:
                class_of.append(tkeys.index((rcol[i], r.length)))
        self._rs_class_of = tuple(class_of)
        # per part (0 trains, 2 ships) and colour (-2, -1, 0..5): the class lengths
        self._rs_lens = {
            part: {c: tuple(L for col, L in keys if col == c) for c in range(-2, NC)}
            for part, keys in ((0, tkeys), (2, skeys))
        }
        self._rs_ntrain = len(tkeys)
        # per class, the bitmask of its routes (ship classes also on their own)
        cmask = [0] * (len(tkeys) + len(pkeys) + len(skeys))
        for ri, ci in enumerate(class_of):
            cmask[ci] |= 1 << ri
        self._rs_cmask = tuple(cmask)
        # per part and colour (-2, -1, 0..5): the route bitmasks of the colour's classes, by length
        nt, npk = len(tkeys), len(pkeys)
        self._rs_segmasks = {
            part: {c: tuple(cmask[base + k] for k, (col, _) in enumerate(keys) if col == c) for c in range(-2, NC)}
            for part, keys, base in ((0, tkeys, 0), (2, skeys, nt + npk))
        }
        self._rs_pmasks = self._rs_cmask[nt : nt + npk]
        self._rs_paired_mask = sum(1 << i for i, r in enumerate(routes) if r.paired)
        self._rs_nbytes = (len(routes) + 7) // 8
        self._rs_pzeros = (0,) * len(pkeys)
        # caches of derived data, bounded, shared by every edition of this map (see core.caches):
        caches = cache_group(
            ("rails_and_sails payments", self.map.digest),
            {
                "train": _CACHE_LIMIT,
                "ship": _CACHE_LIMIT,
                "colour": _CACHE_LIMIT,
                "segments": 400,
                "claims": _CACHE_LIMIT,
            },
        )
        # (train cards, wilds, trains) -> see _train_class_counts
        self._rs_tcache = caches["train"]
        # (ship cards, wilds, ships) -> (ship class counts, bitmask of their routes)
        self._rs_scache = caches["ship"]
        # one colour's share of a part's class counts, by (part, colour, x, y, wilds, pieces) ...
        self._rs_ccache = caches["colour"]
        # ... and the same by (part, wilds, pieces), then in a list at 100 * (colour + 2) + 10 * x + y
        self._rs_segtab = caches["segments"]
        # (route, the hand's cards that can pay for it) -> its claims (see claim_options)
        self._rs_claims = caches["claims"]

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
        return groups

    def _colour_seg(
        self, part: int, c: int, x: int, y: int, w: int, lim: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Colour ``c``'s share of one part's class counts (part 0: train
        classes, ``x``/``y`` plain/anchor train cards; part 2: ship classes,
        ``x``/``y`` single/double ship cards), cached per edition: the counts
        of the colour's own classes (with the all-wild payment) and the
        payments it adds to each gray class (with a card of the colour).
        ``c`` = -2 (no card's colour) and -1 (gray) give the all-wild counts."""
        key = (part, c, x, y, w, lim)
        v = self._rs_ccache.get(key)
        if v is None:
            count = _train_count if part == 0 else _ship_count
            lens = self._rs_lens[part]
            own = tuple(
                (count(x, y, w, L) if c >= 0 and x + y else 0) + (1 if w >= L else 0) if lim >= L else 0
                for L in lens[c]
            )
            gray = tuple(count(x, y, w, L) if lim >= L and c >= 0 and x + y else 0 for L in lens[-1])
            if len(self._rs_ccache) > _CACHE_LIMIT:
                self._rs_ccache.clear()
            v = self._rs_ccache[key] = (own, gray)
        return v

    def _part_counts(self, part: int, cards: tuple[int, ...], w: int, lim: int) -> tuple[tuple[int, ...], int]:
        """Class counts of one part, in class order: the classes of no card's
        colour, gray, then colours 0..5 (each by length); with the bitmask of
        the routes of the classes that have payments."""
        tab = self._rs_segtab.get((part, w, lim))
        if tab is None:
            if len(self._rs_segtab) > 200:
                self._rs_segtab.clear()
            tab = self._rs_segtab[(part, w, lim)] = [None] * (100 * (NC + 2))
        seg = tab[0] or self._seg(tab, part, -2, 0, 0, w, lim, 0)
        parts: list[tuple[int, ...]] = [seg[0], ()]
        m = seg[2]
        seg = tab[100] or self._seg(tab, part, -1, 0, 0, w, lim, 100)
        shares = [seg[0]]
        m |= seg[2]
        i = 200
        for c in range(NC):
            x = cards[c]
            y = cards[NC + c]
            if x or y:
                if x > 9:
                    x = 9
                if y > 9:
                    y = 9
                j = i + 10 * x + y
                own, gray, om, gm = tab[j] or self._seg(tab, part, c, x, y, w, lim, j)
                parts.append(own)
                shares.append(gray)
                m |= om | gm
            else:
                seg = tab[i] or self._seg(tab, part, c, 0, 0, w, lim, i)
                parts.append(seg[0])
                m |= seg[2]
            i += 100
        parts[1] = tuple(map(sum, zip(*shares))) if len(shares) > 1 else shares[0]
        return sum(parts, ()), m

    def _seg(self, tab: list[Any], part: int, c: int, x: int, y: int, w: int, lim: int, j: int) -> Any:
        """Colour ``c``'s segment (see :meth:`_colour_seg`) with the bitmasks
        of the routes of its own and of the gray classes it can pay for."""
        own, gray = self._colour_seg(part, c, x, y, w, lim)
        masks = self._rs_segmasks[part]
        om = reduce(or_, compress(masks[c], own), 0)
        gm = reduce(or_, compress(masks[-1], gray), 0)
        v = tab[j] = (own, gray, om, gm)
        return v

    def _train_class_counts(self, cards: tuple[int, ...], w: int, tl: int) -> tuple[Any, ...]:
        """The train part of the class counts for these train cards (plain
        then anchor, by colour), wilds and trains in supply, as the cache
        entry ``(counts, counts with the paired classes' (or None), bitmask
        of the routes of the classes with payments, the same with paired)``."""
        cache = self._rs_tcache
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        counts, m = self._part_counts(0, cards, w, tl)
        out = cache[(cards, w, tl)] = (counts + self._rs_pzeros, None, m, None)
        return out

    def _add_paired(self, entry: tuple[Any, ...], cards: tuple[int, ...], w: int, tl: int) -> tuple[Any, ...]:
        """Complete a train-part cache entry with the paired route classes."""
        pkeys = self._rs_pkeys
        top = pkeys[-1] if tl > pkeys[-1] else tl
        if top > 0:
            vec = _paired_counts(cards[:NC], cards[NC:], w, 2 * top)
            paired = tuple([vec[L] if top >= L else 0 for L in pkeys])
        else:
            paired = self._rs_pzeros
        out = self._rs_tcache[(cards, w, tl)] = (
            entry[0],
            entry[0][: self._rs_ntrain] + paired,
            entry[2],
            entry[2] | reduce(or_, compress(self._rs_pmasks, paired), 0),
        )
        return out

    def _ship_class_counts(self, cards: tuple[int, ...], w: int, sl: int) -> tuple[Any, ...]:
        """The ship part of the class counts (single then double ship cards,
        by colour) as the cache entry ``(counts, bitmask of the routes of the
        classes with payments)``."""
        cache = self._rs_scache
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        out = cache[(cards, w, sl)] = self._part_counts(2, cards, w, sl)
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
        return [ClaimRoute(rid, cards, label) for cards in pays]

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
