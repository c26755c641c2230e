"""Route classes of Rails & Sails payments (rule B4): the tables and the cached counts.

Used by :mod:`.payments` to list claims fast.  Routes of one *class* (kind,
colour, length) have the same payments, so payments are counted per class
from the hand's counts (one part for train cards, one for ship cards) and
cached per edition, each entry with the bitmask of the routes of the classes
it can pay for; the caches are bounded and shared by the editions of one map
(see :mod:`ttr_lab.engine.rules.caches`).

:class:`RouteClasses`, the mixin :class:`~.payments.RSPayments` builds on,
builds the per-edition tables (card kinds, colours and values; route kinds
and colours; the classes, their lengths and route bitmasks) and counts a
part's payments per class (``_train_class_counts``, ``_add_paired``,
``_ship_class_counts``).
"""

from __future__ import annotations

from functools import reduce
from itertools import compress
from operator import or_
from typing import Any

from ...engine.rules import Edition
from ...engine.rules.caches import cache_group
from .cards import NC
from .counting import _paired_counts, _ship_count, _train_count

__all__ = ["RouteClasses"]

# entries per cache at most, shared by the editions of one map; the bytes all the shared caches
# hold together are bounded too (core.caches.cache_budget), which binds first.  A full cache
# (len(cache) >= cache.cap) asks for room first: cache.make_room()
_CACHE_LIMIT = 15_000


class RouteClasses(Edition):
    """Mixin: the route-class tables and class counts of the Rails & Sails claim engine."""

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
                "segments": 200,
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
            cache = self._rs_ccache
            if len(cache) >= cache.cap:
                cache.make_room()
            v = cache[key] = (own, gray)
        return v

    def _part_counts(self, part: int, cards: tuple[int, ...], w: int, lim: int) -> tuple[tuple[int, ...], int]:
        """Class counts of one part, in class order: the classes of no card's
        colour, gray, then colours 0..5 (each by length); with the bitmask of
        the routes of the classes that have payments."""
        tab = self._rs_segtab.get((part, w, lim))
        if tab is None:
            tab = self._rs_segtab.put((part, w, lim), [None] * (100 * (NC + 2)))  # filled in by _seg
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
        if len(cache) >= cache.cap:
            cache.make_room()
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
        full = (
            entry[0],
            entry[0][: self._rs_ntrain] + paired,
            entry[2],
            entry[2] | reduce(or_, compress(self._rs_pmasks, paired), 0),
        )
        self._rs_tcache[(cards, w, tl)] = full  # replaces the entry: no room needed
        return full

    def _ship_class_counts(self, cards: tuple[int, ...], w: int, sl: int) -> tuple[Any, ...]:
        """The ship part of the class counts (single then double ship cards,
        by colour) as the cache entry ``(counts, bitmask of the routes of the
        classes with payments)``."""
        cache = self._rs_scache
        if len(cache) >= cache.cap:
            cache.make_room()
        out = cache[(cards, w, sl)] = self._part_counts(2, cards, w, sl)
        return out
