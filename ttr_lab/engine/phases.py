"""Phases: what kind of decision is due.

The base rules register the phases every edition has; an edition registers
its own (Europe's ``TUNNEL``, Rails & Sails' ``SETUP_PIECES``) with
:func:`register_phase`, and they become attributes of :class:`Phase`.

A phase is an ``int`` with a name, so it compares with plain numbers and is
stored in a position as one.

Examples
--------
>>> from ttr_lab.engine.phases import Phase
>>> Phase.TURN
<Phase.TURN: 1>
>>> Phase.TURN == 1, Phase.TURN.name
(True, 'TURN')
>>> Phase.named("second_card")
<Phase.SECOND_CARD: 2>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import TtrError

__all__ = ["Phase", "register_phase", "PHASE_LOADERS"]

#: what imports the phases not registered yet, run before a phase name or number is refused
#: (ttr_lab.engine.rules.registry adds one: the registered editions, whose rules register their phases)
PHASE_LOADERS: list[Callable[[], object]] = []


def _load_phases() -> None:
    for load in PHASE_LOADERS:
        load()


class _PhaseType(type):
    if not TYPE_CHECKING:  # at run time only: type checkers still refuse an unknown phase name

        def __getattr__(cls, name: str) -> Any:
            """``Phase.TUNNEL`` before Europe is imported: the editions are loaded, then asked again."""
            if name.isupper() and name not in cls._by_name:
                _load_phases()
            found = cls.__dict__.get("_by_name", {}).get(name)
            if found is None:
                raise AttributeError(f"type object 'Phase' has no attribute {name!r}")
            return found


class Phase(int, metaclass=_PhaseType):
    """A decision kind: an ``int`` with a ``name``, a one-line ``doc``, and
    what a move of the wrong kind is told (``busy``, citing rule ``rule``)."""

    name: str
    doc: str
    busy: str
    rule: str
    _by_value: ClassVar[dict[int, Phase]] = {}
    _by_name: ClassVar[dict[str, Phase]] = {}

    # the base rules' phases (each also set as a class attribute below)
    SETUP_TICKETS: ClassVar[Phase]
    TURN: ClassVar[Phase]
    SECOND_CARD: ClassVar[Phase]
    KEEP_TICKETS: ClassVar[Phase]
    GAME_OVER: ClassVar[Phase]

    def __new__(cls, value: int, name: str, doc: str = "", busy: str = "", rule: str = "A1") -> Phase:
        self = super().__new__(cls, value)
        self.name = name
        self.doc = doc
        self.busy = busy or f"phase {name}"
        self.rule = rule
        return self

    @property
    def value(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {int(self)}>"

    def __str__(self) -> str:
        return f"Phase.{self.name}"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Phase.of, (int(self),))

    @classmethod
    def of(cls, value: int) -> Phase:
        """The registered phase with this number."""
        if value not in cls._by_value:
            _load_phases()
        try:
            return cls._by_value[value]
        except (KeyError, TypeError):
            raise TtrError(f"no phase numbered {value!r}") from None

    @classmethod
    def named(cls, name: str) -> Phase:
        """The registered phase with this name (any case): ``Phase.named("turn")``."""
        if isinstance(name, str) and name.upper() not in cls._by_name:
            _load_phases()
        try:
            return cls._by_name[name.upper()]
        except (KeyError, AttributeError):
            known = ", ".join(p.name.lower() for p in cls.all())
            raise TtrError(f"unknown phase {name!r} (known: {known})") from None

    @classmethod
    def all(cls) -> tuple[Phase, ...]:
        """Every registered phase, by number."""
        return tuple(cls._by_value[v] for v in sorted(cls._by_value))


def register_phase(name: str, value: int, doc: str = "", *, busy: str = "", rule: str = "A1") -> Phase:
    """Register a phase (idempotent for the same name and number) and return it.

    ``busy`` is what a move of another phase is told (citing ``rule``).

    >>> register_phase("TURN", 1) is Phase.TURN
    True
    """
    old = Phase._by_name.get(name)
    if old is not None:
        if int(old) != value:
            raise TtrError(f"phase {name} is already registered as {int(old)}")
        return old
    if value in Phase._by_value:
        raise TtrError(f"phase number {value} is taken by {Phase._by_value[value].name}")
    phase = Phase(value, name, doc, busy, rule)
    Phase._by_value[value] = phase
    Phase._by_name[name] = phase
    setattr(Phase, name, phase)
    return phase


register_phase(
    "SETUP_TICKETS",
    0,
    "a player chooses which dealt tickets to keep",
    busy="players are choosing their initial tickets; expected a keep move",
    rule="A5",
)
register_phase("TURN", 1, "the current player chooses an action", busy="it is the start of a turn; expected an action")
register_phase(
    "SECOND_CARD", 2, "the current player draws a second card", busy="a card draw is under way; expected a second card"
)
register_phase(
    "KEEP_TICKETS",
    3,
    "the current player keeps some of the tickets drawn",
    busy="tickets were drawn; expected a keep move",
    rule="A5",
)
register_phase("GAME_OVER", 9, "nothing more to do", busy="the game is over", rule="A6")
