"""Claiming a route (rule A4): who may claim what, and how to pay.

The basic payment is exactly L cards of one colour (the route's, or any
colour on a gray route), wilds standing in for any card.  Editions change it
by overriding :meth:`Claiming.check_payment` and :meth:`Claiming.route_min_wilds`
(Europe's ferries), or the whole claim engine (Rails & Sails).

Position fields: ``_owners`` (a seat per route, -1 unclaimed), ``_pieces``
(pieces in supply per seat), ``_scores`` (running scores) and the derived
``_free`` (per route class, the routes still claimable by someone).
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
        Field("_free", "", lambda ed, n: ()),
        Field("_pieces", "", lambda ed, n: tuple(ed.pieces for _ in range(n))),
        Field("_scores", "", lambda ed, n: tuple(0 for _ in range(n))),
    )
    moves = {ClaimRoute: ("check_claim", "apply_claim")}
    turn_actions = {"claim_groups": ClaimRoute.rank}

    _color_card: dict[str, int]
    _route_color: tuple[int | None, ...]
    _route_classes: tuple[tuple[int | None, int, int, tuple[int, ...]], ...]
    _route_class_of: tuple[int, ...]

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

    # --------------------------------------------------------------- derived: free routes
    def derive(self, s: GameState) -> None:
        """``_free``: per route class, the routes someone can still claim
        (unclaimed, and with few players not the other side of a claimed double)."""
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
        """Keep ``_free`` up to date after route index ``ri`` is claimed."""
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

    # --------------------------------------------------------------- who may claim
    def double_rule(self, s: GameState, p: int, ri: int) -> tuple[str, str] | None:
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
        s._owners = s._owners[:ri] + (p,) + s._owners[ri + 1 :]
        self.mark_taken(s, ri)
        self.use_pieces(s, p, ri, L)
        self.add_score(s, p, self.route_points[L])
        s._passes = 0
        self.end_turn(s)
