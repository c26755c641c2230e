"""Ticket paths and Steiner trees: checked against brute force on small
graphs and on the USA board."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.analysis.paths import UnknownCityError, distance_table, shortest_ticket_path, ticket_graph
from ttr_lab.analysis.trees import minimum_spanning_routes, steiner_tree
from ttr_lab.maps import board_graph


def random_multigraph(seed: int, n: int, m: int) -> nx.MultiGraph:
    rng = random.Random(seed)
    G = nx.MultiGraph()
    G.add_nodes_from(range(n))
    for rid in range(1, m + 1):
        u, v = rng.sample(range(n), 2)
        G.add_edge(u, v, key=rid, route=rid, length=rng.randint(1, 6))
    return G


def brute_steiner(G: nx.MultiGraph, terms, owned=frozenset()):
    """Cheapest edge subset whose graph joins all terminals (tiny graphs)."""
    edges = [(u, v, d["route"], 0 if d["route"] in owned else d["length"]) for u, v, d in G.edges(data=True)]
    best = None
    for r in range(len(edges) + 1):
        for combo in itertools.combinations(edges, r):
            cost = sum(c for *_, c in combo)
            if best is not None and cost >= best:
                continue
            H = nx.Graph()
            H.add_nodes_from(terms)
            H.add_edges_from((u, v) for u, v, _, _ in combo)
            if nx.is_connected(H.subgraph(nx.node_connected_component(H, terms[0]) | set(terms))) and all(
                nx.has_path(H, terms[0], t) for t in terms
            ):
                best = cost
    return best


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), m=st.integers(3, 8), k=st.integers(2, 4))
def test_exact_steiner_matches_brute_force(seed, n, m, k):
    G = random_multigraph(seed, n, m)
    rng = random.Random(seed)
    terms = rng.sample(range(n), min(k, n))
    owned = frozenset(r for r in range(1, m + 1) if rng.random() < 0.2)
    exact = steiner_tree(G, terms, owned=owned)
    brute = brute_steiner(G, terms, owned)
    if brute is None:
        assert exact is None
        return
    assert exact.cost == brute
    # the routes really join the terminals
    H = nx.Graph()
    H.add_nodes_from(terms)
    for u, v, d in G.edges(data=True):
        if d["route"] in exact.routes:
            H.add_edge(u, v)
    assert all(nx.has_path(H, terms[0], t) for t in terms)
    approx = steiner_tree(G, terms, owned=owned, method="approx")
    assert approx.cost >= exact.cost


def test_steiner_on_usa_tickets_is_no_worse_than_approximations():
    usa = ttr_lab.load_map("usa")
    G = board_graph(usa)
    for tickets in [(1, 2), (3, 7, 11), (4, 9, 20, 25)]:
        cities = [c for t in tickets for c in usa.ticket(t).cities]
        exact = steiner_tree(G, cities)
        for method in ("kou", "mehlhorn"):
            assert steiner_tree(G, cities, method=method).cost >= exact.cost
        mst_cost = minimum_spanning_routes(G)[1]
        assert exact.cost <= mst_cost


def test_steiner_errors_and_edge_cases():
    G = board_graph(ttr_lab.load_map("usa"))
    with pytest.raises(ValueError, match="magic is not a valid choice"):
        steiner_tree(G, ["Boston", "Miami"], method="magic")
    with pytest.raises(ValueError, match="unknown cities: Atlantis"):
        steiner_tree(G, ["Boston", "Atlantis"])
    # the exact tree has no terminal limit (the analysis issue): 11 cities, never dearer than the approximation
    eleven = list(G.nodes)[:11]
    assert steiner_tree(G, eleven).cost <= steiner_tree(G, eleven, method="approx").cost
    assert steiner_tree(G, ["Boston"]).cost == 0
    # cut every route out of Miami: unreachable
    miami = [d["route"] for _, _, d in G.edges("Miami", data=True)]
    assert steiner_tree(G, ["Boston", "Miami"], blocked=miami) is None


def test_shortest_ticket_path_uses_owned_routes_free_and_avoids_blocked():
    usa = ttr_lab.load_map("usa")
    G = board_graph(usa)
    p = shortest_ticket_path(G, "Seattle", "New York")
    assert p.cost == 20 and p.cities[0] == "Seattle" and p.cities[-1] == "New York"
    owned = set(p.routes[:2])
    q = shortest_ticket_path(G, "Seattle", "New York", owned=owned)
    assert q.cost == p.cost - sum(usa.route(r).length for r in owned)
    assert set(q.new_routes).isdisjoint(owned)
    r = shortest_ticket_path(G, "Seattle", "New York", blocked=set(p.routes))
    assert r is not None and not set(r.routes) & set(p.routes) and r.cost >= p.cost
    with pytest.raises(UnknownCityError, match="Nowhere") as e:  # a typo is not "cannot be joined"
        shortest_ticket_path(G, "Seattle", "Nowhere")
    assert e.value.cities == ("Nowhere",) and isinstance(e.value, ttr_lab.TtrError)


def test_ticket_values_are_shortest_paths_on_the_base_deck():
    """The classroom fact behind ticket values: most USA tickets equal the
    shortest path in cars (25 of 30, the others +1 or +2)."""
    usa = ttr_lab.load_map("usa")
    G = board_graph(usa)
    gaps = [t.points - shortest_ticket_path(G, t.a, t.b).cost for t in usa.deck("base")]
    assert gaps.count(0) == 25 and set(gaps) <= {0, 1, 2}


def test_ticket_graph_keeps_the_cheapest_parallel_route_and_distance_table():
    G = board_graph(ttr_lab.load_map("usa"))
    H = ticket_graph(G, owned={5})
    assert H.edges["Atlanta", "New Orleans"] == {"length": 0, "route": 5}
    H = ticket_graph(G, blocked={4})
    assert H.edges["Atlanta", "New Orleans"]["route"] == 5
    d = distance_table(G, ["Boston", "Miami"])
    assert d[("Boston", "Miami")] == d[("Miami", "Boston")] > 0


def test_position_analysis_blocks_routes_of_others_and_closed_doubles():
    from ttr_lab.analysis.network import next_claims, route_access, ticket_network, ticket_paths

    from .helpers import arrange, new_usa

    g = arrange(new_usa(players=3), owners={10: 1, 53: 0, 1: 2}, current=0)
    owned, blocked = route_access(g, 0)
    assert owned == {53}
    assert {10, 1} <= blocked and 11 in blocked  # with 3 players Boston-New York's other side is closed
    for t, path in ticket_paths(g, 0):
        assert path is None or not set(path.routes) & blocked
    net = ticket_network(g, 0)
    assert net is not None and not set(net.routes) & blocked
    claims = next_claims(g, 0)
    assert claims == sorted(claims, key=lambda c: (-c.points, g.map.route(c.route).length, c.route))
    assert all(c.route not in owned | blocked for c in claims)
    assert g.route_open_to(11, 2) is False and g.route_open_to(12, 2) is True
