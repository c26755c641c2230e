"""Trains and ships (rule B4): the secret split at setup, and the supply.

After the tickets, every player secretly chooses how many trains to play
with (``pieces 20``); the rest of the pieces are ships, and the choices are
revealed together.  Train routes use trains, ship routes ships; the pieces
not chosen stay in the box, where piece exchanges take them from.

Position fields: ``_pieces`` (trains in supply; 0 until the choices are
revealed), ``_ships``, ``_box`` (per seat, ``(trains, ships)`` in the box)
and ``_choice`` (per seat, the secret choice, -1 until made: hidden from
the other seats; a determinization draws it, or infers it from the box and
the exchanges once revealed: ``Exchange.piece_choices_from_view``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...engine.moves import Move, is_count, show_value
from ...engine.phases import Phase, register_phase
from ...engine.rules import Field, Rebuild, Table
from ...engine.rules.accessors import Accessors
from ...errors import TtrError
from ...io.numerals import is_numeral
from .payments import R_RS, RSPayments

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["Pieces", "PieceAccessors", "ChoosePieces", "SETUP_PIECES"]

SETUP_PIECES = register_phase(
    "SETUP_PIECES", 5, "a player splits pieces into trains and ships", busy="players are choosing their pieces"
)
_SETUP, _PIECES, _OVER = int(Phase.SETUP_TICKETS), int(SETUP_PIECES), int(Phase.GAME_OVER)


@dataclass(frozen=True, slots=True, repr=False)
class ChoosePieces(Move):
    """Rails & Sails setup: keep ``trains`` trains (the rest of the pieces are ships)."""

    trains: int
    verb: ClassVar[str] = "pieces"
    rank: ClassVar[float] = 1

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        return cls(int(args[0])) if len(args) == 1 and is_numeral(args[0], max_digits=5) else None

    def problem(self) -> str | None:
        return None if is_count(self.trains) else f"a number of trains is a whole number, not {show_value(self.trains)}"

    def _fields(self) -> tuple[Any, ...]:
        return (self.trains,)

    def __str__(self) -> str:
        return f"pieces {self.trains}"

    def describe(self, state: GameState) -> str:
        return f"play with {self.trains} trains"

    def announce(self, state: GameState) -> str:
        return "choose how to split the pieces (secret until every player has chosen)"


def _identity(moves: list[Move]) -> list[Move]:
    return moves


def _counts(ed: Any, n: int, data: Any, what: str) -> tuple[int, ...]:
    if not isinstance(data, list) or len(data) != n or not all(is_count(v) and 0 <= v <= 1000 for v in data):
        raise TtrError(f"expected one count of {what} (0..1000) per player")
    return tuple(data)


def _load_box(ed: Any, n: int, data: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(data, list) or len(data) != n:
        raise TtrError("expected one {'trains': n, 'ships': n} per player")
    box = []
    for p, b in enumerate(data):
        if (
            not isinstance(b, dict)
            or set(b) != {"trains", "ships"}
            or not all(is_count(v) and 0 <= v <= 1000 for v in b.values())
        ):
            raise TtrError(f"[{p}]: expected {{'trains': n, 'ships': n}}")
        box.append((b["trains"], b["ships"]))
    return tuple(box)


def _load_choices(ed: Any, n: int, data: Any) -> tuple[int, ...]:
    lo, hi = ed.train_range
    if not isinstance(data, list) or len(data) != n:
        raise TtrError("expected one entry per player")
    out = []
    for p, c in enumerate(data):
        if c is None:
            out.append(-1)
        elif is_count(c) and lo <= c <= hi:
            out.append(c)
        else:
            raise TtrError(f"[{p}]: expected None or {lo}..{hi}, got {str(c)[:40]!r}")
    return tuple(out)


class PieceAccessors(Accessors):
    """Trains, ships and the box, asked of a game or a view (public; a seat's split is not until all have chosen).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("world", players=2, seed=1)
    >>> g.ext.trains(0), g.ext.ships(0), g.view(1).ext.pieces_chosen(0)
    (0, 0, False)
    """

    __slots__ = ()

    def _piece_rules(self) -> Pieces:
        return cast(Pieces, self.state.edition)

    def trains(self, player: int) -> int:
        """Train pieces ``player`` has in supply."""
        return self._piece_rules().trains(self.state, player)

    def ships(self, player: int) -> int:
        """Ship pieces ``player`` has in supply."""
        return self._piece_rules().ships(self.state, player)

    def box(self, player: int) -> tuple[int, int]:
        """``(trains, ships)`` of the player's colour left in the box (the exchange pool)."""
        return self._piece_rules().box(self.state, player)

    def pieces_chosen(self, player: int) -> bool:
        """Whether ``player`` has made the setup choice (public; the number is not)."""
        return self._piece_rules().pieces_chosen(self.state, player)


class Pieces(RSPayments):
    """Mixin: the setup split, and trains and ships in supply."""

    moves = {ChoosePieces: ("check_choose", "apply_choose")}
    phases = {SETUP_PIECES: "piece_groups"}
    fields: ClassVar[tuple[Field, ...]] = (
        Field("_pieces", "", lambda ed, n: (0,) * n),
        Field(
            "_ships",
            "ships",
            lambda ed, n: (0,) * n,
            lambda ed, v: list(v),
            lambda ed, n, d: _counts(ed, n, d, "ships"),
            from_view="ships_from_view",
        ),
        Field(
            "_box",
            "box",
            lambda ed, n: ((ed.train_pieces, ed.ship_pieces),) * n,
            lambda ed, v: [{"trains": t, "ships": sh} for t, sh in v],
            _load_box,
            from_view="box_from_view",
        ),
        Field(
            "_choice",
            "piece_choices",
            lambda ed, n: (-1,) * n,
            lambda ed, v: [c if c >= 0 else None for c in v],
            _load_choices,
            hidden="own",
            from_view="piece_choices_from_view",
        ),
    )
    accessors = PieceAccessors
    controls = ("pieces",)
    seat_facts = {"ships": "{player: ships left}: with the trains, the setup split (default: the fewest trains)"}
    train_pieces: int = 25  #: trains per colour in the box
    ship_pieces: int = 50  #: ships per colour in the box
    total_pieces: int = 60  #: pieces each player plays with
    train_range: tuple[int, int] = (10, 25)

    _choose_moves: tuple[Move, ...]

    def _build_tables(self) -> None:
        super()._build_tables()
        self._choose_moves = tuple(ChoosePieces(t) for t in range(self.train_range[0], self.train_range[1] + 1))

    # ------------------------------------------------------------------ public read API
    def trains(self, s: GameState, player: int) -> int:
        """Train pieces ``player`` has in supply."""
        return int(s._pieces[s.seat(player)])

    def ships(self, s: GameState, player: int) -> int:
        """Ship pieces ``player`` has in supply."""
        return int(s._ships[s.seat(player)])

    def box(self, s: GameState, player: int) -> tuple[int, int]:
        """``(trains, ships)`` of the player's colour left in the box (the exchange pool)."""
        t, sh = s._box[s.seat(player)]
        return (int(t), int(sh))

    def pieces_chosen(self, s: GameState, player: int) -> bool:
        """Whether ``player`` has made the setup choice (public; the number is not)."""
        return bool(s._choice[s.seat(player)] >= 0)

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The base view, and the pieces: supplies, boxes once revealed, who has chosen, the seat's own split."""
        revealed = s.phase not in (_SETUP, _PIECES)
        return {
            **super().view_fields(s, player),
            "trains": list(s._pieces),
            "ships": list(s._ships),
            "pieces_in_reserve": [list(b) for b in s._box] if revealed else None,
            "pieces_chosen": [c >= 0 for c in s._choice],
            "my_piece_choice": s._choice[player] if s._choice[player] >= 0 else None,
        }

    # ------------------------------------------------------------------ hooks: views, tables
    def pieces_in_supply(self, view: PlayerView, player: int) -> tuple[int, int | None]:
        """``(trains, ships)`` ``player`` has left, as ``view`` shows them."""
        return int(view.trains(player)), int(view.ships(player))

    def ships_from_view(self, view: PlayerView, ctx: Rebuild) -> list[int]:
        """The ships, as the view shows them (public)."""
        return [view.ships(q) for q in range(view.num_players)]

    def box_from_view(self, view: PlayerView, ctx: Rebuild) -> list[dict[str, int]]:
        """The boxes, as the view shows them (public)."""
        return [dict(zip(("trains", "ships"), view.box(q))) for q in range(view.num_players)]

    def table_pieces(self, t: Table) -> None:
        """Trains and ships in supply, the box and the split from the routes owned: the
        fewest trains they allow, or the ``trains`` and ``ships`` left stated (seat_view), checked."""
        names, n = t.players, len(t.players)
        routes = self.map.route
        total, tmax, smax = self.total_pieces, self.train_pieces, self.ship_pieces
        used = [[0, 0] for _ in range(n)]
        for rid, seat in t.owners.items():
            r = routes(rid)
            used[seat][1 if r.is_ship else 0] += r.length
        pieces, ships = [], []
        for p in range(n):
            t_used, s_used = used[p]
            lo, hi = max(t_used, total - smax), min(tmax, total - s_used)
            if t_used > tmax or s_used > smax or lo > hi:
                raise TtrError(
                    f"routes[{names[p]}]: {t_used} trains and {s_used} ships placed, but a player has {total} pieces, "
                    f"at most {tmax} trains and {smax} ships"
                )
            pieces.append(lo - t_used)
            ships.append(total - lo - s_used)
        given_t, given_s = t.by_seat("trains"), t.by_seat("ships")
        box, choices = [], []
        for p in range(n):
            t_used, s_used = used[p]
            left_t, left_s = given_t.get(p, pieces[p]), given_s.get(p, ships[p])
            if type(left_t) is not int or type(left_s) is not int or left_t < 0 or left_s < 0:
                raise TtrError(f"trains/ships[{names[p]}]: whole numbers of pieces left")
            t_in, s_in = left_t + t_used, left_s + s_used
            if t_in > tmax or s_in > smax or t_in + s_in != total:
                raise TtrError(
                    f"trains/ships[{names[p]}]: {left_t} trains and {left_s} ships left with {t_used} and {s_used} "
                    f"placed: {t_in + s_in} pieces in play, but a player plays with {total} "
                    f"(at most {tmax} trains, {smax} ships)"
                )
            pieces[p], ships[p] = left_t, left_s
            box.append({"trains": tmax - t_in, "ships": smax - s_in})
            choices.append(min(max(t_in, self.train_range[0]), self.train_range[1]))
        t.pieces = pieces
        t.extra.update(ships=ships, box=box, piece_choices=choices)

    # ------------------------------------------------------------------ pieces in play
    def pieces_left(self, s: GameState, p: int) -> int:
        """Trains and ships together, for the end trigger (A6)."""
        return int(s._pieces[p] + s._ships[p])

    def pieces_for_route(self, s: GameState, p: int, ri: int) -> int:
        """The ships for a ship route, the trains for any other."""
        return int(s._ships[p] if self.routes[ri].is_ship else s._pieces[p])

    def use_pieces(self, s: GameState, p: int, ri: int, n: int) -> None:
        """Take ships for a ship route, trains for any other."""
        if self.routes[ri].is_ship:
            s._ships = s._ships[:p] + (s._ships[p] - n,) + s._ships[p + 1 :]
        else:
            s._pieces = s._pieces[:p] + (s._pieces[p] - n,) + s._pieces[p + 1 :]

    # ------------------------------------------------------------------ the setup split
    def start_play(self, s: GameState) -> None:
        """After the tickets: every player secretly chooses trains and ships (B4)."""
        self.set_decision(s, _PIECES, s.first_player)

    def piece_groups(self, s: GameState) -> list[Any]:
        """The legal moves of phase ``SETUP_PIECES``: every split the edition allows."""
        moves = list(self._choose_moves)
        return [(len(moves), _identity, moves)]

    def check_choose(self, s: GameState, move: ChoosePieces) -> tuple[str, str] | None:
        """Why choosing ``move.trains`` trains is illegal now, or None (B4)."""
        if s.phase != _PIECES:
            if s.phase == _SETUP:
                return (R_RS, "pieces are chosen after the initial tickets")
            return (R_RS, "pieces are chosen only at setup")
        lo, hi = self.train_range
        t = move.trains
        if not lo <= t <= hi:
            return (
                R_RS,
                f"choose {lo} to {hi} trains (with {self.total_pieces} pieces in all, at most "
                f"{self.train_pieces} trains and {self.ship_pieces} ships), not {t}",
            )
        return None

    def apply_choose(self, s: GameState, move: ChoosePieces) -> None:
        """Record the seat's split (secret); when every seat has chosen, reveal them together and play starts."""
        p = s.current_player
        s._choice = s._choice[:p] + (move.trains,) + s._choice[p + 1 :]
        nxt = (p + 1) % s.n
        if nxt != s.first_player:
            self.set_decision(s, _PIECES, nxt)
            return
        # every player has chosen: reveal together (B4)
        s._pieces = tuple(s._choice)
        s._ships = tuple(self.total_pieces - t for t in s._choice)
        s._box = tuple((self.train_pieces - t, self.ship_pieces - (self.total_pieces - t)) for t in s._choice)
        super().start_play(s)

    def choose_split(self, view: PlayerView, moves: list[Move], need: Callable[[], tuple[float, float]]) -> Move | None:
        """The split closest to the spaces needed: trains in proportion to ``need()``'s train spaces."""
        if int(view.phase) != _PIECES:
            return super().choose_split(view, moves, need)
        tr, sh = need()
        lo, hi = self.train_range
        pick = min(hi, max(lo, round(self.total_pieces * tr / (tr + sh))))
        return next((m for m in moves if isinstance(m, ChoosePieces) and m.trains == pick), None)

    def default_choice(self, view: PlayerView, moves: list[Move]) -> Move | None:
        """Trains in proportion to the train spaces on the map."""
        if view.phase != _PIECES:
            return super().default_choice(view, moves)
        lo, hi = self.train_range
        routes = self.routes
        share = sum(r.length for r in routes if not r.is_ship) / max(1, sum(r.length for r in routes))
        want = lo + share * (hi - lo)
        return ChoosePieces(min(range(lo, hi + 1), key=lambda t: (abs(t - want), t)))

    # ------------------------------------------------------------------ consistency
    def placed_by_kind(self, s: GameState, p: int) -> tuple[int, int]:
        """``(trains, ships)`` seat ``p`` has placed on its routes."""
        trains = ships = 0
        for i, o in enumerate(s._owners):
            if o == p:
                if self._rship[i]:
                    ships += self.route_length[i]
                else:
                    trains += self.route_length[i]
        return trains, ships

    def piece_problems(self, s: GameState) -> list[str]:
        """Conservation of both kinds (placed + in supply + in the box), and the setup split: who has chosen, when."""
        out = []
        setup = s.phase in (_SETUP, _PIECES)
        for p in range(s.n):
            placed_t, placed_s = self.placed_by_kind(s, p)
            tb, sb = s._box[p]
            if s._pieces[p] + placed_t + tb != self.train_pieces:
                out.append(
                    f"player {p} has {s._pieces[p]} trains in supply, {placed_t} placed and {tb} in the box, "
                    f"expected {self.train_pieces} in all"
                )
            if s._ships[p] + placed_s + sb != self.ship_pieces:
                out.append(
                    f"player {p} has {s._ships[p]} ships in supply, {placed_s} placed and {sb} in the box, "
                    f"expected {self.ship_pieces} in all"
                )
            if min(s._pieces[p], s._ships[p]) < 0:
                out.append(f"player {p} has a negative number of pieces")
            if setup and s._pieces[p] + s._ships[p] + placed_t + placed_s:
                out.append(f"player {p} has pieces out of the box before the setup choices are revealed")
            if not setup and s.phase != _OVER and s._choice[p] < 0:
                out.append(f"player {p} has not chosen pieces, but play has started")
            if s._pieces[p] + s._ships[p] + placed_t + placed_s > self.total_pieces:
                out.append(
                    f"player {p} plays with {s._pieces[p] + s._ships[p] + placed_t + placed_s} pieces, "
                    f"more than {self.total_pieces}"
                )
        if s.phase == _PIECES:
            # the players before the current chooser (from the first player) have chosen, the rest not
            q = s.first_player
            while q != s.current_player:
                if s._choice[q] < 0:
                    out.append(f"player {q} should have chosen pieces already")
                q = (q + 1) % s.n
            while True:
                if s._choice[q] >= 0:
                    out.append(f"player {q} has chosen pieces before their turn to choose")
                q = (q + 1) % s.n
                if q == s.first_player:
                    break
        elif s.phase == _SETUP and any(c >= 0 for c in s._choice):
            out.append("pieces are chosen before the initial tickets")
        return out
