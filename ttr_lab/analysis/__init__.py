"""Graph analysis for lessons and game analysis (networkx only, except
:mod:`ttr_lab.analysis.position`, which reads a game position).

>>> from ttr_lab.analysis import longest_trail_edges
>>> longest_trail_edges([(1, "A", "B", 2), (2, "B", "C", 3)])[0]
5
"""

from .paths import TicketPath, distance_table, shortest_ticket_path, ticket_graph
from .steiner import SteinerForest, UnknownCityError, steiner_forest
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
]
