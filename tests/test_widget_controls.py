"""The play widget's edition controls (looked up by the names editions
declare) and its refusals, which quote the rules reference."""

from __future__ import annotations

import html
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from plotly.callbacks import Points

import ttr_lab
from ttr_lab.errors import TtrError
from ttr_lab.render import city_trace_index
from ttr_lab.rules import explain, rule_title
from ttr_lab.widgets import CONTROLS, PlayWidget
from ttr_lab.widgets.controls import make_controls

from .helpers import arrange, past_setup
from .test_widgets import find

WIDGETS = Path(ttr_lab.__file__).parent / "widgets"


# --------------------------------------------------------------------------- the registry


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails", "great_lakes"])
def test_the_widget_builds_exactly_the_controls_the_edition_names(edition):
    widget = ttr_lab.play(edition, players=["You", "bot"], seed=1)
    names = widget.game.edition.widget_controls
    assert tuple(widget.controls) == names
    for name, control in widget.controls.items():
        assert type(control) is CONTROLS[name] and control.name == name


def test_an_edition_naming_an_unknown_control_is_a_clear_error():
    host = SimpleNamespace(game=SimpleNamespace(edition=SimpleNamespace(name="moon", widget_controls=("rocket",))))
    with pytest.raises(TtrError, match=r"edition 'moon' needs the widget control 'rocket'.*known: build, exchange"):
        make_controls(host)


def test_controls_find_moves_by_verb_not_by_the_state():
    """No isinstance over the editions' move classes, no probing of the state in the widgets."""
    edition_moves = ("BuildStation", "BuildHarbor", "PayTunnel", "DeclineTunnel", "ChoosePieces", "ExchangePieces")
    for path in sorted(WIDGETS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in edition_moves:
            assert name not in text, f"{path.name} names {name}"
        assert "hasattr(g" not in text and 'getattr(g, "' not in text, f"{path.name} probes the state"
        assert "from ..editions" not in text, f"{path.name} imports an edition"
        assert "Phase.TUNNEL" not in text and "Phase.SETUP_PIECES" not in text, path.name


def test_europe_build_control_reads_what_is_built_through_the_accessors():
    g = arrange(past_setup(ttr_lab.new_game("europe", players=2, seed=1)), hands={0: {"red": 1}}, current=0)
    widget = PlayWidget(g)
    build = widget.controls["build"]
    assert build.verbs == {"station"}
    assert build.score_columns(0) == [("stations", "0 built, 3 left")]
    assert "or click a city to build a station" in widget.status
    assert widget.click_city("Roma") and widget.game.stations() == {"Roma": 0}
    assert build.score_columns(0) == [("stations", "1 built, 2 left")]


def test_a_station_in_a_taken_city_is_refused_with_the_librarys_reason_for_that_city():
    """The player can pay for a station elsewhere: the probe moves that payment to the city clicked."""
    g = arrange(past_setup(ttr_lab.new_game("europe", players=2, seed=1)), hands={0: {"red": 3}}, current=0)
    g.play(ttr_lab.BuildStation("Wien", (("red", 1),)))
    g.play(g.legal_moves[0])  # the other player draws...
    while g.current_player != 0:
        g.play(next(m for m in g.legal_moves if m.verb == "blind"))
    widget = PlayWidget(g)
    before = g.to_dict()
    assert not widget.click_city("Wien")
    assert g.to_dict() == before
    assert "Cannot build a station in Wien (rule B3): Wien already has a station" in widget.status


# --------------------------------------------------------------------------- refusals quote the rules


def quoted(widget, rule):
    """The rule's section is in the refusal shown where the click was, collapsed, with its title and text."""
    assert find(widget, "ttr-refusal").layout.display == "flex"
    status = find(widget, "ttr-refusal-text").value
    assert '<details class="ttr-rule">' in status
    assert f"Rule {rule}: {html.escape(rule_title(rule))}" in status
    plain = (line for line in explain(rule).splitlines()[1:] if line.strip() and not set("*`|") & set(line))
    first = next(plain)
    assert html.escape(first.strip()) in status
    assert f"Rule {rule}: {rule_title(rule)}" in widget.status  # also in the text form
    return status


def test_an_unaffordable_claim_quotes_rule_a4():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    find(widget, "ttr-keep").click()
    g = widget.game
    rid = next(
        r.id
        for r in g.map.routes
        if r.length >= 5 and not [m for m in g.legal_moves if getattr(m, "route", None) == r.id]
    )
    assert not widget.click_route(rid)
    status = quoted(widget, "A4")
    assert "To claim a route the player names it" in status
    assert re.search(r"needs \d+ .*; you hold .* \(rule A4: must pay exactly \d+ cards, not \d+\)", widget.status)


def test_keeping_too_few_tickets_quotes_rule_b1():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    for box in find(widget, "ttr-keep-box").children[1].children[1:]:
        box.value = False
    find(widget, "ttr-keep").click()
    quoted(widget, "B1")


def test_a_station_refusal_quotes_rule_b3():
    g = arrange(past_setup(ttr_lab.new_game("europe", players=2, seed=1)), hands={0: {"red": 1}}, current=0)
    g.play(ttr_lab.BuildStation("Wien", (("red", 1),)))
    widget = PlayWidget(arrange(g, current=0, hands={0: {"red": 1}}))
    assert not widget.click_city("Wien")
    quoted(widget, "B3")


def test_a_refused_second_card_quotes_rule_a2_then_a_good_move_clears_it():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    find(widget, "ttr-keep").click()
    g = widget.game
    widget.click_faceup(next(i for i, c in enumerate(g.row, 1) if c != "loco"))
    if "loco" not in g.row:
        pytest.skip("no face-up locomotive in this seeded position")
    assert not widget.click_faceup(g.row.index("loco") + 1)
    quoted(widget, "A2")
    assert widget.play_move("blind")
    assert "<details" not in find(widget, "ttr-refusal-text").value and "Rule A2" not in widget.status
    assert find(widget, "ttr-refusal").layout.display == "none"


def test_unreadable_notation_quotes_the_notation_section():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    assert not widget.play_move("fly to the moon")
    quoted(widget, "notation")


def test_the_inspector_quotes_the_rule_of_a_typed_move():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    widget.show_tab("Legal moves")
    ins = widget.inspector
    ins._text.value = "tickets"
    answer = find(ins, "ttr-why-answer").value
    assert answer.startswith("Illegal (rule A5)") and f"Rule A5: {rule_title('A5')}" in answer
    ins._text.value = str(widget.game.legal_moves[0])
    assert find(ins, "ttr-why-answer").value.startswith("Legal:")
    assert "<details" not in find(ins, "ttr-why-answer").value


def test_a_tunnel_that_cannot_be_paid_quotes_rule_b3():
    g = past_setup(ttr_lab.new_game("europe", players=2, seed=1))
    g = arrange(g, hands={0: {"yellow": 2, "blue": 3}}, deck_top=["yellow", "loco", "blue"], current=0, discard=[])
    widget = PlayWidget(g)
    widget.click_route(80)
    assert widget.game.phase.name == "TUNNEL"
    assert not widget.pay_tunnel()
    quoted(widget, "B3")
    assert "rule B3" in widget.status


def test_a_city_click_without_a_build_control_says_there_is_nothing_to_build():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=1)
    find(widget, "ttr-keep").click()
    k = city_trace_index(widget.fig)
    trace = widget.fig.data[k]
    i = list(trace.customdata).index("Chicago")
    trace._dispatch_on_click(Points(point_inds=[i], xs=[trace.x[i]], ys=[trace.y[i]], trace_index=k), None)
    assert "Nothing to build in Chicago: the usa edition has no stations or harbors" in widget.status


def test_turning_ticket_paths_on_keeps_the_hand_shown():
    widget = ttr_lab.play("europe", players=["Ada", "Bob"], seed=2, hide_hands=True)
    find(widget, "ttr-reveal").click()
    find(widget, "ttr-paths").value = True
    assert widget._hand_visible() and "hidden" not in find(widget, "ttr-hand").value
    find(widget, "ttr-hide").value = False
    find(widget, "ttr-hide").value = True  # hiding hands again: Ada must show hers again
    assert not widget._hand_visible()
