"""The compiled playout kernel: the same playouts, about fifty times faster.

A playout (play a position to the end under the playout policy,
:mod:`ttr_lab.bots.playout`, and score it) is what every analysis repeats:
:func:`~ttr_lab.analysis.advise`, :func:`~ttr_lab.analysis.review`,
:func:`~ttr_lab.analysis.ticket_odds`, the advisor bot.  The kernel is a
second implementation of the rules and of the policy in C (the standard
CPython C API, no binding tool: the interface is two calls taking int
arrays), built by setuptools as an optional extension when a C compiler is
present.  It is refereed by the Python engine, never trusted:

* **the same games**: given the same position and seed, the kernel and the
  Python policy make the same moves and reach the same outcome (the policy
  draws from :class:`~ttr_lab.bots.kernel.rng.SplitMix64`, implemented in both;
  the engine's shuffles are Python's ``random.Random``, which the kernel
  reproduces); ``tests/test_kernel_referee.py`` compares thousands of
  seeded playouts per edition and replays every kernel move through
  :meth:`~ttr_lab.engine.state.GameState.why_illegal`;
* **validated input**: the kernel reads an edition and a position only as
  int32 arrays (:mod:`ttr_lab.bots.kernel.convert` documents them), checked in C
  before any work; a malformed one is a :class:`~ttr_lab.errors.TtrError`;
* **no global mutable state**: each playout has its own memory, and the
  interpreter lock is released while it plays.

Coverage: the USA family (USA, 1910, Mega Game, Big Cities), Europe
(tunnels, ferries, stations, long tickets) and Rails & Sails (World and
Great Lakes: train and ship piles, paired routes, double ships, the piece
split and exchanges, harbors, tours in each tour_order).  Any other edition
(a plug-in's, a subclass) plays in Python.  Without the
extension (no compiler, Pyodide) or with ``TTR_LAB_KERNEL=0`` in the
environment, every playout runs in Python with identical results;
:func:`kernel_info` (also ``ttr_lab.analysis.kernel_info``) says which.

>>> info = kernel_info()
>>> info.enabled in (True, False)
True
"""

from __future__ import annotations

from .rng import SplitMix64
from .run import ENV, REQUIRE_ENV, Finish, KernelInfo, finish_of, kernel_info, kernel_playout

__all__ = ["kernel_info", "KernelInfo", "Finish", "finish_of", "kernel_playout", "SplitMix64", "ENV", "REQUIRE_ENV"]
