"""The advisor: win chances and ranked, explained moves from one seat's view.

===============  ================================================================
``ranking``      :func:`advise`, :func:`evaluate_moves`, :class:`AdvisorBot`
``candidates``   the moves worth searching
``explain``      why a move is good, in words
``calibration``  the playouts' win chances, calibrated (:func:`calibrate`)
``values``       the value objects: :class:`Advice`, :class:`MoveAdvice`
===============  ================================================================
"""

from .ranking import Advice, AdvisorBot, MoveAdvice, advise, calibrate, candidate_moves, evaluate_moves, rank

__all__ = ["Advice", "MoveAdvice", "AdvisorBot", "advise", "calibrate", "candidate_moves", "evaluate_moves", "rank"]
