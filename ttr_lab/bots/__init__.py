"""Bots to play against; each sees only its seat's :class:`~ttr_lab.engine.view.PlayerView`.

==============  ==================================================================
``simple``      :class:`RandomBot`, :class:`GreedyBot`, the registry :data:`BOTS`,
                :func:`make_bot`, :func:`play_game`
``fdg``         the four playing styles of the FDG 2017 paper (``fdg_base``: their planning)
``playout``     :class:`~ttr_lab.bots.playout.PlayoutBot`, the fast Monte Carlo playout policy
                (``plan``, ``tables``, ``tickets``)
``kernel``      the compiled playout kernel (C, optional) and its Python fallback
==============  ==================================================================
"""

from .simple import BOTS, Bot, BotFactory, GreedyBot, RandomBot, make_bot, parse_bot_spec, play_game

__all__ = ["Bot", "BotFactory", "RandomBot", "GreedyBot", "make_bot", "parse_bot_spec", "BOTS", "play_game"]
