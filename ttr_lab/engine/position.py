"""Positions as JSON-ready dicts: a full snapshot of one moment, and back.

:func:`position_to_dict` writes every field (decks bottom to top); the
edition's own fields go under ``"extra"``, written and read by the
:class:`~ttr_lab.engine.rules.Field` entries its rules declare.
:func:`position_from_dict` checks every field's type and range, then refuses
a position that :meth:`GameState.problems` would call impossible, naming the
field and the problem in a :class:`~ttr_lab.errors.RecordError`; nothing is
half-loaded.

A custom map is embedded in the options with its SHA-256 digest, so loading
a position never opens a file named inside it.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> d = position_to_dict(g)
>>> d["phase"], d["options"]["map"]
('setup_tickets', None)
>>> ttr_lab.GameState.from_dict(d).to_dict() == d
True
>>> ttr_lab.GameState.from_dict({**d, "phase": "tunnel"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ttr_lab.errors.RecordError: position: inconsistent position: phase tunnel does not exist in usa (phases: setup_tickets, turn, second_card, keep_tickets, game_over); ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import MapDataError, RecordError, TtrError
from ..io.numerals import is_numeral
from ..maps.loading import Map, map_from_dict
from .phases import Phase
from .rules import EditionBase, find_edition
from .rules.consistency import MAX_COUNTER
from .rules.setup import seat_names

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = [
    "POSITION_FORMAT",
    "VERSION",
    "position_to_dict",
    "fill_position",
    "options_to_json",
    "edition_from_json",
    "typecheck",
]

POSITION_FORMAT = "ttr_lab.position"
VERSION = 1


# ---------------------------------------------------------------- options and maps
def options_to_json(ed: EditionBase) -> dict[str, Any]:
    """The edition's options as JSON; a custom map is embedded with its digest."""
    out: dict[str, Any] = {}
    for k in sorted(ed.options):
        v = ed.options[k]
        if isinstance(v, Map):
            v = {"id": v.id, "sha256": v.digest, "data": v.to_dict()}
        out[k] = v
    return out


def _map_from_json(value: Any, where: str) -> Any:
    if value is None:
        return None
    if isinstance(value, str):
        if "/" in value or "\\" in value or value.endswith(".json"):
            raise RecordError(
                where,
                f"a saved game names its map by a shipped map's name or embeds it; it never opens a file ({value!r})",
            )
        return value
    if not isinstance(value, dict) or set(value) != {"id", "sha256", "data"}:
        raise RecordError(where, "expected null, a shipped map's name, or {id, sha256, data}")
    try:
        m = map_from_dict(value["data"], where)
    except MapDataError as e:
        raise RecordError(where, str(e)) from e
    if m.digest != value["sha256"]:
        raise RecordError(
            where, f"the embedded map's digest is {m.digest}, not {value['sha256']!r}: the map was changed"
        )
    return m


def edition_from_json(name: Any, options: Any, where: str) -> EditionBase:
    """The edition a saved game names, with its options checked."""
    if not isinstance(name, str):
        raise RecordError(f"{where}.edition", "expected an edition name")
    if not isinstance(options, dict):
        raise RecordError(f"{where}.options", "expected an object")
    opts = dict(options)
    if "map" in opts:
        opts["map"] = _map_from_json(opts["map"], f"{where}.options.map")
    try:
        return find_edition(name, **opts)
    except TtrError as e:
        raise RecordError(f"{where}.edition", str(e)) from e


# ---------------------------------------------------------------- to dict
def position_to_dict(state: GameState) -> dict[str, Any]:
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
        "options": options_to_json(ed),
        "players": list(state.player_names),
        "seed": state.seed,
        "first_player": state._first,
        "phase": state.phase.name.lower(),
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
        "extra": {f.key: f.dump(ed, getattr(state, f.attr)) for f in ed.fields_added if f.key},
    }


# ---------------------------------------------------------------- from dict
_KEYS: dict[str, Any] = {
    "format": str,
    "version": int,
    "edition": str,
    "options": dict,
    "players": list,
    "seed": int,
    "first_player": int,
    "phase": str,
    "current": int,
    "turn": int,
    "decks": dict,
    "discards": dict,
    "row": list,
    "hands": list,
    "tickets": list,
    "pending": list,
    "setup_deal": list,
    "ticket_deck": list,
    "owners": dict,
    "pieces": list,
    "scores": list,
    "final_turns_left": (int, type(None)),
    "passes": int,
    "shuffles": int,
    "resets": int,
    "extra": dict,
}


def typecheck(where: str, data: Any, spec: Mapping[str, Any], optional: Mapping[str, Any] | None = None) -> None:
    """Check a JSON object's keys and value types (bools are never ints)."""
    if not isinstance(data, dict):
        raise RecordError(where, f"expected a JSON object, got {type(data).__name__}")
    optional = optional or {}
    for key in data:
        if key not in spec and key not in optional:
            raise RecordError(f"{where}.{str(key)[:40]}", f"unknown field (fields: {', '.join(spec)})")
    for key, typ in {**spec, **optional}.items():
        if key not in data:
            if key in optional:
                continue
            raise RecordError(f"{where}.{key}", "missing field")
        v = data[key]
        if (isinstance(v, bool) and typ is not bool) or not isinstance(v, typ):
            raise RecordError(f"{where}.{key}", f"wrong type {type(v).__name__}")


def _count(where: str, v: Any, top: int = MAX_COUNTER, low: int = 0) -> int:
    if type(v) is not int or not low <= v <= top:
        raise RecordError(where, f"expected a whole number from {low} to {top}, got {str(v)[:40]!r}")
    return v


def _seat(where: str, v: Any, n: int) -> int:
    if type(v) is not int or not 0 <= v < n:
        raise RecordError(where, f"seat {str(v)[:40]} out of range (seats 0-{n - 1})")
    return v


def _ids(where: str, v: Any, known: set[int]) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise RecordError(where, "expected a list of ids")
    for i, x in enumerate(v):
        if type(x) is not int or x not in known:
            raise RecordError(f"{where}[{i}]", f"unknown ticket {str(x)[:40]!r}")
    return tuple(v)


def fill_position(state: GameState, data: Any, where: str = "position") -> None:
    """Fill a blank state (``object.__new__(GameState)``) from a position saved
    by :func:`position_to_dict`; checks everything."""
    typecheck(where, data, _KEYS)
    if data["format"] != POSITION_FORMAT:
        raise RecordError(f"{where}.format", f"expected {POSITION_FORMAT!r}, got {str(data['format'])[:40]!r}")
    if data["version"] != VERSION:
        raise RecordError(f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})")
    ed = edition_from_json(data["edition"], data["options"], where)
    try:
        names = seat_names(data["players"], ed)
    except TtrError as e:
        raise RecordError(f"{where}.players", str(e)) from e
    n = len(names)
    seed = data["seed"]
    if not 0 <= seed < 2**128:
        raise RecordError(f"{where}.seed", "expected a whole number from 0 to 2**128 - 1")
    state._init(ed, names, seed)  # type: ignore[arg-type]
    for f in ed.fields_added:  # every field, in the edition's order
        setattr(state, f.attr, f.initial(ed, n))
    _load_core(state, data, where)
    extra = data["extra"]
    keys = {f.key for f in ed.fields_added if f.key}
    if set(extra) != keys:
        raise RecordError(
            f"{where}.extra", f"{ed.name} positions have extra fields {sorted(keys)}, got {sorted(map(str, extra))}"
        )
    for f in ed.fields_added:
        if f.key:
            try:
                setattr(state, f.attr, f.load(ed, n, extra[f.key]))
            except TtrError as e:
                raise RecordError(f"{where}.extra.{f.key}", str(getattr(e, "problem", e))) from e
    ed.derive(state)
    problems = state.problems()
    if problems:
        raise RecordError(where, "inconsistent position: " + "; ".join(problems))


def _load_core(state: GameState, data: dict[str, Any], where: str) -> None:
    ed, n = state.edition, state.n
    index = ed.card_index

    def cards(key: str, seq: Any, allow_none: bool = False) -> tuple[int, ...]:
        if not isinstance(seq, list):
            raise RecordError(key, "expected a list of card names")
        if len(seq) > ed.total_cards:
            raise RecordError(key, f"{len(seq)} cards, more than the {ed.total_cards} of the game")
        out = []
        for i, name in enumerate(seq):
            if name is None and allow_none:
                out.append(-1)
            elif isinstance(name, str) and name in index:
                out.append(index[name])
            else:
                raise RecordError(f"{key}[{i}]", f"unknown card {str(name)[:40]!r}")
        return tuple(out)

    def piles(key: str) -> tuple[tuple[int, ...], ...]:
        d = data[key]
        if set(d) != set(ed.pile_names):
            raise RecordError(f"{where}.{key}", f"expected piles {list(ed.pile_names)}, got {sorted(map(str, d))}")
        return tuple(cards(f"{where}.{key}.{p}", d[p]) for p in ed.pile_names)

    try:
        phase = Phase.named(data["phase"])
    except TtrError as e:
        raise RecordError(f"{where}.phase", str(e)) from e
    for key in ("hands", "tickets", "pieces", "scores"):
        if len(data[key]) != n:
            raise RecordError(f"{where}.{key}", f"expected {n} entries, one per player")
    state._phase = int(phase)
    state._cur = _seat(f"{where}.current", data["current"], n)
    state._first = _seat(f"{where}.first_player", data["first_player"], n)
    state._turn = _count(f"{where}.turn", data["turn"])
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
                raise RecordError(f"{where}.hands[{p}].{str(name)[:40]}", "unknown card")
            counts[index[name]] = _count(f"{where}.hands[{p}].{name}", k, ed.total_cards)
        hands.append(tuple(counts))
    state._hands = tuple(hands)
    known = set(ed.ticket_universe())
    state._tickets = tuple(_ids(f"{where}.tickets[{p}]", t, known) for p, t in enumerate(data["tickets"]))
    state._pending = _ids(f"{where}.pending", data["pending"], known)
    if data["setup_deal"] and len(data["setup_deal"]) != n:
        raise RecordError(f"{where}.setup_deal", f"expected no deal or {n} entries, one per player")
    state._setup_deal = tuple(_ids(f"{where}.setup_deal[{p}]", t, known) for p, t in enumerate(data["setup_deal"]))
    state._tdeck = _ids(f"{where}.ticket_deck", data["ticket_deck"], known)
    owners = [-1] * len(ed.routes)
    for rid, seat in data["owners"].items():
        if not is_numeral(rid) or int(rid) not in ed.route_index:
            raise RecordError(f"{where}.owners.{rid[:40]}", "unknown route")
        owners[ed.route_index[int(rid)]] = _seat(f"{where}.owners.{rid}", seat, n)
    state._owners = tuple(owners)
    state._pieces = tuple(
        _count(f"{where}.pieces[{p}]", v, MAX_COUNTER, -MAX_COUNTER) for p, v in enumerate(data["pieces"])
    )
    state._scores = tuple(
        _count(f"{where}.scores[{p}]", v, MAX_COUNTER, -MAX_COUNTER) for p, v in enumerate(data["scores"])
    )
    ftl = data["final_turns_left"]
    state._final = -1 if ftl is None else _count(f"{where}.final_turns_left", ftl, n * ed.final_turns)
    state._passes = _count(f"{where}.passes", data["passes"], n)
    state._shuffles = _count(f"{where}.shuffles", data["shuffles"])
    state._resets = _count(f"{where}.resets", data["resets"])
