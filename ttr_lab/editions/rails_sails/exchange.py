"""Exchanging pieces (rule B4): ``exchange trains 2`` takes 2 trains from the
box and puts 2 ships back (or the other way), for 1 point per piece.

One engineering rule is added (``[rec]``, the rules are silent): a turn on
which the only legal actions were piece exchanges, and whose exchange opens
no claim, counts like a pass, so a game in which nobody can draw, claim,
build or take tickets still ends after one full round of such turns (A1).

Position field: ``_exchanged`` (pieces exchanged so far, per seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.moves import MAX_COUNT, Move, is_count, refuse_malformed, show_value
from ...engine.phases import Phase
from ...engine.rules import Field, Rebuild, Table
from ...engine.scoring.results import TicketResult
from ...errors import TtrError
from ...io.numerals import is_numeral
from .payments import R_RS
from .pieces import SETUP_PIECES, PieceAccessors, Pieces, _counts

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["Exchange", "ExchangeAccessors", "ExchangePieces"]

_TURN, _SETUP, _PIECES = int(Phase.TURN), int(Phase.SETUP_TICKETS), int(SETUP_PIECES)


@dataclass(frozen=True, slots=True, repr=False)
class ExchangePieces(Move):
    """Take ``count`` pieces of kind ``take`` (trains/ships) from the box (Rails & Sails)."""

    take: str
    count: int
    verb: ClassVar[str] = "exchange"
    rank: ClassVar[float] = 10

    def __post_init__(self) -> None:  # the common case checked inline (move generation builds many)
        count = self.count
        if type(self.take) is not str or type(count) is not int or not -MAX_COUNT <= count <= MAX_COUNT:
            refuse_malformed(self)

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        if len(args) == 2 and args[0] in ("trains", "ships") and is_numeral(args[1], max_digits=5):
            return cls(args[0], int(args[1]))
        return None

    def problem(self) -> str | None:
        if not isinstance(self.take, str):
            return f"exchange takes 'trains' or 'ships', not {show_value(self.take)}"
        return None if is_count(self.count) else f"a number of pieces is a whole number, not {show_value(self.count)}"

    def _fields(self) -> tuple[Any, ...]:
        return (self.take, self.count)

    def __str__(self) -> str:
        return f"exchange {self.take} {self.count}"

    def describe(self, state: GameState) -> str:
        return f"take {self.count} {self.take} from the box"


_EXCHANGES: dict[tuple[int, int], list[Move]] = {}  # exchange moves by (ships, trains) takeable: at most 51 x 51


class ExchangeAccessors(PieceAccessors):
    """The pieces, and how many each seat exchanged (public).

    >>> import ttr_lab
    >>> ttr_lab.new_game("world", players=2, seed=1).view(0).ext.exchanged(1)
    0
    """

    __slots__ = ()

    def exchanged(self, player: int) -> int:
        """Pieces ``player`` exchanged so far (each cost a point)."""
        return cast(Exchange, self.state.edition).exchanged(self.state, player)


class Exchange(Pieces):
    """Mixin: piece exchanges and what they cost."""

    moves = {ExchangePieces: ("check_exchange", "apply_exchange")}
    turn_actions = {"exchange_groups": ExchangePieces.rank}
    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_exchanged",
            "exchanged",
            lambda ed, n: (0,) * n,
            lambda ed, v: list(v),
            lambda ed, n, d: _counts(ed, n, d, "pieces exchanged"),
            from_view="exchanged_from_view",
        ),
    )
    accessors = ExchangeAccessors
    controls = ("exchange",)
    table_facts = {"exchanged": "{player: pieces exchanged}: 1 point each (default: 0)"}
    seat_facts = table_facts

    def exchanged(self, s: GameState, player: int) -> int:
        """Pieces exchanged so far (each cost a point)."""
        return int(s._exchanged[s.seat(player)])

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The base view, and every seat's exchanges so far (public)."""
        return {**super().view_fields(s, player), "exchanged": list(s._exchanged)}

    # ------------------------------------------------------------------ hooks: views, tables
    def exchanged_from_view(self, view: PlayerView, ctx: Rebuild) -> list[int]:
        """The exchanges, as the view shows them (public)."""
        return [view.exchanged(q) for q in range(view.num_players)]

    def piece_choices_from_view(self, view: PlayerView, ctx: Rebuild) -> list[int | None]:
        """Each seat's setup split (secret until every seat has chosen): the
        seat's own; another's drawn from ``ctx.rng`` before the reveal, then
        read from its box less the trains it took from the box since the
        history began."""
        lo, hi = self.train_range
        me, n = view.player, view.num_players
        mine = view.to_dict()["my_piece_choice"]
        if int(view.phase) in (_SETUP, _PIECES):  # before the reveal
            return [mine if q == me else (ctx.rng.randint(lo, hi) if view.pieces_chosen(q) else None) for q in range(n)]
        out: list[int | None] = []
        for q in range(n):
            if q == me and mine is not None:
                out.append(mine)
                continue
            net = 0  # trains taken from the box minus ships taken, since the history began
            for ply in ctx.plies:
                if ply.seat == q and isinstance(ply.move, ExchangePieces):
                    net += ply.move.count if ply.move.take == "trains" else -ply.move.count
            out.append(min(hi, max(lo, self.train_pieces - view.box(q)[0] - net)))
        return out

    def table_extra(self, t: Table) -> None:
        """The pieces exchanged stated (none by default), each costing a point of the running score."""
        super().table_extra(t)
        ex: dict[int, int] = {}
        for seat, k in t.by_seat("exchanged").items():
            if type(k) is not int or not 0 <= k <= 1000:
                raise TtrError(
                    f"exchanged[{t.players[seat]}]: a number of pieces exchanged (0 or more), not {str(k)[:40]}"
                )
            ex[seat] = k
        t.extra["exchanged"] = [ex.get(p, 0) for p in range(len(t.players))]
        t.scores = [score - ex.get(p, 0) for p, score in enumerate(t.scores)]

    def exchange_options(self, s: GameState) -> list[Move]:
        """Every exchange the current player could make: pieces of one kind from the box, the same number of the other back."""
        p = s._cur  # a legal-move generator: fields read directly, for speed
        tb, sb = s._box[p]
        key = (min(sb, s._pieces[p]), min(tb, s._ships[p]))
        out = _EXCHANGES.get(key)
        if out is None:
            out = [ExchangePieces("ships", k) for k in range(1, key[0] + 1)]
            out += [ExchangePieces("trains", k) for k in range(1, key[1] + 1)]
            _EXCHANGES[key] = out
        return out

    def exchange_groups(self, s: GameState) -> list[Any]:
        """The exchanges of a turn, as one lazy group of the legal moves."""
        p = s._cur  # a legal-move generator: fields read directly, for speed
        tb, sb = s._box[p]
        t, sh = s._pieces[p], s._ships[p]
        k = (sb if sb < t else t) + (tb if tb < sh else sh)
        return [(k, lambda _: self.exchange_options(s), None)] if k else []

    def check_exchange(self, s: GameState, move: ExchangePieces) -> tuple[str, str] | None:
        """Why ``move`` is not a legal exchange now, or None (B4)."""
        if s.phase != _TURN:
            return self.phase_error(s)
        if move.take not in ("trains", "ships"):
            return (R_RS, f"exchange takes 'trains' or 'ships', not {move.take[:40]!r}")
        if move.count < 1:
            return (R_RS, "exchange at least 1 piece")
        p = s.current_player
        tb, sb = s._box[p]
        have, give = (tb, s._ships[p]) if move.take == "trains" else (sb, s._pieces[p])
        other = "ships" if move.take == "trains" else "trains"
        if move.count > have:
            return (R_RS, f"the box holds only {have} of the player's {move.take}")
        if move.count > give:
            return (R_RS, f"the player has only {give} {other} in supply to put back")
        return None

    def _bind_plugins(self) -> None:
        super()._bind_plugins()
        others = [fn for fn in self._turn_action_fns if getattr(fn, "__name__", "") != "exchange_groups"]
        # cheap checks first (a ticket or card to draw usually answers); listing claims last
        self._stuck_checks = tuple(
            sorted(others, key=lambda fn: (fn.__name__ == "claim_groups", fn.__name__ != "ticket_draw_groups"))
        )

    def only_exchanges_possible(self, s: GameState) -> bool:
        """Whether the current player could do nothing but exchange pieces."""
        return all(not fn(s) for fn in self._stuck_checks)

    def apply_exchange(self, s: GameState, move: ExchangePieces) -> None:
        """Exchange pieces with the box (a point each); a turn on which nothing else was possible counts toward the all-pass end."""
        p = s.current_player
        stuck = self.only_exchanges_possible(s)
        k = move.count
        tb, sb = s._box[p]
        if move.take == "trains":
            s._pieces = s._pieces[:p] + (s._pieces[p] + k,) + s._pieces[p + 1 :]
            s._ships = s._ships[:p] + (s._ships[p] - k,) + s._ships[p + 1 :]
            box = (tb - k, sb + k)
        else:
            s._ships = s._ships[:p] + (s._ships[p] + k,) + s._ships[p + 1 :]
            s._pieces = s._pieces[:p] + (s._pieces[p] - k,) + s._pieces[p + 1 :]
            box = (tb + k, sb - k)
        s._box = s._box[:p] + (box,) + s._box[p + 1 :]
        s._exchanged = s._exchanged[:p] + (s._exchanged[p] + k,) + s._exchanged[p + 1 :]
        self.add_score(s, p, -k)
        # [rec] a turn on which nothing but an exchange was possible, and that
        # still leaves the player no claim, counts toward the all-pass end (A1)
        if stuck and not self.claim_groups(s):
            self.add_pass(s)
        else:
            self.reset_passes(s)
        self.end_turn(s)

    # ------------------------------------------------------------------ scoring and consistency
    def score_terms(self, s: GameState, player: int, tickets: tuple[TicketResult, ...]) -> tuple[tuple[str, int], ...]:
        """The base terms, and the points the exchanges cost."""
        k = s._exchanged[player]
        own = ((f"pieces exchanged ({k})", -k),) if k else ()
        return own + super().score_terms(s, player, tickets)

    def score_offset(self, s: GameState, player: int) -> int:
        """The running score's exchanges (a point lost each)."""
        return super().score_offset(s, player) - int(s._exchanged[player])
