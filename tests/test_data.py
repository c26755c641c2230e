"""Map files: checksums of every shipped map, and the validator's error messages.

The expected figures below are copied by hand from the project's reference
notes (PROVENANCE.md, "Checksums" sections and cross-checks).  The tests never
read those notes: every number is computed from the shipped ``maps/*.json``
through :func:`ttr_lab.maps.load_map` and compared with the figure written
here, so a silent edit of a map file shows up as a precise failure.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ttr_lab.errors import MapDataError
from ttr_lab.maps import COLORS, ROUTE_KINDS, City, Map, Route, Ticket, available_maps, load_map, map_from_dict

MAPS = ("europe", "rails_and_sails_great_lakes", "rails_and_sails_world", "usa")


# ---------------------------------------------------------------------------
# Expected figures (copied from PROVENANCE.md)
# ---------------------------------------------------------------------------

EXPECTED = {
    "usa": {
        "cities": 36,
        "waypoints": (),
        "harbors": 0,
        "routes": 100,
        "distinct_pairs": 78,
        "links": 78,
        "double_pairs": 22,
        "sum_lengths": 309,
        "by_length": {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9},
        "by_color": {
            "gray": 44,
            **dict.fromkeys(("red", "orange", "yellow", "green", "blue", "pink", "white", "black"), 7),
        },
        "spaces_by_color": {
            "gray": 93,
            **dict.fromkeys(("red", "orange", "yellow", "green", "blue", "pink", "white", "black"), 27),
        },
        "by_kind": {"train": 100},
        "spaces_by_kind": {"train": 309},
        "locomotives": 0,
        "paired": (0, 0),
        "decks": {"base": (30, 349), "1910": (35, 391), "mega": (69, 754), "big_cities": (35, 389)},
    },
    "europe": {
        "cities": 47,
        "waypoints": (),
        "harbors": 0,
        "routes": 101,
        "distinct_pairs": 90,
        "links": 90,
        "double_pairs": 11,
        "sum_lengths": 300,
        "by_length": {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1},
        "by_color": {
            "gray": 37,
            **dict.fromkeys(("red", "orange", "yellow", "green", "blue", "pink", "white", "black"), 8),
        },
        "spaces_by_color": {
            "gray": 122,
            "blue": 23,
            "green": 23,
            **dict.fromkeys(("red", "orange", "yellow", "pink", "white", "black"), 22),
        },
        "by_kind": {"train": 70, "tunnel": 18, "ferry": 13},
        "spaces_by_kind": {"train": 300 - 55 - 41, "tunnel": 55, "ferry": 41},
        "locomotives": 17,
        "paired": (0, 0),
        "decks": {"regular": (40, 321), "long": (6, 123)},
    },
    "rails_and_sails_world": {
        "cities": 47,
        "waypoints": ("Indian Ocean",),
        "harbors": 38,
        "routes": 130,
        "distinct_pairs": 96,
        "links": 96,
        "double_pairs": 34,
        "sum_lengths": 411,
        "by_length": {1: 28, 2: 36, 3: 26, 4: 10, 5: 6, 6: 8, 7: 13, 8: 3},
        "by_color": {"gray": 21, "white": 21, "green": 19, "red": 19, "yellow": 18, "black": 16, "pink": 16},
        "spaces_by_color": {"white": 61, "green": 60, "pink": 59, "black": 58, "gray": 58, "yellow": 58, "red": 57},
        "by_kind": {"train": 71, "ship": 59},
        "spaces_by_kind": {"train": 158, "ship": 253},
        "locomotives": 0,
        "paired": (5, 10),
        "decks": {"world": (57, 772), "world_tour": (8, 141)},
    },
    "rails_and_sails_great_lakes": {
        "cities": 35,
        "waypoints": ("Lake Huron", "Lake Superior"),
        "harbors": 25,
        "routes": 110,
        "distinct_pairs": 80,  # not in PROVENANCE; the 82 links below are
        "links": 82,
        "double_pairs": 28,
        "sum_lengths": 355,
        "by_length": {1: 20, 2: 23, 3: 23, 4: 20, 5: 12, 6: 7, 7: 3, 8: 1, 9: 1},
        "by_color": {"gray": 33, "green": 14, "white": 14, "red": 13, "yellow": 13, "black": 12, "pink": 11},
        "spaces_by_color": None,  # not given in PROVENANCE
        "by_kind": {"train": 52, "ship": 58},
        "spaces_by_kind": {"train": 186, "ship": 169},
        "locomotives": 0,
        "paired": (0, 0),
        "decks": {"great_lakes": (55, 526)},
    },
}

# Rough bounding boxes (lat_min, lat_max, lon_min, lon_max) of the real regions.
REGION = {
    "usa": (24.0, 52.0, -125.0, -66.0),
    "europe": (35.0, 61.0, -10.0, 45.0),
    "rails_and_sails_world": (-60.0, 75.0, -180.0, 180.0),
    "rails_and_sails_great_lakes": (40.0, 50.0, -93.0, -73.0),
}


@pytest.fixture(params=MAPS)
def name(request) -> str:
    return request.param


@pytest.fixture
def m(name) -> Map:
    return load_map(name)


def exp(name: str, key: str):
    value = EXPECTED[name][key]
    if value is None:
        pytest.skip(f"PROVENANCE gives no {key} checksum for {name}")
    return value


def real_cities(m: Map) -> list[City]:
    return [c for c in m.cities if not c.waypoint]


def spaces(routes, key) -> dict:
    out: Counter = Counter()
    for r in routes:
        out[key(r)] += r.length
    return dict(out)


def pts(tickets) -> set[tuple[str, str, int]] | Counter:
    """Multiset of (a, b, points) for two-city tickets."""
    return Counter((t.a, t.b, t.points) for t in tickets)


def graph(m: Map, ship_weight: float = 1.0) -> nx.Graph:
    g = nx.Graph()
    for r in m.routes:
        w = r.length * (ship_weight if r.is_ship else 1.0)
        if not g.has_edge(r.a, r.b) or g[r.a][r.b]["w"] > w:
            g.add_edge(r.a, r.b, w=w)
    return g


def shortest(g: nx.Graph, a: str, b: str) -> float:
    return nx.shortest_path_length(g, a, b, weight="w")


def routes_between(m: Map, a: str, b: str, kind: str | None = None) -> list[Route]:
    return [r for r in m.routes_between(a, b) if kind is None or r.kind == kind]


# ---------------------------------------------------------------------------
# Checksums common to every map
# ---------------------------------------------------------------------------


def test_available_maps():
    assert available_maps() == MAPS


def test_shipped_map_is_cached_and_labelled(name):
    first = load_map(name)
    assert load_map(name) is first
    assert first.id == name
    assert first.source == f"maps/{name}.json"


def test_city_count(name, m):
    assert len(real_cities(m)) == exp(name, "cities")


def test_waypoints(name, m):
    assert tuple(sorted(c.name for c in m.cities if c.waypoint)) == exp(name, "waypoints")
    for c in m.cities:
        if c.waypoint:
            assert not c.harbor, c


def test_harbor_count(name, m):
    assert sum(c.harbor for c in m.cities) == exp(name, "harbors")


def test_route_count(name, m):
    assert len(m.routes) == exp(name, "routes")


def test_distinct_pairs_and_double_pairs(name, m):
    pairs = {frozenset(r.ends) for r in m.routes}
    links = {(frozenset(r.ends), r.kind) for r in m.routes}
    doubled = [r for r in m.routes if r.double_of is not None]
    assert len(pairs) == exp(name, "distinct_pairs")
    assert len(links) == exp(name, "links")
    assert len(doubled) % 2 == 0
    assert len(doubled) // 2 == exp(name, "double_pairs")
    # no triple routes: each link is one route or one double pair
    assert len(m.routes) == len(links) + len(doubled) // 2


def test_sum_of_lengths(name, m):
    assert sum(r.length for r in m.routes) == exp(name, "sum_lengths")


def test_routes_by_length(name, m):
    assert dict(Counter(r.length for r in m.routes)) == exp(name, "by_length")


def test_routes_by_colour(name, m):
    assert dict(Counter(r.color for r in m.routes)) == exp(name, "by_color")


def test_spaces_by_colour(name, m):
    by_colour = spaces(m.routes, lambda r: r.color)
    assert sum(by_colour.values()) == EXPECTED[name]["sum_lengths"]
    if EXPECTED[name]["spaces_by_color"] is not None:  # PROVENANCE gives none for Great Lakes
        assert by_colour == EXPECTED[name]["spaces_by_color"]


def test_routes_and_spaces_by_kind(name, m):
    assert dict(Counter(r.kind for r in m.routes)) == exp(name, "by_kind")
    assert spaces(m.routes, lambda r: r.kind) == exp(name, "spaces_by_kind")


def test_locomotive_spaces(name, m):
    assert sum(r.locomotives for r in m.routes) == exp(name, "locomotives")
    for r in m.routes:
        assert (r.locomotives > 0) == (r.kind == "ferry"), r


def test_paired_routes(name, m):
    paired = [r for r in m.routes if r.paired]
    assert (len(paired), sum(r.length for r in paired)) == exp(name, "paired")
    for r in paired:
        assert (r.kind, r.color) == ("train", "gray"), r


def test_ticket_decks(name, m):
    expected = exp(name, "decks")
    assert set(m.decks) == set(expected)
    for deck, (count, points) in expected.items():
        tickets = m.deck(deck)
        assert (len(tickets), sum(t.points for t in tickets)) == (count, points), deck


RAILS_AND_SAILS = ("rails_and_sails_great_lakes", "rails_and_sails_world")


@pytest.mark.parametrize("name", RAILS_AND_SAILS)
def test_rails_and_sails_palette(name, m):
    # Rails & Sails has no blue and no orange; kinds are train and ship only.
    assert {r.color for r in m.routes} == set(COLORS) - {"blue", "orange"}
    assert {r.kind for r in m.routes} == {"train", "ship"}


@pytest.mark.parametrize("name", RAILS_AND_SAILS)
def test_harbor_iff_ship_route_ends_there(name, m):
    ship_ends = {end for r in m.routes if r.is_ship for end in r.ends}
    for c in real_cities(m):
        assert c.harbor == (c.name in ship_ends), c


# ---------------------------------------------------------------------------
# Structural invariants
# ---------------------------------------------------------------------------


def test_coordinates_are_plausible(name, m):
    lat0, lat1, lon0, lon1 = REGION[name]
    for c in m.cities:
        assert isinstance(c.lat, float) and isinstance(c.lon, float)
        assert lat0 <= c.lat <= lat1 and lon0 <= c.lon <= lon1, c
        assert (c.lat, c.lon) != (0.0, 0.0), c
        assert round(c.lat, 2) == c.lat and round(c.lon, 2) == c.lon, c
    assert len({(c.lat, c.lon) for c in m.cities}) == len(m.cities), "two cities share a position"


@pytest.mark.parametrize(
    "map_name, west, east",
    [
        ("usa", "Seattle", "Boston"),
        ("usa", "Los Angeles", "Miami"),
        ("europe", "Lisboa", "Moskva"),
        ("rails_and_sails_great_lakes", "Duluth", "Albany"),
    ],
)
def test_coordinates_are_the_right_way_round(map_name, west, east):
    m = load_map(map_name)
    assert m.city(west).lon < m.city(east).lon


def test_coordinate_spot_checks():
    usa, europe, world = load_map("usa"), load_map("europe"), load_map("rails_and_sails_world")
    assert usa.city("Miami").lat < usa.city("Atlanta").lat < usa.city("Chicago").lat < usa.city("Winnipeg").lat
    assert (
        europe.city("Palermo").lat < europe.city("Roma").lat < europe.city("Berlin").lat < europe.city("Stockholm").lat
    )
    assert world.city("Sydney").lat < 0 < world.city("Tokyo").lat
    assert world.city("Buenos Aires").lon < 0 < world.city("Cape Town").lon


def test_cities_sorted_and_unique(m):
    names = [c.name for c in m.cities]
    assert names == sorted(names)
    assert len(set(names)) == len(names)


def test_route_ids_and_order(m):
    assert [r.id for r in m.routes] == list(range(1, len(m.routes) + 1))
    for r in m.routes:
        assert r.a < r.b, r
        assert r.color in COLORS and r.kind in ROUTE_KINDS
    key = [(r.a, r.b, r.is_ship, COLORS.index(r.color)) for r in m.routes]
    assert key == sorted(key)


def test_double_of_is_symmetric(m):
    for r in m.routes:
        if r.double_of is None:
            continue
        other = m.route(r.double_of)
        assert other.id != r.id
        assert other.double_of == r.id, (r, other)
        assert set(other.ends) == set(r.ends)
        assert other.is_ship == r.is_ship and other.kind == r.kind
        assert other.length == r.length
    # parallel routes of the same medium are always marked as doubles
    groups = Counter((frozenset(r.ends), r.is_ship) for r in m.routes)
    for r in m.routes:
        assert (groups[(frozenset(r.ends), r.is_ship)] == 2) == (r.double_of is not None), r


def test_ticket_ids_unique(m):
    ids = [t.id for t in m.tickets]
    assert len(ids) == len(set(ids))
    assert all(m.ticket(i).id == i for i in ids)


def test_tickets_name_real_cities(m):
    waypoints = {c.name for c in m.cities if c.waypoint}
    for t in m.tickets:
        assert len(set(t.cities)) == len(t.cities)
        for city in t.cities:
            assert m.has_city(city), t
            assert city not in waypoints, t
        assert t.points > 0


def test_every_ticket_is_connectable(m):
    g = graph(m)
    assert nx.is_connected(g)
    assert set(g.nodes) == {c.name for c in m.cities}


# ---------------------------------------------------------------------------
# USA
# ---------------------------------------------------------------------------

BIG_CITIES = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}
REVISED = {  # (a, b): (base value, 1910 reprint value)
    ("Los Angeles", "Miami"): (20, 19),
    ("Los Angeles", "New York"): (21, 20),
    ("Seattle", "New York"): (22, 20),
    ("Sault St. Marie", "Oklahoma City"): (9, 8),
}
MYSTERY_TRAIN = Counter(
    {
        ("Boston", "Washington", 4): 1,
        ("Montréal", "Chicago", 7): 1,
        ("Vancouver", "Portland", 2): 1,
        ("Winnipeg", "Omaha", 6): 1,
    }
)


def usa_reprints(usa: Map) -> Counter:
    """The 30 base tickets as reprinted in the 1910 box."""
    out = Counter()
    for t in usa.deck("base"):
        value = REVISED.get((t.a, t.b), (t.points, t.points))
        assert value[0] == t.points, t
        out[(t.a, t.b, value[1])] += 1
    return out


def test_usa_base_revisions():
    usa = load_map("usa")
    base = {(t.a, t.b): t.points for t in usa.deck("base")}
    for pair, (old, _new) in REVISED.items():
        assert base[pair] == old


def test_usa_mega_is_1910_plus_reprints_plus_mystery_train():
    usa = load_map("usa")
    reprints = usa_reprints(usa)
    assert sum(reprints.values()) == 30
    assert sum(p * n for (_, _, p), n in reprints.items()) == 349 - 5  # 1 + 1 + 2 + 1 lower
    mega = pts(usa.deck("mega"))
    assert mega == pts(usa.deck("1910")) + reprints + MYSTERY_TRAIN
    # the four lowered values appear in mega, the old ones do not
    for (a, b), (old, new) in REVISED.items():
        assert mega[(a, b, new)] == 1 and mega[(a, b, old)] == 0


def test_usa_mystery_train_tickets():
    usa = load_map("usa")
    mega = pts(usa.deck("mega"))
    for key in MYSTERY_TRAIN:
        assert mega[key] == 1
        assert key not in pts(usa.deck("base")) and key not in pts(usa.deck("1910"))
    assert sum(p for _, _, p in MYSTERY_TRAIN) == 19


def test_usa_big_cities_deck():
    usa = load_map("usa")
    big = usa.deck("big_cities")
    for t in big:
        assert BIG_CITIES & set(t.cities), t
    # exactly the mega tickets naming a big city
    names_big = lambda c: Counter({k: n for k, n in c.items() if BIG_CITIES & {k[0], k[1]}})
    assert pts(big) == names_big(pts(usa.deck("mega")))
    # 19 "1910" + 15 reprints + Montréal-Chicago
    assert sum(names_big(pts(usa.deck("1910"))).values()) == 19
    assert sum(names_big(usa_reprints(usa)).values()) == 15
    assert names_big(MYSTERY_TRAIN) == Counter({("Montréal", "Chicago", 7): 1})
    assert BIG_CITIES <= {c.name for c in usa.cities}


def test_usa_ticket_values_against_shortest_paths():
    usa = load_map("usa")
    g = graph(usa)
    off = lambda deck: {
        (t.a, t.b): t.points - shortest(g, t.a, t.b) for t in usa.deck(deck) if t.points != shortest(g, t.a, t.b)
    }
    # 1910: 34 of 35 equal, Las Vegas-Miami +1
    assert off("1910") == {("Las Vegas", "Miami"): 1}
    # base: 25 of 30 equal, five are +1 or +2
    base = off("base")
    assert set(base) == {
        ("Los Angeles", "Chicago"),
        ("Los Angeles", "Miami"),
        ("Los Angeles", "New York"),
        ("Sault St. Marie", "Oklahoma City"),
        ("Seattle", "New York"),
    }
    assert set(base.values()) <= {1, 2}
    # the reprint lowered four of those five exactly to the shortest path
    for (a, b), (_old, new) in REVISED.items():
        assert new == shortest(g, a, b)
    assert ("Los Angeles", "Chicago") not in REVISED


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("Charleston", "Raleigh", [(2, "gray")]),
        ("El Paso", "Houston", [(6, "green")]),
        ("Denver", "Salt Lake City", [(3, "red"), (3, "yellow")]),
    ],
)
def test_usa_resolved_discrepancies(a, b, expected):
    usa = load_map("usa")
    assert sorted((r.length, r.color) for r in usa.routes_between(a, b)) == expected


def test_usa_1910_los_angeles_oklahoma_city_is_9():
    assert pts(load_map("usa").deck("1910"))[("Los Angeles", "Oklahoma City", 9)] == 1


# ---------------------------------------------------------------------------
# Europe
# ---------------------------------------------------------------------------

EUROPE_LONG = Counter(
    {
        ("Brest", "Petrograd", 20): 1,
        ("Cadiz", "Stockholm", 21): 1,
        ("Edinburgh", "Athina", 21): 1,
        ("Kobenhavn", "Erzurum", 21): 1,
        ("Lisboa", "Danzig", 20): 1,
        ("Palermo", "Moskva", 20): 1,
    }
)
EUROPE_FERRIES = Counter(
    {
        ("Amsterdam", "London", 2): 1,
        ("Constantinople", "Sevastopol", 2): 1,
        ("Erzurum", "Sevastopol", 2): 1,
        ("Palermo", "Smyrna", 2): 1,
        ("Dieppe", "London", 1): 2,
        ("Essen", "Kobenhavn", 1): 2,
        ("Athina", "Brindisi", 1): 1,
        ("Athina", "Smyrna", 1): 1,
        ("Brindisi", "Palermo", 1): 1,
        ("Palermo", "Roma", 1): 1,
        ("Sevastopol", "Sochi", 1): 1,
    }
)


def test_europe_long_tickets():
    europe = load_map("europe")
    assert pts(europe.deck("long")) == EUROPE_LONG
    assert len(europe.tickets) == 46
    assert sum(t.points for t in europe.tickets) == 444


def test_europe_ferries_and_locomotive_symbols():
    europe = load_map("europe")
    ferries = [r for r in europe.routes if r.kind == "ferry"]
    assert Counter((r.a, r.b, r.locomotives) for r in ferries) == EUROPE_FERRIES
    assert all(r.color == "gray" for r in ferries)


def test_europe_tunnels():
    europe = load_map("europe")
    tunnels = [r for r in europe.routes if r.kind == "tunnel"]
    assert sum(r.color != "gray" for r in tunnels) == 8
    assert sum(r.color == "gray" for r in tunnels) == 10
    longest = max(tunnels, key=lambda r: r.length)
    assert (longest.a, longest.b, longest.length) == ("Petrograd", "Stockholm", 8)
    assert [r.length for r in tunnels].count(8) == 1


def test_europe_ticket_values_against_shortest_paths():
    europe = load_map("europe")
    g = graph(europe)
    off = {(t.a, t.b): t.points - shortest(g, t.a, t.b) for t in europe.tickets if t.points != shortest(g, t.a, t.b)}
    assert off == {("Edinburgh", "Athina"): 1, ("London", "Wien"): 1}


@pytest.mark.parametrize(
    "a, b, kind, expected",
    [
        ("Wien", "Zagrab", None, [(2, "gray", "train")]),
        ("Amsterdam", "London", None, [(2, "gray", "ferry")]),
        ("Marseille", "Roma", None, [(4, "gray", "tunnel")]),
    ],
)
def test_europe_resolved_discrepancies(a, b, kind, expected):
    europe = load_map("europe")
    assert sorted((r.length, r.color, r.kind) for r in routes_between(europe, a, b, kind)) == expected


@pytest.mark.parametrize(
    "a, b", [("Dieppe", "Paris"), ("Erzurum", "Sevastopol"), ("Moskva", "Smolensk"), ("Roma", "Venezia")]
)
def test_europe_routes_missing_from_one_source_are_present(a, b):
    assert len(load_map("europe").routes_between(a, b)) == 1


# ---------------------------------------------------------------------------
# Rails & Sails: World
# ---------------------------------------------------------------------------

WORLD_TOURS = [
    (("Anchorage", "Cambridge Bay", "Reykjavik", "Murmansk", "Tiksi"), 34, 23, -40),
    (("Anchorage", "Vancouver", "Winnipeg", "Cambridge Bay"), 18, 12, -24),
    (("Casablanca", "Al-Qahira", "Tehran"), 9, 6, -15),
    (("Lagos", "Luanda", "Dar Es Salaam", "Djibouti"), 9, 6, -15),
    (("Manila", "Honolulu", "Port Moresby", "Darwin"), 13, 9, -19),
    (("Mexico", "Caracas", "Lima", "Valparaiso"), 15, 10, -21),
    (("Murmansk", "Tiksi", "Novosibirsk", "Yakutsk", "Petropavlovsk"), 30, 20, -36),
    (("Tehran", "Lahore", "Mumbai", "Bangkok"), 13, 9, -19),
]
WORLD_NON_PORTS = {"Beijing", "Djibouti", "Lahore", "Mexico", "Moskva", "Novosibirsk", "Tehran", "Winnipeg", "Yakutsk"}
WORLD_PAIRED = {
    ("Anchorage", "Vancouver"): 2,
    ("Casablanca", "Marseille"): 1,
    ("Dar Es Salaam", "Luanda"): 2,
    ("Lahore", "Tehran"): 2,
    ("Beijing", "Lahore"): 3,
}


def test_world_tickets_and_tours():
    world = load_map("rails_and_sails_world")
    assert len(world.tickets) == 65
    two_city = world.deck("world")
    assert (len(two_city), sum(t.points for t in two_city)) == (57, 772)
    assert not any(t.is_tour for t in two_city)
    tours = world.deck("world_tour")
    assert all(t.is_tour for t in tours)
    assert [(t.cities, t.points, t.points_any_order, t.points_failed) for t in tours] == WORLD_TOURS
    assert sum(t.points for t in tours) == 141
    assert sum(t.points_any_order for t in tours) == 95
    assert sum(t.points_failed for t in tours) == -189
    assert [t.penalty for t in tours] == [40, 24, 15, 15, 19, 21, 36, 19]


def test_world_harbor_cities():
    world = load_map("rails_and_sails_world")
    non_ports = {c.name for c in real_cities(world) if not c.harbor}
    assert non_ports == WORLD_NON_PORTS
    assert len(real_cities(world)) - len(non_ports) == 38
    assert len(world.cities) == 48  # 47 cities + 1 waypoint


def test_world_paired_routes():
    world = load_map("rails_and_sails_world")
    paired = {(r.a, r.b): r.length for r in world.routes if r.paired}
    assert paired == WORLD_PAIRED
    assert sum(paired.values()) == 10


def test_world_longest_route_is_8():
    assert max(r.length for r in load_map("rails_and_sails_world").routes) == 8


def test_world_ticket_values_above_shortest_paths():
    world = load_map("rails_and_sails_world")
    g = graph(world)
    diffs = [t.points - shortest(g, t.a, t.b) for t in world.deck("world")]
    assert round(sum(diffs) / len(diffs), 1) == 3.2


@pytest.mark.parametrize(
    "a, b, kind, expected",
    [
        ("Buenos Aires", "Cape Town", "ship", [(7, "pink"), (7, "yellow")]),
        ("Bangkok", "Jakarta", "ship", [(2, "white")]),
        ("Bangkok", "Manila", "ship", [(2, "red")]),
        ("Honolulu", "Lima", "ship", [(6, "gray")]),
        ("Buenos Aires", "Valparaiso", "ship", [(3, "green")]),
        ("Anchorage", "Vancouver", "train", [(2, "gray")]),
    ],
)
def test_world_resolved_discrepancies(a, b, kind, expected):
    world = load_map("rails_and_sails_world")
    assert sorted((r.length, r.color) for r in routes_between(world, a, b, kind)) == expected


def test_world_resolved_harbors_and_names():
    world = load_map("rails_and_sails_world")
    assert not world.city("Novosibirsk").harbor
    assert not world.city("Mexico").harbor
    assert not any(r.is_ship and "Mexico" in r.ends for r in world.routes)
    assert not routes_between(world, "Buenos Aires", "Lima")
    for alias in ("Cairo", "Al-Zahira", "Vakutsk", "Labore", "North Pole", "Antarctic Ocean", "Port-aux-Francais"):
        assert not world.has_city(alias)
    for name in ("Al-Qahira", "Yakutsk", "Lahore", "Djibouti", "Port Moresby"):
        assert world.has_city(name)


# ---------------------------------------------------------------------------
# Rails & Sails: Great Lakes
# ---------------------------------------------------------------------------


def test_great_lakes_nodes():
    gl = load_map("rails_and_sails_great_lakes")
    assert len(gl.cities) == 37
    assert len(gl.tickets) == 55
    assert not any(t.is_tour for t in gl.tickets)


def test_great_lakes_nine_space_route():
    gl = load_map("rails_and_sails_great_lakes")
    nines = [r for r in gl.routes if r.length == 9]
    assert [(r.a, r.b, r.color, r.kind) for r in nines] == [("Cleveland", "New York", "gray", "train")]


@pytest.mark.parametrize(
    "a, b, kind, expected",
    [
        ("Cedar Rapids", "Chicago", "train", [(5, "red"), (5, "yellow")]),
        ("Lake Superior", "Marquette", "ship", [(2, "gray")]),
        ("Buffalo", "Kingston", "ship", [(4, "gray")]),
    ],
)
def test_great_lakes_resolved_discrepancies(a, b, kind, expected):
    gl = load_map("rails_and_sails_great_lakes")
    assert sorted((r.length, r.color) for r in routes_between(gl, a, b, kind)) == expected


def test_great_lakes_marathon_lake_superior_is_white():
    gl = load_map("rails_and_sails_great_lakes")
    assert {r.color for r in routes_between(gl, "Lake Superior", "Marathon", "ship")} == {"white"}


def test_great_lakes_ticket_values_against_shortest_paths():
    # Single-source deck: these figures pin it down so any edit is noticed.
    gl = load_map("rails_and_sails_great_lakes")
    g = graph(gl)
    diffs = {(t.a, t.b): t.points - shortest(g, t.a, t.b) for t in gl.tickets}
    signs = Counter((d > 0) - (d < 0) for d in diffs.values())
    assert (signs[0], signs[1], signs[-1]) == (11, 12, 32)
    assert set(diffs.values()) <= set(range(-6, 3))
    assert diffs[("Marquette", "Albany")] == 10 - 16
    assert diffs[("Milwaukee", "Parry Sound")] == 8 - 13
    assert diffs[("Thunder Bay", "Toronto")] == 9 - 13
    g75 = graph(gl, ship_weight=0.75)
    assert sum(abs(t.points - shortest(g75, t.a, t.b)) <= 1 for t in gl.tickets) == 35
    # one source list had Erie-Kingston twice; the deck has each pair once
    pairs = Counter(frozenset(t.cities) for t in gl.tickets)
    assert max(pairs.values()) == 1
    assert pairs[frozenset(("Erie", "Kingston"))] == 1


# ---------------------------------------------------------------------------
# Names and aliases
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "map_name, present, absent",
    [
        ("usa", ["Montréal", "Sault St. Marie", "Saint Louis"], ["Montreal", "Sault Ste. Marie", "St. Louis"]),
        (
            "europe",
            ["Athina", "Cadiz", "Danzig", "Kobenhavn", "Kyiv", "München", "Zürich", "Zagrab", "Bucuresti", "Palermo"],
            ["Athína", "Cádiz", "Danzic", "København", "Kiev", "Munchen", "Zurich", "Zagreb", "Bucharest", "Palmero"],
        ),
        (
            "rails_and_sails_great_lakes",
            ["Sault Ste. Marie", "Montreal", "Parry Sound"],
            ["Sault St. Marie", "Montréal", "Perry Sound"],
        ),
    ],
)
def test_city_names_follow_the_boards(map_name, present, absent):
    m = load_map(map_name)
    for n in present:
        assert m.has_city(n), n
    for n in absent:
        assert not m.has_city(n), n


# ---------------------------------------------------------------------------
# Malformed maps
# ---------------------------------------------------------------------------


def classroom() -> dict:
    """A valid 5-city classroom map (fresh copy each call)."""
    return {
        "format": "ttr_lab.map",
        "version": 1,
        "id": "classroom",
        "name": "Our school district",
        "about": "Made by class 7B.",
        "cities": [
            {"name": "Ashford", "lat": 51.15, "lon": 0.87},
            {"name": "Bexley", "lat": 51.44, "lon": 0.15},
            {"name": "Canterbury", "lat": 51.28, "lon": 1.08, "harbor": True},
            {"name": "Dover", "lat": 51.13, "lon": 1.31, "harbor": True},
            {"name": "The Channel", "lat": 50.9, "lon": 1.4, "waypoint": True},
        ],
        "routes": [
            {
                "id": 1,
                "a": "Ashford",
                "b": "Bexley",
                "length": 3,
                "color": "red",
                "kind": "train",
                "locomotives": 0,
                "double_of": 2,
            },
            {
                "id": 2,
                "a": "Ashford",
                "b": "Bexley",
                "length": 3,
                "color": "blue",
                "kind": "train",
                "locomotives": 0,
                "double_of": 1,
            },
            {"id": 3, "a": "Ashford", "b": "Canterbury", "length": 2, "color": "gray", "kind": "tunnel"},
            {"id": 4, "a": "Canterbury", "b": "Dover", "length": 1, "color": "gray", "kind": "ferry", "locomotives": 1},
            {"id": 5, "a": "Dover", "b": "The Channel", "length": 2, "color": "white", "kind": "ship"},
            {"id": 6, "a": "Bexley", "b": "Dover", "length": 4, "color": "gray", "kind": "train", "paired": True},
            {"id": 7, "a": "Canterbury", "b": "Dover", "length": 2, "color": "green", "kind": "ship"},
        ],
        "tickets": [
            {"id": 1, "a": "Bexley", "b": "Dover", "points": 6, "deck": "class"},
            {"id": 2, "a": "Ashford", "b": "Canterbury", "points": 2, "deck": "class"},
        ],
        "tours": [
            {
                "id": 3,
                "cities": ["Ashford", "Canterbury", "Dover"],
                "points_in_order": 5,
                "points_any_order": 3,
                "points_failed": -6,
                "deck": "class_tour",
            },
        ],
    }


def write(tmp_path: Path, data, name: str = "classroom.json") -> Path:
    path = tmp_path / name
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
    path.write_text(text, encoding="utf-8")
    return path


def assert_bad(tmp_path: Path, data, entry: str, problem: str) -> MapDataError:
    """Loading ``data`` from a file fails naming the file, ``entry`` and ``problem`` (a regex)."""
    path = write(tmp_path, data)
    with pytest.raises(MapDataError, match=rf"^{re.escape(str(path))}: {re.escape(entry)}: {problem}") as info:
        load_map(path)
    err = info.value
    assert (err.file, err.entry) == (str(path), entry)
    assert re.match(problem, err.problem)
    assert isinstance(err, ValueError)
    return err


def test_classroom_map_loads_from_a_file(tmp_path):
    path = write(tmp_path, classroom())
    for arg in (path, str(path)):
        m = load_map(arg)
        assert m.id == "classroom" and m.name == "Our school district"
        assert m.source == str(path)
        assert [c.name for c in m.cities if not c.waypoint] == ["Ashford", "Bexley", "Canterbury", "Dover"]
        assert m.city("The Channel").waypoint and m.city("Dover").harbor
        assert m.route(1).double_of == 2 and m.route(2).double_of == 1
        assert m.route(4).locomotives == 1 and m.route(6).paired
        assert m.find_route("Bexley-Ashford/2").id == 2
        assert m.decks == ("class", "class_tour")
        tour = m.ticket(3)
        assert tour.is_tour and tour.points == 5 and tour.penalty == 6
        assert m.ticket(1) == Ticket(1, ("Bexley", "Dover"), 6, "class")
    assert load_map(path) is not load_map(path)  # files are not cached, so edits show up


def test_minimal_map_and_defaults():
    m = map_from_dict(
        {
            "format": "ttr_lab.map",
            "version": 1,
            "id": "tiny",
            "name": "Tiny",
            "cities": [{"name": "A", "lat": 1, "lon": 2}, {"name": "B", "lat": 3, "lon": 4}],
            "routes": [{"id": 7, "a": "A", "b": "B", "length": 1, "color": "gray", "kind": "train"}],
            "tickets": [],
        }
    )
    assert m.source == "<dict>"
    assert m.route(7) == Route(7, "A", "B", 1, "gray")
    assert m.city("A") == City("A", 1.0, 2.0)
    assert m.tickets == ()


def test_map_from_dict_names_the_source():
    data = classroom()
    data["routes"][0]["b"] = "Zed"
    with pytest.raises(MapDataError, match=r"^my_map: route 1 \(Ashford-Zed\): unknown city 'Zed'$"):
        map_from_dict(data, "my_map")


def test_unknown_city_in_route(tmp_path):
    data = classroom()
    data["routes"][2]["b"] = "Canterbery"
    assert_bad(tmp_path, data, "route 3 (Ashford-Canterbery)", "unknown city 'Canterbery'$")


@pytest.mark.parametrize("length", [0, 10, -1])
def test_bad_length(tmp_path, length):
    data = classroom()
    data["routes"][2]["length"] = length
    assert_bad(tmp_path, data, "route 3 (Ashford-Canterbury)", rf"bad length {length} \(must be 1\.\.9\)$")


@pytest.mark.parametrize("length", ["3", 3.0, True, None])
def test_length_of_wrong_type(tmp_path, length):
    data = classroom()
    data["routes"][2]["length"] = length
    assert_bad(
        tmp_path, data, "route 3 (Ashford-Canterbury)", rf"field 'length' has wrong type: {re.escape(repr(length))}$"
    )


@pytest.mark.parametrize("color", ["purple", "grey", "Red", ""])
def test_bad_colour(tmp_path, color):
    data = classroom()
    data["routes"][0]["color"] = color
    assert_bad(
        tmp_path,
        data,
        "route 1 (Ashford-Bexley)",
        rf"bad colour {re.escape(repr(color))} \(one of red, orange, .*gray\)$",
    )


def test_bad_kind(tmp_path):
    data = classroom()
    data["routes"][4]["kind"] = "boat"
    assert_bad(tmp_path, data, "route 5 (Dover-The Channel)", r"bad kind 'boat' \(one of train, tunnel, ferry, ship\)$")


def test_duplicate_route_id(tmp_path):
    data = classroom()
    data["routes"][6]["id"] = 3
    assert_bad(tmp_path, data, "route 3 (Canterbury-Dover)", "duplicate route id 3$")


def test_duplicate_city(tmp_path):
    data = classroom()
    data["cities"].append({"name": "Dover", "lat": 51.0, "lon": 1.0})
    assert_bad(tmp_path, data, "city #6 (Dover)", "duplicate city name 'Dover'$")


@pytest.mark.parametrize(
    "section, index, key, entry",
    [
        ("cities", 1, "lat", "city #2 (Bexley)"),
        ("cities", 0, "name", "city #1"),
        ("routes", 3, "color", "route 4 (Canterbury-Dover)"),
        ("routes", 3, "kind", "route 4 (Canterbury-Dover)"),
        ("routes", 3, "id", "route #4"),
        ("tickets", 1, "points", "ticket 2"),
        ("tickets", 1, "id", "ticket #2"),
        ("tours", 0, "points_failed", "tour 3"),
    ],
)
def test_missing_field(tmp_path, section, index, key, entry):
    data = classroom()
    del data[section][index][key]
    assert_bad(tmp_path, data, entry, f"missing field '{key}'$")


@pytest.mark.parametrize(
    "section, index, key, entry",
    [
        ("cities", 2, "port", "city #3 (Canterbury)"),
        ("routes", 0, "colour", "route 1 (Ashford-Bexley)"),
        ("tickets", 0, "value", "ticket 1"),
        ("tours", 0, "double_of", "tour 3"),
    ],
)
def test_unknown_field(tmp_path, section, index, key, entry):
    data = classroom()
    data[section][index][key] = 1
    assert_bad(tmp_path, data, entry, rf"unknown field '{key}' \(allowed: .+\)$")


def test_unknown_header_field(tmp_path):
    data = classroom()
    data["author"] = "me"
    assert_bad(tmp_path, data, "header", r"unknown field 'author' \(allowed: format, version, id, name, .*\)$")


def test_wrong_type_message_is_short(tmp_path):
    data = classroom()
    data["cities"] = {str(i): {"name": f"City {i}"} for i in range(100)}
    err = assert_bad(tmp_path, data, "header", r"field 'cities' has wrong type: \{.*\.\.\.$")
    assert len(err.problem) < 100


def test_asymmetric_double_of(tmp_path):
    data = classroom()
    data["routes"][1]["double_of"] = None
    assert_bad(tmp_path, data, "route 1 (Ashford-Bexley)", "route 2 does not point back with double_of 1$")


@pytest.mark.parametrize(
    "index, double_of, entry, problem",
    [
        (0, 99, "route 1 (Ashford-Bexley)", "double_of names unknown route 99$"),
        (2, 3, "route 3 (Ashford-Canterbury)", "double_of points to the route itself$"),
        (2, 1, "route 3 (Ashford-Canterbury)", "double_of 1 does not join the same two cities$"),
        (3, 7, "route 4 (Canterbury-Dover)", "double_of 7: a train route and a ship route are never a double route$"),
    ],
)
def test_bad_double_of(tmp_path, index, double_of, entry, problem):
    data = classroom()
    data["routes"][index]["double_of"] = double_of
    assert_bad(tmp_path, data, entry, problem)


def test_parallel_routes_must_be_marked_double(tmp_path):
    data = classroom()
    data["routes"].append({"id": 8, "a": "Ashford", "b": "Canterbury", "length": 2, "color": "red", "kind": "train"})
    assert_bad(
        tmp_path,
        data,
        "route 8 (Ashford-Canterbury)",
        "joins the same two cities as route 3; mark a double route with double_of on both$",
    )


def test_train_and_ship_between_the_same_cities_are_not_a_double(tmp_path):
    # routes 4 (ferry) and 7 (ship) both join Canterbury and Dover: allowed
    assert len(load_map(write(tmp_path, classroom())).routes_between("Canterbury", "Dover")) == 2


def test_triple_route(tmp_path):
    data = classroom()
    data["routes"].append({"id": 8, "a": "Ashford", "b": "Bexley", "length": 3, "color": "green", "kind": "train"})
    assert_bad(tmp_path, data, "route 2 (Ashford-Bexley)", "routes 1, 2, 8 join the same two cities; a map has at most")


@pytest.mark.parametrize("locos", [0, None])
def test_ferry_without_locomotives(tmp_path, locos):
    data = classroom()
    if locos is None:
        del data["routes"][3]["locomotives"]
    else:
        data["routes"][3]["locomotives"] = locos
    assert_bad(tmp_path, data, "route 4 (Canterbury-Dover)", "a ferry needs 1..1 locomotive spaces, not 0$")


def test_ferry_with_too_many_locomotives(tmp_path):
    data = classroom()
    data["routes"][3]["locomotives"] = 2
    assert_bad(tmp_path, data, "route 4 (Canterbury-Dover)", "a ferry needs 1..1 locomotive spaces, not 2$")


def test_coloured_ferry(tmp_path):
    data = classroom()
    data["routes"][3]["color"] = "red"
    assert_bad(tmp_path, data, "route 4 (Canterbury-Dover)", "a ferry must be gray, not 'red'$")


def test_locomotives_on_a_non_ferry(tmp_path):
    data = classroom()
    data["routes"][2]["locomotives"] = 1
    assert_bad(tmp_path, data, "route 3 (Ashford-Canterbury)", r"only ferries have locomotive spaces \(got 1\)$")


def test_paired_route_must_be_gray_train(tmp_path):
    data = classroom()
    data["routes"][5]["color"] = "red"
    assert_bad(tmp_path, data, "route 6 (Bexley-Dover)", "a paired route must be a gray train route$")


def test_route_to_itself(tmp_path):
    data = classroom()
    data["routes"][2]["b"] = "Ashford"
    assert_bad(tmp_path, data, "route 3 (Ashford-Ashford)", "a route must join two different cities$")


def test_ticket_naming_a_waypoint(tmp_path):
    data = classroom()
    data["tickets"][0]["b"] = "The Channel"
    assert_bad(tmp_path, data, "ticket 1", "'The Channel' is a waypoint; no ticket may name it$")


def test_tour_naming_a_waypoint(tmp_path):
    data = classroom()
    data["tours"][0]["cities"][1] = "The Channel"
    assert_bad(tmp_path, data, "tour 3", "'The Channel' is a waypoint; no ticket may name it$")


def test_waypoint_cannot_be_a_harbor(tmp_path):
    data = classroom()
    data["cities"][4]["harbor"] = True
    assert_bad(tmp_path, data, "city #5 (The Channel)", "a waypoint cannot be a harbor city$")


@pytest.mark.parametrize(
    "change, entry, problem",
    [
        ({"a": "Zed"}, "ticket 1", "unknown city 'Zed'$"),
        ({"a": "Dover"}, "ticket 1", "a ticket must name two different cities$"),
        ({"points": 0}, "ticket 1", "points must be positive, not 0$"),
        ({"id": 2}, "ticket 2", "duplicate ticket id 2$"),
        ({"points": "6"}, "ticket 1", "field 'points' has wrong type: '6'$"),
    ],
)
def test_bad_ticket(tmp_path, change, entry, problem):
    data = classroom()
    data["tickets"][0].update(change)
    assert_bad(tmp_path, data, entry, problem)


@pytest.mark.parametrize(
    "change, entry, problem",
    [
        ({"id": 1}, "tour 1", "duplicate ticket id 1$"),
        ({"cities": ["Ashford", "Dover"]}, "tour 3", "a tour names three or more different cities$"),
        ({"cities": ["Ashford", "Dover", "Ashford"]}, "tour 3", "a tour names three or more different cities$"),
        ({"cities": ["Ashford", ["Dover"], "Bexley"]}, "tour 3", r"city \['Dover'\] is not a string$"),
        ({"cities": ["Ashford", "Zed", "Bexley"]}, "tour 3", "unknown city 'Zed'$"),
        ({"points_any_order": 6}, "tour 3", "values must satisfy in_order >= any_order > 0 > failed$"),
        ({"points_failed": 6}, "tour 3", "values must satisfy in_order >= any_order > 0 > failed$"),
    ],
)
def test_bad_tour(tmp_path, change, entry, problem):
    data = classroom()
    data["tours"][0].update(change)
    assert_bad(tmp_path, data, entry, problem)


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"lat": 91}, r"coordinates out of range: lat=91, lon=1\.31$"),
        ({"lon": -181}, r"coordinates out of range: lat=51\.13, lon=-181$"),
        ({"lat": "51.1"}, "field 'lat' has wrong type: '51.1'$"),
        ({"harbor": "yes"}, "field 'harbor' has wrong type: 'yes'$"),
    ],
)
def test_bad_city(tmp_path, change, problem):
    data = classroom()
    data["cities"][3].update(change)
    assert_bad(tmp_path, data, "city #4 (Dover)", problem)


def test_empty_city_name(tmp_path):
    data = classroom()
    data["cities"][0]["name"] = "  "
    assert_bad(tmp_path, data, "city #1 (  )", "empty name$")


def test_entry_that_is_not_an_object(tmp_path):
    data = classroom()
    data["routes"][1] = ["Ashford", "Bexley", 3]
    assert_bad(tmp_path, data, "route #2", "expected an object, got list$")


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"format": "ttr_lab.board"}, "format must be 'ttr_lab.map', not 'ttr_lab.board'$"),
        ({"version": 2}, r"unsupported version 2 \(this ttr_lab reads version 1\)$"),
        ({"version": "1"}, "field 'version' has wrong type: '1'$"),
        ({"format": None}, "field 'format' has wrong type: None$"),
    ],
)
def test_wrong_header(tmp_path, change, problem):
    data = classroom()
    data.update(change)
    assert_bad(tmp_path, data, "header", problem)


@pytest.mark.parametrize("key", ["format", "version", "id", "name", "cities", "routes", "tickets"])
def test_missing_header_field(tmp_path, key):
    data = classroom()
    del data[key]
    assert_bad(tmp_path, data, "header", f"missing field '{key}'$")


def test_file_is_not_an_object(tmp_path):
    assert_bad(tmp_path, "[1, 2, 3]", "header", "expected an object, got list$")


def test_invalid_json_names_line_and_column(tmp_path):
    text = '{\n  "format": "ttr_lab.map",\n  "version": 1,,\n  "id": "x"\n}\n'
    assert_bad(tmp_path, text, "line 3 column 16", "invalid JSON: Expecting property name enclosed in double quotes$")


def test_invalid_json_trailing_comma(tmp_path):
    # a typical hand-editing slip: a comma after the last entry of a list
    text = json.dumps(classroom(), indent=2)
    lines = text.splitlines()
    last_route = max(k for k, line in enumerate(lines) if line.strip() == '"kind": "ship"')
    lines[last_route + 1] += ","  # the "}" closing the last route
    text = "\n".join(lines)
    json_err = None
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        json_err = e
    assert json_err is not None
    assert_bad(tmp_path, text, f"line {json_err.lineno} column {json_err.colno}", "invalid JSON: ")
    assert json_err.lineno == last_route + 3  # reported on the line of "]" after the comma


def test_empty_file(tmp_path):
    assert_bad(tmp_path, "", "line 1 column 1", "invalid JSON: Expecting value$")


def test_file_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    text = json.dumps(classroom(), indent=2).replace("Ashford", "Montréal")
    path.write_bytes(text.encode("latin-1"))
    line = text[: text.index("é")].count("\n") + 1
    with pytest.raises(
        MapDataError, match=rf"^{re.escape(str(path))}: line {line}: not UTF-8 text .*save the file as UTF-8$"
    ):
        load_map(path)


def test_utf8_with_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(classroom(), ensure_ascii=False).encode("utf-8"))
    assert load_map(path).id == "classroom"


def test_unknown_shipped_map():
    with pytest.raises(
        MapDataError,
        match=r"^narnia: map: no shipped map named 'narnia' \(have: europe, rails_and_sails_great_lakes, "
        r"rails_and_sails_world, usa\)$",
    ):
        load_map("narnia")


def test_shipped_map_names_are_case_sensitive():
    with pytest.raises(MapDataError, match="no shipped map named 'USA'"):
        load_map("USA")


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.json"
    with pytest.raises(MapDataError, match=rf"^{re.escape(str(path))}: file: cannot read: "):
        load_map(path)
    with pytest.raises(MapDataError, match=rf"^{re.escape(str(path))}: file: cannot read: "):
        load_map(str(path))


def test_copy_of_a_shipped_map_loads(tmp_path):
    """What a teacher does: copy a shipped file, rename it, keep one deck."""
    from importlib import resources

    text = resources.files("ttr_lab.maps.files").joinpath("usa.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["id"], data["name"] = "usa_base_only", "USA, base tickets only"
    data["tickets"] = [t for t in data["tickets"] if t["deck"] == "base"]
    m = load_map(write(tmp_path, data, "usa_base_only.json"))
    assert m.id == "usa_base_only"
    assert m.routes == load_map("usa").routes
    assert m.decks == ("base",) and len(m.tickets) == 30


def test_readme_example_map_loads(tmp_path):
    """The complete example in maps/README.md is a valid map."""
    readme = Path(__file__).resolve().parents[1] / "maps" / "README.md"
    if not readme.exists():
        pytest.skip("maps/README.md not present")
    blocks = re.findall(r"```json\n(.*?)```", readme.read_text(encoding="utf-8"), flags=re.S)
    full = [b for b in blocks if '"format": "ttr_lab.map"' in b and '"cities": [\n' in b]
    assert len(full) == 1
    m = load_map(write(tmp_path, full[0], "kent.json"))
    assert (m.id, len(m.cities), len(m.routes), len(m.tickets)) == ("kent", 5, 5, 2)


# ---------------------------------------------------------------------------
# Names: no blank names, no surrounding whitespace, no control characters
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", [" Dover", "Dover ", "Dover\n", "\u00a0Dover"])
def test_city_name_with_surrounding_whitespace(tmp_path, name):
    data = classroom()
    data["cities"][3]["name"] = name
    assert_bad(
        tmp_path, data, f"city #4 ({name})", rf"name {re.escape(repr(name))} has leading or trailing whitespace$"
    )


@pytest.mark.parametrize(
    "name, code",
    [
        ("Do\tver", "0009"),
        ("Do\x00ver", "0000"),
        ("Dover\u202e", "202E"),
        ("Do\u2028ver", "2028"),
        ("Do\x7fver", "007F"),
    ],
)
def test_city_name_with_a_control_character(tmp_path, name, code):
    data = classroom()
    data["cities"][3]["name"] = name
    assert_bad(tmp_path, data, f"city #4 ({name})", rf"name .* contains a control character \(U\+{code}\)$")


def test_lone_surrogate_in_a_city_name(tmp_path):
    text = json.dumps(classroom(), indent=2).replace('"Dover"', '"Dover\\ud800"', 1)
    path = write(tmp_path, text)
    line = text[: text.index("Dover\\ud800")].count("\n") + 1
    with pytest.raises(
        MapDataError,
        match=rf"^{re.escape(str(path))}: line {line} column \d+: invalid JSON: "
        r'"Dover\\ud800" is half of a surrogate pair, not text$',
    ):
        load_map(path)
    data = classroom()
    data["cities"][3]["name"] = "Dover\ud800"  # straight from a dict: the name check catches it
    with pytest.raises(MapDataError, match=r"contains a control character \(U\+D800\)$"):
        map_from_dict(data, "d")


def test_accented_and_inner_spaces_are_fine(tmp_path):
    data = classroom()
    data["cities"][3]["name"] = "Saint-Léon sur Mer"
    for r in data["routes"]:
        for end in ("a", "b"):
            if r[end] == "Dover":
                r[end] = "Saint-Léon sur Mer"
    data["tickets"][0]["b"] = "Saint-Léon sur Mer"
    data["tours"][0]["cities"][2] = "Saint-Léon sur Mer"
    assert load_map(write(tmp_path, data)).has_city("Saint-Léon sur Mer")


@pytest.mark.parametrize(
    "section, index, key, value, entry, problem",
    [
        (
            "routes",
            2,
            "b",
            "Canterbury ",
            "route 3 (Ashford-Canterbury )",
            "city name 'Canterbury ' has leading or trailing",
        ),
        ("routes", 2, "a", "", "route 3 (-Canterbury)", "empty city name$"),
        ("tickets", 0, "a", " Bexley", "ticket 1", "city name ' Bexley' has leading or trailing whitespace$"),
        ("tickets", 0, "b", "Dover\r", "ticket 1", r"city name 'Dover\\r' has leading or trailing whitespace$"),
        ("tickets", 1, "deck", " class", "ticket 2", "deck name ' class' has leading or trailing whitespace$"),
        ("tickets", 1, "deck", "", "ticket 2", "empty deck name$"),
        (
            "tickets",
            1,
            "deck",
            "cl\x1bass",
            "ticket 2",
            r"deck name 'cl\\x1bass' contains a control character \(U\+001B\)$",
        ),
        ("tours", 0, "deck", "tour ", "tour 3", "deck name 'tour ' has leading or trailing whitespace$"),
    ],
)
def test_references_and_decks_with_bad_names(tmp_path, section, index, key, value, entry, problem):
    data = classroom()
    data[section][index][key] = value
    assert_bad(tmp_path, data, entry, problem)


def test_tour_city_with_surrounding_whitespace(tmp_path):
    data = classroom()
    data["tours"][0]["cities"][1] = "Canterbury\t"
    assert_bad(tmp_path, data, "tour 3", r"city name 'Canterbury\\t' has leading or trailing whitespace$")


@pytest.mark.parametrize(
    "key, value, problem",
    [
        ("id", " classroom", "id ' classroom' has leading or trailing whitespace$"),
        ("id", "", "empty id$"),
        ("id", "class\nroom", r"id 'class\\nroom' contains a control character \(U\+000A\)$"),
        ("name", "   ", "empty name$"),
        ("name", "Our school\x00", r"name 'Our school\\x00' contains a control character \(U\+0000\)$"),
    ],
)
def test_header_id_and_name(tmp_path, key, value, problem):
    data = classroom()
    data[key] = value
    assert_bad(tmp_path, data, "header", problem)


def test_long_values_are_cut_in_messages(tmp_path):
    data = classroom()
    data["routes"][2]["b"] = "Z" * 10_000
    data["routes"][3]["length"] = 10**4000
    err = assert_bad(tmp_path, data, "route 3 (Ashford-" + "Z" * 57 + "...)", r"unknown city 'Z+\.\.\.$")
    assert len(str(err)) < 200 + len(str(tmp_path))
    del data["routes"][2]
    err = assert_bad(tmp_path, data, "route 4 (Canterbury-Dover)", r"bad length 1000[0-9.]+ \(must be 1\.\.9\)$")
    assert len(err.problem) < 100


# ---------------------------------------------------------------------------
# Map.digest: keyed by content
# ---------------------------------------------------------------------------


def test_digest_is_a_sha256_hex(m):
    assert re.fullmatch(r"[0-9a-f]{64}", m.digest)


def test_shipped_digests_differ():
    digests = {load_map(n).digest for n in MAPS}
    assert len(digests) == len(MAPS)


def test_digest_is_the_same_for_the_same_content(tmp_path):
    compact = tmp_path / "a.json"
    compact.write_text(json.dumps(classroom(), separators=(",", ":")), encoding="utf-8")
    pretty = write(tmp_path, classroom(), "b.json")
    first, second = load_map(compact), load_map(pretty)
    assert first is not second and first.source != second.source
    assert first.digest == second.digest == load_map(compact).digest == map_from_dict(classroom()).digest


def test_digest_ignores_defaults_and_the_about_note(tmp_path):
    data = classroom()
    data["about"] = "another note"
    data["routes"][2]["locomotives"] = 0
    data["routes"][2]["double_of"] = None
    data["cities"][0]["lat"] = 51.150
    assert map_from_dict(data).digest == map_from_dict(classroom()).digest


def test_copy_of_a_shipped_map_has_its_digest(tmp_path):
    from importlib import resources

    text = resources.files("ttr_lab.maps.files").joinpath("usa.json").read_text(encoding="utf-8")
    path = tmp_path / "usa_copy.json"
    path.write_text(text, encoding="utf-8")
    assert load_map(path).digest == load_map("usa").digest


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["routes"][2].update(length=3),
        lambda d: d["routes"][2].update(color="red"),
        lambda d: d["routes"][5].update(paired=False),
        lambda d: d["routes"][3].update(kind="tunnel", locomotives=0),
        lambda d: d["cities"][0].update(lat=51.16),
        lambda d: d["cities"][2].update(harbor=False),
        lambda d: d["tickets"][0].update(points=7),
        lambda d: d["tickets"].reverse(),
        lambda d: d["tours"][0].update(points_failed=-7),
        lambda d: d.update(id="classroom2"),
        lambda d: d.update(name="Our district"),
        lambda d: d["routes"].pop(),
    ],
)
def test_any_change_changes_the_digest(change):
    data = classroom()
    change(data)
    assert map_from_dict(data).digest != map_from_dict(classroom()).digest


def test_an_edited_file_gets_a_new_digest(tmp_path):
    path = write(tmp_path, classroom())
    before = load_map(path)
    data = classroom()
    data["routes"][0]["length"] = data["routes"][1]["length"] = 4
    write(tmp_path, data)
    after = load_map(path)
    assert after.source == before.source and after.digest != before.digest


# ---------------------------------------------------------------------------
# Files that are not map files, or are hostile
# ---------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_device_is_refused_quickly(device):
    import time

    start = time.monotonic()
    with pytest.raises(
        MapDataError,
        match=rf"^{device}: file: not a regular file \(a character device\); "
        "give the path of a map file$",
    ):
        load_map(Path(device))
    with pytest.raises(MapDataError, match=rf"^{device}: file: not a regular file"):
        load_map(device)  # contains "/": a path, not a shipped name
    assert time.monotonic() - start < 2


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no named pipes")
def test_named_pipe_is_refused_quickly(tmp_path):
    import os
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    out: list = []
    t = threading.Thread(target=lambda: out.append(_error_of(load_map, fifo)), daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "load_map blocked on a named pipe"
    err = out[0]
    assert isinstance(err, MapDataError)
    assert (err.file, err.entry) == (str(fifo), "file")
    assert err.problem == "not a regular file (a named pipe); give the path of a map file"


def _error_of(fn, *args) -> BaseException | None:
    try:
        fn(*args)
    except BaseException as e:
        return e
    return None


def test_directory_is_refused(tmp_path):
    folder = tmp_path / "maps.json"
    folder.mkdir()
    assert_error = _error_of(load_map, folder)
    assert isinstance(assert_error, MapDataError)
    assert str(assert_error) == f"{folder}: file: not a regular file (a directory); give the path of a map file"


def test_file_over_the_limit_is_refused(tmp_path):
    from ttr_lab.io.safeio import MAP_LIMIT

    path = tmp_path / "huge.json"
    text = json.dumps(classroom())
    path.write_text(text + " " * (MAP_LIMIT + 1 - len(text)), encoding="utf-8")
    with pytest.raises(
        MapDataError,
        match=rf"^{re.escape(str(path))}: file: too large: {MAP_LIMIT + 1} bytes; "
        r"the limit for a map file is 4 MiB$",
    ):
        load_map(path)
    path.write_text(text + " " * (MAP_LIMIT - len(text)), encoding="utf-8")
    assert load_map(path).id == "classroom"  # exactly at the limit


def test_non_utf8_after_a_byte_order_mark(tmp_path):
    path = tmp_path / "mixed.json"
    text = json.dumps(classroom(), indent=2).replace("Ashford", "Montréal")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("latin-1"))
    offset = 3 + text.index("é")
    line = text[: text.index("é")].count("\n") + 1
    with pytest.raises(
        MapDataError,
        match=rf"^{re.escape(str(path))}: line {line}: not UTF-8 text \(byte {offset}\); "
        "save the file as UTF-8$",
    ):
        load_map(path)


def _hostile(kind: str) -> tuple[str, str, str]:
    """(file text, entry, problem regex) of a hostile or damaged map file."""
    base = json.dumps(classroom(), indent=2)
    if kind == "deep":
        return "[" * 100_000 + "]" * 100_000, "line 1 column 65", "invalid JSON: nested deeper than 64 levels$"
    if kind == "deep_field":
        text = base.replace('"lat": 51.15', '"lat": ' + "[" * 100_000 + "]" * 100_000, 1)
        line = text[: text.index("[[[")].count("\n") + 1
        return text, rf"line {line} column \d+", "invalid JSON: nested deeper than 64 levels$"
    if kind == "unclosed":
        return '{"cities": ' + "[" * 100_000, r"line 1 column \d+", "invalid JSON: "
    if kind == "big_int":
        text = base.replace('"length": 2', '"length": ' + "9" * 5000, 1)
        line = text[: text.index("9" * 5000)].count("\n") + 1
        return text, rf"line {line} column \d+", "invalid JSON: an integer with more than 4300 digits$"
    if kind in ("NaN", "Infinity", "-Infinity"):
        text = base.replace('"lat": 51.15', f'"lat": {kind}', 1)
        line = text[: text.index(kind)].count("\n") + 1
        return text, rf"line {line} column \d+", f"invalid JSON: {kind} is not a JSON number; write a number$"
    if kind == "overflow":
        text = base.replace('"lon": 0.87', '"lon": 1e999', 1)
        line = text[: text.index("1e999")].count("\n") + 1
        return text, rf"line {line} column \d+", "invalid JSON: number 1e999 is too large$"
    if kind == "duplicate":
        text = base.replace('"length": 2,', '"length": 2, "length": 9,', 1)
        return text, "JSON", "invalid JSON: duplicate key 'length' in the object .*"
    if kind == "duplicate_header":
        text = base.replace('"version": 1,', '"version": 1, "version": 1,', 1)
        return text, "JSON", "invalid JSON: duplicate key 'version' in the object .*"
    raise AssertionError(kind)


HOSTILE = [
    "deep",
    "deep_field",
    "unclosed",
    "big_int",
    "NaN",
    "Infinity",
    "-Infinity",
    "overflow",
    "duplicate",
    "duplicate_header",
]


@pytest.mark.parametrize("kind", HOSTILE)
def test_hostile_files_raise_map_data_error_naming_the_file(tmp_path, kind):
    import time

    text, entry, problem = _hostile(kind)
    path = write(tmp_path, text, f"{kind}.json")
    start = time.monotonic()
    err = _error_of(load_map, path)
    assert time.monotonic() - start < 5
    assert type(err) is MapDataError, repr(err)  # not RecursionError, ValueError, TypeError, ...
    assert err.file == str(path)
    assert re.fullmatch(entry, err.entry), err.entry
    assert re.match(problem, err.problem), err.problem
    assert str(err).startswith(f"{path}: ")


def test_digits_inside_names_are_fine(tmp_path):
    data = classroom()
    data["about"] = "1" * 5000 + " [[[[" * 100 + " NaN Infinity"
    assert load_map(write(tmp_path, data)).id == "classroom"


# ---------------------------------------------------------------------------
# Shipped maps without an installed package (a plain checkout)
# ---------------------------------------------------------------------------


def test_plain_checkout_falls_back_to_the_maps_folder(tmp_path):
    """Run from a copy of the source tree with no ``pip install``: the package
    ``ttr_lab.maps.files`` does not exist there (pyproject.toml makes ``maps/`` into
    it only when building), so the loader reads the checkout's ``maps/``."""
    import shutil
    import subprocess
    import sys

    import networkx

    import ttr_lab.maps.loading

    package = Path(ttr_lab.maps.loading.__file__).resolve().parent
    maps = package.parent / "maps"
    if not (maps / "usa.json").is_file():
        pytest.skip("not running from a checkout (no maps/ folder beside ttr_lab/)")
    checkout = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(package, checkout / "ttr_lab", ignore=ignore)
    shutil.copytree(maps, checkout / "maps", ignore=ignore)
    deps = tmp_path / "deps"
    deps.mkdir()
    (deps / "networkx").symlink_to(Path(networkx.__file__).resolve().parent, target_is_directory=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import importlib.util, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import ttr_lab.maps as d\n"
        "assert d.__file__.startswith(sys.argv[1]), d.__file__\n"
        "assert importlib.util.find_spec('ttr_lab.maps.files') is None\n"
        "m = d.load_map('usa')\n"
        "print(m.id, len(m.cities), len(m.routes), m.source, m.digest)\n"
        "print(','.join(d.available_maps()))\n"
        "assert d.load_map('usa') is m\n"
    )
    # -S: no site-packages, so neither the editable install nor any installed ttr_lab is visible
    proc = subprocess.run(
        [sys.executable, "-S", "-c", code, str(checkout)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(deps), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first == f"usa 36 100 maps/usa.json {load_map('usa').digest}"
    assert second == ",".join(MAPS)
