"""Tests for ttr_lab.render: plain Python, no browser."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import plotly.graph_objects as go
import pytest

from ttr_lab.data import available_maps, load_map
from ttr_lab.render import (
    PLAYER_COLORS,
    ROUTE_COLORS,
    board_figure,
    city_at,
    city_trace_index,
    route_at,
    route_trace_index,
    update_board,
)

MAPS = available_maps()


def names(fig):
    return [t.name for t in fig.data]


def trace(fig, name):
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, f"{name!r}: {names(fig)}"
    return found[0]


def segment_endpoints(t):
    """The (x0, y0, x1, y1) pieces of a None-separated line trace."""
    xs, ys = list(t.x), list(t.y)
    out = []
    for i in range(0, len(xs) - 1, 3):
        if xs[i] is not None:
            out.append((xs[i], ys[i], xs[i + 1], ys[i + 1]))
    return out


def route_point(fig, rid):
    t = fig.data[route_trace_index(fig)]
    i = list(t.customdata).index(rid)
    return t.x[i], t.y[i]


@pytest.fixture(scope="module")
def usa():
    return load_map("usa")


@pytest.fixture(scope="module")
def usa_fig(usa):
    return board_figure(usa)


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("map_id", MAPS)
def test_builds_for_every_map(map_id):
    m = load_map(map_id)
    fig = board_figure(m)
    assert isinstance(fig, go.Figure)
    routes = fig.data[route_trace_index(fig)]
    assert routes.name == "routes" and routes.type == "scatter"
    assert list(routes.customdata) == [r.id for r in m.routes]
    assert len(routes.x) == len(m.routes)
    cities = fig.data[city_trace_index(fig)]
    assert list(cities.customdata) == [c.name for c in m.cities]
    assert names(fig).count("routes") == 1 and names(fig).count("cities") == 1
    assert len(fig.data) < 40  # grouped, not one trace per route
    assert fig.layout.uirevision and fig.layout.yaxis.scaleanchor == "x"
    assert fig.layout.width == 900 and 420 <= fig.layout.height <= 620
    # only the two clickable traces answer hover
    assert [t.name for t in fig.data if t.hoverinfo != "skip"] == ["routes", "cities"]
    assert len({t.meta for t in fig.data}) == len(fig.data)  # update_board matches traces by meta


def test_route_at_maps_every_point_back(usa, usa_fig):
    assert [route_at(usa_fig, i) for i in range(len(usa.routes))] == [r.id for r in usa.routes]
    assert city_at(usa_fig, 0) == usa.cities[0].name


def test_lookup_on_foreign_figure_raises():
    with pytest.raises(KeyError, match="routes"):
        route_trace_index(go.Figure(go.Scatter(x=[1], y=[1])))


def test_every_route_is_drawn_once_in_its_colour(usa, usa_fig):
    drawn = {}
    for t in usa_fig.data:
        if t.meta.startswith("train "):
            color = t.meta.split()[1]
            assert t.line.color == ROUTE_COLORS[color]
            drawn[color] = drawn.get(color, 0) + len(segment_endpoints(t))
    expected = {}
    for r in usa.routes:
        expected[r.color] = expected.get(r.color, 0) + 1
    assert drawn == expected


def test_white_routes_have_a_dark_outline(usa, usa_fig):
    outline = trace(usa_fig, "outline train")
    white = sum(r.color == "white" for r in usa.routes)
    assert len(segment_endpoints(outline)) == white
    assert outline.line.width > trace(usa_fig, "train white").line.width
    assert names(usa_fig).index("outline train") < names(usa_fig).index("train white")


def test_route_styles_differ_by_kind():
    europe = board_figure(load_map("europe"))
    assert trace(europe, "train red").line.dash == "solid"
    assert trace(europe, "tunnel red").line.dash == "dash"
    assert trace(europe, "ferry gray").line.dash not in ("solid", "dash")
    assert len(segment_endpoints(trace(europe, "outline tunnel"))) == 18  # every tunnel is edged
    lakes = board_figure(load_map("rails_and_sails_great_lakes"))
    assert trace(lakes, "ship red").line.dash == "dot"
    assert "sea lanes" in names(lakes)
    legend = [t.name for t in europe.data if t.showlegend is not False and t.x == (None,)]
    assert any("tunnel" in n for n in legend) and any("ferry" in n for n in legend)


def test_ferry_badge_shows_locomotive_spaces():
    europe = load_map("europe")
    fig = board_figure(europe)
    routes = fig.data[route_trace_index(fig)]
    for i, r in enumerate(europe.routes):
        if r.kind == "ferry":
            assert routes.text[i] == f"{r.length}({r.locomotives}L)"
            assert f"{r.locomotives} locomotive space" in routes.hovertext[i]
        else:
            assert routes.text[i] == str(r.length)


def test_paired_routes_are_marked():
    world = load_map("rails_and_sails_world")
    fig = board_figure(world)
    paired = trace(fig, "paired gray")
    assert len(segment_endpoints(paired)) == sum(r.paired for r in world.routes)
    routes = fig.data[route_trace_index(fig)]
    for i, r in enumerate(world.routes):
        assert (routes.marker.symbol[i] == "hexagon") == r.paired
    assert "paired" in routes.hovertext[[r.paired for r in world.routes].index(True)]


def test_show_lengths_false_drops_the_text(usa):
    fig = board_figure(usa, show_lengths=False)
    routes = fig.data[route_trace_index(fig)]
    assert routes.mode == "markers" and routes.text is None


def test_double_routes_are_side_by_side(usa, usa_fig):
    doubles = [r for r in usa.routes if r.double_of is not None and r.id < r.double_of]
    assert doubles
    for r in doubles:
        p, q = route_point(usa_fig, r.id), route_point(usa_fig, r.double_of)
        assert p != q
    # the two lines are parallel and apart
    r = doubles[0]
    color_traces = [t for t in usa_fig.data if t.meta.startswith("train ")]
    lines = [seg for t in color_traces for seg in segment_endpoints(t)]
    a, b = usa.city(r.a), usa.city(r.b)
    assert sum(1 for s in lines if _near_ends(s, usa_fig, a.name, b.name)) == 2


def _near_ends(seg, fig, a, b):
    cities = fig.data[city_trace_index(fig)]
    pos = {n: (x, y) for n, x, y in zip(cities.customdata, cities.x, cities.y)}
    ends = sorted([pos[a], pos[b]])
    got = sorted([(seg[0], seg[1]), (seg[2], seg[3])])
    return all(abs(g[0] - e[0]) < 1 and abs(g[1] - e[1]) < 1 for g, e in zip(got, ends))


def test_world_routes_across_the_date_line_are_cut_at_the_edge():
    world = load_map("rails_and_sails_world")
    fig = board_figure(world)
    half = max(abs(v) for v in fig.layout.xaxis.range)
    for t in fig.data:
        if t.mode == "lines":
            assert all(x is None or abs(x) <= half for x in t.x), t.name
    # Los Angeles - Tokyo leaves by the left edge and comes back on the right
    ship = [t for t in fig.data if t.meta.startswith("ship ")]
    la_tokyo = world.routes_between("Los Angeles", "Tokyo")[0]
    xs = [x for t in ship for s in segment_endpoints(t) for x in (s[0], s[2])]
    assert min(xs) == pytest.approx(-180) and max(xs) == pytest.approx(180)
    x, _ = route_point(fig, la_tokyo.id)
    assert abs(x) <= 180
    assert "edge labels" in names(fig)
    assert fig.layout.height < 600  # a wide map gets a lower figure


# --------------------------------------------------------------------------- owners


def test_owner_changes_the_colour_of_the_right_route(usa):
    names_ = ["Ada", "Bo"]
    fig = board_figure(usa, owners={5: 1}, player_names=names_)
    claimed = trace(fig, "claimed by Bo")
    assert claimed.line.color == PLAYER_COLORS[1]
    assert len(segment_endpoints(claimed)) == 1
    assert segment_endpoints(trace(fig, "claimed outline"))
    assert trace(fig, "claimed by Ada").x == (None,)  # every seat keeps its legend entry
    routes = fig.data[route_trace_index(fig)]
    i = list(routes.customdata).index(5)
    assert routes.marker.color[i] == PLAYER_COLORS[1]
    assert "claimed by Bo" in routes.hovertext[i]
    assert all(c == "#ffffff" for j, c in enumerate(routes.marker.color) if j != i)
    # the route left its colour group
    color = trace(fig, f"train {usa.route(5).color}")
    plain = board_figure(usa)
    assert len(segment_endpoints(color)) == len(segment_endpoints(trace(plain, color.name))) - 1


def test_custom_player_colors_and_seat_count(usa):
    fig = board_figure(usa, owners={1: 2}, player_colors=["#000001", "#000002", "#000003"])
    assert trace(fig, "claimed by Player 3").line.color == "#000003"
    assert names(fig).count("claimed by Player 1") == 1


def test_unknown_route_is_an_error(usa):
    with pytest.raises(KeyError, match="999"):
        board_figure(usa, highlight=[999])
    with pytest.raises(KeyError, match="Atlantis"):
        board_figure(usa, tickets=[("Atlantis", "Miami")])
    with pytest.raises(TypeError):
        board_figure(42)


# --------------------------------------------------------------------------- overlays


def test_overlays_add_their_traces(usa):
    ticket = usa.tickets[0]
    fig = board_figure(
        usa,
        highlight=[1, 2],
        paths=[[1, 2], SimpleNamespace(routes=[3], name="short")],
        tickets=[ticket, ("Seattle", "Miami")],
        stations={"Boston": 0},
        harbors={"Miami": 1},
    )
    got = names(fig)
    for name in ("highlight", "path 1", "short", "ticket lines", "tickets", "stations", "harbors"):
        assert name in got
    assert len(segment_endpoints(trace(fig, "highlight"))) == 2
    assert len(segment_endpoints(trace(fig, "path 1"))) == 2
    assert trace(fig, "path 1").line.color != trace(fig, "short").line.color
    stars = trace(fig, "tickets")
    assert len(stars.x) == len({ticket.a, ticket.b, "Seattle", "Miami"})
    assert trace(fig, "stations").marker.color == (PLAYER_COLORS[0],)
    assert trace(fig, "harbors").marker.color == (PLAYER_COLORS[1],)
    assert trace(fig, "harbors").text == ("⚓",)
    # overlays never steal clicks; the glow sits under the route lines
    for name in ("highlight", "path 1", "tickets", "stations", "harbors"):
        assert trace(fig, name).hoverinfo == "skip"
    assert got.index("highlight") < got.index("train gray") < got.index("routes") < got.index("cities")
    cities = fig.data[city_trace_index(fig)]
    boston = list(cities.customdata).index("Boston")
    assert "station: Player 1" in cities.hovertext[boston]
    routes = fig.data[route_trace_index(fig)]
    assert routes.marker.size[0] > routes.marker.size[3]  # route 1 is highlighted


def test_no_overlays_no_overlay_traces(usa_fig):
    for name in ("highlight", "path 1", "tickets", "stations", "harbors", "claimed by Player 1"):
        assert name not in names(usa_fig)


def test_ticket_ids_and_tours():
    world = load_map("rails_and_sails_world")
    tour = next(t for t in world.tickets if t.is_tour)
    fig = board_figure(world, tickets=[tour.id])
    assert len(trace(fig, "tickets").x) == len(tour.cities)
    assert len(segment_endpoints(trace(fig, "ticket lines"))) == len(tour.cities) - 1


def test_harbor_cities_and_waypoints_look_different():
    lakes = load_map("rails_and_sails_great_lakes")
    fig = board_figure(lakes)
    cities = fig.data[city_trace_index(fig)]
    for i, c in enumerate(lakes.cities):
        assert (cities.marker.symbol[i] == "diamond") == c.waypoint
        assert (cities.marker.line.width[i] == 3) == c.harbor
        if c.waypoint:
            assert cities.textfont.size[i] < 10


# --------------------------------------------------------------------------- states


class FakeState:
    def __init__(self, m):
        self.map = m
        self.player_names = ("Ada", "Bo", "Cy")
        self._owners = {1: 0}

    def route_owners(self):
        return dict(self._owners)

    def buildings(self):  # pieces built on cities, by kind (as GameState.buildings)
        return {"station": {"Denver": 2}, "harbor": {}}


def test_object_with_map_and_route_owners(usa):
    state = FakeState(usa)
    fig = board_figure(state)
    assert trace(fig, "claimed by Ada").line.color == PLAYER_COLORS[0]
    assert "claimed by Cy" in names(fig)
    assert "stations" in names(fig) and "harbors" not in names(fig)
    # explicit keywords win over the state's
    fig = board_figure(state, owners={}, stations={})
    assert not segment_endpoints(trace(fig, "claimed by Ada"))
    assert "stations" not in names(fig)
    # an edition-like object: only .map, and a non-callable stations count
    edition = SimpleNamespace(map=usa, stations=3)
    assert len(board_figure(edition).data) == len(board_figure(usa).data)


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
    i = list(fig.data[k].customdata).index(7)
    assert fig.data[k].marker.color[i] == PLAYER_COLORS[1]
    assert len(segment_endpoints(trace(fig, "claimed by Bo"))) == 1
    assert fig._widget_data[k]["marker"]["color"][i] == PLAYER_COLORS[1]  # synced snapshot not stale

    # overlays appear and go; the routes trace object (and its callback) survives
    update_board(fig, state, highlight=[3], paths=[[1, 2]])
    assert "highlight" in names(fig) and "path 1" in names(fig)
    assert fig.data[route_trace_index(fig)] is routes_obj
    update_board(fig, state)
    assert "highlight" not in names(fig) and route_trace_index(fig) == k
    assert names(fig) == names(board_figure(state))

    fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [0], "ys": [0]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }
    assert clicks == [7]


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
    assert len(fig.data[route_trace_index(fig)].customdata) == len(europe.routes)


def test_update_board_on_plain_figure_matches_a_fresh_one(usa):
    fig = board_figure(usa)
    update_board(fig, usa, owners={3: 0, 4: 1}, tickets=[("Boston", "Miami")])
    fresh = board_figure(usa, owners={3: 0, 4: 1}, tickets=[("Boston", "Miami")])
    strip = lambda f: [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in f.data]
    assert strip(fig) == strip(fresh)


def test_render_does_not_import_widgets():
    code = (
        "import sys, ttr_lab.render\n"
        "bad = [m for m in ('ipywidgets', 'IPython', 'anywidget') if m in sys.modules]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
