"""Explanations of candidate moves in words, for :mod:`ttr_lab.analysis.advisor`.

An :class:`Explainer` reads one seat's view (never more) and says, for a move:

* a **claim**: which tickets it advances along which path (the routes of the
  cheapest ticket network, the Steiner forest, whose removal disconnects
  them), or that it is for the route's points; whom it may **block** (the
  share of guessed ticket hands, determinized from the view, in which the
  route is in that opponent's own cheapest network); why **these cards**
  (wilds spent, and whether the cards left still cover the plan's colours);
* a **face-up or blind draw**: the colours the plan still lacks, and the
  chance that a blind card is useful (the unseen cards of those colours and
  the wilds, over all unseen cards);
* **tickets**: how many are done and how many pieces remain; for a keep, the
  cars the network of the kept tickets costs.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> e = Explainer(g.view(0))
>>> e.explain(ttr_lab.DrawBlind()).startswith("Draw blind")
True
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..errors import TtrError
from ..moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move
from .determinize import iter_states
from .odds_model import _pool
from .position import cards_needed, next_claims, ticket_network, ticket_paths

if TYPE_CHECKING:  # pragma: no cover
    from ..view import PlayerView

__all__ = ["Explainer"]


def _cards(cards: Any) -> str:
    return " + ".join(f"{k} {n}" for n, k in cards) or "nothing"


class Explainer:
    """Explains moves from ``view``'s seat; ``guesses`` determinized states
    (seeded) estimate the opponents' networks for "what it blocks"."""

    def __init__(self, view: PlayerView, *, guesses: int = 6, seed: int = 0) -> None:
        self.view = view
        self.me = view.player
        self.names = view.player_names
        m = view.map
        self.route_name = {r.id: f"{r.a}-{r.b}" for r in m.routes}
        try:
            self.claims = {c.route: c for c in next_claims(view, self.me)} if view.tickets else {}
            self.paths = {t.id: p for t, p in ticket_paths(view, self.me)} if view.tickets else {}
            forest = ticket_network(view, self.me) if view.tickets else None
        except TtrError:  # pragma: no cover - a view always shows its own tickets
            self.claims, self.paths, forest = {}, {}, None
        self.network = nx.MultiGraph()  # the cheapest network (owned and new routes)
        if forest is not None:
            for rid in forest.routes:
                r = m.route(rid)  # type: ignore[arg-type]
                self.network.add_edge(r.a, r.b, key=r.id)
        ed = view.edition
        self.wilds = {ed.card_types[i].name for i in ed.wild_cards}
        self.tickets = {t.id: t for t in tuple(view.tickets) + tuple(view.pending_tickets)}
        need = cards_needed(view, self.claims)
        hand = Counter(view.hand)
        self.lacking = {c: k - hand.get(c, 0) for c, k in need.items() if c != "any" and k > hand.get(c, 0)}
        self.guesses = guesses
        self.seed = seed
        self._blocks: dict[int, Counter[int]] | None = None

    # ------------------------------------------------------------ helpers
    def _opponent_networks(self) -> dict[int, Counter[int]]:
        """Per opponent: in how many guesses each route is in its cheapest network."""
        if self._blocks is None:
            out: dict[int, Counter[int]] = {q: Counter() for q in range(self.view.num_players) if q != self.me}
            states = iter_states(self.view, seed=self.seed)
            for _ in range(self.guesses):
                s = next(states)
                for q in out:
                    net = ticket_network(s, q)
                    if net is not None:
                        out[q].update(net.new_routes)  # type: ignore[arg-type]
            self._blocks = out
        return self._blocks

    def _along(self, t: Any) -> str:
        """`` along A-B-C``: the ticket's way through the cheapest network."""
        cities: list[Any] = []
        try:
            for x, y in zip(t.cities, t.cities[1:]):
                leg = nx.shortest_path(self.network, x, y)
                cities += leg if not cities else leg[1:]
        except (nx.NetworkXException, nx.NodeNotFound):
            return ""
        return f" along {'-'.join(map(str, cities))}"

    def _lacking_text(self) -> str:
        if not self.lacking:
            return "the hand already holds the colours the ticket network needs"
        return "the ticket network still lacks " + ", ".join(f"{k} {c}" for c, k in sorted(self.lacking.items()))

    def _useful_share(self) -> float:
        pool = _pool(self.view)
        total = sum(pool.values())
        useful = pool.get("wild", 0) + sum(pool.get(c, 0) for c in self.lacking)
        return useful / total if total else 0.0

    # ------------------------------------------------------------ the moves
    def explain(self, move: Move) -> str:
        """One or two sentences on ``move``."""
        if isinstance(move, ClaimRoute):
            return self._claim(move)
        if isinstance(move, DrawFaceUp):
            row = self.view.row
            card = row[move.slot - 1] if 0 < move.slot <= len(row) else None
            if card is not None and card in self.wilds:
                return f"Take the face-up wild: it stands for any colour, and {self._lacking_text()}."
            if card in self.lacking:
                return f"Take the face-up {card}: {self._lacking_text()}."
            return f"Take the face-up {card}: not a colour the ticket network lacks ({self._lacking_text()})."
        if isinstance(move, DrawBlind):
            share = self._useful_share()
            return (
                f"Draw blind: {self._lacking_text()}; {100 * share:.0f}% of the unseen cards are "
                "one of those colours or a wild."
            )
        if isinstance(move, DrawTickets):
            done = sum(1 for p in self.paths.values() if p is not None and p.cost == 0)
            return (
                f"Draw tickets: {done} of {len(self.paths)} tickets are complete and "
                f"{self.view.pieces[self.me]} pieces remain."
            )
        if isinstance(move, KeepTickets):
            keep = tuple(self.tickets[i] for i in move.tickets if i in self.tickets)
            everything = tuple(self.view.tickets) + keep
            net = ticket_network(self.view, self.me, tickets=everything)
            labels = ", ".join(f"{t.label()} ({t.points})" for t in keep)
            if net is None:
                return f"Keep {labels}: not every ticket can still be completed."
            return (
                f"Keep {labels}: the cheapest network for these and the tickets already held "
                f"needs {net.cost} more cars of the {self.view.pieces[self.me]} pieces left."
            )
        return self.view.describe(move)

    def _claim(self, move: ClaimRoute) -> str:
        view = self.view
        r = view.map.route(move.route)
        pts = view.edition.route_points.get(r.length, 0)
        head = f"Claim {r.a}-{r.b} ({r.length} cars, {pts} points) with {_cards(move.cards)}."
        parts = [head]
        nc = self.claims.get(move.route)
        if nc is not None and nc.tickets:
            advances = []
            for tid in nc.tickets:
                t = self.tickets.get(tid)
                if t is None:
                    continue
                along = self._along(t)
                advances.append(f"{t.label()} ({t.points}){along}")
            parts.append("It advances " + "; ".join(advances) + ".")
        else:
            parts.append("It is not on the cheapest network for the tickets: it is claimed for its points.")
        nets = self._opponent_networks()
        for q, counts in nets.items():
            k = counts.get(move.route, 0)
            if k:
                parts.append(
                    f"It may block {self.names[q]}: the route is in their cheapest network "
                    f"in {k} of {self.guesses} guesses of their tickets."
                )
        wild = sum(k for n, k in move.cards if n in self.wilds)
        left = Counter(view.hand)
        for n, k in move.cards:
            left[n] -= k
        short = {c: k for c, k in self.lacking.items() if k > 0}
        spent = [n for n, _ in move.cards if n not in self.wilds]
        why = f"{wild} wild{'s' if wild != 1 else ''}" if wild else "no wild"
        keep = [c for c in spent if c in cards_needed(view, [x for x in self.claims if x != move.route])]
        if keep:
            parts.append(f"These cards spend {why}, though the rest of the network also uses {', '.join(keep)}.")
        else:
            parts.append(f"These cards spend {why} and none the rest of the network needs.")
        if short:
            parts.append(f"After it, {self._lacking_text()}.")
        return " ".join(parts)
