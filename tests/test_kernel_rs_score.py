"""The Python scorer referees the kernel's Rails & Sails scoring (issue 23, point 3).

Final positions of games the Python engine played (World and Great Lakes,
2-5 players, the three ``tour_order`` options, ``harbor_wilds`` on and off,
``tiebreak`` both ways; the playout policy, the random bot and the greedy bot
at the seats, so harbors are built, tours are done in and out of order, and
pieces are exchanged) are scored by the kernel (``Tables.score_position``) and
by :meth:`GameState.outcome`: the totals, the winners, the completed tickets
and every kept ticket's completion and points must be equal.

Each final position is also scored under the other ``tour_order`` and
``tiebreak`` options (the same position read with other options), and some
are tied on points by giving the leader exchanged pieces (the running score
moved with them), so the tie-breaker decides.  Tours on grown networks (a
seat given the free routes of a way through a tour's cities in a shuffled
order, and that tour) make the three meanings of "in order" differ often.
The test counts what it covered and fails if a feature is missing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import ttr_lab
from ttr_lab.bots import make_bot
from ttr_lab.bots.kernel.convert import position_array, seed_text
from ttr_lab.bots.kernel.run import kernel_info, tables
from ttr_lab.engine.state import GameState

pytestmark = pytest.mark.skipif(not kernel_info().enabled, reason="the compiled kernel is not built here (or is off)")

EDITIONS = ("rails_and_sails", "great_lakes")
TOUR_ORDERS = ("trail", "simple_path", "walk")
TIEBREAKS = ("shared", "completed_tickets")


def options(i: int) -> dict:
    """The game's options: every (tour_order, tiebreak, harbor_wilds) in 12 games."""
    return {"tour_order": TOUR_ORDERS[i % 3], "tiebreak": TIEBREAKS[i // 3 % 2], "harbor_wilds": i // 6 % 2 == 0}


def final_position(edition: str, i: int) -> GameState:
    """Game ``i``: 2-5 players, a mix of bots, played to the end by the Python engine."""
    rng = random.Random(f"rs-score:{edition}:{i}")
    n = 2 + i % 4
    g = ttr_lab.new_game(edition, players=n, seed=rng.getrandbits(32), **options(i))
    kinds = ["playout", "playout", "random", "greedy" if i % 5 == 0 else "playout"]
    bots = [make_bot(rng.choice(kinds), rng.randrange(10_000)) for _ in range(n)]
    for _ in range(5000):
        if g.is_over:
            break
        g.push(bots[g.current_player].choose(g.view(g.current_player)))
    assert g.is_over
    return g


def with_options(g: GameState, **opts) -> GameState:
    """The same position read with other options."""
    d = g.to_dict()
    d["options"] = {**d["options"], **opts}
    return GameState.from_dict(d)


def tied(g: GameState, same_tickets: bool) -> GameState | None:
    """The position with two leaders tied on points: the leader, or (``same_tickets``) the
    first two seats with as many completed tickets, tied at the lower of their totals, and every
    other seat above it lowered below it, by exchanging more pieces (a point each, the running
    score moved with them).  None if there is no such pair or they are tied already."""
    out = g.outcome()
    scores = out.scores
    if same_tickets:
        done = [ps.tickets_completed for ps in out.players]
        pairs = [(p, q) for p in range(g.num_players) for q in range(p) if done[p] == done[q]]
        if not pairs:
            return None
        pair = pairs[0]
    else:
        order = sorted(range(g.num_players), key=lambda p: -scores[p])
        pair = (order[0], order[1])
    target = min(scores[pair[0]], scores[pair[1]])
    if scores[pair[0]] == scores[pair[1]]:
        return None
    d = g.to_dict()
    for p, v in enumerate(scores):
        lower = v - target if p in pair else v - target + 1
        if lower > 0:
            d["extra"]["exchanged"][p] += lower
            d["scores"][p] -= lower
    return GameState.from_dict(d)


def compare(g: GameState) -> Counter:
    """Score ``g`` in the kernel and in Python; assert they agree; return what it covered."""
    out = g.outcome()
    t = tables(g.edition, preview=True)
    assert t is not None
    totals, winners, completed, seats = t.score_position(position_array(g), seed_text(g))
    want = tuple(tuple((r.ticket.id, r.completed, r.points) for r in ps.tickets) for ps in out.players)
    assert seats == want, "tickets differ"
    assert completed == tuple(ps.tickets_completed for ps in out.players)
    assert totals == out.scores
    assert winners == out.winners
    seen: Counter = Counter({"positions": 1, f"{g.num_players} players": 1})
    ed = g.edition
    for p, ps in enumerate(out.players):
        for r in ps.tickets:
            if r.ticket.is_tour:
                seen[f"tour {r.how} ({ed.options['tour_order']})"] += 1
        for name, _ in ps.adjustments:
            if name.startswith("harbor "):  # "harbor CITY (k completed tickets)"
                k = int(name.rsplit("(", 1)[1].split()[0])
                seen[f"harbor scoring {min(k, 3)} tickets"] += 1
            elif name.startswith("unbuilt"):
                seen["unbuilt harbors"] += 1
            elif name.startswith("pieces exchanged"):
                seen["exchanges"] += 1
    top = [p for p in range(g.num_players) if out.scores[p] == max(out.scores)]
    if len(top) > 1:
        broken = len(out.winners) < len(top)
        seen[f"tie {'broken' if broken else 'shared'} ({ed.options['tiebreak']})"] += 1
    return seen


def grown(g: GameState, rng: random.Random) -> tuple[tuple, ...] | None:
    """The owners, tickets and pieces of ``g`` with a seat's network regrown: about half of its
    routes given back, then the free routes of a way through a tour's cities in a shuffled order
    and some free routes next to its network taken, each paid from its supply (skipped when
    short), and the tour (from the ticket deck, or one of its own) added to its tickets.  None if
    there is no such tour.  A scoring test: not
    a position a game reaches."""
    ed = g.edition
    p = rng.randrange(g.num_players)
    tours = [t for t in ed.map.tickets if t.is_tour and (t.id in g._tdeck or t.id in g._tickets[p])]
    if not tours:
        return None
    tour = rng.choice(tours)
    routes = ed.routes
    owners = list(g._owners)
    supply = [g._pieces[p], g._ships[p]]  # trains, ships

    def kind(i: int) -> int:
        return 1 if routes[i].kind == "ship" else 0

    def take(i: int) -> None:
        if owners[i] < 0 and supply[kind(i)] >= routes[i].length:
            owners[i] = p
            supply[kind(i)] -= routes[i].length

    for i, o in enumerate(owners):
        if o == p and rng.random() < 0.5:
            owners[i] = -1
            supply[kind(i)] += routes[i].length
    near: dict[str, list[int]] = {}
    for i, r in enumerate(routes):
        if owners[i] < 0 or owners[i] == p:
            near.setdefault(r.a, []).append(i)
            near.setdefault(r.b, []).append(i)
    cities = list(tour.cities)
    if rng.random() < 0.7:
        rng.shuffle(cities)
    for a, b in zip(cities, cities[1:]):
        prev: dict[str, tuple[str, int] | None] = {a: None}
        todo = [a]
        while todo and b not in prev:
            x = todo.pop(0)
            for e in rng.sample(near.get(x, []), len(near.get(x, []))):
                y = routes[e].b if routes[e].a == x else routes[e].a
                if y not in prev:
                    prev[y] = (x, e)
                    todo.append(y)
        step = prev.get(b)
        while step is not None:
            x, e = step
            take(e)
            step = prev[x]
    for _ in range(rng.choice([0, 3, 8, 15])):
        mine = [i for i, o in enumerate(owners) if o == p]
        if mine:
            r = routes[rng.choice(mine)]
            free = [e for e in near.get(rng.choice([r.a, r.b]), []) if owners[e] < 0]
            if free:
                take(rng.choice(free))
    tickets, tdeck = g._tickets, g._tdeck
    if tour.id not in tickets[p]:  # from the ticket deck
        tickets = tickets[:p] + (tickets[p] + (tour.id,),) + tickets[p + 1 :]
        tdeck = tuple(t for t in tdeck if t != tour.id)
    trains = g._pieces[:p] + (supply[0],) + g._pieces[p + 1 :]
    ships = g._ships[:p] + (supply[1],) + g._ships[p + 1 :]
    return tuple(owners), tickets, tdeck, trains, ships


def run_scores(edition: str, count: int) -> Counter:
    """Compare ``count`` final positions, each also under the other options, some tied, some grown."""
    seen: Counter = Counter()
    rng = random.Random(f"rs-score:{edition}")
    for i in range(count):
        g = final_position(edition, i)
        seen += compare(g)
        for order in TOUR_ORDERS:
            for tiebreak in TIEBREAKS:
                if (order, tiebreak) != (g.edition.options["tour_order"], g.edition.options["tiebreak"]):
                    seen += compare(with_options(g, tour_order=order, tiebreak=tiebreak))
        for same_tickets in (False, True):
            t = tied(g, same_tickets)
            if t is not None:
                for tiebreak in TIEBREAKS:
                    seen += compare(with_options(t, tiebreak=tiebreak))
        more = grown(g, rng)
        if more is not None:
            for order in TOUR_ORDERS:
                s = with_options(g, tour_order=order)
                s._owners, s._tickets, s._tdeck, s._pieces, s._ships = more
                s.edition.derive(s)
                seen += compare(s) + Counter({"grown networks": 1})
    return seen


def assert_covered(seen: Counter, edition: str, at_least: int) -> None:
    want = [f"{n} players" for n in (2, 3, 4, 5)]
    want += [f"harbor scoring {k} tickets" for k in (0, 1, 2, 3)]
    want += ["unbuilt harbors", "exchanges"]
    want += [f"tie shared ({tb})" for tb in TIEBREAKS] + ["tie broken (completed_tickets)"]
    if edition == "rails_and_sails":
        want += [f"tour {how} ({order})" for how in ("in order", "any order", "failed") for order in TOUR_ORDERS]
        want.remove("tour any order (walk)")  # joined is in order for a walk
        want.append("grown networks")
    missing = {w: seen[w] for w in want if seen[w] < at_least}
    assert not missing, f"not covered often enough (at least {at_least}): {missing}; covered: {dict(seen)}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_scores_rails_and_sails_positions_as_python_does_quick(edition):
    """60 games' final positions (about 540 positions with their variants) per edition."""
    seen = run_scores(edition, 60)
    assert_covered(seen, edition, 1)


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_scores_rails_and_sails_positions_as_python_does(edition):
    """300 games' final positions (about 3,000 positions with their variants) per edition."""
    seen = run_scores(edition, 300)
    assert_covered(seen, edition, 10)
    print(edition, dict(seen))
