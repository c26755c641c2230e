"""Saved games and positions: versioned JSON, never pickle or eval.

Two formats:

* a **game record** (:class:`Record`): edition, options, players, seed and the
  moves in notation, plus optional PGN-like headers.  Replaying it rebuilds
  every position exactly, because every shuffle derives from the seed.  A
  record may also carry what chance produced (``Record.from_state(game,
  outcomes=True)``: the setup ``deal`` and each move's outcome, ``blind =red``;
  see :mod:`ttr_lab.records.chance`): then it replays without a seed, every outcome
  checked.  A *seat record* (``seat=``) leaves what that seat could not see
  unknown (``blind =?``, ``keep ? ?``) and replays to that seat's view
  (:meth:`Record.replay_view`; see :mod:`ttr_lab.records.seat_binding`);
* a **position** (:func:`save_position` / :func:`load_position`): a full
  snapshot of one moment, decks and phase included, for analysis (see
  :mod:`ttr_lab.engine.position`).

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
from typing import Any, cast

from ..engine.moves import MAX_MOVE_TEXT, parse_move
from ..engine.position import VERSION, edition_from_json, options_to_json, position_to_dict, typecheck
from ..engine.rules import Edition
from ..engine.state import GameState
from ..engine.view import PlayerView
from ..errors import RecordError, TtrError
from ..io.safeio import RECORD_LIMIT, atomic_write, load_json, loads_json, record_error
from .chance import MAX_OUTCOME_TEXT, split_outcome
from .replay import replay_moves, written_moves

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
#: the longest entry of a record's moves: a move and its outcome
MAX_ENTRY_TEXT = MAX_MOVE_TEXT + 1 + MAX_OUTCOME_TEXT


def dumps(data: dict[str, Any]) -> str:
    """The project's canonical JSON text (stable, human-readable)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_text(path: str | Path, text: str) -> None:
    """Write a file the caller named, atomically (:func:`~ttr_lab.io.safeio.atomic_write`: an
    existing file is replaced only by a complete one); a failure is a :class:`RecordError` naming it."""
    atomic_write(path, text, name=str(path))


# ---------------------------------------------------------------- positions
def position_from_dict(data: Any, where: str = "position") -> GameState:
    """Rebuild a position saved by :func:`position_to_dict` (``GameState.from_dict``)."""
    return GameState.from_dict(data, where)


def save_position(state: GameState, path: str | Path) -> None:
    write_text(path, dumps(position_to_dict(state)))


def load_position(path: str | Path) -> GameState:
    """Read a position file (at most :data:`~ttr_lab.io.safeio.RECORD_LIMIT` bytes)."""
    data = load_json(path, limit=RECORD_LIMIT, error=record_error, what="position file")
    return GameState.from_dict(data, where=str(path))


# ---------------------------------------------------------------- game records
@dataclass
class Record:
    """A whole game: enough to replay it move by move, exactly.

    ``seed`` is None in a record whose every chance move carries its
    outcome (a game played at a table); ``deal`` is then the setup deal
    (``{"first", "hands", "rows", "tickets"}``: the first player, each
    starting hand, each face-up row dealt, each seat's initial tickets; and
    each field the edition deals at setup, ``Field.dealt``, under its key).
    ``seat`` is set in a seat record: the seat it was kept from, whose
    unknowns (other hands and tickets: null; ``?`` in outcomes) stay unknown.
    """

    edition: str
    options: dict[str, Any]
    players: list[str]
    seed: int | None
    moves: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    deal: dict[str, Any] | None = None
    seat: int | None = None

    @classmethod
    def from_state(
        cls,
        state: GameState,
        *,
        headers: dict[str, str] | None = None,
        outcomes: bool = False,
        seat: int | None = None,
        seed: bool = True,
    ) -> Record:
        """The record of a game so far (every move on its stack, from the start).

        ``outcomes=True`` also writes the setup deal and what chance produced
        at each move (the game is replayed with recording on, so playing
        costs nothing); ``seed=False`` leaves the seed out (the record then
        replays from its outcomes alone).  ``seat=p`` writes a seat record
        from seat ``p`` (outcomes, no seed, what ``p`` could not see left
        unknown).

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=3)
        >>> for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2"]:
        ...     g.play(m)
        >>> rec = Record.from_state(g, outcomes=True, seed=False)
        >>> rec.moves[2:], rec.deal["rows"]
        (['blind =yellow', 'blind =white', 'faceup 2 =blue'], [['pink', 'white', 'green', 'loco', 'pink']])
        >>> rec.replay().view(0).to_dict() == g.view(0).to_dict()
        True
        >>> seat = Record.from_state(g, seat=1)
        >>> seat.moves
        ['keep ? ?', 'keep 5 16', 'blind =?', 'blind =?', 'faceup 2 =blue']
        >>> seat.replay_view().to_dict() == g.view(1).to_dict()
        True
        """
        first = dict(zip(state.edition.field_attrs, state._snapshot(0))) if state._moves else state.__dict__
        if first.get("_phase") != 0 or first.get("_turn") != 0:
            raise RecordError(
                "state", "the game does not start from its initial position (loaded from a mid-game snapshot?)"
            )
        if seat is not None:
            state.seat(seat)
        result = None
        if state.is_over and seat is None:
            out = state.outcome()
            result = {"scores": list(out.scores), "winners": list(out.winners)}
        deal = None
        moves = [str(m) for m in state.move_stack]
        if outcomes or seat is not None or not seed or state._chance is not None:
            deal, moves = written_moves(state, seat=seat)
        return cls(
            edition=state.edition.name,
            options=options_to_json(state.edition),
            players=list(state.player_names),
            seed=state.seed if seed and seat is None and state._chance is None else None,
            moves=moves,
            headers=dict(headers or {}),
            result=result,
            deal=deal,
            seat=seat,
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
        if self.deal is not None:
            d["deal"] = self.deal
        if self.seat is not None:
            d["seat"] = self.seat
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> Record:
        spec = {
            "format": str,
            "version": int,
            "edition": str,
            "options": dict,
            "players": list,
            "seed": (int, type(None)),
            "headers": dict,
            "moves": list,
        }
        typecheck(where, data, spec, {"result": dict, "deal": dict, "seat": int})
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
        if data["seed"] is not None and not 0 <= data["seed"] < 2**128:
            raise RecordError(f"{where}.seed", "expected a whole number from 0 to 2**128 - 1")
        if "seat" in data and not 0 <= data["seat"] < len(data["players"]):
            raise RecordError(f"{where}.seat", f"expected a seat 0-{len(data['players']) - 1}")
        if data["seed"] is None and "deal" not in data:
            raise RecordError(f"{where}.deal", "a record without a seed needs its deal")
        if len(data["moves"]) > MAX_MOVES:
            raise RecordError(f"{where}.moves", f"{len(data['moves'])} moves, more than {MAX_MOVES}")
        for i, m in enumerate(data["moves"]):
            move, _out = split_outcome(m) if isinstance(m, str) and len(m) <= MAX_ENTRY_TEXT else ("", None)
            if not isinstance(m, str) or len(m) > MAX_ENTRY_TEXT or len(move) > MAX_MOVE_TEXT:
                raise RecordError(
                    f"{where}.moves[{i}]",
                    f"a move is a string in notation of at most {MAX_MOVE_TEXT} characters "
                    f"(and its outcome at most {MAX_OUTCOME_TEXT})",
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
            data.get("deal"),
            data.get("seat"),
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
        """Read a record file (at most :data:`~ttr_lab.io.safeio.RECORD_LIMIT` bytes)."""
        data = load_json(path, limit=RECORD_LIMIT, error=record_error, what="game record")
        return cls.from_dict(data, where=str(path))

    def replay(self, *, upto: int | None = None) -> GameState:
        """Play the moves from the start, validating each; ``upto`` stops after
        that many plies.  An illegal or malformed move, or an outcome no card
        or ticket can explain, raises RecordError with its ply (1-based).

        A record with outcomes and a seed has them checked against the seed;
        one without a seed replays from them (the state's other shuffles are
        arbitrary).  For a seat record only ``.view(record.seat)`` of the
        result is meaningful: use :meth:`replay_view`."""
        ed = edition_from_json(self.edition, self.options, "record")
        plain = self.seed is not None and self.deal is None and self.seat is None
        if plain and not any("=" in text or "?" in text for text in self.moves):
            state = self._replay_plain(ed, upto)
        else:
            state = replay_moves(
                cast(Edition, ed), self.players, self.seed, self.deal, self.moves, seat=self.seat, upto=upto
            )
        if upto is None and self.result is not None and self.seat is None:
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

    def _replay_plain(self, ed: Any, upto: int | None) -> GameState:
        assert self.seed is not None
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
        return state

    def replay_view(self, seat: int | None = None, *, upto: int | None = None) -> PlayerView:
        """The replay as seen from ``seat`` (default: the seat a seat record was
        kept from): a :class:`~ttr_lab.engine.view.PlayerView` the analysis accepts."""
        if seat is None:
            seat = self.seat
        if seat is None:
            raise RecordError("record.seat", "name the seat to view the game from (replay_view(seat))")
        if self.seat is not None and seat != self.seat:
            raise RecordError("record.seat", f"a seat record of seat {self.seat} shows no other seat's view")
        state = self.replay(upto=upto)
        try:
            return state.view(seat)
        except TtrError as e:
            raise RecordError("record.seat", str(e)) from e

    def __len__(self) -> int:
        return len(self.moves)
