"""Every board a notebook shows also carries a static SVG (issue 19 C4, issue 22 item 3).

* ``board_figure(...)`` displays through its own bundle (plotly JSON, the
  standard-library SVG, a line of text), also as a cell's value, so nbformat
  is never needed (plotly's own display raised "Mime type rendering requires
  nbformat>=4.2.0" without it, as in Pyodide);
* marker layers added on top (the heatmaps) are drawn into the SVG; any other
  change leaves the SVG out rather than show a board the figure does not;
* a game state and a player's view show the standard-library SVG when plotly
  is missing;
* every board widget adds its board, as it draws it, as ``image/svg+xml`` and
  a line of public facts as ``text/plain`` to its widget-view bundle, and the
  picture holds nothing a player at the screen may not see.

Missing packages are simulated in a subprocess with ``sys.modules[name] = None``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("plotly")
pytest.importorskip("ipywidgets")

import ttr_lab
from ttr_lab.board import BoardFigure, board_figure, board_svg, drawn_svg
from ttr_lab.board.scene import Scene
from ttr_lab.maps import load_map
from ttr_lab.records import samples

ROOT = Path(__file__).resolve().parents[1]
SVG, PLOTLY, WIDGET = "image/svg+xml", "application/vnd.plotly.v1+json", "application/vnd.jupyter.widget-view+json"
NS = {"s": "http://www.w3.org/2000/svg"}


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- board_figure as a cell's value


def test_a_figure_as_a_cells_value_displays_its_own_bundle_without_nbformat():
    """In an IPython shell whose plotly renderer is the MIME one (JupyterLab's, Pyodide's) and with no
    nbformat, ``board_figure(usa)`` as a cell's value shows the figure, the SVG and a line of text."""
    code = """
import sys
sys.modules["nbformat"] = None  # as in Pyodide
import plotly.io as pio
pio.renderers.default = "plotly_mimetype"
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
shell = InteractiveShell.instance()
with capture_output() as out:
    result = shell.run_cell("from ttr_lab.board import board_figure\\nfrom ttr_lab.maps import load_map\\n"
                            "board_figure(load_map('usa'), highlight=[1])")
if result.error_in_exec is not None:
    print("ERROR", type(result.error_in_exec).__name__, result.error_in_exec)
import json
print(json.dumps([sorted(o.data) for o in out.outputs]))
"""
    proc = run(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ERROR" not in proc.stdout, proc.stdout
    shown = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown == [[PLOTLY, SVG, "text/plain"]]


def test_display_publishes_the_bundle_raw(monkeypatch):
    seen = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda *a, **k: seen.append((a, k)))
    fig = board_figure(load_map("usa"))
    fig._ipython_display_()
    ((args, kwargs),) = seen
    assert kwargs == {"raw": True} and sorted(args[0]) == [PLOTLY, SVG, "text/plain"]


@pytest.mark.parametrize("edition", ["usa", "europe", "world"])
def test_the_svg_is_the_board_the_figure_shows(edition):
    game = ttr_lab.new_game(edition, players=["Ada", "Bo", "Cy"], seed=3)
    fig = board_figure(game, highlight=[2, 5], title="a title", width=800)
    bundle = fig._repr_mimebundle_()
    assert bundle[SVG] == board_svg(game, highlight=[2, 5], title="a title", width=800)
    assert bundle["text/plain"].startswith(f"<board of {game.map.name}: a title (Ada, Bo, Cy)")
    # a bare map (with what a lesson draws on it) is a board too
    usa = load_map("usa")
    paths = [type("P", (), {"name": "one path", "routes": [1, 2]})()]
    assert board_figure(usa, paths=paths)._repr_mimebundle_()[SVG] == board_svg(usa, paths=paths)


def test_include_and_exclude_are_honoured():
    fig = board_figure(load_map("usa"))
    assert sorted(fig._repr_mimebundle_(include={SVG})) == [SVG]
    assert sorted(fig._repr_mimebundle_(exclude={SVG, PLOTLY})) == ["text/plain"]


def _plot(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_a_heatmap_layer_is_drawn_into_the_svg():
    from ttr_lab.simulate.heatmaps import city_heatmap, route_heatmap

    usa = load_map("usa")
    fig = route_heatmap(usa, {1: 0.9, 2: 0.1}, title="claims")
    svg = fig._repr_mimebundle_()[SVG]
    layer = _plot(svg).find(".//s:g[@class='marker-layer']", NS)
    heat = fig.data[-1]
    assert layer is not None and layer.get("data-name") == "claim rate"
    squares = layer.findall("s:rect", NS)
    assert len(squares) == len(heat.x)  # a square on every car space, as the figure draws
    hottest = max(range(len(heat.x)), key=lambda i: heat.marker.color[i])
    coldest = min(range(len(heat.x)), key=lambda i: heat.marker.color[i])
    assert squares[hottest].get("fill") != squares[coldest].get("fill")
    assert svg.startswith(board_svg(usa, last_moves=False, title="claims").rsplit("</svg>", 1)[0][:2000])
    cities = city_heatmap(usa, {"Chicago": 3.0, "Miami": 1.0})
    discs = _plot(cities._repr_mimebundle_()[SVG]).findall(".//s:g[@class='marker-layer']/s:circle", NS)
    assert len(discs) == len(usa.cities)
    r = {float(c.get("r")) for c in discs}
    assert len(r) == 3  # Chicago, Miami and the rest: sized by value


def test_a_changed_figure_drops_the_svg_rather_than_show_another_board():
    fig = board_figure(load_map("usa"))
    fig.update_layout(title_text="something else")
    assert SVG not in fig._repr_mimebundle_()
    fig = board_figure(load_map("usa"))
    fig.data[0].marker.size = 3
    assert SVG not in fig._repr_mimebundle_()
    fig = board_figure(load_map("usa"))
    fig.add_scatter(x=[0, 1], y=[0, 1], mode="lines")  # a layer the SVG cannot draw as plotly does
    assert SVG not in fig._repr_mimebundle_()
    assert isinstance(fig, BoardFigure) and sorted(fig._repr_mimebundle_()) == [PLOTLY, "text/plain"]


# ---------------------------------------------------------------- without plotly


def test_a_state_and_a_view_show_the_stdlib_svg_without_plotly():
    code = """
import sys, json
for name in ("plotly", "plotly.graph_objects", "plotly.io"):
    sys.modules[name] = None
import ttr_lab
from ttr_lab.board import board_svg
g = ttr_lab.new_game("usa", players=["Ada", "Bo"], seed=2)
while g.phase.name == "SETUP_TICKETS":
    g.play(g.legal_moves[0])
b = g._repr_mimebundle_()
v = g.view(1)
vb = v._repr_mimebundle_()
print(json.dumps({"state": sorted(b), "view": sorted(vb), "same": b["image/svg+xml"] == board_svg(g),
                  "view_same": vb["image/svg+xml"] == board_svg(g, tickets=v.tickets) and bool(v.tickets),
                  "text": vb["text/plain"] == repr(v)}))
"""
    proc = run(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["state"] == [SVG, "text/plain"] and got["view"] == [SVG, "text/plain"]
    assert got["same"] and got["view_same"] and got["text"]


def test_a_view_without_plotly_shows_its_own_tickets_only():
    game = ttr_lab.new_game("usa", players=["Ada", "Bo", "Cy"], seed=5)
    while game.phase.name == "SETUP_TICKETS":
        game.play(game.legal_moves[0])
    from ttr_lab.board import mimebundle

    for seat in range(3):
        view = game.view(seat)
        svg = mimebundle(view, exclude={PLOTLY}, tickets=view.tickets)[SVG]
        mine = {label for _, label in Scene(game, tickets=game.tickets(seat)).tickets}
        assert mine and all(f"ticket {label}" in svg for label in mine)
        for other in set(range(3)) - {seat}:
            for _, label in Scene(game, tickets=game.tickets(other)).tickets:
                if label not in mine:
                    assert f"ticket {label}" not in svg


# ---------------------------------------------------------------- widgets


def _play_to_turn(w, plies: int = 6):
    """Play the first legal move through the widget until ``plies`` (bounded: a refusal stops it)."""
    g = w.game
    for _ in range(plies):
        if g.ply >= plies or g.is_over:
            break
        assert w.play_move(g.legal_moves[0]), w.status


def _widgets():
    from ttr_lab.widgets import HistoryWidget
    from ttr_lab.widgets.editor import EditorWidget

    rec = ttr_lab.recorder(
        "usa",
        players=["Me", "Ann"],
        seat="Me",
        hand={"red": 2, "blue": 2},
        row=["red", "red", "blue", "blue", "green"],
        tickets=[1, 2, 3],
    )
    return {
        "PlayWidget": ttr_lab.play("usa", players=["You", "bot"], seed=7),
        "TutorialWidget": ttr_lab.tutorial("usa"),
        "ScorerWidget": ttr_lab.scorer("usa", players=["Ada", "Bob"]),
        "EditorWidget": EditorWidget("usa", players=["Me", "Ann"]),
        "RecorderWidget": rec,
        "HistoryWidget": HistoryWidget(samples.load("sample-game"), ply=40),
    }


def test_every_board_widget_saves_its_board_and_a_line_of_text():
    for name, w in _widgets().items():
        bundle = w._repr_mimebundle_(include=None, exclude=None)
        assert sorted(bundle) == [WIDGET, SVG, "text/plain"], name
        assert bundle[SVG] == drawn_svg(w.fig), name  # the board as the widget's figure last drew it
        assert bundle["text/plain"].startswith(f"{name}: "), bundle["text/plain"]
        assert "object at 0x" not in bundle["text/plain"] and "seed" not in bundle["text/plain"]
        ET.fromstring(bundle[SVG])


def test_the_play_widgets_svg_is_its_board_and_holds_no_other_seats_secret():
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7, show_paths=True)
    _play_to_turn(w, 8)
    g = w.game
    bundle = w._repr_mimebundle_()
    assert bundle[SVG] == board_svg(g, **{k: v for k, v in w._board_options().items() if k != "show_lengths"})
    bot_only = {label for _, label in Scene(g, tickets=g.tickets(1)).tickets} - {
        label for _, label in Scene(g, tickets=g.tickets(0)).tickets
    }
    assert bot_only and not any(f"ticket {label}" in bundle[SVG] for label in bot_only)
    text = bundle["text/plain"]
    assert "hand" not in text.lower() and "ticket " not in text
    assert re.fullmatch(r"PlayWidget: a usa game, ply \d+, .*; You \d+ points, \d+ pieces left; bot .*", text)


def _labels(game, seat: int) -> set[str]:
    return {label for _, label in Scene(game, tickets=list(game.tickets(seat)) or game.pending_tickets).tickets}


def test_hot_seat_with_hidden_hands_saves_only_what_the_screen_shows():
    """Hidden hands: nobody's tickets while a hand is covered; the revealed seat's own offer only."""
    w = ttr_lab.play("usa", players=["Ada", "Bo"], seed=4, hide_hands=True, show_paths=True)
    g = w.game
    svg = w._repr_mimebundle_()[SVG]
    assert not any(f"ticket {t}" in svg for t in _labels(g, 0) | _labels(g, 1))
    w._reveal.click()  # Ada shows her hand: the board draws her offer, as the saved picture does
    ada = {label for _, label in Scene(g, tickets=g.pending_tickets).tickets}
    svg = w._repr_mimebundle_()[SVG]
    assert ada and all(f"ticket {label}" in svg for label in ada)
    assert w.play_move(g.legal_moves[0]), w.status  # Ada keeps; Bo's hand is covered again
    svg = w._repr_mimebundle_()[SVG]
    bo = {label for _, label in Scene(g, tickets=g.pending_tickets).tickets}
    assert bo and not any(f"ticket {label}" in svg for label in bo | ada)
