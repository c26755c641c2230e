"""The facts the lessons state, recomputed from the engine.

The prose of notebooks 03, 04 and 09, and their teacher notes in
``docs/teachers/``, states numbers that the notebooks compute.  Each test here
recomputes one group of those facts on its own, with ttr_lab (the board as a
graph, the sample record replayed, exact combinatorics, seeded games), and
checks that the lesson still says them: a change in the engine cannot make a
lesson silently false.  (Notebook 01 checks its prose with hidden ``check``
cells, run by nbval.)  Phrases are compared with whitespace, ``*`` and `````
ignored.

The last tests check the teacher notes' structure, the worksheets' build and
``make lab``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
import statistics
import subprocess
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path

import networkx as nx
import pytest

import ttr_lab
from ttr_lab.analysis import longest_trail, odd_degree_cities, shortest_ticket_path, steiner_forest, steiner_tree
from ttr_lab.analysis.network import route_access
from ttr_lab.analysis.paths import distance_table
from ttr_lab.analysis.trails import cut_routes
from ttr_lab.analysis.trees import minimum_spanning_routes
from ttr_lab.engine.scoring import ticket_status
from ttr_lab.maps import board_graph, routes_graph
from ttr_lab.records import samples

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TEACHERS = ROOT / "docs" / "teachers"
LESSONS = {
    "01": "01-learn-the-rules",
    "03": "03-graph-theory",
    "04": "04-analyse-a-saved-game",
    "09": "09-probability",
}
USA = ttr_lab.load_map("usa")
G = board_graph(USA)
DECK = ttr_lab.find_edition("usa").ticket_deck()
RECORD = samples.load("sample-game")  # the game lessons 03, 04 and 06 read, shipped with ttr_lab
ADA, BOB, CY = 0, 1, 2


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("`", "")).strip()


def _notebook(lesson: str) -> dict:
    return json.loads((NOTEBOOKS / f"{LESSONS[lesson]}.ipynb").read_text(encoding="utf-8"))


def _cells(lesson: str, kind: str) -> list[dict]:
    return [c for c in _notebook(lesson)["cells"] if c["cell_type"] == kind]


def prose(lesson: str) -> str:
    """Every markdown cell of the teacher copy, as one normalised text."""
    return _normal("\n\n".join("".join(c["source"]) for c in _cells(lesson, "markdown")))


def notes(lesson: str) -> str:
    return _normal((TEACHERS / f"{LESSONS[lesson]}.md").read_text(encoding="utf-8"))


def says(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert _normal(phrase) in text, f"the lesson no longer says: {phrase!r}"


def label(a: str, b: str) -> str:
    return f"{a}–{b}"


# ================================================================ 03: the map as a graph


def test_03_degrees_and_the_handshake_lemma():
    assert G.number_of_edges() == 100 and sum(d for _, d in G.degree()) == 200
    assert len(odd_degree_cities(G)) == 22
    says(notes("03"), "The degrees add up to 200, twice the 100 routes; 22 cities have odd degree")


def test_03_ticket_values_against_shortest_paths():
    same, extra = 0, {}
    for tid in DECK:
        t = USA.ticket(tid)
        trains = nx.dijkstra_path_length(G, t.a, t.b, weight="length")
        if trains == t.points:
            same += 1
        else:
            extra[t.label()] = (t.points, trains)
    assert (same, len(DECK)) == (25, 30)
    assert all(points - trains in (1, 2) for points, trains in extra.values())
    assert set(extra) == {
        "Los Angeles-Chicago",
        "Los Angeles-Miami",
        "Los Angeles-New York",
        "Seattle-New York",
        "Sault St. Marie-Oklahoma City",
    }
    long = [name for name, (_, trains) in extra.items() if trains >= 15]
    assert len(long) == 4 and extra["Sault St. Marie-Oklahoma City"] == (9, 8)
    text = prose("03")
    says(
        text,
        "For 25 of the 30 tickets the value is exactly the fewest trains on an empty board, "
        "and the other 5 are worth 1 or 2 points more, never less",
        "Four of the exceptions are long tickets of 15 trains or more",
        "Sault St. Marie–Oklahoma City needs 8 trains and is worth 9",
    )
    assert "prices tickets with Dijkstra" not in text
    says(notes("03"), "For 25 of the 30 tickets the value equals the fewest trains", "(8 trains, 9 points)")


def test_03_spanning_trees_steiner_trees_and_forests():
    mst, trains = minimum_spanning_routes(G)
    assert (len(mst), trains) == (35, 78)
    tickets = [("Calgary", "Phoenix"), ("Chicago", "New Orleans")]
    forest = steiner_forest(G, tickets)
    assert forest.cost == 20 and len(forest.components) == 2
    cities = [c for t in tickets for c in t]
    exact, approx = steiner_tree(G, cities, method="exact"), steiner_tree(G, cities, method="approx")
    assert (exact.cost, approx.cost) == (25, 30)
    distance = distance_table(G, cities)
    closure = nx.Graph()
    closure.add_weighted_edges_from((a, b, d) for (a, b), d in distance.items() if a < b)
    assert nx.minimum_spanning_tree(closure).size(weight="weight") == 30
    other = [("Duluth", "Houston"), ("Sault St. Marie", "Oklahoma City")]
    paths = [shortest_ticket_path(G, a, b).cost for a, b in other]
    other_forest = steiner_forest(G, other)
    assert paths == [8, 8] and other_forest.cost == 11 and len(other_forest.components) == 1
    shared = {USA.find_route(name).id for name in ("Duluth-Omaha", "Kansas City-Omaha", "Kansas City-Oklahoma City")}
    assert shared <= set(other_forest.routes)
    says(
        prose("03"),
        "The forest is two separate paths, 20 trains in all",
        "Joining them into one tree costs 25 trains, 5 more",
        "the approximation of the tree needs 30",
        "The MST of the metric closure costs 30 trains",
        "one piece of 11 trains instead of 8 + 8 = 16",
        "How do I complete all my tickets with as few trains as possible? | a Steiner forest",
    )
    says(
        notes("03"),
        "(35 routes, 78 trains)",
        "is 30 trains (the approximation also finds 30, the exact tree 25, the forest 20)",
        "need 8 + 8 = 16 trains as two shortest paths, but their Steiner forest is one piece of 11",
    )


def test_03_trails_euler_and_the_parity_bound():
    names = ["Seattle-Portland", "Portland-Salt Lake City", "Salt Lake City-Helena", "Helena-Seattle"]
    names += ["Helena-Denver", "Denver-Salt Lake City", "Denver-Kansas City", "Kansas City-Omaha"]
    mine = [USA.find_route(n).id for n in names]
    _, trail = longest_trail(routes_graph(USA, mine))
    assert sorted(set(mine) - set(trail)) == [52] and USA.route(52).label() == "Helena-Salt Lake City"
    length, board_trail = longest_trail(G)
    odd = len(odd_degree_cities(G))
    assert (length, int(G.size(weight="length")), len(board_trail)) == (285, 309, 89)
    assert (odd, (odd - 2) // 2, G.number_of_edges() - len(board_trail)) == (22, 10, 11)
    text = prose("03")
    says(
        text,
        "every trail on the board must leave out at least (22 − 2) / 2 = 10 routes",
        "That is a lower bound on how many, not a list of particular routes",
        "The longest trail leaves out 11",
        "Finding a longest trail is NP-hard in general",
    )
    assert "can never be part of one trail" not in text
    says(notes("03"), "285 of the 309 trains, 89 of the 100 routes", "the longest trail leaves out 11")


def _capacity_graph():
    D = nx.Graph()
    for u, v in G.edges():
        if D.has_edge(u, v):
            D[u][v]["capacity"] += 1
        else:
            D.add_edge(u, v, capacity=1)
    return D


def test_03_minimum_cuts_and_mengers_theorem():
    # networkx merges parallel edges of a MultiGraph: a double route is one edge (the 2-3 player rule)
    pair = nx.MultiGraph([("A", "B"), ("A", "B")])
    assert len(nx.minimum_edge_cut(pair, "A", "B")) == 1 and len(list(nx.edge_disjoint_paths(pair, "A", "B"))) == 1
    assert len(G["Vancouver"]["Seattle"]) == 2 and G.degree("Vancouver") == 3
    D = _capacity_graph()
    assert len(nx.minimum_edge_cut(G, "Vancouver", "Montréal")) == 2
    assert len(list(nx.edge_disjoint_paths(G, "Vancouver", "Montréal"))) == 2  # Menger
    assert nx.minimum_cut_value(D, "Vancouver", "Montréal") == 3
    assert len(G["Vancouver"]) == 2 and len(G["Boston"]) == 2
    assert (G.degree("Vancouver"), G.degree("Boston"), G.degree("Miami"), len(G["Miami"])) == (3, 4, 3, 3)
    sizes = {}
    for tid in DECK:
        t = USA.ticket(tid)
        sizes[t.label()] = (len(nx.minimum_edge_cut(G, t.a, t.b)), nx.minimum_cut_value(D, t.a, t.b))
    easiest = {name for name, (few, _) in sizes.items() if few == min(f for f, _ in sizes.values())}
    assert min(f for f, _ in sizes.values()) == 2
    assert easiest == {"Boston-Miami", "Vancouver-Montréal", "Vancouver-Santa Fe"}
    assert all(sizes[name][1] == 3 for name in easiest) and min(m for _, m in sizes.values()) == 3
    hardest = max(sizes, key=lambda name: sizes[name])
    assert hardest == "Denver-Pittsburgh" and sizes[hardest] == (7, 9)
    top = sorted(G.nodes, key=lambda c: -G.degree(c))[:2]
    assert set(top) == {"Denver", "Pittsburgh"}
    says(
        prose("03"),
        "Two claims cut it: Vancouver has only two neighbours, Calgary and Seattle",
        "Vancouver–Seattle is a double route (routes 99 and 100)",
        "Three tickets can be cut with just 2 claims in a 2- or 3-player game",
        "Boston–Miami (Boston has two, Montréal and New York)",
        "so Vancouver's side costs 3, Boston's 4, and Boston–Miami is cut around Miami's three routes instead",
        "No ticket can then be cut with fewer than 3",
        "The hardest ticket to cut is Denver–Pittsburgh: 7 claims (9 with 4 or 5 players)",
    )
    says(
        notes("03"),
        "Boston–Miami, Vancouver–Montréal and Vancouver–Santa Fe can be cut with 2 claims",
        "Denver–Pittsburgh: 7 claims, 9 with 4 or 5 players",
    )


def test_03_bobs_bridges_after_120_plies():
    position = RECORD.replay(upto=120)
    owners = position.route_owners()
    closed = {rid for rid, owner in owners.items() if owner != BOB}
    closed |= {USA.route(rid).double_of for rid in owners if USA.route(rid).double_of not in (None, *owners)}
    _, blocked = route_access(position, BOB)
    assert closed == set(blocked)
    open_to_bob = routes_graph(USA, [r.id for r in USA.routes if r.id not in closed])
    bridges = cut_routes(open_to_bob)
    assert bridges == [28, 46, 77]
    walled = {"Dallas", "Houston", "Saint Louis"}
    for rid in bridges:
        without = open_to_bob.copy()
        route = USA.route(rid)
        without.remove_edge(route.a, route.b, key=rid)
        assert min(nx.connected_components(without), key=len) <= walled
    bob_cities = {c for t in position.tickets(BOB) for c in t.cities}
    assert not walled & bob_cities
    walls = Counter(owners[r.id] for r in USA.routes if set(r.ends) & walled and r.id in owners)
    assert walls[ADA] > sum(walls.values()) / 2  # "mostly by Ada's routes"
    says(prose("03"), "Dallas, Houston and Saint Louis are almost walled in, mostly by Ada's routes")


def test_03_centrality():
    simple = nx.Graph()
    for u, v, length in G.edges(data="length"):
        if not simple.has_edge(u, v) or simple[u][v]["length"] > length:
            simple.add_edge(u, v, length=length)
    weighted = nx.betweenness_centrality(simple, weight="length")
    hops = nx.betweenness_centrality(simple, weight=None)
    assert sorted(weighted, key=lambda c: -weighted[c])[:2] == ["Saint Louis", "Kansas City"]
    assert sorted(hops, key=lambda c: -hops[c])[:3] == ["Helena", "Denver", "Pittsburgh"]
    says(notes("03"), "Without weights Helena, Denver and Pittsburgh lead")


# ================================================================ 04: the sample game


def closed_for(game, seat) -> set[int]:
    return set(route_access(game, seat)[1])


def needs(game, seat):
    """Per ticket of ``seat``: the cheapest completion (a TicketPath or None)."""
    owned, blocked = route_access(game, seat)
    return {t.label(): shortest_ticket_path(G, t.a, t.b, owned=owned, blocked=blocked) for t in game.tickets(seat)}


def forest_cost(game, seat, extra_blocked=()):
    owned, blocked = route_access(game, seat)
    f = steiner_forest(
        G, [t.cities for t in game.tickets(seat)], owned=owned, blocked=set(blocked) | set(extra_blocked)
    )
    return None if f is None else f.cost


def claims_to_cut(game, seat, a, b):
    """Opponent claims that cut a from b (a minimum cut; a double route is one claim with 3 players)."""
    owned, blocked = route_access(game, seat)
    H = nx.Graph()
    for r in USA.routes:
        if r.id in blocked:
            continue
        if r.id in owned:
            H.add_edge(r.a, r.b)  # no capacity: networkx's "infinite", an owned route cannot be taken
            H[r.a][r.b].pop("capacity", None)
        elif not H.has_edge(r.a, r.b):
            H.add_edge(r.a, r.b, capacity=1)
    return nx.minimum_cut_value(H, a, b)


LAM, LANY = "Los Angeles-Miami", "Los Angeles-New York"


def test_04_the_position_after_120_plies():
    p = RECORD.replay(upto=120)
    assert p.player_names == ["Ada", "Bob", "Cy"] or tuple(p.player_names) == ("Ada", "Bob", "Cy")
    ada = needs(p, ADA)
    assert (ada[LAM].cost, ada[LANY].cost, p.pieces(ADA)) == (12, 6, 25)
    assert 47 in ada[LAM].new_routes and 47 in ada[LANY].new_routes
    assert (USA.route(47).label(), USA.route(47).length, USA.route(47).color) == ("El Paso-Los Angeles", 6, "black")
    assert p.hand(ADA).get("black", 0) == 0 and p.hand(ADA).get("loco", 0) == 0
    open_bob = [path.cost for path in needs(p, BOB).values() if path.cost]
    open_cy = [path.cost for path in needs(p, CY).values() if path.cost]
    assert open_bob == [4] and open_cy == [4]
    trees = []
    for seat in (ADA, BOB, CY):
        owned, blocked = route_access(p, seat)
        cities = [c for t in p.tickets(seat) for c in t.cities]
        trees.append(steiner_tree(G, cities, owned=owned, blocked=blocked).cost)
    assert [forest_cost(p, s) for s in (ADA, BOB, CY)] == [12, 4, 4] and trees == [12, 13, 10]
    # without El Paso-Los Angeles
    owned, blocked = route_access(p, ADA)
    detour = {
        t.label(): shortest_ticket_path(G, t.a, t.b, owned=owned, blocked=set(blocked) | {47}).cost
        for t in p.tickets(ADA)
    }
    assert detour == {LAM: 18, LANY: 12} and forest_cost(p, ADA, {47}) == 18
    says(
        prose("04"),
        "Bob and Cy need only 4 more trains each",
        "joining them into one network would cost 13 and 10 trains",
        "so her forest is one piece and the same as the tree: 12 trains",
        "both tickets need only 12 of Ada's 25 trains",
        "El Paso–Los Angeles (six black spaces), and Ada holds no black card at all",
        "for 18 trains",
    )
    says(
        notes("04"),
        "Ada 12 (one piece), Bob 4, Cy 4; a single Steiner tree would cost Ada 12, Bob 13 and Cy 10",
        "for 12 (New York) and 18 (Miami) trains, 18 together",
        "so together they need 12 of her 25 trains",
    )


def _plies(upto_from=120):
    """(ply, seat, move) for every move after ``upto_from``, with the game before it."""
    game = RECORD.replay(upto=upto_from)
    for ply, text in enumerate(RECORD.moves[upto_from:], upto_from + 1):
        seat = game.current_player
        move = ttr_lab.parse_move(text)
        yield ply, seat, move, game
        game.play(move)


def test_04_what_happened_in_the_next_plies():
    claims = {}
    for ply, seat, move, game in _plies():
        if isinstance(move, ttr_lab.ClaimRoute):
            claims[ply] = (seat, move.route)
    black = [game.hand(ADA).get("black", 0) for _, _, _, game in _plies(0)]  # after 0, 1, ... plies
    black.append(RECORD.replay().hand(ADA).get("black", 0))
    assert max(black[120:139]) <= 1  # from ply 120 to ply 138
    assert max(black) == 2  # in the whole game
    assert claims[123] == (CY, 31) and claims[131] == (BOB, 75)
    assert claims[135] == (BOB, 71) and claims[138] == (BOB, 47)
    before, after = RECORD.replay(upto=130), RECORD.replay(upto=131)
    assert not all(t.completed for t in ticket_status(before, BOB))
    assert all(t.completed for t in ticket_status(after, BOB))
    bob_paths = {r for t in ticket_status(RECORD.replay(), BOB) for r in t.path}
    assert not {47, 71} & bob_paths
    says(
        prose("04"),
        "Cy and Bob each claimed their suggested route within a few turns (plies 123 and 131)",
        "From ply 120 to ply 138 Ada never held more than one black card (two at most in the whole game; "
        "the route has six black spaces), and at ply 138 Bob claimed El Paso–Los Angeles",
        "at ply 135 he had already taken Miami–New Orleans",
        "(both were complete from ply 131)",
    )
    says(notes("04"), "from ply 120 to ply 138 Ada never held more than one black card (two at most in the whole game)")


def test_04_el_paso_los_angeles_was_not_a_bridge():
    p137, p138 = RECORD.replay(upto=137), RECORD.replay(upto=138)
    assert RECORD.moves[137].startswith("claim 47 ") and p138.route_owner(47) == BOB
    la = "Los Angeles"
    assert claims_to_cut(p137, ADA, la, "New York") == 3 and claims_to_cut(p137, ADA, la, "Miami") == 3
    ada = needs(p138, ADA)
    assert (ada[LANY].cost, ada[LAM].cost, forest_cost(p138, ADA), p138.pieces(ADA)) == (12, 15, 15, 20)
    through = {c for path in ada.values() for c in path.cities}
    assert {"Las Vegas", "Salt Lake City", "Denver"} <= through
    text = prose("04")
    says(
        text,
        "It was not a bridge.",
        "Right after Bob's claim at ply 138, Ada could still complete Los Angeles–New York for 12 trains "
        "and Los Angeles–Miami for 15 (15 for both together, through Las Vegas, Salt Lake City and Denver), "
        "and she had 20 trains",
        "Before it, opponents needed 3 claims to cut either ticket",
    )
    assert "like the bridges" not in text and "like the *bridges*" not in text
    says(notes("04"), "for 12 trains and Los Angeles–Miami for 15 (15 together) with her 20 trains")


def test_04_the_rest_of_adas_story():
    ada_claims = {}
    drawing_turns = 0
    for ply, seat, move, game in _plies():
        if seat == ADA and isinstance(move, ttr_lab.ClaimRoute):
            ada_claims[ply] = USA.route(move.route).label()
        if 148 < ply < 160 and seat == ADA and game.phase == ttr_lab.Phase.TURN:
            assert not isinstance(move, ttr_lab.ClaimRoute)
            drawing_turns += 1
    assert drawing_turns == 3
    assert [ada_claims[p] for p in (140, 143, 146)] == [
        "Denver-Kansas City",
        "Las Vegas-Los Angeles",
        "Nashville-Saint Louis",
    ]
    p146, p147, p148 = (RECORD.replay(upto=n) for n in (146, 147, 148))
    assert (needs(p146, ADA)[LAM].cost, needs(p146, ADA)[LANY].cost) == (7, 6)
    assert RECORD.moves[146].startswith("claim 70 ") and USA.route(70).label() == "Los Angeles-San Francisco"
    la = "Los Angeles"
    assert claims_to_cut(p146, ADA, la, "New York") == 2 and claims_to_cut(p147, ADA, la, "Miami") == 1
    assert claims_to_cut(p147, ADA, la, "New York") == 1
    lv_slc = USA.find_route("Las Vegas-Salt Lake City")
    for ticket in (LAM, LANY):  # that one route cuts both
        a, b = ticket.split("-")
        G147 = routes_graph(USA, [r.id for r in USA.routes if r.id not in closed_for(p147, ADA) | {lv_slc.id}])
        assert not nx.has_path(G147, a, b)
    assert RECORD.moves[147].startswith("claim 3 ") and USA.route(3).length == 1 and p148.route_owner(3) == CY
    assert needs(p148, ADA)[LAM].cost == 14
    # Miami out of reach from ply 148: it needs more trains than Ada has left (they only go down)
    assert needs(p147, ADA)[LAM].cost <= p147.pieces(ADA)
    for _, _, _, game in _plies(148):
        if game.ply < 160:
            assert needs(game, ADA)[LAM].cost > game.pieces(ADA) == 12, game.ply
    p159, p160 = RECORD.replay(upto=159), RECORD.replay(upto=160)
    assert RECORD.moves[159].startswith("claim 17 ") and USA.route(17).label() == "Charleston-Raleigh"
    assert needs(p159, ADA)[LAM] is not None and needs(p160, ADA)[LAM] is None
    assert p159.final_turns_left is None and p160.final_turns_left is not None and p160.pieces(BOB) == 2
    assert len(needs(p160, ADA)[LANY].new_routes) == 2
    ada_turns_left = sum(1 for ply, seat, move, game in _plies(160) if seat == ADA and game.phase == ttr_lab.Phase.TURN)
    assert ada_turns_left == 1 and ada_claims[162] == "Denver-Salt Lake City"
    end = RECORD.replay()
    assert end.is_over
    last = needs(end, ADA)
    assert last[LAM] is None and last[LANY].new_routes == (lv_slc.id,)
    assert (lv_slc.length, lv_slc.color) == (3, "orange")
    assert end.pieces(ADA) == 9 and end.hand(ADA).get("orange", 0) == 2 and end.hand(ADA).get("loco", 0) == 0
    says(
        prose("04"),
        "Denver–Kansas City, Las Vegas–Los Angeles and Nashville–Saint Louis (plies 140 to 146) brought Miami down "
        "to 7 more trains and New York to 6",
        "At ply 147 Bob's Los Angeles–San Francisco left a single route, Las Vegas–Salt Lake City, that would have cut both tickets",
        "Then Cy claimed Atlanta–Nashville, a single train (ply 148), and Miami needed 14 trains: Ada had 12, "
        "so from ply 148 Los Angeles–Miami was out of reach, whatever cards she drew",
        "Ada spent her next three turns drawing cards, and Bob's Charleston–Raleigh (ply 160) closed the last path "
        "to Miami",
        "The same claim left Bob with 2 trains and started the last round: New York still needed two routes, "
        "and Ada had one turn",
        "at the end Los Angeles–New York needed only Las Vegas–Salt Lake City (3 orange).  She had 9 trains for it, "
        "but 2 orange cards and no locomotive",
    )
    says(
        notes("04"),
        "Cy's Atlanta–Nashville (ply 148) raised Miami from 7 to 14 trains, and Ada had 12: from ply 148 Miami was "
        "out of reach",
        "Bob's Charleston–Raleigh (ply 160) closed the last path to Miami",
        "(3 orange): Ada had 9 trains, but 2 orange cards and no locomotive",
    )
    assert "cut Miami off" not in prose("04") and "cut Miami off" not in notes("04")  # it was out of reach before


def test_04_how_it_ended():
    end = RECORD.replay()
    out = end.outcome()
    assert list(out.scores) == [22, 88, 73] and RECORD.result == {"scores": [22, 88, 73], "winners": [1]}
    ada = out.players[ADA]
    assert (ada.route_points, ada.ticket_points, ada.bonus_points) == (53, -41, 10)
    assert ada.longest_path > max(p.longest_path for p in out.players[1:])
    assert 41 / 53 > 0.75
    start = RECORD.replay(upto=0)
    assert [t.label() for t in start.pending_tickets] == ["Portland-Phoenix", LAM, LANY]
    assert RECORD.moves[0] == "keep 14 15" and {USA.ticket(14).label(), USA.ticket(15).label()} == {LAM, LANY}
    says(prose("04"), "Ada's two tickets cost her 41 points, more than three quarters of the 53 her routes earned")
    says(notes("04"), "Ada: routes 53, tickets −41, longest-path bonus 10, total 22 (Bob 88, Cy 73)")


# ================================================================ 09: probability

USA_ED = ttr_lab.find_edition("usa")
DECK_CARDS = {USA_ED.card_types[c].name: n for c, n in USA_ED.deck_composition[0]}
N = sum(DECK_CARDS.values())
Z = 3.29


def p_blind(c: int) -> Fraction:
    return Fraction(12 * c + 14, N)


def p_row(c: int) -> Fraction:
    mine, other = 12 * c, N - 14 - 12 * c
    seen = hit = 0
    for locos in range(3):
        for j in range(6 - locos):
            ways = comb(14, locos) * comb(mine, j) * comb(other, 5 - locos - j)
            seen += ways
            hit += ways if j else 0
    return Fraction(hit, seen)


def expected_turns(k: int, helpful: int = 26) -> Fraction:
    return sum(
        Fraction(-(-n // 2) * comb(n - 1, k - 1) * comb(N - n, helpful - k), comb(N, helpful)) for n in range(k, N + 1)
    )


def ticket_values(variant: str) -> list[int]:
    edition = ttr_lab.find_edition(variant)
    return [edition.map.ticket(t).points for t in edition.ticket_deck()]


def expected_min(values: list[int], k: int = 3) -> Fraction:
    return sum(Fraction(comb(sum(v >= x for v in values), k), comb(len(values), k)) for x in range(1, max(values) + 1))


def p_min_at_most(values: list[int], limit: int, k: int = 3) -> Fraction:
    return 1 - Fraction(comb(sum(v > limit for v in values), k), comb(len(values), k))


def test_09_closed_forms():
    assert DECK_CARDS == {
        **{c: 12 for c in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black")},
        "loco": 14,
    }
    assert N == 110 and p_blind(1) == Fraction(26, 110) and f"{float(p_blind(1)):.1%}" == "23.6%"
    assert f"{float(p_row(1)):.1%}" == "44.8%"
    assert min(c for c in range(1, 9) if 2 * p_blind(c) > 1) == 4
    assert round(float(expected_turns(6)), 2) == 12.58 and f"{float(expected_turns(6)):.1f}" == "12.6"
    at_least_one = 1 - Fraction(comb(84, 2), comb(110, 2))
    assert at_least_one == Fraction(2509, 5995) and round(float(at_least_one), 3) == 0.419
    assert round(1 - (84 / 110) ** 2, 3) == 0.417
    assert round(float(Fraction(comb(84, 4), comb(110, 4))), 3) == 0.334
    text = prose("09")
    says(
        text,
        "a blind card helps about one time in four (26 of the 110 cards: 23.6%)",
        "the row shows a card of it 44.8% of the time, while a blind card helps 23.6% of the time",
        "that is from 4 useful colours on",
        "Six black cards from nothing take about 12.6 turns on average",
        "approx 0.419$.  That is slightly more than $1 - (84/110)^2 \\approx 0.417$",
        "\\approx 0.334$, about one time in three",
    )
    says(
        notes("09"),
        "26/110 ≈ 23.6% for one colour",
        "44.8% of the time",
        "from 4 useful colours on",
        "take 12.58 turns on average (12.6)",
        "2509/5995 ≈ 0.419 (0.417 with replacement)",
        "≈ 0.334",
    )


def test_09_the_ticket_figures_of_the_literature():
    mega, original = ticket_values("mega"), ticket_values("usa")
    assert len(mega) == 69 and len(original) == 30 and min(original) == 4 and min(mega) == 2
    e3, p3 = expected_min(mega), p_min_at_most(mega, 10)
    assert e3 == Fraction(368353, 52394) and f"{float(e3):.2f}" == "7.03"
    assert p3 == Fraction(23469, 26197) and f"{float(p3):.1%}" == "89.6%"
    e4, p4 = expected_min(mega, 4), p_min_at_most(mega, 10, 4)
    assert f"{float(e4):.2f}" == "6.35" and f"{float(p4):.1%}" == "95.3%"
    eu, pu = expected_min(original), p_min_at_most(original, 10)
    assert eu == Fraction(7947, 1015) and f"{float(eu):.2f}" == "7.83" and pu == Fraction(25, 29)
    assert f"{float(pu):.1%}" == "86.2%" and eu > e3 and pu < p3
    game = ttr_lab.new_game("mega", players=2, seed=0)
    game.play(game.legal_moves[0])
    game.play(game.legal_moves[0])
    game.play("tickets")
    assert len(game.pending_tickets) == 4  # a Mega Game draw is four tickets (B2)
    says(
        prose("09"),
        "Both figures are right: 7.03 and 89.6%",
        "a draw during play is four tickets",
        "With four tickets the expected minimum drops to 6.35, and 95.3% of draws offer a ticket worth 10 or less",
        "the expected minimum is 7.83, and 86.2% of draws offer a ticket of 10 or less",
    )
    says(
        notes("09"),
        "E[min of 3] = 368353/52394 ≈ 7.03 and P(min ≤ 10) = 23469/26197 ≈ 89.6%",
        "E[min of 4] ≈ 6.35, P(min ≤ 10) ≈ 95.3%",
        "E[min of 3] = 7947/1015 ≈ 7.83, P(min ≤ 10) = 25/29 ≈ 86.2%",
    )


def test_09_adas_cards_in_the_sample_game():
    turns_after_120 = sum(1 for _, seat, _, game in _plies() if seat == ADA and game.phase == ttr_lab.Phase.TURN)
    assert turns_after_120 == 11 and RECORD.replay(upto=120).hand(ADA).get("black", 0) == 0
    blind = []
    for ply, seat, move, game in _plies(148):
        if seat == ADA and isinstance(move, ttr_lab.DrawBlind):
            before = game.hand(ADA)
            game.play(move)
            after = game.hand(ADA)
            game.pop()
            blind += [c for c in after if after[c] != before.get(c, 0)]
    assert len(blind) == 4 and not {"orange", "loco"} & set(blind)
    says(prose("09"), "she held none, and she had only 11 turns left in the whole game")
    says(prose("09"), "In the game she drew four blind cards in two turns, and none was orange or a locomotive")
    says(notes("09"), "held none and had 11 turns left")


BLIND, TICKETS = ttr_lab.parse_move("blind"), ttr_lab.parse_move("tickets")


def _card_game(seed: int):
    """The notebook's experiment, written again: Ada draws blind, Bob draws tickets, until 6 black-or-loco."""
    game = ttr_lab.new_game("usa", players=["Ada", "Bob"], seed=seed)
    row = game.row
    game.play(game.legal_moves[0])
    game.play(game.legal_moves[0])
    cards, bob = [], None
    while sum(c in ("black", "loco") for c in cards) < 6:
        for _ in range(2):
            before = game.hand(ADA)
            game.play(BLIND)
            after = game.hand(ADA)
            cards += [c for c, n in after.items() if n > before.get(c, 0)]
        if game.why_illegal(TICKETS) is None:
            game.play(TICKETS)
            bob = bob or [t.points for t in game.pending_tickets]
            game.play(ttr_lab.KeepTickets((game.pending_tickets[0].id,)))
        else:
            game.play(BLIND)
            game.play(BLIND)
    return row, cards, bob


@pytest.fixture(scope="module")
def simulations():
    games = [_card_game(seed) for seed in range(5000)]
    mega = []
    for seed in range(6000):
        game = ttr_lab.new_game("mega", players=["Ada", "Bob"], seed=seed)
        game.play(game.legal_moves[0])
        game.play(game.legal_moves[0])
        game.play(TICKETS)
        mega.append([t.points for t in game.pending_tickets])
    return games, mega


def _agrees(exact, values) -> bool:
    half = Z * statistics.stdev(values) / math.sqrt(len(values))
    return abs(statistics.fmean(values) - float(exact)) <= half


@pytest.mark.slow  # about 20 s of seeded games (make test runs it; so does nbval, in the notebook)
def test_09_every_closed_form_agrees_with_the_engines_games(simulations):
    games, mega = simulations
    colours = ["black", "orange", "red", "blue"]
    rows = [row for row, _, _ in games]
    drawn = [cards for _, cards, _ in games]
    assert max(row.count("loco") for row in rows) <= 2
    results = []
    for c in range(1, 5):
        useful = set(colours[:c]) | {"loco"}
        results.append(_agrees(p_blind(c), [d[0] in useful for d in drawn]))
        results.append(_agrees(p_row(c), [any(x in colours[:c] for x in r) for r in rows]))
        results.append(_agrees(2 * p_blind(c), [(d[0] in useful) + (d[1] in useful) for d in drawn]))

    def turn_of(cards, k):
        found = 0
        for n, card in enumerate(cards, 1):
            found += card in ("black", "loco")
            if found == k:
                return -(-n // 2)

    results += [_agrees(expected_turns(k), [turn_of(d, k) for d in drawn]) for k in range(1, 7)]
    orange = {"orange", "loco"}
    results.append(_agrees(1 - Fraction(comb(84, 2), comb(110, 2)), [bool(orange & set(d[:2])) for d in drawn]))
    results.append(_agrees(Fraction(comb(84, 4), comb(110, 4)), [not orange & set(d[:4]) for d in drawn]))
    values = ticket_values("mega")
    results.append(_agrees(expected_min(values), [min(d[:3]) for d in mega]))
    results.append(_agrees(p_min_at_most(values, 10), [min(d[:3]) <= 10 for d in mega]))
    results.append(_agrees(expected_min(values, 4), [min(d) for d in mega]))
    results.append(_agrees(p_min_at_most(values, 10, 4), [min(d) <= 10 for d in mega]))
    original = ticket_values("usa")
    bob = [b for _, _, b in games]
    results.append(_agrees(expected_min(original), [min(b) for b in bob]))
    results.append(_agrees(p_min_at_most(original, 10), [min(b) <= 10 for b in bob]))
    assert len(results) == 26 and all(results)
    # the notebook counts the same checks: 18 in the lessons, 8 in the solutions
    lines = Counter()
    for cell in _cells("09", "code"):
        text = "".join(
            o.get("text", "") if isinstance(o.get("text", ""), str) else "".join(o["text"]) for o in cell["outputs"]
        )
        lines["solution" if "solution" in cell["metadata"].get("tags", []) else "lesson"] += text.count(" exact ")
    assert (lines["lesson"], lines["solution"]) == (18, 8)
    assert round(1 - 0.99**26, 2) == 0.23 and round(1 - 0.999**26, 3) == 0.026
    says(
        prose("09"),
        "This notebook makes 26 such checks (18 in the lessons, 8 more in the solutions)",
        "1 - 0.99^{26} \\approx 23\\%$",
        "1 - 0.999^{26} \\approx 2.6\\%$",
    )
    says(notes("09"), "26 checks in the teacher copy (18 in a student copy), all within their 99.9% interval")


# ================================================================ teacher notes, worksheets, make lab


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_teacher_notes_have_objectives_a_timed_plan_and_a_worksheet(lesson):
    name = LESSONS[lesson]
    text = (TEACHERS / f"{name}.md").read_text(encoding="utf-8")
    for heading in ("## Learning objectives", "## Prerequisites", "## Answers"):
        assert heading in text, (name, heading)
    minutes = int(re.search(r"^## Plan \((\d+) minutes\)", text, re.M).group(1))
    assert 45 <= minutes <= 60
    ends = [int(m) for m in re.findall(r"^\| \d+–(\d+) \|", text, re.M)]
    assert ends and ends == sorted(ends) and ends[-1] == minutes, "the plan's timings end at the lesson's length"
    assert f"notebooks/{name}.ipynb" in text and f"notebooks/student/{name}.ipynb" in text
    worksheet = TEACHERS / f"{name}-worksheet.md"
    assert worksheet.is_file() and f"({worksheet.name})" in text
    assert (NOTEBOOKS / f"{name}.ipynb").is_file() and (NOTEBOOKS / "student" / f"{name}.ipynb").is_file()
    index = (TEACHERS / "README.md").read_text(encoding="utf-8")
    assert f"({name}.md)" in index and f"({worksheet.name})" in index


def _worksheet_tool():
    spec = importlib.util.spec_from_file_location("make_worksheets", ROOT / "tools" / "make_worksheets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_worksheets_build_as_printable_html(tmp_path):
    pytest.importorskip("nbconvert")
    sheets = sorted(TEACHERS.glob("*-worksheet.md"))
    assert [s.name for s in sheets] == [f"{name}-worksheet.md" for name in sorted(LESSONS.values())]
    assert _worksheet_tool().main(["--html-only", "--out", str(tmp_path), *map(str, sheets)]) == 0
    for sheet in sheets:
        page = (tmp_path / f"{sheet.stem}.html").read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "<table>" in page and 'class="answer' in page
        assert "$" not in sheet.read_text(encoding="utf-8"), "no TeX in a worksheet: it prints as written"


def test_make_lab_sets_up_every_lesson_and_opens_notebook_01_itself(tmp_path):
    """make lab installs [lab] and [sim] (lessons 06 and 07 need pandas, tqdm, dask), writes the lab
    settings (no news pop-up, no autosave) and serves the repository root with notebook 01 as the
    address it prints and opens (issue 19 C1: it was the Launcher, /lab?token=...)."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"  # a venv not made yet: every step is shown
    done = subprocess.run(
        [make, "-n", "lab", "worksheets", f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.replace("\\\n", " ").splitlines()  # a recipe line continued with a backslash is one
    assert any('pip install --quiet -e ".[lab,sim]"' in line for line in lines), lines
    assert any("binder/postBuild" in line and "NB_PYTHON_PREFIX=" in line for line in lines)
    assert any('"@jupyterlab/docmanager-extension:plugin"] = {"autosave": False}' in line for line in lines)
    lab = [line for line in lines if "jupyter lab" in line]
    assert len(lab) == 1, lab
    assert "--ServerApp.root_dir=. " in lab[0]
    assert "--LabApp.default_url=/lab/tree/notebooks/01-learn-the-rules.ipynb" in lab[0]
    assert any("tools/make_worksheets.py" in line for line in lines)
