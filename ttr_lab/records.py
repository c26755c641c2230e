"""Saved games and positions: versioned JSON, never pickle or eval.

Two formats:

* a **game record** (:class:`Record`): edition, options, players, seed and the
  moves in notation, plus optional PGN-like headers.  Replaying it rebuilds
  every position exactly, because every shuffle derives from the seed;
* a **position** (:func:`save_position` / :func:`load_position`): a full
  snapshot of one moment, decks and phase included, for analysis (see
  :mod:`ttr_lab.position`).

Both dump to JSON deterministically, so save -> load -> save is byte-identical.
Files are read with a size limit and only when you name them; a custom map
travels inside the record, with its digest, so a saved game never opens a
path written in it.  Anything malformed raises
:class:`~ttr_lab.errors.RecordError` naming the file, the field or the ply,
and nothing is half-loaded.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.records import Record
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> g.play(g.legal_moves[0]); g.play(g.legal_moves[0])
>>> rec = Record.from_state(g, headers={"Event": "Lesson 1"})
>>> text = rec.dumps()
>>> Record.loads(text).dumps() == text
True
>>> Record.loads(text).replay().to_dict() == g.to_dict()
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RecordError, TtrError
from .moves import MAX_MOVE_TEXT, parse_move
from .position import VERSION, edition_from_json, options_to_json, position_to_dict, typecheck
from .safeio import RECORD_LIMIT, load_json, loads_json, record_error
from .state import GameState

__all__ = [
    "Record",
    "RECORD_FORMAT",
    "position_to_dict",
    "position_from_dict",
    "save_position",
    "load_position",
    "dumps",
    "write_text",
]

RECORD_FORMAT = "ttr_lab.record"
#: the most moves a record may hold (a real game has a few hundred)
MAX_MOVES = 100_000


def dumps(data: dict[str, Any]) -> str:
    """The project's canonical JSON text (stable, human-readable)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_text(path: str | Path, text: str) -> None:
    """Write a file the caller named; a failure is a :class:`RecordError` naming it."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise RecordError(str(path), f"cannot write: {e.strerror or e}") from e


# ---------------------------------------------------------------- positions
def position_from_dict(data: Any, where: str = "position") -> GameState:
    """Rebuild a position saved by :func:`position_to_dict` (``GameState.from_dict``)."""
    return GameState.from_dict(data, where)


def save_position(state: GameState, path: str | Path) -> None:
    write_text(path, dumps(position_to_dict(state)))


def load_position(path: str | Path) -> GameState:
    """Read a position file (at most :data:`~ttr_lab.safeio.RECORD_LIMIT` bytes)."""
    data = load_json(path, limit=RECORD_LIMIT, error=record_error, what="position file")
    return GameState.from_dict(data, where=str(path))


# ---------------------------------------------------------------- game records
@dataclass
class Record:
    """A whole game: enough to replay it move by move, exactly."""

    edition: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    moves: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: GameState, *, headers: dict[str, str] | None = None) -> Record:
        """The record of a game so far (every move on its stack, from the start)."""
        first = dict(zip(state.edition.field_attrs, state._stack[0])) if state._stack else state.__dict__
        if first.get("_phase") != 0 or first.get("_turn") != 0:
            raise RecordError(
                "state", "the game does not start from its initial position (loaded from a mid-game snapshot?)"
            )
        result = None
        if state.is_over:
            out = state.outcome()
            result = {"scores": list(out.scores), "winners": list(out.winners)}
        return cls(
            edition=state.edition.name,
            options=options_to_json(state.edition),
            players=list(state.player_names),
            seed=state.seed,
            moves=[str(m) for m in state.move_stack],
            headers=dict(headers or {}),
            result=result,
        )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": VERSION,
            "edition": self.edition,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "headers": self.headers,
            "moves": self.moves,
        }
        if self.result is not None:
            d["result"] = self.result
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> Record:
        spec = {
            "format": str,
            "version": int,
            "edition": str,
            "options": dict,
            "players": list,
            "seed": int,
            "headers": dict,
            "moves": list,
        }
        typecheck(where, data, spec, {"result": dict})
        if data["format"] != RECORD_FORMAT:
            hint = " (a position file: use load_position)" if data["format"] == "ttr_lab.position" else ""
            raise RecordError(f"{where}.format", f"expected {RECORD_FORMAT!r}, got {str(data['format'])[:40]!r}{hint}")
        if data["version"] != VERSION:
            raise RecordError(
                f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})"
            )
        result = data.get("result")
        if result is not None and (
            set(result) != {"scores", "winners"}
            or not all(isinstance(result[k], list) and all(type(v) is int for v in result[k]) for k in result)
        ):
            raise RecordError(f"{where}.result", "expected {'scores': [...], 'winners': [...]} of whole numbers")
        if not 0 <= data["seed"] < 2**128:
            raise RecordError(f"{where}.seed", "expected a whole number from 0 to 2**128 - 1")
        if len(data["moves"]) > MAX_MOVES:
            raise RecordError(f"{where}.moves", f"{len(data['moves'])} moves, more than {MAX_MOVES}")
        for i, m in enumerate(data["moves"]):
            if not isinstance(m, str) or len(m) > MAX_MOVE_TEXT:
                raise RecordError(
                    f"{where}.moves[{i}]",
                    f"a move is a string in notation of at most {MAX_MOVE_TEXT} characters",
                    ply=i + 1,
                )
        for k, v in data["headers"].items():
            if not isinstance(v, str):
                raise RecordError(f"{where}.headers.{str(k)[:40]}", "header values are strings")
        if not all(isinstance(p, str) for p in data["players"]):
            raise RecordError(f"{where}.players", "player names are strings")
        edition_from_json(data["edition"], data["options"], where)  # checks the options and any embedded map
        return cls(
            data["edition"],
            dict(data["options"]),
            list(data["players"]),
            data["seed"],
            list(data["moves"]),
            dict(data["headers"]),
            result,
        )

    def dumps(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def loads(cls, text: str, where: str = "record") -> Record:
        return cls.from_dict(loads_json(text, where=where, error=record_error), where)

    def save(self, path: str | Path) -> None:
        write_text(path, self.dumps())

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file (at most :data:`~ttr_lab.safeio.RECORD_LIMIT` bytes)."""
        data = load_json(path, limit=RECORD_LIMIT, error=record_error, what="game record")
        return cls.from_dict(data, where=str(path))

    def replay(self, *, upto: int | None = None) -> GameState:
        """Play the moves from the start, validating each; ``upto`` stops after
        that many plies.  An illegal or malformed move raises RecordError with
        its ply (1-based)."""
        ed = edition_from_json(self.edition, self.options, "record")
        try:
            state = GameState(ed, list(self.players), seed=self.seed)
        except TtrError as e:
            raise RecordError("record", str(e)) from e
        moves = self.moves if upto is None else self.moves[:upto]
        for ply, text in enumerate(moves, 1):
            try:
                state.play(parse_move(text))
            except TtrError as e:
                raise RecordError(f"ply {ply} ({text[:80]!r})", str(e), ply=ply) from e
        if upto is None and self.result is not None:
            if not state.is_over:
                raise RecordError("record.result", "a result is given but the moves do not finish the game")
            out = state.outcome()
            if list(out.scores) != self.result["scores"] or list(out.winners) != self.result["winners"]:
                raise RecordError(
                    "record.result",
                    f"the result does not match the replay (replay: scores {list(out.scores)}, "
                    f"winners {list(out.winners)})",
                )
        return state

    def __len__(self) -> int:
        return len(self.moves)
