"""The board's FigureWidget (ttr_lab.widgets.figure): a state a reloaded page can take in time,
and a figure that what the browser reports back cannot damage (issue 19 B).

Without a browser: the front end's messages are set on the widget as ipywidgets would
(JUPYTER.md section 2: a trait the front end syncs runs the same observers).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("plotly")
pytest.importorskip("anywidget")

import ttr_lab
from ttr_lab.board import city_trace_index, route_trace_index
from ttr_lab.widgets.figure import ESM, FigureWidget, plotly_bundle


def _state_bytes(widget) -> int:
    return len(json.dumps(widget.get_state(), default=str))


def test_a_board_state_holds_no_javascript_bundle():
    """A reloaded page asks every widget's state in one message and waits 4 s: the 5 MB
    plotly bundle is not in it, but sent once per page when the front end asks for it."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    state = w.fig.get_state()
    assert state["_esm"] == ESM and len(ESM) < 2000
    assert _state_bytes(w.fig) < 400_000, _state_bytes(w.fig)
    bundle, key = plotly_bundle()
    assert len(bundle) > 1_000_000
    assert w.fig._plotly_bundle(key, []) == (key, [bundle])


def test_deltas_the_browser_reports_back_do_not_delete_the_boards_data():
    """plotly's front end reports, after each edit, its full data against the synced snapshot,
    paired trace by trace; a view still applying an edit while update_board refreshed the
    snapshot pairs a trace with another one and reports that trace's x, y and name.  plotly's
    handler moved them into the defaults and deleted them from the figure: the cities' x went,
    and every later click on a city raised in the kernel."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    fig = w.fig
    k, c = route_trace_index(fig), city_trace_index(fig)
    routes, cities = fig.data[k], fig.data[c]
    before = (list(cities.x), list(cities.y), cities.name, list(routes.x))
    # what a view out of step sends: the routes' full data reported under the cities' uid
    wrong = {"uid": cities.uid, "x": list(routes.x), "y": list(routes.y), "name": routes.name, "visible": True}
    fig._js2py_traceDeltas = {"trace_deltas": [wrong], "trace_edit_id": fig._last_trace_edit_id}
    fig._js2py_layoutDelta = {
        "layout_delta": {"height": 999, "xaxis": {"range": [0, 1]}},
        "layout_edit_id": fig._last_layout_edit_id,
    }
    assert (list(cities.x), list(cities.y), cities.name, list(routes.x)) == before
    assert fig._js2py_traceDeltas is None and fig._js2py_layoutDelta is None
    assert fig.layout.height != 999 and fig._widget_layout.get("height") != 999
    assert not fig._trace_edit_in_process and not fig._layout_edit_in_process
    # and a click on a city still reaches the game (a station, a refusal: anything but an error)
    fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [c], "point_indexes": [0], "xs": [cities.x[0]], "ys": [cities.y[0]]},
        "device_state": {},
        "selector": None,
    }
    assert fig._js2py_pointsCallback is None  # handled to the end


def test_the_edit_bookkeeping_still_runs_waiting_callbacks():
    """What plotly's handlers did besides the deltas is kept: once the front end has reported
    the last edit, callbacks waiting for it run."""
    fig = FigureWidget()
    ran = []
    fig._trace_edit_in_process = fig._layout_edit_in_process = True
    fig._waiting_edit_callbacks.append(lambda: ran.append(1))
    fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": fig._last_trace_edit_id - 1}  # an older edit
    assert ran == [] and fig._trace_edit_in_process
    fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": fig._last_trace_edit_id}
    assert ran == [] and not fig._trace_edit_in_process  # the layout edit is still out
    fig._js2py_layoutDelta = {"layout_delta": {}, "layout_edit_id": fig._last_layout_edit_id}
    assert ran == [1] and not fig._layout_edit_in_process
