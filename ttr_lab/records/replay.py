"""Records that carry their chance outcomes: written from a game, replayed
with or without a seed, and seat records (used by :class:`ttr_lab.records.Record`).

* :func:`written_moves` replays a game with a recording chance slot
  (:mod:`ttr_lab.engine.rules.chance`), so playing costs nothing: each move's
  notation with what chance produced (``blind =red``), and the setup deal.
  From one seat (``seat=``), what that seat could not see is written ``?``.
* :func:`replay_moves` replays a record.  With a seed, the outcomes are
  checked against what the seed produces.  Without one, they are forced
  (from the deal on): each take removes the named card from the pile, and
  an outcome no card can explain is refused with its ply.  A seat record's
  unknowns are filled and bound late (:mod:`ttr_lab.records.seat_binding`).

The replayed state keeps a passive chance slot, so undo and redo on it (and
``PlayerView.history``) turn up the same cards.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> for m in ["keep 20 24", "keep 5 16", "tickets"]:
...     g.play(m)
>>> deal, moves = written_moves(g)
>>> deal["tickets"], moves
([[24, 27, 20], [25, 5, 16]], ['keep 20 24', 'keep 5 16', 'tickets =11,7,1'])
>>> written_moves(g, seat=1)[1]
['keep ? ?', 'keep 5 16', 'tickets =?,?,?']
>>> replay_moves(g.edition, g.player_names, None, deal, moves).pending_tickets == g.pending_tickets
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.moves import DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move
from ..engine.rules.chance import UNKNOWN, Chance
from ..engine.rules.hooks import LONG_TICKETS
from ..engine.rules.setup import seat_names
from ..engine.state import GameState
from ..errors import RecordError, TtrError
from .chance import ChanceOutcome, HiddenMove, Token, parse_recorded
from .seat_binding import SeatBinder

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.rules import Edition

__all__ = ["written_moves", "replay_moves", "FILL_SEED"]

#: the seed of the arbitrary shuffles under a replay without a seed (forced outcomes decide what matters)
FILL_SEED = 0
#: the keys of every record's deal; an edition's dealt fields (``Field.dealt``) add theirs
DEAL_KEYS = ("first", "hands", "rows", "tickets")


def _new_state(ed: Edition, names: tuple[str, ...], seed: int, chance: Chance) -> GameState:
    s = object.__new__(GameState)
    s._init(ed, names, seed)
    s._chance = chance
    ed.new_position(s)
    return s


# ---------------------------------------------------------------- writing
def _deal_of(s: GameState, ch: Chance) -> dict[str, Any]:
    ed = s.edition
    name = ed.card_name
    log = ch.log or [[]]
    return {
        "first": s._first,
        "hands": [{name(c): k for c, k in enumerate(h) if k} for h in s._hands],
        "rows": [[name(c) for c, _ in g] for g in log[1:]],
        "tickets": [list(t) for t in s._setup_deal],
        **{f.key: f.dump(ed, getattr(s, f.attr)) for f in ed.dealt_fields},
    }


def _seat_deal(ed: Edition, deal: dict[str, Any], seat: int) -> dict[str, Any]:
    """A deal as ``seat`` may see it: its own hand and tickets, each dealt field as its ``hidden`` says."""
    return {
        **deal,
        "hands": [h if p == seat else None for p, h in enumerate(deal["hands"])],
        "tickets": [t if p == seat else None for p, t in enumerate(deal["tickets"])],
        **{f.key: f.hide(deal[f.key], seat) for f in ed.dealt_fields if f.key in deal},
    }


def written_moves(state: GameState, *, seat: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """The setup deal and every move of ``state``'s history with its outcome;
    from ``seat``, what it could not see is ``?`` (and other seats' secret
    decisions ``keep ? ?``, ``pieces ?`` while unrevealed)."""
    ed = state.edition
    orig = state._chance
    if orig is not None and orig.deal is not None:  # itself a forced replay: its table turns up the same cards
        deal = orig.deal
        g = state.copy()
        if state._moves:
            g._restore(state._snapshot(0))
        ch = Chance(record=True, table=orig.table, fixups=orig.fixups)
    else:
        ch = Chance(record=True)
        g = _new_state(ed, state.player_names, state.seed, ch)
        start = state._snapshot(0) if state._moves else tuple(state.__dict__.values())
        if tuple(g.__dict__.values()) != tuple(start):
            raise RecordError("state", "the game's first position is not the deal its seed makes")
        deal = _deal_of(g, ch)
    g._chance = ch
    name = ed.card_name
    final = state._phase
    out = []
    for move in state._moves:
        q, phase = g._cur, g._phase
        hidden = seat is not None and q != seat
        secret = hidden and move.announce(g) != move.describe(g)
        ch.restart()
        g.push(move)
        text = str(move)
        if secret and isinstance(move, KeepTickets):
            text = str(HiddenMove("keep", len(move.tickets)))
        elif secret and final == phase:  # a secret still unrevealed at the end of the record
            text = str(HiddenMove(move.verb))
        groups: list[tuple[Token, ...]] = []
        for grp in ch.log or ():
            if grp:
                blind = hidden and type(move) is DrawBlind
                groups.append(tuple(None if blind else name(c) for c, _ in grp))
        for got in ch.tlog or ():
            groups.append(tuple(None if hidden else t for t in got))
        if groups:
            text += " " + str(ChanceOutcome(tuple(groups)))
        out.append(text)
    if seat is not None:
        deal = _seat_deal(ed, deal, seat)
    return dict(deal), out


# ---------------------------------------------------------------- the deal
def _deal_keys(ed: Edition) -> tuple[str, ...]:
    return DEAL_KEYS + tuple(f.key for f in ed.dealt_fields)


def _deal_queues(
    ed: Edition, n: int, deal: Any, seat: int | None
) -> tuple[list[list[int]], list[tuple[int, ...]], dict[str, list[Any]], int]:
    """The forced takes of a record's deal (RecordError naming the field)."""
    where = "record.deal"
    keys = _deal_keys(ed)
    if not isinstance(deal, dict) or set(deal) != set(keys):
        raise RecordError(where, "expected {" + ", ".join(keys) + "}")
    first = deal["first"]
    if type(first) is not int or not 0 <= first < n:
        raise RecordError(f"{where}.first", f"expected a seat 0-{n - 1}")
    index = ed.card_index
    hands, rows, tickets = deal["hands"], deal["rows"], deal["tickets"]
    if not isinstance(hands, list) or len(hands) != n:
        raise RecordError(f"{where}.hands", f"expected {n} entries, one per player")
    cards: list[int] = []
    for p, h in enumerate(hands):
        here = f"{where}.hands[{p}]"
        if h is None:
            if seat is None or p == seat:
                raise RecordError(here, "only a seat record leaves another seat's hand unknown (null)")
            cards += [UNKNOWN] * sum(ed.starting_cards)
            continue
        if not isinstance(h, dict) or not all(
            isinstance(c, str) and c in index and type(k) is int and 0 < k <= ed.total_cards for c, k in h.items()
        ):
            raise RecordError(here, "expected {card name: count} of this edition's cards")
        for pile, want in enumerate(ed.starting_cards):
            mine = sorted(index[c] for c, k in h.items() for _ in range(k) if ed._card_pile[index[c]] == pile)
            if len(mine) != want:
                raise RecordError(here, f"a starting hand holds {want} {ed.pile_names[pile]} cards, not {len(mine)}")
            cards += mine
    groups = [cards]
    if not isinstance(rows, list):
        raise RecordError(f"{where}.rows", "expected a list of face-up rows")
    for i, row in enumerate(rows):
        if not isinstance(row, list) or not all(isinstance(c, str) and c in index for c in row):
            raise RecordError(f"{where}.rows[{i}]", "expected a row of card names")
        groups.append([index[c] for c in row])
    if not isinstance(tickets, list) or len(tickets) != n:
        raise RecordError(f"{where}.tickets", f"expected {n} entries, one per player")
    known = set(ed.ticket_universe())
    longs = ed.long_tickets
    k = ed.setup_deal_size()
    takes: list[tuple[int, ...]] = []
    long_picks: list[int] = []
    for p, ts in enumerate(tickets):
        here = f"{where}.tickets[{p}]"
        if ts is None:
            if seat is None or p == seat:
                raise RecordError(here, "only a seat record leaves another seat's tickets unknown (null)")
            ids = [UNKNOWN] * k
        elif not isinstance(ts, list) or not all(type(t) is int and t in known for t in ts) or len(ts) != k:
            raise RecordError(here, f"expected the {k} ticket ids dealt (tickets of this edition)")
        else:
            ids = list(ts)
        if longs:
            long_picks.append(ids[0])
            ids = ids[1:]
        takes.append(tuple(ids))
    picks = {LONG_TICKETS: long_picks} if longs else {}
    for f in ed.dealt_fields:
        value = deal[f.key]
        if not isinstance(value, list) or len(value) > 1000:
            raise RecordError(f"{where}.{f.key}", "expected the list of what was dealt, in order")
        for i, v in enumerate(value):
            if v is None and (seat is None or f.hidden == "public" or (f.hidden == "own" and i == seat)):
                raise RecordError(
                    f"{where}.{f.key}[{i}]", "only a seat record leaves what another seat was dealt unknown (null)"
                )
        picks[f.key] = [UNKNOWN if v is None else v for v in value]
    return groups, takes, picks, first


# ---------------------------------------------------------------- replaying
def _concrete(s: GameState, move: Move | HiddenMove, seat: int | None) -> Move:
    """A hidden decision of another seat made concrete (an arbitrary legal choice)."""
    if not isinstance(move, HiddenMove):
        return move
    if seat is None or s._cur == seat:
        raise TtrError(f"'{move}' is another seat's hidden decision: only a seat record holds one, for another seat")
    legal = [m for m in s.legal_moves if m.verb == move.verb]
    if move.verb == "keep":
        pend = s._pending
        legal = [m for m in legal if isinstance(m, KeepTickets) and len(m.tickets) == move.count]
        if not legal:
            raise TtrError(f"keeps {move.count} of the {len(pend)} tickets drawn, which the rules do not allow")
        return KeepTickets(tuple(sorted(pend[: move.count])))
    if not legal:
        raise TtrError(f"no '{move.verb}' decision is due")
    if legal[0].announce(s) == legal[0].describe(s):
        raise TtrError(f"'{move}' stands for a secret decision, but every seat sees a '{move.verb}': write the move")
    return legal[0]


def _tokens(
    ed: Edition, s: GameState, move: Move, out: ChanceOutcome | None, seat: int | None
) -> tuple[list[list[int]], list[tuple[int, ...]]]:
    """The forced card groups and ticket takes of one move's outcome, checked."""
    if out is None:
        return [], []
    unseen_ok = seat is not None and s._cur != seat and type(move) in (DrawBlind, DrawTickets)
    if not unseen_ok and out.hidden:
        raise TtrError("'?' stands only for what the recording seat could not see: another seat's blind or ticket draw")
    if isinstance(move, DrawTickets):
        known = set(ed.ticket_universe())
        if len(out.groups) != 1 or not all(t is None or (type(t) is int and t in known) for t in out.groups[0]):
            raise TtrError(f"a ticket draw's outcome lists the {ed.name} ticket ids offered, top first (or ?)")
        return [], [tuple(UNKNOWN if t is None else int(t) for t in out.groups[0])]
    index = ed.card_index
    groups = []
    for grp in out.groups:
        bad = [t for t in grp if t is not None and (not isinstance(t, str) or t not in index)]
        if bad:
            raise TtrError(f"unknown card {str(bad[0])[:40]!r} in the outcome (cards: {', '.join(index)})")
        groups.append([UNKNOWN if t is None else index[str(t)] for t in grp])
    return groups, []


def replay_moves(
    ed: Edition,
    players: Sequence[str],
    seed: int | None,
    deal: Any,
    texts: Sequence[str],
    *,
    seat: int | None = None,
    upto: int | None = None,
) -> GameState:
    """Replay a record's moves with their outcomes (see the module doc)."""
    try:
        names = seat_names(list(players), ed)
    except TtrError as e:
        raise RecordError("record.players", str(e)) from e
    n = len(names)
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise RecordError("record.seat", f"expected a seat 0-{n - 1}")
    if seat is not None and seed is not None:
        raise RecordError("record.seed", "a seat record has no seed (the seed would tell every hidden card)")
    entries = []
    for ply, text in enumerate(texts, 1):
        try:
            entries.append(parse_recorded(text))
        except TtrError as e:
            raise RecordError(f"ply {ply} ({text[:80]!r})", str(e), ply=ply) from e
    forced = seed is None
    ch = Chance(record=True)
    if forced:
        if deal is None:
            raise RecordError("record.deal", "a record without a seed needs its deal (and the outcome of every move)")
        groups, takes, picks, first = _deal_queues(ed, n, deal, seat)
        ch.force(groups, takes, picks)
        ch.first, ch.deal = first, deal
    try:
        s = _new_state(ed, names, FILL_SEED if seed is None else seed, ch)
        left = ch.left() if forced else None
        if left:
            raise TtrError(left)
    except TtrError as e:
        raise RecordError("record.deal", str(e)) from e
    if not forced and deal is not None:
        _check_deal(_deal_of(s, ch), deal, _deal_keys(ed))
    binder = SeatBinder(s, seat) if seat is not None else None
    secrets: list[tuple[int, int]] = []  # (ply, phase) of hidden decisions other than keeps
    stop = len(entries) if forced or upto is None else min(upto, len(entries))
    for ply, (move, out) in enumerate(entries[:stop], 1):
        where = f"ply {ply} ({texts[ply - 1][:80]!r})"
        try:
            _one(ed, s, ch, move, out, seat, binder, forced)
        except TtrError as e:
            raise RecordError(where, str(e), ply=ply) from e
        if isinstance(move, HiddenMove) and move.verb != "keep":
            secrets.append((ply, s._snapshot(-1)[ed.field_attrs.index("_phase")]))
        for p, phase in secrets:
            if s._phase != phase:
                raise RecordError(
                    f"ply {p} ({texts[p - 1][:80]!r})",
                    f"this secret decision is revealed at ply {ply}: write it (e.g. '{s.move_stack[p - 1]}')",
                    ply=p,
                )
    ch.restart()
    s._chance = ch.passive() if forced else None
    if upto is not None:
        while s.ply > upto:
            s.pop()
    return s


def _one(
    ed: Edition,
    s: GameState,
    ch: Chance,
    entry: Move | HiddenMove,
    out: ChanceOutcome | None,
    seat: int | None,
    binder: SeatBinder | None,
    forced: bool,
) -> None:
    """Play one recorded move: bind, force (or record and compare), play."""
    q = s._cur
    move = _concrete(s, entry, seat)
    cards, takes = _tokens(ed, s, move, out, seat)
    if binder is not None:
        piled = []
        blind = ed._pile_by_name.get(move.pile) if type(move) is DrawBlind else None
        for c in (c for g in cards for c in g):
            piled.append((c, blind if c == UNKNOWN and blind is not None else ed._card_pile[c] if c >= 0 else -1))
        pre = tuple(s.__dict__.values())
        if binder.before(s, move, piled, [t for take in takes for t in take]):
            ch.fixups[pre] = tuple(s.__dict__.values())
    hand, pending = s._hands[q], s._pending
    taken = s._row[move.slot - 1] if type(move) is DrawFaceUp and 0 < move.slot <= len(s._row) else -1
    ch.restart()
    if forced:
        ch.force(cards, takes)
    s.play(move)
    if forced:
        left = ch.left()
        if left:
            s.pop()
            raise TtrError(left)
    elif out is not None:
        _compare(ed, ch, out, isinstance(move, DrawTickets))
    if binder is not None:
        log = ch.log or [[]]
        gained = [log[0][0]] if type(move) is DrawBlind and log[0] else [(taken, False)] if taken >= 0 else []
        binder.after(s, q, hand, gained, pending)


def _compare(ed: Edition, ch: Chance, out: ChanceOutcome, tickets: bool) -> None:
    """A seeded replay: the record's outcome must be what the seed produced."""
    if tickets:
        got: list[tuple[Token, ...]] = [tuple(t) for t in ch.tlog or ()]
    else:
        got = [tuple(ed.card_name(c) for c, _ in g) for g in ch.log or () if g]
    want = out.groups
    same = len(got) == len(want) and all(
        len(a) == len(b) and all(y is None or x == y for x, y in zip(a, b)) for a, b in zip(got, want)
    )
    if not same:
        raise TtrError(f"the seed turns up {ChanceOutcome(tuple(got)) if got else 'nothing'}, the record says {out}")


def _check_deal(made: dict[str, Any], deal: Any, keys: tuple[str, ...]) -> None:
    """A seeded replay with a deal: the deal must be the seed's."""
    if not isinstance(deal, dict):
        raise RecordError("record.deal", "expected {" + ", ".join(keys) + "}")
    for key in keys:
        if key not in deal:
            raise RecordError(f"record.deal.{key}", "missing field")
        if deal[key] != made[key]:
            raise RecordError(
                f"record.deal.{key}", f"the seed deals {str(made[key])[:200]}, the record says {str(deal[key])[:200]}"
            )
