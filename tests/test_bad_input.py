"""Bad input of every kind ends in the library's own error, and leaves the
game exactly as it was: hand-built moves with wrong types, moves of another
edition, peeking at hidden information, hostile files and paths, impossible
positions, very long move texts, broken classroom maps and small API misuse.
A last test scans the source: every ``raise`` raises a :class:`TtrError`."""

from __future__ import annotations

import ast
import builtins
import copy
import dataclasses
import importlib
import io
import itertools
import json
import os
import pathlib
import typing
from contextlib import contextmanager

import pytest

import ttr_lab
from ttr_lab import (
    BuildHarbor,
    BuildStation,
    ChoosePieces,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    ExchangePieces,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    KeepTickets,
    MapDataError,
    PayTunnel,
    Phase,
    RecordError,
    TtrError,
    parse_move,
)
from ttr_lab.bots import make_bot
from ttr_lab.editions import EDITIONS
from ttr_lab.engine.moves import MAX_MOVE_TEXT
from ttr_lab.engine.view import PlayerView
from ttr_lab.errors import OutOfRangeError
from ttr_lab.io.safeio import RECORD_LIMIT
from ttr_lab.records import Record, dumps, load_position, save_position

from .helpers import arrange, past_setup, random_game, write_map

L = "loco"


def edition_specs() -> list[tuple[str, dict]]:
    """Every registered edition, plus each variant of an edition with a
    ``variant`` option (the USA 1910 variants), as (name, options)."""
    out = []
    for name, cls in sorted(EDITIONS.items()):
        out.append((name, {}))
        if "variant" in cls.option_defaults:
            default = cls.option_defaults["variant"]
            variants = {p["variant"] for p in cls.aliases.values() if "variant" in p}
            out += [(name, {"variant": v}) for v in sorted(variants - {default})]
    return out


SPECS = edition_specs()
SPEC_IDS = [name + "".join(f"-{v}" for v in opts.values()) for name, opts in SPECS]


def test_the_edition_list_comes_from_the_registry():
    assert {name for name, _ in SPECS} == set(EDITIONS)
    assert ("usa", {"variant": "1910"}) in SPECS and ("usa", {"variant": "mega"}) in SPECS


# ---------------------------------------------------------------------------- helpers
def frozen(g: GameState) -> tuple:
    """Everything that must not change: the snapshot, the position fields
    (the very objects), the ply and the move stack."""
    return (dumps(g.to_dict()), dict(g.__dict__), g.ply, g.move_stack)


def assert_unchanged(g: GameState, before: tuple) -> None:
    text, fields, ply, stack = before
    assert dumps(g.to_dict()) == text
    assert dict(g.__dict__) == fields
    assert all(g.__dict__[k] is v for k, v in fields.items()), "a position field was rebuilt"
    assert g.ply == ply and g.move_stack == stack


def refused(g: GameState, move: object, rule: str | None = "notation") -> tuple[str, str]:
    """``move`` is refused by why_illegal and by play, and the game is untouched."""
    before = frozen(g)
    why = g.why_illegal(move)  # type: ignore[arg-type]
    assert why is not None, move
    assert isinstance(why, tuple) and len(why) == 2 and all(isinstance(x, str) and x for x in why)
    assert len(why[1]) < 300, "a reason is one short sentence"
    if rule is not None:
        assert why[0] == rule, why
    with pytest.raises(IllegalMoveError) as e:
        g.play(move)  # type: ignore[arg-type]
    assert (e.value.rule, e.value.reason) == why
    assert move not in g.legal_moves
    assert_unchanged(g, before)
    return why


def usa_turn() -> GameState:
    return past_setup(ttr_lab.new_game("usa", players=2, seed=1))


def europe_turn() -> GameState:
    return past_setup(ttr_lab.new_game("europe", players=2, seed=1))


def world_setup_pieces() -> GameState:
    return past_setup(ttr_lab.new_game("world", players=2, seed=1))


def world_turn() -> GameState:
    g = world_setup_pieces()
    while g.phase == Phase.SETUP_PIECES:
        g.play(ChoosePieces(20))
    return g


def europe_tunnel() -> GameState:
    """A real TUNNEL decision, reached by playing a tunnel claim (as in test_rules_europe)."""
    g = arrange(europe_turn(), hands={0: {"yellow": 3, L: 1}}, deck_top=["yellow", L, "blue"], current=0, discard=[])
    g.play(ClaimRoute(80, (("yellow", 2),)))  # München-Zürich, a yellow tunnel of 2
    assert g.phase == Phase.TUNNEL and g.tunnel.extra == 2
    return g


# ---------------------------------------------------------------------------- wrong types
def built_around(cls, *values):
    """A move of ``cls`` holding ``values`` (its fields' defaults after them),
    built around the constructor, which refuses malformed fields."""
    move = object.__new__(cls)
    for f, v in itertools.zip_longest(dataclasses.fields(cls), values, fillvalue=dataclasses.MISSING):
        object.__setattr__(move, f.name, f.default if v is dataclasses.MISSING else v)
    return move


def hand_built(cls, *values, rule: str = "notation", reason: str = ""):
    """``cls(*values)``; for malformed fields (rule ``notation``) the
    constructor raises InvalidMoveError (with ``reason``), and the same move
    built around it is returned, for play and why_illegal to refuse."""
    if rule != "notation":
        return cls(*values)
    with pytest.raises(InvalidMoveError, match="malformed") as e:
        cls(*values)
    assert reason in str(e.value)
    return built_around(cls, *values)


BAD_CARDS = [
    pytest.param((("red", 1.0),), id="float-count"),
    pytest.param((("red", 1.5),), id="fraction-count"),
    pytest.param((("red", True),), id="bool-count"),
    pytest.param((("red", 0),), id="zero-count"),
    pytest.param((("red", -2),), id="negative-count"),
    pytest.param((("red", "1"),), id="str-count"),
    pytest.param((("red", 10**9),), id="ten-digit-count"),
    pytest.param((("red", 10**100),), id="huge-count"),
    pytest.param((("red", 10**5000),), id="unprintable-count"),
    pytest.param((("x" * 10**6, 1),), id="long-name"),  # well-formed: refused by the rules as an unknown card
    pytest.param([("red", 1)], id="list"),
    pytest.param({"red": 1}, id="dict"),
    pytest.param("red:1", id="str"),
    pytest.param(None, id="none"),
    pytest.param(({"red": 1},), id="dict-card"),
    pytest.param((["red", 1],), id="list-pair"),
    pytest.param((("red", 1, 2),), id="triple"),
    pytest.param(((1, 1),), id="int-name"),
    pytest.param(((None, 1),), id="none-name"),
    pytest.param((("red", (1,)),), id="tuple-count"),
]


def _rule(cards, edition_rule: str) -> str:
    """``notation`` for malformed cards; a well-formed unknown card is the rules' business."""
    long_name = isinstance(cards, tuple) and isinstance(cards[0], tuple) and len(str(cards[0][0])) > 100
    return edition_rule if long_name else "notation"


@pytest.mark.parametrize("cards", BAD_CARDS)
def test_claim_with_malformed_cards(cards):
    rule = _rule(cards, "A4")
    why = refused(usa_turn(), hand_built(ClaimRoute, 1, cards, rule=rule, reason="card"), rule=rule)
    assert "card" in why[1]


@pytest.mark.parametrize("cards", BAD_CARDS)
def test_station_with_malformed_cards(cards):
    rule = _rule(cards, "B3")
    refused(europe_turn(), hand_built(BuildStation, "Wien", cards, rule=rule), rule=rule)


@pytest.mark.parametrize("cards", BAD_CARDS)
def test_tunnel_payment_with_malformed_cards(cards):
    rule = _rule(cards, "B3")
    refused(europe_tunnel(), hand_built(PayTunnel, cards, rule=rule), rule=rule)


@pytest.mark.parametrize("cards", BAD_CARDS)
def test_harbor_with_malformed_cards(cards):
    rule = _rule(cards, "B4")
    refused(world_turn(), hand_built(BuildHarbor, "Casablanca", cards, rule=rule), rule=rule)


@pytest.mark.parametrize(
    "make, cls, values, reason",
    [
        (
            europe_turn,
            BuildStation,
            ("Wien", (("red", 1.0),)),
            "card count must be a whole number from 1 to 999999999 (red:1.0)",
        ),
        (europe_turn, BuildStation, (3, (("red", 1),)), "a city is named by a string, not 3"),
        (europe_turn, BuildStation, (None, (("red", 1),)), "a city is named by a string"),
        (
            europe_tunnel,
            PayTunnel,
            ((("red", 1.5),),),
            "card count must be a whole number from 1 to 999999999 (red:1.5)",
        ),
        (usa_turn, DrawFaceUp, (2.0,), "a face-up slot is a whole number, not 2.0"),
        (usa_turn, DrawFaceUp, (True,), "a face-up slot is a whole number, not True"),
        (usa_turn, DrawFaceUp, ("2",), "a face-up slot is a whole number, not '2'"),
        (usa_turn, DrawFaceUp, (None,), "a face-up slot is a whole number, not None"),
        (world_turn, DrawFaceUp, (1, 3), "a refill pile is named by a string, not 3"),
        (usa_turn, DrawBlind, (0,), "a pile is named by a string, not 0"),
        (usa_turn, ClaimRoute, (3.0, (("red", 1),)), "a route is named by its whole-number id, not 3.0"),
        (usa_turn, ClaimRoute, (True, (("red", 1),)), "a route is named by its whole-number id, not True"),
        (usa_turn, ClaimRoute, ("3", (("red", 1),)), "a route is named by its whole-number id, not '3'"),
        (ttr_lab.new_game, KeepTickets, ((30.0,),), "tickets are a tuple of whole-number ids, not (30.0,)"),
        (ttr_lab.new_game, KeepTickets, ([1, 2],), "tickets are a tuple of whole-number ids, not [1, 2]"),
        (ttr_lab.new_game, KeepTickets, ((True,),), "tickets are a tuple of whole-number ids, not (True,)"),
        (ttr_lab.new_game, KeepTickets, ("12",), "tickets are a tuple of whole-number ids, not '12'"),
        (ttr_lab.new_game, KeepTickets, ((4, 4),), "a ticket is named twice"),
        (world_turn, ExchangePieces, ("trains", True), "a number of pieces is a whole number, not True"),
        (world_turn, ExchangePieces, ("trains", 1.0), "a number of pieces is a whole number, not 1.0"),
        (world_turn, ExchangePieces, (1, 1), "exchange takes 'trains' or 'ships', not 1"),
        (world_setup_pieces, ChoosePieces, (20.0,), "a number of trains is a whole number, not 20.0"),
        (world_setup_pieces, ChoosePieces, (True,), "a number of trains is a whole number, not True"),
    ],
    ids=lambda x: x.__name__ if callable(x) else None,
)
def test_hand_built_moves_with_wrong_types(make, cls, values, reason):
    """The constructor refuses the fields; a move built around it is refused by play."""
    move = hand_built(cls, *values, reason=reason)
    why = refused(make(), move)
    assert reason in why[1]


@pytest.mark.parametrize("thing", [None, 3, "claim", ("faceup", 1), object()], ids=repr)
def test_things_that_are_not_moves(thing):
    g = usa_turn()
    before = frozen(g)
    rule, _ = g.why_illegal(thing)
    assert rule == "notation"
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        g.play(thing)
    assert_unchanged(g, before)


SAMPLES = [
    BuildStation("Wien", (("red", 1),)),
    PayTunnel((("red", 1),)),
    DeclineTunnel(),
    BuildHarbor("Casablanca", (("wild", 4),)),
    ExchangePieces("trains", 1),
    ChoosePieces(20),
]


def foreign_moves() -> list:
    out = []
    for name, opts in SPECS:
        ed = ttr_lab.find_edition(name, **opts)
        for move in SAMPLES:
            if type(move) not in ed.move_types:
                out.append(pytest.param(name, opts, move, id=f"{name}{''.join(opts.values())}-{type(move).__name__}"))
    return out


@pytest.mark.parametrize("name, opts, move", foreign_moves())
def test_a_move_of_another_edition_is_refused_by_play_and_push(name, opts, move):
    g = past_setup(ttr_lab.new_game(name, players=3, seed=2, **opts))
    why = refused(g, move, rule="A1")
    assert why[1] == f"{type(move).__name__} is not an action of {g.edition.name}"
    before = frozen(g)
    with pytest.raises(IllegalMoveError, match="is not an action of") as e:
        g.push(move)
    assert e.value.rule == "A1"
    assert_unchanged(g, before)


# ---------------------------------------------------------------------------- hidden information
def test_new_games_get_large_distinct_unguessable_seeds():
    seeds = [ttr_lab.new_game("usa", players=2).seed for _ in range(20)]
    assert len(set(seeds)) == 20
    assert all(type(s) is int and 2**32 <= s < 2**128 for s in seeds)


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
def test_a_view_does_not_show_the_seed_and_its_seat_is_fixed(name, opts):
    g = ttr_lab.new_game(name, players=3, **opts)
    for p in range(3):
        v = g.view(p)
        assert str(g.seed) not in repr(v) and str(g.seed) not in json.dumps(v.to_dict())
        assert not hasattr(v, "seed")
        with pytest.raises((AttributeError, TtrError)):
            v.player = (p + 1) % 3
        with pytest.raises((AttributeError, TtrError)):
            v.seat = 0
        assert v.player == p


def walk(value):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from walk(v)


def secrets_of(g: GameState, q: int) -> list:
    """What seat ``q`` alone knows, in the forms a view dict would hold it."""
    out = []
    if g.hand_size(q):
        out.append(g.hand(q))
    if g._tickets[q]:
        out.append(list(g._tickets[q]))
    if g.current_player == q and g._pending:
        out.append(list(g._pending))
    if g._setup_deal and g._setup_deal[q]:
        out.append(list(g._setup_deal[q]))
    return out


def hidden_variants(g: GameState, p: int):
    """Positions that differ from ``g`` only in what seat ``p`` cannot know:
    another seat's hand card swapped with a deck card of the same pile, a
    ticket of another seat (kept, pending or dealt) swapped with a ticket of
    the same kind in the deck, another seat's secret piece choice.  Variants
    the engine calls impossible (the swap changes what a reset could do, a
    tunnel's reserved cards) are left out."""
    ed = g.edition
    base = g.to_dict()
    piles = list(base["decks"])
    pile_of = {ct.name: piles[ct.pile] if len(piles) > 1 else piles[0] for ct in ed.card_types}
    kind = {t.id: t.deck for t in ed.map.tickets}
    candidates = []
    for q in range(g.n):
        if q == p:
            continue
        for card in sorted(base["hands"][q]):
            deck = base["decks"][pile_of[card]]
            other = next((c for c in deck if c != card), None)
            if other is None:
                continue
            d = copy.deepcopy(base)
            hand = d["hands"][q]
            hand[card] -= 1
            if not hand[card]:
                del hand[card]
            hand[other] = hand.get(other, 0) + 1
            d["decks"][pile_of[card]][deck.index(other)] = card
            candidates.append(d)
        spots = [("tickets", q)]
        if g.current_player == q:
            spots.append(("pending", None))
        if base["setup_deal"]:
            spots.append(("setup_deal", q))
        for key, i in spots:
            held = base[key] if i is None else base[key][i]
            for t in held[:2]:
                other = next((u for u in base["ticket_deck"] if kind[u] == kind[t] and u != t), None)
                if other is None:
                    continue
                d = copy.deepcopy(base)
                for k2, i2 in (("tickets", q), ("pending", None), ("setup_deal", q)):
                    if k2 == "setup_deal" and not d["setup_deal"]:
                        continue
                    seq = d[k2] if i2 is None else d[k2][i2]
                    if t in seq and (k2 == key or (key, k2) in {("pending", "setup_deal"), ("setup_deal", "pending")}):
                        seq[seq.index(t)] = other
                d["ticket_deck"][d["ticket_deck"].index(other)] = t
                candidates.append(d)
        # a card or a kept ticket swapped between two other seats (all a view cannot
        # tell apart once the decks are empty)
        for r in range(q + 1, g.n):
            if r == p:
                continue
            mine, theirs = base["hands"][q], base["hands"][r]
            pair = next(
                ((a, b) for a in sorted(mine) for b in sorted(theirs) if a != b and pile_of[a] == pile_of[b]), None
            )
            if pair is not None:
                a, b = pair
                d = copy.deepcopy(base)
                for seat, old, new in ((q, a, b), (r, b, a)):
                    hand = d["hands"][seat]
                    hand[old] -= 1
                    if not hand[old]:
                        del hand[old]
                    hand[new] = hand.get(new, 0) + 1
                candidates.append(d)
            tq, tr = base["tickets"][q], base["tickets"][r]
            tpair = next(((a, b) for a in tq for b in tr if kind[a] == kind[b] and a not in tr and b not in tq), None)
            if tpair is not None:
                a, b = tpair
                d = copy.deepcopy(base)
                d["tickets"][q][tq.index(a)] = b
                d["tickets"][r][tr.index(b)] = a
                candidates.append(d)
        choices = base["extra"].get("piece_choices")
        if choices and choices[q] is not None:
            lo, hi = ed.train_range
            d = copy.deepcopy(base)
            d["extra"]["piece_choices"][q] = lo if choices[q] != lo else hi
            candidates.append(d)
    for d in candidates:
        try:
            yield GameState.from_dict(d)
        except RecordError:
            continue


def assert_views_hide_secrets(g: GameState) -> int:
    """Every seat's ``view(p).to_dict()`` shows its own hand and tickets, holds
    no other seat's hand (card names with counts), tickets, pending tickets or
    dealt tickets, and stays the same when those are changed (so they cannot be
    derived from it either).  Returns how many changed positions were compared."""
    tried = 0
    for p in range(g.n):
        d = g.view(p).to_dict()
        assert d["hand"] == g.hand(p) and d["tickets"] == list(g._tickets[p])
        assert "decks" not in d and "ticket_deck" not in d and "hands" not in d and "setup_deal" not in d
        mine = secrets_of(g, p)
        values = list(walk(d))
        for q in range(g.n):
            if q == p:
                continue
            for secret in secrets_of(g, q):
                if secret in mine:  # the same value by chance (a hand like {"red": 1})
                    continue
                assert secret not in values, (p, q, secret)
        text = json.dumps(d, sort_keys=True)
        for other in hidden_variants(g, p):
            tried += 1
            assert other.to_dict() != g.to_dict()
            assert json.dumps(other.view(p).to_dict(), sort_keys=True) == text, (p, "a secret shows")
    return tried


@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@pytest.mark.parametrize("plies", [0, 2, 9, 40, 120, None])
def test_a_view_holds_no_other_seats_hand_or_tickets(name, opts, plies):
    g = random_game(name, 5, 3, plies, **opts)
    assert assert_views_hide_secrets(g) > 0, "some hidden information should be there to vary"


# ---------------------------------------------------------------------------- files
class FileTouched(AssertionError):
    pass


@contextmanager
def no_file_access(monkeypatch):
    """Fail if anything opens or even stats a file meanwhile."""
    calls = []

    def guard(name):
        def fail(*args, **kwargs):
            calls.append((name, args[:1]))
            raise FileTouched(f"{name}{args[:1]!r} was called")

        return fail

    with monkeypatch.context() as m:
        m.setattr(builtins, "open", guard("open"))
        m.setattr(io, "open", guard("io.open"))
        m.setattr(os, "open", guard("os.open"))
        m.setattr(os, "stat", guard("os.stat"))
        for meth in ("read_bytes", "read_text", "open", "stat"):
            m.setattr(pathlib.Path, meth, guard(f"Path.{meth}"))
        yield calls
    assert calls == []


HOSTILE_MAPS = ["/dev/zero", "/dev/stdin", "../../etc/passwd", "x.json", "C:\\maps\\x", "maps/usa.json", "/etc/passwd"]


@pytest.mark.parametrize("path", HOSTILE_MAPS)
def test_a_map_path_in_a_record_or_position_is_never_opened(path, monkeypatch):
    g = ttr_lab.new_game("usa", players=2, seed=1)
    g.play(g.legal_moves[0])
    rec = Record.from_state(g).to_dict()
    pos = g.to_dict()
    rec["options"]["map"] = pos["options"]["map"] = path
    rec_text, pos_text = json.dumps(rec), json.dumps(pos)
    loaders = [
        ("record.options.map", lambda: Record.from_dict(json.loads(rec_text))),
        ("record.options.map", lambda: Record.loads(rec_text)),
        ("position.options.map", lambda: GameState.from_dict(json.loads(pos_text))),
        ("record.options.map", lambda: Record("usa", {"map": path}, ["A", "B"], 1, []).replay()),
    ]
    for where, load in loaders:
        with no_file_access(monkeypatch), pytest.raises(RecordError) as e:
            load()
        assert e.value.where == where
        assert "never opens a file" in str(e.value) and repr(path)[1:-1] in str(e.value)


@pytest.fixture
def record_text():
    g = ttr_lab.new_game("usa", players=3, seed=4)
    for _ in range(5):
        g.play(g.legal_moves[0])
    return Record.from_state(g).dumps()


@pytest.fixture
def position_dict():
    g = ttr_lab.new_game("usa", players=3, seed=4)
    g.play(g.legal_moves[0])
    return g.to_dict()


def _both_loaders():
    return [pytest.param(Record.load, id="record"), pytest.param(load_position, id="position")]


@pytest.mark.parametrize("load", _both_loaders())
@pytest.mark.parametrize(
    "kind, message",
    [
        ("dev-zero", "not a regular file (a character device)"),
        ("fifo", "not a regular file (a named pipe)"),
        ("directory", "not a regular file (a directory)"),
        ("missing", "cannot read: No such file or directory"),
        ("too-large", "too large"),
        ("not-utf8", "not UTF-8 text"),
        ("deep", "nested deeper than"),
        ("long-integer", "an integer with more than"),
        ("not-json", "invalid JSON"),
        ("empty", "invalid JSON"),
        ("a-list", "expected a JSON object"),
    ],
)
def test_hostile_record_and_position_files(load, kind, message, tmp_path):
    path = tmp_path / "game.json"
    if kind == "dev-zero":
        path = pathlib.Path("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path = tmp_path
    elif kind == "missing":
        path = tmp_path / "nothing.json"
    elif kind == "too-large":
        with open(path, "wb") as f:
            f.truncate(RECORD_LIMIT + 1)  # sparse: no disk space used
    elif kind == "not-utf8":
        path.write_bytes(b'{"format": "ttr_lab.record", "edition": "\xff\xfe"}')
    elif kind == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "long-integer":
        path.write_text('{"format": "ttr_lab.record", "seed": ' + "7" * 5000 + "}")
    elif kind == "not-json":
        path.write_text("{'format': 'ttr_lab.record'}")
    elif kind == "empty":
        path.write_text("")
    else:
        path.write_text("[1, 2]")
    with pytest.raises(RecordError) as e:
        load(path)
    assert type(e.value) is RecordError
    assert str(path) in str(e.value) and message in str(e.value)


@pytest.mark.parametrize(
    "change, field, message",
    [
        (lambda d: d["row"].__setitem__(0, {"red": 1}), ".row[0]", "unknown card"),
        (lambda d: d["decks"]["train"].__setitem__(0, {"a": 1}), ".decks.train[0]", "unknown card"),
        (lambda d: d["hands"][0].__setitem__("red", {"n": 1}), ".hands[0].red", "expected a whole number"),
        (lambda d: d["hands"].__setitem__(0, ["red"]), ".hands[0]", "expected an object of card counts"),
        (lambda d: d.__setitem__("setup_deal", d["setup_deal"][:2]), ".setup_deal", "expected no deal or 3 entries"),
        (lambda d: d["setup_deal"].__setitem__(1, [{"id": 1}]), ".setup_deal[1][0]", "unknown ticket"),
        (lambda d: d.__setitem__("seed", 10**200), ".seed", "expected a whole number from 0 to 2**128 - 1"),
        (lambda d: d.__setitem__("players", ["A", "B", 3]), ".players", "name"),
        (lambda d: d["owners"].__setitem__("x" * 100, 0), ".owners.xxxx", "unknown route"),
    ],
)
def test_malformed_position_files_name_the_field(change, field, message, position_dict, tmp_path):
    change(position_dict)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position_dict))
    with pytest.raises(RecordError) as e:
        load_position(path)
    assert type(e.value) is RecordError
    assert str(e.value).startswith(f"{path}{field}") and message in str(e.value)


@pytest.mark.parametrize(
    "change, field, message",
    [
        (lambda d: d["moves"].__setitem__(0, {"red": 1}), ".moves[0]", "a move is a string"),
        (lambda d: d["moves"].__setitem__(0, "x" * (MAX_MOVE_TEXT + 1)), ".moves[0]", "at most"),
        (lambda d: d.__setitem__("moves", "keep 1 2"), ".moves", "wrong type str"),
        (lambda d: d.__setitem__("seed", True), ".seed", "wrong type bool"),
        (lambda d: d.__setitem__("players", [{"name": "A"}, "B", "C"]), ".players", "player names are strings"),
        (lambda d: d["headers"].__setitem__("Event", 7), ".headers.Event", "header values are strings"),
        (lambda d: d.__setitem__("edition", "chess"), ".edition", "unknown edition 'chess'"),
        (lambda d: d["options"].__setitem__("variant", {"a": 1}), ".edition", "variant must be one of"),
        (lambda d: d.__setitem__("format", "ttr_lab.position"), ".format", "use load_position"),
        (lambda d: d.__setitem__("result", {"scores": [1.5], "winners": [0]}), ".result", "whole numbers"),
    ],
)
def test_malformed_record_files_name_the_field(change, field, message, record_text, tmp_path):
    d = json.loads(record_text)
    change(d)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(d))
    with pytest.raises(RecordError) as e:
        Record.load(path)
    assert type(e.value) is RecordError
    assert str(e.value).startswith(f"{path}{field}") and message in str(e.value)


def test_a_record_move_that_does_not_parse_names_its_ply(record_text, tmp_path):
    d = json.loads(record_text)
    d["moves"][2] = "claim 1 red:" + "9" * 50
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(d))
    rec = Record.load(path)
    with pytest.raises(RecordError) as e:
        rec.replay()
    assert e.value.ply == 3 and "ply 3" in str(e.value)


def classroom(tmp_path, name="classroom.json", length=2) -> str:
    cities = ["Ames", "Bly", "Cody", "Dell", "Enid", "Fargo"]
    routes = [
        (1, "Ames", "Bly", length, "red"),
        (2, "Bly", "Cody", 3, "blue"),
        (3, "Cody", "Dell", 1, "gray"),
        (4, "Dell", "Enid", 4, "green"),
        (5, "Enid", "Fargo", 2, "gray"),
        (6, "Ames", "Fargo", 5, "yellow"),
        (7, "Bly", "Enid", 6, "black"),
    ]
    tickets = [(i + 1, a, b, 4 + i) for i, (a, b) in enumerate(zip(cities, cities[2:] + cities[:2]))]
    tickets += [(7, "Ames", "Dell", 9), (8, "Bly", "Fargo", 8), (9, "Cody", "Fargo", 7)]
    return write_map(tmp_path / name, cities, routes, tickets)


def test_a_classroom_map_travels_inside_the_record(tmp_path):
    path = classroom(tmp_path)
    g = random_game("usa", 3, 2, 30, map=path)
    assert g.map.id == "classroom"
    rec_path, pos_path = tmp_path / "game.json", tmp_path / "pos.json"
    Record.from_state(g).save(rec_path)
    save_position(g, pos_path)
    os.remove(path)  # the map file is gone: the saved game does not need it
    rec = Record.load(rec_path)
    assert set(rec.options["map"]) == {"id", "sha256", "data"}
    assert dumps(rec.replay().to_dict()) == dumps(g.to_dict())
    assert dumps(load_position(pos_path).to_dict()) == dumps(g.to_dict())
    # tampering with the embedded map is caught by its digest
    for fname in (rec_path, pos_path):
        d = json.loads(fname.read_text())
        d["options"]["map"]["data"]["routes"][0]["length"] = 1
        fname.write_text(json.dumps(d))
        with pytest.raises(RecordError, match="the map was changed"):
            (Record.load if fname == rec_path else load_position)(fname)
    d = json.loads(rec.dumps())
    d["options"]["map"]["sha256"] = "0" * 64
    with pytest.raises(RecordError, match="the map was changed"):
        Record.loads(json.dumps(d))
    d = json.loads(rec.dumps())
    d["options"]["map"]["data"] = {"format": "ttr_lab.map"}
    with pytest.raises(RecordError) as e:
        Record.loads(json.dumps(d))
    assert e.value.where == "record.options.map"


# ---------------------------------------------------------------------------- impossible positions
def turn_position(edition: str = "usa", **options) -> dict:
    g = past_setup(ttr_lab.new_game(edition, players=2, seed=3, **options))
    if g.phase == Phase.SETUP_PIECES:
        while g.phase == Phase.SETUP_PIECES:
            g.play(ChoosePieces(20))
    g.play(g.legal_moves[0])
    assert g.phase in (Phase.TURN, Phase.SECOND_CARD, Phase.KEEP_TICKETS)
    while g.phase != Phase.TURN:
        g.play(g.legal_moves[0])
    return g.to_dict()


def _placed_more_than_all(d: dict, pieces_left: int | None) -> None:
    ed = ttr_lab.find_edition(d["edition"])
    owned, total = {}, 0
    for r in sorted(ed.routes, key=lambda r: -r.length):
        if r.double_of is None and total < ed.pieces + 1:
            owned[str(r.id)] = 0
            total += r.length
    d["owners"] = owned
    d["pieces"] = [ed.pieces - total if pieces_left is None else pieces_left, ed.pieces]
    d["scores"] = [sum(ed.route_points[ed.map.route(int(r)).length] for r in owned), 0]


def _empty_slot(d: dict) -> None:
    card = d["row"][0]
    d["row"][0] = None
    d["decks"]["train"].append(card)


def _pending(d: dict) -> None:
    d["pending"] = [d["ticket_deck"].pop()]


def _harbor_without_route(d: dict) -> None:
    d["extra"]["harbors"] = [["Casablanca"], []]


IMPOSSIBLE = [
    ("usa", lambda d: d.__setitem__("phase", "tunnel"), "phase tunnel does not exist in usa"),
    ("usa", lambda d: d.__setitem__("phase", "setup_pieces"), "phase setup_pieces does not exist in usa"),
    ("usa", lambda d: d["pieces"].__setitem__(0, -1), "player 0 has a negative number of trains (-1)"),
    ("usa", lambda d: _placed_more_than_all(d, None), "player 0 has a negative number of trains"),
    ("usa", lambda d: _placed_more_than_all(d, 0), "expected 45 in all"),
    ("usa", lambda d: d.__setitem__("phase", "game_over"), "the game is over, but the final round has not ended"),
    ("usa", lambda d: d.__setitem__("final_turns_left", 1), "the final round has started, but no player is down"),
    ("usa", _empty_slot, "a face-up slot is empty although a card could be drawn for it (A3)"),
    ("usa", _pending, "tickets are pending, but no ticket choice is due"),
    ("europe", lambda d: d.__setitem__("phase", "setup_pieces"), "phase setup_pieces does not exist in europe"),
    ("europe", lambda d: d["extra"].__setitem__("stations", [["Wien"], ["Wien"]]), "two stations in Wien"),
    ("world", lambda d: d.__setitem__("phase", "tunnel"), "phase tunnel does not exist in rails_and_sails"),
    ("world", _harbor_without_route, "player 0's harbor in Casablanca is not at the end of one of their routes"),
]


@pytest.mark.parametrize("edition, change, message", IMPOSSIBLE)
def test_impossible_positions_are_refused_with_the_reason(edition, change, message):
    d = turn_position(edition)
    GameState.from_dict(copy.deepcopy(d))  # the position itself is fine
    change(d)
    with pytest.raises(RecordError) as e:
        GameState.from_dict(json.loads(json.dumps(d)))
    assert str(e.value).startswith("position: inconsistent position: ")
    assert message in str(e.value)


@pytest.mark.parametrize("field", ["turn", "passes", "shuffles", "resets", "final_turns_left"])
@pytest.mark.parametrize("value", [-1, -(10**9), 10**7, 10**40, True, 1.5, "3"])
def test_counters_out_of_range_are_refused_naming_the_field(field, value):
    d = turn_position()
    d[field] = value
    with pytest.raises(RecordError) as e:
        GameState.from_dict(d)
    assert e.value.where == f"position.{field}"
    assert "expected a whole number" in str(e.value) or "wrong type" in str(e.value)


# ---------------------------------------------------------------------------- parsing
def test_move_text_over_the_limit_fails_at_once():
    text = "station X " + "a:1 " * 8000
    with pytest.raises(InvalidMoveError, match=f"too long \\(at most {MAX_MOVE_TEXT}\\)"):
        parse_move(text)
    g = europe_turn()
    before = frozen(g)
    assert g.why_illegal(text)[0] == "notation"
    with pytest.raises(InvalidMoveError):
        g.play(text)
    assert_unchanged(g, before)


def test_long_valid_looking_moves_parse_correctly():
    body = " a:1" * 400
    text = "station " + "X" * (MAX_MOVE_TEXT - 1 - len("station ") - len(body)) + body
    assert len(text) == MAX_MOVE_TEXT - 1
    m = parse_move(text)
    assert m == BuildStation("X" * (MAX_MOVE_TEXT - 1 - 8 - len(body)), (("a", 400),))
    at_limit = "station Den Haag" + " red:1" * ((MAX_MOVE_TEXT - 16) // 6)
    at_limit += " " * (MAX_MOVE_TEXT - len(at_limit))
    assert parse_move(at_limit) == BuildStation("Den Haag", (("red", (MAX_MOVE_TEXT - 16) // 6),))
    with pytest.raises(InvalidMoveError, match="too long"):
        parse_move(at_limit + " ")
    assert parse_move("claim 5 " + "red:1 " * 300) == ClaimRoute(5, (("red", 300),))
    assert parse_move("keep " + " ".join(map(str, range(300)))) == KeepTickets(tuple(range(300)))
    with pytest.raises(InvalidMoveError, match="unclosed"):
        parse_move("claim 5 (" + "Seattle " * 200 + "red:1")
    with pytest.raises(InvalidMoveError, match="bad card token"):
        parse_move("claim 5 " + "red:1 " * 300 + "red")
    with pytest.raises(InvalidMoveError, match="expected a city then cards"):
        parse_move("station " + "red:1 " * 300)
    with pytest.raises(InvalidMoveError, match="bad number"):
        parse_move("faceup " + "9" * 1000)


# ---------------------------------------------------------------------------- classroom maps
def test_a_route_too_long_for_the_edition_names_the_file_and_route(tmp_path):
    path = classroom(tmp_path, length=7)
    with pytest.raises(MapDataError) as e:
        ttr_lab.new_game("usa", players=2, map=path)
    assert e.value.file == path and e.value.entry == "route 1 (Ames-Bly)"
    assert "length 7 is not on the route table of edition 'usa'" in str(e.value)
    g = ttr_lab.new_game("rails_and_sails", players=2, seed=1, map=path)  # 7 is on the Rails & Sails table
    assert g.map.route(1).length == 7


def test_a_ferry_on_a_usa_map_is_refused(tmp_path):
    path = pathlib.Path(classroom(tmp_path))
    data = json.loads(path.read_text())
    data["routes"][2].update(kind="ferry", locomotives=1)
    path.write_text(json.dumps(data))
    with pytest.raises(MapDataError) as e:
        ttr_lab.new_game("usa", players=2, map=str(path))
    assert e.value.file == str(path) and e.value.entry == "route 3 (Cody-Dell)"
    assert "edition 'usa' has no ferry routes" in str(e.value)
    assert ttr_lab.new_game("europe", players=2, seed=1, map=str(path)).map.route(3).kind == "ferry"


def test_an_edited_classroom_map_is_read_again(tmp_path):
    path = classroom(tmp_path)
    g1 = ttr_lab.new_game("usa", players=2, seed=1, map=path)
    assert g1.map.route(1).length == 2
    classroom(tmp_path, length=3)  # the teacher edits the file
    g2 = ttr_lab.new_game("usa", players=2, seed=1, map=path)
    assert g2.map.route(1).length == 3 and g2.edition != g1.edition
    classroom(tmp_path, length=2)  # and puts it back: the same content, the same edition
    g3 = ttr_lab.new_game("usa", players=2, seed=1, map=path)
    assert g3.edition == g1.edition and g3.map.digest == g1.map.digest


# ---------------------------------------------------------------------------- small things
SMALL = [
    ("hand(-1)", lambda g: g.hand(-1), "no seat -1"),
    ("hand(9)", lambda g: g.hand(9), "no seat 9"),
    ("hand(True)", lambda g: g.hand(True), "no seat True"),
    ("view(5)", lambda g: g.view(5), "no seat 5"),
    ("view(-1)", lambda g: g.view(-1), "no seat -1"),
    ("PlayerView(g, 7)", lambda g: PlayerView(g, 7), "no seat 7"),
    ("tickets(2)", lambda g: g.tickets(2), "no seat 2"),
    ("score(2)", lambda g: g.score(2), "no seat 2"),
    ("pieces(2)", lambda g: g.pieces(2), "no seat 2"),
    ("deck_size(5)", lambda g: g.deck_size(5), "no card pile 5"),
    ("discard_size(-1)", lambda g: g.discard_size(-1), "no card pile -1"),
    ("card_name(99)", lambda g: g.card_name(99), "no card type 99"),
    ("route_owner(9999)", lambda g: g.route_owner(9999), "there is no route 9999"),
    ("route_open_to(9999, 0)", lambda g: g.route_open_to(9999, 0), "there is no route 9999"),
    ("legal_moves[999]", lambda g: g.legal_moves[999], "legal move index 999 out of range"),
    ("legal_moves['a']", lambda g: g.legal_moves["a"], "indexed by a whole number"),
    ("pop() on a new game", lambda g: g.pop(), "nothing to undo"),
    ("route_owner([1])", lambda g: g.route_owner([1]), "there is no route [1]"),
    ("route_owner(True)", lambda g: g.route_owner(True), "there is no route True"),
    ("hand(10**5000)", lambda g: g.hand(10**5000), "no seat <int too large to show>"),
    ("view(10**5000)", lambda g: g.view(10**5000), "no seat <int too large to show>"),
    ("PlayerView(g, 10**5000)", lambda g: PlayerView(g, 10**5000), "no seat <int too large to show>"),
    ("deck_size(10**5000)", lambda g: g.deck_size(10**5000), "no card pile <int too large to show>"),
    ("new_game(seed=-(10**5000))", lambda g: ttr_lab.new_game(seed=-(10**5000)), "not <int too large to show>"),
    ("play(10**5000)", lambda g: g.play(10**5000), "not a move: <int too large to show>"),
    ('new_game(players="AB")', lambda g: ttr_lab.new_game(players="AB"), "players is a number or a list of names"),
    ("new_game(players=[1, 2])", lambda g: ttr_lab.new_game(players=[1, 2]), "a player's name is a non-empty string"),
    ("new_game(players=1)", lambda g: ttr_lab.new_game(players=1), "usa is played by 2-5 players, not 1"),
    ("new_game(players=6)", lambda g: ttr_lab.new_game(players=6), "usa is played by 2-5 players, not 6"),
    ("new_game('chess')", lambda g: ttr_lab.new_game("chess"), "unknown edition 'chess'"),
    ("new_game(seed=-1)", lambda g: ttr_lab.new_game(seed=-1), "seed must be an int"),
    ("new_game(seed=1.0)", lambda g: ttr_lab.new_game(seed=1.0), "seed must be an int"),
    ("new_game(colour=1)", lambda g: ttr_lab.new_game(colour=1), "unknown option 'colour'"),
    ('make_bot("nope")', lambda g: make_bot("nope"), "unknown bot 'nope'"),
    ("parse_move(3)", lambda g: parse_move(3), "a move's notation is a string"),
]


@pytest.mark.parametrize("call, message", [(f, m) for _, f, m in SMALL], ids=[s for s, _, _ in SMALL])
def test_small_misuse_is_a_ttr_error(call, message):
    g = ttr_lab.new_game("usa", players=2, seed=1)
    before = frozen(g)
    with pytest.raises(TtrError) as e:
        call(g)
    assert message in str(e.value)
    assert_unchanged(g, before)


def test_index_errors_are_also_index_errors():
    g = ttr_lab.new_game("usa", players=2, seed=1)
    for call in (lambda: g.pop(), lambda: g.legal_moves[999], lambda: g.deck_size(3)):
        with pytest.raises(IndexError) as e:
            call()
        assert isinstance(e.value, OutOfRangeError)


# ---------------------------------------------------------------------------- every raise is a TtrError
PACKAGE = pathlib.Path(ttr_lab.__file__).parent

#: raises that are not TtrErrors on purpose: (module, exception name) -> why
PROTOCOL = {
    (
        "ttr_lab.engine.state",
        "AttributeError",
    ): "__getattr__ must raise AttributeError (hasattr, copy, pickle rely on it)",
    ("ttr_lab.engine.view", "AttributeError"): "__getattr__ must raise AttributeError",
    (
        "ttr_lab.engine.rules.accessors",
        "AttributeError",
    ): "an accessor a view may not ask, or none of that name: hasattr, dir",
    ("ttr_lab.io.lazy", "AttributeError"): "a package's lazy module __getattr__ (PEP 562) must raise AttributeError",
    ("ttr_lab.engine.phases", "AttributeError"): "Phase's class __getattr__ (an unknown phase name): hasattr, pickle",
    ("*", "AssertionError"): "marks unreachable code (an internal invariant, never a user's mistake)",
    ("ttr_lab.io.safejson", "_Reject"): "internal: raised inside the JSON hooks, turned into the caller's error",
    ("ttr_lab.engine.scoring.trail", "_Done"): "internal control flow of the search, caught in the same function",
    ("ttr_lab.cli.commands", "SystemExit"): "argparse's error() must not return: a usage error exits with status 2",
}

#: raises found by this scan in files another engineer owns; each is a bug
#: (a caller catching TtrError misses it), reported rather than fixed here
KNOWN_BUGS = {}


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _raises():
    """(module, line, expression, what it names) for every raise statement with an exception."""
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        params: dict[int, set[str]] = {}
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
                for node in ast.walk(fn):
                    params.setdefault(id(node), set()).update(names)
        handlers: dict[int, set[str]] = {}
        for h in ast.walk(tree):
            if isinstance(h, ast.ExceptHandler) and h.name:
                for node in ast.walk(h):
                    handlers.setdefault(id(node), set()).add(h.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc
                target = exc.func if isinstance(exc, ast.Call) else exc
                yield (
                    _module_name(path),
                    node.lineno,
                    ast.unparse(target),
                    params.get(id(node), set()),
                    handlers.get(id(node), set()),
                )


def _local_import(module, name: str):
    """``name`` imported inside a function of ``module`` (``from .extras import missing_extra``), or None."""
    tree = ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            source = importlib.import_module("." * node.level + (node.module or ""), module.__package__)
            real = next(a.name for a in node.names if (a.asname or a.name) == name)
            return getattr(source, real)
    return None


def _resolve(module, expr: str):
    first, *rest = expr.split(".")
    if hasattr(module, first):
        obj = getattr(module, first)
    elif hasattr(builtins, first):
        obj = getattr(builtins, first)
    else:
        obj = _local_import(module, first)
        assert obj is not None, f"{module.__name__}: cannot find {first!r}"
    for part in rest:
        obj = getattr(obj, part)
    return obj


def test_every_raise_raises_a_ttr_error():
    found, bad, factories = 0, [], 0
    for modname, line, expr, params, caught in _raises():
        found += 1
        if expr in caught:  # re-raising the exception an except clause caught
            continue
        if expr in params:  # an error factory the caller passed (safeio's ErrorFactory: builds a TtrError)
            factories += 1
            continue
        try:
            module = importlib.import_module(modname)
        except ImportError:  # an optional extra is missing
            continue
        obj = _resolve(module, expr)
        if isinstance(obj, type):
            cls = obj
        else:  # a function building the error, e.g. data._fail -> MapDataError
            hints = typing.get_type_hints(obj)
            cls = hints.get("return")
            assert isinstance(cls, type), f"{modname}:{line}: cannot tell what {expr}(...) raises"
        if issubclass(cls, TtrError):
            continue
        key = (modname, cls.__name__)
        if key in PROTOCOL or ("*", cls.__name__) in PROTOCOL or key in KNOWN_BUGS:
            continue
        bad.append(f"{modname}:{line}: raise {expr} ({cls.__name__} is not a TtrError)")
    assert found > 100 and factories > 0
    assert bad == []
