"""PlayerView in Jupyter: the board as one seat knows it, interactive and as a static SVG."""

from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET

import pytest

import ttr_lab
from ttr_lab.board import board_svg
from ttr_lab.board.scene import Scene
from ttr_lab.bots import make_bot

NS = {"s": "http://www.w3.org/2000/svg"}
needs_plotly = pytest.mark.skipif(importlib.util.find_spec("plotly") is None, reason="plotly is not installed")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _route_groups(svg: str) -> dict[int, int]:
    """route id -> number of drawn spaces (a ``<g data-route>`` per route, pieces aside)."""
    return {
        int(g.get("data-route")): sum(1 for e in g if e.tag.endswith(("path", "ellipse")))
        for g in parse(svg).findall(".//s:g[@data-route]", NS)
        if g.get("data-seat") is None
    }


@pytest.fixture(scope="module")
def europe_game():
    g = ttr_lab.new_game("europe", players=3, seed=4)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    while not g.is_over and g.ply < 120:
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    return g


@needs_plotly
def test_a_view_displays_only_what_its_seat_knows(europe_game):
    g = europe_game
    seat = 1
    view = g.view(seat)
    bundle = view._repr_mimebundle_()
    assert sorted(bundle) == ["application/vnd.plotly.v1+json", "image/svg+xml", "text/plain"]
    assert bundle["text/plain"] == repr(view)
    svg = bundle["image/svg+xml"]
    # the public board (the same pieces and last moves as the state shows) and the seat's own tickets
    assert svg == board_svg(g, tickets=g.tickets(seat))
    assert _route_groups(svg) == _route_groups(board_svg(g))
    mine = {label for _, label in Scene(g, tickets=g.tickets(seat)).tickets}
    assert mine and all(f"ticket {label}" in svg for label in mine)
    plotly_text = json.dumps(bundle["application/vnd.plotly.v1+json"], ensure_ascii=False)
    for other in range(g.n):
        if other == seat:
            continue
        theirs = {label for _, label in Scene(g, tickets=g.tickets(other)).tickets} - mine
        assert theirs
        for label in theirs:  # no other seat's tickets, in either picture
            assert f"ticket {label}" not in svg and f"ticket {label}" not in plotly_text
    for text in (svg, plotly_text):  # nor anyone's hand
        assert "hand" not in text.lower()
