"""Claiming a route (rule A4): the claims a hand can pay, and their effect.

The basic payment is exactly L cards of one colour (the route's, or any
colour on a gray route), wilds standing in for any card.  Editions change it
by overriding :meth:`Claiming.check_payment` and
:meth:`~ttr_lab.engine.rules.routes.Routes.route_min_wilds` (Europe's ferries), or the
whole claim engine (Rails & Sails).  Who may claim a route, and who owns it,
are :mod:`ttr_lab.engine.rules.routes`'.

Position fields: ``_pieces`` (pieces in supply per seat) and ``_scores``
(running scores), changed through :meth:`Claiming.use_pieces` and
:meth:`Claiming.add_score`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import basic_payment_options
from ..moves import ClaimRoute, Move
from ..phases import Phase
from .base import Field
from .decks import R_CLAIM
from .routes import Routes

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Claiming"]

_TURN = int(Phase.TURN)


class Claiming(Routes):
    """Claimable routes, payments and their effect."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_pieces", "", lambda ed, n: tuple(ed.pieces for _ in range(n))),
        Field("_scores", "", lambda ed, n: tuple(0 for _ in range(n))),
    )
    moves = {ClaimRoute: ("check_claim", "apply_claim")}
    turn_actions = {"claim_groups": ClaimRoute.rank}

    def pieces_for_route(self, s: GameState, p: int, ri: int) -> int:
        """The pieces ``p`` has for route index ``ri`` (trains; ships on ship routes).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.pieces_for_route(g, 0, 0)
        45
        """
        return int(s._pieces[p])

    def claimable(self, s: GameState, p: int, ri: int) -> tuple[str, str] | None:
        """Why route index ``ri`` cannot be claimed by ``p`` now, ignoring cards.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.claimable(g, 0, 0) is None
        True
        >>> ed.set_owner(g, 0, 1)
        >>> ed.claimable(g, 0, 0)
        ('A4', 'route 1 (Atlanta-Charleston) is already claimed')
        """
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

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> n, build, ri = ed.claim_groups(g)[0]
        >>> build(ri)[:n] == ed.claim_options(g.hand_counts(0), ri)
        True
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
            found = self._open_to(s, p, found)
        found.sort()
        return [(n, build, ri) for ri, n in found]

    def _open_to(self, s: GameState, p: int, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
        # apart from claim_groups: a comprehension there would make its locals closure cells (slower reads)
        rule = self.double_rule
        return [(ri, n) for ri, n in found if rule(s, p, ri) is None]

    def _claim_builder(self, s: GameState) -> Any:
        hand = s._hands[s._cur]
        return lambda ri: self.claim_options(hand, ri)

    def claim_options(self, hand: tuple[int, ...], ri: int) -> list[Move]:
        """Every payment of route index ``ri`` from ``hand``, as sorted moves.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> claim = next(m for m in g.legal_moves if m.verb == "claim"); ri = ed.route_index[claim.route]
        >>> ed.claim_options(g.hand_counts(0), ri)[:2]
        [ClaimRoute(route=3, cards=(('green', 1),)), ClaimRoute(route=3, cards=(('red', 1),))]
        """
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
        """Why ``move`` is not a legal claim now, or None (A4): the phase, the route, :meth:`claimable`, the cards in hand and :meth:`check_payment`.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> claim = next(m for m in g.legal_moves if m.verb == "claim"); ri = ed.route_index[claim.route]
        >>> ed.check_claim(g, claim) is None
        True
        >>> ed.check_claim(g, ttr_lab.ClaimRoute(claim.route, ()))
        ('A4', 'a claim needs cards')
        """
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
        """Basic payment (A4): exactly L cards, one colour (the route's), wilds stand in.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> claim = next(m for m in g.legal_moves if m.verb == "claim"); ri = ed.route_index[claim.route]
        >>> ed.check_payment(g, ri, ed.card_ids(claim.cards)) is None
        True
        """
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
        """Claim: pay the cards, then :meth:`complete_claim`.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> claim = next(m for m in g.legal_moves if m.verb == "claim"); ri = ed.route_index[claim.route]
        >>> ed.apply_claim(g, claim)
        >>> g.route_owner(claim.route), g.current_player
        (0, 1)
        """
        self.pay(s, self.card_ids(move.cards))
        self.complete_claim(s, self.route_index[move.route])

    def use_pieces(self, s: GameState, p: int, ri: int, n: int) -> None:
        """Take ``n`` pieces from seat ``p``'s supply for route index ``ri`` (Rails & Sails: trains or ships, by the route).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.use_pieces(g, 0, 0, 2)
        >>> g.pieces(0)
        43
        """
        s._pieces = s._pieces[:p] + (s._pieces[p] - n,) + s._pieces[p + 1 :]

    def add_score(self, s: GameState, p: int, points: int) -> None:
        """Add ``points`` to seat ``p``'s running score.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.add_score(g, 1, 4)
        >>> g.scores
        (0, 4)
        """
        s._scores = s._scores[:p] + (s._scores[p] + points,) + s._scores[p + 1 :]

    def complete_claim(self, s: GameState, ri: int) -> None:
        """The claim of route index ``ri`` is paid: the current player owns it (:meth:`set_owner`), places its pieces and scores it, and the action is done.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.complete_claim(g, 0)
        >>> g.routes_of(0), g.pieces(0), g.score(0), g.current_player
        ((1,), 43, 2, 1)
        """
        p = s._cur
        L = self.route_length[ri]
        self.set_owner(s, ri, p)
        self.use_pieces(s, p, ri, L)
        self.add_score(s, p, self.route_points[L])
        self.action_done(s)
