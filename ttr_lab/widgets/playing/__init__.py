"""The play widget (:class:`PlayWidget`, :func:`play`), one concern per module.

===========  ===================================================================
``widget``   :class:`PlayWidget`: a whole game in Jupyter against bots or hot-seat
``layout``   which widgets, where, and the page's CSS
``moves``    clicks, card buttons and the edition's controls become moves; undo, redo
``panels``   the status line, the hand, tickets and scores, the decision boxes
``seats``    hot-seat and hidden information: who is at the screen
``tickets``  the viewer's ticket paths, and the offer to choose from
``tabs``     Log, Legal moves, Score breakdown and the opt-in Advisor
``bots``     opponents by names a player understands
===========  ===================================================================
"""

from .widget import ADVISOR_PLAYOUTS, BOT_NAMES, PlayWidget, play

__all__ = ["PlayWidget", "play", "BOT_NAMES", "ADVISOR_PLAYOUTS"]
