"""The advisor's recalibration: from the playouts' raw win share of the
viewing seat to a calibrated chance (:func:`calibrate`).

Why: the playouts of determinized states overrate the viewing seat, because
the guessed opponents, even weighted by their play
(:mod:`~ttr_lab.analysis.hidden.ticket_likelihood`), fit their boards worse than
the real ones (``benchmarks/bench_calibration.py bias``).  The map is a
logistic regression (Platt scaling) of who won on the logit of the smoothed
share, the logit of ``1 / players`` and how far the game has gone (the
fraction of pieces left to the seat with the fewest, :func:`pieces_left`),
fitted by maximum likelihood on positions of USA bot games
(``benchmarks/bench_calibration.py fit``) and checked on positions of other
games (``... report``; the figures are in ``benchmarks/README.md``).

>>> round(calibrate(0.5, 40, 2, 0.5), 2) < 0.6
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...view import PlayerView

__all__ = ["CALIBRATION", "calibrate", "features", "pieces_left"]

#: the recalibration of the seat's win chance, ``logit(p') = a * logit(p~) +
#: b * logit(1 / players) + e * left + c`` for ``CALIBRATION = (a, b, e, c)``
#: (see :func:`calibrate`, :func:`features`), fitted by
#: ``benchmarks/bench_calibration.py fit`` on 4,000 positions (446 games) of
#: USA bot games of 2-4 players, ``collect --games-seed S --positions 1000
#: --playouts 24`` for S = 9000, 10000, 13000, 14000 (the raw lines are in
#: ``benchmarks/results/calibration/fit-*.jsonl``; the figures in
#: benchmarks/README.md are on other games); refitted 2026-12-07 for the
#: guessed states of the thinned chain (:mod:`~ttr_lab.analysis.hidden.ticket_chain`)
CALIBRATION = (0.9020, 0.2516, 0.4831, -0.9060)


def _smoothed(p: float, n: int, players: int) -> float:
    """The win share ``p`` of ``n`` playouts with one more playout's worth of
    the prior ``1 / players`` (never 0 or 1)."""
    return (p * n + 1.0 / players) / (n + 1.0)


def pieces_left(view: PlayerView) -> float:
    """How far the game has gone, as the fraction of the starting pieces
    left to the seat with the fewest (1 at the start; the last round comes
    near 0), clipped to [0, 1]; 1 while no seat has pieces yet (Rails &
    Sails before the pieces are chosen).

    >>> import ttr_lab
    >>> pieces_left(ttr_lab.new_game("usa", players=2, seed=1).view(0))
    1.0
    """
    start, pieces = view.edition.pieces, view.pieces
    return min(1.0, max(0.0, min(pieces) / start)) if start and any(pieces) else 1.0


def features(p: float, n: int, players: int, left: float) -> tuple[float, float, float, float]:
    """The regressors of :data:`CALIBRATION`: ``(logit(p~), logit(1 /
    players), left, 1)``, where ``p~`` is the smoothed share
    (:func:`_smoothed`) and ``left`` is :func:`pieces_left`.

    >>> [round(x, 3) for x in features(0.5, 24, 2, 1.0)]
    [0.0, 0.0, 1.0, 1.0]
    """
    q = _smoothed(p, n, players)
    return (math.log(q / (1 - q)), math.log(1 / (players - 1)), left, 1.0)


def calibrate(p: float, n: int, players: int, left: float) -> float:
    """The seat's win chance after recalibration: the Monte Carlo share ``p``
    of ``n`` playouts, smoothed (:func:`_smoothed`), through the logistic map
    :data:`CALIBRATION` fitted on bot games, at the game's progress ``left``
    (:func:`pieces_left`, in [0, 1]).  The playouts of guessed states
    overrate the viewing seat (the guessed opponents, however weighted, fit
    their boards worse than the real ones: ``benchmarks/bench_calibration.py
    bias``), the more so as the boards fill (hence ``left``); the map
    corrects that on average.  Monotone in ``p`` (``a > 0``), so it never
    changes the order of moves.

    >>> 0 < calibrate(1.0, 10, 2, 0.5) < 1 and calibrate(0.2, 10, 2, 0.5) < calibrate(0.8, 10, 2, 0.5)
    True
    """
    z = sum(w * x for w, x in zip(CALIBRATION, features(p, n, players, left)))
    return 1 / (1 + math.exp(-z))


def _rescale(chances: tuple[float, ...], me: int, mine: float) -> tuple[float, ...]:
    """``chances`` with the seat's own set to ``mine`` and the others scaled to sum to 1."""
    rest = 1 - chances[me]
    n = len(chances)
    return tuple(
        mine if q == me else ((1 - mine) * w / rest if rest > 1e-12 else (1 - mine) / (n - 1))
        for q, w in enumerate(chances)
    )
