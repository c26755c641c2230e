"""Claiming a route (rule A4): who may claim what, and how to pay.

The basic payment is exactly L cards of one colour (the route's, or any
colour on a gray route), wilds standing in for any card.  Editions change it
by overriding :meth:`Claiming.check_payment` and :meth:`Claiming.route_min_wilds`
(Europe's ferries), or the whole claim engine (Rails & Sails).

Who may claim a route is one hook, :meth:`Claiming.double_rule` (rule A4's
double routes): an edition closing routes its own way (a blocked route, a
house rule) overrides it, and every part of the engine asks it: the legal
moves, ``why_illegal``, ``route_open_to`` and :meth:`Claiming.open_routes`.

Position fields: ``_owners`` (a seat per route, -1 unclaimed; changed only by
:meth:`Claiming.set_owner`), ``_pieces`` (pieces in supply per seat),
``_scores`` (running scores) and the derived ``_free`` (per route class, the
unclaimed routes the base double-route rule leaves to someone): the
engine's cache, recomputed by :meth:`Claiming.derive` and kept in step by
:meth:`Claiming.mark_taken` when :meth:`Claiming.set_owner` gives a route
away; no rule writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import basic_payment_options
from ..moves import ClaimRoute, Move
from ..phases import Phase
from .base import Field
from .decks import R_CLAIM
from .drawing import Drawing

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Claiming"]

_TURN = int(Phase.TURN)


class Claiming(Drawing):
    """Claimable routes, the double-route rule, payments and their effect."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_owners", "", lambda ed, n: tuple(-1 for _ in ed.routes)),
        Field("_free", "", lambda ed, n: (), derived=True),
        Field("_pieces", "", lambda ed, n: tuple(ed.pieces for _ in range(n))),
        Field("_scores", "", lambda ed, n: tuple(0 for _ in range(n))),
    )
    moves = {ClaimRoute: ("check_claim", "apply_claim")}
    turn_actions = {"claim_groups": ClaimRoute.rank}

    _color_card: dict[str, int]
    _route_color: tuple[int | None, ...]
    _route_classes: tuple[tuple[int | None, int, int, tuple[int, ...]], ...]
    _route_class_of: tuple[int, ...]
    #: whether this edition's rules change :meth:`double_rule` (then the claim
    #: generation asks it for every route the base rule leaves open)
    custom_double_rule: bool

    def route_min_wilds(self, ri: int) -> int:
        """Wilds every payment of route index ``ri`` must include (0; a ferry's locomotive spaces in Europe)."""
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
        self.custom_double_rule = type(self).double_rule is not Claiming.double_rule

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

    def pieces_for_route(self, s: GameState, p: int, ri: int) -> int:
        """The pieces ``p`` has for route index ``ri`` (trains; ships on ship routes)."""
        return int(s._pieces[p])

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

    def claimable(self, s: GameState, p: int, ri: int) -> tuple[str, str] | None:
        """Why route index ``ri`` cannot be claimed by ``p`` now, ignoring cards."""
        if s._owners[ri] >= 0:
            return (R_CLAIM, f"route {self.routes[ri].id} ({self.route_labels[ri]}) is already claimed")
        why = self.double_rule(s, p, ri)
        if why:
            return why
        have = self.pieces_for_route(s, p, ri)
        if have < self.route_length[ri]:
            return (R_CLAIM, f"not enough pieces: route needs {self.route_length[ri]}, player has {have}")
        return None

    # --------------------------------------------------------------- legal claims
    def claim_groups(self, s: GameState) -> list[Any]:
        """One group per claimable route, its size the number of payments.

        Routes are visited by (colour, length) class, so a class the hand
        cannot pay for is skipped whole; the groups are then put in route-id
        order so the legal moves come out sorted.
        """
        p = s._cur
        hand = s._hands[p]
        wild_idx = self.wild_cards[0]
        wilds = hand[wild_idx]
        counts = hand[:wild_idx]
        total = wilds + sum(counts)
        limit = min(total, s._pieces[p])
        owners = s._owners
        partner = self.route_partner
        found = []
        build = self._claim_builder(s)
        for (color, L, m, _), members in zip(self._route_classes, s._free):
            if limit < L:
                break
            if not members:
                continue
            if color is None:
                n = 1 if wilds >= L else 0
                top = wilds if wilds < L else L - 1
                for c in counts:
                    if c:
                        lo = L - c if c < L else 0
                        if lo < m:
                            lo = m
                        if top >= lo:
                            n += top - lo + 1
            else:
                c = counts[color]
                if c + wilds < L:
                    continue
                top = wilds if wilds < L else L - 1
                lo = L - c if c < L else 0
                if lo < m:
                    lo = m
                n = (1 if wilds >= L else 0) + (top - lo + 1 if top >= lo else 0)
            if not n:
                continue
            for ri in members:
                pr = partner[ri]
                if pr >= 0 and owners[pr] == p:
                    continue  # no player may own both routes of a double
                found.append((ri, n))
        if self.custom_double_rule:  # the edition's own rule decides (the cache knows the base rule only)
            rule = self.double_rule
            found = [(ri, n) for ri, n in found if rule(s, p, ri) is None]
        found.sort()
        return [(n, build, ri) for ri, n in found]

    def _claim_builder(self, s: GameState) -> Any:
        hand = s._hands[s._cur]
        return lambda ri: self.claim_options(hand, ri)

    def claim_options(self, hand: tuple[int, ...], ri: int) -> list[Move]:
        """Every payment of route index ``ri`` from ``hand``, as sorted moves."""
        wild_idx = self.wild_cards[0]
        names = self.card_types
        route = self.routes[ri]
        label = self.route_labels[ri]
        out: list[Move] = []
        wname = names[wild_idx].name
        for color, k, w in basic_payment_options(
            color=self._route_color[ri],
            length=route.length,
            counts=hand[:wild_idx],
            wilds=hand[wild_idx],
            min_wilds=self.route_min_wilds(ri),
        ):
            cards = []
            if color is not None:
                cards.append((names[color].name, k))
            if w:
                cards.append((wname, w))
            cards.sort()
            out.append(ClaimRoute._unchecked(route.id, tuple(cards), label))
        out.sort()
        return out

    # --------------------------------------------------------------- checks
    def check_claim(self, s: GameState, move: ClaimRoute) -> tuple[str, str] | None:
        if s._phase != _TURN:
            return self.phase_error(s)
        ri = self.route_index.get(move.route)
        if ri is None:
            return (R_CLAIM, f"there is no route {move.route} on the {self.map.id} map")
        if move.label and move.label != self.route_labels[ri]:
            r = self.routes[ri]
            if move.label != f"{r.b}-{r.a}":
                return ("notation", f"route {r.id} is {self.route_labels[ri]}, not {move.label[:60]!r}")
        why = self.claimable(s, s._cur, ri)
        if why:
            return why
        cards = self.hand_cards(s, move.cards, R_CLAIM)
        if isinstance(cards, tuple):
            return cards  # (rule, reason)
        if not cards:
            return (R_CLAIM, "a claim needs cards")
        return self.check_payment(s, ri, cards)

    def check_payment(self, s: GameState, ri: int, cards: list[tuple[int, int]]) -> tuple[str, str] | None:
        """Basic payment (A4): exactly L cards, one colour (the route's), wilds stand in."""
        route = self.routes[ri]
        n = sum(k for _, k in cards)
        colors = {c for c, _ in cards if not self._wild[c]}
        if len(colors) > 1:
            return (R_CLAIM, "mixed colours: every non-wild card must be of one colour")
        if n != route.length:
            return (R_CLAIM, f"must pay exactly {route.length} cards, not {n}")
        want = self._route_color[ri]
        if colors and want is not None and colors != {want}:
            return (
                R_CLAIM,
                f"a {route.color} route takes {route.color} cards (and wilds), not {self.card_name(colors.pop())}",
            )
        return None

    # --------------------------------------------------------------- effects
    def apply_claim(self, s: GameState, move: ClaimRoute) -> None:
        self.pay(s, self.card_ids(move.cards))
        self.complete_claim(s, self.route_index[move.route])

    def use_pieces(self, s: GameState, p: int, ri: int, n: int) -> None:
        s._pieces = s._pieces[:p] + (s._pieces[p] - n,) + s._pieces[p + 1 :]

    def add_score(self, s: GameState, p: int, points: int) -> None:
        s._scores = s._scores[:p] + (s._scores[p] + points,) + s._scores[p + 1 :]

    def complete_claim(self, s: GameState, ri: int) -> None:
        p = s._cur
        L = self.route_length[ri]
        self.set_owner(s, ri, p)
        self.use_pieces(s, p, ri, L)
        self.add_score(s, p, self.route_points[L])
        self.action_done(s)
