"""The scorer widget (ttr_lab.widgets.scorer): clicks and the ticket search
build the same sheet ttr_lab.score scores; refusals change nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from plotly.callbacks import Points

from ttr_lab.board import city_trace_index, route_trace_index
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
    assert not w.add_ticket("Atlantis") and "no ticket matches" in w.message.value
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


# ---------------------------------------------------------------- issue 20.3/20.4, issue 19 D4
FOREIGN = "²³①⑳₃٣３"
#: entries that name no route, city or ticket: foreign digits, text without an ASCII letter or digit, other types
BAD = st.one_of(
    st.builds(lambda a, d: a + d, st.text(alphabet="0123456789", max_size=2), st.sampled_from(FOREIGN)),
    st.text(st.sampled_from(" -:,./?!#*=()" + FOREIGN), max_size=8),  # no letter: no city, no ticket
    st.integers().filter(lambda k: not 1 <= k <= 200),
    st.none(),
    st.floats(),
    st.lists(st.integers(min_value=1, max_value=5), max_size=2),
)


def sheet(w: ScorerWidget):
    return ([list(r) for r in w.routes], [list(t) for t in w.tickets], [list(s) for s in w.stations], w.outcome)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_refused_entries_between_good_ones_leave_the_good_sheet(data):
    """Issue 20.4: click_route('²') left '²' in the routes and every later click raised.
    Random bad entries between the good ones: the sheet is the good entries alone."""
    g = bot_game("europe", {}, 2, 5, bot="greedy")
    table = table_of(g)
    w = scorer("europe", players=table["players"])

    def bad_entries():
        for bad in data.draw(st.lists(BAD, max_size=2)):
            how = data.draw(st.sampled_from(["click_route", "add_ticket", "click_city"]))
            before = sheet(w)
            assert getattr(w, how)(bad) is False, (how, bad)
            assert sheet(w) == before and w.message.value, (how, bad)

    for p, name in enumerate(table["players"]):
        w.player.value = p
        for rid in table["routes"][name]:
            bad_entries()
            assert w.click_route(rid), w.message.value
        w.click_kind.value = "stations"
        for city in table.get("stations", {}).get(name, []):
            bad_entries()
            assert w.click_city(city), w.message.value
        w.click_kind.value = "routes"
        for t in table["tickets"][name]:
            bad_entries()
            assert w.add_ticket(str(t)), w.message.value
    assert w.outcome == g.outcome()
    assert [sorted(r) for r in w.routes] == [sorted(table["routes"][n]) for n in table["players"]]


@pytest.mark.parametrize("bad", ["²", "①", "₃", "1²", "٣", "Seattle-Portland/²"])
def test_a_route_in_foreign_digits_is_refused_and_the_next_click_works(bad):
    w = scorer("usa", players=["Ada", "Bob"])
    assert not w.click_route(bad) and w.routes == [[], []] and "no route" in w.message.value
    assert w.click_route(1) and w.routes == [[1], []]
    assert not w.add_ticket(bad) and w.tickets == [[], []]
    assert w.add_ticket("1") and w.tickets == [[1], []]


def test_a_city_in_two_tickets_offers_both_to_pick():
    """Issue 19 D4: typing 'Duluth' matched 2 tickets and added neither."""
    w = scorer("usa", players=["Ada", "Bob", "Cy", "Di"])
    m = w.edition.map
    want = [t for t in w._labels if "Duluth" in m.ticket(t).cities]
    assert not w.add_ticket("Duluth") and w.tickets[0] == []
    assert [b.description for b in w.choices.children] == [w._labels[t] for t in want]
    assert f"{len(want)} tickets match 'Duluth': pick one" in w.message.value
    w.choices.children[1].click()
    assert w.tickets[0] == [want[1]] and not w.choices.children and not w.message.value
    a, b = m.ticket(want[0]).cities
    w.player.value = 1
    assert w.add_ticket(f"{b.lower()}-{a.upper()}") and w.tickets[1] == [want[0]]  # its cities, either order
    assert not w.add_ticket("e") and len(w.choices.children) == w.MAX_CHOICES and "type more" in w.message.value


def test_the_breakdown_says_one_route_and_one_longest_path():
    """Issue 19 D4: '(1 routes)', and 'Longest Path' next to 'longest path'."""
    w = scorer("usa", players=["Ada", "Bob"])
    assert w.click_route(1) and w.click_route(2)
    w.player.value = 1
    assert w.click_route(57)
    text = w.breakdown.value
    assert "(1 route)" in text and "(1 routes)" not in text
    assert "longest path: 7 cars (2 routes), bonus +10" in text and "Longest Path" not in text


def test_the_file_row_is_above_the_breakdown_and_sized_to_fit():
    w = scorer("usa", players=["Ada", "Bob", "Cy", "Di"])
    side = w.children[-1].children[1].children
    row = next(c for c in side if w.path in getattr(c, "children", ()))
    assert side.index(row) < side.index(w.breakdown)  # not below a four-player breakdown
    save, load = row.children[1:]
    assert (save.description, load.description) == ("Save", "Load")
    assert save.layout.flex == load.layout.flex == "0 0 auto" and w.path.layout.flex == "1 1 auto"
