"""The plug-in promise beyond the engine (issue 21 A5): a classroom variant packaged apart,
played through every tool, touching no generic module.

The variant is ``tests/classroom_variant/``, a project of its own (``pyproject.toml``,
entry points) that builds into a wheel: USA with a steeper route table, a new move
(``block N``: once a game a player closes a free route), a public position field
(``blocked``), a hidden one (each seat's secret ``objective`` city, dealt at setup
and scored at the end), board marks (the closed route; the objective city on its
owner's board only) and a widget control for ``block``.  It joins ttr_lab through
``register_edition`` (and, for the control, ``ttr_lab.widgets.controls.register_control``),
and declares ``ttr_lab.editions`` / ``ttr_lab.controls`` entry points, by which an installed
copy is found without registering (in any fresh process: see tests/test_registry.py).

Each check that fails on today's main is marked ``xfail(strict=True)`` with the item
of issue 21 it waits for: when the refactor makes it pass, the strict mark turns it
into a failure, and the refactor removes the mark.  ``pytest --runxfail`` shows how
each fails today.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab import ClaimRoute, GameState, Phase, RecordError, TtrError
from ttr_lab.bots import make_bot, play_game
from ttr_lab.engine.scoring import network
from ttr_lab.records import Record

from .helpers import past_setup, snapshot

VARIANT = Path(__file__).resolve().with_name("classroom_variant")
USA_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def _forget_modules() -> None:
    for name in [n for n in sys.modules if n == "classroom_variant" or n.startswith("classroom_variant.")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def cv():
    """The variant imported afresh from its project folder and registered; forgotten afterwards
    (its ``block`` verb would otherwise change the verb lists ttr_lab's doctests print)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(VARIANT))
        _forget_modules()
        module = importlib.import_module("classroom_variant")
        module.register()
        try:
            yield module
        finally:
            module.unregister()
            _forget_modules()


def started(players: int = 3, seed: int = 4, **options) -> GameState:
    return past_setup(ttr_lab.new_game("classroom", players=players, seed=seed, **options))


def random_plies(g: GameState, plies: int, seed: int) -> GameState:
    rng = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        g.push(g.legal_moves[rng.randrange(len(g.legal_moves))])
    return g


def blocked_game(seed: int = 5, players: int = 3, plies: int = 12) -> GameState:
    """A game past setup where the first seat blocked route 57, then a few random plies."""
    g = started(players=players, seed=seed)
    g.play("block 57")
    return random_plies(g, plies, seed)


def other_objective(g: GameState, seat: int) -> GameState:
    """The same position, but seat ``seat`` aims for another city (one no seat holds)."""
    d = g.to_dict()
    taken = set(d["extra"]["objective"])
    d["extra"]["objective"][seat] = next(c for c in g.edition.objective_cities if c not in taken)
    return GameState.from_dict(d)


# --------------------------------------------------------------------------- the engine


def test_engine_plays_the_variant_first_player_on_seat_1(cv):
    g = ttr_lab.new_game("classroom", players=3, seed=4, first_player=1)
    assert isinstance(g, GameState) and isinstance(g.edition, cv.Classroom)
    assert g.edition.route_points == cv.STEEP_ROUTE_POINTS
    past_setup(g)
    assert g.phase == Phase.TURN and g.current_player == 1
    # the legal moves: the base moves and one block per free route
    blocks = [m for m in g.legal_moves if isinstance(m, cv.BlockRoute)]
    assert [m.route for m in blocks] == [r.id for r in g.map.routes]
    assert len(list(g.legal_moves)) == g.legal_moves.count()
    assert list(g.legal_moves) == sorted(g.legal_moves)
    # notation: parse, str, describe
    m = ttr_lab.parse_move("block 57")
    assert m == cv.BlockRoute(57) and str(m) == "block 57" and ttr_lab.parse_move(str(m)) == m
    assert m in g.legal_moves
    assert g.describe(m) == "block route 57 (Kansas City-Oklahoma City): nobody may claim it"
    assert g.why_illegal("block x")[0] == "notation"
    with pytest.raises(ttr_lab.InvalidMoveError, match="malformed BlockRoute move"):  # its problem(), at construction
        cv.BlockRoute(57.0)
    assert g.why_illegal("block 999") == ("CL1", "there is no route 999 on the usa map")
    # play, and undo exactly
    before = snapshot(g)
    g.play(m)
    assert g.blocked_routes() == {57: 1} and g.view(0).blocked_routes() == {57: 1}
    assert g.view(2).to_dict()["blocked"] == [None, 57, None]
    assert not any(getattr(x, "route", None) == 57 for x in g.legal_moves)  # neither claimed nor blocked again
    reason = g.why_illegal(ClaimRoute(57, (("loco", 2),)))
    assert reason == ("CL1", "route 57 (Kansas City-Oklahoma City) is closed: Player 2 blocked it")
    assert not g.route_open_to(57, 0)
    assert g.pop() == m and snapshot(g) == before
    g.play(m)
    # a seat blocks once a game
    while g.current_player != 1:
        g.play("tickets")
        g.play(g.legal_moves[0])
    assert g.why_illegal("block 58") == ("CL1", "a player blocks one route per game (you blocked route 57)")
    assert not any(isinstance(x, cv.BlockRoute) for x in g.legal_moves)
    # the steeper table scores each claim
    claim = next(x for x in g.legal_moves if isinstance(x, ClaimRoute) and g.map.route(x.route).length > 1)
    length, score = g.map.route(claim.route).length, g.scores[1]
    g.play(claim)
    assert g.scores[1] - score == cv.STEEP_ROUTE_POINTS[length] != USA_POINTS[length]
    # to the end: a consistent final position, each seat's objective scored
    random_plies(g, 3000, seed=4)
    assert g.is_over and g.problems() == []
    outcome = g.outcome()
    for p in range(3):
        city = g.objective(p)
        want = (
            (f"objective city {city} reached", cv.OBJECTIVE_POINTS)
            if city in network(g, p)
            else (f"objective city {city} missed", -cv.OBJECTIVE_PENALTY)
        )
        assert want in outcome.players[p].adjustments


def test_positions_round_trip_and_bad_extras_are_refused(cv):
    g = blocked_game()
    d = json.loads(json.dumps(g.to_dict()))
    assert d["extra"]["blocked"][0] == 57 and d["extra"]["blocked"] == g.view(2).to_dict()["blocked"]
    assert sorted(d["extra"]["objective"]) == sorted(g.objective(p) for p in range(3))
    again = GameState.from_dict(d)  # after a reload: the blocked route stays closed
    assert again.to_dict() == g.to_dict()
    assert not any(getattr(m, "route", None) == 57 for m in again.legal_moves)
    bad = json.loads(json.dumps(d))
    bad["extra"]["objective"][1] = "Atlantis"
    with pytest.raises(RecordError, match=r"extra\.objective.*Atlantis"):
        GameState.from_dict(bad)
    bad["extra"]["objective"][1] = d["extra"]["objective"][0]
    with pytest.raises(RecordError, match="same city"):
        GameState.from_dict(bad)
    claimed = next(int(r) for r in d["owners"])
    bad = json.loads(json.dumps(d))
    bad["extra"]["blocked"][2] = claimed
    with pytest.raises(RecordError, match=f"blocked route {claimed}, which is claimed"):
        GameState.from_dict(bad)


# --------------------------------------------------------------------------- records


def test_record_with_its_seed_replays_from_a_file_alone(cv, tmp_path):
    g = random_plies(started(seed=6), 3000, seed=6)
    assert g.is_over
    path = tmp_path / "classroom-game.json"
    Record.from_state(g).save(path)
    assert Record.load(path).replay().to_dict() == g.to_dict()


def test_record_without_its_seed_replays_the_same_game(cv):
    """The objective cities (a dealt field) travel in the record's deal and are forced on replay."""
    g = blocked_game(seed=6, players=2)
    rec = Record.loads(Record.from_state(g, outcomes=True, seed=False).dumps())
    assert rec.deal["objective"] == [g.objective(0), g.objective(1)]
    assert rec.replay().view(0).to_dict() == g.view(0).to_dict()
    assert rec.replay().to_dict()["extra"] == g.to_dict()["extra"]
    g = random_plies(started(seed=8, players=3), 3000, seed=8)  # to the end: every objective scored the same
    assert g.is_over
    again = Record.loads(Record.from_state(g, outcomes=True, seed=False).dumps()).replay()
    assert again.outcome() == g.outcome() and again.to_dict()["extra"] == g.to_dict()["extra"]
    assert [again.view(p).to_dict() for p in range(3)] == [g.view(p).to_dict() for p in range(3)]


def test_seat_record_replays_to_the_seat_view(cv):
    """A seat record holds the seat's own objective only, and replays to the seat's view."""
    g = blocked_game(seed=6, players=2)
    rec = Record.loads(Record.from_state(g, seat=1).dumps())
    assert rec.deal["objective"] == [None, g.objective(1)]
    assert g.objective(0) not in rec.dumps()
    assert rec.replay_view().to_dict() == g.view(1).to_dict()
    d = rec.to_dict()
    d["deal"]["objective"][1] = None  # the seat's own city is known to it: a seat record holds it
    with pytest.raises(RecordError, match=r"deal\.objective\[1\].*only a seat record leaves what another seat"):
        Record.from_dict(d).replay_view()


def test_records_of_a_game_started_by_seat_1_handed_out_alone(cv, tmp_path):
    """First player on seat 1, three seats: each seat's record saved to a file of its own and
    loaded alone replays to that seat's view; the record without a seed replays every view."""
    g = ttr_lab.new_game("classroom", players=3, seed=9, first_player=1)
    past_setup(g)
    g.play("block 57")
    random_plies(g, 20, seed=9)
    for p in range(3):
        path = tmp_path / f"seat-{p}.json"
        Record.from_state(g, seat=p).save(path)
        rec = Record.load(path)
        assert [c is not None for c in rec.deal["objective"]] == [q == p for q in range(3)]
        assert rec.replay_view().to_dict() == g.view(p).to_dict()
    Record.from_state(g, outcomes=True, seed=False).save(tmp_path / "table.json")
    again = Record.load(tmp_path / "table.json").replay()
    assert [again.view(p).to_dict() for p in range(3)] == [g.view(p).to_dict() for p in range(3)]


def test_record_deal_objective_is_checked(cv):
    g = blocked_game(seed=6, players=2)
    d = Record.from_state(g, outcomes=True, seed=False).to_dict()
    for bad, message in [
        ("Atlantis", "objective: the deal names Atlantis, which is not left to deal"),
        (None, "only a seat record leaves what another seat was dealt unknown"),
    ]:
        d["deal"]["objective"][0] = bad
        with pytest.raises(RecordError, match=message):
            Record.from_dict(d).replay()
    del d["deal"]["objective"]
    with pytest.raises(RecordError, match=r"expected \{first, hands, rows, tickets, objective\}"):
        Record.from_dict(d).replay()


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("name", ["random", "greedy", "playout"])
def test_bots_play_the_variant_to_the_end(cv, name):
    g = play_game("classroom", [make_bot(name, 1), make_bot("random", 2)], seed=3)
    assert g.is_over and g.problems() == []


def test_bots_plan_around_a_blocked_route(cv):
    """The greedy and playout bots ask the edition's rule (route_open_to), not a copy of the double-route rule."""
    from ttr_lab.bots import GreedyBot
    from ttr_lab.bots.playout import PlayoutBot
    from ttr_lab.bots.playout.tables import _tables

    g = started(seed=5)
    rid = next(r.id for r in g.map.routes if r.double_of is None and r.length > 1)  # no twin to take its place
    g.play(f"block {rid}")
    v = g.view(1)
    assert g.edition.closed_routes(v) == {rid} and not v.route_open_to(rid, 1)
    graph = GreedyBot(1)._graph(v)
    assert rid not in {d["route"] for _, _, d in graph.edges(data=True)}
    T = _tables(g.edition)
    assert PlayoutBot(1)._costs(v, T)[T.ri[rid]] == -1.0


def test_advisor_bot_plays_the_variant(cv):
    from ttr_lab.analysis import AdvisorBot

    g = started(players=2, seed=3)
    bots = [AdvisorBot(1, playouts=8, candidates=3), make_bot("random", 2)]
    for _ in range(6):
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    assert g.problems() == []


# --------------------------------------------------------------------------- analysis


def test_determinization_keeps_public_fields_and_resamples_the_hidden_one(cv):
    from ttr_lab.analysis import sample_states

    g = blocked_game()
    v = g.view(1)
    samples = sample_states(v, 12, seed=1)
    for s in samples:
        assert s.problems() == [] and s.view(1).to_dict() == v.to_dict()
        assert s.blocked_routes() == g.blocked_routes() and s.objective(1) == g.objective(1)
    others = {(s.objective(0), s.objective(2)) for s in samples}
    assert len(others) > 1  # drawn, not copied from the real game


def test_advise(cv):
    from ttr_lab.analysis import advise

    g = blocked_game(players=2)
    while g.current_player != 1:
        g.play("blind")
    advice = advise(g.view(1), playouts=24, candidates=3, seed=1, progress=False)
    assert advice.best is not None and advice.best.move in g.legal_moves


def test_ticket_odds(cv):
    from ttr_lab.analysis import ticket_odds

    g = blocked_game(players=2)
    odds = ticket_odds(g.view(0), playouts=4, seed=1)
    assert [o.ticket for o in odds] == list(g.tickets(0))


def test_review(cv):
    pytest.importorskip("pandas")
    from ttr_lab.analysis import review

    g = blocked_game(players=2, plies=4)
    df = review(Record.from_state(g), playouts=8, plies=[g.ply - 1, g.ply], progress=False)
    assert len(df) == 2


# --------------------------------------------------------------------------- the table scorer and the editor


OBJECTIVES = {"Ada": "Seattle", "Bob": "Oklahoma City"}


def test_score_uses_the_variant_route_table(cv):
    out = ttr_lab.score("classroom", players=["Ada", "Bob"], routes={"Ada": [1, 2], "Bob": [57]}, objective=OBJECTIVES)
    assert [p.route_points for p in out.players] == [3 + 15, 3]  # lengths 2 and 5; 2 (USA: 12 and 2)


def test_score_takes_the_variant_fields(cv):
    out = ttr_lab.score(
        "classroom",
        players=["Ada", "Bob"],
        routes={"Ada": [1, 2], "Bob": [57]},
        objective=OBJECTIVES,
        blocked={"Bob": 5},
    )
    assert ("objective city Seattle missed", -cv.OBJECTIVE_PENALTY) in out.players[0].adjustments
    assert ("objective city Oklahoma City reached", cv.OBJECTIVE_POINTS) in out.players[1].adjustments
    assert ttr_lab.tabletop.end_position(
        "classroom", players=["Ada", "Bob"], objective=OBJECTIVES, blocked={"Bob": 5}
    ).blocked_routes() == {5: 1}
    # a score sheet carries the variant's facts and reads back the same
    from ttr_lab.tabletop import sheet_from_dict, sheet_to_dict

    sheet = sheet_to_dict("classroom", players=["Ada", "Bob"], routes={"Ada": [1, 2]}, objective=OBJECTIVES)
    assert sheet["objective"] == ["Seattle", "Oklahoma City"] and sheet["blocked"] == [None, None]
    assert ttr_lab.score(**sheet_from_dict(json.loads(json.dumps(sheet)))) == ttr_lab.score(
        "classroom", players=["Ada", "Bob"], routes={"Ada": [1, 2]}, objective=OBJECTIVES
    )


def test_score_names_a_missing_or_foreign_fact(cv):
    """Nothing is made up: an objective not stated is an error naming it; another edition's fact too."""
    with pytest.raises(TtrError, match=r"objective: give every player's objective city"):
        ttr_lab.score("classroom", players=["Ada", "Bob"], routes={"Ada": [1, 2]})
    with pytest.raises(TtrError, match=r"objective: give every player's objective city"):
        ttr_lab.score("classroom", players=["Ada", "Bob"], objective={"Ada": "Seattle"})
    with pytest.raises(TtrError, match="stations: classroom has no stations"):
        ttr_lab.score("classroom", players=["Ada", "Bob"], objective=OBJECTIVES, stations={"Ada": ["Denver"]})
    with pytest.raises(TtrError, match="objective: usa has no objective"):
        ttr_lab.score("usa", players=["Ada", "Bob"], objective=OBJECTIVES)
    with pytest.raises(TtrError, match="Atlantis"):
        ttr_lab.score("classroom", players=["Ada", "Bob"], objective={"Ada": "Atlantis", "Bob": "Miami"})


SEAT_FACTS = dict(
    players=["Me", "Ann"],
    seat=0,
    routes={"Me": [1, 2], "Ann": [57]},
    hand={"red": 3, "loco": 1},
    tickets=[1, 14],
    row=["blue", "blue", "green", "white", "black"],
    hand_sizes={"Ann": 7},
    ticket_counts={"Ann": 2},
)


def test_seat_view_uses_the_variant_route_table(cv):
    v = ttr_lab.seat_view("classroom", **SEAT_FACTS, objective="Miami")
    assert v.scores == (18, 3) and v.blocked_routes() == {}


def test_seat_view_takes_the_variant_facts(cv):
    v = ttr_lab.seat_view("classroom", **SEAT_FACTS, objective="Miami", blocked={"Ann": 5})
    assert v.to_dict()["my_objective"] == "Miami" and v.blocked_routes() == {5: 1}
    # the other seat's city is a filling: another city, and the view does not show it
    from ttr_lab.tabletop import filled_state

    g = filled_state("classroom", **SEAT_FACTS, objective="Miami")
    assert g.objective(0) == "Miami" and g.objective(1) not in ("Miami", "")
    assert g.objective(1) not in json.dumps(v.to_dict())
    with pytest.raises(TtrError, match=r"objective: give your objective city"):
        ttr_lab.seat_view("classroom", **SEAT_FACTS)


# --------------------------------------------------------------------------- the board


def test_board_draws_the_closed_route(cv):
    from ttr_lab.board import board_svg

    g = blocked_game()
    label = cv.closed_label(57, "Kansas City-Oklahoma City", g.player_names[0])
    assert label in board_svg(g)
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure

    assert label in board_figure(g).to_json()


def test_a_view_board_marks_its_own_objective(cv):
    from ttr_lab.board import board_svg

    g = blocked_game()
    assert cv.objective_label(g.objective(1), g.player_names[1]) in board_svg(g.view(1))


def test_a_view_and_its_board_never_show_another_seats_objective(cv):
    """Literal (seat 0's city and its mark appear nowhere in seat 1's view or board) and
    indistinguishable (a game where seat 0 aims elsewhere looks the same to seat 1)."""
    from ttr_lab.board import board_svg

    g = blocked_game()
    mine, theirs = g.objective(1), g.objective(0)
    assert mine != theirs
    v = g.view(1).to_dict()
    assert v["my_objective"] == mine and theirs not in json.dumps(v)
    assert "objective" not in v
    with pytest.raises(AttributeError):
        g.view(1).objective(0)
    svg = board_svg(g.view(1), tickets=g.view(1).tickets)
    assert cv.objective_label(theirs, g.player_names[0]) not in svg
    same, twin = GameState.from_dict(g.to_dict()), other_objective(g, 0)  # both reloaded: no history
    assert twin.objective(0) != theirs
    assert twin.view(1).to_dict() == same.view(1).to_dict() == g.view(1).to_dict()
    assert board_svg(twin.view(1)) == board_svg(same.view(1))
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure

    assert board_figure(twin.view(1)).to_json() == board_figure(same.view(1)).to_json()


# --------------------------------------------------------------------------- the play widget


def hot_seat(seed: int = 7):
    """Two people at one screen (no bots), the first player on seat 1, tickets kept."""
    pytest.importorskip("ipywidgets")
    pytest.importorskip("anywidget")
    from ttr_lab.widgets import PlayWidget

    w = PlayWidget("classroom", players=["Ann", "You"], seed=seed, options={"first_player": 1})
    while w.game.phase == Phase.SETUP_TICKETS:
        assert w.play_move(w.game.legal_moves[0])
    return w


def click_route(w, rid: int) -> None:
    """What the browser sends for a click on a route (plotly_click on the routes trace)."""
    from ttr_lab.board import route_trace_index

    k = route_trace_index(w.fig)
    trace = w.fig.data[k]
    i = list(trace.customdata).index(rid)
    w.fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [trace.x[i]], "ys": [trace.y[i]]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }


def test_play_widget_click_claims_and_the_control_blocks(cv):
    from .test_widgets import find

    w = hot_seat()
    g = w.game
    assert g.current_player == 1 and "block" in w.controls
    assert "block a route (once a game)" in w.status
    once = [m for m in g.legal_moves if isinstance(m, ClaimRoute)]
    rid = next(m.route for m in once if [x.route for x in once].count(m.route) == 1 and m.route != 57)
    length, score = g.map.route(rid).length, g.scores[1]
    click_route(w, rid)
    assert g.route_owner(rid) == 1 and g.scores[1] - score == cv.STEEP_ROUTE_POINTS[length]
    # seat 0 blocks route 57 from the control
    assert g.current_player == 0
    box = find(w, "ttr-block-box")
    assert box.layout.display != "none"
    dropdown = find(w, "ttr-block")
    dropdown.value = next(v for text, v in dropdown.options if text.startswith("block route 57 "))
    find(w, "ttr-block-button").click()
    assert g.blocked_routes() == {57: 0} and g.move_stack[-1] == cv.BlockRoute(57)
    # seat 1 cannot claim it: the library's reason, nothing changed
    before = g.to_dict()
    click_route(w, 57)
    assert g.to_dict() == before
    assert "closed: Ann blocked it" in w.status and "CL1" in w.status
    assert w.fig._widget_data == w.fig._data


def test_play_widget_draws_the_marks(cv):
    w = hot_seat()
    g = w.game
    w.play_move("block 57")  # seat 1 (You) blocks; seat 0 (Ann) is at the screen now
    drawn = json.dumps(w.fig.to_plotly_json(), default=str)
    assert cv.closed_label(57, "Kansas City-Oklahoma City", "You") in drawn
    assert cv.objective_label(g.objective(0), "Ann") in drawn
    assert cv.objective_label(g.objective(1), "You") not in drawn


def test_play_widget_sends_nothing_of_another_seats_objective(cv):
    """Two games that differ only in Ann's secret city give You's screen the same synced state."""
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets import PlayWidget

    from .test_widget_hidden_info import synced

    w = hot_seat()
    w.play_move("block 57")  # You blocks; Ann to play
    w.play_move("blind")
    assert w.game.current_player == 0
    w.play_move("blind")  # Ann drew; You at the screen
    assert w.game.current_player == 1
    states = []
    for g in (GameState.from_dict(w.game.to_dict()), other_objective(w.game, 0)):
        states.append(synced(PlayWidget(g)))
    assert states[0] == states[1]


def test_play_widget_hard_level(cv):
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets import PlayWidget

    w = PlayWidget("classroom", players=["You", "hard"], seed=3)
    while w.game.phase == Phase.SETUP_TICKETS:
        w.play_move(w.game.legal_moves[0])
    w.play_move("blind")
    w.play_move("blind")
    assert w.game.current_player == 0 and w.game.ply > 4


def test_play_widget_advice_panel(cv):
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets import PlayWidget

    w = PlayWidget("classroom", players=["You", "Ann"], seed=3, advisor=40)
    while w.game.phase == Phase.SETUP_TICKETS:
        w.play_move(w.game.legal_moves[0])
    assert w.play_move("blind")


# --------------------------------------------------------------------------- found without registering


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _fake_install(site: Path) -> None:
    """The variant's distribution metadata (its entry points) beside its source, as pip would leave it."""
    info = site / "classroom_variant-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: classroom_variant\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(
        "[ttr_lab.editions]\nclassroom = classroom_variant.edition:Classroom\n\n"
        "[ttr_lab.controls]\nblock = classroom_variant.control:BlockControl\n"
    )
    shutil.copytree(VARIANT / "classroom_variant", site / "classroom_variant")


FOUND = """
import ttr_lab
g = ttr_lab.new_game("classroom", players=2, seed=1)
assert type(g.edition).__module__ == "classroom_variant.edition"
print("edition found")
from ttr_lab.widgets import PlayWidget
assert "block" in PlayWidget(g, hide_hands=True).controls
print("control found")
"""


def test_installed_variant_is_found_by_its_entry_points(tmp_path):
    pytest.importorskip("ipywidgets")
    _fake_install(tmp_path / "site")
    env = {**_clean_env(), "PYTHONPATH": str(tmp_path / "site")}
    proc = subprocess.run(
        [sys.executable, "-c", FOUND], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-2000:]
    assert proc.stdout.split() == ["edition", "found", "control", "found"]


# --------------------------------------------------------------------------- a wheel install


_SKIP_TREE = shutil.ignore_patterns(
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".venv",
    ".pytest_cache",
    ".hypothesis",
    "test-artifacts",
    ".ipynb_checkpoints",
)


def _wheel(src: Path, out: Path, name: str) -> Path:
    """``pip wheel`` of the project in ``src`` (a copy: the shared tree gets no build/ or egg-info)."""
    from .test_packaging import offline, run, tail

    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", out, "."]
    proc = run(cmd, cwd=src)
    if proc.returncode != 0 and offline(proc):  # no index for the build backend: the one installed here
        proc = run([*cmd, "--no-build-isolation"], cwd=src)
        if proc.returncode != 0:
            pytest.skip(f"pip wheel cannot run here (offline?):\n{tail(proc)}")
    assert proc.returncode == 0, f"pip wheel of {name} failed:\n{tail(proc, 60)}"
    (found,) = out.glob(f"{name}-*.whl")
    return found


@pytest.fixture(scope="module")
def variant_venv(tmp_path_factory):
    """A fresh venv (no system site-packages, not editable) with ttr_lab's wheel and the variant's."""
    from .test_packaging import ROOT, offline, run, tail

    base = tmp_path_factory.mktemp("classroom-wheel")
    shutil.copytree(ROOT, base / "ttr_lab", ignore=_SKIP_TREE)
    shutil.copytree(VARIANT, base / "classroom_variant", ignore=_SKIP_TREE)
    wheels = [_wheel(base / name, base / "dist", name) for name in ("ttr_lab", "classroom_variant")]
    env_dir = base / "env"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    proc = run([python, "-m", "pip", "install", "--no-cache-dir", *wheels], cwd=base)
    if proc.returncode != 0 and offline(proc):
        pytest.skip(f"cannot install the wheels' dependencies (no index?):\n{tail(proc)}")
    assert proc.returncode == 0, f"pip install of the wheels failed:\n{tail(proc, 60)}"
    return python


PLAYED = """
import json, ttr_lab, classroom_variant
from ttr_lab.bots import make_bot, play_game
from ttr_lab.records import Record
classroom_variant.register()
g = play_game("classroom", [make_bot("greedy", 1), make_bot("random", 2)], seed=3)
assert g.is_over and g.problems() == []
assert Record.loads(Record.from_state(g).dumps()).replay().to_dict() == g.to_dict()
assert ttr_lab.parse_move("block 57") == classroom_variant.BlockRoute(57)
lines = [name for p in g.outcome().players for name, _ in p.adjustments if name.startswith("objective city")]
print(len(lines), classroom_variant.__file__)
"""


@pytest.mark.slow
def test_wheel_installed_variant_plays(variant_venv, tmp_path):
    proc = subprocess.run(
        [str(variant_venv), "-c", PLAYED], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    count, where = proc.stdout.split()
    assert count == "2" and variant_venv.parent.parent.resolve() in Path(where).resolve().parents


@pytest.mark.slow
def test_wheel_installed_variant_is_found_without_registering(variant_venv, tmp_path):
    code = 'import ttr_lab; print(ttr_lab.new_game("classroom", players=2, seed=1).edition.name)'
    proc = subprocess.run(
        [str(variant_venv), "-c", code], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "classroom", proc.stderr[-2000:]
