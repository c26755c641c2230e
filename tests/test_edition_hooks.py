"""The edition hooks generic code asks (issue 21 A1): each field's visibility and
rebuilding method, the edition's own setup chance in records, the table facts,
and the hooks the analysis and the bots use, for every built-in edition and for
an edition defined here that breaks the contract (the errors name what is missing)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

import ttr_lab
from ttr_lab import GameState, RecordError, TtrError
from ttr_lab.bots import make_bot
from ttr_lab.editions.usa import USA
from ttr_lab.engine.rules import Field, Rebuild, Table, register_edition
from ttr_lab.engine.rules.chance import UNKNOWN, Chance
from ttr_lab.engine.rules.declarations import HIDDEN
from ttr_lab.engine.rules.registry import unregister_edition
from ttr_lab.records import Record
from ttr_lab.records.chance import HiddenMove, parse_recorded

from .helpers import past_setup

EDITIONS = ["usa", "usa_1910", "mega", "big_cities", "europe", "world", "great_lakes"]


@pytest.mark.parametrize("name", EDITIONS)
def test_every_saved_field_says_who_sees_it_and_how_to_rebuild_it(name):
    ed = ttr_lab.find_edition(name)
    for f in ed.fields_added:
        assert f.hidden in HIDDEN
        if f.key:
            assert f.from_view and callable(getattr(ed, f.from_view)), f.key


@pytest.mark.parametrize("name", EDITIONS)
def test_extra_from_view_rebuilds_the_public_fields_and_keeps_the_view(name):
    """Mid-game, every seat: the rebuilt fields load into a state whose view is the same."""
    g = ttr_lab.new_game(name, players=3, seed=11)
    bots = [make_bot("greedy", q) for q in range(3)]
    for _ in range(60):
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    d = g.to_dict()
    for p in range(3):
        v = g.view(p)
        extra = g.edition.extra_from_view(
            v, Rebuild(random.Random(p), v.history().plies, tuple(d["extra"].get("box", ())))
        )
        assert sorted(extra) == sorted(d["extra"])
        public = {f.key for f in g.edition.fields_added if f.key and f.hidden == "public"}
        assert {k: extra[k] for k in public} == {k: d["extra"][k] for k in public}
        assert GameState.from_dict({**d, "extra": extra}).view(p).to_dict() == v.to_dict()


def test_ship_piles_and_pieces_in_supply():
    usa, world = ttr_lab.new_game("usa", players=2, seed=1), ttr_lab.new_game("world", players=2, seed=1)
    assert usa.edition.ship_piles == frozenset() and world.edition.ship_piles == {"ships"}
    assert usa.edition.pieces_in_supply(usa.view(0), 1) == (45, None)
    past_setup(world)
    while world.phase.name == "SETUP_PIECES":
        world.play("pieces 20")
    assert world.edition.pieces_in_supply(world.view(0), 1) == (world.trains(1), world.ships(1)) == (20, 40)


def test_cards_in_sight_during_a_tunnel():
    """Europe: the three cards a tunnel turned up lie apart; its claimer's payment is known."""
    for seed in range(40):
        g = ttr_lab.new_game("europe", players=2, seed=seed)
        bot = make_bot("greedy", seed)
        for _ in range(300):
            if g.is_over or g.tunnel is not None:
                break
            g.play(bot.choose(g.view(g.current_player)))
        if g.tunnel is not None:
            break
    t = g.tunnel
    assert t is not None
    for p in range(2):
        assert g.edition.cards_in_sight(g.view(p)) == (t.revealed, {g.current_player: t.paid})


def test_chance_pick_draws_the_last_option_or_the_forced_one():
    ch = Chance()
    ch.force(picks={"city": ["B", UNKNOWN, "A"]})
    options = ["A", "B", "C", "D"]
    assert [ch.pick("city", options) for _ in range(3)] == ["B", "D", "A"]  # UNKNOWN: the last not named later
    assert options == ["C"] and ch.left() is None
    ch.force(picks={"city": ["Z"]})
    with pytest.raises(TtrError, match="city: the deal names Z, which is not left to deal"):
        ch.pick("city", ["A"])
    ch.force(picks={"long_tickets": [41]})
    assert ch.left() == "the deal lists long tickets that were not dealt"


@pytest.mark.parametrize("name", ["europe", "world"])
def test_seat_record_of_every_seat_hides_nothing_more_than_before(name):
    """The deal's keys are the base ones for the built-in editions (no dealt fields)."""
    g = ttr_lab.new_game(name, players=3, seed=5)
    past_setup(g)
    rec = Record.from_state(g, seat=2)
    assert sorted(rec.deal) == ["first", "hands", "rows", "tickets"]
    assert rec.deal["tickets"][0] is None and rec.deal["tickets"][2] is not None
    assert rec.replay_view().to_dict() == g.view(2).to_dict()


def test_a_hidden_decision_is_written_for_any_secret_verb():
    assert parse_recorded("block ?") == (HiddenMove("block"), None)
    g = ttr_lab.new_game("usa", players=2, seed=3)
    past_setup(g)
    g.play("blind")
    g.play("blind")
    rec = Record.from_state(g, seat=1).to_dict()
    rec["moves"][-1] = "blind ?"
    with pytest.raises(RecordError, match="stands for a secret decision, but every seat sees a 'blind'"):
        Record.from_dict(rec).replay_view()


# --------------------------------------------------------------------------- an edition that breaks the contract


def _load_notes(ed: Any, n: int, data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or len(data) != n or not all(isinstance(x, str) for x in data):
        raise TtrError("expected one note per player")
    return tuple(data)


class _Notes(USA):
    """USA with a per-seat note field that names no from_view method and has no table hook."""

    name: ClassVar[str] = "usa_notes"
    aliases: ClassVar[dict[str, Any]] = {}
    fields = (Field("_notes", "notes", lambda ed, n: ("",) * n, lambda ed, v: list(v), _load_notes, hidden="own"),)

    @property
    def title(self) -> str:  # type: ignore[override]
        return "USA with notes"


@pytest.fixture
def notes():
    register_edition(_Notes)
    try:
        yield _Notes
    finally:
        unregister_edition(_Notes.name)


def test_a_field_without_a_rebuilding_method_is_named(notes):
    from ttr_lab.analysis import sample_states

    g = past_setup(ttr_lab.new_game("usa_notes", players=2, seed=1))
    with pytest.raises(
        TtrError, match="cannot rebuild the usa_notes position field 'notes': its Field names no from_view"
    ):
        sample_states(g.view(0), 1)


def test_a_field_no_table_hook_fills_is_named(notes):
    with pytest.raises(TtrError, match="notes: the usa_notes rules give no value for this field at a table"):
        ttr_lab.score("usa_notes", players=["Ada", "Bob"], routes={"Ada": [1]})
    with pytest.raises(TtrError, match="notes: usa_notes has no notes"):
        ttr_lab.score("usa_notes", players=["Ada", "Bob"], notes={"Ada": "x"})


def test_table_hooks_fill_the_base_game():
    t = Table(("Ada", "Bob"), {1: 0, 57: 1}, {"trains": {"Bob": 43}}, scores=[2, 2])
    ed = ttr_lab.find_edition("usa")
    ed.table_pieces(t)
    ed.table_extra(t)
    assert t.pieces == [43, 43] and t.extra == {} and t.scores == [2, 2]
    with pytest.raises(TtrError, match=r"trains\[Bob\]: 40 trains left, but Bob owns routes of 2 cars"):
        ed.table_pieces(Table(("Ada", "Bob"), {57: 1}, {"trains": {"Bob": 40}}))
