"""Tests for ttr_lab.board: the static board (standard library only), its display bundle, and, in a
real Chromium when there is one, that both drawings put their labels where the placement says."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab.board import board_svg, mimebundle
from ttr_lab.board.frame import board_frame
from ttr_lab.board.geometry import geometry
from ttr_lab.board.scene import HIGHLIGHT, Scene
from ttr_lab.bots import make_bot
from ttr_lab.engine.rules import find_edition
from ttr_lab.errors import NotFoundError, WrongTypeError
from ttr_lab.maps import available_maps, load_map, map_from_dict

NS = {"s": "http://www.w3.org/2000/svg"}
MAPS = available_maps()
ROOT = Path(__file__).resolve().parents[1]
HAS_PLOTLY = importlib.util.find_spec("plotly") is not None


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed XML, or this raises


def played(edition: str, plies: int, seed: int = 4):
    g = ttr_lab.new_game(edition, players=3, seed=seed)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    while not g.is_over and g.ply < plies:
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    return g


@pytest.fixture(scope="module")
def europe_game():
    return played("europe", 120)


# --------------------------------------------------------------------------- the drawing


@pytest.mark.parametrize("map_id", MAPS)
def test_well_formed_for_every_map(map_id):
    m = load_map(map_id)
    root = parse(board_svg(m))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    width = int(root.get("width"))
    assert width == 900 and root.get("viewBox") == f"0 0 {width} {root.get('height')}"
    # a group per route, a box (or a ship's oval) per car space
    groups = root.findall(".//s:g[@data-route]", NS)
    assert [int(g.get("data-route")) for g in groups] == [r.id for r in m.routes]
    geo = geometry(m)
    for g, r in zip(groups, m.routes):
        shapes = g.findall("s:path", NS) + g.findall("s:ellipse", NS)
        assert len(shapes) == len(geo.spaces[r.id]), r.label()
        assert (r.kind == "ship") == bool(g.findall("s:ellipse", NS))
        assert g.find("s:title", NS).text.startswith(f"{r.a} – {r.b}")
    names = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {c.name for c in m.cities} <= names


@pytest.mark.parametrize("map_id", MAPS)
def test_the_same_size_and_labels_as_the_figure(map_id):
    """The SVG and the figure share the frame: same picture size, each label centred where it was placed."""
    m = load_map(map_id)
    frame, _, total = board_frame(m, 900, None, 40.0, Scene(m).legend_base())
    root = parse(board_svg(m))
    assert float(root.get("height")) == math.ceil(total)
    plot = root.find("s:svg", NS)  # the plot area, a nested svg that clips
    assert (float(plot.get("width")), float(plot.get("height"))) == (frame.width, frame.height)
    texts = [t for t in plot.iter("{http://www.w3.org/2000/svg}text") if t.text != "L"][-len(frame.labels) :]
    s = frame.scale
    for lab, t in zip(frame.labels, texts):  # drawn last, in the placement's order
        assert t.text == lab.text
        x, y = (lab.x - frame.xrange[0]) * s, (frame.yrange[1] - lab.y) * s
        assert float(t.get("x")) == pytest.approx(x, abs=0.06) and float(t.get("y")) == pytest.approx(y, abs=0.06)
        assert float(t.get("font-size")) == lab.size and t.get("text-anchor") == "middle"
    if HAS_PLOTLY:
        from ttr_lab.board import board_figure

        fig = board_figure(m)
        assert (fig.layout.width, fig.layout.height) == (900, math.ceil(total))


def test_owners_marks_legend_and_last_moves(europe_game):
    g = europe_game
    svg = board_svg(g)
    root = parse(svg)
    owners = g.route_owners()
    pieces = root.findall(".//s:g[@data-seat]", NS)
    assert {int(p.get("data-route")): int(p.get("data-seat")) for p in pieces} == owners
    for p in pieces:
        seat = int(p.get("data-seat"))
        spaces = [e for e in p if e.tag.endswith(("path", "ellipse")) and e.get("stroke") == "#111111"]
        assert spaces and all(e.get("fill") == Scene(g).seat_color[seat] for e in spaces)
        assert len(list(p)) - 1 == 2 * len(spaces)  # each piece carries its seat's mark
        assert "claimed by " + g.player_names[seat] in p.find("s:title", NS).text
    for name in g.player_names:
        assert f"claimed by {name}" in svg
    assert "last move (halo)" in svg
    scene = Scene(g)
    halos = [f"rgba({int(c[1:3], 16)},{int(c[3:5], 16)},{int(c[5:7], 16)},0.5)" for c in scene.seat_color]
    assert sum(svg.count(f'stroke="{h}"') + svg.count(f'fill="{h}"') for h in halos) == len(scene.last) > 0
    quiet = board_svg(g, last_moves=False)
    assert "last move" not in quiet and not any(h in quiet for h in halos)


def test_overlays_and_errors():
    usa = load_map("usa")
    europe = find_edition("europe", map="usa")  # stations are Europe's marks: drawn on an edition, a game or a view
    svg = board_svg(europe, highlight=[1], paths=[[2, 3]], tickets=[("Boston", "Miami")], stations={"Denver": 0})
    root = parse(svg)
    assert "highlight" in svg and "path 1" in svg and "tickets" in svg and "stations" in svg
    assert "station: Player 1" in svg  # the city's tooltip
    # the highlight colour strokes two paths, both dashed: the frame on the board, the legend sample
    frames = root.findall(f".//s:path[@stroke='{HIGHLIGHT}']", NS)
    assert len(frames) == 2 and all(f.get("stroke-dasharray") for f in frames)
    assert frames[0].get("d").count("Z") == 1 and frames[0].get("data-highlight") == "1"
    with pytest.raises(NotFoundError):
        board_svg(usa, highlight=[999])
    with pytest.raises(WrongTypeError):
        board_svg(42)
    with pytest.raises(WrongTypeError, match="need a game, a view or an edition"):
        board_svg(usa, stations={"Denver": 0})  # a map alone has no edition to draw stations
    assert root.find(".//s:title", NS).text == usa.name
    assert board_svg(usa, title="").count("<text") < svg.count("<text")


def test_names_are_escaped():
    m = map_from_dict(
        {
            "format": "ttr_lab.map",
            "version": 1,
            "id": "esc",
            "name": "Rock & <Roll>",
            "cities": [{"name": "A&B", "lat": 10, "lon": 0}, {"name": "C<D>", "lat": 11, "lon": 3}],
            "routes": [{"id": 1, "a": "A&B", "b": "C<D>", "length": 2, "color": "red", "kind": "train"}],
            "tickets": [],
        }
    )
    root = parse(board_svg(m))
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"A&B", "C<D>", "Rock & <Roll>"} <= texts


def test_works_without_plotly():
    """The [lab] extra is optional: the SVG and its bundle need the standard library only."""
    code = (
        "import sys\n"
        "sys.modules['plotly'] = None\n"  # import plotly now raises ImportError
        "import ttr_lab\n"
        "from ttr_lab.board import board_svg, mimebundle\n"
        "g = ttr_lab.new_game('usa', players=2, seed=1)\n"
        "print(board_svg(g).startswith('<svg'), sorted(mimebundle(g)))\n"
        "print([m for m in sys.modules if m.startswith(('plotly', 'ipywidgets', 'IPython'))])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env, timeout=120
    )
    assert out.stdout.split("\n")[:2] == ["True ['image/svg+xml', 'text/plain']", "['plotly']"]


# --------------------------------------------------------------------------- the display bundle


def test_mimebundle_of_a_state_and_a_view(europe_game):
    g = europe_game
    bundle = mimebundle(g)
    assert bundle["text/plain"] == repr(g)
    assert parse(bundle["image/svg+xml"]).tag.endswith("svg")
    if HAS_PLOTLY:
        fig = bundle["application/vnd.plotly.v1+json"]
        assert {"data", "layout"} <= set(fig) and json.dumps(fig)  # JSON-ready, as Jupyter needs
        assert any(t.get("name") == "routes" for t in fig["data"])
        assert sorted(bundle) == ["application/vnd.plotly.v1+json", "image/svg+xml", "text/plain"]
    else:
        assert sorted(bundle) == ["image/svg+xml", "text/plain"]
    view = g.view(1)
    vb = mimebundle(view, include={"image/svg+xml", "text/plain"})
    assert sorted(vb) == ["image/svg+xml", "text/plain"] and vb["text/plain"] == repr(view)
    assert sorted(mimebundle(g, exclude={"image/svg+xml", "application/vnd.plotly.v1+json"})) == ["text/plain"]
    # a view shows the public board only: the same pieces, no hands
    assert parse(vb["image/svg+xml"]).findall(".//s:g[@data-seat]", NS)


def test_no_html_in_the_bundle(europe_game):
    """No text/html: GitHub and nbviewer would show it (scripts stripped, an empty box) before the SVG."""
    assert "text/html" not in mimebundle(europe_game)


# --------------------------------------------------------------------------- in a real browser


@pytest.fixture(scope="module")
def page(chromium_context):
    pg = chromium_context.new_page()
    pg.set_viewport_size({"width": 1000, "height": 900})
    yield pg
    pg.close()


def _planned(frame, lab, left, top):
    s = frame.scale
    return (
        left + (lab.x - lab.w / 2 - frame.xrange[0]) * s,
        left + (lab.x + lab.w / 2 - frame.xrange[0]) * s,
        top + (frame.yrange[1] - lab.y - lab.h / 2) * s,
        top + (frame.yrange[1] - lab.y + lab.h / 2) * s,
    )


def _check_text_boxes(frame, drawn, left, top):
    """Every drawn label inside its planned box (the font model holds), and no two drawn labels overlapping."""
    boxes = []
    assert [d[0] for d in drawn] == [lab.text for lab in frame.labels]
    for lab, (text, x, y, w, h) in zip(frame.labels, drawn):
        px0, px1, py0, py1 = _planned(frame, lab, left, top)
        assert px0 - 0.5 <= x and x + w <= px1 + 0.5 and py0 - 0.5 <= y and y + h <= py1 + 0.5, text
        boxes.append((text, x, x + w, y, y + h))
    assert len(boxes) == len(frame.labels)
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[1] < b[2] and b[1] < a[2] and a[3] < b[4] and b[3] < a[4]), (a[0], b[0])


@pytest.mark.browser
@pytest.mark.parametrize("map_id", ["usa", "europe", "rails_and_sails_world"])
def test_svg_labels_in_chromium(page, map_id, tmp_path):
    m = load_map(map_id)
    g = played({"rails_and_sails_world": "rails_and_sails"}.get(map_id, map_id), 100)
    svg = board_svg(g)
    (tmp_path / "board.svg").write_text(svg, encoding="utf-8")
    page.goto((tmp_path / "board.svg").as_uri())
    frame, _, _ = board_frame(m, 900, None, 40.0, Scene(g).legend_base())
    drawn = page.evaluate(
        """(n) => [...document.querySelectorAll('svg svg text')].slice(-n)
             .map(t => { const r = t.getBBox(); return [t.textContent, r.x, r.y, r.width, r.height]; })""",
        len(frame.labels),
    )
    _check_text_boxes(frame, drawn, 0.0, 0.0)  # getBBox is in the plot's own coordinates
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 900, "height": math.ceil(float(parse(svg).get("height")))})
    page.screenshot(path=str(out / f"board-svg-{map_id}.png"))


@pytest.mark.browser
def test_plotly_labels_and_a_click_along_a_route_in_chromium(page, tmp_path):
    """The figure in Chromium: labels where placed, and a click a quarter of the way along
    Los Angeles - El Paso picks that route (not El Paso - Phoenix)."""
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure, route_trace_index

    usa = load_map("usa")
    fig = board_figure(usa)
    # no double clicks: on a busy machine two clicks a third of a second apart can be taken for one
    html = fig.to_html(include_plotlyjs=True, full_html=True, div_id="board", config={"doubleClick": False})
    html = html.replace(
        "</body>",
        "<script>window.clicks = []; document.getElementById('board').on('plotly_click', "
        "e => window.clicks.push(e.points.map(p => [p.data.name, p.customdata])));</script></body>",
    )
    (tmp_path / "board.html").write_text(html, encoding="utf-8")
    page.goto((tmp_path / "board.html").as_uri())
    page.wait_for_selector(".nsewdrag")
    plot = page.locator(".nsewdrag").first.bounding_box()
    frame, _, _ = board_frame(usa, 900, None, 40.0, Scene(usa).legend_base())
    drawn = page.evaluate(  # the trace found by its uid (tests/e2e/plotly_dom.py), not by its place
        """(uid) => [...document.querySelector('.js-plotly-plot .trace.trace' + uid).querySelectorAll('text')]
             .map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.x, r.y, r.width, r.height]; })""",
        "city-labels",
    )
    assert plot["width"] == frame.width and plot["height"] == pytest.approx(frame.height, abs=1)
    _check_text_boxes(frame, drawn, plot["x"], plot["y"])

    la_ep = usa.routes_between("Los Angeles", "El Paso")[0]
    geo = geometry(usa)
    s = frame.scale
    for sp in geo.spaces[la_ep.id]:  # every space, off-centre too
        for f in (-0.3, 0.3):
            x = plot["x"] + (sp.x + f * sp.length * sp.ux - frame.xrange[0]) * s
            y = plot["y"] + (frame.yrange[1] - sp.y - f * sp.length * sp.uy) * s
            page.mouse.move(x - 25, y - 25)
            page.mouse.move(x, y, steps=4)
            page.wait_for_timeout(250)  # plotly clicks what it last hovered: let the hover catch up
            page.mouse.click(x, y)
            page.wait_for_timeout(50)
            assert page.evaluate("window.clicks.pop()") == [["routes", la_ep.id]], (sp.index, f)
    assert route_trace_index(fig) == [t.name for t in fig.data].index("routes")


# --------------------------------------------------------------------------- GameState and PlayerView in Jupyter

needs_plotly = pytest.mark.skipif(not HAS_PLOTLY, reason="plotly is not installed")


def _route_groups(svg: str) -> dict[int, int]:
    """route id -> number of drawn spaces (a ``<g data-route>`` per route, pieces aside)."""
    root = parse(svg)
    return {
        int(g.get("data-route")): sum(1 for e in g if e.tag.endswith(("path", "ellipse")))
        for g in root.findall(".//s:g[@data-route]", NS)
        if g.get("data-seat") is None
    }


@needs_plotly
def test_a_state_displays_as_plotly_and_as_svg(europe_game):
    """The hook (GameState._repr_mimebundle_) gives the interactive figure and the static board."""
    from ttr_lab.board import board_figure

    g = europe_game
    bundle = g._repr_mimebundle_()
    assert sorted(bundle) == ["application/vnd.plotly.v1+json", "image/svg+xml", "text/plain"]
    svg = bundle["image/svg+xml"]
    assert svg == board_svg(g)  # the same static board as ttr_lab.board draws
    spaces = _route_groups(svg)
    assert spaces == {r.id: len(geometry(g.map).spaces[r.id]) for r in g.map.routes}  # every route, every space
    scene = Scene(g)
    for rid, seat in g.route_owners().items():  # every piece in its owner's colour
        piece = parse(svg).find(f".//s:g[@data-route='{rid}'][@data-seat='{seat}']", NS)
        assert piece is not None and scene.seat_color[seat] in {e.get("fill") for e in piece}
    plotly_part = bundle["application/vnd.plotly.v1+json"]
    assert json.dumps(plotly_part) and [t["name"] for t in plotly_part["data"]] == [
        t.name for t in board_figure(g).data
    ]
    assert "text/html" not in bundle  # GitHub would show an empty box before the SVG
    only = g._repr_mimebundle_(include={"image/svg+xml"})
    assert sorted(only) == ["image/svg+xml", "text/plain"]


@needs_plotly
def test_the_svg_follows_the_figure_not_later_changes():
    from ttr_lab.board import BoardFigure, board_figure

    g = played("usa", 30)
    fig = board_figure(g)
    assert isinstance(fig, BoardFigure)
    before = fig._repr_mimebundle_()["image/svg+xml"]
    owners = dict(g.route_owners())
    while g.route_owners() == owners:  # the game goes on: the figure still shows (and saves) its position
        g.play(make_bot("greedy", seed=9).choose(g.view(g.current_player)))
    assert fig._repr_mimebundle_()["image/svg+xml"] == before != board_svg(g)
    fig.add_scatter(x=[0], y=[0], name="heat")  # drawn over: the board alone would be a wrong picture
    assert sorted(fig._repr_mimebundle_()) == ["application/vnd.plotly.v1+json", "text/plain"]
    fig2 = board_figure(g)
    fig2.data[0].name = "renamed"
    assert "image/svg+xml" not in fig2._repr_mimebundle_()
    bare = load_map("usa")  # a bare map is a board a lesson shows too (issue 19 C4)
    assert board_figure(bare)._repr_mimebundle_()["image/svg+xml"] == board_svg(bare)


@needs_plotly
def test_a_saved_notebook_shows_the_board_without_a_kernel(tmp_path):
    """Run a notebook that displays a game, save it with nbformat, read it back: its output holds
    the SVG, and nbconvert's HTML (what nbviewer shows) draws it."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nbconvert = pytest.importorskip("nbconvert")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import ttr_lab\n"
            "from ttr_lab.bots import make_bot\n"
            "g = ttr_lab.new_game('usa', players=['Ada', 'Bo'], seed=2)\n"
            "while not g.route_owners():\n"
            "    g.play(make_bot('greedy').choose(g.view(g.current_player)))\n"
            "g"
        ),
    ]
    nb.cells.append(nbformat.v4.new_code_cell("from ttr_lab.board import board_figure\nboard_figure(g)"))
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    path = tmp_path / "saved.ipynb"
    nbformat.write(nb, path)
    saved = nbformat.read(path, as_version=4)
    *positions, figure = saved.cells
    (out,) = [o for o in figure.outputs if o.output_type in ("display_data", "execute_result")]
    # a figure as a cell's value displays its own bundle (issue 19 C4): the figure, its SVG and a line of text
    assert sorted(out.data) == ["application/vnd.plotly.v1+json", "image/svg+xml", "text/plain"]
    for cell in positions:
        (out,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert "application/vnd.plotly.v1+json" in out.data and "text/html" not in out.data
        assert parse(out.data["image/svg+xml"]).tag.endswith("svg")
    html, _ = nbconvert.HTMLExporter().from_notebook_node(saved)
    assert html.count("data:image/svg+xml") + html.count("<svg xmlns") >= 1


@pytest.mark.browser
@pytest.mark.parametrize("map_id", ["europe", "rails_and_sails_world"])
def test_plotly_labels_in_chromium(page, map_id, tmp_path):
    """The crowded maps in the figure: every label where the placement put it, inside the plot, none overlapping."""
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure

    m = load_map(map_id)
    fig = board_figure(m)
    (tmp_path / "board.html").write_text(fig.to_html(include_plotlyjs=True, full_html=True), encoding="utf-8")
    page.goto((tmp_path / "board.html").as_uri())
    page.wait_for_selector(".nsewdrag")
    plot = page.locator(".nsewdrag").first.bounding_box()
    frame, _, _ = board_frame(m, 900, None, 40.0, Scene(m).legend_base())
    assert plot["width"] == frame.width and plot["height"] == pytest.approx(frame.height, abs=1)
    drawn = []
    for name in ("city labels", "edge labels"):
        if name in [t.name for t in fig.data]:
            drawn += page.evaluate(
                """(uid) => [...document.querySelector('.js-plotly-plot .trace.trace' + uid).querySelectorAll('text')]
                     .map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.x, r.y, r.width, r.height]; })""",
                name.replace(" ", "-"),
            )
    by_kind = [lab for lab in frame.labels if lab.kind != "edge"] + [lab for lab in frame.labels if lab.kind == "edge"]
    # the figure draws the city labels, then the edge labels
    _check_text_boxes(dataclasses.replace(frame, labels=tuple(by_kind)), drawn, plot["x"], plot["y"])
    for text, x, y, w, h in drawn:  # nothing clipped at the plot's edge
        assert (
            plot["x"] <= x
            and x + w <= plot["x"] + plot["width"]
            and plot["y"] <= y
            and y + h <= plot["y"] + plot["height"]
        ), text
