"""The board's text for a classroom: fonts that grow with the board's width, and colour letters
(``show_color_letters``) in the boxes of free routes, in the plotly figure and in the SVG."""

from __future__ import annotations

import statistics
import xml.etree.ElementTree as ET

import pytest

from ttr_lab.board import board_svg
from ttr_lab.board.frame import SIDE_PX, SPARE_ROWS, board_frame, legend_rows
from ttr_lab.board.geometry import geometry
from ttr_lab.board.letters import contrast_ratio
from ttr_lab.board.scene import ROUTE_COLORS, Scene
from ttr_lab.maps import available_maps, load_map

go = pytest.importorskip("plotly.graph_objects")
from ttr_lab.board import board_figure, update_board  # noqa: E402

NS = {"s": "http://www.w3.org/2000/svg"}
MAPS = available_maps()
# written out here, not read from the module: the code a student is told
EXPECTED = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "pink": "P",
    "white": "W",
    "black": "K",
    "gray": None,
}


def trace(fig, meta):
    found = [t for t in fig.data if t.meta == meta]
    return found[0] if found else None


def _sizes(value, n):
    return list(value) if isinstance(value, (list, tuple)) else [value] * n


# --------------------------------------------------------------------------- fonts grow with the width


def _figure_fonts(m, width):
    fig = board_figure(m, width=width, player_names=["Ada", "Bo"])
    labels = trace(fig, "city labels")
    sizes = _sizes(labels.textfont.size, len(labels.text))
    return statistics.median(sizes), fig.layout.legend.font.size, fig.layout.title.font.size, fig


def _svg_fonts(m, width):
    root = ET.fromstring(board_svg(m, width=width, player_names=["Ada", "Bo"]))
    texts = root.findall(".//s:text", NS)
    names = {c.name for c in m.cities}
    labels = [float(t.get("font-size")) for t in texts if t.text in names]
    legend = [float(t.get("font-size")) for t in texts if t.text and t.text.startswith("claimed by")]
    title = [float(t.get("font-size")) for t in texts if t.text == m.name]
    return statistics.median(labels), legend[0], title[0]


@pytest.mark.parametrize("map_id", MAPS)
def test_fonts_grow_with_the_width(map_id):
    m = load_map(map_id)
    label900, legend900, title900, fig900 = _figure_fonts(m, 900)
    assert (legend900, title900) == (11, 16) and fig900.layout.margin.t == 40  # the default board as it was
    label1400, legend1400, title1400, fig = _figure_fonts(m, 1400)
    label1800, legend1800, _, _ = _figure_fonts(m, 1800)
    k = 1400 / 900
    assert label1400 >= label900 * k - 1.01  # in proportion (less at most the one-pixel fallback)
    assert label1400 > label900 + 4 and label1800 > label1400 + 2
    assert legend1400 == pytest.approx(11 * k, abs=0.06) and legend1800 > legend1400
    assert title1400 == pytest.approx(16 * k, abs=0.06) and fig.layout.margin.t > 40
    assert fig.layout.hoverlabel.font.size > 13
    # bounded: a narrow board keeps the default fonts, a very wide one stops at twice them
    label600, legend600, title600, _ = _figure_fonts(m, 600)
    assert legend600 == 11 and title600 == 16 and label600 >= label900 - 2
    assert _figure_fonts(m, 4000)[1] == 22
    # the SVG draws the same sizes
    assert _svg_fonts(m, 900) == (label900, legend900, title900)
    assert _svg_fonts(m, 1400) == (label1400, legend1400, pytest.approx(title1400, abs=0.06))


@pytest.mark.parametrize("map_id", MAPS)
def test_larger_labels_are_placed_at_their_drawn_size(map_id):
    """The layout is made for the fonts drawn: the boxes hold the text, and the edge and waypoint
    labels grow too (no overlap is checked by test_render's overlap test, at 1400 among others)."""
    m = load_map(map_id)
    small, _, _ = board_frame(m, 900, None, 40.0, [])
    big, _, _ = board_frame(m, 1400, None, 62.2, [])
    for kind in {lab.kind for lab in small.labels}:
        a = max(lab.size for lab in small.labels if lab.kind == kind)
        b = max(lab.size for lab in big.labels if lab.kind == kind)
        assert b > a * 1.4, kind


def test_the_legend_grows_with_its_font():
    m = load_map("rails_and_sails_world")
    seats = dict(player_names=["Ada", "Bo", "Cy", "Di"], highlight=[1])
    root = ET.fromstring(board_svg(m, width=1400, **seats))
    names = set(Scene(m, **seats).legend_names())
    entries = [t for t in root.findall(".//s:text", NS) if t.text in names]
    assert len(entries) == len(names) and {t.get("font-size") for t in entries} == {"17.1"}
    ys = sorted({float(t.get("y")) for t in entries})
    assert len(ys) >= 2 and ys[1] - ys[0] == pytest.approx(20 * 1400 / 900, abs=0.2)  # rows as tall as the font
    fig = board_figure(m, width=1400, **seats)
    assert fig.layout.legend.font.size == 17.1
    # the legend's room: the rows of the entries every board of the game shows, and the spare rows
    k = 1400 / 900
    base = legend_rows(Scene(m, **seats).legend_base(), 1400 - 2 * SIDE_PX, k)[0]
    assert fig.layout.margin.b == pytest.approx((base + SPARE_ROWS) * 20 * k + 12, abs=0.5)
    assert fig.layout.margin.b >= len(ys) * 20 * k + 12  # which holds this legend


# --------------------------------------------------------------------------- colour letters


def _owners(m):
    return {r.id: i % 2 for i, r in enumerate(m.routes[::5])}


def _expected(m, owners):
    """route id -> (letter, boxes that carry it) for every free non-gray route."""
    spaces = geometry(m).spaces
    out = {}
    for r in m.routes:
        letter = EXPECTED[r.color]
        if letter is None or r.id in owners:
            continue
        out[r.id] = (letter, [sp for sp in spaces[r.id] if not sp.loco])
    return out


@pytest.mark.parametrize("map_id", MAPS)
def test_letters_in_the_figure(map_id):
    m = load_map(map_id)
    owners = _owners(m)
    fig = board_figure(m, owners=owners, player_names=["Ada", "Bo"], show_color_letters=True)
    t = trace(fig, "color letters")
    names = [x.meta for x in fig.data]
    assert names.index("color letters") < names.index("seat:0")  # under the claimed pieces
    want = _expected(m, owners)
    assert set(t.customdata) == set(want)
    d = geometry(m).digits
    inks = _sizes(t.textfont.color, len(t.text))
    for rid, (letter, boxes) in want.items():
        at = [i for i, c in enumerate(t.customdata) if c == rid]
        assert [t.text[i] for i in at] == [letter] * len(boxes), rid
        assert sorted((t.x[i], t.y[i]) for i in at) == sorted((round(sp.x, d), round(sp.y, d)) for sp in boxes)
        fill = ROUTE_COLORS[m.route(rid).color]
        assert all(contrast_ratio(inks[i], fill) >= 4.5 for i in at), (rid, fill)  # WCAG AA on its box
    assert t.hoverinfo == "skip"
    plain = board_figure(m, owners=owners, player_names=["Ada", "Bo"])
    assert trace(plain, "color letters") is None  # off by default
    assert len(plain.data) == len(fig.data) - 1


@pytest.mark.parametrize("map_id", MAPS)
def test_letters_in_the_svg(map_id):
    m = load_map(map_id)
    owners = _owners(m)
    want = _expected(m, owners)
    root = ET.fromstring(board_svg(m, owners=owners, player_names=["Ada", "Bo"], show_color_letters=True))
    found = {}
    for g in root.findall(".//s:g[@data-route]", NS):
        letters = [t for t in g.findall("s:text", NS) if t.get("class") == "color-letter"]
        if letters:
            assert g.get("data-seat") is None
            found[int(g.get("data-route"))] = letters
    assert set(found) == set(want)
    for rid, (letter, boxes) in want.items():
        assert [t.text for t in found[rid]] == [letter] * len(boxes)
        fill = ROUTE_COLORS[m.route(rid).color]
        assert all(contrast_ratio(t.get("fill"), fill) >= 4.5 for t in found[rid])
    plain = board_svg(m, owners=owners, player_names=["Ada", "Bo"])
    assert 'class="color-letter"' not in plain


def test_every_colour_has_its_letter():
    """Each colour of every shipped map is drawn with its letter somewhere (the maps use them all)."""
    seen = {}
    for map_id in MAPS:
        m = load_map(map_id)
        root = ET.fromstring(board_svg(m, show_color_letters=True))
        for g in root.findall(".//s:g[@data-route]", NS):
            for t in g.findall("s:text", NS):
                if t.get("class") == "color-letter":
                    seen.setdefault(m.route(int(g.get("data-route"))).color, set()).add(t.text)
    assert seen == {c: {v} for c, v in EXPECTED.items() if v}


def test_letters_follow_the_claims_and_the_lengths():
    usa = load_map("usa")
    rid = next(r.id for r in usa.routes if r.color == "red")
    fig = board_figure(usa, player_names=["Ada", "Bo"], show_color_letters=True)
    assert rid in trace(fig, "color letters").customdata
    update_board(fig, usa, owners={rid: 0}, player_names=["Ada", "Bo"], show_color_letters=True)
    assert rid not in trace(fig, "color letters").customdata
    update_board(fig, usa, owners={rid: 0}, player_names=["Ada", "Bo"])
    assert trace(fig, "color letters") is None
    # with the lengths the middle box shows the length, not the letter
    both = board_figure(usa, show_color_letters=True, show_lengths=True)
    r = next(r for r in usa.routes if r.color == "blue" and r.length == 4)
    assert list(trace(both, "color letters").customdata).count(r.id) == 2


def test_a_games_static_picture_keeps_the_letters():
    import ttr_lab

    g = ttr_lab.new_game("usa", players=2, seed=1)
    bundle = board_figure(g, show_color_letters=True)._repr_mimebundle_()
    assert 'class="color-letter"' in bundle["image/svg+xml"]
    assert 'class="color-letter"' not in board_figure(g)._repr_mimebundle_()["image/svg+xml"]
