"""Tests for ttr_lab.board (and the board geometry and labels it draws with): plain Python, no browser."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from types import SimpleNamespace

import plotly.graph_objects as go
import pytest

from ttr_lab import ClaimRoute, DrawBlind, find_edition, new_game
from ttr_lab.board import (
    PLAYER_COLORS,
    ROUTE_COLORS,
    board_figure,
    city_at,
    city_trace_index,
    route_at,
    route_trace_index,
    update_board,
)
from ttr_lab.board.frame import board_frame, frame
from ttr_lab.board.geometry import geometry
from ttr_lab.board.labels import BADGE_R, DOT_R, text_width
from ttr_lab.board.scene import HIGHLIGHT, SEAT_MARKS
from ttr_lab.editions.europe import BuildStation
from ttr_lab.errors import NotFoundError, WrongTypeError
from ttr_lab.maps import available_maps, load_map

MAPS = available_maps()


def names(fig):
    return [t.name for t in fig.data]


def trace(fig, name):
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, f"{name!r}: {names(fig)}"
    return found[0]


def pieces(t, least=1):
    """The None-separated runs of points of a trace, with at least ``least`` points each."""
    out, run = [], []
    for x, y in zip(list(t.x), list(t.y)):
        if x is None:
            if len(run) >= least:
                out.append(run)
            run = []
        else:
            run.append((x, y))
    if len(run) >= least:
        out.append(run)
    return out


def polygons(t):
    """The closed shapes (car spaces) of a filled trace."""
    return pieces(t, least=4)


def shape(fig, name):
    found = [s for s in fig.layout.shapes if s.name == name]
    assert len(found) == 1, f"{name!r}: {[s.name for s in fig.layout.shapes]}"
    return found[0]


def subpaths(sh):
    """The subpaths of a path shape, as point lists."""
    out = []
    for part in sh.path.split("M")[1:]:
        part = part.strip()
        closed = part.endswith("Z")
        pts = [tuple(float(v) for v in xy.split(",")) for xy in part.rstrip("Z").split("L")]
        out.append((pts, closed))
    return out


@pytest.fixture(scope="module")
def usa():
    return load_map("usa")


@pytest.fixture(scope="module")
def usa_fig(usa):
    return board_figure(usa)


def route_points(fig, rid):
    t = fig.data[route_trace_index(fig)]
    return [i for i, c in enumerate(t.customdata) if c == rid]


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("map_id", MAPS)
def test_builds_for_every_map(map_id):
    m = load_map(map_id)
    geo = geometry(m)
    fig = board_figure(m)
    assert isinstance(fig, go.Figure)
    routes = fig.data[route_trace_index(fig)]
    assert routes.name == "routes" and routes.type == "scatter"
    # points all along every route (one or two per car space), in map order
    assert list(routes.customdata) == [r.id for r in m.routes for _ in geo.hits[r.id]]
    assert all(r.length <= len(geo.hits[r.id]) <= 2 * r.length for r in m.routes)
    assert all(len(geo.spaces[r.id]) == r.length * (2 if r.paired else 1) for r in m.routes)
    cities = fig.data[city_trace_index(fig)]
    assert list(cities.customdata) == [c.name for c in m.cities]
    assert names(fig).count("routes") == 1 and names(fig).count("cities") == 1
    assert len(fig.data) < 40  # grouped, not one trace per route
    assert fig.layout.uirevision and fig.layout.yaxis.scaleanchor == "x"
    assert fig.layout.width == 900 and 400 <= fig.layout.height <= 700
    # only the two clickable traces answer hover
    assert [t.name for t in fig.data if t.hoverinfo != "skip"] == ["routes", "cities"]
    assert len({t.meta for t in fig.data}) == len(fig.data)  # update_board matches traces by meta


def test_route_at_maps_every_point_back(usa, usa_fig):
    geo = geometry(usa)
    routes = usa_fig.data[route_trace_index(usa_fig)]
    for i, (x, y) in enumerate(zip(routes.x, routes.y)):
        rid = route_at(usa_fig, i)
        assert any(_inside(sp.polygon(), (x, y)) for sp in geo.spaces[rid])  # on one of its own spaces
    assert {route_at(usa_fig, i) for i in range(len(routes.x))} == {r.id for r in usa.routes}
    assert city_at(usa_fig, 0) == usa.cities[0].name


def test_lookup_on_foreign_figure_raises():
    with pytest.raises(NotFoundError, match="routes"):
        route_trace_index(go.Figure(go.Scatter(x=[1], y=[1])))


class _Picker:
    """What plotly's hover ("closest") picks at a board point: (trace name, customdata) of the nearest clickable point.

    plotly's scatter hover distance is the pixel distance minus the marker's radius (at least 3 px).
    """

    def __init__(self, fig):
        self.scale = 880 / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
        self.cells = {}
        for t in (fig.data[route_trace_index(fig)], fig.data[city_trace_index(fig)]):
            sizes = t.marker.size if isinstance(t.marker.size, tuple) else [t.marker.size] * len(t.x)
            for px, py, size, data in zip(t.x, t.y, sizes, t.customdata):
                key = (int(px * self.scale // 40), int(py * self.scale // 40))
                self.cells.setdefault(key, []).append((px, py, max(3, size / 2), t.name, data))

    def __call__(self, x, y):
        i, j = int(x * self.scale // 40), int(y * self.scale // 40)
        best = None
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for px, py, r, name, data in self.cells.get((i + di, j + dj), ()):
                    d = max(math.hypot(px - x, py - y) * self.scale - r, 1 - 3 / r)
                    if best is None or d < best[0]:
                        best = (d, name, data)
        return best[1:] if best else (None, None)


def _inside(poly, p):
    """Is ``p`` inside the convex polygon ``poly`` (counter-clockwise)?"""
    return all(
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0 for a, b in zip(poly, poly[1:] + poly[:1])
    )


def _near_poly(poly, p, d):
    """Is ``p`` inside ``poly`` or within ``d`` of its edge?"""
    if _inside(poly, p):
        return True
    for a, b in zip(poly, poly[1:] + poly[:1]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        if math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy) < d:
            return True
    return False


@pytest.mark.parametrize("map_id", MAPS)
def test_a_click_anywhere_along_a_route_picks_that_route(map_id):
    """Not only near a badge: along each space, from end to end, the closest clickable point is the route's."""
    m = load_map(map_id)
    fig = board_figure(m)
    geo = geometry(m)
    scale = 880 / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    pick = _Picker(fig)
    wrong, shared = [], 0
    for r in m.routes:
        for sp in geo.spaces[r.id]:
            for f in (-0.35, 0.0, 0.35):
                x, y = sp.x + f * sp.length * sp.ux, sp.y + f * sp.length * sp.uy
                got = pick(x, y)
                if got == ("routes", r.id):
                    continue
                if got[0] == "routes" and any(_near_poly(o.polygon(), (x, y), 2 / scale) for o in geo.spaces[got[1]]):
                    shared += 1  # the spot is on (or within 2 px of) both routes' spaces where they cross or touch
                else:
                    wrong.append((r.label(), sp.index, f, got))
    spots = 3 * sum(len(v) for v in geo.spaces.values())
    assert shared < 0.02 * spots
    if map_id == "rails_and_sails_world":
        # 900 px for the whole world: where two ship lanes leave a city almost together (Tokyo to
        # Vancouver and to Los Angeles) their first ovals touch, and about 1% of spots pick the neighbour
        assert len(wrong) < 0.015 * spots, wrong
    else:
        assert not wrong, wrong[:10]
    # the example: a quarter of the way along Los Angeles - El Paso claims it, not El Paso - Phoenix
    la_ep = m.routes_between("Los Angeles", "El Paso")[0] if map_id == "usa" else None
    if la_ep:
        sp = geo.spaces[la_ep.id][la_ep.length - 1 - la_ep.length // 4]  # spaces run from El Paso
        assert pick(sp.x, sp.y) == ("routes", la_ep.id)


def test_every_space_is_drawn_once_in_its_colour(usa, usa_fig):
    """The board that never changes is layout shapes (sent once): a closed box per space, by colour."""
    geo = geometry(usa)
    drawn = {}
    for sh in usa_fig.layout.shapes:
        if sh.name.startswith("train "):
            color = sh.name.split()[1]
            assert sh.fillcolor == ROUTE_COLORS[color] and sh.layer == "below" and sh.xref == "x"
            assert all(closed and len(pts) == 4 for pts, closed in subpaths(sh))
            drawn[color] = drawn.get(color, 0) + len(subpaths(sh))
    expected = {}
    for r in usa.routes:
        expected[r.color] = expected.get(r.color, 0) + len(geo.spaces[r.id])
    assert drawn == expected
    assert sum(drawn.values()) == sum(r.length for r in usa.routes)  # the boxes are the count


def test_white_spaces_have_a_dark_edge(usa_fig):
    white = shape(usa_fig, "train white")
    assert white.fillcolor == "#ffffff" and white.line.color not in ("#ffffff", None) and white.line.width > 0


def test_route_styles_differ_by_kind():
    europe = load_map("europe")
    fig = board_figure(europe)
    assert shape(fig, "train red").line.dash is None
    assert shape(fig, "tunnel red").line.dash == "dot" and shape(fig, "tunnel red").line.color == "#111111"
    assert shape(fig, "tunnel black").line.color == "#e0e0e0"  # a dark edge would vanish on black
    tunnels = sum(len(subpaths(sh)) for sh in fig.layout.shapes if sh.name.startswith("tunnel "))
    assert tunnels == sum(r.length for r in europe.routes if r.kind == "tunnel")  # every tunnel space is edged
    lakes = board_figure(load_map("rails_and_sails_great_lakes"))
    ship = shape(lakes, "ship red")
    ovals = ship.path.split("M")[1:]  # ovals, not boxes: two Bezier halves each
    assert len(ovals) == sum(
        r.length for r in load_map("rails_and_sails_great_lakes").routes if r.kind == "ship" and r.color == "red"
    )
    assert all(o.count("C") == 2 and o.strip().endswith("Z") and "L" not in o for o in ovals)
    assert {"sea lanes", "tracks"} <= {sh.name for sh in lakes.layout.shapes}
    assert all(not closed for pts, closed in subpaths(shape(lakes, "tracks")))
    legend = [t.name for t in fig.data if t.showlegend is not False and t.x == (None,)]
    assert any("tunnel" in n for n in legend) and any("ferry" in n for n in legend)


def test_ferry_locomotive_spaces_are_marked():
    europe = load_map("europe")
    fig = board_figure(europe)
    marks = trace(fig, "ferry marks")
    assert list(marks.text) == ["L"] * sum(r.locomotives for r in europe.routes if r.kind == "ferry")
    routes = fig.data[route_trace_index(fig)]
    ferry = next(r for r in europe.routes if r.kind == "ferry")
    i = route_points(fig, ferry.id)[0]
    assert routes.hovertext[i] == f"{ferry.label()} #{ferry.id}"  # the route as the move notation names it
    assert f"{ferry.locomotives} locomotive space" in routes.text[i]
    # a claimed ferry's pieces cover the marks: they are drawn above them
    claimed = board_figure(europe, owners={ferry.id: 0})
    assert names(claimed).index("ferry marks") < names(claimed).index("claimed by Player 1")


def test_paired_routes_have_two_rows():
    world = load_map("rails_and_sails_world")
    geo = geometry(world)
    fig = board_figure(world)
    paired = shape(fig, "paired gray")
    assert len(subpaths(paired)) == 2 * sum(r.length for r in world.routes if r.paired)
    r = next(r for r in world.routes if r.paired)
    rows = [[sp for sp in geo.spaces[r.id] if sp.row == k] for k in (0, 1)]
    assert len(rows[0]) == len(rows[1]) == r.length
    a, b = rows[0][0], rows[1][0]
    assert math.isclose(math.hypot(a.x - b.x, a.y - b.y), geo.thick + geo.gap, rel_tol=1e-6)  # side by side
    routes = fig.data[route_trace_index(fig)]
    assert "paired" in routes.text[route_points(fig, r.id)[0]]


def test_show_lengths_writes_them_on_the_middle_space(usa, usa_fig):
    assert "lengths" not in names(usa_fig)  # the boxes are the count
    fig = board_figure(usa, show_lengths=True)
    assert list(trace(fig, "lengths").text) == [str(r.length) for r in usa.routes]


def test_double_routes_are_side_by_side(usa):
    geo = geometry(usa)
    doubles = [r for r in usa.routes if r.double_of is not None and r.id < r.double_of]
    assert doubles
    for r in doubles:
        mine, other = geo.spaces[r.id], geo.spaces[r.double_of]
        assert len(mine) == len(other)
        for a, b in zip(mine, other):  # parallel rows, a space's width and a bit apart
            apart = math.hypot(a.x - b.x, a.y - b.y)
            assert geo.thick < apart < 1.6 * geo.thick, r.label()


def test_routes_keep_clear_of_the_cities_they_pass():
    """A route never runs over a city that is not one of its ends (Los Angeles - El Paso bends around Phoenix)."""
    for map_id in MAPS:
        m = load_map(map_id)
        geo, f = geometry(m), frame(m, 880)
        for r in m.routes:
            for sp in geo.spaces[r.id]:
                for c, (x, y) in geo.xy.items():
                    if c not in (r.a, r.b):
                        gap = math.hypot(sp.x - x, sp.y - y) * f.scale
                        assert gap > DOT_R + geo.thick * f.scale / 2, (map_id, r.label(), c)


def test_world_routes_across_the_date_line_are_cut_at_the_edge():
    world = load_map("rails_and_sails_world")
    geo = geometry(world)
    fig = board_figure(world)
    for t in fig.data:
        if t.mode == "lines" and t.fill is None:
            assert all(x is None or abs(x) <= 180 + 1e-9 for x in t.x), t.name
    # Los Angeles - Tokyo leaves by one edge and comes back by the other
    la_tokyo = world.routes_between("Los Angeles", "Tokyo")[0]
    xs = [sp.x for sp in geo.spaces[la_tokyo.id]]
    assert all(abs(x) <= 180 for x in xs) and min(xs) < -150 and max(xs) > 150
    assert len(geo.lines[la_tokyo.id]) == 2
    assert "edge labels" in names(fig)
    assert any("Tokyo" in t for t in trace(fig, "edge labels").text)
    assert fig.layout.height < 600  # a wide map gets a lower figure


# --------------------------------------------------------------------------- owners


def test_owner_changes_the_colour_of_the_right_route(usa):
    geo = geometry(usa)
    n5 = len(geo.spaces[5])
    fig = board_figure(usa, owners={5: 1}, player_names=["Ada", "Bo"])
    claimed = trace(fig, "claimed by Bo")
    assert claimed.fillcolor == PLAYER_COLORS[1] and claimed.line.color == "#111111"  # edged in black
    assert len(polygons(claimed)) == n5
    marks = [s for s in claimed.marker.size if s]
    assert len(marks) == n5 and claimed.marker.symbol == SEAT_MARKS[1]  # a mark on every piece
    assert trace(fig, "claimed by Ada").x == (None,)  # every seat keeps its legend entry
    routes = fig.data[route_trace_index(fig)]
    mine = route_points(fig, 5)
    assert (
        all(routes.text[i] == "4 yellow, double of 4<br>claimed by Bo" for i in mine)
        and "%{text}" in routes.hovertemplate
    )
    assert all("claimed" not in t for j, t in enumerate(routes.text) if j not in mine)  # free: no owner line
    assert all(routes.marker.color[i] == PLAYER_COLORS[1] for i in mine)
    assert all(c == "#ffffff" for j, c in enumerate(routes.marker.color) if j not in mine)
    # the pieces are drawn over the board's spaces, which never change (nor get re-sent)
    assert fig.layout.shapes == board_figure(usa).layout.shapes


def test_seat_colours_are_not_card_colours():
    """A piece differs from an unclaimed space of every colour by its black edge and its mark."""
    assert len(set(SEAT_MARKS)) == len(SEAT_MARKS)
    assert not set(PLAYER_COLORS[:5]) & set(ROUTE_COLORS.values())


def test_custom_player_colors_and_seat_count(usa):
    fig = board_figure(usa, owners={1: 2}, player_colors=["#000001", "#000002", "#000003"])
    assert trace(fig, "claimed by Player 3").fillcolor == "#000003"
    assert names(fig).count("claimed by Player 1") == 1


def test_unknown_route_is_an_error(usa):
    with pytest.raises(NotFoundError, match="999"):
        board_figure(usa, highlight=[999])
    with pytest.raises(KeyError, match="Atlantis"):
        board_figure(usa, tickets=[("Atlantis", "Miami")])
    with pytest.raises(WrongTypeError):
        board_figure(42)
    with pytest.raises(TypeError):
        board_figure(42)


# --------------------------------------------------------------------------- overlays


def test_overlays_add_their_traces(usa):
    """The base game's overlays, and an edition's marks given by their keywords: Europe's
    stations (an edition on the USA map), Rails & Sails' harbors (on the Great Lakes map)."""
    ticket = usa.tickets[0]
    fig = board_figure(
        find_edition("europe", map="usa"),
        highlight=[1, 2],
        paths=[[1, 2], SimpleNamespace(routes=[3], name="short")],
        tickets=[ticket, ("Seattle", "Miami")],
        stations={"Boston": 0},
    )
    lakes = load_map("rails_and_sails_great_lakes")
    harbor = next(c.name for c in lakes.cities if c.harbor)
    harbors = board_figure(find_edition("great_lakes"), harbors={harbor: 1})
    got = names(fig)
    for name in ("highlight", "path 1", "short", "ticket lines", "tickets", "stations"):
        assert name in got
    assert "harbors" in names(harbors) and "harbors" not in [t.meta for t in fig.data]  # Europe has none
    assert trace(fig, "highlight").fill is None
    assert len(polygons(trace(fig, "path 1"))) == usa.route(1).length + usa.route(2).length
    assert trace(fig, "path 1").line.color != trace(fig, "short").line.color
    rings = trace(fig, "tickets")
    assert len(rings.x) == len({ticket.a, ticket.b, "Seattle", "Miami"})
    assert trace(fig, "stations").marker.color == (PLAYER_COLORS[0],)
    assert trace(harbors, "harbors").marker.color == (PLAYER_COLORS[1],)
    assert trace(harbors, "harbors").text == ("⚓",)
    # overlays never steal clicks; glows and bands sit under the spaces
    for name in ("highlight", "path 1", "tickets", "stations"):
        assert trace(fig, name).hoverinfo == "skip"
    assert trace(harbors, "harbors").hoverinfo == "skip"
    assert [t.meta for t in harbors.data].index("harbors") == 2 and trace(harbors, "harbors").zorder == 2
    # the clickable traces come first; the overlays are drawn under them by zorder, the
    # highlight and the paths under the pieces
    assert got[:2] == ["routes", "cities"] and got.index("highlight") < got.index("path 1")
    z = {t.meta: t.zorder or 0 for t in fig.data}
    assert z["highlight"] == z["path:0"] < z["seat:0"] < z["routes"] == z["cities"] < z["city labels"]
    assert z["tickets"] < z["routes"] and z["stations"] < z["cities"]
    # one dashed frame around each highlighted route, in the highlight colour (over the board's
    # spaces, which are layout shapes under every trace, but outside them: test_board_highlight)
    hl = trace(fig, "highlight")
    assert len(polygons(hl)) == 2 and hl.line.color == HIGHLIGHT and hl.showlegend
    assert hl.line.dash not in (None, "solid")
    assert got.index("routes") < got.index("cities")
    cities = fig.data[city_trace_index(fig)]
    boston = list(cities.customdata).index("Boston")
    assert "station: Player 1" in cities.hovertext[boston]


def test_no_badge_sits_on_a_city_dot():
    """Harbor badges go beside their city, clear of every dot (and labels keep off them)."""
    for map_id in MAPS:
        m = load_map(map_id)
        f = frame(m, 880)
        for city, (bx, by) in f.badges.items():
            for name, (x, y) in geometry(m).xy.items():
                assert math.hypot(bx - x, by - y) * f.scale >= DOT_R + BADGE_R, (map_id, city, name)
            for lab in f.labels:
                x0, x1, y0, y1 = lab.box()
                assert not (x0 < bx < x1 and y0 < by < y1), (map_id, city, lab.text)
    lakes = load_map("rails_and_sails_great_lakes")
    harbor = next(c.name for c in lakes.cities if c.harbor)
    fig = board_figure(find_edition("great_lakes"), harbors={harbor: 0})
    assert (trace(fig, "harbors").x[0], trace(fig, "harbors").y[0]) == frame(lakes, 880).badges[harbor]


def test_no_overlays_no_overlay_traces(usa_fig):
    for name in ("highlight", "path 1", "tickets", "stations", "harbors", "claimed by Player 1", "lengths"):
        assert name not in names(usa_fig)
    # an overlay that shows nothing is still a trace: no points, no name, no legend entry (issue 19)
    for key in ("highlight", "ticket lines", "tickets"):
        t = usa_fig.data[[u.meta for u in usa_fig.data].index(key)]
        assert list(t.x) == [None] and t.name == "" and not t.showlegend, key
    # an edition's marks likewise, a trace per style it declares; a map alone has none
    assert not {"stations", "harbors"} & {t.meta for t in usa_fig.data}
    for edition, key in (("europe", "stations"), ("world", "harbors")):
        empty = board_figure(new_game(edition, players=2, seed=1))
        t = empty.data[[u.meta for u in empty.data].index(key)]
        assert list(t.x) == [None] and t.name == "" and not t.showlegend, key


def test_every_board_of_a_game_has_the_same_traces_and_frame(usa):
    """Issue 19: whatever a board shows (a highlight, paths, tickets, stations), its traces are
    the same keys in the same order, each with a uid made from its key, and its picture has the
    same size, margins and axis ranges; the clickable traces are the first two."""
    seats = dict(player_names=["Ada", "Bo"])
    europe = find_edition("europe", map="usa")  # an edition with marks (stations), on the USA map
    plain = board_figure(europe, **seats)
    busy = board_figure(
        europe,
        owners={1: 0, 9: 1},
        highlight=[3, 4, 5],
        tickets=usa.tickets[:5],
        stations={"Denver": 0, "Miami": 1},
        paths=[SimpleNamespace(name=f"a long ticket name: {i} more cars", routes=[i + 1]) for i in range(6)],
        **seats,
    )
    keys = [t.meta for t in plain.data]
    assert [t.meta for t in busy.data] == keys + [f"path:{i}" for i in range(6)]
    assert keys[:2] == ["routes", "cities"] and route_trace_index(busy) == 0 and city_trace_index(busy) == 1
    assert [t.uid for t in busy.data] == [
        "".join(c if c.isalnum() or c in "_-" else "-" for c in t.meta) for t in busy.data
    ]
    for part in ("width", "height", "margin", "xaxis", "yaxis"):
        assert plain.layout[part] == busy.layout[part], part
    assert busy.layout.legend.maxheight == busy.layout.margin.b - 4  # a longer legend scrolls in its room


def test_ticket_ids_and_tours():
    world = load_map("rails_and_sails_world")
    tour = next(t for t in world.tickets if t.is_tour)
    fig = board_figure(world, tickets=[tour.id])
    assert len(trace(fig, "tickets").x) == len(tour.cities)
    assert len(pieces(trace(fig, "ticket lines"), 2)) == len(tour.cities) - 1


def test_harbor_cities_and_waypoints_look_different():
    lakes = load_map("rails_and_sails_great_lakes")
    fig = board_figure(lakes)
    cities = fig.data[city_trace_index(fig)]
    for i, c in enumerate(lakes.cities):
        assert (cities.marker.symbol[i] == "diamond") == c.waypoint
        assert (cities.marker.line.width[i] == 3) == c.harbor
    labels = trace(fig, "city labels")
    for key, size in zip(labels.customdata, labels.textfont.size):
        assert (size < 10) == lakes.city(key).waypoint


# --------------------------------------------------------------------------- labels


def _overlap(a, b):
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _hits_dot(box, center, radius):
    dx = max(box[0] - center[0], 0, center[0] - box[1])
    dy = max(box[2] - center[1], 0, center[1] - box[3])
    return dx * dx + dy * dy < radius * radius


@pytest.mark.parametrize("width", [900, 620, 1400])
@pytest.mark.parametrize("map_id", MAPS)
def test_labels_do_not_overlap_or_leave_the_plot(map_id, width):
    """The placement's own geometry: boxes from the font-width model, for the figure's actual frame."""
    m = load_map(map_id)
    fig = board_figure(m, width=width)
    f, _, _ = board_frame(m, width, None, 40.0, ["x"] * 8)  # the labels do not depend on the legend
    assert tuple(fig.layout.xaxis.range) == f.xrange and tuple(fig.layout.yaxis.range) == f.yrange
    assert fig.layout.width - fig.layout.margin.l - fig.layout.margin.r == f.width
    assert fig.layout.height - fig.layout.margin.t - fig.layout.margin.b == pytest.approx(f.height, abs=1)
    s, geo = f.scale, geometry(m)
    labels = f.labels
    assert len([lab for lab in labels if lab.kind != "edge"]) == len(m.cities)
    for lab in labels:
        assert f.inside(lab.box()), lab.text  # nothing clipped at the plot's edge
        # the box holds the text as the model measures it, at the drawn size
        assert lab.w * s >= text_width(lab.text, lab.size) and lab.h * s >= lab.size
    for a, b in itertools.combinations(labels, 2):
        assert not _overlap(a.box(), b.box()), (a.text, b.text)
    for lab in labels:
        for city, (x, y) in geo.xy.items():
            box = [v * s for v in lab.box()]
            assert not _hits_dot(box, (x * s, y * s), DOT_R), (lab.text, city)
    for lab in labels:  # a leader runs from its city's dot to its own box, and crosses no other label
        if lab.leader:
            (x0, y0), (x1, y1) = lab.leader
            assert math.hypot(x0 - geo.xy[lab.key][0], y0 - geo.xy[lab.key][1]) * s == pytest.approx(DOT_R, abs=0.5)
            bx0, bx1, by0, by1 = lab.box()
            assert bx0 - 1e-9 <= x1 <= bx1 + 1e-9 and by0 - 1e-9 <= y1 <= by1 + 1e-9
            for other in labels:
                if other is not lab:
                    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
                    assert not _hits_dot([v * s for v in other.box()], (mid[0] * s, mid[1] * s), 0.5)
    # the drawn labels are the placed ones
    drawn = trace(fig, "city labels")
    placed = {lab.key: lab for lab in labels if lab.kind != "edge"}
    for key, x, y, text in zip(drawn.customdata, drawn.x, drawn.y, drawn.text):
        d = geometry(load_map(map_id)).digits
        assert (x, y, text) == (round(placed[key].x, d), round(placed[key].y, d), key)


def test_crowded_cities_get_apart():
    """The issue's pairs: Houston/New Orleans, Kansas City/Saint Louis, Pittsburgh/Washington, and Europe on the World map."""
    for map_id, pairs in (
        ("usa", [("Houston", "New Orleans"), ("Kansas City", "Saint Louis"), ("Pittsburgh", "Washington")]),
        ("rails_and_sails_world", [("Edinburgh", "Hamburg"), ("Marseille", "Athina")]),
    ):
        f = frame(load_map(map_id), 880)
        boxes = {lab.key: lab.box() for lab in f.labels}
        for a, b in pairs:
            assert not _overlap(boxes[a], boxes[b]), (a, b)
    usa = frame(load_map("usa"), 880)
    for lab in usa.labels:  # "couver" and "rancisco" are whole
        if lab.text in ("Vancouver", "San Francisco"):
            assert usa.inside(lab.box()) and lab.w * usa.scale > text_width(lab.text, lab.size)


def test_font_width_model():
    assert text_width("", 11) == 0
    assert text_width("Wien", 10) < text_width("Washington", 10)
    assert text_width("Zürich", 11) == text_width("Zurich", 11)  # accents measured as their letter
    assert text_width("MMMM", 20) == 2 * text_width("MMMM", 10)


# --------------------------------------------------------------------------- states


class FakeState:
    """A duck-typed game state: a map, an edition (Europe's rules on it: stations), owners, buildings, moves."""

    def __init__(self, m):
        self.map = m
        self.edition = find_edition("europe", map=m)
        self.player_names = ("Ada", "Bo", "Cy")
        self._owners = {1: 0}
        self.move_stack = ()

    def route_owners(self):
        return dict(self._owners)

    def buildings(self):  # pieces built on cities, by kind (as GameState.buildings)
        return {"station": {"Denver": 2}}


def test_object_with_map_and_route_owners(usa):
    state = FakeState(usa)
    fig = board_figure(state)
    assert trace(fig, "claimed by Ada").fillcolor == PLAYER_COLORS[0]
    assert "claimed by Cy" in names(fig)
    assert "stations" in names(fig) and "harbors" not in names(fig)
    # explicit keywords win over the state's
    fig = board_figure(state, owners={}, stations={})
    assert not polygons(trace(fig, "claimed by Ada"))
    assert "stations" not in names(fig)
    # an edition-like object: only .map, and a non-callable stations count
    edition = SimpleNamespace(map=usa, stations=3)
    assert len(board_figure(edition).data) == len(board_figure(usa).data)


def test_last_move_of_each_player_is_haloed(usa):
    state = FakeState(usa)
    state._owners = {1: 0, 7: 1, 9: 0}
    claim = lambda rid: ClaimRoute(rid, (("red", 1),))
    state.move_stack = (
        claim(1),
        DrawBlind(),
        claim(7),
        claim(9),
        claim(44),
        BuildStation("Denver", (("red", 1),)),
    )
    fig = board_figure(state)  # route 44 was declined (a tunnel) or undone: nobody owns it
    geo = geometry(usa)
    assert pieces(trace(fig, "last move of Ada"), 2) == [list(p) for p in geo.lines[9]]
    assert pieces(trace(fig, "last move of Bo"), 2) == [list(p) for p in geo.lines[7]]
    cy = trace(fig, "last move of Cy")  # a station: a ring at the city
    assert (cy.x, cy.y) == ((geo.xy["Denver"][0],), (geo.xy["Denver"][1],))
    assert names(fig).index("last move of Ada") < names(fig).index("claimed by Ada")  # a halo under the pieces
    assert "last move (halo)" in names(fig)
    routes = fig.data[route_trace_index(fig)]
    assert routes.text[route_points(fig, 9)[0]].endswith("<br>claimed by Ada (last move of Ada)")
    off = board_figure(state, last_moves=False)
    assert not [n for n in names(off) if n.startswith("last move")]


def test_last_moves_of_a_real_game():
    import ttr_lab
    from ttr_lab.bots import make_bot

    g = ttr_lab.new_game("europe", players=3, seed=4)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    while g.ply < 120:
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    owners = g.route_owners()
    want = {}
    for move in reversed(g.move_stack):
        if isinstance(move, ClaimRoute) and move.route in owners:
            want.setdefault(owners[move.route], move.route)
    assert want
    fig = board_figure(g)
    geo = geometry(g.map)
    for seat, rid in want.items():
        last = trace(fig, f"last move of {g.player_names[seat]}")
        if last.mode == "lines":  # else this seat built a station after its last claim
            assert pieces(last, 2) == [list(p) for p in geo.lines[rid]]
    # a player's view has no move_stack: no halos, no error
    assert board_figure(g.view(0))


# --------------------------------------------------------------------------- update


def test_update_board_on_figure_widget(usa):
    state = FakeState(usa)
    fig = go.FigureWidget(board_figure(state))
    k = route_trace_index(fig)
    routes_obj = fig.data[k]
    clicks = []
    routes_obj.on_click(lambda tr, points, _: clicks.append(route_at(fig, points.point_inds[0])))

    state._owners[7] = 1
    assert update_board(fig, state) is fig
    assert route_trace_index(fig) == k and fig.data[k] is routes_obj
    mine = route_points(fig, 7)
    i = mine[len(mine) // 2]  # a click on the middle of the route, not only its first space
    assert all(fig.data[k].text[j].endswith("<br>claimed by Bo") for j in mine)
    assert all(fig.data[k].marker.color[j] == PLAYER_COLORS[1] for j in mine)
    assert len(polygons(trace(fig, "claimed by Bo"))) == usa.route(7).length
    assert fig._widget_data[k]["text"][i].endswith("<br>claimed by Bo")  # synced snapshot not stale

    # overlays appear and go in traces that stay; a path beyond the figure's is added at the end,
    # emptied when it goes; the routes trace object (and its callback) survives
    keys = [t.meta for t in fig.data]
    update_board(fig, state, highlight=[3], paths=[[1, 2]])
    assert "highlight" in names(fig) and "path 1" in names(fig)
    assert [t.meta for t in fig.data] == keys + ["path:0"]
    assert fig.data[-1].uid == "path-0"  # not the random uid a FigureWidget gives a trace it adds
    assert fig.data[route_trace_index(fig)] is routes_obj and k == 0
    update_board(fig, state)
    assert "highlight" not in names(fig) and route_trace_index(fig) == k
    assert [t.meta for t in fig.data] == keys + ["path:0"] and list(fig.data[-1].x) == [None]
    assert names(fig) == names(board_figure(state)) + [""]
    assert [t.uid for t in fig.data] == [t.uid for t in board_figure(state, paths=[[1]]).data]  # not plotly's uuids

    fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [0], "ys": [0]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }
    assert clicks == [7]


def test_update_board_sends_only_what_changed(usa):
    """A claim re-sends the traces it changes (and the clickable trace's colours and hovers), not the whole board."""
    from plotly.basedatatypes import Undefined

    state = FakeState(usa)
    fig = go.FigureWidget(board_figure(state))
    update_board(fig, state)  # the first redraw gives back the uids a FigureWidget replaced with its own
    sent = []
    fig._send_update_msg = lambda restyle_data, relayout_data, trace_indexes=None, source_view_id=None: sent.append(
        (restyle_data, relayout_data, trace_indexes)
    )
    fig._send_restyle_msg = lambda restyle_data, trace_indexes=None, source_view_id=None: sent.append(
        (restyle_data, {}, trace_indexes)
    )
    state._owners[7] = 1
    update_board(fig, state)
    assert len(sent) == 1  # one message for the whole redraw
    style, layout, indexes = sent[0]
    changed = {
        (fig.data[k].name, prop)
        for prop, values in style.items()
        for k, v in zip(indexes, values)
        if v is not Undefined
    }
    assert {n for n, _ in changed} == {"claimed by Bo", "routes"}
    assert {p for n, p in changed if n == "routes"} == {"marker.color", "text"}  # not the fixed hover texts
    assert not layout  # the board's spaces are layout shapes: never re-sent


def test_update_board_keeps_the_zoom(usa):
    fig = go.FigureWidget(board_figure(usa))
    fig.layout.xaxis.range = [-5, 5]  # as if the user zoomed
    update_board(fig, usa, owners={1: 0}, title="Turn 2")
    assert tuple(fig.layout.xaxis.range) == (-5, 5)
    assert fig.layout.title.text == "Turn 2"
    # a different map resets the view
    europe = load_map("europe")
    update_board(fig, europe)
    assert tuple(fig.layout.xaxis.range) == tuple(board_figure(europe).layout.xaxis.range)
    assert len(fig.data[route_trace_index(fig)].customdata) == sum(len(v) for v in geometry(europe).hits.values())


def test_update_board_on_plain_figure_matches_a_fresh_one(usa):
    fig = board_figure(usa)
    update_board(fig, usa, owners={3: 0, 4: 1}, tickets=[("Boston", "Miami")])
    fresh = board_figure(usa, owners={3: 0, 4: 1}, tickets=[("Boston", "Miami")])
    strip = lambda f: [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in f.data]
    assert strip(fig) == strip(fresh)
    assert fig.layout.to_plotly_json() == fresh.layout.to_plotly_json()


def test_render_does_not_import_widgets():
    code = (
        "import sys, ttr_lab.board\n"
        "bad = [m for m in ('ipywidgets', 'IPython', 'anywidget') if m in sys.modules]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails", "great_lakes"])
def test_an_edition_and_a_small_board_draw(edition):
    from ttr_lab import new_game
    from ttr_lab.engine.rules import find_edition

    ed = find_edition(edition)
    fig = board_figure(ed)
    assert {t.name for t in fig.data} >= {"routes", "cities"}
    # a board far too small for the labels still draws (labels spill rather than fail)
    small = board_figure(new_game(edition, players=3, seed=1), width=300, height=200)
    assert small.layout.width == 300 and small.layout.height == 200
