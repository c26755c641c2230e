"""Records that carry their chance outcomes (ttr_lab.records.chance, core.chance, replay).

The notation (``blind =red``, ``faceup 3 =loco/red,...``, ``tickets =3,17,25``,
a tunnel's reveal), the engine's recorded and forced outcomes, and the
property: a record written with outcomes, stripped of its seed, replays to
the same final position in every edition and player count (the same up to
the order of what nobody has seen: the undrawn cards, the undrawn tickets,
Europe's box).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.bots import make_bot
from ttr_lab.engine.moves import DrawBlind, DrawFaceUp, parse_move
from ttr_lab.engine.rules.chance import Chance
from ttr_lab.errors import InvalidMoveError, RecordError
from ttr_lab.records import Record
from ttr_lab.records.chance import (
    MAX_OUTCOME_TEXT,
    ChanceOutcome,
    HiddenMove,
    parse_outcome,
    parse_recorded,
    split_outcome,
)

from .test_bad_input import SPEC_IDS, SPECS

ROW = ["blue", "blue", "green", "white", "black"]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bot_game(name: str, opts: dict, n: int, seed: int, plies: int | None = None, bot: str = "random"):
    g = ttr_lab.new_game(name, players=n, seed=seed, **opts)
    bots = [make_bot(bot, seed + i) for i in range(n)]
    while not g.is_over and (plies is None or g.ply < plies):
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    return g


def same_position(a, b) -> dict:
    """``to_dict()`` without the seed, the undrawn cards and tickets (and Europe's box) as sets."""
    d = a.to_dict()
    d.pop("seed")
    d["decks"] = {k: sorted(v) for k, v in d["decks"].items()}
    d["ticket_deck"] = sorted(d["ticket_deck"])
    box = d["extra"].get("box")
    if isinstance(box, list) and all(isinstance(t, int) for t in box):
        d["extra"]["box"] = sorted(box)
    return d


def players_for(name: str, opts: dict) -> list[int]:
    ed = ttr_lab.find_edition(name, **opts)
    return list(range(ed.min_players, ed.max_players + 1))


# ---------------------------------------------------------------- the notation
def test_outcome_notation_round_trips():
    for text in ("=red", "=loco/red,blue,green,white,black", "=3,17,25", "=?", "=?,?,?", "=red-ship2,wild"):
        assert str(parse_outcome(text)) == text
    o = parse_outcome("=loco/red,blue,green,white,black")
    assert o.groups == (("loco",), ("red", "blue", "green", "white", "black"))
    assert parse_outcome("=3,?").tokens == (3, None) and parse_outcome("=3,?").hidden


@pytest.mark.parametrize(
    "text", ["red", "=", "=red,,blue", "=red/", "=/red", "=Red", "=3.5", "=" + "red," * (MAX_OUTCOME_TEXT // 4) + "red"]
)
def test_malformed_outcomes_are_refused(text):
    with pytest.raises(InvalidMoveError):
        parse_outcome(text)


def test_moves_stay_the_moves_a_game_plays():
    assert parse_move("blind =red") == DrawBlind() == parse_move("blind")
    assert parse_move("faceup 3 =loco/red,blue,green,white,black") == DrawFaceUp(3)
    assert split_outcome("claim 45 red:3 =red,loco,blue") == ("claim 45 red:3", "=red,loco,blue")
    assert parse_recorded("tickets =3,17,25")[1] == ChanceOutcome(((3, 17, 25),))
    assert parse_recorded("keep ? ?") == (HiddenMove("keep", 2), None)
    assert parse_recorded("pieces ?") == (HiddenMove("pieces"), None)
    assert str(HiddenMove("keep", 3)) == "keep ? ? ?"
    with pytest.raises(InvalidMoveError, match="seat record"):
        parse_move("keep ? ?")
    g = ttr_lab.new_game("usa", players=2, seed=1)
    assert g.why_illegal("blind =red") == ("A5", "players are choosing their initial tickets; expected a keep move")


# ---------------------------------------------------------------- what a record writes
def test_a_record_writes_each_chance_outcome_and_the_deal():
    g = ttr_lab.new_game("usa", players=2, seed=3)
    for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2", "blind", "tickets"]:
        g.play(m)
    rec = Record.from_state(g, outcomes=True)
    assert rec.moves == [
        "keep 20 24",
        "keep 5 16",
        "blind =yellow",
        "blind =white",
        "faceup 2 =blue",
        "blind =orange",
        "tickets =11,7,1",
    ]
    assert rec.seed == 3 and rec.deal == {
        "first": 0,
        "hands": [{"red": 1, "orange": 1, "pink": 1, "white": 1}, {"orange": 1, "yellow": 1, "green": 1, "loco": 1}],
        "rows": [["pink", "white", "green", "loco", "pink"]],
        "tickets": [[24, 27, 20], [25, 5, 16]],
    }
    assert Record.loads(rec.dumps()).replay().to_dict() == g.to_dict()  # seeded: outcomes checked, same game


def find_ply(g, pred):
    """The first ply of ``g`` (a finished game replayed) whose move and outcome satisfy ``pred``."""
    rec = Record.from_state(g, outcomes=True)
    return next((t for t in rec.moves if pred(t)), None)


def test_a_reset_writes_the_new_row_after_a_slash():
    for seed in range(40):
        g = bot_game("usa", {}, 4, seed)
        text = find_ply(g, lambda t: "/" in t and t.startswith("faceup"))
        if text:
            refill, row = text.split("=")[1].split("/", 1)
            assert len(refill.split(",")) == 1 and len(row.split("/")[0].split(",")) == 5
            return
    pytest.fail("no reset in 40 games")


def test_a_tunnel_writes_its_reveal():
    for seed in range(10):
        g = bot_game("europe", {}, 3, seed)
        tunnels = frozenset(r.id for r in g.map.routes if r.kind == "tunnel")
        text = find_ply(g, lambda t, ids=tunnels: t.startswith("claim") and int(t.split()[1]) in ids)
        if text:
            assert len(parse_recorded(text)[1].groups[0]) == 3
            return
    pytest.fail("no tunnel claimed")


# ---------------------------------------------------------------- the property
@pytest.mark.parametrize("name, opts", SPECS, ids=SPEC_IDS)
@SETTINGS
@given(data=st.data())
def test_a_record_with_outcomes_replays_without_its_seed(name, opts, data):
    n = data.draw(st.sampled_from(players_for(name, opts)), label="players")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    plies = data.draw(st.sampled_from([None, None, 5, 60]), label="plies")
    g = bot_game(name, opts, n, seed, plies, bot=data.draw(st.sampled_from(["random", "greedy"])))
    rec = Record.from_state(g, outcomes=True, seed=False)
    assert rec.seed is None and json.loads(rec.dumps())["seed"] is None
    again = Record.loads(rec.dumps()).replay()
    assert same_position(again, g) == same_position(g, g)
    assert again.move_stack == g.move_stack
    assert [again.view(p).to_dict() for p in range(n)] == [g.view(p).to_dict() for p in range(n)]


def test_undo_and_redo_on_a_replay_without_a_seed_turn_up_the_same_cards():
    g = bot_game("usa", {}, 4, 11)
    r = Record.from_state(g, outcomes=True, seed=False).replay()
    end = r.to_dict()
    undone = [r.pop() for _ in range(60)]
    for m in reversed(undone):
        r.play(m)
    assert r.to_dict() == end
    copy = r.copy(stack=True)
    assert copy._chance is not None and copy._chance.queue is None  # passive: remembers, forces nothing
    assert g._chance is None  # a game played from its seed has no chance slot at all


# ---------------------------------------------------------------- impossible outcomes
def usa_record(**changes) -> Record:
    g = ttr_lab.new_game("usa", players=2, seed=3)
    for m in ["keep 20 24", "keep 5 16", "blind", "blind", "faceup 2"]:
        g.play(m)
    rec = Record.from_state(g, outcomes=True, seed=False)
    for k, v in changes.items():
        setattr(rec, k, v)
    return rec


def test_a_fifteenth_locomotive_is_refused_with_its_ply():
    deal = {
        "first": 0,
        "hands": [{"loco": 4}, {"loco": 4}],
        "rows": [["loco", "loco", "red", "red", "red"]],
        "tickets": [[24, 27, 20], [25, 5, 16]],
    }
    moves = ["keep 20 24", "keep 5 16"] + ["blind =loco"] * 5
    rec = Record("usa", {}, ["A", "B"], None, moves, deal=deal)
    with pytest.raises(RecordError, match=r"ply 7 .*no loco card is left to turn up: the game has 14") as e:
        rec.replay()
    assert e.value.ply == 7


def test_a_reset_must_list_its_row():
    deal = {
        "first": 0,
        "hands": [{"red": 4}, {"blue": 4}],
        "rows": [["loco", "loco", "red", "red", "red"]],
        "tickets": [[24, 27, 20], [25, 5, 16]],
    }
    base = Record("usa", {}, ["A", "B"], None, ["keep 20 24", "keep 5 16"], deal=deal)
    for tail, match in [
        ("faceup 3 =loco", "a face-up row was dealt \\(a reset, or the setup\\), but the outcome lists no row"),
        ("faceup 3 =loco,red", "more cards before the row was dealt"),
    ]:
        with pytest.raises(RecordError, match=match):
            Record(**{**base.__dict__, "moves": base.moves + [tail]}).replay()
    ok = Record(**{**base.__dict__, "moves": base.moves + ["faceup 3 =loco/red,blue,green,white,black"]}).replay()
    assert ok.row == ("red", "blue", "green", "white", "black") and ok.resets == 1


@pytest.mark.parametrize(
    "moves, match",
    [
        (["keep 20 24", "keep 5 16", "blind =yellow,red"], "lists 1 more card than the move turned up"),
        (["keep 20 24", "keep 5 16", "blind"], "no outcome"),
        (["keep 20 24", "keep 5 16", "blind =?"], "could not see"),
        (["keep 20 24", "keep 5 16", "blind =purple"], "unknown card 'purple'"),
        (["keep 20 24", "keep 5 16", "tickets =5,1,2"], "ticket 5 is held by Player 2"),
        (["keep 20 24", "keep 5 16", "tickets =1,2"], "takes 3 tickets, the outcome lists 2"),
        (["keep 20 24", "keep 5 16", "tickets =red"], "ticket ids"),
        (["keep 20 24", "keep 5 16", "faceup 2 =loco/red"], "lists 1 more card than the move turned up"),
    ],
)
def test_bad_outcomes_name_their_ply(moves, match):
    rec = usa_record(moves=moves)
    with pytest.raises(RecordError, match=match) as e:
        rec.replay()
    assert e.value.ply == 3


def test_a_seeded_record_checks_its_outcomes_against_the_seed():
    rec = usa_record()
    rec.seed = 3
    assert rec.replay().ply == 5
    rec.moves[3] = "blind =red"
    with pytest.raises(RecordError, match="the seed turns up =white, the record says =red"):
        rec.replay()
    rec = usa_record(seed=3)
    rec.deal = {**rec.deal, "first": 1}
    with pytest.raises(RecordError, match=r"record\.deal\.first"):
        rec.replay()


@pytest.mark.parametrize(
    "deal, match",
    [
        (None, "needs its deal"),
        ({"first": 0}, "expected {first, hands, rows, tickets}"),
        ({"first": 5, "hands": [], "rows": [], "tickets": []}, r"deal\.first"),
        (
            {"first": 0, "hands": [{"red": 4}, {"red": 5}], "rows": [ROW], "tickets": [[1, 2, 3], [4, 5, 6]]},
            r"hands\[1\]: a starting hand holds 4",
        ),
        (
            {"first": 0, "hands": [{"red": 4}, None], "rows": [ROW], "tickets": [[1, 2, 3], [4, 5, 6]]},
            "only a seat record",
        ),
        (
            {"first": 0, "hands": [{"red": 4}, {"red": 4}], "rows": [ROW], "tickets": [[1, 2, 3], [1, 5, 6]]},
            "ticket 1",
        ),
    ],
)
def test_a_bad_deal_names_its_field(deal, match):
    """(``ROW`` is a face-up row of the deal.)"""
    rec = Record("usa", {}, ["A", "B"], None, ["keep 1 2"], deal=deal)
    with pytest.raises(RecordError, match=match):
        rec.replay()


def test_records_with_outcomes_load_checked():
    rec = usa_record()
    d = rec.to_dict()
    assert Record.from_dict(d).dumps() == rec.dumps()
    with pytest.raises(RecordError, match="deal"):
        Record.from_dict({k: v for k, v in d.items() if k != "deal"})
    with pytest.raises(RecordError, match="seat"):
        Record.from_dict({**d, "seat": 7})
    with pytest.raises(RecordError, match="deal"):
        Record.from_dict({**d, "deal": []})


def test_the_chance_slot_is_not_part_of_the_position():
    r = usa_record().replay()
    assert "_chance" not in r.__dict__ and isinstance(r._chance, Chance)
    assert ttr_lab.GameState.from_dict(r.to_dict())._chance is None
