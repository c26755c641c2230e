"""The play widget's edition controls (looked up by the names editions
declare) and its refusals, which quote the rules reference."""

from __future__ import annotations

import ast
import html
import importlib
import inspect
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from plotly.callbacks import Points

import ttr_lab
from ttr_lab.board import city_trace_index
from ttr_lab.engine.reference import explain, rule_title
from ttr_lab.errors import TtrError
from ttr_lab.widgets import CONTROLS, PlayWidget
from ttr_lab.widgets.controls import Control, make_controls

from .helpers import arrange, past_setup
from .test_widgets import all_widgets, find

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
    """No isinstance over the editions' move classes, no probing of the state or of phase names
    in the widgets (the controls subpackage included)."""
    edition_moves = ("BuildStation", "BuildHarbor", "PayTunnel", "DeclineTunnel", "ChoosePieces", "ExchangePieces")
    paths = sorted(WIDGETS.rglob("*.py"))
    assert {"base.py", "build.py", "tunnel.py", "pieces.py", "more.py"} <= {p.name for p in paths}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for name in edition_moves:
            assert name not in text, f"{path.name} names {name}"
        assert "hasattr(g" not in text and 'getattr(g, "' not in text, f"{path.name} probes the state"
        assert "from ..editions" not in text and "from ...editions" not in text, f"{path.name} imports an edition"
        assert "Phase.TUNNEL" not in text and "Phase.SETUP_PIECES" not in text, path.name
        assert "SETUP_PIECES" not in text and "phase.name !=" not in text, f"{path.name} tests a phase's name"


# --------------------------------------------------------------------------- the registry is open


class Rocket(Control):
    """A control of a made-up edition rule."""

    name = "rocket"
    verbs = frozenset({"rocket"})


def moon_host(*names):
    return SimpleNamespace(game=SimpleNamespace(edition=SimpleNamespace(name="moon", widget_controls=names)))


@pytest.fixture
def rocket():
    """The name ``rocket`` free before and after the test."""
    from ttr_lab.widgets.controls import unregister_control

    unregister_control("rocket")
    yield
    unregister_control("rocket")


def test_register_control_adds_a_control_by_name(rocket):
    from ttr_lab.widgets.controls import CONTROLS, control_names, find_control, register_control, unregister_control

    with pytest.raises(TtrError, match="known: build, exchange"):
        make_controls(moon_host("rocket"))
    assert register_control("rocket", Rocket) is Rocket and find_control("rocket") is Rocket
    assert "rocket" in control_names() and CONTROLS["rocket"] is Rocket
    built = make_controls(moon_host("rocket"))
    assert list(built) == ["rocket"] and type(built["rocket"]) is Rocket
    with pytest.raises(TypeError):  # the registry is changed only through register_control
        CONTROLS["rocket"] = Rocket  # type: ignore[index]
    # a factory other than a class; a name taken; a factory making something else; bad names
    made = []
    assert register_control("rocket", lambda host: made.append(host) or Rocket(host), replace=True)
    host = moon_host("rocket")
    assert type(make_controls(host)["rocket"]) is Rocket and made == [host]
    with pytest.raises(TtrError, match=r"register_control\('rocket'\): the name is taken by .*replace=True"):
        register_control("rocket", Rocket)
    register_control("rocket", lambda host: "a rocket", replace=True)
    with pytest.raises(TtrError, match=r"edition 'moon': the widget control 'rocket' .* made str, not a Control"):
        make_controls(moon_host("rocket"))
    for bad in ("", "Rocket", "two words", "x" * 41, "../rocket", 7):
        with pytest.raises(TtrError, match="a control's name is lower case letters"):
            register_control(bad, Rocket)
    with pytest.raises(TtrError, match="the factory must be callable"):
        register_control("rocket2", "Rocket")
    unregister_control("rocket")
    assert "rocket" not in control_names()
    with pytest.raises(TtrError, match="needs the widget control 'rocket'"):
        make_controls(moon_host("rocket"))


ROCKET_MODULE = """
from ttr_lab.widgets.controls import Control


class Rocket(Control):
    name = "rocket"
"""


def _install(site, dist, entry, module=None):
    """A package's metadata (its ttr_lab.controls entry point) and source in ``site``, as pip would leave them."""
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[ttr_lab.controls]\n{entry}\n")
    if module is not None:
        (site / dist).mkdir()
        (site / dist / "__init__.py").write_text(module)


def test_an_installed_package_brings_its_control_by_entry_point(rocket, tmp_path, monkeypatch):
    from ttr_lab.widgets.controls import CONTROLS, control_names, find_control

    _install(tmp_path, "moon_rockets", "rocket = moon_rockets:Rocket", ROCKET_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "moon_rockets", raising=False)
    assert "rocket" in control_names() and "rocket" not in CONTROLS
    assert "moon_rockets" not in sys.modules  # nothing imported until the control is needed
    built = make_controls(moon_host("rocket"))
    assert type(built["rocket"]).__module__ == "moon_rockets" and CONTROLS["rocket"] is find_control("rocket")
    monkeypatch.delitem(sys.modules, "moon_rockets")


def test_a_broken_entry_point_is_an_error_naming_it(rocket, tmp_path, monkeypatch):
    _install(tmp_path, "moon_broken", "rocket = moon_broken.missing:Rocket", "")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(
        TtrError,
        match=r"needs the widget control 'rocket': the ttr_lab.controls entry point "
        r"rocket = moon_broken.missing:Rocket could not be loaded: ModuleNotFoundError",
    ):
        make_controls(moon_host("rocket"))
    monkeypatch.delitem(sys.modules, "moon_broken", raising=False)


def test_controls_ask_their_host_only_what_the_host_protocol_offers(cv):
    """Every registered control (and the plug-in's) calls public methods of its host, and the
    play widget has each method of the Host protocol; it carries no edition's methods."""
    from ttr_lab.widgets import controls
    from ttr_lab.widgets.controls.base import Host

    offered = {name for name in vars(Host) if not name.startswith("_")} | set(Host.__annotations__)
    assert offered == {"game", "play_move", "draw_blind", "refuse", "hand_hidden", "make_button", "choose_payment"}
    for name in offered - {"game"}:
        assert callable(getattr(PlayWidget, name)) and getattr(Host, name).__doc__, name
    sources = {inspect.getsourcefile(f) for f in controls.CONTROLS.values()}
    sources |= {inspect.getsourcefile(controls.OtherMoves), inspect.getsourcefile(cv.control.BlockControl)}
    assert len(sources) == 7
    for path in sorted(sources):
        for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _is_host(node.value):
                assert not node.attr.startswith("_"), f"{Path(path).name}:{node.lineno} calls host.{node.attr}"
                assert node.attr in offered, f"{Path(path).name}:{node.lineno} asks host.{node.attr}"
    for name in ("pay_tunnel", "decline_tunnel", "choose_pieces", "exchange", "_exchange_moves"):
        assert not hasattr(PlayWidget, name), f"the play widget carries {name}"


def _is_host(node):
    """``host``, ``h`` (as controls name it) or ``self.host``."""
    if isinstance(node, ast.Name):
        return node.id in ("host", "h")
    return isinstance(node, ast.Attribute) and node.attr == "host"


# --------------------------------------------------------------------------- a plug-in's move without a control


@pytest.fixture(scope="module")
def cv():
    """The classroom variant (tests/classroom_variant) imported afresh and registered; forgotten afterwards."""
    from .test_plugin_classroom import VARIANT, _forget_modules

    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(VARIANT))
        _forget_modules()
        module = importlib.import_module("classroom_variant")
        module.register()
        importlib.import_module("classroom_variant.control")
        try:
            yield module
        finally:
            module.unregister()
            _forget_modules()


@pytest.fixture
def bare(cv):
    """The classroom variant without its widget control: ``block N`` has no control of its own."""
    from ttr_lab.engine.rules.registry import register_edition, unregister_edition

    class Bare(cv.Classroom):
        name = "classroom_bare"
        aliases = {}

        @property
        def widget_controls(self):
            return ()

    register_edition(Bare)
    yield Bare
    unregister_edition(Bare.name)


def test_a_move_with_more_options_than_fit_gets_a_dropdown(bare):
    w = PlayWidget("classroom_bare", players=["Ann", "You"], seed=7, options={"first_player": 1}, hide_hands=True)
    g = w.game
    assert w.controls == {}
    while g.phase.name == "SETUP_TICKETS":
        find(w, "ttr-reveal").click()
        find(w, "ttr-keep").click()
    assert g.current_player == 1
    # while the hand is hidden, nothing of the decision is on the page
    assert find(w, "ttr-extra-moves").children == ()
    find(w, "ttr-reveal").click()
    blocks = [m for m in g.legal_moves if m.verb == "block"]
    assert len(blocks) > 6
    menu = find(w, "ttr-moves-block")
    assert [text for text, _ in menu.options] == [m.describe(g) for m in blocks]
    menu.value = next(i for text, i in menu.options if text.startswith("block route 57 "))
    find(w, "ttr-moves-block-play").click()
    assert g.blocked_routes() == {57: 1} and g.move_stack[-1] == blocks[menu.options[menu.value][1]]
    assert find(w, "ttr-extra-moves").children == ()  # Ann's screen: hidden again
    assert not [x for x in all_widgets(w) if "ttr-moves-block" in x._dom_classes]


def test_the_app_offers_the_editions_the_widget_can_play(bare, rocket):
    from ttr_lab.engine.rules.registry import register_edition, unregister_edition
    from ttr_lab.widgets.app import PlayApp
    from ttr_lab.widgets.controls import playable_editions, register_control

    class Moon(bare):
        name = "moon"
        aliases = {}
        title = "Moon"

        @property
        def widget_controls(self):
            return ("rocket",)

    register_edition(Moon)
    try:
        names = [name for _, name in playable_editions()]
        counts = [len(ttr_lab.find_edition(name).widget_controls) for name in names]
        assert counts == sorted(counts)  # the simplest first
        assert names.index("usa") < names.index("europe") < names.index("rails_and_sails") < names.index("great_lakes")
        assert {"great_lakes", "classroom", "classroom_bare"} <= set(names) and "moon" not in names
        register_control("rocket", Rocket)
        assert ("Moon", "moon") in playable_editions()
        app = PlayApp(edition="classroom", mode="play", key="a teacher's long secret key")
        assert tuple(app.edition.options) == playable_editions()
        assert app.game_widget.game.edition.name == "classroom" and "block" in app.game_widget.controls
    finally:
        unregister_edition("moon")


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
    assert not widget.controls["tunnel"].pay()
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


def test_the_controls_subpackage_is_in_the_wheel():
    """pyproject.toml lists packages by hand (or discovers them): ttr_lab.widgets.controls is one."""
    tomllib = pytest.importorskip("tomllib")
    setup = tomllib.loads((WIDGETS.parent.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = setup.get("packages")
    if isinstance(packages, list):
        assert "ttr_lab.widgets.controls" in packages
    assert (WIDGETS / "controls" / "__init__.py").is_file()
