"""Saved games and positions: versioned JSON, never pickle or eval.

Two formats:

* a **game record** (:class:`Record`): edition, options, players, seed and the
  moves in notation, plus optional PGN-like headers.  Replaying it rebuilds
  every position exactly, because every shuffle derives from the seed;
* a **position** (:func:`position_to_dict` / :func:`position_from_dict`): a
  full snapshot of one moment, decks and phase included, for analysis.

Both dump to JSON deterministically, so save -> load -> save is byte-identical.
Anything malformed raises :class:`~ttr_lab.errors.RecordError` naming the field
or the ply, and nothing is half-loaded.

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
from typing import TYPE_CHECKING, Any

from .editions import find_edition
from .errors import RecordError, TtrError
from .moves import parse_move

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = [
    "Record",
    "position_to_dict",
    "position_from_dict",
    "position_problems",
    "save_position",
    "load_position",
    "dumps",
]

RECORD_FORMAT = "ttr_lab.record"
POSITION_FORMAT = "ttr_lab.position"
VERSION = 1

_PHASES = {"setup_tickets": 0, "turn": 1, "second_card": 2, "keep_tickets": 3, "tunnel": 4, "setup_pieces": 5, "game_over": 9}
_PHASE_NAMES = {v: k for k, v in _PHASES.items()}


def dumps(data: dict[str, Any]) -> str:
    """The project's canonical JSON text (stable, human-readable)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- positions
def position_to_dict(state: "GameState") -> dict[str, Any]:
    """A full, JSON-ready snapshot of a position (decks bottom to top)."""
    ed = state.edition
    names = [c.name for c in ed.card_types]
    piles = ed.pile_names

    def cards(seq: tuple[int, ...]) -> list[str | None]:
        return [names[c] if c >= 0 else None for c in seq]

    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "edition": ed.name,
        "options": {k: ed.options[k] for k in sorted(ed.options)},
        "players": list(state.player_names),
        "seed": state.seed,
        "first_player": state._first,
        "phase": _PHASE_NAMES[state._phase],
        "current": state._cur,
        "turn": state._turn,
        "decks": {piles[i]: cards(d) for i, d in enumerate(state._decks)},
        "discards": {piles[i]: cards(d) for i, d in enumerate(state._discards)},
        "row": cards(state._row),
        "hands": [{names[c]: k for c, k in enumerate(h) if k} for h in state._hands],
        "tickets": [list(t) for t in state._tickets],
        "pending": list(state._pending),
        "setup_deal": [list(t) for t in state._setup_deal],
        "ticket_deck": list(state._tdeck),
        "owners": {str(ed.routes[i].id): o for i, o in enumerate(state._owners) if o >= 0},
        "pieces": list(state._pieces),
        "scores": list(state._scores),
        "final_turns_left": None if state._final < 0 else state._final,
        "passes": state._passes,
        "shuffles": state._shuffles,
        "resets": state._resets,
        "extra": state._extra_to_dict(),
    }


_POSITION_KEYS = {
    "format": str, "version": int, "edition": str, "options": dict, "players": list, "seed": int,
    "first_player": int, "phase": str, "current": int, "turn": int, "decks": dict, "discards": dict,
    "row": list, "hands": list, "tickets": list, "pending": list, "setup_deal": list,
    "ticket_deck": list, "owners": dict, "pieces": list, "scores": list,
    "final_turns_left": (int, type(None)), "passes": int, "shuffles": int, "resets": int, "extra": dict,
}


def _typecheck(where: str, data: Any, spec: dict[str, Any]) -> None:
    if not isinstance(data, dict):
        raise RecordError(where, f"expected a JSON object, got {type(data).__name__}")
    for key in data:
        if key not in spec:
            raise RecordError(f"{where}.{key}", "unknown field")
    for key, typ in spec.items():
        if key not in data:
            raise RecordError(f"{where}.{key}", "missing field")
        v = data[key]
        if isinstance(v, bool) and typ is not bool or not isinstance(v, typ):
            raise RecordError(f"{where}.{key}", f"wrong type {type(v).__name__}")


def _int_list(where: str, v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise RecordError(where, "expected a list of integers")
    return tuple(v)


def position_from_dict(data: dict[str, Any], where: str = "position") -> "GameState":
    """Rebuild a position saved by :func:`position_to_dict`; checks everything."""
    from .state import GameState

    _typecheck(where, data, _POSITION_KEYS)
    if data["format"] != POSITION_FORMAT:
        raise RecordError(f"{where}.format", f"expected {POSITION_FORMAT!r}, got {data['format']!r}")
    if data["version"] != VERSION:
        raise RecordError(f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})")
    try:
        ed = find_edition(data["edition"], **data["options"])
    except TtrError as e:
        raise RecordError(f"{where}.edition", str(e)) from e
    try:
        fresh = GameState(ed, [str(p) for p in data["players"]], seed=data["seed"])
    except TtrError as e:
        raise RecordError(f"{where}.players", str(e)) from e
    state = fresh.copy()
    index = ed.card_index
    n = state.n

    def cards(key: str, seq: Any, allow_none: bool = False) -> tuple[int, ...]:
        if not isinstance(seq, list):
            raise RecordError(key, "expected a list of card names")
        out = []
        for i, name in enumerate(seq):
            if name is None and allow_none:
                out.append(-1)
            elif name in index:
                out.append(index[name])
            else:
                raise RecordError(f"{key}[{i}]", f"unknown card {name!r}")
        return tuple(out)

    def piles(key: str) -> tuple[tuple[int, ...], ...]:
        d = data[key]
        if set(d) != set(ed.pile_names):
            raise RecordError(f"{where}.{key}", f"expected piles {list(ed.pile_names)}, got {sorted(d)}")
        return tuple(cards(f"{where}.{key}.{p}", d[p]) for p in ed.pile_names)

    if data["phase"] not in _PHASES:
        raise RecordError(f"{where}.phase", f"unknown phase {data['phase']!r}")
    for key in ("hands", "tickets", "pieces", "scores"):
        if len(data[key]) != n:
            raise RecordError(f"{where}.{key}", f"expected {n} entries, one per player")
    for key in ("current", "first_player"):
        if not 0 <= data[key] < n:
            raise RecordError(f"{where}.{key}", f"seat {data[key]} out of range")
    state._phase = _PHASES[data["phase"]]
    state._cur = data["current"]
    state._first = data["first_player"]
    state._turn = data["turn"]
    state._decks = piles("decks")
    state._discards = piles("discards")
    state._row = cards(f"{where}.row", data["row"], allow_none=True)
    if len(state._row) != ed.row_size:
        raise RecordError(f"{where}.row", f"expected {ed.row_size} slots")
    hands = []
    for p, h in enumerate(data["hands"]):
        if not isinstance(h, dict):
            raise RecordError(f"{where}.hands[{p}]", "expected an object of card counts")
        counts = [0] * len(ed.card_types)
        for name, k in h.items():
            if name not in index:
                raise RecordError(f"{where}.hands[{p}].{name}", "unknown card")
            if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                raise RecordError(f"{where}.hands[{p}].{name}", f"bad count {k!r}")
            counts[index[name]] = k
        hands.append(tuple(counts))
    state._hands = tuple(hands)
    state._tickets = tuple(_int_list(f"{where}.tickets[{p}]", t) for p, t in enumerate(data["tickets"]))
    state._pending = _int_list(f"{where}.pending", data["pending"])
    state._setup_deal = tuple(_int_list(f"{where}.setup_deal[{p}]", t) for p, t in enumerate(data["setup_deal"]))
    state._tdeck = _int_list(f"{where}.ticket_deck", data["ticket_deck"])
    owners = [-1] * len(ed.routes)
    for rid, seat in data["owners"].items():
        if not rid.isdigit() or int(rid) not in ed.route_index:
            raise RecordError(f"{where}.owners.{rid}", "unknown route")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise RecordError(f"{where}.owners.{rid}", f"bad seat {seat!r}")
        owners[ed.route_index[int(rid)]] = seat
    state._owners = tuple(owners)
    state._pieces = _int_list(f"{where}.pieces", data["pieces"])
    state._scores = _int_list(f"{where}.scores", data["scores"])
    ftl = data["final_turns_left"]
    state._final = -1 if ftl is None else ftl
    state._passes = data["passes"]
    state._shuffles = data["shuffles"]
    state._resets = data["resets"]
    try:
        state._extra_from_dict(data["extra"])
    except TtrError as e:
        raise RecordError(f"{where}.extra", str(e)) from e
    state._legal = None
    state._derive_free()
    problems = position_problems(state)
    if problems:
        raise RecordError(where, "inconsistent position: " + "; ".join(problems))
    return state


def position_problems(state: "GameState") -> list[str]:
    """Conservation and consistency checks (an empty list when all is well)."""
    ed = state.edition
    out: list[str] = []
    n = len(ed.card_types)
    counts = [0] * n
    for seq in state._decks + state._discards + (state._row,):
        for c in seq:
            if c >= 0:
                counts[c] += 1
    for h in state._hands:
        for c, k in enumerate(h):
            counts[c] += k
    for c in state._cards_elsewhere():
        counts[c] += 1
    want = [0] * n
    for pile in ed.deck_composition:
        for c, k in pile:
            want[c] += k
    for c in range(n):
        if counts[c] != want[c]:
            out.append(f"{counts[c]} {ed.card_types[c].name} cards in play, expected {want[c]}")
    for pile, seq in enumerate(state._decks + state._discards):
        for c in seq:
            if ed.card_types[c].pile != pile % len(ed.pile_names):
                out.append(f"card {ed.card_types[c].name} in the wrong pile")
                break
    out.extend(state._piece_problems())
    seen: list[int] = list(state._tdeck) + list(state._pending) + [t for ts in state._tickets for t in ts]
    if state._phase == 0 and state._setup_deal:
        # players after the current chooser (in seat order, until the first
        # player comes round again) still hold their dealt tickets
        p = (state._cur + 1) % state.n
        while p != state._first:
            seen += list(state._setup_deal[p])
            p = (p + 1) % state.n
    seen += state._ticket_extra()
    universe = set(state._ticket_universe())
    dupes = {t for t in seen if seen.count(t) > 1}
    if dupes:
        out.append(f"tickets {sorted(dupes)} appear twice")
    unknown = [t for t in seen if t not in universe]
    if unknown:
        out.append(f"tickets {sorted(unknown)} are not in this edition's deck")
    missing = universe - set(seen)
    if missing:
        out.append(f"tickets {sorted(missing)} are missing")
    from .scoring import route_points

    for p in range(state.n):
        expect = route_points(state, p) + state._score_offset(p)
        if state._scores[p] != expect:
            out.append(f"player {p}'s running score {state._scores[p]} differs from the recount {expect}")
    return out


def save_position(state: "GameState", path: str | Path) -> None:
    Path(path).write_text(dumps(position_to_dict(state)), encoding="utf-8")


def load_position(path: str | Path) -> "GameState":
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise RecordError(str(path), f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e
    except OSError as e:
        raise RecordError(str(path), f"cannot read: {e.strerror or e}") from e
    return position_from_dict(data, where=str(path))


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
    def from_state(cls, state: "GameState", *, headers: dict[str, str] | None = None) -> "Record":
        """The record of a game so far (every move on its stack, from the start)."""
        first = state._stack[0] if state._stack else state.__dict__
        if first.get("_phase") != 0 or first.get("_turn") != 0:
            raise RecordError("state", "the game does not start from its initial position (loaded from a mid-game snapshot?)")
        ed = state.edition
        result = None
        if state.is_over:
            out = state.outcome()
            result = {"scores": list(out.scores), "winners": list(out.winners)}
        return cls(
            edition=ed.name,
            options={k: ed.options[k] for k in sorted(ed.options)},
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
    def from_dict(cls, data: Any, where: str = "record") -> "Record":
        spec = {"format": str, "version": int, "edition": str, "options": dict, "players": list,
                "seed": int, "headers": dict, "moves": list}
        if isinstance(data, dict) and "result" in data:
            data = dict(data)
            result = data.pop("result")
            if not isinstance(result, dict) or set(result) != {"scores", "winners"}:
                raise RecordError(f"{where}.result", "expected {'scores': [...], 'winners': [...]}")
        else:
            result = None
        _typecheck(where, data, spec)
        if data["format"] != RECORD_FORMAT:
            raise RecordError(f"{where}.format", f"expected {RECORD_FORMAT!r}, got {data['format']!r}")
        if data["version"] != VERSION:
            raise RecordError(f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})")
        for i, m in enumerate(data["moves"]):
            if not isinstance(m, str):
                raise RecordError(f"{where}.moves[{i}]", "a move is a string in notation", ply=i + 1)
        for k, v in data["headers"].items():
            if not isinstance(v, str):
                raise RecordError(f"{where}.headers.{k}", "header values are strings")
        if not all(isinstance(p, str) for p in data["players"]):
            raise RecordError(f"{where}.players", "player names are strings")
        try:
            find_edition(data["edition"], **data["options"])
        except TtrError as e:
            raise RecordError(f"{where}.edition", str(e)) from e
        return cls(data["edition"], dict(data["options"]), list(data["players"]), data["seed"],
                   list(data["moves"]), dict(data["headers"]), result)

    def dumps(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def loads(cls, text: str, where: str = "record") -> "Record":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(where, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e
        return cls.from_dict(data, where)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(str(path), f"cannot read: {e.strerror or e}") from e
        return cls.loads(text, where=str(path))

    def replay(self, *, upto: int | None = None) -> "GameState":
        """Play the moves from the start, validating each; ``upto`` stops after
        that many plies.  An illegal or malformed move raises RecordError with
        its ply (1-based)."""
        from .state import GameState

        try:
            state = GameState(find_edition(self.edition, **self.options), list(self.players), seed=self.seed)
        except TtrError as e:
            raise RecordError("record", str(e)) from e
        moves = self.moves if upto is None else self.moves[:upto]
        for ply, text in enumerate(moves, 1):
            try:
                state.play(parse_move(text))
            except TtrError as e:
                raise RecordError(f"ply {ply} ({text!r})", str(e), ply=ply) from e
        if upto is None and self.result is not None:
            if not state.is_over:
                raise RecordError("record.result", "a result is given but the moves do not finish the game")
            out = state.outcome()
            if list(out.scores) != self.result["scores"] or list(out.winners) != self.result["winners"]:
                raise RecordError("record.result", f"the result does not match the replay (replay: scores {list(out.scores)}, winners {list(out.winners)})")
        return state

    def __len__(self) -> int:
        return len(self.moves)
