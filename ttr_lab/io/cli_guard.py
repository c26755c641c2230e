"""Ctrl-C while the command line starts: one line and exit status 130, not a traceback.

``python -m ttr_lab ...`` and the ``ttr-lab`` console script import the
whole package (about a third of a second: networkx, the editions, the
analysis) before :func:`ttr_lab.cli.main` can catch anything.  A Ctrl-C in
that time used to end in a Python traceback.  So the package imports this
module first, and importing it calls :func:`arm`: *only when this process is the command line*
(``-m ttr_lab`` in :data:`sys.orig_argv`, or a program named ``ttr-lab``),
it installs a SIGINT handler that writes ``error: interrupted`` to standard
error and exits at once with 130 (nothing has been written yet: the commands
start after the imports).  :func:`release`, called by ``main`` as it starts,
gives SIGINT back to Python's own handler, so from then on Ctrl-C raises
:class:`KeyboardInterrupt` and ``main`` cleans up (temporary files removed)
before it prints the same line; ``main`` arms the guard again as it returns,
for the interpreter's exit.  Only the interpreter's own start-up, before the
first line of ttr_lab runs, is beyond reach (a few hundredths of a second).

Importing ttr_lab anywhere else (a notebook, a test, another program) changes
nothing: the guard is installed for the command line only.  This module uses
the standard library only, so it is cheap to import first.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType

__all__ = ["INTERRUPTED", "arm", "is_command_line", "release"]

#: the exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED = 128 + int(signal.SIGINT)


def is_command_line(argv: list[str] | None = None, orig_argv: list[str] | None = None) -> bool:
    """Whether this process is ttr_lab's command line.

    >>> is_command_line(["/usr/bin/ttr-lab", "editions"], ["python", "/usr/bin/ttr-lab", "editions"])
    True
    >>> is_command_line(["-m"], ["python3", "-X", "utf8", "-m", "ttr_lab", "play"])
    True
    >>> is_command_line(["-m"], ["python3", "-m", "ttr_lab.widgets.app"])
    False
    >>> is_command_line(["ipykernel_launcher.py"], ["python", "-m", "ipykernel_launcher"])
    False
    """
    argv = sys.argv if argv is None else argv
    orig: list[str] = list(getattr(sys, "orig_argv", ()) if orig_argv is None else orig_argv)
    if argv and os.path.basename(argv[0]).lower().removesuffix(".exe") in ("ttr-lab", "ttr-lab-script.py"):
        return True
    args: Iterator[str] = iter(orig[1:])
    for arg in args:
        if arg == "-m":
            return next(args, None) == "ttr_lab"
        if arg.startswith("-m"):
            return arg == "-mttr_lab"
        if arg in ("-X", "-W", "--check-hash-based-pycs"):
            next(args, None)  # the option's value
        elif arg == "-c" or arg == "-" or not arg.startswith("-"):
            return False  # a script or -c code runs, not a module
    return False


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """SIGINT during start-up: one line, exit 130 (nothing to clean up yet)."""
    try:
        os.write(2, b"error: interrupted\n")
    except OSError:  # no standard error
        pass
    os._exit(INTERRUPTED)


def arm() -> None:
    """Install the quiet SIGINT handler, if this process is the command line."""
    if not is_command_line():
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted)
    except ValueError:  # pragma: no cover - imported outside the main thread
        pass


def release() -> None:
    """Give SIGINT back to Python (a :class:`KeyboardInterrupt`), if the guard holds it."""
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # pragma: no cover - not the main thread
        pass


arm()
