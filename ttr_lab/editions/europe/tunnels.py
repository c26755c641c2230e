"""Tunnels (rule B3): a claim that may cost more once the deck has spoken.

The claim move pays ``C``; three cards are turned up from the deck (fewer if
deck and discard hold fewer).  Each that is a locomotive, or of ``C``'s
colour, asks for one more such card (locomotives only, if ``C`` was all
locomotives).  If none match, the claim succeeds at once.  Otherwise the
phase becomes ``TUNNEL``: ``C`` stays reserved in the hand, the reveal is
public (:attr:`TunnelClaim`), and the player answers ``tunnel pay ...`` or
``tunnel decline`` (the cards go back to the hand, the turn ends).  Either
way the revealed cards are discarded.  Undo goes back before the reveal
without re-rolling.

Position field: ``_tunnel``: ``()`` or ``(route index, payment, revealed,
extra, colour card)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.moves import (
    CardList,
    ClaimRoute,
    Move,
    card_list_problem,
    cards_from_text,
    cards_in_words,
    cards_to_text,
)
from ...engine.phases import Phase, register_phase
from ...engine.rules import Edition, Field, Rebuild, Table
from ...engine.rules.accessors import Accessors
from ...errors import TtrError
from .ferries import R_EUROPE

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["Tunnels", "TunnelAccessors", "TunnelClaim", "PayTunnel", "DeclineTunnel", "TUNNEL"]

TUNNEL = register_phase(
    "TUNNEL",
    4,
    "the current player pays a tunnel's extra cards or declines",
    busy="a tunnel claim is under way; expected to pay or decline",
)
_TURN, _TUNNEL = int(Phase.TURN), int(TUNNEL)


@dataclass(frozen=True, slots=True, repr=False)
class PayTunnel(Move):
    """Pay the extra cards a tunnel asks for (Europe)."""

    cards: CardList
    verb: ClassVar[str] = "tunnel"
    rank: ClassVar[float] = 6

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if len(args) >= 2 and args[0] == "pay":
            return cls(cards_from_text(args[1:], text))
        return None

    def problem(self) -> str | None:
        return card_list_problem(self.cards)

    def _fields(self) -> tuple[Any, ...]:
        return (self.cards,)

    def __str__(self) -> str:
        return f"tunnel pay {cards_to_text(self.cards)}"

    def describe(self, state: GameState) -> str:
        return f"pay the tunnel's extra {cards_in_words(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class DeclineTunnel(Move):
    """Decline a tunnel's extra cards: the claim fails, the turn ends (Europe)."""

    verb: ClassVar[str] = "tunnel"
    rank: ClassVar[float] = 7

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        return cls() if args == ["decline"] else None

    def __str__(self) -> str:
        return "tunnel decline"

    def describe(self, state: GameState) -> str:
        return "decline the tunnel (take the cards back)"


@dataclass(frozen=True)
class TunnelClaim:
    """A tunnel claim waiting for the player's answer (public information).

    ``paid`` is the payment of the claim move (still in the hand, reserved),
    ``revealed`` the cards turned up, ``extra`` how many more cards of
    ``color`` (or locomotives) are needed; ``color`` is the locomotive card's
    name when the claim was paid with locomotives only.
    """

    route: int
    paid: CardList
    revealed: tuple[str, ...]
    extra: int
    color: str


def _identity(moves: list[Move]) -> list[Move]:
    return moves


def _dump_tunnel(ed: Any, v: tuple[Any, ...]) -> Any:
    if not v:
        return None
    return {
        "route": ed.routes[v[0]].id,
        "paid": {ed.card_name(c): k for c, k in v[1]},
        "revealed": [ed.card_name(c) for c in v[2]],
    }


def _load_tunnel(ed: Any, n: int, data: Any) -> tuple[Any, ...]:
    if data is None:
        return ()
    if not isinstance(data, dict) or set(data) != {"route", "paid", "revealed"}:
        raise TtrError("expected null or {route, paid, revealed}")
    index = ed.card_index
    rid = data["route"]
    if type(rid) is not int or rid not in ed.route_index:
        raise TtrError(f"unknown route {str(rid)[:40]!r}")
    ri = ed.route_index[rid]
    if not ed._is_tunnel[ri]:
        raise TtrError(f"route {rid} is not a tunnel")
    paid, revealed = data["paid"], data["revealed"]
    if not isinstance(paid, dict) or not all(
        isinstance(nm, str) and nm in index and type(k) is int and 0 < k <= ed.total_cards for nm, k in paid.items()
    ):
        raise TtrError("paid: expected {card name: count}")
    if (
        not isinstance(revealed, list)
        or not all(isinstance(nm, str) and nm in index for nm in revealed)
        or not 1 <= len(revealed) <= 3
    ):
        raise TtrError("revealed: expected 1 to 3 card names")
    pay = tuple(sorted((index[nm], k) for nm, k in paid.items()))
    colors = [c for c, _ in pay if not ed._wild[c]]
    if len(set(colors)) > 1:
        raise TtrError("paid: mixed colours")
    x = colors[0] if colors else ed.wild_cards[0]
    shown = tuple(index[nm] for nm in revealed)
    extra = sum(1 for c in shown if ed._wild[c] or c == x)
    if not extra:
        raise TtrError("nothing revealed matches, so no tunnel decision is due")
    return (ri, pay, shown, extra, x)


class TunnelAccessors(Accessors):
    """A pending tunnel claim, asked of a game or a view (public: the reveal is turned up).

    >>> import ttr_lab
    >>> print(ttr_lab.new_game("europe", players=2, seed=1).view(0).ext.tunnel)
    None
    """

    __slots__ = ()

    @property
    def tunnel(self) -> TunnelClaim | None:
        """The pending tunnel claim (phase ``TUNNEL``), else ``None`` (also ``game.tunnel``)."""
        return cast(Tunnels, self.state.edition).tunnel(self.state)


class Tunnels(Edition):
    """Mixin: tunnel routes, the reveal and the ``TUNNEL`` decision."""

    route_kinds = frozenset({"train", "tunnel"})
    moves = {PayTunnel: ("check_pay_tunnel", "apply_pay_tunnel"), DeclineTunnel: ("check_decline", "apply_decline")}
    phases = {TUNNEL: "tunnel_groups"}
    fields: ClassVar[tuple[Field, ...]] = (
        Field("_tunnel", "tunnel", lambda ed, n: (), _dump_tunnel, _load_tunnel, from_view="tunnel_from_view"),
    )
    accessors = TunnelAccessors
    controls = ("tunnel",)

    _is_tunnel: tuple[bool, ...]

    def _build_tables(self) -> None:
        super()._build_tables()
        self._is_tunnel = tuple(r.kind == "tunnel" for r in self.routes)

    # ------------------------------------------------------------------ public read API
    def tunnel(self, s: GameState) -> TunnelClaim | None:
        """The pending tunnel claim (phase ``TUNNEL``), else ``None``."""
        if not s._tunnel:
            return None
        ri, paid, revealed, extra, x = s._tunnel
        name = self.card_name
        return TunnelClaim(
            route=self.routes[ri].id,
            paid=tuple(sorted((name(c), k) for c, k in paid)),
            revealed=tuple(name(c) for c in revealed),
            extra=extra,
            color=name(x),
        )

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The base view, and a pending tunnel's reveal (public)."""
        d = super().view_fields(s, player)
        t = self.tunnel(s)
        d["tunnel"] = (
            None
            if t is None
            else {
                "route": t.route,
                "paid": dict(t.paid),
                "revealed": list(t.revealed),
                "extra": t.extra,
                "color": t.color,
            }
        )
        return d

    # ------------------------------------------------------------------ hooks (public: the claim, the reveal)
    def tunnel_from_view(self, view: PlayerView, ctx: Rebuild) -> Any:
        """The pending tunnel claim as the view shows it (public)."""
        t = view.tunnel
        return None if t is None else {"route": t.route, "paid": dict(t.paid), "revealed": list(t.revealed)}

    def cards_in_sight(self, view: PlayerView) -> tuple[tuple[str, ...], Mapping[int, CardList]]:
        """A pending tunnel's three cards lie apart; its payment is known in the claimer's hand.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("europe", players=2, seed=1)
        >>> g.edition.cards_in_sight(g.view(0))
        ((), {})
        """
        aside, held = super().cards_in_sight(view)
        t = view.tunnel
        if t is None:
            return aside, held
        return (*aside, *t.revealed), {**held, view.current_player: t.paid}

    def table_extra(self, t: Table) -> None:
        """No tunnel is pending in a position stated at a table (the scorer's end, the editor's turn)."""
        super().table_extra(t)
        t.extra["tunnel"] = None

    # ------------------------------------------------------------------ the claim
    def apply_claim(self, s: GameState, move: ClaimRoute) -> None:
        """A claim of a tunnel turns up three cards first (B3): with matching cards the claimer pays more or declines (phase ``TUNNEL``)."""
        ri = self.route_index[move.route]
        if not self._is_tunnel[ri]:
            super().apply_claim(s, move)
            return
        paid = self.card_ids(move.cards)
        wild = self._wild
        colors = [c for c, _ in paid if not wild[c]]
        x = colors[0] if colors else self.wild_cards[0]
        revealed = []
        for _ in range(3):  # min(3, deck + discard); the payment is still in the hand
            c = self.take(s, 0)
            if c < 0:
                break
            revealed.append(c)
        extra = sum(1 for c in revealed if wild[c] or c == x)
        if not extra:
            self.pay(s, paid)
            self.discard(s, revealed)
            self.complete_claim(s, ri)
            return
        s._tunnel = (ri, tuple(sorted(paid)), tuple(revealed), extra, x)
        self.set_decision(s, _TUNNEL)
        self.reset_passes(s)

    # ------------------------------------------------------------------ the decision
    def tunnel_groups(self, s: GameState) -> list[Any]:
        """The legal moves of phase ``TUNNEL``: every payment of the extra cards, or declining."""
        moves: list[Move] = [*self.tunnel_payments(s), DeclineTunnel()]
        return [(len(moves), _identity, moves)]

    def _reserved(self, s: GameState) -> CardList:
        return tuple((self.card_name(c), k) for c, k in s._tunnel[1])

    def tunnel_payments(self, s: GameState) -> list[Move]:
        """Every payment of a pending tunnel's extra cards from the claimer's hand (less the cards already committed)."""
        _, paid, _, extra, x = s._tunnel
        free = list(s._hands[s._cur])  # a legal-move generator: fields read directly, for speed
        for c, k in paid:
            free[c] -= k
        wild_idx = self.wild_cards[0]
        wname = self.card_name(wild_idx)
        wilds = free[wild_idx]
        out: list[Move] = []
        if self._wild[x]:
            if wilds >= extra:
                out.append(PayTunnel(((wname, extra),)))
            return out
        xname = self.card_name(x)
        for use in range(max(0, extra - wilds), min(extra, free[x]) + 1):
            w = extra - use
            cards = [(xname, use)] if use else []
            if w:
                cards.append((wname, w))
            out.append(PayTunnel(tuple(sorted(cards))))
        out.sort()
        return out

    def check_pay_tunnel(self, s: GameState, move: PayTunnel) -> tuple[str, str] | None:
        """Why paying ``move.cards`` for the pending tunnel is illegal, or None (B3)."""
        if s.phase != _TUNNEL:
            return self.phase_error(s)
        cards = self.hand_cards(s, move.cards, R_EUROPE, reserved=self._reserved(s), reserved_as="the tunnel payment")
        if isinstance(cards, tuple):
            return cards
        _, _, _, extra, x = s._tunnel
        total = sum(k for _, k in cards)
        if total != extra:
            return (R_EUROPE, f"the tunnel needs exactly {extra} more card{'s' if extra > 1 else ''}, not {total}")
        for c, _ in cards:
            if not self._wild[c] and c != x:
                if self._wild[x]:
                    return (R_EUROPE, "the claim was paid with locomotives only: the extra cards must be locomotives")
                return (
                    R_EUROPE,
                    f"the extra cards must be {self.card_name(x)} or locomotives, not {self.card_name(c)}",
                )
        return None

    def apply_pay_tunnel(self, s: GameState, move: PayTunnel) -> None:
        """Pay the claim and the extra cards, discard the reveal, and complete the claim."""
        ri, paid, revealed, _, _ = s._tunnel
        s._tunnel = ()
        self.pay(s, list(paid) + self.card_ids(move.cards))
        self.discard(s, revealed)
        self.complete_claim(s, ri)

    def check_decline(self, s: GameState, move: DeclineTunnel) -> tuple[str, str] | None:
        """Why declining is illegal now (no tunnel pending), or None."""
        if s.phase != _TUNNEL:
            return self.phase_error(s)
        return None

    def apply_decline(self, s: GameState, move: DeclineTunnel) -> None:
        """Decline the tunnel: the cards stay in the hand, the reveal is discarded, the action is done."""
        revealed = s._tunnel[2]
        s._tunnel = ()
        self.discard(s, revealed)
        self.action_done(s)

    def cards_needed(self, s: GameState, move: Any) -> list[tuple[int, int]]:
        """A tunnel's extra payment needs the reserved claim cards too."""
        out = super().cards_needed(s, move)
        if type(move) is PayTunnel and s._tunnel:
            out = list(s._tunnel[1]) + out
        return out

    # ------------------------------------------------------------------ consistency
    def cards_elsewhere(self, s: GameState) -> list[int]:
        """A pending tunnel's three turned-up cards."""
        return [*super().cards_elsewhere(s), *(s._tunnel[2] if s._tunnel else ())]

    def problems(self, s: GameState) -> list[str]:
        """The base checks, and a pending tunnel's: the phase, the committed cards in hand, the route free."""
        out = super().problems(s)
        if (s.phase == _TUNNEL) != bool(s._tunnel):
            out.append("a tunnel decision is due exactly when a tunnel claim is pending")
        if s._tunnel:
            ri, paid = s._tunnel[0], s._tunnel[1]
            hand = s.hand_counts(s.current_player)
            for c, k in paid:
                if hand[c] < k:
                    out.append(f"the tunnel payment reserves {k} {self.card_name(c)}, the hand holds {hand[c]}")
            if sum(k for _, k in paid) != self.route_length[ri]:
                out.append("the tunnel payment does not match the route length")
            if s.route_owner(self.routes[ri].id) is not None:
                out.append("the pending tunnel is already claimed")
        return out

    # ------------------------------------------------------------------ a sensible default
    def default_choice(self, view: PlayerView, moves: list[Move]) -> Move | None:
        """Pay a tunnel's extra cards (fewest locomotives first); decline only when unable."""
        if view.phase != _TUNNEL:
            return super().default_choice(view, moves)
        pays = [m for m in moves if type(m) is PayTunnel]
        if pays:
            return min(pays, key=lambda m: (self.wilds_in(m.cards), m))
        return DeclineTunnel()
