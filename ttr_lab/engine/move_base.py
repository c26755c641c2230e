"""The move protocol: the :class:`Move` base class, the registry of notation
verbs its subclasses join, and :func:`parse_move`, which reads any registered
move (:mod:`ttr_lab.engine.moves` holds the base game's moves and re-exports these).

A subclass that sets ``verb`` is registered when it is defined, so an
edition's own moves (Europe's ``BuildStation``...) are read without this
module knowing them; :func:`unregister_move` forgets one again.

>>> from ttr_lab.engine.move_base import move_classes, parse_move
>>> [cls.__name__ for cls in move_classes()["claim"]]
['ClaimRoute']
>>> parse_move("faceup 2 =red")      # a recorded chance outcome is ignored
DrawFaceUp(slot=2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidMoveError
from ..io.registries import Registry
from .move_cards import _clip, show_value

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["Move", "VERBS", "move_classes", "unregister_move", "parse_move", "refuse_malformed", "MAX_MOVE_TEXT"]

#: Longest move text :func:`parse_move` reads (a real move is under 200 characters).
MAX_MOVE_TEXT = 2000

#: the move classes by notation verb (several classes may share a verb: parse_move asks each in turn);
#: filled by Move.__init_subclass__, the same registry mechanism as the editions', bots' and controls'
VERBS: Registry[tuple[type[Move], ...]] = Registry("move verb", api="Move subclass verb")

#: what imports the move classes not defined yet, run before an unknown verb is refused and before
#: the verbs are listed (ttr_lab.engine.rules.registry adds one: the registered editions, defined lazily)
VERB_LOADERS: list[Callable[[], object]] = []


def _load_verbs() -> None:
    for load in VERB_LOADERS:
        load()


def unregister_move(cls: type[Move]) -> None:
    """Forget a move class's notation (for plug-ins loaded only for a while, e.g. in tests)."""
    kept = _without(VERBS.loaded.get(cls.verb, ()), cls)
    if kept:
        VERBS.register(cls.verb, kept, replace=True)
    elif cls.verb in VERBS.loaded:
        VERBS.unregister(cls.verb)


def _without(classes: tuple[type[Move], ...], cls: type[Move]) -> tuple[type[Move], ...]:
    """``classes`` less any class of ``cls``'s module and name (a class defined again replaces it)."""
    return tuple(c for c in classes if c.__name__ != cls.__name__ or c.__module__ != cls.__module__)


def move_classes() -> dict[str, tuple[type[Move], ...]]:
    """Every registered move class by its notation verb.

    >>> sorted(move_classes())[:4]
    ['blind', 'claim', 'exchange', 'faceup']
    """
    _load_verbs()
    return dict(sorted(VERBS.loaded.items()))


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    """Base class.  Moves sort by kind (``rank``), then by their fields.

    A subclass sets ``verb`` (its notation's first word, which registers it
    for :func:`parse_move`), ``rank``, and implements ``parse``, ``__str__``
    and ``describe``.
    """

    verb: ClassVar[str] = ""
    rank: ClassVar[float] = 99

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # (dataclass(slots=True) rebuilds each class, so name the base explicitly)
        super(Move, cls).__init_subclass__(**kwargs)
        if "problem" in cls.__dict__ and "__post_init__" not in cls.__dict__:
            # its constructor asks problem() (set before @dataclass writes __init__;
            # a class without fields to check pays nothing)
            cls.__post_init__ = _check_fields  # type: ignore[attr-defined]
        verb = cls.__dict__.get("verb")
        if verb:
            VERBS.register(verb, (*_without(VERBS.loaded.get(verb, ()), cls), cls), replace=True)

    @classmethod
    def parse(cls, args: list[str], text: str) -> Move | None:
        """The move written ``verb args...``, or None if ``args`` do not fit this class."""
        return cls() if not args else None

    def describe(self, state: GameState) -> str:
        """A short sentence for people, in this position."""
        return str(self)

    def announce(self, state: GameState) -> str:
        """What every player learns of this move, in words (a log line that
        keeps the mover's secrets: which tickets were kept, the piece split)."""
        return self.describe(state)

    def problem(self) -> str | None:
        """Why the field values are not well-formed (wrong types), or None.

        The constructor asks it: a move with malformed fields is never built
        (``DrawFaceUp(2.0)`` raises :class:`~ttr_lab.errors.InvalidMoveError`),
        so no move compares equal to a legal move it is not.  A subclass with
        fields overrides it (defining it gives the class a ``__post_init__``
        that asks it); one that defines its own ``__post_init__`` calls
        :func:`refuse_malformed` from it.  :meth:`GameState.why_illegal
        <ttr_lab.engine.state.GameState.why_illegal>` asks it again, for a move built
        around its constructor.
        """
        return None

    def sort_key(self) -> tuple[Any, ...]:
        return (self.rank, self._fields())

    def __format__(self, spec: str) -> str:
        try:
            text = str(self)
        except (TypeError, ValueError):  # a hand-built move with malformed fields (problem() says which)
            text = show_value(self)
        return format(text, spec)

    def _fields(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            if not f.repr:
                continue
            value = getattr(self, f.name)
            if f.default is not MISSING and value == f.default:
                continue
            parts.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def __lt__(self, other: Move) -> bool:
        return self.sort_key() < other.sort_key()

    def __le__(self, other: Move) -> bool:
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: Move) -> bool:
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: Move) -> bool:
        return self.sort_key() >= other.sort_key()


def _check_fields(move: Move) -> None:
    """The ``__post_init__`` of a move class with a ``problem`` method."""
    if move.problem() is not None:
        refuse_malformed(move)


def refuse_malformed(move: Move) -> None:
    """Raise :class:`~ttr_lab.errors.InvalidMoveError` if ``move.problem()``
    finds a malformed field (what every move's constructor does).

    Whole-number fields hold an ``int`` and nothing else: ``2.0``, ``True``
    or a NumPy integer compare equal to ``2``, ``1``..., so a move holding
    one would look legal (``m in list(game.legal_moves)``) while
    :meth:`~ttr_lab.engine.state.GameState.play` refuses it.

    >>> from ttr_lab.engine.moves import DrawFaceUp
    >>> DrawFaceUp(True)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.InvalidMoveError: malformed DrawFaceUp move: a face-up slot is a whole number, not True
    """
    problem = move.problem()
    if problem is not None:
        raise InvalidMoveError(f"malformed {type(move).__name__} move: {problem}")


def parse_move(text: str) -> Move:
    """Parse the notation produced by ``str(move)``, for the moves of every edition.

    Raises :class:`~ttr_lab.errors.InvalidMoveError` quoting the text.
    Parsing takes time linear in the text, which is at most
    :data:`MAX_MOVE_TEXT` characters.

    >>> parse_move("keep 17 3")
    KeepTickets(tickets=(3, 17))
    >>> parse_move("fly to the moon")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.InvalidMoveError: unknown move 'fly to the moon' (expected one of: blind, claim, exchange, faceup, harbor, keep, pass, pieces, station, stop, tickets, tunnel)
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move's notation is a string, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError(f"move text of {len(text)} characters is too long (at most {MAX_MOVE_TEXT})")
    words = text.split()
    if words and words[-1][:1] == "=":  # a recorded chance outcome follows the move (see parse_outcome)
        words.pop()
    if not words:
        raise InvalidMoveError("empty move text")
    if "?" in words:
        raise InvalidMoveError(
            f"{_clip(text)!r} is a decision the recording seat did not see: only a seat record holds it "
            "(ttr_lab.records.chance.parse_recorded reads it)"
        )
    verb, args = words[0], words[1:]
    classes = VERBS.loaded.get(verb)
    if not classes:
        _load_verbs()
        classes = VERBS.loaded.get(verb)
    if not classes:
        raise InvalidMoveError(f"unknown move {_clip(text)!r} (expected one of: {', '.join(sorted(VERBS.loaded))})")
    for cls in classes:
        move = cls.parse(args, text)
        if move is not None:
            return move
    raise InvalidMoveError(f"malformed {verb!r} move {_clip(text)!r}")
