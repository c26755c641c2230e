"""Graph analysis for lessons and game analysis.

Free functions on networkx graphs (``paths``, ``steiner/``, ``trees``,
``trails``), and analyses of a game position read through its public API
(a state, or one player's view):

=================  ==============================================================
``network``        ticket paths, the cheapest network (Steiner forest; the tree
                   for contrast), the next claims
``card_plans``     the cards and turns a ticket or a network still needs, given the hand
``hidden/``        complete states consistent with what one seat knows (``determinize``),
                   and what it knows of the others' tickets
``odds/``          each ticket's chance of completion: simulated, and a closed form
``advisor/``       win chances and ranked, explained moves from one seat's view
``ismcts_search``  the same answer by information-set MCTS (``ismcts``; an
                   experiment: weaker than the advisor, see its module doc)
``game_review``    every player's win chance after every ply; flagged moves (``review``)
=================  ==============================================================

>>> from ttr_lab.analysis import longest_trail_edges
>>> longest_trail_edges([(1, "A", "B", 2), (2, "B", "C", 3)])[0]
5
"""

from ..bots.kernel import kernel_info
from .advisor.ranking import Advice, AdvisorBot, MoveAdvice, advise, candidate_moves
from .card_plans import CardPlan, RouteCards, network_cards, plan_cards, ticket_cards
from .game_review import THRESHOLDS, review, review_figure
from .hidden.determinize import Knowledge, iter_states, sample_states
from .hidden.ticket_knowledge import ticket_weight
from .ismcts_search import ISMCTSBot, ismcts
from .network import NextClaim, cards_needed, next_claims, route_access, ticket_network, ticket_paths
from .odds.tickets import (
    QuickModel,
    QuickOdds,
    TicketOdds,
    quick_odds,
    quick_probability,
    simulate_quick_model,
    ticket_odds,
)
from .paths import TicketPath, distance_table, shortest_ticket_path, ticket_graph
from .steiner.forest import SteinerForest, UnknownCityError, steiner_forest
from .trails import cut_routes, euler_trail_exists, longest_trail, longest_trail_edges, odd_degree_cities
from .trees import SteinerTree, minimum_spanning_routes, steiner_tree

__all__ = [
    "TicketPath",
    "distance_table",
    "shortest_ticket_path",
    "ticket_graph",
    "cut_routes",
    "euler_trail_exists",
    "longest_trail",
    "longest_trail_edges",
    "odd_degree_cities",
    "SteinerTree",
    "minimum_spanning_routes",
    "steiner_tree",
    "SteinerForest",
    "UnknownCityError",
    "steiner_forest",
    "route_access",
    "ticket_paths",
    "ticket_network",
    "cards_needed",
    "NextClaim",
    "next_claims",
    "RouteCards",
    "CardPlan",
    "plan_cards",
    "ticket_cards",
    "network_cards",
    "Knowledge",
    "sample_states",
    "iter_states",
    "ticket_weight",
    "TicketOdds",
    "QuickModel",
    "QuickOdds",
    "ticket_odds",
    "quick_odds",
    "quick_probability",
    "simulate_quick_model",
    "Advice",
    "MoveAdvice",
    "AdvisorBot",
    "advise",
    "candidate_moves",
    "ISMCTSBot",
    "ismcts",
    "THRESHOLDS",
    "review",
    "review_figure",
    "kernel_info",
]
