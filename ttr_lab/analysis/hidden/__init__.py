"""Hidden information: complete states consistent with what one seat knows.

====================  ========================================================
``determinize``       :func:`sample_states`, :func:`iter_states`, :class:`Knowledge`
``ticket_knowledge``  what the seat knows about the others' tickets
``ticket_likelihood``  how likely each ticket is, given the claims seen
====================  ========================================================
"""

from .determinize import Knowledge, iter_states, sample_states
from .ticket_knowledge import ClaimLikelihood, Retry, TicketDeal, TicketTracker, ticket_weight

__all__ = [
    "sample_states",
    "iter_states",
    "Knowledge",
    "TicketDeal",
    "TicketTracker",
    "ClaimLikelihood",
    "ticket_weight",
    "Retry",
]
