"""The scorer widget (ttr_lab.widgets.scorer): clicks and the ticket search
build the same sheet ttr_lab.score scores; refusals change nothing."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from plotly.callbacks import Points

from ttr_lab.render import city_trace_index, route_trace_index
from ttr_lab.widgets.scorer import ScorerWidget, scorer

from .test_outcomes import bot_game
from .test_scorer import table_of


def click(w, name: str, value) -> None:
    """What plotly sends for a click on a point of the routes or cities trace."""
    k = route_trace_index(w.fig) if name == "routes" else city_trace_index(w.fig)
    trace = w.fig.data[k]
    i = list(trace.customdata).index(value)
    trace._dispatch_on_click(
        Points(point_inds=[i], xs=[trace.x[i]], ys=[trace.y[i]], trace_name=name, trace_index=k), None
    )


def enter(w: ScorerWidget, table: dict) -> None:
    """Enter a table through the widget as a person would: per player, the routes, cities and tickets."""
    for p, name in enumerate(table["players"]):
        w.player.value = p
        for rid in table["routes"].get(name, []):
            click(w, "routes", rid)
        for kind in ("stations", "harbors"):
            if table.get(kind, {}).get(name):
                w.click_kind.value = kind
                for city in table[kind][name]:
                    assert w.click_city(city), w.message.value
                w.click_kind.value = "routes"
        for t in table["tickets"].get(name, []):
            assert w.add_ticket(str(t)), w.message.value
        if table.get("exchanged"):
            w.exchange.value = table["exchanged"][name]


@pytest.mark.parametrize("name, n, seed", [("usa", 4, 3), ("europe", 3, 5), ("world", 3, 7)])
def test_a_finished_game_entered_by_clicks_scores_as_the_game(name, n, seed):
    g = bot_game(name, {}, n, seed, bot="greedy")
    table = table_of(g)
    w = scorer(name, players=table["players"])
    enter(w, table)
    assert w.outcome == g.outcome()
    assert json.loads(json.dumps(w.breakdown.value)) and str(g.outcome()).split("\n")[0] in w.breakdown.value


def test_the_breakdown_draws_the_selected_players_paths():
    g = bot_game("usa", {}, 2, 11, bot="greedy")
    w = scorer("usa", players=list(g.player_names))
    enter(w, table_of(g))
    for p in range(2):
        w.player.value = p
        names = [tr.name for tr in w.fig.data]
        me = w.outcome.players[p]
        assert me.longest_path_routes and f"longest path ({me.longest_path})" in names
        done = [tr.ticket.label() for tr in me.tickets if tr.completed]
        assert done and all(label in names for label in done)
        assert all(lab in w.held.options[i][0] for i, lab in enumerate(t.label() for t in g.view(p).tickets))


def test_refusals_change_nothing_and_say_why():
    w = scorer("usa", players=["Ada", "Bob", "Cy"])
    click(w, "routes", 1)
    w.player.value = 1
    click(w, "routes", 1)
    assert w.routes == [[1], [], []] and "Ada's" in w.message.value
    ed = w.edition
    i = next(i for i in range(len(ed.routes)) if ed.route_partner[i] >= 0)
    a, b = ed.routes[i].id, ed.routes[ed.route_partner[i]].id
    assert w.click_route(a)
    w.player.value = 2
    assert not w.click_route(b)  # 3 players: one route of a double
    assert w.routes[2] == [] and "only one of them is used" in w.message.value
    assert not w.add_ticket("Miami") and "tickets match" in w.message.value  # several
    assert not w.add_ticket("Atlantis") and "0 tickets match" in w.message.value
    assert w.add_ticket("1") and not w.add_ticket("1")
    w.player.value = 0
    assert not w.add_ticket("1") and "held by both" in w.message.value
    assert w.tickets == [[], [], [1]]


def test_the_search_list_entry_adds_the_ticket():
    w = scorer("usa", players=["Ada", "Bob"])
    w.search.value = w.search.options[3]
    assert len(w.tickets[0]) == 1 and w.search.value == ""
    w.held.value = w.tickets[0][0]
    w._remove_selected()
    assert w.tickets[0] == []


def test_stations_and_harbors_by_clicking_cities():
    w = scorer("europe", players=["Ada", "Bob"])
    w.click_kind.value = "stations"
    click(w, "cities", "Paris")
    assert w.stations == [["Paris"], []]
    w.player.value = 1
    click(w, "cities", "Paris")
    assert w.stations == [["Paris"], []] and "Ada's station" in w.message.value
    usa = scorer("usa", players=["Ada", "Bob"])
    assert usa.click_kind.layout.display == "none" and not usa.click_city("Denver")


def test_save_and_load(tmp_path):
    """Files are names in the widget's folder (tests/test_widget_files.py checks paths are refused)."""
    w = scorer("usa", players=["Ada", "Bob"], folder=tmp_path)
    click(w, "routes", 1)
    w.add_ticket("1")
    assert w.save("sheet.json")
    other = scorer("usa", players=["Ada", "Bob"], folder=tmp_path)
    assert other.load("sheet.json") and other.outcome == w.outcome and other.routes == [[1], []]
    third = scorer("usa", players=["Cy", "Di"], folder=tmp_path)
    assert not third.load("sheet.json") and "Ada" in third.message.value
    (tmp_path / "bad.json").write_text("{not json")
    assert not other.load("bad.json") and other.routes == [[1], []]
