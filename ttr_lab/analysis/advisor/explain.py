"""Explanations of candidate moves in words, for :mod:`ttr_lab.analysis.advisor`.

An :class:`Explainer` reads one seat's view (never more) and says, for a move:

* a **claim**: which tickets it advances along which path (the routes of the
  cheapest ticket network, the Steiner forest, whose removal disconnects
  them), or that it is for the route's points; whom it may **block** (the
  share of guessed ticket hands, determinized from the view, in which the
  route is in that opponent's own cheapest network); why **these cards**
  (wilds spent, and whether the rest of the network would have used them);
  and what the network still lacks **after** the claim;
* a **face-up or blind draw**: the cards the plan still lacks, and the
  chance that a blind card is useful (the unseen cards of that pile that
  reduce what it lacks, wilds included, over all its unseen cards);
* **tickets**: how many are done and how many pieces remain; for a keep, the
  cars the network of the kept tickets costs.

What the network *lacks* is the card allocation of
:func:`~ttr_lab.analysis.card_plans.plan_cards` (the one the closed-form odds
read): the hand allocated to the new routes of the cheapest network of the
tickets that can still be completed, and each route's cards still missing,
named by what covers them: a colour (``"3 blue"``), ship spaces of a colour
in Rails & Sails (a double-ship card covers two), a gray route's colour
(the one the hand already pays it in, else "one colour"), a paired route's
pairs, a ferry's wilds.  After a claim, it is the same computation on the
position the claim leaves: the route owned, the other route of a double
closed to the seat (rule A4), the cards paid gone from the hand.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import networkx as nx

from ...engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move
from ...errors import TtrError
from ...maps.graphs import board_graph
from ..card_plans import CardPlan, plan_cards
from ..hidden.determinize import iter_states
from ..network import next_claims, route_access, ticket_network, ticket_paths
from ..odds.model import unseen_cards
from ..steiner.forest import steiner_forest

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.rules import Edition
    from ...engine.view import PlayerView

__all__ = ["Explainer", "network_plan", "lacking"]

#: what a plan lacks: (kind, colour, gray) -> cards (ship spaces for ships);
#: kind is "train", "ship", "paired" or "wild" (a ferry's locomotive spaces)
Lack = Counter[tuple[str, "str | None", bool]]


def _cards(cards: Any) -> str:
    return " + ".join(f"{k} {n}" for n, k in cards) or "nothing"


def network_plan(
    view: PlayerView, *, claim: ClaimRoute | None = None, hand: Mapping[str, int] | None = None
) -> CardPlan | None:
    """The card plan of the cheapest network joining the view's tickets that
    can still be completed (``hand``, default the view's, allocated to its
    new routes); with ``claim``: of the position the claim leaves (the route
    owned, the other route of its double closed, its cards paid).  None
    when no ticket is left to join.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> network_plan(g.view(0)).needed
    22
    """
    me = view.player
    owned, blocked = route_access(view, me)
    hand = dict(view.hand if hand is None else hand)
    if claim is not None:
        r = view.map.route(claim.route)
        owned = owned | {r.id}
        blocked = blocked - {r.id}
        if r.double_of is not None:
            blocked = blocked | {r.double_of}
        for name, k in claim.cards:
            hand[name] = hand.get(name, 0) - k
        hand = {n: k for n, k in hand.items() if k > 0}
    G = board_graph(view.map)
    alive = [t.cities for t in view.tickets if steiner_forest(G, [t.cities], owned=owned, blocked=blocked) is not None]
    if not alive:
        return None
    f = steiner_forest(G, alive, owned=owned, blocked=blocked)
    if f is None:  # pragma: no cover - each ticket alone can be completed, so all can
        return None
    return plan_cards(view.edition, hand, cast("tuple[int, ...]", f.new_routes))


def lacking(edition: Edition, plan: CardPlan | None) -> Lack:
    """What ``plan`` still lacks (see the module doc), by (kind, colour, gray)."""
    out: Lack = Counter()
    if plan is None:
        return out
    wild = {edition.card_types[i].name for i in edition.wild_cards}
    for rc in plan.routes:
        if not rc.missing:
            continue
        r = edition.map.route(rc.route)
        wilds_in = sum(k for n, k in rc.from_hand if n in wild)
        locos = max(0, rc.wilds_required - wilds_in)
        rest = rc.missing - locos
        if locos:
            out["wild", None, False] += locos
        if rest:
            if rc.kind == "paired":
                out["paired", None, False] += rest
            else:
                out["ship" if r.is_ship else "train", rc.color, r.color == "gray"] += rest
    return out


def lack_text(edition: Edition, lack: Lack) -> str:
    """``"5 blue, 3 red"``: what a plan lacks in words (see :func:`lacking`);
    where the edition has ship cards, ``"2 pink trains, red ships for 3 spaces"``."""
    wild = edition.card_types[edition.wild_cards[0]].name
    ships = any(ct.kind == "ship" for ct in edition.card_types)
    parts = []
    for (kind, colour, gray), k in sorted(lack.items(), key=lambda x: (x[0][0], x[0][2], str(x[0][1]))):
        if kind == "wild":
            parts.append(f"{k} {wild} for a ferry")
            continue
        if kind == "paired":
            parts.append(f"{k} train cards in pairs for a paired route")
            continue
        what = colour if colour is not None else "one colour"
        if kind == "ship":
            text = f"{what} ships for {k} space{'s' if k != 1 else ''}"
        elif ships:
            text = f"{k} {what} train{'s' if k != 1 else ''}" if colour else f"{k} trains of one colour"
        else:
            text = f"{k} {what}" if colour else f"{k} cards of one colour"
        parts.append(text + (" for a gray route" if gray else ""))
    return ", ".join(parts)


def _serves(edition: Edition, name: str, lack: Lack) -> bool:
    """Whether a card of ``name`` reduces what ``lack`` lacks."""
    ct = edition.card_types[edition.card_index[name]]
    if ct.wild:
        return bool(lack)
    kind = "ship" if ct.kind == "ship" else "train"
    for k, colour, gray in lack:
        if k == kind and (colour == ct.color or (gray and colour is None)):
            return True
        if k == "paired" and kind == "train":
            return True
    return False


class Explainer:
    """Explains moves from ``view``'s seat; ``guesses`` determinized states
    (seeded) estimate the opponents' networks for "what it blocks"."""

    def __init__(self, view: PlayerView, *, guesses: int = 6, seed: int = 0) -> None:
        self.view = view
        self.me = view.player
        self.names = view.player_names
        m = view.map
        self.edition = view.edition
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
        self.plan = network_plan(view) if view.tickets else None
        #: what the cheapest network of the tickets still lacks now (see :func:`lacking`)
        self.lacking = lacking(ed, self.plan)
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

    def _lacking_text(self, lack: Lack | None = None) -> str:
        lack = self.lacking if lack is None else lack
        if not lack:
            return "the hand already holds the cards the ticket network needs"
        return "the ticket network still lacks " + lack_text(self.edition, lack)

    def _useful_share(self, pile: str | None) -> float:
        """The share of the unseen cards of ``pile`` (None: every pile) that reduce what the network lacks."""
        ed = self.edition
        unseen = unseen_cards(self.view)
        if pile is not None and pile in ed.pile_names:
            k = ed.pile_names.index(pile)
            unseen = Counter({n: c for n, c in unseen.items() if ed.card_types[ed.card_index[n]].pile == k})
        total = sum(unseen.values())
        useful = sum(c for n, c in unseen.items() if _serves(ed, n, self.lacking))
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
            if card is not None and _serves(self.edition, card, self.lacking):
                return f"Take the face-up {card}: {self._lacking_text()}."
            return f"Take the face-up {card}: not a card the ticket network lacks ({self._lacking_text()})."
        if isinstance(move, DrawBlind):
            share = self._useful_share(move.pile)
            return (
                f"Draw blind: {self._lacking_text()}; {100 * share:.0f}% of the unseen cards "
                f"{'of that pile ' if move.pile is not None else ''}are one of those or a wild."
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
        ed = self.edition
        r = view.map.route(move.route)
        pts = ed.route_points.get(r.length, 0)
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
        why = f"{wild} wild{'s' if wild != 1 else ''}" if wild else "no wild"
        if not view.tickets:
            parts.append(f"These cards spend {why}.")
            return " ".join(parts)
        after = network_plan(view, claim=move)  # the position the claim leaves
        lack_after = lacking(ed, after)
        # the same routes with the cards still in hand: what the payment takes from the rest of the network
        kept = plan_cards(ed, view.hand, [x.route for x in after.routes]) if after is not None else None
        taken = lack_after - lacking(ed, kept) if kept is not None and after is not None else Counter()
        if taken and after is not None and kept is not None and after.missing > kept.missing:
            parts.append(
                f"These cards spend {why}, though the rest of the network would have used "
                f"{lack_text(ed, taken)} of them."
            )
        else:
            parts.append(f"These cards spend {why} and none the rest of the network needs.")
        if after is None or not after.routes:
            parts.append("After it, every ticket that can still be completed is connected.")
        else:
            parts.append(f"After it, {self._lacking_text(lack_after)}.")
        return " ".join(parts)
