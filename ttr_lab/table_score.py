"""The table-game scorer: the final scores of a game played on a real board.

At the end of a game at a table, tell :func:`score` who owns which routes,
who holds which tickets (and, in Europe, the stations; in Rails & Sails,
the harbors and the pieces exchanged): it builds a consistent end position
(pieces and scores recomputed, every card on the discard but a face-up
row, the tickets nobody holds back in the deck or the box), checks it
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
from typing import Any

from .core import Edition, EditionBase, find_edition
from .core.setup import seat_names
from .errors import NotFoundError, RecordError, TtrError
from .position import VERSION, edition_from_json, options_to_json, position_to_dict, typecheck
from .safeio import RECORD_LIMIT, atomic_write, load_json, loads_json, record_error
from .scoring import Outcome
from .state import GameState

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
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TtrError(f"{what} is a dict {{player: ...}}, not {type(given).__name__}")
    out: dict[int, Any] = {}
    for key, value in given.items():
        if type(key) is int and 0 <= key < len(names):
            seat = key
        elif isinstance(key, str) and key in names:
            seat = names.index(key)
        else:
            raise NotFoundError(
                f"{what}: no player {str(key)[:60]!r} (players: {', '.join(names)}; or seats 0-{len(names) - 1})"
            )
        if seat in out:
            raise TtrError(f"{what}: {names[seat]} is given twice (by name and by seat)")
        out[seat] = value
    return out


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


def _pieces(
    ed: Edition, d: dict[str, Any], names: tuple[str, ...], owner: dict[int, int], exchanged: dict[int, int]
) -> None:
    """Pieces in supply (trains; ships and the box in Rails & Sails), checked against the routes."""
    n = len(names)
    placed = [[0, 0] for _ in range(n)]
    for rid, seat in owner.items():
        r = ed.map.route(rid)
        placed[seat][1 if r.is_ship else 0] += r.length
    if "ships" not in d["extra"]:
        for p in range(n):
            if placed[p][0] > ed.pieces:
                raise TtrError(f"routes[{names[p]}]: {placed[p][0]} trains placed, but a player has {ed.pieces}")
        d["pieces"] = [ed.pieces - placed[p][0] for p in range(n)]
        return
    e: Any = ed
    total, tmax, smax = e.total_pieces, e.train_pieces, e.ship_pieces
    ships, box, choices = [], [], []
    for p in range(n):
        t_used, s_used = placed[p]
        lo, hi = max(t_used, total - smax), min(tmax, total - s_used)
        if t_used > tmax or s_used > smax or lo > hi:
            raise TtrError(
                f"routes[{names[p]}]: {t_used} trains and {s_used} ships placed, but a player has {total} pieces, "
                f"at most {tmax} trains and {smax} ships"
            )
        trains = lo
        d["pieces"][p] = trains - t_used
        ships.append(total - trains - s_used)
        box.append({"trains": tmax - trains, "ships": smax - (total - trains)})
        choices.append(min(max(trains, e.train_range[0]), e.train_range[1]))
    d["extra"].update(ships=ships, box=box, piece_choices=choices, exchanged=[exchanged.get(p, 0) for p in range(n)])


def end_position(
    edition: EditionBase | str,
    *,
    players: int | Sequence[str],
    routes: Mapping[PlayerKey, Sequence[int]] | None = None,
    tickets: Mapping[PlayerKey, Sequence[int]] | None = None,
    stations: Mapping[PlayerKey, Sequence[str]] | None = None,
    harbors: Mapping[PlayerKey, Sequence[str]] | None = None,
    exchanged: Mapping[PlayerKey, int] | None = None,
    options: Mapping[str, Any] | None = None,
) -> GameState:
    """The end position :func:`score` scores (a finished game, checked)."""
    ed = _edition(edition, options)
    names = seat_names(players, ed)
    n = len(names)
    by = {
        key: _by_seat(key, value, names)
        for key, value in (
            ("routes", routes),
            ("tickets", tickets),
            ("stations", stations),
            ("harbors", harbors),
            ("exchanged", exchanged),
        )
    }
    api = ed.state_api
    for key, accessor in (("stations", "stations_of"), ("harbors", "harbors_of"), ("exchanged", "exchanged")):
        if by[key] and accessor not in api:
            raise TtrError(f"{key}: {ed.name} has no {key}")
    owner = _owners(ed, n, names, by["routes"])
    d = position_to_dict(GameState(ed, list(names), seed=0))
    d["owners"] = {str(rid): seat for rid, seat in sorted(owner.items())}
    ex: dict[int, int] = {}
    for seat, k in by["exchanged"].items():
        if type(k) is not int or not 0 <= k <= 1000:
            raise TtrError(f"exchanged[{names[seat]}]: a number of pieces exchanged (0 or more), not {str(k)[:40]}")
        ex[seat] = k
    _pieces(ed, d, names, owner, ex)
    points = [0] * n
    for rid, seat in owner.items():
        points[seat] += ed.route_points[ed.map.route(rid).length]
    d["scores"] = [points[p] - ex.get(p, 0) for p in range(n)]
    d["tickets"] = _tickets(ed, d, names, by["tickets"])
    for key in ("stations", "harbors"):
        if by[key]:
            d["extra"][key] = _cities(ed, key, names, by[key], owner)
    _cards(ed, d)
    d.update(phase="game_over", current=0, pending=[], setup_deal=[], final_turns_left=0, passes=0, turn=1)
    try:
        return GameState.from_dict(d, "score sheet")
    except RecordError as e:  # a rule the checks above do not know about
        raise TtrError(str(e)) from e


def _tickets(ed: Edition, d: dict[str, Any], names: tuple[str, ...], given: dict[int, Any]) -> list[list[int]]:
    universe = ed.ticket_universe()
    known = set(universe)
    longs = set(getattr(ed, "long_tickets", ()))
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
    d["ticket_deck"] = [t for t in rest if t not in longs]
    if "box" in d["extra"] and isinstance(d["extra"]["box"], list) and longs:
        d["extra"]["box"] = [t for t in rest if t in longs]
    return held


def _cities(
    ed: Edition, key: str, names: tuple[str, ...], given: dict[int, Any], owner: dict[int, int]
) -> list[list[str]]:
    """Station or harbor cities per seat, checked: real cities, one per city, at most the pieces a player has."""
    out: list[list[str]] = [[] for _ in names]
    where: dict[str, int] = {}
    most = getattr(ed, "stations_per_player" if key == "stations" else "harbors", None)
    for seat in sorted(given):
        cities = _items(f"{key}[{names[seat]}]", given[seat])
        if isinstance(most, int) and len(cities) > most:
            raise TtrError(f"{key}[{names[seat]}]: {len(cities)} {key}, but a player has {most}")
        for c in cities:
            if not isinstance(c, str) or not ed.map.has_city(c):
                raise NotFoundError(f"{key}[{names[seat]}]: there is no city {str(c)[:60]!r} on the {ed.map.id} map")
            if c in where:
                raise TtrError(f"{key}: {c} has two {key} ({names[where[c]]}'s and {names[seat]}'s); one per city")
            where[c] = seat
            out[seat].append(c)
            if key == "harbors":
                if c not in getattr(ed, "_harbor_cities", frozenset()):
                    raise TtrError(f"harbors[{names[seat]}]: {c} is not a harbor city")
                if not any(o == seat and c in (ed.map.route(r).a, ed.map.route(r).b) for r, o in owner.items()):
                    raise TtrError(f"harbors[{names[seat]}]: {names[seat]} owns no route ending in {c} (B4)")
    return out


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
    stations: Mapping[PlayerKey, Sequence[str]] | None = None,
    harbors: Mapping[PlayerKey, Sequence[str]] | None = None,
    exchanged: Mapping[PlayerKey, int] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Outcome:
    """Score a game played at a table (see the module doc); the same breakdown as ``GameState.outcome()``.

    Parameters
    ----------
    edition : an edition's name (``"usa"``, ``"europe"``, ``"world"``...) or an Edition
    players : the players' names (or their number)
    routes, tickets : ``{player: [route ids]}``, ``{player: [ticket ids]}``
    stations, harbors : ``{player: [cities]}`` (Europe; Rails & Sails)
    exchanged : ``{player: pieces exchanged}`` (Rails & Sails, 1 point each)
    options : edition options when ``edition`` is a name
    """
    return end_position(
        edition,
        players=players,
        routes=routes,
        tickets=tickets,
        stations=stations,
        harbors=harbors,
        exchanged=exchanged,
        options=options,
    ).outcome()


# ---------------------------------------------------------------- score sheets (JSON)
_SHEET_LISTS = ("routes", "tickets", "stations", "harbors")


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
    for key in _SHEET_LISTS:
        by = _by_seat(key, entries.get(key), names)
        d[key] = [list(by.get(p, [])) for p in range(len(names))]
    ex = _by_seat("exchanged", entries.get("exchanged"), names)
    d["exchanged"] = [ex.get(p, 0) for p in range(len(names))]
    d["result"] = {"scores": list(out.scores), "winners": list(out.winners)}
    return d


def sheet_from_dict(data: Any, where: str = "score sheet") -> dict[str, Any]:
    """The keyword arguments of :func:`score` from a saved sheet (checked; RecordError names the field)."""
    spec = {"format": str, "version": int, "edition": str, "options": dict, "players": list}
    spec.update(dict.fromkeys((*_SHEET_LISTS, "exchanged"), list))
    typecheck(where, data, spec, {"result": dict})
    if data["format"] != SCORESHEET_FORMAT:
        raise RecordError(f"{where}.format", f"expected {SCORESHEET_FORMAT!r}, got {str(data['format'])[:40]!r}")
    if data["version"] != VERSION:
        raise RecordError(f"{where}.version", f"unsupported version {data['version']} (this ttr_lab reads {VERSION})")
    ed = edition_from_json(data["edition"], data["options"], where)
    n = len(data["players"])
    for key in (*_SHEET_LISTS, "exchanged"):
        if len(data[key]) != n:
            raise RecordError(f"{where}.{key}", f"expected {n} entries, one per player")
    kwargs: dict[str, Any] = {"edition": ed, "players": list(data["players"])}
    for key in _SHEET_LISTS:
        for p, items in enumerate(data[key]):
            if not isinstance(items, list):
                raise RecordError(f"{where}.{key}[{p}]", "expected a list")
        if any(data[key]):
            kwargs[key] = dict(enumerate(data[key]))
    if any(data["exchanged"]):
        kwargs["exchanged"] = dict(enumerate(data["exchanged"]))
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
    """Read a score sheet file (through :mod:`ttr_lab.safeio`): the keyword arguments of :func:`score`."""
    return sheet_from_dict(load_json(path, limit=RECORD_LIMIT, error=record_error, what="score sheet"), str(path))


def loads_sheet(text: str) -> dict[str, Any]:
    """:func:`load_sheet` from a string."""
    return sheet_from_dict(loads_json(text, where="score sheet", error=record_error))
