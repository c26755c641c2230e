"""Routes (rule A4): who owns each, who may claim one, and the free-route cache.

Who may claim a route is one hook, :meth:`Routes.double_rule` (rule A4's
double routes): an edition closing routes its own way (a blocked route, a
house rule) overrides it, and every part of the engine asks it: the legal
moves (:meth:`~ttr_lab.engine.rules.claiming.Claiming.claim_groups`), ``why_illegal``,
``route_open_to``, :meth:`Routes.open_routes` and the bots.

Position fields: ``_owners`` (a seat per route, -1 unclaimed; changed only by
:meth:`Routes.set_owner`) and the derived ``_free`` (per route class, the
unclaimed routes the base double-route rule leaves to someone): the engine's
cache, recomputed by :meth:`Routes.derive` and kept in step by
:meth:`Routes.mark_taken` when :meth:`Routes.set_owner` gives a route away;
no rule writes it.  Routes are grouped in classes (colour, length, wilds
required) for the claim generation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Field
from .decks import R_CLAIM
from .drawing import Drawing

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Routes"]


class Routes(Drawing):
    """Route owners, the double-route rule and the free-route cache."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_owners", "", lambda ed, n: tuple(-1 for _ in ed.routes)),
        Field("_free", "", lambda ed, n: (), derived=True),
    )

    _color_card: dict[str, int]
    _route_color: tuple[int | None, ...]
    _route_classes: tuple[tuple[int | None, int, int, tuple[int, ...]], ...]
    _route_class_of: tuple[int, ...]
    #: whether this edition's rules change :meth:`double_rule` (then the claim
    #: generation asks it for every route the base rule leaves open)
    custom_double_rule: bool

    def route_min_wilds(self, ri: int) -> int:
        """Wilds every payment of route index ``ri`` must include (0; a ferry's locomotive spaces in Europe).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.route_min_wilds(0)
        0
        """
        return 0

    def _build_tables(self) -> None:
        super()._build_tables()
        self._color_card = {ct.color: i for i, ct in enumerate(self.card_types) if ct.color and ct.kind == "train"}
        self._route_color = tuple(None if r.color == "gray" else self._color_card.get(r.color) for r in self.routes)
        classes: dict[tuple[int | None, int, int], list[int]] = {}
        for i, r in enumerate(self.routes):
            classes.setdefault((self._route_color[i], r.length, self.route_min_wilds(i)), []).append(i)
        # shortest first, so the scan can stop at the first length out of reach
        self._route_classes = tuple(
            (color, L, m, tuple(members))
            for (color, L, m), members in sorted(
                classes.items(), key=lambda kv: (kv[0][1], kv[0][0] is None, kv[0][0] or 0, kv[0][2])
            )
        )
        class_of = [0] * len(self.routes)
        for ci, (*_, members) in enumerate(self._route_classes):
            for ri in members:
                class_of[ri] = ci
        self._route_class_of = tuple(class_of)
        self.custom_double_rule = type(self).double_rule is not Routes.double_rule

    # --------------------------------------------------------------- derived: free routes
    def derive(self, s: GameState) -> None:
        """Recompute the derived fields from the position (the engine calls it
        when a position is built or loaded; each rule extends it for its own).

        Here ``_free``: per route class, the routes the base double-route rule
        leaves to someone (unclaimed, and with few players not the other side
        of a claimed double).  An edition's own :meth:`double_rule` is asked on
        top of it (:meth:`claim_groups`, :meth:`open_routes`), never folded in.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> before = g._free
        >>> g.edition.derive(g)
        >>> g._free == before
        True
        """
        super().derive(s)
        owners = s._owners
        partner = self.route_partner
        close = s.n < self.double_route_min_players
        s._free = tuple(
            tuple(
                ri for ri in members if owners[ri] < 0 and not (close and partner[ri] >= 0 and owners[partner[ri]] >= 0)
            )
            for *_, members in self._route_classes
        )

    def mark_taken(self, s: GameState, ri: int) -> None:
        """Keep the derived fields in step after route index ``ri`` changed
        owner (called by :meth:`set_owner`, the owner already set): the
        incremental form of :meth:`derive`, which a rule with derived fields
        of its own extends (``super().mark_taken(s, ri)`` first).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_owner(g, 0, 1)    # calls mark_taken
        >>> any(0 in members for members in g._free)
        False
        """
        cls = self._route_class_of
        gone = [ri]
        pr = self.route_partner[ri]
        if pr >= 0 and s.n < self.double_route_min_players:
            gone.append(pr)
        free = list(s._free)
        for r in gone:
            ci = cls[r]
            free[ci] = tuple(x for x in free[ci] if x != r)
        s._free = tuple(free)

    def set_owner(self, s: GameState, ri: int, p: int) -> None:
        """Give route index ``ri`` to seat ``p``: the one place ``_owners``
        changes in play; the derived fields follow (:meth:`mark_taken`).
        :meth:`complete_claim` calls it; a rule that gives routes away its
        own way calls it too, never writing ``_owners`` itself.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_owner(g, 0, 1)
        >>> g.route_owner(g.edition.routes[0].id)
        1
        """
        s._owners = s._owners[:ri] + (p,) + s._owners[ri + 1 :]
        self.mark_taken(s, ri)

    # --------------------------------------------------------------- who may claim
    def double_rule(self, s: GameState, p: int, ri: int) -> tuple[str, str] | None:
        """Why seat ``p`` may not claim route index ``ri`` although it is
        unclaimed, as ``(rule, reason)``; None if it may (cards and pieces
        aside).  The base rule is A4's double routes: nobody owns both routes
        of a double, and with fewer than ``double_route_min_players`` players
        only one of them is used.

        The hook for an edition that closes routes its own way: override it
        (calling ``super()``), and the legal moves, ``why_illegal``,
        ``route_open_to``, :meth:`open_routes` and the bots all follow.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_owner(g, 3, 1)            # route 4, Atlanta-New Orleans, a double
        >>> g.edition.double_rule(g, 0, 4)          # its twin, route 5, with 2 players
        ('A4', 'with 2 players only one route of a double route is used, and the other is claimed')
        """
        partner = self.route_partner[ri]
        if partner >= 0:
            po = s._owners[partner]
            if po >= 0 and s.n < self.double_route_min_players:
                other = "this player owns the other" if po == p else "the other is claimed"
                return (R_CLAIM, f"with {s.n} players only one route of a double route is used, and {other}")
            if po == p:
                return (R_CLAIM, "no player may own both routes of a double route")
        return None

    def open_routes(self, s: GameState) -> list[int]:
        """Indices of the routes some seat may still claim, in route order:
        unclaimed, and :meth:`double_rule` (as this edition has it) lets at
        least one seat claim them (cards and pieces aside).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_owner(g, 3, 1)            # route 4, a double: with 2 players its twin goes too
        >>> g.edition.open_routes(g)[:5]
        [0, 1, 2, 5, 6]
        """
        free = sorted(ri for members in s._free for ri in members)
        if self.custom_double_rule:
            rule, seats = self.double_rule, range(s.n)
            free = [ri for ri in free if any(rule(s, p, ri) is None for p in seats)]
        return free
