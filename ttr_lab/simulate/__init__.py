"""Simulation at scale: many seeded bot games on any executor, tournaments, map analytics.

Needs the ``[sim]`` extra (pandas, tqdm, dask[distributed]); the core
library does not import this package.

* :func:`run_games` / :func:`iter_games` / :func:`run_detailed` — seeded
  games in process, on a ``ProcessPoolExecutor`` or on a Dask cluster, the
  same rows whichever runs them (:mod:`~ttr_lab.simulate.runner`);
* :func:`tournament` — seats rotated, win rates with Wilson intervals,
  margins, Bradley–Terry ratings (:mod:`~ttr_lab.simulate.tournaments`);
* :mod:`~ttr_lab.simulate.analytics` — routes claimed and when, city
  desirability, hardest tickets, board structure against play, consistency
  across player counts; :mod:`~ttr_lab.simulate.heatmaps` draws them on the board;
* :mod:`~ttr_lab.simulate.stats` — the statistics, in the standard library.

Examples
--------
>>> from ttr_lab.simulate import run_games
>>> df = run_games("europe", ["route_focus", "long_route"], games=2, seed=0, progress=False)
>>> sorted(df["agent"].unique())
['long_route', 'route_focus']
"""

from ..io.extras import require

require("sim", "ttr_lab.simulate", "pandas")  # a clear error naming the extra, not "No module named 'pandas'"

from .games import GAME_COLUMNS, GameSpec, game_seed, play_batch, play_one  # noqa: E402
from .runner import Results, iter_games, run_detailed, run_games  # noqa: E402
from .tournaments import Tournament, format_table, schedule, summarise, tournament  # noqa: E402

__all__ = [
    "GAME_COLUMNS",
    "GameSpec",
    "game_seed",
    "play_one",
    "play_batch",
    "Results",
    "run_games",
    "iter_games",
    "run_detailed",
    "Tournament",
    "tournament",
    "schedule",
    "summarise",
    "format_table",
]
