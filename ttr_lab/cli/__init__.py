"""The command line: ``ttr-lab`` and ``python -m ttr_lab`` (``commands``; ``analysis``: review, odds)."""

from .commands import main, read_game_file

__all__ = ["main", "read_game_file"]
