"""The game as a step-by-step state object.

:class:`GameState` is a position plus its move stack, like ``chess.Board``:
list the legal moves, ``play`` one (validated), ``push`` one (trusted),
``pop`` to undo, ``why_illegal`` to explain, ``view(player)`` for what one
player may see, ``to_dict``/``from_dict`` for a full snapshot.

One class plays every edition: the rules live in the game's
:class:`~ttr_lab.engine.rules.Edition`, which the state asks about every move.  The
position is the instance ``__dict__``, holding only immutable values (ints
and tuples), so an undo snapshot is just its values, kept one ply after
another in one flat list; the edition, the players and the history live in
slots.  An edition's own queries are ``game.ext`` (``game.ext.stations()``
in Europe; :mod:`ttr_lab.engine.rules.accessors`); they are reachable by name too
(``game.stations()``, ``game.trains(p)`` in Rails & Sails): a game of an
edition with accessors is an instance of a subclass of :class:`GameState`
made for that edition (:func:`game_class`), which holds exactly them.

Examples
--------
>>> import ttr_lab
>>> game = ttr_lab.new_game("usa", players=3, seed=7)
>>> game.phase
<Phase.SETUP_TICKETS: 0>
>>> game.legal_moves.count()     # keep 2 or 3 of the 3 dealt tickets
4
>>> game.play(game.legal_moves[0])
>>> game.current_player
1
>>> game.pop()
KeepTickets(tickets=(6, 15))
>>> game.current_player
0
"""

from __future__ import annotations

import secrets
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..errors import IllegalMoveError, OutOfRangeError, TtrError, WrongTypeError
from .checks import check_seed
from .legal_moves import LegalMoves
from .legality import refuse_pushed, why_illegal
from .moves import Move, parse_move, show_value
from .phases import Phase
from .position import fill_position, position_to_dict
from .rules import Edition, EditionBase, find_edition
from .rules.accessors import Accessors
from .rules.setup import seat_names
from .scoring import outcome as _outcome
from .state_queries import StateQueries
from .view import PlayerView, accessor_class

if TYPE_CHECKING:  # pragma: no cover
    from .rules.chance import Chance
    from .scoring import Outcome

__all__ = ["Phase", "GameState", "LegalMoves", "new_game", "new_seed", "game_class"]


def new_seed() -> int:
    """An unguessable seed (64 random bits), the default for a new game."""
    return secrets.randbits(64)


class GameState(StateQueries):
    """A game position with its history.

    Parameters
    ----------
    edition : an :class:`~ttr_lab.engine.rules.Edition` or a name (``"usa"``)
    players : number of players (2..5) or a list of names
    seed : seeds every shuffle of the game (default: an unguessable one)
    **options : edition options when ``edition`` is a name
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "edition",
        "n",
        "player_names",
        "seed",
        "_stack",
        "_moves",
        "_legal",
        "_chance",
    )

    edition: Edition
    n: int
    player_names: tuple[str, ...]
    seed: int
    #: transient, never part of the position or a snapshot: recorded or
    #: forced chance outcomes (ttr_lab.engine.rules.chance); None in a game played from its seed
    _chance: Chance | None

    def __init__(
        self,
        edition: EditionBase | str = "usa",
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        ed = cast(Edition, find_edition(edition, **options))
        seed = new_seed() if seed is None else check_seed(seed)
        self._init(ed, seat_names(players, ed), seed)
        ed.new_position(self)

    def _init(self, ed: Edition, names: tuple[str, ...], seed: int) -> None:
        cls = type(self)
        if cls is GameState or "_edition_class" in cls.__dict__:  # not a subclass of the caller's own
            want = _GAME_CLASSES.get(type(ed)) or game_class(ed)
            if cls is not want:
                self.__class__ = want
        # the fields go in a plain dict of their own, never in the instance's
        # inline values: the first push reads ``__dict__``, which would turn
        # those into a split-keys dict, and reads of a split dict's attributes
        # cannot be specialised by the interpreter (every rule reads them)
        self.__dict__ = {}
        self.edition = ed
        self.n = len(names)
        self.player_names = names
        self.seed = seed
        # the undo history, flat: each ply's field values in the edition's
        # field order, one after the other (see ``_snapshot``); no tuple per
        # ply, so the collector stops tracking a ply's values within two
        # collections instead of promoting every snapshot to the oldest
        # generation (benchmarks/README.md, the garbage collector)
        self._stack: list[Any] = []
        self._moves: list[Move] = []
        self._legal: LegalMoves | None = None
        self._chance = None

    if TYPE_CHECKING:  # an edition's fields are set on the state by name

        def __setattr__(self, name: str, value: Any) -> None: ...

    if TYPE_CHECKING:  # an edition's fields, and its accessors by name (on the subclass made for it: game_class)

        def __getattr__(self, name: str) -> Any: ...

    @property
    def ext(self) -> Accessors:
        """The edition's own queries (:mod:`ttr_lab.engine.rules.accessors`): ``game.ext.stations()``
        in Europe; typed as the edition's class (``cast(EuropeAccessors, game.ext)``).

        >>> g = new_game("europe", players=2, seed=1)
        >>> type(g.ext).__name__, g.ext.stations_left(0) == g.stations_left(0) == 3
        ('EuropeAccessors', True)
        """
        return self.edition.accessors(self)

    # ------------------------------------------------------------------ queries the edition's rules answer
    # (handed the GameState itself; the other queries are StateQueries', in ttr_lab.engine.state_queries)
    @property
    def row(self) -> tuple[str | None, ...]:
        """The face-up cards by name, ``None`` for an empty slot."""
        return self.edition.row_names(self)

    def pieces(self, player: int) -> int:
        """Pieces in supply (trains, and ships where the edition has them)."""
        return self.edition.pieces_left(self, self.seat(player))

    def route_open_to(self, route_id: int, player: int) -> bool:
        """Whether ``player`` could ever still claim this route: it is free and
        the double-route rule allows it (cards and pieces aside).  Analysis
        uses this to know which routes a ticket path may still take."""
        ri = self.edition.route_index.get(route_id) if type(route_id) is int else None
        if ri is None:
            raise TtrError(f"there is no route {show_value(route_id)} on the {self.map.id} map")
        return self._owners[ri] < 0 and self.edition.double_rule(self, self.seat(player), ri) is None

    # ------------------------------------------------------------------ legal moves
    @property
    def legal_moves(self) -> LegalMoves:
        lm = self._legal
        if lm is None:
            lm = self._legal = LegalMoves(self, self.edition.legal_groups(self))
        return lm

    def why_illegal(self, move: Move | str) -> tuple[str, str] | None:
        """``None`` if ``move`` is legal, else ``(rule, reason)``.

        ``rule`` is the section of the rules reference that forbids it
        (``ttr_lab.engine.reference.explain(rule)``); ``"notation"`` for a move that is
        not well-formed.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.why_illegal("tickets")
        ('A5', 'players are choosing their initial tickets; expected a keep move')
        >>> g.why_illegal("faceup 2.0")
        ('notation', "bad number in 'faceup 2.0': expected a whole number in digits 0-9, not '2.0'")
        """
        return why_illegal(self, move)

    # ------------------------------------------------------------------ play / push / pop
    def play(self, move: Move | str) -> None:
        """Validate and play a move (or its notation).

        Raises :class:`~ttr_lab.errors.IllegalMoveError` naming the rule and
        leaves the game unchanged.
        """
        if isinstance(move, str):
            move = parse_move(move)
        if self._chance is not None:
            self._chance.bind(self)
        why = self.why_illegal(move)
        if why is not None:
            raise IllegalMoveError(move if isinstance(move, Move) else show_value(move), rule=why[0], reason=why[1])
        self.push(move)

    def push(self, move: Move) -> None:
        """Play a move without checking it (the fast path for bots and search).

        It trusts the move: one that is legal to write but not legal here (a
        card that is not in the hand, a claimed route), which :meth:`play`
        refuses, may leave an impossible position.  Moves from people, files
        or the network go through :meth:`play`; ``push`` is for moves taken
        from :attr:`legal_moves`.  (A move's constructor refuses malformed
        fields, such as a count of ``2.0``: see
        :meth:`~ttr_lab.engine.moves.Move.problem`.)

        Its errors are the library's, and the position is restored first:
        something that is not a :class:`~ttr_lab.engine.moves.Move` (a move's text
        too: :meth:`play` reads notation), a move the edition does not know,
        and a move the rules forbid here that cannot be applied (a face-up
        slot past the row, a route the map lacks, a count of ``2.0`` in a
        move built around its constructor) raise
        :class:`~ttr_lab.errors.IllegalMoveError` naming the rule, as
        :meth:`play` would.  Anything else that fails while a legal move is
        applied (a bug) propagates unchanged.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.push(ttr_lab.DrawFaceUp(9))
        Traceback (most recent call last):
        ...
        ttr_lab.errors.IllegalMoveError: illegal move faceup 9: players are choosing their initial tickets; expected a keep move (rule A5)
        >>> g.ply
        0
        """
        st = self._stack
        ch = self._chance
        if ch is not None and ch.fixups:  # a seat record's late binding of this position (core.chance)
            st += ch.bind(self, tuple(self.__dict__.values()))
        else:
            st += self.__dict__.values()
        try:
            self.edition._move_applies[type(move)](self, move)
        except BaseException as e:
            self._undo_push()
            if isinstance(e, Exception) and not isinstance(e, TtrError):
                refuse_pushed(self, move, e)
            raise
        self._moves.append(move)
        self._legal = None

    def _undo_push(self) -> None:
        """Put back the position a failed push started from (its snapshot is the last)."""
        st, k = self._stack, len(self.edition.field_attrs)
        self._restore(st[-k:])
        del st[-k:]

    def pop(self) -> Move:
        """Undo the last move, restoring the exact previous position."""
        if not self._moves:
            raise OutOfRangeError("pop from an empty move stack: nothing to undo")
        move = self._moves.pop()
        self._undo_push()
        self._legal = None
        return move

    def _snapshot(self, ply: int) -> tuple[Any, ...]:
        """The field values (in the edition's field order) of the position
        before move ``ply`` of the history (``-1``: before the last move)."""
        k = len(self.edition.field_attrs)
        n = len(self._moves)
        if ply < 0:
            ply += n
        if not 0 <= ply < n:
            raise OutOfRangeError(f"no ply {ply} in a history of {n} moves")
        return tuple(self._stack[ply * k : (ply + 1) * k])

    def _restore(self, snap: Sequence[Any]) -> None:
        """Make a snapshot (the field values, in the edition's field order) the position."""
        self.__dict__ = dict(zip(self.edition.field_attrs, snap))

    def peek(self) -> Move | None:
        return self._moves[-1] if self._moves else None

    def copy(self, *, stack: bool = False) -> GameState:
        """An independent copy; with ``stack=True`` it can also undo."""
        other = object.__new__(type(self))
        other._init(self.edition, self.player_names, self.seed)
        other.__dict__ = self.__dict__.copy()
        if self._chance is not None:
            other._chance = self._chance.passive()
        if stack:
            other._moves = list(self._moves)
            other._stack = list(self._stack)  # snapshots are immutable values: shared
        return other

    # ------------------------------------------------------------------ results and views
    def outcome(self) -> Outcome:
        """Final scores with the full breakdown (also mid-game, as if it ended now)."""
        return _outcome(self)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: own hand and tickets, public information."""
        return PlayerView(self, self.seat(player))

    def describe(self, move: Move | str) -> str:
        """A sentence for people: ``"claim Seattle-Portland (route 1, 1 gray) paying 1 red"``
        (a move, or its notation as :meth:`play` takes it)."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise WrongTypeError(f"describe takes a move or its notation, not {type(move).__name__}")
        return move.describe(self)

    def to_dict(self) -> dict[str, Any]:
        """A full position snapshot (JSON-ready); see :mod:`ttr_lab.engine.position`."""
        return position_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any, where: str = "position") -> GameState:
        """Rebuild a position from :meth:`to_dict`, refusing anything impossible
        (:class:`~ttr_lab.errors.RecordError` names the field)."""
        state = object.__new__(cls)
        fill_position(state, data, where)
        return state

    def problems(self) -> list[str]:
        """Every way the position breaks the rules (an empty list for every reachable position)."""
        return self.edition.problems(self)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.edition.name} {self.n} players ply={self.ply} "
            f"phase={self.phase.name} current={self._cur}>"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Show the board in Jupyter, interactive and as a static SVG (:func:`ttr_lab.engine.display.mimebundle`)."""
        from .display import mimebundle  # imported when a board is first shown, not with the engine

        return mimebundle(self, include, exclude)


_GAME_CLASSES: weakref.WeakKeyDictionary[type, type[GameState]] = weakref.WeakKeyDictionary()


def game_class(ed: EditionBase) -> type[GameState]:
    """The class of a game of ``ed``: :class:`GameState`, or a subclass with the
    edition's accessors by name (made once per edition class; an accessor that
    would hide a member of :class:`GameState` is a :class:`~ttr_lab.errors.TtrError`).

    >>> game_class(find_edition("usa")) is GameState
    True
    >>> cls = game_class(find_edition("europe"))
    >>> cls.__name__, issubclass(cls, GameState), cls.stations.__doc__
    ('EuropeGameState', True, '``{city: seat}`` for every station built.')
    """
    cls = _GAME_CLASSES.get(type(ed))
    if cls is None:
        cls = _GAME_CLASSES[type(ed)] = accessor_class(GameState, cast(Edition, ed), public_only=False)
    return cls


def new_game(
    edition: EditionBase | str = "usa", players: int | Sequence[str] = 4, *, seed: int | None = None, **options: Any
) -> GameState:
    """Start a game: ``new_game("usa", players=4, seed=7)``.

    Without a seed the game gets an unguessable one (:func:`new_seed`).  A
    seed you choose makes the game reproducible but is **not a secret**:
    anyone who knows or guesses it rebuilds every hand, ticket and deck
    order, and a small one is found from a seat's own starting cards and
    tickets by trying seeds in order (4242 in about 3 seconds).  Keep chosen
    seeds for lessons and examples; the classroom app hashes its game numbers
    with a key (:func:`ttr_lab.widgets.app.deal_seed`).

    >>> g = new_game("usa", players=["Ada", "Bob"], seed=3)
    >>> g.player_names
    ('Ada', 'Bob')
    >>> new_game("usa", players="AB")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: players is a number or a list of names, not 'AB'
    """
    return GameState(edition, players, seed=seed, **options)
