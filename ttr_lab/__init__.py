"""ttr_lab: an unofficial Jupyter-first kit for Ticket to Ride."""
