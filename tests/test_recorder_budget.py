"""The recorder's ``advise()`` budget (ttr_lab.widgets.recorder): without one it
asks for the Hint's (its seconds, with its playouts as the cap), as the play
widget's Hint does; a budget given is passed down as given.  The advisor is
replaced by a spy that records what it was asked and then answers with a small
fixed count, so nothing here depends on the clock."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from ttr_lab.analysis import advise as real_advise
from ttr_lab.analysis.advisor.ranking import MAX_TIMED_PLAYOUTS
from ttr_lab.records import Record
from ttr_lab.widgets import recorder as recorder_module
from ttr_lab.widgets.advice import HINT_PLAYOUTS, HINT_SECONDS

from .test_outcomes import bot_game
from .test_widget_recorder import start


@pytest.fixture
def asked(monkeypatch):
    """The budgets the recorder asks the advisor for, one dict per call."""
    calls: list[dict] = []

    def spy(view, **kwargs):
        calls.append(dict(kwargs))
        kwargs.pop("seconds", None)
        kwargs.pop("max_playouts", None)
        kwargs["playouts"] = 4  # a real answer, quickly, whatever the budget asked
        return real_advise(view, **kwargs)

    monkeypatch.setattr(recorder_module, "advise", spy)
    return calls


def seat_to_move():
    """A recorder at the start of a 2-player USA game, kept from the seat that moves first."""
    g = bot_game("usa", {}, 2, 7, plies=0)
    first = Record.from_state(g, outcomes=True, seed=False).deal["first"]
    return start(g, first, first)


def test_advise_without_a_budget_asks_for_the_hints_seconds_capped_at_its_playouts(asked):
    w = seat_to_move()
    advice = w.advise()
    assert advice is not None and advice.moves
    assert len(asked) == 1
    budget = {k: v for k, v in asked[0].items() if k in ("seconds", "playouts", "max_playouts")}
    # a count of playouts here would be a fixed count: ~17 s where the kernel does not play the edition
    assert budget == {"seconds": HINT_SECONDS, "max_playouts": HINT_PLAYOUTS}
    assert str(advice.best.move) in w.advice.value


def test_the_thinking_line_names_the_hints_seconds(asked, monkeypatch):
    w = seat_to_move()
    shown: list[str] = []

    def watch(view, **kwargs):
        shown.append(w.advice.value)  # what the box said while the advisor worked
        return spy(view, **kwargs)

    spy = recorder_module.advise
    monkeypatch.setattr(recorder_module, "advise", watch)
    w.advise()
    assert len(shown) == 1 and f"about {HINT_SECONDS} s" in shown[0] and "thinking" in shown[0]


@pytest.mark.parametrize(
    "given, expected",
    [
        ({"seconds": 0.5}, {"seconds": 0.5}),
        ({"playouts": 8}, {"playouts": 8}),
        ({"seconds": 0.5, "max_playouts": 40}, {"seconds": 0.5, "max_playouts": 40}),
        ({"playouts": 8, "seconds": 0.5}, {"playouts": 8, "seconds": 0.5}),
    ],
)
def test_a_budget_given_is_passed_down_as_given(asked, given, expected):
    w = seat_to_move()
    assert w.advise(**given) is not None
    budget = {k: v for k, v in asked[0].items() if k in ("seconds", "playouts", "max_playouts")}
    assert budget == expected
    # a budget in seconds without a cap gets the advisor's own cap, not the Hint's
    if "seconds" in given and "max_playouts" not in given and "playouts" not in given:
        assert real_advise.__kwdefaults__["max_playouts"] == MAX_TIMED_PLAYOUTS != HINT_PLAYOUTS


def test_no_advisor_call_on_another_seats_turn(asked):
    w = seat_to_move()
    w.enter(str(w.view.legal_moves[0]))  # the seat keeps its tickets: the other seat is due
    assert w.view.current_player != w.seat
    assert w.advise() is None and asked == []
