"""The advisor's recalibration: from the playouts' raw win share of the
viewing seat to a calibrated chance (:func:`calibrate`).

Why: the playouts of determinized states overrate the viewing seat, because
the guessed opponents, even weighted by their play
(:mod:`~ttr_lab.analysis.ticket_likelihood`), fit their boards worse than
the real ones (``benchmarks/bench_calibration.py bias``).  The map is a
logistic regression (Platt scaling) of who won on the logit of the smoothed
share and the logit of ``1 / players``, fitted by maximum likelihood on
positions of USA bot games (``benchmarks/bench_calibration.py fit``) and
checked on positions of other games (``... report``; the figures are in
``benchmarks/README.md``).

>>> round(calibrate(0.5, 40, 2), 2) < 0.6
True
"""

from __future__ import annotations

import math

__all__ = ["CALIBRATION", "calibrate"]

#: the recalibration of the seat's win chance, ``logit(p') = a * logit(p~) +
#: b * logit(1 / players) + c`` (see :func:`calibrate`), fitted by
#: ``benchmarks/bench_calibration.py fit`` on 339 positions of USA bot games of
#: 2-4 players (``collect --games-seed 9000 --playouts 24``; the figures in
#: benchmarks/README.md are on other games)
CALIBRATION = (1.0807, 0.1796, -0.9290)


def _smoothed(p: float, n: int, players: int) -> float:
    """The win share ``p`` of ``n`` playouts with one more playout's worth of
    the prior ``1 / players`` (never 0 or 1)."""
    return (p * n + 1.0 / players) / (n + 1.0)


def calibrate(p: float, n: int, players: int) -> float:
    """The seat's win chance after recalibration: the Monte Carlo share ``p``
    of ``n`` playouts, smoothed (:func:`_smoothed`), through the logistic map
    :data:`CALIBRATION` fitted on bot games.  The playouts of guessed states
    overrate the viewing seat (the guessed opponents, however weighted, fit
    their boards worse than the real ones: ``benchmarks/bench_calibration.py
    bias``); the map corrects that on average.  Monotone in ``p``, so it
    never changes the order of moves.

    >>> 0 < calibrate(1.0, 10, 2) < 1 and calibrate(0.2, 10, 2) < calibrate(0.8, 10, 2)
    True
    """
    a, b, c = CALIBRATION
    q = _smoothed(p, n, players)
    z = a * math.log(q / (1 - q)) + b * math.log(1 / (players - 1)) + c
    return 1 / (1 + math.exp(-z))


def _rescale(chances: tuple[float, ...], me: int, mine: float) -> tuple[float, ...]:
    """``chances`` with the seat's own set to ``mine`` and the others scaled to sum to 1."""
    rest = 1 - chances[me]
    n = len(chances)
    return tuple(
        mine if q == me else ((1 - mine) * w / rest if rest > 1e-12 else (1 - mine) / (n - 1))
        for q, w in enumerate(chances)
    )
