"""Exceptions raised by ttr_lab.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` catches
them all, and each message says what failed and where.

Examples
--------
>>> from ttr_lab.errors import IllegalMoveError
>>> err = IllegalMoveError("claim 3 gray:1", rule="A4", reason="route is claimed")
>>> str(err)
'illegal move claim 3 gray:1: route is claimed (rule A4)'
"""

from __future__ import annotations

__all__ = [
    "TtrError",
    "InvalidMoveError",
    "IllegalMoveError",
    "MapDataError",
    "RecordError",
    "OutOfRangeError",
    "NotFoundError",
    "WrongTypeError",
]


class TtrError(ValueError):
    """Base class of every ttr_lab error."""


class InvalidMoveError(TtrError):
    """A move's text notation could not be parsed, or a move was built with
    malformed fields (``DrawFaceUp(2.0)``: see ``Move.problem``)."""


class IllegalMoveError(TtrError):
    """A well-formed move that the rules forbid in the current position.

    Attributes
    ----------
    move : the move (or its text)
    rule : the section of the rules reference (docs/rules.md,
        :func:`ttr_lab.engine.reference.explain`) that forbids it, e.g. ``"A2"``
    reason : a sentence saying why
    """

    def __init__(self, move: object, *, rule: str, reason: str) -> None:
        self.move = move
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal move {move}: {reason} (rule {rule})")


class MapDataError(TtrError):
    """A map file is malformed: names the file, the entry and the problem."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.problem = problem
        super().__init__(f"{file}: {entry}: {problem}")


class RecordError(TtrError):
    """A saved game record or position is malformed or does not replay."""

    def __init__(self, where: str, problem: str, *, ply: int | None = None) -> None:
        self.where = where
        self.problem = problem
        self.ply = ply
        super().__init__(f"{where}: {problem}")


class OutOfRangeError(TtrError, IndexError):
    """An index past the end: a legal move that is not there, an undo with
    nothing to undo (also an :class:`IndexError`, as sequences raise)."""


class NotFoundError(TtrError, KeyError):
    """No such route, city, ticket or trace (also a :class:`KeyError`, as a
    failed lookup raises)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class WrongTypeError(TtrError, TypeError):
    """An argument of the wrong kind, e.g. a board drawn from something that
    is not a map (also a :class:`TypeError`)."""
