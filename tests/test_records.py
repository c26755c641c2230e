"""Game records and position snapshots: round trips, replay, and every way a
file can be malformed or tampered with (RecordError names the field or ply)."""

from __future__ import annotations

import json
import random

import pytest

import ttr_lab
from ttr_lab import RecordError
from ttr_lab.bots import make_bot, play_game
from ttr_lab.records import Record, dumps, load_position, position_from_dict, position_to_dict, save_position


@pytest.fixture(scope="module")
def finished():
    return play_game("usa", [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)], seed=21)


def partial(seed=4, plies=90):
    g = ttr_lab.new_game("usa", players=3, seed=seed)
    rng = random.Random(seed)
    while g.ply < plies:
        g.push(g.legal_moves[rng.randrange(len(g.legal_moves))])
    return g


def test_record_save_load_save_is_byte_identical(tmp_path, finished):
    rec = Record.from_state(finished, headers={"Event": "Test", "Site": "Classroom"})
    path = tmp_path / "game.json"
    rec.save(path)
    again = Record.load(path)
    again.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()
    assert rec.result == {"scores": list(finished.outcome().scores), "winners": list(finished.outcome().winners)}


def test_replay_reproduces_the_final_position(finished):
    rec = Record.from_state(finished)
    assert dumps(rec.replay().to_dict()) == dumps(finished.to_dict())
    mid = rec.replay(upto=50)
    assert mid.ply == 50
    assert str(mid.move_stack[-1]) == rec.moves[49]


def test_position_save_load_save_is_byte_identical(tmp_path):
    g = partial()
    save_position(g, tmp_path / "p.json")
    h = load_position(tmp_path / "p.json")
    save_position(h, tmp_path / "q.json")
    assert (tmp_path / "p.json").read_bytes() == (tmp_path / "q.json").read_bytes()
    assert h.legal_moves.count() == g.legal_moves.count()


def tamper(rec_text: str, **changes) -> str:
    d = json.loads(rec_text)
    d.update(changes)
    return json.dumps(d)


def test_malformed_records_name_the_problem(finished):
    text = Record.from_state(finished).dumps()
    with pytest.raises(RecordError, match=r"record: line 1 column \d+: invalid JSON"):
        Record.loads("{not json")
    with pytest.raises(RecordError, match=r"record.edition: unknown edition 'chess'"):
        Record.loads(tamper(text, edition="chess"))
    with pytest.raises(RecordError, match=r"record.colour: unknown field"):
        Record.loads(tamper(text, colour="red"))
    with pytest.raises(RecordError, match=r"record.seed: wrong type str"):
        Record.loads(tamper(text, seed="7"))
    with pytest.raises(RecordError, match=r"record.version: unsupported version 9"):
        Record.loads(tamper(text, version=9))
    with pytest.raises(RecordError, match=r"record.edition: unknown option 'speed'"):
        Record.loads(tamper(text, options={"speed": 2}))
    d = json.loads(text)
    del d["moves"]
    with pytest.raises(RecordError, match=r"record.moves: missing field"):
        Record.loads(json.dumps(d))


def test_an_illegal_move_names_its_ply(finished):
    rec = Record.from_state(finished)
    moves = list(rec.moves)
    moves[30] = "claim 1 red:7"
    bad = Record(rec.edition, rec.options, rec.players, rec.seed, moves)
    with pytest.raises(RecordError, match=r"^ply 31 \('claim 1 red:7'\): illegal move") as err:
        bad.replay()
    assert err.value.ply == 31
    moves[30] = "teleport home"
    with pytest.raises(RecordError, match=r"ply 31 .*unknown move 'teleport home'"):
        Record(rec.edition, rec.options, rec.players, rec.seed, moves).replay()


def test_a_tampered_result_is_caught(finished):
    rec = Record.from_state(finished)
    rec.result = {"scores": [999, 0, 0], "winners": [0]}
    with pytest.raises(RecordError, match="the result does not match the replay"):
        rec.replay()


def test_a_different_seed_does_not_replay(finished):
    rec = Record.from_state(finished)
    rec.seed += 1
    with pytest.raises(RecordError, match=r"^ply \d+"):
        rec.replay()


def test_tampered_positions_are_rejected_whole():
    g = partial()
    good = position_to_dict(g)

    def bad(**changes):
        d = json.loads(json.dumps(good))
        for key, value in changes.items():
            d[key] = value
        return d

    hands = [dict(h) for h in good["hands"]]
    hands[0]["loco"] = hands[0].get("loco", 0) + 1
    with pytest.raises(RecordError, match=r"15 loco cards in play, expected 14"):
        position_from_dict(bad(hands=hands))
    with pytest.raises(RecordError, match=r"position.owners.999: unknown route"):
        position_from_dict(bad(owners={**good["owners"], "999": 0}))
    with pytest.raises(RecordError, match=r"running score .* differs from the recount"):
        position_from_dict(bad(scores=[s + 1 for s in good["scores"]]))
    with pytest.raises(RecordError, match=r"position.row\[0\]: unknown card 'gold'"):
        position_from_dict(bad(row=["gold"] + good["row"][1:]))
    with pytest.raises(RecordError, match=r"tickets \[\d+\] appear twice"):
        position_from_dict(bad(ticket_deck=good["ticket_deck"] + good["tickets"][0][:1]))
    with pytest.raises(RecordError, match=r"position.phase: unknown phase 'lunch'"):
        position_from_dict(bad(phase="lunch"))
    with pytest.raises(RecordError, match=r"position.current: seat 7 out of range"):
        position_from_dict(bad(current=7))
    with pytest.raises(RecordError, match=r"position.pieces\[0\]|trains and \d+ placed"):
        position_from_dict(bad(pieces=[45] + good["pieces"][1:]))


def test_positions_never_use_pickle_or_eval():
    import inspect

    import ttr_lab.records.saved as records

    src = inspect.getsource(records)
    assert "pickle" not in src.replace("never pickle", "") and "eval(" not in src


def test_record_of_a_loaded_mid_game_position_is_refused():
    g = partial()
    h = position_from_dict(position_to_dict(g))
    h.push(h.legal_moves[0])
    with pytest.raises(RecordError, match="does not start from its initial position"):
        Record.from_state(h)
