"""Graph analysis: longest trails against a brute-force oracle, cut routes,
Euler trails, ticket paths and Steiner trees."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_lab.analysis as analysis
from ttr_lab.analysis.paths import distance_table, shortest_ticket_path, ticket_graph
from ttr_lab.analysis.trails import (
    cut_routes,
    euler_trail_exists,
    longest_trail,
    longest_trail_edges,
    odd_degree_cities,
)
from ttr_lab.analysis.trees import minimum_spanning_routes, steiner_tree
from ttr_lab.engine.scoring import trail as trails  # the longest-trail core
from ttr_lab.maps import available_maps, board_graph, load_map, routes_graph

# --------------------------------------------------------------- oracles


def brute_longest(edges) -> int:
    """Longest trail length by DFS over every trail from every vertex."""
    adj: dict = {}
    for i, (_rid, u, v, _w) in enumerate(edges):
        adj.setdefault(u, []).append((i, v))
        if u != v:
            adj.setdefault(v, []).append((i, u))
    best = 0

    def dfs(c, used, cur):
        nonlocal best
        best = max(best, cur)
        for i, o in adj[c]:
            if not used >> i & 1:
                dfs(o, used | 1 << i, cur + edges[i][3])

    for v in adj:
        dfs(v, 0, 0)
    return best


def assert_is_trail(edges, total, seq):
    """``seq`` walks the routes of ``edges`` in order, each once, summing to ``total``."""
    by_id = {e[0]: e for e in edges}
    assert len(set(seq)) == len(seq)
    assert sum(by_id[r][3] for r in seq) == total
    if not seq:
        return

    def walks_from(city):
        for rid in seq:
            _, u, v, _ = by_id[rid]
            if city == u:
                city = v
            elif city == v:
                city = u
            else:
                return False
        return True

    first = by_id[seq[0]]
    assert walks_from(first[1]) or walks_from(first[2]), seq


def check(edges):
    total, seq = longest_trail_edges(edges)
    assert total == brute_longest(edges)
    assert_is_trail(edges, total, seq)
    assert longest_trail_edges(list(edges)) == (total, seq)  # deterministic
    return total, seq


def numbered(*triples):
    """``("A", "B", 3), ...`` -> ``[(1, "A", "B", 3), ...]``."""
    return [(i, u, v, w) for i, (u, v, w) in enumerate(triples, start=1)]


# ---------------------------------------------------- longest trail: named


def test_empty_network():
    assert longest_trail_edges([]) == (0, ())
    assert longest_trail(nx.MultiGraph()) == (0, [])


def test_scenario_14_triangle_with_a_tail():
    """Scenario 14 (docs/rules.md A7): A-B 3, B-C 2, C-A 4, C-D 6: every route, 15."""
    edges = numbered(("A", "B", 3), ("B", "C", 2), ("C", "A", 4), ("C", "D", 6))
    total, seq = check(edges)
    assert total == 15 and sorted(seq) == [1, 2, 3, 4] and seq[-1] == 4


def test_single_route_and_path():
    assert longest_trail_edges([(7, "A", "B", 4)]) == (4, (7,))
    total, seq = check(numbered(("A", "B", 1), ("B", "C", 2), ("C", "D", 3), ("D", "E", 4)))
    assert total == 10 and seq in ((1, 2, 3, 4), (4, 3, 2, 1))


def test_star_takes_the_two_longest_arms():
    edges = numbered(("H", "A", 1), ("H", "B", 5), ("H", "C", 2), ("H", "D", 4), ("H", "E", 3))
    total, seq = check(edges)
    assert total == 9 and set(seq) == {2, 4}


def test_loop_with_a_tail_and_a_loop_with_two_tails():
    lollipop = numbered(("A", "B", 2), ("B", "C", 2), ("C", "A", 2), ("A", "T", 5))
    assert check(lollipop)[0] == 11
    # two tails at one city of the cycle: a tail, the cycle, but only one tail
    two_tails = numbered(("A", "B", 2), ("B", "C", 2), ("C", "A", 2), ("A", "S", 5), ("A", "T", 4))
    assert check(two_tails)[0] == 15  # S-A-T plus the cycle through A: all routes
    # tails at two different cities of the cycle: the cycle is walked "the long way"
    apart = numbered(("A", "B", 1), ("B", "C", 4), ("C", "A", 4), ("A", "S", 3), ("B", "T", 3))
    assert check(apart)[0] == 14  # S-A-C-B-T misses only A-B


def test_figure_eight_uses_every_route():
    edges = numbered(("X", "A", 1), ("A", "B", 2), ("B", "X", 3), ("X", "C", 4), ("C", "D", 5), ("D", "X", 6))
    total, seq = check(edges)
    assert total == 21 and len(seq) == 6


def test_parallel_routes_are_both_used():
    edges = [(1, "A", "B", 3), (2, "A", "B", 3), (3, "B", "C", 2)]
    assert check(edges)[0] == 8
    assert check([(1, "A", "B", 3), (2, "B", "A", 3), (3, "A", "B", 3), (4, "B", "C", 1)])[0] == 10


def test_a_loop_is_walked_on_the_way():
    edges = [(1, "A", "B", 2), (2, "B", "B", 5), (3, "B", "C", 1)]
    total, seq = check(edges)
    assert total == 8 and seq.index(2) == 1
    assert check([(9, "Z", "Z", 4)]) == (4, (9,))


def test_disconnected_parts_pick_the_best_part():
    edges = numbered(("A", "B", 2), ("B", "C", 2), ("X", "Y", 5), ("P", "Q", 1), ("Q", "R", 1), ("R", "P", 1))
    total, seq = check(edges)
    assert total == 5 and seq == (3,)


def test_k4_has_four_odd_cities():
    edges = numbered(("A", "B", 1), ("A", "C", 1), ("A", "D", 1), ("B", "C", 1), ("B", "D", 1), ("C", "D", 1))
    assert check(edges)[0] == 5


def test_gap_cases_where_the_search_runs(monkeypatch):
    """Removing a cheapest T-join disconnects these: the bound is out of
    reach and the branch-and-bound search must close the gap."""
    calls = []
    search = trails._search
    monkeypatch.setattr(trails, "_search", lambda *a: calls.append(1) or search(*a))
    bowtie = [
        (1, "F", "C", 1),
        (2, "B", "F", 4),
        (3, "A", "C", 3),
        (4, "A", "D", 2),
        (5, "C", "D", 1),
        (6, "G", "F", 3),
    ]
    assert check(bowtie)[0] == 11
    doubled = [(2, "A", "B", 1), (4, "A", "B", 6), (5, "D", "B", 4), (6, "C", "D", 6), (7, "D", "E", 5)]
    assert check(doubled)[0] == 17
    assert calls  # the search ran (check() calls twice per network)


def test_zero_lengths_and_bad_input():
    assert check(numbered(("A", "B", 0), ("B", "C", 0)))[0] == 0
    assert check(numbered(("A", "B", 0), ("B", "C", 2), ("B", "D", 0), ("B", "E", 1)))[0] == 3
    with pytest.raises(ValueError, match="negative or invalid length -1"):
        longest_trail_edges([(1, "A", "B", -1)])
    with pytest.raises(ValueError, match="invalid length 'x'"):
        longest_trail_edges([(1, "A", "B", "x")])
    with pytest.raises(ValueError, match=r"expected \(route_id, u, v, length\)"):
        longest_trail_edges([(1, "A", "B")])


def test_float_lengths():
    total, seq = longest_trail_edges([(1, "A", "B", 1.5), (2, "B", "C", 2.25), (3, "B", "D", 0.5)])
    assert total == pytest.approx(3.75) and set(seq) == {1, 2}


# --------------------------------------------------- longest trail: random


@st.composite
def multigraphs(draw, max_nodes=5, max_edges=8):
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, max_edges))
    city = st.integers(0, n - 1).map(lambda i: "ABCDEFGH"[i])
    triples = draw(st.lists(st.tuples(city, city, st.integers(0, 6)), min_size=m, max_size=m))
    return [(10 + i, u, v, w) for i, (u, v, w) in enumerate(triples)]


@settings(max_examples=150, deadline=None)
@given(multigraphs())
def test_longest_trail_matches_brute_force(edges):
    check(edges)


@settings(max_examples=40, deadline=None)
@given(multigraphs(max_nodes=7, max_edges=10).filter(lambda es: len(es) >= 7))
def test_longest_trail_matches_brute_force_on_denser_graphs(edges):
    check([e for e in edges if e[1] != e[2]])


def test_longest_trail_on_seeded_random_graphs():
    rng = random.Random(2024)
    for _ in range(300):
        n, m = rng.randint(3, 7), rng.randint(5, 9)
        check([(i, rng.randrange(n), rng.randrange(n), rng.randint(1, 6)) for i in range(m)])


def grow_network(board, rng, cars):
    """A random connected network of at most ``cars`` cars (as in the benchmark)."""
    first = rng.choice(board.routes)
    chosen, cities, left = [first], {first.a, first.b}, cars - first.length
    while True:
        banned = {r.id for r in chosen} | {r.double_of for r in chosen}
        options = [
            r for r in board.routes if r.id not in banned and r.length <= left and (r.a in cities or r.b in cities)
        ]
        if not options:
            return [(r.id, r.a, r.b, r.length) for r in chosen]
        pick = rng.choices(options, [4 if r.a in cities and r.b in cities else 1 for r in options])[0]
        chosen.append(pick)
        cities |= set(pick.ends)
        left -= pick.length


def test_realistic_networks_on_every_map():
    for name in available_maps():
        board = load_map(name)
        rng = random.Random(name)
        for _ in range(4):
            check(grow_network(board, rng, cars=24))


def test_longest_trail_front_end_on_a_board():
    usa = load_map("usa")
    net = grow_network(usa, random.Random(7), cars=45)
    G = routes_graph(usa, [e[0] for e in net])
    length, ids = longest_trail(G)
    assert length == longest_trail_edges(net)[0] and isinstance(ids, list)
    assert_is_trail(net, length, tuple(ids))
    simple = nx.Graph()
    simple.add_edge("A", "B", cost=2)
    simple.add_edge("B", "C", cost=5)
    assert longest_trail(simple, weight="cost") == (7, [("A", "B"), ("B", "C")])
    assert longest_trail(simple, weight="missing")[0] == 2


# ----------------------------------------------------- cut routes and Euler


def test_cut_routes_ignore_parallel_routes_and_loops():
    G = nx.MultiGraph()
    for rid, u, v in [(1, "A", "B"), (2, "B", "C"), (3, "B", "C"), (4, "C", "D"), (5, "D", "D"), (6, "D", "E")]:
        G.add_edge(u, v, key=rid, route=rid)
    assert cut_routes(G) == [1, 4, 6]
    assert cut_routes(nx.cycle_graph(4, create_using=nx.MultiGraph)) == []
    assert cut_routes(nx.MultiGraph()) == []


def test_cut_routes_match_the_definition_on_every_board():
    for name in available_maps():
        G = board_graph(load_map(name))
        base = nx.number_connected_components(G)
        expected = []
        for u, v, k in list(G.edges(keys=True)):
            data = G.edges[u, v, k]
            G.remove_edge(u, v, k)
            if nx.number_connected_components(G) > base:
                expected.append(k)
            G.add_edge(u, v, k, **data)
        assert cut_routes(G) == sorted(expected)


def test_odd_degree_cities_and_euler_trails():
    konigsberg = nx.MultiGraph([("N", "I"), ("N", "I"), ("S", "I"), ("S", "I"), ("N", "E"), ("S", "E"), ("I", "E")])
    assert odd_degree_cities(konigsberg) == ["E", "I", "N", "S"]
    assert not euler_trail_exists(konigsberg)
    konigsberg.remove_edge("I", "E")
    assert odd_degree_cities(konigsberg) == ["N", "S"] and euler_trail_exists(konigsberg)
    looped = nx.MultiGraph([("A", "A"), ("A", "B")])
    assert odd_degree_cities(looped) == ["A", "B"] and euler_trail_exists(looped)
    two_parts = nx.MultiGraph([("A", "B"), ("C", "D")])
    assert not euler_trail_exists(two_parts)
    lonely = nx.MultiGraph([("A", "B"), ("B", "C"), ("C", "A")])
    lonely.add_node("Z")
    assert odd_degree_cities(lonely) == [] and euler_trail_exists(lonely)
    assert euler_trail_exists(nx.MultiGraph())


def test_euler_trail_exists_iff_longest_trail_uses_every_route():
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(2, 6)
        edges = [(i, rng.randrange(n), rng.randrange(n), 1) for i in range(rng.randint(1, 8))]
        G = nx.MultiGraph()
        for rid, u, v, w in edges:
            G.add_edge(u, v, key=rid, route=rid, length=w)
        assert euler_trail_exists(G) == (longest_trail(G)[0] == len(edges))


# ------------------------------------------------------------ ticket paths


def tiny_board():
    """A-B 3, B-C 2, C-A 4, C-D 6, plus a second A-B 3 (a double route)."""
    G = nx.MultiGraph()
    for rid, u, v, n in [(1, "A", "B", 3), (2, "B", "C", 2), (3, "C", "A", 4), (4, "C", "D", 6), (5, "A", "B", 3)]:
        G.add_edge(u, v, key=rid, route=rid, length=n)
    return G


def test_shortest_path_owned_routes_cost_nothing_blocked_are_removed():
    G = tiny_board()
    p = shortest_ticket_path(G, "A", "D")
    assert (p.cities, p.routes, p.cost, p.new_routes) == (("A", "C", "D"), (3, 4), 10, (3, 4))
    q = shortest_ticket_path(G, "A", "D", owned={5, 2})
    assert (q.routes, q.cost, q.new_routes) == ((5, 2, 4), 6, (4,))
    r = shortest_ticket_path(G, "B", "D", blocked={2})
    assert r.routes[0] in (1, 5) and r.routes[1:] == (3, 4) and r.cost == 13
    assert shortest_ticket_path(G, "A", "D", blocked={4}) is None
    assert shortest_ticket_path(G, "A", "A").cost == 0


def test_shortest_path_is_deterministic():
    usa = load_map("usa")
    first = shortest_ticket_path(board_graph(usa), "Seattle", "Miami")
    for _ in range(3):
        assert shortest_ticket_path(board_graph(usa), "Seattle", "Miami") == first
    H = ticket_graph(tiny_board(), owned={5})
    assert H.edges["A", "B"]["route"] == 5 and H.edges["A", "B"]["length"] == 0


def test_distance_table_is_symmetric_shortest_paths():
    G = board_graph(load_map("usa"))
    cities = ["Boston", "Miami", "Denver", "Seattle"]
    table = distance_table(G, cities)
    for a, b in itertools.product(cities, repeat=2):
        assert table[(a, b)] == table[(b, a)] == shortest_ticket_path(G, a, b).cost


# ----------------------------------------------------------- Steiner trees


def brute_steiner(G, terminals, owned=frozenset()):
    """Cheapest route subset joining the terminals, by trying every subset."""
    edges = [(u, v, d["route"], 0 if d["route"] in owned else d["length"]) for u, v, d in G.edges(data=True)]
    best = None
    for size in range(len(edges) + 1):
        for combo in itertools.combinations(edges, size):
            cost = sum(e[3] for e in combo)
            if best is not None and cost >= best:
                continue
            H = nx.Graph()
            H.add_nodes_from(terminals)
            H.add_edges_from((u, v) for u, v, _, _ in combo)
            if all(nx.has_path(H, terminals[0], t) for t in terminals):
                best = cost
    return best


def random_board(rng, n, m):
    G = nx.MultiGraph()
    G.add_nodes_from(range(n))
    for rid in range(1, m + 1):
        u, v = rng.sample(range(n), 2)
        G.add_edge(u, v, key=rid, route=rid, length=rng.randint(1, 5))
    return G


def test_exact_steiner_matches_brute_force_and_beats_approximations():
    rng = random.Random(11)
    for _ in range(25):
        G = random_board(rng, rng.randint(4, 6), rng.randint(4, 8))
        terms = rng.sample(sorted(G.nodes), rng.randint(2, 4))
        owned = frozenset(r for r in range(1, 9) if rng.random() < 0.25)
        exact = steiner_tree(G, terms, owned=owned)
        brute = brute_steiner(G, terms, owned)
        if brute is None:
            assert exact is None
            continue
        assert exact.cost == brute
        joined = nx.Graph([(u, v) for u, v, d in G.edges(data=True) if d["route"] in exact.routes])
        joined.add_nodes_from(terms)
        assert all(nx.has_path(joined, terms[0], t) for t in terms)
        for method in ("approx", "kou", "mehlhorn"):
            assert steiner_tree(G, terms, owned=owned, method=method).cost >= exact.cost


def test_steiner_tree_on_the_tiny_board_and_errors():
    G = tiny_board()
    t = steiner_tree(G, ["A", "B", "D"])
    assert t.cost == 3 + 2 + 6 and set(t.routes) in ({1, 2, 4}, {5, 2, 4})
    owned = steiner_tree(G, ["A", "B", "D"], owned={3})  # A-C is free: go round by C
    assert (owned.routes, owned.cost, owned.new_routes) == ((2, 3, 4), 2 + 6, (2, 4))
    assert steiner_tree(G, ["A", "D"], blocked={4}) is None
    with pytest.raises(ValueError, match="magic is not a valid choice"):
        steiner_tree(G, ["A", "D"], method="magic")
    with pytest.raises(ValueError, match="unknown cities"):
        steiner_tree(G, ["A", "Z"])
    line = nx.path_graph(20, create_using=nx.MultiGraph)
    nx.set_edge_attributes(line, 1, "length")
    assert steiner_tree(line, list(range(20)), method="approx").cost == 19
    assert steiner_tree(line, list(range(20))).cost == 19  # exact, with no terminal limit


def test_minimum_spanning_routes_agree_with_networkx():
    G = board_graph(load_map("usa"))
    routes, total = minimum_spanning_routes(G)
    simple = nx.Graph()
    for u, v, d in G.edges(data=True):
        if not simple.has_edge(u, v) or d["length"] < simple.edges[u, v]["length"]:
            simple.add_edge(u, v, length=d["length"])
    assert total == nx.minimum_spanning_tree(simple, weight="length").size(weight="length")
    assert len(routes) == G.number_of_nodes() - 1
    assert sorted(routes) == list(routes)


def test_package_reexports_its_public_functions():
    for name in analysis.__all__:
        assert getattr(analysis, name) is not None
    for name in (
        "longest_trail_edges",
        "longest_trail",
        "cut_routes",
        "odd_degree_cities",
        "euler_trail_exists",
        "ticket_graph",
        "shortest_ticket_path",
        "distance_table",
        "steiner_tree",
        "minimum_spanning_routes",
    ):
        assert name in analysis.__all__
