"""Test helpers: arrange a position (stack decks, set hands and owners)
through the public snapshot API, so every arranged position is checked for
card, piece, ticket and score conservation by ``GameState.from_dict``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import ttr_lab
from ttr_lab.engine.state import GameState


def past_setup(game: GameState) -> GameState:
    """Keep the first legal ticket choice for every player."""
    while game.phase == ttr_lab.Phase.SETUP_TICKETS:
        game.play(game.legal_moves[0])
    return game


def new_usa(players: int = 4, seed: int = 1, **options: Any) -> GameState:
    return past_setup(ttr_lab.new_game("usa", players=players, seed=seed, **options))


def arrange(
    game: GameState,
    *,
    row: Iterable[str | None] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    deck_top: Iterable[str] = (),
    deck_size: int | Mapping[str, int] | None = None,
    discard: Iterable[str] | None = None,
    rest: str | int = "deck",
    current: int | None = None,
    owners: Mapping[int, int] | None = None,
    pieces: Mapping[int, int] | None = None,
    ticket_deck_size: int | None = None,
    tickets: Mapping[int, Iterable[int]] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> GameState:
    """A copy of ``game`` rearranged; unassigned cards go to ``rest``.

    ``deck_top`` lists cards from the top down.  ``rest`` is "deck" (under
    ``deck_top``), "discard", or a seat whose hand takes them.  ``owners``
    maps route ids to seats (pieces and scores follow).  ``pieces`` sets a
    seat's trains left by moving the difference to... nowhere: it is checked,
    so it must agree with owners (use it together with ``owners`` or pass
    ``fix_pieces``).  ``extra`` replaces entries of the position's edition
    fields (``to_dict()["extra"]``, e.g. Europe's ``stations`` and ``box``).

    With several piles (Rails & Sails) every card goes to its own pile:
    ``deck_top`` and ``discard`` are split by pile (keeping their order), and
    ``deck_size`` is a size for every pile or a mapping pile name -> size.
    With ``owners``, each seat's pieces in supply change by the pieces
    placed (trains, and ships in ``extra["ships"]`` where the edition has
    them) and its score by the route points, so other points (exchanges)
    and the box stay as they were.
    """
    d = game.to_dict()
    ed = game.edition
    piles = list(d["decks"])
    pile_of = {ct.name: ed.pile_names[ct.pile] if len(piles) > 1 else piles[0] for ct in ed.card_types}
    pool: Counter[str] = Counter()
    for seq in list(d["decks"].values()) + list(d["discards"].values()) + [d["row"]]:
        pool.update(c for c in seq if c is not None)
    for h in d["hands"]:
        pool.update(h)

    def take(cards: Iterable[str]) -> list[str]:
        out = []
        for c in cards:
            if pool[c] <= 0:
                raise ValueError(f"no {c} card left to place")
            pool[c] -= 1
            out.append(c)
        return out

    new_row = list(row) if row is not None else d["row"]
    take(c for c in new_row if c is not None)
    hands = dict(hands or {})
    new_hands = []
    for p, h in enumerate(d["hands"]):
        h = dict(hands.get(p, h))
        take(c for c, k in h.items() for _ in range(k))
        new_hands.append({c: k for c, k in h.items() if k})
    top_all = take(deck_top)
    disc_all = take(discard) if discard is not None else []
    leftovers_all = sorted(pool.elements())
    for pile in piles:
        top = [c for c in top_all if pile_of[c] == pile]
        disc = [c for c in disc_all if pile_of[c] == pile]
        leftovers = [c for c in leftovers_all if pile_of[c] == pile]
        size = deck_size.get(pile) if isinstance(deck_size, Mapping) else deck_size
        below: list[str] = []
        if size is not None:
            keep = size - len(top)
            below, leftovers = leftovers[:keep], leftovers[keep:]
        if rest == "deck" and size is None:
            below, leftovers = leftovers, []
        elif rest in ("deck", "discard"):
            disc += leftovers
        else:
            h = new_hands[int(rest)]
            for c in leftovers:
                h[c] = h.get(c, 0) + 1
        # the deck is stored bottom to top
        d["decks"][pile] = below + list(reversed(top))
        d["discards"][pile] = disc
    d["row"] = new_row
    d["hands"] = new_hands
    if current is not None:
        d["current"] = current
    if owners is not None:
        ships = d["extra"].get("ships") if isinstance(d["extra"].get("ships"), list) else None

        def tally(own: Mapping[int, int]) -> tuple[list[int], list[int], list[int]]:
            placed = [0] * game.num_players  # trains (every piece if the edition has no ships)
            placed_ships = [0] * game.num_players
            points = [0] * game.num_players
            for r, s in own.items():
                route = game.map.route(r)
                if ships is not None and route.is_ship:
                    placed_ships[s] += route.length
                else:
                    placed[s] += route.length
                points[s] += ed.route_points[route.length]
            return placed, placed_ships, points

        old_t, old_s, old_pts = tally({int(r): s for r, s in d["owners"].items()})
        new_t, new_s, new_pts = tally(owners)
        d["owners"] = {str(r): s for r, s in owners.items()}
        n = game.num_players
        d["pieces"] = [d["pieces"][p] + old_t[p] - new_t[p] for p in range(n)]
        d["scores"] = [d["scores"][p] - old_pts[p] + new_pts[p] for p in range(n)]
        if ships is not None:
            d["extra"]["ships"] = [ships[p] + old_s[p] - new_s[p] for p in range(n)]
    if pieces is not None:
        for p, n in pieces.items():
            d["pieces"][p] = n
    if tickets is not None:
        all_held = {t for p, ts in tickets.items() for t in ts}
        d["tickets"] = [list(tickets.get(p, [])) for p in range(game.num_players)]
        universe = list(game.edition.ticket_deck())
        d["ticket_deck"] = [t for t in universe if t not in all_held]
    if ticket_deck_size is not None:
        held = [t for ts in d["tickets"] for t in ts]
        spare = [t for t in d["ticket_deck"]]
        d["ticket_deck"] = spare[len(spare) - ticket_deck_size :] if ticket_deck_size else []
        # tickets taken out of the deck are given to the last seat
        moved = spare[: len(spare) - ticket_deck_size]
        d["tickets"][-1] = d["tickets"][-1] + moved
        assert len(held) + len(spare) == len(held) + len(moved) + len(d["ticket_deck"])
    if extra is not None:
        d["extra"] = {**d["extra"], **extra}
    return GameState.from_dict(json.loads(json.dumps(d)))


def write_map(path: Path, cities: Iterable[str], routes: Iterable[tuple], tickets: Iterable[tuple] = ()) -> str:
    """Write a small classroom map; routes are (id, a, b, length, color),
    tickets (id, a, b, points).  Returns the path as a string."""
    cities = list(cities)
    data = {
        "format": "ttr_lab.map",
        "version": 1,
        "id": "classroom",
        "name": "Classroom map",
        "cities": [{"name": c, "lat": 40 + i, "lon": -100 + 2 * i} for i, c in enumerate(cities)],
        "routes": [
            {"id": rid, "a": a, "b": b, "length": L, "color": col, "kind": "train"} for rid, a, b, L, col in routes
        ],
        "tickets": [{"id": tid, "a": a, "b": b, "points": pts, "deck": "base"} for tid, a, b, pts in tickets],
    }
    path.write_text(json.dumps(data, indent=1))
    return str(path)


def random_game(edition: str, seed: int, players: int, plies: int | None = None, **options: Any) -> GameState:
    """A seeded game of uniformly random legal moves, stopped after ``plies``
    (or at the end)."""
    import random

    g = ttr_lab.new_game(edition, players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not g.is_over and (plies is None or g.ply < plies):
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
    return g


def snapshot(g: GameState) -> dict:
    """The position fields of a state (all of its ``__dict__``: tables live
    on the edition), for exact before/after comparisons."""
    assert tuple(g.__dict__) == g.edition.field_attrs, "a state holds its edition's fields, in order"
    return dict(g.__dict__)


def bot_game(name: str, seed: int, players: int, plies: int, bot: str = "playout") -> GameState:
    """A game of ``bot`` players stopped after ``plies`` plies (or at its end)."""
    from ttr_lab.bots import make_bot

    g = ttr_lab.new_game(name, players=players, seed=seed)
    bots = [make_bot(bot, seed + i) for i in range(players)]
    while not g.is_over and g.ply < plies:
        g.play(bots[g.current_player].choose(g.view(g.current_player)))
    return g


def tunnel_position(game: GameState, *, revealed: list[str], paid: dict[str, int], route: int, **kw: Any) -> GameState:
    """A pending tunnel claim (Europe) by seat 0: ``arrange(game, **kw)``, then
    the ``revealed`` cards move from seat 1's hand to the tunnel's reveal."""
    d = arrange(game, current=0, **kw).to_dict()
    hand = d["hands"][1]
    for c in revealed:
        hand[c] -= 1
        if not hand[c]:
            del hand[c]
    d["phase"] = "tunnel"
    d["extra"]["tunnel"] = {"route": route, "paid": dict(paid), "revealed": list(revealed)}
    return GameState.from_dict(d)
