"""Board graphs: every shipped map becomes a MultiGraph with one edge per route."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import pytest

from ttr_lab.maps import as_map, available_maps, board_graph, load_map, route_attributes, routes_graph


@pytest.mark.parametrize("name", available_maps())
def test_board_graph_has_one_edge_per_route_and_every_city(name):
    board = load_map(name)
    G = board_graph(board)
    assert isinstance(G, nx.MultiGraph) and not G.is_directed()
    assert G.number_of_edges() == len(board.routes)
    assert list(G.nodes) == [c.name for c in board.cities]
    assert sorted(k for _, _, k in G.edges(keys=True)) == sorted(r.id for r in board.routes)
    assert G.graph["map"] == board.id
    for r in board.routes:
        data = G.edges[r.a, r.b, r.id]
        assert data == {
            "route": r.id,
            "length": r.length,
            "color": r.color,
            "kind": r.kind,
            "locomotives": r.locomotives,
            "paired": r.paired,
            "double_of": r.double_of,
        }
    for c in board.cities:
        assert G.nodes[c.name] == {"lat": c.lat, "lon": c.lon, "harbor": c.harbor, "waypoint": c.waypoint}


@pytest.mark.parametrize("name", available_maps())
def test_double_routes_are_parallel_edges(name):
    board = load_map(name)
    G = board_graph(board)
    for r in board.routes:
        if r.double_of is not None:
            assert {r.id, r.double_of} <= set(G[r.a][r.b])


def test_board_graph_accepts_anything_with_a_map():
    usa = load_map("usa")
    edition = SimpleNamespace(map=usa)
    assert nx.utils.edges_equal(board_graph(edition).edges(keys=True), board_graph(usa).edges(keys=True))
    assert as_map(edition) is usa
    with pytest.raises(TypeError, match="expected a Map"):
        board_graph("usa")
    with pytest.raises(TypeError, match="got SimpleNamespace"):
        board_graph(SimpleNamespace(map="usa"))


def test_board_graph_is_a_fresh_copy_each_time():
    usa = load_map("usa")
    G = board_graph(usa)
    G.remove_node("Miami")
    assert "Miami" in board_graph(usa)


def test_routes_graph_keeps_only_the_given_routes_and_their_cities():
    usa = load_map("usa")
    ids = [r.id for r in usa.routes_between("Seattle", "Portland")] + [usa.find_route("Portland-San Francisco").id]
    G = routes_graph(usa, ids + ids[:1])
    assert sorted(G.nodes) == ["Portland", "San Francisco", "Seattle"]
    assert G.number_of_edges() == len(ids) == 3
    assert sorted(k for _, _, k in G.edges(keys=True)) == sorted(ids)
    rid = ids[-1]
    assert G.edges["Portland", "San Francisco", rid] == route_attributes(usa.route(rid))
    assert G.nodes["Seattle"] == board_graph(usa).nodes["Seattle"]


def test_routes_graph_of_nothing_is_empty_and_unknown_ids_fail():
    usa = load_map("usa")
    G = routes_graph(usa, [])
    assert G.number_of_nodes() == G.number_of_edges() == 0
    with pytest.raises(KeyError, match="no route 12345 on map usa"):
        routes_graph(usa, [1, 12345])


def test_routes_graph_of_all_routes_equals_the_board():
    for name in available_maps():
        board = load_map(name)
        full = routes_graph(board, [r.id for r in board.routes])
        G = board_graph(board)
        touched = {c for r in board.routes for c in r.ends}
        assert set(full.nodes) == touched <= set(G.nodes)

        def edges(H):
            return sorted(
                ((k, frozenset((u, v)), tuple(sorted(d.items()))) for u, v, k, d in H.edges(keys=True, data=True))
            )

        assert edges(full) == edges(G)
