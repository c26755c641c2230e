"""Each ticket's chance of completion: simulated (``tickets``) and a closed form (``model``)."""

from .model import unseen_cards
from .tickets import (
    COEF,
    LAM,
    RATE,
    QuickInputs,
    QuickModel,
    QuickOdds,
    TicketOdds,
    calibrated_probability,
    features,
    quick_inputs,
    quick_odds,
    quick_probability,
    simulate_quick_model,
    ticket_odds,
    turns_left,
    wilson,
)

__all__ = [
    "COEF",
    "LAM",
    "RATE",
    "QuickInputs",
    "calibrated_probability",
    "features",
    "quick_inputs",
    "TicketOdds",
    "QuickModel",
    "QuickOdds",
    "ticket_odds",
    "quick_odds",
    "quick_probability",
    "simulate_quick_model",
    "turns_left",
    "wilson",
    "unseen_cards",
]
