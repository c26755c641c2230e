"""The allocation of one hand to some routes (:class:`_Allocator`), which
:func:`ttr_lab.analysis.card_plans.plan_cards` reports.  The model is described
in :mod:`ttr_lab.analysis.card_plans`.

In order: cards of a route's own colour go to the coloured routes; the
colour of each gray route is chosen by an exhaustive search memoised over
the multiset of leftover colour counts (:meth:`_Allocator.gray_colors`);
paired routes take the leftover pairs, then single cards completed by a
wild; wilds cover a ferry's locomotive spaces, then the routes closest to
being claimable.

>>> from ttr_lab.engine.rules import find_edition
>>> usa = find_edition("usa")
>>> rows = _Allocator(usa, {"red": 2, "blue": 1, "loco": 1}, [usa.map.route(1), usa.map.route(2)]).plan()
>>> [(row["r"].id, row["color"], row["cards"] - row["cov"]) for row in rows]
[(1, 'red', 0), (2, 'blue', 3)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.rules import Edition


def _route_kind(r: Any) -> str:
    if r.paired:
        return "paired"
    return str(r.kind)


class _Allocator:
    """The allocation of one hand to some routes (see the module doc)."""

    def __init__(self, ed: Edition, hand: Mapping[str, int], routes: list[Any]) -> None:
        types, index = ed.card_types, ed.card_index
        for name in hand:
            if name not in index:
                raise TtrError(f"unknown card {name!r} in {ed.name} (cards: {', '.join(index)})")
        self.wild_name = types[ed.wild_cards[0]].name
        self.wilds = sum(k for name, k in hand.items() if types[index[name]].wild)
        # per colour: the hand's train cards (plain before anchor) and ship cards [(name, value, count)]
        self.train: dict[str, list[list[Any]]] = {}
        self.ship: dict[str, list[list[Any]]] = {}
        for ct in types:
            k = hand.get(ct.name, 0)
            if ct.wild or not k:
                continue
            pool = self.ship if ct.kind == "ship" else self.train
            pool.setdefault(str(ct.color), []).append([ct.name, ct.value, k])
        for stacks in self.train.values():
            stacks.sort(key=lambda s: (s[0].endswith("anchor"), s[0]))
        for stacks in self.ship.values():
            stacks.sort(key=lambda s: -s[1])  # doubles first: fewer cards
        self.routes = routes

    @staticmethod
    def size(pool: dict[str, list[list[Any]]], color: str) -> int:
        return sum(v * k for _, v, k in pool.get(color, ()))

    @staticmethod
    def take(pool: dict[str, list[list[Any]]], color: str, spaces: int) -> tuple[list[tuple[str, int]], int]:
        """Take cards of ``color`` covering up to ``spaces``; (cards, spaces covered)."""
        got: list[tuple[str, int]] = []
        done = 0
        stacks = pool.get(color, [])
        for st in stacks:  # doubles only while two spaces are left, then singles
            name, v, k = st
            use = min(k, (spaces - done) // v)
            if use:
                st[2] -= use
                got.append((name, use))
                done += use * v
        if done < spaces:  # one space left and only a double-ship card: it covers it (no card superfluous)
            for st in stacks:
                if st[2]:
                    st[2] -= 1
                    got.append((st[0], 1))
                    done = spaces
                    break
        return got, done

    def gray_colors(self, lengths: list[int], pool: dict[str, list[list[Any]]], paired: int) -> list[str | None]:
        """The best colour for each gray route (lengths given), by exhaustive
        search memoised on the sorted leftovers; ``paired`` is the paired
        routes' card demand, served from the leftovers at the leaves."""
        colors = sorted(pool)
        start = tuple(self.size(pool, c) for c in colors)
        wilds = self.wilds
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def leaf(left: tuple[int, ...]) -> int:
            if not paired:
                return 0
            pcov = min(paired, 2 * sum(x // 2 for x in left))
            singles = sum(x % 2 for x in left)
            return pcov + min(singles, (paired - pcov) // 2, wilds)

        def best(i: int, left: tuple[int, ...]) -> int:
            key = (i, tuple(sorted(left)))
            got = memo.get(key)
            if got is None:
                if i == len(lengths):
                    got = leaf(left)
                else:
                    L = lengths[i]
                    got = best(i + 1, left)
                    for j, x in enumerate(left):
                        if x:
                            use = min(L, x)
                            got = max(got, use + best(i + 1, left[:j] + (x - use,) + left[j + 1 :]))
                memo[key] = got
            return got

        out: list[str | None] = []
        left = start
        for i, L in enumerate(lengths):
            target = best(i, left)
            choice = None
            for j, x in enumerate(left):
                use = min(L, x)
                if x and use + best(i + 1, left[:j] + (x - use,) + left[j + 1 :]) == target:
                    choice = j
                    break
            if choice is None:
                out.append(None)
            else:
                out.append(colors[choice])
                x = left[choice]
                left = left[:choice] + (x - min(L, x),) + left[choice + 1 :]
        return out

    def plan(self) -> list[dict[str, Any]]:
        rows = []
        for r in self.routes:
            kind = _route_kind(r)
            cards = 2 * r.length if r.paired else r.length
            rows.append(
                {"r": r, "kind": kind, "color": None, "cards": cards, "req": r.locomotives, "hand": [], "cov": 0}
            )
        # 1. coloured routes take their own colour
        for row in rows:
            r = row["r"]
            if r.color != "gray" and not r.paired:
                pool = self.ship if r.is_ship else self.train
                got, done = self.take(pool, r.color, row["cards"] - row["req"])
                row["hand"] += got
                row["cov"] += done
                row["color"] = r.color
        # 2. gray routes: the best colour each (trains with the paired routes' demand, ships apart)
        paired_rows = [row for row in rows if row["r"].paired]
        paired = sum(row["cards"] for row in paired_rows)
        for ship in (False, True):
            grays = [
                row for row in rows if row["r"].color == "gray" and not row["r"].paired and row["r"].is_ship == ship
            ]
            grays.sort(key=lambda row: -row["cards"])
            pool = self.ship if ship else self.train
            picks = self.gray_colors([row["cards"] - row["req"] for row in grays], pool, 0 if ship else paired)
            for row, color in zip(grays, picks):
                if color is not None:
                    got, done = self.take(pool, color, row["cards"] - row["req"])
                    row["hand"] += got
                    row["cov"] += done
                    row["color"] = color
        # 3. paired routes: leftover pairs, then single cards to be completed by a wild
        for row in paired_rows:
            need = row["cards"] // 2
            for color in sorted(self.train, key=lambda c: -self.size(self.train, c)):
                while need and self.size(self.train, color) >= 2:
                    got, _ = self.take(self.train, color, 2)
                    row["hand"] += got
                    row["cov"] += 2
                    need -= 1
            row["pairs_left"] = need
        wilds = self.wilds
        for row in paired_rows:
            for color in sorted(self.train):
                while row["pairs_left"] and wilds and self.size(self.train, color):
                    got, _ = self.take(self.train, color, 1)
                    row["hand"] += got + [(self.wild_name, 1)]
                    row["cov"] += 2
                    row["pairs_left"] -= 1
                    wilds -= 1
        # 4. wilds: locomotive spaces first, then the routes closest to complete
        for row in rows:
            use = min(wilds, row["req"])
            if use:
                row["hand"].append((self.wild_name, use))
                row["cov"] += use
                wilds -= use
        for row in sorted(rows, key=lambda row: (row["cards"] - row["cov"], row["r"].id)):
            use = min(wilds, row["cards"] - row["cov"])
            if use:
                row["hand"].append((self.wild_name, use))
                row["cov"] += use
                wilds -= use
        return rows
