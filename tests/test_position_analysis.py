"""Position analysis: the Steiner forest everywhere (ticket_network,
next_claims) and the card-aware cost (ttr_lab.analysis.card_plans)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.analysis import steiner_forest, steiner_tree
from ttr_lab.analysis.card_plans import network_cards, plan_cards, ticket_cards
from ttr_lab.analysis.network import next_claims, route_access, ticket_network, ticket_paths
from ttr_lab.editions import find_edition
from ttr_lab.maps import board_graph

from .helpers import arrange, new_usa, random_game

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mid_game(edition: str, seed: int, players: int = 3, plies: int = 60) -> ttr_lab.GameState:
    return random_game(edition, seed, players, plies)


# ------------------------------------------------------------------ the forest everywhere
def test_ticket_network_is_the_exact_forest_by_default_and_the_tree_on_request():
    g = new_usa(players=2, seed=1)
    G = board_graph(g.map)
    owned, blocked = route_access(g, 0)
    groups = [t.cities for t in g.tickets(0)]
    forest = ticket_network(g, 0)
    assert forest == steiner_forest(G, groups, owned=owned, blocked=blocked)
    tree = ticket_network(g, 0, kind="tree")
    assert tree == steiner_tree(G, [c for grp in groups for c in grp], owned=owned, blocked=blocked)
    assert forest.cost <= tree.cost


def test_many_cities_are_solved_exactly_no_approximation_switch():
    """Mega game hands have more than ten cities: the forest and the tree stay exact."""
    g = new_usa(players=2, seed=4)
    hand, seen = [], set()
    for t in g.map.tickets:  # six tickets, twelve different cities
        if len(hand) < 6 and not seen & set(t.cities):
            hand.append(t)
            seen |= set(t.cities)
    hand = tuple(hand)
    exact = ticket_network(g, 0, kind="tree", tickets=hand)
    assert exact.method == "exact" and len(seen) == 12
    for method in ("approx", "kou", "mehlhorn"):
        assert ticket_network(g, 0, method=method, tickets=hand).cost >= exact.cost
    owned, blocked = route_access(g, 0)
    forest = ticket_network(g, 0, tickets=hand)
    assert forest == steiner_forest(board_graph(g.map), [t.cities for t in hand], owned=owned, blocked=blocked)
    assert forest.cost <= exact.cost


def test_ticket_network_refuses_an_approximate_forest_and_unknown_kinds():
    g = new_usa(players=2, seed=1)
    with pytest.raises(ttr_lab.TtrError, match="forest is solved exactly"):
        ticket_network(g, 0, kind="forest", method="kou")
    with pytest.raises(ttr_lab.TtrError, match="kind is"):
        ticket_network(g, 0, kind="spanning")


def test_views_analyse_their_own_tickets_only():
    g = new_usa(players=3, seed=2)
    v = g.view(1)
    assert ticket_network(v, 1) == ticket_network(g, 1)
    assert next_claims(v, 1) == next_claims(g, 1)
    assert ticket_cards(v, 1) == ticket_cards(g, 1)
    with pytest.raises(ttr_lab.TtrError, match="does not show"):
        ticket_network(v, 0)
    with pytest.raises(ttr_lab.TtrError, match="does not show"):
        network_cards(v, 2)


@SETTINGS
@given(
    edition=st.sampled_from(["usa", "europe", "rails_and_sails", "great_lakes"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 120),
)
def test_forest_bounds_and_next_claims_serve_the_tickets_they_name(edition, seed, plies):
    g = random_game(edition, seed, 3, plies)
    if g.phase.name == "SETUP_TICKETS":
        return
    p = g.current_player
    tickets = g.tickets(p)
    forest = ticket_network(g, p)
    paths = [path for _, path in ticket_paths(g, p) if path is not None]
    if forest is None or not tickets:
        return
    tree = ticket_network(g, p, kind="tree")
    assert tree is None or forest.cost <= tree.cost
    two_city = [path for t, path in ticket_paths(g, p) if not t.is_tour]
    if all(path is not None for path in two_city) and len(two_city) == len(tickets):
        assert max(x.cost for x in paths) <= forest.cost <= sum(x.cost for x in paths)
    _, blocked = route_access(g, p)
    assert not set(forest.routes) & blocked
    claims = next_claims(g, p)
    assert {c.route for c in claims} == set(forest.new_routes)
    ends = {r.id: (r.a, r.b) for r in g.map.routes}
    for c in claims:
        assert c.tickets and c.points == sum(g.map.ticket(t).points for t in c.tickets)
        # without the route, exactly the tickets it names fall apart
        up: dict[str, str] = {}
        for r in forest.routes:
            if r != c.route:
                a, b = find(up, ends[r][0]), find(up, ends[r][1])
                if a != b:
                    up[a] = b
        broken = {t.id for t in tickets if len({find(up, x) for x in t.cities}) > 1}
        assert broken == set(c.tickets)


def find(up: dict[str, str], x: str) -> str:
    while up.get(x, x) != x:
        x = up[x]
    return x


# ------------------------------------------------------------------ card-aware cost
USA = find_edition("usa")


def route_of(ed, **want):
    return next(r for r in ed.map.routes if all(getattr(r, k) == v for k, v in want.items()))


def test_gray_routes_get_the_colours_that_cover_most():
    """Gray 3 and gray 2 with 2 red and 3 blue: blue to the 3, red to the 2."""
    g3 = route_of(USA, color="gray", length=3)
    g2 = route_of(USA, color="gray", length=2)
    p = plan_cards(USA, {"red": 2, "blue": 3}, [g3.id, g2.id])
    by = {r.route: r for r in p.routes}
    assert by[g3.id].color == "blue" and by[g2.id].color == "red"
    assert p.missing == 0 and p.claimable_now == (g3.id, g2.id) and p.turns == 2


def test_one_colour_can_serve_two_gray_routes_and_wilds_fill_the_gaps():
    g2 = [r for r in USA.map.routes if r.color == "gray" and r.length == 2][:2]
    blue5 = route_of(USA, color="blue", length=5)
    p = plan_cards(USA, {"red": 4, "blue": 3, "loco": 1}, [g2[0].id, g2[1].id, blue5.id])
    assert [r.color for r in p.routes] == ["red", "red", "blue"]
    assert p.routes[2].from_hand == (("blue", 3), ("loco", 1)) and p.routes[2].missing == 1
    assert (p.needed, p.covered, p.missing, p.draw_turns, p.turns) == (9, 8, 1, 1, 4)


def test_ferry_locomotive_spaces_take_wilds_only():
    europe = find_edition("europe")
    ferry = route_of(europe, kind="ferry", locomotives=1, length=2)
    p = plan_cards(europe, {"red": 5}, [ferry.id])
    assert p.routes[0].wilds_required == 1 and p.routes[0].missing == 1
    p = plan_cards(europe, {"red": 1, "loco": 1}, [ferry.id])
    assert p.missing == 0 and p.routes[0].from_hand == (("loco", 1), ("red", 1))


def test_tunnels_report_their_expected_extra_cards():
    europe = find_edition("europe")
    tunnel = route_of(europe, kind="tunnel", color="gray")
    p = plan_cards(europe, {"red": 4}, [tunnel.id])
    assert p.tunnel_risk == pytest.approx(3 * (12 + 14) / 110)


def test_rails_and_sails_ships_count_spaces_and_paired_routes_take_pairs():
    rs = find_edition("rails_and_sails")
    ship = route_of(rs, kind="ship", color="red", length=5)
    p = plan_cards(rs, {"red-ship2": 2, "red-ship": 0, "wild": 1}, [ship.id])
    assert p.missing == 0 and p.routes[0].from_hand == (("red-ship2", 2), ("wild", 1))
    p = plan_cards(rs, {"red-ship2": 3}, [ship.id])  # an odd route: the third double covers the last space
    assert p.missing == 0 and p.routes[0].from_hand == (("red-ship2", 3),)
    gray = route_of(rs, kind="ship", color="gray", length=3)
    p = plan_cards(rs, {"red": 3, "white-ship": 1, "pink-ship2": 1}, [gray.id])  # train cards do not pay ships
    assert p.routes[0].color == "pink" and p.missing == 1
    paired = next(r for r in rs.map.routes if r.paired)
    L = paired.length
    hand = {"red": 2, "black": 1, "wild": 1}  # one red pair, black completed by the wild
    p = plan_cards(rs, hand, [paired.id])
    assert p.routes[0].cards == 2 * L and p.routes[0].missing == 2 * L - 4
    # plain train cards are used before anchor cards (harbors need anchors)
    train = route_of(rs, kind="train", color="green", length=2)
    p = plan_cards(rs, {"green": 1, "green-anchor": 2}, [train.id])
    assert p.routes[0].from_hand == (("green", 1), ("green-anchor", 1))


def test_pieces_short_when_the_routes_need_more_trains_than_the_supply():
    long6 = route_of(USA, length=6)
    p = plan_cards(USA, {}, [long6.id], trains=4)
    assert p.pieces_short == 2 and p.missing == 6


def test_arranged_hand_gives_the_cards_and_turns_of_each_ticket():
    g = arrange(new_usa(players=2, seed=1), hands={0: {"green": 2, "yellow": 5, "red": 2, "white": 1}}, rest="deck")
    plans = dict((t.id, p) for t, p in ticket_cards(g, 0))
    duluth = plans[9]  # Duluth-El Paso: gray 2, yellow 5, gray 2, gray 1 -> all in hand
    assert duluth.missing == 0 and duluth.turns == duluth.claims == 4
    net = network_cards(g, 0)
    assert net.claims == len(ticket_network(g, 0).new_routes)
    assert net.missing == net.needed - net.covered >= 0


def brute_missing(hand: dict[str, int], routes) -> int:
    """USA optimum by brute force: every colour for every gray route."""
    colours = list(ttr_lab.engine.cards.USA_COLORS)
    wild = hand.get("loco", 0)
    total = sum(r.length for r in routes)
    grays = [r for r in routes if r.color == "gray"]
    best = 0
    for choice in itertools.product(colours, repeat=len(grays)):
        demand = {c: 0 for c in colours}
        for r in routes:
            if r.color != "gray":
                demand[r.color] += r.length
        for r, c in zip(grays, choice):
            demand[c] += r.length
        best = max(best, sum(min(hand.get(c, 0), demand[c]) for c in colours))
    return max(0, total - best - wild)


@settings(max_examples=60, deadline=None)
@given(
    hand=st.dictionaries(
        st.sampled_from(list(ttr_lab.engine.cards.USA_COLORS) + ["loco"]), st.integers(0, 5), max_size=5
    ),
    picks=st.lists(st.integers(0, 99), min_size=1, max_size=5, unique=True),
)
def test_usa_allocation_is_optimal_against_brute_force(hand, picks):
    grays = [r for r in USA.map.routes if r.color == "gray"]
    others = [r for r in USA.map.routes if r.color != "gray"]
    pool = grays[:20] + others[:20]
    routes = [pool[i % len(pool)] for i in picks]
    routes = list({r.id: r for r in routes}.values())
    p = plan_cards(USA, hand, [r.id for r in routes])
    assert p.missing == brute_missing(hand, routes)
    assert sum(k for r in p.routes for _, k in r.from_hand) == p.covered <= sum(hand.values())
    for r in p.routes:
        route = USA.map.route(r.route)
        colours = {n for n, _ in r.from_hand if n != "loco"}
        assert len(colours) <= 1 and (route.color == "gray" or colours <= {route.color})


def test_unknown_cards_are_refused():
    with pytest.raises(ttr_lab.TtrError, match="unknown card"):
        plan_cards(USA, {"purple": 1}, [1])
