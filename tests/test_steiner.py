"""Exact Steiner forests and trees (ttr_lab.analysis.steiner), checked against
brute force on small random graphs and sub-boards of the real maps, against
the textbook Dreyfus-Wagner on medium cases, and with the search's speed-ups
switched off."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.analysis import SteinerForest, steiner_forest, steiner_tree
from ttr_lab.analysis.paths import ticket_graph
from ttr_lab.analysis.steiner import forest as steiner
from ttr_lab.analysis.steiner import partitions as steiner_partitions
from ttr_lab.analysis.steiner import search as steiner_search
from ttr_lab.analysis.trees import _dreyfus_wagner
from ttr_lab.errors import TtrError
from ttr_lab.maps import board_graph

MAPS = ["usa", "europe", "rails_and_sails_world", "rails_and_sails_great_lakes"]

# ------------------------------------------------------------------ helpers


@contextlib.contextmanager
def search_options(*, upper: bool = True, duals: bool = True):
    """Switch the search's speed-ups (heuristic upper bounds, dual ascent
    bounds) off for a while: the answers must not change."""
    old = steiner_search._UPPER_BOUNDS, steiner_search._DUAL_BOUNDS
    steiner_search._UPPER_BOUNDS, steiner_search._DUAL_BOUNDS = upper, duals
    try:
        yield
    finally:
        steiner_search._UPPER_BOUNDS, steiner_search._DUAL_BOUNDS = old


MODES = [
    dict(upper=True, duals=True),
    dict(upper=False, duals=True),
    dict(upper=True, duals=False),
    dict(upper=False, duals=False),
]


def random_multigraph(rng: random.Random, n: int, m: int) -> nx.MultiGraph:
    G = nx.MultiGraph()
    G.add_nodes_from(range(n))
    for rid in range(1, m + 1):
        u, v = rng.sample(range(n), 2)
        G.add_edge(u, v, key=rid, route=rid, length=rng.randint(1, 6))
    return G


def brute_forest(G: nx.MultiGraph, groups, owned=frozenset(), blocked=frozenset()):
    """Cost of the cheapest set of routes connecting every group (every subset tried)."""
    edges = [
        (u, v, 0 if d["route"] in owned else d["length"]) for u, v, d in G.edges(data=True) if d["route"] not in blocked
    ]
    nodes = list(G.nodes)
    best = None
    for r in range(len(edges) + 1):
        for combo in itertools.combinations(edges, r):
            cost = sum(c for *_, c in combo)
            if best is not None and cost >= best:
                continue
            uf = nx.utils.UnionFind(nodes)
            for u, v, _ in combo:
                uf.union(u, v)
            if all(len({uf[c] for c in g}) <= 1 for g in groups):
                best = cost
    return best


def route_graph(G: nx.MultiGraph, routes) -> nx.Graph:
    H = nx.Graph()
    H.add_nodes_from(G.nodes)
    H.add_edges_from((u, v) for u, v, d in G.edges(data=True) if d["route"] in set(routes))
    return H


def check_forest(G: nx.MultiGraph, groups, f: SteinerForest, owned=frozenset(), blocked=frozenset()) -> None:
    """The answer is self-consistent: its routes connect every group, its
    cost is what its new routes cost, and its components are the pieces."""
    length = {d["route"]: d["length"] for _, _, d in G.edges(data=True)}
    assert f.routes == tuple(sorted(f.routes)) and len(set(f.routes)) == len(f.routes)
    assert not set(f.routes) & set(blocked)
    assert f.new_routes == tuple(r for r in f.routes if r not in owned)
    assert f.cost == sum(length[r] for r in f.new_routes)
    net = route_graph(G, f.routes)
    for g in groups:
        for c in g:
            assert nx.has_path(net, g[0], c), (g, f)
    assert sorted(i for comp in f.components for i in comp) == list(range(len(groups)))
    piece = {c: i for i, comp in enumerate(nx.connected_components(net)) for c in comp}
    for comp in f.components:
        assert comp == tuple(sorted(comp))
        assert len({piece[groups[i][0]] for i in comp if groups[i]}) <= 1
    firsts = [piece[groups[comp[0]][0]] for comp in f.components if groups[comp[0]]]
    assert len(firsts) == len(set(firsts))  # different components are different pieces
    assert f.components == tuple(sorted(f.components))
    # no dead end off the groups' cities
    need = {c for g in groups if len(set(g)) > 1 for c in g}
    sub = net.edge_subgraph(net.edges)
    assert all(sub.degree(v) > 1 or v in need for v in sub.nodes)


def dreyfus_wagner_cost(H: nx.Graph, terms) -> float:
    edges = {tuple(sorted(e, key=str)) for e in _dreyfus_wagner(H, list(terms), "length")}
    return sum(H.edges[e]["length"] for e in edges)


def reference_forest(G: nx.MultiGraph, groups, owned=frozenset(), blocked=frozenset()):
    """The forest as the cheapest partition of the groups into Dreyfus-Wagner trees."""
    H = ticket_graph(G, owned=owned, blocked=blocked)
    gs = [list(dict.fromkeys(g)) for g in groups if len(set(g)) > 1]
    k = len(gs)
    inf = float("inf")
    tree = {}
    for mask in range(1, 1 << k):
        terms = list(dict.fromkeys(c for i in range(k) if mask >> i & 1 for c in gs[i]))
        same = all(nx.has_path(H, terms[0], t) for t in terms)
        tree[mask] = dreyfus_wagner_cost(H, terms) if same else inf
    F = {0: 0}
    for mask in range(1, 1 << k):
        low = mask & -mask
        best, sub = tree[mask], (mask - 1) & mask
        while sub:
            if sub & low:
                best = min(best, F[sub] + F[mask ^ sub])
            sub = (sub - 1) & mask
        F[mask] = best
    out = F[(1 << k) - 1]
    return None if out == inf else out


def random_sub_board(rng: random.Random, name: str, cities: int, max_routes: int) -> nx.MultiGraph:
    """A connected piece of a real board: a few neighbouring cities and (some of) their routes."""
    G = board_graph(ttr_lab.load_map(name))
    start = rng.choice(list(G.nodes))
    chosen = [start]
    while len(chosen) < cities:
        frontier = sorted({w for v in chosen for w in G[v] if w not in chosen}, key=str)
        if not frontier:
            break
        chosen.append(rng.choice(frontier))
    S = nx.MultiGraph(G.subgraph(chosen))
    extra = list(S.edges(keys=True))
    rng.shuffle(extra)
    for u, v, k in extra[max_routes:]:
        S.remove_edge(u, v, k)
    return S


def random_hand(rng: random.Random, name: str, k: int):
    tickets = ttr_lab.load_map(name).tickets
    return [list(t.cities) for t in rng.sample(tickets, k)]


# --------------------------------------------------------- against brute force


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 7), m=st.integers(1, 9), k=st.integers(1, 4))
def test_forest_and_tree_match_brute_force_on_random_graphs(seed, n, m, k):
    rng = random.Random(seed)
    G = random_multigraph(rng, n, m)
    owned = frozenset(r for r in range(1, m + 1) if rng.random() < 0.2)
    blocked = frozenset(r for r in range(1, m + 1) if r not in owned and rng.random() < 0.15)
    groups = [rng.sample(range(n), min(n, rng.choice([1, 2, 2, 2, 3]))) for _ in range(k)]
    expected = brute_forest(G, groups, owned, blocked)
    terms = list(dict.fromkeys(c for g in groups for c in g))
    expected_tree = brute_forest(G, [terms], owned, blocked)
    for mode in MODES:
        with search_options(**mode):
            f = steiner_forest(G, groups, owned=owned, blocked=blocked)
            t = steiner_tree(G, terms, owned=owned, blocked=blocked)
        if expected is None:
            assert f is None
        else:
            assert f is not None and f.cost == expected, mode
            check_forest(G, groups, f, owned, blocked)
        if expected_tree is None:
            assert t is None
        else:
            assert t is not None and t.cost == expected_tree, mode
            net = route_graph(G, t.routes)
            assert all(nx.has_path(net, terms[0], c) for c in terms)
            assert t.method == "exact" and set(t.new_routes) == set(t.routes) - owned


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), name=st.sampled_from(MAPS), k=st.integers(1, 4))
def test_forest_matches_brute_force_on_pieces_of_the_real_boards(seed, name, k):
    rng = random.Random(seed)
    S = random_sub_board(rng, name, rng.randint(4, 8), 10)
    routes = sorted(d["route"] for _, _, d in S.edges(data=True))
    owned = frozenset(r for r in routes if rng.random() < 0.15)
    blocked = frozenset(r for r in routes if r not in owned and rng.random() < 0.1)
    cities = sorted(S.nodes, key=str)
    groups = [rng.sample(cities, min(len(cities), rng.choice([2, 2, 3]))) for _ in range(k)]
    expected = brute_forest(S, groups, owned, blocked)
    for mode in MODES:
        with search_options(**mode):
            f = steiner_forest(S, groups, owned=owned, blocked=blocked)
        if expected is None:
            assert f is None
        else:
            assert f is not None and f.cost == expected, (mode, groups)
            check_forest(S, groups, f, owned, blocked)


# ------------------------------------------------- against Dreyfus-Wagner


@pytest.mark.parametrize("name", MAPS)
def test_tree_equals_dreyfus_wagner_on_the_real_boards(name):
    rng = random.Random(name)
    G = board_graph(ttr_lab.load_map(name))
    routes = [d["route"] for _, _, d in G.edges(data=True)]
    for _ in range(4):
        hand = random_hand(rng, name, 3)
        terms = list(dict.fromkeys(c for g in hand for c in g))[:7]
        owned = set(rng.sample(routes, 4))
        blocked = set(rng.sample([r for r in routes if r not in owned], 8))
        H = ticket_graph(G, owned=owned, blocked=blocked)
        if not all(nx.has_path(H, terms[0], t) for t in terms):
            assert steiner_tree(G, terms, owned=owned, blocked=blocked) is None
            continue
        t = steiner_tree(G, terms, owned=owned, blocked=blocked)
        assert t.cost == dreyfus_wagner_cost(H, terms)
        with search_options(upper=False, duals=False):
            assert steiner_tree(G, terms, owned=owned, blocked=blocked).cost == t.cost


@pytest.mark.parametrize("name", ["usa", "rails_and_sails_world"])
def test_forest_equals_the_cheapest_partition_into_dreyfus_wagner_trees(name):
    """Tickets and (on the World map) tours, with owned and blocked routes."""
    rng = random.Random(name)
    G = board_graph(ttr_lab.load_map(name))
    routes = [d["route"] for _, _, d in G.edges(data=True)]
    for _ in range(3):
        hand = random_hand(rng, name, 3)
        while len({c for g in hand for c in g}) > 8:
            hand = random_hand(rng, name, 3)
        owned = set(rng.sample(routes, 5))
        blocked = set(rng.sample([r for r in routes if r not in owned], 6))
        f = steiner_forest(G, hand, owned=owned, blocked=blocked)
        expected = reference_forest(G, hand, owned, blocked)
        assert (f and f.cost) == expected
        if f is not None:
            check_forest(G, hand, f, owned, blocked)


@pytest.mark.parametrize("name", MAPS)
def test_full_hands_do_not_depend_on_the_speed_ups(name):
    """Eight tickets (tours included): the heuristic upper bounds only prune."""
    rng = random.Random(8 + len(name))
    G = board_graph(ttr_lab.load_map(name))
    routes = [d["route"] for _, _, d in G.edges(data=True)]
    for _ in range(2):
        hand = random_hand(rng, name, 8)
        owned = set(rng.sample(routes, 6))
        f = steiner_forest(G, hand, owned=owned)
        t = steiner_tree(G, [c for g in hand for c in g], owned=owned)
        with search_options(upper=False):
            assert steiner_forest(G, hand, owned=owned).cost == f.cost
            assert steiner_tree(G, [c for g in hand for c in g], owned=owned).cost == t.cost
        check_forest(G, hand, f, owned)
        assert f.cost <= t.cost <= steiner_tree(G, [c for g in hand for c in g], owned=owned, method="approx").cost


# ------------------------------------------------------ the forest's parts


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def test_cheapest_partition_matches_enumeration():
    rng = random.Random(3)
    for k in range(1, 7):
        val = [0] + [rng.randint(1, 40) for _ in range((1 << k) - 1)]
        parts = steiner_partitions._Partitions(val, k)
        for _ in range(4):
            part, cost = parts.best()
            assert sum(part) == (1 << k) - 1 and all(a & b == 0 for a, b in itertools.combinations(part, 2))
            assert cost == sum(val[C] for C in part)
            every = set_partitions(list(range(k)))
            assert cost == min(sum(val[sum(1 << i for i in block)] for block in p) for p in every)
            raised = rng.sample(range(1, 1 << k), min(3, (1 << k) - 1))
            for C in raised:
                val[C] += rng.randint(0, 30)
            parts.raised(raised)


@pytest.mark.parametrize("name", MAPS)
def test_block_bounds_are_lower_bounds_on_the_block_trees(name):
    """Every bound the forest's partition search starts from is at most the
    block's exact tree (a bound too high could hide the optimum)."""
    rng = random.Random(name + "bounds")
    G = board_graph(ttr_lab.load_map(name))
    routes = [d["route"] for _, _, d in G.edges(data=True)]
    for _ in range(3):
        hand = random_hand(rng, name, 5)
        H = ticket_graph(G, owned=set(rng.sample(routes, 4)))
        inst, _ = steiner._Solver(H, hand, "length").reduce()
        for piece in steiner_search._pieces(inst):
            if len(piece) < 2:
                continue
            val = steiner_search._Forest(inst, piece).bounds()
            for C in range(1, 1 << len(piece)):
                cities = [t for j, g in enumerate(piece) if C >> j & 1 for t in g]
                exact, edges = steiner_search._TreeSearch(inst, cities).solve()
                assert edges is not None and inst.cost(edges) == exact
                assert val[C] <= exact, (C, val[C], exact)


# ------------------------------------------------------------- edge cases


def line_board() -> nx.MultiGraph:
    """A-B-C-D with a long A-D route and a parallel B-C route."""
    G = nx.MultiGraph()
    for rid, (u, v, length) in enumerate(
        [("A", "B", 1), ("B", "C", 5), ("C", "D", 1), ("A", "D", 9), ("B", "C", 7)], start=1
    ):
        G.add_edge(u, v, key=rid, route=rid, length=length)
    return G


def test_impossible_forests_are_none():
    G = line_board()
    assert steiner_forest(G, [["A", "D"]], blocked={2, 4, 5}) is None
    assert steiner_forest(G, [["A", "B"], ["C", "A"]], blocked={2, 4, 5}) is None
    assert steiner_forest(G, [["A", "B"], ["C", "D"]], blocked={2, 4, 5}).cost == 2  # each side alone is fine
    G.add_node("E")
    assert steiner_forest(G, [["A", "E"]]) is None
    assert steiner_forest(G, [["E"], ["A", "B"]]).cost == 1
    assert steiner_tree(G, ["A", "E"]) is None
    usa = board_graph(ttr_lab.load_map("usa"))
    miami = [d["route"] for _, _, d in usa.edges("Miami", data=True)]
    assert steiner_forest(usa, [["Boston", "New York"], ["Atlanta", "Miami"]], blocked=miami) is None


def test_unknown_cities_raise_an_error_naming_them():
    G = line_board()
    with pytest.raises(TtrError, match="unknown cities: Atlantis, Lemuria"):
        steiner_forest(G, [["A", "Atlantis"], ["Lemuria"]])
    with pytest.raises(steiner.UnknownCityError) as err:
        steiner_tree(G, ["A", "Atlantis"])
    assert err.value.cities == ("Atlantis",) and isinstance(err.value, ValueError)
    with pytest.raises(TtrError, match="Nowhere"):
        steiner_forest(board_graph(ttr_lab.load_map("usa")), [["Boston", "Nowhere"]])


def test_single_cities_empty_groups_duplicates_and_shared_cities():
    G = line_board()
    f = steiner_forest(G, [["A"], [], ["B", "B", "A"], ["C", "D"]])
    assert f.groups == (("A",), (), ("B", "A"), ("C", "D"))
    assert (f.routes, f.cost) == ((1, 3), 2)
    assert f.components == ((0, 2), (1,), (3,))  # A lies on the A-B piece
    assert steiner_forest(G, []) == SteinerForest((), (), 0, (), (), ())
    # groups sharing a city end up together: A-B and B-C share B
    f = steiner_forest(G, [["A", "B"], ["B", "C"], ["D"]])
    assert (f.routes, f.cost, f.components) == ((1, 2), 6, ((0, 1), (2,)))
    # a tour (three cities) and a ticket inside it
    f = steiner_forest(G, [["A", "C", "D"], ["B", "C"]])
    assert (f.cost, f.components) == (7, ((0, 1),))
    assert f.cities == ("A", "B", "C", "D")


def test_owned_routes_cost_nothing_and_count_as_used():
    G = line_board()
    f = steiner_forest(G, [["A", "D"]], owned={4})
    assert (f.routes, f.cost, f.new_routes) == ((4,), 0, ())
    f = steiner_forest(G, [["A", "C"]], owned={5})  # own the dearer parallel route
    assert (f.routes, f.cost, f.new_routes) == ((1, 5), 1, (1,))
    # an owned network joining the two tickets makes them one piece, for free
    f = steiner_forest(G, [["A", "B"], ["C", "D"]], owned={2})
    assert (f.cost, f.components) == (2, ((0, 1),)) and 2 in f.routes and 2 not in f.new_routes
    # owned routes off the network are not listed, nor owned cycles whole
    assert steiner_forest(G, [["C", "D"]], owned={1}).routes == (3,)
    square = nx.MultiGraph()
    for rid, (u, v) in enumerate(["AB", "BC", "CD", "DA"], start=1):
        square.add_edge(u, v, key=rid, route=rid, length=3)
    f = steiner_forest(square, [["A", "C"]], owned={1, 2, 3, 4})
    assert f.cost == 0 and f.routes in ((1, 2), (3, 4)) and f.new_routes == ()
    check_forest(square, [["A", "C"]], f, {1, 2, 3, 4})


def test_the_result_is_frozen_and_works_on_simple_graphs():
    f = steiner_forest(line_board(), [["A", "D"]])
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.cost = 0
    H = nx.Graph()
    H.add_edge("x", "y", length=2)
    H.add_edge("y", "z", length=2)
    H.add_edge("x", "z", length=5)
    f = steiner_forest(H, [["x", "z"]])
    assert f.cost == 4 and len(f.routes) == 2
    assert steiner_forest(H, [["x", "z"]], weight="length").cost == 4


def test_float_weights():
    G = nx.MultiGraph()
    G.add_edge("A", "B", key=1, route=1, w=0.5)
    G.add_edge("B", "C", key=2, route=2, w=0.25)
    G.add_edge("A", "C", key=3, route=3, w=1.0)
    G.add_edge("C", "D", key=4, route=4, w=0.1)
    f = steiner_forest(G, [["A", "C"], ["D", "B"]], weight="w")
    assert f.routes == (1, 2, 4) and f.cost == pytest.approx(0.85)
    assert steiner_tree(G, ["A", "C", "D"], weight="w").cost == pytest.approx(0.85)


# ------------------------------------------------------- the real boards


def test_usa_forest_is_never_dearer_than_the_tree_and_sometimes_cheaper():
    usa = ttr_lab.load_map("usa")
    G = board_graph(usa)
    rng = random.Random(5)
    for _ in range(20):
        hand = [list(t.cities) for t in rng.sample(usa.tickets, rng.randint(1, 8))]
        f = steiner_forest(G, hand)
        t = steiner_tree(G, [c for g in hand for c in g])
        assert f.cost <= t.cost
        if len(f.components) == 1:
            assert f.cost == t.cost
    # two tickets on opposite coasts: one network would cross the country
    hand = [["Vancouver", "Seattle"], ["Miami", "Atlanta"]]
    f = steiner_forest(G, hand)
    t = steiner_tree(G, ["Vancouver", "Seattle", "Miami", "Atlanta"])
    assert (f.cost, f.components) == (1 + 5, ((0,), (1,)))
    assert t.cost == 23  # Seattle-Helena-Omaha-Kansas City-Saint Louis-Nashville-Atlanta
    # Seattle-New York and Portland-Nashville share most of a network
    hand = [["Seattle", "New York"], ["Portland", "Nashville"]]
    f = steiner_forest(G, hand)
    assert f.components == ((0, 1),)
    assert f.cost == steiner_tree(G, [c for g in hand for c in g]).cost


def test_no_terminal_limit_and_tours():
    """18 cities of World tours in one tree, and as a forest of tours."""
    world = ttr_lab.load_map("rails_and_sails_world")
    G = board_graph(world)
    tours = [list(t.cities) for t in world.tickets if len(t.cities) > 2]
    cities: list[str] = []
    hand = []
    for tour in tours:
        if len(set(cities) | set(tour)) <= 18:
            hand.append(tour)
            cities = list(dict.fromkeys(cities + tour))
    assert len(cities) >= 14
    t = steiner_tree(G, cities)
    f = steiner_forest(G, hand)
    assert f.cost <= t.cost <= steiner_tree(G, cities, method="kou").cost
    check_forest(G, hand, f)
    line = nx.path_graph(20, create_using=nx.MultiGraph)
    nx.set_edge_attributes(line, 1, "length")
    assert steiner_tree(line, list(range(20))).cost == 19
