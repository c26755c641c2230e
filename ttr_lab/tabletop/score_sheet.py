"""The table-game scorer: the final scores of a game played on a real board.

At the end of a game at a table, tell :func:`score` who owns which routes,
who holds which tickets, and the facts of the edition's own rules (its
``scorer_facts``: in Europe the stations; in Rails & Sails the harbors and
the pieces exchanged; a plug-in edition's own): it builds a consistent end
position (pieces and scores recomputed, every card on the discard but a
face-up row, the tickets nobody holds back in the deck or the box, each
edition field from its rules' table hooks:
:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.table_pieces`,
:meth:`~ttr_lab.engine.rules.hooks.EditionHooks.table_extra`), checks it
through :meth:`GameState.from_dict`, and returns the same breakdown as
:meth:`GameState.outcome`: route points, each ticket hit or missed with the
routes that complete it, the longest path with its routes, what each
station borrows, harbors, tours, bonuses and the tie-break order.

Players are named by name or by seat.  Every mistake in the input raises a
:class:`~ttr_lab.errors.TtrError` naming the entry: an unknown route, city,
ticket or player, a route owned twice, both routes of a double owned by one
player (or both used with 2-3 players), more trains (or ships) than a
player has, a ticket held twice, stations or harbors in an edition without
them.

>>> out = score("usa", players=["Ada", "Bob"],
...             routes={"Ada": [1, 2], "Bob": [57]}, tickets={"Ada": [1]})
>>> print(out)
Ada: 10 points
  routes (2): 12
  ticket miss Boston-Miami -12
  longest path: 7 cars (2 routes), bonus +10
Bob: 2 points
  routes (1): 2
  longest path: 2 cars (1 route)
Winner: Ada
>>> sheet = sheet_to_dict("usa", players=["Ada", "Bob"], routes={"Ada": [1, 2], "Bob": [57]}, tickets={"Ada": [1]})
>>> sheet["format"], sheet["routes"], sheet["result"]
('ttr_lab.scoresheet', [[1, 2], [57]], {'scores': [10, 2], 'winners': [0]})
>>> score(**sheet_from_dict(sheet)) == out
True
>>> score("usa", players=["Ada", "Bob"], routes={"Ada": [1], "Bob": [1]})
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: routes: route 1 (Atlanta-Charleston) is given to both Ada and Bob
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..engine.position import VERSION, edition_from_json, options_to_json, position_to_dict, typecheck
from ..engine.rules import Edition, EditionBase, Table, find_edition
from ..engine.rules.declarations import by_seat
from ..engine.rules.setup import seat_names
from ..engine.scoring import Outcome
from ..engine.state import GameState
from ..errors import NotFoundError, RecordError, TtrError
from ..io.safeio import RECORD_LIMIT, atomic_write, load_json, loads_json, record_error

__all__ = [
    "score",
    "end_position",
    "SCORESHEET_FORMAT",
    "sheet_to_dict",
    "sheet_from_dict",
    "save_sheet",
    "load_sheet",
    "loads_sheet",
]

#: the format name of a saved score sheet (see :mod:`ttr_lab.widgets.scorer`)
SCORESHEET_FORMAT = "ttr_lab.scoresheet"
#: the facts every sheet of format version 1 holds per seat (empty where an
#: edition has none), with a player's entry when not stated; an edition's
#: other facts follow them as per-seat lists (null when not stated)
SHEET_FACTS: Mapping[str, Any] = {"stations": [], "harbors": [], "exchanged": 0}

PlayerKey = str | int


def _edition(edition: EditionBase | str, options: Mapping[str, Any] | None) -> Edition:
    if options is not None and not isinstance(options, Mapping):
        raise TtrError(f"options is a dict of edition options, not {type(options).__name__}")
    if isinstance(edition, EditionBase):
        if options:
            raise TtrError("options go with an edition's name; an Edition object has its own")
        ed = edition
    else:
        ed = find_edition(edition, **dict(options or {}))
    assert isinstance(ed, Edition)
    return ed


def _by_seat(what: str, given: Any, names: tuple[str, ...]) -> dict[int, Any]:
    """``{player name or seat: value}`` -> ``{seat: value}``, every key checked."""
    return by_seat(what, given, names)


def _items(what: str, value: Any) -> list[Any]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise TtrError(f"{what} is a list, not {type(value).__name__}")
    return list(value)


def _id_hint(ed: Edition, given: Any) -> str:
    """For a route given by its ends (``"Seattle-Portland"``): which id to give instead."""
    if not isinstance(given, str):
        return ""
    try:
        route = ed.map.find_route(given)
    except TtrError:
        return " (routes are given by id)"
    return f" (routes are given by id: {given[:40]!r} is route {route.id})"


def _ticket_hint(ed: Edition, given: Any, universe: Any) -> str:
    """For a ticket given by its cities (``"Boston-Miami"``): which id to give instead."""
    if not isinstance(given, str):
        return ""
    want = sorted(c.strip().casefold() for c in given.split("-"))
    ids = [t for t in universe if sorted(c.casefold() for c in ed.map.ticket(t).cities) == want]
    ids_text = " or ".join(str(t) for t in sorted(ids))
    return f" (tickets are given by id: {given[:40]!r} is ticket {ids_text})" if ids else " (tickets are given by id)"


def _owners(ed: Edition, n: int, names: tuple[str, ...], routes: dict[int, Any]) -> dict[int, int]:
    owner: dict[int, int] = {}
    for seat in sorted(routes):
        for rid in _items(f"routes[{names[seat]}]", routes[seat]):
            if type(rid) is not int or rid not in ed.route_index:
                raise NotFoundError(
                    f"routes[{names[seat]}]: there is no route {str(rid)[:40]} on the {ed.map.id} map{_id_hint(ed, rid)}"
                )
            label = f"route {rid} ({ed.route_labels[ed.route_index[rid]]})"
            if rid in owner:
                if owner[rid] == seat:
                    raise TtrError(f"routes[{names[seat]}]: {label} is listed twice")
                raise TtrError(f"routes: {label} is given to both {names[owner[rid]]} and {names[seat]}")
            owner[rid] = seat
    for rid, seat in owner.items():
        ri = ed.route_index[rid]
        partner = ed.route_partner[ri]
        if partner < 0:
            continue
        other = ed.routes[partner].id
        if other not in owner or other < rid:
            continue
        pair = f"routes {rid} and {other} ({ed.route_labels[ri]})"
        if owner[other] == seat:
            raise TtrError(f"routes[{names[seat]}]: {pair} are the two routes of a double; no player may own both (A4)")
        if n < ed.double_route_min_players:
            raise TtrError(
                f"routes: {pair} are the two routes of a double; with {n} players only one of them is used (A4)"
            )
    return owner


def _facts(ed: Edition, facts: Mapping[str, Any], known: Mapping[str, str]) -> dict[str, Any]:
    """The edition facts given (not None), each one the edition takes (``known``)."""
    out = {key: value for key, value in facts.items() if value is not None}
    for key in out:
        if key not in known:
            raise TtrError(f"{key}: {ed.name} has no {key}")
    return out


def end_position(
    edition: EditionBase | str,
    *,
    players: int | Sequence[str],
    routes: Mapping[PlayerKey, Sequence[int]] | None = None,
    tickets: Mapping[PlayerKey, Sequence[int]] | None = None,
    options: Mapping[str, Any] | None = None,
    **facts: Any,
) -> GameState:
    """The end position :func:`score` scores (a finished game, checked)."""
    ed = _edition(edition, options)
    names = seat_names(players, ed)
    n = len(names)
    by = {key: _by_seat(key, value, names) for key, value in (("routes", routes), ("tickets", tickets))}
    given = _facts(ed, facts, ed.scorer_facts)
    owner = _owners(ed, n, names, by["routes"])
    d = position_to_dict(GameState(ed, list(names), seed=0))  # the base skeleton; every entry is set below
    d["owners"] = {str(rid): seat for rid, seat in sorted(owner.items())}
    points = [0] * n
    for rid, seat in owner.items():
        points[seat] += ed.route_points[ed.map.route(rid).length]
    t = Table(names, owner, given, scores=points)
    ed.table_pieces(t)
    held = t.tickets = _tickets(ed, d, names, by["tickets"])
    ed.table_extra(t)
    d["extra"] = _extra(ed, t)
    d.update(pieces=t.pieces, scores=t.scores, tickets=held)
    _cards(ed, d)
    d.update(phase="game_over", current=0, pending=[], setup_deal=[], final_turns_left=0, passes=0, turn=1)
    try:
        return GameState.from_dict(d, "score sheet")
    except RecordError as e:  # a rule the checks above do not know about
        raise TtrError(str(e)) from e


def _extra(ed: Edition, t: Table) -> dict[str, Any]:
    """The ``"extra"`` of a position stated at a table: every keyed field, from the edition's table hooks."""
    keys = [f.key for f in ed.fields_added if f.key]
    missing = [k for k in keys if k not in t.extra]
    if missing:
        raise TtrError(f"{missing[0]}: the {ed.name} rules give no value for this field at a table (table_extra)")
    return {k: t.extra[k] for k in keys}


def _tickets(ed: Edition, d: dict[str, Any], names: tuple[str, ...], given: dict[int, Any]) -> list[list[int]]:
    universe = ed.ticket_universe()
    known = set(universe)
    longs = set(ed.long_tickets)
    holder: dict[int, int] = {}
    held: list[list[int]] = [[] for _ in names]
    for seat in sorted(given):
        n_long = 0
        for t in _items(f"tickets[{names[seat]}]", given[seat]):
            if type(t) is not int or t not in known:
                raise NotFoundError(
                    f"tickets[{names[seat]}]: there is no ticket {str(t)[:40]} in {ed.name}{_ticket_hint(ed, t, universe)}"
                )
            if t in holder:
                who = "twice" if holder[t] == seat else f"by both {names[holder[t]]} and {names[seat]}"
                raise TtrError(f"tickets: ticket {t} ({ed.map.ticket(t).label()}) is held {who}")
            holder[t] = seat
            held[seat].append(t)
            n_long += t in longs
        if n_long > 1:
            raise TtrError(f"tickets[{names[seat]}]: {n_long} long tickets, but each player is dealt one")
    rest = [t for t in universe if t not in holder]
    d["ticket_deck"] = [t for t in rest if t not in longs]  # long tickets nobody holds: out of play (table_extra)
    return held


def _cards(ed: Edition, d: dict[str, Any]) -> None:
    """Every card on its pile's discard but a face-up row (a full row is required while cards remain)."""
    names = [c.name for c in ed.card_types]
    piles = ed.pile_names
    discards: list[list[str]] = [[] for _ in piles]
    for pile, comp in enumerate(ed.deck_composition):
        for c, k in comp:
            discards[pile] += [names[c]] * k
    row: list[str] = []
    for pile, k in enumerate(ed.row_split):
        plain = [name for name in discards[pile] if not ed.card_types[ed.card_index[name]].wild]
        for name in plain[-k:]:
            discards[pile].remove(name)
            row.append(name)
    d["row"] = row
    d["hands"] = [{} for _ in d["hands"]]
    d["decks"] = {p: [] for p in piles}
    d["discards"] = {p: discards[i] for i, p in enumerate(piles)}


def score(
    edition: EditionBase | str,
    *,
    players: int | Sequence[str],
    routes: Mapping[PlayerKey, Sequence[int]] | None = None,
    tickets: Mapping[PlayerKey, Sequence[int]] | None = None,
    options: Mapping[str, Any] | None = None,
    **facts: Any,
) -> Outcome:
    """Score a game played at a table (see the module doc); the same breakdown as ``GameState.outcome()``.

    Parameters
    ----------
    edition : an edition's name (``"usa"``, ``"europe"``, ``"world"``...) or an Edition
    players : the players' names (or their number)
    routes, tickets : ``{player: [route ids]}``, ``{player: [ticket ids]}``
    options : edition options when ``edition`` is a name
    facts : the edition's own facts, ``edition.scorer_facts``:
        ``stations={player: [cities]}`` (Europe); ``harbors={player: [cities]}``
        and ``exchanged={player: pieces exchanged}`` (Rails & Sails, 1 point
        each); a plug-in edition's own (a fact another edition has is an error)
    """
    return end_position(edition, players=players, routes=routes, tickets=tickets, options=options, **facts).outcome()


# ---------------------------------------------------------------- score sheets (JSON)
def _sheet_value(v: Any) -> Any:
    return list(v) if isinstance(v, (list, tuple, set, frozenset)) else v


def sheet_to_dict(
    edition: EditionBase | str, *, options: Mapping[str, Any] | None = None, **entries: Any
) -> dict[str, Any]:
    """A score sheet as JSON-ready data (format :data:`SCORESHEET_FORMAT`):
    the edition, its options, the players and, per seat, what :func:`score`
    takes, with the result.  The input is checked (scored) first."""
    state = end_position(edition, options=options, **entries)
    ed, names = state.edition, state.player_names
    out = state.outcome()
    d: dict[str, Any] = {
        "format": SCORESHEET_FORMAT,
        "version": VERSION,
        "edition": ed.name,
        "options": options_to_json(ed),
        "players": list(names),
    }
    for key in ("routes", "tickets"):
        by = _by_seat(key, entries.get(key), names)
        d[key] = [list(by.get(p, [])) for p in range(len(names))]
    for key in {**SHEET_FACTS, **ed.scorer_facts}:
        by = _by_seat(key, entries.get(key), names)
        d[key] = [_sheet_value(by.get(p, SHEET_FACTS.get(key))) for p in range(len(names))]
    d["result"] = {"scores": list(out.scores), "winners": list(out.winners)}
    return d


def sheet_from_dict(data: Any, where: str = "score sheet") -> dict[str, Any]:
    """The keyword arguments of :func:`score` from a saved sheet (checked; RecordError names the field)."""
    lists = ("routes", "tickets", "stations", "harbors")
    spec = {"format": str, "version": int, "edition": str, "options": dict, "players": list}
    spec.update(dict.fromkeys((*lists, "exchanged"), list))
    # an edition's own facts (lists) are checked against the edition below
    others = [k for k in data if k not in spec and k != "result"] if isinstance(data, dict) else []
    typecheck(where, data, spec, {"result": dict, **{k: list for k in others if isinstance(data[k], list)}})
    if data["format"] != SCORESHEET_FORMAT:
        raise RecordError(f"{where}.format", f"expected {SCORESHEET_FORMAT!r}, got {str(data['format'])[:40]!r}")
    if data["version"] != VERSION:
        raise RecordError(f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})")
    ed = cast(Edition, edition_from_json(data["edition"], data["options"], where))
    own = [k for k in ed.scorer_facts if k not in SHEET_FACTS]
    for key in others:
        if key not in own:
            raise RecordError(f"{where}.{str(key)[:40]}", f"unknown field (fields: {', '.join(spec)})")
    n = len(data["players"])
    for key in (*lists, "exchanged", *(k for k in own if k in data)):
        if not isinstance(data[key], list) or len(data[key]) != n:
            raise RecordError(f"{where}.{key}", f"expected {n} entries, one per player")
    kwargs: dict[str, Any] = {"edition": ed, "players": list(data["players"])}
    for key in lists:
        for p, items in enumerate(data[key]):
            if not isinstance(items, list):
                raise RecordError(f"{where}.{key}[{p}]", "expected a list")
        if any(data[key]):
            kwargs[key] = dict(enumerate(data[key]))
    if any(data["exchanged"]):
        kwargs["exchanged"] = dict(enumerate(data["exchanged"]))
    for key in own:
        if key in data and any(v is not None for v in data[key]):
            kwargs[key] = {p: v for p, v in enumerate(data[key]) if v is not None}
    try:
        out = score(**kwargs)
    except TtrError as e:
        raise RecordError(where, str(e)) from e
    result = data.get("result")
    if result is not None and result != {"scores": list(out.scores), "winners": list(out.winners)}:
        raise RecordError(f"{where}.result", f"the sheet scores {list(out.scores)}, not {str(result)[:80]}")
    return kwargs


def save_sheet(path: Any, edition: EditionBase | str, **entries: Any) -> None:
    """Write a score sheet (:func:`sheet_to_dict`) to ``path``."""
    text = json.dumps(sheet_to_dict(edition, **entries), indent=1, ensure_ascii=False) + "\n"
    atomic_write(path, text, name=str(path), what="score sheet")  # an existing file is replaced only by a whole one


def load_sheet(path: Any) -> dict[str, Any]:
    """Read a score sheet file (through :mod:`ttr_lab.io.safeio`): the keyword arguments of :func:`score`."""
    return sheet_from_dict(load_json(path, limit=RECORD_LIMIT, error=record_error, what="score sheet"), str(path))


def loads_sheet(text: str) -> dict[str, Any]:
    """:func:`load_sheet` from a string."""
    return sheet_from_dict(loads_json(text, where="score sheet", error=record_error))
