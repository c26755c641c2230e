"""Exact ticket networks: the cheapest set of routes joining a player's tickets.

=============  ====================================================================
``forest``     :func:`steiner_forest` and the exact Steiner trees
``instance``   the reduced instance the search works on
``search``     the exact searches (``partitions``: the forest's subset programme)
=============  ====================================================================
"""

from .forest import SteinerForest, UnknownCityError, exact_steiner_edges, steiner_forest

__all__ = ["SteinerForest", "UnknownCityError", "steiner_forest", "exact_steiner_edges"]
